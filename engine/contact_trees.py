"""Exact solves of touching contacts over contact graphs that are trees, in the
sub-stepped solver (``engine.substep``).

A soft contact is a spring, and a column of boxes resting on such springs is an elastic
column: it buckles under its own weight past a critical height, which grows as the
springs' stiffness to the power 2/3 (about 21 m of 1 m boxes at 60 Hz, where a column of
30 needs 101 Hz). One Gauss-Seidel pass per sub-step cannot make a spring stiffer than a
quarter of the sub-step rate hold: a column jitters and falls sooner. Where the touching
manifolds of a component form a tree (a column, a stack, a box on the ground; at most
one of them with a static or kinematic body, no loop), the normal rows of the whole
component are solved at once and exactly, with the springs' compliance on each
manifold's own block (``engine.tree_solve``), after each pass of Gauss-Seidel; being
exact, those springs can be stiffer: ``TREE_STIFFENING`` times the others'.

A soft row's step (``engine.soft_contacts``) is Gauss-Seidel on
    (K + G) dx = -(vn + bias / mass_scale) - G x,   G = K (impulse_scale / mass_scale),
K a manifold's own 2x2 effective-mass block; here the same system is solved with the
whole tree's K. A point still apart, this sub-step, is left to Gauss-Seidel (it may
close its gap and no more, or bounce). A point the exact solve would pull leaves the
active set, its impulse released, and the rest is solved again (``ACTIVE_SET_ROUNDS``
at most): cutting the pull alone and keeping the solve's other impulses threw a body
grazing another at 40-80 m/s. Friction stays with Gauss-Seidel, solved at each visit
before the normal rows.

Bodies on a joint tree (``engine.joint_trees``) keep their contacts on Gauss-Seidel, and
the manifolds are chosen once per step: those with a point touching at its start.
"""

from __future__ import annotations

import numpy as np

from .contact_solver import BLOCK, IM_A, IM_B, K11, K12, K22, NX, NY, RN_A0
from .jit import kernel
from .soft_contacts import (
    ARRIVED0,
    BASE0,
    BIAS_RATE,
    FIXED_STIFFENING,
    IMPULSE_SCALE,
    MASS_SCALE,
    separation_now,
    softness,
)
from .tree_forest import tree_forest
from .tree_solve import solve_trees, tree_workspace

# How many times stiffer than the other contacts the springs of tree-solved ones are:
# 120 Hz at 4 sub-steps of 1/60 s (240 Hz against static bodies), where a column of 30
# boxes needs 101 Hz (its critical height at 120 Hz: 33 m).
TREE_STIFFENING = 2.0

# Solves of a tree pass at most: each drops the points the last one would have pulled.
ACTIVE_SET_ROUNDS = 4


