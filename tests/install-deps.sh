#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# install-deps.sh [--demo] — make sure the Debian packages dipjudge builds
# and tests with are installed.  Shared by demo.sh (--demo: only what
# building and running the demo needs, no mail servers or test tools) and
# tests/run-all.sh (everything).
#
# Does nothing when every package is already installed; otherwise runs
# `apt-get update` and `apt-get install -y` for the missing ones, through
# sudo when not root (non-interactively when there is no terminal, so CI
# fails fast instead of waiting for a password).  apt's own output goes to
# a log file ($DJ_INSTALL_LOG, by default /tmp/dipjudge-install.log); one
# line says where, and its tail is shown if apt fails.
#
set -euo pipefail

# Building and running judgectl and judged.
BUILD_PACKAGES=(build-essential autoconf automake libtool pkg-config
                libetpan-dev libgnutls28-dev ca-certificates
                libsqlite3-dev libconfig-dev libcrypt-dev
                libcairo2-dev libpng-dev libfontconfig-dev libmicrohttpd-dev
                tzdata)
# The tests: sanitizers, valgrind, SQL and picture checks, the private
# Postfix and Dovecot of the mail tests (python3's smtplib sends
# maildir-order.sh's 200 mails in one SMTP session), with OpenDKIM,
# OpenDMARC and a DNS on loopback (dnsmasq) for mail-auth.sh, for judgeweb
# headless Chromium with Selenium, two HTML5 validators (html5lib, tidy),
# curl and ab (bench); JSON checks (python3), running as another user
# (setpriv, runuser), and the Debian package's stage.
TEST_PACKAGES=(valgrind clang libclang-rt-dev sqlite3 libxml2-utils
               poppler-utils postfix dovecot-imapd dovecot-pop3d
               libsasl2-modules openssl python3
               opendkim opendkim-tools opendmarc dnsmasq-base
               chromium chromium-driver python3-selenium python3-html5lib tidy
               apache2-utils curl python3 util-linux
               dpkg-dev debhelper devscripts fakeroot lintian adduser)
PACKAGES=("${BUILD_PACKAGES[@]}")
[[ ${1:-} == --demo ]] || PACKAGES+=("${TEST_PACKAGES[@]}")
LOG=${DJ_INSTALL_LOG:-/tmp/dipjudge-install.log}

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "install-deps: no dpkg here (not Debian?); please install the" \
         "equivalents of: ${PACKAGES[*]}" >&2
    exit 0
fi

missing=()
for p in "${PACKAGES[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [[ "$status" == *"install ok installed"* ]] || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
    echo "install-deps: all build dependencies present"
    exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
    if ! command -v sudo >/dev/null 2>&1; then
        echo "install-deps: not root and no sudo; please install:" \
             "${missing[*]}" >&2
        exit 1
    fi
    if [[ -t 0 ]]; then sudo_cmd=(sudo); else sudo_cmd=(sudo -n); fi
fi

export DEBIAN_FRONTEND=noninteractive
# The mail-server tests run their own Postfix instance: the machine's
# Postfix gets "No configuration", so installing it asks nothing and
# starts nothing.
if [[ " ${missing[*]} " == *" postfix "* ]]; then
    echo "postfix postfix/main_mailer_type select No configuration" |
        "${sudo_cmd[@]}" debconf-set-selections
fi
echo "install-deps: apt-get's output goes to $LOG"
if ! { "${sudo_cmd[@]}" apt-get update -q &&
       "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends \
           "${missing[@]}"; } >"$LOG" 2>&1; then
    echo "install-deps: apt-get failed; the end of $LOG:" >&2
    tail -n 20 "$LOG" >&2
    exit 1
fi
