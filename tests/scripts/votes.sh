#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# votes.sh BUILDDIR SRCDIR — draws and concessions as experienced players
# expect them, by mail: draws including every survivor (draw=dias, the
# default) or only the powers named (draw=named), concession to one power,
# and votes kept secret (the default) or public (votes=public: every vote
# announced to all players and shown by LIST).
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"
export DIPJUDGE_NOW=$GAME_T0
# vote GAME POWER LINE: the power's player mails SIGNON and LINE.
vote()
{
    local lp
    lp=$(echo "$2" | tr 'A-Z' 'a-z')
    printf 'SIGNON %s@%s pw-%s\n%s\n' "$lp" "$1" "$lp" "$3" |
        $J command --from "$lp@$1.example" >"$T/out" 2>&1
}
notices() { sql "SELECT count(*) FROM outbox o JOIN games g ON g.id = o.game_id
                 WHERE g.name = '$1' AND o.subject LIKE '% Vote'"; }
setup() # GAME SETTINGS...
{
    local g=$1
    shift
    $J create "$g" --master "gm@$g.example" "$@" >/dev/null
    for p in $POWERS; do
        lp=$(echo "$p" | tr 'A-Z' 'a-z')
        $J join "$g" "$lp@$g.example" --power "$p" --password "pw-$lp" \
            >/dev/null
    done
}

# ---- DIAS (the default), secret votes (the default) --------------------------
setup dias
vote dias France "SET DRAW France Germany"
has "a draw includes every surviving power (draw=dias)"
for p in Austria England France Germany Italy Russia; do
    vote dias "$p" "SET DRAW"
done
has "Russia votes for a draw of every surviving power"
check "six of seven: the game goes on" [ "$(game_state dias)" = active ]
check "secret votes: no notice" [ "$(notices dias)" = 0 ]
$J command --from anyone@x.example <<<"LIST dias" >"$T/out" 2>&1
lacks "vote draw"
$J show dias >"$T/out"
has "vote draw"
vote dias Turkey "SET DRAW"
has "Draw declared by Austria, England, France, Germany, Italy, Russia and Turkey."
check "the draw ended the game" [ "$(game_state dias)" = finished ]

# ---- named draws, public votes -----------------------------------------------
setup named draw=named votes=public
vote named France "SET DRAW France Germany Italy"
has "France votes for a draw between France, Germany and Italy"
check "a public vote is announced to everyone" \
    [ "$(sql "SELECT count(*) FROM outbox WHERE subject LIKE '%named - S1901M Vote'")" = 8 ]
sql "SELECT body FROM outbox WHERE subject LIKE '%named - S1901M Vote' LIMIT 1" >"$T/out"
has "France votes for a draw between France, Germany and Italy."
$J command --from anyone@x.example <<<"LIST named" >"$T/out" 2>&1
has "vote draw France Germany Italy"
vote named Germany "SET DRAW France"
has "a draw names at least two surviving powers"
vote named Germany "SET DRAW France, Germany and Italy"
for p in Austria England Italy Russia; do
    vote named "$p" "SET DRAW Italy Germany France"
done
vote named Turkey "SET DRAW France Germany"
check "different draws: no draw" [ "$(game_state named)" = active ]
vote named Turkey "SET DRAW"
check "a draw of every survivor is another draw" [ "$(game_state named)" = active ]
vote named Turkey "SET DRAW germany italy FRANCE"
has "Draw declared between France, Germany and Italy, by the vote of every surviving power."
check "the named draw ended the game" [ "$(game_state named)" = finished ]
$J show named >"$T/out"
has "Draw declared between France, Germany and Italy"

# ---- concession ------------------------------------------------------------------
setup concede
for p in Austria England France Germany Italy Turkey; do
    vote concede "$p" "SET CONCEDE Russia"
done
has "Russia wins: conceded by Austria, England, France, Germany, Italy and Turkey."
check "the concession ended the game" [ "$(game_state concede)" = finished ]

# ---- judgectl vote takes the same ----------------------------------------------------
setup cli draw=named
check "judgectl vote: a named draw" \
    sh -c "$J vote cli France draw France Russia | grep -q 'votes for a draw between France and Russia'"
check "judgectl vote: none" \
    sh -c "$J vote cli France none | grep -q 'votes for no draw or concession'"

checks_done
