"""Broad phase: find every pair of axis-aligned boxes that overlap, by the chosen method.

``find_pairs`` dispatches to the uniform grid (``engine.broadphase_grid``), the loose
quadtree (``engine.broadphase_quadtree``) or the O(N^2) reference; all three return the
same canonical ``(M, 2) int64`` pairs ``(i, j)``, ``i < j``, sorted (see
``engine.box_pairs``).
"""

from __future__ import annotations

import numpy as np

from .box_pairs import as_boxes, brute_force_pairs, empty_pairs
from .broadphase_grid import check_cell_size, grid_pairs_checked
from .broadphase_quadtree import quadtree_pairs_checked

METHODS = ("grid", "quadtree", "brute")

__all__ = ["METHODS", "brute_force_pairs", "empty_pairs", "find_pairs", "find_pairs_checked"]


def find_pairs(lower, upper, method: str = "grid", cell_size: float | None = None) -> np.ndarray:
    """All overlapping box pairs, by ``method``: "grid", "quadtree" or "brute" (O(N^2)).

    lower, upper: ``(N, 2) float64`` corners. cell_size: grid cell side, None to pick one
    from the box sizes; the other methods ignore it (but still reject invalid values), so a
    caller can switch methods without dropping its setting. Returns ``(M, 2) int64`` pairs.
    Raises ValueError for an unknown method, a bad cell_size, or invalid boxes.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if cell_size is not None:
        cell_size = check_cell_size(cell_size)
    lower, upper = as_boxes(lower, upper)
    if method == "brute":
        return brute_force_pairs(lower, upper)
    return find_pairs_checked(lower, upper, method, cell_size)


def find_pairs_checked(lower, upper, method: str, cell_size: float | None) -> np.ndarray:
    """``find_pairs`` for the step: corners already finite C-contiguous (N, 2) float64,
    method "grid" or "quadtree", cell_size already checked."""
    if method == "grid":
        return grid_pairs_checked(lower, upper, cell_size)
    return quadtree_pairs_checked(lower, upper, None)
