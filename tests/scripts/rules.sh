#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rules.sh BUILDDIR SRCDIR — `judgectl rules`: its output format, --map,
# --rule, option names, and the messages and exit status for bad input.
# Ends with "N passed, N failed" (tests/count-checks.sh adds it up).
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
out=$T/out
err=$T/err

# run WANT_STATUS ARGS...: run judgectl rules, check the exit status.
run()
{
    want=$1
    shift
    "$JUDGECTL" rules "$@" >"$out" 2>"$err"
    st=$?
    if [ "$st" -eq "$want" ]; then ok; else
        bad "judgectl rules $*: exit $st, wanted $want"
        sed 's/^/    /' "$err"
    fi
}

# has_line FILE TEXT: FILE has a line that is exactly TEXT.
has_line()
{
    if grep -qxF -- "$2" "$1"; then ok; else
        bad "no line '$2' in output of the last command"
    fi
}

# Every option (29 of the DATC, 1 of variants), one header line each, all
# defaults.
run 0 --brief
[ "$(wc -l <"$out")" -eq 30 ] && ok || bad "--brief: $(wc -l <"$out") lines, wanted 30"
[ "$(grep -c ' default$' "$out")" -eq 30 ] && ok || bad "--brief: not all default"
has_line "$out" "4.A.2  convoy_paradox=d          default"
has_line "$out" "4.E.3  implicit_orders=b         default"

# The full listing: header, explanation, choices with marks and tags.
run 0 convoy_paradox
has_line "$out" "4.A.2  convoy_paradox=d          default"
has_line "$out" "    How are convoy disruption paradoxes resolved?"
has_line "$out" "    * d  Szykman: the armies convoyed in a paradox fail and have no effect [default]"
has_line "$out" "      e  All Hold: every move in the paradox fails"
[ "$(grep -c '^    [* ] [a-f]  ' "$out")" -eq 6 ] && ok || bad "4.A.2: not 6 choices"

# Every option appears once in the full listing too.
run 0
[ "$(grep -c '^4\.' "$out")" -eq 29 ] && ok || bad "full listing: not 29 headers"

# Options by issue number, any case; several at once, in table order.
run 0 --brief 4.d.7 4.A.1
[ "$(head -n 1 "$out")" = "4.A.1  multi_route_disruption=b  default" ] && ok || bad "order of named options"
has_line "$out" "4.D.7  waive=a                   default"

# --map: the map's RULE lines, marked; --rule on top.
run 0 --map "$S/tests/maps/rules-standard.map" --rule 4.A.5=b --rule=convoy_paradox=dptg
has_line "$out" "4.A.2  convoy_paradox=f          override"
has_line "$out" "4.A.3  adjacent_convoy=e         map"
has_line "$out" "4.A.5  convoy_retreat=b          override"
has_line "$out" "      e  All Hold: every move in the paradox fails [map]"
has_line "$out" "    * b  yes: the attacker did not cross that border (DPTG) [default] [override]"
has_line "$out" "      a  no [map]"

# A map by name from the maps directory.
run 0 --maps "$S/tests/maps" --map Rules-Standard --brief 4.A.2
has_line "$out" "4.A.2  convoy_paradox=e          map"
run 0 --maps "$S/maps" --map standard --brief 4.A.2
has_line "$out" "4.A.2  convoy_paradox=d          default"

# Bad input: every problem reported, nothing listed, exit 2.
run 2 --map "$S/tests/maps/bad-rule.map" --rule nonesuch=a --rule waive=Q
has_line "$err" "judgectl rules: $S/tests/maps/bad-rule.map: RULE 'convoy_paradox=z': rule convoy_paradox (4.A.2) takes one of 'abcdef', not 'z'"
has_line "$err" "judgectl rules: --rule 'nonesuch=a': unknown rule 'nonesuch' (see 'judgectl rules')"
has_line "$err" "judgectl rules: --rule 'waive=Q': rule waive (4.D.7) takes one of 'ab', not 'Q'"
[ -s "$out" ] && bad "output despite errors" || ok
run 2 --maps "$S/tests/maps" --map no-such-map
grep -q "cannot open" "$err" && ok || bad "missing map: no 'cannot open'"
run 2 nonesuch
has_line "$err" "judgectl rules: unknown rule option 'nonesuch'"
run 2 --rule
run 2 --map
run 2 --frobnicate
has_line "$err" "judgectl rules: unknown option '--frobnicate'"

# judgectl check: the map's RULE lines apply to every case.
"$JUDGECTL" check --maps "$S/tests/maps" "$S/tests/casefile/maprules.txt" >"$out" 2>&1
[ $? -eq 0 ] && ok || bad "check maprules.txt failed"
"$JUDGECTL" check --maps "$S/tests/maps" "$S/tests/casefile/badmaprule.txt" >"$out" 2>&1
[ $? -eq 2 ] && ok || bad "check badmaprule.txt: wanted exit 2"
grep -q "badmaprule.txt:3: variant 'bad-rule'" "$out" && ok || bad "badmaprule.txt: no file:line error"

checks_done
