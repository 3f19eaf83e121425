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
    common centroid in the shapes' own coordinates (their centre of mass); mass, inertia:
    kg and kg m^2 about it for the densities given."""

    area: float
    moment: float
    parts: PackedParts
    reach: float
    thickness: float
    centroid: np.ndarray
    mass: float
    inertia: float


def body_geometry(shapes, densities=None) -> BodyGeometry:
    """Geometry of a body made of ``shapes`` (a sequence of Shape), as ``add_body`` uses it.

    densities: (len(shapes),) kg/m^2 of each shape, or None for 1 everywhere. When they are
    all one value rho, the centroid is the centre of area and mass and inertia are rho
    times area and moment. Otherwise mass = sum rho_i A_i, the centroid is mass-weighted
    and inertia = sum rho_i (J_i + A_i d_i^2), d_i from the shape's centroid to it.
    """
    area = sum(shape.area for shape in shapes)
    densities = [1.0] * len(shapes) if densities is None else [float(d) for d in densities]
    uniform = all(density == densities[0] for density in densities)
    # Shapes far apart can overflow the moment or the reach to inf: the callers refuse that
    # (a mass or inertia float64 cannot invert), so it needs no warning here.
    with np.errstate(over="ignore", invalid="ignore"):
        if area == 0.0:
            # Only lines (segments without radius): a static or kinematic body, whose
            # centre is then the middle of its lines.
            centroid = sum(shape.centroid for shape in shapes) / len(shapes)
            total = 0.0
        elif uniform:
            centroid = sum(shape.area * shape.centroid for shape in shapes) / area
        else:
            masses = [density * shape.area for density, shape in zip(densities, shapes)]
            total = sum(masses)
            centroid = sum(m * shape.centroid for m, shape in zip(masses, shapes)) / total
        # Parallel-axis theorem: each shape's moment moved to the common centroid.
        moments = [
            shape._moment + shape.area * float(np.sum((shape.centroid - centroid) ** 2))
            for shape in shapes
        ]
        moment = sum(moments)
        if uniform:
            mass, inertia = densities[0] * area, densities[0] * moment
        else:
            inertia = sum(density * j for density, j in zip(densities, moments))
            mass = total
        packed = concatenate([shape.packed for shape in shapes])
        local = packed._replace(vertices=packed.vertices - centroid)
        reach = float((np.sqrt((local.vertices**2).sum(axis=2)).max(axis=1) + local.radius).max())
        thickness = float(part_widths(local).min())
    return BodyGeometry(area, moment, local, reach, thickness, centroid, mass, inertia)
