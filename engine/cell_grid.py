"""A uniform grid over axis-aligned boxes: the cells each box covers and the boxes of each
cell, built by one kernel. The broad phase pairs the boxes of each cell; the query index
looks up the boxes (parts) of the cells a query covers.

Cells are squares of side ``size`` laid from the boxes' lowest corner (the origin). A box
covers, on each axis, the cells from floor((lower - origin) / size) to
floor((upper - origin) / size): its first and last cell. floor is monotone, so every box
touching a point covers that point's cell, and two overlapping boxes share a cell.

A box covering more than MAX_CELLS_PER_BOX cells is *large*: the ground, a long wall, or
any box when the cells are tiny. Large boxes are left out of the grid, so memory stays
proportional to the boxes and not to the area they cover; each user of the grid handles
them on its own (the broad phase sweeps them against every box, queries test them
directly).

The grid lists cells by key ``column << AXIS_BITS | row``, ascending, and cell c holds the
boxes ``boxes[start[c]:start[c + 1]]``, ascending. When the grid is not much larger than
its entries (the usual case) it is *dense*: every one of its columns * rows cells is
listed, occupied or not (cell (column, row) is number column * rows + row), and the
entries are grouped by a counting sort over the cells. Otherwise (a few boxes spread very
far apart) only the occupied cells are listed, grouped by a radix sort of the entries'
keys.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .jit import kernel
from .sorting import argsort_keys

# A box covering more cells than this is left out of the grid.
MAX_CELLS_PER_BOX = 16
# Cell coordinates stay below 2**30: (column, row) packs into one int64 key.
AXIS_BITS = 30
AXIS_LIMIT = 2**AXIS_BITS - 1
# Columns of ``spans``: each box's first and last covered cell, and whether it is large.
FIRST_COLUMN, FIRST_ROW, LAST_COLUMN, LAST_ROW, LARGE = range(5)


class CellGrid(NamedTuple):
    """The grid of N boxes: E entries (box, covered cell) in C listed cells.

    origin_x, origin_y: corner of cell (0, 0); size: cell side. columns, rows: the cells
    spanned by the boxes in the grid (at least 1 each). dense: whether every cell of the
    grid is listed (C = columns * rows, cell c is column c // rows, row c % rows) or only
    the occupied ones. keys: (C,) int64 the listed cells' keys, ascending. start: (C + 1,)
    int64 each cell's run of ``boxes``. boxes: (E,) int64 the boxes of each cell,
    ascending. (Each box's cells are in ``spans``, which the caller provides: see
    :func:`build_cells`.)
    """

    origin_x: float
    origin_y: float
    size: float
    columns: int
    rows: int
    dense: bool
    keys: np.ndarray
    start: np.ndarray
    boxes: np.ndarray


@kernel
def build_cells(lower, upper, size, spans):
    """The CellGrid of boxes with (N, 2) corners ``lower``, ``upper``, cells of side ``size``.

    spans: (N, W) int64, W >= 5, zeros: receives each box's first and last covered cell
    (columns FIRST_COLUMN, FIRST_ROW, LAST_COLUMN, LAST_ROW; 0 for a large box) and its
    LARGE flag. Columns from 5 on are left to the caller (the query index keeps its own
    there), so that no copy of them is made.
    """
    n = len(lower)
    ox = oy = 0.0
    if n:
        ox, oy = lower[:, 0].min(), lower[:, 1].min()
    columns = rows = 1
    entries = 0
    for i in range(n):
        lo_x = math.floor((lower[i, 0] - ox) / size)
        lo_y = math.floor((lower[i, 1] - oy) / size)
        hi_x = math.floor((upper[i, 0] - ox) / size)
        hi_y = math.floor((upper[i, 1] - oy) / size)
        # Counted in float64: a huge box may cover more cells than int64 can hold.
        covered = (hi_x - lo_x + 1.0) * (hi_y - lo_y + 1.0)
        if covered > MAX_CELLS_PER_BOX or hi_x > AXIS_LIMIT or hi_y > AXIS_LIMIT:
            spans[i, LARGE] = 1
            continue
        spans[i, FIRST_COLUMN], spans[i, FIRST_ROW] = int(lo_x), int(lo_y)
        spans[i, LAST_COLUMN], spans[i, LAST_ROW] = int(hi_x), int(hi_y)
        columns, rows = max(columns, int(hi_x) + 1), max(rows, int(hi_y) + 1)
        entries += int(covered)
    dense = columns * rows <= 4 * entries + 1024
    if dense:
        keys, start, boxes = _counted_cells(spans, columns, rows, entries)
    else:
        keys, start, boxes = _sorted_cells(spans, entries)
    return CellGrid(ox, oy, size, columns, rows, dense, keys, start, boxes)


@kernel(inline=True)
def _counted_cells(spans, columns, rows, entries):
    """Every cell's key (C,) and run start (C + 1,), C = columns * rows, and the boxes (E,)
    by a counting sort over the cells (boxes ascending within a cell: placed in order)."""
    cells = columns * rows
    start = np.zeros(cells + 1, dtype=np.int64)
    for i in range(len(spans)):
        if not spans[i, LARGE]:
            for cx in range(spans[i, FIRST_COLUMN], spans[i, LAST_COLUMN] + 1):
                for cy in range(spans[i, FIRST_ROW], spans[i, LAST_ROW] + 1):
                    start[cx * rows + cy + 1] += 1
    for cell in range(cells):
        start[cell + 1] += start[cell]
    boxes = np.empty(entries, dtype=np.int64)
    fill = start[:-1].copy()
    for i in range(len(spans)):
        if not spans[i, LARGE]:
            for cx in range(spans[i, FIRST_COLUMN], spans[i, LAST_COLUMN] + 1):
                for cy in range(spans[i, FIRST_ROW], spans[i, LAST_ROW] + 1):
                    boxes[fill[cx * rows + cy]] = i
                    fill[cx * rows + cy] += 1
    keys = np.empty(cells, dtype=np.int64)
    for cx in range(columns):
        for cy in range(rows):
            keys[cx * rows + cy] = cell_key(cx, cy)
    return keys, start, boxes


@kernel(inline=True)
def _sorted_cells(spans, entries):
    """The occupied cells' keys (C,), their runs start (C + 1,) and the boxes (E,), by a
    radix sort of the entries' keys (stable), for a grid much larger than its entries."""
    keys = np.empty(entries, dtype=np.int64)
    owners = np.empty(entries, dtype=np.int64)
    e = 0
    for i in range(len(spans)):
        if not spans[i, LARGE]:
            for cx in range(spans[i, FIRST_COLUMN], spans[i, LAST_COLUMN] + 1):
                for cy in range(spans[i, FIRST_ROW], spans[i, LAST_ROW] + 1):
                    keys[e], owners[e] = cell_key(cx, cy), i
                    e += 1
    order = argsort_keys(keys)
    cell_keys = np.empty(entries, dtype=np.int64)
    start = np.empty(entries + 1, dtype=np.int64)
    boxes = np.empty(entries, dtype=np.int64)
    cells = 0
    for e in range(entries):
        key = keys[order[e]]
        boxes[e] = owners[order[e]]
        if cells == 0 or key != cell_keys[cells - 1]:
            cell_keys[cells], start[cells] = key, e
            cells += 1
    start[cells] = entries
    return cell_keys[:cells], start[: cells + 1], boxes


@kernel(inline=True)
def cell_key(column, row):
    """The key of cell (column, row)."""
    return (column << AXIS_BITS) | row
