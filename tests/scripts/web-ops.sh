#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# web-ops.sh BUILDDIR SRCDIR — judgeweb as an admin runs it (judgeweb(8)):
#   - a bad --listen is a usage error (64), a bad web.listen in judge.conf
#     a configuration error (78);
#   - on a database that is not there it does not start (78, saying
#     `judgectl init`), rather than answering 503 to everyone;
#   - /health answers 200 "ok" while the database answers and 503 when it
#     does not, with no game data;
#   - every request is one line of the combined log format, on stderr by
#     default or in the file web.access_log names, what the client sent
#     escaped; under systemd (JOURNAL_STREAM) its own lines carry their
#     syslog priority ("<6>", "<3>").
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/scripts/web-lib.sh"
cleanup() { web_stop; }

if ! command -v curl >/dev/null; then
    echo "web-ops: cannot run: curl is not installed (tests/install-deps.sh)"
    echo "0 passed, 1 failed"
    exit 1
fi
WEB="$B/judgeweb"

# ---- the command line and the configuration ---------------------------------------
"$WEB" --listen nonsense --version >/dev/null 2>&1 # --version wins: 0
"$WEB" --listen nonsense --db "$T/judge.db" >"$T/out" 2>&1
expect "--listen nonsense: exit" "$?" 64
has "--listen"
"$WEB" --listen 127.0.0.1:99999 --db "$T/judge.db" >"$T/out" 2>&1
expect "--listen with a bad port: exit" "$?" 64
printf 'database = "%s/judge.db";\nweb = { listen = "here"; };\n' "$T" >"$T/bad.conf"
"$WEB" --config "$T/bad.conf" >"$T/out" 2>&1
expect "web.listen = \"here\": exit" "$?" 78
printf 'database = "%s/none.db";\nweb = { listen = "127.0.0.1:%s"; };\n' "$T" "$(web_free_port)" >"$T/none.conf"
timeout 10 "$WEB" --config "$T/none.conf" >"$T/out" 2>&1
expect "no database: exit" "$?" 78
has "no database at $T/none.db"
has "judgectl init"
check "no database: none made" test ! -e "$T/none.db"
JOURNAL_STREAM=8:1234 timeout 10 "$WEB" --config "$T/none.conf" >"$T/out" 2>&1
grep -q '^<3>judgeweb: no database' "$T/out" && ok || bad "no <3> priority under systemd: $(cat "$T/out")"

# ---- /health and the access log --------------------------------------------------------
web_setup || { echo "FAIL: setting up the game"; exit 1; }
WEB_LOG=$T/web.log web_start
curl -s -o "$T/out" -w '%{http_code}' "$WEB_URL/health" >"$T/code"
expect "/health with the database up" "$(cat "$T/code")" 200
expect "/health's body" "$(cat "$T/out")" ok
curl -s -o /dev/null -A 'tester "quoted" agent' -e 'http://ref.example/x' "$WEB_URL/game/demo" 
curl -s -o /dev/null "$WEB_URL/no/such/page"
sleep 0.2
grep -E '^127\.0\.0\.1 - - \[[0-9]{2}/[A-Z][a-z]{2}/[0-9]{4}:[0-9]{2}:[0-9]{2}:[0-9]{2} [-+][0-9]{4}\] "GET /health HTTP/1\.1" 200 3 "-" "curl/[^"]*"$' "$T/web.log" >/dev/null &&
    ok || bad "no combined-format line for /health in: $(cat "$T/web.log")"
grep -qF '"GET /game/demo HTTP/1.1" 200 ' "$T/web.log" && ok || bad "no line for /game/demo"
grep -qF '"http://ref.example/x" "tester \x22quoted\x22 agent"' "$T/web.log" && ok ||
    bad "Referer and User-Agent not logged, escaped: $(grep demo "$T/web.log")"
grep -qF '"GET /no/such/page HTTP/1.1" 404 ' "$T/web.log" && ok || bad "no line for the 404"
web_stop

# The database gone bad (not an SQLite file) before the worker opened it:
# judgeweb started on the good one, its port waited for without a request.
cp "$T/judge.db" "$T/judge.db.good"
WEB_PORT=$(web_free_port)
printf 'database = "%s/judge.db";\nweb = { listen = "127.0.0.1:%s"; threads = 1; access_log = "%s/access.log"; };\n' \
    "$T" "$WEB_PORT" "$T" >"$T/judge.conf"
"$WEB" --config "$T/judge.conf" --maps "$S/maps" 2>"$T/web2.log" &
WEB_PID=$!
WEB_URL=http://127.0.0.1:$WEB_PORT
for _ in $(seq 1 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$WEB_PORT") 2>/dev/null && break
    sleep 0.05
done
head -c 8192 /dev/urandom >"$T/judge.db"
rm -f "$T/judge.db-wal" "$T/judge.db-shm"
curl -s -o "$T/out" -w '%{http_code}' "$WEB_URL/health" >"$T/code"
expect "/health with the database broken" "$(cat "$T/code")" 503
expect "/health's body, broken" "$(cat "$T/out")" unavailable
lacks "demo"
sleep 0.2
grep -qF '"GET /health HTTP/1.1" 503 12 ' "$T/access.log" 2>/dev/null && ok ||
    bad "web.access_log file: $(cat "$T/access.log" 2>&1)"
grep -q 'GET /health' "$T/web2.log" && bad "access lines on stderr with a file set" || ok
web_stop
mv "$T/judge.db.good" "$T/judge.db"
checks_done
