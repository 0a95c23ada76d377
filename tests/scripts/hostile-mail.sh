#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# hostile-mail.sh BUILDDIR SRCDIR — mail written by an attacker with a
# forged From: line (issue 9), message by message through the command
# language on a real database, each attack shown to do no harm:
#   - lock-out: wrong sign-ons forged with a player's own address never
#     stop the player's right password;
#   - guessing from many addresses: after signon_limit failures at one
#     power, other addresses are refused without their password being
#     looked at, and the master is told once, not per attempt;
#   - amplification: a short mail of many commands gets a reply within
#     its size budget, the rest not run;
#   - poison messages: a message the judge keeps failing on is moved aside
#     after three tries, the admin is mailed once, the queue goes on;
#   - growth: the mail log and sent mail older than keep_mail are pruned
#     at each tick, the games' history kept;
#   - forged JOIN, OBSERVE, CREATE: nothing happens until the address sends
#     back the code only it received; pending requests are capped per game
#     and per address, and expire;
#   - issue 33: a reply to a mail that did not sign on stays within twice
#     its text, a repeated LIST is answered once, the budgets count bytes;
#     a re-sent mail with a new Date: and To: acts once; press cannot hide
#     text or pass for the judge's; a private game is described to its
#     participants only.
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"
export DIPJUDGE_NOW=$GAME_T0
mail() { $J command --from "$1" --queue-reply >"$T/out" 2>&1; }
notices() { sql "SELECT count(*) FROM outbox WHERE kind = 'notice' AND
                 subject LIKE '%Failed sign-ons'"; }

$J create h --master gm@h.example >/dev/null
$J join h gm@h.example --master --password master-secret >/dev/null
for p in $POWERS; do
    lp=$(echo "$p" | tr 'A-Z' 'a-z')
    $J join h "$lp@h.example" --power "$p" --password "right-$lp" >/dev/null
done
check "the game started" [ "$(game_phase h)" = S1901M ]

# ---- forged lock-out --------------------------------------------------------------
for i in 1 2 3 4 5 6 7; do
    printf 'SIGNON Fh wrong%d\n' "$i" | mail france@h.example
done
has "sign-ons are slowed down; try again in 1 second"
printf 'SIGNON Fh right-france\nA par-bur\n' | mail france@h.example
has "try again in 1 second"
printf 'SIGNON Fh right-france\nA par-bur\n' |
    DIPJUDGE_NOW=$((GAME_T0 + 1)) $J command --from france@h.example \
    --queue-reply >"$T/out" 2>&1
has "Signed on as France"
has "A PAR - BUR"
check "seven forged failures told the master once" [ "$(notices)" = 1 ]

# ---- guessing through the player's own address: slowed, never locked ------------
# From italy@ (forged or not): signon_limit (5) guesses, then each must
# wait 1, 2, 4 ... seconds after the latest failure, at most 5 minutes; a
# sign-on before its time is refused without its password looked at.
t=$GAME_T0
looked=0 waits=""
for i in $(seq 1 12); do
    printf 'SIGNON Ih guess-%d\n' "$i" |
        DIPJUDGE_NOW=$t $J command --from italy@h.example >"$T/out" 2>&1
    w=$(sed -n 's/.*try again in \([0-9]*\) second.*/\1/p' "$T/out" | head -1)
    if [ -n "$w" ]; then
        waits="$waits $w"
        t=$((t + w))
        printf 'SIGNON Ih guess-%d\n' "$i" |
            DIPJUDGE_NOW=$t $J command --from italy@h.example >"$T/out" 2>&1
    fi
    grep -q "wrong password" "$T/out" && looked=$((looked + 1))
done
check "all twelve guesses looked at, each in its time ($looked)" [ "$looked" = 12 ]
check "the waits double from the sixth guess:$waits" [ "$waits" = " 1 2 4 8 16 32 64" ]
check "twelve failures recorded for Italy, no more" [ "$(sql "SELECT count(*)
    FROM signon_failures WHERE target = 'italy'")" = 12 ]
printf 'SIGNON Ih right-italy\n' |
    DIPJUDGE_NOW=$t $J command --from italy@h.example >"$T/out" 2>&1
has "try again in 128 seconds"
check "the right password too waits its turn" sh -c "! grep -q 'Signed on' '$T/out'"
check "a refusal before its time records nothing" [ "$(sql "SELECT count(*)
    FROM signon_failures WHERE target = 'italy'")" = 12 ]
printf 'SIGNON Ih right-italy\n' |
    DIPJUDGE_NOW=$((t + 128)) $J command --from italy@h.example >"$T/out" 2>&1
has "Signed on as Italy"
# The wait never exceeds five minutes: a day's worth of failures.
for k in $(seq 1 30); do echo "INSERT INTO signon_failures (sender, game,
    target, at) VALUES ('italy@h.example', 'h', 'italy', $((t + k)));"; done |
    sqlite3 "$T/judge.db"
