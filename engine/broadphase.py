"""Broad phase: find every pair of axis-aligned boxes that overlap.

Boxes are given as two arrays, ``lower (N, 2) float64`` and ``upper (N, 2) float64``.
Two boxes overlap when their closed intervals intersect on both axes, so boxes that
only touch along an edge or at a corner count as overlapping.

Every method returns the same canonical answer: an ``(M, 2) int64`` array of pairs
``(i, j)`` with ``i < j``, each pair once, sorted lexicographically. That makes results
deterministic and directly comparable between methods.

This module holds the input checks, the small array helpers shared by the grid and the
quadtree, the O(N^2) reference :func:`brute_force_pairs` and the dispatcher
:func:`find_pairs`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

METHODS = ("grid", "quadtree", "brute")


def as_boxes(lower, upper) -> tuple[np.ndarray, np.ndarray]:
    """Check box corners and return them as float64 arrays.

    Args:
        lower: ``(N, 2)`` array-like of minimum corners.
        upper: ``(N, 2)`` array-like of maximum corners.

    Returns:
        ``(lower, upper)``, each ``(N, 2) float64`` (no copy when already float64).

    Raises:
        ValueError: if a shape is not ``(N, 2)``, the shapes differ, a value is NaN or
            infinite, or ``upper < lower`` anywhere.
    """
    checked = []
    for name, value in (("lower", lower), ("upper", upper)):
        try:
            array = np.asarray(value, dtype=np.float64)
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
    """Return the empty pair list, ``(0, 2) int64``."""
    return np.empty((0, 2), dtype=np.int64)


class BoxColumns(NamedTuple):
    """Box corners as four contiguous ``(N,) float64`` columns.

    The hot loops gather corners for many index pairs; gathering from 1-D arrays is
    several times faster than gathering rows of an ``(N, 2)`` array, and reductions over
    a whole column avoid numpy's slow short-axis reductions.
    """

    min_x: np.ndarray
    min_y: np.ndarray
    max_x: np.ndarray
    max_y: np.ndarray


def box_columns(lower: np.ndarray, upper: np.ndarray) -> BoxColumns:
    """Split ``(N, 2) float64`` corners into :class:`BoxColumns` (copies, contiguous)."""
    columns = np.concatenate([lower, upper], axis=1).T.copy()
    return BoxColumns(*columns)


def boxes_overlap(boxes: BoxColumns, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Test boxes ``a[k]`` and ``b[k]`` for closed-interval overlap, elementwise.

    Args:
        boxes: the corners of all ``N`` boxes.
        a: ``(M,) int64`` box indices.
        b: ``(M,) int64`` box indices.

    Returns:
        ``(M,) bool``, True where the two boxes overlap or touch on both axes.
    """
    overlap = boxes.min_x[a] <= boxes.max_x[b]
    overlap &= boxes.min_x[b] <= boxes.max_x[a]
    overlap &= boxes.min_y[a] <= boxes.max_y[b]
    overlap &= boxes.min_y[b] <= boxes.max_y[a]
    return overlap


def expand_ranges(starts: np.ndarray, stops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """List every integer of the half-open ranges ``[starts[k], stops[k])``.

    This is the one "loop" of the broad phase, done with ``np.repeat`` and a running
    offset instead of Python iteration. Empty or reversed ranges contribute nothing.

    Args:
        starts: ``(K,) int64`` first value of each range.
        stops: ``(K,) int64`` one past the last value of each range.

    Returns:
        ``(owner, value)``, each ``(T,) int64`` with ``T`` the total range length:
        ``value`` runs through range ``owner`` in increasing order, ranges in order.
    """
    lengths = np.maximum(stops - starts, 0)
    total = int(lengths.sum())
    owner = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    # value = starts[owner] + (rank within the range); fold both into one repeat.
    first_slot = np.cumsum(lengths) - lengths
    value = np.arange(total, dtype=np.int64) + np.repeat(starts - first_slot, lengths)
    return owner, value


def canonical_pairs(a: np.ndarray, b: np.ndarray, count: int) -> np.ndarray:
    """Order each pair as ``(min, max)`` and sort the pairs lexicographically.

    The pairs must already be distinct; this does not remove duplicates.

    Args:
        a: ``(M,) int64`` box indices.
        b: ``(M,) int64`` box indices, ``b[k] != a[k]``.
        count: number of boxes ``N``; every index is below it.

    Returns:
        ``(M, 2) int64`` pairs ``(i, j)`` with ``i < j``, sorted by ``i`` then ``j``.
    """
    if len(a) == 0:
        return empty_pairs()
    # One int64 key per pair sorts faster than a lexsort on two columns.
    key = np.minimum(a, b) * np.int64(count) + np.maximum(a, b)
    key.sort()
    first, second = np.divmod(key, np.int64(count))
    return np.stack([first, second], axis=1)


def brute_force_pairs(lower, upper) -> np.ndarray:
    """Reference broad phase: compare every box with every other box.

    O(N^2) time and memory; meant for tests and small scenes (a few thousand boxes).

    Args:
        lower: ``(N, 2) float64`` minimum corners.
        upper: ``(N, 2) float64`` maximum corners.

    Returns:
        ``(M, 2) int64`` overlapping pairs ``(i, j)``, ``i < j``, sorted lexicographically.
    """
    lower, upper = as_boxes(lower, upper)
    # (N, N, 2): does box i reach box j from below and box j reach box i, per axis.
    touching = (lower[:, None, :] <= upper[None, :, :]) & (lower[None, :, :] <= upper[:, None, :])
    overlapping = np.triu(touching.all(axis=2), k=1)
    # np.nonzero walks row-major, so the pairs come out already sorted.
    first, second = np.nonzero(overlapping)
    return np.stack([first, second], axis=1).astype(np.int64)


def find_pairs(lower, upper, method: str = "grid", cell_size: float | None = None) -> np.ndarray:
    """Find all overlapping box pairs with the chosen broad-phase method.

    Args:
        lower: ``(N, 2) float64`` minimum corners.
        upper: ``(N, 2) float64`` maximum corners.
        method: ``"grid"`` (uniform grid), ``"quadtree"`` or ``"brute"`` (O(N^2)).
        cell_size: grid cell side, None to pick one from the box sizes. Other methods
            ignore it (but still reject invalid values), so a caller can switch methods
            without dropping its setting.

    Returns:
        ``(M, 2) int64`` overlapping pairs ``(i, j)``, ``i < j``, sorted lexicographically.

    Raises:
        ValueError: for an unknown method, a cell_size that is not positive and finite,
            or invalid boxes.
    """
    # Imported here because both methods import their helpers from this module.
    from engine.broadphase_grid import check_cell_size, grid_pairs
    from engine.broadphase_quadtree import quadtree_pairs

    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if cell_size is not None:
        check_cell_size(cell_size)
    if method == "grid":
        return grid_pairs(lower, upper, cell_size=cell_size)
    if method == "quadtree":
        return quadtree_pairs(lower, upper)
    return brute_force_pairs(lower, upper)
