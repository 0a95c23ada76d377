#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# pipe-postfix.sh BUILDDIR SRCDIR — `judged deliver` behind real Postfix,
# through the pipe(8) service master.cf.example ships (its two lines
# taken from the built example, only the user, the program's and
# judge.conf's paths changed to this test's): mail to the judge's
# address is handed to judged, and
#   - a good judge.conf: delivered ("delivered via dipjudge service"),
#     the reply written;
#   - a syntax error in judge.conf, judge.conf unreadable by the judge's
#     user, a database that cannot be opened: every time the mail is
#     deferred (judged exits 75), never bounced, and no bounce reaches
#     the player;
#   - the configuration mended: Postfix's next try delivers the mail it
#     kept, and the judge answers it.
# The judge runs as nobody (pipe(8) never runs a command as root; the
# test makes no user).  Ends with "N passed, N failed"; skipped (0
# failed) where Postfix cannot run, except under CI.
#
set -uo pipefail
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
MS=$S/tests/mailserver
export PATH=$PATH:/usr/sbin:/sbin

skip_without_mail_servers
command -v python3 >/dev/null || { echo "pipe-postfix: python3 missing";
    echo "0 passed, 1 failed"; exit 1; }

DIR=$(mktemp -d /tmp/dj-pipe-XXXXXX)
chmod 0711 "$DIR"
cleanup() { [[ -n ${KEEP_LOG:-} ]] && cp "$LOG" "$KEEP_LOG"; "$MS/stop.sh" "$DIR/ms"; rm -rf "$DIR"; }
trap cleanup EXIT
"$MS/start.sh" "$DIR/ms" >"$DIR/start.log" 2>&1 || {
    cat "$DIR/start.log"
    echo "0 passed, 1 failed"
    exit 1
}
# shellcheck disable=SC1091
. "$DIR/ms/env"
D=$MS_DOMAIN
PF=$MS_POSTFIX_CONFIG
LOG=$MS_DIR/log/postfix.log

# The judge's state, owned by its user.
JS=$DIR/judge
mkdir -p "$JS"
chown nobody "$JS"
CONF=$JS/judge.conf
good_conf()
{
    cat >"$CONF" <<EOF
judge_address = "judge@$D";
state_dir = "$JS";
maps_dir = "$S/maps";
EOF
    chown root:"$(id -gn nobody)" "$CONF"
    chmod 0640 "$CONF"
}
good_conf

# The service, as shipped: master.cf.example's lines.
example=$B/contrib/postfix/master.cf.example
[[ -f $example ]] || make -C "$B" contrib/postfix/master.cf.example >/dev/null
service=$(sed -n '/^dipjudge /,/^  /p' "$example")
expect "the service's two lines in master.cf.example" "$(printf '%s\n' "$service" | wc -l)" 2
printf '%s\n' "$service" |
    sed -e "s|user=dipjudge|user=nobody|" \
        -e "s|argv=[^ ]*/judged|argv=$INSTALLED_JUDGED|" \
        -e "s|--config [^ ]*|--config $CONF|" >>"$PF/master.cf"
grep -q "argv=$INSTALLED_JUDGED --config $CONF --syslog deliver -f \${sender}" "$PF/master.cf" &&
    ok || bad "the service line: $(tail -2 "$PF/master.cf")"
printf 'judge@%s dipjudge:\n' "$D" >"$PF/transport"
postconf -c "$PF" -e "transport_maps = texthash:$PF/transport" \
    "dipjudge_destination_recipient_limit = 1"
postfix -c "$PF" reload >/dev/null 2>&1