printf 'SIGNON Ih right-italy\n' |
    DIPJUDGE_NOW=$((t + 31)) $J command --from italy@h.example >"$T/out" 2>&1
has "try again in 299 seconds"
printf 'SIGNON Ih right-italy\n' |
    DIPJUDGE_NOW=$((t + 330)) $J command --from italy@h.example >"$T/out" 2>&1
has "Signed on as Italy"
printf 'SIGNON Ih right-italy\nSET PASSWORD short7x\n' |
    DIPJUDGE_NOW=$((t + 330)) $J command --from italy@h.example >"$T/out" 2>&1
has "a password needs at least 8 characters"
$J create h2 --master gm2@h.example --password 1234 >"$T/out" 2>&1
has "warning: the password is shorter than 8 characters"
printf 'SIGNON Mh2 1234\n' | mail gm2@h.example
has "Signed on as the master"
has "Your password is shorter than 8 characters"

# ---- press reaches only those named -------------------------------------------------
# (and the master, who gets a copy of every press: master_press = all; not
# counted here, public-view.sh checks it)
press_to() { sql "SELECT group_concat(recipients, ' ') FROM (SELECT recipients
    FROM outbox WHERE kind = 'press' AND body LIKE '%$1%'
    AND recipients != 'gm@h.example' ORDER BY recipients)"; }
$J join h watcher@h.example --observer --password watcher-pw >/dev/null
printf 'SIGNON Eh right-england\nPRESS TO F FROM G\nplan-one\nENDPRESS\n' |
    mail england@h.example
has "game 'h' has no fake press: press cannot be sent FROM another power"
check "DPjudge's FROM where fake press is off: nothing sent" [ -z "$(press_to plan-one)" ]
printf 'SIGNON Eh right-england\nPRESS TO GREAT\nplan-two\nENDPRESS\n' |
    mail england@h.example
has "unknown recipient 'GREAT'"
check "a word of power letters is no list: nothing sent" [ -z "$(press_to plan-two)" ]
printf 'SIGNON Eh right-england\nPRESS TO France, Italy and Tea\nplan-three\nENDPRESS\n' |
    mail england@h.example
has "unknown recipient 'Tea'"
check "one bad word refuses the whole press" [ -z "$(press_to plan-three)" ]
printf 'SIGNON Eh right-england\nPRESS TO France,Italy\nplan-four\nENDPRESS\n' |
    mail england@h.example
has "press sent to France and Italy"
check "commas separate" [ "$(press_to plan-four)" = "france@h.example italy@h.example" ]
$J set h fake_press=yes >/dev/null
printf 'SIGNON Eh right-england\nPRESS TO F FROM G\nplan-five\nENDPRESS\n' |
    mail england@h.example
has "press sent to France, shown as from Germany"
check "FROM where fake press is on: France alone" [ "$(press_to plan-five)" = "france@h.example" ]
check "and it reads as Germany's" [ "$(sql "SELECT count(*) FROM outbox WHERE
    body LIKE '%press from Germany to France%plan-five%'")" = 1 ]
$J set h fake_press=no >/dev/null

# ---- guessing from many addresses ----------------------------------------------
before=$(notices)
for i in $(seq 1 12); do
    printf 'SIGNON Gh guess%d\n' "$i" | mail "bot$i@botnet.example"
    echo "$i $(grep -c 'too many failed sign-ons as Germany' "$T/out")"
done >"$T/guesses"
check "the first five guesses were looked at" \
    [ "$(awk '$1 <= 5 && $2 == 0' "$T/guesses" | wc -l)" = 5 ]
check "the next seven were refused unread" \
    [ "$(awk '$1 > 5 && $2 == 1' "$T/guesses" | wc -l)" = 7 ]
check "only five failures recorded for Germany" [ "$(sql "SELECT count(*) FROM
    signon_failures WHERE target = 'germany'")" = 5 ]
printf 'SIGNON Gh right-germany\n' | mail bot13@botnet.example
has "too many failed sign-ons as Germany"
check "even the right password from elsewhere is not tried" \
    sh -c "! grep -q 'Signed on' '$T/out'"
printf 'SIGNON Gh right-germany\nA mun-ruh\n' |
    DIPJUDGE_NOW=$((GAME_T0 + 1)) $J command --from germany@h.example \
    --queue-reply >"$T/out" 2>&1
has "Signed on as Germany"
has "A MUN - RUH"
check "the master heard of the guessing once" [ "$(notices)" = $((before + 1)) ]
sql "SELECT body FROM outbox WHERE kind = 'notice' AND subject LIKE
     '%Failed sign-ons' ORDER BY id DESC LIMIT 1" >"$T/out"
