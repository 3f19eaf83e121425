"""Batched separating-axis test for convex polygon pairs, with sweep and contact points.

For convex A and B the candidate axes are the edge normals of both. Along A's face i the
separation is ``min_j n_i . (b_j - a_i)``: how far B's nearest vertex lies outside that face.
The largest separation over all faces of both is the signed distance along the best axis:
positive means a separating axis, negative is minus the exact penetration depth, because the
Minkowski difference A - B is bounded by exactly these faces.

Under a relative translation ``velocity * t`` each face's separation changes linearly, so
the set of instants at which all of them are <= 0 is an interval: its start is the exact time
of impact. Checking each axis's swept projections separately (and not intersecting the time
intervals) reports hits for bodies that pass each other.
"""

from __future__ import annotations

import numpy as np

from .clipping import clip_incident_edge
from .contacts import Contacts, Hulls, first_best, pick_fields, real_slot


def face_extremes(faces: Hulls, points: Hulls) -> tuple[np.ndarray, np.ndarray]:
    """Least and greatest signed distance of ``points``' vertices from each face of ``faces``.

    faces: K_f slots; points: K_p slots; both over the same N pairs.
    Returns (nearest, farthest), each (K_f, N) float64.
    """
    nx, ny = faces.nx, faces.ny
    offset = nx * faces.x
    offset += ny * faces.y
    nearest = nx * points.x[0]
    nearest += ny * points.y[0]
    farthest = nearest.copy()
    along = np.empty_like(nearest)
    across = np.empty_like(nearest)
    # A loop over vertex slots (K <= a few dozen), each step on whole rows of pairs.
    for j in range(1, points.x.shape[0]):
        np.multiply(nx, points.x[j], out=along)
        np.multiply(ny, points.y[j], out=across)
        along += across
        np.minimum(nearest, along, out=nearest)
        np.maximum(farthest, along, out=farthest)
    nearest -= offset
    farthest -= offset
    # Padded slots repeat the last face through a different vertex, so their offsets can
    # differ from the real face's in the last bit; leaving them out keeps every answer
    # independent of how wide the batch happens to be.
    padded = np.arange(nx.shape[0])[:, None] >= faces.count
    if padded.any():
        nearest[padded] = -np.inf
        farthest[padded] = -np.inf
    return nearest, farthest


def overlap_window(separation: np.ndarray, rate: np.ndarray, dt) -> tuple[np.ndarray, np.ndarray]:
    """Time interval during which every face's separation is <= 0.

    separation, rate: (F, M) float64 with separation(t) = separation - rate * t.
    dt: float or (M,). Returns (start, end), each (M,); empty where start > end.
    """
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        crossing = separation / rate
    # A face closing in (rate > 0) must have been crossed: t >= crossing. A face opening
    # (rate < 0) must not be crossed yet: t <= crossing.
    start = np.maximum(np.where(rate > 0, crossing, -np.inf).max(axis=0), 0.0)
    end = np.minimum(np.where(rate < 0, crossing, np.inf).min(axis=0), dt)
    # A face that does not move must be closed already.
    never = ((rate == 0) & (separation > 0)).any(axis=0)
    return start, np.where(never, -np.inf, end)


def polygon_polygon(
    a: Hulls,
    b: Hulls,
    velocity: np.ndarray | None = None,
    dt=0.0,
    margin: float = 0.0,
    flip_tolerance: float = 0.0,
) -> Contacts:
    """Collide N convex polygon pairs; A moves by ``velocity * t`` relative to B.

    a, b: Hulls over the same N pairs in one frame (their K may differ). velocity: (N, 2)
    in that frame, or None. dt: float or (N,) sweep duration. margin: keep contact points
    whose separation is at most this (0: touching only; more gives speculative points).
    flip_tolerance: B's face is the reference only when its separation beats A's by more
    than this, which keeps the choice steady from step to step in a solver.
    """
    n = a.count.shape[0]
    near_a, far_a = face_extremes(a, b)
    near_b, far_b = face_extremes(b, a)
    separation_a = near_a.max(axis=0)
    separation_b = near_b.max(axis=0)
    face_a = real_slot(first_best(near_a, separation_a), a.count)
    face_b = real_slot(first_best(near_b, separation_b), b.count)
    flip = separation_b > separation_a + flip_tolerance
    separation = np.where(flip, separation_b, separation_a)
    normal = np.where(flip, -pick_fields(b.data[2:], face_b), pick_fields(a.data[2:], face_a)).T
    near = separation <= margin
    if near.all():
        points, point_separation, point_count, features = clip_incident_edge(
            a, b, face_a, face_b, flip, margin
        )
    else:
        # Pairs farther apart than the margin get no points: clip only the others.
        rows = np.flatnonzero(near)
        points = np.full((n, 2, 2), np.nan)
        point_separation = np.full((n, 2), np.nan)
        point_count = np.zeros(n, dtype=np.int64)
        features = np.full((n, 2), -1, dtype=np.int64)
        if len(rows):
            clipped = clip_incident_edge(
                Hulls(np.take(a.data, rows, axis=2), a.count[rows]),
                Hulls(np.take(b.data, rows, axis=2), b.count[rows]),
                face_a[rows],
                face_b[rows],
                flip[rows],
                np.broadcast_to(margin, (n,))[rows],
            )
            points[rows], point_separation[rows], point_count[rows], features[rows] = clipped

    toi = np.where(separation <= 0.0, 0.0, np.nan)
    if velocity is not None and n:
        vx, vy = velocity[:, 0], velocity[:, 1]
        # A's faces close at v . n; B's faces close at -v . m as A approaches them.
        start_a, end_a = overlap_window(near_a, vx * a.nx + vy * a.ny, dt)
        start_b, end_b = overlap_window(near_b, -(vx * b.nx + vy * b.ny), dt)
        start = np.maximum(start_a, start_b)
        swept = np.where(start <= np.minimum(end_a, end_b), start, np.nan)
        toi = np.where(separation <= 0.0, 0.0, swept)

    return Contacts(
        separation=separation,
        normal=normal,
        toi=toi,
        points=points,
        point_separation=point_separation,
        point_count=point_count,
        features=features,
        a_in_b=far_b.max(axis=0) <= 0.0,
        b_in_a=far_a.max(axis=0) <= 0.0,
    )
