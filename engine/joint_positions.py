"""Positional correction of rigid joints: remove the drift the velocity solve leaves.

Velocities that satisfy a joint exactly still let its anchors drift apart over a step (the
bodies move along tangents of curved paths). After positions are integrated, each rigid
joint's error C is measured at the bodies' current poses and removed by a position
impulse  -K^-1 C  (non-linear Gauss-Seidel, as Box2D 2.x does), joint after joint, so
each correction sees the ones before it. Pivots, welds, prismatic and wheel axes and gears
are corrected fully; a rod by at most ``max_correction`` per pass; a revolute limit by at
most MAX_ANGULAR_CORRECTION, leaving ANGULAR_SLOP so that a joint resting on its limit
does not jitter; a prismatic limit or a rope by at most ``max_correction``, leaving the
world's linear slop. Springs, mouse and motor joints are soft by design and are not
corrected.

With ``carry`` the correction is the SHAKE-style first pass: only the free joints (whose
bodies touch nothing) are corrected, only for the drift of the step's curved motion,
C_end - C_start - dt J_start v, and each move also changes the velocities by move / dt: the
bodies leave the step moving the way they moved, and a swinging pendulum keeps its energy.
The rest of the error (a solve that has not converged, a contact pushing) is left to the
position-only correction: carried into velocities, it would feed back into the contacts
and keep a pile of joined limbs jittering.
"""

from __future__ import annotations

import numpy as np

from .jit import kernel
from .joint_geometry import (
    HAS_AXIS,
    USED_ROWS,
    axis_row,
    effective_mass,
    inverse3,
    main_rows,
    slot_scale,
)
from .joint_store import ANGULAR_SPRING, DISTANCE, MOTOR_JOINT, MOUSE, REVOLUTE, ROPE, WHEEL
from .settings import ANGULAR_SLOP, MAX_ANGULAR_CORRECTION


@kernel
def correct_joint_positions(
    kind, anchor_a, anchor_b, reference_angle, lower, upper, length, frequency, axis, ratio,
    rest_angle, slots, solve, poses, inv_mass, inv_inertia, passes, max_correction, slop,
    carry, start_poses, velocities, dt, free,
):  # fmt: skip
    """Move ``poses`` (N + 1, 3) (x, y, angle) in place to close the joints' errors.

    Joint columns (J,) as in ``engine.joint_store``; slots: (J, 2) rows of slot A and B in
    ``poses`` (the world: the last row, kept at zero); solve: (J,) bool joints to correct;
    inv_mass, inv_inertia: (N + 1,); slop: the world's linear slop. carry: the SHAKE pass
    (see the module docstring), with start_poses (N + 1, 3), velocities (N + 1, 3)
    changed in place, dt, and free (J,) bool; without it those are ignored.
    """
    j_count = len(kind)
    rows = np.zeros((3, 6))
    error = np.zeros(3)
    scale = np.zeros(6)
    k = np.zeros((3, 3))
    push = np.zeros((3, 6))
    inverse = np.zeros((3, 3))
    impulse = np.zeros(3)
    move = np.zeros(6)
    used = np.zeros(3, dtype=np.bool_)
    mixed = np.zeros((3, 3))
    start_push = np.zeros((3, 6))
    line = np.zeros(6)
    # The joints corrected: rigid ones, and for the carry pass only the free ones.
    corrected = np.zeros(j_count, dtype=np.bool_)
    for j in range(j_count):
        knd = kind[j]
        soft = knd == MOUSE or knd == MOTOR_JOINT or knd == ANGULAR_SPRING
        rigid = not soft and (knd != DISTANCE or frequency[j] == 0.0)
        corrected[j] = solve[j] and rigid and (free[j] or not carry)
    start_rows = np.zeros((j_count, 3, 6))
    start_error = np.zeros((j_count, 3))
    if carry:
        # Each joint's rows and its linearised error at the step start: the moves go
        # along the start rows (as SHAKE does), which keeps a swinging pendulum's energy.
        for j in range(j_count):
            if not corrected[j]:
                continue
            a, b = slots[j, 0], slots[j, 1]
            main_rows(
                kind[j], anchor_a[j], anchor_b[j], axis[j], start_poses[a], start_poses[b],
                length[j], reference_angle[j], ratio[j], start_rows[j], start_error[j],
            )  # fmt: skip
            for r in range(3):
                linear = 0.0
                for c in range(3):
                    linear += start_rows[j, r, c] * velocities[a, c]
                    linear += start_rows[j, r, 3 + c] * velocities[b, c]
                start_error[j, r] += dt * linear
    for _ in range(passes):
        for j in range(j_count):
            if not corrected[j]:
                continue
            a, b = slots[j, 0], slots[j, 1]
            slot_scale(inv_mass, inv_inertia, a, b, scale)
            if not carry and kind[j] == REVOLUTE:
                _correct_limit(poses, a, b, reference_angle[j], lower[j], upper[j], scale)
            if not carry and HAS_AXIS[kind[j]] and kind[j] != WHEEL:
                _correct_axis_limit(
                    kind[j], anchor_a[j], anchor_b[j], axis[j], poses, a, b,
                    reference_angle[j], rest_angle[j], lower[j], upper[j], length[j], scale,
                    slop, max_correction, line,
                )  # fmt: skip
            main_rows(
                kind[j], anchor_a[j], anchor_b[j], axis[j], poses[a], poses[b], length[j],
                reference_angle[j], ratio[j], rows, error,
            )  # fmt: skip
            for r in range(3):
                used[r] = USED_ROWS[kind[j], r]
                if carry:
                    error[r] -= start_error[j, r]
                if not used[r]:
                    error[r] = 0.0
            if kind[j] == DISTANCE:
                error[0] = min(max(error[0], -max_correction), max_correction)
            effective_mass(rows, scale, used, k, push)
            if carry:
                # Newton on C along the start rows: K = J_now M^-1 J_start^T. Where a body
                # turned so far that the start rows barely reach C any more (K_now^-1 K
                # far from the identity), the move goes along the rows now instead.
                for r in range(3):
                    for c in range(6):
                        start_push[r, c] = start_rows[j, r, c] * scale[c]
                for r in range(3):
                    for c in range(3):
                        total = 0.0
                        for q in range(6):
                            total += rows[r, q] * start_push[c, q]
                        mixed[r, c] = total
                    if not used[r]:
                        mixed[r, r] += 1.0
                inverse3(k, inverse)
                along_start = True
                for r in range(3):
                    share = 0.0
                    for c in range(3):
                        share += inverse[r, c] * mixed[c, r]
                    if not share > 0.5:
                        along_start = False
                if along_start:
                    k[:, :] = mixed
                    push[:, :] = start_push
            inverse3(k, inverse)
            for r in range(3):
                total = 0.0
                for c in range(3):
                    total += inverse[r, c] * error[c]
                impulse[r] = -total
            for c in range(6):
                move[c] = (
                    impulse[0] * push[0, c] + impulse[1] * push[1, c] + impulse[2] * push[2, c]
                )
            for c in range(3):
                poses[a, c] += move[c]
                poses[b, c] += move[3 + c]
                if carry:
                    velocities[a, c] += move[c] / dt
                    velocities[b, c] += move[3 + c] / dt


