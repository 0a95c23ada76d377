#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# mail-servers.sh BUILDDIR SRCDIR — the mail transports against real
# servers: tests/mailserver/start.sh starts Dovecot (IMAP, POP3) and a
# private Postfix instance (SMTP, sendmail) on loopback in a temporary
# directory, and BUILDDIR/tests/mailserver/djmail (a thin command-line
# front to src/mail) sends and fetches through them:
#   - SMTP: composed mail delivered; a header-injection attempt in the
#     subject adds no header and no recipient; an unknown recipient is
#     refused alone while the others get the mail; AUTH PLAIN with a good
#     and a bad password; lines starting with "." survive dot-stuffing;
#   - the sendmail program (Postfix's, pointed at the private instance);
#   - IMAP: list, read, a message not confirmed is listed again after a
#     reconnect, confirm (\Seen) removes it, expunge mode deletes it, IDLE
#     wakes a waiting reader as soon as mail arrives, a size limit
#     truncates a read;
#   - POP3: the same list/read/confirm cycle (DELE applied at QUIT);
#   - the restricted reader judged uses (fetch_child.c): IMAP and POP3
#     through it list, read and confirm as directly, and, on Linux, the
#     reader can neither open a file nor make a socket once restricted;
#   - STARTTLS on SMTP, IMAP and POP3 (self-signed certificate);
#   - clear failures: bad password (permanent), nothing listening
#     (temporary).
# The servers are started twice on the same directory (the second start
# must clean up the first) and stopped at the end, whatever happens.
#
# Ends with "N passed, N failed".  When Postfix or Dovecot is missing, or
# this is not root, it says so and skips (0 failed) — except under CI
# (CI=true), where the servers must run and a skip counts as a failure.
#
set -uo pipefail
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
DJMAIL=$B/tests/mailserver/djmail
MS=$S/tests/mailserver
export PATH=$PATH:/usr/sbin:/sbin
T0=$SECONDS

skip_without_mail_servers
if [[ ! -x $DJMAIL ]]; then
    echo "mail-servers: $DJMAIL not built"
    echo "0 passed, 1 failed"
    exit 1
fi

DIR=$(mktemp -d /tmp/dj-mailserver-XXXXXX)
cleanup() { "$MS/stop.sh" "$DIR"; }

# ---- start, twice: the second start must take over the same directory --
if ! "$MS/start.sh" "$DIR" >"$DIR.start1.log" 2>&1; then
    cat "$DIR.start1.log"
    rm -f "$DIR.start1.log"
    echo "mail-servers: the servers did not start"
    echo "0 passed, 1 failed"
    exit 1
fi
old_env=$(cat "$DIR/env")
check "second start on the same directory" "$MS/start.sh" "$DIR"
rm -f "$DIR.start1.log"
[[ -f $DIR/env ]] || { echo "0 passed, 1 failed"; exit 1; }
# shellcheck source=/dev/null
. "$DIR/env"
check "second start picked fresh ports" test "$old_env" != "$(cat "$DIR/env")"
D=$MS_DOMAIN
SMTP=(--smtp "127.0.0.1:$MS_SMTP_PORT")

imap() { local u=$1; shift; "$DJMAIL" "$@" --imap "127.0.0.1:$MS_IMAP_PORT" --user "$u" --password "pw-$u"; }
pop3() { local u=$1; shift; "$DJMAIL" "$@" --pop3 "127.0.0.1:$MS_POP3_PORT" --user "$u" --password "pw-$u"; }

# count_ids USER PROTO: messages the reader lists.
count_ids()
{
    "$2" "$1" list 2>/dev/null | grep -c .
}

# wait_mail USER N: wait (at most 15 s) until USER's inbox lists N messages.
wait_mail()
{
    local i
    for ((i = 0; i < 75; i++)); do
        [[ $(count_ids "$1" imap) -ge $2 ]] && return 0
        sleep 0.2
    done
    echo "no mail for $1 after 15 s; postfix log:"
    tail -n 15 "$DIR/log/postfix.log"
    return 1
}

first_id() { "$2" "$1" list 2>/dev/null | head -n 1 | cut -d' ' -f1; }

# ---- SMTP: a composed message, with an injection attempt -------------------
out=$("$DJMAIL" send "${SMTP[@]}" --from "judge@$D" --to "p1@$D" \
    --name "Player One" --subject $'S1901M Results\r\nBcc: p3@'"$D" \
    --body $'Your orders:\nA PAR-BUR\n')
