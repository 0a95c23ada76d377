#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# game-cli.sh BUILDDIR SRCDIR — judgectl's game commands as a master uses
# them: help for every command, errors (one line on stderr, non-zero exit,
# nothing written), configuration files, joining and random powers,
# forced start with dummies, rollback and rollforward, preview, votes
# (draw, concession), replace, eject, terminate, observers' mail, the
# export, and the `orders` scripting form still reaching the order reader.
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"
export DIPJUDGE_NOW=$GAME_T0

# run STATUS ARGS...: judgectl ARGS, exit status STATUS; out/err kept.
run()
{
    local want=$1
    shift
    $J "$@" >"$T/out" 2>"$T/err"
    local st=$?
    if ((st == want)); then ok; else
        bad "judgectl $*: exit $st, want $want"
        sed 's/^/    /' "$T/err" | head -5
    fi
}
# fails STATUS MESSAGE ARGS...: exits STATUS with one stderr line
# containing MESSAGE (then, for usage errors, the usage line), and nothing
# on stdout.
fails()
{
    local want=$1 msg=$2 lines=1
    shift 2
    ((want == 2)) && lines=2
    run "$want" "$@"
    if [[ $(wc -l <"$T/err") -eq $lines ]] &&
        head -n 1 "$T/err" | grep -qF -- "$msg" && [[ ! -s $T/out ]]; then
        ok
    else
        bad "judgectl $*: wanted one line with '$msg', got: $(cat "$T/err")"
    fi
}

# ---- help documents every command ----------------------------------------
run 0 help
for c in create list show join add-player start set orders process preview \
    rollback rollforward pause resume terminate replace eject history \
    summary export tick ready vote absence outbox help; do
    grep -q "^  $c " "$T/out" && ok || bad "help lists no '$c'"
    $J help "$c" >/dev/null 2>&1 && ok || bad "help $c"
done
run 0 help set
has "movement_delay"
has "deadline"

# ---- errors ------------------------------------------------------------------
run 1 show nope
grep -qF "no database at $T/judge.db" "$T/err" && ok ||
    bad "show on no database: $(cat "$T/err")"
[[ ! -e $T/judge.db ]] && ok || bad "show made a database"
run 0 init
fails 1 "game 'nope' does not exist" show nope
fails 2 "missing arguments" show
fails 2 "unknown option '--bogus'" create x --bogus
fails 1 "bad game name" create "bad name"
fails 1 "unknown setting 'colour'" create x colour=red
fails 1 "movement_delay" create x movement_delay=soon
fails 1 "this judge has no map 'nomap' (judgectl maps lists them)" create x --map nomap
run 0 list
has "no games" # none of the failures created anything
mkdir "$T/dir.db"
fails 78 "dir.db: not a regular file" --db "$T/dir.db" list

# ---- configuration --------------------------------------------------------------
cat >"$T/judge.conf" <<EOF
judge_name = "testjudge";
database = "$T/conf.db";
games: { movement_delay = "36h"; nmr = "wait"; press = "none"; };
EOF
$JUDGECTL --maps "$S/maps" --config "$T/judge.conf" create k >/dev/null &&
    ok || bad "create with --config"
[[ -f $T/conf.db ]] && ok || bad "the configuration's database"
DIPJUDGE_CONF=$T/judge.conf $JUDGECTL --maps "$S/maps" show k >"$T/out" &&
    ok || bad "DIPJUDGE_CONF"
has "Schedule: movement 1d12h"
has "NMR: wait"
$JUDGECTL --config "$S/judge.conf.example" --db "$T/example.db" init \
    >/dev/null && ok || bad "judge.conf.example does not load"
echo 'colour = "red";' >"$T/bad.conf"
$JUDGECTL --config "$T/bad.conf" list 2>"$T/err" >/dev/null
expect "bad configuration: exit" "$?" 1
grep -q "bad.conf:1: unknown setting 'colour'" "$T/err" && ok ||
    bad "bad configuration message: $(cat "$T/err")"

# ---- forming: join, random powers, forced start ---------------------------------
run 0 create r --master gm@r.example assignment=random
fails 1 "dealt at random" join r a@r.example --power France
for i in 1 2 3; do run 0 join r "p$i@r.example" --password "secret$i"; done
fails 1 "already plays" join r p1@r.example
fails 1 "has 3 of 7 players" start r
run 0 join r watcher@r.example --observer
run 0 start r --force
has "r: started; S1901M deadline"
run 0 show r
n=$(grep -c '@r.example  *playing' "$T/out")
expect "three players dealt powers" "$n" 3
n=$(grep -c '(dummy)  *civil-disorder' "$T/out")
expect "four dummies" "$n" 4
fails 1 "game 'r' is active" join r late@r.example

