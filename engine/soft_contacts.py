"""Soft contacts for the sub-stepped solver (``engine.substep``).

A touching point is a stiff spring-damper rather than a rigid row: its velocity bias is
taken from the point's separation *now*, recomputed every sub-step from how far the bodies
moved and turned since the step start (the manifold itself is found once per step), and
its response is softened by a mass scale and an impulse scale (Erin Catto, "Solver2D",
2024; Box2D v3). Over a step of several sub-steps this converges: stacks stand, a heavy
load hangs still.

For a spring of frequency w = 2 pi f and damping ratio zeta over a sub-step h:
    a1 = 2 zeta + h w,  a2 = h w a1,  a3 = 1 / (1 + a2)
    bias rate = w / a1,  mass scale = a2 a3,  impulse scale = a3
and a touching point's (s <= a thousandth of its slop) impulse step is
    -m (mass_scale vn + bias) - impulse_scale x,   bias = max(mass_scale rate s, -push).
The springs pull towards s = 0, not towards the world's slop: at rest a
point sits (F / m) / w^2 deep, F its load and m its effective mass, a fraction of a
millimetre for a box on the ground.

- A point still apart (s past that) may close its gap within the sub-step and no more (bias
  s / h, rigid). If it closes it faster than the restitution threshold on a bouncy pair,
  it arrives and leaves again within the same sub-step: it follows its parabola (the
  pair's relative acceleration) to the instant it meets the surface, leaves at -e times
  its speed there, and is aimed at where that flight ends with the sub-step; the bounce
  in ``engine.substep`` then gives it the flight's speed at the end (``_bounce_within``).
- The relax passes solve without bias, removing the speed the springs gave, so that
  push-out adds no energy. There a point still apart holds only if this sub-step's
  biased pass pushed it: made it arrive (it then stops, a landing gives its whole
  impulse in the step it lands in) or pushed it apart from touching (its push's speed is
  taken back); otherwise it waits for the next biased pass, so that relaxing never slows
  a body that has not reached the surface yet.
- Friction comes first in a visit, bounded by the normal impulses so far, and the normal
  rows after it, so that the normal rows have the last word: friction acts at the
  points' centre, and solved last its torque can turn a box dragged along a moving wall
  back into it (the tumbler's deepest box over six seeds: 1.7 cm before, 1.2 cm with
  friction first).
- The two points of a manifold are solved together, with the 2x2 mass matrix, when both
  have the same spring (the block solve of ``engine.contact_solver``, softened): solving
  them one after the other gives the first more than its share, tilting every box of a
  column the same way.

Contacts with a static or kinematic body are twice as stiff (nothing on the other side
gives way, and a pile must not sink into the ground) and twice as damped.

Jacobians and masses are the rigid rows' (``engine.contact_solver.prepare_contacts``),
kept for the whole step at the start poses; only the separations move. A separation moves
with what turns with each body: on a round part (a circle, a capsule, a rounded polygon)
that is its core, not the point on its surface, which stays where the normal meets it
(turning the whole arm, a ball rolling at 12 m/s measured a gap that was not there and
sank 7 mm into the ground; ``engine.contact_cores``).
"""

from __future__ import annotations

import math

import numpy as np

from .contact_solver import (
    APPROACH0,
    BLOCK,
    FRICTION,
    II_A,
    II_B,
    IM_A,
    IM_B,
    INV11,
    INV12,
    INV22,
    K11,
    K12,
    K22,
    NX,
    NY,
    RESTITUTION,
    RN_A0,
    ROW_MASS0,
    ROW_MASS1,
    SECOND,
    TARGET0,
    friction,
    pair_lcp,
    push_friction,
)
from .jit import kernel

