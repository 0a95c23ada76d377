#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# judged.sh BUILDDIR SRCDIR — judged's three modes on the embedded
# defaults (a Maildir inbox ./mail/in, a Maildir outbox ./mail/out, the
# database ./dipjudge.db: no servers, no root), and its command line:
#
#   - usage, --version, unknown modes (64), a bad judge.conf (78, with
#     file:line), `judged config` on judge.conf.example (every documented
#     setting is one the program reads);
#   - deliver: a reply in the outbox with In-Reply-To, X-Loop and
#     Auto-Submitted; the same message again (exit 0, no second reply);
#     an auto-reply, a bounce (-f ""), our own address: no reply; an
#     oversized message: one refusal; a database that cannot be opened:
#     78 (EX_CONFIG: the admin must act, the MTA must not retry for days);
#   - once: the inbox drained (messages moved to cur/ with S), the
#     deadline scheduler (DIPJUDGE_NOW past the deadline and grace): the
#     phase processed and its results sent; a deadline reminder before
#     the deadline to the powers missing orders (and not to the others,
#     nor twice);
#   - run: answers mail dropped into the inbox while it runs, and stops
#     cleanly on SIGTERM and on SIGINT within two seconds;
#   - crashes (DIPJUDGE_CRASH_POINT): killed before the commit, the
#     message stays in new/ and is answered once later; after the commit,
#     it is a duplicate; after the outbox handed a reply over, the re-send
#     finds the file it named after the outbox row and adds no copy; a
#     plain kill -9 loses nothing, duplicates nothing, and the tmp/ files
#     it leaves are removed.
#
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"
JPID=""
cleanup() { [[ -n $JPID ]] && kill -KILL $JPID 2>/dev/null; }
cd "$T" || exit 2
export DIPJUDGE_MAPDIR=$S/maps
unset DIPJUDGE_CONF DIPJUDGE_DB
JD=$JUDGED
J=$JUDGECTL

expect_rc() { # WANT WHAT COMMAND...
    local want=$1 what=$2
    shift 2
    "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    ((rc == want)) && ok || bad "$what: exit $rc, wanted $want: $(head -c 300 "$T/err")"
}

# ---- the command line ---------------------------------------------------------------
expect_rc 0 "--help" "$JD" --help
grep -q "deliver" "$T/out" && ok || bad "usage lists no modes"
expect_rc 0 "--version" "$JD" --version
expect_rc 64 "no mode" "$JD"
expect_rc 64 "unknown mode" "$JD" fly
expect_rc 64 "misplaced option" "$JD" once -f x@y
printf 'inbound: { type = "carrier-pigeon"; };\n' >bad.conf
expect_rc 78 "bad judge.conf" "$JD" --config bad.conf config
grep -q "bad.conf:1:" "$T/err" && ok || bad "no file:line: $(cat "$T/err")"
printf 'outbound: { colour = "red"; };\n' >bad.conf
expect_rc 78 "unknown setting" "$JD" --config bad.conf once
grep -q "outbound.colour" "$T/err" && ok || bad "unknown setting not named"
expect_rc 0 "judge.conf.example" "$JD" --config "$S/judge.conf.example" config
grep -q '^    path = "./mail/in";' "$T/out" && ok ||
    bad "example's inbound: $(cat "$T/out")"
expect_rc 0 "defaults" "$JD" config
grep -q '^    path = "./mail/out";' "$T/out" && ok || bad "default outbound"
grep -q '^database = "./dipjudge.db";' "$T/out" && ok || bad "default database"

# ---- a game on the embedded defaults -------------------------------------------------------
NOW=$GAME_T0
export DIPJUDGE_NOW=$NOW
$J create demo --master gm@x.example >/dev/null
$J join demo gm@x.example --master --password gm-pw >/dev/null
i=0
for p in $POWERS; do
    $J join demo "p$i@x.example" --power "$p" --password "pw-$i" >/dev/null
    i=$((i + 1))
