#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# addresses.sh BUILDDIR SRCDIR — up to three addresses for one power
# (issue 37, point 4), by mail through judged (each message a mail file
# fed to `judged deliver`, the replies read from the outbox Maildir):
# SET ADDRESS adds an address once it sends back the code mailed to it,
# and it counts for nothing before (no mail, no sign-on by address); the
# comma form adds each, each with its code; a fourth is refused with the
# limit named, and so are a duplicate, a malformed address and another
# power's; SET ADDRESS -x removes one at once, never the last, and the
# removed address's reply token dies; results, press, notices go to
# every confirmed address; orders come from any of them (by password,
# by address, by reply token); only the power's player and the master
# see the list (STATUS, judgectl show, judgectl addresses, which also
# removes one), never LIST; a forged From: of an address not confirmed
# signs nobody on, and a code sent back from another address does
# nothing.  Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"
cd "$T" || exit 2
export DIPJUDGE_MAPDIR=$S/maps DIPJUDGE_NOW=$GAME_T0
unset DIPJUDGE_DB
printf 'state_dir = ".";\ndatabase = "./judge.db";\njudge_address = "judge@dip.test";\n' >judge.conf
export DIPJUDGE_CONF=$T/judge.conf
J=$JUDGECTL
JD="$JUDGED -q"

$J create demo --master gm@x.example press=white >/dev/null
$J join demo gm@x.example --master --password master-pw1 >/dev/null
i=0
for p in $POWERS; do
    $J join demo "p$i@x.example" --power "$p" --password "pw-$i-secret" >/dev/null
    i=$((i + 1))
done
check "demo started" [ "$(game_phase demo)" = S1901M ]
$JD deliver </dev/null # the start notices

