#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# game-clock.sh BUILDDIR SRCDIR — deadlines through `judgectl tick` on a
# fake clock (DIPJUDGE_NOW): time of day and weekday mask in the game's
# zone, early processing when everyone is READY (and WAIT holding it
# back), the early_delay, late notices once per phase, grace and the two
# NMR policies (civil disorder, or waiting for the master), absences
# pushing a deadline, pause and resume, a deadline set by hand across the
# change to summer time.  Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"

deadline() { $J list | awk '$1 == "c" { print $5, $6 }'; }
tick() # NOW: run a tick, keep its output in $T/tick
{
    DIPJUDGE_NOW=$1 $J tick >"$T/tick" 2>&1 || bad "tick at $1 failed"
}
processed() { awk '/processed$/ { print $1 }' "$T/tick"; }

declare -A HOLD=(
    [Austria]="A vie H|A bud H|F tri H"
    [England]="F lon H|F edi H|A lvp H"
    [France]="F bre H|A par H|A mar H"
    [Germany]="F kie H|A ber H|A mun H"
    [Italy]="F nap H|A rom H|A ven H"
    [Russia]="F stp/sc H|A mos H|A war H|F sev H"
    [Turkey]="F ank H|A con H|A smy H")
hold() # NOW POWER...: every unit of these powers holds
{
    local now=$1 p
    shift
    for p in "$@"; do
        echo "${HOLD[$p]}" | tr '|' '\n' |
            DIPJUDGE_NOW=$now $J orders c "$p" --set >/dev/null ||
            bad "orders of $p"
    done
}
ready() { DIPJUDGE_NOW=$1 $J ready c "$2" "${3:-ready}" >/dev/null; }

t0=$GAME_T0 # Fri 15 Jan 2027 08:00 UTC, 09:00 in Amsterdam
game_setup c $t0 movement_delay=48h grace=12h time_of_day=20:00 \
    days=-MTWTF- zone=Europe/Amsterdam
# 48 hours: Sunday 09:00; 20:00 that day; Sunday is not allowed: Monday.
expect "first deadline (UTC)" "$(deadline)" "2027-01-18 19:00"
$J show c >"$T/show"
grep -q 'deadline Mon 18 Jan 2027 20:00 CET' "$T/show" && ok ||
    bad "show: local deadline"

# Early processing: complete orders are not enough, READY is.
tick $((t0 + 3600))
expect "nothing due" "$(processed)" 0
hold $((t0 + 3600)) Austria England France Germany Italy Russia Turkey
tick $((t0 + 3700))
expect "complete but not ready" "$(processed)" 0
for p in Austria England France Germany Italy Russia; do
    ready $((t0 + 3700)) $p
done
tick $((t0 + 3800))
expect "six of seven ready" "$(processed)" 0
ready $((t0 + 3800)) Turkey
ready $((t0 + 3800)) Germany wait
tick $((t0 + 3900))
expect "WAIT holds early processing back" "$(processed)" 0
ready $((t0 + 3900)) Germany no-wait
t1=$((t0 + 7200))
tick $t1
expect "all ready: processed early" "$(processed)" 1
expect "next phase" "$(game_phase c)" F1901M
expect "next deadline from processing time" "$(deadline)" "2027-01-18 19:00"

# Late: a notice once, civil disorder when grace runs out.
hold $t1 Austria England France Germany Russia Turkey
dl=1800298800 # 2027-01-18 19:00 UTC
expect "deadline arithmetic" "$(date -u -d @$dl '+%Y-%m-%d %H:%M')" \
    "$(deadline)"
tick $((dl - 60))
expect "before the deadline" "$(processed)" 0
tick $((dl + 60))
expect "late, in grace" "$(processed)" 0
grep -q '^c: F1901M late: Italy$' "$T/tick" && ok || bad "late line"
tick $((dl + 120))
n=$($J outbox c | grep -c '	late	')
expect "late notice to Italy and the master, once" "$n" 2
$J outbox c | grep '	late	' | grep -q 'italy@c.example	dipjudge:c - F1901M Late notice' &&
    ok || bad "late notice subject"
