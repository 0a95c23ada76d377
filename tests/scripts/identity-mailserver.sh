#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# identity-mailserver.sh BUILDDIR SRCDIR — reply addresses through a real
# mail system (tests/mailserver/start.sh: Postfix with
# recipient_delimiter = +, Dovecot): the judge mails a game's start over
# SMTP; France reads it over IMAP, answers its Reply-To
# (judge+TOKEN@dipjudge.test) over SMTP with orders and no SIGNON; Postfix
# delivers that to judge@'s mailbox, and `judged once` reads it there
#   - over IMAP, and
#   - as a Maildir (the same mailbox on disk),
# and takes the orders as France's; a made-up token and another power's
# token (for France's units) change nothing and draw no reply.
#
# Ends with "N passed, N failed".  Without root, Postfix or Dovecot it
# skips (0 failed), except under CI=true.
#
set -uo pipefail
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
export PATH=$PATH:/usr/sbin:/sbin
DJMAIL=$B/tests/mailserver/djmail
MS=$S/tests/mailserver
. "$S/tests/games/play.sh"

skip_without_mail_servers
DIR=$(mktemp -d /tmp/dj-identity-XXXXXX)
chmod 0711 "$DIR"
cleanup() { "$MS/stop.sh" "$DIR/ms" >/dev/null 2>&1; rm -rf "$DIR"; }
"$MS/start.sh" "$DIR/ms" >"$DIR/start.log" 2>&1 || {
    cat "$DIR/start.log"
    echo "0 passed, 1 failed"
    exit 1
}
. "$DIR/ms/env"
D=$MS_DOMAIN
export DIPJUDGE_NOW=$GAME_T0

# conf INBOUND: the judge on the test servers, reading its mailbox so
conf() {
    {
        echo "database = \"$T/judge.db\";"
        echo "maps_dir = \"$S/maps\";"
        echo "judge_address = \"judge@$D\";"
        echo "inbound: { $1 };"
        echo "outbound: { type = \"smtp\"; host = \"127.0.0.1\";" \
             "port = $MS_SMTP_PORT; tls = \"none\"; };"
    } >"$T/judge.conf"
}
IMAP_IN="type = \"imap\"; host = \"127.0.0.1\"; port = $MS_IMAP_PORT; user = \"judge\"; password = \"pw-judge\"; tls = \"none\"; idle = false;"
MAILDIR_IN="type = \"maildir\"; path = \"$MS_DIR/mail/judge/Maildir\";"
conf "$IMAP_IN"
J="$JUDGECTL --config $T/judge.conf"
JD="$JUDGED -q --config $T/judge.conf"

imap() { "$DJMAIL" "$1" --imap "127.0.0.1:$MS_IMAP_PORT" --user "$2" --password "pw-$2" "${@:3}"; }
# newest USER: the newest message of USER's mailbox (over IMAP), into $T/got
newest() {
    local id
    id=$(imap list "$1" 2>/dev/null | tail -1 | cut -d' ' -f1)
    [ -n "$id" ] && imap read "$1" "$id" 2>/dev/null | tr -d '\r' >"$T/got"
}
count() { imap list "$1" 2>/dev/null | wc -l; }
# on_disk: messages delivered to judge@'s mailbox, read or not
on_disk() { ls "$MS_DIR/mail/judge/Maildir/new" "$MS_DIR/mail/judge/Maildir/cur" 2>/dev/null | grep -c .; }
wait_judge() {
    local i
    for i in $(seq 1 100); do
        (($(on_disk) >= $1)) && return 0
        sleep 0.1
    done
    return 1
}
# wait_mail USER N: until USER's mailbox holds N messages (Postfix is quick)
wait_mail() {
    local i
    for i in $(seq 1 100); do
        (($(count "$1") >= $2)) && return 0
        sleep 0.1
    done
    return 1
}
n=0
send() { # USER TO BODY
    n=$((n + 1))
    printf 'From: %s@%s\nTo: %s\nSubject: Re: your game\nMessage-ID: <id%d-%s@%s>\n\n%b' \
        "$1" "$D" "$2" "$n" "$RANDOM" "$D" "$3" >"$T/send.eml"
    "$DJMAIL" rawsend --smtp "127.0.0.1:$MS_SMTP_PORT" --from "$1@$D" --to "$2" \
        <"$T/send.eml" >/dev/null 2>"$T/send.err" || bad "send: $(cat "$T/send.err")"
}

$J create idg --master "master@$D" >/dev/null
$J join idg "master@$D" --master --password master-pw1 >/dev/null
i=1
for p in $POWERS; do
    $J join idg "p$i@$D" --power "$p" --password "pw-$i-secret" >/dev/null
    i=$((i + 1))
done
check "the game started" [ "$(game_phase idg)" = S1901M ]
$JD once --no-tick 2>"$T/err" || bad "judged once: $(cat "$T/err")"
check "France (p3) got the start over SMTP" wait_mail p3 1
newest p3
tok=$(sed -n "s/^Reply-To: judge+\([a-z2-7]*\)@$D.*/\1/p" "$T/got" | head -1)
check "with a reply address" [ ${#tok} = 24 ]
check "Germany (p4) got the start" wait_mail p4 1
newest p4
tg=$(sed -n "s/^Reply-To: judge+\([a-z2-7]*\)@$D.*/\1/p" "$T/got" | head -1)

# ---- over IMAP -------------------------------------------------------------------
send p3 "judge+$tok@$D" 'F bre-mao\n\n> Game idg has started\n'
check "delivered to judge@'s mailbox" wait_judge 1
$JD once --no-tick 2>"$T/err" || bad "judged once (IMAP): $(cat "$T/err")"
$J orders idg France >"$T/out"
has "F BRE - MAO"
check "France got the reply" wait_mail p3 2
newest p3
grep -q "Orders of France" "$T/got" && ok || bad "the reply: $(head -c 400 "$T/got")"
grep -q "^Reply-To: judge+$tok@$D" "$T/got" && ok || bad "the reply's Reply-To"

# a made-up token: nothing, no reply
before=$(count p3)
send p3 "judge+aaaaaaaaaaaaaaaaaaaaaaaa@$D" 'F bre-pic\n'
check "delivered" wait_judge 2
$JD once --no-tick 2>"$T/err"
sleep 1
expect "no reply to the made-up token" "$(count p3)" "$before"
# another power's token acts as that power: never on France's units
send p3 "judge+$tg@$D" 'A par-pic\n'
check "delivered" wait_judge 3
$JD once --no-tick 2>"$T/err"
$J orders idg France >"$T/out"
lacks "PIC"

# ---- as a Maildir: the same mailbox, read from disk ---------------------------------
conf "$MAILDIR_IN"
send p3 "judge+$tok@$D" 'A par-bur\n'
check "delivered" wait_judge 4
$JD once --no-tick 2>"$T/err" || bad "judged once (Maildir): $(cat "$T/err")"
$J orders idg France >"$T/out"
has "A PAR - BUR"
has "F BRE - MAO"

checks_done
