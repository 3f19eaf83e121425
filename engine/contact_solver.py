"""Sequential impulses for contact manifolds, in compiled loops.

Every manifold (one or two points between two bodies) carries non-penetration rows along
the normal (impulse >= 0) and a Coulomb friction row along the tangent (|impulse| <= mu
times the normal impulse). The solver visits the manifolds one after the other, each seeing
the velocities the ones before it produced (Gauss-Seidel); in a compiled loop that needs no
graph colouring.

- The two normal rows of a manifold are solved together, exactly, as a 2x2 linear
  complementarity problem (the block solver of Box2D 2.x): solving them one after the
  other lets a box resting on two points rock, and a stack sway.
- The two points of a manifold lie on one face, so their tangent rows have the same
  Jacobian up to the small depth difference: one friction row at their centre, bounded by
  mu times the sum of the normal impulses, applies the same force and torque.
- A speculative point (a gap ahead) may close its gap within the step and no more; a
  touching point must not approach. Overlap is left to positional correction.
- Restitution is one pass after the others (``restitute``).

The rows are kept in compact form: a point's normal velocity is
``(v_b - v_a) . n + w_b (r_b x n) - w_a (r_a x n)``, so per manifold the normal, the four
arm cross products and the two of the friction row at the centre, and the bodies' inverse
masses and inertias are all a pass needs. Velocities are an (N + 1, 3) array (vx, vy, w;
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


@dataclass
class Manifolds:
    """One step's contact manifolds; M of them, two point slots each.

    body_a, body_b: (M,) body rows; count: (M,) 1 or 2 points; normal: (M, 2) from A to B;
    arm_a, arm_b: (M, 2, 2) from each centre of mass to each point; separation: (M, 2)
    (+inf in an unused slot); friction, restitution: (M,) mixed; normal_impulse: (M, 2)
    and tangent_impulse: (M,) accumulated, warm-started; points: (M, 2, 2) world points
    at the step start (NaN in an unused slot); keys: (M, 2) int64 warm-start names of the
    points (-1 in an unused slot).
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

    def __len__(self) -> int:
        return len(self.body_a)

    def subset(self, rows: np.ndarray) -> Manifolds:
        """The manifolds at ``rows`` (M',) as a new Manifolds."""
        return Manifolds(**{name: value[rows] for name, value in vars(self).items()})


@kernel
def prepare_contacts(
    body_a, body_b, count, normal, arm_a, arm_b, separation, velocity, inv_mass,
    inv_inertia, dt,
):  # fmt: skip
    """What every pass reuses, per manifold (see ``Manifolds`` for M and the columns).

    Returns geometry (M, 8): nx, ny, then r x n of A's and B's arm to point 0, the same
    for point 1, and r x t of A's and B's arm to the points' centre (t = (ny, -nx));
    mass (M, 4): inverse mass of A and B, inverse inertia of A and B; k (M, 3): the normal
    mass matrix (k11, k12, k22); inverse (M, 3): its inverse where the block solve is
    used, else 0; row_mass (M, 2): 1 / k_ii; tangent_mass (M,); target (M, 2): least normal
    velocity allowed; block, second (M,) bool; approach (M, 2): normal velocity of each
    point at the step start (before warm starting), for restitution.
    """
    m = len(body_a)
    geometry = np.zeros((m, 8))
    mass = np.zeros((m, 4))
    k = np.zeros((m, 3))
    inverse = np.zeros((m, 3))
    row_mass = np.zeros((m, 2))
    tangent_mass = np.zeros(m)
    target = np.zeros((m, 2))
    block = np.zeros(m, dtype=np.bool_)
    second = np.zeros(m, dtype=np.bool_)
    approach = np.zeros((m, 2))
    for i in range(m):
        a, b = body_a[i], body_b[i]
        nx, ny = normal[i, 0], normal[i, 1]
        two = count[i] == 2
        second[i] = two
        g = geometry[i]
        g[0], g[1] = nx, ny
        g[2] = arm_a[i, 0, 0] * ny - arm_a[i, 0, 1] * nx
        g[3] = arm_b[i, 0, 0] * ny - arm_b[i, 0, 1] * nx
        if two:
            g[4] = arm_a[i, 1, 0] * ny - arm_a[i, 1, 1] * nx
            g[5] = arm_b[i, 1, 0] * ny - arm_b[i, 1, 1] * nx
            # Friction acts at the centre of the points (their arms' mean).
            cax = 0.5 * (arm_a[i, 0, 0] + arm_a[i, 1, 0])
            cay = 0.5 * (arm_a[i, 0, 1] + arm_a[i, 1, 1])
            cbx = 0.5 * (arm_b[i, 0, 0] + arm_b[i, 1, 0])
            cby = 0.5 * (arm_b[i, 0, 1] + arm_b[i, 1, 1])
        else:
            cax, cay, cbx, cby = arm_a[i, 0, 0], arm_a[i, 0, 1], arm_b[i, 0, 0], arm_b[i, 0, 1]
        # r x t with t = (ny, -nx).
        g[6] = -cax * nx - cay * ny
        g[7] = -cbx * nx - cby * ny
        ima, imb, iia, iib = inv_mass[a], inv_mass[b], inv_inertia[a], inv_inertia[b]
        mass[i, 0], mass[i, 1], mass[i, 2], mass[i, 3] = ima, imb, iia, iib
        linear = ima + imb
        k11 = linear + iia * g[2] * g[2] + iib * g[3] * g[3]
        k22 = linear + iia * g[4] * g[4] + iib * g[5] * g[5] if two else 0.0
        k12 = linear + iia * g[2] * g[4] + iib * g[3] * g[5] if two else 0.0
        kt = linear + iia * g[6] * g[6] + iib * g[7] * g[7]
        det = k11 * k22 - k12 * k12
        block[i] = two and k11 * k11 < MAX_CONDITION * det
        if block[i]:
            inverse[i, 0] = k22 / det
            inverse[i, 1] = -k12 / det
            inverse[i, 2] = k11 / det
        tangent_mass[i] = 1.0 / kt if kt > 0.0 else 0.0
        row_mass[i, 0] = 1.0 / k11 if k11 > 0.0 else 0.0
        row_mass[i, 1] = 1.0 / k22 if two and k22 > 0.0 else 0.0
        k[i, 0], k[i, 1], k[i, 2] = k11, k12, k22
        base = (velocity[b, 0] - velocity[a, 0]) * nx + (velocity[b, 1] - velocity[a, 1]) * ny
        for p in range(2 if two else 1):
            gap = separation[i, p]
            target[i, p] = -gap / dt if gap > 0.0 else 0.0
            approach[i, p] = base + velocity[b, 2] * g[3 + 2 * p] - velocity[a, 2] * g[2 + 2 * p]
    return geometry, mass, k, inverse, row_mass, tangent_mass, target, block, second, approach


