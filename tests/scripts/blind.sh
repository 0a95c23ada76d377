#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# blind.sh BUILDDIR SRCDIR — blind (fog-of-war) games, blind = yes
# (dipjudge(7), BLIND GAMES), through mail end to end: the setting by
# judgectl and by the master's SET while the game forms, refused once it
# has started; a phase's results mail, one copy per reader, naming only
# the units that reader sees (the master's copy complete, an observer's
# none), each picture (SVG, sent by judged) drawing only those units and
# cached per viewer; the web's pages, board.svg and JSON showing a
# visitor nothing; and everything public once the game is over.
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"
cd "$T" || exit 2
export DIPJUDGE_NOW=$GAME_T0
mail() { $J command --from "$1" --queue-reply >"$T/out" 2>&1; }
sql() { sqlite3 "$T/judge.db" "$1"; }
# results EMAIL PHASE: that reader's results mail of PHASE into $T/out.
results()
{
    sql "SELECT body FROM outbox WHERE kind = 'results' AND
         recipients = '$1' AND subject LIKE '%$2 Results'" >"$T/out"
}
# powers_shown: the powers of the lines of $T/out ("Power: ...").
powers_shown()
{
    sed -n 's/^\([A-Z][a-z]*\): .*/\1/p' "$T/out" | grep -v -x Unowned |
        sort -u | tr '\n' ' '
}

# ---- the setting ---------------------------------------------------------------
$J create fm --master gm@fm.example >/dev/null
$J join fm gm@fm.example --master --password gm-fm-secret >/dev/null
printf 'SIGNON Mfm gm-fm-secret\nSET BLIND YES\n' | mail gm@fm.example
lacks "ERROR"
check "SET BLIND by the master while the game forms" \
    sh -c "$J show fm | grep -q ' blind=yes'"
printf 'SIGNON Mfm gm-fm-secret\nSET BLIND maybe\n' | mail gm@fm.example
has "ERROR"
check "a bad value changes nothing" sh -c "$J show fm | grep -q ' blind=yes'"
$J set fm blind=no >/dev/null
check "judgectl set blind=no" sh -c "$J show fm | grep -q ' blind=no'"
printf 'LIST fm\n' | mail someone@else.example
has "blind=no"

$J create bl --master gm@bl.example blind=yes map_attachment=svg \
    movement_delay=72h >/dev/null || bad "bl: create"
$J join bl gm@bl.example --master --password gm-bl-secret >/dev/null
$J join bl obs@bl.example --observer --password obs-bl-secret >/dev/null
for p in $POWERS; do
    lp=$(echo "$p" | tr 'A-Z' 'a-z')
    $J join bl "$lp@bl.example" --power "$p" --password "pw-$lp" >/dev/null
done
check "the game started" [ "$(game_phase bl)" = S1901M ]
$J set bl blind=no >"$T/out" 2>&1
has "blind can only change while game 'bl' forms"
printf 'SIGNON Mbl gm-bl-secret\nSET BLIND NO\n' | mail gm@bl.example
has "blind can only change while game 'bl' forms"
check "still blind" sh -c "$J show bl | grep -q ' blind=yes'"

# ---- orders and PREVIEW say nothing of units out of sight --------------------------
printf 'SIGNON Fbl pw-france\nA mun-bur\nA ruh-bur\nA mar-bur\nPREVIEW\n' |
    mail france@bl.example
has "ERROR: no unit of yours in Munich"
has "ERROR: no unit of yours in Ruhr"
lacks "German"
has "Preview for France"
has "France:  Army Marseilles -> Burgundy."
lacks "Germany:"
lacks "Italy:"
printf 'SIGNON Mbl gm-bl-secret\nPREVIEW\n' | mail gm@bl.example
has "Germany: Army Munich HOLD."

