#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# players.sh BUILDDIR SRCDIR — what players and masters see, by mail
# (`judgectl command`) on a real database: orders that cannot be orders
# refused with ERROR in every kind of phase and kept out of the results
# (a foreign unit's order, a unit that is not there, an impossible move,
# coast, retreat or build); the notices everyone gets (civil disorder and
# why, a rollback and which results are void, a changed deadline, a
# replaced player); a replacement player who signs on with the mailed
# password and orders; BECOME then SET PASSWORD; the powers without orders
# named in the results; the final centre table and position in the
# game-over mail.  Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"
DB=$T/judge.db
export DIPJUDGE_NOW=$GAME_T0

# mail FROM < BODY: run a message as mail from FROM; the reply in $T/out.
mail() { $J command --from "$1" >"$T/out" 2>"$T/err"; }
letter() { echo "$1" | cut -c1; }
addr() { echo "$1" | tr 'A-Z' 'a-z' | sed 's/$/@p.example/'; }
# order POWER LINES...: sign on as POWER in game p and send the lines.
order()
{
    local p=$1
    shift
    { echo "SIGNON $(letter "$p")p pw-$p"; printf '%s\n' "$@"; } | mail "$(addr "$p")"
}
# outbox_count SUBJECT-PART: mails queued with that in the subject.
outbox_count() { $J outbox | grep -cF -- "$1"; }
# body_of SUBJECT-PART ADDRESS: the body of the latest such mail.
body_of()
{
    sqlite3 "$DB" "SELECT body FROM outbox WHERE subject LIKE '%$1%' AND \
        recipients = '$2' ORDER BY id DESC LIMIT 1" >"$T/out" 2>/dev/null ||
        $J outbox >"$T/out"
}

if ! command -v sqlite3 >/dev/null 2>&1; then
    body_of() # without the sqlite3 shell: judgectl history has the results
    {
        $J history p >"$T/out"
    }
fi

$J create p --master gm@p.example movement_delay=72h retreat_delay=24h \
    adjustment_delay=24h grace=24h nmr=cd >/dev/null || bad "created"
$J join p gm@p.example --master --password gm-pw >/dev/null || bad "master"
for p in $POWERS; do
    $J join p "$(addr "$p")" --power "$p" --password "pw-$p" >/dev/null ||
        bad "$p joined"
done
[[ $(game_phase p) == S1901M ]] && ok || bad "game did not start"

# ---- movement: what cannot be an order is refused, the earlier order stands
order France "A par - bur"
has "A PAR - BUR"
order Germany "A par - pic" "A mun - ruh"
has "ERROR: the unit in Paris is not yours (it is French)"
has "A MUN - RUH"
order France "A Lyon - Paris" "A Paris - Munich" "F Brest - Paris" \
    "A mar S A par - mun"
has "ERROR: no unit in Gulf of Lyon"
has "ERROR: A PAR - MUN: not adjacent"
has "ERROR: F BRE - PAR: a fleet cannot go inland"
has "ERROR: A MAR S A PAR - MUN: it cannot reach the place it supports"
has "Orders of France for S1901M"
has "  A PAR - BUR" # the earlier order stands
lacks "  A PAR - MUN"
order Italy "F nap - spa" "Ciao judge, here are my orders"
has "ERROR: F NAP - SPA: not adjacent"
has "Not read (looks like text, not orders):"
has "  Ciao judge, here are my orders"
[[ $(grep -c "^    ERROR" "$T/out") == 1 ]] && ok || bad "no error for the prose line"
# accents are read like any other letter
order Germany "A München - Tyrolia"
has "A MUN - TYR"
# on file: only what can be an order
$J orders p Germany >"$T/out"
lacks "PAR"
has "A MUN - TYR"

