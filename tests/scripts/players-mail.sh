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
# orders for one unit (and what is filed) and a master's prose; reliability
# figures (JOIN notices, judgectl player, SET STATS PUBLIC in LIST; missed
# deadlines, civil disorder and a takeover counted); TAKEOVER, SET ADDRESS
# and SET MASTER confirmed by code from the new address, forged CONFIRMs
# refused, codes listed and cleared by judgectl pending and expiring.
# Ends with "N passed, N failed".
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
has "ERROR: game 'hush' does not exist" # described to its participants only
lacks "Game hush on map standard"
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
has "(no name given): games joined 1"
lacks "p1@x.example"
lacks "p2@x.example: games joined"
printf 'SIGNON Gdemo pw-3-secret\nRESIGN\n' | send p3@x.example "x"
$J player p3@x.example >"$T/out"
has "abandoned 1"

# ---- confirmed by code: TAKEOVER, SET ADDRESS, SET MASTER ---------------------
# and the reliability figures of a game where deadlines are missed, a power
# goes into civil disorder and is taken over.
# code_to ADDRESS: the latest code the judge mailed to ADDRESS.
code_to()
{
    local f
    f=$(grep -l "^To: $1\$" mail/out/new/* 2>/dev/null | xargs -r ls -t |
        xargs -r grep -l "^    CONFIRM " | head -1)
    [[ -n $f ]] && sed -n 's/^    CONFIRM \([A-Za-z0-9-]*\).*/\1/p' "$f" | head -1
}
# forged CODE RIGHT-ADDRESS FROM...: the code sent from each other
# address, and a guessed code from the right one, do nothing.
forged()
{
    local code=$1 right=$2 from
    shift 2
    for from in "$@" "$right"; do
        [[ $from == "$right" ]] && code=guessed-code-$RANDOM
        printf 'CONFIRM %s\n' "$code" | send "$from" "x"
        has "ERROR: no such code waits for your address"
    done
}
# mails_to ADDRESS TEXT: how many mails to ADDRESS hold TEXT.
mails_to()
{
    grep -l "^To: $1\$" mail/out/new/* 2>/dev/null | xargs -r grep -lF -- "$2" |
        wc -l
}
$J create rel --master gm@rel.example takeover=yes movement_delay=72h \
    grace=24h nmr=cd >/dev/null
$J join rel gm@rel.example --master --password gm-rel-pw >/dev/null
for p in $POWERS; do
    lp=$(echo "$p" | tr 'A-Z' 'a-z')
    $J join rel "$lp@rel.example" --power "$p" --password "pw-$lp-rel" \
        >/dev/null
done
[[ $(game_phase rel) == S1901M ]] && ok || bad "rel did not start"
hold_all()
{
    case $1 in
    Austria) printf 'A vie H\nA bud H\nF tri H\n' ;;
    England) printf 'F lon H\nF edi H\nA lvp H\n' ;;
    France) printf 'F bre H\nA par H\nA mar H\n' ;;
    Germany) printf 'F kie H\nA ber H\nA mun H\n' ;;
    Russia) printf 'F stp/sc H\nA mos H\nA war H\nF sev H\n' ;;
    Turkey) printf 'F ank H\nA con H\nA smy H\n' ;;
    esac
}
for p in Austria England France Russia Turkey; do
    hold_all $p | $J orders rel $p --set >/dev/null || bad "$p's orders"
done
# the deadline passes: Germany and Italy are late; Germany orders in the
# grace period by mail, Italy sends nothing and goes into civil disorder
export DIPJUDGE_NOW=$((GAME_T0 + 73 * 3600))
$J tick >/dev/null
{ echo "SIGNON Grel pw-germany-rel"; hold_all Germany; } |
    send germany@rel.example "orders"
has "Every unit has an order."
export DIPJUDGE_NOW=$((GAME_T0 + 98 * 3600))
$J tick >/dev/null
[[ $(game_phase rel) == F1901M ]] && ok || bad "rel: S1901M not processed"
$J player germany@rel.example >"$T/out"
has "germany@rel.example: games joined 1, finished 0, abandoned 0; deadlines missed 1, civil disorders 0, takeovers 0"
$J player italy@rel.example >"$T/out"
has "italy@rel.example: games joined 1, finished 0, abandoned 0; deadlines missed 1, civil disorders 1, takeovers 0"
$J player austria@rel.example >"$T/out"
has "deadlines missed 0, civil disorders 0"

# TAKEOVER: the volunteer's address confirms by code; forgeries do nothing
printf 'TAKEOVER italy@rel volunteer-pw-1\n' | send vol@v.example "x"
has "To take over in game rel as italy, this address must show it is yours"
code=$(sed -n 's/^ *CONFIRM \([A-Za-z0-9-]*\).*/\1/p' "$T/out" | head -1)
$J pending rel >"$T/out"
has "takeover rel          vol@v.example as italy"
forged "$code" vol@v.example forger@v.example
$J show rel >"$T/out"
lacks "vol@v.example"
printf 'CONFIRM %s\n' "$code" | send vol@v.example "x"
has "rel: you now play Italy; sign on with SIGNON Irel"
[[ $(mails_to austria@rel.example "Italy has a new player") == 1 ]] && ok ||
    bad "the players were not told of the takeover"
# LIST after the takeover: Italy is no longer in civil disorder
printf 'LIST rel\n' | send vol@v.example "x"
grep -q "^ *Italy: .*in civil disorder" "$T/out" &&
    bad "LIST: Italy still in civil disorder: $(grep '^Italy' "$T/out")" || ok
grep -q "^ *Italy: *[0-9]" "$T/out" && ok || bad "LIST: no line for Italy: $(head -c 600 "$T/out")"
$J player vol@v.example >"$T/out"
has "vol@v.example: games joined 1, finished 0, abandoned 0; deadlines missed 0, civil disorders 0, takeovers 1"
$J player italy@rel.example >"$T/out"
has "italy@rel.example: games joined 1, finished 0, abandoned 1; deadlines missed 1, civil disorders 1, takeovers 0"
# the figures the master of another game sees with a JOIN request
$J create rel2 --master gm@rel2.example >/dev/null
printf 'JOIN rel2 italy-pw-2\n' | send italy@rel.example "x"
code=$(sed -n 's/^ *CONFIRM \([A-Za-z0-9-]*\).*/\1/p' "$T/out" | head -1)
printf 'CONFIRM %s\n' "$code" | send italy@rel.example "x"
has "rel2: italy@rel.example joined"
[[ $(mails_to gm@rel2.example "Reliability figures of italy@rel.example: games joined 2, finished 0, abandoned 1; deadlines missed 1, civil disorders 1, takeovers 0") == 1 ]] &&
    ok || bad "the master of rel2 did not get the figures"

# SET ADDRESS: the code goes to the new address alone; the change waits
printf 'SIGNON Erel pw-england-rel\nSET ADDRESS eng@new.example\n' |
    send england@rel.example "x"
has "A code went to eng@new.example"
lacks "    CONFIRM "
code=$(code_to eng@new.example)
[[ -n $code ]] && ok || bad "no code mailed to eng@new.example"
$J show rel >"$T/out"
has "england@rel.example"
# forged: the code from the old address, from a third one; a guess
forged "$code" eng@new.example england@rel.example forger@v.example
$J show rel >"$T/out"
lacks "eng@new.example"
printf 'CONFIRM %s\n' "$code" | send eng@new.example "x"
has "rel: mail for England now goes to england@rel.example, eng@new.example"
$J show rel >"$T/out"
has "eng@new.example"
[[ $(mails_to england@rel.example "England has a new address, eng@new.example") == 1 ]] &&
    ok || bad "the old address was not told"
[[ $(mails_to gm@rel.example "England has a new address, eng@new.example") == 1 ]] &&
    ok || bad "the master was not told of the new address"
# a code expires after a day, like JOIN's
printf 'SIGNON Frel pw-france-rel\nSET ADDRESS fra@new.example\n' |
    send france@rel.example "x"
code=$(code_to fra@new.example)
export DIPJUDGE_NOW=$((DIPJUDGE_NOW + 25 * 3600))
printf 'CONFIRM %s\n' "$code" | send fra@new.example "x"
has "ERROR: no such code waits for your address: it may have expired"
$J show rel >"$T/out"
has "france@rel.example"

# the same caps as JOIN's: three codes at most wait for one address
for p in Austria Russia Turkey Germany; do
    lp=$(echo "$p" | tr 'A-Z' 'a-z')
    printf 'SIGNON %s %s\nSET ADDRESS victim@w.example\n' \
        "${p:0:1}rel" "pw-$lp-rel" | send "$lp@rel.example" "x"
done
has "ERROR: 3 requests for victim@w.example already wait for their codes"
[[ $(mails_to victim@w.example "    CONFIRM ") == 3 ]] && ok ||
    bad "codes to one address not capped at three"
$J pending --from victim@w.example --clear >"$T/out"
has "3 pending requests cleared"

# SET MASTER: only the master; the new master confirms by code
printf 'SIGNON Erel pw-england-rel\nSET MASTER eng@new.example\n' |
    send eng@new.example "x"
has "ERROR: only the game master may do that"
printf 'SET MASTER forger@v.example\n' | send gm@rel.example "x"
has "ERROR"
printf 'SIGNON Mrel gm-rel-pw\nSET MASTER germany@rel.example\n' |
    send gm@rel.example "x"
has "ERROR: germany@rel.example plays in game 'rel': a player cannot be its master"
printf 'SIGNON Mrel gm-rel-pw\nSET MASTER gm2@z.example\nSET ADDRESS gm-new@z.example\n' |
    send gm@rel.example "x"
has "A code went to gm2@z.example.  The game passes to its new master when that"
lacks "    CONFIRM "
$J pending rel >"$T/out"
has "master   rel          gm2@z.example for master"
has "address  rel          gm-new@z.example for master"
has "2 pending requests"
$J pending rel --from gm-new@z.example --clear >"$T/out"
has "1 pending request cleared"
code=$(code_to gm2@z.example)
[[ -n $code ]] && ok || bad "no code mailed to gm2@z.example"
grep -l "^To: gm2@z.example$" mail/out/new/* | xargs grep -q "its master, gm@rel.example, hands the game over to you" &&
    ok || bad "the code mail does not say who hands the game over"
# forged: from the old master, from a player, a guess from the new address
forged "$code" gm2@z.example gm@rel.example austria@rel.example
printf 'SIGNON Mrel gm-rel-pw\nLIST rel\n' | send gm@rel.example "x"
has "Signed on as the master of game 'rel'"
printf 'CONFIRM %s\n' "$code" | send gm2@z.example "x"
has "rel: you are now the master of game 'rel'."
newpw=$(sed -n 's/^ *Your password: \([^ ]*\).*/\1/p' "$T/out" | head -1)
[[ -n $newpw ]] && ok || bad "no password for the new master"
printf 'SIGNON Mrel %s\nSTATUS\n' "$newpw" | send gm2@z.example "x"
has "Signed on as the master of game 'rel'"
printf 'SIGNON Mrel gm-rel-pw\n' | send gm@rel.example "x"
has "ERROR"
lacks "Signed on as the master"
[[ $(mails_to gm@rel.example "you are no longer its master: gm2@z.example confirmed") == 1 ]] &&
    ok || bad "the old master was not told"
[[ $(mails_to austria@rel.example "gm2@z.example is now the game master, in place of gm@rel.example") == 1 ]] &&
    ok || bad "the players were not told of the new master"

# PROMOTE: a second master, confirmed by code from its address; the
# master who asked stays one (issue 36, point 6)
printf 'SIGNON Erel pw-england-rel\nPROMOTE eng@new.example\n' |
    send england@rel.example "x"
has "ERROR: only the game master may do that"
[[ $(mails_to eng@new.example "asks you to be a master") == 0 ]] &&
    ok || bad "a player's PROMOTE mailed a code"
printf 'SIGNON Mrel %s\nPROMOTE co@z.example\n' "$newpw" |
    send gm2@z.example "x"
has "A code went to co@z.example.  It becomes a master of the game too when that"
lacks "    CONFIRM "
$J pending rel >"$T/out"
has "promote  rel          co@z.example for master"
code=$(code_to co@z.example)
[[ -n $code ]] && ok || bad "no code mailed to co@z.example"
[[ $(mails_to co@z.example "its master, gm2@z.example, asks you to be a master of the game") == 1 ]] &&
    ok || bad "the code mail does not say who promotes"
# nothing yet: co@z.example is no master; forged CONFIRMs do nothing
printf 'SIGNON Mrel co-guessed-pw\nSET DEADLINE +3d\n' | send co@z.example "x"
has "ERROR"
lacks "Signed on as the master"
forged "$code" co@z.example gm2@z.example austria@rel.example
printf 'CONFIRM %s\n' "$code" | send co@z.example "x"
has "rel: you are now a master of game 'rel', beside gm2@z.example."
copw=$(sed -n 's/^ *Your password: \([^ ]*\).*/\1/p' "$T/out" | head -1)
[[ -n $copw ]] && ok || bad "no password for the co-master"
[[ $copw != "$newpw" ]] && ok || bad "the co-master has the master's password"
[[ $(mails_to austria@rel.example "co@z.example is now a game master too, beside gm2@z.example") == 1 ]] &&
    ok || bad "the players were not told of the co-master"
before=$(mails_to austria@rel.example "Deadline changed")
printf 'SIGNON Mrel %s\nSET DEADLINE +3d\n' "$copw" | send co@z.example "x"
has "Signed on as the master of game 'rel'"
lacks "ERROR"
[[ $(mails_to austria@rel.example "Deadline changed") -gt $before ]] &&
    ok || bad "the co-master's SET DEADLINE was not announced"
printf 'SIGNON Mrel %s\nSTATUS\n' "$newpw" | send gm2@z.example "x"
has "Signed on as the master of game 'rel'"
# the code is used up; and a master cannot be promoted again
printf 'CONFIRM %s\n' "$code" | send co@z.example "x"
has "ERROR: no such code waits for your address"
printf 'SIGNON Mrel %s\nPROMOTE co@z.example\n' "$copw" | send co@z.example "x"
has "ERROR: co@z.example is a master of game 'rel' already"

checks_done