# ---- S1901M's results, one copy per reader -----------------------------------------
game_orders bl "$S/tests/games/options/01-S1901M.txt" "$GAME_T0"
$J process bl >/dev/null 2>&1
check "S1901M processed" [ "$(game_phase bl)" = F1901M ]
results gm@bl.example S1901M
expect "the master sees every power's orders" "$(powers_shown)" \
    "Austria England France Germany Italy Russia Turkey "
has "Turkey:  Army Smyrna -> Armenia."
results england@bl.example S1901M
expect "England sees only its own units" "$(powers_shown)" "England "
has "England: Fleet Edinburgh -> Clyde."
lacks "Brest"
results france@bl.example S1901M
# Munich is next to Burgundy, where the French army now stands
expect "France sees its units and Germany's in Munich" "$(powers_shown)" \
    "France Germany "
has "Germany: Army Munich HOLD."
lacks "Kiel"
lacks "Berlin"
results italy@bl.example S1901M
# Trieste is next to Venice: Austria's fleet leaving it, the army going
# to Tyrolia (next to Venice)
expect "Italy sees Austria's units next to Venice" "$(powers_shown)" \
    "Austria Italy "
has "Austria: Fleet Trieste -> Adriatic Sea."
lacks "Budapest"
results germany@bl.example S1901M
has "France:  Army Marseilles -> Burgundy."
has "Austria: Army Vienna -> Tyrolia."
lacks "Brest"
results obs@bl.example S1901M
expect "an observer sees no units" "$(powers_shown)" ""
has "Movement results for Spring of 1901."
has "The next phase of 'bl' will be Movement for Fall of 1901."
check "the stored results are the master's, complete" \
    sh -c "$J history bl | grep -q 'Turkey:  Army Smyrna -> Armenia.'"

# ---- the pictures judged sends -------------------------------------------------------
"$JUDGED" --db "$T/judge.db" --maps "$S/maps" --quiet once --no-tick \
    >/dev/null 2>"$T/judged.err"
check "judged sent everything" [ "$(sql "SELECT count(*) FROM outbox WHERE
    state <> 'sent'")" = 0 ]
