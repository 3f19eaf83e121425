"""The narrow phase over a batch of convex part pairs of any kinds.

Pairs are sorted into polygon-polygon, polygon-circle, circle-polygon and circle-circle
groups; each group runs as one kernel call on whole arrays and the answers are scattered
back into the caller's order. Circle-polygon pairs run as polygon-circle with A and B
swapped, and their answers are swapped back.
"""

from __future__ import annotations

import numpy as np

from engine.packing import PackedParts

from .contacts import Contacts
from .placement import local_hulls, place_discs, place_hulls, relative_poses
from .round_contacts import circle_circle, polygon_circle
from .sat import polygon_polygon


def empty_contacts(n: int) -> Contacts:
    """Contacts for n pairs, every field at its 'nothing' value (NaN, 0, -1, False)."""
    return Contacts(
        separation=np.full(n, np.nan),
        normal=np.full((n, 2), np.nan),
        toi=np.full(n, np.nan),
        points=np.full((n, 2, 2), np.nan),
        point_separation=np.full((n, 2), np.nan),
        point_count=np.zeros(n, dtype=np.int64),
        features=np.full((n, 2), -1, dtype=np.int64),
        a_in_b=np.zeros(n, dtype=bool),
        b_in_a=np.zeros(n, dtype=bool),
    )


def _scatter(into: Contacts, rows: np.ndarray, found: Contacts) -> None:
    for target, source in zip(into, found):
        target[rows] = source


def _size_class(count: np.ndarray) -> np.ndarray:
    """0 for up to 4 vertices, 1 for up to 8, 2 for up to 16, ... (N,) int64."""
    return np.ceil(np.log2(np.maximum(count, 4))).astype(np.int64) - 2


def _to_world(found: Contacts, frame: np.ndarray) -> Contacts:
    """Answers computed in the body frames ``frame`` (N, 3) turned into world coordinates."""
    c, s = np.cos(frame[:, 2]), np.sin(frame[:, 2])
    nx, ny = found.normal[:, 0], found.normal[:, 1]
    normal = np.stack([c * nx - s * ny, s * nx + c * ny], axis=1)
    px, py = found.points[:, :, 0], found.points[:, :, 1]
    c, s = c[:, None], s[:, None]
    points = np.stack(
        [c * px - s * py + frame[:, None, 0], s * px + c * py + frame[:, None, 1]], axis=2
    )
    return found._replace(normal=normal, points=points)


def _into_frame(vectors: np.ndarray, frame: np.ndarray) -> np.ndarray:
    """Vectors (N, 2) expressed in the body frames ``frame`` (N, 3)."""
    c, s = np.cos(frame[:, 2]), np.sin(frame[:, 2])
    return np.stack(
        [c * vectors[:, 0] + s * vectors[:, 1], -s * vectors[:, 0] + c * vectors[:, 1]], axis=1
    )


def _swapped(found: Contacts) -> Contacts:
    """Answers for (B, A) turned into answers for (A, B)."""
    return found._replace(normal=-found.normal, a_in_b=found.b_in_a, b_in_a=found.a_in_b)


# Pairs are processed in blocks of this many so that each kernel's (K, block) rows stay in
# the CPU cache; one block holds the pairs of most steps.
BLOCK = 4096

# Relative size of a gap that is only rounding: about 4000 units in the last place of the
# pair's largest coordinate. Far below any physical scale, far above float64 noise.
TOUCH = 2.0**-40


