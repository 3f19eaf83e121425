"""Batched contacts for pairs with a circle: polygon-circle and circle-circle.

A circle against a convex polygon is exact with the polygon's face normals plus one more
axis, from the polygon vertex nearest the centre to the centre: whichever Voronoi region of
the polygon holds the centre, its closest-feature direction is among these.

Time of impact is a ray cast of the centre (moving relative to the polygon) against the
polygon grown by the radius: the first touch is on a shifted face or on a vertex's circle.
"""

from __future__ import annotations

import numpy as np

from .contacts import FEATURE_FACE, Contacts, Discs, Hulls, next_slot, pick, real_slot

# Where the centre sits exactly on the polygon or on the other centre, any unit axis is
# equally right; a fixed one keeps results deterministic.
FALLBACK_AXIS = np.array([0.0, 1.0])


def _single_point(point, separation, feature, margin):
    """Pad one contact point per pair to the two-point layout of Contacts."""
    n = len(separation)
    keep = separation <= margin
    points = np.full((n, 2, 2), np.nan)
    points[keep, 0] = point[keep]
    separations = np.full((n, 2), np.nan)
    separations[keep, 0] = separation[keep]
    features = np.full((n, 2), -1, dtype=np.int64)
    features[keep, 0] = feature[keep]
    return points, separations, keep.astype(np.int64), features


def _first_root(offset_dot_velocity, offset_sq, reach_sq, speed_sq):
    """Earliest t >= 0 with |offset - velocity t| = reach, NaN if never.

    All arguments broadcast together. Uses the cancellation-free form of the smaller root.
    """
    gap = offset_sq - reach_sq
    discriminant = offset_dot_velocity**2 - speed_sq * gap
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        root = gap / (offset_dot_velocity + np.sqrt(discriminant))
    valid = (offset_dot_velocity > 0) & (discriminant >= 0) & (gap >= 0)
    return np.where(valid, root, np.nan)


def polygon_circle(
    a: Hulls, b: Discs, velocity: np.ndarray | None = None, dt=0.0, margin: float = 0.0
) -> Contacts:
    """Collide N convex polygons A with N circles B; A moves by ``velocity * t`` relative to B.

    a: Hulls (K, N); b: Discs over the same N pairs. velocity: (N, 2) or None; dt: float or
    (N,). Normal points from the polygon to the circle. See ``engine.contacts.Contacts``.
    """
    n = a.count.shape[0]
    cols = np.arange(n)
    cx, cy = b.centre[:, 0], b.centre[:, 1]
    r = b.radius
    dx, dy = cx - a.x, cy - a.y  # (K, N) from each vertex to the centre
    face_gap = a.nx * dx + a.ny * dy - r
    # Padded slots repeat the last face through another vertex: leave them out so that
    # answers do not depend on the batch's width (see engine.sat.face_extremes).
    padded = np.arange(a.width)[:, None] >= a.count
    if padded.any():
        face_gap[padded] = -np.inf
    face = real_slot(face_gap.argmax(axis=0), a.count)
    face_separation = pick(face_gap, face)

    dist_sq = dx * dx + dy * dy
    corner = dist_sq.argmin(axis=0)
    corner_dist = np.sqrt(dist_sq[corner, cols])
    on_corner = corner_dist == 0.0
    safe = np.where(on_corner, 1.0, corner_dist)
    ux, uy = dx[corner, cols] / safe, dy[corner, cols] / safe
    # The polygon's reach along u beyond the nearest vertex: exactly 0 when that vertex is
    # the support (the usual case), so the separation is then |c - v| - r to the last bit.
    excess = (ux * (a.x - a.x[corner, cols]) + uy * (a.y - a.y[corner, cols])).max(axis=0)
    corner_separation = np.where(on_corner, -np.inf, corner_dist - r - excess)

    use_corner = corner_separation > face_separation
    separation = np.where(use_corner, corner_separation, face_separation)
    face_normal = np.stack([pick(a.nx, face), pick(a.ny, face)], axis=1)
    normal = np.where(use_corner[:, None], np.stack([ux, uy], axis=1), face_normal)
    point, point_separation = _face_point(a, b, face, face_normal, separation)
    corner_point = b.centre - normal * (r + 0.5 * separation)[:, None]
    point = np.where(use_corner[:, None], corner_point, point)
    point_separation = np.where(use_corner, separation, point_separation)
    feature = np.where(use_corner, FEATURE_FACE + corner, face)
    points, separations, count, features = _single_point(point, point_separation, feature, margin)

    toi = np.where(separation <= 0.0, 0.0, np.nan)
    if velocity is not None and n:
        toi = np.where(separation <= 0.0, 0.0, _polygon_circle_sweep(a, b, face_gap, velocity))
        toi = np.where(toi <= dt, toi, np.nan)

    return Contacts(
        separation=separation,
        normal=normal,
        toi=toi,
        points=points,
        point_separation=separations,
        point_count=count,
        features=features,
        a_in_b=dist_sq.max(axis=0) <= r * r,
        b_in_a=face_separation <= -2.0 * r,
    )


