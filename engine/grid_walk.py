"""Which parts of the query index are near a box or a swept box: the cells and their runs.

A box maps to a rectangle of cells by the same monotone floor that placed the parts, so it
needs no slack. A sweep (a box of half-size h whose centre moves from s to e; a ray is a
sweep with h = 0) is walked column by column along the axis it moves most on, u (the other
is v): with |dv/du| <= 1 each column's run of rows stays short, so the cells listed are the
cells crossed plus O(1) per column. The walk grows h by CELL_SLACK of the coordinates'
size, so rounding never skips a cell the sweep touches.

Each cell's parts are one run of the index's ``slot_parts`` (``query_index.slot_run``): the
cell's own in a dense grid, its hash bucket's in a sparse one.

Columns come in the order the sweep reaches them, each with the fraction of the motion at
which the sweep's box first touches it. A caller that has found a hit at fraction t stops at
the first column whose entry is later than t: nothing there can be hit sooner (rays).

Parts are reported by index row. Large parts and parts of moved bodies (``unlisted``) are
checked directly; moved parts' stale grid entries are skipped. A walk that would cross more
cells than the grid has entries checks every part instead: that is cheaper.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .cell_grid import FIRST_COLUMN, FIRST_ROW, LAST_COLUMN, LAST_ROW
from .jit import kernel
from .query_index import (
    CELL,
    COLUMNS,
    HASHED,
    HIGH_X,
    HIGH_Y,
    LOW_X,
    LOW_Y,
    MOVED,
    ORIGIN_X,
    ORIGIN_Y,
    ROWS,
    UNLISTED,
    slot_run,
)
from .sorting import sorted_unique

# Slack, in cells per unit of the coordinates' size in cells, added around sweeps.
CELL_SLACK = 1e-7


class Walk(NamedTuple):
    """A sweep in grid units along its major axis u (v is the other), and its columns."""

    swap: bool  # True where u is y
    u0: float  # the centre's start along u and v
    v0: float
    du: float  # the centre's travel along u
    slope: float  # dv/du, |slope| <= 1
    u_lo: float  # the range of the centre along u
    u_hi: float
    hu: float  # half-size in cells, with slack
    hv: float
    cells_v: int  # cells along v
    first: int  # the columns it covers, clipped to the grid (last < first: none)
    last: int


@kernel(inline=True)
def cell_range(low, high, cells):
    """First and last cell of a coordinate range in cell units, clipped to [0, cells - 1].

    Clipping happens in float first, so huge coordinates never overflow int64; the range is
    empty (last < first) when it misses the grid.
    """
    first = math.floor(min(max(low, -1.0), float(cells)))
    last = math.floor(min(max(high, -1.0), float(cells)))
    return max(first, 0), min(last, cells - 1)


@kernel(inline=True)
def boxes_touch(part_floats, p, lo_x, lo_y, hi_x, hi_y):
    """True when part p's padded box and the box lo..hi overlap (closed intervals)."""
    return (
        part_floats[p, LOW_X] <= hi_x
        and lo_x <= part_floats[p, HIGH_X]
        and part_floats[p, LOW_Y] <= hi_y
        and lo_y <= part_floats[p, HIGH_Y]
    )


@kernel(inline=True)
def sweep_entry(part_floats, p, sx, sy, dx, dy, hx, hy):
    """First fraction t in [0, 1] at which a box of half-size (hx, hy) centred at
    (sx, sy) + t (dx, dy) touches part p's padded box; inf when it never does (slabs)."""
    enter, leave = -np.inf, np.inf
    for axis in range(2):
        if axis == 0:
            low, high = part_floats[p, LOW_X] - hx, part_floats[p, HIGH_X] + hx
            s, d = sx, dx
        else:
            low, high = part_floats[p, LOW_Y] - hy, part_floats[p, HIGH_Y] + hy
            s, d = sy, dy
        if d == 0.0:
            if s < low or s > high:
                return np.inf
        else:
            t1, t2 = (low - s) / d, (high - s) / d
            enter, leave = max(enter, min(t1, t2)), min(leave, max(t1, t2))
    if enter > leave or leave < 0.0 or enter > 1.0:
        return np.inf
    return max(enter, 0.0)


@kernel(inline=True)
def box_cells(grid, counts, lo_x, lo_y, hi_x, hi_y):
    """The rectangle of cells (first column, last column, first row, last row) of a box."""
    size = grid[CELL]
    c0, c1 = cell_range(
        (lo_x - grid[ORIGIN_X]) / size, (hi_x - grid[ORIGIN_X]) / size, counts[COLUMNS]
    )
    r0, r1 = cell_range(
        (lo_y - grid[ORIGIN_Y]) / size, (hi_y - grid[ORIGIN_Y]) / size, counts[ROWS]
    )
    return c0, c1, r0, r1


