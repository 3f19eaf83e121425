"""Sequential impulses for joints, in compiled loops, in the same passes as the contacts.

Per joint and pass: the revolute motor (one row, torque-limited), then the two one-sided
angle limits, then the main block (see ``engine.joint_geometry``) solved exactly with its
inverse mass matrix. Rigid rows take no velocity bias: the error they leave is closed by
the soft blocks of the biased pass (``engine.soft_joints``) and, for joint trees, on
positions (``engine.joint_trees``), so the relax passes that use them never add energy.

Springs (distance joints with a frequency f) and mouse joints are soft: a spring-damper
with stiffness k = m w^2 and damping c = 2 m zeta w for the row's mass m, w = 2 pi f.

- A spring with w h <= SYMPLECTIC_LIMIT pushes with its elastic impulse -h k C taken at
  the step start, and damps implicitly:  impulse = -(h k C + h c Cdot_end). Together with
  the position update this is symplectic Euler: an undamped spring keeps its energy and
  oscillates at its frequency (within (w h)^2 / 24). It is stable while the fastest mode
  of a chain of springs, up to 2 w, has 2 w h < 2; the limit keeps a margin.
- Stiffer springs, and mouse joints, use the implicit form (Erin Catto, "Soft
  Constraints", GDC 2011), stable at any stiffness but losing energy (the amplitude of an
  undamped spring shrinks by 1 / sqrt(1 + (w h)^2) per step):
      impulse = -(K + gamma)^-1 (Cdot + bias + gamma * accumulated),
      gamma = 1 / (h (c + h k)),  bias = C h k gamma.

A mouse joint's accumulated impulse is capped at max_force * h. A motor joint's main block
(B's pose against its target) is driven by a bias of ``correction`` times its error per
step, its linear impulse capped at max_force * h and its angular one at max torque * h.

Prismatic and wheel joints, ropes and angular springs also have an axis row with its own
motor, limits or spring (``engine.joint_axis``); the column layout is in
``engine.joint_columns``.
"""

from __future__ import annotations

import math

import numpy as np

from .jit import kernel
from .joint_axis import SYMPLECTIC_LIMIT, prepare_axis, solve_axis, warm_start_axis
from .joint_columns import (
    ACCUMULATED,
    AXIS_DRIVE,
    BIAS,
    GAMMA,
    INVERSE,
    LOWER,
    LOWER_BIAS,
    LOWER_MASS,
    MAX_ANGULAR_IMPULSE,
    MAX_IMPULSE,
    MAX_MOTOR_IMPULSE,
    MOTOR,
    MOTOR_MASS,
    MOTOR_SPEED,
    PUSH,
    ROWS,
    SPRING,
    SPRING_DAMPING,
    SPRING_IMPULSE,
    SPRING_PUSH,
    SPRING_SCALE,
    UPPER,
    UPPER_BIAS,
    UPPER_MASS,
)
from .joint_geometry import (
    HAS_AXIS,
    USED_ROWS,
    axis_row,
    effective_mass,
    inverse3,
    main_rows,
    slot_scale,
)
from .joint_store import DISTANCE, MOTOR_JOINT, MOUSE, REVOLUTE, WHEEL

__all__ = [
    "ACCUMULATED", "LOWER", "MOTOR", "SPRING_IMPULSE", "SYMPLECTIC_LIMIT", "UPPER",
    "joint_scratch", "prepare_joints", "solve_joint", "warm_start_joints",
]  # fmt: skip


@kernel
def joint_scratch():
    """Scratch blocks for one joint at a time, which the step's preparing passes share
    (allocated in each pass, they were a third of a small jointed world's allocations):
    rows and push (3, 6), inverse and k (3, 3), error (3,), scale and line (6,), used
    (3,) bool."""
    return (
        np.zeros((3, 6)), np.zeros((3, 6)), np.zeros((3, 3)), np.zeros(3), np.zeros(6),
        np.zeros((3, 3)), np.zeros(6), np.zeros(3, dtype=np.bool_),
    )  # fmt: skip


