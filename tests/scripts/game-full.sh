#!/bin/sh
# SPDX-License-Identifier: MIT
#
# game-full.sh BUILDDIR SRCDIR — a whole game through judgectl: eleven
# years of scripted orders (tests/games/full, made by make_game.c) played
# by `judgectl tick` on a fake clock, with retreats, builds, removals,
# Austria silent from 1904 (civil disorder: the judge holds, disbands and
# removes for it) and Russia's victory in the Fall of 1911, then its
# pictures through `judgectl map`.
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"

now=$GAME_T0
check "game set up" game_setup full "$now"
check "seven players: the game started" [ "$(game_phase full)" = S1901M ]

expected=$(awk '$1 == "phases" { print $2 }' "$GAME/expect.txt")
game_play full "$GAME" || failed=$((failed + 1))
played=$game_played
check "all $expected phases played ($played)" [ "$played" -eq "$expected" ]
ok_phases=$played
[ "$ok_phases" -gt 0 ] && passed=$((passed + ok_phases - 1))

# The end.
$J show full >"$T/show" 2>&1
check "game finished" grep -q '^Game full on map standard: finished$' "$T/show"
check "ended by Russia's victory" grep -qx 'Ended: Victory of Russia.' "$T/show"
check "Austria, in civil disorder from 1904, is eliminated" \
    grep -Eq '^  Austria +austria@full.example +eliminated' "$T/show"
check "no more ticking" sh -c "DIPJUDGE_NOW=$((now + GAME_STEP)) $J tick |
    grep -qx '0 phases processed'"

# The results, as players received them.
$J history full >"$T/history" 2>&1
check "history has every phase" \
    [ "$(count '^:: Judge: dipjudge  Game: full  Variant: standard$' \
        "$T/history")" -eq "$expected" ]
check "victory announced" \
    grep -q 'Russia has won the game with 18 supply centers' "$T/history"
check "three retreat phases" \
    [ "$(count '^Retreat results for' "$T/history")" -eq 3 ]
check "ten adjustment phases (no Winter after the victory)" \
    [ "$(count '^Adjustment results for' "$T/history")" -eq 10 ]
check "units dislodged" grep -q 'dislodged' "$T/history"
$J history full F1907R >"$T/one" 2>&1
check "history of one phase" \
    [ "$(count '^Retreat results for Fall of 1907' "$T/one")" -eq 1 ]
$J history full 1905 >"$T/year" 2>&1
check "history of one year: S, F, W" \
    [ "$(count '^:: Judge' "$T/year")" -eq 3 ]

# Builds, removals and the judge's own orders, from the export.
$J export full >"$T/export.json" 2>&1
builds=$(awk '$1 == "builds" { print $2 }' "$GAME/expect.txt")
judge_rm=$(awk '$1 == "judge_removals" { print $2 }' "$GAME/expect.txt")
check "builds in the results ($builds)" \
    [ "$(grep -c '"order": "[AF] [A-Z/]* B", "outcome": "succeeded' \
        "$T/export.json")" -ge 1 ]
check "the judge removed Austrian units ($judge_rm)" \
    [ "$(grep -c '"power": "Austria", "order": "[AF] [A-Z/]* D", "outcome": "by-judge"' \
        "$T/export.json")" -eq "$judge_rm" ]
check "players removed units" \
    grep -q '"order": "[AF] [A-Z/]* D", "outcome": "succeeded' \
        "$T/export.json"
check "Austria's disorder recorded with the S1904M result" \
    grep -q '"detail": "S1904M; civil disorder: Austria"' "$T/export.json"
check "Austria's disorder in the later results" \
    grep -q '"disorder": "Austria' "$T/export.json"
check "final position stored" \
    [ "$(count '"status": "final"' "$T/export.json")" -eq 1 ]
check "every phase kept" \
    [ "$(count '"seq": ' "$T/export.json")" -eq $((expected + 1)) ]
if command -v python3 >/dev/null 2>&1; then
    check "export is valid JSON" \
        python3 -c 'import json,sys; json.load(open(sys.argv[1]))' \
        "$T/export.json"
fi

# One results mail per phase for the seven players and the master.
$J outbox full >"$T/outbox" 2>&1
check "results mail: 8 per phase" \
    [ "$(count '	results	' "$T/outbox")" -eq $((expected * 8)) ]
check "subjects follow the pattern" \
    grep -q '	dipjudge:full - F1911M Results$' "$T/outbox"

# The supply-centre summary.
$J summary full >"$T/summary" 2>&1
check "summary has 1901 to 1911" \
    sh -c "grep -q '^ *1901 ' '$T/summary' && grep -q '^ *1911 ' '$T/summary'"

# Pictures of the game (judgectl map): every format, a processed phase
# with its orders, the current phase, and the errors a master can make.
check "map: the F1902M picture with its orders, PNG" \
    quiet $J map full F1902M -o "$T/f1902.png"
check "map: a PNG file" sh -c "file '$T/f1902.png' | grep -q 'PNG image'"
check "map: SVG, the board alone" \
    quiet $J map full S1905M --no-orders -o "$T/s1905.svg"
check "map: SVG parses" sh -c "grep -q '<svg' '$T/s1905.svg'"
check "map: PDF of the last phase" quiet $J map full --output "$T/last.pdf"
check "map: a PDF file" sh -c "head -c 5 '$T/last.pdf' | grep -q '%PDF-'"
check "map: unknown extension refused" \
    sh -c "! $J map full -o '$T/x.gif' 2>'$T/err' && grep -q '.png, .svg or .pdf' '$T/err' && [ ! -e '$T/x.gif' ]"
check "map: unknown phase refused" \
    sh -c "! $J map full S1950M -o '$T/x.png' 2>'$T/err' && grep -q 'no phase S1950M' '$T/err' && [ ! -e '$T/x.png' ]"
check "map: no -o is a usage error" \
    sh -c "$J map full >/dev/null 2>&1; [ \$? -eq 2 ]"
# Every library the programs call is linked, as the loader and packaging
# tools expect: ldd names each one.
for prog in judgectl judged; do
    ldd "$B/$prog" >"$T/ldd" 2>&1
    for lib in libsqlite3 libconfig libcairo libfontconfig libpng16; do
        check "$prog is linked with $lib" grep -q "^[[:space:]]*$lib\\." "$T/ldd"
    done
done

checks_done
