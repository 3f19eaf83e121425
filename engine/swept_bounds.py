"""Bounding boxes of parts at a pose and over a step's motion, for the broad phase."""

from __future__ import annotations

import numpy as np

from .packing import PackedParts


def part_bounds(parts: PackedParts, poses: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Tight world boxes of P parts at their bodies' poses.

    parts: P packed parts in body frames; poses: (P, 3) float64 pose of each part's body.
    Returns lower, upper: (P, 2) float64.
    """
    c, s = np.cos(poses[:, 2])[:, None], np.sin(poses[:, 2])[:, None]
    lx, ly = parts.vertices[:, :, 0], parts.vertices[:, :, 1]
    x = c * lx - s * ly
    y = s * lx + c * ly
    r = parts.radius
    lower = np.column_stack([x.min(axis=1) - r, y.min(axis=1) - r]) + poses[:, :2]
    upper = np.column_stack([x.max(axis=1) + r, y.max(axis=1) + r]) + poses[:, :2]
    return lower, upper


def swept_bounds(parts: PackedParts, start: np.ndarray, end: np.ndarray, margin: np.ndarray):
    """Boxes covering each part over a step, from its body's pose ``start`` to ``end``.

    start, end: (P, 3) float64 poses; margin: (P,) float64 added on every side. The union of
    the two end boxes covers the whole sweep for a translation; rotation in between is
    covered by the margin, which callers size from the turn rate.
    Returns lower, upper: (P, 2) float64.
    """
    lower_0, upper_0 = part_bounds(parts, start)
    lower_1, upper_1 = part_bounds(parts, end)
    pad = margin[:, None]
    return np.minimum(lower_0, lower_1) - pad, np.maximum(upper_0, upper_1) + pad