@kernel
def prepare_joints(
    kind, anchor_a, anchor_b, reference_angle, lower, upper, max_motor_torque, motor_speed,
    length, frequency, damping, max_force, axis, ratio, rest_angle, correction, slots, solve,
    poses, inv_mass, inv_inertia, dt, accumulated, c, scratch,
):  # fmt: skip
    """What every pass reuses, written into c (J, COLUMNS), one row per joint (see
    ``engine.joint_columns``; the step keeps c between sub-steps and steps, so that these
    megabytes are not fresh pages each time): the joints with ``solve`` (J,) set are
    filled, the others' rows zeroed. Returns c.

    Joint columns as in ``engine.joint_store``; slots: (J, 2) rows of slots A and B in the
    (N + 1,) arrays poses (N + 1, 3) at the step start, inv_mass and inv_inertia (the world:
    the last row, zero). accumulated: (J, ACCUMULATED) impulses (main block, motor, lower,
    upper, spring); those of rows that no longer exist (a motor switched off) are cleared.
    scratch: ``joint_scratch``.
    """
    j_count = len(kind)
    c[:, :] = 0.0
    rows, push, inverse, error, scale, k, line, _ = scratch
    for j in range(j_count):
        if not solve[j]:
            continue
        a, b = slots[j, 0], slots[j, 1]
        knd = kind[j]
        used = USED_ROWS[knd]
        angle = main_rows(
            knd, anchor_a[j], anchor_b[j], axis[j], poses[a], poses[b], length[j],
            reference_angle[j], ratio[j], rows, error,
        )  # fmt: skip
        slot_scale(inv_mass, inv_inertia, a, b, scale)
        effective_mass(rows, scale, used, k, push)
        omega = 2.0 * math.pi * frequency[j]
        c[j, MAX_IMPULSE] = np.inf
        c[j, MAX_ANGULAR_IMPULSE] = np.inf
        c[j, SPRING_SCALE] = 1.0
        if knd == DISTANCE and omega > 0.0 and omega * dt <= SYMPLECTIC_LIMIT:
            # Symplectic spring: elastic push fixed at the step start, implicit damping.
            mass = 1.0 / k[0, 0]
            c[j, SPRING] = 1.0
            c[j, SPRING_PUSH] = dt * mass * omega * omega * error[0]
            c[j, SPRING_DAMPING] = dt * 2.0 * mass * damping[j] * omega
            c[j, SPRING_SCALE] = 1.0 / (1.0 + k[0, 0] * c[j, SPRING_DAMPING])
        elif (knd == DISTANCE and frequency[j] > 0.0) or knd == MOUSE:
            # The row's own mass: along a spring's axis, or the body's for a mouse pull.
            if knd == DISTANCE:
                mass = 1.0 / k[0, 0]
            else:
                mass = 1.0 / inv_mass[b] if inv_mass[b] > 0.0 else 0.0
            stiffness = mass * omega * omega
            total = dt * (2.0 * mass * damping[j] * omega + dt * stiffness)
            soft = 1.0 / total if total > 0.0 else np.inf
            if math.isfinite(soft):
                for r in range(3):
                    if used[r]:
                        c[j, GAMMA + r] = soft
                        c[j, BIAS + r] = error[r] * (dt * stiffness * soft)
                        k[r, r] += soft
            else:
                # Too weak to push at all: left out of the solve, neither rigid nor NaN.
                rows[:, :] = 0.0
                push[:, :] = 0.0
                k[:, :] = 0.0
                for r in range(3):
                    k[r, r] = 1.0
        elif knd == MOTOR_JOINT:
            # A drive, not a constraint: it closes a share of the pose error each step.
            for r in range(3):
                c[j, BIAS + r] = correction[j] * error[r] / dt
        inverse3(k, inverse)
        for r in range(3):
            for q in range(6):
                c[j, ROWS + 6 * r + q] = rows[r, q]
                c[j, PUSH + 6 * r + q] = push[r, q]
            for q in range(3):
                c[j, INVERSE + 3 * r + q] = inverse[r, q]
        if knd == MOUSE or knd == MOTOR_JOINT:
            c[j, MAX_IMPULSE] = max_force[j] * dt
        if knd == MOTOR_JOINT:
            c[j, MAX_ANGULAR_IMPULSE] = max_motor_torque[j] * dt
        # Motor and limits act on the relative angular speed, with the axial mass.
        axial = inv_inertia[a] + inv_inertia[b]
        axial_mass = 1.0 / axial if axial > 0.0 else 0.0
        revolute = knd == REVOLUTE
        motor_used = low_used = high_used = spring_used = False
        if (revolute or knd == WHEEL) and max_motor_torque[j] > 0.0:
            c[j, MOTOR_MASS] = axial_mass
            motor_used = True
        c[j, MAX_MOTOR_IMPULSE] = max_motor_torque[j] * dt
        c[j, MOTOR_SPEED] = motor_speed[j]
        # Speculative: a limit still ahead may be closed within the step and no more.
        if revolute and math.isfinite(lower[j]):
            c[j, LOWER_MASS] = axial_mass
            c[j, LOWER_BIAS] = max(angle - lower[j], 0.0) / dt
            low_used = True
        if revolute and math.isfinite(upper[j]):
            c[j, UPPER_MASS] = axial_mass
            c[j, UPPER_BIAS] = max(upper[j] - angle, 0.0) / dt
            high_used = True
        if HAS_AXIS[knd]:
            value = axis_row(
                knd, anchor_a[j], anchor_b[j], axis[j], poses[a], poses[b], reference_angle[j],
                rest_angle[j], line,
            )  # fmt: skip
            motor_used, low_used, high_used, spring_used = prepare_axis(
                c, j, knd, value, line, scale, lower[j], upper[j], length[j], max_force[j],
                frequency[j], damping[j], dt,
            )  # fmt: skip
        if not motor_used:
            accumulated[j, MOTOR] = 0.0
        if not low_used:
            accumulated[j, LOWER] = 0.0
        if not high_used:
            accumulated[j, UPPER] = 0.0
        if not spring_used:
            accumulated[j, SPRING_IMPULSE] = 0.0
        for r in range(3):
            if not used[r]:
                accumulated[j, r] = 0.0
    return c


