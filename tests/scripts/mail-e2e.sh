#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# mail-e2e.sh BUILDDIR SRCDIR — the whole mail judge against real mail
# servers.  tests/mailserver/start.sh starts Postfix (SMTP) and Dovecot
# (IMAP) on loopback with the mailboxes judge, p1 ... p7 and master
# @dipjudge.test; then:
#
#   - judgectl creates game "e2e" (master master@dipjudge.test);
#   - `judged run` starts in the background, reading judge@ over IMAP
#     (IDLE, STARTTLS when the servers offer it) and sending over SMTP;
#   - seven players mail JOIN over SMTP, read the code in the judge's
#     reply over IMAP and mail CONFIRM back (tests/mailserver/djmail rawsend:
#     the project's own SMTP code), the game starts;
#   - two game years are played by mail from the scripted game
#     tests/games/full: movement phases processed early when every
#     player sent orders and READY (the deadline scheduler in judged),
#     adjustment phases by the master's PROCESS mail;
#   - in S1902M judged is restarted with its clock moved on (DIPJUDGE_NOW)
#     past the reminder time, then past the deadline: each player gets a
#     deadline reminder, then a late notice (the master too);
#   - fault tests in F1902M, each a player's order mail while judged is
#     made to die (DIPJUDGE_CRASH_POINT, as kill -9 there) at one point:
#       ingest-executed   commands run, not committed: nothing kept, the
#                         mail stays unseen, read again after restart;
#       ingest-committed  committed, IMAP not yet flagged: read again
#                         after restart, dropped as a duplicate;
#       send-claimed      reply claimed, not handed to SMTP: sent once;
#       send-accepted     SMTP accepted, not marked sent: the documented
#                         window, exactly ONE duplicate (same Message-ID);
#     then three mails at once and a real kill -9 at a random moment;
#     after each restart no order is lost (judgectl orders) and nothing
#     else is duplicated;
#   - the test reads every mailbox over IMAP (djmail list/read: the
#     project's IMAP code) and checks each player's and the master's mail,
#     message by message: replies, results of 2 years, reminders, late
#     notices, no duplicate but the one documented;
#   - the game reached by mail equals the same orders entered with
#     judgectl (supply-centre summary and results), judged stops
#     cleanly on SIGTERM;
#   - the other transports: `judged once` reading POP3 (every message
#     already handled is a duplicate, the new one is answered) and
#     sending through Postfix's sendmail program;
#   - the servers are stopped.
#
# Ends with "N passed, N failed".  Without root, Postfix or Dovecot it
# skips (0 failed) — except under CI=true, where that is a failure.
# Takes about 30 seconds (DJ_E2E_KEEP=1 keeps its directory).
#
set -uo pipefail
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
export PATH=$PATH:/usr/sbin:/sbin
DJMAIL=$B/tests/mailserver/djmail
MS=$S/tests/mailserver
GAME=$S/tests/games/full
T0=$SECONDS

skip_without_mail_servers
for prog in "$DJMAIL" "$JUDGED" "$JUDGECTL"; do
    if [[ ! -x $prog ]]; then
        echo "mail-e2e: $prog not built"
        echo "0 passed, 1 failed"
        exit 1
    fi
done

DIR=$(mktemp -d /tmp/dj-e2e-XXXXXX)
chmod 0711 "$DIR" # the servers' users walk down to $DIR/ms
T=$DIR/judge
JPID=""
cleanup()
{
    if [[ -n $JPID ]] && kill -0 "$JPID" 2>/dev/null; then
        kill -KILL "$JPID" 2>/dev/null
        wait "$JPID" 2>/dev/null
    fi
    "$MS/stop.sh" "$DIR/ms"
    if [[ ${DJ_E2E_KEEP:-} == 1 ]]; then
        echo "kept $DIR (judged.log, the mailboxes read in box/)"
    else
        rm -rf "$DIR"
    fi
}

