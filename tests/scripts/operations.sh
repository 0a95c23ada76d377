#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# operations.sh BUILDDIR SRCDIR — what an admin does with the installed
# programs, through their command lines:
#
#   - the command lines: the global options (-c/--config, --db, --maps,
#     -h/--help, --version) before or after the command in judgectl and
#     judged, options before or after judged's mode (`judged --no-send
#     deliver`), a mode's option with another mode refused, unknown
#     options and missing values (exit 2 for judgectl, 64 for judged);
#   - the state folder: the default database in it; every command but
#     init and create, on a missing database, says where it looked and how
#     to make one and makes nothing; judge.conf's relative paths from its
#     own folder (database, Maildir, state_dir);
#   - a database the user cannot use (as nobody, with setpriv): exit 78
#     from judgectl and judged deliver, the file, owner, mode, user and
#     reason named; a folder that is not writable named;
#   - backup (private, refuses to overwrite, whole while judged writes), a
#     newer schema refused naming both versions (the upgrade's copy is
#     tests/unit/test_store's);
#   - status: WARNING before any tick, OK, WARNING and CRITICAL by the
#     tick's age, thresholds from judge.conf, an overdue game named,
#     CRITICAL on no database, --json; --json on list, show, orders and
#     outbox;
#   - judged config: judge.conf syntax that reads back to the same text,
#     passwords hidden unless --show-secrets; fixed choices listed in
#     errors; --syslog with no syslog socket; SIGHUP re-reading judge.conf
#     (and keeping the old one when the new one is bad); TZDIR;
#   - no path of the build tree in the installed programs (strings).
#
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
cd "$T" || exit 2
export DIPJUDGE_MAPDIR=$S/maps
unset DIPJUDGE_CONF DIPJUDGE_DB
JD=$JUDGED
J=$JUDGECTL

# expect_rc WANT WHAT COMMAND...: the exit status; output in $T/out, $T/err
expect_rc()
{
    local want=$1 what=$2
    shift 2
    "$@" >"$T/out" 2>"$T/err" </dev/null
    local rc=$?
    ((rc == want)) && ok || bad "$what: exit $rc, wanted $want: $(head -c 300 "$T/err")"
}
# in FILE TEXT WHAT: FILE contains TEXT
in_file() { grep -qF -- "$2" "$1" && ok || bad "$3: no '$2' in: $(head -c 300 "$1")"; }

# ---- command lines: judgectl ---------------------------------------------------
expect_rc 0 "judgectl --version" "$J" --version
in_file "$T/out" "judgectl (dipjudge)" "judgectl --version"
expect_rc 0 "judgectl -h" "$J" -h
in_file "$T/out" "global options" "judgectl -h"
expect_rc 0 "judgectl list --help" "$J" list --help
in_file "$T/out" "usage: judgectl list" "judgectl list --help"
expect_rc 0 "judgectl show -h" "$J" show -h
in_file "$T/out" "usage: judgectl show GAME" "judgectl show -h"
expect_rc 0 "judgectl check --version" "$J" check --version
in_file "$T/out" "judgectl (dipjudge)" "judgectl check --version"

"$J" --db "$T/a.db" create before --master gm@example.org >/dev/null 2>&1
"$J" create after --master gm@example.org --db "$T/b.db" >/dev/null 2>&1
"$J" create equals --db="$T/c.db" >/dev/null 2>&1
[[ -f $T/a.db && -f $T/b.db && -f $T/c.db && ! -f $T/dipjudge.db ]] && ok ||
    bad "--db before the command, after it, and --db=FILE: $(ls "$T")"
expect_rc 0 "list --db after" "$J" list --db "$T/b.db"
in_file "$T/out" "after" "--db after the command"
expect_rc 0 "show --db before" "$J" --db "$T/a.db" show before
in_file "$T/out" "before" "--db before the command"

printf 'judge_name = "from-conf"\n' >"$T/named.conf"
expect_rc 0 "-c after the command" "$J" show before --db "$T/a.db" -c "$T/named.conf"
expect_rc 1 "--config missing, before" "$J" --config "$T/nothere.conf" list
in_file "$T/err" "nothere.conf" "a missing --config names the file"
expect_rc 1 "-c missing, after" "$J" list -c "$T/nothere.conf"
in_file "$T/err" "nothere.conf" "a missing -c names the file"