# Columns of the soft rows (see ``prepare_soft``).
BASE0 = 0  # 2: each point's separation less (r_b - r_a) . n at the step start
MASS_SCALE, IMPULSE_SCALE, BIAS_RATE = 2, 3, 4
ARRIVED0 = 5  # 2: 1.0 where this sub-step's biased pass pushed a point (not bouncing)
LEAVE0 = 7  # 2: the normal speed a point bouncing within this sub-step leaves it with; NaN
TOUCHING = 9  # the separation up to which a point counts as touching (TOUCHING_SHARE)
SOFT_COLUMNS = 10

# A point counts as touching up to this share of its manifold's slop apart, not up to 0:
# a gap closed rigidly within a sub-step ends at 0 to rounding, and a point at 0 taken as
# apart at one scale and touching at another moved the two runs of a scene 5.7e-5 rad
# apart within a step (the rigid and the soft row differ there by the spring's share).
TOUCHING_SHARE = 1e-3

# Contacts with a static or kinematic body: this many times stiffer, and as many times
# more damped (the stiffer spring alone sets a heavy body resting on light ones, each of
# them squeezed between it and the ground, jittering).
FIXED_STIFFENING = 2.0


@kernel(inline=True)
def softness(hertz, damping_ratio, h):
    """(bias rate, mass scale, impulse scale) of a spring-damper over a sub-step h;
    hertz 0 is rigid and without bias."""
    if hertz <= 0.0:
        return 0.0, 1.0, 0.0
    omega = 2.0 * math.pi * hertz
    a1 = 2.0 * damping_ratio + h * omega
    a2 = h * omega * a1
    a3 = 1.0 / (1.0 + a2)
    return omega / a1, a2 * a3, a3


@kernel
def prepare_soft(c, body_a, body_b, count, normal, arm_a, arm_b, separation, slop, hertz,
                 damping_ratio, h):  # fmt: skip
    """The (M, SOFT_COLUMNS) soft rows of the manifolds; c: their prepared rigid rows
    (M, COLUMNS), whose targets are cleared and approaches zeroed here (the sub-steps
    record the approach).

    body_a, body_b, count (M,), normal (M, 2), arm_a, arm_b (M, 2, 2), separation (M, 2):
    the manifolds' columns (the arms: ``engine.contact_cores.round_cores``'); hertz,
    damping_ratio: the contact springs'; h: the sub-step.
    """
    m = len(body_a)
    soft = np.zeros((m, SOFT_COLUMNS))
    loose = softness(hertz, damping_ratio, h)
    stiff = softness(FIXED_STIFFENING * hertz, FIXED_STIFFENING * damping_ratio, h)
    for i in range(m):
        nx, ny = normal[i, 0], normal[i, 1]
        for p in range(count[i]):
            rx = arm_b[i, p, 0] - arm_a[i, p, 0]
            ry = arm_b[i, p, 1] - arm_a[i, p, 1]
            soft[i, BASE0 + p] = separation[i, p] - (rx * nx + ry * ny)
            c[i, TARGET0 + p] = 0.0
            c[i, APPROACH0 + p] = 0.0
        soft[i, LEAVE0] = soft[i, LEAVE0 + 1] = np.nan
        soft[i, TOUCHING] = TOUCHING_SHARE * slop[i]
        spring = stiff if c[i, IM_A] == 0.0 or c[i, IM_B] == 0.0 else loose
        soft[i, BIAS_RATE], soft[i, MASS_SCALE], soft[i, IMPULSE_SCALE] = spring
    return soft