@kernel(inline=True)
def _turn(velocity, a, b, inv_inertia, amount):
    """Apply an impulse ``amount`` on the relative angle of slots a and b."""
    velocity[a, 2] -= inv_inertia[a] * amount
    velocity[b, 2] += inv_inertia[b] * amount


@kernel(inline=True)
def _push_row(velocity, a, b, c, j, r, impulse):
    """(v[a], v[b]) += joint j's push row r * impulse."""
    base = PUSH + 6 * r
    velocity[a, 0] += c[j, base] * impulse
    velocity[a, 1] += c[j, base + 1] * impulse
    velocity[a, 2] += c[j, base + 2] * impulse
    velocity[b, 0] += c[j, base + 3] * impulse
    velocity[b, 1] += c[j, base + 4] * impulse
    velocity[b, 2] += c[j, base + 5] * impulse


@kernel(inline=True)
def _speed(velocity, a, b, c, j, r):
    """Joint j's row r . (v[a], v[b])."""
    base = ROWS + 6 * r
    return (
        c[j, base] * velocity[a, 0]
        + c[j, base + 1] * velocity[a, 1]
        + c[j, base + 2] * velocity[a, 2]
        + c[j, base + 3] * velocity[b, 0]
        + c[j, base + 4] * velocity[b, 1]
        + c[j, base + 5] * velocity[b, 2]
    )


@kernel
def warm_start_joints(kind, slots, solve, c, accumulated, inv_inertia, velocity):
    """Apply last step's joint impulses (accumulated (J, ACCUMULATED)) to ``velocity``
    (N + 1, 3)."""
    for j in range(len(slots)):
        if not solve[j]:
            continue
        a, b = slots[j, 0], slots[j, 1]
        for r in range(3):
            _push_row(velocity, a, b, c, j, r, accumulated[j, r])
        if HAS_AXIS[kind[j]]:
            warm_start_axis(j, a, b, c, accumulated, velocity)
        if c[j, AXIS_DRIVE] == 0.0:
            angular = accumulated[j, MOTOR] + accumulated[j, LOWER] - accumulated[j, UPPER]
            _turn(velocity, a, b, inv_inertia, angular)