expect_rc 2 "unknown option" "$J" list --frobnicate
in_file "$T/err" "unknown option '--frobnicate'" "unknown option named"
expect_rc 2 "unknown global option" "$J" --frobnicate list
in_file "$T/err" "--frobnicate" "unknown global option named"
expect_rc 2 "value missing" "$J" list --db
in_file "$T/err" "a value is needed after" "value missing"
expect_rc 2 "unknown command" "$J" fly
in_file "$T/err" "unknown command 'fly'" "unknown command named"
expect_rc 0 "--maps after maps" "$J" maps --maps "$S/maps"
in_file "$T/out" "standard" "maps --maps DIR"
expect_rc 0 "check with options after the files" "$J" check \
    "$S/tests/datc/6A.txt" --engine kruijswijk -v
in_file "$T/out" "passed, 0 failed" "check FILE --engine NAME -v"

# ---- command lines: judgeweb (the same -c/--config and -h/--help) ----------------
expect_rc 0 "judgeweb -h" "$B/judgeweb" -h
in_file "$T/out" "--config" "judgeweb -h shows the options"
printf 'web: { listen = ;\n' >"$T/web-c.conf"
expect_rc 78 "judgeweb -c FILE reads FILE (a bad one: 78)" "$B/judgeweb" -c "$T/web-c.conf"
in_file "$T/err" "web-c.conf" "judgeweb -c FILE names FILE in its error"

# ---- command lines: judged -------------------------------------------------------
expect_rc 0 "judged --version" "$JD" --version
in_file "$T/out" "judged (dipjudge)" "judged --version"
expect_rc 0 "judged -h" "$JD" -h
in_file "$T/out" "deliver" "judged -h lists the modes"
expect_rc 0 "judged config --help" "$JD" config --help
expect_rc 64 "judged with no mode" "$JD"
expect_rc 64 "judged unknown mode" "$JD" fly
in_file "$T/err" "unknown mode 'fly'" "judged names the unknown mode"
expect_rc 64 "judged unknown option" "$JD" once --frobnicate
in_file "$T/err" "--frobnicate" "judged names the unknown option"
expect_rc 64 "judged -f with once" "$JD" -f x@example.org once
in_file "$T/err" "-f does not go with once" "judged -f misplaced"
# deliver: a bad command line in the MTA's service defers (75), never bounces
expect_rc 75 "judged --no-tick with deliver" "$JD" deliver --no-tick
expect_rc 64 "judged two modes" "$JD" once run

msg()
{
    printf 'From: %s\nTo: judge@localhost\nSubject: hello\nMessage-ID: <%s@example.org>\n\nHELP\n' "$1" "$2"
}
mkdir -p "$T/dj" && cd "$T/dj" || exit 2
msg ann@example.org m1 | "$JD" --no-send --db "$T/dj/d.db" deliver -f ann@example.org \
    >"$T/out" 2>"$T/err"
rc=$?
((rc == 0)) && ok || bad "judged --no-send --db FILE deliver: exit $rc: $(cat "$T/err")"
[[ -f $T/dj/d.db ]] && ok || bad "judged --db before the mode: no database"
[[ -z $(ls "$T/dj/mail/out/new" 2>/dev/null) ]] && ok ||
    bad "judged --no-send deliver sent mail"
msg bob@example.org m2 | "$JD" deliver -f bob@example.org --db "$T/dj/d.db" \
    >"$T/out" 2>"$T/err"
rc=$?
((rc == 0)) && ok || bad "judged deliver -f X --db FILE: exit $rc: $(cat "$T/err")"
[[ $(ls "$T/dj/mail/out/new" 2>/dev/null | wc -l) -ge 1 ]] && ok ||
    bad "judged deliver with options after the mode sent no reply"
expect_rc 0 "judged -c FILE config" "$JD" -c "$T/named.conf" config
in_file "$T/out" "from-conf" "judged -c FILE before the mode"
expect_rc 0 "judged config --config FILE" "$JD" config --config "$T/named.conf"
in_file "$T/out" "from-conf" "judged --config FILE after the mode"
cd "$T" || exit 2

