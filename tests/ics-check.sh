# SPDX-License-Identifier: MIT
# ics-check.sh — sourced by tests/scripts/player-options.sh: ics_strict
# FILE checks an .ics file's RFC 5545 structure strictly (python3's
# standard library has no calendar parser): every line ends in CRLF, no
# line is longer than 75 octets, continuation lines start with one space,
# BEGIN/END nest and match, VCALENDAR has VERSION:2.0 and PRODID, each
# VEVENT has UID, DTSTAMP and DTSTART (UTC: yyyymmddThhmmssZ), each VALARM
# ACTION and TRIGGER.  Prints what is wrong; status 0 when nothing.
ics_strict()
{
    LC_ALL=C awk '
    BEGIN { RS = "\n"; bad = 0; depth = 0; prev = "" }
    function fail(why) { print "ics: line " NR ": " why; bad = 1 }
    function prop(l,   name) {
        if (l == "") { fail("empty line"); return }
        name = l; sub(/[:;].*/, "", name)
        if (l !~ /^[A-Za-z0-9-]+[:;]/) fail("not a content line: " l)
        if (name == "BEGIN") { stack[++depth] = substr(l, 7); seen[depth] = "" ; return }
        if (name == "END") {
            if (depth == 0 || stack[depth] != substr(l, 5)) fail("END without its BEGIN: " l)
            else {
                need(stack[depth], seen[depth])
                depth--
            }
            return
        }
        if (depth == 0) fail("property outside a component: " l)
        seen[depth] = seen[depth] " " name " "
        if (name == "DTSTAMP" || name == "DTSTART") {
            if (l !~ /^DT(STAMP|START):[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]T[0-9][0-9][0-9][0-9][0-9][0-9]Z$/) fail("not a UTC time: " l)
        }
        if (name == "VERSION" && l != "VERSION:2.0") fail("VERSION is not 2.0")
        if (name == "TRIGGER" && l !~ /^TRIGGER:-?P(T[0-9]+[HMS]|[0-9]+[DW])/) fail("bad TRIGGER: " l)
    }
    function need(comp, s,   req, n, i, r) {
        if (comp == "VCALENDAR") req = "VERSION PRODID"
        else if (comp == "VEVENT") req = "UID DTSTAMP DTSTART"
        else if (comp == "VALARM") req = "ACTION TRIGGER"
        else return
        n = split(req, r, " ")
        for (i = 1; i <= n; i++)
            if (index(s, " " r[i] " ") == 0) fail(comp " without " r[i])
        count[comp]++
    }
    {
        if (substr($0, length($0), 1) != "\r") fail("does not end in CRLF")
        line = $0; sub(/\r$/, "", line)
        if (length(line) > 75) fail("longer than 75 octets (" length(line) ")")
        if (substr(line, 1, 1) == " ") {
            if (NR == 1) fail("continuation first")
            prev = prev substr(line, 2)
            next
        }
        if (substr(line, 1, 1) == "\t") fail("continuation by a tab")
        if (NR > 1) prop(prev)
        prev = line
    }
    END {
        if (NR == 0) { print "ics: empty"; exit 1 }
        prop(prev)
        if (depth != 0) fail("BEGIN without END")
        if (count["VCALENDAR"] != 1) fail("not one VCALENDAR")
        if (count["VEVENT"] < 1) fail("no VEVENT")
        exit bad
    }' "$1"
}
# ics_unfold FILE: the content lines, unfolded, without CR.
ics_unfold()
{
    LC_ALL=C awk '{ sub(/\r$/, "") } /^ / { l = l substr($0, 2); next }
        NR > 1 { print l } { l = $0 } END { print l }' "$1"
}
# ics_of MAILFILE OUT: the mail's text/calendar part, decoded, into OUT
# (python3's email package; nothing when the mail has none).
ics_of()
{
    python3 - "$1" "$2" <<'PY'
import email, sys
from email import policy
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=policy.default)
out = open(sys.argv[2], "wb")
for part in m.walk():
    if part.get_content_type() == "text/calendar":
        assert part.get_param("method") == "PUBLISH", "no method=PUBLISH"
        out.write(part.get_payload(decode=True))
        break
PY
}
