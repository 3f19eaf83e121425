"""Narrow phase for the step: solid part pairs in, warm-started contact manifolds out.

Each pair is swept with its bodies' relative velocity, keeping contact points up to a
margin ahead of touching (speculative contacts): the speculative distance plus how far the
pair can close in the step, its relative speed and both bodies' turning at their reach.
Pairs with at least one point become manifolds, with each point's arms from the bodies'
centres, the mixed materials of the two parts (friction sqrt(fa fb), restitution
max(ea, eb), as Box2D mixes them; each part's own: its shape's, else its body's), the
overlap they may keep at rest (``engine.contact_slop``), their part rows, and their
warm-start names and last step's impulses.
"""

from __future__ import annotations

import math

import numpy as np

from .contact_slop import slop_of
from .contact_solver import Manifolds
from .jit import kernel
from .narrowphase import collide_kernel
from .rotation import cos_sin
from .warm_start import load_impulses

# The manifolds of a step where no parts are near each other.
NO_MANIFOLDS = Manifolds(
    body_a=np.zeros(0, dtype=np.int64),
    body_b=np.zeros(0, dtype=np.int64),
    count=np.zeros(0, dtype=np.int64),
    normal=np.zeros((0, 2)),
    arm_a=np.zeros((0, 2, 2)),
    arm_b=np.zeros((0, 2, 2)),
    separation=np.zeros((0, 2)),
    friction=np.zeros(0),
    restitution=np.zeros(0),
    normal_impulse=np.zeros((0, 2)),
    tangent_impulse=np.zeros(0),
    points=np.zeros((0, 2, 2)),
    keys=np.zeros((0, 2), dtype=np.int64),
    slop=np.zeros(0),
    parts=np.zeros((0, 2), dtype=np.int64),
)


@kernel
def no_manifold_columns():
    """The columns of no manifolds, in ``Manifolds`` order and of the types
    ``manifold_columns`` gives (for compiled code; Python has ``NO_MANIFOLDS``)."""
    return (
        np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64),
        np.zeros((0, 2)), np.zeros((0, 2, 2)), np.zeros((0, 2, 2)), np.zeros((0, 2)),
        np.zeros(0), np.zeros(0), np.zeros((0, 2)), np.zeros(0), np.zeros((0, 2, 2)),
        np.zeros((0, 2), dtype=np.int64), np.zeros(0), np.zeros((0, 2), dtype=np.int64),
    )  # fmt: skip


@kernel
def manifold_columns(vertices, normals, count, radius, part_reach, solid, start, velocity,
                     reach, friction, restitution, thickness, dt, speculative, flip_tolerance,
                     world_slop, cache_keys, cache_normal, cache_tangent):  # fmt: skip
    """The step's manifolds' columns, in ``engine.contact_solver.Manifolds`` order and
    in the order of the solid pairs that have points.

    Parts: vertices, normals (P, K, 2), count, radius, part_reach (P,); solid: (4, S) rows
    part_a, part_b, body_a, body_b; start: (N + 1, 3) poses; velocity: (N + 1, 3) after
    forces; reach, thickness: (N,) per body; friction, restitution: (P,) per part;
    world_slop: the world's; cache_keys, cache_normal, cache_tangent: the warm-start
    cache's (``engine.warm_start``).
    """
    s = solid.shape[1]
    relative = np.empty((s, 2))
    margin = np.empty(s)
    for i in range(s):
        a, b = solid[2, i], solid[3, i]
        rx = velocity[a, 0] - velocity[b, 0]
        ry = velocity[a, 1] - velocity[b, 1]
        relative[i, 0], relative[i, 1] = rx, ry
        spin = abs(velocity[a, 2]) * reach[a] + abs(velocity[b, 2]) * reach[b]
        margin[i] = speculative + (math.sqrt(rx * rx + ry * ry) + spin) * dt
    # No sweep: the manifolds need points within the margin, not the time of impact (the
    # positions stage sweeps fast bodies again with their final velocities).
    # A flag computed at run time: a literal would compile the narrow phase once more.
    sweep = dt < 0.0
    # Each body's cos and sin once, not once per pair.
    n = len(reach)
    turn = np.empty((n, 2))
    for body in range(n):
        turn[body, 0], turn[body, 1] = cos_sin(start[body, 2])
    found = collide_kernel(
        vertices, normals, count, radius, part_reach, solid[0], start[solid[2]],
        turn[solid[2]],
        vertices, normals, count, radius, part_reach, solid[1], start[solid[3]],
        turn[solid[3]],
        relative, sweep, np.full(s, dt), margin, flip_tolerance,
    )  # fmt: skip
    normal, points, point_separation, point_count, features = (
        found[1],
        found[3],
        found[4],
        found[5],
        found[6],
    )
    rows = np.flatnonzero(point_count > 0)
    m = len(rows)
    # Where every pair has points (a stack, a pile) the found columns are kept as they are.
    every = m == s
    body_a = np.empty(m, dtype=np.int64)
    body_b = np.empty(m, dtype=np.int64)
    arm_a = np.zeros((m, 2, 2))
    arm_b = np.zeros((m, 2, 2))
    gap = np.full((m, 2), np.inf)
    mixed_friction = np.empty(m)
    mixed_restitution = np.empty(m)
    slop = np.empty(m)
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
        pa, pb = solid[0, r], solid[1, r]
        mixed_friction[i] = math.sqrt(friction[pa] * friction[pb])
        mixed_restitution[i] = max(restitution[pa], restitution[pb])
        slop[i] = slop_of(world_slop, min(thickness[a], thickness[b]))
    normal_impulse = np.zeros((m, 2))
    tangent_impulse = np.zeros(m)
    keys = np.empty((m, 2), dtype=np.int64)
    load_impulses(
        cache_keys, cache_normal, cache_tangent, part_rows,
        features if every else features[rows], keys, normal_impulse, tangent_impulse,
    )  # fmt: skip
    return (
        body_a, body_b, point_count if every else point_count[rows],
        normal if every else normal[rows], arm_a, arm_b, gap, mixed_friction,
        mixed_restitution, normal_impulse, tangent_impulse,
        points if every else points[rows], keys, slop, part_rows,
    )  # fmt: skip
