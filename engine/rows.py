"""Constraint rows on two bodies' velocities: build one, measure along it, push along it.

A row is a (6,) vector acting on (vx, vy, w) of body A then of body B; velocities are an
(N + 1, 3) array (the last row is the world's, for joints, and never moves). Joints build
their rows with these; contacts use a compact form of the same rows (see
``engine.contact_solver``).
"""

from __future__ import annotations

from .jit import kernel


@kernel(inline=True)
def jacobian_row(row, ax, ay, arm_ax, arm_ay, arm_bx, arm_by):
    """Fill ``row`` (6,) with the Jacobian along axis (ax, ay) for points at the given arms
    from A and B: velocity of B's point minus A's, along the axis."""
    row[0] = -ax
    row[1] = -ay
    row[2] = -(arm_ax * ay - arm_ay * ax)
    row[3] = ax
    row[4] = ay
    row[5] = arm_bx * ay - arm_by * ax


@kernel(inline=True)
def dot6(row, v, a, b):
    """row (6,) . (v[a], v[b]) for velocities v (N + 1, 3)."""
    return (
        row[0] * v[a, 0]
        + row[1] * v[a, 1]
        + row[2] * v[a, 2]
        + row[3] * v[b, 0]
        + row[4] * v[b, 1]
        + row[5] * v[b, 2]
    )


@kernel(inline=True)
def add6(v, a, b, push, impulse):
    """(v[a], v[b]) += push (6,) * impulse."""
    v[a, 0] += push[0] * impulse
    v[a, 1] += push[1] * impulse
    v[a, 2] += push[2] * impulse
    v[b, 0] += push[3] * impulse
    v[b, 1] += push[4] * impulse
    v[b, 2] += push[5] * impulse