@kernel
def contact_forest(body_a, body_b, count, separation, solve, joint_tree_of, c, inv_mass,
                   inv_inertia):  # fmt: skip
    """The step's contact trees: ``engine.tree_forest.tree_forest`` over the solved
    manifolds with a point touching (separation <= 0) whose bodies are on no joint tree
    (joint_tree_of (N + 1,) -1), numbered for ``engine.tree_solve.solve_trees`` over the
    trees' bodies alone.

    body_a, body_b, count, solve (M,), separation (M, 2): the manifolds' columns; c: their
    prepared rows; inv_mass, inv_inertia (N + 1,). Returns edges (T,), the tree manifolds
    in elimination order; child, parent (T,), each one's bodies as positions in bodies
    (B,), the trees' body rows; child_side (T,): 0 when the child is body A, 1 when B;
    rows (T, 18): each edge's normal rows as ``solve_trees`` reads them, row p (point p)
    (-n, -r_a x n, n, r_b x n), row 2 unused.
    """
    m = len(body_a)
    eligible = np.zeros(m, dtype=np.bool_)
    for i in range(m):
        a, b = body_a[i], body_b[i]
        touching = False
        for p in range(count[i]):
            touching = touching or separation[i, p] <= 0.0
        eligible[i] = solve[i] and touching and joint_tree_of[a] < 0 and joint_tree_of[b] < 0
    order, child_of, parent_of, side_of, _ = tree_forest(
        body_a, body_b, eligible, inv_mass, inv_inertia
    )
    t = len(order)
    child = np.empty(t, dtype=np.int64)
    parent = np.empty(t, dtype=np.int64)
    child_side = np.empty(t, dtype=np.int64)
    rows = np.zeros((t, 18))
    local = np.full(len(inv_mass) if t > 0 else 0, -1, dtype=np.int64)
    bodies = np.empty(2 * t, dtype=np.int64)
    found = 0
    for k in range(t):
        i = order[k]
        for body in (child_of[i], parent_of[i]):
            if local[body] < 0:
                local[body] = found
                bodies[found] = body
                found += 1
        child[k], parent[k] = local[child_of[i]], local[parent_of[i]]
        child_side[k] = side_of[i]
        nx, ny = c[i, NX], c[i, NY]
        for p in range(count[i]):
            rows[k, 6 * p + 0] = -nx
            rows[k, 6 * p + 1] = -ny
            rows[k, 6 * p + 2] = -c[i, RN_A0 + 2 * p]
            rows[k, 6 * p + 3] = nx
            rows[k, 6 * p + 4] = ny
            rows[k, 6 * p + 5] = c[i, RN_A0 + 2 * p + 1]
    return order, child, parent, child_side, bodies[:found].copy(), rows


@kernel
def stiffen_tree_springs(soft, c, edges, hertz, damping_ratio, h):
    """Give the tree manifolds (edges (T,)) their stiffer springs in soft
    (M, SOFT_COLUMNS), in place; c: the prepared rows (zero inverse mass on a static or
    kinematic side); hertz, damping_ratio: the other contacts' spring; h: the sub-step."""
    loose = softness(TREE_STIFFENING * hertz, damping_ratio, h)
    stiff = softness(
        TREE_STIFFENING * FIXED_STIFFENING * hertz, FIXED_STIFFENING * damping_ratio, h
    )
    for i in edges:
        spring = stiff if c[i, IM_A] == 0.0 or c[i, IM_B] == 0.0 else loose
        soft[i, BIAS_RATE], soft[i, MASS_SCALE], soft[i, IMPULSE_SCALE] = spring


