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
expect_rc 64 "judged --no-tick with deliver" "$JD" deliver --no-tick
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

checks_done