# ---- civil disorder: Turkey sends nothing and the deadline passes
for p in Austria England Russia Italy; do order "$p" "STATUS"; done
now=$((GAME_T0 + GAME_STEP))
DIPJUDGE_NOW=$now $J tick >/dev/null || bad "tick S1901M"
[[ $(game_phase p) == F1901M ]] && ok || bad "S1901M not processed"
$J history p S1901M >"$T/out"
lacks "Germany: Army Paris" # the refused foreign order is in no results
lacks "PAR - PIC"
has "Army Paris -> Burgundy"
has "No orders received from Austria, England, Italy, Russia and Turkey"
n=$(outbox_count "S1901M Civil disorder")
[[ $n == 8 ]] && ok || bad "civil-disorder notice to 7 players and the master: $n"
body_of "S1901M Civil disorder" "$(addr France)"
has "sent no orders for S1901M by the deadline"
has "civil disorder"

# ---- a rollback: everyone is told which results are void
printf 'SIGNON Mp gm-pw\nROLLBACK S1901M\n' | DIPJUDGE_NOW=$now mail gm@p.example
has "rolled back to S1901M"
n=$(outbox_count "S1901M Rolled back")
[[ $n == 8 ]] && ok || bad "rollback notice to 7 players and the master: $n"
for p in $POWERS; do
    $J outbox | grep -F "$(addr "$p")" | grep -qF "S1901M Rolled back" && ok ||
        bad "$p got no rollback notice"
done
body_of "S1901M Rolled back" "$(addr England)"
has "The results of S1901M are void"
# rolled forward: everyone is told the results count again; then back
printf 'SIGNON Mp gm-pw\nROLLFORWARD\n' | DIPJUDGE_NOW=$now mail gm@p.example
has "rolled forward to"
n=$(outbox_count "Rolled forward")
[[ $n == 8 ]] && ok || bad "rollforward notice to 7 players and the master: $n"
sqlite3 "$DB" "SELECT body FROM outbox WHERE subject LIKE '%Rolled forward%' \
    AND recipients = '$(addr England)'" >"$T/out" 2>/dev/null ||
    $J outbox >"$T/out"
has "The results of S1901M are valid again"
printf 'SIGNON Mp gm-pw\nROLLBACK S1901M\n' | DIPJUDGE_NOW=$now mail gm@p.example
has "rolled back to S1901M"

# ---- a changed deadline is announced
printf 'SIGNON Mp gm-pw\nSET DEADLINE 2027-01-25 20:00\n' |
    DIPJUDGE_NOW=$now mail gm@p.example
n=$(outbox_count "S1901M Deadline changed")
[[ $n == 8 ]] && ok || bad "deadline notice to everyone: $n"
DIPJUDGE_NOW=$now $J set p grace=12h >/dev/null
n=$(outbox_count "S1901M Settings changed")
[[ $n == 8 ]] && ok || bad "settings notice to everyone: $n"

# ---- a replacement player signs on with the mailed password and orders
printf 'SIGNON Mp gm-pw\nREPLACE Turkey new-turk@p.example\n' |
    DIPJUDGE_NOW=$now mail gm@p.example
has "new-turk@p.example now plays Turkey"
n=$(outbox_count "Player replaced")
[[ $n -ge 8 ]] && ok || bad "replacement notice to everyone: $n"
$J outbox | grep -F "new-turk@p.example" | grep -qF "Welcome" && ok ||
    bad "no welcome mail for the new player"
if command -v sqlite3 >/dev/null 2>&1; then
    pw=$(sqlite3 "$DB" "SELECT body FROM outbox WHERE recipients = \
        'new-turk@p.example' AND subject LIKE '%Welcome%'" |
        awk '/^Your password:/ { print $3 }')
    printf 'SIGNON Tp %s\nA con - bul\nF ank - bla\n' "$pw" |
        DIPJUDGE_NOW=$now mail new-turk@p.example
    has "Signed on as Turkey"
    has "A CON - BUL"
    lacks "ERROR"
    printf 'SIGNON Tp pw-Turkey\n' | DIPJUDGE_NOW=$now mail turkey@p.example
    has "refused"
fi
DIPJUDGE_NOW=$now $J replace p Austria new-aus@p.example --password aus-pw \
    >"$T/out" || bad "judgectl replace --password"
printf 'SIGNON Ap aus-pw\nA vie - gal\n' | DIPJUDGE_NOW=$now mail new-aus@p.example
has "A VIE - GAL"

