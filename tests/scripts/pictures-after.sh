#!/bin/sh
# SPDX-License-Identifier: MIT
#
# pictures-after.sh BUILDDIR SRCDIR — the picture of a phase played is the
# board after it, whatever phase comes next (issue 31), read from the
# SVG's data attributes.  Games are played through judgectl with SVG
# results mail, judged sending each phase's results (so drawing each
# picture) while the next phase is current, as on a real judge: the
# demo's year (contrib/demo), the standard board's scripted game and the
# Pure, Hundred and Ancient Mediterranean ones (tests/games), which have
# movement phases with and without a retreat phase after them, retreats,
# builds and removals, and dislodged units destroyed for want of a retreat.
# For every phase played:
#   - the results mail's SVG attachment is the bytes of `judgectl map`,
#     and of the picture drawn again later (the cache emptied) — the
#     phase current at drawing time changes nothing;
#   - its units (data-power, data-unit, data-place, data-dislodged) are
#     exactly those of the next phase's board, dislodged units included,
#     where the results put them;
#   - every drawn order says how it went (data-result).
# And the demo's F1901M says what the issue asks: England's army in
# Norway, France's in Belgium, the Turkish army dislodged in Bulgaria,
# its retreat written beside it ("→ CON"; "no retreat" beside a unit
# destroyed for want of one, where there is room).
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"
cd "$T" || exit 2

# svg_units FILE: the units an SVG draws, sorted, one a line:
# "England A nwy", "Turkey A bul dislodged".
svg_units()
{
    grep -o '<g data-power="[^"]*" data-unit="[^"]*" data-place="[^"]*"[^>]*>' "$1" |
        sed -e 's/^<g data-power="\([^"]*\)" data-unit="\([^"]*\)" data-place="\([^"]*\)"/\1 \2 \3/' \
            -e 's/ data-dislodged="yes"/ dislodged/' -e 's/>$//' | sort
}

