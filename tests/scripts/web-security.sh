#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# web-security.sh BUILDDIR SRCDIR — judgeweb as a hostile-facing service,
# over real HTTP (curl, and Python's sockets) against a real database.
# Each block is one security point of judgeweb(8), and each check fails
# if that point is taken away:
#   tokens      256-bit session tokens, only their SHA-256 stored, expiring
#   cookies     HttpOnly, SameSite=Strict, Secure when base_url is https
#   csrf        every form carries a token; a POST without it, or with
#               another, is refused (403) and changes nothing
#   csp         Content-Security-Policy default-src 'self', script only
#               from the site (/pad.js, the one script); no inline script,
#               style or handler in any page
#   escaping    a player's press with markup reaches pages escaped
#   body        bodies over 64 KiB refused (413), with or without a length
#   connections an idle connection is closed at the timeout; a client's
#               connections beyond the limit are refused
#   signin      failures limited per client address (across games, and
#               tries at the same moment) and per target (across clients),
#               sharing the mail door's counts
#   404         what a visitor may not see answers exactly as a page that
#               does not exist: unknown games, secret orders, actions
#               without a session; the JSON holds no address
#   messages    a web order is recorded in the mail log like a mail
#   issue 33    the server's own errors carry the headers (400 for %00 and
#               bad escapes, 414, 431, 408), 405 with Allow; a head
#               trickling in is closed at header_timeout; sign-ins slow the
#               failing client at one power, never another, and a power's
#               day leaves only known browsers; the order box takes
#               orders, the account form asks the password, a new password
#               ends the other sessions; private pictures are private;
#               forwarded, trusted_proxies; a readable judge.conf warned of
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/scripts/web-lib.sh"
cleanup() { web_stop; }
# holds WHY EXPRESSION: one check, the expression evaluated by the shell.
holds() { if eval "$2"; then ok; else bad "$1"; fi; }

if ! command -v curl >/dev/null; then
    echo "web-security: cannot run: curl is not installed (tests/install-deps.sh)"
    echo "0 passed, 1 failed"
    exit 1
fi

web_setup || { echo "FAIL: setting up the game"; exit 1; }
# Start with the limits the tests below rely on.
start_limited()
{
    WEB_PORT=$(web_free_port)
    cat >"$T/judge.conf" <<CONF
database = "$T/judge.db";
judge_address = "judge@demo.example";
signon_limit = 3;
web = { listen = "127.0.0.1:$WEB_PORT"; timeout = 2; max_per_client = 4;
        header_timeout = 2; forwarded = ${FWD:-true}; signin_limit = 5;
        signin_day_limit = 12; $1 };
CONF
    "$B/judgeweb" --config "$T/judge.conf" --maps "$S/maps" \
        2>>"${WEB_LOG:-$T/judgeweb.log}" &
    WEB_PID=$!
    WEB_URL=http://127.0.0.1:$WEB_PORT
    for _ in $(seq 1 100); do
        curl -s -o /dev/null "$WEB_URL/style.css" && return 0
        sleep 0.05
    done
    echo "FAIL: judgeweb did not start"
    exit 1
}
start_limited ""

# get PATH [CURL ARGS...]: headers in $T/h, body in $T/b, status in $CODE.
get()
{
    local path=$1
    shift
    CODE=$(curl -s -o "$T/b" -D "$T/h" -w '%{http_code}' "$@" "$WEB_URL$path")
}
# as CLIENT: curl arguments for a request from CLIENT (via the proxy header).
as() { echo "-H X-Forwarded-For:$1"; }
csrf_in() { grep -o 'name="csrf" value="[0-9a-f]*"' "$1" | head -1 | sed 's/.*value="//; s/"$//'; }

# signin JAR CLIENT POWER PASSWORD: the visitor's page, then the form.
signin()
{
    local jar=$1 client=$2
    rm -f "$jar"
    get /game/demo -c "$jar" -b "$jar" -H "X-Forwarded-For: $client"
    local token
    token=$(csrf_in "$T/b")
    get /game/demo/signin -c "$jar" -b "$jar" -H "X-Forwarded-For: $client" \
        --data-urlencode "csrf=$token" --data-urlencode "power=$3" \
        --data-urlencode "password=$4"
}

# ---- tokens ----------------------------------------------------------------
signin "$T/fr" 10.1.0.1 France pw-France
holds "sign-in answers 303" '[[ $CODE == 303 ]]'
cp "$T/h" "$T/signin-h"
tok=$(awk '$6 == "djs" { print $7 }' "$T/fr")
holds "the session token is 64 hex digits (256 bits)" '[[ $tok =~ ^[0-9a-f]{64}$ ]]'
hash=$(printf '%s' "$tok" | sha256sum | cut -d' ' -f1)
holds "the token is not in the database" \
    '[[ $(sqlite3 "$T/judge.db" "SELECT count(*) FROM web_sessions WHERE token_hash = '"'$tok'"' OR csrf = '"'$tok'"'") == 0 ]]'
