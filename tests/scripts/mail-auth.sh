#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# mail-auth.sh BUILDDIR SRCDIR — who sent a mail, as real mail servers say
# it: tests/mailserver/start.sh with DJ_MS_AUTH=1 (tests/mailserver/auth.sh)
# runs a DNS on loopback with the test domains' DKIM keys and DMARC
# records (p=reject), OpenDKIM and OpenDMARC milters configured from
# contrib/dkim/, a signing "senders' server" and the judge's MX
# (mx.dipjudge.test, which strips incoming Authentication-Results, and a
# second one that does not).  The judge trusts authserv_ids =
# [ "mx.dipjudge.test" ] and reads its Maildir.  For the same player
# (alice@players.test, England in game authg):
#
#   a  signed by the senders' server: authenticated, dmarc=pass;
#   b  unsigned, straight to the MX: forged, dmarc=fail;
#   c  with a forged "Authentication-Results: mx.dipjudge.test;
#      dmarc=pass" field: the MX strips it (and the mail is forged);
#   d  the same through the MX that does not strip: the forged field is
#      delivered below the MX's Received: field, the judge does not read
#      it: forged;
#   e  a signed mail of a's replayed with other orders: dkim=fail,
#      dmarc=fail: forged;
# and from carol@nodmarc.test (no DMARC record, no key):
#   f  unsigned: unknown (dmarc=none);
#   g  with a forged dmarc=pass field through the MX that does not strip:
#      still unknown (the forged field is below the Received: field).
# Every mail the judge got carries the MX's Authentication-Results
# (authserv-id mx.dipjudge.test); judgectl maillog and the mail log show
# each class and verdict.  Then contrib/dkim's signing setup: the judge's
# replies, sent through the senders' server, arrive at alice's mailbox
# signed d=dipjudge.test and verified dkim=pass and dmarc=pass by the MX.
#
# Ends with "N passed, N failed".  Skips (0 failed) without root,
# Postfix, Dovecot, OpenDKIM, OpenDMARC or dnsmasq — except under
# CI=true, where that is a failure.  About 15 seconds.
#
set -uo pipefail
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
export PATH=$PATH:/usr/sbin:/sbin
MS=$S/tests/mailserver

skip_without_mail_servers
missing=""
for prog in opendkim opendkim-genkey opendmarc dnsmasq python3; do
    command -v "$prog" >/dev/null 2>&1 || missing="$missing $prog"
done
if [[ -n $missing ]]; then
    if [[ ${CI:-} == true ]]; then
        echo "mail-auth: cannot run: not installed:$missing (tests/install-deps.sh)"
        echo "0 passed, 1 failed"
        exit 1
    fi
    echo "mail-auth: SKIPPED: not installed:$missing (tests/install-deps.sh)"
    echo "0 passed, 0 failed"
    exit 0
fi

DIR=$(mktemp -d /tmp/dj-auth-XXXXXX)
chmod 0711 "$DIR"
cleanup()
{
    "$MS/stop.sh" "$DIR/ms"
    if [[ ${DJ_AUTH_KEEP:-} == 1 ]]; then echo "kept $DIR"; else rm -rf "$DIR"; fi
}
T0=$SECONDS
DJ_MS_AUTH=1 "$MS/start.sh" "$DIR/ms" >"$DIR/start.log" 2>&1 || {
    cat "$DIR/start.log"
    echo "0 passed, 1 failed"
    exit 1
}
# shellcheck disable=SC1091
. "$DIR/ms/env"
if [[ ${MS_AUTH:-0} != 1 ]]; then
    echo "mail-auth: the milters did not start: ${MS_AUTH_WHY:-?}"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "servers up after $((SECONDS - T0))s (submit $MS_SUBMIT_PORT, mx" \
     "$MS_MX_PORT, dns $MS_DNS)"
INBOX=$DIR/ms/mail/judge/Maildir
ALICE=$DIR/ms/mail/players/alice/Maildir

mkdir -p "$T/j"
CONF=$T/j/judge.conf
cat >"$CONF" <<EOF
database = "$T/j/judge.db";
maps_dir = "$S/maps";
judge_address = "judge@dipjudge.test";
inbound: { type = "maildir"; path = "$INBOX"; };
outbound: { type = "smtp"; host = "127.0.0.1"; port = $MS_SUBMIT_PORT;
            tls = "none"; timeout = "20s"; };
authentication: { authserv_ids = [ "$MS_AUTHSERV_ID" ]; };
EOF
J="$JUDGECTL --config $CONF"
unset DIPJUDGE_CONF DIPJUDGE_DB DIPJUDGE_NOW
$J create authg --master master@dipjudge.test >/dev/null &&
    $J join authg alice@players.test --power England --password apw-secret \
        >/dev/null || bad "the game was not made"

