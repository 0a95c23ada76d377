#!/bin/sh
# SPDX-License-Identifier: MIT
#
# game-variants.sh BUILDDIR SRCDIR — every shipped variant plays a whole
# scripted game through judgectl, to its end: tests/games/VARIANT holds
# the phases (made by make_game.c, or written by hand where its bots cannot
# finish a game) and expect.txt how it must end.  Each game is created with
# `judgectl create --map VARIANT`, its orders entered phase by phase and
# processed by `judgectl tick` on a fake clock, as game-full.sh does for
# the standard board.
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"

# powers_of VARIANT: its powers, one a line, from `judgectl maps` (a name
# may have several words: "  Holy Roman Empire (H) Ber Mun Vie").
powers_of()
{
    $JUDGECTL maps --maps "$S/maps" 2>/dev/null | awk -v m="$1:" '
        /^[^ ]/ { on = ($1 == m) }
        on && /^  [^ ].* \(.\)/ { s = substr($0, 3); sub(/ \(.\).*/, "", s); print s }'
}

# play_variant VARIANT: the whole game of tests/games/VARIANT, every power
# played (the scripted orders; a power with no line sends none).
play_variant()
{
    v=$1
    dir=$S/tests/games/$v
    now=$GAME_T0
    POWERS=$(powers_of "$v")
    GAME_MAP=$v
    check "$v: game set up" game_setup "$v" "$now"
    GAME_MAP=
    $J show "$v" >"$T/show" 2>&1
    check "$v: played on map $v" grep -q "^Game $v on map $v: " "$T/show"
    expected=$(awk '$1 == "phases" { print $2 }' "$dir/expect.txt")
    winner=$(awk '$1 == "winner" { print $2 }' "$dir/expect.txt")
    game_play "$v" "$dir" || failed=$((failed + 1))
    played=$game_played
    check "$v: all $expected phases played ($played)" [ "$played" -eq "$expected" ]
    $J show "$v" >"$T/show" 2>&1
    check "$v: game finished" grep -q "^Game $v on map $v: finished\$" "$T/show"
    check "$v: ended by $winner's victory" \
        grep -qx "Ended: Victory of $winner." "$T/show"
    $J history "$v" >"$T/history" 2>&1
    check "$v: results name the variant" \
        grep -q "^:: Judge: dipjudge  Game: $v  Variant: $v\$" "$T/history"
    # Every phase played has its picture named on its results mail (a
    # board with a geometry file, its own or the one it builds on), and
    # the last is drawn.
    if $J map "$v" -o "$T/$v.png" >/dev/null 2>&1; then
        drawn=$(sqlite3 "$T/judge.db" "SELECT count(DISTINCT o.picture_phase_id)
            FROM outbox o JOIN phases ph ON ph.id = o.picture_phase_id
            JOIN games g ON g.id = ph.game_id WHERE g.name = '$v'
            AND o.kind = 'results'")
        check "$v: every phase pictured ($drawn of $played)" [ "$drawn" -eq "$played" ]
    else
        echo "game-variants: $v has no picture geometry"
    fi
}

# Every board of maps/ but the standard one (game-full.sh plays that).
for f in "$S"/maps/*.map; do
    v=$(basename "$f" .map)
    [ "$v" = standard ] && continue
    if [ -f "$S/tests/games/$v/expect.txt" ]; then
        play_variant "$v"
    else
        bad "$v: no scripted game in tests/games/$v"
    fi
done

# Fleet Rome: Italy opens with a fleet in Rome, as the variant says.
$J history fleetrome S1901M >"$T/one" 2>&1
check "fleetrome: Italy's fleet in Rome" grep -Eq '^Italy: +Fleet Rome' "$T/one"

# Chaos: the 34th power's player got every results mail (power masks are
# 64 bits wide, not 32).
$J outbox chaos >"$T/outbox" 2>&1
check "chaos: Warsaw (the 34th power) got results" \
    [ "$(grep -c 'results.warsaw@chaos.example' "$T/outbox")" -eq "$(grep -c 'results.ankara@chaos.example' "$T/outbox")" ]
check "chaos: results mailed at all" grep -q 'results.warsaw@chaos.example' "$T/outbox"

# judgectl maps: every shipped board, with its counts.
$JUDGECTL maps --maps "$S/maps" >"$T/maps" 2>&1
check "judgectl maps succeeds" [ $? -eq 0 ]
check "maps: standard" grep -qx 'standard: 7 powers, 34 centres, 18 to win, starts S1901M' "$T/maps"
check "maps: fleetrome" grep -qx 'fleetrome: 7 powers, 34 centres, 18 to win, starts S1901M' "$T/maps"
check "maps: pure" grep -qx 'pure: 7 powers, 7 centres, 4 to win, starts S1901M' "$T/maps"
check "maps: Pure's Russia" grep -qx '  Russia (R) Mos' "$T/maps"
check "maps: chaos" grep -qx 'chaos: 34 powers, 34 centres, 18 to win, starts W1900A' "$T/maps"
check "maps: Chaos builds anywhere" grep -qx '  RULE build_sites=any' "$T/maps"
check "maps: 1898" grep -qx '1898: 7 powers, 34 centres, 18 to win, starts W1898A' "$T/maps"
check "maps: hundred" grep -qx 'hundred: 3 powers, 17 centres, 9 to win, starts S1425M' "$T/maps"
check "maps: ancmed" grep -qx 'ancmed: 5 powers, 34 centres, 18 to win, starts S1M' "$T/maps"
check "maps: youngstown" grep -qx 'youngstown: 10 powers, 72 centres, 37 to win, starts S1901M' "$T/maps"
check "maps: Youngstown's India is N" grep -qx '  India (N) Del Mad Cal' "$T/maps"
check "maps: milan" grep -qx 'milan: 7 powers, 34 centres, 18 to win, starts S1901M' "$T/maps"
check "maps: Milan's Italy" grep -qx '  Italy (I) Nap Rom Mil' "$T/maps"
check "maps: modern" grep -qx 'modern: 10 powers, 64 centres, 33 to win, starts S1995M' "$T/maps"
check "maps: Modern's Russia" grep -qx '  Russia (R) Mos Stp Gor Mur Ros' "$T/maps"
check "maps: fiveman" grep -qx 'fiveman: 5 powers, 27 centres, 14 to win, starts S1901M' "$T/maps"
check "maps: chromatic" grep -qx 'chromatic: 5 powers, 21 centres, 11 to win, starts S1901M' "$T/maps"
check "maps: Chromatic's Light" grep -qx '  Light (L) Ala Gho Ivo' "$T/maps"
check "maps: sailho" grep -qx 'sailho: 4 powers, 16 centres, 9 to win, starts S1901M' "$T/maps"
check "maps: Sail Ho's West" grep -qx '  West (W) Les Ves' "$T/maps"
check "maps: renaissance" grep -qx 'renaissance: 7 powers, 35 centres, 18 to win, starts S1454M' "$T/maps"
check "maps: Renaissance's Poland-Lithuania" grep -qx '  Poland-Lithuania (P) Sev Nov War' "$T/maps"
check "maps: brazilian" grep -qx 'brazilian: 7 powers, 35 centres, 18 to win, starts S1901M' "$T/maps"
check "maps: v8" grep -qx 'v8: 8 powers, 38 centres, 20 to win, starts S1901M' "$T/maps"
check "maps: V8's Scandinavia" grep -qx '  Scandinavia (S) Nwy Stp Swe' "$T/maps"
check "maps: V8's Russia without St Petersburg" grep -qx '  Russia (R) Mos Sev War' "$T/maps"
check "maps: modern-up" grep -qx 'modern-up: 10 powers, 64 centres, 33 to win, starts S1995M' "$T/maps"
check "maps: slovenia" grep -qx 'slovenia: 10 powers, 64 centres, 33 to win, starts S1995M' "$T/maps"
check "maps: crowded" grep -qx 'crowded: 11 powers, 35 centres, 18 to win, starts S1901M' "$T/maps"
check "maps: Crowded's Lowland holds Ruhr" grep -qx '  Lowland (L) Bel Hol Ruh' "$T/maps"
check "maps: britain" grep -qx 'britain: 7 powers, 37 centres, 19 to win, starts S1901M' "$T/maps"
check "maps: Britain's England holds the island" grep -qx '  England (E) Cly Edi Lvp Lon Wal Yor' "$T/maps"
check "maps: canton" grep -qx 'canton: 7 powers, 36 centres, 19 to win, starts S1901M' "$T/maps"
check "maps: Canton's Holland is H" grep -qx '  Holland (H) Sum Jav Bor' "$T/maps"
check "maps: minorpower" grep -qx 'minorpower: 19 powers, 34 centres, 18 to win, starts W1900A' "$T/maps"
check "maps: Minor Power's Norway is Y" grep -qx '  Norway (Y) Nwy' "$T/maps"
check "maps: 1900" grep -qx '1900: 7 powers, 39 centres, 18 to win, starts S1900M' "$T/maps"
check "maps: 1900's Germany holds Cologne" grep -qx '  Germany (G) Col Kie Ber Mun' "$T/maps"

# judgectl maps --check DIR: per file, loaded or the first reason; the
# shipped boards all load, a DPjudge keyword not played is named.
$JUDGECTL maps --check "$S/maps" >"$T/check" 2>&1
check "maps --check: the shipped boards all load (exit 0)" [ $? -eq 0 ]
check "maps --check: standard loaded" \
    grep -qx 'standard.map: loaded: 7 powers, 34 centres, 18 to win' "$T/check"
# Every shipped board (however many maps/ holds: boards are added).
nmaps=$(ls "$S"/maps/*.map | wc -l | tr -d ' ')
check "maps --check: the count ($nmaps)" grep -qx "$nmaps of $nmaps map files load" "$T/check"
mkdir -p "$T/dpdir"
cp "$S/tests/maps/dialect/dp-base.map" "$S/tests/maps/dialect/dp-variant.map" \
    "$T/dpdir/"
printf 'USE dp-base\nLEAGUE NORTH\n' >"$T/dpdir/league.map"
printf 'USE dp-base\nIN F1905M: DROP NOR\n' >"$T/dpdir/changing.map"
printf 'USE dp-base\nPAYOLA DIRECTIVES\n' >"$T/dpdir/payola.map"
$JUDGECTL maps --check "$T/dpdir" >"$T/check2" 2>&1
check "maps --check: a refused file makes exit 1" [ $? -eq 1 ]
check "maps --check: DPjudge's syntax loads" \
    grep -qx 'dp-base.map: loaded: 3 powers, 6 centres, 4 to win' "$T/check2"
check "maps --check: DPjudge's variant keywords load" \
    grep -qx 'dp-variant.map: loaded: 3 powers, 5 centres, 3 to win' "$T/check2"
check "maps --check: LEAGUE named with its variant" \
    grep -qx "league.map: refused: league.map:2: keyword 'LEAGUE' is not supported: DPjudge's leagues (LEAGUE: minor powers that move as a league, as in Ambition) are not supported" "$T/check2"
check "maps --check: IN named with its variant" \
    grep -q "^changing.map: refused: changing.map:2: keyword 'IN' is not supported: DPjudge's changing maps" "$T/check2"
check "maps --check: PAYOLA named with its variant" \
    grep -q "^payola.map: refused: payola.map:2: 'PAYOLA DIRECTIVES': the Payola variant" "$T/check2"
check "maps --check: the count" grep -qx '2 of 5 map files load' "$T/check2"

# A board without geography (an admin's own file, DPjudge's syntax): its
# games still get pictures, the schematic drawn from its adjacency graph,
# in the results mail and from judgectl map.
mkdir -p "$T/ownmaps"
cp "$S/tests/maps/dialect/dp-base.map" "$T/ownmaps/"
JD="$JUDGECTL --maps $T/ownmaps --db $T/own.db"
$JD init >/dev/null 2>&1
$JD create own --map dp-base --master gm@own.example >/dev/null 2>&1
for p in Red Blue Green; do
    lp=$(echo "$p" | tr 'A-Z' 'a-z')
    $JD join own "$lp@own.example" --power "$p" --password "pw-$lp" \
        >/dev/null 2>&1
done
check "own board: the game started" \
    [ "$($JD list | awk '$1 == "own" { print $3 }')" = S1901M ]
$JD process own >"$T/own-process" 2>&1
check "own board: S1901M processed" \
    [ "$($JD list | awk '$1 == "own" { print $3 }')" = F1901M ]
check "own board: the results mail carries a picture" \
    [ "$(sqlite3 "$T/own.db" "SELECT count(*) FROM outbox WHERE
        picture_phase_id IS NOT NULL")" -gt 0 ]
$JD map own S1901M -o "$T/own.png" >"$T/own-map" 2>&1
check "own board: judgectl map draws the schematic PNG" \
    [ "$(head -c 4 "$T/own.png" | od -An -c | tr -d ' \n')" = "211PNG" ]
$JD map own S1901M -o "$T/own.svg" >/dev/null 2>&1
check "own board: and the SVG, names and all" \
    sh -c "grep -q '<svg' '$T/own.svg' && [ \$(wc -c < '$T/own.svg') -gt 5000 ]"

# Hundred: a turn every five years, adjustments in the years divisible by
# ten, and the map's own season name in what players read.
$J history hundred >"$T/hh" 2>&1
check "hundred: results of A.D. 1425" grep -q "^Movement results for A.D. 1425\.\$" "$T/hh"
check "hundred: adjustments in 1430, none in 1435" \
    sh -c "grep -q '^Adjustment results for A.D. 1430\.\$' '$T/hh' &&
           ! grep -q '^Adjustment results for A.D. 1435' '$T/hh'"
check "hundred: the next turn five years on" \
    grep -q "will be Movement for A.D. 1435\." "$T/hh"

# 1898: the first results show every power's one build and nothing more.
$J history 1898 W1898A >"$T/one" 2>&1
check "1898: seven builds in the Winter of 1898" \
    [ "$(grep -c 'Build' "$T/one")" -ge 7 ]
mkdir "$T/badmaps"
printf 'LAND AAA ABUTS ZZZ\n' >"$T/badmaps/broken.map"
$JUDGECTL maps --maps "$T/badmaps" >"$T/out" 2>"$T/err"
check "a broken map makes judgectl maps fail" [ $? -eq 1 ]
check "and is named with its line" grep -q 'broken.map:1: ' "$T/err"

# The order reader knows a variant's own places, with the usual tolerance
# for spelling (Pure's Vienna has the alias Wien).
GAME_MAP=pure
POWERS=$(powers_of pure | tr '\n' ' ')
check "pure2: set up" game_setup pure2 "$GAME_T0"
GAME_MAP=
echo "army moskow moves to berlin" |
    DIPJUDGE_NOW=$GAME_T0 $J orders pure2 Russia --set >"$T/out" 2>&1
check "pure: a misspelt place read" grep -q "A MOS - BER: 'moskow' read as Moscow" "$T/out"
echo "A Wien - Constantinopel" |
    DIPJUDGE_NOW=$GAME_T0 $J orders pure2 Austria --set >"$T/out" 2>&1
check "pure: an alias and a misspelling read" grep -q "A VIE - CON" "$T/out"

# Hundred's own places and their aliases: Artois is Calais, Orleans the
# Orleanais; a misspelt Normandy is still read.
GAME_MAP=hundred
POWERS=$(powers_of hundred | tr '\n' ' ')
check "hundred2: set up" game_setup hundred2 "$GAME_T0"
GAME_MAP=
printf 'army paris moves to normandie\nA orleans holds\n' |
    DIPJUDGE_NOW=$GAME_T0 $J orders hundred2 France --set >"$T/out" 2>&1
check "hundred: a misspelt place read" grep -q "'normandie' read as Normandy" "$T/out"
DIPJUDGE_NOW=$GAME_T0 $J orders hundred2 France >"$T/out" 2>&1
check "hundred: the misspelt move kept" grep -qx "A PAR - NMD" "$T/out"
check "hundred: an alias read" grep -qx "A ORL H" "$T/out"
printf 'A artois supports A normandy\nF London - English Channel\n' |
    DIPJUDGE_NOW=$GAME_T0 $J orders hundred2 England --set >/dev/null 2>&1
DIPJUDGE_NOW=$GAME_T0 $J orders hundred2 England >"$T/out" 2>&1
check "hundred: Artois is Calais" grep -qx "A CAL S A NMD" "$T/out"
check "hundred: a sea by its full name" grep -qx "F LON - ECH" "$T/out"

# Youngstown's Asian places: Peking misspelt, Hankow, Kansu and Canton by
# name, the Gulf of Tonkin by its full name, England's Joharra, seas by an
# alias (Siam, Channel).  India's letter N is checked with the maps above.
GAME_MAP=youngstown
POWERS=$(powers_of youngstown | tr '\n' ' ')
check "youngstown2: set up" game_setup youngstown2 "$GAME_T0"
GAME_MAP=
printf 'army pekking moves to inner mongolia\nA Hankow - Kansu\nF canton - gulf of tonkin\n' |
    DIPJUDGE_NOW=$GAME_T0 $J orders youngstown2 China --set >"$T/out" 2>&1
check "youngstown: a misspelt place read" grep -q "'pekking' read as Peking" "$T/out"
DIPJUDGE_NOW=$GAME_T0 $J orders youngstown2 China >"$T/out" 2>&1
check "youngstown: China's orders" sh -c "grep -qx 'A PEK - IMO' '$T/out' &&
    grep -qx 'A HAN - KAN' '$T/out' && grep -qx 'F CAN - TON' '$T/out'"
printf 'F joharra - siam\nF London - Channel\n' |
    DIPJUDGE_NOW=$GAME_T0 $J orders youngstown2 England --set >/dev/null 2>&1
DIPJUDGE_NOW=$GAME_T0 $J orders youngstown2 England >"$T/out" 2>&1
check "youngstown: England's colony and a sea by its alias" \
    sh -c "grep -qx 'F JOH - SIA' '$T/out' && grep -qx 'F LON - ENG' '$T/out'"

# A newcomer in an empty directory: `list` says there is no database and
# makes none; a build tree's judgectl finds the maps with no flags.
mkdir "$T/empty"
(cd "$T/empty" && DIPJUDGE_MAPDIR= "$JUDGECTL" list) >"$T/out" 2>&1
check "list without a database says so" grep -q 'no database at ./dipjudge.db' "$T/out"
check "and creates none" [ ! -e "$T/empty/dipjudge.db" ]
if [ ! -d /usr/local/share/dipjudge/maps ]; then
    (cd "$T/empty" && env -u DIPJUDGE_MAPDIR "$JUDGECTL" create g1) >"$T/out" 2>&1
    check "judgectl create finds the source tree's maps" \
        grep -q 'created on map standard' "$T/out"
fi

checks_done
