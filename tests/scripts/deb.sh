#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# deb.sh BUILDDIR SRCDIR — the Debian package as an admin gets it (a
# stage of tests/run-all.sh, not of make check: it installs a package on
# the machine, then removes it):
#
#   - `make deb` builds it (dpkg-buildpackage -us -uc -b) and lintian
#     reports no errors; its version is configure's (VERSION+git...);
#   - dpkg -i installs "last week's build" (this build repacked with an
#     older version, dpkg-deb): the user dipjudge, /var/lib/dipjudge and
#     /var/backups/dipjudge owned by it, /etc/dipjudge/judge.conf
#     root:dipjudge 0640, the programs with their installed paths and
#     version, the man pages with the installed paths, the systemd units
#     installed and not enabled, not started;
#   - a short game through the installed programs, as the user dipjudge
#     and on the installed defaults only: judgectl init, create, seven
#     joins, orders, process; a mail through judged deliver; judgectl
#     status OK, backup into /var/backups/dipjudge; the admin's
#     judge.conf then sends to a server that is down, so the mail stays
#     queued; the admin enables and starts judged.service;
#   - dpkg -i of the new build upgrades it: judged.service is restarted
#     (a new judged process, running), the disabled units are not
#     started, the game and the queued mail are intact, the admin's
#     judge.conf kept;
#   - dpkg -r stops judged (prerm); dpkg --purge removes it all but the
#     admin's backups (the test removes those and the user it made).
#
# systemd: the maintainer scripts act on units only where systemd runs
# (/run/systemd/system).  So that the test is the same on every machine
# (a container without systemd as PID 1, or a real host whose systemd
# must not be touched), dpkg runs in a private mount namespace where
# /run/systemd/system exists, policy-rc.d allows starting, and
# `systemctl` on PATH is a stand-in that records every call and starts
# a unit's ExecStart= as its User= (a plain process, no cgroup, none of
# the unit's sandboxing).  `systemd-analyze security --offline` scores
# the installed units when it is there.
#
# Needs root, dpkg-buildpackage, runuser, setpriv and unshare; skipped (0
# failed) otherwise, and skipped, saying so, when a dipjudge package is
# installed on the machine already (it is never touched).  Ends with "N
# passed, N failed".
#
set -u
if [[ -z ${DJ_DEB_NAMESPACE:-} ]]; then
    if [ "$(id -u)" -ne 0 ] || ! command -v dpkg-buildpackage >/dev/null ||
        ! command -v runuser >/dev/null || ! command -v setpriv >/dev/null ||
        ! command -v unshare >/dev/null; then
        echo "deb: SKIPPED: needs root, dpkg-buildpackage, runuser, setpriv and unshare"
        echo "0 passed, 0 failed"
        exit 0
    fi
    if dpkg -s dipjudge >/dev/null 2>&1; then
        echo "deb: SKIPPED: a dipjudge package is installed on this machine" \
            "($(dpkg-query -W -f '${Version}' dipjudge)); not touching it"
        echo "0 passed, 0 failed"
        exit 0
    fi
    if ! unshare --mount --propagation private true 2>/dev/null; then
        echo "deb: SKIPPED: no private mount namespace (unshare --mount)"
        echo "0 passed, 0 failed"
        exit 0
    fi
    DJ_DEB_NAMESPACE=1 exec unshare --mount --propagation private \
        bash "$0" "$@"
fi
. "${2:-$DJ_SRCDIR}/tests/checks.sh"