done
[[ $(game_phase demo) == S1901M ]] && ok || bad "demo did not start"

# mail FROM [HEADER...] < BODY: a message file; its path on stdout.  The
# counter is a file: mail runs in $(...) and at the end of pipelines.
echo 0 >"$T/n"
mail()
{
    local n
    n=$(($(cat "$T/n") + 1))
    echo "$n" >"$T/n"
    local from=$1 f=$T/msg-$n.eml
    shift
    {
        [[ -n $from ]] && echo "From: $from"
        echo "To: judge@localhost"
        echo "Subject: test $n"
        echo "Message-ID: <m$n@x.example>"
        for h in "$@"; do echo "$h"; done
        echo
        cat
    } >"$f"
    echo "$f"
}
outbox() { ls mail/out/new 2>/dev/null | wc -l; }
outbox_with() { grep -l -- "$1" mail/out/new/* 2>/dev/null | wc -l; }

# ---- deliver ------------------------------------------------------------------------------------
f=$(printf 'SIGNON Fdemo pw-2\nA par-bur\n' | mail p2@x.example)
expect_rc 0 "deliver" "$JD" deliver <"$f"
reply=$(grep -l "In-Reply-To: <m$(cat "$T/n")@x.example>" mail/out/new/* 2>/dev/null)
[[ -n $reply ]] && ok || bad "no threaded reply in mail/out"
grep -q "^Subject: dipjudge:demo - S1901M Orders" $reply && ok || bad "reply subject"
grep -q "^Auto-Submitted: auto-replied" $reply && ok || bad "no Auto-Submitted"
grep -q "^X-Loop: judge@localhost" $reply && ok || bad "no X-Loop"
grep -q "A PAR - BUR" $reply && ok || bad "orders not echoed"
grep -q "pw-2" mail/out/new/* && bad "a password in the outbox" || ok
before=$(outbox)
expect_rc 0 "deliver again" "$JD" deliver <"$f"
(($(outbox) == before)) && ok || bad "a duplicate was answered"
grep -q "duplicate" "$T/err" && ok || bad "duplicate not logged"

f=$(echo HELP | mail p1@x.example "Auto-Submitted: auto-replied")
expect_rc 0 "auto-reply" "$JD" deliver <"$f"
f=$(echo HELP | mail p1@x.example)
expect_rc 0 "bounce" "$JD" deliver -f "" <"$f"
f=$(echo HELP | mail judge@localhost)
expect_rc 0 "own address" "$JD" deliver <"$f"
(($(outbox) == before)) && ok || bad "automatic mail was answered"

cat >small.conf <<EOF
limits: { max_message_size = 2048; };
EOF
f=$( (echo HELP; head -c 6000 /dev/zero | tr '\0' 'x' | fold -w 70) | mail p3@x.example)
expect_rc 0 "oversized" "$JD" --config small.conf deliver <"$f"
(($(outbox_with "Subject: dipjudge - Message refused") == 1)) && ok ||
    bad "no refusal of the oversized message"

f=$(echo HELP | mail p1@x.example)
# deliver: every failure of the judge's own defers (75), so that the MTA
# keeps the player's mail; the other modes still say 78 for the admin.
expect_rc 75 "deliver: database cannot be opened (a missing folder)" "$JD" --db "$T/none/x.db" deliver <"$f"
printf 'limits: { max_message_size = 2048;\n' >typo.conf
expect_rc 75 "deliver: a syntax error in judge.conf" "$JD" --config typo.conf deliver <"$f"
expect_rc 78 "once: a syntax error in judge.conf" "$JD" --config typo.conf once
expect_rc 75 "deliver: judge.conf missing" "$JD" --config "$T/none.conf" deliver <"$f"
expect_rc 75 "deliver: a bad option in the MTA's command line" "$JD" --bogus deliver <"$f"
expect_rc 64 "once: a bad option" "$JD" --bogus once
# A crash (a fault in the judge) defers too: judged deliver waits on an
# open stdin and is sent SIGSEGV.
mkfifo crash.fifo
"$JD" deliver <crash.fifo 2>/dev/null &
crash_pid=$!
exec 7>crash.fifo
sleep 0.3
kill -SEGV "$crash_pid"
wait "$crash_pid"
expect "deliver: a crash (SIGSEGV) exits" "$?" 75
exec 7>&-
rm -f crash.fifo
expect_rc 0 "empty input" "$JD" deliver </dev/null

# ---- once: the inbox, then the clock -------------------------------------------------------------
mkdir -p mail/in/new mail/in/cur mail/in/tmp
i=0
for p in $POWERS; do
    # Orders for S1901M, all but Germany's and Italy's.
    if [[ $p != Germany && $p != Italy ]]; then
        grep "^$p: " "$S/tests/games/full/01-S1901M.txt" | sed "s/^$p: //" |
            { echo "SIGNON ${p:0:1}demo pw-$i"; cat; } |
            mail "p$i@x.example" >/dev/null
        cp "$T/msg-$(cat "$T/n").eml" "mail/in/new/$(cat "$T/n").eml"
    fi
    i=$((i + 1))
done
before=$(outbox)
expect_rc 0 "once" "$JD" once
(($(ls mail/in/new | wc -l) == 0)) && ok || bad "once left mail in new/"
(($(ls mail/in/cur | grep -c ':2,S$') == 5)) && ok || bad "handled mail not marked S"
(($(outbox) == before + 5)) && ok || bad "once: $(($(outbox) - before)) replies, not 5"

# A reminder: 23 h before the deadline (72 h), to Germany and Italy only.
before=$(outbox)
DIPJUDGE_NOW=$((NOW + 49 * 3600)) expect_rc 0 "once, reminder" "$JD" once
(($(outbox_with "Subject: dipjudge:demo - S1901M Reminder") == 2)) && ok ||
    bad "reminders: $(outbox_with "S1901M Reminder"), not 2"
(($(grep -l "S1901M Reminder" mail/out/new/* | xargs grep -l "^To: p[34]@" | wc -l) == 2)) &&
    ok || bad "the reminders did not go to Germany and Italy"
DIPJUDGE_NOW=$((NOW + 50 * 3600)) expect_rc 0 "once, no second reminder" "$JD" once
(($(outbox_with "S1901M Reminder") == 2)) && ok || bad "a second reminder"

# Past the deadline and the grace: late notice, then processed.
DIPJUDGE_NOW=$((NOW + 97 * 3600)) expect_rc 0 "once, deadline" "$JD" once
[[ $(game_phase demo) == F1901M ]] && ok || bad "S1901M not processed by once"
(($(outbox_with "Subject: dipjudge:demo - S1901M Results") == 8)) && ok ||
    bad "results: $(outbox_with "S1901M Results") mails, not 8"
(($(outbox_with "Subject: dipjudge:demo - S1901M Late notice") == 3)) && ok ||
    bad "late notices: $(outbox_with "S1901M Late notice"), not 3"
NOW=$((NOW + 97 * 3600))
export DIPJUDGE_NOW=$NOW

# ---- run: a daemon, stopped by signals ---------------------------------------------------------------
cat >fast.conf <<EOF
tick_interval = "1s";
inbound: { poll_interval = "1s"; };
EOF
for sig in TERM INT; do
    "$JD" --config fast.conf run 2>"$T/run.log" &
    JPID=$!
    sleep 0.5
    before=$(outbox)
    f=$(echo "LIST demo" | mail p1@x.example)
    cp "$f" mail/in/tmp/x && mv mail/in/tmp/x "mail/in/new/run-$sig.eml"
    for ((k = 0; k < 50; k++)); do
        (($(outbox) > before)) && break
        sleep 0.1
    done
    (($(outbox) == before + 1)) && ok || bad "run did not answer ($sig)"
    t0=$SECONDS
    kill -"$sig" $JPID
    wait $JPID
    rc=$?
    JPID=""
    ((rc == 0 && SECONDS - t0 <= 2)) && ok ||
        bad "SIG$sig: exit $rc after $((SECONDS - t0))s"
    grep -q "stopping" "$T/run.log" && ok || bad "no 'stopping' in the log"
done

# ---- crashes --------------------------------------------------------------------------------------
# crash POINT: judged once dies at POINT with one new message in the inbox.
crash()
{
    f=$(printf 'SIGNON Gdemo pw-3\nSTATUS\n' | mail p3@x.example)
    cp "$f" "mail/in/new/crash-$1.eml"
    DIPJUDGE_CRASH_POINT=$1 "$JD" once >/dev/null 2>"$T/err"
    local rc=$?
    ((rc == 86)) && ok || bad "$1: exit $rc, not 86: $(cat "$T/err")"
}
replies_to() { grep -l "In-Reply-To: <m$1@x.example>" mail/out/new/* 2>/dev/null | wc -l; }
last() { cat "$T/n"; }

crash ingest-executed
[[ -f mail/in/new/crash-ingest-executed.eml ]] && ok || bad "message not left in new/"
(($(replies_to $(last)) == 0)) && ok || bad "ingest-executed: a reply was sent"
"$JD" once 2>/dev/null
(($(replies_to $(last)) == 1)) && ok || bad "ingest-executed: $(replies_to $(last)) replies after restart"

crash ingest-committed
(($(replies_to $(last)) == 0)) && ok || bad "ingest-committed: a reply was sent"
"$JD" once 2>"$T/err"
grep -q "duplicate" "$T/err" && ok || bad "ingest-committed: not read as a duplicate"
(($(replies_to $(last)) == 1)) && ok || bad "ingest-committed: $(replies_to $(last)) replies"
(($(ls mail/in/new | wc -l) == 0)) && ok || bad "ingest-committed: mail left in new/"

crash send-claimed
"$JD" once 2>/dev/null
(($(replies_to $(last)) == 1)) && ok || bad "send-claimed: $(replies_to $(last)) replies"

crash send-accepted
(($(replies_to $(last)) == 1)) && ok || bad "send-accepted: not handed over"
"$JD" once 2>"$T/err"
grep -q "sent again" "$T/err" && ok || bad "send-accepted: recovery not logged"
(($(replies_to $(last)) == 1)) && ok || bad "send-accepted: $(replies_to $(last)) copies, not 1 (the re-send found the earlier file)"

# A plain kill -9 in the middle of twenty messages: nothing lost.
first=$(($(last) + 1))
for ((k = 0; k < 20; k++)); do
    f=$(echo "LIST" | mail "p$((k % 7))@x.example")
    cp "$f" "mail/in/new/burst-$k.eml"
done
"$JD" once 2>/dev/null &
JPID=$!
sleep 0.0$((RANDOM % 9 + 1))
kill -KILL $JPID 2>/dev/null
wait $JPID 2>/dev/null
JPID=""
"$JD" once 2>/dev/null
lost=0
extra=0
for ((m = first; m <= $(last); m++)); do
    c=$(replies_to $m)
    ((c == 0)) && lost=$((lost + 1))
    ((c > 1)) && extra=$((extra + c - 1))
done
((lost == 0)) && ok || bad "kill -9: $lost messages never answered"
((extra == 0)) && ok || bad "kill -9: $extra duplicate replies"
# What a kill left in out/tmp goes at the next start (a minute old).
touch -d '2 minutes ago' mail/out/tmp/stale-left-by-a-kill
"$JD" once 2>/dev/null
[[ ! -e mail/out/tmp/stale-left-by-a-kill ]] && ok || bad "stale out/tmp file kept"
(($(ls mail/in/new | wc -l) == 0)) && ok || bad "kill -9: mail left in new/"

# ---- the admin's view of the outbox: state, attempts, last error; --hold, --retry, --delete
printf 'outbound: { type = "smtp"; host = "127.0.0.1"; port = 9; timeout = "5s"; };\n' >down.conf
f=$(echo HELP | mail p5@x.example)
"$JD" --no-send deliver <"$f" 2>/dev/null
id=$("$J" outbox | awk -F'\t' '$2 == "queued" { id = $1 } END { print id }')
[[ -n $id ]] && ok || bad "no queued mail to look at: $("$J" outbox | tail -3)"
"$JD" --config down.conf --no-tick once 2>/dev/null
"$J" outbox | awk -F'\t' -v id="$id" '$1 == id' >"$T/out"
expect "outbox: the state after a failed attempt" "$(cut -f2 "$T/out")" queued
expect "outbox: the attempts" "$(cut -f3 "$T/out")" 1
grep -qi "refused\|connect" <(cut -f7 "$T/out") && ok || bad "outbox: no last error: $(cat "$T/out")"
"$J" outbox --json >"$T/json"
grep -q '"last_error": "[^"]' "$T/json" && ok || bad "outbox --json: no last_error"
expect_rc 0 "outbox --hold" "$J" outbox --hold "$id"
grep -q "mail $id held" "$T/out" && ok || bad "--hold said: $(cat "$T/out")"
sent_before=$(ls mail/out/new | wc -l)
"$JD" --no-tick once 2>/dev/null
expect "outbox: a held mail is not sent" "$(ls mail/out/new | wc -l)" "$sent_before"
expect "outbox: shown held" "$("$J" outbox | awk -F'\t' -v id="$id" '$1 == id { print $2 }')" held
expect_rc 0 "outbox --retry" "$J" outbox --retry "$id"
expect "outbox: retried, attempts afresh" "$("$J" outbox | awk -F'\t' -v id="$id" '$1 == id { print $2 "/" $3 }')" queued/0
"$JD" --no-tick once 2>"$T/sendlog"
expect "outbox: the retried mail sent" "$(ls mail/out/new | wc -l)" "$((sent_before + 1))"
grep -q "outbox row $id .*: sent$" "$T/sendlog" && ok || bad "the send log line: $(grep "outbox row" "$T/sendlog")"
grep -q "no message" "$T/sendlog" && bad "stray text in the send log: $(grep "no message" "$T/sendlog")" || ok
expect_rc 1 "outbox --retry of a sent mail" "$J" outbox --retry "$id"
grep -q "sent already" "$T/err" && ok || bad "--retry of a sent mail said: $(cat "$T/err")"
f=$(echo HELP | mail p6@x.example)
"$JD" --no-send deliver <"$f" 2>/dev/null
id2=$("$J" outbox | awk -F'\t' '$2 == "queued" { id = $1 } END { print id }')
expect_rc 0 "outbox --delete" "$J" outbox --delete "$id2"
"$J" outbox | awk -F'\t' -v id="$id2" '$1 == id' | grep -q . && bad "deleted mail still listed" || ok
expect_rc 1 "outbox --delete of no mail" "$J" outbox --delete 999999
grep -q "no mail 999999" "$T/err" && ok || bad "--delete 999999 said: $(cat "$T/err")"
expect_rc 2 "outbox --retry not an ID" "$J" outbox --retry abc
expect_rc 2 "outbox --hold and --delete at once" "$J" outbox --hold 1 --delete 2

# ---- judge.conf: one file-mode policy, and errors an admin can act on --------------------
printf 'outbound: { type = "smtp"; host = "127.0.0.1"; user = "judge";\n    password = "smtp-secret"; };\n' >secret.conf
chmod 0640 secret.conf
chgrp "$(id -gn)" secret.conf
expect_rc 0 "config: judge.conf 0640 in the judge's own group" "$JD" --config secret.conf config
grep -q WARNING "$T/out" && bad "a warning about the package's mode (0640, the judge's group): $(grep WARNING "$T/out")" || ok
chmod 0600 secret.conf
expect_rc 0 "config: judge.conf 0600" "$JD" --config secret.conf config
grep -q WARNING "$T/out" && bad "a warning about 0600" || ok
chmod 0644 secret.conf
expect_rc 0 "config: judge.conf 0644" "$JD" --config secret.conf config
grep -q "WARNING: secret.conf holds a mail password and users other than the judge's may read it (mode 0644)" "$T/out" &&
    ok || bad "no warning about 0644: $(cat "$T/out")"
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
    chmod 0600 secret.conf
    chmod 0755 "$T"
    setpriv --reuid=65534 --regid=65534 --clear-groups "$JD" --config "$T/secret.conf" config >"$T/out" 2>&1
    for fact in "cannot read configuration file $T/secret.conf" "owned by root:" "mode 0600" "uid 65534" "Permission denied"; do
        grep -qF "$fact" "$T/out" && ok || bad "unreadable judge.conf: no '$fact' in: $(cat "$T/out")"
    done
    chmod 0700 "$T"
fi
# A group never closed: said where it opened, not at the end of the file.
printf 'judge_name = "x";\nlimits: {\n    max_message_size = 2048;\n\n# the end\n' >open.conf
expect_rc 78 "config: an unclosed group" "$JD" --config open.conf config
grep -q "open.conf:2: this '{' is never closed" "$T/err" && ok || bad "unclosed group: $(cat "$T/err")"

# judged config --changed: only what differs from the defaults (postconf -n)
printf 'judge_name = "Big";\noutbound: { type = "smtp"; port = 25; };\nlimits: { max_lines = 2000; };\n' >changed.conf
expect_rc 0 "config --changed" env -u DIPJUDGE_STATE_DIR "$JD" --config changed.conf config --changed
expect "config --changed: the settings" "$(grep -v '^#' "$T/out" | tr -d ' ' | tr '\n' ' ')" 'judge_name="Big"; outbound={ type="smtp"; port=25; }; '
grep -v '^#' "$T/out" >changed2.conf
expect_rc 0 "config --changed read back" env -u DIPJUDGE_STATE_DIR "$JD" --config changed2.conf config --changed
expect "config --changed read back: the same" "$(grep -v '^#' "$T/out")" "$(cat changed2.conf)"
expect_rc 0 "config --changed on no file" env -u DIPJUDGE_STATE_DIR "$JD" --config /dev/null config --changed
expect "config --changed on the defaults: nothing" "$(grep -vc '^#' "$T/out")" 0
expect_rc 64 "--changed with once" "$JD" once --changed

# judge.conf's judge_address must be an address; a bad zone is refused
# without claiming to use UTC.
printf 'judge_address = "the judge";\n' >addr.conf
expect_rc 78 "config: judge_address not an address" "$JD" --config addr.conf config
grep -q "addr.conf:1: judge_address 'the judge' is not a mail address" "$T/err" && ok ||
    bad "judge_address: $(cat "$T/err")"
printf 'zone = "Mars/Olympus_Mons";\n' >zone.conf
expect_rc 78 "config: an unknown zone" "$JD" --config zone.conf config
grep -q "unknown time zone 'Mars/Olympus_Mons'" "$T/err" && ok || bad "zone: $(cat "$T/err")"
grep -q "using UTC" "$T/err" && bad "the zone message says 'using UTC' and refuses" || ok

# A full disk: "no space left", exit 75, nothing lost (a tmpfs of 1 MB in
# a mount namespace of its own; root only).
if [ "$(id -u)" -eq 0 ] && unshare --mount true 2>/dev/null; then
    cat >full.sh <<EOF
mkdir -p "$T/full" && mount -t tmpfs -o size=1m dj-full "$T/full" || exit 9
"$J" --db "$T/full/j.db" init >/dev/null && "$J" --db "$T/full/j.db" create g --master gm@x.example >/dev/null
dd if=/dev/zero of="$T/full/fill" bs=4k 2>/dev/null
printf 'From: a@x.example\nMessage-ID: <full1@x.example>\n\nHELP\n' |
    "$JD" --db "$T/full/j.db" --no-send deliver 2>"$T/full.err"
echo "rc=\$?" >>"$T/full.err"
rm -f "$T/full/fill"
"$J" --db "$T/full/j.db" show g >"$T/full.show" 2>&1
umount "$T/full"
EOF
    unshare --mount bash full.sh
    grep -q "rc=75" "$T/full.err" && ok || bad "disk full: $(cat "$T/full.err")"
    grep -q "no space left" "$T/full.err" && ok || bad "disk full not said: $(cat "$T/full.err")"
    grep -q "disk I/O error" "$T/full.err" && bad "disk full said as 'disk I/O error'" || ok
    grep -q "forming" "$T/full.show" && ok || bad "the game after the full disk: $(cat "$T/full.show")"
fi

# Started as root in a state folder of another user: work as that user,
# leave nothing root's (root only).
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
    RS=$T/rootstate
    mkdir -p "$RS" && chown nobody "$RS" && chmod 0755 "$T"
    printf 'state_dir = "%s";\njudge_address = "judge@x.example";\n' "$RS" >"$RS/judge.conf"
    env -u DIPJUDGE_STATE_DIR "$J" --config "$RS/judge.conf" init >/dev/null 2>&1
    expect "root's judgectl init: the database's owner" "$(stat -c %U "$RS/dipjudge.db" 2>&1)" nobody
    env -u DIPJUDGE_STATE_DIR "$J" --config "$RS/judge.conf" create rg --master gm@x.example >/dev/null 2>&1
    f=$(echo HELP | mail p1@x.example)
    env -u DIPJUDGE_STATE_DIR "$JD" --config "$RS/judge.conf" deliver <"$f" 2>/dev/null
    env -u DIPJUDGE_STATE_DIR "$JD" --config "$RS/judge.conf" once 2>/dev/null
    check "root's judged made mail/out" test -d "$RS/mail/out/new"
    expect "files root's runs left that are not the state folder owner's" \
        "$(find "$RS" ! -user nobody ! -name judge.conf)" ""
    # The owner with a mode that forbids writing is told so, not to run
    # as the owner.
    chmod 0400 "$RS/dipjudge.db"
    setpriv --reuid=65534 --regid=65534 --clear-groups env -u DIPJUDGE_STATE_DIR "$J" --config "$RS/judge.conf" list >"$T/out" 2>&1
    grep -q "you own it but its mode forbids" "$T/out" && ok || bad "the owner's advice: $(cat "$T/out")"
    grep -q "run the command as the file's owner" "$T/out" && bad "the owner told to run as the owner" || ok
    chmod 0700 "$T"
fi

# The build's version: judged --version, each mail's X-Mailer, the
# database's written_by (judgectl status).
version=$("$JD" --version | sed -n 's/^judged (dipjudge) //p')
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+ ]] && ok || bad "judged --version: $("$JD" --version)"
last_sent=$(ls -t mail/out/new | head -n 1)
grep -q "^X-Mailer: dipjudge $version\$" "mail/out/new/$last_sent" && ok ||
    bad "no X-Mailer: dipjudge $version in the mail sent"
"$J" status >"$T/out" 2>&1
has "written by dipjudge $version"

# Under systemd (JOURNAL_STREAM set) each line starts with its syslog
# priority, so that journalctl -p err finds the errors.
JOURNAL_STREAM=8:1234 "$JD" --config typo.conf once >"$T/out" 2>&1
grep -q '^<3>judged once: error: ' "$T/out" && ok || bad "no <3> priority: $(cat "$T/out")"
chmod 0644 secret.conf
JOURNAL_STREAM=8:1234 "$JD" --config secret.conf --no-tick --no-send once >"$T/out" 2>&1
grep -q '^<4>judged once: warning: ' "$T/out" && ok || bad "no <4> priority: $(cat "$T/out")"
"$JD" --config typo.conf once >"$T/out" 2>&1
grep -q '^<' "$T/out" && bad "a priority prefix outside systemd" || ok

checks_done