# results_svg GAME PHASE EMAIL OUT: the SVG attached to that player's
# results mail of the phase, decoded into OUT.
results_svg()
{
    rs_m=$(grep -l "^To: $3\$" mail/out/new/* |
        xargs grep -l "^Subject: dipjudge:$1 - $2 Results\$" | head -n 1)
    [ -n "$rs_m" ] || return 1
    awk '/^Content-Type: image\/svg\+xml/ { on = 1; next }
         on == 1 && /^$/ { on = 2; next } on == 2 && /^--/ { exit }
         on == 2 { print }' "$rs_m" | base64 -d >"$4"
}

# After each phase, the next one current: judged sends its results, so
# draws its pictures now.
game_after_phase()
{
    "$JUDGED" --db "$T/judge.db" --maps "$S/maps" --quiet once --no-tick \
        >/dev/null 2>"$T/judged.err"
}

notes_to=0 notes_none=0 destroyed=0 retreats=0 dislodged_seen=0 adjustments=0 phases_checked=0
# check_game GAME FIRST_POWER: every phase played, as the header says.
check_game()
{
    cg_game=$1
    cg_to=$(echo "$2" | tr 'A-Z' 'a-z')@$cg_game.example
    cg_list=$(sql "SELECT p.name FROM phases p JOIN games g ON g.id = p.game_id
        WHERE g.name = '$cg_game' AND p.status <> 'undone' ORDER BY p.seq")
    cg_prev=
    cg_bad=0
    for cg_ph in $cg_list; do
        if [ -n "$cg_prev" ]; then
            check_phase "$cg_game" "$cg_prev" "$cg_ph" "$cg_to" ||
                cg_bad=$((cg_bad + 1))
        fi
        cg_prev=$cg_ph
    done
    expect "$cg_game: every phase's picture is the board after it" "$cg_bad" 0
}

# check_phase GAME PHASE NEXT EMAIL: 0 when the picture of PHASE is right.
check_phase()
{
    cp_g=$1 cp_ph=$2 cp_next=$3
    phases_checked=$((phases_checked + 1))
    if ! results_svg "$cp_g" "$cp_ph" "$4" "$T/mail.svg"; then
        echo "FAIL: $cp_g $cp_ph: no SVG on the results mail to $4"
        return 1
    fi
    $J map "$cp_g" "$cp_ph" -o "$T/map.svg" >/dev/null 2>&1
    rm -rf "$T/pictures/$cp_g"
    $J map "$cp_g" "$cp_ph" -o "$T/again.svg" >/dev/null 2>&1
    $J map "$cp_g" "$cp_next" --no-orders -o "$T/next.svg" >/dev/null 2>&1
    if ! cmp -s "$T/mail.svg" "$T/map.svg" ||
        ! cmp -s "$T/mail.svg" "$T/again.svg"; then
        echo "FAIL: $cp_g $cp_ph: the mail's SVG, judgectl map's and the" \
            "picture drawn again differ"
        return 1
    fi
    if ! xmllint --noout "$T/mail.svg" 2>/dev/null; then
        echo "FAIL: $cp_g $cp_ph: the SVG is not well-formed XML"
        return 1
    fi
    svg_units "$T/mail.svg" >"$T/after.units"
    svg_units "$T/next.svg" >"$T/next.units"
    if ! cmp -s "$T/after.units" "$T/next.units"; then
        echo "FAIL: $cp_g $cp_ph: the units drawn are not $cp_next's:"
        diff "$T/after.units" "$T/next.units" | head -n 10
        return 1
    fi
    cp_orders=$(grep -c '<g data-order="' "$T/mail.svg")
    cp_results=$(grep -c '<g data-order="[^"]*" data-result="\(succeeds\|fails\)">' \
        "$T/mail.svg")
    if [ "$cp_orders" != "$cp_results" ]; then
        echo "FAIL: $cp_g $cp_ph: $cp_orders orders drawn, $cp_results" \
            "with their result"
        return 1
    fi
    case $cp_ph in
    *R) retreats=$((retreats + 1)) ;;
    *A) adjustments=$((adjustments + 1)) ;;
    esac
    grep -q 'data-dislodged="yes"' "$T/mail.svg" &&
        dislodged_seen=$((dislodged_seen + 1))
    # The retreats written beside dislodged units: one at most for each
    # (units waiting to retreat, units destroyed for want of a retreat).
    cp_to=$(grep -c '<text class="t4"[^>]*>→ [A-Z/, ]*</text>' "$T/mail.svg")
    cp_none=$(grep -c '<text class="t4"[^>]*>no retreat</text>' "$T/mail.svg")
    cp_all=$(grep -c '<text class="t4"' "$T/mail.svg")
    cp_dis=$(grep -c 'data-dislodged="yes"' "$T/mail.svg")
    notes_to=$((notes_to + cp_to)) notes_none=$((notes_none + cp_none))
    if [ "$cp_all" != $((cp_to + cp_none)) ] || [ "$cp_to" -gt "$cp_dis" ]; then
        echo "FAIL: $cp_g $cp_ph: $cp_all retreat notes ($cp_to \"→\"," \
            "$cp_none \"no retreat\") for $cp_dis dislodged units"
        return 1
    fi
    return 0
}

# ---- the demo's year ---------------------------------------------------------
now=$GAME_T0
check "demo: game set up" game_setup demo "$now" map_attachment=svg
game_play demo "$S/contrib/demo" || failed=$((failed + 1))
check "demo: the year played" [ "$(game_phase demo)" = S1902M ]
results_svg demo F1901M england@demo.example "$T/f1901m.svg"
svg_units "$T/f1901m.svg" >"$T/f1901m.units"
check "demo F1901M: England's army in Norway (data-place=\"nwy\")" \
    grep -qx "England A nwy" "$T/f1901m.units"
check "demo F1901M: France's army in Belgium" \
    grep -qx "France A bel" "$T/f1901m.units"
check "demo F1901M: the Turkish army marked dislodged in Bulgaria" \
    grep -qx "Turkey A bul dislodged" "$T/f1901m.units"
check "demo F1901M: and Austria's army that dislodged it there too" \
    grep -qx "Austria A bul" "$T/f1901m.units"
check "demo F1901M: nobody left in Yorkshire or Burgundy" \
    sh -c "! grep -q ' yor\$\| bur\$' '$T/f1901m.units'"
check "demo F1901M: the convoyed move succeeded" \
    grep -q '<g data-order="A YOR - NWY" data-result="succeeds">' "$T/f1901m.svg"
check "demo F1901M: the bounce in Greece failed" \
    grep -q '<g data-order="A BUL - GRE" data-result="fails">' "$T/f1901m.svg"
check "demo F1901M: the dislodged unit's title says where it may retreat" \
    grep -q '<title>Turkish army in Bulgaria, dislodged, may retreat to Constantinople</title>' \
    "$T/f1901m.svg"
check "demo F1901M: the dislodged army's retreat written beside it: <text> \"→ CON\"" \
    grep -q '<text class="t4" x="[0-9.]*" y="[0-9.]*">→ CON</text>' "$T/f1901m.svg"
check "demo F1901M: one retreat note, no other" \
    [ "$(grep -c '<text class="t4"' "$T/f1901m.svg")" = 1 ]
check "demo F1901M: the unit's title" \
    grep -q '<title>English army in Norway</title>' "$T/f1901m.svg"
check "demo F1901M: Norway's area" \
    grep -q 'data-place="nwy" d="[^"]*"><title>Norway</title></path>' "$T/f1901m.svg"
$J map demo S1901M --no-orders -o "$T/s1901m.svg" >/dev/null 2>&1
check "demo S1901M: a fleet on a coast stands at stp/sc" \
    grep -q '<g data-power="Russia" data-unit="F" data-place="stp/sc"><title>Russian fleet in St. Petersburg (south coast)</title>' \
    "$T/s1901m.svg"
results_svg demo F1901R england@demo.example "$T/f1901r.svg"
check "demo F1901R: the Turkish army retreated to Constantinople" \
    grep -q '<g data-power="Turkey" data-unit="A" data-place="con">' "$T/f1901r.svg"
check "demo F1901R: no dislodged unit left" \
    sh -c "! grep -q 'data-dislodged' '$T/f1901r.svg'"
$J map demo F1901M -o "$T/f1901m.png" >/dev/null 2>&1
check "demo F1901M: the PNG drawn too" [ -s "$T/f1901m.png" ]
check_game demo England

# ---- whole scripted games: standard, Pure, Hundred, Ancient Mediterranean ----
# powers_of VARIANT: its powers, from `judgectl maps`.
powers_of()
{
    $JUDGECTL maps --maps "$S/maps" 2>/dev/null | awk -v m="$1:" '
        /^[^ ]/ { on = ($1 == m) } on && /^  / && $2 ~ /^\(/ { print $1 }'
}
for v in standard pure hundred ancmed; do
    now=$GAME_T0
    if [ "$v" = standard ]; then
        dir=$S/tests/games/full
    else
        dir=$S/tests/games/$v
        POWERS=$(powers_of "$v" | tr '\n' ' ')
        GAME_MAP=$v
    fi
    check "$v: game set up" game_setup "g$v" "$now" map_attachment=svg
    GAME_MAP=
    game_play "g$v" "$dir" || failed=$((failed + 1))
    $J history "g$v" >"$T/history" 2>&1
    n=$(grep -c "destroyed" "$T/history")
    destroyed=$((destroyed + n))
    check_game "g$v" "$(echo $POWERS | cut -d' ' -f1)"
done

echo "pictures-after: $phases_checked phases checked ($retreats retreat," \
    "$adjustments adjustment, $dislodged_seen with a dislodged unit drawn," \
    "$destroyed units destroyed in the histories)"
check "retreat phases among them" [ "$retreats" -ge 4 ]
check "adjustment phases among them" [ "$adjustments" -ge 4 ]
check "pictures with dislodged units among them" [ "$dislodged_seen" -ge 4 ]
check "dislodged units destroyed among them" [ "$destroyed" -ge 1 ]
echo "pictures-after: $notes_to dislodged units' retreats written," \
    "$notes_none \"no retreat\" written"
check "retreats written beside dislodged units" [ "$notes_to" -ge 4 ]
check "\"no retreat\" written beside a unit destroyed for want of one" \
    [ "$notes_none" -ge 1 ]

checks_done