@kernel
def solve_contact_trees(trees, c, soft, count, body_a, body_b, core_a, core_b,
                        normal_impulse, velocity, moved, turn, inv_mass, inv_inertia, push,
                        use_bias):  # fmt: skip
    """One exact pass over the tree manifolds' touching points (see the module's
    docstring): biased (their springs) or not (the relax passes: rigid, no bias).

    trees: what ``contact_forest`` returns; c, soft: prepared rigid and soft rows; count,
    body_a, body_b (M,); core_a, core_b (M, 2, 2): the points' arms to what turns with
    each body; normal_impulse (M, 2): this sub-step's accumulated impulses, changed in
    place, as are velocity (N + 1, 3) and (biased) the points' ARRIVED marks; moved
    (N + 1, 3), turn (N + 1, 2): each body's displacement and the cos and sin of its turn
    since the step start; inv_mass, inv_inertia (N + 1,); push: the fastest push-out speed.
    """
    edges, child, parent, child_side, bodies, rows = trees
    t = len(edges)
    if t == 0:
        return
    touching = np.zeros((t, 2), dtype=np.bool_)
    bias = np.zeros((t, 2))
    for k in range(t):
        i = edges[k]
        a, b = body_a[i], body_b[i]
        nx, ny = c[i, NX], c[i, NY]
        dx, dy = moved[b, 0] - moved[a, 0], moved[b, 1] - moved[a, 1]
        ca, sa, cb, sb = turn[a, 0], turn[a, 1], turn[b, 0], turn[b, 1]
        for p in range(count[i]):
            s = separation_now(
                soft[i, BASE0 + p], core_a[i, p, 0], core_a[i, p, 1], core_b[i, p, 0],
                core_b[i, p, 1], nx, ny, dx, dy, ca, sa, cb, sb,
            )  # fmt: skip
            # Both points only where their 2x2 block is well conditioned (as Gauss-Seidel
            # solves them together); else the first, the second left to Gauss-Seidel.
            touching[k, p] = s <= 0.0 and (p == 0 or c[i, BLOCK] > 0.0)
            if use_bias and touching[k, p]:
                # The spring's bias over its mass scale, capped at the push-out speed as
                # Gauss-Seidel caps it.
                bias[k, p] = max(soft[i, BIAS_RATE] * s, -push / soft[i, MASS_SCALE])
    # The trees' bodies alone: their velocities, inverse masses and inertias.
    nb = len(bodies)
    mass = np.empty(nb)
    inertia = np.empty(nb)
    start = np.empty((nb, 3))
    for q in range(nb):
        mass[q], inertia[q] = inv_mass[bodies[q]], inv_inertia[bodies[q]]
        for axis in range(3):
            start[q, axis] = velocity[bodies[q], axis]
    local = start.copy()
    sequence = np.arange(t)
    used = np.zeros((t, 3), dtype=np.bool_)
    target = np.zeros((t, 3))
    compliance = np.zeros((t, 3, 3))
    change = np.zeros((t, 3))
    work = tree_workspace(nb, t)
    solved = False
    for _ in range(ACTIVE_SET_ROUNDS):
        for k in range(t):
            i = edges[k]
            # G = K impulse_scale / mass_scale on the biased pass; rigid when relaxing.
            gamma = soft[i, IMPULSE_SCALE] / soft[i, MASS_SCALE] if use_bias else 0.0
            k_local = ((c[i, K11], c[i, K12]), (c[i, K12], c[i, K22]))
            for r in range(2):
                used[k, r] = touching[k, r]
                target[k, r] = -bias[k, r]
                change[k, r] = 0.0
            for r in range(2):
                for q in range(2):
                    coupled = used[k, r] and used[k, q]
                    compliance[k, r, q] = gamma * k_local[r][q] if coupled else 0.0
                    if coupled:
                        target[k, r] -= gamma * k_local[r][q] * normal_impulse[i, q]
        local[:, :] = start
        solve_trees(
            sequence, child, parent, child_side, used, rows, 0, target, mass, inertia, local,
            change, compliance, work,
        )  # fmt: skip
        # A point the solve would pull leaves the active set: its impulse is released
        # (from the start of this solve) and the rest solved again.
        pulled = False
        for k in range(t):
            i = edges[k]
            for p in range(2):
                if used[k, p] and normal_impulse[i, p] + change[k, p] < 0.0:
                    touching[k, p] = False
                    pulled = True
                    a, b = (child[k], parent[k]) if child_side[k] == 0 else (parent[k], child[k])
                    _release(start, rows, k, p, a, b, normal_impulse[i, p], mass, inertia)
                    normal_impulse[i, p] = 0.0
        if not pulled:
            for k in range(t):
                i = edges[k]
                for p in range(2):
                    if used[k, p]:
                        normal_impulse[i, p] += change[k, p]
                        if use_bias:
                            soft[i, ARRIVED0 + p] = 1.0 if normal_impulse[i, p] > 0.0 else 0.0
            solved = True
            break
    if not solved:
        # No active set found in as many rounds: Gauss-Seidel's answer stands, less the
        # pulls released.
        local[:, :] = start
    for q in range(nb):
        for axis in range(3):
            velocity[bodies[q], axis] = local[q, axis]


@kernel(inline=True)
def _release(velocity, rows, k, p, a, b, impulse, inv_mass, inv_inertia):
    """Take the normal impulse of point p of tree edge k (rows (T, 18)) back out of
    velocity (B, 3); a, b: its bodies' positions there."""
    for axis in range(3):
        inverse = inv_inertia if axis == 2 else inv_mass
        velocity[a, axis] -= inverse[a] * rows[k, 6 * p + axis] * impulse
        velocity[b, axis] -= inverse[b] * rows[k, 6 * p + 3 + axis] * impulse
