# SPDX-License-Identifier: MIT
# web-lib.sh — sourced by the web suites (web-security.sh, web-browser.sh)
# after tests/checks.sh (B, S, T, JUDGECTL): a game played one phase into
# a real database, and a judgeweb serving it on a free loopback port.

J_WEB() { "$JUDGECTL" --maps "$S/maps" --db "$T/judge.db" "$@"; }

# web_free_port: a loopback port nothing listens on now.
web_free_port()
{
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# web_setup: game "demo" (seven players, password pw-POWER, master
# gm-pw, an observer watcher@demo.example with pw-watcher), its Spring
# 1901 played (France moves Paris to Burgundy), and
# England's press to France sent by mail; game "quiet", forming.
web_setup()
{
    J_WEB create demo --master gm@demo.example press=white >/dev/null || return 1
    for p in Austria England France Germany Italy Russia Turkey; do
        lp=$(echo "$p" | tr 'A-Z' 'a-z')
        J_WEB join demo "$lp@demo.example" --power "$p" \
            --password "pw-$p" >/dev/null || return 1
    done
    J_WEB join demo watcher@demo.example --observer \
        --password pw-watcher >/dev/null || return 1
    echo 'A par-bur' | J_WEB orders demo France --set >/dev/null || return 1
    J_WEB process demo >/dev/null || return 1
    printf 'SIGNON Edemo pw-England\nPRESS TO France\nMeet me in the Channel.\nENDPRESS\nBROADCAST\nHello all from England.\nENDPRESS\n' |
        J_WEB command --from england@demo.example >/dev/null || return 1
    J_WEB create quiet --master gm@quiet.example >/dev/null || return 1
}

# web_start [CONFIG LINES...]: judgeweb on a free port with judge.conf
# holding the database and the lines given; sets WEB_URL and WEB_PID.
web_start()
{
    WEB_PORT=$(web_free_port)
    {
        echo "database = \"$T/judge.db\";"
        echo "judge_address = \"judge@demo.example\";"
        echo "web = { listen = \"127.0.0.1:$WEB_PORT\"; $* };"
    } >"$T/judge.conf"
    "$B/judgeweb" --config "$T/judge.conf" --maps "$S/maps" \
        2>>"${WEB_LOG:-$T/judgeweb.log}" &
    WEB_PID=$!
    WEB_URL=http://127.0.0.1:$WEB_PORT
    for _ in $(seq 1 100); do
        curl -s -o /dev/null "$WEB_URL/style.css" && return 0
        sleep 0.05
    done
    echo "judgeweb did not start: $(cat "$T/judgeweb.log")"
    return 1
}

web_stop()
{
    [ -n "${WEB_PID:-}" ] && kill "$WEB_PID" 2>/dev/null && wait "$WEB_PID" 2>/dev/null
    WEB_PID=
}
