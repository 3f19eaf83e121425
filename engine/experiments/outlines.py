"""Where a world's shapes are, in world coordinates, for drawing.

Shapes are given in body-local coordinates and ``add_body`` places their common centroid
at the body's position, so a body's outline in the world is ``R(angle) @ (p - c) +
position`` with ``c`` the area-weighted centroid of its shapes. The local outlines are
gathered body by body (shapes are Python objects); the turn and shift of every vertex of
every body is one numpy call.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..shapes import Circle, ConcavePolygon


class Outlines(NamedTuple):
    """The world's shapes now.

    polygons: list of (k, 2) world vertex arrays, counter-clockwise (a concave shape is
    its outline, not its convex parts); polygon_body: (P,) int64 body row of each.
    centres: (C, 2) circle centres; radii: (C,); circle_body: (C,) int64 body rows.
    """

    polygons: list
    polygon_body: np.ndarray
    centres: np.ndarray
    radii: np.ndarray
    circle_body: np.ndarray


def outlines(world) -> Outlines:
    """The outlines of every body of ``world`` (in the order of ``world.bodies``)."""
    local, sizes, owners = [], [], []
    centres, radii, circle_owners = [], [], []
    for row, body in enumerate(world.bodies):
        shapes = body.shapes
        areas = np.array([shape.area for shape in shapes])
        centroid = areas @ np.array([shape.centroid for shape in shapes]) / areas.sum()
        for shape in shapes:
            if isinstance(shape, Circle):
                centres.append(shape.offset - centroid)
                radii.append(shape.radius)
                circle_owners.append(row)
            else:
                vertices = shape.outline if isinstance(shape, ConcavePolygon) else shape.vertices
                local.append(vertices - centroid)
                sizes.append(len(vertices))
                owners.append(row)
    polygon_body = np.array(owners, dtype=np.int64)
    circle_body = np.array(circle_owners, dtype=np.int64)
    points = np.concatenate(local) if local else np.zeros((0, 2))
    placed = _place(world, points, np.repeat(polygon_body, sizes))
    polygons = np.split(placed, np.cumsum(sizes)[:-1]) if sizes else []
    centres = _place(world, np.reshape(centres, (-1, 2)), circle_body)
    return Outlines(polygons, polygon_body, centres, np.array(radii, dtype=float), circle_body)


def _place(world, points: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """(K, 2) body-local ``points`` of the bodies at ``rows`` (K,) in world coordinates."""
    angle = world.angles[rows]
    c, s = np.cos(angle), np.sin(angle)
    x, y = points[:, 0], points[:, 1]
    return np.column_stack([c * x - s * y, s * x + c * y]) + world.positions[rows]
