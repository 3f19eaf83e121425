"""Shapes -> triangles, in bulk, with numpy only (no OpenGL), so it can be tested directly.

Every function returns vertex positions as an (M, 2) array with three rows per triangle,
in the order the inputs were given, so per-shape colours follow with ``np.repeat``.
"""

from __future__ import annotations

import numpy as np


def fan(vertices: np.ndarray) -> np.ndarray:
    """Fill convex polygons. vertices: (P, K, 2), padded as in ``engine.packing``.

    Triangle i of a polygon is (v0, v[i], v[i+1]) for i in 1..K-2: (P * (K-2) * 3, 2).
    Padding slots repeat v0, so their triangles have zero area and draw nothing; every
    polygon then has the same number of triangles and no Python loop is needed.
    """
    vertices = np.asarray(vertices)
    count, width = vertices.shape[:2]
    if width < 3 or count == 0:
        return np.zeros((0, 2), dtype=vertices.dtype)
    tri = np.empty((count, width - 2, 3, 2), dtype=vertices.dtype)
    tri[:, :, 0] = vertices[:, :1]
    tri[:, :, 1] = vertices[:, 1:-1]
    tri[:, :, 2] = vertices[:, 2:]
    return tri.reshape(-1, 2)


def inset(vertices: np.ndarray, normals: np.ndarray, count: np.ndarray, width) -> np.ndarray:
    """Convex polygons (P, K, 2) moved ``width`` inwards, padded the same way.

    normals: (P, K, 2) unit outward normal of edge (i, i+1); count: (P,) real vertices.
    Corner i moves along the bisector of its two edges, by width / cos(half the turn), so
    every edge moves by exactly ``width``. Drawing a polygon in its outline colour and its
    inset on top gives an outline in two fans, far fewer triangles than edge rectangles.
    """
    vertices = np.asarray(vertices, dtype=np.float64)
    count = np.asarray(count)
    width_slots = vertices.shape[1]
    slot = np.arange(width_slots)
    # The edge before corner i is edge i-1, wrapping to the last real edge for corner 0.
    before = np.where(slot[None, :] == 0, count[:, None] - 1, slot[None, :] - 1)
    previous = np.take_along_axis(normals, before[:, :, None], axis=1)
    bisector = previous + normals
    cosine = 1.0 + np.einsum("pkj,pkj->pk", previous, normals)
    # Nearly reversed edges (cosine ~ 0) never occur in a valid convex polygon; the clip
    # only keeps degenerate input from producing infinities.
    moved = vertices - bisector * (np.asarray(width) / np.maximum(cosine, 1e-3))[..., None]
    # Padding slots must keep repeating the first corner, now moved.
    padding = slot[None, :] >= count[:, None]
    return np.where(padding[:, :, None], moved[:, :1], moved)


def frames(outer: np.ndarray, inner: np.ndarray) -> np.ndarray:
    """The band between padded polygons (P, K, 2) and their insets (``inset``), as two
    triangles per edge: (P * K * 6, 2).

    Unlike thick segments, neighbouring edges meet in mitred corners without overlapping,
    so a translucent outline has no brighter spots at its corners. Padding slots give
    zero-area triangles, as in ``fan``.
    """
    outer = np.asarray(outer, dtype=np.float64)
    inner = np.asarray(inner, dtype=np.float64)
    return _strip_quads(outer, np.roll(outer, -1, axis=1), inner, np.roll(inner, -1, axis=1))


