#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# auth.sh DIR — give the mail system of tests/mailserver/start.sh DIR
# (start.sh runs this when DJ_MS_AUTH=1) what checks who sent a mail:
# a DNS on loopback serving the test domains' DKIM keys, DMARC and SPF
# records (dnsmasq), OpenDKIM and OpenDMARC milters configured from
# contrib/dkim/ (the judge's documented setup, paths and names replaced),
# and two more Postfix listeners:
#
#   MS_SUBMIT_PORT  "the sender's outgoing server": the signing OpenDKIM
#                   (contrib's opendkim.conf as is: mail from loopback is
#                   internal, so it is signed) signs mail From: the judge's
#                   domain (dipjudge.test, selector judge) and the players'
#                   (players.test, selector sel), then relays it to
#   MS_MX_PORT      "the judge's MX", mx.dipjudge.test: incoming
#                   Authentication-Results fields stripped (contrib's
#                   authres_strip), the verifying OpenDKIM (the same file,
#                   with no host internal) and OpenDMARC (contrib's, with
#                   no host ignored) stamp theirs with authserv-id
#                   mx.dipjudge.test, then delivery into the Maildirs.
#   MS_MX_RAW_PORT  the same MX without the strip (a misconfigured one).
#
# Domains (all p=reject): dipjudge.test (the judge's), players.test
# (signed players: alice, bob), and nodmarc.test (no DMARC record, no
# key: unknown).  SPF names 192.0.2.25 only, so the loopback sends here
# pass DMARC only through DKIM (OpenDMARC's own SPF check is off: it
# passes all mail from loopback).  Mail reaches the MX from loopback
# addresses other than 127.0.0.1 (which the milters' defaults would
# treat as the judge's own): 127.0.0.25 from the senders' server; the
# tests send forged mail from 127.0.0.66.
#
# The milters run in a mount namespace of their own whose /etc/resolv.conf
# names the loopback DNS (OpenDMARC uses the system resolver; OpenDKIM is
# also given Nameservers).  The DNS listens on port 53 of an address of
# 127.53.0.0/16 nothing else uses.  Pid files under DIR/auth: stop.sh
# stops them.  Appends to DIR/env:
#   MS_AUTH (1: up; 0: a program is missing, MS_AUTH_WHY says which)
#   MS_SUBMIT_PORT MS_MX_PORT MS_MX_RAW_PORT MS_AUTHSERV_ID MS_DNS
#
set -euo pipefail

DIR=$(cd "$1" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
# shellcheck source=/dev/null
. "$DIR/env"
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH
AUTH=$DIR/auth
AUTHSERV=mx.dipjudge.test

die()
{
    echo "mailserver auth: $*" >&2
    for log in "$DIR"/log/dnsmasq.log "$DIR"/log/postfix.log; do
        [[ -f $log ]] && { echo "--- $log" >&2; tail -n 20 "$log" >&2; }
    done
    exit 1
}

missing=""
for prog in dnsmasq opendkim opendkim-genkey opendmarc unshare; do
    command -v "$prog" >/dev/null 2>&1 || missing="$missing $prog"
done
if [[ -n $missing ]]; then
    printf 'MS_AUTH=0\nMS_AUTH_WHY="not installed:%s (tests/install-deps.sh)"\n' \
        "$missing" >>"$DIR/env"
    echo "mailserver auth: not installed:$missing" >&2
    exit 0
fi

rm -rf "$AUTH"
mkdir -p "$AUTH/keys" "$AUTH/opendkim" "$AUTH/opendmarc"
chmod 0755 "$AUTH"

# ---- ports and the DNS's address -------------------------------------------
port_free()
{
    ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null &&
        ! ss -Htan "sport = :$1" 2>/dev/null | grep -q .
}
pick()
{
    local p i
    for ((i = 0; i < 200; i++)); do
        p=$((10000 + (RANDOM * 32768 + RANDOM) % 20000))
        case " $PICKED " in *" $p "*) continue ;; esac
        if port_free "$p"; then
            PICKED="$PICKED $p"
            echo "$p"
            return 0
        fi
    done
    return 1
}
PICKED=" $MS_SMTP_PORT $MS_IMAP_PORT $MS_POP3_PORT $MS_IMAPS_PORT "
SUBMIT_PORT=$(pick) && MX_PORT=$(pick) && MX_RAW_PORT=$(pick) &&
    SIGN_PORT=$(pick) && VERIFY_PORT=$(pick) && DMARC_PORT=$(pick) ||
    die "no free port"
