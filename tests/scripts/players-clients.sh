#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# players-clients.sh BUILDDIR SRCDIR — mails as today's mail programs
# write them (tests/mail/clients/*.eml: iOS and Android mail, Apple Mail,
# Outlook and Gmail HTML-only, PGP/MIME, S/MIME, long quoted threads),
# each fed to `judged deliver` and its reply read line by line:
#   - one mail, several games: each SIGNON starts a part of the message
#     acting on its own game only; a refused SIGNON skips its part;
#   - the older judges' commands (PHASE, IF/ELSE/ENDIF, DIARY/ENDDIARY,
#     POSTAL PRESS, OFFICIAL, PROMOTE, UNSTART, VERSION, GET) each done or
#     refused, and no line belonging to a refused one filed as an order;
#   - njudge's PHASE naming a later phase: its lines stored (a later
#     PHASE for it replacing them), not filed now, filed when that phase
#     opens and the player mailed what was read (an ERROR for a unit no
#     longer there); a past phase or no phase refused, its lines not read;
#     a phase passed over drops its text;
#   - signatures, disclaimers and company lines in German, French,
#     Russian and English naming a place are prose, not errors;
#   - places named in the players' languages (Tirreno, Nordsee, ...);
#   - replies that say what happened: an absence over absence_limit, a
#     setting nobody may SET, a hold filed for a unit with two orders, an
#     ambiguity with no possible reading, HELP on HISTORY and MAP;
#   - invisible and typographic characters (a BOM, zero-width and
#     no-break spaces, soft hyphens, smart quotes and dashes, arrows) and
#     list markers (bullets, "1.", "2)", "(3)", "a)") are not what the
#     player meant: the orders are read, and a password is never shown,
#     whatever the judge could not read;
# A mail file's @FROM@, @SUBJECT@ and @ID@ are filled in by send_eml.
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"
cd "$T" || exit 2
export DIPJUDGE_MAPDIR=$S/maps
unset DIPJUDGE_CONF DIPJUDGE_DB
JD=$JUDGED
J="$JUDGECTL --maps $S/maps --db $T/dipjudge.db"
export DIPJUDGE_NOW=$GAME_T0
C=$S/tests/mail/clients

# new_game NAME: a started standard game, masters gm@x.example, power i
# played by pI@x.example with password pw-I-secret (NAME "demo") or
# NAME-I-secret.
new_game()
{
    local g=$1 i=0 pw
    $J create "$g" --master gm@x.example press=white >/dev/null
    $J join "$g" gm@x.example --master --password gm-pw-secret >/dev/null 2>&1
    for p in $POWERS; do
        pw="pw-$i-secret"
        [[ $g == demo ]] || pw="$g-$i-secret"
        $J join "$g" "p$i@x.example" --power "$p" --password "$pw" >/dev/null
        i=$((i + 1))
    done
    [[ $(game_phase "$g") == S1901M ]] && ok || bad "$g did not start"
}
new_game demo

