#!/bin/sh
# SPDX-License-Identifier: MIT
#
# orders-corpus.sh BUILDDIR SRCDIR — the corpus of players' order lines.
#
# Every SRCDIR/tests/orders/*.txt file holds order lines as players write
# them, each with the output `judgectl orders` must give.  Format:
#
#   # comment                     (and blank lines: ignored)
#   POSITION positions/FILE.txt   case file whose first case is the position
#   POWER France                  the power whose orders these are
#   PHASE Fall 1901 Retreat       optional: overrides the position's phase
#   RULES 4.B.3=a 4.C.1=a         rule overrides from here on ("RULES": none)
#   INPUT  =>  EXPECTED           one test: INPUT alone on stdin; EXPECTED is
#                                 the output, lines joined by " ;; " (empty:
#                                 no output at all)
#   SET ... END                   the test lines between are fed together,
#                                 as one player's set of orders
#
# A directive holds until the next of its kind.  The input is everything
# before the last " => " (trailing blanks dropped), so inputs may use "=>"
# themselves.  Each INPUT line counts as one test.  Mismatches are printed
# with file and line; the last line is "N passed, N failed".
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
ORDERS=$S/tests/orders
TMP=$T

for file in "$ORDERS"/*.txt; do
    [ -f "$file" ] || continue
    awk -v judgectl="$JUDGECTL" -v maps="$S/maps" -v dir="$ORDERS" \
        -v tmp="$TMP" -v name="$(basename "$file")" '
    function q(s) { gsub(/\047/, "\047\\\047\047", s); return "\047" s "\047" }
    function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t\r]+$/, "", s); return s }
    function directive(line,   word, rest) {
        word = line; sub(/[ \t].*/, "", word)
        rest = line; sub(/^[A-Z]+[ \t]*/, "", rest); rest = trim(rest)
        if (word == "POSITION") position = rest
        else if (word == "POWER") power = rest
        else if (word == "PHASE") phase = rest
        else if (word == "RULES") rules = rest
        else if (word == "SET") { inset = 1; n = 0 }
        else if (word == "END") { inset = 0; run() }
        else { printf "%s:%d: unknown directive %s\n", name, NR, word; bad++ }
    }
    # Run the n pending tests as one input and compare.
    function run(   cmd, i, k, r, got, line, nexp, e, j, want, out, ok) {
        if (n == 0) return
        inf = tmp "/in"
        printf "" > inf
        for (i = 1; i <= n; i++) print input[i] > inf
        close(inf)
        cmd = q(judgectl) " orders --maps " q(maps) " --map standard" \
              " --position " q(dir "/" position) " --power " q(power)
        if (phase != "") cmd = cmd " --phase " q(phase)
        k = split(rules, r, /[ \t]+/)
        for (i = 1; i <= k; i++) if (r[i] != "") cmd = cmd " --rule " q(r[i])
        cmd = cmd " < " q(inf) " 2>&1"
        got = 0
        while ((cmd | getline line) > 0) out[++got] = line
        close(cmd)
        j = 0
        for (i = 1; i <= n; i++) {
            nexp = expected[i] == "" ? 0 : split(expected[i], e, / ;; /)
            ok = 1; want = ""; line = ""
            for (k = 1; k <= nexp; k++) {
                want = want (k > 1 ? " ;; " : "") e[k]
                line = line (k > 1 ? " ;; " : "") (j + k <= got ? out[j + k] : "(nothing)")
                if (j + k > got || out[j + k] != e[k]) ok = 0
            }
            j += nexp
            if (i == n && j < got) {
                ok = 0
                for (k = j + 1; k <= got; k++) line = line " ;; " out[k]
            }
            if (ok) passed++
            else {
                failed++
                printf "FAIL %s:%d: %s\n  want: %s\n  got:  %s\n", name, \
                    where[i], input[i], want, line
            }
        }
        n = 0
    }
    BEGIN { n = 0; inset = 0; passed = 0; failed = 0; bad = 0
            position = ""; power = ""; phase = ""; rules = "" }
    /^[ \t]*#/ || /^[ \t\r]*$/ { next }
    /^[A-Z]+([ \t]|$)/ && index($0, "=>") == 0 { directive(trim($0)); next }
    {
        line = $0; sep = 0
        for (i = length(line) - 1; i >= 1; i--)
            if (substr(line, i, 2) == "=>" && (i == 1 || substr(line, i - 1, 1) == " ")) {
                sep = i; break
            }
        if (!sep) { printf "%s:%d: no \" => \" in the line\n", name, NR; bad++; next }
        n++
        input[n] = substr(line, 1, sep - 1); sub(/[ \t]+$/, "", input[n])
        expected[n] = trim(substr(line, sep + 2))
        where[n] = NR
        if (!inset) run()
    }
    END {
        if (inset) { printf "%s: SET without END\n", name; bad++; run() }
        printf "%d %d\n", passed, failed + bad > (tmp "/count." name)
    }' "$file"
done

for c in "$TMP"/count.*; do
    [ -f "$c" ] || continue
    read -r p f <"$c"
    passed=$((passed + p))
    failed=$((failed + f))
done
checks_done