has "failed sign-ons as Germany"
has "the right password always works"
check "no password in the master's notice" sh -c "! grep -q guess '$T/out'"

# ---- an hour later the window has passed -------------------------------------------
DIPJUDGE_NOW=$((GAME_T0 + 3700)) $J command --from bot1@botnet.example \
    --queue-reply <<<"SIGNON Gh right-germany" >"$T/out" 2>&1
has "Signed on as Germany"

# ---- amplification: a short mail of many commands ---------------------------------
# The issue 33 attack: 1,999 LIST lines (14 KB of forged mail) once drew a
# 1 MB reply.  The same read-only command is answered once a message.
for i in $(seq 1 1999); do echo "LIST h"; done >"$T/many"
$J command --from amplifier@x.example --queue-reply <"$T/many" >"$T/out" 2>&1
size=$(wc -c <"$T/out")
check "1,999 LIST lines: one answer ($size bytes)" [ "$size" -le 4000 ]
has "1998 commands were asked again: each is answered once, above."
# Distinct commands: a reply to a mail that did not sign on is at most
# the larger of 16 KB and twice the mail's own text.
for i in $(seq 1 1900); do echo "LIST nosuch-$i"; done >"$T/distinct"
mailsize=$(wc -c <"$T/distinct")
$J command --from amplifier@x.example --queue-reply <"$T/distinct" >"$T/out" 2>&1
size=$(wc -c <"$T/out")
check "1,900 other LIST lines ($mailsize bytes): at most twice that ($size bytes)" \
    [ "$size" -le $((2 * mailsize + 1024)) ]
has "commands were not run: this reply reached its size budget of $((2 * mailsize / 1024)) KB"
check "the queued reply too" [ "$(sql "SELECT max(length(body)) FROM outbox
    WHERE recipients = 'amplifier@x.example'")" -le $((2 * mailsize + 1024)) ]
for i in $(seq 1 20); do echo "LIST nosuch-$i"; done >"$T/few"
$J command --from amplifier@x.example <"$T/few" >"$T/out" 2>&1
check "a short mail still gets its whole answer (16 KB at least)" \
    sh -c "! grep -q 'size budget' '$T/out'"
{ echo "SIGNON Eh right-england"; cat "$T/distinct"; } >"$T/signed"
$J command --from england@h.example <"$T/signed" >"$T/out" 2>&1
size=$(wc -c <"$T/out")
check "signed on, the whole budget (1 MiB): $size bytes" [ "$size" -gt $((2 * mailsize + 1024)) ]
# A smaller budget from judge.conf; one command's own output is cut too.
printf 'limits: { max_reply_size = 16384; };\n' >"$T/small.conf"
$J --config "$T/small.conf" command --from amplifier@x.example \
    <"$T/distinct" >"$T/out" 2>&1
size=$(wc -c <"$T/out")
check "judge.conf's max_reply_size holds ($size bytes)" [ "$size" -le 20000 ]
has "of 16 KB"
printf 'limits: { max_reply_size = 100; };\n' >"$T/bad.conf"
$J --config "$T/bad.conf" list >"$T/out" 2>&1
check "a budget below 16 KB is refused" grep -q "bad.conf:1:" "$T/out"

# ---- poison messages: moved aside after three tries, the queue goes on ------------
# judged on a Maildir inbox; DIPJUDGE_TEST_POISON makes a message carrying
# the marker fail the way a bug in the judge would (not a busy database).
P=$T/poison
mkdir -p "$P/mail/in/new" "$P/mail/in/cur" "$P/mail/in/tmp"
printf 'admin_address = "admin@h.example";\n' >"$P/judge.conf"
drop() # N FROM BODY: a message delivered at second N
{
    printf 'From: %s\nTo: judge@localhost\nSubject: m%s\nMessage-ID: <p%s@x.example>\n\n%s\n' \
        "$2" "$1" "$1" "$3" >"$P/mail/in/new/170000000$1.M1P1.test"
}
drop 1 a@x.example "LIST h"
drop 2 mallory@x.example "LIST h POISON-PILL"
drop 3 b@x.example "LIST h"
jd() { (cd "$P" && DIPJUDGE_TEST_POISON=POISON-PILL "$JUDGED" \
    --config judge.conf --db "$T/judge.db" --maps "$S/maps" --quiet once \
    --no-tick) 2>>"$T/judged.log"; }
in_new() { ls "$P/mail/in/new" | grep -c "^170000000$1\." ; }
jd
check "pass 1: the message before it is handled" [ "$(in_new 1)" = 0 ]
check "pass 1: the poison stays, and what follows waits (arrival order)" \
    [ "$(in_new 2)" = 1 ] && [ "$(in_new 3)" = 1 ]
