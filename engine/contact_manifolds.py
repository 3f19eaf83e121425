"""Narrow phase for the step: solid part pairs in, contact manifolds out.

Each pair is swept with its bodies' relative velocity, keeping contact points up to a
margin ahead of touching (speculative contacts): the speculative distance plus how far the
pair can close in the step, its relative speed and both bodies' turning at their reach.
Pairs with at least one point become manifolds, with each point's arms from the bodies'
centres, the mixed materials (friction sqrt(fa fb), restitution max(ea, eb), as Box2D
mixes them) and their warm-start names.
"""

from __future__ import annotations

import math

import numpy as np

from .contact_solver import Manifolds
from .jit import kernel
from .narrowphase import collide_kernel


def find_manifolds(parts, part_reach, solid, start, velocity, reach, friction, restitution,
                   dt, speculative, flip_tolerance):  # fmt: skip
    """The step's manifolds (see ``engine.contact_solver.Manifolds``), their part rows
    (M, 2) and feature ids (M, 2).

    parts: the world's PackedParts with part_reach (P,); solid: (4, S) rows part_a,
    part_b, body_a, body_b; start: (N, 3) poses; velocity: (N + 1, 3) after forces;
    reach, friction, restitution: (N,) per body.
    """
    found = _collide_solid(
        parts.vertices, parts.normals, parts.count, parts.radius, part_reach, solid, start,
        velocity, reach, dt, speculative, flip_tolerance,
    )  # fmt: skip
    columns = _gather(solid, start, friction, restitution, *found)
    *fields, part_rows, features = columns
    manifolds = Manifolds(*fields, keys=np.full((len(part_rows), 2), -1, dtype=np.int64))
    return manifolds, part_rows, features


@kernel
def _collide_solid(vertices, normals, count, radius, part_reach, solid, start, velocity,
                   reach, dt, speculative, flip_tolerance):  # fmt: skip
    """collide_kernel over the solid pairs, with relative velocities and margins."""
    s = solid.shape[1]
    relative = np.empty((s, 2))
    margin = np.empty(s)
    for i in range(s):
        a, b = solid[2, i], solid[3, i]
        rx = velocity[a, 0] - velocity[b, 0]
        ry = velocity[a, 1] - velocity[b, 1]
        relative[i, 0], relative[i, 1] = rx, ry
        spin = abs(velocity[a, 2]) * reach[a] + abs(velocity[b, 2]) * reach[b]
        margin[i] = speculative + (math.hypot(rx, ry) + spin) * dt
    return collide_kernel(
        vertices, normals, count, radius, part_reach, solid[0], start[solid[2]],
        vertices, normals, count, radius, part_reach, solid[1], start[solid[3]],
        relative, True, np.full(s, dt), margin, flip_tolerance,
    )  # fmt: skip


@kernel
def _gather(solid, start, friction, restitution, separation, normal, toi, points,
            point_separation, point_count, features, a_in_b, b_in_a):  # fmt: skip
    """Manifold columns of the pairs with points, in pair order."""
    rows = np.flatnonzero(point_count > 0)
    m = len(rows)
    body_a = np.empty(m, dtype=np.int64)
    body_b = np.empty(m, dtype=np.int64)
    arm_a = np.zeros((m, 2, 2))
    arm_b = np.zeros((m, 2, 2))
    gap = np.full((m, 2), np.inf)
    mixed_friction = np.empty(m)
    mixed_restitution = np.empty(m)
    part_rows = np.empty((m, 2), dtype=np.int64)
    for i in range(m):
        r = rows[i]
        a, b = solid[2, r], solid[3, r]
        body_a[i], body_b[i] = a, b
        part_rows[i, 0], part_rows[i, 1] = solid[0, r], solid[1, r]
        for p in range(point_count[r]):
            for axis in range(2):
                arm_a[i, p, axis] = points[r, p, axis] - start[a, axis]
                arm_b[i, p, axis] = points[r, p, axis] - start[b, axis]
            gap[i, p] = point_separation[r, p]
        mixed_friction[i] = math.sqrt(friction[a] * friction[b])
        mixed_restitution[i] = max(restitution[a], restitution[b])
    return (
        body_a, body_b, point_count[rows], normal[rows], arm_a, arm_b, gap, mixed_friction,
        mixed_restitution, np.zeros((m, 2)), np.zeros(m), points[rows], part_rows,
        features[rows],
    )  # fmt: skip
