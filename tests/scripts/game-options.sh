#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# game-options.sh BUILDDIR SRCDIR — the game options of issue 37 by mail
# through judged (each message a mail file fed to `judged deliver`, the
# reply read from the outbox Maildir) on the test clock (DIPJUDGE_NOW,
# `judgectl tick`): victory and end_year checked against the map (set by
# the master's SET, refused out of range); draw_proposals = phase (a vote
# lapses with its phase, the results say so; standing keeps it);
# extension and EXTEND (every surviving power, before the deadline, once a
# phase; everyone told); excuses (a power's first missed phases without
# civil disorder, counted per power and shown to the master; under nmr =
# wait the phase goes on when the late powers are excused, else the
# master and the late players are told once that the grace has ended);
# hide_late (each late power's notice names only itself, the master's
# all).  The scripted games ending by end_year and by a low victory count
# are tests/scripts/game-options-play.sh's.
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
sql() { sqlite3 "$T/dipjudge.db" "$1"; }
t0=$GAME_T0
export DIPJUDGE_NOW=$t0

# setup GAME SETTINGS...: a game with a master (gm@GAME.example, gm-pw)
# and seven players (lp@GAME.example, pw-lp), started; the deadline is
# three days on, grace one day.
setup()
{
    local g=$1 p lp
    shift
    $J create "$g" --master "gm@$g.example" movement_delay=72h \
        retreat_delay=24h adjustment_delay=24h grace=24h "$@" >/dev/null ||
        bad "create $g $*"
    $J join "$g" "gm@$g.example" --master --password gm-pw >/dev/null
    for p in $POWERS; do
        lp=$(echo "$p" | tr 'A-Z' 'a-z')
        $J join "$g" "$lp@$g.example" --power "$p" --password "pw-$lp" \
            >/dev/null
    done
}