@kernel(inline=True)
def _correct_limit(poses, a, b, reference_angle, lower, upper, scale):
    """Turn a revolute joint past its angle limits back towards them (in place)."""
    angle = poses[b, 2] - poses[a, 2] - reference_angle
    # A missing limit is +-inf: its side clips to no error.
    below = min(max(angle - lower + ANGULAR_SLOP, -MAX_ANGULAR_CORRECTION), 0.0)
    above = min(max(angle - upper - ANGULAR_SLOP, 0.0), MAX_ANGULAR_CORRECTION)
    error = below + above
    axial = scale[2] + scale[5]
    impulse = -error / axial if axial > 0.0 else 0.0
    poses[a, 2] -= scale[2] * impulse
    poses[b, 2] += scale[5] * impulse


@kernel(inline=True)
def _correct_axis_limit(kind, anchor_a, anchor_b, axis, poses, a, b, reference_angle,
                        rest_angle, lower, upper, length, scale, slop, max_correction,
                        line):  # fmt: skip
    """Move a prismatic joint past its translation limits, or a rope past its length, back
    towards them (poses in place), along the axis row (line: (6,) scratch)."""
    value = axis_row(
        kind, anchor_a, anchor_b, axis, poses[a], poses[b], reference_angle, rest_angle, line
    )
    if kind == ROPE:
        lower, upper = -np.inf, length
    below = min(max(value - lower + slop, -max_correction), 0.0)
    above = min(max(value - upper - slop, 0.0), max_correction)
    error = below + above
    if error == 0.0:
        return
    inverse = 0.0
    for q in range(6):
        inverse += line[q] * line[q] * scale[q]
    if not inverse > 0.0:
        return
    impulse = -error / inverse
    for q in range(3):
        poses[a, q] += scale[q] * line[q] * impulse
        poses[b, q] += scale[3 + q] * line[3 + q] * impulse