check "SMTP send accepted" test $? -eq 0
check "SMTP per-recipient ok" grep -q "p1@$D ok" <<<"$out"
check "delivered to p1" wait_mail p1 1
id=$(first_id p1 imap)
msg=$(imap p1 read "$id" | tr -d '\r')
check "IMAP read returns the message" grep -q "^A PAR-BUR$" <<<"$msg"
check "subject arrives on one line" \
    grep -q "^Subject: S1901M Results Bcc: p3@$D$" <<<"$msg"
check "no injected Bcc header" bash -c '! grep -qi "^Bcc:" <<<"$1"' _ "$msg"
check "X-Loop and Auto-Submitted present" \
    bash -c 'grep -q "^X-Loop: judge@" <<<"$1" && grep -q "^Auto-Submitted: auto-generated" <<<"$1"' _ "$msg"
check "p3 got nothing" test "$(count_ids p3 imap)" -eq 0

# ---- IMAP: unconfirmed mail comes back; confirmed mail does not ----------
check "unconfirmed message listed again" test "$(first_id p1 imap)" = "$id"
check "IMAP read did not mark it (PEEK)" test "$(count_ids p1 imap)" -eq 1
check "IMAP confirm" imap p1 confirm "$id"
check "confirmed message not listed" test "$(count_ids p1 imap)" -eq 0
check "confirmed message flagged seen on disk" \
    bash -c 'ls "$1"/mail/p1/Maildir/cur/ | grep -q ":2,.*S"' _ "$DIR"
imap p1 confirm "$id" >/dev/null 2>&1
check "confirm twice is harmless" test $? -eq 0
imap p1 read "99999999.1" >/dev/null 2>&1
check "stale UIDVALIDITY id is gone" test $? -eq 3

# ---- IMAP quarantine: flagged, seen, never deleted ---------------------------
"$DJMAIL" send "${SMTP[@]}" --from "judge@$D" --to "p1@$D" --subject poison \
    --body y >/dev/null
check "delivered to p1 again" wait_mail p1 1
id=$(first_id p1 imap)
check "IMAP quarantine" imap p1 quarantine "$id"
check "a message moved aside is not listed again" test "$(count_ids p1 imap)" -eq 0
check "it is kept, flagged \$DipjudgeQuarantine and seen" \
    bash -c 'grep -l "^Subject: poison" "$1"/mail/p1/Maildir/cur/* | grep -q ":2,.*S" &&
        grep -rq "DipjudgeQuarantine" "$1"/mail/p1/Maildir/dovecot-keywords' _ "$DIR"

# ---- IMAP expunge mode ---------------------------------------------------
"$DJMAIL" send "${SMTP[@]}" --from "judge@$D" --to "p4@$D" --subject x \
    --body y >/dev/null
check "delivered to p4" wait_mail p4 1
id=$(first_id p4 imap)
check "IMAP confirm with expunge" imap p4 confirm "$id" --expunge
check "expunged message gone from the mailbox" \
    test "$(find "$DIR/mail/p4/Maildir/cur" "$DIR/mail/p4/Maildir/new" -type f | wc -l)" -eq 0

# ---- IMAP IDLE -----------------------------------------------------------
check "wait without mail times out" test "$(imap p5 wait --ms 300)" = timeout
t0=$(date +%s%N)
imap p5 wait --ms 20000 >"$DIR/idle.out" 2>&1 &
idle_pid=$!
sleep 0.5
"$DJMAIL" send "${SMTP[@]}" --from "judge@$D" --to "p5@$D" --subject idle \
    --body "wake up" >/dev/null
wait "$idle_pid"
t1=$(date +%s%N)
check "IDLE woken by new mail" grep -q woken "$DIR/idle.out"
check "IDLE woke within 10 s" test $(((t1 - t0) / 1000000)) -lt 10000

# ---- POP3 ----------------------------------------------------------------
"$DJMAIL" send "${SMTP[@]}" --from "judge@$D" --to "p2@$D" \
    --subject "pop me" --body "via POP3" >/dev/null
check "delivered to p2" wait_mail p2 1
id=$(first_id p2 pop3)
check "POP3 lists the message" test -n "$id"
msg=$(pop3 p2 read "$id" | tr -d '\r')
check "POP3 read returns the message" grep -q "^via POP3$" <<<"$msg"
check "POP3 unconfirmed message listed again" test "$(first_id p2 pop3)" = "$id"
check "POP3 confirm (DELE, QUIT)" pop3 p2 confirm "$id"
check "POP3 confirmed message gone" test "$(count_ids p2 pop3)" -eq 0
pop3 p2 confirm "$id" >/dev/null 2>&1
check "POP3 confirm of a deleted message is gone" test $? -eq 3

