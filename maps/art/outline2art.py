#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# outline2art.py — paint a board's letter grid (maps/art/*.art, the input of
# art2geo.py) from geography: coastlines as longitude/latitude outlines
# (earth.coast) and each province as a few points where it lies
# (BOARD.outline).
#
# Why: a grid drawn letter by letter makes Italy a block; coastlines written
# down as places on the real map make it a boot.  Every cell of the grid is
# land or water as the outlines say (the cell's middle inside a land outline
# and outside every water outline); each land cell then goes to the nearest
# point of a land province and each water cell to the nearest point of a
# sea, nearest counted in steps through land (or water) only, so a province
# never leaks across a strait and a sea never across an isthmus.  Islands
# named in the outline file go to the area named with them; a cell nothing
# reaches (a lake, a stray islet) goes to the area beside it.  The result is
# deterministic: ties go to the point written first.
#
# Usage: outline2art.py BOARD.outline > BOARD.art   (paths in the outline
# file are relative to it).  The outline file's lines:
#   coasts FILE                         the coastlines to read (a second
#       line adds its shapes: a strait one board opens, bosphorus.coast)
#   without SHAPE                       leave that shape out (a canal an
#       older board has none of)
#   grid COLUMNS ROWS CELL              the grid (CELL pixels a cell)
#   ywarp LAT Y LAT Y ...               the pixel row of each latitude
#       (in between, in proportion): the middle of the board can get more
#       room than the edges, as on the boards players know
#   xwarp LON X LON X ...               the pixel column of each longitude
#       at latitude LAT0 of the projection line
#   projection LON0 LAT0 BEND           elsewhere the columns close in
#       towards LON0's as (cos lat / cos LAT0) ** BEND: BEND 0 meridians
#       straight down, 1 closing in as on a globe
#   lens LON LAT RADIUS FACTOR          magnify round that place: FACTOR
#       times at its middle, less and less out to RADIUS pixels (room for
#       units in Britain, Italy, the Low Countries)
#   area NAME KIND LON LAT LON LAT ...  an area (art2geo's key line) and
#       the points it grows from (a second line adds points)
#   island SHAPE AREA                   every cell of that coast shape
#   land AREA LON LAT LON LAT ...       a piece of land given to AREA over
#       whatever the coasts say (a strait the board's armies cross)
#   at LOC LON LAT                      a coast's fleet (art2geo's at line)
#   text ...                            a line copied into the .art header
# The coasts file's lines: `land NAME`, `water NAME` or `island NAME`, then
# lines of LON LAT pairs until the next such line (`#` comments).
import heapq
import math
import os
import sys

LETTERS = ([chr(c) for c in range(33, 127) if chr(c) not in "#"] +
           [chr(c) for c in range(0x3b1, 0x3ca)] +      # Greek
           [chr(c) for c in range(0x430, 0x450)] +      # Cyrillic
           [chr(c) for c in range(0xc0, 0x100) if c not in (0xd7, 0xf7)])


def read_coasts(path):
    shapes, cur = [], None
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.split("#")[0].split()
        if not line:
            continue
        if line[0] in ("land", "water", "island"):
            cur = (line[0], line[1], [])
            shapes.append(cur)
            continue
        if cur is None or len(line) % 2:
            sys.exit(f"{path}:{n}: expected LON LAT pairs")
        v = [float(t) for t in line]
        cur[2].extend(zip(v[0::2], v[1::2]))
    return shapes


