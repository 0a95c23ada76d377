#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# pictures-mail.sh BUILDDIR SRCDIR — the map in players' mail (issue 11):
# MAP by mail answers with the picture attached (any phase, one a message,
# clear errors), SET MAP chooses a participant's format for results mail
# (PNG by default, PDF, SVG or none), a queued mail names its phase and
# format and no picture is stored in the database (issue 25), judged draws
# each format once per phase into the picture cache beside the database
# and sends the results as multipart/mixed with the picture, a rollback's
# new results get pictures of their own (a new cache key); and `judgectl
# check --render` draws the DATC cases.
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"
cd "$T" || exit 2
export DIPJUDGE_NOW=$GAME_T0
mail() { $J command --from "$1" --queue-reply >"$T/out" 2>&1; }
# pic OUTBOX_ID: the phase and format of that row's picture ("" for none).
pic() { sql "SELECT p.name || ' ' || o.picture_format FROM outbox o JOIN phases
             p ON p.id = o.picture_phase_id WHERE o.id = $1"; }
last_reply() { sql "SELECT max(id) FROM outbox WHERE kind = 'reply'"; }

$J create pic --master gm@pic.example movement_delay=72h >/dev/null
for p in $POWERS; do
    lp=$(echo "$p" | tr 'A-Z' 'a-z')
    $J join pic "$lp@pic.example" --power "$p" --password "pw-$lp" >/dev/null
done
check "the game started" [ "$(game_phase pic)" = S1901M ]

# ---- MAP by mail -------------------------------------------------------------
printf 'MAP pic\n' | mail stranger@elsewhere.example
has "MAP answers only the players, observers and master of game 'pic', signed on"
check "a stranger's MAP draws no picture" [ -z "$(sql "SELECT picture_id FROM
    outbox WHERE id = $(last_reply)")" ]
printf 'SIGNON Fpic pw-france\nMAP pic\n' | mail france@pic.example
has "pic: the map of S1901M is attached (pic-S1901M.png)"
r=$(last_reply)
check "MAP: the reply carries the PNG of S1901M" [ "$(pic "$r")" = "S1901M png" ]
printf 'SIGNON Fpic pw-france\nMAP\n' | mail france@pic.example
has "pic: the map of S1901M is attached"
printf 'SIGNON Fpic pw-france\nMAP S1901M\n' | mail france@pic.example
has "pic: the map of S1901M is attached"
printf 'MAP\n' | mail stranger@elsewhere.example
has "MAP needs the game"
printf 'SIGNON Fpic pw-france\nMAP pic Sunday\n' | mail france@pic.example
has "'Sunday' is not a phase like S1901M"
printf 'SIGNON Fpic pw-france\nMAP pic F1950M\n' | mail france@pic.example
has "no phase F1950M"
printf 'MAP nosuchgame\n' | mail stranger@elsewhere.example
has "nosuchgame"
r=$(last_reply)
check "a failed MAP attaches nothing" \
    [ -z "$(sql "SELECT picture_phase_id FROM outbox WHERE id = $r")" ]
printf 'SIGNON Fpic pw-france\nMAP pic\nMAP pic S1901M\n' | mail france@pic.example
has "one map a message"
check "one picture a message" [ "$(pic "$(last_reply)")" = "S1901M png" ]
# The command in the subject, as for HELP.
$J command --from stranger@elsewhere.example --subject "MAP pic" \
    --queue-reply </dev/null >"$T/out" 2>&1
has "MAP answers only the players"
printf 'HISTORY pic\n' | mail stranger@elsewhere.example
has "HISTORY answers only the players, observers and master of game 'pic'"
printf 'SIGNON Fpic pw-france\nHISTORY pic\n' | mail france@pic.example
check "a signed-on player's HISTORY is answered" sh -c "! grep -q 'answers only' '$T/out'"

# ---- SET MAP -------------------------------------------------------------------
printf 'SIGNON Fpic pw-france\nSET MAP PDF\n' | mail france@pic.example
has "pic: your results will come with a pdf map"
# (and no calendar entry either: SET CALENDAR, player-options.sh)
printf 'SIGNON Gpic pw-germany\nSET MAP none\nSET CALENDAR off\n' | mail germany@pic.example
has "pic: your results will come without a map"
printf 'SIGNON Ipic pw-italy\nSET MAP svg\n' | mail italy@pic.example
has "pic: your results will come with a svg map"
printf 'SIGNON Ipic pw-italy\nSET MAP GIF\n' | mail italy@pic.example
has "SET MAP takes PNG, PDF, SVG or NONE, not 'GIF'"
printf 'SET MAP PDF\n' | mail stranger@elsewhere.example
has "SIGNON first"
check "France's choice stored" [ "$(sql "SELECT map_format FROM participants
    WHERE email = 'france@pic.example'")" = pdf ]
check "a refused choice changes nothing" [ "$(sql "SELECT map_format FROM
    participants WHERE email = 'italy@pic.example'")" = svg ]

# ---- results mail ------------------------------------------------------------------
game_orders pic "$S/tests/games/full/01-S1901M.txt" "$GAME_T0"
$J process pic >/dev/null 2>&1
check "S1901M processed" [ "$(game_phase pic)" = F1901M ]
fmt() # EMAIL: the content type of the picture on that player's results mail
{
    sql "SELECT IFNULL(picture_format, 'none') FROM outbox WHERE
         kind = 'results' AND recipients = '$1' AND picture_phase_id = phase_id
         UNION ALL SELECT 'none' FROM outbox WHERE kind = 'results' AND
         recipients = '$1' AND picture_phase_id IS NULL"
}
check "England's results: PNG (the default)" [ "$(fmt england@pic.example)" = png ]
check "France's results: PDF" [ "$(fmt france@pic.example)" = pdf ]
check "Germany's results: no map" [ "$(fmt germany@pic.example)" = none ]
check "Italy's results: SVG" [ "$(fmt italy@pic.example)" = svg ]
check "the master's results: PNG" [ "$(fmt gm@pic.example)" = png ]
check "no picture is stored in the database" \
    [ "$(sql "SELECT count(*) FROM sqlite_master WHERE name = 'pictures'")" = 0 ]
check "nothing drawn yet: pictures are drawn as the mail goes" \
    [ ! -d "$T/pictures/pic" ]

# ---- judged sends it --------------------------------------------------------------
"$JUDGED" --db "$T/judge.db" --maps "$S/maps" --quiet once --no-tick \
    >/dev/null 2>"$T/judged.err"
check "judged sent everything" [ "$(sql "SELECT count(*) FROM outbox WHERE
    state <> 'sent'")" = 0 ]
m=$(grep -l "^To: england@pic.example$" mail/out/new/* |
    xargs grep -l "^Subject: dipjudge:pic - S1901M Results$")
check "England's results mail is multipart/mixed" \
    grep -q '^Content-Type: multipart/mixed; boundary="=_dj_' $m
check "with the text" grep -q "Movement results for Spring of 1901" $m
check "and the PNG attached" \
    grep -q 'Content-Disposition: attachment; filename="pic-S1901M.png"' $m
check "each format drawn once, into the cache beside the database" \
    [ "$(ls "$T/pictures/pic" | sed 's/.*\.//' | sort | tr '\n' ' ')" = \
      "pdf png svg " ]
size=$(wc -c < "$(ls "$T"/pictures/pic/S1901M-*.png)")
check "the results PNG weighs under 150 KB ($size bytes)" [ "$size" -lt 153600 ]
png=$(awk '/^Content-Type: image\/png/ { on = 1; next }
           on == 1 && /^$/ { on = 2; next } on == 2 && /^--/ { exit }
           on == 2 { print }' $m | base64 -d | head -c 8 | od -An -tx1 |
      tr -d ' \n')
check "that decodes to a PNG" [ "$png" = 89504e470d0a1a0a ]
m=$(grep -l "^To: germany@pic.example$" mail/out/new/* |
    xargs grep -l "^Subject: dipjudge:pic - S1901M Results$")
check "Germany's results mail is plain text" \
    sh -c "! grep -q multipart $m && grep -q 'Movement results' $m"
check "the sent mail names its picture, the database holds none" \
    [ "$(sql "SELECT count(*) FROM outbox WHERE picture_phase_id IS NOT NULL
        AND state = 'sent'")" -gt 0 ]

# ---- a rollback: the new results carry pictures of the new line of play ------------
$J rollback pic >/dev/null 2>&1
check "rolled back to S1901M" [ "$(game_phase pic)" = S1901M ]
$J process pic >/dev/null 2>&1 # no orders now: everything holds
check "S1901M processed again" [ "$(game_phase pic)" = F1901M ]
check "each results mail's picture belongs to its own phase's results" \
    [ "$(sql "SELECT count(*) FROM outbox WHERE kind = 'results'
        AND picture_phase_id IS NOT NULL AND picture_phase_id <> phase_id")" = 0 ]
check "the replayed phase has pictures of its own" \
    [ "$(sql "SELECT count(DISTINCT picture_phase_id) FROM outbox")" = 2 ]
"$JUDGED" --db "$T/judge.db" --maps "$S/maps" --quiet once --no-tick \
    >/dev/null 2>"$T/judged.err"
check "a phase played again gets a picture of its own (a new cache key)" \
    [ "$(ls "$T"/pictures/pic/S1901M-*.png | wc -l)" = 2 ]

# ---- the game's map_attachment: the default of those with no choice ----------------
$J set pic map_attachment=none >/dev/null
$J process pic >/dev/null 2>&1
check "F1901M processed" [ "$(game_phase pic)" != F1901M ]
fmt2() # EMAIL: the picture type on that player's F1901M results
{
    sql "SELECT CASE WHEN picture_phase_id IS NULL THEN 'none'
         ELSE picture_format END FROM outbox WHERE kind = 'results'
         AND recipients = '$1' AND subject LIKE '%F1901M Results'"
}
check "map_attachment=none: England's results without a map" \
    [ "$(fmt2 england@pic.example)" = none ]
check "France's own choice stands: PDF" [ "$(fmt2 france@pic.example)" = pdf ]

# ---- judgectl check --render: the DATC as pictures ------------------------------------
$J check --render "$T/datc" "$S/tests/datc/6A.txt" >"$T/out" 2>&1
check "check --render still checks" grep -q "^12 passed, 0 failed$" "$T/out"
has "rendered 24 pictures into $T/datc"
check "a before and an after per case" \
    [ -f "$T/datc/6A-6.A.11_Simple_bounce-before.png" ] &&
    [ -f "$T/datc/6A-6.A.11_Simple_bounce-after.png" ]
check "each a PNG" [ "$(for f in "$T"/datc/*.png; do head -c 4 "$f" | od -An -tx1;
    done | sort -u | tr -d ' ')" = 89504e47 ]
touch "$T/afile"
$J check --render "$T/afile/sub" "$S/tests/datc/6A.txt" >"$T/out" 2>&1
check "an unusable --render directory: exit 1" [ $? -eq 1 ]
has "--render: cannot make $T/afile/sub"
$J check --render >"$T/out" 2>&1
check "--render without a directory: usage" [ $? -eq 2 ]

checks_done