jd
check "pass 2: still waiting" [ "$(in_new 2)" = 1 ] && [ "$(in_new 3)" = 1 ]
check "tries counted" [ "$(sql "SELECT tries FROM mail_failures")" = 2 ]
jd
check "pass 3: the poison is moved aside" [ "$(in_new 2)" = 0 ] &&
    [ -f "$P/mail/in/.Quarantine/new/1700000002.M1P1.test" ]
check "and the queue goes on" [ "$(in_new 3)" = 0 ]
check "b's message was answered" [ "$(sql "SELECT count(*) FROM outbox
    WHERE recipients = 'b@x.example'")" = 1 ]
check "the poison's sender got no answer" [ "$(sql "SELECT count(*) FROM
    outbox WHERE recipients = 'mallory@x.example'")" = 0 ]
check "the admin was mailed once" [ "$(sql "SELECT count(*) FROM outbox
    WHERE recipients = 'admin@h.example' AND subject LIKE '%moved aside'")" = 1 ]
sql "SELECT body FROM outbox WHERE subject LIKE '%moved aside'" >"$T/out"
has "from:       mallory@x.example"
has "the test's poison marker"
check "judged logged it" grep -q "moved aside" "$T/judged.log"
jd
check "a fourth pass does not mail the admin again" [ "$(sql "SELECT count(*)
    FROM outbox WHERE subject LIKE '%moved aside'")" = 1 ]

# ---- reply budgets: no silencing, no amplification -------------------------------
# judged on a Maildir inbox of its own, with small budgets: 5 replies to
# failed sign-ons per address, 30 replies per address (+tags folded in),
# 40 per domain, 120 in all, each per hour.
Q=$T/budgets
mkdir -p "$Q/mail/in/new" "$Q/mail/in/cur" "$Q/mail/in/tmp"
printf 'limits: { reply_limit = 30; signon_reply_limit = 5;
    domain_reply_limit = 40; judge_reply_limit = 120; };\n' >"$Q/judge.conf"
n=0
qdrop() # FROM BODY: one message, after the ones before
{
    n=$((n + 1))
    printf 'From: %s\nTo: judge@localhost\nSubject: q%s\nMessage-ID: <q%s@x.example>\n\n%s\n' \
        "$1" "$n" "$n" "$2" >"$Q/mail/in/new/$((1700001000 + n)).M1P1.test"
}
qjd() { (cd "$Q" && "$JUDGED" --config judge.conf --db "$T/judge.db" \
    --maps "$S/maps" --quiet once --no-tick --no-send) 2>>"$T/judged.log"; }
replies_to() { sql "SELECT count(*) FROM outbox WHERE kind IN ('reply',
    'refusal', 'signon-failed') AND recipients LIKE '$1'"; }
QT=$((GAME_T0 + 86400))
for i in $(seq 1 40); do qdrop austria@h.example "SIGNON Ah forged-$i"; done
DIPJUDGE_NOW=$QT qjd
check "40 forged sign-ons in Austria's name: 5 answered" \
    [ "$(replies_to austria@h.example)" = 5 ]
check "as replies to failed sign-ons" [ "$(sql "SELECT count(*) FROM outbox
    WHERE kind = 'signon-failed' AND recipients = 'austria@h.example'")" = 5 ]
check "the mail log says why the rest were not" [ "$(sql "SELECT count(*)
    FROM maillog WHERE sender = 'austria@h.example' AND outcome LIKE
    '%not answered: failed sign-on reply limit%'")" = 35 ]
qdrop austria@h.example "SIGNON Ah right-austria
A vie-gal"
DIPJUDGE_NOW=$((QT + 2)) qjd
check "Austria's real orders are answered all the same" [ "$(sql "SELECT
    count(*) FROM outbox WHERE recipients = 'austria@h.example' AND
    kind = 'reply' AND body LIKE '%A VIE - GAL%'")" = 1 ]
for i in $(seq 1 35); do qdrop "amp+$i@tag.example" "LIST h"; done
DIPJUDGE_NOW=$((QT + 3)) qjd
check "35 mails to amp+1..35@: 30 answered (the +tag is one address)" \
    [ "$(replies_to 'amp+%@tag.example')" = 30 ]
for i in $(seq 1 45); do qdrop "user$i@dom.example" "LIST h"; done
DIPJUDGE_NOW=$((QT + 4)) qjd
check "45 addresses of one domain: 40 answered" \
    [ "$(replies_to '%@dom.example')" = 40 ]
for i in $(seq 1 60); do qdrop "x@d$i.example" "LIST h"; done
DIPJUDGE_NOW=$((QT + 5)) qjd
check "the judge-wide budget: 120 replies in the hour, no more" \
    [ "$(sql "SELECT count(*) FROM outbox WHERE kind IN ('reply', 'refusal',
    'signon-failed') AND created_at >= $QT")" = 120 ]
