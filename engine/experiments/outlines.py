"""Where a world's shapes are, in world coordinates, for drawing.

Shapes are given in body-local coordinates and ``add_body`` places their common centroid
at the body's position, so a body's outline in the world is ``R(angle) @ (p - c) +
position`` with ``c`` the area-weighted centroid of its shapes; a body added with
``origin="local"`` keeps its shapes' frame, so there it is ``R(angle) @ p + position``
(the frame's origin). Segments and chains are drawn as open lines. The local outlines are
gathered body by body (shapes are Python objects); the turn and shift of every vertex of
every body is one numpy call.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..chain import Chain
from ..segments import Segment
from ..shapes import Circle, ConcavePolygon


class Outlines(NamedTuple):
    """The world's shapes now.

    polygons: list of (k, 2) world vertex arrays, counter-clockwise (a concave shape is
    its outline, not its convex parts); polygon_body: (P,) int64 body row of each.
    centres: (C, 2) circle centres; radii: (C,); circle_body: (C,) int64 body rows.
    lines: list of (k, 2) world points of open lines (segments, chains; a looped chain
    repeats its first point); line_body: (L,) int64 body rows.
    """

    polygons: list
    polygon_body: np.ndarray
    centres: np.ndarray
    radii: np.ndarray
    circle_body: np.ndarray
    lines: list
    line_body: np.ndarray


def outlines(world) -> Outlines:
    """The outlines of every body of ``world`` (in the order of ``world.bodies``)."""
    local, sizes, owners = [], [], []
    centres, radii, circle_owners = [], [], []
    lines, line_sizes, line_owners = [], [], []
    origins = np.array(world.positions)
    for row, body in enumerate(world.bodies):
        shapes = body.shapes
        origin = np.asarray(body.position)
        if not np.array_equal(origin, body.center_of_mass):  # added with origin="local"
            centroid = np.zeros(2)
            origins[row] = origin
        else:
            areas = np.array([shape.area for shape in shapes])
            centres_of = np.array([shape.centroid for shape in shapes])
            # Lines have no area: their centroids count alike.
            weights = areas if areas.sum() > 0 else np.ones(len(shapes))
            centroid = weights @ centres_of / weights.sum()
        for shape in shapes:
            if isinstance(shape, Circle):
                centres.append(shape.offset - centroid)
                radii.append(shape.radius)
                circle_owners.append(row)
                continue
            if isinstance(shape, (Segment, Chain)):
                if isinstance(shape, Segment):
                    line = np.array([shape.a, shape.b])
                else:
                    line = np.asarray(shape.points)
                    line = np.vstack([line, line[:1]]) if shape.loop else line
                lines.append(line - centroid)
                line_sizes.append(len(line))
                line_owners.append(row)
                continue
            if isinstance(shape, ConcavePolygon):
                vertices = shape.outline
            else:
                vertices = shape.vertices
            local.append(vertices - centroid)
            sizes.append(len(vertices))
            owners.append(row)
    polygon_body = np.array(owners, dtype=np.int64)
    circle_body = np.array(circle_owners, dtype=np.int64)
    points = np.concatenate(local) if local else np.zeros((0, 2))
    placed = _place(world, points, np.repeat(polygon_body, sizes), origins)
    polygons = np.split(placed, np.cumsum(sizes)[:-1]) if sizes else []
    centres = _place(world, np.reshape(centres, (-1, 2)), circle_body, origins)
    line_body = np.array(line_owners, dtype=np.int64)
    points = np.concatenate(lines) if lines else np.zeros((0, 2))
    placed = _place(world, points, np.repeat(line_body, line_sizes), origins)
    lines = np.split(placed, np.cumsum(line_sizes)[:-1]) if line_sizes else []
    return Outlines(
        polygons, polygon_body, centres, np.array(radii, dtype=float), circle_body, lines,
        line_body,
    )  # fmt: skip


def _place(world, points: np.ndarray, rows: np.ndarray, origins: np.ndarray) -> np.ndarray:
    """(K, 2) body-local ``points`` of the bodies at ``rows`` (K,) in world coordinates,
    about each body's origin (N, 2)."""
    angle = world.angles[rows]
    c, s = np.cos(angle), np.sin(angle)
    x, y = points[:, 0], points[:, 1]
    return np.column_stack([c * x - s * y, s * x + c * y]) + origins[rows]