def collide_parts(
    table_a: PackedParts,
    parts_a: np.ndarray,
    poses_a: np.ndarray,
    table_b: PackedParts,
    parts_b: np.ndarray,
    poses_b: np.ndarray,
    velocity: np.ndarray | None = None,
    dt=0.0,
    margin: float = 0.0,
    flip_tolerance: float = 0.0,
    reach: tuple | None = None,
) -> Contacts:
    """Collide N convex part pairs.

    table_a, table_b: packed part tables (may be the same object); parts_a, parts_b: (N,)
    int64 rows of them; poses_a, poses_b: (N, 3) float64 body poses (x, y, angle);
    velocity: (N, 2) velocity of A relative to B, or None for no sweep; dt: float or (N,).
    margin: float or (N,): keep contact points up to this gap. reach: optional
    ((P_a,), (P_b,)) ``part_reach`` of the two tables, when the caller keeps them cached.
    """
    n = len(parts_a)
    result = empty_contacts(n)
    if reach is None:
        reach = (part_reach(table_a), part_reach(table_b))
    touch = touch_tolerance(reach[0][parts_a], poses_a, reach[1][parts_b], poses_b)
    margin = margin + touch
    round_a = table_a.radius[parts_a] > 0.0
    round_b = table_b.radius[parts_b] > 0.0
    dt = np.broadcast_to(np.asarray(dt, dtype=np.float64), (n,))
    slots_a = table_a.slot_major()
    slots_b = slots_a if table_b is table_a else table_b.slot_major()

    # Polygon pairs are solved in the frame of their first polygon (A's vertices need no
    # transform there), circle pairs in the world.
    def sweep(rows, frame, sign=1.0):
        if velocity is None:
            return None
        return sign * _into_frame(velocity[rows], frame)

    def polygons(rows):
        frame = poses_a[rows]
        found = polygon_polygon(
            local_hulls(slots_a, table_a.count, parts_a[rows]),
            place_hulls(
                slots_b, table_b.count, parts_b[rows], relative_poses(frame, poses_b[rows])
            ),
            sweep(rows, frame),
            dt[rows],
            margin[rows],
            flip_tolerance,
        )
        return _to_world(found, frame)

    def polygon_then_circle(rows):
        frame = poses_a[rows]
        found = polygon_circle(
            local_hulls(slots_a, table_a.count, parts_a[rows]),
            place_discs(table_b, parts_b[rows], relative_poses(frame, poses_b[rows])),
            sweep(rows, frame),
            dt[rows],
            margin[rows],
        )
        return _to_world(found, frame)

    def circle_then_polygon(rows):
        frame = poses_b[rows]
        found = polygon_circle(
            local_hulls(slots_b, table_b.count, parts_b[rows]),
            place_discs(table_a, parts_a[rows], relative_poses(frame, poses_a[rows])),
            sweep(rows, frame, -1.0),
            dt[rows],
            margin[rows],
        )
        return _swapped(_to_world(found, frame))

    def circles(rows):
        return circle_circle(
            place_discs(table_a, parts_a[rows], poses_a[rows]),
            place_discs(table_b, parts_b[rows], poses_b[rows]),
            None if velocity is None else velocity[rows],
            dt[rows],
            margin[rows],
        )

    # Polygon pairs are also split by size class (up to 4 vertices, up to 8, ...) so that a
    # few many-sided parts do not widen the arrays of every box pair.
    size_a = _size_class(table_a.count[parts_a])
    size_b = _size_class(table_b.count[parts_b])
    polygon_pair = ~round_a & ~round_b
    groups = [
        (polygon_pair & (size_a == i) & (size_b == j), polygons)
        for i in np.unique(size_a[polygon_pair])
        for j in np.unique(size_b[polygon_pair])
    ]
    groups += [
        (~round_a & round_b, polygon_then_circle),
        (round_a & ~round_b, circle_then_polygon),
        (round_a & round_b, circles),
    ]
    for mask, kernel in groups:
        rows = np.flatnonzero(mask)
        for start in range(0, len(rows), BLOCK):
            block = rows[start : start + BLOCK]
            _scatter(result, block, kernel(block))
    return snap_touching(result, touch)


def touch_tolerance(reach_a, poses_a, reach_b, poses_b) -> np.ndarray:
    """(N,) distance below which a gap is rounding, not a gap: TOUCH times the pair's scale.

    reach_a, reach_b: (N,) how far each part reaches from its body's origin; poses: (N, 3).
    The scale bounds the coordinates that enter the pair's arithmetic: how far the bodies
    are from the origin and how far their parts reach from the bodies' origins.
    """
    scale = (
        np.abs(poses_a[:, 0])
        + np.abs(poses_a[:, 1])
        + np.abs(poses_b[:, 0])
        + np.abs(poses_b[:, 1])
        + reach_a
        + reach_b
    )
    return TOUCH * scale


def part_reach(table: PackedParts) -> np.ndarray:
    """(P,) distance from the body origin to the farthest point of each part."""
    return np.sqrt((table.vertices**2).sum(axis=2)).max(axis=1) + table.radius


def snap_touching(found: Contacts, touch: np.ndarray) -> Contacts:
    """Treat separations within ``touch`` (N,) of zero as exact touching.

    Shapes moved apart by their own MTV must still count as touching, and the rounding of
    that move leaves a separation of either sign of order 1e-16 times the coordinates.
    """
    near = np.abs(found.separation) <= touch
    point_near = np.abs(found.point_separation) <= touch[:, None]
    return found._replace(
        separation=np.where(near, 0.0, found.separation),
        toi=np.where(near, 0.0, found.toi),
        point_separation=np.where(point_near, 0.0, found.point_separation),
    )
