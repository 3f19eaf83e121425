"""Soft contacts for the sub-stepped solver (``engine.substep``).

A touching point is a stiff spring-damper rather than a rigid row: its velocity bias is
taken from the point's separation *now*, recomputed every sub-step from how far the bodies
moved and turned since the step start (the manifold itself is found once per step), and
its response is softened by a mass scale and an impulse scale (Erin Catto, "Solver2D",
2024; Box2D v3). Over a step of several sub-steps this converges where one rigid solve
with a position pass cannot: stacks stand, a heavy load hangs still.

For a spring of frequency w = 2 pi f and damping ratio zeta over a sub-step h:
    a1 = 2 zeta + h w,  a2 = h w a1,  a3 = 1 / (1 + a2)
    bias rate = w / a1,  mass scale = a2 a3,  impulse scale = a3
and a point's impulse step is
    -m (mass_scale vn + bias) - impulse_scale x,   bias = max(mass_scale rate s, -push)
for a point deeper than its slop (s < 0 beyond it); a point still apart (s > 0) may
close its gap within the sub-step and no more (bias s / h, rigid). The relax passes solve
without bias, removing the speed the springs gave, so that push-out adds no energy.

Contacts with a static or kinematic body are twice as stiff: nothing on the other side
gives way, and a pile must not sink into the ground.

Jacobians and masses are the rigid solver's (``engine.contact_solver.prepare_contacts``),
kept for the whole step at the start poses; only the separations move.
"""

from __future__ import annotations

import math

import numpy as np

from .contact_solver import (
    APPROACH0,
    FRICTION,
    II_A,
    II_B,
    IM_A,
    IM_B,
    NX,
    NY,
    RN_A0,
    ROW_MASS0,
    RT_A,
    RT_B,
    SECOND,
    TANGENT_MASS,
    TARGET0,
)
from .jit import kernel