holds "its SHA-256 is" \
    '[[ $(sqlite3 "$T/judge.db" "SELECT count(*) FROM web_sessions WHERE token_hash = '"'$hash'"'") == 1 ]]'
holds "it expires after session_lifetime (12 h by default)" \
    '[[ $(sqlite3 "$T/judge.db" "SELECT expires_at - created_at FROM web_sessions WHERE token_hash = '"'$hash'"'") == 43200 ]]'
get /game/demo -b "$T/fr"
holds "signed in, the game page has the order form" 'grep -q "Signed in as France" "$T/b"'
signin "$T/it" 10.1.0.9 Italy pw-Italy
itok=$(awk '$6 == "djs" { print $7 }' "$T/it")
ihash=$(printf '%s' "$itok" | sha256sum | cut -d' ' -f1)
sqlite3 "$T/judge.db" "UPDATE web_sessions SET expires_at = 1000 WHERE token_hash = '$ihash'"
get /game/demo -b "$T/it"
holds "an expired session signs nobody in" '! grep -q "Signed in as" "$T/b"'
holds "two sign-ins have different tokens" '[[ $itok != "$tok" ]]'

# ---- cookies ------------------------------------------------------------------
holds "the session cookie is HttpOnly and SameSite=Strict" \
    'grep -i "^Set-Cookie: djs=" "$T/signin-h" | grep -q "HttpOnly; SameSite=Strict"'
holds "not Secure over http" '! grep -i "^Set-Cookie: djs=" "$T/signin-h" | grep -q Secure'
web_stop
start_limited 'base_url = "https://judge.example";'
get /
holds "every cookie Secure when base_url is https" \
    'grep -i "^Set-Cookie: djc=" "$T/h" | grep -q "HttpOnly; SameSite=Strict; Secure"'
web_stop
start_limited ""

# ---- csrf -----------------------------------------------------------------------
get /game/demo -b "$T/fr"
forms=$(grep -c '<form' "$T/b")
tokens=$(grep -c 'name="csrf"' "$T/b")
holds "every form of the signed-in page carries a CSRF token ($forms forms)" \
    '[[ $forms -ge 4 && $forms == "$tokens" ]]'
get /
cs=$(csrf_in "$T/b")
before=$(sqlite3 "$T/judge.db" "SELECT count(*) FROM orders")
get /game/demo/orders -b "$T/fr" --data-urlencode 'orders=A mar-spa'
holds "orders without a CSRF token: 403" '[[ $CODE == 403 ]]'
get /game/demo/orders -b "$T/fr" --data-urlencode "csrf=$cs" --data-urlencode 'orders=A mar-spa'
holds "orders with another token (the visitor's): 403" '[[ $CODE == 403 ]]'
holds "and nothing was filed" \
    '[[ $(sqlite3 "$T/judge.db" "SELECT count(*) FROM orders") == "$before" ]]'
get /game/demo/signin -H 'X-Forwarded-For: 10.1.0.2' \
    --data-urlencode 'power=France' --data-urlencode 'password=pw-France'
holds "a sign-in without the CSRF token: 403" '[[ $CODE == 403 ]]'
holds "  and no session made" '! grep -qi "^Set-Cookie: djs=[0-9a-f]" "$T/h"'

# ---- csp and what pages hold ---------------------------------------------------------
for page in / /game/demo /game/demo/S1901M /game/demo/press /nowhere; do
    get "$page" -b "$T/fr"
    csp=$(grep -i '^Content-Security-Policy:' "$T/h")
    holds "$page: CSP default-src 'self', scripts from the site only" \
        '[[ $csp == *"default-src '"'self'"'"* && $csp == *"script-src '"'self'"'"* && $csp != *unsafe* ]]'
    holds "$page: no inline script, style attribute or handler" \
        '! sed "s|<script src=\"/pad.js\" defer></script>||g" "$T/b" | grep -qiE "<script|style=|<style| on[a-z]+="'
    holds "$page: nosniff and frame-ancestors none" \
        'grep -qi "^X-Content-Type-Options: nosniff" "$T/h" && [[ $csp == *"frame-ancestors '"'none'"'"* ]]'
done

# ---- escaping -----------------------------------------------------------------------
get /game/demo -b "$T/fr"
cs=$(csrf_in "$T/b")
get /game/demo/press -L -b "$T/fr" --data-urlencode "csrf=$cs" \
    --data-urlencode 'to=all' --data-urlencode 'text=<script>alert("x")</script> & <b>bold</b>'