@kernel
def box_parts(index, lo_x, lo_y, hi_x, hi_y):
    """Parts (M,) int64 whose padded boxes overlap the box lo..hi, each once, unordered.

    A part is reported only from the cell at the low corner of the overlap of its block of
    cells with the box's, so a part covering several of the box's cells is listed once.
    Buffers are sized before they are filled: a buffer that may grow inside a loop costs
    reference counting on every pass of it.
    """
    part_ints, part_floats, slot_parts = index.part_ints, index.part_floats, index.slot_parts
    hashed, slot_keys = index.counts[HASHED] != 0, index.slot_keys
    c0, c1, r0, r1 = box_cells(index.grid, index.counts, lo_x, lo_y, hi_x, hi_y)
    if max(c1 - c0 + 1, 0) * max(r1 - r0 + 1, 0) > max(len(slot_parts), 16):  # test all
        found = np.empty(len(part_ints), dtype=np.int64)
        used = 0
        for p in range(len(part_ints)):
            if boxes_touch(part_floats, p, lo_x, lo_y, hi_x, hi_y):
                found[used] = p
                used += 1
        return found[:used]
    room = index.counts[UNLISTED]
    for cx in range(c0, c1 + 1):
        for cy in range(r0, r1 + 1):
            _, start, stop = slot_run(index, cx, cy)
            room += stop - start
    found = np.empty(room, dtype=np.int64)
    used = 0
    for i in range(index.counts[UNLISTED]):
        p = index.unlisted[i]
        if boxes_touch(part_floats, p, lo_x, lo_y, hi_x, hi_y):
            found[used] = p
            used += 1
    for cx in range(c0, c1 + 1):
        for cy in range(r0, r1 + 1):
            key, start, stop = slot_run(index, cx, cy)
            for e in range(start, stop):
                p = slot_parts[e]
                if (hashed and slot_keys[e] != key) or part_ints[p, MOVED]:
                    continue  # another cell's entry in a hash bucket, or a moved part
                corner_x = max(part_ints[p, FIRST_COLUMN], c0)
                if corner_x != cx or max(part_ints[p, FIRST_ROW], r0) != cy:
                    continue
                if boxes_touch(part_floats, p, lo_x, lo_y, hi_x, hi_y):
                    found[used] = p
                    used += 1
    return found[:used]


@kernel(inline=True)
def sweep_walk(grid, counts, sx, sy, ex, ey, hx, hy):
    """The Walk of a box of half-size (hx, hy) whose centre moves from (sx, sy) to (ex, ey)."""
    size = grid[CELL]
    g0x, g0y = (sx - grid[ORIGIN_X]) / size, (sy - grid[ORIGIN_Y]) / size
    g1x, g1y = (ex - grid[ORIGIN_X]) / size, (ey - grid[ORIGIN_Y]) / size
    hgx = hx / size + CELL_SLACK * (1.0 + abs(g0x) + abs(g1x))
    hgy = hy / size + CELL_SLACK * (1.0 + abs(g0y) + abs(g1y))
    swap = abs(g1y - g0y) > abs(g1x - g0x)
    if swap:
        u0, u1, v0, v1, hu, hv = g0y, g1y, g0x, g1x, hgy, hgx
        cells_u, cells_v = counts[ROWS], counts[COLUMNS]
    else:
        u0, u1, v0, v1, hu, hv = g0x, g1x, g0y, g1y, hgx, hgy
        cells_u, cells_v = counts[COLUMNS], counts[ROWS]
    du = u1 - u0
    slope = (v1 - v0) / du if du != 0.0 else 0.0
    u_lo, u_hi = min(u0, u1), max(u0, u1)
    first, last = cell_range(u_lo - hu, u_hi + hu, cells_u)
    return Walk(swap, u0, v0, du, slope, u_lo, u_hi, hu, hv, cells_v, first, last)


@kernel(inline=True)
def walk_is_long(walk, entries):
    """True when the walk's cells outnumber the grid's entries (cheaper to test all)."""
    columns = max(walk.last - walk.first + 1, 0)
    return columns * (abs(walk.slope) + 2.0 * walk.hv + 2.0) > max(entries, 16)


@kernel(inline=True)
def column_at(walk, step):
    """The column the walk reaches ``step``-th, in the order of travel."""
    return walk.first + step if walk.du >= 0.0 else walk.last - step