user_existed=0
getent passwd dipjudge >/dev/null && user_existed=1
backups_existed=0
[[ -e /var/backups/dipjudge ]] && backups_existed=1
made_run_systemd=0
FAKE=$T/systemd
cleanup()
{
    # judged processes the stand-in started, should a check have failed
    for pidfile in "$FAKE"/*.pid; do
        [[ -f $pidfile ]] && kill "$(cat "$pidfile")" 2>/dev/null
    done
    dpkg --purge dipjudge >/dev/null 2>&1
    ((backups_existed)) || rm -rf /var/backups/dipjudge
    ((user_existed)) || { userdel dipjudge 2>/dev/null; groupdel dipjudge 2>/dev/null; }
    ((made_run_systemd)) && { umount /run/systemd 2>/dev/null; rmdir /run/systemd 2>/dev/null; }
}

# ---- the stand-in systemd (this namespace only) -------------------------------
mkdir -p "$FAKE/enabled" "$FAKE/bin"
if [[ ! -d /run/systemd ]]; then
    mkdir /run/systemd && made_run_systemd=1
fi
mount -t tmpfs dj-deb-test /run/systemd || { echo "deb: cannot mount /run/systemd"; exit 1; }
mkdir /run/systemd/system
if [[ -e /usr/sbin/policy-rc.d ]]; then
    printf '#!/bin/sh\nexit 0\n' >"$FAKE/policy-rc.d"
    chmod 0755 "$FAKE/policy-rc.d"
    mount --bind "$FAKE/policy-rc.d" /usr/sbin/policy-rc.d
fi
cat >"$FAKE/bin/systemctl" <<EOF
#!/bin/bash
# systemctl as deb.sh's stand-in: records the call, keeps "enabled" as
# files, runs a service's ExecStart= as its User= in the background.
state=$FAKE
EOF
cat >>"$FAKE/bin/systemctl" <<'EOF'
echo "$*" >>"$state/calls"
args=()
for a; do
    case $a in --quiet | -q | --system | --no-legend | --no-pager | --no-block | --) ;; *) args+=("$a") ;; esac
done
cmd=${args[0]:-}
units=("${args[@]:1}")
alive() { [[ -f $state/$1.pid ]] && kill -0 "$(cat "$state/$1.pid")" 2>/dev/null; }
stop() {
    alive "$1" || return 0
    local pid
    pid=$(cat "$state/$1.pid")
    kill -TERM "$pid"
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    rm -f "$state/$1.pid"
}
start() {
    alive "$1" && return 0
    local file=/lib/systemd/system/$1
    [[ $1 == *.service && -f $file ]] || return 0
    local user dir exec
    user=$(sed -n 's/^User=//p' "$file")
    dir=$(sed -n 's/^WorkingDirectory=//p' "$file")
    exec=$(sed -n 's/^ExecStart=//p' "$file")
    read -ra words <<<"$exec"
    (cd "${dir:-/}" && exec setsid setpriv --reuid="$user" --regid="$user" \
        --init-groups "${words[@]}" >>"$state/$1.log" 2>&1 </dev/null) &
    echo $! >"$state/$1.pid"
}
case $cmd in
--version) echo "systemd 252 (deb.sh stand-in)" ;;
is-enabled) [[ -e $state/enabled/${units[0]} ]] && { echo enabled; exit 0; }
    echo disabled; exit 1 ;;
is-active) alive "${units[0]}" && exit 0; exit 3 ;;
enable) for u in "${units[@]}"; do touch "$state/enabled/$u"; done ;;
disable) for u in "${units[@]}"; do rm -f "$state/enabled/$u"; done ;;
start) for u in "${units[@]}"; do start "$u"; done ;;
stop) for u in "${units[@]}"; do stop "$u"; done ;;
restart) for u in "${units[@]}"; do stop "$u"; start "$u"; done ;;
try-restart) for u in "${units[@]}"; do alive "$u" && { stop "$u"; start "$u"; }; done ;;
*) ;; # daemon-reload, list-units, ...: nothing to do
esac
exit 0
EOF
chmod 0755 "$FAKE/bin/systemctl"
export PATH=$FAKE/bin:/usr/sbin:/usr/bin:/sbin:/bin
: >"$FAKE/calls"
calls_since() { tail -n +"$(($1 + 1))" "$FAKE/calls"; }
ncalls() { wc -l <"$FAKE/calls"; }

# ---- build -------------------------------------------------------------------
t0=$SECONDS
make -C "$B" deb >"$T/build.log" 2>&1
rc=$?
expect "make deb" "$rc" 0
deb=$(ls "$B"/deb/dipjudge_*.deb 2>/dev/null | head -n 1)
if [ -z "$deb" ]; then
    tail -30 "$T/build.log"
    checks_done
    exit 1
fi
echo "deb: built $(basename "$deb") in $((SECONDS - t0))s"
version=$(dpkg-deb -f "$deb" Version)
want_version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$B/config.h")
expect "the package's version is configure's" "$version" "$want_version"
if command -v lintian >/dev/null; then
    lintian --no-tag-display-limit "$B"/deb/dipjudge_*.changes >"$T/lintian" 2>&1
    errors=$(grep -c '^E: ' "$T/lintian")
    warnings=$(grep -c '^W: ' "$T/lintian")
    echo "deb: lintian: $errors errors, $warnings warnings"
    grep '^[EW]: ' "$T/lintian" | head -20
    expect "lintian errors" "$errors" 0
fi
dpkg-deb -I "$deb" control | grep -q 'libmicrohttpd' && ok || bad "Depends lacks libmicrohttpd"
sed -n '/^Build-Depends:/,/^[A-Z]/p' "$S/contrib/debian/control" | grep -q 'libmicrohttpd-dev' &&
    ok || bad "Build-Depends lacks libmicrohttpd-dev"
# The maintainer scripts debhelper made: restart after upgrade, stop on
# removal (there was no prerm at all with --no-start).
dpkg-deb -e "$deb" "$T/control"
check "a prerm" test -f "$T/control/prerm"
grep -q 'deb-systemd-invoke stop' "$T/control/prerm" 2>/dev/null && ok ||
    bad "the prerm stops no unit"
grep -q 'deb-systemd-invoke \$_dh_action' "$T/control/postinst" &&
    grep -q '_dh_action=restart' "$T/control/postinst" && ok ||
    bad "the postinst restarts no unit"

# Last week's build: the same programs, an older version.
prev_version="$version~prev"
rm -rf "$T/prev" && dpkg-deb -R "$deb" "$T/prev"
sed -i "s/^Version: .*/Version: $prev_version/" "$T/prev/DEBIAN/control"
dpkg-deb --root-owner-group -b "$T/prev" "$T/prev.deb" >/dev/null
dpkg --compare-versions "$prev_version" lt "$version" && ok ||
    bad "$prev_version is not older than $version"

# ---- install -------------------------------------------------------------------
dpkg -i "$T/prev.deb" >"$T/install.log" 2>&1
expect "dpkg -i (last week's build)" "$?" 0
check "the user dipjudge" getent passwd dipjudge
expect "the state folder's owner" "$(stat -c %U:%G /var/lib/dipjudge 2>&1)" dipjudge:dipjudge
expect "the backup folder's owner" "$(stat -c %U:%G:%a /var/backups/dipjudge 2>&1)" dipjudge:dipjudge:750
expect "judge.conf's owner and mode" "$(stat -c %U:%G:%a /etc/dipjudge/judge.conf 2>&1)" root:dipjudge:640
check "judgectl installed" test -x /usr/bin/judgectl
check "judged installed" test -x /usr/bin/judged
check "judgeweb installed" test -x /usr/bin/judgeweb
for p in judgectl judged judgeweb; do
    out=$(/usr/bin/$p --version 2>&1)
    [[ $out == *" $version" ]] && ok || bad "$p --version: $out (want $version)"
done
check "the maps installed" test -f /usr/share/dipjudge/maps/standard.map
check "LICENSE installed" test -f /usr/share/doc/dipjudge/LICENSE
check "NOTICE installed" test -f /usr/share/doc/dipjudge/NOTICE
check "NEWS installed" test -f /usr/share/doc/dipjudge/NEWS.gz -o -f /usr/share/doc/dipjudge/NEWS
for page in man8/judged.8 man8/judgectl.8 man8/judgeweb.8 man5/judge.conf.5; do
    f=/usr/share/man/$page.gz
    if [[ ! -f $f ]]; then
        bad "$page not installed"
        continue
    fi
    zcat "$f" >"$T/out"
    lacks "/usr/local"
    lacks "contrib/"
done
zcat /usr/share/man/man5/judge.conf.5.gz >"$T/out"
has "/etc/dipjudge/judge.conf"
for unit in judged.service judged-once.service judged-once.timer judgeweb.service \
    judged-backup.service judged-backup.timer; do
    check "$unit installed" test -f "/lib/systemd/system/$unit"
    if ls /etc/systemd/system/*.wants/"$unit" >/dev/null 2>&1; then
        bad "$unit is enabled"
    else
        ok
    fi
done
grep -Eq '^(start|restart) ' "$FAKE/calls" && bad "a unit was started at install: $(cat "$FAKE/calls")" || ok
grep -q '^ExecStart=/usr/bin/judged --config /etc/dipjudge/judge.conf run$' \
    /lib/systemd/system/judged.service && ok || bad "the unit's paths: $(grep ExecStart /lib/systemd/system/judged.service)"
grep -q '^ReadWritePaths=/var/lib/dipjudge$' /lib/systemd/system/judged.service &&
    ok || bad "the unit's state folder"
grep -q 'judged --config /etc/dipjudge/judge.conf' \
    /usr/share/doc/dipjudge/examples/master.cf.example && ok ||
    bad "the Postfix example's paths"
if systemd-analyze security --offline=true /lib/systemd/system/judged.service >/dev/null 2>&1; then
    for unit in judged.service judged-once.service judgeweb.service judged-backup.service; do
        score=$(systemd-analyze security --offline=true "/lib/systemd/system/$unit" 2>&1 |
            sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
        echo "deb: systemd-analyze security $unit: ${score:-?}"
        awk -v s="${score:-99}" 'BEGIN { exit !(s <= 2.0) }' && ok ||
            bad "$unit exposure ${score:-?} (want at most 2.0)"
    done
else
    echo "deb: systemd-analyze security --offline not available: units not scored"
fi

# ---- a short game, as the admin does it ----------------------------------------------
cd / || exit 2
unset DIPJUDGE_STATE_DIR DIPJUDGE_DB DIPJUDGE_CONF DIPJUDGE_MAPDIR
as_judge() { runuser -u dipjudge -- "$@"; }
as_judge judgectl list >"$T/out" 2>&1
expect "list before init" "$?" 1
has "no database at /var/lib/dipjudge/dipjudge.db"
as_judge judgectl init >"$T/out" 2>&1
expect "init" "$?" 0
check "the database in the state folder" test -f /var/lib/dipjudge/dipjudge.db
expect "the database's owner and mode" "$(stat -c %U:%a /var/lib/dipjudge/dipjudge.db)" dipjudge:600
as_judge judgectl create g --master gm@example.org >"$T/out" 2>&1
expect "create" "$?" 0
for p in Austria England France Germany Italy Russia Turkey; do
    as_judge judgectl join g "${p,,}@example.org" --power "$p" >/dev/null 2>&1 ||
        bad "join $p"
done
as_judge judgectl show g >"$T/out" 2>&1
has "S1901M"
echo 'A par-bur' | as_judge judgectl orders g France --set >/dev/null 2>&1
as_judge judgectl process g >"$T/out" 2>&1
expect "process" "$?" 0
as_judge judgectl show g >"$T/out" 2>&1
has "F1901M"
printf 'From: ann@example.org\nTo: judge@localhost\nSubject: help\nMessage-ID: <deb1@example.org>\n\nHELP\n' |
    as_judge judged --no-send deliver -f ann@example.org >"$T/out" 2>&1
expect "judged deliver" "$?" 0
as_judge judged --quiet once >"$T/out" 2>&1
expect "judged once" "$?" 0
n=$(ls /var/lib/dipjudge/mail/out/new 2>/dev/null | wc -l)
((n >= 1)) && ok || bad "judged once sent nothing into /var/lib/dipjudge/mail/out"
as_judge judgectl status >"$T/out" 2>&1
expect "status after judged once" "$?" 0
has "OK"
as_judge judgectl backup /var/backups/dipjudge/dipjudge.db >"$T/out" 2>&1
expect "backup into /var/backups/dipjudge (doc/admin.md's command)" "$?" 0
as_judge judged config >"$T/out" 2>&1
has 'database = "/var/lib/dipjudge/dipjudge.db";'
# A root run (an admin forgetting sudo -u) works as the state folder's
# owner: nothing it leaves is root's.
judgectl status >"$T/out" 2>&1
expect "judgectl status as root" "$?" 0
printf 'From: bob@example.org\nTo: judge@localhost\nSubject: help\nMessage-ID: <deb-root@example.org>\n\nHELP\n' |
    judged --no-send deliver -f bob@example.org >"$T/out" 2>&1
expect "judged deliver as root" "$?" 0
judged --quiet once >"$T/out" 2>&1
expect "judged once as root" "$?" 0
rootfiles=$(find /var/lib/dipjudge /var/backups/dipjudge ! -user dipjudge 2>/dev/null)
expect "files left by root runs" "$rootfiles" ""

# ---- the admin's set-up: the daemon, with the mail server down ---------------
# The admin's judge.conf: outbound SMTP to a port nothing listens on, so
# what is queued stays queued (retried later) across the upgrade.
cat >>/etc/dipjudge/judge.conf <<'EOF'
outbound: { type = "smtp"; host = "127.0.0.1"; port = 9; };
EOF
printf 'From: cy@example.org\nTo: judge@localhost\nSubject: help\nMessage-ID: <deb2@example.org>\n\nHELP\n' |
    as_judge judged --no-send deliver -f cy@example.org >"$T/out" 2>&1
expect "judged deliver (queued)" "$?" 0
queued_before=$(as_judge judgectl outbox | awk -F'\t' '$2 == "queued"' | wc -l)
((queued_before >= 1)) && ok || bad "no mail queued before the upgrade"
systemctl enable judged.service
systemctl start judged.service
sleep 1
pid1=$(cat "$FAKE/judged.service.pid" 2>/dev/null)
check "judged.service runs before the upgrade" kill -0 "${pid1:-0}"

# ---- the upgrade ---------------------------------------------------------------------
mark=$(ncalls)
dpkg -i "$deb" >"$T/upgrade.log" 2>&1
expect "dpkg -i (upgrade to $version)" "$?" 0
calls_since "$mark" >"$T/out"
# deb-systemd-invoke asks is-enabled, then restarts only what is enabled
grep -Eq '^(--quiet )?(--system )?restart judged\.service$' "$T/out" && ok ||
    bad "judged.service not restarted: $(cat "$T/out")"
grep -E '^(--quiet )?(--system )?(re)?start ' "$T/out" | grep -Eq 'judged-once|judgeweb|backup' &&
    bad "a disabled unit was started: $(cat "$T/out")" || ok
pid2=$(cat "$FAKE/judged.service.pid" 2>/dev/null)
sleep 1
check "judged.service runs after the upgrade" kill -0 "${pid2:-0}"
[[ -n $pid2 && $pid2 != "$pid1" ]] && ok || bad "judged was not restarted (pid $pid1, then ${pid2:-none})"
kill -0 "${pid1:-0}" 2>/dev/null && bad "the old judged is still running" || ok
expect "the running judged" "$(readlink "/proc/${pid2:-0}/exe" 2>&1)" /usr/bin/judged
expect "the installed version" "$(dpkg-query -W -f '${Version}' dipjudge)" "$version"
grep -q 'port = 9' /etc/dipjudge/judge.conf && ok || bad "the admin's judge.conf was replaced"
as_judge judgectl show g >"$T/out" 2>&1
has "F1901M"
queued_after=$(as_judge judgectl outbox | awk -F'\t' '$2 == "queued"' | wc -l)
expect "mail still queued after the upgrade" "$queued_after" "$queued_before"
as_judge judgectl status >"$T/out" 2>&1
has "dipjudge $version"

# ---- removal ------------------------------------------------------------------------
mark=$(ncalls)
dpkg -r dipjudge >"$T/remove.log" 2>&1
expect "dpkg -r" "$?" 0
calls_since "$mark" | grep -E '^(--quiet )?(--system )?stop .*judged\.service' >"$T/out"
has "judged.service"
kill -0 "${pid2:-0}" 2>/dev/null && bad "judged still runs after dpkg -r" || ok
dpkg --purge dipjudge >"$T/purge.log" 2>&1
expect "dpkg --purge" "$?" 0
check "purge removes the programs" test ! -e /usr/bin/judgectl
check "purge removes the state" test ! -e /var/lib/dipjudge
check "purge keeps the admin's backups" test -f /var/backups/dipjudge/dipjudge.db
echo "deb: $((SECONDS - t0))s in all"
checks_done
