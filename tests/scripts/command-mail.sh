#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# command-mail.sh BUILDDIR SRCDIR — the email command language through
# `judgectl command`, on a real database set up with judgectl: three game
# years played entirely by mail (seven players sign on and send their
# orders, the master PROCESSes) give exactly the results of the same
# orders entered with `judgectl orders --set`; reply subjects; passwords
# never stored or shown in clear; rate-limited sign-ons; SIGNOFF; the
# subject as a command; Message-IDs seen twice run once; and a message
# killed at every database write point leaves nothing or everything.
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"
export DIPJUDGE_NOW=$GAME_T0

# mail FROM [JUDGECTL OPTIONS...] < BODY: run a message, reply in $T/out.
mail()
{
    local from=$1
    shift
    $J command --from "$from" "$@" >"$T/out" 2>"$T/err"
}
letter() { echo "$1" | cut -c1; }
pw() { echo "pw-$(letter "$1")-$2"; }

# ---- the command exists and is documented ---------------------------------
$J help >"$T/out"
has "  command "
$J help command >"$T/out"
has "--from ADDRESS"
$J command </dev/null >"$T/out" 2>"$T/err"
[[ $? -eq 2 ]] && grep -q -- "--from ADDRESS is needed" "$T/err" && ok ||
    bad "command without --from: $(cat "$T/err")"

# ---- two games: one fed by judgectl, one by mail ----------------------------
game_setup paper "$GAME_T0" || bad "paper set up"
$J create post --master gm@post.example movement_delay=72h retreat_delay=24h \
    adjustment_delay=24h grace=24h nmr=cd >/dev/null || bad "post created"
$J join post gm@post.example --master --password gm-secret >/dev/null ||
    bad "master password"
for p in $POWERS; do
    lp=$(echo "$p" | tr 'A-Z' 'a-z')
    $J join post "$lp@post.example" --power "$p" \
        --password "$(pw "$p" secret)" >/dev/null || bad "$p joined post"
done
[[ $(game_phase post) == S1901M ]] && ok || bad "post did not start"

now=$GAME_T0
for f in "$GAME"/0[1-9]-*.txt; do
    phase=$(phase_of "$f")
    [[ $phase == S1904M ]] && break
    game_orders paper "$f" "$now" || bad "paper orders $phase"
    DIPJUDGE_NOW=$now $J process paper >/dev/null || bad "paper $phase"
    for p in $POWERS; do
        grep -q "^$p: " "$f" || continue
        { echo "SIGNON $(letter "$p")post $(pw "$p" secret)"
          grep "^$p: " "$f" | sed "s/^$p: //"
          echo "READY"; } |
            DIPJUDGE_NOW=$now mail "$(echo "$p" | tr 'A-Z' 'a-z')@post.example"
        has "Subject: dipjudge:post - $phase Orders"
        lacks "ERROR"
        lacks "$(pw "$p" secret)"
    done
    printf 'signon master@post gm-secret\nprocess\n' |
        DIPJUDGE_NOW=$now mail gm@post.example
    has "post: $phase processed"
    now=$((now + 3600))
done
[[ $(game_phase post) == S1904M ]] && ok || bad "post is at $(game_phase post)"
$J history paper | sed 's/Game: paper/Game: GAME/; s/of .paper./of GAME/g' \
    >"$T/paper.txt"
$J history post | sed 's/Game: post/Game: GAME/; s/of .post./of GAME/g' \
    >"$T/post.txt"
if cmp -s "$T/paper.txt" "$T/post.txt" && [[ -s $T/post.txt ]]; then ok; else
    bad "mail and judgectl results differ: $(diff "$T/paper.txt" \
        "$T/post.txt" | head -5)"
fi
$J outbox post >"$T/out"
has "results	italy@post.example	dipjudge:post - S1901M Results"

# ---- replies: the subject as a command, SIGNOFF, unknown lines ----------------
mail stranger@x.example --subject "list post" </dev/null
has "Subject: dipjudge - Reply"
has "> list post"
has "Game post on map standard: active"
lacks "@post.example"
printf 'SIGNON Fpost %s\nstatus\nnonsense here\nSIGNOFF\nA par-bur\n' \
    "$(pw France secret)" | mail france@post.example
