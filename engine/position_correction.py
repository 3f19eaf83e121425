"""Positional correction (push-out): move overlapping bodies apart along the contact normal,
and never into or through static geometry.

After the sub-steps (``engine.substep``, once some overlap is deeper than its springs
hold), contact points still deeper than the slop (each manifold's own, see
``engine.contact_slop``; each body's in rules 6 and 7) are pushed apart along their normal
(the minimum translation direction), split by inverse mass. Only the normal component is
corrected, so a body pressed against a wall or a slope keeps sliding along it. Manifolds
are visited one after the other, each push seeing the pushes before it.

The rule, step by step:

1. Gaps are linear: a manifold's gap is the smaller of its two points' separations at the
   step start, plus how far its bodies' turns moved the points along the normal (on a
   round part, the core point: a ball rolls under its contact, ``engine.contact_cores``),
   plus the relative displacement of the bodies along the normal since the step start.
2. Two kinds of manifold: *dynamic* ones join two dynamic bodies; *static* ones have a
   body with zero inverse mass (static or kinematic), which push-out never moves.
3. Nothing is pushed unless some manifold is deeper than its slop; then every manifold
   takes part. Each pass pushes the dynamic manifolds, then the static ones, so every
   pass ends by pushing bodies out of static geometry. A manifold's push is ``factor``
   times its depth beyond the slop, at most ``max_correction``, shared by the bodies in
   proportion to their inverse masses. The manifolds of small bodies (a slop below the
   world's) first get as many passes of their own.
4. Cap per body: over one step, the pushes a body gets from dynamic manifolds add up (in
   length) to at most ``max_correction``, and so do those it gets from static manifolds.
   A push that would go past either body's remaining allowance is shortened for both
   bodies (the split is kept). So fifty boxes spawned on one spot cannot fling one far.
5. A guard over the static manifolds: each is given back at least the gap it had before
   push-out began (after the step's motion), or minus the slop if that is shallower. This
   push is not capped: it only undoes moves that push-out made.
6. A sweep against static shapes the body was not touching (more than half a slop away): each
   dynamic body pushed more than the slop has its whole push (from its position before
   push-out) swept, as a translation, against the static and kinematic parts near it that
   it would collide with; it stops a slop short of the first one it would enter (a push
   ending less than half a slop past a surface is kept, as a landing). So a thin plank
   the body had no contact with cannot be passed. (The landing allowance is not a whole
   slop: a body stopped a slop short and pushed again would often end exactly a slop
   past, where rounding alone would decide.)
7. Last, a body that rule 6 stopped so that one of its static manifolds is again deeper
   than rule 5 allows (a body wedged between two static shapes) keeps no push-out at all
   this step: it goes back to where the step's motion left it.

Together: push-out only ever moves a body out of static geometry, never into it or through
it; what it cannot resolve this way is left for the next steps.
"""

from __future__ import annotations

import math

import numpy as np

from .body_store import DYNAMIC
from .candidate_pairs import holds_key, pair_key, pairs_among
from .jit import kernel
from .narrowphase import collide_kernel


