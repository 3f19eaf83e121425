"""Exact area, centroid and second moment of area for convex polygons and circles.

The moment returned is per unit density and taken about the shape's own centroid, so a
body can add parts with the parallel-axis theorem.
"""

from __future__ import annotations

import numpy as np


def polygon_mass_properties(vertices: np.ndarray) -> tuple[float, np.ndarray, float]:
    """Area, centroid and polar second moment of a simple CCW polygon.

    vertices: (n, 2) float64, counter-clockwise.
    Returns (area, centroid (2,) float64, second moment about the centroid per unit density).
    """
    # Work relative to the first vertex: the triangle-fan sums then do not lose precision
    # when the polygon sits far from the origin.
    origin = vertices[0]
    p = vertices - origin
    q = np.roll(p, -1, axis=0)
    cross = p[:, 0] * q[:, 1] - p[:, 1] * q[:, 0]
    area = 0.5 * cross.sum()
    centroid_local = ((p + q) * cross[:, None]).sum(axis=0) / (6.0 * area)
    # Polar moment of each fan triangle (origin, p, q) about the origin.
    squares = (p * p).sum(axis=1) + (p * q).sum(axis=1) + (q * q).sum(axis=1)
    moment_about_origin = (cross * squares).sum() / 12.0
    moment = moment_about_origin - area * float(centroid_local @ centroid_local)
    return float(area), centroid_local + origin, float(moment)


def circle_mass_properties(radius: float, offset: np.ndarray) -> tuple[float, np.ndarray, float]:
    """Area, centroid and polar second moment (about the centre, per unit density) of a disc."""
    area = np.pi * radius * radius
    return float(area), np.array(offset, dtype=np.float64), float(0.5 * area * radius * radius)