"$MS/start.sh" "$DIR/ms" >"$DIR/start.log" 2>&1 || {
    cat "$DIR/start.log"
    echo "0 passed, 1 failed"
    exit 1
}
# shellcheck disable=SC1091
. "$DIR/ms/env"
D=$MS_DOMAIN
TLS=none
[[ $MS_TLS == 1 ]] && TLS=starttls
# The judge verifies the servers' certificate: it connects to them by the
# name their certificate gives and trusts the test CA that signed it.
HOST=localhost
CAFILE=$MS_TLS_CA
[[ $MS_TLS == 1 ]] || CAFILE=""
echo "servers up after $((SECONDS - T0))s (smtp $MS_SMTP_PORT, imap" \
     "$MS_IMAP_PORT, tls $TLS)"

mkdir -p "$T" "$DIR/box"
CONF=$T/judge.conf
cat >"$CONF" <<EOF
database = "$T/judge.db";
maps_dir = "$S/maps";
judge_name = "dipjudge";
judge_address = "judge@$D";
admin_address = "master@$D";
reminder = "24h";
tick_interval = "1s";
inbound: {
    type = "imap"; host = "$HOST"; port = $MS_IMAP_PORT;
    user = "judge"; password = "pw-judge"; tls = "$TLS";
    tls_ca_file = "$CAFILE";
    idle = true; poll_interval = "2s"; timeout = "20s";
};
outbound: {
    type = "smtp"; host = "$HOST"; port = $MS_SMTP_PORT; tls = "$TLS";
    tls_ca_file = "$CAFILE";
    timeout = "20s";
};
retry: { attempts = 5; delay = "1s"; max_delay = "4s"; };
games: {
    movement_delay = "72h"; retreat_delay = "24h"; adjustment_delay = "24h";
    grace = "24h"; nmr = "cd";
};
EOF
J="$JUDGECTL --config $CONF"
LOG=$T/judged.log
POWERS=(Austria England France Germany Italy Russia Turkey)

# ---- helpers ----------------------------------------------------------------

# user_of POWER: p1 .. p7.
user_of()
{
    local i
    for i in "${!POWERS[@]}"; do
        [[ ${POWERS[i]} == "$1" ]] && echo "p$((i + 1))" && return
    done
}

# send USER SUBJECT < BODY: a player's mail to the judge over SMTP.
send()
{
    local user=$1 subject=$2 f nmail
    # A counter in a file: send runs at the end of pipelines (subshells).
    nmail=$(($(cat "$DIR/nmail" 2>/dev/null || echo 0) + 1))
    echo "$nmail" >"$DIR/nmail"
    f=$DIR/out-$nmail.eml
    {
        printf 'From: %s <%s@%s>\n' "$user" "$user" "$D"
        printf 'To: judge@%s\n' "$D"
        printf 'Subject: %s\n' "$subject"
        printf 'Message-ID: <e2e-%d-%s@%s>\n' "$nmail" "$RANDOM" "$D"
        printf 'Date: %s\n' "$(LC_ALL=C date -R)"
        printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\n\n'
        cat
    } >"$f"
    "$DJMAIL" rawsend --smtp "127.0.0.1:$MS_SMTP_PORT" \
        --from "$user@$D" --to "judge@$D" <"$f" >/dev/null 2>"$DIR/send.err" ||
        bad "send from $user: $(cat "$DIR/send.err")"
}

imap() { "$DJMAIL" "$1" --imap "$HOST:$MS_IMAP_PORT" --user "$2" \
    --password "pw-$2" --tls "$TLS" --tls-ca "$CAFILE" "${@:3}"; }

# fetch USER: copy the mailbox's new messages (over IMAP) to $DIR/box/USER/.
fetch()
{
    local id size
    mkdir -p "$DIR/box/$1"
    imap list "$1" 2>/dev/null | while read -r id size; do
        [[ -s $DIR/box/$1/$id.eml ]] && continue
        # IMAP speaks CRLF: kept as LF, for grep.
        imap read "$1" "$id" 2>/dev/null | tr -d '\r' >"$DIR/box/$1/$id.eml.tmp" &&
            mv "$DIR/box/$1/$id.eml.tmp" "$DIR/box/$1/$id.eml"
    done
}