# send FROM < BODY: deliver a mail to judged; its reply in $T/out.
echo 0 >"$T/n"
send()
{
    local n from=$1 reply
    n=$(($(cat "$T/n") + 1))
    echo "$n" >"$T/n"
    {
        echo "From: $from"
        echo "To: judge@localhost"
        echo "Subject: orders"
        echo "Message-ID: <go$n@x.example>"
        echo
        cat
    } >"$T/msg-$n.eml"
    "$JD" deliver <"$T/msg-$n.eml" >/dev/null 2>"$T/err" || bad "deliver $n"
    reply=$(grep -l "In-Reply-To: <go$n@x.example>" mail/out/new/* 2>/dev/null |
        head -1)
    if [[ -n $reply ]]; then cp "$reply" "$T/out"; else : >"$T/out"; fi
}
# player GAME POWER LINE...: the power's player signs on and sends LINEs.
player()
{
    local g=$1 lp
    lp=$(echo "$2" | tr 'A-Z' 'a-z')
    shift 2
    { echo "SIGNON ${lp:0:1}$g pw-$lp"; printf '%s\n' "$@"; } |
        send "$lp@$g.example"
}
master() # GAME LINE...
{
    local g=$1
    shift
    { echo "SIGNON M$g gm-pw"; printf '%s\n' "$@"; } | send "gm@$g.example"
}

declare -A HOLD=(
    [Austria]="A vie H|A bud H|F tri H"
    [England]="F lon H|F edi H|A lvp H"
    [France]="F bre H|A par H|A mar H"
    [Germany]="F kie H|A ber H|A mun H"
    [Italy]="F nap H|A rom H|A ven H"
    [Russia]="F stp/sc H|A mos H|A war H|F sev H"
    [Turkey]="F ank H|A con H|A smy H")
hold() # GAME NOW POWER...: every unit of these powers holds
{
    local g=$1 now=$2 p
    shift 2
    for p in "$@"; do
        echo "${HOLD[$p]}" | tr '|' '\n' |
            DIPJUDGE_NOW=$now $J orders "$g" "$p" --set >/dev/null ||
            bad "orders of $p"
    done
}
tick() { DIPJUDGE_NOW=$1 $J tick >"$T/tick" 2>&1 || bad "tick at $1"; }
deadline() { $J list | awk -v g="$1" '$1 == g { print $5, $6 }'; }
# mails GAME SUBJECT-END: bodies of the outbox mails "... SUBJECT-END",
# each after a line "To: recipient", into $T/out.
mails()
{
    sql "SELECT 'To: ' || o.recipients || char(10) || o.body FROM outbox o
         JOIN games g ON g.id = o.game_id
         WHERE g.name = '$1' AND o.subject LIKE '% $2'" >"$T/out"
}
nmails() # GAME SUBJECT-END
{
    sql "SELECT count(*) FROM outbox o JOIN games g ON g.id = o.game_id
         WHERE g.name = '$1' AND o.subject LIKE '% $2'"
}
status_of() # GAME POWER
{
    $J show "$1" | awk -v p="$2" '$1 == p { print $3 }'
}
dl=$((t0 + 72 * 3600)) # the first deadline
after=$((dl + 25 * 3600)) # grace over

# ---- victory and end_year: checked against the map --------------------------
setup vy
master vy "SET victory 4"
has "victory = 4: on map standard it must be from 5"
master vy "SET victory 35"
has "to 34 (the map's supply centres)"
master vy "SET end_year 1901"
has "end_year = 1901: map standard starts in 1901"
master vy "SET victory 10" "SET end_year 1905"
lacks "ERROR"
$J show vy >"$T/out"
has " victory=10 "
has " end_year=1905 "
player vy France "SET victory 9"
has "ERROR"
check "judgectl create refuses victory=3" \
    sh -c "! $J create vy2 victory=3 2>'$T/err' && grep -q 'victory = 3' '$T/err'"
check "judgectl set refuses end_year=1900" \
    sh -c "! $J set vy end_year=1900 2>/dev/null"
printf 'games: { victory = 2; };\n' >"$T/bad.conf"
check "judge.conf: a victory the default map cannot honour" \
    sh -c "! $J --config '$T/bad.conf' list 2>'$T/err' && grep -q 'games { }: victory = 2' '$T/err'"
printf 'games: { victory = 12; end_year = 1910; extension = "2d"; };\n' >"$T/good.conf"
check "judge.conf: good options taken" \
    sh -c "$J --config '$T/good.conf' list >/dev/null"
expect "refusals changed nothing" \
    "$($J show vy | grep -o ' victory=[0-9]* end_year=[0-9]*')" \
    " victory=10 end_year=1905"

# ---- draw_proposals = phase: a vote lapses with its phase ---------------------
setup dp draw_proposals=phase
setup ds
for g in dp ds; do
    player "$g" France "SET DRAW"
    has "France votes for a draw of every surviving power"
    hold "$g" $((t0 + 60)) $POWERS
done
tick $((dl + 60))
expect "dp processed" "$(game_phase dp)" F1901M
$J show dp >"$T/out"
lacks "vote draw"
$J show ds >"$T/out"
has "vote draw"
mails dp "S1901M Results"
has "any cast in S1901M have lapsed; vote again to propose again."
expect "every results mail says so" "$(grep -c "have lapsed" "$T/out")" 8
mails ds "S1901M Results"
lacks "lapsed"
# the vote cast in the new phase counts in it
for p in $POWERS; do player dp "$p" "SET DRAW"; done
has "Draw declared by Austria, England, France, Germany, Italy, Russia and Turkey."
expect "a draw voted within one phase ends it" "$(game_state dp)" finished

# ---- extension and EXTEND -------------------------------------------------------
setup ex extension=2d
setup nx
player nx France "EXTEND"
has "game 'nx' has no extension to vote for (extension = none)"
before=$(deadline ex)
for p in Austria England France Germany Italy Russia; do
    player ex "$p" "EXTEND"
done
has "Russia votes to extend the deadline of S1901M"
expect "six of seven: the deadline stays" "$(deadline ex)" "$before"
expect "no notice yet" "$(nmails ex 'Deadline extended')" 0
$J show ex >"$T/out"
has "Russia     russia@ex.example"
grep -q "^  Russia .* extend" "$T/out" && ok || bad "show: Russia's EXTEND vote"
check "judgectl vote ... extend is the same vote" \
    sh -c "$J vote ex Russia extend | grep -q 'votes to extend'"
player ex Turkey "SET EXTEND"
has "every surviving power voted EXTEND; the deadline for S1901M is now"
expect "the deadline moved two days" "$(deadline ex)" \
    "$(date -u -d @$((dl + 2 * 86400)) '+%Y-%m-%d %H:%M')"
expect "everyone told" "$(nmails ex 'Deadline extended')" 8
mails ex "Deadline extended"
has "Every surviving power voted EXTEND: the deadline for S1901M is now"
player ex Turkey "EXTEND"
has "the deadline for S1901M was extended already (once a phase)"
hold ex $((t0 + 60)) $POWERS
tick $((dl + 60))
expect "the old deadline no longer processes" "$(game_phase ex)" S1901M
tick $((dl + 2 * 86400 + 60))
expect "the new one does" "$(game_phase ex)" F1901M
# after a deadline it is too late to ask
dl2=$(sql "SELECT deadline FROM phases p JOIN games g ON g.id = p.game_id
           WHERE g.name = 'ex' AND p.status = 'current'")
DIPJUDGE_NOW=$((dl2 + 60)) player ex France "EXTEND"
has "the deadline for F1901M has passed: EXTEND is voted before it"

# ---- excuses under nmr = cd -----------------------------------------------------
setup xc excuses=1
hold xc $((t0 + 60)) Austria England France Germany Italy Russia
tick $after
expect "xc processed" "$(game_phase xc)" F1901M
expect "Turkey excused, not in civil disorder" "$(status_of xc Turkey)" playing
mails xc "S1901M Results"
has "Turkey sent no orders for S1901M and is excused (1 of 1 excuses used): its units held, and it is not in civil disorder."
expect "no civil-disorder notice" "$(nmails xc 'Civil disorder')" 0
$J show xc >"$T/out"
grep -q "^  Turkey .* excuses 1/1" "$T/out" && ok || bad "show: Turkey's excuses"
grep -q "^  France .* excuses 0/1" "$T/out" && ok || bad "show: France's excuses"
master xc "LIST xc"
has "excuses 1/1"
dl2=$(sql "SELECT deadline FROM phases p JOIN games g ON g.id = p.game_id
           WHERE g.name = 'xc' AND p.status = 'current'")
hold xc $((after + 60)) Austria England France Germany Italy Russia
tick $((dl2 + 25 * 3600))
expect "xc processed again" "$(game_phase xc)" S1902M
expect "the second miss: civil disorder" "$(status_of xc Turkey)" civil-disorder

# ---- nmr = wait: grace over; excused, or told once ------------------------------
setup xw nmr=wait
setup xe nmr=wait excuses=2
for g in xw xe; do
    hold "$g" $((t0 + 60)) Austria England France Germany Italy Russia
done
tick $after
expect "xw waits" "$(game_phase xw)" S1901M
expect "xe excused: goes on" "$(game_phase xe)" F1901M
mails xe "S1901M Results"
has "Turkey sent no orders for S1901M and is excused (1 of 2 excuses used)"
has "Its next missed phase may be excused too."
expect "xe: no grace notice" "$(nmails xe 'Grace ended')" 0
expect "xw: grace notice to master and Turkey" "$(nmails xw 'Grace ended')" 2
mails xw "Grace ended"
has "To: gm@xw.example"
has "To: turkey@xw.example"
has "the grace for S1901M has ended and orders are still missing from Turkey."
tick $((after + 3600))
expect "told once" "$(nmails xw 'Grace ended')" 2
expect "still waiting" "$(game_phase xw)" S1901M

# ---- hide_late ----------------------------------------------------------------------
setup hl hide_late=yes
setup hs
for g in hl hs; do
    hold "$g" $((t0 + 60)) Austria England France Germany Russia
done
tick $((dl + 60))
mails hs "Late notice"
grep -A8 "^To: italy@hs" "$T/out" | grep -q "Orders are missing from: Italy Turkey." &&
    ok || bad "default: Italy's notice names Turkey too"
mails hl "Late notice"
expect "hidden: the master and the two late powers" "$(nmails hl 'Late notice')" 3
grep -A8 "^To: italy@hl" "$T/out" | grep -q "Orders are missing from: Italy\.$" &&
    ok || bad "hidden: Italy's notice names Italy only"
grep -A8 "^To: turkey@hl" "$T/out" | grep -q "Orders are missing from: Turkey\.$" &&
    ok || bad "hidden: Turkey's notice names Turkey only"
grep -A8 "^To: gm@hl" "$T/out" | grep -q "Orders are missing from: Italy Turkey." &&
    ok || bad "hidden: the master's notice names both"
grep -A8 "^To: italy@hl" "$T/out" | grep -q "Turkey" &&
    bad "hidden: Italy reads Turkey's name" || ok
# nor does LIST tell anyone whose orders are awaited
player hs France "LIST hs"
has "orders awaited"
player hl France "LIST hl"
lacks "orders awaited"
lacks "orders in"
$J show hl >"$T/out"
has "orders 0/3 (missing)"

checks_done