holds "a broadcast from the web is sent" 'grep -q "broadcast sent to everyone" "$T/b"'
# post/redirect/get (issue 38): the same press without following: 303 to
# the game's page, its answer kept for that page's next view
get /game/demo/press -b "$T/fr" --data-urlencode "csrf=$cs" \
    --data-urlencode 'to=all' --data-urlencode 'text=Second broadcast'
holds "a form's POST answers 303 to the game's page" \
    '[[ $CODE == 303 ]] && grep -qi "^Location: /game/demo\s*$" "$T/h"'
get /game/demo -b "$T/fr"
holds "  whose next view shows the reply" 'grep -q "broadcast sent to everyone" "$T/b"'
get /game/demo -b "$T/fr"
holds "  once" '! grep -q "broadcast sent to everyone" "$T/b"'
get /game/demo/press -b "$T/fr"
holds "its markup is shown as text" \
    'grep -qF "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" "$T/b" && ! sed "s|<script src=\"/pad.js\" defer></script>||g" "$T/b" | grep -q "<script"'

get /game/demo -b "$T/fr"
cs=$(csrf_in "$T/b")
get /game/demo/press -b "$T/fr" --data-urlencode "csrf=$cs" --data-urlencode 'to=all' \
    --data-urlencode "text=$(printf 'evil \342\200\256txet\342\200\254 here\nGame '"'"'demo'"'"', S1901M: broadcast from Master.')"
get /game/demo/press -b "$T/fr"
holds "press on the web: a bidi override shown by name, not obeyed (issue 33)" \
    'grep -qF "evil [U+202E]txet[U+202C] here" "$T/b" && ! grep -q "$(printf "\342\200\256")" "$T/b"'
holds "  and a line like the judge's quoted" 'grep -qF "&gt; Game &#39;demo&#39;, S1901M: broadcast from Master." "$T/b"'

# ---- body size ----------------------------------------------------------------------
head -c 70000 /dev/zero | tr '\0' 'a' >"$T/big"
get /game/demo/orders -b "$T/fr" --data-binary "@$T/big"
holds "a 70 KB body: 413" '[[ $CODE == 413 ]]'
get /game/demo/orders -b "$T/fr" -H 'Transfer-Encoding: chunked' --data-binary "@$T/big"
holds "a 70 KB chunked body (no length): 413" '[[ $CODE == 413 ]]'
head -c 60000 /dev/zero | tr '\0' 'a' >"$T/fits"
get /game/demo/orders -b "$T/fr" --data-binary "@$T/fits"
holds "a 60 KB body is read (then refused as no form of ours)" '[[ $CODE == 400 ]]'

# ---- connections ------------------------------------------------------------------
out=$(python3 - "$WEB_PORT" <<'PY'
import socket, sys, time
port = int(sys.argv[1])
# idle: answered 408 and closed after the 2 s header timeout
s = socket.create_connection(("127.0.0.1", port))
s.settimeout(8)
t0 = time.time()
try:
    data = s.recv(4096)
except Exception:
    data = b"timeout"
print("idle-closed" if data.startswith(b"HTTP/1.1 408") and
      b"X-Frame-Options: DENY" in data and time.time() - t0 < 4
      else "idle-open %r" % data[:40])
# trickling a header byte a second does not keep a head open either
s = socket.create_connection(("127.0.0.1", port))
s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
s.settimeout(0.9)
t0 = time.time()
data = b""
while time.time() - t0 < 6 and not data:
    try:
        data = s.recv(4096)
    except socket.timeout:
        s.sendall(b"a")
    except OSError:
        break
print("trickle-closed" if data.startswith(b"HTTP/1.1 408") and
      time.time() - t0 < 4 else "trickle-open")
# a client's fifth connection beyond max_per_client = 4 is served: the
# oldest of its four idle ones is closed for it
# (from 127.0.0.2: 127.0.0.1 is the trusted proxy here, never capped)
src = ("127.0.0.2", 0)
held = [socket.create_connection(("127.0.0.1", port), source_address=src)
        for _ in range(4)]
time.sleep(0.2)
x = socket.create_connection(("127.0.0.1", port), source_address=src)
x.settimeout(3)
try:
    x.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    got = x.recv(100)
except Exception:
    got = b""
print("fifth-served" if got.startswith(b"HTTP/1.1 200") else "fifth-refused")
held[0].settimeout(1)
try:
    first = held[0].recv(100)
except ConnectionResetError:
    first = b""
except Exception:
    first = b"open"
print("oldest-closed" if first == b"" else "oldest-open")
for h in held:
    h.close()
PY
)
holds "an idle connection is answered 408 and closed at the header timeout" '[[ $out == *idle-closed* ]]'
holds "a head trickling in a byte a second is closed all the same" '[[ $out == *trickle-closed* ]]'
holds "a client's connection beyond the limit is served" '[[ $out == *fifth-served* ]]'
holds "  and the client's oldest idle one is closed for it" '[[ $out == *oldest-closed* ]]'
sleep 0.3
get /
holds "afterwards the client is served again" '[[ $CODE == 200 ]]'