# ---- where the state lives: only writers make a database ----------------------------
mkdir -p "$T/st" && cd "$T/st" || exit 2
(
    unset DIPJUDGE_STATE_DIR
    expect_rc 1 "show on the default database (not installed here)" "$INSTALLED_JUDGECTL" show x
    in_file "$T/err" "lib/dipjudge/dipjudge.db" "the default database is in the state folder"
    echo "$passed $failed" >"$T/counts"
)
read -r passed failed <"$T/counts"
export DIPJUDGE_STATE_DIR=$T/st
for cmd in "list" "show alpha" "history alpha" "summary alpha" "export alpha" \
    "outbox" "status" "orders alpha France" "map alpha -o x.png" "tick" \
    "join alpha a@example.org" "backup b.db"; do
    # shellcheck disable=SC2086 # the command's words
    "$J" $cmd >"$T/out" 2>"$T/err" </dev/null
    rc=$?
    [[ $cmd == status ]] && want=2 || want=1
    ((rc == want)) && ok || bad "$cmd on no database: exit $rc, wanted $want"
    [[ ! -e $T/st/dipjudge.db ]] && ok || { bad "$cmd made a database"; rm -f "$T"/st/dipjudge.db*; }
    [[ $cmd == status ]] && continue
    in_file "$T/err" "no database at $T/st/dipjudge.db" "$cmd says where it looked"
    in_file "$T/err" "judgectl init" "$cmd says how to make one"
done
expect_rc 0 "judgectl init" "$J" init
in_file "$T/out" "$T/st/dipjudge.db ready" "init names the database"
[[ -f $T/st/dipjudge.db ]] && ok || bad "init made no database"
expect_rc 0 "judgectl init again" "$J" init
expect_rc 0 "list on the new database" "$J" list
in_file "$T/out" "no games" "list on an empty database"

# judge.conf's relative paths start at its own folder
mkdir -p "$T/etc" "$T/elsewhere"
printf 'database = "judge.db";\ninbound = { path = "in"; };\n' >"$T/etc/judge.conf"
(cd "$T/elsewhere" && "$J" -c ../etc/judge.conf init >"$T/out" 2>"$T/err")
[[ -f $T/etc/judge.db && ! -e $T/elsewhere/judge.db ]] && ok ||
    bad "a relative database in judge.conf is not beside it: $(cat "$T/err")"
(cd "$T/elsewhere" && "$JD" -c ../etc/judge.conf config >"$T/out" 2>"$T/err")
in_file "$T/out" "path = \"$(cd "$T/etc" && pwd -P)/in\";" "a relative Maildir in judge.conf is beside it"
printf 'state_dir = "state";\n' >"$T/etc/state.conf"
mkdir -p "$T/etc/state"
(cd / && env -u DIPJUDGE_STATE_DIR "$J" -c "$T/etc/state.conf" init >"$T/out" 2>"$T/err")
[[ -f $T/etc/state/dipjudge.db ]] && ok || bad "state_dir relative to judge.conf: $(cat "$T/err")"

# ---- a database the running user cannot use: exit 78, every fact named --------------
if command -v setpriv >/dev/null && [ "$(id -u)" -eq 0 ]; then
    mkdir -p "$T/perm" && chmod 0755 "$T" "$T/perm"
    "$J" --db "$T/perm/judge.db" init >/dev/null 2>&1
    chmod 0600 "$T/perm/judge.db"
    as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
    as_nobody "$INSTALLED_JUDGECTL" --db "$T/perm/judge.db" list >"$T/out" 2>"$T/err"
    rc=$?
    expect "judgectl on another user's database: exit" "$rc" 78
    for fact in "$T/perm/judge.db" "owned by root:root" "mode 0600" "uid 65534" "Permission denied"; do
        in_file "$T/err" "$fact" "the refusal names '$fact'"
    done
    printf 'From: a@example.org\nMessage-ID: <p1@example.org>\n\nHELP\n' |
        as_nobody "$INSTALLED_JUDGED" --db "$T/perm/judge.db" deliver >"$T/out" 2>"$T/err"
    rc=$?
    expect "judged deliver on another user's database: exit (EX_TEMPFAIL: the MTA keeps the mail)" "$rc" 75
    in_file "$T/err" "owned by root:root" "judged names the owner"
    chmod 0666 "$T/perm/judge.db"
    as_nobody "$INSTALLED_JUDGECTL" --db "$T/perm/judge.db" list >"$T/out" 2>"$T/err"
    expect "a database in a folder the user cannot write: exit" "$?" 78
    in_file "$T/err" "folder $T/perm" "the refusal names the folder"
    as_nobody "$INSTALLED_JUDGECTL" --db "$T/perm/new.db" init >"$T/out" 2>"$T/err"
    expect "init in a folder the user cannot write: exit" "$?" 78
    chmod 0700 "$T"