# count USER REGEX: messages in the fetched mailbox whose Subject matches.
count()
{
    local n
    n=$(cat "$DIR/box/$1"/*.eml 2>/dev/null | grep -c -E "^Subject: $2\$")
    echo "${n:-0}"
}

# wait_mail REGEX COUNT USER...: until every USER has COUNT such messages
# (at most 40 s).  Fails the test when it does not happen.
wait_mail()
{
    local re=$1 want=$2 u i missing
    shift 2
    for ((i = 0; i < 200; i++)); do
        missing=""
        for u in "$@"; do
            fetch "$u"
            (($(count "$u" "$re") >= want)) || missing="$missing $u"
        done
        [[ -z $missing ]] && return 0
        sleep 0.2
    done
    bad "no $want x '$re' for:$missing (after 40 s); judged log tail:"
    tail -n 15 "$LOG"
    return 1
}

PLAYERS=(p1 p2 p3 p4 p5 p6 p7)
EVERYONE=(p1 p2 p3 p4 p5 p6 p7 master)

# Clock offset of judged (seconds): grows in S1902M, never shrinks.
OFFSET=0
start_judged() # [ENV=VALUE...]
{
    env DIPJUDGE_NOW=$(($(date +%s) + OFFSET)) "$@" \
        "$JUDGED" --config "$CONF" run >>"$LOG" 2>&1 &
    JPID=$!
}

# wait_exit SECONDS: wait for judged to end; its exit status in $ST
# ("timeout" when it had to be killed).  Not in a $(...): only this
# shell can wait for its child.
ST=""
wait_exit()
{
    local i
    for ((i = 0; i < $1 * 10; i++)); do
        kill -0 "$JPID" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$JPID" 2>/dev/null; then
        kill -KILL "$JPID"
        wait "$JPID" 2>/dev/null
        ST=timeout
    else
        wait "$JPID"
        ST=$?
    fi
    JPID=""
}

stop_judged()
{
    kill -TERM "$JPID" 2>/dev/null
    wait_exit 10
    [[ $ST == 0 ]] && ok || bad "judged did not stop cleanly on SIGTERM ($ST)"
}

letter() { echo "${1:0:1}"; }

# orders_body POWER FILE [READY]: a player's order mail for a phase.
orders_body()
{
    echo "SIGNON $(letter "$1")e2e pw-$(user_of "$1")-long"
    grep "^$1: " "$2" | sed "s/^$1: //"
    [[ ${3:-} == ready ]] && echo "READY"
    echo "SIGNOFF"
    echo
    echo "-- "
    echo "$1's player, sent from the e2e test"
}

has_orders() { grep -q "^$1: " "$2"; }

master_says() # COMMANDS...
{
    { echo "SIGNON Me2e gm-pw"; printf '%s\n' "$@"; } |
        send master "commands"
}

# file_of PHASE
file_of() { ls "$GAME"/*-"$1".txt; }

# ---- the game is created; judged starts; players join by mail ---------------------

$J create e2e --master "master@$D" >/dev/null || bad "create"
$J join e2e "master@$D" --master --password gm-pw >/dev/null ||
    bad "master password"
start_judged
sleep 0.5
kill -0 "$JPID" 2>/dev/null && ok || bad "judged run did not start: $(cat "$LOG")"

for i in "${!POWERS[@]}"; do
    printf 'JOIN %s@e2e pw-p%d-long\n' "${POWERS[i]}" $((i + 1)) |
        send "p$((i + 1))" "joining"
done
# Each JOIN is answered with a code; the player mails it back (CONFIRM),
# read from the reply in their own mailbox over IMAP, as a person would.
wait_mail "dipjudge:e2e - Reply" 1 "${PLAYERS[@]}" && ok
[[ $($J list | awk '$1 == "e2e" { print $2 }') == forming ]] && ok ||
    bad "joined before confirming: $($J list)"
for u in "${PLAYERS[@]}"; do
    code=$(cat "$DIR/box/$u"/*.eml | sed -n 's/^ *CONFIRM \([a-z0-9]*\)$/\1/p' |
        head -n 1)
    [[ -n $code ]] && ok || bad "$u: no CONFIRM code in the JOIN reply"
    printf 'CONFIRM %s\n' "$code" | send "$u" "Re: dipjudge:e2e - Reply"
done
wait_mail "dipjudge:e2e - S1901M Game started" 1 "${EVERYONE[@]}" && ok
wait_mail "dipjudge:e2e -( S1901M)? Reply" 2 "${PLAYERS[@]}" && ok
wait_mail "dipjudge:e2e -( S1901M)? New player" 7 master && ok
[[ $($J list | awk '$1 == "e2e" { print $2, $3 }') == "active S1901M" ]] &&
    ok || bad "e2e did not start: $($J list)"
echo "game started by mail after $((SECONDS - T0))s"

# ---- play_phase PHASE MODE: orders by mail, then results ---------------------------
# The three ways a phase ends:
#   ready   orders with READY; judged's tick processes the phase early,
#           as soon as every power's orders are complete and ready;
#   master  orders, then the master's PROCESS mail;
#   clock   orders with READY, but one power's are incomplete (the
#           scripted game leaves a unit without orders): judged is
#           restarted with its clock past the deadline and the grace, and
#           its tick sends the late power and the master a late notice and
#           processes the phase (the unit without orders holds).
LATE=() # powers sent a late notice in a "clock" phase, "PHASE:Power"
play_phase()
{
    local ph=$1 mode=$2 f p users=() late
    f=$(file_of "$ph")
    for p in "${POWERS[@]}"; do
        has_orders "$p" "$f" || continue
        users+=("$(user_of "$p")")
        orders_body "$p" "$f" "$([[ $mode != master ]] && echo ready)" |
            send "$(user_of "$p")" "orders $ph"
    done
    wait_mail "dipjudge:e2e - $ph Orders" 1 "${users[@]}" && ok
    case $mode in
    master) master_says PROCESS ;;
    clock)
        late=$($J show e2e | awk '/\(missing\)/ { print $1 }')
        [[ -n $late ]] || bad "$ph: no power is late"
        for p in $late; do LATE+=("$ph:$p"); done
        stop_judged
        OFFSET=$((OFFSET + 97 * 3600)) # deadline 72 h + grace 24 h + 1 h
        start_judged
        for p in $late; do
            wait_mail "dipjudge:e2e - $ph Late notice" 1 "$(user_of "$p")" && ok
        done
        ;;
    esac
    wait_mail "dipjudge:e2e - $ph Results" 1 "${EVERYONE[@]}" && ok
}

play_phase S1901M clock
play_phase F1901M master
play_phase W1901A ready
echo "1901 played after $((SECONDS - T0))s"

# ---- S1902M: reminder and late notice on judged's clock ------------------------------
# The phase opened at judged's time OFFSET (72 h to its deadline).
stop_judged
OFFSET=$((OFFSET + 49 * 3600)) # the reminder is due 24 h before
start_judged
wait_mail "dipjudge:e2e - S1902M Reminder" 1 "${PLAYERS[@]}" && ok
fetch master
(($(count master "dipjudge:e2e - S1902M Reminder") == 0)) && ok ||
    bad "the master got a reminder"
stop_judged
OFFSET=$((OFFSET + 24 * 3600)) # past the deadline, inside the grace
start_judged
wait_mail "dipjudge:e2e - S1902M Late notice" 1 "${EVERYONE[@]}" && ok
play_phase S1902M master

# ---- F1902M: fault tests ---------------------------------------------------------------
F=$(file_of F1902M)
judge_unseen() { imap list judge 2>/dev/null | grep -c .; }
on_file() { $J orders e2e "$1" 2>/dev/null | grep -c .; }

# crash_case POINT POWER WHAT: judged dies at POINT while POWER's order
# mail is handled; then restarted.
crash_case()
{
    local point=$1 power=$2 user
    user=$(user_of "$power")
    stop_judged
    start_judged DIPJUDGE_CRASH_POINT="$point"
    orders_body "$power" "$F" | send "$user" "orders F1902M"
    wait_exit 30
    [[ $ST == 86 ]] && ok || bad "$point: judged did not die there ($ST)"
}

# 1. Commands run, not committed: nothing of it is kept; mail unseen.
crash_case ingest-executed Austria
(($(on_file Austria) == 0)) && ok || bad "ingest-executed: orders kept"
(($(judge_unseen) == 1)) && ok || bad "ingest-executed: mail not unseen"
fetch p1
(($(count p1 "dipjudge:e2e - F1902M Orders") == 0)) && ok ||
    bad "ingest-executed: a reply was sent"
start_judged
wait_mail "dipjudge:e2e - F1902M Orders" 1 p1 && ok
(($(on_file Austria) == $(grep -c "^Austria: " "$F"))) && ok ||
    bad "Austria's orders lost after the restart"

# 2. Committed, mailbox not updated: read again, dropped as a duplicate.
crash_case ingest-committed England
(($(on_file England) == $(grep -c "^England: " "$F"))) && ok ||
    bad "ingest-committed: orders not kept"
(($(judge_unseen) == 1)) && ok || bad "ingest-committed: mail not unseen"
start_judged
wait_mail "dipjudge:e2e - F1902M Orders" 1 p2 && ok
sleep 1
(($(judge_unseen) == 0)) && ok || bad "ingest-committed: mail still unseen"

# 3. Reply claimed, not handed to SMTP: sent once after the restart.
crash_case send-claimed Germany
start_judged
wait_mail "dipjudge:e2e - F1902M Orders" 1 p4 && ok

# 4. The window: SMTP accepted, not marked sent: re-sent, one duplicate.
crash_case send-accepted France
start_judged
wait_mail "dipjudge:e2e - F1902M Orders" 2 p3 && ok
grep -q "sent again" "$LOG" && ok || bad "the recovery is not logged"
ids=$(grep -l -E "^Subject: dipjudge:e2e - F1902M Orders$" "$DIR"/box/p3/*.eml |
    xargs grep -h -i "^Message-ID:" | sort -u | wc -l)
((ids == 1)) && ok || bad "the re-sent copy has another Message-ID"

# 5. Three mails at once and a real kill -9 at a random moment.
for p in Italy Russia Turkey; do
    orders_body "$p" "$F" | send "$(user_of "$p")" "orders F1902M"
done
sleep "0.$((RANDOM % 9 + 1))"
kill -KILL "$JPID" 2>/dev/null
wait "$JPID" 2>/dev/null
JPID=""
start_judged
wait_mail "dipjudge:e2e - F1902M Orders" 1 p5 p6 p7 && ok
for p in "${POWERS[@]}"; do
    (($(on_file "$p") == $(grep -c "^$p: " "$F"))) && ok ||
        bad "$p's F1902M orders are not all on file"
done
master_says PROCESS
wait_mail "dipjudge:e2e - F1902M Results" 1 "${EVERYONE[@]}" && ok
play_phase W1902A ready
echo "1902 played after $((SECONDS - T0))s"

# ---- every mailbox, message by message ------------------------------------------------
sleep 1
stop_judged
for u in "${EVERYONE[@]}"; do fetch "$u"; done

# expect USER REGEX N
expect()
{
    local n
    n=$(count "$1" "$2")
    ((n == $3)) && ok || bad "$1 has $n x '$2', expected $3"
}
PHASES=(S1901M F1901M W1901A S1902M F1902M W1902A)
dups=0
for i in "${!POWERS[@]}"; do
    p=${POWERS[i]}
    u=p$((i + 1))
    total=0
    expect "$u" "dipjudge:e2e -( S1901M)? Reply" 2 # JOIN's code, CONFIRM's
    expect "$u" "dipjudge:e2e - S1901M Game started" 1
    expect "$u" "dipjudge:e2e - S1902M Reminder" 1
    expect "$u" "dipjudge:e2e - S1902M Late notice" 1
    total=$((total + 5))
    for l in "${LATE[@]}"; do
        [[ ${l#*:} == "$p" ]] || continue
        expect "$u" "dipjudge:e2e - ${l%%:*} Late notice" 1
        total=$((total + 1))
    done
    for ph in "${PHASES[@]}"; do
        want=0
        has_orders "$p" "$(file_of "$ph")" && want=1
        [[ $ph == F1902M && $p == France ]] && want=2 # the documented window
        [[ $ph == F1902M && $p =~ ^(Italy|Russia|Turkey)$ ]] &&
            want=$(count "$u" "dipjudge:e2e - F1902M Orders") # kill -9: 1 or 2
        expect "$u" "dipjudge:e2e - $ph Orders" "$want"
        expect "$u" "dipjudge:e2e - $ph Results" 1
        total=$((total + want + 1))
    done
    n=$(ls "$DIR/box/$u" | grep -c '\.eml$')
    ((n == total)) && ok || bad "$u has $n messages, expected $total"
    # Replies answer the player's mail; nothing carries an error.
    grep -l "^Subject: dipjudge:e2e - .* Orders$" "$DIR/box/$u"/*.eml |
        xargs grep -L "^In-Reply-To: <e2e-" | grep . >/dev/null &&
        bad "$u: an order reply without In-Reply-To" || ok
    grep -l "ERROR\|not understood" "$DIR/box/$u"/*.eml | grep . >/dev/null &&
        bad "$u: an error in a reply" || ok
    # Duplicates (same Message-ID twice) besides France's one.
    d=$(cat "$DIR/box/$u"/*.eml | grep -i "^Message-ID:" | sort | uniq -d | wc -l)
    dups=$((dups + d))
done
# Every results mail carries the map: multipart/mixed, the text, then a
# PNG of the phase (base64) that decodes to a real PNG image.
# png_of MAIL: the attached PNG's bytes on stdout.
png_of()
{
    awk '/^Content-Type: image\/png/ { on = 1; next }
         on == 1 && /^$/ { on = 2; next }
         on == 2 && /^--/ { exit }
         on == 2 { print }' "$1" | base64 -d 2>/dev/null
}
pictures=0
for m in $(grep -l "^Subject: dipjudge:e2e - [SFW]190[12][MA] Results$" \
               "$DIR/box/master"/*.eml); do
    ph=$(sed -n 's/^Subject: dipjudge:e2e - \(......\) Results$/\1/p' "$m")
    grep -q '^Content-Type: multipart/mixed; boundary="=_dj_' "$m" &&
        grep -q "filename=\"e2e-$ph.png\"" "$m" && ok ||
        bad "$ph results: no multipart with e2e-$ph.png"
    size=$(png_of "$m" | wc -c)
    [[ $(png_of "$m" | head -c 8 | od -An -tx1 | tr -d ' ') == \
        89504e470d0a1a0a ]] && ((size > 20000 && size < 150000)) && ok ||
        bad "$ph results: the attachment is no PNG of the board ($size bytes)"
    # ... and it is the picture of that phase: judgectl map draws the same.
    $J map e2e "$ph" -o "$DIR/$ph.png" >/dev/null 2>&1
    png_of "$m" | cmp -s - "$DIR/$ph.png" && ok ||
        bad "$ph results: the attachment is not judgectl map's picture of $ph"
    pictures=$((pictures + 1))
done
((pictures == ${#PHASES[@]})) && ok || bad "$pictures results maps, expected ${#PHASES[@]}"
echo "maps attached to results: $pictures, each a PNG of 20 to 150 KB"
echo "mail read over IMAP: $(for u in "${EVERYONE[@]}"; do
    printf '%s %s, ' "$u" "$(ls "$DIR/box/$u" | grep -c '\.eml$')"; done)"
echo "duplicated messages: $dups (France's F1902M reply: the documented" \
     "window; a second one only if the random kill -9 hit it)"
# kill -9 at a random moment may hit the window once at most.
((dups >= 1 && dups <= 2)) && ok || bad "$dups duplicated messages"
expect master "dipjudge:e2e -( S1901M)? New player" 7
expect master "dipjudge:e2e - S1901M Game started" 1
expect master "dipjudge:e2e - S1902M Late notice" 1
expect master "dipjudge:e2e - S1901M Late notice" 1
expect master "dipjudge:e2e - [SFW]190[12][MA] Reminder" 0
for ph in "${PHASES[@]}"; do
    expect master "dipjudge:e2e - $ph Results" 1
done
expect master "dipjudge:e2e - [SFW]190[123][MA] Reply" 3
expect master ".*Undeliverable.*" 0
(($(judge_unseen) == 0)) && ok || bad "mail left unread in judge@"
$J outbox | awk -F'\t' '$2 != "sent"' >"$DIR/unsent"
[[ ! -s $DIR/unsent ]] && ok || bad "outbox rows not sent: $(head -3 "$DIR/unsent")"
grep -q -E "error:|ERROR: AddressSanitizer|runtime error" "$LOG" &&
    bad "judged logged errors: $(grep -E "error" "$LOG" | head -3)" || ok

# ---- the same game through judgectl gives the same result ------------------------------
R="$JUDGECTL --maps $S/maps --db $T/ref.db"
$R create e2e --master "master@$D" >/dev/null
for i in "${!POWERS[@]}"; do
    $R join e2e "p$((i + 1))@$D" --power "${POWERS[i]}" >/dev/null
done
for ph in "${PHASES[@]}"; do
    f=$(file_of "$ph")
    for p in "${POWERS[@]}"; do
        has_orders "$p" "$f" || continue
        grep "^$p: " "$f" | sed "s/^$p: //" | $R orders e2e "$p" --set >/dev/null
    done
    $R process e2e >/dev/null
done
[[ $($J summary e2e) == "$($R summary e2e)" ]] && ok ||
    bad "summary differs from the judgectl game"
[[ $($J list | awk '$1 == "e2e" { print $3 }') == S1903M ]] && ok ||
    bad "e2e is not at S1903M"
for ph in "${PHASES[@]}"; do
    # The results' body (without headers and dates) is the same.
    a=$($J history e2e "$ph" | grep -v -i "deadline\|^::")
    b=$($R history e2e "$ph" | grep -v -i "deadline\|^::")
    [[ $a == "$b" ]] && ok || bad "$ph results differ from the judgectl game"
done

# ---- the other transports: POP3 in, the sendmail program out ---------------------------
# Dovecot's POP3 shows every message of judge@, also those read over IMAP:
# all of them are in the mail log, so only the new one is answered.
sed -e 's/type = "imap"/type = "pop3"/' -e "s/port = $MS_IMAP_PORT/port = $MS_POP3_PORT/" \
    -e 's|type = "smtp"; host = "'"$HOST"'"; port = [0-9]*;|type = "sendmail"; sendmail = "/usr/sbin/sendmail";|' \
    "$CONF" >"$T/pop3.conf"
grep -q 'type = "pop3"' "$T/pop3.conf" && grep -q 'type = "sendmail"' "$T/pop3.conf" &&
    ok || bad "pop3.conf: $(cat "$T/pop3.conf")"
old_msgs=$(imap list judge 2>/dev/null | wc -l) # unseen: 0
echo "LIST e2e" | send p1 "list"
for ((i = 0; i < 100; i++)); do
    (($(imap list judge 2>/dev/null | wc -l) > old_msgs)) && break
    sleep 0.1
done
MAIL_CONFIG=$MS_POSTFIX_CONFIG DIPJUDGE_NOW=$(($(date +%s) + OFFSET)) \
    DIPJUDGE_TEST_FETCH_PROBE=1 \
    "$JUDGED" --config "$T/pop3.conf" once >>"$LOG" 2>&1
st=$?
((st == 0)) && ok || bad "judged once over POP3: exit $st"
# judged's mail reader, restricted (fetch_child.c), tried a file and a
# socket (the test copy's probe, test_hooks.h) and got neither.
if [[ $(uname -s) == Linux ]]; then
    grep -q "fetch reader probe: open: Operation not permitted; socket: Operation not permitted" \
        "$LOG" && ok || bad "judged's POP3 reader could open a file or a socket"
fi
wait_mail "dipjudge(:e2e)? - (S1903M )?Reply" 2 p1 && ok # the JOIN reply, this one
dupes=$(grep -c "judged once: message .*: duplicate, seen before" "$LOG")
sent=$(cat "$DIR/nmail")
((dupes == sent - 1)) && ok ||
    bad "POP3: $dupes old messages seen as duplicates, not $((sent - 1))"
n=$("$DJMAIL" list --pop3 "$HOST:$MS_POP3_PORT" --user judge \
    --password pw-judge --tls "$TLS" --tls-ca "$CAFILE" 2>/dev/null | wc -l)
((n == 0)) && ok || bad "POP3: $n messages left in the maildrop"
for u in p2 p3 p4 p5 p6 p7; do
    before=$(ls "$DIR/box/$u" | grep -c '\.eml$')
    fetch "$u"
    (($(ls "$DIR/box/$u" | grep -c '\.eml$') == before)) && ok ||
        bad "$u got mail from the POP3 pass"
done

echo "mail-e2e: $((SECONDS - T0))s in all"
checks_done
