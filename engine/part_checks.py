"""Exact tests of one part of the query index against a point, a box or a segment.

Each part is a convex polygon (vertices and outward normals in its body's frame, padded
slots never read), a circle (one vertex, its centre, and a radius) or a segment (two
vertices, and a radius for a capsule). Touching counts: a gap
up to TOUCH times the coordinates' size is rounding, as in the narrow phase.

Segments: a polygon clips the segment against its faces' half-planes (slab test): the
segment enters at the latest entering face and leaves at the earliest exiting one. A circle
takes the smaller root of |s + t d - c| = r in the cancellation-free form. A capsule is
hit where the moving point first comes within its radius of the core segment (the shifted
lines beside it, the circles at its ends), as in ``engine.segment_pair``. A segment that
starts inside (or on a circle heading out) hits at fraction 0 with normal -direction: there
is no surface to report.
"""

from __future__ import annotations

import math

import numpy as np

from .jit import kernel
from .narrowphase import TOUCH
from .query_index import BODY, COS, RADIUS, REACH, SIN, SLOTS, X, Y
from .segment_pair import _capsule_hit, _point_edge


@kernel(inline=True)
def to_body_frame(index, p, x, y):
    """World point (x, y) in the frame of part p's body."""
    body = index.part_ints[p, BODY]
    frame = index.frames
    dx, dy = x - frame[body, X], y - frame[body, Y]
    c, s = frame[body, COS], frame[body, SIN]
    return c * dx + s * dy, -s * dx + c * dy


@kernel(inline=True)
def contains_point(index, p, x, y):
    """True when part p contains the world point (x, y), within the touching tolerance."""
    body = index.part_ints[p, BODY]
    lx, ly = to_body_frame(index, p, x, y)
    vertices, normals = index.vertices, index.normals
    radius = index.part_floats[p, RADIUS]
    if index.part_ints[p, SLOTS] == 2:
        d2 = _point_edge(lx, ly, vertices[p, 0, 0], vertices[p, 0, 1], vertices[p, 1, 0],
                         vertices[p, 1, 1])[0]  # fmt: skip
        gap = math.sqrt(d2) - radius
    elif radius > 0.0:
        gap = math.hypot(lx - vertices[p, 0, 0], ly - vertices[p, 0, 1]) - radius
    else:
        # Signed distance of the point outside each face: inside means <= 0 for every face.
        gap = -np.inf
        for k in range(index.part_ints[p, SLOTS]):
            nx, ny = normals[p, k, 0], normals[p, k, 1]
            gap = max(gap, nx * (lx - vertices[p, k, 0]) + ny * (ly - vertices[p, k, 1]))
    frame = index.frames
    scale = math.hypot(frame[body, X], frame[body, Y]) + math.hypot(x, y)
    return gap <= TOUCH * (scale + index.part_floats[p, REACH])


@kernel(inline=True)
def touches_box(index, p, lo_x, lo_y, hi_x, hi_y):
    """True when part p overlaps the box lo..hi, within the touching tolerance.

    Separating axes: the box's two (the part's own extent against the box) and each
    polygon face (the box corner nearest the face); a circle by the distance from its
    centre to the box.
    """
    body = index.part_ints[p, BODY]
    frame = index.frames
    x, y, c, s = frame[body, X], frame[body, Y], frame[body, COS], frame[body, SIN]
    cx, cy = 0.5 * (lo_x + hi_x), 0.5 * (lo_y + hi_y)
    hx, hy = 0.5 * (hi_x - lo_x), 0.5 * (hi_y - lo_y)
    scale = math.hypot(x, y) + math.hypot(cx, cy) + math.hypot(hx, hy)
    tolerance = TOUCH * (scale + index.part_floats[p, REACH])
    vertices, normals = index.vertices, index.normals
    radius = index.part_floats[p, RADIUS]
    if index.part_ints[p, SLOTS] == 2:
        u, v = vertices[p, 0, 0], vertices[p, 0, 1]
        ax, ay = c * u - s * v + x, s * u + c * v + y
        u, v = vertices[p, 1, 0], vertices[p, 1, 1]
        bx, by = c * u - s * v + x, s * u + c * v + y
        return _segment_box_distance(ax, ay, bx, by, cx, cy, hx, hy) - radius <= tolerance
    if radius > 0.0:
        u, v = vertices[p, 0, 0], vertices[p, 0, 1]
        wx, wy = c * u - s * v + x, s * u + c * v + y
        nearest_x, nearest_y = min(max(wx, lo_x), hi_x), min(max(wy, lo_y), hi_y)
        return math.hypot(wx - nearest_x, wy - nearest_y) - radius <= tolerance
    low_x = low_y = np.inf
    high_x = high_y = -np.inf
    gap = -np.inf
    for k in range(index.part_ints[p, SLOTS]):
        u, v = vertices[p, k, 0], vertices[p, k, 1]
        wx, wy = c * u - s * v + x, s * u + c * v + y
        low_x, high_x = min(low_x, wx), max(high_x, wx)
        low_y, high_y = min(low_y, wy), max(high_y, wy)
        u, v = normals[p, k, 0], normals[p, k, 1]
        nx, ny = c * u - s * v, s * u + c * v
        gap = max(gap, nx * (cx - wx) + ny * (cy - wy) - abs(nx) * hx - abs(ny) * hy)
    box_axes = (
        low_x <= cx + hx + tolerance
        and low_y <= cy + hy + tolerance
        and high_x >= cx - hx - tolerance
        and high_y >= cy - hy - tolerance
    )
    return box_axes and gap <= tolerance