# ---- the restricted reader (fetch_child.c), as judged reads -------------
# p5 holds IDLE's message; through the child process that closes what it
# inherited, wipes its password after the login and, on Linux, installs
# its seccomp filter before it reads the mailbox.
id=$(first_id p5 imap)
check "restricted IMAP reader lists as the direct one" \
    test "$(imap p5 list --isolate | head -n 1 | cut -d' ' -f1)" = "$id"
msg=$(imap p5 read "$id" --isolate | tr -d '\r')
check "restricted IMAP reader reads the message" grep -q "^wake up$" <<<"$msg"
imap p5 list --isolate --probe >/dev/null 2>"$DIR/probe"
check "restricted IMAP reader still lists with the probe" test $? -eq 0
if [[ $(uname -s) == Linux ]]; then
    check "restricted IMAP reader cannot open a file or make a socket" \
        grep -q "probe: open: Operation not permitted; socket: Operation not permitted" \
        "$DIR/probe"
fi
"$DJMAIL" send "${SMTP[@]}" --from "judge@$D" --to "p2@$D" \
    --subject "pop me again" --body "restricted POP3" >/dev/null
check "delivered to p2 again" wait_mail p2 1
id=$(first_id p2 pop3)
msg=$(pop3 p2 read "$id" --isolate --probe 2>"$DIR/probe" | tr -d '\r')
check "restricted POP3 reader reads the message" \
    grep -q "^restricted POP3$" <<<"$msg"
if [[ $(uname -s) == Linux ]]; then
    check "restricted POP3 reader cannot open a file or make a socket" \
        grep -q "probe: open: Operation not permitted; socket: Operation not permitted" \
        "$DIR/probe"
fi
check "restricted POP3 confirm (DELE, QUIT)" pop3 p2 confirm "$id" --isolate
check "restricted POP3 confirmed message gone" test "$(count_ids p2 pop3)" -eq 0
"$DJMAIL" list --isolate --imap "127.0.0.1:$MS_IMAP_PORT" --user p5 \
    --password nope >/dev/null 2>"$DIR/err"
check "restricted reader: a bad password is still a permanent failure" \
    test $? -eq 77

# ---- SMTP: refused recipients, AUTH, dot-stuffing, size limits -----------
out=$("$DJMAIL" send "${SMTP[@]}" --from "judge@$D" \
    --to "nobody@$D,p6@$D" --subject partial --body b 2>"$DIR/err")
check "partial delivery is ok" test $? -eq 0
check "unknown recipient refused permanently" \
    grep -q "nobody@$D permanent failure" <<<"$out"
check "other recipient accepted" grep -q "p6@$D ok" <<<"$out"
"$DJMAIL" send "${SMTP[@]}" --from "judge@$D" --to "nobody@$D" \
    --subject x --body y >/dev/null 2>"$DIR/err"
check "all recipients refused: permanent failure" test $? -eq 77
check "the refusal says why" grep -qi "refused" "$DIR/err"
check "p6 got the partial mail" wait_mail p6 1

check "three messages over one SMTP connection" quiet "$DJMAIL" send \
    "${SMTP[@]}" --from "judge@$D" --to "master@$D" --subject again \
    --body b --repeat 3
check "all three delivered" wait_mail master 3
check "...in one SMTP session" grep -q " mail=3 rcpt=3 data=3 " \
    "$DIR/log/postfix.log"
check "SMTP AUTH PLAIN accepted" quiet "$DJMAIL" send "${SMTP[@]}" \
    --user judge --password pw-judge --from "judge@$D" --to "p6@$D" \
    --subject auth --body b
"$DJMAIL" send "${SMTP[@]}" --user judge --password wrong \
    --from "judge@$D" --to "p6@$D" --subject auth --body b \
    >/dev/null 2>"$DIR/err"
check "SMTP AUTH with a bad password: permanent failure" test $? -eq 77
check "the failure names authentication" grep -qi "authentication" "$DIR/err"

printf 'Subject: dots\nFrom: judge@%s\n\n.\n..two\n.leading\nend\n' "$D" |
    "$DJMAIL" rawsend "${SMTP[@]}" --from "judge@$D" --to "judge@$D" >/dev/null
check "raw message delivered" wait_mail judge 1
id=$(first_id judge imap)
body=$(imap judge read "$id" | tr -d '\r' | sed '1,/^$/d')
check "dot lines survive SMTP" test "$body" = $'.\n..two\n.leading\nend'
imap judge confirm "$id"