# send ID: a mail from p1 to the judge over SMTP, Message-ID <ID@...>.
send()
{
    python3 - "$MS_SMTP_PORT" "$D" "$1" <<'PY'
import smtplib, sys
port, dom, mid = int(sys.argv[1]), sys.argv[2], sys.argv[3]
msg = (f"From: p1@{dom}\r\nTo: judge@{dom}\r\nSubject: help\r\n"
       f"Message-ID: <{mid}@{dom}>\r\n\r\nHELP\r\n")
with smtplib.SMTP("127.0.0.1", port) as s:
    s.sendmail(f"p1@{dom}", [f"judge@{dom}"], msg)
PY
}
# queue_id_of ID: the Postfix queue ID of the mail with Message-ID ID.
queue_id_of()
{
    sed -n "s/.* \([0-9A-F]\{6,\}\): message-id=<$1@.*/\1/p" "$LOG" | tail -n 1
}
# wait_log PATTERN: wait (20 s at most) for a line of Postfix's log.
wait_log()
{
    local i
    for ((i = 0; i < 200; i++)); do
        grep -q -- "$1" "$LOG" 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}
replies() { ls "$JS/mail/out/new" 2>/dev/null | wc -l; }
bounces_to_p1() { grep -l "Undelivered Mail\|MAILER-DAEMON" "$MS_DIR"/mail/p1/Maildir/new/* 2>/dev/null | wc -l; }

# ---- a good judge.conf: delivered, answered -----------------------------------
send good1
wait_log "message-id=<good1@" || bad "Postfix never took good1"
q=$(queue_id_of good1)
wait_log "$q: to=<judge@$D>.*status=sent" && ok ||
    bad "good1 not delivered: $(grep "$q" "$LOG" | tail -3)"
grep -q "$q: to=<judge@$D>.*relay=dipjudge.*status=sent" "$LOG" && ok ||
    bad "good1 not delivered through the dipjudge service"
expect "the reply to good1" "$(replies)" 1

# ---- the judge's own faults: deferred, never bounced -----------------------------
# defer_case ID WHAT: the mail sent now is deferred by the service; its
# queue ID in $LAST_Q.
LAST_Q=""
defer_case()
{
    send "$1"
    wait_log "message-id=<$1@" || bad "Postfix never took $1"
    local q
    q=$(queue_id_of "$1")
    if wait_log "$q: to=<judge@$D>.*relay=dipjudge.*status=deferred"; then
        ok
    else
        bad "$2: not deferred: $(grep "$q" "$LOG" | tail -3)"
    fi
    if grep -q "$q: to=<judge@$D>.*status=bounced" "$LOG"; then
        bad "$2: bounced: $(grep "$q: to=" "$LOG" | tail -1)"
    else
        ok
    fi
    LAST_Q=$q
}
# A typo: the group's { never closed.
printf 'judge_address = "judge@%s";\nstate_dir = "%s";\nmail: {\n' "$D" "$JS" >"$CONF"
defer_case typo "a syntax error in judge.conf"
q1=$LAST_Q
# judge.conf the judge's user cannot read.
good_conf
chmod 0600 "$CONF"
defer_case unreadable "judge.conf unreadable by the judge's user"
q2=$LAST_Q
# A database that cannot be opened (a folder that does not exist).
good_conf
printf 'database = "%s/no-such-folder/dipjudge.db";\n' "$JS" >>"$CONF"
defer_case nodb "a database that cannot be opened"
q3=$LAST_Q
sleep 3 # a few more of Postfix's tries (queue_run_delay 1s)
expect "replies while judge.conf was broken" "$(replies)" 1
expect "bounces sent to the player" "$(bounces_to_p1)" 0
grep -Eq "status=deferred.*(exit status 75|temporary failure)" "$LOG" && ok ||
    bad "Postfix's log does not say why it deferred: $(grep status=deferred "$LOG" | tail -1)"

# ---- mended: the kept mail is delivered and answered --------------------------------
good_conf
for q in $q1 $q2 $q3; do
    if wait_log "$q: to=<judge@$D>.*relay=dipjudge.*status=sent"; then ok; else
        bad "mail $q not delivered once judge.conf was mended: $(grep "$q" "$LOG" | tail -2)"
    fi
done
expect "every kept mail answered" "$(replies)" 4
expect "bounces sent to the player" "$(bounces_to_p1)" 0
checks_done