def _face_point(a: Hulls, b: Discs, face, normal, separation):
    """Contact point on the reference face: midway between the face and the circle.

    Usually the centre projects onto the face and the point lies on the line through the
    centre. A circle that swallows the polygon may project beyond the face's ends; the point
    is then kept beside the face (clamped to its ends), on a line that crosses both shapes.
    Returns points (N, 2) and their separations along the normal (N,).
    """
    cols = np.arange(len(face))
    following = next_slot(face, a.width)
    start = np.stack([a.x[face, cols], a.y[face, cols]], axis=1)
    end = np.stack([a.x[following, cols], a.y[following, cols]], axis=1)
    edge = end - start
    along = np.einsum("ij,ij->i", b.centre - start, edge) / np.einsum("ij,ij->i", edge, edge)
    on_face = start + np.clip(along, 0.0, 1.0)[:, None] * edge
    to_centre = b.centre - on_face
    height = np.einsum("ij,ij->i", to_centre, normal)
    sideways_sq = np.maximum(np.einsum("ij,ij->i", to_centre, to_centre) - height**2, 0.0)
    # Where the line from on_face along the normal meets the circle's near side.
    gap = np.where(
        along == np.clip(along, 0.0, 1.0),
        separation,
        height - np.sqrt(np.maximum(b.radius**2 - sideways_sq, 0.0)),
    )
    return on_face + normal * (0.5 * gap)[:, None], gap


def _polygon_circle_sweep(a: Hulls, b: Discs, face_gap, velocity):
    """First instant the centre, moving by -velocity * t, comes within r of the polygon."""
    vx, vy = velocity[:, 0], velocity[:, 1]
    closing = a.nx * vx + a.ny * vy  # face gaps shrink at this rate
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        t_face = face_gap / closing
    # Where the centre crosses the shifted face line, it must lie beside the edge.
    ex = np.roll(a.x, -1, axis=0) - a.x
    ey = np.roll(a.y, -1, axis=0) - a.y
    length_sq = ex * ex + ey * ey
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        hit_x = b.centre[:, 0] - vx * t_face - a.x
        hit_y = b.centre[:, 1] - vy * t_face - a.y
        along = (ex * hit_x + ey * hit_y) / length_sq
    face_ok = (closing > 0) & (t_face >= 0) & (length_sq > 0) & (along >= 0) & (along <= 1)
    t_face = np.where(face_ok, t_face, np.inf)

    dx, dy = b.centre[:, 0] - a.x, b.centre[:, 1] - a.y
    t_corner = _first_root(dx * vx + dy * vy, dx * dx + dy * dy, b.radius**2, vx * vx + vy * vy)
    t_corner = np.where(np.isnan(t_corner), np.inf, t_corner)
    first = np.minimum(t_face.min(axis=0), t_corner.min(axis=0))
    return np.where(np.isfinite(first), first, np.nan)


def circle_circle(
    a: Discs, b: Discs, velocity: np.ndarray | None = None, dt=0.0, margin: float = 0.0
) -> Contacts:
    """Collide N circle pairs; A moves by ``velocity * t`` relative to B.

    a, b: Discs over the same N pairs; velocity: (N, 2) or None; dt: float or (N,).
    """
    offset = b.centre - a.centre
    dist = np.linalg.norm(offset, axis=1)
    coincident = dist == 0.0
    normal = np.where(
        coincident[:, None], FALLBACK_AXIS, offset / np.where(coincident, 1.0, dist)[:, None]
    )
    reach = a.radius + b.radius
    separation = dist - reach
    point = a.centre + normal * (a.radius + 0.5 * separation)[:, None]
    feature = np.zeros(len(dist), dtype=np.int64)
    points, separations, count, features = _single_point(point, separation, feature, margin)

    toi = np.where(separation <= 0.0, 0.0, np.nan)
    if velocity is not None and len(dist):
        # B's centre seen from A drifts by -velocity * t.
        swept = _first_root(
            np.einsum("ij,ij->i", offset, velocity),
            dist * dist,
            reach * reach,
            np.einsum("ij,ij->i", velocity, velocity),
        )
        toi = np.where(separation <= 0.0, 0.0, swept)
        toi = np.where(toi <= dt, toi, np.nan)

    return Contacts(
        separation=separation,
        normal=normal,
        toi=toi,
        points=points,
        point_separation=separations,
        point_count=count,
        features=features,
        a_in_b=dist + a.radius <= b.radius,
        b_in_a=dist + b.radius <= a.radius,
    )
