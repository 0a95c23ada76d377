#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# picture-cache.sh BUILDDIR SRCDIR — the picture cache stays within
# judge.conf's picture_cache_mb (issue 25): at the end of a tick, at most
# once an hour, the least recently used pictures go until the cache weighs
# nine tenths of its bound; a picture read from the cache counts as used;
# only the cache's own files are counted or removed (anything else in the
# folder stays); picture_cache_mb = 0 keeps everything; a pruned picture
# is drawn again when asked for.
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"
cd "$T" || exit 2
export DIPJUDGE_NOW=$GAME_T0
C="$T/cache"
cat >"$T/judge.conf" <<EOF
picture_cache = "$C";
picture_cache_mb = 1;
EOF
JC="$J -c $T/judge.conf"

$JC create pc --master gm@pc.example >/dev/null
for p in $POWERS; do
    lp=$(echo "$p" | tr 'A-Z' 'a-z')
    $JC join pc "$lp@pc.example" --power "$p" --password "pw-$lp" >/dev/null
done
check "the game started" [ "$(game_phase pc)" = S1901M ]

# A real picture in the cache, then old pictures of other games: 30 files
# of 100 KB (3 MB, three times the bound), each a day older than the next.
# Files' times are the real clock's (the judge's test clock is for the
# tick's once an hour).
now=$(date +%s)
$JC map pc S1901M -o "$T/drawn.png" >/dev/null 2>&1
real=$(ls "$C"/pc/S1901M-*.png 2>/dev/null)
check "judgectl map drew into the cache" [ -f "$real" ]
for i in $(seq 10 39); do
    mkdir -p "$C/old$i"
    f="$C/old$i/S1901M-00000000000000$i.png"
    head -c 102400 /dev/zero >"$f"
    touch -d "@$((now - 86400 * (60 - i)))" "$f"
done
touch -d "@$((now - 86400 * 100))" "$real"   # the oldest of all...
$JC map pc S1901M -o "$T/again.png" >/dev/null 2>&1  # ...until read again
check "a picture read from the cache is the same picture" \
    cmp -s "$T/drawn.png" "$T/again.png"
# What is not the cache's stays whatever its age.
echo keep >"$C/README"
mkdir -p "$C/notes"
echo keep >"$C/notes/S1901M-notahash.png"
echo keep >"$C/old10/other.txt"
touch -d "@$((now - 86400 * 400))" "$C/README" "$C/notes/S1901M-notahash.png" \
    "$C/old10/other.txt"
# A temporary file left by a writer that died is the cache's.
head -c 102400 /dev/zero >"$C/old11/S1901M-0000000000000011.png.Ab12Cd"
touch -d "@$((now - 86400 * 300))" "$C/old11/S1901M-0000000000000011.png.Ab12Cd"

weight() # the cache's own files, in bytes
{
    find "$C" -type f -printf '%s %p\n' |
        grep -E ' .*/[A-Za-z0-9_]+-[0-9a-f]{16}\.(png|svg|pdf)(\..{6})?$' |
        awk '{ s += $1 } END { print s + 0 }'
}
before=$(weight)
check "the cache is over its bound ($before bytes)" [ "$before" -gt 1048576 ]
$JC tick >"$T/out" 2>&1
has "from the picture cache, the least recently used"
after=$(weight)
check "the tick brought it to nine tenths of 1 MB ($after bytes)" \
    [ "$after" -le 943718 ] && [ "$after" -gt 800000 ]
check "the least recently used went first" \
    [ ! -e "$C/old12/S1901M-0000000000000012.png" ] &&
    [ -e "$C/old39/S1901M-0000000000000039.png" ]
check "a game's folder goes once empty" [ ! -d "$C/old12" ]
check "the picture read just now stays" [ -f "$real" ]
check "a dead writer's temporary file went" \
    [ ! -e "$C/old11/S1901M-0000000000000011.png.Ab12Cd" ]
check "files that are not the cache's stay" [ -f "$C/README" ] &&
    [ -f "$C/notes/S1901M-notahash.png" ] && [ -f "$C/old10/other.txt" ]

# At most once an hour.
for i in $(seq 40 49); do
    mkdir -p "$C/old$i"
    head -c 102400 /dev/zero >"$C/old$i/S1901M-00000000000000$i.png"
    touch -d "@$((now - 86400 * 90))" "$C/old$i/S1901M-00000000000000$i.png"
done
DIPJUDGE_NOW=$((GAME_T0 + 1800)) $JC tick >"$T/out" 2>&1
lacks "picture cache"
check "half an hour later: not pruned again" \
    [ -e "$C/old40/S1901M-0000000000000040.png" ]
DIPJUDGE_NOW=$((GAME_T0 + 3700)) $JC tick >"$T/out" 2>&1
has "from the picture cache"
check "an hour later: pruned" [ ! -e "$C/old40/S1901M-0000000000000040.png" ] &&
    [ "$(weight)" -le 943718 ]

# A pruned picture is drawn again when asked for.
rm -f "$C"/pc/*.png
$JC map pc S1901M -o "$T/third.png" >/dev/null 2>&1
check "a pruned picture is drawn again, the same" cmp -s "$T/drawn.png" "$T/third.png"

# No bound: nothing goes.
sed -i 's/picture_cache_mb = 1;/picture_cache_mb = 0;/' "$T/judge.conf"
n=$(find "$C" -type f | wc -l)
DIPJUDGE_NOW=$((GAME_T0 + 90000)) $JC tick >"$T/out" 2>&1
lacks "picture cache"
check "picture_cache_mb = 0: nothing pruned" [ "$(find "$C" -type f | wc -l)" = "$n" ]
"$JUDGED" -c "$T/judge.conf" config >"$T/out" 2>&1
has "picture_cache_mb = 0;"
printf 'picture_cache_mb = -1;\n' >"$T/bad.conf"
"$JUDGED" -c "$T/bad.conf" config >"$T/out" 2>&1
check "a negative bound is refused" [ $? -ne 0 ]
has "picture_cache_mb"

checks_done
