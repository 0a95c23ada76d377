#!/usr/bin/env bash
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
#     and per address, and expire.
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
has "refused: no such game or power, or a wrong password"
printf 'SIGNON Fh right-france\nA par-bur\n' | mail france@h.example
has "Signed on as France"
has "A PAR - BUR"
check "seven forged failures told the master once" [ "$(notices)" = 1 ]

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
printf 'SIGNON Gh right-germany\nA mun-ruh\n' | mail germany@h.example
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
# 1,900 LIST lines (about 12 KB of mail, no sign-on needed) would make a
# reply of some 3 MB: the reply stops at its budget (1 MiB by default).
for i in $(seq 1 1900); do echo "LIST h"; done >"$T/many"
$J command --from amplifier@x.example --queue-reply <"$T/many" >"$T/out" 2>&1
size=$(wc -c <"$T/out")
check "the reply stays within 1 MiB ($size bytes)" [ "$size" -le 1100000 ]
has "commands were not run: this reply reached its size budget of 1024 KB"
check "the queued reply too" [ "$(sql "SELECT max(length(body)) FROM outbox
    WHERE recipients = 'amplifier@x.example'")" -le 1100000 ]
# A smaller budget from judge.conf; one command's own output is cut too.
printf 'limits: { max_reply_size = 16384; };\n' >"$T/small.conf"
$J --config "$T/small.conf" command --from amplifier@x.example \
    <"$T/many" >"$T/out" 2>&1
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
    printf 'OBSERVE f watch-%d\n' "$i" | mail "forged$i@victim.example"
    grep -q "too many requests wait for confirmation" "$T/out" &&
        refused=$((refused + 1))
done
check "25 forged OBSERVEs: no observer" [ "$(observers f observer)" = 0 ]
check "and no notice to the master" [ "$(masters_told 'New observer')" = 0 ]
check "20 wait for their codes, 5 refused (the per-game cap)" \
    [ "$(sql "SELECT count(*) FROM confirmations WHERE game = 'f'")" = 20 ] &&
    [ "$refused" = 5 ]
check "no password kept in the clear" \
    sh -c "! sqlite3 '$T/judge.db' 'SELECT password_hash FROM confirmations' | grep -q watch-"
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
printf 'OBSERVE f2 real-pw\n' | mail real@watch.example
code=$(sed -n 's/^ *CONFIRM \([a-z0-9]*\)$/\1/p' "$T/out")
printf 'CONFIRM %s\n' "$code" | mail someone@else.example
has "no such code waits for your address"
printf 'CONFIRM %s\n' "$code" | mail real@watch.example
has "real@watch.example joined as observer"
check "the confirmed observer is in" [ "$(observers f2 observer)" = 1 ]
printf 'CONFIRM %s\n' "$code" | mail real@watch.example
has "no such code waits for your address"
# Codes expire after 48 hours.
printf 'JOIN f5 late-pw\n' | mail late@x.example
code=$(sed -n 's/^ *CONFIRM \([a-z0-9]*\)$/\1/p' "$T/out")
printf 'CONFIRM %s\n' "$code" |
    DIPJUDGE_NOW=$((GAME_T0 + 49 * 3600)) $J command --from late@x.example \
    >"$T/out" 2>&1
has "no such code waits for your address"

checks_done