{
    printf 'Subject: big\nFrom: judge@%s\n\n' "$D"
    head -c 300000 /dev/zero | tr '\0' 'x' | fold -w 70
} | "$DJMAIL" rawsend "${SMTP[@]}" --from "judge@$D" --to "judge@$D" >/dev/null
check "big message delivered" wait_mail judge 1
id=$(first_id judge imap)
n=$(imap judge read "$id" --max 1000 2>"$DIR/err" | wc -c)
check "IMAP read with a limit stops at it" test "$n" -eq 1000
check "and says truncated" grep -q truncated "$DIR/err"
pid=$(pop3 judge list | tail -n 1 | cut -d' ' -f1) # POP3 has no \Seen
pop3 judge read "$pid" --max 1000 2>"$DIR/err" | tr -d '\r' >"$DIR/top"
check "POP3 over the limit gives the header" grep -q "^Subject: big$" "$DIR/top"
check "POP3 over the limit says truncated" grep -q truncated "$DIR/err"

# ---- the sendmail program (Postfix's, on the private instance) ----------
MAIL_CONFIG=$MS_POSTFIX_CONFIG "$DJMAIL" send --sendmail /usr/sbin/sendmail \
    --from "judge@$D" --to "p7@$D" --subject "by sendmail" \
    --body "through postdrop" >/dev/null 2>"$DIR/err"
check "sendmail accepted the message" test $? -eq 0
check "delivered to p7 through sendmail" wait_mail p7 1
msg=$(imap p7 read "$(first_id p7 imap)" | tr -d '\r')
check "sendmail message intact" grep -q "^through postdrop$" <<<"$msg"

