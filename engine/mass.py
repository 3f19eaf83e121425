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


def capsule_mass_properties(
    a: np.ndarray, b: np.ndarray, radius: float
) -> tuple[float, np.ndarray, float]:
    """Area, centroid and polar second moment (about the centroid, per unit density) of the
    capsule around the segment a-b, (2,) each, with ``radius`` >= 0 (0: no area).

    A rectangle 2r x L plus two half-discs; each half-disc's moment is moved from the middle
    of its flat side to its own centroid (4r / 3 pi away) and then to the capsule's centroid
    (parallel-axis theorem both times).
    """
    length = float(np.hypot(*(b - a)))
    rectangle = 2.0 * radius * length
    half_disc = 0.5 * np.pi * radius * radius
    rectangle_moment = rectangle * (length * length + 4.0 * radius * radius) / 12.0
    offset = 4.0 * radius / (3.0 * np.pi)
    half_moment = (
        0.5 * half_disc * radius * radius
        - half_disc * offset * offset
        + half_disc * (0.5 * length + offset) ** 2
    )
    centroid = 0.5 * (np.asarray(a, dtype=np.float64) + b)
    return float(rectangle + 2.0 * half_disc), centroid, float(rectangle_moment + 2.0 * half_moment)
