# SPDX-License-Identifier: MIT
# checks.sh — the one set-up of the shell suites (tests/scripts/*.sh):
# each sources it right after `set -u`, as
#
#   . "${2:-$DJ_SRCDIR}/tests/checks.sh"
#
# and gets where things are, a temporary directory, the programs, the
# counters and the closing "N passed, N failed" line that
# tests/count-checks.sh adds up.
#
#   B, S              the build and source trees, absolute: the suite's
#                     arguments BUILDDIR SRCDIR, else $DJ_BUILDDIR and
#                     $DJ_SRCDIR (as make check sets them)
#   JUDGECTL, JUDGED  the programs the suites run: the test copies, built
#                     with the test hooks (DIPJUDGE_NOW, the crash points...:
#                     src/cli/test_hooks.h); the installed ones have none
#   INSTALLED_JUDGECTL, INSTALLED_JUDGED  the programs as installed
#   T                 a fresh temporary directory, in memory when possible
#                     (the suites test logic and crash recovery, not the
#                     disk, and every commit's fsync would slow them);
#                     removed at exit, after the suite's own cleanup() if
#                     it defines one (a suite may point T elsewhere)
#   J                 judgectl on a database in $T and the source tree's
#                     maps (a suite may set its own)
#
#   ok / bad WHY            one check passed / failed (bad prints "FAIL: WHY")
#   check WHY COMMAND...    one check: passes when COMMAND succeeds
#   expect WHAT GOT WANT    one check: GOT is WANT
#   has TEXT / lacks TEXT   one check: $T/out contains TEXT / does not
#   count PATTERN FILE      lines of FILE matching PATTERN (never fails)
#   sql QUERY               QUERY on $T/judge.db (sqlite3)
#   quiet COMMAND...        COMMAND with its output dropped
#   checks_done             print the closing line; status 1 if any failed
#   skip_without_mail_servers  end the suite here, skipped (0 failed), on
#                           a machine that cannot start Postfix and
#                           Dovecot; under CI=true that is a failure

B=$(cd "${1:-$DJ_BUILDDIR}" && pwd) || exit 2
S=$(cd "${2:-$DJ_SRCDIR}" && pwd) || exit 2
JUDGECTL=$B/tests/bin/judgectl
JUDGED=$B/tests/bin/judged
INSTALLED_JUDGECTL=$B/judgectl
INSTALLED_JUDGED=$B/judged

game_tmpdir()
{
    if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
        mktemp -d /dev/shm/dipjudge-test.XXXXXX
    else
        mktemp -d
    fi
}
CHECKS_TMP=$(game_tmpdir) || exit 2
T=$CHECKS_TMP
checks_exit()
{
    if type cleanup >/dev/null 2>&1; then cleanup; fi
    rm -rf "$CHECKS_TMP"
}
trap checks_exit EXIT
J="$JUDGECTL --maps $S/maps --db $T/judge.db"

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
expect()
{
    if [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', want '$3'"; fi
}
has()
{
    if grep -qF -- "$1" "$T/out"; then ok; else
        bad "no '$1' in: $(head -c 600 "$T/out")"
    fi
}
lacks()
{
    if grep -qF -- "$1" "$T/out"; then
        bad "'$1' in: $(head -c 600 "$T/out")"
    else
        ok
    fi
}
sql() { sqlite3 "$T/judge.db" "$1"; }
count()
{
    grep -c -- "$1" "$2" || true
}
checks_done()
{
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
quiet() { "$@" >/dev/null; }
skip_without_mail_servers()
{
    if [ "$(id -u)" -ne 0 ]; then
        ck_why="not root (Postfix must be started as root)"
    elif ! command -v dovecot >/dev/null; then
        ck_why="dovecot is not installed"
    elif ! command -v postfix >/dev/null; then
        ck_why="postfix is not installed"
    else
        return 0
    fi
    ck_suite=$(basename "$0" .sh)
    if [ "${CI:-}" = true ]; then
        echo "$ck_suite: cannot run: $ck_why (CI must run this test;" \
             "tests/install-deps.sh installs postfix and dovecot)"
        echo "0 passed, 1 failed"
        exit 1
    fi
    echo "$ck_suite: SKIPPED: $ck_why (install with tests/install-deps.sh," \
         "run as root)"
    echo "0 passed, 0 failed"
    exit 0
}