@kernel
def loaded_depths(c, soft, count, normal_impulse):
    """(M, 2) depth at which each touching point's spring holds the impulse it carries,
    the rest of its manifold's rows held as they are (0 for an unused slot).

    c, soft: the prepared rigid and soft rows; count (M,); normal_impulse (M, 2): one
    sub-step's impulses after the relax passes (what holds the load, not what pushed).
    At rest the biased pass changes nothing, so mass scale vn + bias = -impulse scale x / m
    with vn = 0 and bias = mass scale rate s: a spring carrying x sits at
    s = -(K x) impulse scale / (mass scale rate). Solved as a block the coupling K12 adds
    to the point's own row, one row after the other it does not: the larger of the two.
    """
    m = len(count)
    depth = np.zeros((m, 2))
    for i in range(m):
        stiffness = soft[i, BIAS_RATE] * soft[i, MASS_SCALE]
        if stiffness <= 0.0:
            continue  # a rigid row (0 Hz) has no sag
        per_impulse = soft[i, IMPULSE_SCALE] / stiffness
        x0, x1 = normal_impulse[i, 0], normal_impulse[i, 1]
        coupling = max(c[i, K12], 0.0)
        depth[i, 0] = (c[i, K11] * x0 + coupling * x1) * per_impulse
        if count[i] > 1:
            depth[i, 1] = (c[i, K22] * x1 + coupling * x0) * per_impulse
    return depth


@kernel
def hold_deep_overlaps(soft, c, count, separation, impulse, deep):
    """Make the springs of the manifolds overlapping deeper than ``deep`` (M,) past the
    depth at which they hold their last loads rigid and without bias, in place.
    Push-out parts them on positions after the step (``engine.substep``): pushed apart
    by their springs, each at max_contact_push_speed, ten boxes spawned in a row 30 %
    into each other sent the end ones off at 8.9 m/s (held, 2.4 m/s: what is left under
    ``deep`` the springs still push).

    soft (M, SOFT_COLUMNS), c: the prepared soft and rigid rows; count (M,); separation
    (M, 2) at the step's start; impulse (M, 2): one sub-step's warm-start impulses."""
    loaded = loaded_depths(c, soft, count, impulse)
    for i in range(len(count)):
        held = False
        for p in range(count[i]):
            held = held or separation[i, p] + loaded[i, p] < -deep[i]
        if held:
            soft[i, BIAS_RATE], soft[i, MASS_SCALE], soft[i, IMPULSE_SCALE] = 0.0, 1.0, 0.0


@kernel
def hold_loads_at_touching(soft, c, count, impulse, tree_edges, body_a, body_b, velocity):
    """Move the springs of the tree manifolds' loaded points so that each holds its load
    at touching, in place.

    A spring carries its load F only (F / m) / w^2 deep, m its effective mass: a heavy
    body on a light one sinks by its weight over the light one's mass (a 1,000 kg box on
    a 1 kg one, 13 mm). Each point of a manifold solved exactly in a contact tree
    (``tree_edges`` (T,), ``engine.contact_trees``) that carried an impulse in the last
    step (``impulse`` (M, 2): one sub-step's warm-start impulses) has its separation
    measured as much deeper as its spring sags under the manifold's load, shared evenly
    by its points: the same spring then holds the same load at touching. At rest the
    exact solve changes nothing, so mass scale times rate times separation is minus
    impulse scale times (K x), K the manifold's 2x2 block. Only the trees: in a pile with
    loops, Gauss-Seidel's impulses move from step to step, and springs moved by them set
    the pile shaking (5 mm boxes, sleep off: 0.02 m/s against 0.002). Not against a moving
    kinematic body (``_driven``). soft (M, SOFT_COLUMNS), c: the prepared soft and rigid
    rows, the springs final; count (M,); body_a, body_b (M,); velocity (N + 1, 3) at the
    step's start.
    """
    for i in tree_edges:
        stiffness = soft[i, BIAS_RATE] * soft[i, MASS_SCALE]
        if stiffness <= 0.0 or _driven(c, i, body_a[i], body_b[i], velocity):
            continue  # a rigid row (0 Hz) has no sag; a driven one no resting load
        per_impulse = soft[i, IMPULSE_SCALE] / stiffness
        if count[i] == 1:
            if impulse[i, 0] > 0.0:
                soft[i, BASE0] -= c[i, K11] * impulse[i, 0] * per_impulse
            continue
        # Both points by their mean load: moved by each one's own, a column's boxes were
        # held at the tilt their last loads had, and a column of 20 leaned 8 cm in 60 s.
        mean = 0.5 * (impulse[i, 0] + impulse[i, 1])
        if mean > 0.0:
            soft[i, BASE0] -= (c[i, K11] + c[i, K12]) * mean * per_impulse
            soft[i, BASE0 + 1] -= (c[i, K22] + c[i, K12]) * mean * per_impulse