# ---- what the server refuses itself carries the headers too (issue 33) --------------
# secure_headers: the security headers every answer has, in $T/h
secure_headers()
{
    grep -qi '^X-Frame-Options: DENY' "$T/h" &&
        grep -qi '^X-Content-Type-Options: nosniff' "$T/h" &&
        grep -qi "^Content-Security-Policy: default-src 'none'" "$T/h" &&
        grep -qi '^Referrer-Policy: same-origin' "$T/h"
}
get '/game/demo%00.json'
holds "a path with %00: 400, not the demo's page" '[[ $CODE == 400 ]] && ! grep -q "Game demo" "$T/b"'
holds "  with the security headers" secure_headers
for p in '/game/demo%zz' '/game/demo%4' '/game/%'; do
    get "$p"
    holds "$p (no escape): 400, with the security headers" '[[ $CODE == 400 ]] && secure_headers'
done
long=$(head -c 5000 /dev/zero | tr '\0' a)
get "/$long"
holds "a 5,000-byte path: 414, with the security headers" '[[ $CODE == 414 ]] && secure_headers'
get / -H "X-Big: $(head -c 20000 /dev/zero | tr '\0' b)"
holds "20 KB of headers: 431, with the security headers" '[[ $CODE == 431 ]] && secure_headers'
out=$(python3 - "$WEB_PORT" <<'PY'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=3)
s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n")
print(s.recv(4096).decode("latin-1"))
PY
)
holds "a header line without a colon: 400 with the headers" \
    '[[ $out == "HTTP/1.1 400"* && $out == *"X-Frame-Options: DENY"* ]]'
get / -X PUT
holds "PUT: 405 with Allow" '[[ $CODE == 405 ]] && grep -qi "^Allow: GET, HEAD, POST" "$T/h" && grep -qi "^X-Frame-Options: DENY" "$T/h"'
get /game/demo/orders
holds "GET of a form's address: 405, Allow: POST" '[[ $CODE == 405 ]] && grep -qi "^Allow: POST" "$T/h"'
get /game/demo -X POST -d x=1 -b "$T/fr"
holds "POST to a page: 405, Allow: GET, HEAD" '[[ $CODE == 405 ]] && grep -qi "^Allow: GET, HEAD" "$T/h"'

# ---- sign-in limits -------------------------------------------------------------------
for i in 1 2 3; do signin "$T/x" 10.2.0.1 Germany wrong; done
holds "a wrong password: 403, refused" '[[ $CODE == 403 ]] && grep -q "Sign-in refused" "$T/b"'
# (judgeweb's clock is the real one: the client's later failures are
# written into the table, a few seconds back, rather than waited for)
fail_as() # CLIENT TARGET N SECONDS-AGO: N failures more
{
    sqlite3 "$T/judge.db" "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL
        SELECT i + 1 FROM n WHERE i < $3) INSERT INTO signon_failures
        (sender, game, target, class, at) SELECT 'web $1', 'demo', '$2',
        'web', $(date +%s) - $4 FROM n"
}
fail_as 10.2.0.1 germany 3 0
signin "$T/x" 10.2.0.1 Germany pw-Germany
holds "after 6 failures from one client at Germany, it waits 8 s (1, 2, 4, 8), the right password too" \
    '[[ $CODE == 403 ]] && grep -qE "try again in [78] seconds" "$T/b"'
signin "$T/x" 10.2.0.2 Germany pw-Germany
holds "  while another client's right password works: a stranger locks nobody out" '[[ $CODE == 303 ]]'
fail_as 10.2.0.1 germany 20 0
signin "$T/x" 10.2.0.1 Germany pw-Germany
holds "  the wait is capped at an hour" \
    '[[ $CODE == 403 ]] && grep -qE "try again in 3(600|599) seconds" "$T/b"'
sqlite3 "$T/judge.db" "DELETE FROM signon_failures WHERE id NOT IN
    (SELECT id FROM signon_failures ORDER BY id LIMIT 6);
    UPDATE signon_failures SET at = at - 3700"