@kernel(inline=True)
def block_solve(x0, x1, b0, b1, k12, inverse, row_mass, block, second):
    """New accumulated normal impulses of a manifold's two rows.

    x0, x1: accumulated impulses; b0, b1: normal velocity minus target now; inverse (3,),
    row_mass (2,). Two-point manifolds solve the complementarity problem  v = K x + c,
    x >= 0, v >= 0, x . v = 0  (c = b - K x_old): first with both rows pushing; where that
    asks for a pull, one row after the other, which converges to the same answer over the
    passes. One-point manifolds are that single row.
    """
    s0 = max(x0 - row_mass[0] * b0, 0.0)
    s1 = max(x1 - row_mass[1] * (b1 + k12 * (s0 - x0)), 0.0)
    both0 = x0 - (inverse[0] * b0 + inverse[1] * b1)
    both1 = x1 - (inverse[1] * b0 + inverse[2] * b1)
    if block and both0 >= 0.0 and both1 >= 0.0:
        return both0, both1 * second
    return s0, s1 * second


@kernel(inline=True)
def _push(velocity, a, b, g, mass, p0, p1, pt):
    """Apply normal impulses p0, p1 (at points 0 and 1) and tangent impulse pt of one
    manifold with geometry g (8,) and masses (4,)."""
    px = g[0] * (p0 + p1) + g[1] * pt
    py = g[1] * (p0 + p1) - g[0] * pt
    velocity[a, 0] -= mass[0] * px
    velocity[a, 1] -= mass[0] * py
    velocity[a, 2] -= mass[2] * (g[2] * p0 + g[4] * p1 + g[6] * pt)
    velocity[b, 0] += mass[1] * px
    velocity[b, 1] += mass[1] * py
    velocity[b, 2] += mass[3] * (g[3] * p0 + g[5] * p1 + g[7] * pt)


@kernel
def warm_start_contacts(body_a, body_b, geometry, mass, normal_impulse, tangent_impulse, solve,
                        velocity):  # fmt: skip
    """Apply last step's impulses (already in the manifolds) to ``velocity`` (N + 1, 3),
    for the manifolds with ``solve`` (M,) set."""
    for i in range(len(body_a)):
        if solve[i]:
            _push(
                velocity, body_a[i], body_b[i], geometry[i], mass[i], normal_impulse[i, 0],
                normal_impulse[i, 1], tangent_impulse[i],
            )  # fmt: skip