qdrop england@h.example "SIGNON Eh right-england
F lon-nth"
DIPJUDGE_NOW=$((QT + 6)) qjd
check "a correct sign-on is answered beyond every budget" [ "$(sql "SELECT
    count(*) FROM outbox WHERE recipients = 'england@h.example' AND
    body LIKE '%F LON - NTH%'")" = 1 ]
DIPJUDGE_NOW=$((QT + 3601 + 6)) qjd
qdrop "amp+99@tag.example" "LIST h"
DIPJUDGE_NOW=$((QT + 3601 + 6)) qjd
check "an hour later the budgets have room again" \
    [ "$(replies_to 'amp+99@tag.example')" = 1 ]

# The same budgets in bytes (issue 33): 8,000 bytes of replies an hour to
# one address, 16,000 to one domain; the counts left high.
BQ=$T/bytes
mkdir -p "$BQ/mail/in/new" "$BQ/mail/in/cur" "$BQ/mail/in/tmp"
printf 'limits: { reply_limit = 1000; domain_reply_limit = 1000;
    reply_bytes_limit = 8000; domain_reply_bytes_limit = 16000; };\n' >"$BQ/judge.conf"
bdrop() # FROM BODY
{
    n=$((n + 1))
    printf 'From: %s\nTo: judge@localhost\nSubject: b%s\nMessage-ID: <b%s@x.example>\n\n%s\n' \
        "$1" "$n" "$n" "$2" >"$BQ/mail/in/new/$((1700005000 + n)).M1P1.test"
}
bjd() { (cd "$BQ" && "$JUDGED" --config judge.conf --db "$T/judge.db" \
    --maps "$S/maps" --quiet once --no-tick --no-send) 2>>"$T/judged.log"; }
