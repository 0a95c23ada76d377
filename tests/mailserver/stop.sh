#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# stop.sh DIR [--keep-dir] — stop the Dovecot and Postfix that
# tests/mailserver/start.sh DIR started (and the DNS and milters of
# auth.sh), make sure no process of theirs is
# left (by the pid files under DIR, never by name: another instance, or the
# machine's own mail system, must not be touched), and remove DIR.
# --keep-dir leaves DIR itself (start.sh uses it to clean up a leftover).
# Safe to run twice, or on a DIR where start.sh failed halfway.
#
set -uo pipefail

if [[ $# -lt 1 ]]; then
    echo "usage: $0 DIR [--keep-dir]" >&2
    exit 2
fi
[[ -d $1 ]] || exit 0
DIR=$(cd "$1" && pwd)
KEEP=${2:-}
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH

# pid_of FILE: the pid in FILE when that process is alive.
pid_of()
{
    local pid
    [[ -f $1 ]] || return 1
    pid=$(tr -dc '0-9' <"$1")
    [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

# wait_gone PID: wait (at most 10 s) for PID to exit, then kill it.
wait_gone()
{
    local i
    for ((i = 0; i < 100; i++)); do
        kill -0 "$1" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -KILL "$1" 2>/dev/null
}

# kill_children PID: a master's children, should one outlive it.
children_of()
{
    ps -o pid= --ppid "$1" 2>/dev/null | tr -d ' '
}

pf_pid=$(pid_of "$DIR/postfix/queue/pid/master.pid") || pf_pid=""
dc_pid=$(pid_of "$DIR/dovecot/run/master.pid") || dc_pid=""
pf_kids=""
dc_kids=""
[[ -n $pf_pid ]] && pf_kids=$(children_of "$pf_pid")
[[ -n $dc_pid ]] && dc_kids=$(children_of "$dc_pid")

if [[ -n $pf_pid ]]; then
    timeout 20 postfix -c "$DIR/postfix/etc" stop >/dev/null 2>&1 ||
        kill -TERM "$pf_pid" 2>/dev/null
fi
if [[ -n $dc_pid ]]; then
    kill -TERM "$dc_pid" 2>/dev/null
fi
for pid in $pf_pid $dc_pid; do
    wait_gone "$pid"
done
for pid in $pf_kids $dc_kids; do
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
done

# What tests/mailserver/auth.sh started: the DNS and the milters.
auth_pids=""
for f in "$DIR"/auth/*.pid; do
    pid=$(pid_of "$f") && auth_pids="$auth_pids $pid" && kill -TERM "$pid" 2>/dev/null
done
for pid in $auth_pids; do
    wait_gone "$pid"
done

if [[ $KEEP != --keep-dir ]]; then
    rm -rf "$DIR"
else
    rm -rf "$DIR/dovecot" "$DIR/postfix" "$DIR/mail" "$DIR/log" "$DIR/tls" \
        "$DIR/auth" "$DIR/env"
fi
exit 0
