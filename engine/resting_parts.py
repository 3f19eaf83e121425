"""The resting parts' boxes on a grid of their own, kept from step to step, and the
contacts among them.

A part rests when its body is static or asleep (and it is not a sensor: sensors are
always gridded with the moving parts, so that their overlaps with sleeping bodies are
reported as before). Resting bodies do not move during a step, and two resting parts never
make a pair the solve needs. So the broad phase does not enter them in its grid each step:
their boxes are computed and gridded once, and each step only the moving parts (those of
awake dynamic and of kinematic bodies, and sensors) are gridded among themselves and
looked up in this grid. A level of thousands of static tiles, or a pile that has fallen
asleep, then costs the step only the cells its moving parts cover.

A resting part's box is its tight box grown by the speculative distance, the box the broad
phase would give it (a resting body has no velocity), so the pairs with moving parts are
exactly those of gridding every part together.

The contacts among resting parts (``contacts``, a Manifolds) are found once, when the grid
is built, by the narrow phase at the resting poses with zero velocities and last step's
impulses from the warm-start cache, which is what every step would find again. The step
reports them with its own (events, ``world.contacts``) and keeps their impulses in the
warm-start cache, but never solves them.

The World owns one :class:`RestingParts` (``world._resting_parts``), a cache, never saved:
it is rebuilt when the resting parts change (a body falls asleep or wakes, a static body is
added or a body removed), when a static body is moved or a body is put to sleep by hand
(the World calls ``invalidate``), when the speculative distance or the cell size changes,
and after a restore (a new part table, which it checks). Its contacts follow from the
state saved (poses and the warm-start cache), so a restored world finds the same ones.
"""

from __future__ import annotations

import math

import numpy as np

from .body_store import STATIC
from .broadphase_grid import choose_cell_size, grid_kernel
from .cell_grid import FIRST_COLUMN, FIRST_ROW, LARGE, build_cells, cell_key
from .jit import kernel
from .swept_bounds import swept_bounds_of

# Rows of ``RestingParts.numbers`` as the kernels take them.
ORIGIN_X, ORIGIN_Y, CELL = range(3)
# Entries of ``RestingParts.sizes``: the grid's columns and rows, and whether it is dense.
COLUMNS, ROWS, DENSE = range(3)


class RestingParts:
    """The resting parts' boxes and grid, what they were built for, and their contacts.

    ``arrays``, as the kernels take them: rows (R,) int64 part rows of the resting parts,
    ascending; lower, upper (R, 2) their boxes; spans (R, 5) int64 each box's first and
    last covered cell and large flag (``engine.cell_grid``); large (L,) int64 the boxes
    (indices into rows) the grid left out; numbers (3,) float64 the grid's origin and cell
    side; sizes (3,) int64 its columns, rows and dense flag; keys, start, boxes: the grid's
    cell keys (C,), runs (C + 1,) and entries (E,) (indices into rows).
    ``contacts``: the Manifolds among the resting parts, or None until the step finds them.
    """

    __slots__ = ("stamp", "arrays", "contacts")

    def __init__(self):
        self.stamp = None
        self.arrays = None
        self.contacts = None

    def invalidate(self) -> None:
        """Forget the grid and its contacts: the next step builds them again."""
        self.stamp = None

    def built_for(self, stamp: tuple) -> bool:
        """Whether the grid was built for ``stamp``: (part table, speculative distance,
        cell size), the table compared by identity (a restore replaces it). The step then
        checks the resting rows themselves (``engine.detect_stage``)."""
        cached = self.stamp
        return (
            cached is not None
            and cached[0] is stamp[0]
            and cached[1] == stamp[1]
            and cached[2] == stamp[2]
        )

    def keep(self, arrays: tuple, stamp: tuple, contacts) -> None:
        """Keep a grid built for ``stamp`` (see ``built_for``) and its contacts."""
        self.arrays, self.stamp, self.contacts = arrays, stamp, contacts

    def current(self, owner_table, vertices, count, radius, owner, start, rows, speculative,
                cell_size) -> tuple:  # fmt: skip
        """The grid's arrays for the resting part rows ``rows`` (R,) (``resting_rows``),
        rebuilt (and the contacts forgotten) unless they were built for these rows, this
        part table ``owner_table``, this speculative distance and cell size. Parts:
        vertices (P, K, 2), count, radius, owner (P,); start: (N + 1, 3) body poses."""
        stamp = (owner_table, speculative, cell_size)
        if not (self.built_for(stamp) and np.array_equal(self.arrays[0], rows)):
            grid = build_resting_grid(
                vertices, count, radius, owner, start, rows, speculative, cell_size
            )
            self.keep(grid, stamp, None)
        return self.arrays


def empty_grid() -> tuple:
    """The arrays of a grid of no resting parts, typed as ``build_resting_grid`` gives
    them (what a step passes before any grid was built), made once."""
    global _EMPTY_GRID
    if _EMPTY_GRID is None:
        _EMPTY_GRID = build_resting_grid(
            np.zeros((0, 1, 2)), np.zeros(0, dtype=np.int64), np.zeros(0),
            np.zeros(0, dtype=np.int64), np.zeros((1, 3)), np.zeros(0, dtype=np.int64), 0.0,
            0.0,
        )  # fmt: skip
    return _EMPTY_GRID


