#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# deb.sh BUILDDIR SRCDIR — the Debian package as an admin gets it (a
# stage of tests/run-all.sh, not of make check: it installs a package on
# the machine, then removes it):
#
#   - `make deb` builds it (dpkg-buildpackage -us -uc -b) and lintian
#     reports no errors;
#   - dpkg -i installs it: the user dipjudge, /var/lib/dipjudge owned by
#     it, /etc/dipjudge/judge.conf readable by its group only, the
#     programs with their installed paths, the systemd units installed and
#     not enabled, with the package's paths;
#   - a short game through the installed programs, as the user dipjudge
#     and on the installed defaults only: judgectl init, create, seven
#     joins, orders, process; a mail through judged deliver answered into
#     /var/lib/dipjudge/mail/out by judged once; judgectl status OK and
#     backup;
#   - dpkg --purge removes it all (and the test removes the user it made).
#
# Needs root and dpkg-buildpackage; skipped (0 failed) otherwise.  Ends
# with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"

if [ "$(id -u)" -ne 0 ] || ! command -v dpkg-buildpackage >/dev/null ||
    ! command -v runuser >/dev/null; then
    echo "deb: SKIPPED: needs root, dpkg-buildpackage and runuser"
    echo "0 passed, 0 failed"
    exit 0
fi
if dpkg -s dipjudge >/dev/null 2>&1; then
    echo "deb: a dipjudge package is installed already: not touching it"
    echo "0 passed, 1 failed"
    exit 1
fi
user_existed=0
getent passwd dipjudge >/dev/null && user_existed=1
cleanup()
{
    dpkg --purge dipjudge >/dev/null 2>&1
    ((user_existed)) || { userdel dipjudge 2>/dev/null; groupdel dipjudge 2>/dev/null; }
}

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
if command -v lintian >/dev/null; then
    lintian --no-tag-display-limit "$B"/deb/dipjudge_*.changes >"$T/lintian" 2>&1
    errors=$(grep -c '^E: ' "$T/lintian")
    warnings=$(grep -c '^W: ' "$T/lintian")
    echo "deb: lintian: $errors errors, $warnings warnings"
    grep '^[EW]: ' "$T/lintian" | head -20
    expect "lintian errors" "$errors" 0
fi

dpkg -i "$deb" >"$T/install.log" 2>&1
expect "dpkg -i" "$?" 0
check "the user dipjudge" getent passwd dipjudge
expect "the state folder's owner" "$(stat -c %U:%G /var/lib/dipjudge 2>&1)" dipjudge:dipjudge
expect "judge.conf's owner and mode" "$(stat -c %U:%G:%a /etc/dipjudge/judge.conf 2>&1)" root:dipjudge:640
check "judgectl installed" test -x /usr/bin/judgectl
check "judged installed" test -x /usr/bin/judged
check "the maps installed" test -f /usr/share/dipjudge/maps/standard.map
check "LICENSE installed" test -f /usr/share/doc/dipjudge/LICENSE
check "NOTICE installed" test -f /usr/share/doc/dipjudge/NOTICE
for unit in judged.service judged-once.service judged-once.timer; do
    check "$unit installed" test -f "/lib/systemd/system/$unit"
    if ls /etc/systemd/system/*.wants/"$unit" >/dev/null 2>&1; then
        bad "$unit is enabled"
    else
        ok
    fi
done
grep -q '^ExecStart=/usr/bin/judged --config /etc/dipjudge/judge.conf run$' \
    /lib/systemd/system/judged.service && ok || bad "the unit's paths: $(grep ExecStart /lib/systemd/system/judged.service)"
grep -q '^ReadWritePaths=/var/lib/dipjudge$' /lib/systemd/system/judged.service &&
    ok || bad "the unit's state folder"
grep -q 'judged --config /etc/dipjudge/judge.conf' \
    /usr/share/doc/dipjudge/examples/master.cf.example && ok ||
    bad "the Postfix example's paths"

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
as_judge judgectl backup /var/lib/dipjudge/backup.db >"$T/out" 2>&1
expect "backup" "$?" 0
as_judge judged config >"$T/out" 2>&1
has 'database = "/var/lib/dipjudge/dipjudge.db";'

dpkg --purge dipjudge >"$T/purge.log" 2>&1
expect "dpkg --purge" "$?" 0
check "purge removes the programs" test ! -e /usr/bin/judgectl
check "purge removes the state" test ! -e /var/lib/dipjudge
echo "deb: $((SECONDS - t0))s in all"
checks_done