"$JUDGED" --config "$CONF" config >"$T/out" 2>&1
has "authentication = {"
has "authserv_ids = [ \"mx.dipjudge.test\" ];"

# send PORT SOURCE ID FROM BODY [EXTRA-HEADER]: one mail to the judge by
# SMTP from the loopback address SOURCE (python3's smtplib).
send()
{
    python3 - "$@" <<'EOF' || bad "sending $3 failed"
import email.utils, smtplib, sys
port, source, mid, frm, body = sys.argv[1:6]
extra = sys.argv[6] + "\r\n" if len(sys.argv) > 6 else ""
msg = (extra + "From: %s\r\nTo: judge@dipjudge.test\r\nSubject: orders\r\n"
       "Date: %s\r\nMessage-ID: <%s@test>\r\n\r\n%s\r\n"
       % (frm, email.utils.formatdate(), mid, body.replace("\n", "\r\n")))
import time
# A 4xx is "try again later": a sending MTA tries again, and so does this
# (a milter busy on a loaded machine answers 451 4.7.1 now and then).
for attempt in range(10):
    try:
        s = smtplib.SMTP("127.0.0.1", int(port), source_address=(source, 0))
        s.sendmail(frm.split("<")[-1].rstrip(">"), ["judge@dipjudge.test"], msg)
        s.quit()
        break
    except smtplib.SMTPResponseException as e:
        if not 400 <= e.smtp_code < 500 or attempt == 9:
            raise
        print("send: %d %s, again in 1 s" % (e.smtp_code, e.smtp_error),
              file=sys.stderr)
        time.sleep(1)
EOF
}

# wait_files DIR N: until DIR/new holds N files (at most 20 s).
wait_files()
{
    local i
    for ((i = 0; i < 200; i++)); do
        (($(find "$1/new" -type f | wc -l) >= $2)) && return 0
        sleep 0.1
    done
    return 1
}