# send_eml FILE FROM SUBJECT: deliver a mail file; its reply in $T/out
# (the reply's body, one line each, trailing spaces kept).
echo 0 >"$T/n"
send_eml()
{
    local n reply
    n=$(($(cat "$T/n") + 1))
    echo "$n" >"$T/n"
    sed -e "s/@FROM@/$2/" -e "s/@SUBJECT@/$3/" -e "s/@ID@/cl$n@x.example/" \
        "$1" >"$T/msg-$n.eml"
    "$JD" deliver <"$T/msg-$n.eml" >/dev/null 2>"$T/err" || bad "deliver $1"
    reply=$(grep -l "In-Reply-To: <cl$n@x.example>" mail/out/new/* 2>/dev/null |
        head -1)
    if [[ -n $reply ]]; then
        # the body, decoded when the judge wrote it quoted-printable
        if grep -qi "^Content-Transfer-Encoding: quoted-printable" "$reply"; then
            sed -n '/^$/,$p' "$reply" |
                perl -MMIME::QuotedPrint -0777 -ne 'print decode_qp($_)' >"$T/out"
        else
            sed -n '/^$/,$p' "$reply" >"$T/out"
        fi
        sed -n 's/^Subject: //p' "$reply" | head -1 >"$T/subject"
    else : >"$T/out"; : >"$T/subject"; fi
}
# line TEXT: one check: the reply has exactly this line
line()
{
    if grep -qxF -- "$1" "$T/out"; then ok; else
        bad "no line '$1' in: $(head -c 900 "$T/out")"
    fi
}
# no_secret: one check: no password of the test games in the reply
no_secret()
{
    if grep -qE -- '-[0-9]-secret|gm-pw-secret' "$T/out"; then
        bad "a password in the reply: $(grep -E -- '-[0-9]-secret' "$T/out")"
    else ok; fi
}
# orders_taken N: the summary line of N orders and the SIGNON
orders_taken()
{
    line "Summary: $1 orders taken; 1 of 1 command done; all your units have orders."
}

# ---- 1. invisible and typographic characters, list markers ---------------
send_eml "$C/01-ios-bom-qp.eml" p1@x.example "orders"
line "> SIGNON Edemo ****"
line "    Signed on as England in game 'demo'."
line "> F lon - nth"
line "    F LON - NTH"
line "> A lvp - yor"
line "    A LVP - YOR"
line "> F Edinburgh -> Norwegian Sea"
line "    F EDI - NWG"
lacks "ERROR"
no_secret
orders_taken 3

send_eml "$C/02-apple-bullets.eml" p1@x.example "orders"
line "> F lon - nth"
line "> A lvp - yor"
line "> F edi - nwg"
line "    F EDI - NWG"
lacks "ERROR"
orders_taken 3

send_eml "$C/03-android-numbered.eml" p1@x.example "orders"
line "> F lon - nth"
line "> A lvp - yor"
line "> F edi - nwg"
line '> "F lon - nth"'
lacks "ERROR"
no_secret
line "Summary: 4 orders taken; 1 of 1 command done; all your units have orders."

send_eml "$C/04-outlook-html-bullets.eml" p1@x.example "orders"
line "    F LON - NTH"
line "    A LVP - YOR"
line "    F EDI - NWG"
lacks "ERROR"
orders_taken 3

send_eml "$C/05-apple-html-list.eml" p1@x.example "orders"
line "    F LON - NTH"
line "    F EDI - NWG"
lacks "ERROR"
orders_taken 3

send_eml "$C/06-bom-unreadable-signon.eml" p1@x.example "orders"
no_secret
line "  signon: Edemo ****"
line "  Please SIGN ON Edemo ****"
line "  Edemo ****"
line "  france@demo ****"

# signed mail (the signature is no text) and a long quoted thread (the
# quoted orders and sign-on are not read again)
for f in 07-pgp-mime-signed 08-smime-signed 09-gmail-long-thread; do
    send_eml "$C/$f.eml" p1@x.example "Re: dipjudge:demo - S1901M Orders"
    line "    Signed on as England in game 'demo'."
    line "    F LON - NTH"
    line "    A LVP - YOR"
    line "    F EDI - NWG"
    lacks "ERROR"
    lacks "Not read"
    no_secret
    orders_taken 3
done

# ---- 2. one mail, several games: a part per SIGNON -------------------------
new_game other
send_eml "$C/10-two-games.eml" p1@x.example "orders"
line "> SIGNON Edemo ****"
line "    Signed on as England in game 'demo'."
line "    A LVP - EDI"
line "---- part 2 of the message: what follows is for the game of this SIGNON only ----"
line "> SIGNON Fother ****"
line "    Signed on as France in game 'other'."
line "    A PAR - BUR"
line "Orders of England for S1901M (Spring 1901 Movement):"
line "Orders of France for S1901M (Spring 1901 Movement):"
lacks "ERROR"
no_secret
line "Summary: 4 orders taken; 2 of 2 commands done; all your units have orders."
expect "a mail about two games: its subject" "$(cat "$T/subject")" "dipjudge - Orders"
$J orders demo England >"$T/o"
grep -qx "A LVP - EDI" "$T/o" && ok || bad "demo England: $(cat "$T/o")"
$J orders other France >"$T/o"
grep -qx "A PAR - BUR" "$T/o" && ok || bad "other France: $(cat "$T/o")"
grep -q "LVP" "$T/o" && bad "demo's order in other: $(cat "$T/o")" || ok
$J orders other England >"$T/o"
[[ ! -s $T/o ]] || grep -qv "LVP" "$T/o" && ok || bad "other England: $(cat "$T/o")"

send_eml "$C/11-three-games-one-refused.eml" p1@x.example "orders"
line "    Signed on as England in game 'demo'."
line "    A LVP - YOR"
line "> SIGNON Fother ****"
line "    ERROR: sign-on as F in game 'other' refused: no such game or power, or a wrong password"
line "> A par - pic"
line "    (not read: this part's sign-on was refused, so nothing in it is done)"
line "> SET WAIT"
line "---- part 3 of the message: what follows is for the game of this SIGNON only ----"
line "    Signed on as Germany in game 'other'."
line "    A MUN - RUH"
line "1 part of the message was skipped: its sign-on was refused (see ERROR above)."
no_secret
$J orders other France >"$T/o"
grep -qx "A PAR - BUR" "$T/o" && ok || bad "other France changed: $(cat "$T/o")"
grep -q "PIC\|ENG" "$T/o" && bad "a refused part's orders filed: $(cat "$T/o")" || ok
$J orders other Germany >"$T/o"
grep -qx "A MUN - RUH" "$T/o" && ok || bad "other Germany: $(cat "$T/o")"
$J orders demo England >"$T/o"
grep -qx "A LVP - YOR" "$T/o" && ok || bad "demo England: $(cat "$T/o")"
grep -q "MUN\|KIE" "$T/o" && bad "other's orders in demo: $(cat "$T/o")" || ok

expect "a part refused: the subject" "$(cat "$T/subject")" "dipjudge - Orders"
sqlite3 "$T/dipjudge.db" "SELECT outcome FROM maillog ORDER BY rowid DESC LIMIT 1" >"$T/o"
expect "a part refused: the mail log" "$(cat "$T/o")" "errors"

send_eml "$C/12-refused-then-right.eml" p1@x.example "orders"
line "    ERROR: sign-on as E in game 'demo' refused: no such game or power, or a wrong password"
line "> F lon - eng"
line "    (not read: the sign-on was refused)"
line "    Signed on as England in game 'demo'."
line "    F LON - NTH"
$J orders demo England >"$T/o"
grep -qx "F LON - NTH" "$T/o" && ok || bad "demo England: $(cat "$T/o")"

# ---- 3. the older judges' commands -----------------------------------------
send_eml "$C/13-njudge-veteran.eml" p1@x.example "orders"
line "> VERSION"
grep -qE "^    dipjudge [0-9]" "$T/out" && ok || bad "VERSION: $(grep -A1 VERSION "$T/out")"
line "> PHASE Spring 1901 Movement"
line "    The orders that follow are for S1901M, the current phase."
line "    F LON - NTH"
line "> PHASE Fall 1901 Movement"
line "    The order lines that follow are stored for F1901M, read when that phase comes, never as orders for S1901M; they replace any sent before for F1901M."
line "> F lon - eng"
line "    (stored for F1901M, read when that phase comes)"
line "> A yor - lon"
line "> PHASE S1901M"
line "    A LVP - YOR"
line "> IF F lon - nth"
line "    ERROR: conditional orders (IF ... ELSE ... ENDIF) are not supported: nothing up to ENDIF is read; give each unit one plain order"
line "> F edi - nth"
line "    (not read: inside IF ... ENDIF)"
line "> ELSE"
line "> ENDIF"
line "    (the end of the IF: the lines after it are read again)"
line "> DIARY"
line "    demo: diary entry kept for S1901M (private until the game ends)"
line "    (2 lines)"
line "> POSTAL PRESS"
line "    ERROR: postal press (press sent out with the next results) is not supported: nothing was sent; write PRESS TO powers or BROADCAST, the text, then ENDPRESS"
line "> GET info"
line "    This judge keeps no files to GET ('info'): its help is HELP, which follows, and the players' guide is the manual page dipjudge(7)."
line "> PROMOTE gm2@x.example"
line "    ERROR: only the game master may do that"
line "> UNSTART"
line "  If you support me into Belgium, I will stay out of Holland."
lacks "ENDIF without IF"
lacks "unknown place 'if'"
lacks "F EDI - N"
no_secret
$J orders demo England >"$T/o"
expect "orders after PHASE and IF not filed" "$(tr '\n' ';' <"$T/o")" "F LON - NTH;A LVP - YOR;"
[[ $(ls mail/out/new | wc -l) -gt 0 ]] && ok || bad "no mail"
grep -l "Hello all" mail/out/new/* >/dev/null 2>&1 && bad "postal press sent" || ok

rm -f mail/out/new/*
send_eml "$C/14-master-official.eml" gm@x.example "notice"
line "> OFFICIAL The deadline stays; Italy's player is away until Friday."
line "    The notice went to everyone in game 'demo'."
line "> PROMOTE gm2@x.example"
line "    A code went to gm2@x.example.  It becomes a master of the game too when that"
line "> UNSTART"
line "    ERROR: a started game cannot go back to forming on this judge: ROLLBACK to its first phase, or TERMINATE it"
no_secret
n=$(grep -l "^Subject: dipjudge:demo - S1901M Official notice" mail/out/new/* | xargs grep -l "^To: p4@x.example" | wc -l)
expect "Italy's player has both notices" "$n" 2
f=$(grep -l "^Subject: dipjudge:demo - S1901M Official notice" mail/out/new/* | xargs grep -l "A reminder that orders are due" | xargs grep -l "^To: p0@x.example")
[[ -n $f ]] && ok || bad "no multi-line notice to Austria"
grep -qi "^press\|Press from\|broadcast" $f && bad "a press header in the notice: $(cat $f)" || ok

# ---- 5. prose in any language ----------------------------------------------
for f in 15-outlook-german-signature 16-french-disclaimer-latin1 \
    17-android-cyrillic-signature; do
    send_eml "$C/$f.eml" p1@x.example "orders"
    line "    F LON - NTH"
    line "    F EDI - NWG"
    lacks "ERROR"
    line "Not read (looks like text, not orders):"
    orders_taken 3
done
line "  С уважением, Иван"
line "  Warszawa, 15 stycznia 2027"
send_eml "$C/15-outlook-german-signature.eml" p1@x.example "orders"
line "  Beispiel GmbH | Ringstraße 1 | 1010 Wien | Handelsgericht Wien | FN 123456a"
line "  Sitz der Gesellschaft: München, Amtsgericht München HRB 12345"
send_eml "$C/16-french-disclaimer-latin1.eml" p1@x.example "orders"
line "  Société Exemple SAS - 12 rue de la Paix - 75002 Paris - RCS Paris B 123 456 789"

# ---- 6. names in players' languages -----------------------------------------
send_eml "$C/18-italian-names.eml" p4@x.example "ordini"
line "    F NAP - TYS"
line "    A ROM - APU"
line "    A VEN - TYR"
lacks "ERROR"
orders_taken 3
send_eml "$C/19-german-names.eml" p1@x.example "Befehle"
line "    F LON - NTH"
line "    F EDI - NWG"
line "  Grüße aus Wien"
lacks "ERROR"
orders_taken 3

# ---- 7. replies that say what happened ---------------------------------------
send_eml "$C/20-confusing-replies.eml" p2@x.example "orders"
line "    ERROR: an absence of 89 days is longer than this game's absence_limit of 14 days: send a shorter one, or ask the master (SET absence_limit)"
line "    ERROR: there is no setting 'nosuchthing': nobody may SET it by mail (HELP lists what you may SET: PASSWORD, ADDRESS, MAP, WAIT, DRAW, ABSENCE...)"
line "> SET press grey"
line "    ERROR: only the game master may do that"
line "    ERROR: A PAR has several orders (lines 5 and 6): none is used and the unit holds (rule 4.D.3 c); filed instead: A PAR H"
lacks "4.D.3 c); not accepted"
line "    ERROR: 'sw' could be Sweden or Switzerland, and the unit can be given none of those orders; not accepted"
lacks "AMBIGUOUS"
line "    Without signing on (HISTORY and MAP: signed on):"
line "                                   master, after SIGNON"
no_secret
$J show demo >"$T/o"
grep -q "France .*absent\|2027-05-01" "$T/o" && bad "the long absence was kept" || ok

# the final table of a game over in its first year: never "1899-1898"
$J create g98 --map 1898 --master gm@x.example >/dev/null
i=0
for p in $POWERS; do
    $J join g98 "p$i@x.example" --power "$p" --password "g98-$i-secret" >/dev/null
    i=$((i + 1))
done
$J terminate g98 >/dev/null
sqlite3 "$T/dipjudge.db" "SELECT body FROM outbox WHERE body LIKE '%final table%' AND recipients = 'p0@x.example'" >"$T/out"
grep -q "Austria .* 1898-1898 (1)" "$T/out" && ok || bad "final table: $(grep Austria "$T/out")"
lacks "1899-1898"

# ---- njudge's PHASE: orders for a later phase, stored until it comes -------
new_game later
later_mail()
{
    {
        printf 'From: @FROM@\nTo: judge@localhost\nSubject: @SUBJECT@\n'
        printf 'Message-ID: <@ID@>\nContent-Type: text/plain; charset=us-ascii\n\n'
        printf 'SIGNON Elater later-1-secret\n'
        cat
    } >"$T/later.eml"
    send_eml "$T/later.eml" p1@x.example "orders"
}
printf 'PHASE F1901M\nA yor - wal\n' | later_mail
line "    (stored for F1901M, read when that phase comes)"
printf '%s\n' "phase spring 1901 movement" "F lon - nth" "A lvp - yor" \
    "F edi - nwg" "PHASE Fall 1901 Movement" "F nth - nwy" "A yor - lon" \
    "F lon - eng" "PHASE S1900M" "A lvp - wal" "PHASE W1901X" "A lvp - cly" \
    "PHASE F1901R" | later_mail
line "    The orders that follow are for S1901M, the current phase."
line "    The order lines that follow are stored for F1901M, read when that phase comes, never as orders for S1901M; they replace any sent before for F1901M."
line "> F nth - nwy"
line "    (stored for F1901M, read when that phase comes)"
line "    ERROR: S1900M is past: the current phase is S1901M, and orders go only to it or a later phase: the lines after this, up to the next PHASE or SIGNON, are not read and nothing is filed"
line "    (not read: for S1900M, not the current phase)"
line "> PHASE W1901X"
lacks "A LVP - WAL"
lacks "A LVP - CLY"
$J orders later England >"$T/o"
expect "PHASE orders not filed now" "$(tr '\n' ';' <"$T/o")" "F LON - NTH;A LVP - YOR;F EDI - NWG;"
sqlite3 "$T/dipjudge.db" "SELECT phase || ':' || replace(text, char(10), '/') FROM later_orders WHERE game_id = (SELECT id FROM games WHERE name = 'later') ORDER BY phase" >"$T/o"
expect "PHASE orders stored, the later replacing" "$(tr '\n' ';' <"$T/o")" "F1901M:F nth - nwy/A yor - lon/F lon - eng/;F1901R:;"
$J process later >/dev/null || bad "process later"
expect "later: F1901M opened" "$(game_phase later)" F1901M
$J orders later England >"$T/o"
expect "PHASE orders filed when F1901M opens" "$(tr '\n' ';' <"$T/o")" "F NTH - NWY;A YOR - LON;"
sqlite3 "$T/dipjudge.db" "SELECT body FROM outbox WHERE recipients = 'p1@x.example' AND subject LIKE '%F1901M Stored orders'" >"$T/out"
line "> F nth - nwy"
line "    F NTH - NWY"
line "> F lon - eng"
grep -q "^    ERROR: .*; not accepted" "$T/out" && ok || bad "no ERROR for F lon - eng: $(cat "$T/out")"
lacks "A YOR - WAL"
expect "F1901M's text read, F1901R's kept" "$(sqlite3 "$T/dipjudge.db" "SELECT phase FROM later_orders WHERE game_id = (SELECT id FROM games WHERE name = 'later')")" F1901R
$J process later >/dev/null || bad "process later F1901M"
expect "later: no retreats, W1901A opened" "$(game_phase later)" W1901A
expect "F1901R passed over: its text dropped" "$(sqlite3 "$T/dipjudge.db" "SELECT count(*) FROM later_orders WHERE game_id = (SELECT id FROM games WHERE name = 'later')")" 0

checks_done