@kernel(inline=True)
def segment_hit(index, p, sx, sy, dx, dy):
    """The segment from (sx, sy) along (dx, dy) against part p.

    Returns (hit, fraction in [0, 1], normal x, normal y): the world normal of the surface
    hit, facing the segment, or -direction for a segment that starts inside.
    """
    body = index.part_ints[p, BODY]
    c, s = index.frames[body, COS], index.frames[body, SIN]
    lx, ly = to_body_frame(index, p, sx, sy)
    ldx, ldy = c * dx + s * dy, -s * dx + c * dy
    vertices, normals = index.vertices, index.normals
    radius = index.part_floats[p, RADIUS]
    if index.part_ints[p, SLOTS] == 2:
        # A chain's link (its front normal in both slots) is hit from the front only.
        fx, fy = normals[p, 0, 0], normals[p, 0, 1]
        if (
            normals[p, 1, 0] == fx
            and normals[p, 1, 1] == fy
            and fx * (lx - vertices[p, 0, 0]) + fy * (ly - vertices[p, 0, 1]) < 0.0
        ):
            return False, 0.0, 0.0, 0.0
        hit, fraction, nx, ny, inside = _segment_capsule(
            vertices[p, 0, 0], vertices[p, 0, 1], vertices[p, 1, 0], vertices[p, 1, 1], radius,
            lx, ly, ldx, ldy,
        )  # fmt: skip
    elif radius > 0.0:
        hit, fraction, nx, ny, inside = _segment_circle(
            lx - vertices[p, 0, 0], ly - vertices[p, 0, 1], ldx, ldy, radius
        )
    else:
        hit, fraction, nx, ny, inside = _segment_polygon(
            vertices, normals, p, index.part_ints[p, SLOTS], lx, ly, ldx, ldy
        )
    if inside:
        length = math.hypot(dx, dy)
        return hit, fraction, -dx / length, -dy / length
    return hit, fraction, c * nx - s * ny, s * nx + c * ny


@kernel(inline=True)
def _segment_polygon(vertices, normals, p, slots, sx, sy, dx, dy):
    """Slab clipping of a segment (body frame) against polygon p's half-planes.

    Inside face k means n_k . (x - v_k) <= 0. Along x = s + t d that is t (n.d) <= n.(v - s):
    faces with n.d < 0 bound t from below (entering), with n.d > 0 from above (exiting); a
    face parallel to the segment passes everything or nothing. Returns (hit, fraction,
    local normal of the entering face, starts inside).
    """
    enter, leave = -np.inf, np.inf
    face = 0
    blocked = False
    for k in range(slots):
        nx, ny = normals[p, k, 0], normals[p, k, 1]
        room = nx * (vertices[p, k, 0] - sx) + ny * (vertices[p, k, 1] - sy)
        rate = nx * dx + ny * dy
        if rate < 0.0:
            crossing = room / rate
            if crossing > enter:
                enter, face = crossing, k
        elif rate > 0.0:
            leave = min(leave, room / rate)
        elif room < 0.0:
            blocked = True
    hit = not blocked and enter <= leave and leave >= 0.0 and enter <= 1.0
    # enter < 0: every entering face was crossed before the start, so the start is inside.
    return hit, max(enter, 0.0), normals[p, face, 0], normals[p, face, 1], enter < 0.0