signin "$T/x" 10.2.0.1 Germany pw-Germany
holds "  and once its wait is over, the right password works" '[[ $CODE == 303 ]]'
sqlite3 "$T/judge.db" "DELETE FROM signon_failures"
signin "$T/x" 10.2.0.3 Germany pw-Germany
holds "once the failures age out, the password works" '[[ $CODE == 303 ]]'
for c in 10.3.0.1 10.3.0.2 10.3.0.3; do signin "$T/x" "$c" Turkey wrong; done
signin "$T/x" 10.3.0.4 Turkey pw-Turkey
holds "3 failures as Turkey from 3 clients do not stop a 4th client's right password" '[[ $CODE == 303 ]]'
holds "  the mail door counted them (signon_failures)" \
    '[[ $(sqlite3 "$T/judge.db" "SELECT count(*) FROM signon_failures WHERE target = '"'turkey'"'") == 3 ]]'
sqlite3 "$T/judge.db" "DELETE FROM signon_failures"
for g in g1 g2 g3 g4 g5; do
    get /game/demo -c "$T/y" -b "$T/y" -H 'X-Forwarded-For: 10.4.0.1'
    cs=$(csrf_in "$T/b")
    get "/game/$g/signin" -c "$T/y" -b "$T/y" -H 'X-Forwarded-For: 10.4.0.1' \
        --data-urlencode "csrf=$cs" --data-urlencode power=France --data-urlencode password=x
done
sqlite3 "$T/judge.db" "DELETE FROM signon_failures"
signin "$T/y" 10.4.0.1 Austria pw-Austria
holds "per client: 5 failures at 5 games stop the client's next sign-in" '[[ $CODE == 403 ]]'
signin "$T/y" 10.4.0.2 Austria pw-Austria
holds "  while another client signs in" '[[ $CODE == 303 ]]'
# Tries from one client at the same moment, answered by different threads:
# each counts as it starts, so no more than signin_limit reach a password.
sqlite3 "$T/judge.db" "DELETE FROM signon_failures"
for g in r1 r2 r3 r4; do J_WEB create "$g" --master gm@r.example >/dev/null; done
for g in r1 r2 r3 r4; do
    get "/game/$g" -c "$T/z" -b "$T/z" -H 'X-Forwarded-For: 10.5.0.1'
    get "/game/$g/signin" -c "$T/z" -b "$T/z" -H 'X-Forwarded-For: 10.5.0.1' \
        --data-urlencode "csrf=$(csrf_in "$T/b")" --data-urlencode power=France \
        --data-urlencode password=x
done
cs=$(sed -n 's/.*\tdjc\t//p' "$T/z")
tries=()
for g in r1 r2 r3 r4; do # four at once: max_per_client connections
    curl -s -o /dev/null -b "djc=$cs" -H 'X-Forwarded-For: 10.5.0.1' \
        --data-urlencode "csrf=$cs" --data-urlencode power=Italy \
        --data-urlencode password=x "$WEB_URL/game/$g/signin" &
    tries+=($!)
done
wait "${tries[@]}"
holds "4 tries at once after 4 failures: 1 reaches a password (limit 5)" \
    '[[ $(sqlite3 "$T/judge.db" "SELECT count(*) FROM signon_failures") == 5 ]]'

# ---- a power's day: signin_day_limit failures from every client together -------------
sqlite3 "$T/judge.db" "DELETE FROM signon_failures"
signin "$T/known" 10.6.5.1 Italy pw-Italy
holds "a sign-in gives the browser a known-browser cookie" \
    '[[ $CODE == 303 ]] && grep -qi "^Set-Cookie: djd=[0-9a-f]\{64\}; .*HttpOnly; SameSite=Strict" "$T/h"'
holds "  stored as its hash only" \
    '[[ $(sqlite3 "$T/judge.db" "SELECT count(*) FROM web_devices") -ge 1 ]]'
now=$(date +%s)
sqlite3 "$T/judge.db" "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 11)
    INSERT INTO signon_failures (sender, game, target, class, at)
    SELECT 'web 10.66.0.' || i, 'demo', 'italy', 'web', $now - 600 FROM n"
told_before=$(sqlite3 "$T/judge.db" "SELECT count(*) FROM outbox WHERE subject LIKE '%Failed sign-ons' AND body LIKE '%within a day%'")
signin "$T/x" 10.66.1.1 Italy wrong
holds "the power's 12th failure of the day (signin_day_limit 12) tells the master once" \
    '[[ $(sqlite3 "$T/judge.db" "SELECT count(*) FROM outbox WHERE subject LIKE '"'%Failed sign-ons'"' AND body LIKE '"'%within a day%'"'") == $((told_before + 1)) ]]'
signin "$T/x" 10.66.1.2 Italy pw-Italy
holds "then a browser new to Italy is refused, the right password too" \
    '[[ $CODE == 403 ]] && grep -qi "only from browsers that signed in as italy before" "$T/b"'