@kernel(inline=True)
def _driven(c, i, a, b, velocity):
    """Whether manifold i has a moving kinematic body (zero inverse mass, some velocity):
    what a wall carrying a pile presses with is no resting load (the tumbler's boxes,
    moved by it, went 1.5 cm into its walls against 0.33 cm)."""
    moving_a = velocity[a, 0] != 0.0 or velocity[a, 1] != 0.0 or velocity[a, 2] != 0.0
    moving_b = velocity[b, 0] != 0.0 or velocity[b, 1] != 0.0 or velocity[b, 2] != 0.0
    return (c[i, IM_A] == 0.0 and moving_a) or (c[i, IM_B] == 0.0 and moving_b)


@kernel
def opening_speeds(count, normal, arm_a, arm_b, separation, loaded, slop, body_a, body_b,
                   moved, dt):  # fmt: skip
    """(M,) how fast each manifold's points moved apart over the step, the fastest of them
    (m/s; negative: closing): each point's separation at the step's end, from the bodies'
    displacement ``moved`` (N + 1, 3) since the step's start, less its separation (M, 2)
    at the start, over dt. Only where sleep asks (a point more than two slops deeper than
    its spring's loaded depth, ``loaded`` (M, 2); slop (M,)); -inf elsewhere. count (M,);
    normal (M, 2); arm_a, arm_b (M, 2, 2) at the step's start, to what turns with each
    body (``engine.contact_cores``); body_a, body_b (M,)."""
    m = len(count)
    opening = np.full(m, -np.inf)
    for i in range(m):
        settled = min(separation[i, 0] + loaded[i, 0], separation[i, 1] + loaded[i, 1])
        if not settled < -2.0 * slop[i]:
            continue
        a, b = body_a[i], body_b[i]
        nx, ny = normal[i, 0], normal[i, 1]
        dx, dy = moved[b, 0] - moved[a, 0], moved[b, 1] - moved[a, 1]
        ca, sa = math.cos(moved[a, 2]), math.sin(moved[a, 2])
        cb, sb = math.cos(moved[b, 2]), math.sin(moved[b, 2])
        for p in range(count[i]):
            ax, ay, bx, by = arm_a[i, p, 0], arm_a[i, p, 1], arm_b[i, p, 0], arm_b[i, p, 1]
            base = separation[i, p] - ((bx - ax) * nx + (by - ay) * ny)
            now = separation_now(base, ax, ay, bx, by, nx, ny, dx, dy, ca, sa, cb, sb)
            opening[i] = max(opening[i], (now - separation[i, p]) / dt)
    return opening


@kernel(inline=True)
def separation_now(base, ax, ay, bx, by, nx, ny, dx, dy, ca, sa, cb, sb):
    """A point's separation now: its step-start base (separation less (r_b - r_a) . n),
    with arms (ax, ay), (bx, by) turned by (ca, sa), (cb, sb) and the bodies' relative
    displacement (dx, dy) (the normal is kept). Scalars only: a helper handed arrays pays
    for each of them on every call."""
    sx = dx + (cb * bx - sb * by) - (ca * ax - sa * ay)
    sy = dy + (sb * bx + cb * by) - (sa * ax + ca * ay)
    return base + sx * nx + sy * ny