@kernel(inline=True)
def solve_contact(
    i, a, b, geometry, mass, k, inverse, row_mass, tangent_mass, friction, target, block,
    second, normal_impulse, tangent_impulse, velocity,
):  # fmt: skip
    """One Gauss-Seidel visit of manifold i: friction first, bounded by the current normal
    impulses, then both normal rows together."""
    g = geometry[i]
    nx, ny = g[0], g[1]
    ima, imb, iia, iib = mass[i, 0], mass[i, 1], mass[i, 2], mass[i, 3]
    vax, vay, wa = velocity[a, 0], velocity[a, 1], velocity[a, 2]
    vbx, vby, wb = velocity[b, 0], velocity[b, 1], velocity[b, 2]
    x0, x1 = normal_impulse[i, 0], normal_impulse[i, 1]
    # Friction, along t = (ny, -nx), at the points' centre.
    pt = tangent_impulse[i]
    vt = (vbx - vax) * ny - (vby - vay) * nx + wb * g[7] - wa * g[6]
    limit = friction[i] * (x0 + x1)
    new = min(max(pt - tangent_mass[i] * vt, -limit), limit)
    d = new - pt
    tangent_impulse[i] = new
    vax -= ima * ny * d
    vay += ima * nx * d
    wa -= iia * g[6] * d
    vbx += imb * ny * d
    vby -= imb * nx * d
    wb += iib * g[7] * d
    # Both normal rows together.
    base = (vbx - vax) * nx + (vby - vay) * ny
    vn0 = base + wb * g[3] - wa * g[2] - target[i, 0]
    vn1 = base + wb * g[5] - wa * g[4] - target[i, 1]
    new0, new1 = block_solve(
        x0, x1, vn0, vn1, k[i, 1], inverse[i], row_mass[i], block[i], second[i]
    )
    d0, d1 = new0 - x0, new1 - x1
    normal_impulse[i, 0] = new0
    normal_impulse[i, 1] = new1
    velocity[a, 0] = vax - ima * nx * (d0 + d1)
    velocity[a, 1] = vay - ima * ny * (d0 + d1)
    velocity[a, 2] = wa - iia * (g[2] * d0 + g[4] * d1)
    velocity[b, 0] = vbx + imb * nx * (d0 + d1)
    velocity[b, 1] = vby + imb * ny * (d0 + d1)
    velocity[b, 2] = wb + iib * (g[3] * d0 + g[5] * d1)


@kernel
def restitute(
    body_a, body_b, geometry, mass, k, inverse, row_mass, target, block, second, approach,
    restitution, normal_impulse, solve, threshold, velocity,
):  # fmt: skip
    """Bounce: points that approached faster than ``threshold`` and were pushed leave at -e
    times that speed. One pass after the others.

    A two-point manifold bounces both points at once with the block solve: with e = 1 that
    returns exactly the energy of the approach, where bouncing the points one after the
    other (each to its own target) can add energy to a spinning body. And a bounce may not
    give the pair more kinetic energy than the impact took (``_energy_cap``).
    """
    for i in range(len(body_a)):
        if not solve[i] or restitution[i] <= 0.0:
            continue
        t0, t1 = target[i, 0], target[i, 1]
        bouncing = False
        if approach[i, 0] < -threshold and normal_impulse[i, 0] > 0.0:
            t0 = -restitution[i] * approach[i, 0]
            bouncing = True
        if approach[i, 1] < -threshold and normal_impulse[i, 1] > 0.0:
            t1 = -restitution[i] * approach[i, 1]
            bouncing = True
        if not bouncing:
            continue
        a, b = body_a[i], body_b[i]
        g = geometry[i]
        x0, x1 = normal_impulse[i, 0], normal_impulse[i, 1]
        base = (velocity[b, 0] - velocity[a, 0]) * g[0] + (velocity[b, 1] - velocity[a, 1]) * g[1]
        now0 = base + velocity[b, 2] * g[3] - velocity[a, 2] * g[2]
        now1 = base + velocity[b, 2] * g[5] - velocity[a, 2] * g[4] if second[i] else 0.0
        new0, new1 = block_solve(
            x0, x1, now0 - t0, now1 - t1, k[i, 1], inverse[i], row_mass[i], block[i], second[i]
        )
        share = _energy_cap(k[i], approach[i], x0, x1, now0, now1, new0, new1)
        new0 = x0 + share * (new0 - x0)
        new1 = x1 + share * (new1 - x1)
        _push(velocity, a, b, g, mass[i], new0 - x0, new1 - x1, 0.0)
        normal_impulse[i, 0] = new0
        normal_impulse[i, 1] = new1


@kernel(inline=True)
def _energy_cap(k, approach, x0, x1, now0, now1, new0, new1):
    """Share in [0, 1] of a manifold's bounce impulse that adds no energy.

    A bounce aims each point at -e times its approach speed. Two points aimed at once can
    ask for more than the impact gave (a spinning box meeting a face: the second point's
    approach is partly spin the first one's impulse takes away). So the kinetic energy the
    normal impulses put into the pair over the whole step, measured from the approach, may
    not become positive: the bounce impulse d is scaled by the largest a in [0, 1] with
        x . (approach + now) / 2  +  a d . now  +  a^2 d K d / 2  <=  0.
    k (3,): k11, k12, k22; approach (2,); x0, x1: impulses so far; now0, now1: normal
    velocities now; new0, new1: impulses with the bounce.
    """
    d0, d1 = new0 - x0, new1 - x1
    spent = 0.5 * (x0 * (approach[0] + now0) + x1 * (approach[1] + now1))
    linear = d0 * now0 + d1 * now1
    quadratic = 0.5 * (k[0] * d0 * d0 + 2.0 * k[1] * d0 * d1 + k[2] * d1 * d1)
    if spent + linear + quadratic <= 0.0:
        return 1.0
    root = (-linear + math.sqrt(max(linear * linear - 4.0 * quadratic * spent, 0.0))) / (
        2.0 * quadratic
    )
    if not math.isfinite(root):
        root = 0.0 if math.isnan(root) else root
    return min(max(root, 0.0), 1.0)