tick $((dl + 12 * 3600 - 60))
expect "grace not yet over" "$(processed)" 0
t2=$((dl + 12 * 3600))
tick $t2
expect "grace over: processed" "$(processed)" 1
$J show c | grep -Eq '^  Italy +italy@c.example +civil-disorder' && ok ||
    bad "Italy in civil disorder"
expect "holds everywhere: no adjustments" "$(game_phase c)" S1902M

# The wait policy: grace over, the game waits; the master processes.
DIPJUDGE_NOW=$t2 $J set c nmr=wait >/dev/null || bad "set nmr=wait"
hold $t2 Austria England Germany Russia Turkey
dl2=$(( $(date -u -d "$(deadline)" +%s) ))
tick $((dl2 + 13 * 3600))
expect "wait policy: not processed" "$(processed)" 0
grep -q 'late: France$' "$T/tick" && ok || bad "France late"
DIPJUDGE_NOW=$((dl2 + 13 * 3600)) $J process c >/dev/null && ok ||
    bad "master's process"
expect "processed by the master" "$(game_phase c)" F1902M
$J show c | grep -Eq '^  France +france@c.example +civil-disorder' && ok ||
    bad "France in civil disorder"

# An absence over the deadline pushes it past the absence.
t3=$((dl2 + 13 * 3600))
before=$(deadline)
DIPJUDGE_NOW=$t3 $J absence c England "$(date -u -d "$before" '+%Y-%m-%d') 00:00" \
    "$(date -u -d "$before + 2 days" '+%Y-%m-%d') 12:00" >"$T/abs" 2>&1 ||
    { bad "absence"; cat "$T/abs"; }
after=$(deadline)
want=$(date -u -d "$before + 2 days" '+%Y-%m-%d')
expect "deadline after the absence" "${after%% *}" "$want"

# Pause: no deadline passes; resume starts a fresh one if it passed.
DIPJUDGE_NOW=$t3 $J pause c >/dev/null || bad "pause"
far=$((t3 + 30 * 86400))
tick $far
expect "paused: nothing" "$(processed)" 0
DIPJUDGE_NOW=$far $J resume c >/dev/null || bad "resume"
after=$(deadline)
[[ $(date -u -d "$after" +%s) -gt $far ]] && ok || bad "deadline after resume"

# early_delay: complete orders count as ready after an hour.
DIPJUDGE_NOW=$far $J set c early_delay=1h >/dev/null || bad "set early_delay"
hold $far Austria England Germany Russia Turkey
tick $((far + 1800))
expect "half an hour: not yet" "$(processed)" 0
tick $((far + 3660))
expect "an hour after complete orders: processed" "$(processed)" 1

# A deadline by hand, in local time, across the change to summer time.
DIPJUDGE_NOW=$far $J set c "deadline=2027-03-26 20:00" >/dev/null ||
    bad "set deadline (winter)"
expect "CET deadline" "$(deadline)" "2027-03-26 19:00"
DIPJUDGE_NOW=$far $J set c "deadline=2027-03-29 20:00" >/dev/null ||
    bad "set deadline (summer)"
expect "CEST deadline" "$(deadline)" "2027-03-29 18:00"
DIPJUDGE_NOW=$far $J set c "deadline=+2d" >/dev/null || bad "deadline=+2d"
expect "relative deadline" "$(date -u -d "$(deadline)" +%s)" \
    "$((far / 60 * 60 + 2 * 86400))"

# A deadline moved after a late notice: the lateness is announced again.
ph=$(game_phase c)
d1=$(date -u -d "$(deadline)" +%s)
tick $((d1 + 60))
grep -q "late: " "$T/tick" && ok || bad "late at the hand-set deadline"
DIPJUDGE_NOW=$((d1 + 120)) $J set c "deadline=+1d" >/dev/null ||
    bad "deadline moved"
tick $((d1 + 120 + 86400 + 60))
grep -q "late: " "$T/tick" && ok || bad "late again at the moved deadline"
n=$($J outbox c | grep -c "	late	.* $ph Late notice\$")
expect "two late notices for $ph to each late power and the master" \
    "$((n % 2))" 0
[[ $n -ge 4 ]] && ok || bad "only $n late notices for $ph"

checks_done
