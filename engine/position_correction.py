"""Positional correction: push overlapping bodies apart along the contact normal.

After the velocity solve and the position update, contact points that are still deeper
than the slop are pushed apart along their normal (the minimum translation direction),
split by inverse mass. Only the normal component is corrected, so a body pressed against a
wall or a slope keeps sliding along it. Manifolds are visited one after the other, each
push seeing the pushes before it.
"""

from __future__ import annotations

import math

import numpy as np

from .jit import kernel


@kernel
def correct_positions(
    body_a, body_b, normal, arm_a, arm_b, separation, solve, poses, start_poses,
    turned, inv_mass, passes, slop, factor, max_correction,
):  # fmt: skip
    """Move the positions of ``poses`` (N + 1, 3) in place to remove overlap beyond ``slop``.

    Manifold columns (M,) as in ``engine.contact_solver.Manifolds`` (normal, arms and
    separations at the step start); solve: (M,) bool, the manifolds that may move
    something; start_poses: (N + 1, 3) at the step start; turned: (N + 1,) angle each
    body turned this step; inv_mass: (N + 1,). Each pass removes ``factor`` of a manifold's
    remaining overlap, at most ``max_correction``.
    """
    m = len(body_a)
    base = np.empty((m, 2))
    share = np.zeros((m, 2))
    deep = np.zeros(m, dtype=np.bool_)
    for i in range(m):
        if not solve[i]:
            continue
        a, b = body_a[i], body_b[i]
        nx, ny = normal[i, 0], normal[i, 1]
        # How far each point moved because its body turned: the turn is not corrected.
        ca, sa = math.cos(turned[a]), math.sin(turned[a])
        cb, sb = math.cos(turned[b]), math.sin(turned[b])
        for p in range(2):
            ax, ay = arm_a[i, p, 0], arm_a[i, p, 1]
            bx, by = arm_b[i, p, 0], arm_b[i, p, 1]
            spin_x = (cb * bx - sb * by - bx) - (ca * ax - sa * ay - ax)
            spin_y = (sb * bx + cb * by - by) - (sa * ax + ca * ay - ay)
            base[i, p] = separation[i, p] + (spin_x * nx + spin_y * ny)
        total = inv_mass[a] + inv_mass[b]
        if total > 0.0:
            share[i, 0] = inv_mass[a] / total
            share[i, 1] = inv_mass[b] / total
        # Only manifolds deeper than the slop after the move need pushing; resting
        # contacts sit within it.
        deep[i] = _gap(i, a, b, base, normal, poses, start_poses) < -slop
    rows = np.flatnonzero(deep)
    for _ in range(passes):
        for i in rows:
            a, b = body_a[i], body_b[i]
            gap = _gap(i, a, b, base, normal, poses, start_poses)
            depth = -gap - slop if math.isfinite(gap) else 0.0
            push = min(max(factor * depth, 0.0), max_correction)
            px, py = push * normal[i, 0], push * normal[i, 1]
            poses[a, 0] -= px * share[i, 0]
            poses[a, 1] -= py * share[i, 0]
            poses[b, 0] += px * share[i, 1]
            poses[b, 1] += py * share[i, 1]


@kernel(inline=True)
def _gap(i, a, b, base, normal, poses, start_poses):
    """The deeper point's gap of manifold i now: its start gap plus how far the bodies
    moved apart along the normal."""
    moved_x = (poses[b, 0] - start_poses[b, 0]) - (poses[a, 0] - start_poses[a, 0])
    moved_y = (poses[b, 1] - start_poses[b, 1]) - (poses[a, 1] - start_poses[a, 1])
    return min(base[i, 0], base[i, 1]) + (moved_x * normal[i, 0] + moved_y * normal[i, 1])