def inside(pts, x, y):
    c = False
    j = len(pts) - 1
    for i in range(len(pts)):
        xi, yi = pts[i]
        xj, yj = pts[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            c = not c
        j = i
    return c


def main():
    path = sys.argv[1]
    base = os.path.dirname(path)
    areas, order, islands, at, text = {}, [], {}, [], []
    shapes = []
    cols = rows = 0
    cell = 1.0
    proj = None
    warp = {}
    bridges = []
    lenses = []
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        if line.startswith("text"):
            text.append(line[5:].rstrip("\n"))
            continue
        w = line.split("#")[0].split()
        if not w:
            continue
        if w[0] == "coasts":
            shapes += read_coasts(os.path.join(base, w[1]))
        elif w[0] == "without":
            shapes = [sh for sh in shapes if sh[1] != w[1]]
        elif w[0] == "grid":
            cols, rows, cell = int(w[1]), int(w[2]), w[3]
        elif w[0] == "projection":
            proj = [float(t) for t in w[1:4]]
        elif w[0] == "lens":
            lenses.append([float(t) for t in w[1:5]])
        elif w[0] in ("xwarp", "ywarp"):
            v = [float(t) for t in w[1:]]
            warp[w[0]] = sorted(zip(v[0::2], v[1::2]))
        elif w[0] == "area":
            if w[1] not in areas:
                areas[w[1]] = (w[2], [])
                order.append(w[1])
            v = [float(t) for t in w[3:]]
            areas[w[1]][1].extend(zip(v[0::2], v[1::2]))
        elif w[0] == "land":
            v = [float(t) for t in w[2:]]
            bridge = f"_land_{n}"
            bridges.append(("island", bridge, list(zip(v[0::2], v[1::2]))))
            islands[bridge] = w[1]
        elif w[0] == "island":
            islands[w[1]] = w[2]
        elif w[0] == "at":
            at.append((w[1], float(w[2]), float(w[3])))
        else:
            sys.exit(f"{path}:{n}: unknown line")
    shapes = bridges + shapes
    lon0, lat0, bend = proj
    c0 = math.cos(math.radians(lat0))
    W, H = cols * float(cell), rows * float(cell)

    def interp(pairs, v, inverse=False):
        if inverse:
            pairs = sorted((b, a) for a, b in pairs)
        for (a0, b0), (a1, b1) in zip(pairs, pairs[1:]):
            if v <= a1 or (a1, b1) == pairs[-1]:
                return b0 + (v - a0) * (b1 - b0) / (a1 - a0)

    def bent(lat):
        return (max(math.cos(math.radians(lat)), 0.05) / c0) ** bend

    xmid = interp(warp["xwarp"], lon0)

    def plain(lon, lat):
        return xmid + (interp(warp["xwarp"], lon) - xmid) * bent(lat), interp(warp["ywarp"], lat)

    # A lens moves a point at distance d from its middle to d * g(d),
    # g(d) = 1 + (FACTOR - 1) * (1 - d / RADIUS) ** 2, which grows with d.
    lens_px = [(plain(lon, lat), r, f) for lon, lat, r, f in lenses]

    def through(d, r, f):
        return d * (1 + (f - 1) * (1 - d / r) ** 2) if d < r else d

    def to_px(lon, lat):
        x, y = plain(lon, lat)
        for (cx, cy), r, f in lens_px:
            d = math.hypot(x - cx, y - cy)
            if 0 < d < r:
                k = through(d, r, f) / d
                x, y = cx + (x - cx) * k, cy + (y - cy) * k
        return x, y

    def lonlat(x, y):
        for (cx, cy), r, f in reversed(lens_px):
            d = math.hypot(x - cx, y - cy)
            if 0 < d < r:
                lo, hi = 0.0, r
                for _ in range(40):
                    mid = (lo + hi) / 2
                    if through(mid, r, f) < d:
                        lo = mid
                    else:
                        hi = mid
                x, y = cx + (x - cx) * lo / d, cy + (y - cy) * lo / d
        lat = interp(warp["ywarp"], y, inverse=True)
        return interp(warp["xwarp"], xmid + (x - xmid) / bent(lat), inverse=True), lat

    def to_cell(lon, lat):
        x, y = to_px(lon, lat)
        return (min(max(int(x / float(cell)), 0), cols - 1),
                min(max(int(y / float(cell)), 0), rows - 1))

    # Land or water, and the islands' own areas.
    land = [[False] * cols for _ in range(rows)]
    owner = [[None] * cols for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            lon, lat = lonlat((c + 0.5) * float(cell), (r + 0.5) * float(cell))
            for kind, name, pts in shapes:
                if not inside(pts, lon, lat):
                    continue
                if kind == "land":
                    land[r][c] = True
                elif kind == "water":
                    land[r][c] = False
                    break
                else:
                    land[r][c] = True
                    if name in islands:
                        owner[r][c] = islands[name]
                    break

    # Nearest point through land (or water) only.
    dist = [[math.inf] * cols for _ in range(rows)]
    heap = []
    for rank, a in enumerate(order):
        kind, pts = areas[a]
        sea = kind == "sea"
        for lon, lat in pts:
            c, r = to_cell(lon, lat)
            if kind in ("sea", "land") and land[r][c] == sea:
                print(f"warning: a point of {a} ({lon} {lat}) is on "
                      f"{'land' if sea else 'water'}", file=sys.stderr)
                continue
            if owner[r][c] is None:
                heapq.heappush(heap, (0.0, rank, r, c))
    steps = [(0, 1, 1.0), (1, 0, 1.0), (0, -1, 1.0), (-1, 0, 1.0),
             (1, 1, 1.4142), (1, -1, 1.4142), (-1, 1, 1.4142), (-1, -1, 1.4142)]
    while heap:
        d, rank, r, c = heapq.heappop(heap)
        if owner[r][c] is not None:
            continue
        owner[r][c] = order[rank]
        for dr, dc, s in steps:
            rr, cc = r + dr, c + dc
            if not (0 <= rr < rows and 0 <= cc < cols) or owner[rr][cc] is not None:
                continue
            if land[rr][cc] != land[r][c]:
                continue
            if dr and dc and (land[r][cc] != land[r][c] or land[rr][c] != land[r][c]):
                continue
            heapq.heappush(heap, (d + s, rank, rr, cc))
    # What nothing reached takes the area beside it.
    while True:
        todo = [(r, c) for r in range(rows) for c in range(cols) if owner[r][c] is None]
        if not todo:
            break
        fill = {}
        for r, c in todo:
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < cols and owner[rr][cc] is not None:
                    fill[(r, c)] = owner[rr][cc]
                    break
        if not fill:
            sys.exit("nothing reaches the grid: no area has a point")
        for (r, c), a in fill.items():
            owner[r][c] = a

    names = list(order) + sorted(set(islands.values()) - set(order))
    kinds = {a: areas[a][0] if a in areas else "neutral" for a in names}
    used = {owner[r][c] for r in range(rows) for c in range(cols)}
    letter = {}
    for a in names:
        if a in used:
            letter[a] = LETTERS[len(letter)]
    for a in names:
        if a not in used:
            print(f"warning: {a} has no cell", file=sys.stderr)
    print("\n".join("# " + t if t else "#" for t in text))
    print(f"cell {cell}")
    for a in names:
        if a in letter:
            print(f"key {letter[a]} {a} {kinds[a]}")
    for loc, lon, lat in at:
        c, r = to_cell(lon, lat)
        print(f"at {loc} {c} {r}")
    print("grid")
    for r in range(rows):
        print("".join(letter[owner[r][c]] for c in range(cols)))


main()
