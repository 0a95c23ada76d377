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
. "$S/tests/ics-check.sh"
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

# ---- 8. SET ZONE and SET REMINDER ------------------------------------------------
# the game's deadline: Mon 18 Jan 2027 08:00 UTC (72h after the start)
printf 'SIGNON Fdemo pw-2-secret\nSET ZONE Europe/Paris\nSET REMINDER 6h\nSTATUS\n' |
    send p2@x.example "x"
has "demo: deadlines shown to you in Europe/Paris as well as in the game's zone (UTC)"
has "Deadline: Mon 18 Jan 2027 08:00 UTC"
has "Deadline in your zone (Europe/Paris): Mon 18 Jan 2027 09:00 CET"
has "demo: reminded 6h before each deadline"
lacks "ERROR"
expect "zone stored" "$(sql "select zone, reminder from participants where email='p2@x.example'")" "Europe/Paris|360"
# unknown zones and leads are refused clearly, and change nothing
printf 'SIGNON Fdemo pw-2-secret\nSET ZONE Mars/Olympus\nSET ZONE ../../etc/passwd\nSET REMINDER soon\n' |
    send p2@x.example "x"
has "ERROR: unknown time zone 'Mars/Olympus': give a zone of the time zone database"
has "ERROR: unknown time zone '../../etc/passwd'"
has "ERROR: SET REMINDER takes a lead time before the deadline (6h, 90m, 1d; at most 14d), NONE or DEFAULT, not 'soon'"
expect "zone kept" "$(sql "select zone, reminder from participants where email='p2@x.example'")" "Europe/Paris|360"
# Germany wants no reminder; the others keep the judge's (24h)
printf 'SIGNON Gdemo pw-3-secret\nSET REMINDER none\n' | send p3@x.example "x"
has "demo: no deadline reminders for you"
# the master's SET ZONE (without BECOME) is still the game's setting
printf 'SIGNON Mdemo gm-pw-secret\nSET ZONE UTC\n' | send gm@x.example "x"
lacks "ERROR"
lacks "deadlines shown to you"
# 30h before the deadline: nobody; 23h before: the judge's lead (England,
# ...), not France (6h) nor Germany (none)
DIPJUDGE_NOW=$((GAME_T0 + 42 * 3600)) "$JD" once >/dev/null 2>&1
expect "no reminder at 30h" "$(sql "select count(*) from outbox where kind='reminder'")" 0
DIPJUDGE_NOW=$((GAME_T0 + 49 * 3600)) "$JD" once >/dev/null 2>&1
expect "England reminded at 23h" "$(sql "select count(*) from outbox where kind='reminder' and recipients='p1@x.example'")" 1
expect "France not yet" "$(sql "select count(*) from outbox where kind='reminder' and recipients='p2@x.example'")" 0
DIPJUDGE_NOW=$((GAME_T0 + 67 * 3600)) "$JD" once >/dev/null 2>&1
expect "France reminded at 5h" "$(sql "select count(*) from outbox where kind='reminder' and recipients='p2@x.example'")" 1
DIPJUDGE_NOW=$((GAME_T0 + 68 * 3600)) "$JD" once >/dev/null 2>&1
expect "France reminded once" "$(sql "select count(*) from outbox where kind='reminder' and recipients='p2@x.example'")" 1
expect "England reminded once" "$(sql "select count(*) from outbox where kind='reminder' and recipients='p1@x.example'")" 1
expect "Germany never" "$(sql "select count(*) from outbox where kind='reminder' and recipients='p3@x.example'")" 0
latest p2@x.example "Reminder"
has "Deadline in your zone (Europe/Paris): Mon 18 Jan 2027 09:00 CET"
latest p1@x.example "Reminder"
lacks "Deadline in your zone"

# ---- 10. PREVIEW: a player's own orders against holds ---------------------------
printf 'SIGNON Fdemo pw-2-secret\nA par-bur\nA mar-bur\nPREVIEW\n' |
    send p2@x.example "x"
has "Preview for France: your orders on file, every other unit holding"
has "France:  Army Marseilles -> Burgundy.  (*bounce*)"
has "Germany: Army Munich HOLD.  (*no order*)"
lacks "ERROR"
printf 'SIGNON Gdemo pw-3-secret\nA mun-bur\nF kie-den\nPREVIEW\n' |
    send p3@x.example "x"