else
    echo "operations: the permission checks need root and setpriv: skipped"
fi
grep -q "RestartPreventExitStatus=64 78" "$S/contrib/systemd/judged.service.in" && ok ||
    bad "the systemd unit restarts on exit 78"

# ---- backup, upgrade, a newer schema -----------------------------------------------
D=$T/bk
mkdir -p "$D"
"$J" --db "$D/judge.db" create alpha --master gm@example.org >/dev/null 2>&1
expect_rc 0 "backup" "$J" --db "$D/judge.db" backup "$D/copy.db"
in_file "$T/out" "copied to $D/copy.db" "backup says where"
expect "the backup is private" "$(stat -c %a "$D/copy.db")" 600
expect "the backup holds the game" "$(sqlite3 "$D/copy.db" "SELECT name FROM games")" alpha
expect_rc 1 "backup onto an existing file" "$J" --db "$D/judge.db" backup "$D/copy.db"
in_file "$T/err" "File exists" "backup refuses to overwrite"
# while judged runs and writes
msg2() { printf 'From: p%d@example.org\nMessage-ID: <b%d@example.org>\n\nHELP\n' "$1" "$1"; }
(for i in $(seq 1 20); do msg2 "$i" | "$JD" --db "$D/judge.db" --no-send deliver 2>/dev/null; done) &
writer=$!
ok_copies=0
for i in 1 2 3 4 5; do
    "$J" --db "$D/judge.db" backup "$D/live$i.db" >/dev/null 2>&1 &&
        [ "$(sqlite3 "$D/live$i.db" 'PRAGMA integrity_check')" = ok ] &&
        ok_copies=$((ok_copies + 1))
done
wait "$writer"
expect "backups taken while judged writes, each whole" "$ok_copies" 5
# a newer schema is refused, naming both versions
cp "$D/copy.db" "$D/newer.db"
sqlite3 "$D/newer.db" "PRAGMA user_version = 999"
expect_rc 78 "a newer schema" "$J" --db "$D/newer.db" list
in_file "$T/err" "999" "the newer schema's version named"
in_file "$T/err" "this program's ($(sqlite3 "$D/copy.db" 'PRAGMA user_version'))" "the program's version named"

# ---- status ------------------------------------------------------------------------
D=$T/status
mkdir -p "$D"
JS="$J --db $D/judge.db"
$JS init >/dev/null
expect_rc 1 "status before any tick: WARNING" $JS status
in_file "$T/out" "WARNING" "status says WARNING"
in_file "$T/out" "never" "status: the scheduler never ran"
DIPJUDGE_NOW=1800000000 $JS tick >/dev/null 2>&1
expect_rc 0 "status after a tick: OK" env DIPJUDGE_NOW=1800000060 $JS status
in_file "$T/out" "OK" "status says OK"
in_file "$T/out" "60s ago" "status: the last tick's age"
in_file "$T/out" "$D/judge.db" "status: the database"
expect_rc 1 "status 20 minutes after the tick: WARNING" env DIPJUDGE_NOW=1800001200 $JS status
expect_rc 2 "status 2 hours after the tick: CRITICAL" env DIPJUDGE_NOW=1800007200 $JS status
in_file "$T/out" "CRITICAL" "status says CRITICAL"
printf 'status = { tick_warning = "1d"; tick_critical = "2d"; };\n' >"$D/judge.conf"
expect_rc 0 "status thresholds from judge.conf" env DIPJUDGE_NOW=1800007200 $JS -c "$D/judge.conf" status
expect_rc 1 "status --json" env DIPJUDGE_NOW=1800001200 $JS status --json
if command -v python3 >/dev/null; then
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["format"]=="dipjudge-status" and d["version"]==1 and d["status"]=="WARNING" and d["exit"]==1 and d["last_tick"]==1800000000' "$T/out" && ok || bad "status --json: $(cat "$T/out")"
fi
# an overdue game: CRITICAL, named
$JS create late --master gm@example.org movement_delay=1h grace=0m >/dev/null 2>&1
for p in Austria England France Germany Italy Russia Turkey; do
    $JS join late "$p@example.org" --power "$p" >/dev/null 2>&1
