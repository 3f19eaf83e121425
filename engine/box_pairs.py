"""Pairs of axis-aligned boxes: the checks, the canonical order and the O(N^2) reference.

Boxes are two arrays, ``lower (N, 2) float64`` and ``upper (N, 2) float64``. Two boxes
overlap when their closed intervals intersect on both axes, so boxes that only touch along
an edge or at a corner count as overlapping.

Every broad phase returns the same canonical answer: an ``(M, 2) int64`` array of pairs
``(i, j)`` with ``i < j``, each pair once, sorted lexicographically, so results are
deterministic and directly comparable between methods. The grid and the quadtree build
their pairs in compiled loops with the growable buffer and the sort defined here.
"""

from __future__ import annotations

import numpy as np

from .jit import kernel
from .sorting import argsort_floats

# Up to this many large boxes are tested against every box; more are swept.
SWEEP_AFTER = 8


def as_boxes(lower, upper) -> tuple[np.ndarray, np.ndarray]:
    """Check box corners and return them as C-contiguous float64 arrays.

    lower, upper: ``(N, 2)`` array-likes of minimum and maximum corners. Raises ValueError
    if a shape is not ``(N, 2)``, the shapes differ, a value is NaN or infinite, or
    ``upper < lower`` anywhere.
    """
    checked = []
    for name, value in (("lower", lower), ("upper", upper)):
        try:
            array = np.ascontiguousarray(value, dtype=np.float64)
        except (TypeError, ValueError) as error:
            raise ValueError(f"{name} must be numeric, got {type(value).__name__}") from error
        if array.ndim != 2 or array.shape[1] != 2:
            raise ValueError(f"{name} must have shape (N, 2), got {array.shape}")
        if not np.isfinite(array).all():
            raise ValueError(f"{name} must be finite, found NaN or inf")
        checked.append(array)
    lower, upper = checked
    if lower.shape != upper.shape:
        raise ValueError(
            f"lower and upper must have the same shape, got {lower.shape} and {upper.shape}"
        )
    if (upper < lower).any():
        bad = int(np.flatnonzero((upper < lower).any(axis=1))[0])
        raise ValueError(f"upper must be >= lower, violated by box {bad}")
    return lower, upper


def empty_pairs() -> np.ndarray:
    """The empty pair list, ``(0, 2) int64``."""
    return np.empty((0, 2), dtype=np.int64)


def brute_force_pairs(lower, upper) -> np.ndarray:
    """Reference broad phase: compare every box with every other box.

    O(N^2) time and memory; meant for tests and small scenes (a few thousand boxes).
    lower, upper: ``(N, 2) float64``. Returns ``(M, 2) int64`` canonical pairs.
    """
    lower, upper = as_boxes(lower, upper)
    # (N, N, 2): does box i reach box j from below and box j reach box i, per axis.
    touching = (lower[:, None, :] <= upper[None, :, :]) & (lower[None, :, :] <= upper[:, None, :])
    overlapping = np.triu(touching.all(axis=2), k=1)
    # np.nonzero walks row-major, so the pairs come out already sorted.
    first, second = np.nonzero(overlapping)
    return np.stack([first, second], axis=1).astype(np.int64)


@kernel(inline=True)
def boxes_overlap(lower, upper, a, b) -> bool:
    """Whether boxes a and b of (N, 2) corners ``lower``, ``upper`` overlap or touch."""
    return (
        lower[a, 0] <= upper[b, 0]
        and lower[b, 0] <= upper[a, 0]
        and lower[a, 1] <= upper[b, 1]
        and lower[b, 1] <= upper[a, 1]
    )


@kernel
def grown(buffer, count):
    """A pair buffer (C, 2) twice as large, holding the first ``count`` rows of ``buffer``.

    Loops that fill a buffer return when it is full and are run again into a grown one:
    reassigning an array variable inside a loop costs reference counting on every
    iteration.
    """
    larger = np.empty((2 * len(buffer) + 16, 2), dtype=np.int64)
    larger[:count] = buffer[:count]
    return larger


