"""Sequential impulses for joints, in compiled loops, in the same passes as the contacts.

Per joint and pass: the revolute motor (one row, torque-limited), then the two one-sided
angle limits, then the main block (see ``engine.joint_geometry``) solved exactly with its
inverse mass matrix. Rigid rows take no velocity bias: the drift they leave is removed on
positions after the step (``engine.joint_positions``), so correcting a stretched joint
never adds energy.

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

A mouse joint's accumulated impulse is capped at max_force * h.
"""

from __future__ import annotations

import math

import numpy as np

from .jit import kernel
from .joint_geometry import USED_ROWS, effective_mass, inverse3, main_rows, slot_scale
from .joint_store import DISTANCE, MOUSE, REVOLUTE
from .rows import add6, dot6

# Largest w h (w = 2 pi f) at which a spring is integrated symplectically (see above).
SYMPLECTIC_LIMIT = 0.5


@kernel
def prepare_joints(
    kind, anchor_a, anchor_b, reference_angle, lower, upper, max_motor_torque, length,
    frequency, damping, max_force, impulse, motor_impulse, lower_impulse, upper_impulse,
    slots, solve, poses, inv_mass, inv_inertia, dt,
):  # fmt: skip
    """What every pass reuses, per joint J (only those with ``solve`` (J,) set).

    Joint columns as in ``engine.joint_store`` (J,) / (J, 2) / (J, 3); slots: (J, 2) rows of
    slots A and B in the (N + 1,) arrays poses (N + 1, 3) at the step start, inv_mass and
    inv_inertia (the world: the last row, zero). Clears the impulses of rows that no longer
    exist (a motor switched off). Returns rows, push (J, 3, 6); inverse, gamma (J, 3, 3)
    and (J, 3); bias (J, 3); max_impulse (J,); spring (J,) bool with spring_push,
    spring_damping, spring_scale (J,); motor_mass, max_motor_impulse, lower_mass,
    upper_mass, lower_bias, upper_bias (J,).
    """
    j_count = len(kind)
    rows = np.zeros((j_count, 3, 6))
    push = np.zeros((j_count, 3, 6))
    inverse = np.zeros((j_count, 3, 3))
    gamma = np.zeros((j_count, 3))
    bias = np.zeros((j_count, 3))
    max_impulse = np.full(j_count, np.inf)
    spring = np.zeros(j_count, dtype=np.bool_)
    spring_push = np.zeros(j_count)
    spring_damping = np.zeros(j_count)
    spring_scale = np.ones(j_count)
    motor_mass = np.zeros(j_count)
    max_motor_impulse = np.zeros(j_count)
    lower_mass = np.zeros(j_count)
    upper_mass = np.zeros(j_count)
    lower_bias = np.zeros(j_count)
    upper_bias = np.zeros(j_count)
    error = np.zeros(3)
    scale = np.zeros(6)
    k = np.zeros((3, 3))
    for j in range(j_count):
        if not solve[j]:
            continue
        a, b = slots[j, 0], slots[j, 1]
        knd = kind[j]
        used = USED_ROWS[knd]
        angle = main_rows(
            knd, anchor_a[j], anchor_b[j], poses[a], poses[b], length[j], reference_angle[j],
            rows[j], error,
        )  # fmt: skip
        slot_scale(inv_mass, inv_inertia, a, b, scale)
        effective_mass(rows[j], scale, used, k, push[j])
        omega = 2.0 * math.pi * frequency[j]
        if knd == DISTANCE and omega > 0.0 and omega * dt <= SYMPLECTIC_LIMIT:
            # Symplectic spring: elastic push fixed at the step start, implicit damping.
            spring[j] = True
            mass = 1.0 / k[0, 0]
            spring_push[j] = dt * mass * omega * omega * error[0]
            spring_damping[j] = dt * 2.0 * mass * damping[j] * omega
            spring_scale[j] = 1.0 / (1.0 + k[0, 0] * spring_damping[j])
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
                        gamma[j, r] = soft
                        bias[j, r] = error[r] * (dt * stiffness * soft)
                        k[r, r] += soft
            else:
                # Too weak to push at all: left out of the solve, neither rigid nor NaN.
                rows[j, :, :] = 0.0
                push[j, :, :] = 0.0
                k[:, :] = 0.0
                for r in range(3):
                    k[r, r] = 1.0
        inverse3(k, inverse[j])
        if knd == MOUSE:
            max_impulse[j] = max_force[j] * dt
        # Motor and limits act on the relative angular speed, with the axial mass.
        axial = inv_inertia[a] + inv_inertia[b]
        axial_mass = 1.0 / axial if axial > 0.0 else 0.0
        revolute = knd == REVOLUTE
        if revolute and max_motor_torque[j] > 0.0:
            motor_mass[j] = axial_mass
        else:
            motor_impulse[j] = 0.0
        max_motor_impulse[j] = max_motor_torque[j] * dt
        # Speculative: a limit still ahead may be closed within the step and no more.
        if revolute and math.isfinite(lower[j]):
            lower_mass[j] = axial_mass
            lower_bias[j] = max(angle - lower[j], 0.0) / dt
        else:
            lower_impulse[j] = 0.0
        if revolute and math.isfinite(upper[j]):
            upper_mass[j] = axial_mass
            upper_bias[j] = max(upper[j] - angle, 0.0) / dt
        else:
            upper_impulse[j] = 0.0
        for r in range(3):
            if not used[r]:
                impulse[j, r] = 0.0
    return (
        rows, push, inverse, gamma, bias, max_impulse, spring, spring_push, spring_damping,
        spring_scale, motor_mass, max_motor_impulse, lower_mass, upper_mass, lower_bias,
        upper_bias,
    )  # fmt: skip


