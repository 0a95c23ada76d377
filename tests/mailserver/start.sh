#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# start.sh DIR — start a real mail system on loopback for the tests:
# Dovecot (IMAP and POP3) and a Postfix instance (SMTP and the sendmail
# command), both with their own configuration, queue, logs and mailboxes
# under DIR, and nothing outside it.  tests/mailserver/stop.sh DIR undoes
# it all.  Installs nothing: tests/install-deps.sh installs postfix,
# dovecot-imapd and dovecot-pop3d.
#
# Must run as root (Postfix's daemons drop to the postfix user, Dovecot's
# to dovecot/dovenull; a private instance still needs root to start them).
#
# Mail domain: dipjudge.test.  Users (IMAP/POP3 login without the domain,
# password "pw-USER"): judge, p1 ... p7, master.  Postfix's virtual(8)
# delivers mail for USER@dipjudge.test straight into DIR/mail/USER/Maildir,
# which Dovecot serves; every mailbox belongs to uid/gid nobody, the one
# unprivileged identity both servers share (no users are created).
#
# Postfix accepts mail from loopback without AUTH, and also offers AUTH
# PLAIN/LOGIN (checked by Dovecot, same users and passwords) so the SMTP
# AUTH path can be tested; no relaying anywhere (default_transport=error).
#
# Ports are free high ports picked at start, so two runs (a gcc and a
# sanitizer build) can live side by side.  They are written to DIR/env,
# a shell fragment the tests source:
#   MS_DIR MS_DOMAIN MS_SMTP_PORT MS_IMAP_PORT MS_POP3_PORT
#   MS_POSTFIX_CONFIG (for sendmail: MAIL_CONFIG=$MS_POSTFIX_CONFIG)
#   MS_TLS (1: STARTTLS offered on all three, and IMAP over TLS from the
#   first byte on MS_IMAPS_PORT; 0: openssl missing, plain only)
#   MS_TLS_CA (the test CA that signed the servers' certificate, which
#   names "localhost" and mail.dipjudge.test but not 127.0.0.1, so
#   connecting to 127.0.0.1 is the wrong host name), MS_TLS_OTHER_CA (a CA
#   that signed nothing here: trusting only it, the servers are untrusted)
#
# DJ_MS_AUTH=1: also a DNS on loopback and OpenDKIM and OpenDMARC milters
# with two more SMTP listeners (tests/mailserver/auth.sh says what).
#
# Robust by construction: waits (bounded) until each port answers with its
# greeting, prints the servers' logs on failure, and starts from a clean
# slate when DIR holds an earlier run (which it stops first).
#
set -euo pipefail