# ---- a game for the master's actions --------------------------------------------
game_setup m "$GAME_T0"
run 0 join m obs@m.example --observer
run 0 join m gm@m.example --observer # the master observes too: one copy
files=("$GAME"/[0-9]*-*.txt)
now=$GAME_T0
for i in 0 1 2; do
    game_orders m "${files[i]}" "$now"
    now=$((now + GAME_STEP))
    DIPJUDGE_NOW=$now $J process m >/dev/null || bad "process ${files[i]}"
done
expect "three phases played" "$(game_phase m)" S1902M
run 0 preview m
has "(preview: nothing saved)"
expect "preview saved nothing" "$(game_phase m)" S1902M

# Orders: bad orders refuse the whole set; the old set stays.
run 0 orders m France
before=$(cat "$T/out")
printf 'A par - bur\nA xyzzy - qqq\n' >"$T/bad"
$J orders m France --set <"$T/bad" >"$T/out" 2>"$T/err"
expect "bad orders: exit" "$?" 1
grep -q "orders of France not accepted: line 2" "$T/err" && ok ||
    bad "bad orders message: $(cat "$T/err")"
run 0 orders m France
expect "orders unchanged" "$(cat "$T/out")" "$before"
printf 'army paris to burgundy\n' | $J orders m France --set >/dev/null
run 0 orders m France
expect "best-effort reading, canonical form" "$(cat "$T/out")" "A PAR - BUR"

# Rollback and rollforward.
DIPJUDGE_NOW=$now run 0 rollback m
has "rolled back to W1901A"
expect "back at W1901A" "$(game_phase m)" W1901A
run 0 rollforward m
expect "forward at S1902M" "$(game_phase m)" S1902M
run 0 orders m France
expect "orders of the restored phase" "$(cat "$T/out")" "A PAR - BUR"
run 0 rollback m S1901M
expect "back at S1901M" "$(game_phase m)" S1901M
run 0 orders m England
expect "S1901M orders kept" "$(grep -c . "$T/out")" \
    "$(grep -c '^England: ' "${files[0]}")"
DIPJUDGE_NOW=$((now + 1)) run 0 process m
fails 1 "no rollback to undo" rollforward m
fails 1 "is the current phase" rollback m F1901M
fails 1 "has no phase S1950M" rollback m S1950M
run 0 export m
has '"status": "undone"'
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json,sys; json.load(sys.stdin)' <"$T/out" && ok ||
        bad "export is not JSON"
fi
run 0 outbox m
grep -q '	results	obs@m.example	dipjudge:m - S1901M Results$' "$T/out" &&
    ok || bad "observer gets results"
expect "one copy for an address in two roles" \
    "$(grep -c '	results	gm@m.example	dipjudge:m - F1901M Results$' "$T/out")" 1

# Replace and eject.
run 0 replace m Italy new-italy@m.example --name "New Italy"
has "new-italy@m.example now plays Italy"
run 0 eject m Turkey
has "Turkey is in civil disorder"
run 0 show m
grep -Eq '^  Turkey +\(dummy\) +civil-disorder' "$T/out" && ok ||
    bad "Turkey dummy"
fails 1 "no player to vote" vote m Turkey draw

# Votes: a draw needs every surviving power with a player.
for p in Austria England France Germany Italy; do run 0 vote m $p draw; done
expect "not yet drawn" "$(game_state m)" active
run 0 vote m Russia draw
has "Draw declared by Austria, England, France, Germany, Italy and Russia."
expect "drawn" "$(game_state m)" finished
fails 1 "game 'm' is finished" process m
run 0 rollback m
expect "a drawn game reopens" "$(game_state m)" active
run 0 vote m Russia none
for p in Austria England France Germany Italy; do
    run 0 vote m $p concede Russia
done
has "Russia wins: conceded by"
expect "conceded" "$(game_state m)" finished

# Pause, resume, terminate.
run 0 create z
fails 1 "game 'z' is forming" pause z
run 0 terminate z lack of players
has "Terminated by the game master: lack of players."
expect "terminated" "$(game_state z)" finished

# Settings: all or nothing.
run 0 create s
fails 1 "nmr" set s grace=2h nmr=sometimes
run 0 show s
has "grace 1d"
run 0 set s grace=2h "rule=civil_disorder_removal=a" press=grey
run 0 show s
has "grace 2h"
has "civil_disorder_removal=a"
fails 1 "unknown rule option 'nonsense'" set s rule=nonsense=a

# The order reader's scripting form is still there.
$J orders --map standard >"$T/out" 2>"$T/err"
st=$?
[[ $st -eq 2 ]] && ! grep -q "does not exist" "$T/err" && ok ||
    bad "orders --map: exit $st, $(cat "$T/err")"

checks_done
