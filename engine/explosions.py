"""Explosions: the impulse a blast gives each part it reaches, as Box2D v3 defines it.

A blast at point c with ``radius`` and ``falloff`` reaches every part whose nearest point
q lies within radius + falloff of c. It pushes the part at q, away from c, with an impulse
of ``impulse_per_length`` times the part's width as the blast sees it (its extent across
the direction from c: the length of its projection on the perpendicular), scaled by 1
within ``radius`` and falling linearly to 0 over ``falloff`` beyond it. A part that holds
c is pushed from its centroid instead of its nearest point. So a body's share grows with
the face it shows the blast, and bodies hidden behind others are pushed as well (the
blast does not see occlusion, as Box2D's does not).
"""

from __future__ import annotations

import math

import numpy as np

from .body_store import DYNAMIC
from .jit import kernel


@kernel(inline=True)
def _nearest_on_core(vertices, count, px, py):
    """The point (x, y) of a part's core (its vertices (K, 2), ``count`` of them: a point,
    a segment or a convex polygon, counter-clockwise) nearest (px, py), in the part's
    frame, and whether (px, py) lies inside the polygon."""
    if count >= 3:
        inside = True
        for i in range(count):
            j = (i + 1) % count
            ex, ey = vertices[j, 0] - vertices[i, 0], vertices[j, 1] - vertices[i, 1]
            # Counter-clockwise: the point is inside when left of every edge.
            if ex * (py - vertices[i, 1]) - ey * (px - vertices[i, 0]) < 0.0:
                inside = False
        if inside:
            return px, py, True
    best = np.inf
    qx, qy = vertices[0, 0], vertices[0, 1]
    edges = count if count >= 3 else count - 1
    for i in range(max(edges, 0)):
        j = (i + 1) % count
        ax, ay = vertices[i, 0], vertices[i, 1]
        ex, ey = vertices[j, 0] - ax, vertices[j, 1] - ay
        length2 = ex * ex + ey * ey
        t = 0.0 if length2 == 0.0 else ((px - ax) * ex + (py - ay) * ey) / length2
        t = min(max(t, 0.0), 1.0)
        cx, cy = ax + t * ex, ay + t * ey
        d2 = (px - cx) * (px - cx) + (py - cy) * (py - cy)
        if d2 < best:
            best, qx, qy = d2, cx, cy
    return qx, qy, False


@kernel
def explosion_impulses(vertices, count, radius, owner, category, sensor, kind, position,
                       angle, centre, blast_radius, falloff, impulse_per_length,
                       mask):  # fmt: skip
    """Per body (N,): the linear impulse (N, 2) and the angular impulse about its centre of
    mass (N,) a blast gives it, and whether it reached the body (N,) bool.

    Parts: vertices (P, K, 2) in their body's frame (from its centre of mass), count,
    radius, owner, category (P,), sensor (P,) bool; bodies: kind (N,), position (N, 2)
    (centres of mass), angle (N,); the blast: centre (2,), blast_radius, falloff,
    impulse_per_length (N s per m of width), mask (the categories it reaches). Sensors and
    bodies that are not dynamic take nothing.
    """
    n = len(kind)
    linear = np.zeros((n, 2))
    angular = np.zeros(n)
    reached = np.zeros(n, dtype=np.bool_)
    reach = blast_radius + falloff
    for p in range(len(owner)):
        b = owner[p]
        if kind[b] != DYNAMIC or sensor[p] or (category[p] & mask) == 0:
            continue
        c, s = math.cos(angle[b]), math.sin(angle[b])
        # The blast's centre in the part's frame.
        dx, dy = centre[0] - position[b, 0], centre[1] - position[b, 1]
        px, py = c * dx + s * dy, -s * dx + c * dy
        k = count[p]
        qx, qy, inside = _nearest_on_core(vertices[p], k, px, py)
        gap = math.hypot(px - qx, py - qy)
        r = radius[p]
        if inside or gap <= r:
            distance = 0.0
            # Inside the part: pushed from its centroid (the mean of its vertices).
            qx, qy = 0.0, 0.0
            for i in range(k):
                qx += vertices[p, i, 0] / k
                qy += vertices[p, i, 1] / k
        else:
            distance = gap - r
            qx += r * (px - qx) / gap
            qy += r * (py - qy) / gap
        if distance > reach:
            continue
        ux, uy = qx - px, qy - py
        length = math.hypot(ux, uy)
        if length > 1e-12 * (1.0 + math.hypot(px, py)):
            ux, uy = ux / length, uy / length
        else:
            # The centre on the push point: a direction by convention, +x in the world.
            ux, uy = c, -s
        # The part's width across the push: its projection on the perpendicular line.
        lx, ly = -uy, ux
        lower, upper = np.inf, -np.inf
        for i in range(k):
            projected = vertices[p, i, 0] * lx + vertices[p, i, 1] * ly
            lower, upper = min(lower, projected), max(upper, projected)
        width = upper - lower + 2.0 * r
        scale = 1.0
        if distance > blast_radius and falloff > 0.0:
            scale = min(max((reach - distance) / falloff, 0.0), 1.0)
        magnitude = impulse_per_length * width * scale
        # Back to the world: the push along the turned direction, at the turned point.
        jx, jy = magnitude * (c * ux - s * uy), magnitude * (s * ux + c * uy)
        ax, ay = c * qx - s * qy, s * qx + c * qy
        linear[b, 0] += jx
        linear[b, 1] += jy
        angular[b] += ax * jy - ay * jx
        reached[b] = True
    return linear, angular, reached