# Columns of the soft rows (see ``prepare_soft``).
BASE0 = 0  # 2: each point's separation less (r_b - r_a) . n at the step start
MASS_SCALE, IMPULSE_SCALE, BIAS_RATE = 2, 3, 4
SLOP = 5  # the overlap a point may keep at rest
SOFT_COLUMNS = 6


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
    record the approach; restitution aims from the bodies' final poses).

    body_a, body_b, count (M,), normal (M, 2), arm_a, arm_b (M, 2, 2), separation (M, 2),
    slop (M,): the manifolds' columns; hertz, damping_ratio: the contact springs'; h: the
    sub-step.
    """
    m = len(body_a)
    soft = np.zeros((m, SOFT_COLUMNS))
    rate, mass_scale, impulse_scale = softness(hertz, damping_ratio, h)
    hard_rate, hard_mass, hard_impulse = softness(2.0 * hertz, damping_ratio, h)
    for i in range(m):
        nx, ny = normal[i, 0], normal[i, 1]
        for p in range(count[i]):
            rx = arm_b[i, p, 0] - arm_a[i, p, 0]
            ry = arm_b[i, p, 1] - arm_a[i, p, 1]
            soft[i, BASE0 + p] = separation[i, p] - (rx * nx + ry * ny)
            c[i, TARGET0 + p] = 0.0
            c[i, APPROACH0 + p] = 0.0
        if c[i, IM_A] == 0.0 or c[i, IM_B] == 0.0:
            soft[i, BIAS_RATE], soft[i, MASS_SCALE], soft[i, IMPULSE_SCALE] = (
                hard_rate, hard_mass, hard_impulse,
            )  # fmt: skip
        else:
            soft[i, BIAS_RATE], soft[i, MASS_SCALE], soft[i, IMPULSE_SCALE] = (
                rate, mass_scale, impulse_scale,
            )  # fmt: skip
        soft[i, SLOP] = slop[i]
    return soft


@kernel(inline=True)
def solve_soft_contact(i, a, b, c, soft, arm_a, arm_b, normal_impulse, tangent_impulse,
                       velocity, moved, turn, inv_h, push, use_bias):  # fmt: skip
    """One visit of manifold i (bodies a, b): each normal row, soft or speculative, then
    friction at the points' centre bounded by mu times the normal impulses.

    c, soft: prepared rigid and soft rows; arm_a, arm_b (M, 2, 2) at the step start;
    normal_impulse (M, 2), tangent_impulse (M,): this sub-step's accumulated impulses;
    velocity (N + 1, 3); moved (N + 1, 3): each body's displacement since the step start,
    turn (N + 1, 2) the cos and sin of its turn; inv_h: 1 / sub-step; push: the fastest
    push-out speed; use_bias: False in the relax passes. Returns nothing; with use_bias
    the approach speed before the solve is recorded in c's APPROACH columns.
    """
    nx, ny = c[i, NX], c[i, NY]
    ima, imb, iia, iib = c[i, IM_A], c[i, IM_B], c[i, II_A], c[i, II_B]
    vax, vay, wa = velocity[a, 0], velocity[a, 1], velocity[a, 2]
    vbx, vby, wb = velocity[b, 0], velocity[b, 1], velocity[b, 2]
    dx, dy = moved[b, 0] - moved[a, 0], moved[b, 1] - moved[a, 1]
    ca, sa, cb, sb = turn[a, 0], turn[a, 1], turn[b, 0], turn[b, 1]
    for p in range(2 if c[i, SECOND] > 0.0 else 1):
        ax, ay = arm_a[i, p, 0], arm_a[i, p, 1]
        bx, by = arm_b[i, p, 0], arm_b[i, p, 1]
        # The separation now: the start's, moved with the bodies (the normal is kept).
        sx = dx + (cb * bx - sb * by) - (ca * ax - sa * ay)
        sy = dy + (sb * bx + cb * by) - (sa * ax + ca * ay)
        s = soft[i, BASE0 + p] + sx * nx + sy * ny
        rn_a, rn_b = c[i, RN_A0 + 2 * p], c[i, RN_A0 + 2 * p + 1]
        vn = (vbx - vax) * nx + (vby - vay) * ny + wb * rn_b - wa * rn_a
        bias, mass_scale, impulse_scale = 0.0, 1.0, 0.0
        if s > 0.0:
            bias = s * inv_h
        elif use_bias:
            mass_scale = soft[i, MASS_SCALE]
            impulse_scale = soft[i, IMPULSE_SCALE]
            depth = min(s + soft[i, SLOP], 0.0)
            bias = max(mass_scale * soft[i, BIAS_RATE] * depth, -push)
        if use_bias:
            c[i, APPROACH0 + p] = min(c[i, APPROACH0 + p], vn)
        x = normal_impulse[i, p]
        new = max(x - c[i, ROW_MASS0 + p] * (mass_scale * vn + bias) - impulse_scale * x, 0.0)
        d = new - x
        normal_impulse[i, p] = new
        vax -= ima * nx * d
        vay -= ima * ny * d
        wa -= iia * rn_a * d
        vbx += imb * nx * d
        vby += imb * ny * d
        wb += iib * rn_b * d
    # Friction, along t = (ny, -nx), at the points' centre.
    pt = tangent_impulse[i]
    vt = (vbx - vax) * ny - (vby - vay) * nx + wb * c[i, RT_B] - wa * c[i, RT_A]
    limit = c[i, FRICTION] * (normal_impulse[i, 0] + normal_impulse[i, 1])
    new = min(max(pt - c[i, TANGENT_MASS] * vt, -limit), limit)
    d = new - pt
    tangent_impulse[i] = new
    velocity[a, 0] = vax - ima * ny * d
    velocity[a, 1] = vay + ima * nx * d
    velocity[a, 2] = wa - iia * c[i, RT_A] * d
    velocity[b, 0] = vbx + imb * ny * d
    velocity[b, 1] = vby - imb * nx * d
    velocity[b, 2] = wb + iib * c[i, RT_B] * d
