"""Where a joint stands: its Jacobian rows and errors at given poses, and its mass matrix.

Each joint has a main block of up to three coupled rows, solved together:

- revolute: the pivot, rows 0 and 1 (x and y of the gap between the two anchor points);
- weld: the pivot and the relative angle, rows 0, 1 and 2;
- distance: the gap along the line between the anchors, row 0;
- mouse: the pivot against the target (slot A is the world), rows 0 and 1;
- prismatic: B's anchor off the axis (row 0) and the relative angle (row 2);
- wheel: B's anchor off the axis, row 0;
- gear: angle_a + ratio angle_b, row 0;
- motor joint: B's centre against its target in A's frame and the relative angle, rows
  0, 1 and 2 (solved softly, with its bounds: see ``engine.joint_solver``);
- rope and angular spring: none; their one row is the joint's axis row.

Prismatic and wheel joints, ropes and angular springs also have an axis row (see
``axis_row``): the coordinate that their motors, limits and springs act along.

A row is a (6,) vector acting on (vx, vy, w) of slot A then of slot B. Unused rows are
zero; their effective mass is set to 1 so that a block always inverts and leaves them 0.
These are per-joint routines, inlined into the solver's and the correction's loops.
"""

from __future__ import annotations

import math

import numpy as np

from .jit import kernel
from .joint_store import ANGULAR_SPRING, DISTANCE, GEAR, MOTOR_JOINT, PRISMATIC, ROPE, WELD, WHEEL
from .rows import jacobian_row

# Used rows of each joint kind's main block, by kind code (see ``engine.joint_store``):
# revolute, distance, weld, mouse, prismatic, wheel, rope, angular spring, gear, motor.
USED_ROWS = np.array(
    [[1, 1, 0], [1, 0, 0], [1, 1, 1], [1, 1, 0], [1, 0, 1],
     [1, 0, 0], [0, 0, 0], [0, 0, 0], [1, 0, 0], [1, 1, 1]],
    dtype=np.bool_,
)  # fmt: skip
# A pivot below this share of a block's largest entry, once the block is scaled to a unit
# diagonal (``inverse3``), is rounding: the block is singular. Joints anchored more than
# about 1,000 km from a body's centre reach it.
SINGULAR = 1e-12
# The kinds with an axis row.
HAS_AXIS = np.array([0, 0, 0, 0, 1, 1, 1, 1, 0, 0], dtype=np.bool_)


