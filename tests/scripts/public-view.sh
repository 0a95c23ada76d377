#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# public-view.sh BUILDDIR SRCDIR — what the public, the players and the
# master see of a game played by mail and on the web (issue 31):
#   addresses   the JSON, every web page and picture, read as a stranger,
#               as a player and after the game ends, and every mail sent
#               to a player, carry no address (no '@' but the judge's
#               own, none of the players', no "web 127."), and name
#               players only as the game's identities setting allows
#   source      the public JSON says how orders came ("mail", "web"),
#               never who sent them; judgectl export keeps the author
#   master      the master reads all press with its true sender and
#               recipients (PRESS ARCHIVE, the web) and is sent a copy of
#               press between powers; master_press = addressed stops both
#   captions    the phase page says its picture is the board after it
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/scripts/web-lib.sh"
cleanup() { web_stop; [ -n "${KEEP:-}" ] && cp -r "$T" "$KEEP"; }
holds() { if eval "$2"; then ok; else bad "$1"; fi; }

if ! command -v curl >/dev/null; then
    echo "public-view: cannot run: curl is not installed (tests/install-deps.sh)"
    echo "0 passed, 1 failed"
    exit 1
fi

POWERS="Austria England France Germany Italy Russia Turkey"
# mail FROM < BODY: a message by mail, the reply in $T/out.
mail() { J_WEB command --from "$1" >"$T/out" 2>&1; }

J_WEB create pub --master gm@pub.example --password gm-pw press=white+grey \
    fake_press=yes >/dev/null || { echo "FAIL: create"; exit 1; }
for p in $POWERS; do
    lp=$(echo "$p" | tr 'A-Z' 'a-z')
    if [ "$p" = England ]; then
        J_WEB join pub "$lp@pub.example" --power "$p" --name "Ann Anglo" \
            --password "pw-$p" >/dev/null || exit 1
    else
        J_WEB join pub "$lp@pub.example" --power "$p" --password "pw-$p" \
            >/dev/null || exit 1
    fi
done
J_WEB show pub >"$T/out"
has "Phase: S1901M"

web_start || exit 1
get()
{
    local path=$1
    shift
    CODE=$(curl -s -o "$T/b" -D "$T/h" -w '%{http_code}' "$@" "$WEB_URL$path")
}
csrf_in() { grep -o 'name="csrf" value="[0-9a-f]*"' "$1" | head -1 | sed 's/.*value="//; s/"$//'; }
# signin JAR POWER PASSWORD
signin()
{
    rm -f "$1"
    get /game/pub -c "$1" -b "$1"
    local token
    token=$(csrf_in "$T/b")
    get /game/pub/signin -c "$1" -b "$1" --data-urlencode "csrf=$token" \
        --data-urlencode "power=$2" --data-urlencode "password=$3"
}
# post JAR ACTION FIELD=VALUE...: a form of the game's page, the answer
# page (after the POST's redirect) kept in $T/pages (the reply a web
# order gets is a page too).
post()
{
    local jar=$1 action=$2
    shift 2
    get /game/pub -b "$jar"
    local token args=()
    token=$(csrf_in "$T/b")
    for kv in "$@"; do args+=(--data-urlencode "$kv"); done
    # the answer is a 303 to the game's page, which shows the reply once
    get "/game/pub/$action" -b "$jar" -c "$jar" -L --data-urlencode "csrf=$token" "${args[@]}"
    cat "$T/b" >>"$T/pages"
}
: >"$T/pages"

# ---- S1901M: orders by mail and by web, press of every kind -----------------
printf 'SIGNON Epub pw-England\nF lon-nth\nA lvp-yor\nF edi-nwg\nPRESS TO France GREY\nsecret-grey-one\nENDPRESS\n' |
    mail england@pub.example
has "grey press sent to France"
printf 'SIGNON Gpub pw-Germany\nA mun-ruh\nPRESS TO Russia FAKE BROADCAST\nfake-bcast-two\nENDPRESS\n' |
    mail germany@pub.example
has "press sent to Russia, shown as a broadcast"
printf 'SIGNON Apub pw-Austria\nPRESS TO Italy\nplain-three\nENDPRESS\n' |
    mail austria@pub.example
