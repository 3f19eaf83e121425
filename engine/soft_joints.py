"""Soft joints for the sub-stepped solver (``engine.substep``).

The rigid joints get no position pass after the step: their error C is closed by a velocity
bias, softened like a contact (``engine.soft_contacts``): the main block's impulse step is
    -mass_scale K^-1 (Cdot + rate C) - impulse_scale x
with K the block's mass matrix (a compliance added to K's diagonal instead would not be
the same for every direction: a small disc on a long arm, its K nearly of rank one, would
hang on a soft string). A revolute joint past its angle limit is turned back at the rate,
and so are a prismatic joint past a limit of its translation and a rope past its length
(held by the rigid rows alone, a rope swinging a thrown load stretched 20 %: each
sub-step's row along the rope's direction at its start lets the load move out along the
arc it turns through).

Springs, mouse, motor and angular-spring joints are soft by design and keep their rows;
the relax passes use the rigid rows without bias, with each spring's push kept from the
sub-step's start (``keep_spring_pushes``). Rigid joints whose graph is a tree are
solved exactly instead (``engine.joint_trees``): they get no soft block. Nor do gears:
their row is linear in the angles, so it stays rigid, biased to close its error within
the sub-step (``engine.substep`` visits it again after the trees).
"""

from __future__ import annotations

import math

import numpy as np

from .jit import kernel
from .joint_columns import (
    AXIS_LOWER_BIAS,
    AXIS_LOWER_MASS,
    AXIS_SPRING_BIAS,
    AXIS_UPPER_BIAS,
    AXIS_UPPER_MASS,
    BIAS,
    COLUMNS,
    INVERSE,
    LOWER_BIAS,
    LOWER_MASS,
    PUSH,
    ROWS,
    SPRING_PUSH,
    UPPER_BIAS,
    UPPER_MASS,
)
from .joint_geometry import USED_ROWS, axis_row, effective_mass, inverse3, main_rows, slot_scale
from .joint_store import (
    ANGULAR_SPRING,
    DISTANCE,
    GEAR,
    MOTOR_JOINT,
    MOUSE,
    PRISMATIC,
    REVOLUTE,
    ROPE,
)
from .soft_contacts import softness

# Columns of the soft main blocks: mass_scale K^-1 (3, 3) row-major, the bias, a flag.
SOFT_INVERSE, SOFT_BIAS, SOFT = 0, 9, 12
SOFT_MAIN = 13


def joint_workspace(j_count: int) -> tuple:
    """Room for the solver's rows of j_count joints, which every sub-step rewrites: the
    prepared rows and the softened ones (J, COLUMNS), and the soft main blocks (J,
    SOFT_MAIN). Kept by the world between steps: rows of a few thousand joints are
    megabytes, and allocated afresh several times a sub-step they were new pages each
    time, which the system zeroed (a 3,114-joint grid spent a quarter of its step there)."""
    return (
        np.zeros((j_count, COLUMNS)),
        np.zeros((j_count, COLUMNS)),
        np.zeros((j_count, SOFT_MAIN)),
    )


@kernel
def soften_joints(c, kind, anchor_a, anchor_b, reference_angle, lower, upper, length,
                  frequency, axis, ratio, slots, solve, poses, inv_mass, inv_inertia, hertz,
                  damping_ratio, h, exact, out, main, scratch):  # fmt: skip
    """The rows the biased passes use, written into out (J, COLUMNS) and main (J,
    SOFT_MAIN) and returned: out a copy of the prepared joint rows c (J, COLUMNS)
    (``engine.joint_solver``) whose rigid joints have no main block there (their inverse
    is cleared) and turn back past revolute limits, main the soft main blocks for
    ``solve_soft_main`` (mass_scale K^-1, then the bias rate * C; zero elsewhere).

    Joint columns (J,) as in ``engine.joint_store``; slots (J, 2); solve (J,) bool;
    poses (N + 1, 3) now; inv_mass, inv_inertia (N + 1,); hertz, damping_ratio: the
    joints' stiffness; h: the sub-step. hertz 0 leaves the rows rigid, with no bias.
    exact (J,) bool: joints whose main block is solved exactly elsewhere
    (``engine.joint_trees``): cleared here too, with no soft block. scratch:
    ``engine.joint_solver.joint_scratch``.
    """
    out[:, :] = c
    main[:, :] = 0.0
    for j in range(len(kind)):
        if exact[j]:
            for q in range(9):
                out[j, INVERSE + q] = 0.0
    if hertz <= 0.0:
        return out, main
    rate, mass_scale, _ = softness(hertz, damping_ratio, h)
    rows, push, inverse, error, scale, k, line, used = scratch
    for j in range(len(kind)):
        knd = kind[j]
        if solve[j] and (knd == PRISMATIC or knd == ROPE):
            _pull_back_axis(
                out, j, knd, anchor_a[j], anchor_b[j], axis[j], poses, slots,
                reference_angle[j], lower[j], upper[j], length[j], rate, line,
            )  # fmt: skip
        designed_soft = knd == MOUSE or knd == MOTOR_JOINT or knd == ANGULAR_SPRING
        if not solve[j] or designed_soft or (knd == DISTANCE and frequency[j] > 0.0):
            continue
        a, b = slots[j, 0], slots[j, 1]
        angle = main_rows(
            knd, anchor_a[j], anchor_b[j], axis[j], poses[a], poses[b], length[j],
            reference_angle[j], ratio[j], rows, error,
        )  # fmt: skip
        if knd == GEAR:
            # A gear's row is linear in the angles: kept rigid, closing its error within
            # the sub-step, it holds its ratio within 1e-6 rad (a spring under a steady
            # torque sat 1.4e-4 rad off it).
            out[j, BIAS] = error[0] / h
            continue
        if not exact[j]:
            slot_scale(inv_mass, inv_inertia, a, b, scale)
            for r in range(3):
                used[r] = USED_ROWS[knd, r]
            effective_mass(rows, scale, used, k, push)
            inverse3(k, inverse)
            main[j, SOFT] = 1.0
            for r in range(3):
                if used[r]:
                    main[j, SOFT_BIAS + r] = rate * error[r]
                for q in range(3):
                    main[j, SOFT_INVERSE + 3 * r + q] = mass_scale * inverse[r, q]
                    out[j, INVERSE + 3 * r + q] = 0.0
        if knd == REVOLUTE:
            # Past a limit: back towards it at the spring's rate (ahead of it, the rigid
            # rows' speculative bias already lets it close no more than the gap).
            if out[j, LOWER_MASS] > 0.0 and angle < lower[j]:
                out[j, LOWER_BIAS] = rate * (angle - lower[j])
            if out[j, UPPER_MASS] > 0.0 and angle > upper[j]:
                out[j, UPPER_BIAS] = rate * (upper[j] - angle)
    return out, main