@kernel
def _row(s, vn, an, inv_h, push, use_bias, threshold, e, arrived, rate, mass_scale,
         impulse_scale, touching):  # fmt: skip
    """(bias, mass scale, impulse scale, active, bouncing, leaving speed) of a point at
    separation s, normal speed vn and normal acceleration an (see the module's docstring);
    e: the pair's restitution, arrived: whether this sub-step's biased pass made it arrive;
    rate, mass_scale, impulse_scale: the pair's spring; touching: the separation up to
    which the point counts as touching. The leaving speed is NaN unless the point bounces
    within the sub-step."""
    if s > touching:
        if not use_bias:
            return s * inv_h, 1.0, 0.0, arrived, False, np.nan
        if e > 0.0 and vn < -threshold and vn < -s * inv_h:
            return _bounce_within(s, vn, an, inv_h, e)
        return s * inv_h, 1.0, 0.0, True, False, np.nan
    if not use_bias:
        return 0.0, 1.0, 0.0, True, False, np.nan
    return max(mass_scale * rate * s, -push), mass_scale, impulse_scale, True, False, np.nan


@kernel
def _bounce_within(s, vn, an, inv_h, e):
    """_row's answer for a point a gap s away arriving fast within the sub-step: it
    follows its parabola (normal speed vn at the sub-step's end, acceleration an, both
    relative) to the surface, leaves at -e times its speed there, and flies on for the
    rest of the sub-step; the bias puts it where that flight ends (positions move by the
    end speed), the leaving speed is the flight's at the end (``restitute`` sets it).
    Without an acceleration, or if the flight comes back within the sub-step, it covers
    the gap and leaves at -e vn."""
    h = 1.0 / inv_h
    start = vn - h * an  # the normal speed at the sub-step's start
    impact2 = start * start - 2.0 * an * s
    if start < 0.0 and impact2 > 0.0:
        impact = -math.sqrt(impact2)
        rest = h - 2.0 * s / (-start - impact)  # the time left after the impact
        leave = -e * impact + an * rest
        end = -e * impact * rest + 0.5 * an * rest * rest
        if rest > 0.0 and leave > 0.0 and end > 0.0:
            return (s - end) * inv_h, 1.0, 0.0, True, True, leave
    return (1.0 + e) * s * inv_h + e * vn, 1.0, 0.0, True, True, np.nan


@kernel
def _normal_impulses(c, i, x0, x1, vn0, vn1, bias0, bias1, ms0, ms1, is0, is1, on0, on1):
    """New normal impulses of manifold i's two rows (c: the prepared rows; accumulated
    x0, x1; normal speeds vn0, vn1; each row's bias, mass and impulse scales and whether
    it acts): both at once with the 2x2 mass matrix K where they share a spring and
    neither would pull,
        x_new = (1 - impulse scale) x - K^-1 (mass scale vn + bias);
    where one would and both rows are rigid (arriving or bouncing within the sub-step),
    the complementarity problem solved exactly (``engine.contact_solver.pair_lcp``: a
    point the other's impulse drives apart keeps none); else one after the other, the
    second seeing the first's impulse. (A spring's rows solved exactly set a resting
    table rocking on its feet.)"""
    if on0 and on1 and c[i, BLOCK] > 0.0 and c[i, SECOND] > 0.0 and ms0 == ms1 and is0 == is1:
        b0 = ms0 * vn0 + bias0
        b1 = ms0 * vn1 + bias1
        keep = 1.0 - is0
        both0 = keep * x0 - (c[i, INV11] * b0 + c[i, INV12] * b1)
        both1 = keep * x1 - (c[i, INV12] * b0 + c[i, INV22] * b1)
        if both0 >= 0.0 and both1 >= 0.0:
            return both0, both1
        if is0 == 0.0:
            q0 = b0 - (c[i, K11] * x0 + c[i, K12] * x1)
            q1 = b1 - (c[i, K12] * x0 + c[i, K22] * x1)
            return pair_lcp(c, i, q0, q1)
    new0, new1 = x0, x1
    if on0:
        new0 = max(x0 - c[i, ROW_MASS0] * (ms0 * vn0 + bias0) - is0 * x0, 0.0)
    if on1:
        vn1 += (new0 - x0) * c[i, K12]
        new1 = max(x1 - c[i, ROW_MASS1] * (ms1 * vn1 + bias1) - is1 * x1, 0.0)
    return new0, new1


