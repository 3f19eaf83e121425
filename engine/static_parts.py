"""The static parts' boxes on a grid of their own, kept from step to step.

Static bodies never move during a step, and two static parts never make a pair the step
needs (the filter of ``engine.candidate_pairs`` drops them). So the broad phase does not
enter them in its grid each step: their boxes are computed and gridded once, and each step
only the moving parts (those of dynamic and kinematic bodies) are gridded among
themselves and looked up in this grid. A level of thousands of static tiles then costs
the step only the cells its few moving parts cover.

A static part's box is its tight box grown by the speculative distance, the box the
broad phase would give it (a static body has no velocity), so the pairs are exactly those
of gridding every part together.

The World owns one :class:`StaticParts` (``world._static_parts``), a cache: it is rebuilt
when a static body is added, moved or removed, when any body is removed (part rows shift),
and when the speculative distance or the cell size changes. The World calls
``invalidate`` on those writes; a restore replaces the part table, which the cache also
checks.
"""

from __future__ import annotations

import math

import numpy as np

from .body_store import STATIC
from .broadphase_grid import choose_cell_size
from .cell_grid import FIRST_COLUMN, FIRST_ROW, LARGE, build_cells, cell_key
from .jit import kernel
from .swept_bounds import swept_bounds_of

# Rows of ``StaticParts.numbers`` as the kernels take them.
ORIGIN_X, ORIGIN_Y, CELL = range(3)
# Entries of ``StaticParts.sizes``: the grid's columns and rows, and whether it is dense.
COLUMNS, ROWS, DENSE = range(3)


class StaticParts:
    """The static parts' boxes and grid, and what they were built for.

    rows: (S,) int64 part rows of the static parts, ascending; lower, upper: (S, 2) their
    boxes; spans: (S, 5) int64 each box's first and last covered cell and large flag
    (``engine.cell_grid``); large: (L,) int64 the boxes (indices into rows) the grid left
    out; numbers: (3,) float64 the grid's origin and cell side; sizes: (3,) int64 its
    columns, rows and dense flag; keys, start, boxes: the grid's cell keys (C,), runs
    (C + 1,) and entries (E,) (indices into rows).
    """

    __slots__ = ("stamp", "arrays")

    def __init__(self):
        self.stamp = None
        self.arrays = None

    def invalidate(self) -> None:
        """Forget the grid: the next step rebuilds it."""
        self.stamp = None

    def current(self, owner_table, vertices, count, radius, owner, start, kind, speculative,
                cell_size) -> tuple:  # fmt: skip
        """The grid's arrays, rebuilt if they were not built for this part table
        ``owner_table`` (compared by identity: a restore replaces it), this speculative
        distance and cell size, or if parts were removed since. Parts: vertices (P, K, 2),
        count, radius, owner (P,); start: (N + 1, 3) body poses; kind: (N,)."""
        cached = self.stamp
        if (
            cached is None
            or cached[0] is not owner_table
            or cached[1] > len(owner)
            or cached[2] != speculative
            or cached[3] != cell_size
        ):
            self.arrays = build_static_grid(
                vertices, count, radius, owner, start, kind, speculative, cell_size
            )
            # Parts appended later (bodies added) are not static: it stays valid for them.
            self.stamp = (owner_table, len(owner), speculative, cell_size)
        return self.arrays


@kernel
def build_static_grid(vertices, count, radius, owner, start, kind, speculative, cell_size):
    """The static parts' boxes on a grid: (rows, lower, upper, spans, large, numbers,
    sizes, keys, start, boxes) as :class:`StaticParts` describes them. Parts: vertices
    (P, K, 2), count, radius, owner (P,); start: (N + 1, 3) body poses; kind: (N,);
    cell_size <= 0: chosen from the boxes."""
    chosen = np.zeros(len(owner), dtype=np.bool_)
    for i in range(len(owner)):
        chosen[i] = kind[owner[i]] == STATIC
    rows = np.flatnonzero(chosen)
    margin = np.full(len(start), speculative)
    lower, upper = swept_bounds_of(rows, vertices, count, radius, owner, start, start, margin)
    spans = np.zeros((len(rows), 5), dtype=np.int64)
    numbers = np.zeros(3)
    sizes = np.zeros(3, dtype=np.int64)
    if len(rows) == 0:
        empty = np.zeros(0, dtype=np.int64)
        no_start = np.zeros(1, dtype=np.int64)
        return rows, lower, upper, spans, empty, numbers, sizes, empty, no_start, empty
    cell = cell_size if cell_size > 0.0 else choose_cell_size(lower, upper)
    grid = build_cells(lower, upper, cell, spans)
    numbers[ORIGIN_X], numbers[ORIGIN_Y], numbers[CELL] = grid.origin_x, grid.origin_y, grid.size
    sizes[COLUMNS], sizes[ROWS], sizes[DENSE] = grid.columns, grid.rows, grid.dense
    large = np.flatnonzero(spans[:, LARGE] != 0)
    return rows, lower, upper, spans, large, numbers, sizes, grid.keys, grid.start, grid.boxes