@kernel(inline=True)
def _turn(velocity, a, b, inv_inertia, amount):
    """Apply an impulse ``amount`` on the relative angle of slots a and b."""
    velocity[a, 2] -= inv_inertia[a] * amount
    velocity[b, 2] += inv_inertia[b] * amount


@kernel
def warm_start_joints(
    slots, solve, push, impulse, motor_impulse, lower_impulse, upper_impulse, inv_inertia,
    velocity,
):  # fmt: skip
    """Apply last step's joint impulses to ``velocity`` (N + 1, 3)."""
    for j in range(len(slots)):
        if not solve[j]:
            continue
        a, b = slots[j, 0], slots[j, 1]
        for r in range(3):
            add6(velocity, a, b, push[j, r], impulse[j, r])
        _turn(velocity, a, b, inv_inertia, motor_impulse[j] + lower_impulse[j] - upper_impulse[j])


@kernel(inline=True)
def solve_joint(
    j, a, b, rows, push, inverse, gamma, bias, max_impulse, spring, spring_push,
    spring_damping, spring_scale, motor_mass, max_motor_impulse, lower_mass, upper_mass,
    lower_bias, upper_bias, motor_speed, impulse, motor_impulse, lower_impulse,
    upper_impulse, inv_inertia, velocity, speed, step,
):  # fmt: skip
    """One Gauss-Seidel visit of joint j: motor, limits, then the main block.
    speed, step: (3,) scratch."""
    if motor_mass[j] > 0.0:
        relative = velocity[b, 2] - velocity[a, 2] - motor_speed[j]
        old = motor_impulse[j]
        bound = max_motor_impulse[j]
        new = min(max(old - motor_mass[j] * relative, -bound), bound)
        _turn(velocity, a, b, inv_inertia, new - old)
        motor_impulse[j] = new
    if lower_mass[j] > 0.0:
        relative = velocity[b, 2] - velocity[a, 2]
        old = lower_impulse[j]
        new = max(old - lower_mass[j] * (relative + lower_bias[j]), 0.0)
        _turn(velocity, a, b, inv_inertia, new - old)
        lower_impulse[j] = new
    if upper_mass[j] > 0.0:
        relative = velocity[a, 2] - velocity[b, 2]
        old = upper_impulse[j]
        new = max(old - upper_mass[j] * (relative + upper_bias[j]), 0.0)
        _turn(velocity, a, b, inv_inertia, old - new)
        upper_impulse[j] = new
    for r in range(3):
        speed[r] = dot6(rows[j, r], velocity, a, b)
    for r in range(3):
        total = 0.0
        for c in range(3):
            total += inverse[j, r, c] * (speed[c] + bias[j, c] + gamma[j, c] * impulse[j, c])
        step[r] = -total
    if spring[j]:
        # Elastic push fixed at the step start, damping against the velocity now.
        step[0] = -(spring_damping[j] * speed[0] + spring_push[j] + impulse[j, 0]) * spring_scale[j]
    # A mouse joint pulls with at most max_force: cap the accumulated impulse's length.
    size = 0.0
    for r in range(3):
        size += (impulse[j, r] + step[r]) ** 2
    size = math.sqrt(size)
    factor = max_impulse[j] / size if size > max_impulse[j] else 1.0
    for r in range(3):
        new = (impulse[j, r] + step[r]) * factor
        add6(velocity, a, b, push[j, r], new - impulse[j, r])
        impulse[j, r] = new
