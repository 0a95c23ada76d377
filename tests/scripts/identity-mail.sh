#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# identity-mail.sh BUILDDIR SRCDIR — who sent a mail (issue 32), through
# `judged deliver` on a real database, with the test clock:
#   - reply addresses: every mail of a game to a participant carries
#     Reply-To: judge+TOKEN@...; answering it with orders and no SIGNON
#     signs the player on (read from To:, or the envelope recipient of
#     judged deliver -r); a SIGNON line in it still wins; a wrong, old
#     (new password, SET TOKEN NEW) or made-up token does nothing, draws
#     no reply and is counted; tokens are stored only hashed;
#   - the three classes (judge.conf's authentication group, trusting
#     mx.test's Authentication-Results, written here by hand): 24
#     simulated hours of forged wrong sign-ons every minute change nothing
#     for the authenticated player and draw no reply; 25 forged JOINs from
#     25 domains draw no reply and keep nothing, and the real JOIN gets
#     its code; unknown mail filling the game's requests does not hold up
#     authenticated mail, and the master is told; an Authentication-Results
#     field written by the sender below the trusted one is never believed.
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"
cd "$T" || exit 2
export DIPJUDGE_MAPDIR=$S/maps DIPJUDGE_NOW=$GAME_T0
unset DIPJUDGE_DB
printf 'state_dir = ".";\ndatabase = "./judge.db";\njudge_address = "judge@dip.test";\n' >judge.conf
export DIPJUDGE_CONF=$T/judge.conf
J=$JUDGECTL
JD="$JUDGED -q"

$J create demo --master gm@x.example >/dev/null
$J join demo gm@x.example --master --password master-pw1 >/dev/null
i=0
for p in $POWERS; do
    $J join demo "p$i@x.example" --power "$p" --password "pw-$i-secret" >/dev/null
    i=$((i + 1))
done
check "demo started" [ "$(game_phase demo)" = S1901M ]
$JD deliver </dev/null # sends the start notices, with reply addresses
check "the reply key was made, 0600" [ "$(stat -c %a judge.db.reply-key)" = 600 ]