# file_of ID: the delivered mail with Message-ID <ID@test>.
file_of() { grep -l "^Message-ID: <$1@test>" "$INBOX"/new/* 2>/dev/null | head -1; }

# (only a DMARC result: OpenDKIM itself drops arriving fields with its
# authserv-id that carry DKIM results; OpenDMARC drops nothing)
FORGED_AR="Authentication-Results: $MS_AUTHSERV_ID; dmarc=pass header.from=players.test"
BODY=$'SIGNON Eauthg apw-secret\nF Lon - Nth'
send "$MS_SUBMIT_PORT" 127.0.0.1 auth-a alice@players.test "$BODY"
send "$MS_MX_PORT" 127.0.0.66 auth-b alice@players.test "$BODY"
send "$MS_MX_PORT" 127.0.0.66 auth-c alice@players.test "$BODY" "$FORGED_AR"
send "$MS_MX_RAW_PORT" 127.0.0.66 auth-d alice@players.test "$BODY" "$FORGED_AR"
send "$MS_MX_PORT" 127.0.0.66 auth-f carol@nodmarc.test "HELP"
send "$MS_MX_RAW_PORT" 127.0.0.66 auth-g carol@nodmarc.test "HELP" \
    "Authentication-Results: $MS_AUTHSERV_ID; dmarc=pass header.from=nodmarc.test"
if wait_files "$INBOX" 6; then ok; else
    bad "six mails delivered to the judge"
    # what the milters and Postfix said, for the reader of a failed run
    for log in opendkim opendmarc postfix maillog dnsmasq; do
        [[ -f $DIR/ms/log/$log.log ]] || continue
        echo "---- last lines of the test's $log.log ----"
        tail -n 15 "$DIR/ms/log/$log.log" | sed 's/^/    /'
    done
fi

# e: a's signed mail replayed with other orders (the trace fields the MX
# added taken off, the signature kept).
A=$(file_of auth-a)
if [[ -n $A ]]; then
    python3 - "$A" "$MS_MX_PORT" <<'EOF' || bad "replaying a failed"
import smtplib, sys
raw = open(sys.argv[1], "rb").read().decode()
head, body = raw.split("\n\n", 1)
fields = []
for l in head.split("\n"):
    if l[:1] in (" ", "\t") and fields:
        fields[-1].append(l)
    else:
        fields.append([l])
# everything down to the MX's own Received: field is the MX's
mx = next(i for i, f in enumerate(fields) if f[0].startswith("Received:")
          and "by mx.dipjudge.test" in " ".join(f))
keep = []
for f in fields[mx + 1:]:
    if f[0].lower().startswith("message-id:"):
        f = ["Message-ID: <auth-e@test>"]
    keep.extend(f)
msg = "\r\n".join(keep) + "\r\n\r\n" + body.replace("F Lon - Nth", "F Lon - Eng").replace("\n", "\r\n")
s = smtplib.SMTP("127.0.0.1", int(sys.argv[2]), source_address=("127.0.0.66", 0))
s.sendmail("alice@players.test", ["judge@dipjudge.test"], msg)
s.quit()
EOF
else
    bad "a was not delivered"
fi
check "the replayed mail delivered" wait_files "$INBOX" 7

# ---- what the MX stamped -----------------------------------------------------
for id in a b c d e f g; do
    f=$(file_of "auth-$id")
    if [[ -z $f ]]; then
        bad "auth-$id not delivered"
        continue
    fi
    sed '/^$/q' "$f" >"$T/out"
    has "Authentication-Results: $MS_AUTHSERV_ID;"
done
sed '/^$/q' "$(file_of auth-a)" >"$T/out"
has "dmarc=pass (p=reject dis=none) header.from=players.test"
has "dkim=pass"
sed '/^$/q' "$(file_of auth-c)" >"$T/out"
lacks "$FORGED_AR"
has "dmarc=fail (p=reject"
sed '/^$/q' "$(file_of auth-d)" >"$T/out"
# the sender's field, delivered below the MX's Received: field
has "$FORGED_AR"
expect "d: the forged field below the MX's Received: field" \
    "$(grep -n -e '^Received: ' -e "^$FORGED_AR" "$T/out" | head -1 | cut -d: -f2)" \
    "Received"
sed '/^$/q' "$(file_of auth-e)" >"$T/out"
has "dkim=fail"

# ---- what the judge recorded ---------------------------------------------------
"$JUDGED" --config "$CONF" once --no-tick >"$T/once.log" 2>&1 ||
    bad "judged once: $(tail -3 "$T/once.log")"
cp "$T/once.log" "$T/out"
has "(authenticated: dmarc=pass header.from=players.test)"
auth_of()
{
    sqlite3 "$T/j/judge.db" \
        "SELECT auth || ' ' || auth_verdict FROM maillog WHERE message_id LIKE '$1@test %'"
}
expect "a: signed" "$(auth_of auth-a)" \
    "authenticated dmarc=pass header.from=players.test"
expect "b: unsigned" "$(auth_of auth-b)" "forged dmarc=fail header.from=players.test"
expect "c: forged field, stripped" "$(auth_of auth-c)" \
    "forged dmarc=fail header.from=players.test"
expect "d: forged field, not stripped" "$(auth_of auth-d)" \
    "forged dmarc=fail header.from=players.test"
expect "e: replayed" "$(auth_of auth-e)" "forged dmarc=fail header.from=players.test"
expect "f: no DMARC record" "$(auth_of auth-f)" \
    "unknown no DMARC pass or aligned DKIM pass"
expect "g: no DMARC record, forged field below" "$(auth_of auth-g)" \
    "unknown no DMARC pass or aligned DKIM pass"
$J maillog >"$T/out" 2>&1
expect "judgectl maillog: 7 mails" "$(wc -l <"$T/out")" 7 || cat "$T/out"
expect "judgectl maillog: one authenticated" \
    "$(grep -c $'\talice@players.test\t[^\t]*\tauthenticated\tdmarc=pass header.from=players.test\t' "$T/out")" 1
expect "judgectl maillog: four forged" \
    "$(grep -c $'\talice@players.test\t[^\t]*\tforged\tdmarc=fail header.from=players.test\t' "$T/out")" 4
expect "judgectl maillog: two unknown" \
    "$(grep -c $'\tcarol@nodmarc.test\t[^\t]*\tunknown\t' "$T/out")" 2
$J maillog authg --last 2 >"$T/out" 2>&1
expect "judgectl maillog GAME --last 2" "$(wc -l <"$T/out")" 2

# ---- the judge's own mail: signed, and passing at the MX (contrib/dkim) ------
check "the judge's replies reached alice" wait_files "$ALICE" 1
R=$(find "$ALICE/new" -type f | head -1)
if [[ -n $R ]]; then
    sed '/^$/q' "$R" >"$T/out"
    has "From: "
    has "judge@dipjudge.test"
    has "d=dipjudge.test;"
    has "s=judge;"
    has "Authentication-Results: $MS_AUTHSERV_ID; dmarc=pass (p=reject dis=none) header.from=dipjudge.test"
    has "dkim=pass (1024-bit key; unprotected) header.d=dipjudge.test"
fi
echo "done after $((SECONDS - T0))s"
checks_done
