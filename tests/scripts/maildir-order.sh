#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# maildir-order.sh BUILDDIR SRCDIR — mail read from a Maildir in the
# order real Postfix delivered it, to the microsecond.  A private Postfix
# (tests/mailserver/start.sh) delivers with virtual(8), one mail at a
# time, into the judge's Maildir; 200 mails of a player's orders are sent
# in one SMTP session, so that most share their second and their names
# differ by inode (Postfix's "SEC.VdevIinodeMusec.host").  judged reads
# the Maildir, and:
#   - it acted on the mails in the order Postfix delivered them (each
#     file's modification time, to the nanosecond, is the witness);
#   - the last orders delivered win: theirs are the ones on file.
# Ends with "N passed, N failed"; skipped (0 failed) where Postfix cannot
# run, except under CI.
#
set -uo pipefail
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"
MS=$S/tests/mailserver
export PATH=$PATH:/usr/sbin:/sbin

skip_without_mail_servers
command -v python3 >/dev/null || { echo "maildir-order: python3 missing";
    echo "0 passed, 1 failed"; exit 1; }

DIR=$(mktemp -d /tmp/dj-order-XXXXXX)
chmod 0711 "$DIR"
cleanup() { "$MS/stop.sh" "$DIR/ms"; rm -rf "$DIR"; }
trap cleanup EXIT
"$MS/start.sh" "$DIR/ms" >"$DIR/start.log" 2>&1 || {
    cat "$DIR/start.log"
    echo "0 passed, 1 failed"
    exit 1
}
# shellcheck disable=SC1091
. "$DIR/ms/env"
D=$MS_DOMAIN
# One delivery at a time, so the order of delivery is one order.
postconf -c "$MS_POSTFIX_CONFIG" -e virtual_destination_concurrency_limit=1
postfix -c "$MS_POSTFIX_CONFIG" reload >/dev/null 2>&1
BOX=$MS_DIR/mail/judge/Maildir
N=200

J="$JUDGECTL --maps $S/maps --db $T/judge.db"
$J create mo --master "master@$D" >/dev/null
i=0
for p in $POWERS; do
    i=$((i + 1))
    $J join mo "p$i@$D" --power "$p" --password "pw-player-$i" >/dev/null
done
check "the game started" [ "$(game_phase mo)" = S1901M ]

# p3 is France: every tenth mail orders A par-bur, -pic or -gas (by k
# mod 3; a sign-on costs a slow password hash, so the others only LIST).
python3 - "$MS_SMTP_PORT" "$D" "$N" <<'PY'
import smtplib, sys
port, dom, n = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
dest = ["bur", "pic", "gas"]
s = smtplib.SMTP("127.0.0.1", port)
for k in range(1, n + 1):
    text = ("SIGNON Fmo pw-player-3\r\nA par-%s\r\n" % dest[k % 3]
            if k % 10 == 0 else "LIST mo\r\n")
    msg = ("From: p3@%s\r\nTo: judge@%s\r\nSubject: mail %d\r\n"
           "Message-ID: <order-%d@%s>\r\n\r\n%s" % (dom, dom, k, k, dom,
                                                      text))
    s.sendmail("p3@" + dom, ["judge@" + dom], msg)
s.quit()
PY
for _ in $(seq 1 300); do
    [ "$(ls "$BOX/new" | wc -l)" -ge "$N" ] && break
    sleep 0.1
done
check "Postfix delivered all $N" [ "$(ls "$BOX/new" | wc -l)" -eq "$N" ]
# The witness: each file's modification time, in nanoseconds, and the
# mail it holds, in the order of delivery.
for f in "$BOX"/new/*; do
    printf '%s %s\n' "$(stat -c %.9Y "$f")" \
        "$(sed -n 's/^Message-ID: <order-\([0-9]*\)@.*/\1/p' "$f" | tr -d '\r')"
done | sort -n | awk '{print $2}' >"$DIR/delivered"
seconds=$(ls "$BOX/new" | cut -d. -f1 | sort -u | wc -l)
echo "$N mails delivered within $seconds distinct second(s)"
last=$(awk '$1 % 10 == 0' "$DIR/delivered" | tail -n 1)

printf 'database = "%s";\nmaps_dir = "%s";\njudge_address = "judge@%s";\ninbound: { type = "maildir"; path = "%s"; };\n' \
    "$T/judge.db" "$S/maps" "$D" "$BOX" >"$DIR/judge.conf"
for _ in 1 2 3 4 5; do
    "$JUDGED" --config "$DIR/judge.conf" --quiet once --no-tick --no-send \
        2>>"$DIR/judged.log"
    [ "$(ls "$BOX/new" | wc -l)" -eq 0 ] && break
done
check "judged read them all" [ "$(sql "SELECT count(*) FROM maillog WHERE
    message_id LIKE '<order-%' OR message_id LIKE 'order-%'")" -eq "$N" ]
sql "SELECT message_id FROM maillog WHERE sender = 'p3@$D' ORDER BY id" |
    sed 's/^<\{0,1\}order-\([0-9]*\)@.*/\1/' >"$DIR/read"
out=$(paste -d' ' "$DIR/delivered" "$DIR/read" | awk '$1 != $2' | wc -l)
check "read in the order Postfix delivered them ($out out of place)" [ "$out" -eq 0 ]
want=$(echo "bur pic gas" | cut -d' ' -f$((last % 3 + 1)))
$J orders mo France >"$T/out" 2>&1
has "A PAR - $(echo "$want" | tr a-z A-Z)"
checks_done
