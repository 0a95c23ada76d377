#!/bin/sh
# SPDX-License-Identifier: MIT
#
# game-crosscheck.sh BUILDDIR SRCDIR — the second engine checks every
# movement phase before anything is stored or mailed.
#
# A game plays its first year with the default engines (DPjudge, checked
# by Kruijswijk): the phases go through.  Then the engines are made to
# disagree (DIPJUDGE_TEST_DISAGREE, the test hook of src/game/verify.c):
# the tick processes nothing, the game is paused, the master and the
# judge's admin get one mail each with both results and the phase as a
# case file that `judgectl check` reads, and no player is mailed anything.
# `judgectl process GAME --engine kruijswijk` then decides: the phase is
# processed, the game resumes, the players get their results.
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"
cat >"$T/judge.conf" <<CONF
admin_address = "admin@judge.example";
CONF
J="$JUDGECTL --config $T/judge.conf --maps $S/maps --db $T/judge.db"

now=$GAME_T0
check "game set up" game_setup xc "$now"
$J show xc >"$T/show"
check "show names the engines" grep -qx 'Engines: dpjudge, checked by kruijswijk' "$T/show"

# 1901 with the engines agreeing, as ever.
for f in "$GAME"/01-*.txt "$GAME"/02-*.txt "$GAME"/03-*.txt; do
    game_orders xc "$f" "$now" || bad "orders of $(phase_of "$f")"
    now=$((now + GAME_STEP))
    DIPJUDGE_NOW=$now $J tick >"$T/tick" 2>&1 || bad "tick failed"
done
check "1901 played with verification on" [ "$(game_phase xc)" = S1902M ]

# S1902M: the engines disagree.
game_orders xc "$GAME/04-S1902M.txt" "$now" || bad "orders of S1902M"
now=$((now + GAME_STEP))
DIPJUDGE_TEST_DISAGREE=1 DIPJUDGE_NOW=$now $J tick >"$T/tick" 2>&1
check "tick succeeds" [ $? -eq 0 ]
check "tick says nothing was processed" grep -qx '0 phases processed' "$T/tick"
check "tick says why" grep -q 'S1902M NOT processed: the dpjudge and kruijswijk engines disagree' "$T/tick"
check "the game is paused" [ "$(game_state xc)" = paused ]
check "the phase is still S1902M" [ "$(game_phase xc)" = S1902M ]
$J outbox xc >"$T/outbox"
check "one mail to the master" [ "$(count 'verify.gm@xc.example' "$T/outbox")" -eq 1 ]
check "one mail to the admin" [ "$(count 'verify.admin@judge.example' "$T/outbox")" -eq 1 ]
check "no results mailed: no player hears of it" \
    [ "$(count 'S1902M Results' "$T/outbox")" -eq 0 ]
check "no player gets the disagreement mail" \
    [ "$(grep 'verify' "$T/outbox" | grep -c '@xc.example' || true)" -eq 1 ]
$J history xc S1902M >"$T/history" 2>&1
check "no results stored for S1902M" sh -c "! grep -q 'Movement results' '$T/history'"

# The mail: both results and a case judgectl check can run.
sqlite3 "$T/judge.db" "SELECT body FROM outbox WHERE kind = 'verify' LIMIT 1" >"$T/mail"
check "mail explains" grep -q 'disagree on S1902M' "$T/mail"
check "mail gives engine A's results" grep -q 'Results by the dpjudge engine' "$T/mail"
check "mail gives engine B's results" grep -q 'Results by the kruijswijk engine' "$T/mail"
check "mail says how to decide" grep -q 'judgectl process xc --engine kruijswijk' "$T/mail"
sed -n '/^VARIANT_ALL/,$p' "$T/mail" >"$T/case.txt"
$JUDGECTL check --engine all --maps "$S/maps" "$T/case.txt" >"$T/check" 2>&1
check "the mailed case passes judgectl check with both engines" \
    grep -qx '2 passed, 0 failed' "$T/check"

# While paused, ticks leave it alone; the master decides.
DIPJUDGE_TEST_DISAGREE=1 DIPJUDGE_NOW=$((now + GAME_STEP)) $J tick >"$T/tick" 2>&1
check "a paused game is not processed" [ "$(game_phase xc)" = S1902M ]
DIPJUDGE_NOW=$now $J process xc --engine kruijswijk >"$T/decide" 2>&1
check "process --engine succeeds" [ $? -eq 0 ]
check "the phase is processed" grep -q 'S1902M processed' "$T/decide"
check "the game resumes" [ "$(game_state xc)" = active ]
$J outbox xc >"$T/outbox"
check "players now get their results" \
    [ "$(count 'results.russia@xc.example' "$T/outbox")" -eq 4 ]
$J process xc --engine nosuch >"$T/out" 2>&1
check "an unknown engine is refused" [ $? -eq 2 ]

# verify=none: no second engine, and the hook has nothing to disagree with.
DIPJUDGE_NOW=$now $J set xc verify=none >/dev/null
$J show xc >"$T/show"
check "show: no verifier" grep -qx 'Engines: dpjudge, checked by none' "$T/show"
game_orders xc "$GAME/05-F1902M.txt" "$now" || true
DIPJUDGE_TEST_DISAGREE=1 DIPJUDGE_NOW=$((now + 2 * GAME_STEP)) $J tick >"$T/tick" 2>&1
check "verify=none processes" grep -q 'F1902M processed' "$T/tick"
$J set xc engine=kruijswijk verify=default >/dev/null
$J show xc >"$T/show"
check "engine=kruijswijk is checked by dpjudge" grep -qx 'Engines: kruijswijk, checked by dpjudge' "$T/show"
$J set xc engine=zzz >"$T/out" 2>&1
check "a bad engine setting is refused" grep -q 'engine: dpjudge, kruijswijk or haplomacy' "$T/out"

checks_done