done
DIPJUDGE_NOW=1800000000 $JS start late --force >/dev/null 2>&1
DIPJUDGE_NOW=1800100000 $JS tick >/dev/null 2>&1 # records the tick...
sqlite3 "$D/judge.db" "UPDATE phases SET deadline = 1800000000 WHERE status = 'current'"
expect_rc 2 "status with an overdue game" env DIPJUDGE_NOW=1800100100 $JS status
in_file "$T/out" "overdue" "status names overdue games"
in_file "$T/out" "late" "status names the overdue game"
expect_rc 2 "status on no database: CRITICAL" "$J" --db "$D/none.db" status
[[ ! -e $D/none.db ]] && ok || bad "status made a database"

# ---- --json on list, show, orders, outbox -----------------------------------------------
json_ok() { # FILE FORMAT
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["format"]==sys.argv[2] and isinstance(d["version"], int)' "$1" "$2"
}
if command -v python3 >/dev/null; then
    expect_rc 0 "list --json" $JS list --json
    json_ok "$T/out" dipjudge-list && ok || bad "list --json: $(head -c 300 "$T/out")"
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [g["name"] for g in d["games"]]==["late"]' "$T/out" && ok || bad "list --json names the game"
    expect_rc 0 "show --json" $JS show late --json
    json_ok "$T/out" dipjudge-game && ok || bad "show --json: $(head -c 300 "$T/out")"
    echo 'A vie-bud' | $JS orders late Austria --set >/dev/null 2>&1
    expect_rc 0 "orders --json" $JS orders late Austria --json
    json_ok "$T/out" dipjudge-orders && ok || bad "orders --json: $(head -c 300 "$T/out")"
    in_file "$T/out" '"orders": ["A VIE - BUD"]' "orders --json holds the order"
    expect_rc 0 "outbox --json" $JS outbox --json
    json_ok "$T/out" dipjudge-outbox && ok || bad "outbox --json: $(head -c 300 "$T/out")"
    expect_rc 0 "list --json on no games" "$J" --db "$T/st/dipjudge.db" list --json
    json_ok "$T/out" dipjudge-list && ok || bad "list --json, no games: $(cat "$T/out")"
fi

# ---- judged config: judge.conf's own syntax, pasteable back -----------------------------
cd "$T" || exit 2
cat >"$T/full.conf" <<'EOF'
judge_name = "round \"trip\"";
judge_address = "judge@example.org";
reminder = "none";
inbound = { type = "imap"; host = "imap.example.org"; user = "judge"; password = "s3cret"; tls = "tls"; };
outbound = { type = "smtp"; host = "smtp.example.org"; port = 587; tls = "starttls"; };
limits = { keep_mail = "30d"; };
status = { tick_critical = "2h"; };
games = { map = "standard"; movement_delay = "48h"; press = "grey"; };
EOF
expect_rc 0 "judged config" "$JD" -c "$T/full.conf" config --show-secrets
grep -v '^#' "$T/out" >"$T/once.conf"
expect_rc 0 "judged config on its own output" "$JD" -c "$T/once.conf" config --show-secrets
grep -v '^#' "$T/out" >"$T/twice.conf"
cmp -s "$T/once.conf" "$T/twice.conf" && ok || bad "judged config does not round-trip: $(diff "$T/once.conf" "$T/twice.conf" | head -5)"
in_file "$T/once.conf" 'judge_name = "round \"trip\"";' "config keeps quotes"
in_file "$T/once.conf" 'movement_delay = "2d";' "config writes games { }"
in_file "$T/once.conf" 'password = "s3cret";' "--show-secrets writes the password"
expect_rc 0 "judged config hides passwords" "$JD" -c "$T/full.conf" config
in_file "$T/out" "inbound.password is set" "a hidden password is said to be set"
grep -q s3cret "$T/out" && bad "judged config printed a password" || ok
expect_rc 0 "judged config of the defaults" "$JD" config
grep -v '^#' "$T/out" >"$T/defaults.conf"
expect_rc 0 "the defaults read back" "$JD" -c "$T/defaults.conf" config
expect_rc 64 "--show-secrets with another mode" "$JD" once --show-secrets

