#!/bin/sh
# SPDX-License-Identifier: MIT
#
# symbols.sh BUILDDIR SRCDIR — every room's library (libdjROOM.a) defines
# global symbols that carry a prefix of that room: dj_ (DJ_ for constants)
# for what other rooms use, and the room's own prefixes below for what its
# files share among themselves.  A name without one (`say`, `echo`) may
# clash with any other room's or a library's when the programs are linked,
# and says nothing of where it lives.  The prefixes are this table, one
# library a line; the names that keep an older name are EXCEPTIONS, each
# with its reason.  A library of the build tree the table does not list is
# a failure, so a new room is added here.  Symbols the compiler makes
# (starting "__": sanitizers, coverage) are not the code's and are skipped.
# Ends with "N passed, N failed" (tests/count-checks.sh adds it up).
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"

# library   the prefixes its defined global symbols may start with
PREFIXES='
djutil      dj_
djengine    dj_ DJ_ mp_ MP_ hp_ kj_ mv_ rt_ adj_
djreader    dj_ ir_
djcasefile  dj_ cf_
djtime      dj_
djgame      dj_ gv_ judge_
djconf      dj_ conf_
djstore     dj_ DJ_ st_
djmail      dj_
djjudge     dj_
djcommand   dj_command_ cmd_
djrender    dj_ board_ bytes_ draw_ ink_ labels_ layout_ palette_ png_ svg_
djweb       dj_ web_
'
# The engine's prefixes name its parts: mp_ the map reader, hp_ DPjudge's
# passes, kj_ Kruijswijk's adjudicator, mv_ the movement phase, rt_
# retreats, adj_ adjustments; the renderer's name its files (board_, ink_,
# labels_, layout_, palette_, png_, svg_; bytes_ and draw_ the picture).

# library  symbol  — why it keeps a name without the room's prefix
EXCEPTIONS='
'

command -v nm >/dev/null 2>&1 || { bad "nm (binutils) is needed"; checks_done; exit 1; }

found=0
for a in "$B"/libdj*.a; do
    [ -f "$a" ] || continue
    found=1
    lib=$(basename "$a" .a)
    lib=${lib#lib}
    may=$(printf '%s\n' "$PREFIXES" | awk -v l="$lib" '$1 == l { $1 = ""; print }')
    if [ -z "$may" ]; then
        bad "lib$lib.a is not in symbols.sh's table of prefixes"
        continue
    fi
    ok
    nm -g --defined-only "$a" | awk 'NF == 3 { print $3 }' | sort -u >"$T/syms"
    [ -s "$T/syms" ] || { bad "lib$lib.a: nm listed no symbols"; continue; }
    while read -r sym; do
        case $sym in __*) continue ;; esac
        good=0
        for p in $may; do
            case $sym in "$p"*) good=1; break ;; esac
        done
        if [ $good = 0 ] && printf '%s\n' "$EXCEPTIONS" |
                awk -v l="$lib" -v s="$sym" '$1 == l && $2 == s { f = 1 } END { exit !f }'; then
            good=1
        fi
        if [ $good = 1 ]; then ok; else
            bad "lib$lib.a defines '$sym', which has none of its prefixes ($may )"
        fi
    done <"$T/syms"
done
[ $found = 1 ] && ok || bad "no libdj*.a in $B"

# An exception no longer needed (the symbol renamed or gone) goes too.
printf '%s\n' "$EXCEPTIONS" | while read -r lib sym why; do
    [ -n "$lib" ] || continue
    if nm -g --defined-only "$B/lib$lib.a" 2>/dev/null | awk 'NF == 3 { print $3 }' | grep -qx -- "$sym"; then
        :
    else
        echo "FAIL: exception $lib $sym: lib$lib.a no longer defines it; drop it from EXCEPTIONS"
        echo x >>"$T/stale"
    fi
done
if [ -f "$T/stale" ]; then bad "stale exceptions"; else ok; fi

checks_done
