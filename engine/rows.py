"""A constraint row on two bodies' velocities.

A row is a (6,) vector acting on (vx, vy, w) of body A then of body B. Joints build their
rows with it; contacts use a compact form of the same rows (see ``engine.contact_solver``).
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
