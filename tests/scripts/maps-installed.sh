#!/bin/sh
# SPDX-License-Identifier: MIT
#
# maps-installed.sh BUILDDIR SRCDIR — the maps `make install` puts in
# $(pkgdatadir)/maps are the maps of the tree: Makefile.am's
# dist_maps_DATA names every file of maps/ (the boards, the .geo,
# .geography, .politics and .names.* pieces they use, the README; not
# maps/art/, the sources the .geo files are drawn from), and names no
# file that is not there; every piece a listed map names with USE or
# builds on with MAP is listed too, so an installed map never loads a
# piece that was left behind.  Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
cd "$S" || exit 2

# dist_maps_DATA's words, its continuation lines joined.
listed=$(sed -n '/^dist_maps_DATA *=/,/[^\\]$/p' Makefile.am |
    sed 's/^dist_maps_DATA *=//; s/\\$//' | tr ' \t' '\n\n' | grep . | sort)
[ -n "$listed" ] && ok || bad "Makefile.am has no dist_maps_DATA"

present=$(find maps -maxdepth 1 -type f | sort)
for f in $present; do
    if printf '%s\n' "$listed" | grep -qx "$f"; then ok
    else bad "$f is in maps/ but not in Makefile.am's dist_maps_DATA"; fi
done
for f in $listed; do
    if [ -f "$f" ]; then ok
    else bad "dist_maps_DATA names $f, which is not in the tree"; fi
done

# The pieces the listed maps use (USE file) and build on (MAP name).
for f in $listed; do
    case $f in *.md) continue ;; esac
    [ -f "$f" ] || continue
    for w in $(awk 'toupper($1) == "USE" || toupper($1) == "USES" {
                        print $2 }
                    toupper($1) == "MAP" && FILENAME ~ /\.map$/ &&
                        $2 != "" { print $2 ".map" }' "$f"); do
        # a map naming itself ("MAP standard" in standard.map) is no piece
        [ "maps/$w" = "$f" ] && continue
        if printf '%s\n' "$listed" | grep -qx "maps/$w"; then ok
        else bad "$f uses $w, which dist_maps_DATA does not install"; fi
    done
done

checks_done