@kernel(inline=True)
def _pull_back_axis(out, j, kind, anchor_a, anchor_b, axis, poses, slots, reference_angle,
                    lower, upper, length, rate, line):  # fmt: skip
    """Past a limit of its axis (a prismatic joint's translation, a rope's span): back
    towards it at the spring's rate; ahead of it, the speculative bias stays."""
    value = axis_row(
        kind, anchor_a, anchor_b, axis, poses[slots[j, 0]], poses[slots[j, 1]],
        reference_angle, 0.0, line,
    )  # fmt: skip
    if kind == ROPE:
        lower, upper = -math.inf, length
    if out[j, AXIS_LOWER_MASS] > 0.0 and value < lower:
        out[j, AXIS_LOWER_BIAS] = rate * (value - lower)
    if out[j, AXIS_UPPER_MASS] > 0.0 and value > upper:
        out[j, AXIS_UPPER_BIAS] = rate * (upper - value)


@kernel
def keep_spring_pushes(relax, start, kind, frequency):
    """Give the relax passes' rows relax (J, COLUMNS) the elastic pushes of the rows at the
    sub-step's start (J, COLUMNS), in place: springs (distance with a frequency, axis and
    angular springs), mouse and motor joints. A spring is a force over the sub-step, and
    the relax passes only take out the constraints' bias: pushed again from where the
    sub-step ends, an undamped spring's velocity takes the force at the new position while
    its position took the old one, losing a share (w h)^2 of its energy every sub-step
    (half its amplitude in 8 s at 1 Hz)."""
    for j in range(len(kind)):
        knd = kind[j]
        relax[j, SPRING_PUSH] = start[j, SPRING_PUSH]
        relax[j, AXIS_SPRING_BIAS] = start[j, AXIS_SPRING_BIAS]
        if knd == MOUSE or knd == MOTOR_JOINT or (knd == DISTANCE and frequency[j] > 0.0):
            for r in range(3):
                relax[j, BIAS + r] = start[j, BIAS + r]


@kernel(inline=True)
def solve_soft_main(j, a, b, c, main, accumulated, impulse_scale, velocity):
    """The soft main block of joint j (slots a, b), if it has one: c the prepared rows
    (their Jacobian and push), main the soft blocks, accumulated (J, ACCUMULATED)."""
    if main[j, SOFT] == 0.0:
        return
    b0 = _speed(c, j, a, b, 0, velocity) + main[j, SOFT_BIAS]
    b1 = _speed(c, j, a, b, 1, velocity) + main[j, SOFT_BIAS + 1]
    b2 = _speed(c, j, a, b, 2, velocity) + main[j, SOFT_BIAS + 2]
    for r in range(3):
        i = SOFT_INVERSE + 3 * r
        step = -impulse_scale * accumulated[j, r] - (
            main[j, i] * b0 + main[j, i + 1] * b1 + main[j, i + 2] * b2
        )
        accumulated[j, r] += step
        base = PUSH + 6 * r
        velocity[a, 0] += c[j, base] * step
        velocity[a, 1] += c[j, base + 1] * step
        velocity[a, 2] += c[j, base + 2] * step
        velocity[b, 0] += c[j, base + 3] * step
        velocity[b, 1] += c[j, base + 4] * step
        velocity[b, 2] += c[j, base + 5] * step


@kernel(inline=True)
def _speed(c, j, a, b, r, velocity):
    """Joint j's Jacobian row r . (v[a], v[b])."""
    base = ROWS + 6 * r
    return (
        c[j, base] * velocity[a, 0] + c[j, base + 1] * velocity[a, 1]
        + c[j, base + 2] * velocity[a, 2] + c[j, base + 3] * velocity[b, 0]
        + c[j, base + 4] * velocity[b, 1] + c[j, base + 5] * velocity[b, 2]
    )  # fmt: skip