bytes_to() { sql "SELECT IFNULL(sum(length(body)), 0) FROM outbox WHERE
    kind IN ('reply', 'refusal', 'signon-failed') AND recipients LIKE '$1'"; }
BT=$((QT + 5 * 86400))
one=$(sql "SELECT length(body) FROM outbox WHERE recipients = 'amp+99@tag.example'")
for i in $(seq 1 40); do bdrop bytes@b.example "LIST h"; done
DIPJUDGE_NOW=$BT bjd
got=$(replies_to bytes@b.example)
check "40 mails to one address: answered until 8,000 bytes ($got of $one bytes each)" \
    [ "$got" -lt 40 ] && [ "$(bytes_to bytes@b.example)" -lt $((8000 + one)) ] &&
    [ "$(bytes_to bytes@b.example)" -ge 8000 ]
check "the mail log says which budget" [ "$(sql "SELECT count(*) FROM maillog
    WHERE sender = 'bytes@b.example' AND outcome LIKE
    '%not answered: reply limit in bytes%'")" = $((40 - got)) ]
for i in $(seq 1 60); do bdrop "u$i@bd.example" "LIST h"; done
DIPJUDGE_NOW=$((BT + 1)) bjd
check "60 addresses of one domain: answered until 16,000 bytes" \
    [ "$(replies_to '%@bd.example')" -lt 60 ] &&
    [ "$(bytes_to '%@bd.example')" -lt $((16000 + one)) ] &&
    [ "$(bytes_to '%@bd.example')" -ge 16000 ]
bdrop bytes@b.example "SIGNON Eh right-england
F lon-wal"
DIPJUDGE_NOW=$((BT + 2)) bjd
check "a correct sign-on is answered beyond the bytes too" [ "$(sql "SELECT
    count(*) FROM outbox WHERE recipients = 'bytes@b.example' AND
    body LIKE '%F LON - WAL%'")" = 1 ]

# ---- a re-delivery through another MX is the same mail -----------------------------
R=$T/redeliver
mkdir -p "$R/mail/in/new" "$R/mail/in/cur" "$R/mail/in/tmp"
: >"$R/judge.conf"
rdrop() # NAME MX MESSAGE-ID ORDER: Turkey's orders as MX delivered them
{
    printf 'Return-Path: <turkey@h.example>\nDelivered-To: judge@%s\nReceived: from %s.h.example by %s.judge.example; Fri, 1 Jan 2027 10:00:0%s +0000\nFrom: turkey@h.example\nTo: judge@localhost\nDate: Fri, 1 Jan 2027 09:59:00 +0000\nSubject: orders\nMessage-ID: <%s@h.example>\n\nSIGNON Th right-turkey\n%s\n' \
        "$2" "$2" "$2" "${#2}" "$3" "$4" >"$R/mail/in/new/$1.M1P1.test"
}
rjd() { (cd "$R" && "$JUDGED" --config judge.conf --db "$T/judge.db" \
    --maps "$S/maps" --quiet once --no-tick --no-send) 2>>"$T/judged.log"; }
RT=$((QT + 7300))
rdrop 1700002001 mx1 first "A con-bul"
DIPJUDGE_NOW=$RT rjd
rdrop 1700002002 mx1 second "A con-smy"
DIPJUDGE_NOW=$((RT + 10)) rjd
rdrop 1700002003 backup-mx first "A con-bul"
DIPJUDGE_NOW=$((RT + 20)) rjd
check "the re-delivered copy is recognised" [ "$(sql "SELECT count(*) FROM
    maillog WHERE sender = 'turkey@h.example'")" = 2 ]
check "and answered once" [ "$(sql "SELECT count(*) FROM outbox WHERE
    recipients = 'turkey@h.example' AND kind = 'reply'")" = 2 ]
$J orders h Turkey >"$T/out" 2>&1
has "A CON - SMY"
check "the stale copy did not overwrite the newer orders" \
    sh -c "! grep -q 'A CON - BUL' '$T/out'"
# A forgery borrowing the Message-ID but saying something else is not it.
rdrop 1700002004 mx1 second "A con-ank"
DIPJUDGE_NOW=$((RT + 30)) rjd
check "another text under the same Message-ID is another mail" \
    [ "$(sql "SELECT count(*) FROM maillog WHERE sender = 'turkey@h.example'")" = 3 ]
# The player's client sends the first mail again: a new Date: and To:, the
# same text.  It is the same mail and does not act twice (issue 33).
printf 'From: turkey@h.example\nTo: judge@localhost, turkey@h.example\nDate: Sat, 2 Jan 2027 11:00:00 +0000\nSubject: orders\nMessage-ID: <first@h.example>\n\nSIGNON Th right-turkey\nA con-bul\n' \
    >"$R/mail/in/new/1700002005.M1P1.test"
DIPJUDGE_NOW=$((RT + 40)) rjd
check "a re-sent mail with a new Date: and To: is the same mail" \
    [ "$(sql "SELECT count(*) FROM maillog WHERE sender = 'turkey@h.example'")" = 3 ]
$J orders h Turkey >"$T/out" 2>&1
check "and did not act again" sh -c "! grep -q 'A CON - BUL' '$T/out'"

# ---- a header that cannot be read is refused, not dropped --------------------------
long=$(head -c 1100000 /dev/zero | tr '\0' x)
{ printf 'X-Long: %s\nFrom: big@h.example\nSubject: big\n\nLIST h\n' "$long"; } \
    >"$T/bighead.eml"
(cd "$R" && "$JUDGED" --config judge.conf --db "$T/judge.db" --maps "$S/maps" \
    --quiet deliver -f big-env@h.example --no-send <"$T/bighead.eml") \
    2>>"$T/judged.log"
check "a 1 MiB header line: refused to the envelope sender" [ "$(sql "SELECT
    count(*) FROM outbox WHERE kind = 'refusal' AND
    recipients = 'big-env@h.example'")" = 1 ]
{ printf 'Return-Path: <big-rp@h.example>\n'; cat "$T/bighead.eml"; } \
    >"$R/mail/in/new/1700002100.M1P1.test"
DIPJUDGE_NOW=$((RT + 40)) rjd
check "and from a Maildir, to its Return-Path" [ "$(sql "SELECT count(*) FROM
    outbox WHERE kind = 'refusal' AND recipients = 'big-rp@h.example'")" = 1 ]
printf '\n\nnot a header at all\n' | (cd "$R" && "$JUDGED" --config \
    judge.conf --db "$T/judge.db" --maps "$S/maps" --quiet deliver \
    -f garbage-env@h.example --no-send) 2>>"$T/judged.log"
check "no header at all: refused to the envelope sender" [ "$(sql "SELECT
    count(*) FROM outbox WHERE kind = 'refusal' AND
    recipients = 'garbage-env@h.example'")" = 1 ]
printf '\n\nnot a header at all\n' | (cd "$R" && "$JUDGED" --config \
    judge.conf --db "$T/judge.db" --maps "$S/maps" --quiet deliver \
    -f '' --no-send) 2>>"$T/judged.log"
check "the null sender is never answered" [ "$(sql "SELECT count(*) FROM
    outbox WHERE kind = 'refusal' AND recipients = ''")" = 0 ]

# ---- risky settings are said: a readable password, clear text over the network ------
W=$T/warn
mkdir -p "$W/mail/in/new" "$W/mail/in/cur" "$W/mail/in/tmp"
printf 'outbound: { type = "smtp"; host = "127.0.0.1"; user = "judge";
    password = "smtp-secret"; };\n' >"$W/judge.conf"
