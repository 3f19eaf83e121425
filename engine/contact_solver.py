"""Contact manifolds and the rigid rows the soft contacts are built on, in compiled loops.

Every manifold (one or two points between two bodies) carries non-penetration rows along
the normal (impulse >= 0) and a Coulomb friction row along the tangent (|impulse| <= mu
times the normal impulse). The sub-stepped solver (``engine.substep``,
``engine.soft_contacts``) visits the manifolds one after the other, each seeing the
velocities the ones before it produced (Gauss-Seidel); in a compiled loop that needs no
graph colouring. This module holds what its passes share:

- the prepared rows of each manifold (``prepare_contacts``), their warm start, and the
  friction row;
- the two normal rows of a manifold solved together, exactly, as a 2x2 linear
  complementarity problem (``block_solve``, the block solver of Box2D 2.x): solving them
  one after the other lets a box resting on two points rock, and a stack sway;
- one friction row at the centre of a manifold's points: they lie on one face, so their
  tangent rows have the same Jacobian up to the small depth difference, and one row
  bounded by mu times the sum of the normal impulses applies the same force and torque;
- restitution, a pass of its own after the others (``restitute``).

The rows are kept in compact form: a point's normal velocity is
``(v_b - v_a) . n + w_b (r_b x n) - w_a (r_a x n)``, so per manifold the normal, the four
arm cross products and the two of the friction row at the centre, and the bodies' inverse
masses and inertias are all a pass needs. Everything a pass reads of a manifold is one row
of a single (M, COLUMNS) array: an inner-loop helper handed many arrays pays for each of
them on every call, more than for the arithmetic. Velocities are an (N + 1, 3) array (vx, vy, w;
the last row is the world's, for joints, and never moves).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .jit import kernel

# The block solve falls back to one row after the other when the 2x2 effective-mass matrix
# is this badly conditioned (two points nearly on top of each other).
MAX_CONDITION = 1000.0

# Columns of the prepared manifold rows (see ``prepare_contacts``).
NX, NY = 0, 1  # the normal, from A to B; the tangent is (NY, -NX)
RN_A0, RN_B0, RN_A1, RN_B1 = 2, 3, 4, 5  # r x n of A's and B's arms to points 0 and 1
RT_A, RT_B = 6, 7  # r x t of A's and B's arms to the points' centre
IM_A, IM_B, II_A, II_B = 8, 9, 10, 11  # inverse masses and inertias of A and B
K11, K12, K22 = 12, 13, 14  # the normal mass matrix
INV11, INV12, INV22 = 15, 16, 17  # its inverse, where the block solve is used, else 0
ROW_MASS0, ROW_MASS1 = 18, 19  # 1 / k_ii, for one row after the other
TANGENT_MASS = 20
TARGET0, TARGET1 = 21, 22  # least normal velocity allowed at each point
FRICTION, RESTITUTION = 23, 24
APPROACH0, APPROACH1 = 25, 26  # normal velocity at the step start, before warm starting
BLOCK, SECOND = 27, 28  # 1.0 or 0.0: solve both rows as a block; has a second point
COLUMNS = 29


@dataclass
class Manifolds:
    """One step's contact manifolds; M of them, two point slots each.

    body_a, body_b: (M,) body rows; count: (M,) 1 or 2 points; normal: (M, 2) from A to B;
    arm_a, arm_b: (M, 2, 2) from each centre of mass to each point; separation: (M, 2)
    (+inf in an unused slot); friction, restitution: (M,) mixed; normal_impulse: (M, 2)
    and tangent_impulse: (M,) accumulated, warm-started; points: (M, 2, 2) world points
    at the step start (NaN in an unused slot); keys: (M, 2) int64 warm-start names of the
    points (-1 in an unused slot); slop: (M,) the overlap each may keep at rest
    (``engine.contact_slop``); parts: (M, 2) int64 the part rows of A and B.
    """

    body_a: np.ndarray
    body_b: np.ndarray
    count: np.ndarray
    normal: np.ndarray
    arm_a: np.ndarray
    arm_b: np.ndarray
    separation: np.ndarray
    friction: np.ndarray
    restitution: np.ndarray
    normal_impulse: np.ndarray
    tangent_impulse: np.ndarray
    points: np.ndarray
    keys: np.ndarray
    slop: np.ndarray
    parts: np.ndarray

    def __len__(self) -> int:
        return len(self.body_a)

    def subset(self, rows: np.ndarray) -> Manifolds:
        """The manifolds at ``rows`` (M',) as a new Manifolds."""
        return Manifolds(**{name: value[rows] for name, value in vars(self).items()})

    def joined(self, other: Manifolds) -> Manifolds:
        """These manifolds, then ``other``'s, as one Manifolds (either itself if the
        other is empty)."""
        if len(other) == 0:
            return self
        if len(self) == 0:
            return other
        return Manifolds(
            **{
                name: np.concatenate([value, getattr(other, name)])
                for name, value in vars(self).items()
            }
        )


@kernel
def prepare_contacts(body_a, body_b, count, normal, arm_a, arm_b, separation, friction,
                     restitution, velocity, inv_mass, inv_inertia, dt):  # fmt: skip
    """What every pass reuses: (M, COLUMNS) rows, one per manifold (see the column names
    above; ``Manifolds`` for the inputs). velocity (N + 1, 3) is before warm starting."""
    m = len(body_a)
    c = np.zeros((m, COLUMNS))
    for i in range(m):
        a, b = body_a[i], body_b[i]
        nx, ny = normal[i, 0], normal[i, 1]
        two = count[i] == 2
        c[i, NX], c[i, NY] = nx, ny
        c[i, RN_A0] = arm_a[i, 0, 0] * ny - arm_a[i, 0, 1] * nx
        c[i, RN_B0] = arm_b[i, 0, 0] * ny - arm_b[i, 0, 1] * nx
        if two:
            c[i, RN_A1] = arm_a[i, 1, 0] * ny - arm_a[i, 1, 1] * nx
            c[i, RN_B1] = arm_b[i, 1, 0] * ny - arm_b[i, 1, 1] * nx
            # Friction acts at the centre of the points (their arms' mean).
            cax = 0.5 * (arm_a[i, 0, 0] + arm_a[i, 1, 0])
            cay = 0.5 * (arm_a[i, 0, 1] + arm_a[i, 1, 1])
            cbx = 0.5 * (arm_b[i, 0, 0] + arm_b[i, 1, 0])
            cby = 0.5 * (arm_b[i, 0, 1] + arm_b[i, 1, 1])
        else:
            cax, cay, cbx, cby = arm_a[i, 0, 0], arm_a[i, 0, 1], arm_b[i, 0, 0], arm_b[i, 0, 1]
        # r x t with t = (ny, -nx).
        c[i, RT_A] = -cax * nx - cay * ny
        c[i, RT_B] = -cbx * nx - cby * ny
        ima, imb, iia, iib = inv_mass[a], inv_mass[b], inv_inertia[a], inv_inertia[b]
        c[i, IM_A], c[i, IM_B], c[i, II_A], c[i, II_B] = ima, imb, iia, iib
        linear = ima + imb
        rn_a0, rn_b0, rn_a1, rn_b1 = c[i, RN_A0], c[i, RN_B0], c[i, RN_A1], c[i, RN_B1]
        k11 = linear + iia * rn_a0 * rn_a0 + iib * rn_b0 * rn_b0
        k22 = linear + iia * rn_a1 * rn_a1 + iib * rn_b1 * rn_b1 if two else 0.0
        k12 = linear + iia * rn_a0 * rn_a1 + iib * rn_b0 * rn_b1 if two else 0.0
        kt = linear + iia * c[i, RT_A] * c[i, RT_A] + iib * c[i, RT_B] * c[i, RT_B]
        det = k11 * k22 - k12 * k12
        if two and k11 * k11 < MAX_CONDITION * det:
            c[i, BLOCK] = 1.0
            c[i, INV11] = k22 / det
            c[i, INV12] = -k12 / det
            c[i, INV22] = k11 / det
        c[i, SECOND] = 1.0 if two else 0.0
        c[i, TANGENT_MASS] = 1.0 / kt if kt > 0.0 else 0.0
        c[i, ROW_MASS0] = 1.0 / k11 if k11 > 0.0 else 0.0
        c[i, ROW_MASS1] = 1.0 / k22 if two and k22 > 0.0 else 0.0
        c[i, K11], c[i, K12], c[i, K22] = k11, k12, k22
        c[i, FRICTION], c[i, RESTITUTION] = friction[i], restitution[i]
        base = (velocity[b, 0] - velocity[a, 0]) * nx + (velocity[b, 1] - velocity[a, 1]) * ny
        for p in range(2 if two else 1):
            gap = separation[i, p]
            c[i, TARGET0 + p] = -gap / dt if gap > 0.0 else 0.0
            c[i, APPROACH0 + p] = (
                base + velocity[b, 2] * c[i, RN_B0 + 2 * p] - velocity[a, 2] * c[i, RN_A0 + 2 * p]
            )
    return c


@kernel(inline=True)
def block_solve(c, i, x0, x1, b0, b1):
    """New accumulated normal impulses of manifold i's two rows.

    c: the prepared rows; x0, x1: accumulated impulses; b0, b1: normal velocity minus
    target now. Two-point manifolds solve the complementarity problem  v = K x + q,
    x >= 0, v >= 0, x . v = 0  (q = b - K x_old) exactly (``pair_lcp``); where K is too
    badly conditioned for that, one row after the other, which converges to the same
    answer over the passes. One-point manifolds are that single row.
    """
    if c[i, BLOCK] > 0.0:
        q0 = b0 - (c[i, K11] * x0 + c[i, K12] * x1)
        q1 = b1 - (c[i, K12] * x0 + c[i, K22] * x1)
        return pair_lcp(c, i, q0, q1)
    s0 = max(x0 - c[i, ROW_MASS0] * b0, 0.0)
    s1 = max(x1 - c[i, ROW_MASS1] * (b1 + c[i, K12] * (s0 - x0)), 0.0)
    return s0, s1 * c[i, SECOND]


@kernel(inline=True)
def pair_lcp(c, i, q0, q1):
    """The impulses (y0, y1) >= 0 of manifold i's two rows that leave the normal speeds
    w = K y + q >= 0 with y . w = 0 (c: the prepared rows, K their normal mass matrix):
    both rows pushing, else one of them alone, else neither, the first case that holds.
    K is positive definite, so exactly one holds (to rounding). One Gauss-Seidel sweep
    instead, where both rows pushing asks for a pull, leaves the first row pushing while
    the second drives it apart faster than its target: a box meeting another's face with
    both points bouncing (e = 1) left with 11 % more energy than it came with."""
    y0 = -(c[i, INV11] * q0 + c[i, INV12] * q1)
    y1 = -(c[i, INV12] * q0 + c[i, INV22] * q1)
    if y0 >= 0.0 and y1 >= 0.0:
        return y0, y1
    y0 = -q0 / c[i, K11]
    if y0 >= 0.0 and c[i, K12] * y0 + q1 >= 0.0:
        return y0, 0.0
    y1 = -q1 / c[i, K22]
    if y1 >= 0.0 and c[i, K12] * y1 + q0 >= 0.0:
        return 0.0, y1
    return 0.0, 0.0


@kernel(inline=True)
def push_impulses(velocity, a, b, c, i, p0, p1, pt):
    """Apply normal impulses p0, p1 (at points 0 and 1) and tangent impulse pt of
    manifold i (prepared rows c) to the velocities (N + 1, 3) of its bodies a and b."""
    nx, ny = c[i, NX], c[i, NY]
    px = nx * (p0 + p1) + ny * pt
    py = ny * (p0 + p1) - nx * pt
    velocity[a, 0] -= c[i, IM_A] * px
    velocity[a, 1] -= c[i, IM_A] * py
    velocity[a, 2] -= c[i, II_A] * (c[i, RN_A0] * p0 + c[i, RN_A1] * p1 + c[i, RT_A] * pt)
    velocity[b, 0] += c[i, IM_B] * px
    velocity[b, 1] += c[i, IM_B] * py
    velocity[b, 2] += c[i, II_B] * (c[i, RN_B0] * p0 + c[i, RN_B1] * p1 + c[i, RT_B] * pt)


@kernel
def warm_start_contacts(body_a, body_b, c, normal_impulse, tangent_impulse, solve, velocity):
    """Apply last step's impulses (already in the manifolds) to ``velocity`` (N + 1, 3),
    for the manifolds with ``solve`` (M,) set."""
    for i in range(len(body_a)):
        if solve[i]:
            push_impulses(
                velocity, body_a[i], body_b[i], c, i, normal_impulse[i, 0], normal_impulse[i, 1],
                tangent_impulse[i],
            )  # fmt: skip


@kernel(inline=True)
def friction(c, i, tangent_impulse, pushed, vax, vay, wa, vbx, vby, wb):
    """Manifold i's friction, along t = (ny, -nx) at its points' centre, bounded by mu
    times ``pushed`` (the normal impulses so far): updates tangent_impulse (M,) and
    returns the bodies' velocities (vax, vay, wa, vbx, vby, wb) after it. Solved before
    the normal rows, so that those have the last word."""
    nx, ny = c[i, NX], c[i, NY]
    ima, imb, iia, iib = c[i, IM_A], c[i, IM_B], c[i, II_A], c[i, II_B]
    pt = tangent_impulse[i]
    vt = (vbx - vax) * ny - (vby - vay) * nx + wb * c[i, RT_B] - wa * c[i, RT_A]
    limit = c[i, FRICTION] * pushed
    new = min(max(pt - c[i, TANGENT_MASS] * vt, -limit), limit)
    d = new - pt
    tangent_impulse[i] = new
    return (
        vax - ima * ny * d, vay + ima * nx * d, wa - iia * c[i, RT_A] * d,
        vbx + imb * ny * d, vby - imb * nx * d, wb + iib * c[i, RT_B] * d,
    )  # fmt: skip


@kernel(inline=True)
def push_friction(c, i, a, b, d, velocity):
    """Apply a tangent impulse d of manifold i to its bodies a, b (velocity (N + 1, 3), in
    place), along t = (ny, -nx) at its points' centre, as ``friction`` does."""
    nx, ny = c[i, NX], c[i, NY]
    ima, imb, iia, iib = c[i, IM_A], c[i, IM_B], c[i, II_A], c[i, II_B]
    velocity[a, 0] -= ima * ny * d
    velocity[a, 1] += ima * nx * d
    velocity[a, 2] -= iia * c[i, RT_A] * d
    velocity[b, 0] += imb * ny * d
    velocity[b, 1] -= imb * nx * d
    velocity[b, 2] += iib * c[i, RT_B] * d


@kernel
def restitute(body_a, body_b, c, normal_impulse, solve, threshold, velocity, leave):
    """Bounce: points that approached faster than ``threshold`` and were pushed leave at -e
    times that speed, or at the speed ``leave`` (M, 2) gives them where it is not NaN (a
    bounce within a sub-step, ``engine.soft_contacts``). One pass after the others.

    A two-point manifold bounces both points at once with the block solve: with e = 1 that
    returns exactly the energy of the approach, where bouncing the points one after the
    other (each to its own target) can add energy to a spinning body. And a bounce may not
    give the pair more kinetic energy than the impact took (``_energy_cap``).
    """
    for i in range(len(body_a)):
        e = c[i, RESTITUTION]
        if not solve[i] or e <= 0.0:
            continue
        t0, t1 = c[i, TARGET0], c[i, TARGET1]
        bouncing = False
        if c[i, APPROACH0] < -threshold and normal_impulse[i, 0] > 0.0:
            t0 = -e * c[i, APPROACH0]
            if not math.isnan(leave[i, 0]):
                t0 = leave[i, 0]
            bouncing = True
        if c[i, APPROACH1] < -threshold and normal_impulse[i, 1] > 0.0:
            t1 = -e * c[i, APPROACH1]
            if not math.isnan(leave[i, 1]):
                t1 = leave[i, 1]
            bouncing = True
        if not bouncing:
            continue
        a, b = body_a[i], body_b[i]
        x0, x1 = normal_impulse[i, 0], normal_impulse[i, 1]
        base = (velocity[b, 0] - velocity[a, 0]) * c[i, NX] + (velocity[b, 1] - velocity[a, 1]) * c[
            i, NY
        ]
        now0 = base + velocity[b, 2] * c[i, RN_B0] - velocity[a, 2] * c[i, RN_A0]
        now1 = 0.0
        if c[i, SECOND] > 0.0:
            now1 = base + velocity[b, 2] * c[i, RN_B1] - velocity[a, 2] * c[i, RN_A1]
        new0, new1 = block_solve(c, i, x0, x1, now0 - t0, now1 - t1)
        share = _energy_cap(c, i, x0, x1, now0, now1, new0, new1)
        new0 = x0 + share * (new0 - x0)
        new1 = x1 + share * (new1 - x1)
        push_impulses(velocity, a, b, c, i, new0 - x0, new1 - x1, 0.0)
        normal_impulse[i, 0] = new0
        normal_impulse[i, 1] = new1


@kernel(inline=True)
def _energy_cap(c, i, x0, x1, now0, now1, new0, new1):
    """Share in [0, 1] of a manifold's bounce impulse that adds no energy.

    A bounce aims each point at -e times its approach speed. Two points aimed at once can
    ask for more than the impact gave (a spinning box meeting a face: the second point's
    approach is partly spin the first one's impulse takes away). So the kinetic energy the
    normal impulses put into the pair over the whole step, measured from the approach, may
    not become positive: the bounce impulse d is scaled by the largest a in [0, 1] with
        x . (approach + now) / 2  +  a d . now  +  a^2 d K d / 2  <=  0.
    c, i: manifold i's prepared rows (mass matrix, approach speeds); x0, x1: impulses so
    far; now0, now1: normal velocities now; new0, new1: impulses with the bounce.
    """
    d0, d1 = new0 - x0, new1 - x1
    spent = 0.5 * (x0 * (c[i, APPROACH0] + now0) + x1 * (c[i, APPROACH1] + now1))
    linear = d0 * now0 + d1 * now1
    quadratic = 0.5 * (c[i, K11] * d0 * d0 + 2.0 * c[i, K12] * d0 * d1 + c[i, K22] * d1 * d1)
    if spent + linear + quadratic <= 0.0:
        return 1.0
    root = (-linear + math.sqrt(max(linear * linear - 4.0 * quadratic * spent, 0.0))) / (
        2.0 * quadratic
    )
    if not math.isfinite(root):
        root = 0.0 if math.isnan(root) else root
    return min(max(root, 0.0), 1.0)