_EMPTY_GRID = None


@kernel
def resting_rows(owner, kind, awake, sensor):
    """(R,) int64 the rows of the resting parts, ascending: those (owner (P,), sensor (P,)
    bool) of static or sleeping bodies (kind, awake: (N,)) that are not sensors."""
    chosen = np.empty(len(owner), dtype=np.bool_)
    for i in range(len(owner)):
        body = owner[i]
        chosen[i] = (kind[body] == STATIC or not awake[body]) and not sensor[i]
    return np.flatnonzero(chosen)


@kernel
def moving_part_rows(rows, parts):
    """(M,) int64 the part rows below ``parts`` that are not in the ascending ``rows``."""
    moving = np.ones(parts, dtype=np.bool_)
    for r in rows:
        moving[r] = False
    return np.flatnonzero(moving)


@kernel
def build_resting_grid(vertices, count, radius, owner, start, rows, speculative, cell_size):
    """The resting parts' boxes on a grid: (rows, lower, upper, spans, large, numbers,
    sizes, keys, start, boxes) as :class:`RestingParts` describes them. Parts: vertices
    (P, K, 2), count, radius, owner (P,); start: (N + 1, 3) body poses; rows: (R,) the
    resting parts; cell_size <= 0: chosen from the boxes."""
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
def pairs_among_resting(resting):
    """(K, 2) int64 the overlapping pairs of resting part rows (canonical: smaller row
    first, sorted), from the grid ``resting`` (:class:`RestingParts` arrays)."""
    rows, lower, upper = resting[0], resting[1], resting[2]
    if len(rows) < 2:
        return np.empty((0, 2), dtype=np.int64)
    local = grid_kernel(lower, upper, resting[5][CELL])
    pairs = np.empty_like(local)
    for k in range(len(local)):
        pairs[k, 0], pairs[k, 1] = rows[local[k, 0]], rows[local[k, 1]]
    return pairs


@kernel
def pairs_with_resting(moving, lower, upper, resting, buffer, count):
    """Append to ``buffer`` (C, 2) after row ``count`` the overlapping pairs (moving part
    row, resting part row) of the moving parts' boxes (rows ``moving`` (M,), corners lower,
    upper (M, 2)) and the resting grid ``resting`` (:class:`RestingParts` arrays). Returns
    the new count, or -1 if they do not fit.

    Each pair is listed once: from the cell of the two boxes' intersection's lower-left
    corner (the larger first cell on each axis), as the grid broad phase lists its pairs;
    the large resting boxes, which the grid leaves out, are tested against every moving
    box.
    """
    rows, _, _, _, large, numbers, sizes, _, _, _ = resting
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
                m, moving, lower, upper, resting, lo_x, lo_y, first_x, first_y, last_x,
                last_y, buffer, count,
            )  # fmt: skip
            if count < 0:
                return -1
        for k in range(len(large)):
            count = _append_if_overlapping(
                lower, upper, m, resting, large[k], moving, buffer, count
            )
            if count < 0:
                return -1
    return count


@kernel(inline=True)
def _pairs_in_cells(m, moving, lower, upper, resting, lo_x, lo_y, first_x, first_y, last_x,
                    last_y, buffer, count):  # fmt: skip
    """Append the pairs of moving box m with the resting boxes in the grid cells it covers
    (first_x..last_x, first_y..last_y, within the grid; lo_x, lo_y: its first cells,
    unclamped). Returns the new count, or -1 if they do not fit."""
    rows, _, _, spans, _, _, sizes, keys, start, boxes = resting
    grid_rows, dense = sizes[ROWS], sizes[DENSE] != 0
    if (last_x - first_x + 1.0) * (last_y - first_y + 1.0) > len(rows):
        # A box over more cells than there are resting parts (a long sweep, a huge
        # kinematic platform): testing each resting part once is cheaper.
        for s in range(len(rows)):
            if not spans[s, LARGE]:
                count = _append_if_overlapping(lower, upper, m, resting, s, moving, buffer, count)
                if count < 0:
                    return -1
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
                count = _append_if_overlapping(lower, upper, m, resting, s, moving, buffer, count)
                if count < 0:
                    return -1
    return count


@kernel(inline=True)
def _append_if_overlapping(lower, upper, m, resting, s, moving, buffer, count):
    """Append the pair (moving part of box m, resting part of box s) to ``buffer`` after
    row ``count`` if moving box m (lower, upper) and resting box s overlap or touch
    (closed intervals, as ``engine.box_pairs.boxes_overlap``). Returns the new count, or
    -1 if the buffer is full."""
    rows, s_lower, s_upper, _, _, _, _, _, _, _ = resting
    if (
        lower[m, 0] <= s_upper[s, 0]
        and s_lower[s, 0] <= upper[m, 0]
        and lower[m, 1] <= s_upper[s, 1]
        and s_lower[s, 1] <= upper[m, 1]
    ):
        if count == len(buffer):
            return -1
        buffer[count, 0], buffer[count, 1] = moving[m], rows[s]
        count += 1
    return count