has "Germany: Army Munich -> Burgundy."
has "Germany: Fleet Kiel -> Denmark."
# France's orders are not in Germany's preview, nor Germany's in France's
has "France:  Army Paris HOLD.  (*no order*)"
lacks "Paris -> Burgundy"
# nothing stored, nobody else told: the phase is the same, no results mail
expect "no results" "$(sql "select count(*) from outbox where kind='results'")" 0
expect "still S1901M" "$(game_phase demo)" S1901M
expect "no results row" "$(sql "select count(*) from results")" 0
# an observer and a power-less player cannot preview
printf 'OBSERVE demo watch-secret\n' | send obs@x.example "x"
printf 'CONFIRM %s\n' "$(code_in_out)" | send obs@x.example "x"
printf 'SIGNON Odemo watch-secret\nPREVIEW\n' | send obs@x.example "x"
has "ERROR: PREVIEW is for a power's player (or the master)"
# the master without BECOME: the whole phase, as before
printf 'SIGNON Mdemo gm-pw-secret\nPREVIEW\n' | send gm@x.example "x"
has "France:  Army Marseilles -> Burgundy.  (*bounce*)"
has "Germany: Army Munich -> Burgundy.  (*bounce*)"
lacks "Preview for"
# after BECOME: that power's own preview
printf 'SIGNON Mdemo gm-pw-secret\nBECOME Germany\nPREVIEW\n' | send gm@x.example "x"
has "Preview for Germany: your orders on file"
has "France:  Army Paris HOLD.  (*no order*)"

# ---- 10. the deadline's .ics with the results mail ------------------------------
printf 'SIGNON Edemo pw-1-secret\nSET CALENDAR off\n' | send p1@x.example "x"
has "demo: no calendar entry with your mail"
printf 'SIGNON Edemo pw-1-secret\nSET CALENDAR maybe\n' | send p1@x.example "x"
has "ERROR: SET CALENDAR takes ON or OFF"
printf 'SIGNON Mdemo gm-pw-secret\nPROCESS\n' | send gm@x.example "x"
expect "processed" "$(game_phase demo)" F1901M
latest p2@x.example "Results"
cp "$T/out" "$T/fr.eml"
has "Content-Type: multipart/mixed"
has "Content-Type: text/calendar; charset=UTF-8; method=PUBLISH"
has "Deadline in your zone (Europe/Paris): "
ics_of "$T/fr.eml" "$T/fr.ics"
check "France's .ics is RFC 5545" ics_strict "$T/fr.ics"
ics_unfold "$T/fr.ics" >"$T/out"
has "SUMMARY:dipjudge:demo - F1901M deadline"
has "UID:dipjudge-demo-F1901M@"
has "TRIGGER:-PT360M"
has "METHOD:PUBLISH"
has "Europe/Paris"
grep -q '^DESCRIPTION:Orders for F1901M.*(Europe/Paris): .* CET$' "$T/out" && ok ||
    bad "DESCRIPTION: $(grep DESCRIPTION "$T/out")"
grep -q "^DTSTART:$(sql "select strftime('%Y%m%dT%H%M%SZ', deadline, 'unixepoch') from phases where name='F1901M'")\$" "$T/out" &&
    ok || bad "DTSTART is not the deadline: $(grep DTSTART "$T/out")"
# folded: the description is longer than one line
[[ $(grep -c $'^ ' "$T/fr.ics") -ge 1 ]] && ok || bad "nothing folded"
# the check itself refuses what is wrong
sed 's/\r$//' "$T/fr.ics" >"$T/lf.ics"
ics_strict "$T/lf.ics" >/dev/null && bad "LF lines passed" || ok
ics_unfold "$T/fr.ics" | sed 's/$/\r/' >"$T/long.ics"
ics_strict "$T/long.ics" >/dev/null && bad "long lines passed" || ok
# Germany (no reminder): an entry without alarm; England (off): none
latest p3@x.example "Results"
ics_of "$T/out" "$T/de.ics"
check "Germany's .ics is RFC 5545" ics_strict "$T/de.ics"
grep -q "VALARM" "$T/de.ics" && bad "an alarm without a reminder" || ok
latest p1@x.example "Results"
lacks "text/calendar"
lacks "Deadline in your zone"
ics_of "$T/out" "$T/en.ics"
[[ ! -s $T/en.ics ]] && ok || bad "England's calendar is off"
# Italy: the judge's lead (24h) and no zone of its own
latest p4@x.example "Results"
lacks "Deadline in your zone"
ics_of "$T/out" "$T/it.ics"
check "Italy's .ics is RFC 5545" ics_strict "$T/it.ics"
grep -q "TRIGGER:-PT1440M" "$T/it.ics" && ok || bad "Italy: the judge's lead"
# the same UID for the same deadline in later mail (a calendar updates it)
uid=$(grep "^UID" "$T/it.ics")
[[ $uid == "$(grep "^UID" "$T/fr.ics")" ]] && ok || bad "UIDs differ"

# the start mail carried the first deadline's entry too
latest p4@x.example "Game started"
ics_of "$T/out" "$T/start.ics"
check "the start mail's .ics is RFC 5545" ics_strict "$T/start.ics"
grep -q "SUMMARY:dipjudge:demo - S1901M deadline" "$T/start.ics" && ok ||
    bad "start: $(cat "$T/start.ics")"
grep -q "^DTSTART:20270118T080000Z" "$T/start.ics" && ok || bad "start DTSTART"

checks_done