if [[ $# -ne 1 ]]; then
    echo "usage: $0 DIR" >&2
    exit 2
fi
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1"
DIR=$(cd "$1" && pwd)

# A port is free when picked but may be taken before Postfix or Dovecot
# binds it (another suite's servers start at the same moment): then the
# whole start is tried again with fresh ports, up to three times.
if [[ -z ${DJ_MS_ATTEMPT:-} ]]; then
    for attempt in 1 2 3; do
        DJ_MS_ATTEMPT=$attempt "$0" "$DIR" && exit 0
        grep -qs "Address already in use" "$DIR"/log/*.log || exit 1
        echo "mailserver: a port was taken meanwhile; again (try $((attempt + 1)))" >&2
    done
    exit 1
fi
DOMAIN=dipjudge.test
USERS="judge p1 p2 p3 p4 p5 p6 p7 master"
MAILUID=$(id -u nobody)
MAILGID=$(getent group nogroup >/dev/null && echo nogroup || id -gn nobody)
MAILGID=$(getent group "$MAILGID" | cut -d: -f3)

die()
{
    echo "mailserver: $*" >&2
    for log in "$DIR"/log/*.log; do
        [[ -f $log ]] || continue
        echo "--- $log (last lines)" >&2
        tail -n 20 "$log" >&2
    done
    exit 1
}

[[ $(id -u) -eq 0 ]] || die "must run as root (Postfix and Dovecot start as root)"
for prog in dovecot postfix postconf; do
    command -v "$prog" >/dev/null 2>&1 ||
        [[ -x /usr/sbin/$prog ]] ||
        die "$prog is not installed (run tests/install-deps.sh)"
done
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH

# A leftover from an earlier run in the same DIR: stop it first.
if [[ -f $DIR/env ]]; then
    "$HERE/stop.sh" "$DIR" --keep-dir || true
fi

# port_busy PORT: something answers on 127.0.0.1:PORT.
port_busy()
{
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# pick_port: a port no socket uses, below the kernel's ephemeral range (the
# local ports of outgoing connections: a busy loopback, the mailserver fuzz
# target or another test's clients, would otherwise take the port between
# the pick and the server's bind) and away from the usual ones.
EPHEMERAL_LOW=$(awk '{ print $1 }' /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null)
case ${EPHEMERAL_LOW:-x} in *[!0-9]* | '') EPHEMERAL_LOW=32768 ;; esac
if ((EPHEMERAL_LOW > 15000)); then
    PORT_LOW=10000 PORT_SPAN=$((EPHEMERAL_LOW - 10000))
else
    PORT_LOW=20000 PORT_SPAN=40000
fi
pick_port()
{
    local p tries=0
    while ((tries++ < 200)); do
        p=$((PORT_LOW + (RANDOM * 32768 + RANDOM) % PORT_SPAN))
        case " ${PICKED:-} " in *" $p "*) continue ;; esac
        if ! port_busy "$p" && ! ss -Htan "sport = :$p" 2>/dev/null | grep -q .; then
            PICKED="${PICKED:-} $p"
            echo "$p"
            return 0
        fi
    done
    return 1
}

# wait_greeting PORT WHAT: wait (at most 15 s) until PORT sends a greeting.
wait_greeting()
{
    local i line
    for ((i = 0; i < 150; i++)); do
        if exec 3<>"/dev/tcp/127.0.0.1/$1" 2>/dev/null; then
            line=""
            read -r -t 2 line <&3 || true
            exec 3<&- 3>&-
            case $line in
            220* | "* OK"* | "+OK"*) return 0 ;;
            esac
        fi
        sleep 0.1
    done
    die "$2 on port $1 did not answer within 15 s"
}

PICKED=""
SMTP_PORT=$(pick_port) || die "no free port"
IMAP_PORT=$(pick_port) || die "no free port"
POP3_PORT=$(pick_port) || die "no free port"
IMAPS_PORT=$(pick_port) || die "no free port"

# Daemons running as postfix, dovecot, dovenull and nobody must be able to
# walk down into DIR: make the path searchable (not readable).
chmod 0711 "$DIR"
rm -rf "$DIR/dovecot" "$DIR/postfix" "$DIR/mail" "$DIR/log" "$DIR/tls"
mkdir -p "$DIR/log" "$DIR/mail" "$DIR/dovecot/run" "$DIR/dovecot/state" \
    "$DIR/postfix/etc" "$DIR/postfix/queue" "$DIR/postfix/data"
chmod 0755 "$DIR/log"
chown postfix "$DIR/postfix/data"

# ---- mailboxes -----------------------------------------------------------
passwd=$DIR/dovecot/users
vmailbox=$DIR/postfix/etc/vmailbox
: >"$passwd"
: >"$vmailbox"
for u in $USERS; do
    mkdir -p "$DIR/mail/$u/Maildir/"{cur,new,tmp}
    echo "$u:{PLAIN}pw-$u:$MAILUID:$MAILGID::$DIR/mail/$u" >>"$passwd"
    echo "$u@$DOMAIN $u/Maildir/" >>"$vmailbox"
done
chown -R "$MAILUID:$MAILGID" "$DIR/mail"
chmod 0755 "$DIR/mail"
chmod 0640 "$passwd"
chgrp dovecot "$passwd"

# ---- TLS: a test CA and a certificate it signed for the servers ---------
# The judge verifies certificates (src/mail/tls_check.c): the tests trust
# the test CA through tls_ca_file / djmail --tls-ca.
TLS=0
mkdir -p "$DIR/tls"
make_ca() # make_ca NAME: a self-signed CA, NAME.pem and NAME-key.pem
{
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
        -nodes -keyout "$DIR/tls/$1-key.pem" -out "$DIR/tls/$1.pem" \
        -days 2 -subj "/CN=dipjudge test $1" \
        -addext "basicConstraints=critical,CA:TRUE" \
        -addext "keyUsage=critical,keyCertSign,cRLSign"
}
make_cert() # the servers' key and certificate, signed by the test CA
{
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
        -keyout "$DIR/tls/key.pem" -out "$DIR/tls/req.pem" \
        -subj "/CN=mail.$DOMAIN" &&
        printf '%s\n' "subjectAltName=DNS:localhost,DNS:mail.$DOMAIN" \
            "basicConstraints=CA:FALSE" \
            "extendedKeyUsage=serverAuth" >"$DIR/tls/ext.cnf" &&
        openssl x509 -req -in "$DIR/tls/req.pem" -CA "$DIR/tls/ca.pem" \
            -CAkey "$DIR/tls/ca-key.pem" -CAcreateserial -days 2 \
            -extfile "$DIR/tls/ext.cnf" -out "$DIR/tls/cert.pem"
}
if command -v openssl >/dev/null 2>&1 &&
    { make_ca ca && make_ca other-ca && make_cert; } \
        >"$DIR/log/openssl.log" 2>&1; then
    TLS=1
    chmod 0644 "$DIR/tls/cert.pem" "$DIR/tls/ca.pem" "$DIR/tls/other-ca.pem"
    chmod 0600 "$DIR/tls/key.pem"
fi
IMAPS_LISTEN=0
[[ $TLS == 1 ]] && IMAPS_LISTEN=$IMAPS_PORT
if [[ $TLS == 1 ]]; then
    DOVECOT_SSL="ssl = yes
ssl_cert = <$DIR/tls/cert.pem
ssl_key = <$DIR/tls/key.pem"
    POSTFIX_TLS="smtpd_tls_security_level = may
smtpd_tls_cert_file = $DIR/tls/cert.pem
smtpd_tls_key_file = $DIR/tls/key.pem
smtpd_tls_loglevel = 1"
else
    DOVECOT_SSL="ssl = no"
    POSTFIX_TLS="smtpd_tls_security_level = none"
fi

# ---- Dovecot -------------------------------------------------------------
cat >"$DIR/dovecot/dovecot.conf" <<EOF
# Generated by tests/mailserver/start.sh: a private Dovecot for tests.
instance_name = dipjudge-test-$$
base_dir = $DIR/dovecot/run
state_dir = $DIR/dovecot/state
log_path = $DIR/log/dovecot.log
info_log_path = $DIR/log/dovecot.log
protocols = imap pop3
listen = 127.0.0.1
$DOVECOT_SSL
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_username_format = %Ln
mail_location = maildir:~/Maildir
first_valid_uid = $MAILUID
last_valid_uid = $MAILUID
first_valid_gid = $MAILGID
mail_privileged_group =
pop3_uidl_format = %08Xu%08Xv
login_trusted_networks = 127.0.0.0/8
shutdown_clients = yes
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%n $passwd
}
userdb {
  driver = passwd-file
  args = username_format=%n $passwd
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $IMAPS_LISTEN
  }
}
service pop3-login {
  inet_listener pop3 {
    address = 127.0.0.1
    port = $POP3_PORT
  }
  inet_listener pop3s {
    port = 0
  }
}
service anvil {
  chroot =
}
# Postfix asks Dovecot to check SMTP AUTH passwords (smtpd_sasl_type).
service auth {
  unix_listener auth-postfix { # in base_dir
    mode = 0666
  }
}
service imap-login {
  chroot =
}
service pop3-login {
  chroot =
}
protocol imap {
  imap_idle_notify_interval = 1 secs
}
EOF

# ---- Postfix -------------------------------------------------------------
PFETC=$DIR/postfix/etc
cat >"$PFETC/main.cf" <<EOF
# Generated by tests/mailserver/start.sh: a private Postfix instance.
compatibility_level = 3.6
config_directory = $PFETC
queue_directory = $DIR/postfix/queue
data_directory = $DIR/postfix/data
mail_owner = postfix
setgid_group = postdrop
myhostname = mail.$DOMAIN
mydomain = $DOMAIN
myorigin = $DOMAIN
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
relayhost =
smtpd_relay_restrictions = permit_mynetworks, permit_sasl_authenticated,
    reject_unauth_destination
smtpd_sasl_auth_enable = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = $DIR/dovecot/run/auth-postfix
smtpd_tls_auth_only = no
smtpd_recipient_restrictions = permit_mynetworks, reject_unauth_destination
# judge+TOKEN@ (a reply address, judged(8)) is judge@'s mailbox
recipient_delimiter = +
virtual_mailbox_domains = $DOMAIN
virtual_mailbox_base = $DIR/mail
virtual_mailbox_maps = texthash:$vmailbox
virtual_uid_maps = static:$MAILUID
virtual_gid_maps = static:$MAILGID
virtual_minimum_uid = 1
alias_maps =
alias_database =
local_recipient_maps =
biff = no
smtputf8_enable = no
maillog_file_prefixes = $DIR/log
maillog_file = $DIR/log/postfix.log
syslog_name = postfix-dipjudge-test
# Fail fast: nothing is ever relayed off this machine.
default_transport = error:no relaying from the test mail server
relay_transport = error:no relaying from the test mail server
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 2s
smtpd_banner = \$myhostname ESMTP dipjudge-test
smtpd_client_connection_rate_limit = 0
smtpd_error_sleep_time = 0
$POSTFIX_TLS
smtp_tls_security_level = none
EOF

# Every service runs unchrooted: a chroot would need copies of /etc files.
cat >"$PFETC/master.cf" <<EOF
# Generated by tests/mailserver/start.sh.
127.0.0.1:$SMTP_PORT inet n - n - - smtpd
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
virtual   unix  -       n       n       -       -       virtual
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
tlsmgr    unix  -       -       n       1000?   1       tlsmgr
EOF

cat >"$DIR/env" <<EOF
MS_DIR=$DIR
MS_DOMAIN=$DOMAIN
MS_SMTP_PORT=$SMTP_PORT
MS_IMAP_PORT=$IMAP_PORT
MS_POP3_PORT=$POP3_PORT
MS_POSTFIX_CONFIG=$PFETC
MS_TLS=$TLS
MS_IMAPS_PORT=$IMAPS_PORT
MS_TLS_CA=$DIR/tls/ca.pem
MS_TLS_OTHER_CA=$DIR/tls/other-ca.pem
EOF

# ---- start ---------------------------------------------------------------
dovecot -c "$DIR/dovecot/dovecot.conf" >"$DIR/log/dovecot-start.log" 2>&1 ||
    die "dovecot did not start: $(cat "$DIR/log/dovecot-start.log")"
# postfix check creates the queue directories with the right owners.
timeout 60 postfix -c "$PFETC" start >"$DIR/log/postfix-start.log" 2>&1 ||
    die "postfix did not start: $(tail -n 5 "$DIR/log/postfix-start.log")"

wait_greeting "$SMTP_PORT" "Postfix SMTP"
wait_greeting "$IMAP_PORT" "Dovecot IMAP"
wait_greeting "$POP3_PORT" "Dovecot POP3"
echo "mailserver: up in $DIR (smtp $SMTP_PORT, imap $IMAP_PORT, pop3 $POP3_PORT)"
if [[ ${DJ_MS_AUTH:-} == 1 ]]; then
    "$HERE/auth.sh" "$DIR" || die "the DNS and milters did not start"
fi