has "Subject: dipjudge:post - S1904M Orders" # "nonsense here" goes to the reader
has "Orders of France for S1904M"
lacks "ERROR: " # which finds it is prose
has "Not read (looks like text, not orders):"
has "  nonsense here"
has "After SIGNOFF, 1 line was not read."
has "Summary: 3 of 3 commands done"

# ---- passwords: never in clear, in replies or in the database -------------------
printf 'SIGNON Epost %s\nset password %s\n' "$(pw England secret)" \
    "$(pw England newer)" | mail england@post.example
has "> set password ****"
has "post: password changed"
lacks "$(pw England newer)"
printf 'signon england@post %s\n' "$(pw England newer)" |
    mail england@post.example
has "Signed on as England"
leaks=0
for p in $POWERS; do
    for kind in secret newer; do
        s=$(pw "$p" $kind)
        cat "$T"/judge.db* | tr -c '[:print:]' '\n' | grep -qF -- "$s" &&
            leaks=$((leaks + 1))
    done
done
[[ $leaks -eq 0 ]] && ok || bad "$leaks passwords found in the database files"

# ---- rate limiting -----------------------------------------------------------
for i in 1 2 3 4 5; do
    printf 'SIGNON Gpost guess%d\n' $i | mail mallory@x.example
done
has "refused"
printf 'SIGNON Gpost %s\n' "$(pw Germany secret)" | mail mallory@x.example
has "too many failed sign-ons for game 'post'"
has "Subject: dipjudge - Signon failed"
printf 'SIGNON Gpost %s\n' "$(pw Germany secret)" |
    DIPJUDGE_NOW=$((DIPJUDGE_NOW + 1)) mail germany@post.example
has "Signed on as Germany"
printf 'SIGNON Gpost %s\n' "$(pw Germany secret)" |
    DIPJUDGE_NOW=$((now + 7200)) mail mallory@x.example
has "Signed on as Germany"
$J outbox post >"$T/out"
has "notice	gm@post.example	dipjudge:post - S1904M Failed sign-ons"
$J export post >"$T/out"
has '"action": "signon-failed"'
lacks "guess"

# ---- a Message-ID seen twice runs once --------------------------------------------
printf 'SIGNON Fpost %s\nA pic-bur\n' "$(pw France secret)" |
    mail france@post.example --message-id '<one@x>' --queue-reply
has "A PIC - BUR"
printf 'SIGNON Fpost %s\nA pic-par\n' "$(pw France secret)" |
    mail france@post.example --message-id '<one@x>'
[[ $? -eq 1 ]] && grep -q "seen before" "$T/err" && ok || bad "duplicate ran"
$J orders post France >"$T/out"
has "A PIC - BUR"
lacks "A PIC - PAR"
$J outbox >"$T/out"
has "reply	france@post.example	dipjudge:post - S1904M Orders"

# ---- killed anywhere: nothing or everything ------------------------------------------
$J export post >"$T/before.json"
body=$(printf 'SIGNON Mpost gm-secret\nbecome italy\nA ven-tyr\nF nap-ion\n'
       printf 'broadcast\nhello\nendpress\npause\nresume\nset grace 12h\n'
       printf 'process\n')
n=1
crashes=0
done_at=0
while ((n < 500)); do
    echo "$body" | DIPJUDGE_CRASH_AT=$n $J command --from gm@post.example \
        >/dev/null 2>&1
    st=$?
    $J export post >"$T/now.json"
    if ((st == 86)); then
        crashes=$((crashes + 1))
        if ! cmp -s "$T/before.json" "$T/now.json"; then
            done_at=$n # the commit's last point: everything is there
            break
        fi
    elif ((st == 0)); then
        done_at=$n
        break
    else
        bad "exit $st at crash point $n"
        break
    fi
    n=$((n + 1))
done
((crashes > 20)) && ok || bad "only $crashes crash points"
((done_at > 0)) && ok || bad "the message never completed"
grep -q '"phase": "F1904M"' "$T/now.json" && grep -q 'Broadcast from Master' \
    "$T/now.json" && ok || bad "the completed message is not all there"

checks_done
