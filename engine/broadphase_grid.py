"""Uniform-grid broad phase: boxes sharing a cell of the grid are candidate pairs.

The grid is ``engine.cell_grid``'s, the one the query index is built on: each box is
entered in every cell it covers, and the entries are grouped by cell. Each cell's boxes are
paired in a compiled loop.

Two boxes that overlap share several cells when their intersection spans several. Each
pair is listed only in the cell holding the lower-left corner of the two boxes'
intersection: on each axis the larger of their first covered cells. Both boxes cover that
cell (floor is monotone), so every overlapping pair is found exactly once.

Boxes covering many cells (a huge wall, or every box when the cells are tiny) would blow
up the number of entries. The grid leaves them out, and they are paired by a sweep against
all boxes instead (``engine.box_pairs.sweep_large_boxes``), so memory stays proportional to
the boxes and their pairs, not to the area they cover.
"""

from __future__ import annotations

import math

import numpy as np

from .box_pairs import as_boxes, canonical_pairs, empty_pairs, sweep_large_boxes
from .cell_grid import AXIS_BITS, AXIS_LIMIT, FIRST_COLUMN, FIRST_ROW, LARGE, build_cells
from .jit import kernel
from .sorting import median

# The automatic cell size never makes the scene wider than this many cells.
MAX_AUTO_CELLS_PER_AXIS = 2**20
# Automatic cell side as a multiple of the median box extent.
CELL_SIZE_FACTOR = 1.5


def check_cell_size(cell_size) -> float:
    """``cell_size`` as a float; ValueError if it is not a positive finite number."""
    try:
        value = float(cell_size)
    except (TypeError, ValueError) as error:
        raise ValueError(f"cell_size must be a number, got {cell_size!r}") from error
    if not np.isfinite(value) or value <= 0.0:
        raise ValueError(f"cell_size must be positive and finite, got {cell_size!r}")
    return value


@kernel
def choose_cell_size(lower, upper):
    """A cell side from the box sizes, (N, 2) corners with N >= 1.

    A cell a bit larger than the typical box keeps most boxes in 1 to 4 cells. Zero-size
    boxes are left out of the median; if every box is a point, the mean spacing is used.
    """
    n = len(lower)
    extent = np.empty(n)
    positive = 0
    for i in range(n):
        size = max(upper[i, 0] - lower[i, 0], upper[i, 1] - lower[i, 1])
        if size > 0.0:
            extent[positive] = size
            positive += 1
    scene = max(upper[:, 0].max() - lower[:, 0].min(), upper[:, 1].max() - lower[:, 1].min())
    if positive:
        cell = CELL_SIZE_FACTOR * median(extent[:positive])
    else:
        cell = scene / math.sqrt(n)
    # Too fine a grid over a wide scene would overflow the cell coordinates.
    cell = max(cell, scene / MAX_AUTO_CELLS_PER_AXIS)
    return cell if cell > 0.0 else 1.0


def grid_pairs(lower, upper, cell_size: float | None = None) -> np.ndarray:
    """All overlapping box pairs, found with a uniform grid.

    lower, upper: ``(N, 2) float64`` corners; cell_size: cell side, None to choose one from
    the box sizes. Returns ``(M, 2) int64`` pairs ``(i, j)``, ``i < j``, sorted. Raises
    ValueError for invalid boxes or a cell_size that is not positive and finite.
    """
    lower, upper = as_boxes(lower, upper)
    cell_size = None if cell_size is None else check_cell_size(cell_size)
    return grid_pairs_checked(lower, upper, cell_size)


def grid_pairs_checked(lower: np.ndarray, upper: np.ndarray, cell_size: float | None):
    """``grid_pairs`` for corners already checked: C-contiguous finite (N, 2) float64."""
    if len(lower) < 2:
        return empty_pairs()
    if cell_size is None:
        cell_size = choose_cell_size(lower, upper)
    return grid_kernel(lower, upper, cell_size)


def grid_cells(lower, upper, cell_size: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The occupied grid cells as boxes, for drawing: (K, 2) lower and upper corners.

    Boxes that cover too many cells are not entered in the grid (the sweep pairs them), so
    cells that only they cover are not listed.
    """
    lower, upper = as_boxes(lower, upper)
    cell_size = None if cell_size is None else check_cell_size(cell_size)
    if len(lower) == 0:
        return np.empty((0, 2)), np.empty((0, 2))
    if cell_size is None:
        cell_size = choose_cell_size(lower, upper)
    grid = build_cells(lower, upper, cell_size, np.zeros((len(lower), 5), dtype=np.int64))
    keys = grid.keys[np.diff(grid.start) > 0]  # a dense grid lists its empty cells too
    cells = np.stack([keys >> AXIS_BITS, keys & AXIS_LIMIT], axis=1)
    cell_lower = np.array([grid.origin_x, grid.origin_y]) + cells * cell_size
    return cell_lower, cell_lower + cell_size


@kernel
def _pair_cells(keys, start, box, data, buffer):
    """Write the overlapping pairs of every cell's boxes into ``buffer`` (C, 2); returns
    how many, or -1 if they do not fit. Cells: keys (K,) and runs start (K + 1,) of the
    entries (see ``engine.cell_grid``), which are in cell order: box (E,) and data (E, 6)
    (lower, upper and first covered cell of each entry's box)."""
    count = 0
    for cell in range(len(keys)):
        key = keys[cell]
        cx, cy = float(key >> AXIS_BITS), float(key & AXIS_LIMIT)
        stop = start[cell + 1]
        for p in range(start[cell], stop):
            for q in range(p + 1, stop):
                # Listed only in the cell of the intersection's lower-left corner.
                if max(data[p, 4], data[q, 4]) != cx or max(data[p, 5], data[q, 5]) != cy:
                    continue
                if (
                    data[p, 0] <= data[q, 2]
                    and data[q, 0] <= data[p, 2]
                    and data[p, 1] <= data[q, 3]
                    and data[q, 1] <= data[p, 3]
                ):
                    if count == len(buffer):
                        return -1
                    buffer[count, 0], buffer[count, 1] = box[p], box[q]
                    count += 1
    return count


@kernel
def grid_kernel(lower, upper, cell_size):
    """Canonical overlapping pairs (M, 2) of boxes with (N, 2) corners, cells of side
    ``cell_size``."""
    n = len(lower)
    spans = np.zeros((n, 5), dtype=np.int64)
    grid = build_cells(lower, upper, cell_size, spans)
    box = grid.boxes
    # The entries' boxes in cell order, so that pairing a cell reads one contiguous run.
    data = np.empty((len(box), 6))
    for e in range(len(box)):
        i = box[e]
        data[e, 0], data[e, 1] = lower[i, 0], lower[i, 1]
        data[e, 2], data[e, 3] = upper[i, 0], upper[i, 1]
        data[e, 4], data[e, 5] = spans[i, FIRST_COLUMN], spans[i, FIRST_ROW]
    # Pairs go into a buffer that is not reassigned inside the loops (an array variable
    # reassigned in a loop costs reference counting on every iteration): if it fills up,
    # the cells are paired again into one twice as large.
    capacity = 2 * n + 16
    while True:
        buffer = np.empty((capacity, 2), dtype=np.int64)
        count = _pair_cells(grid.keys, grid.start, box, data, buffer)
        if count >= 0:
            break
        capacity *= 2
    large = spans[:, LARGE] != 0
    buffer, count = sweep_large_boxes(lower, upper, large, buffer, count)
    return canonical_pairs(buffer, count, n)
