"""Positional correction: push overlapping bodies apart along the contact normal.

After the velocity solve and the position update, contact points that are still deeper
than the slop are pushed apart along their normal (the minimum translation direction),
split by inverse mass. Only the normal component is corrected, so a body pressed against a
wall or a slope keeps sliding along it. The passes run colour by colour, like the solver,
so each push sees the pushes before it.

The rule, step by step (it must stay the same in any other implementation):

1. Gaps are linear: a manifold's gap is the smaller of its two points' separations at the
   step start, plus how far its bodies' turns moved the points along the normal, plus the
   relative displacement of the bodies along the normal since the step start.
2. Two kinds of manifold: *dynamic* ones join two dynamic bodies; *static* ones have a
   body with zero inverse mass (static or kinematic), which push-out never moves.
3. Each pass pushes the dynamic manifolds, colour by colour, then the static ones, colour
   by colour, so every pass ends by pushing bodies out of static geometry. A manifold's
   push is CORRECTION_FACTOR times its depth beyond the slop, at most MAX_CORRECTION,
   shared by the bodies in proportion to their inverse masses.
4. Cap per body: over one step, the pushes a body gets from dynamic manifolds add up (in
   length) to at most MAX_CORRECTION, and so do those it gets from static manifolds. A
   push that would go past either body's remaining allowance is shortened for both bodies
   (the split is kept). So fifty boxes spawned on one spot cannot fling one of them far.
5. A guard over the static manifolds, colour by colour: each is given back at least the
   gap it had before push-out began (after the step's motion), or minus the slop if that
   is shallower. This push is not capped: it only undoes moves that push-out made.
6. A sweep against static shapes the body was not touching: each pushed dynamic body's
   whole push (from its position before push-out) is swept, as a translation, against
   the static and kinematic parts near it that it would collide with; it stops a slop
   short of the first one it would enter (a push ending less than a slop past a surface
   is kept, as a landing, so only pushes longer than the slop need sweeping). So a thin
   plank the body had no contact with cannot be passed.
7. Last, a body that rule 6 stopped so that one of its static manifolds is again deeper
   than rule 5 allows (a body wedged between two static shapes) keeps no push-out at all
   this step: it goes back to where the step's motion left it.

Together: push-out only ever moves a body out of static geometry, never into it or
through it; what it cannot resolve this way is left for the next steps.
"""

from __future__ import annotations

import numpy as np

from .narrowphase import collide_parts
from .settings import CORRECTION_FACTOR, LINEAR_SLOP, MAX_CORRECTION