n=0
# send FROM BODY [TO]: deliver one message; the reply to it in $T/out
send() {
    n=$((n + 1))
    {
        echo "From: $1"
        echo "To: ${3:-judge@dip.test}"
        echo "Subject: x"
        echo "Message-ID: <ad$n@x.example>"
        echo
        printf '%b' "$2"
    } >"$T/msg-$n.eml"
    $JD deliver <"$T/msg-$n.eml" 2>"$T/err" || bad "deliver $n: $(cat "$T/err")"
    local reply
    reply=$(grep -l "In-Reply-To: <ad$n@x.example>" mail/out/new/* 2>/dev/null | head -1)
    if [[ -n $reply ]]; then cp "$reply" "$T/out"; else : >"$T/out"; fi
}
# mails_to ADDRESS TEXT: how many mails to ADDRESS hold TEXT.
mails_to() {
    grep -l "^To: $1\$" mail/out/new/* 2>/dev/null | xargs -r grep -lF -- "$2" | wc -l
}
# code_to ADDRESS: the code in the latest mail to ADDRESS.
code_to() {
    local f
    f=$(grep -l "^To: $1\$" mail/out/new/* 2>/dev/null | xargs -r ls -t |
        xargs -r grep -l "^    CONFIRM " | head -1)
    [[ -n $f ]] && sed -n 's/^    CONFIRM \([A-Za-z0-9-]*\).*/\1/p' "$f" | head -1
}
# token_of ADDRESS: the reply token of the latest mail to ADDRESS.
token_of() {
    local f
    f=$(grep -l "^To: $1\$" mail/out/new/* 2>/dev/null | xargs -r ls -t | head -1)
    [[ -n $f ]] && sed -n 's/^Reply-To: judge+\([a-z2-7]*\)@dip\.test.*/\1/p' "$f" | head -1
}
FR='SIGNON Fdemo pw-2-secret\n'
EN='SIGNON Edemo pw-1-secret\n'

# ---- added with a code; nothing before it ------------------------------------------
send p2@x.example "${FR}SET ADDRESS f2@home.example\n"
has "A code went to f2@home.example"
lacks "    CONFIRM "
code=$(code_to f2@home.example)
check "a code mailed to the new address" [ -n "$code" ]
grep -l "^To: f2@home.example$" mail/out/new/* | xargs grep -q "as well as to their other addresses" &&
    ok || bad "the code mail does not say the address is one more"
$J addresses demo France >"$T/out"
has "demo: addresses of France (1 of at most 3): p2@x.example"
lacks "f2@home.example"
# not yet France's: no sign-on by this address, no mail
send f2@home.example 'SIGNON player@demo pw-2-secret\n'
has "refused"
send p6@x.example 'SIGNON Tdemo pw-6-secret\nPRESS TO France\nhello before\nENDPRESS\n'
expect "no press to an address not confirmed" "$(mails_to f2@home.example "hello before")" 0
# a forged CONFIRM: the code from the old address, a guess from the new
send p2@x.example "CONFIRM $code\n"
has "ERROR: no such code waits for your address"
send f2@home.example "CONFIRM guessed-$RANDOM\n"
has "ERROR: no such code waits for your address"
expect "nothing stored yet" "$(sql "SELECT count(*) FROM participant_addresses")" 0
# confirmed: one more address, the first one and the master told
send f2@home.example "CONFIRM $code\n"
has "demo: mail for France now goes to p2@x.example, f2@home.example"
expect "stored" "$(sql "SELECT email FROM participant_addresses")" f2@home.example
check "the first address told" [ "$(mails_to p2@x.example "France has a new address, f2@home.example")" = 1 ]
check "the master told" [ "$(mails_to gm@x.example "France has a new address, f2@home.example")" = 1 ]
expect "participants.email kept" "$(sql "SELECT email FROM participants WHERE power = 2")" p2@x.example

# ---- the comma form, the limit, the refusals --------------------------------------
send p1@x.example "${EN}SET ADDRESS e2@a.example,e3@b.example\n"
has "A code went to e2@a.example"
has "A code went to e3@b.example"
c2=$(code_to e2@a.example)
c3=$(code_to e3@b.example)
check "a code to each" [ -n "$c2" ] && [ -n "$c3" ] && [ "$c2" != "$c3" ]
send e2@a.example "CONFIRM $c2\n"
has "demo: mail for England now goes to p1@x.example, e2@a.example"
send e3@b.example "CONFIRM $c3\n"
has "demo: mail for England now goes to p1@x.example, e2@a.example, e3@b.example"
send p1@x.example "${EN}SET ADDRESS e4@c.example\n"
has "ERROR: England has 3 addresses already, the most a power may have (3): remove one first (SET ADDRESS -address)"
check "no code for a fourth" [ -z "$(code_to e4@c.example)" ]
send p2@x.example "${FR}SET ADDRESS f3@c.example,f4@c.example\n"
has "ERROR: France has 2 addresses: with 2 more it would have more than 3, the most a power may have"
check "no code when the list is too long" [ -z "$(code_to f3@c.example)" ]
send p1@x.example "${EN}SET ADDRESS e2@a.example\n"
has "ERROR: e2@a.example is already an address of England"
send p1@x.example "${EN}SET ADDRESS E3@B.example\n"
has "ERROR: E3@B.example is already an address of England"
send p1@x.example "${EN}SET ADDRESS -e3@b.example,e3@b.example\n"
has "ERROR: e3@b.example is named twice"
send p1@x.example "${EN}SET ADDRESS not-an-address\n"
has "ERROR: 'not-an-address' is not a mail address"
send p1@x.example "${EN}SET ADDRESS ok@a.example,bad@\n"
has "ERROR: 'bad@' is not a mail address"
check "a list with a bad address sends no code" [ -z "$(code_to ok@a.example)" ]
send p2@x.example "${FR}SET ADDRESS p3@x.example\n"
has "ERROR: p3@x.example already plays Germany in game 'demo': an address plays one power"
send p2@x.example "${FR}SET ADDRESS e2@a.example\n"
has "ERROR: e2@a.example already plays England in game 'demo'"
check "no code for another power's address" [ -z "$(code_to p3@x.example)" ]

# ---- only the player and the master see the addresses ---------------------------
send p2@x.example "${FR}STATUS\n"
has "demo: addresses of France (2 of at most 3): p2@x.example, f2@home.example"
send p3@x.example 'SIGNON Gdemo pw-3-secret\nSTATUS\n'
lacks "f2@home.example"
lacks "e2@a.example"
send gm@x.example 'SIGNON Mdemo master-pw1\nSTATUS\n'
has "f2@home.example"
has "e2@a.example e3@b.example"
send stranger@y.example 'LIST demo\n'
has "Powers:"
lacks "f2@home.example"
lacks "e2@a.example"
$J show demo >"$T/out"
has "(also)     e2@a.example e3@b.example"
has "(also)     f2@home.example"
$J export demo >"$T/out"
has '"addresses": ["p1@x.example", "e2@a.example", "e3@b.example"]'

# ---- orders from each address ------------------------------------------------------
send f2@home.example 'SIGNON player@demo pw-2-secret\nF bre-mao\n'
has "Signed on as France"
$J orders demo France >"$T/out"
has "F BRE - MAO"
send e3@b.example "${EN}F lon-nth\n"
$J orders demo England >"$T/out"
has "F LON - NTH"
# by the reply token in the mail to the new address
te=$(token_of e2@a.example)
check "the mail to a further address has a reply address" [ ${#te} = 24 ]
send e2@a.example 'A lvp-yor\n' "judge+$te@dip.test"
$J orders demo England >"$T/out"
has "A LVP - YOR"
# a forged From: of an address never confirmed signs nobody on
send e4@c.example 'SIGNON player@demo pw-1-secret\nF edi-nwg\n'
has "refused"
$J orders demo England >"$T/out"
lacks "NWG"

# ---- mail to all: results, press -----------------------------------------------------
send p6@x.example 'SIGNON Tdemo pw-6-secret\nPRESS TO England\nhello all of you\nENDPRESS\n'
for a in p1@x.example e2@a.example e3@b.example; do
    check "press to $a" [ "$(mails_to "$a" "hello all of you")" = 1 ]
done
$J process demo >/dev/null
$JD deliver </dev/null
for a in p1@x.example e2@a.example e3@b.example p2@x.example f2@home.example; do
    check "results to $a" [ "$(mails_to "$a" "Subject: dipjudge:demo - S1901M Results")" = 1 ]
done
check "the results once to the others" [ "$(mails_to p3@x.example "Subject: dipjudge:demo - S1901M Results")" = 1 ]
# the reminder a day before the deadline (Mon 18 Jan 08:00), and the late
# notice after it, to every address of a late power
export DIPJUDGE_NOW=$((GAME_T0 + 50 * 3600))
$J tick --quiet >/dev/null
$JD deliver </dev/null
for a in p1@x.example e2@a.example e3@b.example p2@x.example f2@home.example; do
    check "reminder to $a" [ "$(mails_to "$a" "Subject: dipjudge:demo - F1901M Reminder")" = 1 ]
done
export DIPJUDGE_NOW=$((GAME_T0 + 73 * 3600))
$J tick --quiet >/dev/null
$JD deliver </dev/null
for a in p1@x.example e2@a.example e3@b.example p2@x.example f2@home.example; do
    check "late notice to $a" [ "$(mails_to "$a" "Subject: dipjudge:demo - F1901M Late notice")" = 1 ]
done

# ---- removed at once, never the last ----------------------------------------------
t3=$(token_of e3@b.example)
check "e3 has a reply address" [ ${#t3} = 24 ]
send e2@a.example "${EN}SET ADDRESS -e3@b.example\n"
has "demo: e3@b.example removed; mail for England now goes to p1@x.example, e2@a.example"
check "the removed address told" [ "$(mails_to e3@b.example "e3@b.example no longer receives the judge's mail for England")" = 1 ]
check "the master told of the removal" [ "$(mails_to gm@x.example "e3@b.example no longer receives")" = 1 ]
# its reply token is dead: the mail in that box signs nobody on
send e3@b.example 'F nth-nwy\n' "judge+$t3@dip.test"
expect "the removed address's token" "$(sql "SELECT outcome FROM maillog WHERE message_id LIKE '%ad$n@x.example%'")" "ignored: unknown reply address"
$J orders demo England >"$T/out"
lacks "NWY"
send e3@b.example 'SIGNON player@demo pw-1-secret\n'
has "refused"
# the first address removed: the next one takes its place
send e2@a.example "${EN}SET ADDRESS -p1@x.example\n"
has "demo: p1@x.example removed; mail for England now goes to e2@a.example"
expect "the next address is the first" "$(sql "SELECT email FROM participants WHERE power = 1")" e2@a.example
expect "no row left for England" "$(sql "SELECT count(*) FROM participant_addresses a JOIN participants p ON p.id = a.participant_id WHERE p.power = 1")" 0
send e2@a.example "${EN}SET ADDRESS -e2@a.example\n"
has "ERROR: e2@a.example is the only address of England: add another first"
send e2@a.example "${EN}SET ADDRESS -nobody@a.example\n"
has "ERROR: nobody@a.example is not an address of England"
# replacing is adding, confirming, then removing the old one
send e2@a.example "${EN}SET ADDRESS p1@x.example\n"
send p1@x.example "CONFIRM $(code_to p1@x.example)\n"
has "demo: mail for England now goes to e2@a.example, p1@x.example"
send p1@x.example "${EN}SET ADDRESS -e2@a.example\n"
has "demo: e2@a.example removed; mail for England now goes to p1@x.example"
send p6@x.example 'SIGNON Tdemo pw-6-secret\nBROADCAST\nto everyone\nENDPRESS\n'
check "no mail to a removed address" [ "$(mails_to e2@a.example "to everyone")" = 0 ]
check "the broadcast to the address left" [ "$(mails_to p1@x.example "to everyone")" = 1 ]
check "France's two get the broadcast" [ "$(mails_to f2@home.example "to everyone")" = 1 ] &&
    [ "$(mails_to p2@x.example "to everyone")" = 1 ]

# ---- the master and judgectl -----------------------------------------------------------
send gm@x.example 'SIGNON Mdemo master-pw1\nBECOME France\nSET ADDRESS -p2@x.example\n'
has "demo: p2@x.example removed; mail for France now goes to f2@home.example"
send gm@x.example 'SIGNON Mdemo master-pw1\nSET ADDRESS -gm@x.example\n'
has "ERROR: a master has one address: SET ADDRESS new@example.org replaces it"
send f2@home.example "${FR}SET ADDRESS p2@x.example\n"
send p2@x.example "CONFIRM $(code_to p2@x.example)\n"
$J addresses demo France >"$T/out"
has "demo: addresses of France (2 of at most 3): f2@home.example, p2@x.example"
$J addresses demo France --remove f2@home.example >"$T/out"
has "demo: f2@home.example removed; mail for France now goes to p2@x.example"
$J addresses demo France --remove p2@x.example >"$T/out" 2>&1
has "p2@x.example is the only address of France"
$J addresses demo Nowhere >"$T/out" 2>&1
has "no power 'Nowhere'"

checks_done
