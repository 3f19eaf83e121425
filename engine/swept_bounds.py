"""Bounding boxes of parts at a pose and over a step's motion, for the broad phase."""

from __future__ import annotations

import numpy as np

from .jit import kernel
from .packing import PackedParts
from .rotation import cos_sin


def part_bounds(parts: PackedParts, poses: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Tight world boxes of P parts at their bodies' poses.

    parts: P packed parts in body frames; poses: (P, 3) float64 pose of each part's body.
    Returns lower, upper: (P, 2) float64.
    """
    p = len(parts.count)
    zero = np.zeros(p)
    owner = np.arange(p)
    poses = np.ascontiguousarray(poses, dtype=np.float64)
    return swept_bounds(
        np.ascontiguousarray(parts.vertices), np.ascontiguousarray(parts.count),
        np.ascontiguousarray(parts.radius), owner, poses, poses, zero,
    )  # fmt: skip


@kernel
def swept_bounds(vertices, count, radius, owner, start, end, margin):
    """Boxes covering each part over a step, from its body's pose ``start`` to ``end``.

    vertices: (P, K, 2) in body frames; count, radius: (P,); owner: (P,) int64 body row of
    each part; start, end: (N, 3) body poses; margin: (N,) added on every side. The union
    of the two end boxes covers the whole sweep for a translation; rotation in between is
    covered by the margin, which callers size from the turn rate. Returns lower, upper:
    (P, 2) float64.
    """
    rows = np.arange(len(owner))
    return swept_bounds_of(rows, vertices, count, radius, owner, start, end, margin)


@kernel
def swept_bounds_of(rows, vertices, count, radius, owner, start, end, margin):
    """``swept_bounds`` of the parts ``rows`` (R,) int64 only: lower, upper (R, 2)."""
    lower = np.empty((len(rows), 2))
    upper = np.empty((len(rows), 2))
    for r in range(len(rows)):
        i = rows[r]
        body = owner[i]
        lo_x = lo_y = np.inf
        hi_x = hi_y = -np.inf
        for pose in (start[body], end[body]):
            c, s = cos_sin(pose[2])
            for k in range(count[i]):
                lx, ly = vertices[i, k, 0], vertices[i, k, 1]
                x = c * lx - s * ly + pose[0]
                y = s * lx + c * ly + pose[1]
                lo_x, hi_x = min(lo_x, x), max(hi_x, x)
                lo_y, hi_y = min(lo_y, y), max(hi_y, y)
        pad = radius[i] + margin[body]
        lower[r, 0], lower[r, 1] = lo_x - pad, lo_y - pad
        upper[r, 0], upper[r, 1] = hi_x + pad, hi_y + pad
    return lower, upper
