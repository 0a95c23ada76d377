#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# settings.sh BUILDDIR SRCDIR — the one table of per-game settings
# (src/store/settings_table.h) reaches every door: each setting `judgectl
# help set` lists is documented in judgectl(8), judge.conf(5) and
# judge.conf.example; `judgectl show` prints every one as `set` takes it;
# each value shown is accepted back by `judgectl set`, by SET by mail and
# by judge.conf's games { }, and a changed value survives the database.
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"
export DIPJUDGE_NOW=$GAME_T0

names=$($J help set | awk '/^settings, KEY=VALUE/ { on = 1; next }
    on && /^  [a-z_]+ / { print $1 }' | grep -v -x -e map -e rule -e deadline)
check "help set lists the settings" [ "$(echo "$names" | wc -l)" -ge 19 ]
for n in $names; do
    check "$n in judgectl(8)" grep -q "^\.B $n\$" "$S/man/judgectl.8"
    check "$n in judge.conf(5)" grep -q "^\.B $n = " "$S/man/judge.conf.5"
    check "$n in judge.conf.example" grep -q "^ *$n = " "$S/judge.conf.example"
done

$J create s --master gm@s.example >/dev/null
$J join s gm@s.example --master --password gm-secret >/dev/null
settings() { $J show s | sed -n 's/^Settings: //p'; }
shown=$(settings)
for n in $names; do
    check "show prints $n" sh -c "echo '$shown' | grep -q ' *$n='"
done

# Every value as shown goes back in through each door unchanged.
for kv in $shown; do
    check "judgectl set $kv" sh -c "$J set s '$kv' >/dev/null"
done
check "set changed nothing" [ "$(settings)" = "$shown" ]
{
    echo "SIGNON Ms gm-secret"
    for kv in $shown; do echo "SET ${kv%%=*} ${kv#*=}"; done
} | $J command --from gm@s.example >"$T/out" 2>&1
check "SET by mail takes every setting" \
    sh -c "! grep -q 'ERROR\|not understood' '$T/out'"
check "SET by mail changed nothing" [ "$(settings)" = "$shown" ]
{
    echo "games: {"
    for kv in $shown; do echo "    ${kv%%=*} = \"${kv#*=}\";"; done
    echo "};"
} >"$T/judge.conf"
check "judge.conf's games { } takes every setting" \
    sh -c "$J --config '$T/judge.conf' create s2 >/dev/null"
check "and new games get them" \
    [ "$($J show s2 | sed -n 's/^Settings: //p')" = "$shown" ]

# Other values: kept in the database, read back as written.
other="movement_delay=2d12h retreat_delay=8h adjustment_delay=10h
time_of_day=20:30 days=-MTWTF- grace=6h absence_limit=3 nmr=wait early=no
early_delay=2h press=grey partial_press=no fake_press=yes observer_press=none
assignment=random zone=Europe/Paris engine=kruijswijk verify=dpjudge
map_attachment=pdf"
# shellcheck disable=SC2086 # one word per setting
check "set every setting at once" sh -c "$J set s $(echo $other) >/dev/null"
for kv in $other; do
    check "$kv kept" sh -c "$J show s | grep '^Settings: ' | grep -q ' $kv\\( \\|\$\\)'"
done
check "a value out of range is refused" \
    sh -c "! $J set s absence_limit=400 2>'$T/err' && grep -q 'absence_limit: a whole number from 0 to 365' '$T/err'"
check "a word not among the choices is refused" \
    sh -c "! $J set s map_attachment=gif 2>'$T/err' && grep -q 'map_attachment: png, pdf, svg or none' '$T/err'"
check "an unknown setting is refused" \
    sh -c "! $J set s colour=red 2>'$T/err' && grep -q \"unknown setting 'colour'\" '$T/err'"
printf 'games: { absence_limit = 999; };\n' >"$T/bad.conf"
check "judge.conf: a bad value names file and line" \
    sh -c "! $J --config '$T/bad.conf' list 2>'$T/err' && grep -q 'bad.conf:1: absence_limit' '$T/err'"

checks_done