def closed_edges(vertices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Edges (v[i], v[i+1 mod K]) of padded polygons (P, K, 2): two (P * K, 2) arrays.

    With the padding rule the edge into the first padding slot is the closing edge and the
    rest have zero length, so no per-polygon vertex count is needed.
    """
    vertices = np.asarray(vertices)
    return vertices.reshape(-1, 2), np.roll(vertices, -1, axis=1).reshape(-1, 2)


def unit_circle(segments: int) -> np.ndarray:
    """(segments, 2) points on the unit circle, counter-clockwise from angle 0."""
    theta = np.linspace(0.0, 2.0 * np.pi, segments, endpoint=False)
    return np.column_stack([np.cos(theta), np.sin(theta)])


def discs(centres: np.ndarray, radii, segments: int = 24) -> np.ndarray:
    """Filled circles as fans around their centres: (C * segments * 3, 2)."""
    centres = np.asarray(centres, dtype=np.float64).reshape(-1, 2)
    radii = np.broadcast_to(np.asarray(radii, dtype=np.float64), (len(centres),))
    ring = unit_circle(segments)
    rim = centres[:, None, :] + radii[:, None, None] * ring[None]  # (C, S, 2)
    tri = np.empty((len(centres), segments, 3, 2))
    tri[:, :, 0] = centres[:, None, :]
    tri[:, :, 1] = rim
    tri[:, :, 2] = np.roll(rim, -1, axis=1)
    return tri.reshape(-1, 2)


def stadiums(start: np.ndarray, end: np.ndarray, radii, segments: int = 24) -> np.ndarray:
    """Capsule outlines as convex polygons, counter-clockwise: a half circle around each
    end of the segments ``start`` -> ``end`` (S, 2). Returns (S, 2 * (segments // 2 + 1), 2),
    for ``fan`` (filled) or ``closed_edges`` (outlined)."""
    start = np.asarray(start, dtype=np.float64).reshape(-1, 2)
    end = np.asarray(end, dtype=np.float64).reshape(-1, 2)
    radii = np.broadcast_to(np.asarray(radii, dtype=np.float64), (len(start),))
    heading = np.arctan2(end[:, 1] - start[:, 1], end[:, 0] - start[:, 0])
    # From the right side of the segment round its end to the left side, then back round
    # its start.
    theta = heading[:, None] + np.linspace(-0.5 * np.pi, 0.5 * np.pi, segments // 2 + 1)
    arc = radii[:, None, None] * np.stack([np.cos(theta), np.sin(theta)], axis=-1)
    return np.concatenate([end[:, None, :] + arc, start[:, None, :] - arc], axis=1)


def rings(centres: np.ndarray, radii, width, segments: int = 24) -> np.ndarray:
    """Circle outlines of the given ``width`` (inside the radius): (C * segments * 6, 2).

    Built as an annulus of quads rather than separate line pieces, so joints have no gaps.
    """
    centres = np.asarray(centres, dtype=np.float64).reshape(-1, 2)
    radii = np.broadcast_to(np.asarray(radii, dtype=np.float64), (len(centres),))
    inner_radii = np.maximum(radii - width, 0.0)
    ring = unit_circle(segments)
    outer = centres[:, None, :] + radii[:, None, None] * ring[None]
    inner = centres[:, None, :] + inner_radii[:, None, None] * ring[None]
    return _strip_quads(outer, np.roll(outer, -1, axis=1), inner, np.roll(inner, -1, axis=1))


def segments(start: np.ndarray, end: np.ndarray, width) -> np.ndarray:
    """Thick line segments as rectangles of total ``width``: (S * 6, 2).

    width: scalar or (S,). Zero-length segments give zero-area rectangles.
    """
    start = np.asarray(start, dtype=np.float64).reshape(-1, 2)
    end = np.asarray(end, dtype=np.float64).reshape(-1, 2)
    direction = end - start
    length = np.hypot(direction[:, 0], direction[:, 1])[:, None]
    unit = np.divide(direction, length, out=np.zeros_like(direction), where=length > 0.0)
    half = 0.5 * np.broadcast_to(np.asarray(width, dtype=np.float64), (len(start),))[:, None]
    side = np.column_stack([-unit[:, 1], unit[:, 0]]) * half
    # Extending each end by half the width makes consecutive segments overlap at joints.
    along = unit * half
    a, b = start - along, end + along
    return _strip_quads(a + side, b + side, a - side, b - side)


def arrows(start: np.ndarray, end: np.ndarray, width, head) -> np.ndarray:
    """Arrows: a shaft of ``width`` and a triangular head ``head`` long: (S * 9, 2).

    The head is shortened for arrows shorter than twice its length so it never overshoots.
    """
    start = np.asarray(start, dtype=np.float64).reshape(-1, 2)
    end = np.asarray(end, dtype=np.float64).reshape(-1, 2)
    direction = end - start
    length = np.hypot(direction[:, 0], direction[:, 1])[:, None]
    unit = np.divide(direction, length, out=np.zeros_like(direction), where=length > 0.0)
    head = np.minimum(np.asarray(head, dtype=np.float64), 0.5 * length)
    base = end - unit * head
    normal = np.column_stack([-unit[:, 1], unit[:, 0]])
    shaft = segments(start, base, width).reshape(-1, 6, 2)
    tip = np.stack([end, base + normal * head * 0.55, base - normal * head * 0.55], axis=1)
    return np.concatenate([shaft, tip], axis=1).reshape(-1, 2)


def rectangles(lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    """Filled axis-aligned rectangles: (R * 6, 2)."""
    lower = np.asarray(lower, dtype=np.float64).reshape(-1, 2)
    upper = np.asarray(upper, dtype=np.float64).reshape(-1, 2)
    x0, y0, x1, y1 = lower[:, 0], lower[:, 1], upper[:, 0], upper[:, 1]
    corner = np.stack(
        [
            np.column_stack([x0, y0]),
            np.column_stack([x1, y0]),
            np.column_stack([x0, y1]),
            np.column_stack([x1, y1]),
        ]
    )
    return _strip_quads(corner[2], corner[3], corner[0], corner[1])


def box_edges(lower: np.ndarray, upper: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The four sides of axis-aligned boxes as segments: two (R * 4, 2) arrays."""
    lower = np.asarray(lower, dtype=np.float64).reshape(-1, 2)
    upper = np.asarray(upper, dtype=np.float64).reshape(-1, 2)
    corners = np.stack(
        [
            lower,
            np.column_stack([upper[:, 0], lower[:, 1]]),
            upper,
            np.column_stack([lower[:, 0], upper[:, 1]]),
        ],
        axis=1,
    )
    return closed_edges(corners)


def _strip_quads(top_a, top_b, bottom_a, bottom_b) -> np.ndarray:
    """Quads (top_a, top_b, bottom_b, bottom_a) as two triangles each, flattened.

    Inputs share any leading shape (..., 2); output is (prod(leading) * 6, 2).
    """
    quad = np.stack([top_a, top_b, bottom_a, top_b, bottom_b, bottom_a], axis=-2)
    return quad.reshape(-1, 2)