@kernel(inline=True)
def solve_joint(j, a, b, has_axis, c, accumulated, inv_inertia, velocity, turns_elsewhere,
                main_elsewhere):  # fmt: skip
    """One Gauss-Seidel visit of joint j (slots a, b; prepared rows c; impulses
    accumulated (J, ACCUMULATED)): its axis row, angular motor, limits, then the main
    block. turns_elsewhere: the motor and limits are solved by another pass (a tree's
    revolute joint, ``engine.tree_turns``) and skipped here, as if their masses were
    zero; main_elsewhere: the main block is (``engine.joint_trees``), and is visited as if
    its inverse were zero, as the rows' copies with those columns cleared once were."""
    if has_axis:
        solve_axis(j, a, b, c, accumulated, velocity)
    if not turns_elsewhere and c[j, MOTOR_MASS] > 0.0:
        relative = velocity[b, 2] - velocity[a, 2] - c[j, MOTOR_SPEED]
        old = accumulated[j, MOTOR]
        bound = c[j, MAX_MOTOR_IMPULSE]
        new = min(max(old - c[j, MOTOR_MASS] * relative, -bound), bound)
        _turn(velocity, a, b, inv_inertia, new - old)
        accumulated[j, MOTOR] = new
    if not turns_elsewhere and c[j, LOWER_MASS] > 0.0:
        relative = velocity[b, 2] - velocity[a, 2]
        old = accumulated[j, LOWER]
        new = max(old - c[j, LOWER_MASS] * (relative + c[j, LOWER_BIAS]), 0.0)
        _turn(velocity, a, b, inv_inertia, new - old)
        accumulated[j, LOWER] = new
    if not turns_elsewhere and c[j, UPPER_MASS] > 0.0:
        relative = velocity[a, 2] - velocity[b, 2]
        old = accumulated[j, UPPER]
        new = max(old - c[j, UPPER_MASS] * (relative + c[j, UPPER_BIAS]), 0.0)
        _turn(velocity, a, b, inv_inertia, old - new)
        accumulated[j, UPPER] = new
    speed0 = _speed(velocity, a, b, c, j, 0)
    speed1 = _speed(velocity, a, b, c, j, 1)
    speed2 = _speed(velocity, a, b, c, j, 2)
    x0, x1, x2 = accumulated[j, 0], accumulated[j, 1], accumulated[j, 2]
    bias0 = speed0 + c[j, BIAS] + c[j, GAMMA] * x0
    bias1 = speed1 + c[j, BIAS + 1] + c[j, GAMMA + 1] * x1
    bias2 = speed2 + c[j, BIAS + 2] + c[j, GAMMA + 2] * x2
    i = INVERSE
    if main_elsewhere:
        # The same arithmetic on a zero inverse (no fast-math: 0 x is not folded away).
        step0 = step1 = step2 = -(0.0 * bias0 + 0.0 * bias1 + 0.0 * bias2)
    else:
        step0 = -(c[j, i] * bias0 + c[j, i + 1] * bias1 + c[j, i + 2] * bias2)
        step1 = -(c[j, i + 3] * bias0 + c[j, i + 4] * bias1 + c[j, i + 5] * bias2)
        step2 = -(c[j, i + 6] * bias0 + c[j, i + 7] * bias1 + c[j, i + 8] * bias2)
    if c[j, SPRING] > 0.0:
        # Elastic push fixed at the step start, damping against the velocity now.
        step0 = -(c[j, SPRING_DAMPING] * speed0 + c[j, SPRING_PUSH] + x0) * c[j, SPRING_SCALE]
    new0, new1, new2 = x0 + step0, x1 + step1, x2 + step2
    # A mouse or motor joint pushes with at most max_force: cap the accumulated linear
    # impulse's length (row 2 of a mouse is unused and zero), and a motor joint's torque.
    size = math.sqrt(new0 * new0 + new1 * new1)
    if size > c[j, MAX_IMPULSE]:
        factor = c[j, MAX_IMPULSE] / size
        new0, new1 = new0 * factor, new1 * factor
    if abs(new2) > c[j, MAX_ANGULAR_IMPULSE]:
        new2 = math.copysign(c[j, MAX_ANGULAR_IMPULSE], new2)
    _push_row(velocity, a, b, c, j, 0, new0 - x0)
    _push_row(velocity, a, b, c, j, 1, new1 - x1)
    _push_row(velocity, a, b, c, j, 2, new2 - x2)
    accumulated[j, 0], accumulated[j, 1], accumulated[j, 2] = new0, new1, new2
