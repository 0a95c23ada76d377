# checks.sh — sourced by the shell suites (tests/scripts/*.sh): counting
# checks the way every suite reports them, ending with the
# "N passed, N failed" line that tests/count-checks.sh adds up.
#
#   ok / bad WHY            one check passed / failed (bad prints "FAIL: WHY")
#   check WHY COMMAND...    one check: passes when COMMAND succeeds
#   count PATTERN FILE      lines of FILE matching PATTERN (never fails)
#   checks_done             print the closing line; status 1 if any failed

passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }
check()
{
    ck_what=$1
    shift
    if "$@"; then ok; else bad "$ck_what"; fi
}
count()
{
    grep -c -- "$1" "$2" || true
}
checks_done()
{
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