chmod 644 "$W/judge.conf"
(cd "$W" && "$JUDGED" --config judge.conf --db "$T/judge.db" --maps "$S/maps" \
    once --no-tick --no-send) >"$T/out" 2>&1
has "warning: judge.conf holds a mail password and users other than the judge's may read it (mode 0644)"
(cd "$W" && "$JUDGED" --config judge.conf config) >"$T/out" 2>&1
has "# WARNING: judge.conf holds a mail password"
chmod 600 "$W/judge.conf"
(cd "$W" && "$JUDGED" --config judge.conf config) >"$T/out" 2>&1
check "chmod 600: no warning" sh -c "! grep -q WARNING '$T/out'"
printf 'inbound: { type = "imap"; host = "mail.example.org"; };
outbound: { type = "smtp"; host = "192.0.2.7"; tls = "none"; };\n' >"$W/judge.conf"
(cd "$W" && "$JUDGED" --config judge.conf config) >"$T/out" 2>&1
has "inbound: tls = \"none\" towards mail.example.org, which is not this machine"
has "outbound: tls = \"none\" towards 192.0.2.7, which is not this machine"
printf 'inbound: { type = "imap"; host = "::1"; };
outbound: { type = "smtp"; host = "localhost"; tls = "none"; };\n' >"$W/judge.conf"
(cd "$W" && "$JUDGED" --config judge.conf config) >"$T/out" 2>&1
check "loopback in the clear: no warning" sh -c "! grep -q WARNING '$T/out'"

# ---- the mail log and sent mail do not grow forever ---------------------------------
results_before=$(sql "SELECT count(*) FROM results")
old=$((GAME_T0 - 100 * 86400))
sql "INSERT INTO maillog (message_id, received_at, sender, outcome)
     VALUES ('<old@x>', $old, 'old@x.example', 'ok');
     INSERT INTO outbox (kind, recipients, subject, body, state, created_at)
     VALUES ('reply', 'old@x.example', 'old', 'old', 'sent', $old),
            ('reply', 'old@x.example', 'old', 'old', 'queued', $old)"
$J tick >"$T/out" 2>&1
has "pruned 1 mail log row and 1 sent mail older than 90 days"
check "old mail-log rows go" [ "$(sql "SELECT count(*) FROM maillog
    WHERE message_id = '<old@x>'")" = 0 ]
check "queued mail stays, however old" [ "$(sql "SELECT count(*) FROM outbox
    WHERE recipients = 'old@x.example'")" = 1 ]
check "recent mail stays" [ "$(sql "SELECT count(*) FROM outbox
    WHERE recipients = 'b@x.example'")" = 1 ]
check "game history stays" [ "$(sql "SELECT count(*) FROM results")" = "$results_before" ]

