#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench_ingest.sh BUILDDIR SRCDIR [GAMES] — `make bench-ingest`: order
# mails through judged on a big judge (issue 32's figures).
# bench/bench_ingest makes a judge of GAMES games (1000; 350 powers with
# passwords) and 700 order mails (each of the 350 powers twice), once
# signed on by password (a SIGNON line) and once by reply token (sent to
# judge+TOKEN@localhost); then, for each kind, each time from the same
# database:
#
#   once      all 700 in the inbound Maildir, one `judged once` (a
#             player's second mail meets the sign-on it remembers);
#   deliver4  4 `judged deliver` processes at once, each handed its
#             quarter of the mails one by one (as an MTA's pipe does).
#
# For each: mails per second (wall clock), every mail's outcome checked
# (700 in the mail log, each signed on), and the write lock's median and
# 90th-percentile hold per transaction from the test copy's
# DIPJUDGE_TEST_LOCK_LOG (src/cli/test_hooks.h: the installed judged has
# no such hook).  Replies are queued, not sent (--no-send); no tick.
set -u
B=${1:?usage: bench_ingest.sh BUILDDIR SRCDIR [GAMES]}
S=${2:?usage: bench_ingest.sh BUILDDIR SRCDIR [GAMES]}
GAMES=${3:-1000}
JD=$B/tests/bin/judged
T=$(mktemp -d /dev/shm/dipjudge-bench.XXXXXX 2>/dev/null || mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/mails/password" "$T/mails/token" "$T/in/new" "$T/in/cur" \
    "$T/in/tmp"
"$B/bench/bench_ingest" "$S" "$T/base.db" "$T/mails" "$GAMES" || exit 1
sqlite3 "$T/base.db" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
N=$(find "$T/mails/password" -name '*.eml' | wc -l)
cat >"$T/judge.conf" <<CONF
database = "$T/judge.db";
maps_dir = "$S/maps";
judge_address = "judge@localhost";
inbound: { type = "maildir"; path = "$T/in"; };
outbound: { type = "maildir"; path = "$T/out"; };
CONF
export DIPJUDGE_NOW=1800003600 # an hour after the games began
unset DIPJUDGE_CONF DIPJUDGE_DB

now() { date +%s.%N; }
# cpu_now: CPU to the CPU seconds (user + system) every child waited for
# has used so far (run in this shell, not in $(...): `times` reports the
# shell it runs in); the difference over a run is what its mails cost,
# whatever else the machine is doing (the wall clock's mails/s is not, on
# a busy machine).
cpu_now()
{
    times >"$T/times"
    CPU=$(awk 'NR == 2 {
        t = 0
        for (i = 1; i <= 2; i++) {
            split($i, p, "m"); sub("s", "", p[2]); t += p[1] * 60 + p[2]
        }
        printf "%.3f", t }' "$T/times")
}
# fresh: the judge as bench_ingest left it.
fresh()
{
    rm -f "$T"/judge.db* "$T/lock.log" "$T"/in/new/* "$T"/in/cur/*
    cp "$T/base.db" "$T/judge.db"
    cp -p "$T/base.db.reply-key" "$T/judge.db.reply-key"
}
# report NAME START END CPU0 CPU1: mails/s (wall and per CPU second), the
# mail log's count, the lock's hold.
report()
{
    local logged signed
    logged=$(sqlite3 "$T/judge.db" "SELECT count(*) FROM maillog")
    signed=$(sqlite3 "$T/judge.db" \
        "SELECT count(*) FROM maillog WHERE outcome = 'ok'")
    [[ $signed == "$N" ]] ||
        sqlite3 "$T/judge.db" "SELECT count(*), outcome FROM maillog
                               GROUP BY outcome" | head -5
    awk -v name="$1" -v t0="$2" -v t1="$3" -v c0="$4" -v c1="$5" -v n="$N" \
        -v logged="$logged" -v signed="$signed" '
        { v[NR] = $1 }
        END {
            # sort the holds (insertion sort: a few thousand lines)
            for (i = 2; i <= NR; i++) {
                x = v[i]
                for (k = i - 1; k >= 1 && v[k] > x; k--) v[k + 1] = v[k]
                v[k + 1] = x
            }
            med = NR ? v[int((NR + 1) / 2)] / 1000 : 0
            p90 = NR ? v[int(NR * 0.9 + 0.5)] / 1000 : 0
            printf "%-17s %4d mails in %6.2f s: %6.1f mails/s (%.2f CPU s, %.1f mails a CPU second); %d in the mail log, %d ok; write lock held %d times, median %.2f ms, 90%% %.2f ms\n",
                name, n, t1 - t0, n / (t1 - t0), c1 - c0, n / (c1 - c0 + 1e-9), logged, signed, NR, med, p90
        }' "$T/lock.log"
}

for KIND in password token; do
    # ---- once: one judged once over the Maildir ------------------------------
    fresh
    cp "$T/mails/$KIND"/*.eml "$T/in/new/"
    t0=$(now) && cpu_now && c0=$CPU
    DIPJUDGE_TEST_LOCK_LOG=$T/lock.log "$JD" --config "$T/judge.conf" -q \
        once --no-tick --no-send 2>"$T/once.err" || {
        echo "bench_ingest: judged once failed:"
        tail -5 "$T/once.err"
        exit 1
    }
    t1=$(now) && cpu_now && c1=$CPU
    report "once $KIND" "$t0" "$t1" "$c0" "$c1"

    # ---- deliver4: four judged deliver at once -------------------------------
    fresh
    t0=$(now) && cpu_now && c0=$CPU
    for k in 0 1 2 3; do
        (
            i=0
            for f in "$T/mails/$KIND"/*.eml; do
                if ((i++ % 4 == k)); then
                    DIPJUDGE_TEST_LOCK_LOG=$T/lock.log "$JD" \
                        --config "$T/judge.conf" -q deliver --no-send <"$f" ||
                        echo "deliver $f: $?" >>"$T/deliver.err"
                fi
            done
        ) &
    done
    wait
    t1=$(now) && cpu_now && c1=$CPU
    report "deliver4 $KIND" "$t0" "$t1" "$c0" "$c1"
    if [[ -s $T/deliver.err ]]; then
        echo "bench_ingest: $(wc -l <"$T/deliver.err") deliveries failed:"
        head -3 "$T/deliver.err"
        rm -f "$T/deliver.err"
    fi
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) (2 cores)"