holds "  unread: no failure counted" \
    '[[ $(sqlite3 "$T/judge.db" "SELECT count(*) FROM signon_failures WHERE target = '"'italy'"'") == 12 ]]'
sed -i '/\tdjs\t/d' "$T/known" # its session over, the browser keeps djd
get /game/demo -c "$T/known" -b "$T/known" -H 'X-Forwarded-For: 10.6.5.9'
get /game/demo/signin -c "$T/known" -b "$T/known" -H 'X-Forwarded-For: 10.6.5.9' \
    --data-urlencode "csrf=$(csrf_in "$T/b")" --data-urlencode power=Italy \
    --data-urlencode password=pw-Italy
holds "  while the browser that signed in as Italy before still signs in" '[[ $CODE == 303 ]]'
holds "  and keeps its cookie" '! grep -qi "^Set-Cookie: djd=" "$T/h"'
sqlite3 "$T/judge.db" "DELETE FROM signon_failures"

# ---- observers ------------------------------------------------------------------------
sqlite3 "$T/judge.db" "DELETE FROM signon_failures"
signin_observer()
{
    rm -f "$T/ob"
    get /game/demo -c "$T/ob" -b "$T/ob" -H "X-Forwarded-For: $1"
    local token
    token=$(csrf_in "$T/b")
    get /game/demo/signin -c "$T/ob" -b "$T/ob" -H "X-Forwarded-For: $1" \
        --data-urlencode "csrf=$token" --data-urlencode "power=observer" \
        --data-urlencode "address=$2" --data-urlencode "password=$3"
}
signin_observer 10.6.0.1 watcher@demo.example pw-watcher
holds "an observer signs in with the address it observes from" '[[ $CODE == 303 ]]'
get /game/demo -b "$T/ob"
holds "  and reads, with no order form" 'grep -q "Signed in as observer" "$T/b" && ! grep -q "/game/demo/orders" "$T/b"'
for i in 1 2 3; do signin_observer 10.6.0.$((i + 1)) watcher@demo.example wrong; done
signin_observer 10.6.0.9 watcher@demo.example pw-watcher
holds "strangers' failures as the observer do not stop the observer" '[[ $CODE == 303 ]]'
sqlite3 "$T/judge.db" "DELETE FROM signon_failures"

# ---- 404 ---------------------------------------------------------------------------------
get /nowhere
nf=$(cat "$T/b")
holds "an unknown path: 404" '[[ $CODE == 404 ]]'
for p in /game/nosuch /game/nosuch/press /game/nosuch.json /game/demo/S1999M \
         /game/demo/F1901M/orders.svg /game/nosuch/S1901M/board.svg; do
    get "$p"
    holds "$p: 404, the same page" '[[ $CODE == 404 && $(cat "$T/b") == "$nf" ]]'
done
get /game/demo/orders -X POST -d 'orders=A mar-spa'
holds "an action without a session: 404" '[[ $CODE == 404 && $(cat "$T/b") == "$nf" ]]'
get /game/quiet/orders -b "$T/fr" -X POST -d 'orders=A mar-spa'
holds "an action on another game than the session's: 404" '[[ $CODE == 404 ]]'
get /game/demo.json
holds "the JSON holds no address" '[[ $CODE == 200 ]] && ! grep -q "@demo.example" "$T/b"'
# a private game: not listed, its pages and press 404 to visitors
J_WEB set quiet private=letmein >/dev/null
J_WEB create hidden --master gm@hidden.example unlisted=yes >/dev/null
get /
holds "private and unlisted games are not listed" '! grep -q "/game/quiet\"" "$T/b" && ! grep -q "/game/hidden\"" "$T/b"'
for p in /game/quiet /game/quiet/press /game/quiet.json; do
    get "$p"
    holds "$p (private): 404, the same page" '[[ $CODE == 404 && $(cat "$T/b") == "$nf" ]]'
done
get /game/hidden
holds "an unlisted game is reached by its name" '[[ $CODE == 200 ]]'
J_WEB set demo private=letmein >/dev/null
get /game/demo.json -b "$T/fr"
holds "  its JSON never shows the join password" '[[ $CODE == 200 ]] && ! grep -q letmein "$T/b"'
get /game/demo
holds "a private game's page: 404 to a visitor" '[[ $CODE == 404 ]]'
rm -f "$T/pv"
get / -c "$T/pv" -b "$T/pv" -H 'X-Forwarded-For: 10.7.0.1'
cs=$(csrf_in "$T/b")
get /signin -c "$T/pv" -b "$T/pv" -H 'X-Forwarded-For: 10.7.0.1' \
    --data-urlencode "csrf=$cs" --data-urlencode game=demo \
    --data-urlencode power=Austria --data-urlencode password=pw-Austria
