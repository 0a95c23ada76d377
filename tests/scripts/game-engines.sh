#!/bin/sh
# SPDX-License-Identifier: MIT
#
# game-engines.sh BUILDDIR SRCDIR — a game on each engine, end to end
# through judgectl: a dislodgement leads to the retreat phase, the retreat
# to the adjustments, whatever the engine; and a game whose rules set an
# option its engine (or its verifying engine) does not implement is
# refused, naming the option and the engines that do, at create, at set,
# by mail (SET) and for judge.conf's games { }.
#
# The year: S1901 Russia F sev-rum, Turkey A con-bul and F ank-bla; F1901
# Turkey A bul-rum supported by F bla dislodges the fleet, which must be
# offered its retreat in F1901R (to Sevastopol) before W1901A.
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"

# order NAME POWER NOW ORDER...: set a power's orders.
order()
{
    or_game=$1
    or_power=$2
    or_now=$3
    shift 3
    printf '%s\n' "$@" |
        DIPJUDGE_NOW=$or_now $J orders "$or_game" "$or_power" --set >/dev/null
}

for engine in dpjudge kruijswijk haplomacy; do
    g=$(echo "$engine" | cut -c1-4)
    now=$GAME_T0
    check "$engine: game set up" game_setup "$g" "$now" engine=$engine
    $J show "$g" >"$T/show"
    check "$engine: show names the engine" grep -q "^Engines: $engine," "$T/show"
    check "$engine: S1901 orders" order "$g" Russia "$now" 'F sev-rum'
    check "$engine: S1901 orders" order "$g" Turkey "$now" 'A con-bul' 'F ank-bla'
    now=$((now + GAME_STEP))
    DIPJUDGE_NOW=$now $J tick >"$T/tick" 2>&1
    check "$engine: S1901M processed" [ "$(game_phase "$g")" = F1901M ]
    check "$engine: F1901 orders" order "$g" Turkey "$now" 'A bul-rum' 'F bla S A bul-rum'
    now=$((now + GAME_STEP))
    DIPJUDGE_NOW=$now $J tick >"$T/tick" 2>&1
    check "$engine: the dislodgement leads to F1901R" \
        [ "$(game_phase "$g")" = F1901R ]
    $J show "$g" >"$T/show"
    check "$engine: the fleet is shown dislodged" \
        grep -qi 'dislodged.*rum\|rum.*dislodged' "$T/show"
    check "$engine: F1901R orders" order "$g" Russia "$now" 'F rum-sev'
    now=$((now + GAME_STEP))
    DIPJUDGE_NOW=$now $J tick >"$T/tick" 2>&1
    check "$engine: the retreat leads to W1901A" \
        [ "$(game_phase "$g")" = W1901A ]
    $J history "$g" F1901R >"$T/history" 2>&1
    check "$engine: the retreat was made" grep -q 'Fleet Rumania -> Sevastopol' "$T/history"
    $J show "$g" >"$T/show"
    check "$engine: no unit left dislodged" \
        sh -c "! grep -qi 'dislodged' '$T/show'"
done

# ---- rule options an engine does not implement ------------------------------
DIPJUDGE_NOW=$GAME_T0 $J create hx engine=haplomacy rule=multiple_orders=a \
    >"$T/out" 2>&1
check "create: refused" [ $? -ne 0 ]
check "create: the option and the engines that implement it" \
    grep -q "the haplomacy engine does not implement rule option multiple_orders (4.D.3) = a; engines that do: dpjudge, kruijswijk" "$T/out"
DIPJUDGE_NOW=$GAME_T0 $J create hx engine=haplomacy >/dev/null 2>&1
check "create on haplomacy with the default rules" [ $? -eq 0 ]
$J set hx rule=implicit_orders=a >"$T/out" 2>&1
check "set rule: refused" [ $? -ne 0 ]
check "set rule: the option named" grep -q "implicit_orders (4.E.3) = a" "$T/out"
$J set hx rule=convoy_retreat=a >"$T/out" 2>&1
check "an option all engines implement is accepted" [ $? -eq 0 ]
DIPJUDGE_NOW=$GAME_T0 $J create dx rule=convoy_paradox=all_hold >/dev/null 2>&1
check "dpjudge game with a rule option" [ $? -eq 0 ]
$J set dx engine=haplomacy >"$T/out" 2>&1
check "set engine: refused" grep -q "game 'dx' (engine): the haplomacy engine does not implement rule option convoy_paradox (4.A.2) = e" "$T/out"
$J set dx verify=haplomacy >"$T/out" 2>&1
check "set verify: refused" grep -q "game 'dx' (verify): the haplomacy engine" "$T/out"
$J show dx >"$T/show"
check "refused settings change nothing" grep -q "^Engines: dpjudge, checked by kruijswijk" "$T/show"

# By mail: the master's SET goes through the same check.
$J join hx gm@hx.example --master --password gm-secret >/dev/null 2>&1
printf 'SIGNON Mhx gm-secret\nSET rule=dislodged_bounce=a\n' |
    $J command --from gm@hx.example >"$T/out" 2>&1
check "mail SET: refused with the option named" \
    grep -q "dislodged_bounce (4.A.7) = a; engines that do: dpjudge, kruijswijk" "$T/out"

# judge.conf: new games on a map whose RULE lines the engine ignores.
cat >"$T/judge.conf" <<CONF
games:
{
    engine = "haplomacy";
    map = "rules-standard";
};
CONF
$JUDGECTL --config "$T/judge.conf" --maps "$S/tests/maps" --db "$T/judge.db" \
    list >"$T/out" 2>&1
check "judge.conf: refused" [ $? -ne 0 ]
check "judge.conf: says where and why" \
    grep -q "judge.conf games { }: new games on map rules-standard (engine): the haplomacy engine does not implement rule option" "$T/out"

# judgectl rules: which engines implement each option.
$J rules convoy_paradox convoy_retreat >"$T/out"
check "rules: an option of the movement engines" \
    grep -qx "    engines: dpjudge, kruijswijk" "$T/out"
check "rules: an option every engine implements" \
    grep -qx "    engines: dpjudge, kruijswijk, haplomacy" "$T/out"

checks_done
