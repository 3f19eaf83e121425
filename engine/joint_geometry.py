"""Where joints stand: anchor arms, Jacobian rows and errors of all joints at once.

Each joint has a main block of up to three coupled rows, solved together:

- revolute: the pivot, rows 0 and 1 (x and y of the gap between the two anchor points);
- weld: the pivot and the relative angle, rows 0, 1 and 2;
- distance: the gap along the line between the anchors, row 0;
- mouse: the pivot against the target (slot A is the world), rows 0 and 1.

A row is a (6,) vector acting on (vx, vy, w) of slot A then of slot B. Unused rows are
zero; their effective mass is set to 1 so that a block always inverts and leaves them 0.
"""

from __future__ import annotations

import numpy as np

from .contact_solver import jacobian_row
from .joint_store import DISTANCE, WELD
from .position_correction import rotated

# Used rows of each joint kind's main block: revolute, distance, weld, mouse.
USED_ROWS = np.array([[1, 1, 0], [1, 0, 0], [1, 1, 1], [1, 1, 0]], dtype=bool)


def main_rows(kind, anchor_a, anchor_b, pose_a, pose_b, length, reference_angle):
    """Jacobian and error of each joint's main block at the given poses.

    kind: (m,) int8; anchor_a, anchor_b: (m, 2) in each slot's frame; pose_a, pose_b:
    (m, 3) (x, y, angle) of the slots (the world's is zero); length, reference_angle: (m,).
    Returns rows (m, 3, 6), error (m, 3) (C, zero in unused rows) and the joint angle (m,)
    (angle_b - angle_a - reference_angle).
    """
    m = len(kind)
    arm_a = rotated(anchor_a, pose_a[:, 2])
    arm_b = rotated(anchor_b, pose_b[:, 2])
    gap = pose_b[:, :2] + arm_b - pose_a[:, :2] - arm_a
    angle = pose_b[:, 2] - pose_a[:, 2] - reference_angle
    rows = np.zeros((m, 3, 6))
    error = np.zeros((m, 3))
    # The pivot: velocity of B's anchor minus A's, w x r = (-w r_y, w r_x).
    rows[:, 0, 0], rows[:, 0, 2], rows[:, 0, 3], rows[:, 0, 5] = -1, arm_a[:, 1], 1, -arm_b[:, 1]
    rows[:, 1, 1], rows[:, 1, 2], rows[:, 1, 4], rows[:, 1, 5] = -1, -arm_a[:, 0], 1, arm_b[:, 0]
    error[:, :2] = gap
    weld = kind == WELD
    rows[weld, 2, 2], rows[weld, 2, 5] = -1.0, 1.0
    error[weld, 2] = angle[weld]
    distance = np.flatnonzero(kind == DISTANCE)
    if len(distance):
        d = gap[distance]
        span = np.hypot(d[:, 0], d[:, 1])
        # Anchors on top of each other have no direction: push along x, like any other.
        axis = np.where(span[:, None] > 1e-9, d / np.maximum(span, 1e-9)[:, None], [1.0, 0.0])
        ra, rb = arm_a[distance], arm_b[distance]
        rows[distance] = 0.0
        rows[distance, 0] = jacobian_row(axis, ra, rb)
        error[distance] = 0.0
        error[distance, 0] = span - length[distance]
    return rows, error, angle


def joint_rows_at(joints: dict, which, pose_a, pose_b):
    """``main_rows`` of the joints ``which`` (a slice or index array into the joint-table
    columns ``joints``) with their slots at poses pose_a, pose_b (m, 3)."""
    return main_rows(
        joints["kind"][which], joints["anchor_a"][which], joints["anchor_b"][which],
        pose_a, pose_b, joints["length"][which], joints["reference_angle"][which],
    )  # fmt: skip


def slot_scale(inv_mass, inv_inertia, a, b) -> np.ndarray:
    """(m, 6) inverse mass, mass, inertia of slot A then of slot B, rows a, b (m,): the
    velocity change per unit impulse along each entry of a row."""
    return np.column_stack(
        [inv_mass[a], inv_mass[a], inv_inertia[a], inv_mass[b], inv_mass[b], inv_inertia[b]]
    )


def effective_mass(rows: np.ndarray, scale: np.ndarray, used: np.ndarray):
    """The block's mass matrix K = J M^-1 J^T (m, 3, 3) and the pushes M^-1 J^T (m, 3, 6).

    scale: (m, 6) inverse masses and inertias of the two slots; used: (m, 3) bool rows in
    use. An unused row gets K_ii = 1 (its impulse stays zero).
    """
    push = rows * scale[:, None, :]
    k = np.einsum("mik,mjk->mij", rows, push)
    k[:, [0, 1, 2], [0, 1, 2]] += ~used
    return k, push


def inverse3(k: np.ndarray) -> np.ndarray:
    """(m, 3, 3) inverses of the matrices ``k`` (m, 3, 3); a matrix that is singular or
    not finite (a body thrown to infinity) gets zero, so its joint does nothing that step
    instead of raising or spreading NaN."""
    try:
        inverse = np.linalg.inv(k)
    except np.linalg.LinAlgError:
        # One singular matrix spoils the batch call: invert by cofactors, row by row safe.
        inverse = _cofactor_inverse(k)
    good = np.isfinite(inverse).all(axis=(1, 2)) & np.isfinite(k).all(axis=(1, 2))
    return np.where(good[:, None, None], inverse, 0.0)


def _cofactor_inverse(k: np.ndarray) -> np.ndarray:
    """Inverses by cofactors over determinants; NaN or inf where a matrix is singular."""
    cofactor = np.empty_like(k)
    for i in range(3):
        for j in range(3):
            r0, r1 = [x for x in range(3) if x != i]
            c0, c1 = [x for x in range(3) if x != j]
            minor = k[:, r0, c0] * k[:, r1, c1] - k[:, r0, c1] * k[:, r1, c0]
            cofactor[:, j, i] = minor if (i + j) % 2 == 0 else -minor
    det = np.einsum("mi,mi->m", k[:, 0, :], cofactor[:, :, 0])
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(np.abs(det)[:, None, None] > 1e-300, cofactor / det[:, None, None], np.nan)
