#!/bin/sh
# SPDX-License-Identifier: MIT
# git-version.sh — the version configure is made with (AC_INIT in
# configure.ac runs it when ./autogen.sh does).  The release number is
# kept in one place, the file VERSION; a build from git adds where in
# the history it is: VERSION+gitN.HASH (N commits in all, HASH
# `git describe`'s, ".dirty" for uncommitted changes), so that every
# build is told apart and dpkg orders later builds after earlier ones.
# A tarball (make dist) carries the version it was made with in
# .tarball-version.
cd "$(dirname "$0")" || exit 1
if [ -f .tarball-version ]; then
    tr -d '\n' <.tarball-version
    exit 0
fi
base=$(tr -d ' \n' <VERSION)
if git rev-parse --git-dir >/dev/null 2>&1 &&
    n=$(git rev-list --count HEAD 2>/dev/null) &&
    d=$(git describe --always --abbrev=7 --dirty=-dirty 2>/dev/null); then
    printf '%s+git%s.%s' "$base" "$n" "$(printf %s "$d" | tr -- '-_' '..')"
else
    printf '%s' "$base"
fi
