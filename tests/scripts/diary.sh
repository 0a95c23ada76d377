#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# diary.sh BUILDDIR SRCDIR — players' diaries (DIARY ... ENDDIARY, issue
# 36), by mail: an entry is kept for its power and the current phase and
# never read as orders; no other power, no observer, not the master and
# not the press archive sees it while the game runs; DIARY READ gives the
# player their own entries; when the game ends (a draw here) the
# game-over mail lists every power's entries by phase.
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"
export DIPJUDGE_NOW=$GAME_T0
# say POWER LINES: the power's player mails SIGNON then LINES.
say()
{
    local lp
    lp=$(echo "$1" | tr 'A-Z' 'a-z')
    printf 'SIGNON %s@book pw-%s\n%s\n' "$lp" "$lp" "$2" |
        $J command --from "$lp@book.example" >"$T/out" 2>&1
}
$J create book --master gm@book.example >/dev/null
$J join book gm@book.example --master --password gm-secret >/dev/null
for p in $POWERS; do
    lp=$(echo "$p" | tr 'A-Z' 'a-z')
    $J join book "$lp@book.example" --power "$p" --password "pw-$lp" \
        >/dev/null
done
$J join book eye@book.example --observer --password eye-secret >/dev/null ||
    bad "observer joined"
[[ $(game_phase book) == S1901M ]] && ok || bad "book did not start"

# ---- an entry kept, never orders ------------------------------------------
say France "DIARY Plans
Betray Germany in the fall.
A Par - Bur
ENDDIARY
A Mar - Spa"
has "book: diary entry kept for S1901M (private until the game ends)"
has "(3 lines)"
lacks "ERROR"
check "one diary row" [ "$(sql "SELECT count(*) FROM diaries")" = 1 ]
check "the orders inside the diary were not filed" \
    [ "$(sql "SELECT count(*) FROM orders WHERE orders LIKE '%Bur%'")" = 0 ]
check "the order after ENDDIARY was filed" \
    [ "$(sql "SELECT count(*) FROM orders WHERE orders LIKE '%Spa%'")" = 1 ]
say France "DIARY
Second thoughts.
ENDDIARY"
has "diary entry kept for S1901M"
say France "DIARY
ENDDIARY"
has "empty diary entry: nothing was kept"

# ---- private while the game runs ------------------------------------------
say France "DIARY READ"
has "your diary (France), 2 entries"
has "Betray Germany in the fall."
has "Second thoughts."
has "S1901M:"
say Germany "DIARY READ"
has "your diary (Germany) has no entries"
lacks "Betray"
printf 'SIGNON observer@book eye-secret\nDIARY READ\nPRESS ARCHIVE book\n' |
    $J command --from eye@book.example >"$T/out" 2>&1
has "only a power's player keeps a diary"
lacks "Betray"
printf 'SIGNON master@book gm-secret\nDIARY READ\n' |
    $J command --from gm@book.example >"$T/out" 2>&1
has "only a power's player keeps a diary"
lacks "Betray"
say Germany "PRESS ARCHIVE book"
lacks "Betray"
lacks "Second thoughts"
sql "SELECT body FROM outbox" >"$T/out"
lacks "Betray"
lacks "Second thoughts"
$J export book >"$T/out" 2>&1
lacks "Betray"

# ---- public at the end -----------------------------------------------------
for p in $POWERS; do
    say "$p" "SET DRAW"
done
check "the draw ended the game" [ "$(game_state book)" = finished ]
sql "SELECT body FROM outbox WHERE subject LIKE '%Game over%'" >"$T/out"
has "The final table:"
has "The powers' diaries (private until now):"
has "France's diary:"
has "    Betray Germany in the fall."
has "    Second thoughts."
lacks "Germany's diary:"
check "every player's copy has the diaries" \
    [ "$(sql "SELECT count(*) FROM outbox WHERE subject LIKE '%Game over%'
              AND body LIKE '%Betray Germany%'")" -ge 7 ]
say France "DIARY
Too late.
ENDDIARY"
has "ERROR"
check "no entry after the end" [ "$(sql "SELECT count(*) FROM diaries")" = 2 ]

checks_done