@kernel(inline=True)
def column_entry(walk, column):
    """The fraction of the motion at which the sweep's box first reaches ``column``
    (-inf when it does not move along u)."""
    if walk.du > 0.0:
        return (column - walk.hu - walk.u0) / walk.du
    if walk.du < 0.0:
        return (column + 1.0 + walk.hu - walk.u0) / walk.du
    return -np.inf


@kernel(inline=True)
def column_rows(walk, column):
    """First and last row the sweep covers in ``column``.

    The box's centre is in the column or within hu of it for u in [a, b]; over that stretch
    v runs linearly, and the box adds hv either side.
    """
    a = max(column - walk.hu, walk.u_lo)
    b = max(min(column + 1.0 + walk.hu, walk.u_hi), a)
    va = walk.v0 + (a - walk.u0) * walk.slope
    vb = walk.v0 + (b - walk.u0) * walk.slope
    return cell_range(min(va, vb) - walk.hv, max(va, vb) + walk.hv, walk.cells_v)


@kernel(inline=True)
def walk_cell(walk, column, row):
    """The grid cell (column, row) of the walk's cell (column along u, row along v)."""
    if walk.swap:
        return row, column
    return column, row


@kernel(inline=True)
def column_room(index, walk, column):
    """An upper bound on what :func:`column_parts` lists for ``column``: the length of its
    cells' slots' runs of parts."""
    r0, r1 = column_rows(walk, column)
    room = 0
    for row in range(r0, r1 + 1):
        cx, cy = walk_cell(walk, column, row)
        _, start, stop = slot_run(index, cx, cy)
        room += stop - start
    return room


@kernel(inline=True)
def column_parts(index, walk, column, found, used):
    """Write the listed parts of the walk's cells in ``column`` into ``found`` from slot
    ``used`` (room for :func:`column_room` of them); returns the new fill.

    Each part comes once per walk, from the first of its cells the walk reaches: its lowest
    row in this column's run, and not at all when the previous column's run met it. (Runs
    move monotonically from column to column, so a part met two columns back and present
    here was met in the previous column too.)
    """
    part_ints, slot_parts = index.part_ints, index.slot_parts
    hashed, slot_keys = index.counts[HASHED] != 0, index.slot_keys
    r0, r1 = column_rows(walk, column)
    previous = column - 1 if walk.du >= 0.0 else column + 1
    p0, p1 = 0, -1  # the previous column's run of rows, empty before the first column
    if walk.first <= previous <= walk.last:
        p0, p1 = column_rows(walk, previous)
    # Each part's block of cells along u (columns of the walk) and v (rows).
    u_first, u_last = (FIRST_ROW, LAST_ROW) if walk.swap else (FIRST_COLUMN, LAST_COLUMN)
    v_first, v_last = (FIRST_COLUMN, LAST_COLUMN) if walk.swap else (FIRST_ROW, LAST_ROW)
    for row in range(r0, r1 + 1):
        cx, cy = walk_cell(walk, column, row)
        key, start, stop = slot_run(index, cx, cy)
        for e in range(start, stop):
            p = slot_parts[e]
            if (hashed and slot_keys[e] != key) or part_ints[p, MOVED]:
                continue  # another cell's entry in a hash bucket, or a moved part
            low, high = part_ints[p, v_first], part_ints[p, v_last]
            if row != max(low, r0):
                continue  # met in a lower row of this column
            if part_ints[p, u_first] <= previous <= part_ints[p, u_last] and low <= p1:
                if high >= p0:
                    continue  # met in the previous column
            found[used] = p
            used += 1
    return used


@kernel
def sweep_parts(index, sx, sy, ex, ey, hx, hy):
    """Parts (M,) int64, ascending, each once, whose padded boxes a box of half-size
    (hx, hy) touches while its centre moves from (sx, sy) to (ex, ey)."""
    part_floats = index.part_floats
    walk = sweep_walk(index.grid, index.counts, sx, sy, ex, ey, hx, hy)
    if walk_is_long(walk, len(index.slot_parts)):
        near = np.arange(len(part_floats))
    else:
        columns = walk.last - walk.first + 1
        room = index.counts[UNLISTED]
        for step in range(columns):
            room += column_room(index, walk, column_at(walk, step))
        found = np.empty(room, dtype=np.int64)
        used = index.counts[UNLISTED]
        found[:used] = index.unlisted[:used]
        for step in range(columns):
            used = column_parts(index, walk, column_at(walk, step), found, used)
        near = sorted_unique(found[:used])
    kept = 0
    for p in near:
        if sweep_entry(part_floats, p, sx, sy, ex - sx, ey - sy, hx, hy) <= 1.0:
            near[kept] = p
            kept += 1
    return near[:kept]
