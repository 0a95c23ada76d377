#!/bin/sh
# SPDX-License-Identifier: MIT
#
# docs.sh BUILDDIR SRCDIR — the README is a front door and the guides of
# doc/ hold together.  README.md stays under 15,000 characters and shows
# the two set-up commands exactly as CI and the demo run them; it links
# the four guides (doc/players.md, masters.md, admin.md, design.md) and
# doc/engine.md; the rooms table (tests/scripts/rooms.sh) is in
# doc/design.md and nowhere else; every guide is shipped (Makefile.am);
# and every relative link in README.md and doc/*.md points at a file or
# folder that exists.  Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
R=$S/README.md

size=$(wc -c <"$R")
check "README.md is under 15000 characters (it has $size)" [ "$size" -lt 15000 ]
check "README shows ./demo.sh as CI expects" \
    grep -qxF './demo.sh               # installs what is missing, builds, runs the demo' "$R"
check "README shows bash tests/run-all.sh as CI expects" \
    grep -qxF 'bash tests/run-all.sh   # runs every test' "$R"

for g in players masters admin design engine; do
    check "doc/$g.md exists" [ -s "$S/doc/$g.md" ]
    check "README links doc/$g.md" grep -qF "](doc/$g.md)" "$R"
done
for f in "$S"/doc/*.md; do
    n=doc/$(basename "$f")
    check "$n is shipped (Makefile.am)" grep -qF "$n" "$S/Makefile.am"
done

# The rooms table: rows "| `room` | ... |", in doc/design.md only.
rows() { sed -n 's/^| `\([a-z_]*\)` | \(.*\) |$/\1/p' "$1"; }
check "doc/design.md has the rooms table" [ "$(rows "$S/doc/design.md" | wc -l)" -ge 10 ]
check "README.md has no rooms table (one fact, one place)" [ -z "$(rows "$R")" ]

# Every relative link [text](target) resolves from its file's folder.
# Addresses (scheme:) and anchors in the same page are not files.
links=0
for f in "$R" "$S"/doc/*.md; do
    dir=$(dirname "$f")
    for target in $(grep -o '](\([^)]*\))' "$f" | sed 's/^](//; s/)$//'); do
        case $target in
        *:* | '#'*) continue ;;
        esac
        path=${target%%#*}
        links=$((links + 1))
        check "${f#"$S"/}: link $target resolves" [ -e "$dir/$path" ]
    done
done
check "the guides have relative links to check ($links)" [ "$links" -ge 20 ]

checks_done
