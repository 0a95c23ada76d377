#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# players-mail.sh BUILDDIR SRCDIR — what players miss, by mail through
# judged (each message a mail file fed to `judged deliver`, the reply read
# from the outbox Maildir): mails written as people write them
# (tests/mail/prose/: greetings, sign-offs, names, disclaimers, quoted
# replies, polite words and comments) give no ERROR and a summary of the
# orders taken; a subject that is not a whole command is ignored without
# a word; PRESS ARCHIVE shows each reader what they may read; a private
# game needs its join password and an unlisted one is not in LIST; two
# orders for one unit; reliability figures (JOIN notices, judgectl player,
# SET STATS PUBLIC in LIST).  Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"
cd "$T" || exit 2
export DIPJUDGE_MAPDIR=$S/maps
unset DIPJUDGE_CONF DIPJUDGE_DB
JD=$JUDGED
J=$JUDGECTL
export DIPJUDGE_NOW=$GAME_T0

$J create demo --master gm@x.example press=white >/dev/null
$J join demo gm@x.example --master --password gm-pw-1 >/dev/null
i=0
for p in $POWERS; do
    $J join demo "p$i@x.example" --power "$p" --password "pw-$i-secret" \
        >/dev/null
    i=$((i + 1))
done
[[ $(game_phase demo) == S1901M ]] && ok || bad "demo did not start"