@kernel
def correct_positions(contacts, solve, poses, start, turned, inv_mass, passes, settings,
                      body_slop, sweep):  # fmt: skip
    """Move the positions of ``poses`` (N + 1, 3) in place by the rule above.

    contacts: (body_a, body_b, normal, arm_a, arm_b, separation, slop), the step's
    manifold columns (M,) (see ``engine.contact_solver.Manifolds``), the arms to what
    turns with each body (``engine.contact_cores``); solve: (M,) bool, the
    manifolds that may move something; start: (N + 1, 3) poses at the step start; turned:
    (N + 1,) angle each body turned this step; inv_mass: (N + 1,); settings: (factor,
    max_correction); body_slop: (N + 1,) each body's slop (``engine.contact_slop``); sweep:
    the tuple ``stop_at_static`` takes after the poses and slops.
    """
    body_a, body_b, normal, arm_a, arm_b, separation, slop = contacts
    factor, max_correction = settings
    m = len(body_a)
    if m == 0 or passes == 0:
        return
    n = len(inv_mass) - 1
    unpushed = poses.copy()
    base = np.full(m, np.inf)
    share = np.zeros((m, 2))
    static = np.zeros(m, dtype=np.bool_)
    before = np.full(m, np.inf)
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
            base[i] = min(base[i], separation[i, p] + (spin_x * nx + spin_y * ny))
        total = inv_mass[a] + inv_mass[b]
        if total > 0.0:
            share[i, 0] = inv_mass[a] / total
            share[i, 1] = inv_mass[b] / total
        static[i] = inv_mass[a] == 0.0 or inv_mass[b] == 0.0
        before[i] = _gap(i, a, b, base, normal, poses, start)
    # Resting contacts sit within their slop: with none deeper, nothing needs pushing.
    if not np.any(before < -slop):
        return
    # Otherwise every contact takes part, as one within its slop may be pushed deeper by
    # the others' pushes: choosing once by depth would make the outcome jump when a
    # contact's depth crosses its slop by a rounding error.
    touching = np.flatnonzero(before < np.inf)
    # The contacts of small bodies first get passes of their own; the margin, far above
    # rounding, gives a body exactly 50 slops thick (a 25 cm box) the same passes at every
    # scale.
    fine = touching[slop[touching] < (1.0 - 1e-9) * body_slop[n]]
    allowance = np.full((n + 1, 2), max_correction)  # dynamic pushes, static pushes
    for round_ in range(2 * passes if len(fine) else passes):
        chosen = fine if round_ < passes and len(fine) else touching
        for kind in range(2):
            for i in chosen:
                if static[i] != (kind == 1):
                    continue
                a, b = body_a[i], body_b[i]
                depth = -_gap(i, a, b, base, normal, poses, start) - slop[i]
                amount = min(max(factor * depth, 0.0), max_correction)
                # Both bodies' remaining allowances bound the push (the split is kept).
                if share[i, 0] > 0.0:
                    amount = min(amount, allowance[a, kind] / share[i, 0])
                if share[i, 1] > 0.0:
                    amount = min(amount, allowance[b, kind] / share[i, 1])
                amount = max(amount, 0.0)
                allowance[a, kind] -= amount * share[i, 0]
                allowance[b, kind] -= amount * share[i, 1]
                _push(i, a, b, amount, normal, share, poses)
    for i in range(m):
        if static[i] and math.isfinite(before[i]):
            a, b = body_a[i], body_b[i]
            shortfall = min(before[i], -slop[i]) - _gap(i, a, b, base, normal, poses, start)
            _push(i, a, b, max(shortfall, 0.0), normal, share, poses)
    stop_at_static(unpushed, poses, body_slop, *sweep)
    for i in range(m):
        if static[i] and math.isfinite(before[i]):
            a, b = body_a[i], body_b[i]
            # Rounding in the guard's own push must not count as deeper: a micron of a slop.
            limit = min(before[i], -slop[i]) - 1e-6 * slop[i]
            if _gap(i, a, b, base, normal, poses, start) < limit:
                body = a if share[i, 0] > 0.0 else b
                poses[body, 0], poses[body, 1] = unpushed[body, 0], unpushed[body, 1]


@kernel(inline=True)
def _gap(i, a, b, base, normal, poses, start):
    """Manifold i's gap now: its base gap plus how far the bodies moved apart along the
    normal since the step start."""
    moved_x = (poses[b, 0] - start[b, 0]) - (poses[a, 0] - start[a, 0])
    moved_y = (poses[b, 1] - start[b, 1]) - (poses[a, 1] - start[a, 1])
    return base[i] + (moved_x * normal[i, 0] + moved_y * normal[i, 1])


@kernel(inline=True)
def _push(i, a, b, amount, normal, share, poses):
    """Move manifold i's bodies apart by ``amount`` along its normal, split by share."""
    px, py = amount * normal[i, 0], amount * normal[i, 1]
    poses[a, 0] -= px * share[i, 0]
    poses[a, 1] -= py * share[i, 0]
    poses[b, 0] += px * share[i, 1]
    poses[b, 1] += py * share[i, 1]