holds "  its players sign in from the front page's form" '[[ $CODE == 303 ]]'
get /game/demo -b "$T/pv"
holds "  and then see it" '[[ $CODE == 200 ]] && grep -q "Signed in as Austria" "$T/b"'
get /game/demo/S1901M/board.svg -b "$T/pv"
holds "  its pictures are Cache-Control: private" '[[ $CODE == 200 ]] && grep -qi "^Cache-Control: private" "$T/h"'
J_WEB set demo private=no >/dev/null
get /game/demo/S1901M/board.svg
holds "  a public game's: public" '[[ $CODE == 200 ]] && grep -qi "^Cache-Control: public" "$T/h"'
J_WEB set demo private=letmein >/dev/null
get /signin -c "$T/pv" -b "$T/pv" --data-urlencode "csrf=$cs" \
    --data-urlencode 'game=../x' --data-urlencode power=a --data-urlencode password=b
holds "  a game name that is not one: 400" '[[ $CODE == 400 ]]'
J_WEB set demo private=no >/dev/null
get /game/demo/press
holds "a visitor sees no press of a game in play (dj_press_visible)" \
    '! grep -q "Meet me in the Channel" "$T/b" && ! grep -q "Hello all from England" "$T/b"'
get /game/demo/press -b "$T/fr"
holds "France, its recipient, sees it" 'grep -q "Meet me in the Channel" "$T/b"'
holds "  and the broadcast" 'grep -q "Hello all from England" "$T/b"'
signin "$T/ru" 10.5.0.1 Russia pw-Russia
get /game/demo/press -b "$T/ru"
holds "Russia does not" '! grep -q "Meet me in the Channel" "$T/b"'

# ---- a web message is a mail ----------------------------------------------------------------
get /game/demo -b "$T/fr"
cs=$(csrf_in "$T/b")
get /game/demo/orders -L -b "$T/fr" --data-urlencode "csrf=$cs" \
    --data-urlencode 'orders=A bur-mun'
holds "orders answered with the mail echo" 'grep -q "&gt; A bur-mun" "$T/b" && grep -q "A BUR - MUN" "$T/b"'
holds "recorded in the mail log like a mail" \
    '[[ $(sqlite3 "$T/judge.db" "SELECT count(*) FROM maillog WHERE message_id LIKE '"'<web.%'"'") -ge 2 ]]'
get /signout -b "$T/fr" -c "$T/fr" -X POST --data-urlencode "csrf=$cs"
holds "sign out: 303" '[[ $CODE == 303 ]]'
holds "  and the session row is gone" \
    '[[ $(sqlite3 "$T/judge.db" "SELECT count(*) FROM web_sessions WHERE token_hash = '"'$hash'"'") == 0 ]]'

# ---- the order box takes orders; the account form asks the password (issue 33) ------
sqlite3 "$T/judge.db" "DELETE FROM signon_failures"
signin "$T/en1" 10.10.0.1 England pw-England
signin "$T/en2" 10.10.0.2 England pw-England
get /game/demo -b "$T/en1"
cs=$(csrf_in "$T/b")
holds "the signed-in page has the account form" 'grep -q "action=\"/game/demo/account\"" "$T/b"'
for line in 'RESIGN' 'SET PASSWORD stolen-password' 'SET ADDRESS thief@evil.example' \
            'SET CONCEDE France'; do
    get /game/demo/orders -L -b "$T/en1" --data-urlencode "csrf=$cs" \
        --data-urlencode "orders=$(printf 'F lon-nth\n%s' "$line")"
    holds "the order box refuses '$line': the account form asks the password" \
        'grep -q "is not for the order box" "$T/b" && grep -q "go by the account form below" "$T/b"'
done
get /game/demo/orders -L -b "$T/en1" --data-urlencode "csrf=$cs" --data-urlencode 'orders=PROCESS'
holds "  and a command of the mail alone" 'grep -q "PROCESS is not for the order box" "$T/b"'
holds "  nothing of them was done (the old password works, the address stays)" \
    '[[ $(sqlite3 "$T/judge.db" "SELECT email || status FROM participants p JOIN games g ON g.id = p.game_id WHERE g.name = '"'demo'"' AND p.power = 1") == "england@demo.example"* ]] &&
     ! sqlite3 "$T/judge.db" "SELECT count(*) FROM orders o" | grep -q "^x"'
signin "$T/en3" 10.10.0.3 England pw-England
holds "  the password is unchanged" '[[ $CODE == 303 ]]'
get /game/demo/orders -L -b "$T/en1" --data-urlencode "csrf=$cs" \
    --data-urlencode 'orders=F lon-nth