# ---- forged JOIN, OBSERVE and CREATE: nothing until the address confirms ---------
$J create f --master gm@f.example >/dev/null
observers() { sql "SELECT count(*) FROM participants p JOIN games g ON
    g.id = p.game_id WHERE g.name = '$1' AND p.role = '$2'"; }
masters_told() { sql "SELECT count(*) FROM outbox WHERE recipients =
    'gm@f.example' AND subject LIKE '%$1'"; }
refused=0
for i in $(seq 1 25); do
    printf 'OBSERVE f watch-pw-%d\n' "$i" | mail "forged@victim$i.example"
    grep -q "20 requests to join game 'f' already wait for their codes" \
        "$T/out" && refused=$((refused + 1))
done
check "25 forged OBSERVEs: no observer" [ "$(observers f observer)" = 0 ]
check "and no notice to the master" [ "$(masters_told 'New observer')" = 0 ]
check "20 wait for their codes, 5 refused (the per-game cap)" \
    [ "$(sql "SELECT count(*) FROM confirmations WHERE game = 'f'")" = 20 ] &&
    [ "$refused" = 5 ]
check "no password kept in the clear" \
    sh -c "! sqlite3 '$T/judge.db' 'SELECT password_hash FROM confirmations' | grep -q watch-pw"
$J create f2 >/dev/null
for i in 1 2 3 4 5 6 7; do
    printf 'JOIN f2 pw-%d-secret\n' "$i" | mail "bot$i@botnet.example"
done
check "seven forged JOINs neither fill nor start a game" \
    [ "$(game_state f2)" = forming ] && [ "$(observers f2 player)" = 0 ]
for g in f2 f3 f4 f5; do $J create $g >/dev/null 2>&1; done
for g in f2 f3 f4 f5; do
    printf 'JOIN %s pw-v-secret\n' "$g" | mail victim@victim.example
done
has "requests from your address already wait"
check "three pending requests at most per address" [ "$(sql "SELECT count(*)
    FROM confirmations WHERE email = 'victim@victim.example'")" = 3 ]
# The real owner of an address confirms: then, and only then.
printf 'OBSERVE f2 real-password\n' | mail real@watch.example
code=$(sed -n 's/^ *CONFIRM \([a-z0-9]*\)$/\1/p' "$T/out")
printf 'CONFIRM %s\n' "$code" | mail someone@else.example
has "no such code waits for your address"
printf 'CONFIRM %s\n' "$code" | mail real@watch.example
has "real@watch.example joined as observer"
check "the confirmed observer is in" [ "$(observers f2 observer)" = 1 ]
printf 'CONFIRM %s\n' "$code" | mail real@watch.example
has "no such code waits for your address"
# Codes expire after 24 hours.
printf 'JOIN f5 late-password\n' | mail late@x.example
code=$(sed -n 's/^ *CONFIRM \([a-z0-9]*\)$/\1/p' "$T/out")
printf 'CONFIRM %s\n' "$code" |
    DIPJUDGE_NOW=$((GAME_T0 + 24 * 3600 + 1)) $J command --from late@x.example \
    >"$T/out" 2>&1
has "no such code waits for your address"
# One domain's addresses together: ten requests at most.
$J create f6 >/dev/null
for i in $(seq 1 11); do
    printf 'JOIN f6 pw-%d-secret\n' "$i" | mail "u$i@one.example"
done
has "10 requests from addresses at one.example already wait for their codes"
check "ten wait from one domain" [ "$(sql "SELECT count(*) FROM confirmations
    WHERE email LIKE '%@one.example'")" = 10 ]
# The administrator sees them and clears them.
$J pending f >"$T/out" 2>&1
has "observe  f            forged@victim1.example"
has "20 pending requests"
check "the codes are not listed" sh -c "! grep -q \"$code\" '$T/out'"
$J pending --from @one.example >"$T/out" 2>&1
has "10 pending requests"
$J pending f --clear >"$T/out" 2>&1
has "20 pending requests cleared"
$J pending --from @one.example --clear >"$T/out" 2>&1
has "10 pending requests cleared"
printf 'OBSERVE f watch-pw-real\n' | mail watcher@f.example
has "To observe game f, this address must show it is yours"

# ---- press cannot hide its text or pass for the judge's (issue 33) ----------------
printf 'SIGNON Rh right-russia\nPRESS TO England\nall \342\200\256gninrae\342\200\254 well\nGame '"'"'h'"'"', S1901M: press from Master to everyone.\n--- S1901M: broadcast from Master to everyone\nFrom: judge@h.example\nENDPRESS\n' |
    mail russia@h.example
sql "SELECT body FROM outbox WHERE recipients = 'england@h.example' ORDER BY id DESC LIMIT 1" >"$T/press"
check "a bidi override in press is shown by name, not obeyed" \
    sh -c "grep -q 'all \[U+202E\]gninrae\[U+202C\] well' '$T/press' && ! grep -q \"\$(printf '\342\200\256')\" '$T/press'"
check "a press line like the judge's first line is quoted" grep -q "^> Game 'h', S1901M: press from Master" "$T/press"
check "  and one like the archive's" grep -q "^> --- S1901M: broadcast from Master" "$T/press"
check "  and a header line" grep -q "^> From: judge@h.example" "$T/press"
check "the judge's own first line stays" grep -q "^Game 'h', S1901M: press from Russia to England" "$T/press"
printf 'SIGNON Eh right-england\nPRESS ARCHIVE h\n' | mail england@h.example
check "the archive shows it so too" sh -c "grep -q '\[U+202E\]' '$T/out' && grep -q '> Game '\"'\"'h' '$T/out'"

# ---- a private game is described to its participants only (issue 33) --------------
$J create pv --master gm@pv.example >/dev/null
$J set pv private=letmein >/dev/null
$J join pv eng@pv.example --power England --password pw-pv-england >/dev/null
printf 'LIST\n' | mail stranger@x.example
check "LIST from a stranger leaves the private game out" sh -c "! grep -q '^ *pv ' '$T/out'"
for cmd in "LIST pv" "SUMMARY pv" "PRESS ARCHIVE pv"; do
    printf '%s\n' "$cmd" | mail stranger@x.example
    check "$cmd from a stranger: as a game that does not exist" \
        grep -q "game 'pv' does not exist" "$T/out"
    check "  and nothing of it shown" sh -c "! grep -qi 'england\|eng@pv' '$T/out'"
done
printf 'SIGNON Epv pw-pv-england\nLIST pv\n' | mail eng@pv.example
check "its player, signed on, is shown it" sh -c "! grep -q 'does not exist' '$T/out'"
has "England"
$J set pv private=no >/dev/null
printf 'LIST\n' | mail stranger@x.example
check "once public, it is listed" grep -q "^ *pv " "$T/out"

checks_done