# reply_of ADDRESS: the token in the Reply-To of the latest mail to ADDRESS
reply_of() {
    local f
    f=$(grep -l "^To: $1" mail/out/new/* 2>/dev/null | xargs ls -t 2>/dev/null | head -1)
    [ -n "$f" ] && sed -n 's/^Reply-To: judge+\([a-z2-7]*\)@dip\.test.*/\1/p' "$f" | head -1
}
mails_to() { grep -l "^To: $1" mail/out/new/* 2>/dev/null | wc -l; }
n=0
# msg FROM TO BODY [HEADER...]: deliver one message; its log in $T/err
msg() {
    n=$((n + 1))
    local from=$1 to=$2 body=$3
    shift 3
    {
        # AR: what the trusted host mx.test found, on top, above its
        # Received: field, as Postfix's milters write it
        if [ -n "${AR:-}" ]; then
            echo "Authentication-Results: mx.test; $AR"
            echo "Received: from sender.example by mx.test with ESMTP id $n"
        fi
        echo "From: $from"
        echo "To: $to"
        echo "Subject: Re: dipjudge:demo - S1901M"
        echo "Message-ID: <m$n@x.example>"
        for h in "$@"; do echo "$h"; done
        echo
        printf '%b' "$body"
    } >"$T/msg-$n.eml"
    $JD deliver ${RCPT:+-r "$RCPT"} <"$T/msg-$n.eml" 2>"$T/err" ||
        bad "deliver: $(cat "$T/err")"
}
outcome() { sql "SELECT outcome FROM maillog WHERE message_id LIKE '%m$n@x.example%'"; }

tf=$(reply_of p2@x.example)
check "the start notice to France has a reply address" [ ${#tf} = 24 ]
tg=$(reply_of p3@x.example)
check "each participant has a token of their own" [ -n "$tg" ] && [ "$tf" != "$tg" ]
tm=$(reply_of gm@x.example)
check "the master has one too" [ ${#tm} = 24 ]
check "no token in the database, only its hash" \
    sh -c "! sqlite3 judge.db .dump | grep -q '$tf'"

# ---- a reply by pipe, no SIGNON ----------------------------------------------------
before=$(mails_to p2@x.example)
msg p2@x.example "judge+$tf@dip.test" 'F bre-mao\n\n> earlier text of the judge\n'
$J orders demo France >"$T/out"
has "F BRE - MAO"
check "answered" [ "$(mails_to p2@x.example)" = $((before + 1)) ]
expect "signed on by" "$(sql "SELECT signed_on_by FROM maillog WHERE message_id LIKE '%m$n@%'")" "reply token"
f=$(ls -t mail/out/new/* | head -1)
grep -q "^Reply-To: judge+$tf@dip.test" "$f" && ok || bad "the reply has no reply address"
grep -q "Orders of France" "$f" && ok || bad "the reply shows no orders"

# the envelope recipient (Postfix's pipe: judged deliver -r ${recipient})
RCPT="judge+$tf@dip.test" msg p2@x.example "judge@dip.test" 'A par-bur\n'
$J orders demo France >"$T/out"
has "A PAR - BUR"

# ---- a SIGNON line in a token mail still wins -------------------------------------
msg p2@x.example "judge+$tf@dip.test" 'SIGNON Gdemo pw-3-secret\nA mun-ruh\n'
$J orders demo Germany >"$T/out"
has "A MUN - RUH"
$J orders demo France >"$T/out"
lacks "RUH"

# ---- a made-up token: nothing, no reply, counted ------------------------------------
before=$(ls mail/out/new | wc -l)
msg p2@x.example "judge+aaaaaaaaaaaaaaaaaaaaaaaa@dip.test" 'F bre-pic\n'
check "no reply to a made-up token" [ "$(ls mail/out/new | wc -l)" = "$before" ]
expect "outcome" "$(outcome)" "ignored: unknown reply address"
expect "counted" "$(sql "SELECT count(*) FROM signon_failures WHERE target = 'reply-token'")" 1
$J orders demo France >"$T/out"
lacks "PIC"

# ---- another power's token gives that power's orders, never France's ------------
msg p2@x.example "judge+$tg@dip.test" 'F bre-pic\n'
$J orders demo France >"$T/out"
lacks "PIC"

# ---- an old token: a new password, SET TOKEN NEW -----------------------------------
msg p2@x.example "judge+$tf@dip.test" 'SET PASSWORD new-france-pw\n'
tf2=$(reply_of p2@x.example)
check "a new password, a new reply address" [ ${#tf2} = 24 ] && [ "$tf2" != "$tf" ]
before=$(ls mail/out/new | wc -l)
msg p2@x.example "judge+$tf@dip.test" 'F bre-pic\n'
expect "the old token after a new password" "$(outcome)" "ignored: unknown reply address"
check "no reply to an old token" [ "$(ls mail/out/new | wc -l)" = "$before" ]
msg p2@x.example "judge+$tf2@dip.test" 'SET TOKEN NEW\n'
tf3=$(reply_of p2@x.example)
check "SET TOKEN NEW: another reply address" [ ${#tf3} = 24 ] && [ "$tf3" != "$tf2" ]
msg p2@x.example "judge+$tf2@dip.test" 'F bre-pic\n'
expect "the token before SET TOKEN NEW" "$(outcome)" "ignored: unknown reply address"
msg p2@x.example "judge+$tf3@dip.test" 'F bre-pic\n'
$J orders demo France >"$T/out"
has "F BRE - PIC"

# ---- a reply to press is press back to its sender ------------------------------------
tg=$(reply_of p3@x.example)
msg p3@x.example "judge+$tg@dip.test" 'PRESS TO France\nMeet in Burgundy?\nENDPRESS\n'
f=$(grep -l "^To: p2@x.example" mail/out/new/* | xargs grep -l "Meet in Burgundy" | head -1)
check "France got the press" [ -n "$f" ]
pr=$(sed -n 's/^Reply-To: judge+\([a-z2-7]*-p[0-9]*\)@dip\.test.*/\1/p' "$f")
check "its reply address names the press message" [ -n "$pr" ] && [ "${pr%-p*}" = "$tf3" ]
grep -q "Answer this mail to write back to its" "$f" && ok || bad "no footer on the press"
msg p2@x.example "judge+$pr@dip.test" 'Only if you stay out of Belgium.\n\n> Meet in Burgundy?\n'
f=$(grep -l "^To: p3@x.example" mail/out/new/* | xargs grep -l "stay out of Belgium" | head -1)
check "Germany got the answer as press" [ -n "$f" ]
grep -q "press from France to Germany" "$f" && ok || bad "the answer: $(cat "$f")"
# The master reads all press (master_press = all, the default): the
# master's copy goes to the master; no other player gets it.
grep -l "stay out of Belgium" mail/out/new/* | xargs grep -h "^To:" >"$T/to"
expect "nobody else got it" "$(sort -u "$T/to" | tr "\n" " ")" "To: gm@x.example To: p3@x.example "
$J orders demo France >"$T/out"
lacks "Belgium"
# only those it went to may answer it: Italy naming the message in its own
# reply address learns nothing and sends nothing
ti=$(reply_of p4@x.example)
msg p4@x.example "judge+$ti-p${pr#*-p}@dip.test" 'Count me in.\n'
expect "Italy's answer to press it never got" \
    "$(grep -l "Count me in" mail/out/new/* | xargs grep -l "^To: p3@x.example" | wc -l)" 0
grep -q "cannot be answered this way" "$(ls -t mail/out/new/* | head -1)" && ok ||
    bad "Italy was not told"

# ---- another game's token acts on that game only -----------------------------------
$J create other --master gm@x.example >/dev/null
$J join other gm@x.example --master --password master-pw2 >/dev/null
i=0
for p in $POWERS; do
    $J join other "q$i@y.example" --power "$p" --password "qw-$i-secret" >/dev/null
    i=$((i + 1))
done
$JD deliver </dev/null
to=$(reply_of q2@y.example)
msg q2@y.example "judge+$to@dip.test" 'F bre-gas\n'
$J orders other France >"$T/out"
has "F BRE - GAS"
$J orders demo France >"$T/out"
lacks "GAS"
msg p2@x.example "judge+$to@dip.test" 'F bre-gas\n'
$J orders demo France >"$T/out"
lacks "GAS"

# ---- the results mail: answered with orders, no SIGNON -----------------------------
$J process other >/dev/null
$JD deliver </dev/null
f=$(grep -l "^To: q2@y.example" mail/out/new/* | xargs grep -l "^Subject: .*Results" | head -1)
check "France's results mail has its reply address" grep -q "^Reply-To: judge+$to@dip.test" "$f"
msg q2@y.example "judge+$to@dip.test" 'F gas h\n\n> the results of S1901M\n'
$J orders other France >"$T/out"
has "F GAS H"

# ---- the three classes: authentication configured ----------------------------------
printf 'authentication: { authserv_ids = [ "mx.test" ]; };\n' >>judge.conf
FAIL_X='dmarc=fail (p=reject) header.from=x.example'
PASS_X='dmarc=pass header.from=x.example'
replies_to() { sql "SELECT count(*) FROM outbox WHERE recipients = '$1' AND kind IN ('reply', 'signon-failed', 'refusal')"; }

# a forged mail with the right password still works (forwarding breaks
# DMARC), and is answered: the reply goes to the player's own address
AR=$FAIL_X msg p2@x.example judge@dip.test 'SIGNON Fdemo new-france-pw\nF bre-mao\n'
$J orders demo France >"$T/out"
has "F BRE - MAO"
expect "its class" "$(sql "SELECT auth FROM maillog WHERE message_id LIKE '%m$n@%'")" forged

# 24 simulated hours of a forged wrong sign-on every minute from France's
# own address, and the real player's authenticated mail every hour
before=$(replies_to p2@x.example)
t=$((GAME_T0 + 3600))
refused=0 answered=0
for hour in $(seq 0 23); do
    for minute in $(seq 0 59); do
        DIPJUDGE_NOW=$((t + hour * 3600 + minute * 60)) AR=$FAIL_X \
            msg p2@x.example judge@dip.test "SIGNON Fdemo guess-$hour-$minute\n"
    done
    DIPJUDGE_NOW=$((t + hour * 3600 + 1830)) AR=$PASS_X \
        msg p2@x.example judge@dip.test 'SIGNON Fdemo new-france-pw\nA par-bur\n'
    f=$(ls -t mail/out/new/* | head -1)
    if grep -q "Signed on as France" "$f"; then
        answered=$((answered + 1))
    else
        refused=$((refused + 1))
    fi
done
expect "every authenticated sign-on accepted at once" "$answered/$refused" "24/0"
expect "forged mail drew no reply in 24 hours" "$(replies_to p2@x.example)" $((before + 24))
fs=$(sql "SELECT count(*) FROM signon_failures WHERE class = 'forged' AND target = 'france'")
check "the forged guesses counted, and slowed down ($fs)" [ "$fs" -ge 5 ] && [ "$fs" -le 300 ]
sql "SELECT body FROM outbox WHERE kind = 'notice' AND recipients = 'gm@x.example' AND subject LIKE '%Failed sign-ons' ORDER BY id DESC LIMIT 1" >"$T/out"
has "by forged mail"
has "trying passwords of France"

# an Authentication-Results field the sender wrote below the trusted
# host's is never believed
n=$((n + 1))
{
    echo "Received: from sender.example by mx.test with ESMTP id $n"
    echo "Received: from laptop by sender.example with ESMTP id x$n"
    echo "Authentication-Results: mx.test; $PASS_X"
    echo "From: p2@x.example"
    echo "To: judge@dip.test"
    echo "Subject: forged inside"
    echo "Message-ID: <m$n@x.example>"
    echo
    echo "SIGNON Fdemo wrong-again"
} >"$T/msg-$n.eml"
$JD deliver <"$T/msg-$n.eml" 2>"$T/err"
expect "a sender's own Authentication-Results" "$(sql "SELECT auth FROM maillog WHERE message_id LIKE '%m$n@%'")" unknown

# 25 forged JOINs from 25 domains: nothing kept, nothing answered; the
# real JOIN gets its code at once
$J create forming --master gm@x.example >/dev/null
$J join forming gm@x.example --master --password master-pw3 >/dev/null
for d in $(seq 1 25); do
    AR="dmarc=fail header.from=d$d.example" msg "someone@d$d.example" judge@dip.test 'JOIN forming joinpass1\n'
done
expect "forged JOINs kept" "$(sql "SELECT count(*) FROM confirmations WHERE game = 'forming'")" 0
expect "forged JOINs answered" "$(sql "SELECT count(*) FROM outbox WHERE recipients LIKE 'someone@d%'")" 0
AR="dmarc=pass header.from=real.example" msg ann@real.example judge@dip.test 'JOIN forming annpass12\n'
f=$(ls -t mail/out/new/* | head -1)
grep -q "CONFIRM" "$f" && ok || bad "the real JOIN got no code: $(head -c 300 "$f")"
# 25 JOINs of unknown mail fill only the unknown class's cap
for d in $(seq 1 25); do
    msg "other@u$d.example" judge@dip.test 'JOIN forming joinpass1\n'
done
expect "unknown JOINs kept, to the cap" "$(sql "SELECT count(*) FROM confirmations WHERE game = 'forming' AND class = 'unknown'")" 20
sql "SELECT body FROM outbox WHERE kind = 'notice' AND subject LIKE '%Requests waiting'" >"$T/out"
has "20 requests by unknown mail"
AR="dmarc=pass header.from=real.example" msg bob@real.example judge@dip.test 'JOIN forming bobpass12\n'
f=$(ls -t mail/out/new/* | head -1)
grep -q "CONFIRM" "$f" && ok || bad "the second real JOIN got no code: $(head -c 300 "$f")"

checks_done