has "press sent to Italy"
signin "$T/fr" France pw-France
holds "France signs in on the web" '[[ $CODE == 303 ]]'
post "$T/fr" orders $'orders=A par-bur\nA mar-spa\nF bre-mao'
holds "France's orders by web are taken" 'grep -q "A PAR - BUR" "$T/b"'
post "$T/fr" press to=Turkey text=web-press-four
holds "France's press by web is sent" 'grep -q "press sent to Turkey" "$T/b"'
J_WEB process pub >/dev/null
printf 'SIGNON Epub pw-England\nF nth-nwy\nA yor-lon\nF nwg-bar\n' |
    mail england@pub.example
signin "$T/ru" Russia pw-Russia
post "$T/ru" orders $'orders=A mos-ukr\nF sev-rum'
J_WEB process pub >/dev/null
J_WEB show pub >"$T/out"
has "Phase: W1901A"

# ---- the master reads all press ------------------------------------------------
master_mail() { sql "SELECT group_concat(body, '~~') FROM outbox WHERE kind = 'press' AND recipients = 'gm@pub.example'"; }
master_mail >"$T/out"
has "the master's copy of grey press from England to France."
has "Its recipients were not told who sent it."
has "secret-grey-one"
has "the master's copy of press from Germany to Russia."
has "Its recipients read it as a broadcast."
has "fake-bcast-two"
has "plain-three"
has "web-press-four"
check "France's own copy of the grey press names no sender" \
    sh -c "sqlite3 '$T/judge.db' \"SELECT body FROM outbox WHERE kind = 'press' AND recipients = 'france@pub.example'\" | grep -q 'press from an anonymous sender to France'"
printf 'SIGNON Mpub gm-pw\nPRESS ARCHIVE pub\n' | mail gm@pub.example
has "press from England (grey) to France"
has "secret-grey-one"
has "press from Germany to Russia (shown as: everyone)"
has "plain-three"
has "press from France to Turkey"
# a recipient of fake press reads it in the archive as it was shown
# (issue 36): a broadcast, exactly as a real one, with no hint of the truth
printf 'SIGNON Rpub pw-Russia\nPRESS ARCHIVE pub\n' | mail russia@pub.example
has "broadcast from Germany to everyone"
has "fake-bcast-two"
lacks "press from Germany"
lacks "shown as"
printf 'SIGNON Ipub pw-Italy\nPRESS ARCHIVE pub\n' | mail italy@pub.example
has "plain-three"
lacks "secret-grey-one"
printf 'SIGNON Fpub pw-France\nPRESS ARCHIVE pub\n' | mail france@pub.example
has "press from an anonymous sender to France"
lacks "England (grey)"
signin "$T/gm" master gm-pw
holds "the master signs in on the web" '[[ $CODE == 303 ]]'
get /game/pub/press -b "$T/gm"
holds "the master's press page has the press between powers" \
    'grep -q "plain-three" "$T/b" && grep -q "web-press-four" "$T/b"'
holds "  grey press with its true sender" \
    'grep -q "From England (grey) to France" "$T/b"'
holds "  fake press with its true recipients" \
    'grep -q "From Germany to Russia (shown as: everyone)" "$T/b"'
J_WEB set pub master_press=addressed >/dev/null
printf 'SIGNON Mpub gm-pw\nPRESS ARCHIVE pub\n' | mail gm@pub.example
lacks "plain-three"
lacks "secret-grey-one"
printf 'SIGNON Apub pw-Austria\nPRESS TO Italy\nplain-five\nENDPRESS\n' |
    mail austria@pub.example
master_mail >"$T/out"
lacks "plain-five"
printf 'SIGNON Mpub gm-pw\nLIST pub\n' | mail gm@pub.example
has "master_press=addressed"
J_WEB set pub master_press=all >/dev/null

# ---- the phase page's captions -----------------------------------------------------
get /game/pub/S1901M
holds "the phase page heads its picture as the board after the phase" \
    'grep -q "<h2>The orders and their results, on the board after the phase</h2>" "$T/b"'
holds "  not as the board before it" '! grep -qi "<h2>Before" "$T/b"'
holds "  and the next phase's picture by what it is" \
    'grep -q "<h2>The board F1901M starts from</h2>" "$T/b"'

# ---- the JSON says how orders came, not who sent them -------------------------------
get /game/pub.json
cp "$T/b" "$T/pub.json"
python3 - "$T/pub.json" >"$T/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("version", d["version"])
for ph in d["phases"]:
    for o in ph["orders"]:
        print(ph["phase"], o["power"], o.get("source"), "author" in o)
PY
has "version 2"
has "S1901M England mail False"
has "S1901M France web False"
has "F1901M Russia web False"
lacks "True"
J_WEB export pub >"$T/out"
has '"author": "england@pub.example"'
has '"author": "web 127.0.0.1"'