@kernel
def canonical_pairs(buffer, count, n):
    """The first ``count`` distinct pairs of ``buffer`` as (min, max), sorted; ``n`` bounds
    the indices. Returns (count, 2) int64.

    A counting sort on the first index, then an insertion sort of each (short) run on the
    second: O(count + n), where a comparison sort of the pairs would cost O(count log count).
    """
    start = np.zeros(n + 1, dtype=np.int64)
    for k in range(count):
        start[min(buffer[k, 0], buffer[k, 1]) + 1] += 1
    for i in range(n):
        start[i + 1] += start[i]
    out = np.empty((count, 2), dtype=np.int64)
    fill = start[:n].copy()
    for k in range(count):
        a, b = min(buffer[k, 0], buffer[k, 1]), max(buffer[k, 0], buffer[k, 1])
        out[fill[a], 0] = a
        out[fill[a], 1] = b
        fill[a] += 1
    for a in range(n):
        for k in range(start[a] + 1, start[a + 1]):
            b = out[k, 1]
            j = k - 1
            while j >= start[a] and out[j, 1] > b:
                out[j + 1, 1] = out[j, 1]
                j -= 1
            out[j + 1, 1] = b
    return out


@kernel
def sweep_large_boxes(lower, upper, large, buffer, count):
    """Append every overlapping pair that involves a ``large`` box (N,) bool to ``buffer``.

    A few large boxes (the ground, the walls) are simply tested against every box. Many of
    them are swept: boxes sorted by their lower coordinate along x or y, whichever gives
    fewer candidates (it avoids the quadratic case of boxes stacked along one axis). A box
    that overlaps large box L starts no further back than L's lower coordinate minus the
    longest ordinary box, so L's candidates are one run of that order. A pair of two large
    boxes is kept only once. Returns (buffer, count).
    """
    big = np.flatnonzero(large)
    if len(big) == 0:
        return buffer, count
    brute = len(big) <= SWEEP_AFTER
    order = start = stop = rank = big  # unused when brute
    if not brute:
        order_x, start_x, stop_x = _sweep_plan(lower[:, 0], upper[:, 0], large, big)
        order_y, start_y, stop_y = _sweep_plan(lower[:, 1], upper[:, 1], large, big)
        if np.sum(np.maximum(stop_y - start_y, 0)) < np.sum(np.maximum(stop_x - start_x, 0)):
            order, start, stop = order_y, start_y, stop_y
        else:
            order, start, stop = order_x, start_x, stop_x
        rank = np.empty(len(large), dtype=np.int64)
        for position in range(len(large)):
            rank[order[position]] = position
    # The buffer is not reassigned inside the loops (that costs reference counting on every
    # iteration): when it fills, the pairs are found again into one twice as large.
    while True:
        added = _large_pairs(
            lower, upper, large, big, brute, order, start, stop, rank, buffer, count
        )
        if added >= 0:
            return buffer, added
        buffer = grown(buffer, count)


@kernel
def _large_pairs(lower, upper, large, big, brute, order, start, stop, rank, buffer, count):
    """Write the pairs with a large box after row ``count`` of ``buffer``; returns the new
    count, or -1 if they do not fit. brute: test each large box against every box; else
    against its run [start, stop) of ``order``, with rank the inverse of order."""
    n = len(large)
    for k in range(len(big)):
        a = big[k]
        first, last = (0, n) if brute else (start[k], stop[k])
        for position in range(first, last):
            b = position if brute else order[position]
            # Two large boxes: only from the one that comes first (in the order used).
            if b == a or (large[b] and (b < a if brute else position <= rank[a])):
                continue
            if boxes_overlap(lower, upper, a, b):
                if count == len(buffer):
                    return -1
                buffer[count, 0], buffer[count, 1] = a, b
                count += 1
    return count


@kernel(inline=True)
def _sweep_plan(low, high, large, big):
    """Boxes sorted by ``low``, and each big box's run of candidates in that order."""
    order = argsort_floats(low)
    sorted_low = low[order]
    reach = 0.0
    for i in range(len(low)):
        if not large[i]:
            reach = max(reach, high[i] - low[i])
    start = np.empty(len(big), dtype=np.int64)
    stop = np.empty(len(big), dtype=np.int64)
    for k in range(len(big)):
        b_low = low[big[k]]
        # Padded generously so rounding never cuts off a touching box; the exact overlap
        # test discards the few extra candidates.
        start[k] = np.searchsorted(sorted_low, b_low - reach - 1e-12 * (abs(b_low) + reach))
        stop[k] = np.searchsorted(sorted_low, high[big[k]], side="right")
    return order, start, stop