# ---- BECOME, then SET PASSWORD: the power's password, not the master's
printf 'SIGNON Mp gm-pw\nBECOME England\nSET PASSWORD eng-new-pw\n' |
    DIPJUDGE_NOW=$now mail gm@p.example
has "password of England changed"
printf 'SIGNON Ep eng-new-pw\nSTATUS\n' | DIPJUDGE_NOW=$now mail "$(addr England)"
has "Signed on as England"
printf 'SIGNON Mp gm-pw\nSTATUS\n' | DIPJUDGE_NOW=$now mail gm@p.example
has "Signed on as the master"

# ---- retreats and adjustments: play the scripted game on to them
$J create q --master gm@q.example movement_delay=72h retreat_delay=24h \
    adjustment_delay=24h grace=24h nmr=cd >/dev/null
for p in $POWERS; do
    $J join q "$(echo "$p" | tr 'A-Z' 'a-z')@q.example" --power "$p" \
        --password "pw-$p" >/dev/null
done
qorder()
{
    local p=$1
    shift
    { echo "SIGNON $(letter "$p")q pw-$p"; printf '%s\n' "$@"; } |
        DIPJUDGE_NOW=$now mail "$(echo "$p" | tr 'A-Z' 'a-z')@q.example"
}
now=$GAME_T0
seen_retreat=0
seen_adjust=0
for f in "$S"/tests/games/full/[0-9]*-*.txt; do
    phase=$(phase_of "$f")
    case $phase in
    W1901A)
        # France builds: not in Munich (not a home centre), no fleet in
        # Paris, not more than due.
        qorder France "Build A mun" "Build F par"
        has "ERROR: A MUN B: not a home centre"
        has "ERROR: F PAR B: "
        qorder Germany "Build A par"
        has "ERROR"
        # builds still due: the summary does not say every unit has orders
        qorder France "STATUS"
        has "Builds due: "
        lacks "all your units have orders"
        seen_adjust=1
        ;;
    F1907R)
        qorder Turkey "A bud - vie"
        has "ERROR"
        seen_retreat=1
        ;;
    esac
    game_orders q "$f" "$now" || { bad "orders of $phase"; break; }
    if [[ $phase == F1907R ]]; then
        # the one dislodged unit has its retreat: the summary says so
        qorder Germany "STATUS"
        has "  A LVN R WAR"
        has "all your units have orders."
    fi
    now=$((now + GAME_STEP))
    DIPJUDGE_NOW=$now $J tick >/dev/null || { bad "tick $phase"; break; }
    [[ $phase == F1907R ]] && break
done
((seen_adjust && seen_retreat)) && ok || bad "adjustment and retreat phases reached"

# ---- the game-over mail carries the final table and position (players by
# name, never by address: issue 31)
for p in $POWERS; do $J vote q "$p" draw >/dev/null; done
[[ $(game_state q) == finished ]] && ok || bad "draw did not end q"
sqlite3 "$DB" "SELECT body FROM outbox WHERE kind = 'end' AND recipients = \
    'france@q.example'" >"$T/out" 2>/dev/null || $J outbox >"$T/out"
has "Draw declared by"
has "The final position:"
has "Supply centers"
has "Ownership of supply centers:"
has "The final table:"
has "Power        Player                       Centres Units  Result          Years"
grep -qE "^  France +\(no name given\) +[0-9]+ +[0-9]+  drew +1901-1907 \(7\)" \
    "$T/out" && ok || bad "France's line in the final table: $(grep France "$T/out")"
has "Supply center history:"

# ---- create --master --password: one master, who signs on at once
$J create r --master gm@r.example --password r-pw assignment=random \
    >"$T/out" || bad "create --master --password"
has "gm@r.example is the master; password set"
$J show r >"$T/out"
[[ $(grep -c "gm@r.example" "$T/out") == 1 ]] && ok || bad "master shown twice"
printf 'SIGNON Mr r-pw\n' | mail gm@r.example
has "Signed on as the master of game 'r'"
# random powers: each player's start mail names their power
for i in 1 2 3 4 5 6 7; do
    $J join r "p$i@r.example" --password "pw$i" >/dev/null || bad "p$i joined"
