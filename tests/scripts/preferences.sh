#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# preferences.sh BUILDDIR SRCDIR — power preference lists (issue 37,
# point 2), by mail through judged (each message a mail file fed to
# `judged deliver`, the reply read from the outbox Maildir): SET
# PREFERENCE by letters, names and '*', the refusals (unknown powers,
# repeats, outside a preference game, after the start, observers),
# re-sending replaces, STATUS and LIST show the list; the deal at the
# start is the optimum of a known case (least total rank, not first
# come), players without a list take what is left, the same seed deals
# the same powers, the seed is kept (judgectl show), and the start mail
# says who got a first choice as the setting identities allows.
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

echo 0 >"$T/n"
send() # FROM SUBJECT < BODY: deliver a mail to judged; its reply in $T/out
{
    local n from=$1 subject=$2
    n=$(($(cat "$T/n") + 1))
    echo "$n" >"$T/n"
    {
        echo "From: $from"
        echo "To: judge@localhost"
        echo "Subject: $subject"
        echo "Message-ID: <pf$n@x.example>"
        echo
        cat
    } >"$T/msg-$n.eml"
    "$JD" deliver <"$T/msg-$n.eml" >/dev/null 2>"$T/err" || bad "deliver $n"
    local reply
    reply=$(grep -l "In-Reply-To: <pf$n@x.example>" mail/out/new/* 2>/dev/null |
        head -1)
    if [[ -n $reply ]]; then cp "$reply" "$T/out"; else : >"$T/out"; fi
}
latest() # TO SUBJECT-PART: the newest such mail into $T/out
{
    local f
    f=$(grep -l "^To: $1\$" mail/out/new/* 2>/dev/null |
        xargs -r grep -l "^Subject:.*$2" | xargs -r ls -t | head -1)
    if [[ -n $f ]]; then cp "$f" "$T/out"; else : >"$T/out"; fi
}
sql() { sqlite3 "$T/dipjudge.db" "$1"; }
pref() # GAME N LIST: player N of GAME signs on (?GAME) and sends LIST
{
    printf 'SIGNON ?%s pw-%s-secret\nSET PREFERENCE %s\n' "$1" "$2" "$3" |
        send "p$2@$1.example" "x"
}
power_of() # GAME N: the power player N of GAME was dealt
{
    $J show "$1" | awk -v a="p$2@$1.example" '$2 == a { print $1 }'
}
# join GAME N...: players N join GAME without a power
join() {
    local g=$1 i
    shift
    for i in "$@"; do
        $J join "$g" "p$i@$g.example" --password "pw-$i-secret" \
            --name "Player $i" >"$T/join" || bad "join $g p$i"
    done
}

# ---- lists by letters, names and '*'; refusals; re-sending replaces ------------
$J create g1 --master gm@g1.example assignment=preference deal_seed=777 \
    >/dev/null
$J join g1 gm@g1.example --master --password gm-pw-secret >/dev/null
join g1 0 1 2 3 4 5
pref g1 0 EFG
has "g1: your preference list: England, France, Germany (powers not named rank after those named; * is the rest, in any order)"
lacks "ERROR"
pref g1 1 "England, Austria, *"
has "g1: your preference list: England, Austria, *"
expect "stored as names" "$(sql "select preference from participants where email='p1@g1.example'")" "England, Austria, *"
# refusals name the problem and change nothing
pref g1 0 EFX
has "ERROR: SET PREFERENCE: no power 'EFX' on map standard: give power names, or their letters (AEFGIRT)"
pref g1 0 "England, Frnce"
has "ERROR: SET PREFERENCE: no power 'Frnce'"
pref g1 0 EFE
has "ERROR: SET PREFERENCE: England is given twice"
pref g1 0 "*, E, *"
has "ERROR: SET PREFERENCE: '*' (the rest) is given twice"
printf 'SIGNON ?g1 pw-0-secret\nSET PREFERENCE\n' | send p0@g1.example x
has "ERROR: SET PREFERENCE needs the powers you want"
expect "kept after refusals" "$(sql "select preference from participants where email='p0@g1.example'")" "England, France, Germany"
# re-sending replaces: the last list counts
pref g1 0 R
pref g1 0 "E f"
has "g1: your preference list: England, France ("
expect "replaced" "$(sql "select preference from participants where email='p0@g1.example'")" "England, France"
# STATUS and LIST show the list to the player
printf 'SIGNON ?g1 pw-0-secret\nSTATUS\n' | send p0@g1.example x
has "g1: your preference list: England, France ("
printf 'SIGNON ?g1 pw-0-secret\nLIST g1\n' | send p0@g1.example x
has "g1: your preference list: England, France ("
# ... and to nobody else
printf 'LIST g1\n' | send p7@x.example x
lacks "preference list"
# the master sees every list (judgectl show)
$J show g1 >"$T/out"
has "(unassigned) p0@g1.example Player 0 preference England, France"
# NONE forgets it
pref g1 2 NONE
has "g1: you have no preference list: any power may be dealt to you"
# an observer, the master: refused
printf 'SIGNON Mg1 gm-pw-secret\nSET PREFERENCE EFG\n' | send gm@g1.example x
has "ERROR: SET PREFERENCE is for a player who joined game 'g1' (you are its master)"
# JOIN with a power: refused in a preference game
$J join g1 px@g1.example --power France --password pw-x-secret >"$T/out" 2>&1 &&
    bad "joined with a power" || ok
has "powers are dealt by the players' preference lists in game 'g1'"

# outside a preference game
$J create ch --master gm@ch.example >/dev/null
join ch 0
pref ch 0 EFG
has "ERROR: game 'ch' deals powers by the players' choice (assignment = choice), not by preference lists"
$J create rn --master gm@rn.example assignment=random >/dev/null
join rn 0
pref rn 0 EFG
has "ERROR: game 'rn' deals powers by chance (assignment = random)"

# ---- the deal: a known case ---------------------------------------------------------
# p0 England then France; p1 England then Austria; Austria, Italy, Turkey
# and Germany first for p3, p4, p2 and p6; p5 no list.  First come would
# give England to p0 (total rank 1 + 3 = 4 for p0 and p1); the least total
# is France to p0 (2) and England to p1 (1).
pref g1 2 T
pref g1 3 A
pref g1 4 "Italy"
join g1 6
cp "$T/join" "$T/out"
has "g1: every power has a player; the game starts when each has sent SET PREFERENCE, or when the master sends START"
expect "full, still forming" "$(game_state g1)" forming
pref g1 6 G
expect "p5 without a list: still forming" "$(game_state g1)" forming
printf 'SIGNON Mg1 gm-pw-secret\nSTART\n' | send gm@g1.example x
lacks "ERROR"
expect "started by START" "$(game_phase g1)" S1901M
expect "p0" "$(power_of g1 0)" France
expect "p1" "$(power_of g1 1)" England
expect "p2" "$(power_of g1 2)" Turkey
expect "p3" "$(power_of g1 3)" Austria
expect "p4" "$(power_of g1 4)" Italy
expect "p5 (no list): what is left" "$(power_of g1 5)" Russia
expect "p6" "$(power_of g1 6)" Germany
# the start mail: the first-choice line; per power only where identities
# are public (at-end here: no)
latest p0@g1.example "Game started"
has "Powers were dealt by the players' preference lists (deal_seed 777): 5 of 6 players with a list got a first choice; 1 sent no list."
has "France was your 2nd choice (your list: England, France)."
lacks "England    first choice"
latest p5@g1.example "Game started"
has "You sent no preference list: Russia was dealt to you from the powers left."
latest gm@g1.example "Game started"
has "5 of 6 players with a list got a first choice"
# after the start: refused; the seed is kept and cannot change
pref g1 0 EFG
has "ERROR: game 'g1' has started: preference lists are read only while it forms"
$J show g1 >"$T/out"
has "deal_seed=777"
grep -q "^  France .*p0@g1.example.* preference England, France (2nd choice)" "$T/out" &&
    ok || bad "show: France's list and choice: $(grep France "$T/out")"
has "powers: preference"
$J set g1 deal_seed=5 >"$T/out" 2>&1 && bad "seed changed after start" || ok
has "the deal_seed of a started game cannot change"

# ---- every list in: the game starts by itself; identities public ------------------
$J create g2 --master gm@g2.example assignment=preference identities=public \
    >/dev/null
join g2 0 1 2 3 4 5 6
expect "g2 full, forming" "$(game_state g2)" forming
i=0
for l in EF "England, Austria" T A I R G; do
    pref g2 $i "$l"
    i=$((i + 1))
done
has "g2: started; S1901M deadline"
expect "g2 started by the last list" "$(game_phase g2)" S1901M
expect "g2 p0" "$(power_of g2 0)" France
expect "g2 p1" "$(power_of g2 1)" England
seed=$($J show g2 | sed -n 's/.* deal_seed=\([0-9]*\).*/\1/p')
[[ $seed =~ ^[1-9][0-9]*$ ]] && ok || bad "g2: a seed drawn and kept: '$seed'"
latest p3@g2.example "Game started"
has "6 of 7 players with a list got a first choice."
has "  France     2nd choice"
has "  England    first choice"
has "Austria was your first choice (your list: Austria)."

# ---- the same seed, the same deal (no lists: ties only) -----------------------------
deal() # GAME SEED: a game of 7 players without lists started by START
{
    $J create "$1" --master "gm@$1.example" assignment=preference \
        deal_seed="$2" >/dev/null
    join "$1" 0 1 2 3 4 5 6
    $J start "$1" >/dev/null || bad "$1: start"
    local i
    for i in 0 1 2 3 4 5 6; do power_of "$1" $i; done | tr '\n' ' '
}
a=$(deal s1 4242)
b=$(deal s2 4242)
c=$(deal s3 999)
expect "seven powers dealt" "$(echo "$a" | wc -w)" 7
expect "the same seed: the same deal" "$b" "$a"
[[ $c != "$a" ]] && ok || bad "another seed dealt the same: $c"
sql "select body from outbox where kind='start' and recipients='p0@s1.example'" >"$T/out"
has "0 of 0 players with a list got a first choice; 7 sent no list."

# ---- the scripted game tests/games/preference -------------------------------------
# lists sent by mail commands from the game's preferences.txt (play.sh's
# game_setup_lists), the deal as expect.txt says, then its phases played
DIR=$S/tests/games/preference
want() { sed -n "s/^$1 //p" "$DIR/expect.txt"; }
now=$GAME_T0
game_setup_lists sg "$now" "$DIR" deal_seed=31 || bad "sg: setup"
for i in 0 1 2 3 4 5 6; do
    expect "sg: p$i dealt" "$(power_of sg $i)" "$(want "deal $i")"
done
game_play sg "$DIR" || bad "sg: played"
expect "sg: phases played" "$game_played" "$(want phases)"
expect "sg: after the script" "$(game_phase sg)" S1902M

checks_done