def rotated(vectors: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """(M, 2) vectors turned by (M,) angles."""
    c, s = np.cos(angles), np.sin(angles)
    return np.column_stack(
        [c * vectors[:, 0] - s * vectors[:, 1], s * vectors[:, 0] + c * vectors[:, 1]]
    )


def correct_positions(
    manifolds, colours, positions, start_positions, turned, inv_mass, passes, sweep=None
):
    """Move ``positions`` (N, 2) in place to remove overlap beyond the slop (rule above).

    manifolds: the step's Manifolds (normal, arms and separations at the step start);
    colours: manifold rows of each colour (no two rows of a colour share a dynamic body);
    start_positions: (N, 2) at the step start; turned: (N,) angle each body turned this
    step; inv_mass: (N,). sweep: rule 6, a function ``sweep(before, positions)`` that
    shortens the pushes ``positions - before`` (both (N, 2)) in place (see
    :func:`stop_at_static`); None leaves it out.
    """
    if len(manifolds) == 0 or passes == 0:
        return
    unpushed = positions.copy()
    a, b, n = manifolds.body_a, manifolds.body_b, manifolds.normal
    # How far each point moved because its body turned: the turn is not corrected.
    base = np.empty((len(a), 2))
    for p in (0, 1):
        spin_a = rotated(manifolds.arm_a[:, p], turned[a]) - manifolds.arm_a[:, p]
        spin_b = rotated(manifolds.arm_b[:, p], turned[b]) - manifolds.arm_b[:, p]
        base[:, p] = manifolds.separation[:, p] + np.einsum("ij,ij->i", spin_b - spin_a, n)
    base = np.minimum(base[:, 0], base[:, 1])  # the deeper point decides
    inv_a, inv_b = inv_mass[a], inv_mass[b]
    total = inv_a + inv_b
    with np.errstate(divide="ignore", invalid="ignore"):
        share_a = np.where(total > 0, inv_a / total, 0.0)
        share_b = np.where(total > 0, inv_b / total, 0.0)
    static = (inv_a == 0.0) | (inv_b == 0.0)

    def gap(rows: np.ndarray) -> np.ndarray:
        """(M,) linear gap of manifolds ``rows`` at the current positions (inf: none)."""
        ia, ib = a[rows], b[rows]
        moved = (positions[ib] - start_positions[ib]) - (positions[ia] - start_positions[ia])
        return base[rows] + np.einsum("ij,ij->i", moved, n[rows])

    def push(rows: np.ndarray, amount: np.ndarray) -> None:
        """Move the bodies of manifolds ``rows`` apart by ``amount`` (M,) along the normal."""
        step = amount[:, None] * n[rows]
        positions[a[rows]] -= step * share_a[rows, None]
        positions[b[rows]] += step * share_b[rows, None]

    def capped(rows: np.ndarray, amount: np.ndarray, allowance: np.ndarray) -> np.ndarray:
        """``amount`` shortened to what both bodies may still move; spends the allowance."""
        with np.errstate(divide="ignore", invalid="ignore"):
            room_a = np.where(share_a[rows] > 0, allowance[a[rows]] / share_a[rows], np.inf)
            room_b = np.where(share_b[rows] > 0, allowance[b[rows]] / share_b[rows], np.inf)
        amount = np.maximum(np.minimum(amount, np.minimum(room_a, room_b)), 0.0)
        allowance[a[rows]] -= amount * share_a[rows]
        allowance[b[rows]] -= amount * share_b[rows]
        return amount

    with np.errstate(invalid="ignore"):
        before = gap(np.arange(len(a)))  # after the step's motion, before any push
    # Only manifolds deeper than the slop now need pushing; resting contacts sit within
    # it, so most colours shrink to a few rows. Static manifolds are all guarded (rule 5).
    deep = before < -LINEAR_SLOP
    dynamic_rows = [rows[deep[rows] & ~static[rows]] for rows in colours]
    static_rows = [rows[deep[rows] & static[rows]] for rows in colours]
    dynamic_rows = [rows for rows in dynamic_rows if len(rows)]
    static_rows = [rows for rows in static_rows if len(rows)]
    allowances = (np.full(len(positions), MAX_CORRECTION), np.full(len(positions), MAX_CORRECTION))
    for _ in range(passes):
        for groups, allowance in zip((dynamic_rows, static_rows), allowances):
            for rows in groups:
                depth = -gap(rows) - LINEAR_SLOP
                amount = np.clip(
                    CORRECTION_FACTOR * np.where(np.isfinite(depth), depth, 0.0),
                    0.0,
                    MAX_CORRECTION,
                )
                push(rows, capped(rows, amount, allowance))
    if not dynamic_rows and not static_rows:
        return
    guarded = [rows[static[rows] & np.isfinite(before[rows])] for rows in colours]
    guarded = [rows for rows in guarded if len(rows)]
    for rows in guarded:
        shortfall = np.minimum(before[rows], -LINEAR_SLOP) - gap(rows)
        push(rows, np.maximum(shortfall, 0.0))
    if sweep is None:
        return
    sweep(unpushed, positions)
    for rows in guarded:
        # Rounding in the guard's own push must not count as deeper: a micron of a slop.
        deeper = gap(rows) < np.minimum(before[rows], -LINEAR_SLOP) - 1e-6 * LINEAR_SLOP
        body = np.where(share_a[rows] > 0, a[rows], b[rows])[deeper]
        positions[body] = unpushed[body]


def stop_at_static(parts, pairs, before, positions, angles) -> None:
    """Rule 6: shorten pushes in place so that none enters a static shape it did not touch.

    parts: the world's PackedParts; pairs: (mover_part, other_part, mover, other), each
    (M,) int64, candidate part pairs of pushed dynamic bodies (mover) and the static or
    kinematic bodies near their pushes; before: (N, 2) positions before push-out;
    positions: (N, 2) after it, changed in place; angles: (N,) final angles.
    """
    mover_part, other_part, mover, other = pairs
    if len(mover) == 0:
        return
    push = positions - before
    poses = np.column_stack([before, angles])
    found = collide_parts(
        parts, mover_part, poses[mover], parts, other_part, poses[other], push[mover], 1.0
    )
    closing = np.einsum("ij,ij->i", push[mover], found.normal)
    # Pairs touching before the push are rule 5's; a push that ends less than a slop past
    # a surface is a landing, and the contact takes it from the next step.
    overshoot = closing * (1.0 - np.nan_to_num(found.toi, nan=1.0))
    hit = (found.separation > 0.0) & ~np.isnan(found.toi) & (overshoot > LINEAR_SLOP)
    if not hit.any():
        return
    allowed = np.ones(len(positions))
    with np.errstate(divide="ignore"):
        stop = np.maximum(found.toi[hit] - LINEAR_SLOP / closing[hit], 0.0)
    np.minimum.at(allowed, mover[hit], stop)
    stopped = np.unique(mover[hit])
    positions[stopped] = before[stopped] + push[stopped] * allowed[stopped, None]
