#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rooms-circles.sh BUILDDIR SRCDIR — inside every room (folder of src/)
# the files use each other without a circle: each room's files form a
# graph with no loop, so every file can be read after the ones it uses.
# rooms.sh holds the rooms to each other; this holds each room's files.
#
# "A.c uses B.c" when A's object has an undefined symbol that B's object
# defines (nm on the objects in BUILDDIR: src/ROOM/NAME.o, or
# src/ROOM/TARGET-NAME.o for a target with flags of its own such as
# libdjweb_a-pages.o), a call or a pointer to a function or data alike;
# or when A.c includes B.h, a header private to the room with a B.c beside
# it (its macros, types and inline functions are B.c's, which nm cannot
# see; details at edges() below).  A circle of such uses is a failure
# naming its files; a room without objects in BUILDDIR is a failure too
# (the check would see only the includes).  The suite first proves it
# sees a circle of each kind, on a few small files of its own.  Kept
# apart from rooms.sh (which reads the README's rooms table) so each can
# change alone.  Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"

# The rooms with a circle known and being removed: their circles are
# listed, not failed.  Once a room has none, the suite fails until its
# line is taken out, so this list only shrinks; nothing may be added.
# None is left.
KNOWN=''

# edges ROOMDIR OBJDIR: "A.c B.c" for each use of B.c by A.c.  An
# include counts when B.h is private to the room (no other room of src/
# includes it: a public header's types and constants are the room's face,
# not B.c's), and A.c defines nothing B.h declares (else B.h is a header
# the two share, not B.c's alone).
edges()
{
    e_dir=$1
    e_room=$(basename "$e_dir")
    e_src=$(dirname "$e_dir")
    e_syms=$T/edges.syms
    for e_o in "$2"/*.o; do
        [ -f "$e_o" ] || continue
        e_name=$(basename "$e_o" .o)
        e_name=${e_name##*-}
        [ -f "$e_dir/$e_name.c" ] || continue
        nm -P "$e_o" | awk -v f="$e_name.c" '
            $2 == "U" { print f, "U", $1; next }
            $2 ~ /^[TDBRCGSVW]$/ { print f, "D", $1 }'
    done | sort -u >"$e_syms"
    awk '
        $2 == "D" { def[$3] = def[$3] " " $1; next }
        { use[$1 " " $3] = 1 }
        END {
            for (k in use) {
                split(k, p, " ")
                n = split(def[p[2]], d, " ")
                for (i = 1; i <= n; i++)
                    if (d[i] != p[1])
                        print p[1], d[i]
            }
        }' "$e_syms"
    for e_c in "$e_dir"/*.c; do
        [ -f "$e_c" ] || continue
        e_from=$(basename "$e_c")
        awk -v f="$e_from" '$1 == f && $2 == "D" { print $3 }' "$e_syms" \
            >"$T/edges.own"
        sed -n "s|^[[:space:]]*#[[:space:]]*include[[:space:]]*\"$e_room/\([A-Za-z0-9_]*\)\.h\".*|\1|p" "$e_c" |
            while read -r e_h; do
                if [ "$e_h.c" = "$e_from" ] || [ ! -f "$e_dir/$e_h.c" ]; then
                    continue
                fi
                if grep -rlq --include='*.[ch]' -e "#[[:space:]]*include[[:space:]]*\"$e_room/$e_h\.h\"" \
                    "$e_src" --exclude-dir="$e_room"; then
                    continue # a public header
                fi
                if [ -s "$T/edges.own" ] &&
                    grep -qwF -f "$T/edges.own" "$e_dir/$e_h.h"; then
                    continue # a header of A.c's too
                fi
                echo "$e_from $e_h.c"
            done
    done
}

# circles: the strongly connected components of more than one file of
# the "A B" edges on stdin (Tarjan's), one a line, the files sorted.
circles()
{
    sort -u | awk '
        function visit(v,    i, w) {
            num[v] = low[v] = ++count
            stack[++sp] = v
            on[v] = 1
            for (i = 1; i <= deg[v]; i++) {
                w = next_[v, i]
                if (!(w in num)) {
                    visit(w)
                    if (low[w] < low[v]) low[v] = low[w]
                } else if (on[w] && num[w] < low[v])
                    low[v] = num[w]
            }
            if (low[v] == num[v]) {
                comp = ""
                size = 0
                do {
                    w = stack[sp--]
                    on[w] = 0
                    comp = comp " " w
                    size++
                } while (w != v)
                if (size > 1) print substr(comp, 2)
            }
        }
        { next_[$1, ++deg[$1]] = $2; node[$1] = 1; node[$2] = 1 }
        END { for (v in node) if (!(v in num)) visit(v) }' |
        while read -r c_line; do
            # shellcheck disable=SC2086 # the files, one a word
            printf '%s\n' $c_line | sort | tr '\n' ' ' | sed 's/ $//'
            echo
        done
}

# ---- the check sees circles: of calls, and of includes ----------------------
# a.c includes b.h and calls b(); b.c calls a(): a circle by symbols (b.o
# named as a target's object is, lib_a-b.o).
mkdir -p "$T/src/demo" "$T/obj"
printf '#include "demo/b.h"\nint a(void) { return b(); }\n' >"$T/src/demo/a.c"
printf 'int a(void);\nint b(void) { return a(); }\n' >"$T/src/demo/b.c"
printf 'int b(void);\n' >"$T/src/demo/b.h"
if ${CC:-cc} -c -I"$T/src" -o "$T/obj/a.o" "$T/src/demo/a.c" &&
    ${CC:-cc} -c -I"$T/src" -o "$T/obj/lib_a-b.o" "$T/src/demo/b.c"; then
    expect "a circle of calls (a.c b.c)" \
        "$(edges "$T/src/demo" "$T/obj" | circles)" "a.c b.c"
else
    bad "cannot compile the small files of the check's own test"
fi
# b.c includes c.h, c.c d.h, d.c b.h: a circle by includes alone (no
# objects); a.c's include of b.h leaves a.c out of it.
rm -f "$T/obj"/*.o
printf '#include "demo/c.h"\n' >"$T/src/demo/b.c"
printf '#include "demo/d.h"\n' >"$T/src/demo/c.c"
printf '#include "demo/b.h"\n' >"$T/src/demo/d.c"
expect "a circle of includes (b.c c.c d.c)" \
    "$(edges "$T/src/demo" "$T/obj" | circles)" "b.c c.c d.c"
# and none once d.c includes a header of no file
printf '#include "demo/web_int.h"\n' >"$T/src/demo/d.c"
expect "no circle" "$(edges "$T/src/demo" "$T/obj" | circles)" ""

# ---- the rooms ------------------------------------------------------------------
found=
for dir in "$S"/src/*/; do
    dir=${dir%/}
    room=$(basename "$dir")
    ls "$dir"/*.c >/dev/null 2>&1 || continue
    if ! ls "$B/src/$room"/*.o >/dev/null 2>&1; then
        bad "src/$room/: no objects in $B/src/$room (build first)"
        continue
    fi
    cs=$(edges "$dir" "$B/src/$room" | circles)
    if [ -z "$cs" ]; then
        ok
        continue
    fi
    if printf '%s\n' "$KNOWN" | grep -qxF -- "$room"; then
        ok
        found="$found$room
"
        printf '%s\n' "$cs" | sed "s|^|known circle (see KNOWN): src/$room/: |"
        continue
    fi
    printf '%s\n' "$cs" | while read -r files; do
        echo "FAIL: src/$room/: a circle: $files (each uses another;" \
            "move what they share into a file of its own)"
    done
    bad "src/$room/ has a circle"
done
for known in $KNOWN; do
    if printf '%s' "$found" | grep -qxF -- "$known"; then ok; else
        bad "src/$known/ has no circle now: take it out of KNOWN in $0"
    fi
done

checks_done