@kernel(inline=True)
def _segment_circle(mx, my, dx, dy, radius):
    """A segment from m (relative to the centre, body frame) along d against a circle.

    With b = m.d and g = |m|^2 - r^2: t = g / (-b + sqrt(b^2 - |d|^2 g)), the
    cancellation-free form of (-b - sqrt(.)) / |d|^2. Returns (hit, fraction, local normal,
    starts inside).
    """
    b = mx * dx + my * dy
    gap = mx * mx + my * my - radius * radius
    discriminant = b * b - (dx * dx + dy * dy) * gap
    # On the circle and heading out counts as inside: there is no surface ahead to report.
    inside = gap < 0.0 or (gap == 0.0 and b >= 0.0)
    fraction = 0.0
    approaching = False
    if not inside and b < 0.0 and discriminant >= 0.0:
        t = gap / (-b + math.sqrt(discriminant))
        approaching = t <= 1.0
        if approaching:
            fraction = t
    nx, ny = mx + fraction * dx, my + fraction * dy
    length = math.hypot(nx, ny)
    if length > 0.0:
        nx, ny = nx / length, ny / length
    return inside or approaching, fraction, nx, ny, inside


@kernel(inline=True)
def _segment_capsule(ax, ay, bx, by, radius, sx, sy, dx, dy):
    """A segment from s along d against the capsule (or line) a-b of ``radius``, all in the
    body frame. Returns (hit, fraction, local normal, starts inside)."""
    d2, qx, qy, _ = _point_edge(sx, sy, ax, ay, bx, by)
    inside = radius > 0.0 and d2 < radius * radius
    if inside:
        return True, 0.0, 0.0, 0.0, True
    t = _capsule_hit(sx, sy, dx, dy, ax, ay, bx, by, radius)
    if not t <= 1.0:
        return False, 0.0, 0.0, 0.0, False
    hx, hy = sx + t * dx, sy + t * dy
    _, qx, qy, _ = _point_edge(hx, hy, ax, ay, bx, by)
    nx, ny = hx - qx, hy - qy
    length = math.hypot(nx, ny)
    if length > 0.0:
        return True, t, nx / length, ny / length, False
    # On a line: the side the segment comes from.
    ex, ey = bx - ax, by - ay
    length = math.hypot(ex, ey)
    nx, ny = ey / length, -ex / length
    if nx * dx + ny * dy > 0.0:
        nx, ny = -nx, -ny
    return True, t, nx, ny, False


@kernel(inline=True)
def _segment_box_distance(ax, ay, bx, by, cx, cy, hx, hy):
    """Distance from the segment a-b to the box of centre c and half sizes h (0 when they
    meet): separating axes x, y and the segment's normal, else the nearest of the ends to
    the box and the box's corners to the segment."""
    ex, ey = bx - ax, by - ay
    length = math.hypot(ex, ey)
    nx, ny = ey / length, -ex / length
    offset = nx * (cx - ax) + ny * (cy - ay)
    apart = (
        min(ax, bx) > cx + hx or max(ax, bx) < cx - hx or min(ay, by) > cy + hy
        or max(ay, by) < cy - hy or abs(offset) > abs(nx) * hx + abs(ny) * hy
    )  # fmt: skip
    if not apart:
        return 0.0
    best = np.inf
    for px, py in ((ax, ay), (bx, by)):
        qx, qy = min(max(px, cx - hx), cx + hx), min(max(py, cy - hy), cy + hy)
        best = min(best, (px - qx) ** 2 + (py - qy) ** 2)
    for sx in (-1.0, 1.0):
        for sy in (-1.0, 1.0):
            best = min(best, _point_edge(cx + sx * hx, cy + sy * hy, ax, ay, bx, by)[0])
    return math.sqrt(best)