# ---- TLS, and the server's certificate verified (issue 9.6) --------------
# The servers' certificate is signed by the test CA for "localhost" (not
# for 127.0.0.1).  "localhost" with the CA trusted is the right server;
# 127.0.0.1 is the wrong host name; trusting only another CA (or the
# system's CAs, which never signed it) makes it untrusted.  Refusals are
# permanent (77), said in a sentence, and happen before any password or
# message goes out: the servers' logs show no login or delivery for them.
LH_SMTP=(--smtp "localhost:$MS_SMTP_PORT")
limap() { local u=$1; shift; "$DJMAIL" "$@" --imap "localhost:$MS_IMAP_PORT" --user "$u" --password "pw-$u"; }
lpop3() { local u=$1; shift; "$DJMAIL" "$@" --pop3 "localhost:$MS_POP3_PORT" --user "$u" --password "pw-$u"; }
# refused WHAT WORDS COMMAND...: exit 77 with WORDS in the reason
refused()
{
    local what=$1 words=$2
    shift 2
    "$@" >/dev/null 2>"$DIR/err"
    local st=$?
    check "$what: refused as permanent" test "$st" -eq 77
    check "$what: says why" grep -q "$words" "$DIR/err"
}
if [[ ${MS_TLS:-0} == 1 ]]; then
    CA=(--tls-ca "$MS_TLS_CA")
    check "SMTP with STARTTLS, certificate verified" quiet "$DJMAIL" send \
        "${LH_SMTP[@]}" --tls starttls "${CA[@]}" \
        --user judge --password pw-judge --from "judge@$D" --to "p3@$D" \
        --subject tls --body "over TLS"
    check "postfix saw a TLS session" \
        grep -q "TLS connection established from" "$DIR/log/postfix.log"
    check "delivered to p3 over TLS" wait_mail p3 1
    check "IMAP with STARTTLS, certificate verified" quiet \
        limap p3 list --tls starttls "${CA[@]}"
    check "POP3 with STLS, certificate verified" quiet \
        lpop3 p3 list --tls starttls "${CA[@]}"
    check "dovecot saw TLS logins" \
        test "$(grep -c "Login: user=<p3>.*TLS" "$DIR/log/dovecot.log")" -ge 2
    check "STARTTLS when offered (may), verified" quiet \
        limap p3 list --tls may "${CA[@]}"
    check "IMAP over TLS from the first byte, verified" quiet \
        "$DJMAIL" list --imap "localhost:$MS_IMAPS_PORT" --user p3 \
        --password pw-p3 --tls tls "${CA[@]}"

    logins_before=$(grep -c "Login: user=<p4>" "$DIR/log/dovecot.log")
    refused "IMAP, wrong host name" "another host name" \
        imap p4 list --tls starttls "${CA[@]}"
    refused "POP3, wrong host name" "another host name" \
        pop3 p4 list --tls starttls "${CA[@]}"
    refused "IMAP over TLS, wrong host name" "another host name" \
        "$DJMAIL" list --imap "127.0.0.1:$MS_IMAPS_PORT" --user p4 \
        --password pw-p4 --tls tls "${CA[@]}"
    refused "IMAP, certificate from an untrusted CA" "not trusted" \
        limap p4 list --tls starttls --tls-ca "$MS_TLS_OTHER_CA"
    refused "POP3, untrusted by the system's CAs" "not trusted" \
        lpop3 p4 list --tls starttls
    refused "IMAP, a CA file that is not one" "no usable CA" \
        limap p4 list --tls starttls --tls-ca /dev/null
    check "no password was sent to a refused server" test \
        "$(grep -c "Login: user=<p4>" "$DIR/log/dovecot.log")" -eq "$logins_before"
    n_p4=$(count_ids p4 imap)
    refused "SMTP, wrong host name" "another host name" \
        "$DJMAIL" send "${SMTP[@]}" --tls starttls "${CA[@]}" \
        --user judge --password pw-judge --from "judge@$D" --to "p4@$D" \
        --subject "wrong host" --body "must not go"
    refused "SMTP, untrusted certificate" "not trusted" \
        "$DJMAIL" send "${LH_SMTP[@]}" --tls starttls \
        --from "judge@$D" --to "p4@$D" --subject untrusted --body "must not go"
    sleep 1
    check "no message went to a refused SMTP server" \
        test "$(count_ids p4 imap)" -eq "$n_p4"
    check "tls_verify = false (--insecure) accepts the wrong name" quiet \
        imap p4 list --tls starttls --insecure

    # judged sending through an SMTP server it must not trust: the reply
    # stays queued, its attempts not spent, until the admin sets the right
    # host name; then it goes out.  Nothing is lost or given up.
    J=$DIR/judged-tls
    mkdir -p "$J/mail/in/new" "$J/mail/in/cur" "$J/mail/in/tmp"
    jconf() # HOST
    {
        cat >"$J/judge.conf" <<EOF
judge_address = "judge@$D";
admin_address = "master@$D";
outbound: { type = "smtp"; host = "$1"; port = $MS_SMTP_PORT;
            tls = "starttls"; tls_ca_file = "$MS_TLS_CA"; };
EOF
    }
    printf 'From: p6@%s\nTo: judge@%s\nSubject: help\nMessage-ID: <tls1@%s>\n\nHELP\n' \
        "$D" "$D" "$D" >"$J/mail/in/new/1700000001.M1P1.test"
    jd() { (cd "$J" && "$JUDGED" --config judge.conf --db "$J/judge.db" \
        --maps "$S/maps" once --no-tick) >>"$J/judged.log" 2>&1; }
    jsql() { sqlite3 "$J/judge.db" "$1"; }
    n_p6=$(count_ids p6 imap)
    jconf 127.0.0.1
    jd
    jd
    check "judged: the reply is kept queued by an untrusted server" \
        test "$(jsql "SELECT state || ' ' || attempts FROM outbox")" = "queued 0"
    check "judged: logs why" grep -q "certificate is for another host name" \
        "$J/judged.log"
    check "judged: as an error, at once (permanent, like IMAP and POP3)" \
        grep -q "error: outbound server unusable: .*another host name" \
        "$J/judged.log"
    check "judged: nothing reached p6" test "$(count_ids p6 imap)" -eq "$n_p6"
    jconf localhost
    jsql "UPDATE outbox SET next_attempt_at = 0"
    jd
    check "judged: sent once the host name is right" \
        test "$(jsql "SELECT state FROM outbox")" = sent
    check "judged: p6 got the reply" wait_mail p6 $((n_p6 + 1))
else
    echo "mail-servers: no openssl: STARTTLS not tested"
fi

# ---- clear failures ------------------------------------------------------
"$DJMAIL" list --imap "127.0.0.1:$MS_IMAP_PORT" --user p1 --password nope \
    >/dev/null 2>"$DIR/err"
check "IMAP bad password: permanent failure" test $? -eq 77
check "IMAP bad password reported as login" grep -qi "login" "$DIR/err"
"$DJMAIL" list --pop3 "127.0.0.1:$MS_POP3_PORT" --user p1 --password nope \
    >/dev/null 2>"$DIR/err"
check "POP3 bad password: permanent failure" test $? -eq 77
"$DJMAIL" list --imap 127.0.0.1:1 --user p1 --password pw-p1 \
    >/dev/null 2>"$DIR/err"
check "IMAP server unreachable: temporary failure" test $? -eq 75
check "unreachable reported as such" grep -q "cannot connect" "$DIR/err"

echo "mail-servers: done in $((SECONDS - T0)) s"
checks_done
