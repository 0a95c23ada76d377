#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# art2geo.py — turn a board drawn as a grid of letters (maps/art/*.art) into
# a geometry file (maps/*.geo, format in maps/README.md).
#
# Why a grid: every cell belongs to exactly one area, so neighbouring areas
# share their borders by construction and the board has no gaps.  The
# borders are then smoothed as one graph of cell corners (Taubin's
# smoothing: coastlines followed as whole curves, the frame and inland
# junctions kept), and their corners rounded (Chaikin) run by run between
# junctions: every border is computed once and used by both its sides, so
# the smooth outlines still meet exactly.
#
# It also checks the drawing against the map: provinces that touch in the
# picture must be neighbours in the map file and the other way round
# (warnings on stderr).  Usage:
#   art2geo.py BOARD.art MAPFILE [MAPFILE...] > BOARD.geo
# (a variant's files after its board's: art2geo.py milan.art
# maps/standard.geography maps/milan.map)
import re
import sys


def read_art(path):
    keys, grid, cell, in_grid, at = {}, [], 15, False, {}
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if in_grid:
            if line:
                grid.append(line)
            continue
        if not line or line.startswith("#"):
            continue
        w = line.split()
        if w[0] == "cell":
            cell = float(w[1])
        elif w[0] == "key":
            keys[w[1]] = (w[2], w[3])
        elif w[0] == "at":
            at[w[1]] = (int(w[2]), int(w[3]))
        elif w[0] == "grid":
            in_grid = True
        else:
            sys.exit(f"{path}:{n}: unknown line")
    width = len(grid[0])
    for y, row in enumerate(grid):
        if len(row) != width:
            sys.exit(f"{path}: grid row {y} has {len(row)} cells, not {width}")
        for ch in row:
            if ch not in keys:
                sys.exit(f"{path}: grid row {y}: letter {ch!r} has no key")
    return keys, grid, cell, at


def read_neighbours(paths):
    # The borders the map files give, read in order: terrain lines add
    # borders; for a variant built on another board (maps/milan.map) DROP
    # takes places off, "OLD -> Name = new" renames one and AMEND adds
    # borders or (-abbr) takes away those whose abbreviation begins so.
    pairs, coasts = set(), {}

    def add(a, b):
        for x, y in ((a, b), (b, a)):
            if "/" in x:
                coasts.setdefault(x, set()).add(y.split("/")[0])
        pairs.add(tuple(sorted((a.split("/")[0], b.split("/")[0]))))

    def rename(old, new):
        nonlocal pairs
        swap = lambda x: new if x == old else x
        pairs = {tuple(sorted((swap(a), swap(b)))) for a, b in pairs}
        for k in [k for k in coasts if k.split("/")[0] == old]:
            coasts[new + k[len(old):]] = {swap(y) for y in coasts.pop(k)}
        for k in coasts:
            coasts[k] = {swap(y) for y in coasts[k]}

    for path in paths:
        for line in open(path):
            line = line.split("#")[0]
            m = re.match(r"^(WATER|COAST|LAND|PORT)\s+(\S+)\s+ABUTS\s+(.*)", line)
            if m:
                a = m.group(2).lower()
                for b in m.group(3).split():
                    add(a, b.lower())
                continue
            m = re.match(r"^DROP\s+(.*)", line)
            if m:
                gone = {w.lower() for w in m.group(1).split()}
                pairs = {p for p in pairs if not gone & set(p)}
                for k in [k for k in coasts if k.split("/")[0] in gone]:
                    del coasts[k]
                continue
            m = re.match(r"^(\S+)\s*->.*=\s*(\S+)", line)
            if m:
                rename(m.group(1).lower(), m.group(2).lower())
                continue
            m = re.match(r"^AMEND\s+(\S+)\s+ABUTS\s+(.*)", line)
            if m:
                a = m.group(1).lower()
                for b in m.group(2).split():
                    b = b.lower()
                    if b.startswith("-"):
                        base = a.split("/")[0]
                        pairs = {p for p in pairs if not (base in p and
                                 (p[0] if p[1] == base else p[1]).startswith(b[1:]))}
                    else:
                        add(a, b)
    return pairs, coasts