# a setting with fixed choices lists them
printf 'inbound = { type = "carrier-pigeon"; };\n' >"$T/bad.conf"
expect_rc 78 "a bad choice" "$JD" -c "$T/bad.conf" config
in_file "$T/err" "maildir, imap or pop3" "the error lists the choices"
printf 'outbound = { tls = "always"; };\n' >"$T/bad.conf"
expect_rc 78 "a bad tls" "$JD" -c "$T/bad.conf" config
in_file "$T/err" "none, may, starttls or tls" "the error lists tls's choices"

# ---- --syslog without a syslog socket -----------------------------------------------
if [ ! -S /dev/log ]; then
    expect_rc 0 "--syslog without syslog" "$JD" --syslog config
    in_file "$T/err" "no syslog socket" "--syslog warns when no syslog listens"
else
    echo "operations: a syslog daemon listens here: the fallback is not tested"
fi

# ---- SIGHUP: judged run reads judge.conf again --------------------------------------
D=$T/hup
mkdir -p "$D" && cd "$D" || exit 2
printf 'judge_name = "before";\ntick_interval = "1h";\ninbound = { poll_interval = "1s"; };\n' >"$D/judge.conf"
"$JD" -c "$D/judge.conf" --db "$D/judge.db" --no-tick run 2>"$D/log" &
jpid=$!
for _ in $(seq 50); do grep -q started "$D/log" && break; sleep 0.1; done
printf 'judge_name = "after";\ntick_interval = "1h";\ninbound = { poll_interval = "1s"; };\n' >"$D/judge.conf"
kill -HUP "$jpid"
for _ in $(seq 50); do grep -q "re-read" "$D/log" && break; sleep 0.1; done
grep -q "judge.conf re-read" "$D/log" && ok || bad "SIGHUP: no re-read in the log: $(tail -3 "$D/log")"
kill -0 "$jpid" 2>/dev/null && ok || bad "judged run died on SIGHUP"
printf 'bogus = 1;\n' >"$D/judge.conf"
kill -HUP "$jpid"
for _ in $(seq 50); do grep -q "not re-read" "$D/log" && break; sleep 0.1; done
grep -q "not re-read" "$D/log" && ok || bad "SIGHUP with a bad judge.conf: not logged"
kill -0 "$jpid" 2>/dev/null && ok || bad "judged run died on a bad judge.conf at SIGHUP"
kill -TERM "$jpid"
wait "$jpid"
expect "judged run after SIGHUPs stops cleanly" "$?" 0
cd "$T" || exit 2

# ---- TZDIR -----------------------------------------------------------------------------
mkdir -p "$T/zi/Test"
cp /usr/share/zoneinfo/Europe/Paris "$T/zi/Test/Zone" 2>/dev/null
if [ -f "$T/zi/Test/Zone" ]; then
    printf 'zone = "Test/Zone";\n' >"$T/tz.conf"
    TZDIR=$T/zi "$JD" -c "$T/tz.conf" config >"$T/out" 2>"$T/err" && ok ||
        bad "TZDIR not honoured: $(cat "$T/err")"
    "$JD" -c "$T/tz.conf" config >/dev/null 2>&1 && bad "Test/Zone found without TZDIR" || ok
fi

# ---- no build path in the installed programs --------------------------------------------
# (the source tree's own folders: make distcheck installs under it).  A
# sanitizer build is never installed, and AddressSanitizer keeps each
# instrumented file's name for its reports: there the check is skipped.
for prog in "$INSTALLED_JUDGECTL" "$INSTALLED_JUDGED"; do
    [ -n "${DJ_SANITIZED:-}" ] && continue
    if strings "$prog" | grep -qF -e "$B" -e "$S/src" -e "$S/maps" -e "$S/tests"; then
        bad "$(basename "$prog") holds a build path: $(strings "$prog" | grep -F -e "$B" -e "$S/src" -e "$S/maps" | head -3)"
    else
        ok
    fi
done

checks_done
