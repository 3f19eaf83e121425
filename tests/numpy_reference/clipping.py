"""Contact points of polygon pairs: clip the incident edge against the reference face.

The reference face is the face of the best separating axis. The incident edge is the edge
of the other polygon whose normal opposes the reference normal most. Cutting the incident
edge to the strip beside the reference face leaves up to two points; each is reported midway
between the incident point and the reference face, with its separation along the normal.
That is what a box lying on a box needs: two points, one at each end of the support.
"""

from __future__ import annotations

import numpy as np

from .contacts import (
    FEATURE_EDGE,
    FEATURE_FACE,
    FEATURE_FLIP,
    Hulls,
    first_best,
    next_slot,
    pick_fields,
    real_slot,
)


def _edge_points(hulls: Hulls, slot: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start and end of edge ``slot`` per pair: two (2, N) arrays."""
    return pick_fields(hulls.data[:2], slot), pick_fields(
        hulls.data[:2], next_slot(slot, hulls.width)
    )


def _most_opposed_edge(hulls: Hulls, normal: np.ndarray) -> np.ndarray:
    """Slot of the edge whose normal points most against ``normal`` (2, N), per pair."""
    alignment = hulls.nx * normal[0]
    alignment += hulls.ny * normal[1]
    return real_slot(first_best(alignment, alignment.min(axis=0)), hulls.count)


def clip_incident_edge(a: Hulls, b: Hulls, face_a, face_b, flip, margin: float):
    """Up to two contact points per pair.

    a, b: the pairs' hulls in one frame; face_a, face_b: (N,) best face slots on A and B;
    flip: (N,) bool, True where B's face is the reference. margin: keep points whose
    separation is at most this. Returns points (N, 2, 2), separations (N, 2), count (N,)
    int64 and features (N, 2) int64, NaN/-1 padded.
    """
    normal_a = pick_fields(a.data[2:], face_a)
    normal_b = pick_fields(b.data[2:], face_b)
    edge_on_b = _most_opposed_edge(b, normal_a)
    edge_on_a = _most_opposed_edge(a, normal_b)
    ref_a1, ref_a2 = _edge_points(a, face_a)
    ref_b1, ref_b2 = _edge_points(b, face_b)
    inc_b1, inc_b2 = _edge_points(b, edge_on_b)
    inc_a1, inc_a2 = _edge_points(a, edge_on_a)
    # Reference on A (no flip) takes A's face and B's edge; flipped, the other way round.
    nx, ny = np.where(flip, normal_b, normal_a)
    r1x, r1y = np.where(flip, ref_b1, ref_a1)
    r2x, r2y = np.where(flip, ref_b2, ref_a2)
    i1x, i1y = np.where(flip, inc_a1, inc_b1)
    i2x, i2y = np.where(flip, inc_a2, inc_b2)
    face = np.where(flip, face_b, face_a)
    edge = np.where(flip, edge_on_a, edge_on_b)

    # Positions along the face's tangent (-ny, nx): the face spans [lower, upper].
    lower = nx * r1y - ny * r1x
    upper = nx * r2y - ny * r2x
    s1 = nx * i1y - ny * i1x
    run = nx * i2y - ny * i2x - s1
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        at_lower = (lower - s1) / run
        at_upper = (upper - s1) / run
    # An incident edge square to the face (run == 0) lies wholly inside the strip or out.
    square = run == 0.0
    if square.any():
        inside = (s1 >= lower) & (s1 <= upper)
        at_lower = np.where(square, np.where(inside, 0.0, 1.0), at_lower)
        at_upper = np.where(square, np.where(inside, 1.0, 0.0), at_upper)
    lo = np.maximum(np.minimum(at_lower, at_upper), 0.0)
    hi = np.minimum(np.maximum(at_lower, at_upper), 1.0)
    empty = lo > hi
    # Rounding can leave no part of the incident edge beside the face in deep, skewed
    # overlaps: then the single point is the incident vertex deepest along the normal.
    if empty.any():
        end_deeper = nx * (i2x - i1x) + ny * (i2y - i1y) < 0.0
        lo = np.where(empty, np.where(end_deeper, 1.0, 0.0), lo)
        hi = np.where(empty, lo, hi)

    dx, dy = i2x - i1x, i2y - i1y
    # The two clipped incident points, their depths below the face, and which survive.
    x0, y0 = i1x + lo * dx, i1y + lo * dy
    x1, y1 = i1x + hi * dx, i1y + hi * dy
    depth0 = nx * (x0 - r1x) + ny * (y0 - r1y)
    depth1 = nx * (x1 - r1x) + ny * (y1 - r1y)
    margin = np.broadcast_to(margin, depth0.shape)
    keep0 = depth0 <= margin
    keep1 = (depth1 <= margin) & (hi > lo)  # one point, not two, when the clip collapses

    ids = flip * FEATURE_FLIP + face * FEATURE_FACE + edge * FEATURE_EDGE
    # A lone second point moves to the first slot, so kept points always come first.
    lone = ~keep0 & keep1
    first_x = np.where(lone, x1, x0)
    first_y = np.where(lone, y1, y0)
    first_depth = np.where(lone, depth1, depth0)
    first_id = ids + lone
    keep_first = keep0 | keep1
    keep_second = keep0 & keep1
    # Report each point midway between the incident point and the reference face.
    half = 0.5 * first_depth
    points = np.full((len(ids), 2, 2), np.nan)
    points[:, 0, 0] = np.where(keep_first, first_x - half * nx, np.nan)
    points[:, 0, 1] = np.where(keep_first, first_y - half * ny, np.nan)
    half = 0.5 * depth1
    points[:, 1, 0] = np.where(keep_second, x1 - half * nx, np.nan)
    points[:, 1, 1] = np.where(keep_second, y1 - half * ny, np.nan)
    separations = np.column_stack(
        [np.where(keep_first, first_depth, np.nan), np.where(keep_second, depth1, np.nan)]
    )
    features = np.column_stack(
        [np.where(keep_first, first_id, -1), np.where(keep_second, ids + 1, -1)]
    )
    count = keep_first.astype(np.int64) + keep_second
    return points, separations, count, features