@kernel(inline=True)
def main_rows(
    kind, anchor_a, anchor_b, axis, pose_a, pose_b, length, reference_angle, ratio, rows, error
):
    """Fill rows (3, 6) and error (3,) (C, zero in unused rows) of one joint at poses
    pose_a, pose_b (3,) (x, y, angle; the world's is zero); anchors and axis (2,) in each
    slot's frame. Returns the joint angle, angle_b - angle_a - reference_angle."""
    ca, sa = math.cos(pose_a[2]), math.sin(pose_a[2])
    cb, sb = math.cos(pose_b[2]), math.sin(pose_b[2])
    arm_ax = ca * anchor_a[0] - sa * anchor_a[1]
    arm_ay = sa * anchor_a[0] + ca * anchor_a[1]
    arm_bx = cb * anchor_b[0] - sb * anchor_b[1]
    arm_by = sb * anchor_b[0] + cb * anchor_b[1]
    gap_x = pose_b[0] + arm_bx - pose_a[0] - arm_ax
    gap_y = pose_b[1] + arm_by - pose_a[1] - arm_ay
    angle = pose_b[2] - pose_a[2] - reference_angle
    rows[:] = 0.0
    error[:] = 0.0
    if kind == DISTANCE:
        span = math.hypot(gap_x, gap_y)
        # Anchors on top of each other have no direction: push along x, like any other.
        if span > 1e-9:
            ux, uy = gap_x / max(span, 1e-9), gap_y / max(span, 1e-9)
        else:
            ux, uy = 1.0, 0.0
        jacobian_row(rows[0], ux, uy, arm_ax, arm_ay, arm_bx, arm_by)
        error[0] = span - length
        return angle
    if kind == PRISMATIC or kind == WHEEL:
        # Off the axis: along its normal n, which turns with A. B's anchor moves relative
        # to the line, and the line turns about A's centre: arm rA + gap on A's side.
        nx = -(sa * axis[0] + ca * axis[1])
        ny = ca * axis[0] - sa * axis[1]
        jacobian_row(rows[0], nx, ny, arm_ax + gap_x, arm_ay + gap_y, arm_bx, arm_by)
        error[0] = nx * gap_x + ny * gap_y
        if kind == PRISMATIC:
            rows[2, 2], rows[2, 5] = -1.0, 1.0
            error[2] = angle
        return angle
    if kind == GEAR:
        rows[0, 2], rows[0, 5] = 1.0, ratio
        error[0] = pose_a[2] + ratio * pose_b[2] - reference_angle
        return angle
    if kind == ROPE or kind == ANGULAR_SPRING:
        return angle
    # The pivot: velocity of B's anchor minus A's, w x r = (-w r_y, w r_x).
    rows[0, 0], rows[0, 2], rows[0, 3], rows[0, 5] = -1.0, arm_ay, 1.0, -arm_by
    rows[1, 1], rows[1, 2], rows[1, 4], rows[1, 5] = -1.0, -arm_ax, 1.0, arm_bx
    error[0] = gap_x
    error[1] = gap_y
    if kind == WELD or kind == MOTOR_JOINT:
        rows[2, 2], rows[2, 5] = -1.0, 1.0
        error[2] = angle
    return angle


@kernel(inline=True)
def axis_row(kind, anchor_a, anchor_b, axis, pose_a, pose_b, reference_angle, rest_angle, row):
    """Fill ``row`` (6,) with the Jacobian of the joint's axis coordinate at poses pose_a,
    pose_b (3,) and return the coordinate: a prismatic or wheel joint's translation along
    its axis (2,) (turning with A), a rope's span, an angular spring's angle from its rest
    angle. Other kinds: zero row, 0."""
    row[:] = 0.0
    angle = pose_b[2] - pose_a[2] - reference_angle
    if kind == ANGULAR_SPRING:
        row[2], row[5] = -1.0, 1.0
        return angle - rest_angle
    ca, sa = math.cos(pose_a[2]), math.sin(pose_a[2])
    cb, sb = math.cos(pose_b[2]), math.sin(pose_b[2])
    arm_ax = ca * anchor_a[0] - sa * anchor_a[1]
    arm_ay = sa * anchor_a[0] + ca * anchor_a[1]
    arm_bx = cb * anchor_b[0] - sb * anchor_b[1]
    arm_by = sb * anchor_b[0] + cb * anchor_b[1]
    gap_x = pose_b[0] + arm_bx - pose_a[0] - arm_ax
    gap_y = pose_b[1] + arm_by - pose_a[1] - arm_ay
    if kind == ROPE:
        span = math.hypot(gap_x, gap_y)
        if span > 1e-9:
            ux, uy = gap_x / span, gap_y / span
        else:
            ux, uy = 1.0, 0.0
        jacobian_row(row, ux, uy, arm_ax, arm_ay, arm_bx, arm_by)
        return span
    if kind == PRISMATIC or kind == WHEEL:
        ux = ca * axis[0] - sa * axis[1]
        uy = sa * axis[0] + ca * axis[1]
        jacobian_row(row, ux, uy, arm_ax + gap_x, arm_ay + gap_y, arm_bx, arm_by)
        return ux * gap_x + uy * gap_y
    return 0.0


