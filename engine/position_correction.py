"""Positional correction: push overlapping bodies apart along the contact normal.

After the velocity solve and the position update, contact points that are still deeper
than the slop are pushed apart along their normal (the minimum translation direction),
split by inverse mass. Only the normal component is corrected, so a body pressed against a
wall or a slope keeps sliding along it. The passes run colour by colour, like the solver,
so each push sees the pushes before it.
"""

from __future__ import annotations

import numpy as np

from .settings import CORRECTION_FACTOR, LINEAR_SLOP, MAX_CORRECTION


def rotated(vectors: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """(M, 2) vectors turned by (M,) angles."""
    c, s = np.cos(angles), np.sin(angles)
    return np.column_stack(
        [c * vectors[:, 0] - s * vectors[:, 1], s * vectors[:, 0] + c * vectors[:, 1]]
    )


def correct_positions(manifolds, colours, positions, start_positions, turned, inv_mass, passes):
    """Move ``positions`` (N, 2) in place to remove overlap beyond the slop.

    manifolds: the step's Manifolds (normal, arms and separations at the step start);
    colours: manifold rows of each colour; start_positions: (N, 2) at the step start;
    turned: (N,) angle each body turned this step; inv_mass: (N,).
    """
    if len(manifolds) == 0 or passes == 0:
        return
    a, b, n = manifolds.body_a, manifolds.body_b, manifolds.normal
    # How far each point moved because its body turned: the turn is not corrected.
    base = np.empty((len(a), 2))
    for p in (0, 1):
        spin_a = rotated(manifolds.arm_a[:, p], turned[a]) - manifolds.arm_a[:, p]
        spin_b = rotated(manifolds.arm_b[:, p], turned[b]) - manifolds.arm_b[:, p]
        base[:, p] = manifolds.separation[:, p] + np.einsum("ij,ij->i", spin_b - spin_a, n)
    inv_a, inv_b = inv_mass[a], inv_mass[b]
    total = inv_a + inv_b
    with np.errstate(divide="ignore", invalid="ignore"):
        share_a = np.where(total > 0, inv_a / total, 0.0)[:, None]
        share_b = np.where(total > 0, inv_b / total, 0.0)[:, None]
    # Only manifolds deeper than the slop after the move need pushing; resting contacts
    # sit within it, so most colours shrink to a few rows.
    moved = (positions[b] - start_positions[b]) - (positions[a] - start_positions[a])
    deep = np.minimum(base[:, 0], base[:, 1]) + np.einsum("ij,ij->i", moved, n) < -LINEAR_SLOP
    active = [rows[deep[rows]] for rows in colours]
    active = [rows for rows in active if len(rows)]
    for _ in range(passes):
        for rows in active:
            ia, ib, normal = a[rows], b[rows], n[rows]
            moved = (positions[ib] - start_positions[ib]) - (positions[ia] - start_positions[ia])
            along = np.einsum("ij,ij->i", moved, normal)
            # The deeper point of the manifold decides: one push per manifold and pass.
            gap = np.minimum(base[rows, 0], base[rows, 1]) + along
            depth = np.where(np.isfinite(gap), -gap - LINEAR_SLOP, 0.0)
            push = np.clip(CORRECTION_FACTOR * depth, 0.0, MAX_CORRECTION)[:, None] * normal
            positions[ia] -= push * share_a[rows]
            positions[ib] += push * share_b[rows]