done
[[ $(game_phase r) == S1901M ]] && ok || bad "r did not start"
for i in 1 2 3 4 5 6 7; do
    power=$($J show r | awk -v a="p$i@r.example" '$2 == a { print $1 }')
    sqlite3 "$DB" "SELECT body FROM outbox WHERE kind = 'start' AND \
        recipients = 'p$i@r.example'" >"$T/out"
    has "You play $power."
done

# ---- TAKEOVER: a volunteer for a power in civil disorder -------------------
for g in tk tka tkn; do
    case $g in
    tk) opt=takeover=yes ;; tka) opt=takeover=approve ;; tkn) opt= ;;
    esac
    $J create $g --master gm@$g.example $opt >/dev/null
    for p in Austria England France Germany Italy Russia Turkey; do
        lp=$(echo "$p" | tr 'A-Z' 'a-z')
        $J join $g "$lp@$g.example" --power "$p" --password "pw-$lp" >/dev/null
    done
    $J eject $g Italy >/dev/null
done
printf 'TAKEOVER france@tk volunteer-pw\n' | mail vol@x.example
has "France is not in civil disorder"
printf 'TAKEOVER italy@tkn volunteer-pw\n' | mail vol@x.example
has "does not take volunteers"
printf 'TAKEOVER italy@tk volunteer-pw\n' | mail france@tk.example
has "you already play France"
# the volunteer's address confirms by code, as for JOIN
printf 'TAKEOVER italy@tk volunteer-pw\n' | mail vol@x.example
has "To take over in game tk as italy, this address must show it is yours"
lacks "you now play"
code=$(sed -n 's/^ *CONFIRM \([A-Za-z0-9-]*\).*/\1/p' "$T/out" | head -1)
$J pending tk >"$T/out"
has "takeover tk           vol@x.example as italy"
# forged: the code from another address, a guessed code from the right one
printf 'CONFIRM %s\n' "$code" | mail forger@x.example
has "no such code waits for your address"
printf 'CONFIRM %s\n' "guessed-code-1" | mail vol@x.example
has "no such code waits for your address"
$J show tk >"$T/out"
lacks "vol@x.example"
printf 'CONFIRM %s\n' "$code" | mail vol@x.example
has "tk: you now play Italy; sign on with SIGNON Itk"
printf 'SIGNON Itk volunteer-pw\nA ven H\n' | mail vol@x.example
has "Signed on as Italy"
has "A VEN H"
[[ $(sqlite3 "$DB" "SELECT count(*) FROM outbox WHERE subject LIKE
    '%tk - S1901M Player replaced'") -ge 7 ]] && ok ||
    bad "the takeover was not announced to every player"
printf 'TAKEOVER italy@tka volunteer-pw\n' | mail vol@x.example
code=$(sed -n 's/^ *CONFIRM \([A-Za-z0-9-]*\).*/\1/p' "$T/out" | head -1)
[[ $(sqlite3 "$DB" "SELECT count(*) FROM outbox WHERE subject LIKE
    '%tka - S1901M Takeover request'") == 0 ]] && ok ||
    bad "approve: the master asked before the address confirmed"
printf 'CONFIRM %s\n' "$code" | mail vol@x.example
has "your offer to take over Italy has gone to the game master"
sqlite3 "$DB" "SELECT body FROM outbox WHERE subject LIKE
    '%tka - S1901M Takeover request'" >"$T/out"
has "vol@x.example volunteers to take over Italy"
has "REPLACE Italy vol@x.example"
has "Reliability figures of vol@x.example: games joined 1, finished 0, abandoned 0; deadlines missed 0, civil disorders 0, takeovers 1"
$J show tka >"$T/out"
grep -q "vol@x.example" "$T/out" && bad "approve: taken over unasked" || ok
printf 'TAKEOVER italy@tka\n' | mail vol@x.example
has "TAKEOVER needs the game and a password"

checks_done
