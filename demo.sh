#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# demo.sh — the README's demo: install what is missing, build, and play a
# game of Diplomacy by mail, on the judge's embedded defaults (no
# configuration file, no mail server): the inbox is the Maildir
# build/demo/mail/in, the outbox the Maildir build/demo/mail/out, the
# database build/demo/dipjudge.db.
#
#   1. the administrator creates game "demo" with judgectl;
#   2. seven scripted players mail JOIN: each message is an RFC 5322 file
#      dropped into mail/in/new, as a mail system would deliver it;
#      `judged once` reads them and answers each with a code (an address
#      must show it receives mail before it joins); each player mails
#      CONFIRM and the code back, and the game starts when the seventh
#      has;
#   3. for each phase of the year 1901 (contrib/demo: the openings, a Fall
#      in which the neutral centres change hands and a Turkish army is
#      dislodged, its retreat, the builds) every player with orders mails
#      them, `judged once` answers each, then the master mails PROCESS and
#      `judged once` sends everyone the results;
#   4. judgectl map draws every phase played into build/demo/pictures/
#      (orders and results drawn), and the board as it is now;
#   5. the demo prints what one player (France) found in the mailbox:
#      the list of messages, then the reply to their first orders and the
#      results of the Fall, the retreat and the builds in full, their maps
#      saved beside the others.
#
# DEMO_PLAYER=Power shows another player's mail.
#
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(pwd)
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

step() { printf '\n==> %s\n' "$*"; }

step "Checking build dependencies"
bash tests/install-deps.sh --demo

step "Building in build/"
if [[ ! -f build/config.status ]]; then
    ./autogen.sh
    mkdir -p build
    (cd build && ../configure CC=gcc >/dev/null)
fi
make -C build -j"$JOBS" --no-print-directory >/dev/null
echo "built build/judgectl and build/judged"

SHOW=${DEMO_PLAYER:-France}
POWERS=(Austria England France Germany Italy Russia Turkey)
rm -rf build/demo
mkdir -p build/demo
cd build/demo
ln -s "$ROOT/maps" maps # judgectl and judged find ./maps by default
J=$ROOT/build/judgectl
JD=$ROOT/build/judged
unset DIPJUDGE_CONF DIPJUDGE_DB DIPJUDGE_MAPDIR DIPJUDGE_NOW DIPJUDGE_STATE_DIR
# The demo judge keeps its state here, next to its judge.conf (relative
# paths in judge.conf start at its own folder): the database dipjudge.db,
# the Maildirs mail/in and mail/out.
printf '# the demo judge (judge.conf(5))\nstate_dir = ".";\n' >judge.conf
export DIPJUDGE_CONF=$PWD/judge.conf

addr() { echo "${1,,}@demo.example"; }
pw() { echo "password-${1,,}"; }
# drop FROM SUBJECT < BODY: one mail into the judge's inbox, as the mail
# system would deliver it (written in tmp/, then moved into new/).  The
# message counter is a file: drop runs at the end of pipelines.
drop()
{
    local n f
    n=$(($(cat .sent 2>/dev/null || echo 0) + 1))
    echo "$n" >.sent
    mkdir -p mail/in/tmp mail/in/new mail/in/cur
    f=$(printf 'demo.%04d' "$n")
    {
        echo "From: $1 player <$(addr "$1")>"
        echo "To: dipjudge <judge@localhost>"
        echo "Subject: $2"
        echo "Message-ID: <$f@demo.example>"
        echo "Date: $(LC_ALL=C date -R)"
        echo
        cat
    } >"mail/in/tmp/$f"
    mv "mail/in/tmp/$f" "mail/in/new/$f"
}
# once: one pass of the judge (read mail, deadlines, send), log summed up.
once()
{
    "$JD" once 2>judged.log || { cat judged.log; exit 1; }
    echo "    judged once: $(grep -c ': message ' judged.log) read," \
         "$(grep -c ': sent$' judged.log) sent"
}

step "The administrator creates game 'demo' (master: the GM)"
$J create demo --master "$(addr GM)" >/dev/null
$J join demo "$(addr GM)" --master --password "$(pw GM)"

step "Seven players mail JOIN; judged answers each with a code to confirm"
for p in "${POWERS[@]}"; do
    echo "JOIN $p@demo $(pw "$p")" | drop "$p" "joining"