# send FROM SUBJECT < BODY: deliver a mail to judged; its reply in $T/out.
echo 0 >"$T/n"
send()
{
    local n from=$1 subject=$2
    n=$(($(cat "$T/n") + 1))
    echo "$n" >"$T/n"
    {
        echo "From: $from"
        echo "To: judge@localhost"
        echo "Subject: $subject"
        echo "Message-ID: <pm$n@x.example>"
        echo
        cat
    } >"$T/msg-$n.eml"
    "$JD" deliver <"$T/msg-$n.eml" >/dev/null 2>"$T/err" || bad "deliver $n"
    local reply
    reply=$(grep -l "In-Reply-To: <pm$n@x.example>" mail/out/new/* 2>/dev/null |
        head -1)
    if [[ -n $reply ]]; then cp "$reply" "$T/out"; else : >"$T/out"; fi
}

# ---- mails as people write them: no ERROR, the orders taken ----------------
for f in "$S"/tests/mail/prose/[0-9]*.txt; do
    sed 's/^@SIGNON@$/SIGNON Edemo pw-1-secret/' "$f" |
        send p1@x.example "Re: dipjudge:demo - S1901M Orders"
    name=$(basename "$f")
    grep -q "ERROR" "$T/out" && bad "$name: $(grep ERROR "$T/out")" || ok
    grep -q "Summary: 3 orders taken; 1 of 1 command done; all your units have orders." "$T/out" &&
        ok || bad "$name: summary: $(grep Summary "$T/out")"
    grep -q "^Subject: dipjudge:demo - S1901M Orders" "$T/out" && ok ||
        bad "$name: subject"
done
# what was left out is shown, and the prose is listed once
sed 's/^@SIGNON@$/SIGNON Edemo pw-1-secret/' "$S/tests/mail/prose/04-phone-short.txt" |
    send p1@x.example "orders"
has "F LON - ENG  ('please' left out)"
has "A LVP - YOR  ('to follow up' left out)"
has "Not read (looks like text, not orders):"
has "  cheers"
sed 's/^@SIGNON@$/SIGNON Edemo pw-1-secret/' "$S/tests/mail/prose/05-polite.txt" |
    send p1@x.example "orders"
has "F EDI - NTH  ('i'd like' left out)"
has "  Dear GM,"
lacks "Gulf of Bothnia"
# a line that could be an order and is wrong still gets its ERROR
printf 'Hi,\nSIGNON Edemo pw-1-secret\nF Lon - Pariz\nF edi - nth\nBye\n' |
    send p1@x.example "orders"
has "ERROR: F LON - PAR: a fleet cannot go inland"
has "Summary: 1 order taken, 1 refused (see ERROR above); 1 of 1 command done"
has "  Bye"

# ---- two orders for one unit: the reply says what the rule (4.D.3) does ----
# and what is on file agrees: under 4.D.3 c (the default) the unit holds,
# whatever an earlier mail ordered it to do
printf 'SIGNON Edemo pw-1-secret\nF lon-yor\n' | send p1@x.example "x"
has "  F LON - YOR"
printf 'SIGNON Edemo pw-1-secret\nF lon-eng\nF lon-nth\nA lvp-edi\n' |
    send p1@x.example "x"
has "ERROR: F LON has several orders (lines 2 and 3): none is used and the unit holds (rule 4.D.3 c)"
has "  F LON H"
lacks "  F LON - YOR"
$J orders demo England >"$T/out"
has "F LON H"
has "A LVP - EDI"
lacks "F LON - YOR"
# the same with nothing else in the mail: the earlier order goes too
printf 'SIGNON Edemo pw-1-secret\nF lon-wal\n' | send p1@x.example "x"
printf 'SIGNON Edemo pw-1-secret\nF lon-eng\nF lon-nth\n' | send p1@x.example "x"
has "none is used and the unit holds (rule 4.D.3 c)"
$J orders demo England >"$T/out"
has "F LON H"
lacks "F LON - WAL"
[[ $(grep -c "F LON" "$T/out") == 1 ]] && ok || bad "F LON filed twice"

# ---- a master's prose (no BECOME) is not read, as a player's is -------------
printf 'Hi all,\nSIGNON Mdemo gm-pw-1\nLIST demo\nThanks, and see you soon\nCheers, the GM\nA par-bur\n' |
    send gm@x.example "x"
has "Not read (looks like text, not orders):"
has "  Thanks, and see you soon"
has "  Cheers, the GM"
# a line that could be an order still gets its error
[[ $(grep -c "^ *ERROR" "$T/out") == 1 ]] && ok || bad "master: $(grep ERROR "$T/out")"
has "BECOME it first"

# ---- the subject: a command only when it is one, whole ------------------------
for subject in "map please" "join" "JOIN demo" "Re: my orders" "history please"; do
    printf 'LIST\n' | send stranger@y.example "$subject"
    lacks "ERROR"
    has "Summary: 1 of 1 command done."
done
printf '' | send stranger@y.example "list demo"
has "> list demo"
has "Game demo on map standard: active"

# ---- PRESS ARCHIVE: each reader sees what they may read -----------------------
printf 'SIGNON Fdemo pw-2-secret\nPRESS TO Germany\nsecret plan\nENDPRESS\nBROADCAST\nhello world\nENDPRESS\n' |
    send p2@x.example "press"
has "press sent to Germany"
printf 'SIGNON Gdemo pw-3-secret\nPRESS ARCHIVE demo\n' | send p3@x.example "x"
has "press from France to Germany"
has "secret plan"
has "hello world"
printf 'SIGNON Idemo pw-4-secret\nPRESS ARCHIVE demo S1901M\n' | send p4@x.example "x"
has "hello world"
lacks "secret plan"
printf 'PRESS ARCHIVE demo\n' | send stranger@y.example "x"
has "No press you may read."
lacks "hello world"

# ---- private and unlisted games ------------------------------------------------
$J create hush --master gm@x.example private=Sesame-42 unlisted=yes >/dev/null
printf 'LIST\n' | send stranger@y.example "x"
has "demo "
lacks "hush"
printf 'LIST hush\n' | send stranger@y.example "x"
has "Game hush on map standard: forming"
lacks "Sesame-42"
printf 'JOIN hush mypass-1\n' | send stranger@y.example "x"
has "ERROR: game 'hush' is private"
printf 'JOIN hush mypass-1 Sesame-42\n' | send stranger@y.example "x"
lacks "ERROR"
lacks "Sesame-42"
has "To join game hush"
code=$(sed -n 's/^ *CONFIRM \([A-Za-z0-9-]*\).*/\1/p' "$T/out" | head -1)
printf 'CONFIRM %s\n' "$code" | send stranger@y.example "x"
lacks "ERROR"
# the master learns the new player's reliability figures
grep -l "Reliability figures of stranger@y.example: games joined" \
    mail/out/new/* >/dev/null 2>&1 && ok || bad "no figures in the JOIN notice"

# ---- reliability figures: judgectl player, SET STATS PUBLIC, LIST --------------
$J player p1@x.example >"$T/out"
has "p1@x.example: games joined 1, finished 0, abandoned 0; deadlines missed 0"
printf 'SIGNON Edemo pw-1-secret\nSET STATS PUBLIC\n' | send p1@x.example "x"
has "now shown in LIST"
printf 'SIGNON Mdemo gm-pw-1\nREVEAL\n' | send gm@x.example "x"
printf 'LIST demo\n' | send stranger@y.example "x"
has "Reliability (players who show it):"
has "p1@x.example: games joined 1"
lacks "p2@x.example: games joined"
printf 'SIGNON Gdemo pw-3-secret\nRESIGN\n' | send p3@x.example "x"
$J player p3@x.example >"$T/out"
has "abandoned 1"

checks_done
