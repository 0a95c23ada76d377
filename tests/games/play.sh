# SPDX-License-Identifier: MIT
# play.sh — sourced by the game tests (tests/scripts/*.sh, after
# tests/checks.sh): set up a seven-player game and feed it scripted orders.
#
# tests/checks.sh, sourced first, sets S and J, the judgectl command line
# with its options (a suite may set its own).  Times are given
# explicitly (DIPJUDGE_NOW) so that a game replayed twice is the same game
# to the second.
#
# A scripted game is a directory of phase files, NN-PHASE.txt, each with
# lines "Power: ORDER" (see tests/games/make_game.c).

POWERS="Austria England France Germany Italy Russia Turkey"
# POWERS is split at spaces, or, when it has several lines, one name a
# line (names of several words: Renaissance's Holy Roman Empire).
GAME_T0=1800000000   # Fri 15 Jan 2027 08:00 UTC
GAME_STEP=432000     # five days a phase: past every deadline and grace
GAME=$S/tests/games/full  # the standard board's scripted whole game

# game_setup NAME NOW [SETTING...]: create a game with a master and seven
# players (power@NAME.example), which starts when the seventh joins.  The
# board is GAME_MAP when set (a variant with the standard seven powers).
game_setup()
{
    gs_name=$1
    gs_now=$2
    shift 2
    DIPJUDGE_NOW=$gs_now $J create "$gs_name" --master "gm@$gs_name.example" \
        ${GAME_MAP:+--map "$GAME_MAP"} \
        movement_delay=72h retreat_delay=24h adjustment_delay=24h \
        grace=24h nmr=cd "$@" >/dev/null || return 1
    powers_split
    for gs_p in $POWERS; do
        IFS=$pw_ifs
        gs_lp=$(echo "$gs_p" | tr 'A-Z ' 'a-z-')
        DIPJUDGE_NOW=$gs_now $J join "$gs_name" "$gs_lp@$gs_name.example" \
            --power "$gs_p" --name "$gs_p player" >/dev/null || return 1
    done
    IFS=$pw_ifs
}

# game_setup_lists NAME NOW DIR [SETTING...]: a game with assignment =
# preference and a master; one player per power joins without one
# (pN@NAME.example, password pw-N-secret, N from 0) and sends by mail
# commands (judgectl command: SIGNON ?NAME, SET PREFERENCE) its list from
# DIR/preferences.txt ("N: LIST" lines; none for a player without one);
# the master starts the game if the lists did not.  Who plays which power
# is then the deal's (the phase files' orders go by power as ever).
game_setup_lists()
{
    gl_name=$1
    gl_now=$2
    gl_dir=$3
    shift 3
    DIPJUDGE_NOW=$gl_now $J create "$gl_name" --master "gm@$gl_name.example" \
        ${GAME_MAP:+--map "$GAME_MAP"} assignment=preference \
        movement_delay=72h retreat_delay=24h adjustment_delay=24h \
        grace=24h nmr=cd "$@" >/dev/null || return 1
    gl_n=$(echo $POWERS | wc -w)
    gl_i=0
    while [ "$gl_i" -lt "$gl_n" ]; do
        DIPJUDGE_NOW=$gl_now $J join "$gl_name" "p$gl_i@$gl_name.example" \
            --password "pw-$gl_i-secret" >/dev/null || return 1
        gl_i=$((gl_i + 1))
    done
    grep -v '^#' "$gl_dir/preferences.txt" | while IFS=: read -r gl_p gl_l; do
        [ -n "$gl_p" ] || continue
        printf 'SIGNON ?%s pw-%s-secret\nSET PREFERENCE %s\n' "$gl_name" \
            "$gl_p" "$gl_l" |
            DIPJUDGE_NOW=$gl_now $J command --from "p$gl_p@$gl_name.example" \
                >"${T:-/tmp}/gl-reply" || return 1
        if grep -q ERROR "${T:-/tmp}/gl-reply"; then
            cat "${T:-/tmp}/gl-reply"
            return 1
        fi
    done || return 1
    if [ "$(game_state "$gl_name")" = forming ]; then
        DIPJUDGE_NOW=$gl_now $J start "$gl_name" >/dev/null || return 1
    fi
}

# powers_split: IFS set to split POWERS into its names (the IFS before
# kept in pw_ifs, to be put back in the loop over them).
powers_split()
{
    pw_ifs=$IFS
    case $POWERS in
    *'
'*) IFS='
' ;;
    *) IFS=' ' ;;
    esac
}

# phase_of FILE: "S1901M" from ".../01-S1901M.txt".
phase_of()
{
    basename "$1" .txt | sed 's/^[0-9]*-//'
}

# game_phase NAME: the game's current phase, from `judgectl list`.
game_phase()
{
    $J list | awk -v g="$1" '$1 == g { print $3 }'
}

# game_state NAME: forming, active, paused or finished.
game_state()
{
    $J list | awk -v g="$1" '$1 == g { print $2 }'
}

# game_orders NAME FILE NOW: enter every power's orders from a phase file.
game_orders()
{
    powers_split
    for go_p in $POWERS; do
        IFS=$pw_ifs
        grep -q "^$go_p: " "$2" || continue
        grep "^$go_p: " "$2" | sed "s/^$go_p: //" |
            DIPJUDGE_NOW=$3 $J orders "$1" "$go_p" --set >/dev/null || return 1
    done
    IFS=$pw_ifs
}

# game_play NAME DIR: play the scripted game in DIR phase by phase from the
# time $now on: check the game is at each file's phase, enter its orders,
# then tick five days later (advancing $now), then call the suite's
# game_after_phase NAME PHASE if it has one.  Sets game_played to the
# phases played; on a mismatch prints "FAIL: why" and returns 1.
game_play()
{
    gp_name=$1
    game_played=0
    for gp_f in "$2"/[0-9]*-*.txt; do
        gp_want=$(phase_of "$gp_f")
        gp_have=$(game_phase "$gp_name")
        if [ "$gp_have" != "$gp_want" ]; then
            echo "FAIL: $gp_name: before $(basename "$gp_f"): the game is" \
                "at '$gp_have', not $gp_want"
            return 1
        fi
        if ! game_orders "$gp_name" "$gp_f" "$now"; then
            echo "FAIL: $gp_name: orders of $gp_want refused"
            return 1
        fi
        now=$((now + GAME_STEP))
        if ! gp_out=$(DIPJUDGE_NOW=$now $J tick 2>&1); then
            echo "FAIL: $gp_name: tick at $gp_want failed"
            echo "$gp_out"
            return 1
        fi
        game_played=$((game_played + 1))
        # A suite's own look at the game after each phase (the next one
        # current): game_after_phase NAME PHASE, when it defines one.
        if type game_after_phase >/dev/null 2>&1 &&
            ! game_after_phase "$gp_name" "$gp_want"; then
            echo "FAIL: $gp_name: after $gp_want"
            return 1
        fi
    done
}
