#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rooms.sh BUILDDIR SRCDIR — every room (folder of src/) includes only the
# rooms the rooms table of doc/design.md allows. The table is read from
# doc/design.md (the rows "| `room` | may use ... |"), so the table is the
# one fact: a room named in a row's "may use" text is allowed,
# "everything" allows every room, every room may use util and itself. An
# #include "room/file.h" naming a room not allowed, or a folder of src/
# the table does not list, is a failure.
# Ends with "N passed, N failed" (tests/count-checks.sh adds it up).
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
DESIGN=$S/doc/design.md

# The table's rows, one "room<TAB>may use text" a line.
table=$(sed -n 's/^| `\([a-z_]*\)` | \(.*\) |$/\1	\2/p' "$DESIGN")
rooms=$(printf '%s\n' "$table" | cut -f1)
if [ -z "$rooms" ]; then
    bad "no rooms table found in $DESIGN"
    checks_done
    exit 1
fi

# allowed ROOM: the rooms ROOM may include, one a line.
allowed()
{
    text=$(printf '%s\n' "$table" | awk -F'\t' -v r="$1" '$1 == r { print $2 }')
    echo "$1"
    echo util
    case $text in *everything*) printf '%s\n' "$rooms"; return ;; esac
    for r in $rooms; do
        if printf '%s\n' "$text" | grep -qw -- "$r"; then echo "$r"; fi
    done
}

for dir in "$S"/src/*/; do
    room=$(basename "$dir")
    if ! printf '%s\n' "$rooms" | grep -qx -- "$room"; then
        bad "src/$room/ is not in doc/design.md's rooms table"
        continue
    fi
    ok
    may=$(allowed "$room")
    for f in "$dir"*.c "$dir"*.h; do
        [ -f "$f" ] || continue
        for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([a-z_]*\)\/.*/\1/p' "$f" | sort -u); do
            if printf '%s\n' "$may" | grep -qx -- "$inc"; then ok; else
                bad "src/$room/$(basename "$f") includes $inc/, which the rooms table does not allow for $room"
            fi
        done
    done
done

checks_done