# ---- no address in public -------------------------------------------------------------
# crawl NAME [CURL ARGS]: every public page, the JSON and every picture.
crawl()
{
    local name=$1
    shift
    local out=$T/crawl-$name
    : >"$out"
    local phases
    phases=$(python3 -c 'import json,sys; print(" ".join(p["phase"] for p in json.load(open(sys.argv[1]))["phases"]))' "$T/pub.json")
    for p in / /game/pub /game/pub/press /game/pub.json; do
        get "$p" "$@"
        [[ $CODE == 200 ]] || bad "$name: $p answered $CODE"
        cat "$T/b" >>"$out"
    done
    for ph in $phases; do
        get "/game/pub/$ph" "$@"
        [[ $CODE == 200 ]] || bad "$name: /game/pub/$ph answered $CODE"
        cat "$T/b" >>"$out"
        for pic in board.svg orders.svg; do
            get "/game/pub/$ph/$pic" "$@"
            cat "$T/b" >>"$out"
        done
    done
    # a page of a finished game's phases carries the most
    [ -s "$out" ] || bad "$name: nothing read"
}
# no_address FILE WHAT: no address but the judge's own, no player's, no
# web client
no_address()
{
    local found
    NA_FILE=$1
    found=$(grep -o '[A-Za-z0-9._%+-]*@[A-Za-z0-9._-]*' "$1" | grep -v '^judge@demo\.example$' | sort -u | tr '\n' ' ')
    expect "$2: no address" "$found" ""
    holds "$2: no player's address" '! grep -q "pub\.example" "$NA_FILE"'
    holds "$2: no web client" '! grep -q "web 127\." "$NA_FILE"'
}
crawl stranger
no_address "$T/crawl-stranger" "a stranger's pages"
holds "  no player named before the end (identities = at-end)" \
    '! grep -q "Ann Anglo" "$T/crawl-stranger"'
crawl player -b "$T/fr"
no_address "$T/crawl-player" "France's pages"
holds "  France signed in reads the press to it" 'grep -q "secret-grey-one" "$T/crawl-player"'
no_address "$T/pages" "the pages answering web orders and press"
# mails_clean WHAT NAMES: every mail to a player so far holds no other
# address than its recipient's and the judge's, and with NAMES=yes no
# player's name but to that player.
mails_clean()
{
    sql "SELECT recipients || ' ' || id FROM outbox WHERE recipients LIKE '%@pub.example' AND recipients != 'gm@pub.example'" >"$T/rows"
    holds "players were mailed" '[ -s "$T/rows" ]'
    local leaks= to id others
    while read -r to id; do
        sqlite3 "$T/judge.db" "SELECT subject || char(10) || body FROM outbox WHERE id = $id" >"$T/mail"
        others=$(grep -o '[A-Za-z0-9._%+-]*@[A-Za-z0-9._-]*' "$T/mail" | grep -v -x -e "$to" -e 'judge@[A-Za-z0-9.-]*' | sort -u | tr '\n' ' ')
        [ -n "$others" ] && leaks="$leaks $id:$others"
        [ "$2" = yes ] && [ "$to" != england@pub.example ] &&
            grep -q "Ann Anglo" "$T/mail" && leaks="$leaks $id:name"
    done <"$T/rows"
    expect "$1" "$leaks" ""
}
mails_clean "no mail to a player names another's address or name" yes
kinds=$(sql "SELECT group_concat(DISTINCT kind) FROM (SELECT kind FROM outbox WHERE recipients = 'italy@pub.example' ORDER BY kind)")
expect "the mails read: start, press, results, notices" "$kinds" "notice,press,results,start"

J_WEB terminate pub "enough" >/dev/null
J_WEB show pub >"$T/out"
has "finished"
crawl ended
no_address "$T/crawl-ended" "a finished game's pages"
holds "  now the players are named by name (identities = at-end)" \
    'grep -q "Ann Anglo" "$T/crawl-ended"'
holds "  and a player without a name as such" \
    'grep -q "(no name given)" "$T/crawl-ended"'
crawl ended-player -b "$T/fr"
no_address "$T/crawl-ended-player" "a finished game's pages, for France"
sql "SELECT body FROM outbox WHERE kind = 'end' AND recipients = 'france@pub.example'" >"$T/out"
has "Ann Anglo"
lacks "@pub.example"
printf 'LIST pub\n' | mail stranger@else.example
has "Ann Anglo"
lacks "@pub.example"
mails_clean "no mail to a player, the end's too, names another's address" no

checks_done