DNS=""
for ((i = 0; i < 50; i++)); do
    a=127.53.$((RANDOM % 250 + 1)).$((RANDOM % 250 + 1))
    if ! ss -Hlnu "src = $a" 2>/dev/null | grep -q . &&
        ! ss -Hlnu "sport = :53" 2>/dev/null | grep -qw "$a"; then
        DNS=$a
        break
    fi
done
[[ -n $DNS ]] || die "no free loopback address for the DNS"

# ---- keys and records ---------------------------------------------------------
# txt_of FILE: the record text of an opendkim-genkey .txt file (its quoted
# parts joined).
txt_of()
{
    grep -o '"[^"]*"' "$1" | tr -d '"\n'
}
DNSARGS=()
for pair in dipjudge.test:judge players.test:sel; do
    d=${pair%%:*} s=${pair##*:}
    mkdir -p "$AUTH/keys/$d"
    opendkim-genkey -b 1024 -d "$d" -s "$s" -D "$AUTH/keys/$d" ||
        die "opendkim-genkey failed for $d"
    chmod 0600 "$AUTH/keys/$d/$s.private"
    DNSARGS+=("--txt-record=$s._domainkey.$d,$(txt_of "$AUTH/keys/$d/$s.txt")")
    DNSARGS+=("--txt-record=_dmarc.$d,v=DMARC1; p=reject; adkim=r; aspf=r")
    DNSARGS+=("--txt-record=$d,v=spf1 ip4:192.0.2.25 -all")
done
DNSARGS+=("--txt-record=nodmarc.test,v=spf1 ip4:192.0.2.26 -all")

dnsmasq --conf-file=/dev/null --no-resolv --no-hosts --no-poll \
    --listen-address="$DNS" --bind-interfaces --port=53 --local=/test/ \
    --pid-file="$AUTH/dnsmasq.pid" --user=root \
    --log-facility="$DIR/log/dnsmasq.log" --log-queries \
    "${DNSARGS[@]}" || die "dnsmasq did not start"
printf 'nameserver %s\noptions timeout:1 attempts:2\n' "$DNS" >"$AUTH/resolv.conf"
chmod 0644 "$AUTH/resolv.conf"

# ---- the milters, from contrib/dkim -----------------------------------------
# Every file of contrib/dkim with the judge's names replaced by the test's.
for f in opendkim.conf KeyTable SigningTable TrustedHosts opendmarc.conf \
    ignore.hosts authres_strip; do
    sed -e "s|/etc/opendkim/keys/example.org|$AUTH/keys/dipjudge.test|g" \
        -e "s|/etc/opendkim/|$AUTH/opendkim/|g" \
        -e "s|/etc/opendmarc/|$AUTH/opendmarc/|g" \
        -e "s|mx\.example\.org|$AUTHSERV|g" \
        -e "s|example\.org|dipjudge.test|g" \
        -e '/^UserID/d' \
        "$SRC/contrib/dkim/$f" >"$AUTH/$f"
done
mv "$AUTH/KeyTable" "$AUTH/SigningTable" "$AUTH/TrustedHosts" "$AUTH/opendkim/"
mv "$AUTH/ignore.hosts" "$AUTH/opendmarc/"
# the players' outgoing server signs for them too
echo "sel._domainkey.players.test players.test:sel:$AUTH/keys/players.test/sel.private" \
    >>"$AUTH/opendkim/KeyTable"
echo "*@players.test sel._domainkey.players.test" >>"$AUTH/opendkim/SigningTable"

# milter_conf NAME BASE PORT PIDFILE [SETTING...]: BASE with its socket
# and pid file set, and each "Name value" SETTING in place of BASE's own.
milter_conf()
{
    local name=$1 base=$2 port=$3 pid=$4 setting
    shift 4
    sed -e "s|^Socket .*|Socket inet:$port@127.0.0.1|" \
        -e "s|^PidFile .*|PidFile $pid|" \
        -e "s|^Syslog .*|Syslog no|" "$base" >"$AUTH/$name"
    for setting in "$@"; do
        sed -i "/^${setting%% *}[[:space:]]/d" "$AUTH/$name"
        echo "$setting" >>"$AUTH/$name"
    done
}
echo 192.0.2.1 >"$AUTH/none-internal"
# Debian's OpenDKIM resolves with libunbound, which never asks a server on
# loopback unless told so, and answers for test. itself (RFC 6761); and the test's folders may lie under /tmp,
# which RequireSafeKeys finds unsafe (anyone may write there).
cat >"$AUTH/unbound.conf" <<EOF
server:
    do-not-query-localhost: no
    local-zone: "test." nodefault
forward-zone:
    name: "."
    forward-addr: $DNS
EOF
DKIM_EXTRA=("ResolverConfiguration $AUTH/unbound.conf" "Nameservers $DNS"
    "RequireSafeKeys false")
milter_conf opendkim-sign.conf "$AUTH/opendkim.conf" "$SIGN_PORT" \
    "$AUTH/opendkim-sign.pid" "${DKIM_EXTRA[@]}"
milter_conf opendkim-verify.conf "$AUTH/opendkim.conf" "$VERIFY_PORT" \
    "$AUTH/opendkim-verify.pid" "${DKIM_EXTRA[@]}" \
    "InternalHosts $AUTH/none-internal"
# OpenDMARC's own SPF check (libspf2) passes all mail from loopback, where
# every test mail comes from: SPF would make forged mail pass DMARC.
milter_conf opendmarc.conf.run "$AUTH/opendmarc.conf" "$DMARC_PORT" \
    "$AUTH/opendmarc.pid" "SPFSelfValidate false" "SPFIgnoreResults true" \
    "IgnoreHosts $AUTH/none-internal"

# in_namespace CMD...: CMD with the loopback DNS as the system resolver.
in_namespace()
{
    unshare -m --propagation private sh -c \
        'mount --bind "$0" /etc/resolv.conf && exec "$@"' \
        "$AUTH/resolv.conf" "$@"
}
in_namespace opendkim -x "$AUTH/opendkim-sign.conf" \
    >>"$DIR/log/opendkim.log" 2>&1 || die "opendkim (signing) did not start"
in_namespace opendkim -x "$AUTH/opendkim-verify.conf" \
    >>"$DIR/log/opendkim.log" 2>&1 || die "opendkim (verifying) did not start"
in_namespace opendmarc -c "$AUTH/opendmarc.conf.run" \
    >>"$DIR/log/opendmarc.log" 2>&1 || die "opendmarc did not start"

# ---- Postfix: the players' mailboxes and the two servers -------------------
PFETC=$MS_POSTFIX_CONFIG
MAILUID=$(id -u nobody)
MAILGID=$(stat -c %g "$DIR/mail")
for a in alice@players.test bob@players.test carol@nodmarc.test; do
    mkdir -p "$DIR/mail/players/${a%@*}/Maildir/"{cur,new,tmp}
    echo "$a players/${a%@*}/Maildir/" >>"$PFETC/vmailbox"
done
chown -R "$MAILUID:$MAILGID" "$DIR/mail/players"
postconf -c "$PFETC" -e \
    "virtual_mailbox_domains = $MS_DOMAIN players.test nodmarc.test" \
    "milter_default_action = tempfail"
cat >>"$PFETC/master.cf" <<EOF
# tests/mailserver/auth.sh: the senders' server, the judge's MX (and one
# that does not strip Authentication-Results), the SMTP client between.
127.0.0.1:$SUBMIT_PORT inet n - n - - smtpd
  -o smtpd_milters=inet:127.0.0.1:$SIGN_PORT
  -o content_filter=smtp:[127.0.0.1]:$MX_PORT
127.0.0.1:$MX_PORT inet n - n - - smtpd
  -o myhostname=$AUTHSERV
  -o smtpd_milters=inet:127.0.0.1:$VERIFY_PORT,inet:127.0.0.1:$DMARC_PORT
  -o cleanup_service_name=cleanup-mx
127.0.0.1:$MX_RAW_PORT inet n - n - - smtpd
  -o myhostname=$AUTHSERV
  -o smtpd_milters=inet:127.0.0.1:$VERIFY_PORT,inet:127.0.0.1:$DMARC_PORT
cleanup-mx unix n - n - 0 cleanup
  -o header_checks=regexp:$AUTH/authres_strip
smtp      unix  -       -       n       -       -       smtp
  -o smtp_bind_address=127.0.0.25
EOF
postfix -c "$PFETC" reload >>"$DIR/log/postfix-start.log" 2>&1 ||
    die "postfix reload failed"

cat >>"$DIR/env" <<EOF
MS_AUTH=1
MS_SUBMIT_PORT=$SUBMIT_PORT
MS_MX_PORT=$MX_PORT
MS_MX_RAW_PORT=$MX_RAW_PORT
MS_AUTHSERV_ID=$AUTHSERV
MS_DNS=$DNS
EOF

# Wait (bounded) for the three listeners and the milters.
for port in "$SUBMIT_PORT" "$MX_PORT" "$MX_RAW_PORT" "$SIGN_PORT" \
    "$VERIFY_PORT" "$DMARC_PORT"; do
    for ((i = 0; i < 100; i++)); do
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
        sleep 0.1
    done
    ((i < 100)) || die "nothing listens on port $port"
done
echo "mailserver auth: up (dns $DNS, submit $SUBMIT_PORT, mx $MX_PORT)"