# svg_of EMAIL: the SVG on that reader's S1901M results, in $T/EMAIL.svg
svg_of()
{
    local m
    m=$(grep -l "^To: $1\$" mail/out/new/* |
        xargs grep -l "^Subject: dipjudge:bl - S1901M Results$" | head -1)
    awk '/^Content-Type: image\/svg/ { on = 1; next }
         on == 1 && /^$/ { on = 2; next } on == 2 && /^--/ { exit }
         on == 2 { print }' "$m" | base64 -d >"$T/$1.svg"
}
# unit_powers FILE: the powers of the units drawn in an SVG
unit_powers()
{
    grep -o '<g data-power="[A-Za-z]*" data-unit=' "$1" |
        sed 's/.*data-power="\([A-Za-z]*\)".*/\1/' | sort -u | tr '\n' ' '
}
svg_of gm@bl.example
expect "the master's picture: every power's units" \
    "$(unit_powers "$T/gm@bl.example.svg")" \
    "Austria England France Germany Italy Russia Turkey "
svg_of england@bl.example
expect "England's picture: its own units only" \
    "$(unit_powers "$T/england@bl.example.svg")" "England "
svg_of france@bl.example
expect "France's picture: France's and the German army in Munich" \
    "$(unit_powers "$T/france@bl.example.svg")" "France Germany "
check "no German unit but Munich's in France's picture" \
    [ "$(grep -c 'data-power="Germany" data-unit=' "$T/france@bl.example.svg")" -le 2 ]
svg_of obs@bl.example
expect "the observer's picture: no units" \
    "$(unit_powers "$T/obs@bl.example.svg")" ""
check "one cached picture per viewer, never shared" \
    [ "$(ls "$T"/pictures/bl/S1901M-*.svg | wc -l)" -ge 9 ]

# ---- LIST and HISTORY by mail --------------------------------------------------------
printf 'LIST bl\n' | mail someone@else.example
has "blind=yes"
lacks "Army"
lacks "Fleet"
printf 'SIGNON Ebl pw-england\nLIST bl\n' | mail england@bl.example
has "Fleet London."
has "Fleet Clyde."
lacks "Army Armenia"
lacks "Paris"
printf 'SIGNON Ebl pw-england\nHISTORY bl\n' | mail england@bl.example
has "England: Fleet Edinburgh -> Clyde."
lacks "France:"
lacks "Turkey:"
printf 'SIGNON Fbl pw-france\nHISTORY bl\n' | mail france@bl.example
has "Germany: Army Munich HOLD."
lacks "Kiel"
printf 'SIGNON Mbl gm-bl-secret\nHISTORY bl\n' | mail gm@bl.example
has "Turkey:  Army Smyrna -> Armenia."
printf 'SIGNON Obl obs-bl-secret\nHISTORY bl\n' | mail obs@bl.example
has "Movement results for Spring of 1901."
lacks "England:"
printf 'SIGNON Ebl pw-england\nSUMMARY bl\n' | mail england@bl.example
has "is blind: its supply-centre history is shown once it is over"

# ---- the web: a visitor sees nothing, a signed-in power its own view ----------------------
web_ok=false
if command -v curl >/dev/null; then
    . "$S/tests/scripts/web-lib.sh"
    cleanup() { web_stop; }
    web_start && web_ok=true
fi
if $web_ok; then
    get()
    {
        local path=$1
        shift
        CODE=$(curl -s -o "$T/out" -w '%{http_code}' "$@" "$WEB_URL$path")
    }
    csrf_in() { grep -o 'name="csrf" value="[0-9a-f]*"' "$T/out" | head -1 |
        sed 's/.*value="//; s/"$//'; }
    signin() # JAR POWER PASSWORD
    {
        rm -f "$1"
        get /game/bl -c "$1" -b "$1"
        local token
        token=$(csrf_in)
        get /game/bl/signin -c "$1" -b "$1" --data-urlencode "csrf=$token" \
            --data-urlencode "power=$2" --data-urlencode "password=$3"
    }
    get /game/bl.json
    expect "the JSON answers" "$CODE" 200
    check "a visitor's JSON names no unit" \
        sh -c "! grep -q '\"type\": \"[AF]\"' '$T/out'"
    get /game/bl
    lacks "Army"
    lacks "Fleet"
    get /game/bl/S1901M
    lacks "Army"
    lacks "Turkey:"
    get /game/bl/S1901M/orders.svg
    expect "a visitor's orders.svg" "$CODE" 200
    check "a visitor's orders.svg: no units" \
        [ -z "$(unit_powers "$T/out")" ]
    get /game/bl/F1901M/board.svg
    check "a visitor's board.svg: no units" [ -z "$(unit_powers "$T/out")" ]
    signin "$T/fr" France pw-france
    get /game/bl -b "$T/fr"
    has "Army Burgundy."
    lacks "Kiel"
    get /game/bl/S1901M -b "$T/fr"
    has "Germany: Army Munich HOLD."
    lacks "Turkey:"
    get /game/bl/S1901M/orders.svg -b "$T/fr"
    cp "$T/out" "$T/fr.svg"
    expect "France's orders.svg" "$(unit_powers "$T/fr.svg")" "France Germany "
    get /game/bl/F1901M/board.svg -b "$T/fr"
    expect "France's board.svg" "$(unit_powers "$T/out")" "France Germany "
    get /game/bl.json -b "$T/fr"
    check "France's JSON: its army in Burgundy" grep -q '"loc": "bur"' "$T/out"
    check "France's JSON: no Turkish unit" \
        sh -c "! grep -q '\"power\": \"Turkey\", \"type\"' '$T/out'"
    get /game/bl/S1901M/orders.svg
    check "a visitor after France: still no units (the cache is per viewer)" \
        [ -z "$(unit_powers "$T/out")" ]
fi

# ---- the end: everything is public -----------------------------------------------------
$J terminate bl >/dev/null 2>&1 || bad "terminate"
check "bl is over" [ "$(game_state bl)" = finished ]
printf 'LIST bl\n' | mail someone@else.example
has "Army Armenia"
has "Fleet Clyde"
if $web_ok; then
    get /game/bl.json
    check "the JSON after the end: every power's units" \
        grep -q '"power": "Turkey", "type": "A"' "$T/out"
    get /game/bl/S1901M
    has "Turkey:  Army Smyrna -&gt; Armenia."
    get /game/bl/S1901M/orders.svg
    expect "orders.svg after the end" "$(unit_powers "$T/out")" \
        "Austria England France Germany Italy Russia Turkey "
fi

# ---- the scripted game: blind, powers dealt by preference, victory and end_year -------
SG=$S/tests/games/blind
sg_want() { sed -n "s/^$1 //p" "$SG/expect.txt"; }
# the address of the player dealt power $1 (expect.txt's "deal N Power")
addr_of() { echo "p$(sed -n "s/^deal \([0-9]*\) $1\$/\1/p" "$SG/expect.txt")@sg.example"; }
now=$GAME_T0
game_setup_lists sg "$now" "$SG" $(grep -v '^#' "$SG/settings.txt") ||
    bad "sg: setup"
for p in $POWERS; do
    $J show sg | grep -q "^ *$p.*$(addr_of "$p")" ||
        bad "sg: $p was not dealt to $(addr_of "$p"): $($J show sg | grep "^ *$p")"
done
ok
[ "$(sql "SELECT count(*) FROM outbox WHERE recipients = '$(addr_of France)'
         AND body LIKE '%first choice%'")" -gt 0 ] && ok ||
    bad "sg: the start mail does not say who got a first choice"
for kv in $(grep -v '^#' "$SG/settings.txt"); do
    check "sg: $kv" sh -c "$J show sg | grep -q ' $kv'"
done
# after each phase while the game goes on: every power's copy holds only
# its own order lines and those of powers it may see, never all seven,
# and differs from the master's complete copy
game_after_phase()
{
    local ph=$2 p lp all mine
    [ "$(game_state "$1")" = finished ] && return 0
    results "gm@$1.example" "$ph"
    all=$(powers_shown)
    [ "$all" = "Austria England France Germany Italy Russia Turkey " ] ||
        [ "$ph" != S1901M ] || { bad "sg $ph: the master's copy: $all"; return 0; }
    for p in $POWERS; do
        lp=$(echo "$p" | tr 'A-Z' 'a-z')
        results "$(addr_of "$p")" "$ph"
        mine=$(powers_shown)
        case " $all" in
        *" $p "*)
            case " $mine" in
            *" $p "*) ok ;;
            *) bad "sg $ph: $p's copy lacks its own lines: $mine" ;;
            esac ;;
        esac
        [ "$mine" != "$all" ] || [ "$ph" = W1901A ] || [ "$ph" = W1902A ] ||
            bad "sg $ph: $p sees every power: $mine"
    done
    return 0
}
# the files in order until the game is over
for f in "$SG"/[0-9]*-*.txt; do
    [ "$(game_state sg)" = finished ] && break
    expect "sg at $(phase_of "$f")" "$(game_phase sg)" "$(phase_of "$f")"
    game_orders sg "$f" "$now" || bad "sg: orders of $(phase_of "$f")"
    now=$((now + GAME_STEP))
    DIPJUDGE_NOW=$now $J tick >/dev/null 2>&1 || bad "sg: tick"
    game_after_phase sg "$(phase_of "$f")"
done
expect "sg: finished" "$(game_state sg)" finished
$J show sg >"$T/out"
has "Ended: $(sg_want ending)"
# the mail that ends the game is public: England's names every power
results "$(addr_of England)" F1903M
has "$(sg_want winner) has won the game with 5 supply centers."
expect "sg: the last results are public" "$(powers_shown)" \
    "Austria England France Germany Italy Russia Turkey "
checks_done
