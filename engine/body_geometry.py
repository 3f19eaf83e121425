"""The geometry a body gets from its shapes: mass properties and parts in its own frame.

``World.add_body`` builds a body's rows from it, and loading a saved world checks the
saved rows against it, so both must compute it the same way, bit for bit.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .packing import PackedParts, concatenate, part_widths


class BodyGeometry(NamedTuple):
    """area: total area, m^2; moment: second moment of area about the common centroid,
    m^4 (times the density: the inertia); parts: the convex parts (S parts) in the frame
    whose origin is the common centroid (the body's centre of mass); reach: distance from
    that origin to the farthest point of any part, m; thickness: the smallest width of
    any part, m (the contact slop of thin and small bodies follows it); centroid: (2,) the
    common centroid in the shapes' own coordinates."""

    area: float
    moment: float
    parts: PackedParts
    reach: float
    thickness: float
    centroid: np.ndarray


def body_geometry(shapes) -> BodyGeometry:
    """Geometry of a body made of ``shapes`` (a sequence of Shape), as ``add_body`` uses it."""
    area = sum(shape.area for shape in shapes)
    # Shapes far apart can overflow the moment or the reach to inf: the callers refuse that
    # (a mass or inertia float64 cannot invert), so it needs no warning here.
    with np.errstate(over="ignore"):
        if area > 0.0:
            centroid = sum(shape.area * shape.centroid for shape in shapes) / area
        else:
            # Only lines (segments without radius): a static or kinematic body, whose
            # centre is then the middle of its lines.
            centroid = sum(shape.centroid for shape in shapes) / len(shapes)
        # Parallel-axis theorem: each shape's moment moved to the common centroid.
        moment = sum(
            shape._moment + shape.area * float(np.sum((shape.centroid - centroid) ** 2))
            for shape in shapes
        )
        packed = concatenate([shape.packed for shape in shapes])
        local = packed._replace(vertices=packed.vertices - centroid)
        reach = float((np.sqrt((local.vertices**2).sum(axis=2)).max(axis=1) + local.radius).max())
        thickness = float(part_widths(local).min())
    return BodyGeometry(area, moment, local, reach, thickness, centroid)