@kernel(inline=True)
def effective_mass(rows, scale, used, k, push):
    """Fill the block's mass matrix k = J M^-1 J^T (3, 3) and push = M^-1 J^T (3, 6).

    scale: (6,) inverse masses and inertias of the two slots; used: (3,) bool rows in use.
    An unused row gets k_ii = 1 (its impulse stays zero).
    """
    for r in range(3):
        for j in range(6):
            push[r, j] = rows[r, j] * scale[j]
    for r in range(3):
        for c in range(3):
            total = 0.0
            for j in range(6):
                total += rows[r, j] * push[c, j]
            k[r, c] = total
        if not used[r]:
            k[r, r] += 1.0


@kernel(inline=True)
def slot_scale(inv_mass, inv_inertia, a, b, scale):
    """Fill scale (6,): inverse mass, mass, inertia of slot A then of slot B."""
    scale[0] = scale[1] = inv_mass[a]
    scale[2] = inv_inertia[a]
    scale[3] = scale[4] = inv_mass[b]
    scale[5] = inv_inertia[b]


@kernel(inline=True)
def inverse3(k, out):
    """Fill out (3, 3) with the inverse of k (3, 3); a matrix that is singular or not
    finite (a body thrown to infinity) gets zero, so its joint does nothing that step
    instead of spreading NaN.

    k is scaled to a unit diagonal (s k s, s = |diag|^-1/2) and inverted by Gauss-Jordan
    with partial pivoting. A joint anchored at a lever r from a body's centre has a block
    close to rank one: its condition number grows as r^4, and as r^2 once scaled.
    Cofactors lose digits with its square: a bar welded 7.8 km from a static box got
    impulses 30 % wrong, and the error fed on itself to NaN within a step; scaled and
    pivoted, the inverse loses digits with r^2 only (1e-8 at 10 km).
    """
    scale0 = _unit_scale(k[0, 0])
    scale1 = _unit_scale(k[1, 1])
    scale2 = _unit_scale(k[2, 2])
    largest = 0.0
    good = True
    for r in range(3):
        sr = scale0 if r == 0 else (scale1 if r == 1 else scale2)
        for c in range(3):
            sc = scale0 if c == 0 else (scale1 if c == 1 else scale2)
            out[r, c] = sr * k[r, c] * sc
            good = good and math.isfinite(out[r, c])
            largest = max(largest, abs(out[r, c]))
    # In place, rows swapped as they are chosen; the columns swapped back at the end.
    pivot0 = pivot1 = pivot2 = 0
    for q in range(3):
        if not good:
            break
        p = q
        for r in range(q + 1, 3):
            if abs(out[r, q]) > abs(out[p, q]):
                p = r
        if not abs(out[p, q]) > SINGULAR * largest:
            good = False
            break
        if q == 0:
            pivot0 = p
        elif q == 1:
            pivot1 = p
        else:
            pivot2 = p
        for c in range(3):
            out[q, c], out[p, c] = out[p, c], out[q, c]
        inverse = 1.0 / out[q, q]
        out[q, q] = 1.0
        for c in range(3):
            out[q, c] *= inverse
        for r in range(3):
            if r != q:
                factor = out[r, q]
                out[r, q] = 0.0
                for c in range(3):
                    out[r, c] -= factor * out[q, c]
    if good:
        for q in range(2, -1, -1):
            p = pivot0 if q == 0 else (pivot1 if q == 1 else pivot2)
            for r in range(3):
                out[r, q], out[r, p] = out[r, p], out[r, q]
        for r in range(3):
            sr = scale0 if r == 0 else (scale1 if r == 1 else scale2)
            for c in range(3):
                sc = scale0 if c == 0 else (scale1 if c == 1 else scale2)
                out[r, c] *= sr * sc
                good = good and math.isfinite(out[r, c])
    if not good:
        out[:] = 0.0


@kernel(inline=True)
def _unit_scale(diagonal):
    """The factor s that brings a block's diagonal entry to one (s^2 |d| = 1); 1 for a
    zero or non-finite entry."""
    size = abs(diagonal)
    if size > 0.0 and math.isfinite(size):
        return 1.0 / math.sqrt(size)
    return 1.0