READY'
holds "orders and READY still go by the order box" 'grep -q "F LON - NTH" "$T/b"'
get /game/demo/account -b "$T/en1" --data-urlencode "csrf=$cs" \
    --data-urlencode 'command=SET PASSWORD new-england-pw' --data-urlencode password=wrong
holds "the account form with a wrong password: 403, nothing done" \
    '[[ $CODE == 403 ]] && grep -q "Nothing was done" "$T/b"'
get /game/demo/account -L -b "$T/en1" --data-urlencode "csrf=$cs" \
    --data-urlencode 'command=F lon-nth' --data-urlencode password=pw-England
holds "  an order there: refused" 'grep -q "the account form takes one account command" "$T/b"'
get /game/demo/account -L -b "$T/en1" -c "$T/en1" --data-urlencode "csrf=$cs" \
    --data-urlencode 'command=SET PASSWORD new-england-pw' --data-urlencode password=pw-England
holds "with the password: SET PASSWORD is done" 'grep -q "password changed" "$T/b"'
get /game/demo -b "$T/en1"
holds "  the browser that changed it stays signed in" 'grep -q "Signed in as England" "$T/b"'
get /game/demo -b "$T/en2"
holds "  every other session of England has ended" '! grep -q "Signed in as" "$T/b"'
get /game/demo -b "$T/en3"
holds "  (all of them)" '! grep -q "Signed in as" "$T/b"'
signin "$T/en4" 10.10.0.4 England new-england-pw
holds "  the new password signs in" '[[ $CODE == 303 ]]'
signin_observer 10.10.0.5 watcher@demo.example pw-watcher
get /game/demo -b "$T/ob"
get /game/demo/account -L -b "$T/ob" -c "$T/ob" --data-urlencode "csrf=$(csrf_in "$T/b")" \
    --data-urlencode 'command=SET PASSWORD new-watcher-pw' --data-urlencode password=pw-watcher
holds "an observer's account form too (found by its address)" 'grep -q "password changed" "$T/b"'
J_WEB set demo private=no >/dev/null

# ---- behind a proxy (issue 33) ---------------------------------------------------------
web_stop
WEB_LOG=$T/fwd.log
FWD=false start_limited ''
get /game/demo -H 'X-Forwarded-For: 10.8.0.1'
get /style.css -H 'X-Forwarded-For: 10.8.0.2'
holds "forwarded = false and a proxy's request: judgeweb warns" \
    'grep -q "warning: requests come through a proxy (127.0.0.1 sends X-Forwarded-For) but web.forwarded is false" "$T/fwd.log"'
holds "  once" '[[ $(grep -c "web.forwarded is false" "$T/fwd.log") == 1 ]]'
web_stop
sqlite3 "$T/judge.db" "DELETE FROM signon_failures"
start_limited 'trusted_proxies = "192.0.2.1";'
signin "$T/x" 10.9.0.1 Germany wrong
holds "X-Forwarded-For from an address not in trusted_proxies is not believed" \
    '[[ $(sqlite3 "$T/judge.db" "SELECT group_concat(sender) FROM signon_failures") == "web 127.0.0.1" ]]'
web_stop
sqlite3 "$T/judge.db" "DELETE FROM signon_failures"
start_limited 'trusted_proxies = "127.0.0.0/8";'
signin "$T/x" 10.9.0.2 Germany wrong
holds "  and from one in it, it is" \
    '[[ $(sqlite3 "$T/judge.db" "SELECT group_concat(sender) FROM signon_failures") == "web 10.9.0.2" ]]'
web_stop
sqlite3 "$T/judge.db" "DELETE FROM signon_failures"
printf 'database = "%s";\nweb = { trusted_proxies = "not-an-address"; };\n' \
    "$T/judge.db" >"$T/badproxy.conf"
"$B/judgeweb" --config "$T/badproxy.conf" --maps "$S/maps" >"$T/out" 2>&1
holds "a trusted_proxies that is no address: judgeweb says so and stops" \
    'grep -q "not-an-address" "$T/out"'

# ---- judgeweb warns of a judge.conf others may read, like judged --------------------
WEB_LOG=$T/perm.log
web_start 'forwarded = false; }; outbound = { type = "smtp"; password = "smtp-secret";'
chmod 644 "$T/judge.conf"
web_stop
"$B/judgeweb" --config "$T/judge.conf" --maps "$S/maps" 2>"$T/perm.log" &
WEB_PID=$!
sleep 0.5
web_stop
holds "judgeweb warns of a mail password others may read" \
    'grep -q "judgeweb: warning: .*judge.conf holds a mail password and users other than the judge.s may read it (mode 0644)" "$T/perm.log"'

checks_done