@kernel
def _arrived(s, new, bouncing):
    """1.0 where a biased pass pushed a point (one still apart arrives by the end of the
    sub-step) that is not bouncing off, else 0.0. A point touching then and apart after
    the positions moved counts too: the relax passes must take away the speed its push
    gave (left, a box landing at 20 m/s on one resting on the ground sprang off at 4 m/s)."""
    return 1.0 if new > 0.0 and not bouncing else 0.0


@kernel(inline=True)
def solve_soft_contact(i, a, b, c, soft, arm_a, arm_b, normal_impulse, tangent_impulse,
                       velocity, accel, moved, turn, inv_h, push, use_bias,
                       threshold):  # fmt: skip
    """One visit of manifold i (bodies a, b): friction at the points' centre bounded by
    mu times the normal impulses so far, then the normal rows, soft or speculative (both
    at once where they can be).

    c, soft: prepared rigid and soft rows; arm_a, arm_b (M, 2, 2) at the step start, to
    what turns with each body (``engine.contact_cores``);
    normal_impulse (M, 2), tangent_impulse (M,): this sub-step's accumulated impulses;
    velocity (N + 1, 3); accel (N + 1, 3): what the forces add to it per second;
    moved (N + 1, 3): each body's displacement since the step start,
    turn (N + 1, 2) the cos and sin of its turn; inv_h: 1 / sub-step; push: the fastest
    push-out speed; use_bias: False in the relax passes; threshold: the restitution
    threshold. With use_bias the approach speed before the solve is recorded in c's
    APPROACH columns, which points arrived in soft's ARRIVED columns, and the speed a
    point bouncing within the sub-step leaves with in its LEAVE columns.
    """
    nx, ny = c[i, NX], c[i, NY]
    ima, imb, iia, iib = c[i, IM_A], c[i, IM_B], c[i, II_A], c[i, II_B]
    vax, vay, wa = velocity[a, 0], velocity[a, 1], velocity[a, 2]
    vbx, vby, wb = velocity[b, 0], velocity[b, 1], velocity[b, 2]
    dx, dy = moved[b, 0] - moved[a, 0], moved[b, 1] - moved[a, 1]
    ca, sa, cb, sb = turn[a, 0], turn[a, 1], turn[b, 0], turn[b, 1]
    two = c[i, SECOND] > 0.0
    # Friction first: solved after the normal rows, its torque could turn a corner back
    # into the wall they had just stopped it at.
    vax, vay, wa, vbx, vby, wb = friction(
        c, i, tangent_impulse, normal_impulse[i, 0] + normal_impulse[i, 1], vax, vay, wa, vbx,
        vby, wb,
    )  # fmt: skip
    # Both points unconditionally (an unused slot's rows are zeros and stay off), and no
    # branch while arrays are live: numba cannot prune their reference counts across one.
    base = (vbx - vax) * nx + (vby - vay) * ny
    rn_a0, rn_b0, rn_a1, rn_b1 = c[i, RN_A0], c[i, RN_A0 + 1], c[i, RN_A0 + 2], c[i, RN_A0 + 3]
    e = c[i, RESTITUTION]
    rate, mass_scale = soft[i, BIAS_RATE], soft[i, MASS_SCALE]
    impulse_scale = soft[i, IMPULSE_SCALE]
    s0 = separation_now(
        soft[i, BASE0], arm_a[i, 0, 0], arm_a[i, 0, 1], arm_b[i, 0, 0], arm_b[i, 0, 1], nx, ny,
        dx, dy, ca, sa, cb, sb,
    )  # fmt: skip
    s1 = separation_now(
        soft[i, BASE0 + 1], arm_a[i, 1, 0], arm_a[i, 1, 1], arm_b[i, 1, 0], arm_b[i, 1, 1],
        nx, ny, dx, dy, ca, sa, cb, sb,
    )  # fmt: skip
    vn0 = base + wb * rn_b0 - wa * rn_a0
    vn1 = base + wb * rn_b1 - wa * rn_a1
    an = (accel[b, 0] - accel[a, 0]) * nx + (accel[b, 1] - accel[a, 1]) * ny
    bias0, ms0, is0, on0, bounce0, leave0 = _row(
        s0, vn0, an, inv_h, push, use_bias, threshold, e, soft[i, ARRIVED0] > 0.0, rate,
        mass_scale, impulse_scale, soft[i, TOUCHING],
    )  # fmt: skip
    bias1, ms1, is1, on1, bounce1, leave1 = _row(
        s1, vn1, an, inv_h, push, use_bias, threshold, e, soft[i, ARRIVED0 + 1] > 0.0, rate,
        mass_scale, impulse_scale, soft[i, TOUCHING],
    )  # fmt: skip
    if use_bias:
        soft[i, LEAVE0], soft[i, LEAVE0 + 1] = leave0, leave1
    approach0, approach1 = c[i, APPROACH0], c[i, APPROACH0 + 1]
    c[i, APPROACH0] = min(approach0, vn0) if use_bias else approach0
    c[i, APPROACH0 + 1] = min(approach1, vn1) if use_bias and two else approach1
    x0, x1 = normal_impulse[i, 0], normal_impulse[i, 1]
    new0, new1 = _normal_impulses(
        c, i, x0, x1, vn0, vn1, bias0, bias1, ms0, ms1, is0, is1, on0, on1 and two
    )
    arrived0, arrived1 = soft[i, ARRIVED0], soft[i, ARRIVED0 + 1]
    soft[i, ARRIVED0] = _arrived(s0, new0, bounce0) if use_bias else arrived0
    soft[i, ARRIVED0 + 1] = _arrived(s1, new1, bounce1) if use_bias else arrived1
    d0, d1 = new0 - x0, new1 - x1
    normal_impulse[i, 0], normal_impulse[i, 1] = new0, new1
    velocity[a, 0] = vax - ima * nx * (d0 + d1)
    velocity[a, 1] = vay - ima * ny * (d0 + d1)
    velocity[a, 2] = wa - iia * (rn_a0 * d0 + rn_a1 * d1)
    velocity[b, 0] = vbx + imb * nx * (d0 + d1)
    velocity[b, 1] = vby + imb * ny * (d0 + d1)
    velocity[b, 2] = wb + iib * (rn_b0 * d0 + rn_b1 * d1)


@kernel
def bound_friction(solve, c, normal_impulse, tangent_impulse, body_a, body_b, velocity):
    """Bring each solved manifold's friction back within mu times its normal impulses
    after the sub-step's last normal rows, taking the excess back from the bodies.

    solve (M,) bool; c: the prepared rows; normal_impulse (M, 2) and tangent_impulse (M,):
    the sub-step's accumulated impulses (the tangent one changes in place); velocity
    (N + 1, 3) changes in place. Each visit bounds friction by the normal impulses so far,
    and the normal rows after it may lower them: a box sliding at 5 m/s on mu 0.5 tipped
    into its springs and had 0.1 % more friction than mu N over a step. (Friction that
    falls short of mu N while a body slides is left: topped up here as well, it set a
    sliding box rocking on its springs at 20 Hz for good.)
    """
    for i in range(len(solve)):
        if not solve[i]:
            continue
        limit = c[i, FRICTION] * (normal_impulse[i, 0] + normal_impulse[i, 1])
        now = tangent_impulse[i]
        bounded = min(max(now, -limit), limit)
        if bounded != now:
            tangent_impulse[i] = bounded
            push_friction(c, i, body_a[i], body_b[i], bounded - now, velocity)