done
once
step "Each player answers with CONFIRM and the code; the game starts"
for p in "${POWERS[@]}"; do
    reply=$(grep -l "^To: $(addr "$p")\$" mail/out/new/* | head -n 1)
    code=$(sed -n 's/^ *CONFIRM \([a-z0-9]*\)$/\1/p' "$reply" | head -n 1)
    echo "CONFIRM $code" | drop "$p" "Re: dipjudge:demo - Reply"
done
once
$J list

for f in "$ROOT"/contrib/demo/[0-9]*-*.txt; do
    phase=$(basename "$f" .txt)
    phase=${phase#*-}
    step "$phase: the players mail their orders, the master mails PROCESS"
    for p in "${POWERS[@]}"; do
        grep -q "^$p: " "$f" || continue
        {
            echo "SIGNON ${p:0:1}demo $(pw "$p")"
            grep "^$p: " "$f" | sed "s/^$p: //"
            echo
            echo "-- "
            echo "$p player (a signature: the judge does not read it)"
        } | drop "$p" "orders for $phase"
    done
    once
    printf 'SIGNON Mdemo %s\nPROCESS\n' "$(pw GM)" | drop GM "process"
    once
done

step "Pictures of the board, one per phase (build/demo/pictures/)"
mkdir -p pictures
for f in "$ROOT"/contrib/demo/[0-9]*-*.txt; do
    phase=$(basename "$f" .txt)
    phase=${phase#*-}
    $J map demo "$phase" -o "pictures/$phase.png" >/dev/null
    echo "  build/demo/pictures/$phase.png  ($phase, orders and results drawn)"
done
$J map demo -o "pictures/now.png" >/dev/null
echo "  build/demo/pictures/now.png     (the board now)"

step "Supply centres so far"
$J summary demo

step "What $SHOW's player found in the mailbox ($(addr "$SHOW"))"
# The outbox Maildir holds everyone's mail; the player's is addressed to
# them.  In the order it was sent (the outbox row in the Message-ID).
mine=$(grep -l "^To: $(addr "$SHOW")\$" mail/out/new/* | while read -r m; do
    printf '%s %s\n' "$(sed -n 's/^Message-ID: <dj\.\([0-9]*\)\..*/\1/p' "$m")" "$m"
done | sort -n | cut -d' ' -f2)
i=0
for m in $mine; do
    i=$((i + 1))
    printf '  %2d. %s\n' "$i" "$(sed -n 's/^Subject: //p' "$m")"
done
# show SUBJECT: the player's first mail with that subject, as a mail
# program shows it: a few headers, the text, and each attachment (the map)
# saved under build/demo/pictures/ instead of printed.
show()
{
    local m
    m=$(grep -l "^Subject: $1\$" $mine | head -n 1)
    [[ -n $m ]] || return 0
    printf '\n---------------------------------------------------------------------\n'
    sed -n '/^From:/p; /^To:/p; /^Subject:/p; /^Date:/p' "$m"
    echo
    # Parts of a multipart message: text printed, base64 files written.
    awk -v dir=pictures '
        BEGIN { head = 1 }
        head && /^Content-Type: multipart/ {
            b = $0; sub(/.*boundary="/, "", b); sub(/".*/, "", b)
        }
        head && /^$/ { head = 0; inpart = (b == ""); text = inpart; next }
        head { next }
        b != "" && ($0 == "--" b || $0 == "--" b "--") {
            if (file != "") { close(file); print "    [" name " attached: saved as " file "]" }
            inpart = 0; phead = 1; text = 0; name = ""; file = ""; next
        }
        phead && /^Content-Type: text\/plain/ { text = 1 }
        phead && /filename="/ {
            name = $0; sub(/.*filename="/, "", name); sub(/".*/, "", name)
        }
        phead && /^$/ { phead = 0; inpart = 1; if (name != "") file = dir "/" name ".b64"; next }
        phead { next }
        inpart && text { print }
        inpart && file != "" { print > file }
    ' "$m" | sed 's/\.b64\]$/]/'
    local f
    for f in pictures/*.b64; do
        [[ -e $f ]] || continue
        base64 -d "$f" >"${f%.b64}" && rm -f "$f"
    done
}
show "dipjudge:demo - S1901M Orders"
show "dipjudge:demo - F1901M Results"
show "dipjudge:demo - F1901R Results"
show "dipjudge:demo - W1901A Results"

step "All the mail judged sent (build/demo/mail/out)"
grep -h "^Subject: " mail/out/new/* |
    sed -E 's/^Subject: dipjudge:demo - ([SFW][0-9]{4}[MRA] )?//' |
    sort | uniq -c | sort -rn | sed 's/^/  /'
echo
echo "Pictures of every phase, and the maps attached to the results shown,"
echo "are in build/demo/pictures/ (open them with any image viewer);"
echo "the database is build/demo/dipjudge.db: try"
echo "  cd build/demo && ../judgectl -c judge.conf show demo"
echo
echo "To browse the game on the web, run judgeweb on the demo's judge.conf"
echo "(its state here, the web's embedded defaults: 127.0.0.1:8080):"
echo "  cd build/demo && ../judgeweb -c judge.conf"
echo "then open http://127.0.0.1:8080/game/demo (sign in as France with the"
echo "password password-france to give orders; judgeweb(8) says more)."
