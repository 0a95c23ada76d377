#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench_web.sh BUILDDIR SRCDIR [REQUESTS [CONCURRENCY]] — judgeweb over
# HTTP: bench/bench_web builds a 1,000-game database and times the pages
# in-process, fills it to 100,000 games and times the front page, the game
# page and the order pad's JSON in microseconds, then judgeweb serves it
# on loopback and ab (apache2-utils)
# asks for one game page REQUESTS times (20,000), CONCURRENCY at once (32):
# requests per second (target: 2,000 on two cores), judgeweb's memory
# (VmHWM, VmRSS) after the run, and the machine's load while it ran.
set -u
B=${1:?usage: bench_web.sh BUILDDIR SRCDIR}
S=${2:?usage: bench_web.sh BUILDDIR SRCDIR}
N=${3:-20000}
C=${4:-32}
T=$(mktemp -d /dev/shm/dipjudge-bench.XXXXXX 2>/dev/null || mktemp -d)
trap '[ -n "${PID:-}" ] && kill "$PID" 2>/dev/null; rm -rf "$T"' EXIT
"$B/bench/bench_web" "$S/maps" "$T/judge.db" 1000 100000 || exit 1
if ! command -v ab >/dev/null; then
    echo "bench_web: ab is not installed (apache2-utils): no HTTP figure"
    exit 0
fi
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$T/judge.conf" <<CONF
database = "$T/judge.db";
web: { listen = "127.0.0.1:$PORT"; threads = 2; max_per_client = 0; };
CONF
"$B/judgeweb" --config "$T/judge.conf" --maps "$S/maps" 2>"$T/log" &
PID=$!
for _ in $(seq 1 100); do
    curl -s -o /dev/null "http://127.0.0.1:$PORT/style.css" && break
    sleep 0.05
done
URL=http://127.0.0.1:$PORT/game/g0000
ab -q -n 1000 -c "$C" "$URL" >/dev/null 2>&1   # warm up
load0=$(cut -d' ' -f1 /proc/loadavg)
ab -q -n "$N" -c "$C" "$URL" >"$T/ab" 2>&1
load1=$(cut -d' ' -f1 /proc/loadavg)
rps=$(sed -n 's/^Requests per second: *\([0-9.]*\).*/\1/p' "$T/ab")
failed=$(sed -n 's/^Failed requests: *\([0-9]*\).*/\1/p' "$T/ab")
p50=$(sed -n 's/^ *50% *\([0-9]*\).*/\1/p' "$T/ab")
hwm=$(sed -n 's/^VmHWM: *//p' "/proc/$PID/status")
rss=$(sed -n 's/^VmRSS: *//p' "/proc/$PID/status")
echo "judgeweb over HTTP: ab -n $N -c $C $URL"
echo "  ${rps:-?} requests/s (target >= 2,000 on two cores), $failed failed," \
    "p50 ${p50:-?} ms"
echo "  judgeweb's memory after the run: peak $hwm, now $rss"
echo "  load average $load0 before, $load1 after; $(nproc) cores"