def main():
    keys, grid, cell, at = read_art(sys.argv[1])
    pairs, coasts = read_neighbours(sys.argv[2:])
    H, W = len(grid), len(grid[0])
    name = lambda x, y: keys[grid[y][x]][0] if 0 <= x < W and 0 <= y < H else None
    kind = {v[0]: v[1] for v in keys.values()}

    # The drawing's neighbours against the map's.
    seen = set()
    for y in range(H):
        for x in range(W):
            for dx, dy in ((1, 0), (0, 1)):
                a, b = name(x, y), name(x + dx, y + dy)
                if b and a != b and not a.startswith("_") and not b.startswith("_") \
                        and "impassable" not in (kind[a], kind[b]):
                    seen.add(tuple(sorted((a, b))))
    for p in sorted(pairs - seen):
        if "impassable" in (kind.get(p[0]), kind.get(p[1])):
            continue  # nothing crosses an impassable area: not drawn either way
        print("warning: neighbours in the map, apart in the picture:", *p, file=sys.stderr)
    for p in sorted(seen - pairs):
        print("warning: touching in the picture, not neighbours in the map:", *p, file=sys.stderr)

    # Directed border edges of each area, area on the right (clockwise).
    edges = {}
    for y in range(H):
        for x in range(W):
            a = name(x, y)
            for (dx, dy), e in (((0, -1), ((x, y), (x + 1, y))),
                                ((1, 0), ((x + 1, y), (x + 1, y + 1))),
                                ((0, 1), ((x + 1, y + 1), (x, y + 1))),
                                ((-1, 0), ((x, y + 1), (x, y)))):
                if name(x + dx, y + dy) != a:
                    edges.setdefault(a, {}).setdefault(e[0], []).append(e[1])

    # The borders as one graph: its vertices are cell corners on a border,
    # its edges the cell edges between two areas (or an area and the
    # frame).  The graph is smoothed as a whole, so every border is moved
    # once and both its sides use the same points: neighbours never gap or
    # overlap.
    def sides(v):
        x, y = v
        return [name(x - 1, y - 1), name(x, y - 1), name(x - 1, y), name(x, y)]

    def is_sea(a):
        return a is not None and kind[a] == "sea"

    links = {}   # vertex -> {neighbour: True when the edge is a coast}
    for y in range(H + 1):
        for x in range(W + 1):
            for (dx, dy) in ((1, 0), (0, 1)):
                if x + dx > W or y + dy > H:
                    continue
                if dx:  # horizontal edge: cells above and below
                    a, b = name(x, y - 1), name(x, y)
                else:   # vertical edge: cells left and right
                    a, b = name(x - 1, y), name(x, y)
                if a == b:
                    continue
                coast = a is not None and b is not None and is_sea(a) != is_sea(b)
                u, w = (x, y), (x + dx, y + dy)
                links.setdefault(u, {})[w] = coast
                links.setdefault(w, {})[u] = coast

    def on_frame(v):
        return v[0] in (0, W) or v[1] in (0, H)

    # What each vertex follows when smoothed: a coast passing through it
    # (so coastlines are smooth curves whatever borders meet them), else
    # its border; the frame and the points where three borders meet
    # inland or at sea stay where they are.
    follow = {}
    for v, nb in links.items():
        if on_frame(v):
            continue
        coast = [w for w, c in nb.items() if c]
        if len(coast) == 2:
            follow[v] = coast
        elif len(nb) == 2:
            follow[v] = list(nb)

    # Taubin's smoothing (a shrinking step, then an inflating one): the
    # staircase of cell corners becomes a curve without shapes shrinking.
    smooth = {v: (float(v[0]), float(v[1])) for v in links}
    for _ in range(16):
        for k in (0.5, -0.53):
            moved = {}
            for v, (a, b) in follow.items():
                p, pa, pb = smooth[v], smooth[a], smooth[b]
                moved[v] = (p[0] + k * ((pa[0] + pb[0]) / 2 - p[0]),
                            p[1] + k * ((pa[1] + pb[1]) / 2 - p[1]))
            smooth.update(moved)

    def corner(v):
        return len(links.get(v, ())) != 2 or on_frame(v)

    def chaikin_open(pts, times):
        for _ in range(times):
            out = [pts[0]]
            n = len(pts) - 1
            for i in range(n):
                a, b = pts[i], pts[i + 1]
                if i > 0:
                    out.append((0.75 * a[0] + 0.25 * b[0], 0.75 * a[1] + 0.25 * b[1]))
                if i < n - 1:
                    out.append((0.25 * a[0] + 0.75 * b[0], 0.25 * a[1] + 0.75 * b[1]))
            out.append(pts[-1])
            pts = out
        return pts

    def chaikin_closed(pts, times):
        for _ in range(times):
            out = []
            for i in range(len(pts)):
                a, b = pts[i], pts[(i + 1) % len(pts)]
                out.append((0.75 * a[0] + 0.25 * b[0], 0.75 * a[1] + 0.25 * b[1]))
                out.append((0.25 * a[0] + 0.75 * b[0], 0.25 * a[1] + 0.75 * b[1]))
            pts = out
        return pts

    def rings_of(area):
        out = edges[area]
        rings = []
        while any(out.values()):
            start = next(v for v, l in out.items() if l)
            ring, v = [start], start
            while True:
                nxt = out[v].pop()
                if nxt == start:
                    break
                ring.append(nxt)
                v = nxt
            rings.append(ring)
        return rings

    # Fewer points where the curve is nearly straight (Douglas-Peucker,
    # within TOLERANCE pixels), so the pictures stay small.  A run is
    # always simplified in the same direction, so both its sides keep the
    # same points.
    tolerance = 0.3 / cell

    def simplify(pts, keep=0):
        if len(pts) < 3:
            return pts
        (ax, ay), (bx, by) = pts[0], pts[-1]
        dx, dy = bx - ax, by - ay
        n = (dx * dx + dy * dy) ** 0.5
        far, at = -1.0, 0
        for i in range(1, len(pts) - 1):
            px_, py_ = pts[i]
            d = abs(dy * (px_ - ax) - dx * (py_ - ay)) / n if n else \
                ((px_ - ax) ** 2 + (py_ - ay) ** 2) ** 0.5
            if d > far:
                far, at = d, i
        if far <= tolerance and keep <= 0:
            return [pts[0], pts[-1]]
        return simplify(pts[:at + 1], keep - 1)[:-1] + simplify(pts[at:], keep - 1)

    def run(vertices):
        if list(reversed(vertices)) < vertices:
            return list(reversed(run(list(reversed(vertices)))))
        # A run keeps a point between its ends (two when it is a loop),
        # so that no ring is left with fewer than three.
        return simplify(chaikin_open([smooth[v] for v in vertices], 2),
                        2 if vertices[0] == vertices[-1] else 1)

    def loop(ring):
        i = ring.index(min(ring))
        fwd = ring[i:] + ring[:i]
        back = [fwd[0]] + fwd[1:][::-1]
        if back < fwd:
            return list(reversed(loop(back)))
        pts = chaikin_closed([smooth[v] for v in fwd], 2)
        far = max(range(len(pts)), key=lambda k: (pts[k][0] - pts[0][0]) ** 2 +
                  (pts[k][1] - pts[0][1]) ** 2)
        return simplify(pts[:far + 1], 1)[:-1] + simplify(pts[far:] + [pts[0]], 1)[:-1]

    # A ring in smoothed points, its corners rounded (Chaikin) run by run
    # between the vertices where borders meet, which stay put, so the run
    # shared with a neighbour comes out the same from both sides.
    def smooth_ring(ring):
        fix = [i for i, v in enumerate(ring) if corner(v)]
        if not fix:
            return loop(ring)
        r = ring[fix[0]:] + ring[:fix[0]] + [ring[fix[0]]]
        fix = [i for i, v in enumerate(r) if corner(v)]
        pts = []
        for a, b in zip(fix, fix[1:]):
            pts.extend(run(r[a:b + 1])[:-1])
        return pts

    # Where things stand: the cell deepest inside the area (ties: nearest
    # the area's middle), the centre marker and name beside it.
    def cells(area):
        return [(x, y) for y in range(H) for x in range(W) if name(x, y) == area]

    def depth(area):
        d = {}
        for (x, y) in cells(area):
            r = 0
            while all(name(x + i, y + j) == area
                      for i in range(-r - 1, r + 2) for j in range(-r - 1, r + 2)):
                r += 1
            d[(x, y)] = r
        return d

    def px(v):
        return f"{v * cell:.1f}".rstrip("0").rstrip(".")

    print("# Generated by maps/art/art2geo.py from", sys.argv[1].split("/")[-1],
          "— edit the .art file, not this one.")
    print("# Format: maps/README.md (Geometry files).")
    print(f"board {round(W * cell)} {round(H * cell)}")
    for area in sorted(kind, key=lambda a: (kind[a] != "sea", a)):
        print(f"\narea {area} {kind[area]}")
        for ring in rings_of(area):
            pts = smooth_ring(ring)
            print("ring " + area + " " + " ".join(px(x) + " " + px(y) for x, y in pts))
        if area.startswith("_") or kind[area] == "impassable":
            if kind[area] == "impassable":
                c = cells(area)
                mx = sum(x for x, _ in c) / len(c) + 0.5
                my = sum(y for _, y in c) / len(c) + 0.5
                print(f"label {area} {px(mx)} {px(my)}")
            continue
        d = depth(area)
        c = list(d)
        mx = sum(x for x, _ in c) / len(c)
        my = sum(y for _, y in c) / len(c)
        best = max(c, key=lambda p: (d[p], -((p[0] - mx) ** 2 + (p[1] - my) ** 2)))
        ux, uy = best[0] + 0.5, best[1] + 0.5
        print(f"unit {area} {px(ux)} {px(uy)}")

        def beside(offsets):
            for ox, oy in offsets:
                if name(int(ux + ox), int(uy + oy)) == area:
                    return ux + ox, uy + oy
            return ux + offsets[0][0] * 0.6, uy + offsets[0][1] * 0.6
        lx, ly = beside(((0, -1.1), (0, 1.1), (1.3, 0), (-1.3, 0)))
        print(f"label {area} {px(lx)} {px(ly)}")
        sx, sy = beside(((1.1, 0.9), (-1.1, 0.9), (1.1, -0.9), (-1.1, -0.9), (0, 1.1)))
        if kind[area] == "land":
            print(f"centre {area} {px(sx)} {px(sy)}")
        for coast in sorted(k for k in coasts if k.split("/")[0] == area):
            seas = {s for s in coasts[coast] if kind.get(s) == "sea"}
            shore = [(x, y) for (x, y) in c
                     if any(name(x + i, y + j) in seas for i, j in ((1, 0), (-1, 0), (0, 1), (0, -1)))]
            if not shore:  # the coast's seas do not touch it in the drawing
                print("warning: coast on no sea of its own in the picture:", coast, file=sys.stderr)
                shore = c
            ax = sum(x for x, _ in shore) / len(shore)
            ay = sum(y for _, y in shore) / len(shore)
            b = min(shore, key=lambda p: (p[0] - ax) ** 2 + (p[1] - ay) ** 2)
            if coast in at:
                b = at[coast]
                shore = [b]
            cx, cy = b[0] + 0.5, b[1] + 0.5
            print(f"unit {coast} {px(cx)} {px(cy)}")
            # The coast's name out over its sea.
            sea = [(x + i, y + j) for (x, y) in shore for i, j in ((1, 0), (-1, 0), (0, 1), (0, -1))
                   if name(x + i, y + j) in seas]
            sea = sea or [b]
            tx = sum(x for x, _ in sea) / len(sea) + 0.5
            ty = sum(y for _, y in sea) / len(sea) + 0.5
            lx, ly = cx + (tx - cx) * 1.4, cy + (ty - cy) * 1.4
            print(f"label {coast} {px(lx)} {px(ly)}")


main()