@kernel
def stop_at_static(unpushed, poses, slop, parts, owner, bodies, ignored, step_pairs, margin):
    """Rule 6: shorten the pushes ``poses - unpushed`` (N + 1, 3) in place so that none
    enters a static or kinematic shape it did not touch; slop: (N + 1,) each body's.
    Returns whether any stopped.

    parts: (vertices, normals, count, radius, reach) of the world's part table, owner (P,)
    their bodies; bodies: (kind, sensor, category, mask, group, body_id, jointed) as
    ``classify_pairs`` takes them (sensor to group per part); ignored: sorted keys of the
    body pairs presolve dropped;
    step_pairs: (4, S) the step's solid candidate pairs, found with boxes grown by
    ``margin``.
    """
    vertices, normals, count, radius, part_reach = parts
    kind, sensor, category, mask, group, body_id, jointed = bodies
    n = len(kind)
    pushed = np.zeros(n, dtype=np.bool_)
    any_pushed = False
    for i in range(n):
        # A push no longer than the slop cannot end more than a slop past a surface.
        dx, dy = poses[i, 0] - unpushed[i, 0], poses[i, 1] - unpushed[i, 1]
        pushed[i] = kind[i] == DYNAMIC and dx * dx + dy * dy > slop[i] * slop[i]
        any_pushed = any_pushed or pushed[i]
    if not any_pushed:
        return False
    # Candidates: the pushed bodies' parts swept along their pushes, against the parts of
    # static and kinematic bodies. Pushes no longer than the broad phase's margin stay
    # inside the boxes the step's broad phase used, so its pairs already hold every
    # candidate; longer ones (bodies spawned into each other) need a broad phase of their own.
    longest = 0.0
    for i in range(n):
        if pushed[i]:
            dx, dy = poses[i, 0] - unpushed[i, 0], poses[i, 1] - unpushed[i, 1]
            longest = max(longest, math.sqrt(dx * dx + dy * dy))
    at = unpushed.copy()
    at[:n, 2] = poses[:n, 2]
    if longest <= margin:
        solid = step_pairs
    else:
        chosen = np.empty(len(owner), dtype=np.bool_)
        for p in range(len(owner)):
            chosen[p] = pushed[owner[p]] or kind[owner[p]] != DYNAMIC
        solid = pairs_among(chosen, vertices, count, radius, owner, at, poses, np.zeros(n), bodies)
    s = solid.shape[1]
    mover_part = np.empty(s, dtype=np.int64)
    other_part = np.empty(s, dtype=np.int64)
    mover = np.empty(s, dtype=np.int64)
    other = np.empty(s, dtype=np.int64)
    c = 0
    for i in range(s):
        a, b = solid[2, i], solid[3, i]
        if len(ignored) and holds_key(ignored, pair_key(body_id[a], body_id[b])):
            continue
        if pushed[a] and kind[b] != DYNAMIC:
            mover_part[c], other_part[c], mover[c], other[c] = solid[0, i], solid[1, i], a, b
        elif pushed[b] and kind[a] != DYNAMIC:
            mover_part[c], other_part[c], mover[c], other[c] = solid[1, i], solid[0, i], b, a
        else:
            continue
        c += 1
    if c == 0:
        return False
    mover_part, other_part = mover_part[:c], other_part[:c]
    mover, other = mover[:c], other[:c]
    mover_poses, other_poses = at[mover], at[other]
    turns_a = np.empty((c, 2))
    turns_b = np.empty((c, 2))
    push = np.empty((c, 2))
    for i in range(c):
        turns_a[i, 0], turns_a[i, 1] = math.cos(mover_poses[i, 2]), math.sin(mover_poses[i, 2])
        turns_b[i, 0], turns_b[i, 1] = math.cos(other_poses[i, 2]), math.sin(other_poses[i, 2])
        push[i, 0] = poses[mover[i], 0] - unpushed[mover[i], 0]
        push[i, 1] = poses[mover[i], 1] - unpushed[mover[i], 1]
    # The sweep flag is computed at run time: a literal True compiles the kernel once more.
    found = collide_kernel(
        vertices, normals, count, radius, part_reach, mover_part, mover_poses, turns_a,
        vertices, normals, count, radius, part_reach, other_part, other_poses, turns_b,
        push, c > 0, np.ones(c), np.zeros(c), 0.0,
    )  # fmt: skip
    separation, found_normal, toi = found[0], found[1], found[2]
    allowed = np.ones(n)
    stopped = False
    for i in range(c):
        # Within half a slop before the push: touching, rule 5's (the step's contacts
        # reach further than that). Not "apart by any amount", nor "by a slop": bodies
        # are placed exactly on surfaces, and the rules here leave them exactly a slop
        # away, where rounding alone would decide.
        if not (separation[i] > 0.5 * slop[mover[i]]) or math.isnan(toi[i]):
            continue
        closing = push[i, 0] * found_normal[i, 0] + push[i, 1] * found_normal[i, 1]
        # A push that ends less than half a slop past a surface is a landing.
        margin = slop[mover[i]]
        if closing * (1.0 - toi[i]) > 0.5 * margin:
            allowed[mover[i]] = min(allowed[mover[i]], max(toi[i] - margin / closing, 0.0))
            stopped = True
    for i in range(n):
        if allowed[i] < 1.0:
            poses[i, 0] = unpushed[i, 0] + (poses[i, 0] - unpushed[i, 0]) * allowed[i]
            poses[i, 1] = unpushed[i, 1] + (poses[i, 1] - unpushed[i, 1]) * allowed[i]
    return stopped
