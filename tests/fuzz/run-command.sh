#!/bin/sh
#
# run-command.sh [SECONDS] — build the mail command parser's fuzz target
# (tests/fuzz/fuzz_command.c) with libFuzzer, AddressSanitizer and UBSan,
# and run it for SECONDS (default 60).
#
# The target is linked with src/command/parse.c and src/util/buf.c
# directly (no configure needed).  Seeds: every command of the language in
# a few messages (tests/fuzz/run-command.sh writes them), so the fuzzer
# starts from real syntax.  The corpus and any crash files are kept in
# $DJ_FUZZ_DIR (default ${TMPDIR:-/tmp}/dipjudge-fuzz-command), so later
# runs resume where earlier ones stopped; extra libFuzzer options may be
# given in $DJ_FUZZ_FLAGS.
#
# Exit status: 0 no finding, non-zero when libFuzzer found a crash, a leak
# or a sanitizer report (the reproducer is in $DJ_FUZZ_DIR/artifacts).
set -eu

SECONDS_TO_RUN=${1:-60}
SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${DJ_FUZZ_DIR:-${TMPDIR:-/tmp}/dipjudge-fuzz-command}
CC=${CC_FUZZ:-clang}
mkdir -p "$DIR/corpus" "$DIR/seeds" "$DIR/artifacts"

"$CC" -std=c11 -D_DEFAULT_SOURCE -g -O1 \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -fno-omit-frame-pointer -I"$SRCDIR/src" \
    "$SRCDIR/tests/fuzz/fuzz_command.c" "$SRCDIR/src/command/parse.c" \
    "$SRCDIR/src/util/buf.c" -o "$DIR/fuzz_command"

# Seeds: a subject line, then a body.
seed() { printf '%b' "$2" >"$DIR/seeds/$1"; }
seed signon 'Orders\nSIGNON Fdemo secret\nA par-bur\nF bre-mao; A mar-spa\nREADY\nSIGNOFF\nrest\n'
seed anyone 'list demo\nHELP\nLIST\nHISTORY demo S1901M F1902M\nSUMMARY demo\nJOIN france@demo pw12\nOBSERVE demo pw12\nCREATE g pw12 press=grey\n'
seed player 'x\nsignon france@demo pw\nclear\nstatus\nnot ready\nset wait\nset nowait\nset draw\nset nodraw\nset concede russia\nset noconcede\nset absence 2027-01-09 20:00 to 2027-01-12\nset noabsence\nset password newpw\nset address a@b\nresign\n'
seed press 'Re: x\nSIGNON Fdemo pw\npress to FG grey fake to F G R\nhello\nENDPRESS\nbroadcast white\nall\nendbroadcast\npress to all but R T\nx\nsignoff\n'
seed master 'SIGNON Mdemo pw\nprocess\npreview\nrollback S1901M\nrollforward\npause\nresume\nstart\nbecome france\nA par-bur\neject italy\nterminate bored\nset deadline +2d\nset press grey\nset movement_delay=48h\n'
seed typos 'sigon Fdemo pw\nsign on Fdemo pw\npassword: pw\nset pasword pw\n\xc2\xa0SIGNOFF\xc2\xa0\n'

# shellcheck disable=SC2086 # extra flags are a list
"$DIR/fuzz_command" -max_total_time="$SECONDS_TO_RUN" -max_len=8192 \
    -artifact_prefix="$DIR/artifacts/" -print_final_stats=1 \
    ${DJ_FUZZ_FLAGS:-} "$DIR/corpus" "$DIR/seeds"