@kernel
def pairs_with_static(moving, lower, upper, static, buffer, count):
    """Append to ``buffer`` (C, 2) after row ``count`` the overlapping pairs (moving part
    row, static part row) of the moving parts' boxes (rows ``moving`` (M,), corners lower,
    upper (M, 2)) and the static grid ``static`` (:class:`StaticParts` arrays). Returns the
    new count, or -1 if they do not fit.

    Each pair is listed once: from the cell of the two boxes' intersection's lower-left
    corner (the larger first cell on each axis), as the grid broad phase lists its pairs;
    the large static boxes, which the grid leaves out, are tested against every moving box.
    """
    rows, s_lower, s_upper, spans, large, numbers, sizes, keys, start, boxes = static
    if len(rows) == 0:
        return count
    ox, oy, size = numbers[ORIGIN_X], numbers[ORIGIN_Y], numbers[CELL]
    columns, grid_rows = sizes[COLUMNS], sizes[ROWS]
    for m in range(len(moving)):
        # The moving box's cells, unclamped for the listing rule, then clamped to the grid.
        lo_x = math.floor((lower[m, 0] - ox) / size)
        lo_y = math.floor((lower[m, 1] - oy) / size)
        hi_x = math.floor((upper[m, 0] - ox) / size)
        hi_y = math.floor((upper[m, 1] - oy) / size)
        first_x, first_y = max(lo_x, 0.0), max(lo_y, 0.0)
        last_x, last_y = min(hi_x, columns - 1.0), min(hi_y, grid_rows - 1.0)
        if first_x <= last_x and first_y <= last_y:
            count = _pairs_in_cells(
                m, moving, lower, upper, static, lo_x, lo_y, first_x, first_y, last_x,
                last_y, buffer, count,
            )  # fmt: skip
            if count < 0:
                return -1
        for k in range(len(large)):
            s = large[k]
            if _overlap(lower, upper, m, s_lower, s_upper, s):
                if count == len(buffer):
                    return -1
                buffer[count, 0], buffer[count, 1] = moving[m], rows[s]
                count += 1
    return count


@kernel(inline=True)
def _pairs_in_cells(m, moving, lower, upper, static, lo_x, lo_y, first_x, first_y, last_x,
                    last_y, buffer, count):  # fmt: skip
    """Append the pairs of moving box m with the static boxes in the grid cells it covers
    (first_x..last_x, first_y..last_y, within the grid; lo_x, lo_y: its first cells,
    unclamped). Returns the new count, or -1 if they do not fit."""
    rows, s_lower, s_upper, spans, large, numbers, sizes, keys, start, boxes = static
    grid_rows, dense = sizes[ROWS], sizes[DENSE] != 0
    if (last_x - first_x + 1.0) * (last_y - first_y + 1.0) > len(rows):
        # A box over more cells than there are static parts (a long sweep, a huge
        # kinematic platform): testing each static part once is cheaper.
        for s in range(len(rows)):
            if not spans[s, LARGE] and _overlap(lower, upper, m, s_lower, s_upper, s):
                if count == len(buffer):
                    return -1
                buffer[count, 0], buffer[count, 1] = moving[m], rows[s]
                count += 1
        return count
    for cx in range(int(first_x), int(last_x) + 1):
        for cy in range(int(first_y), int(last_y) + 1):
            if dense:
                cell = cx * grid_rows + cy
            else:
                cell = np.searchsorted(keys, cell_key(cx, cy))
                if cell == len(keys) or keys[cell] != cell_key(cx, cy):
                    continue
            for e in range(start[cell], start[cell + 1]):
                s = boxes[e]
                # Listed only from the cell of the intersection's lower-left corner.
                if max(lo_x, float(spans[s, FIRST_COLUMN])) != cx:
                    continue
                if max(lo_y, float(spans[s, FIRST_ROW])) != cy:
                    continue
                if _overlap(lower, upper, m, s_lower, s_upper, s):
                    if count == len(buffer):
                        return -1
                    buffer[count, 0], buffer[count, 1] = moving[m], rows[s]
                    count += 1
    return count


@kernel(inline=True)
def _overlap(lower, upper, a, other_lower, other_upper, b):
    """Whether box a of (lower, upper) and box b of (other_lower, other_upper) overlap or
    touch (closed intervals, as ``engine.box_pairs.boxes_overlap``)."""
    return (
        lower[a, 0] <= other_upper[b, 0]
        and other_lower[b, 0] <= upper[a, 0]
        and lower[a, 1] <= other_upper[b, 1]
        and other_lower[b, 1] <= upper[a, 1]
    )
