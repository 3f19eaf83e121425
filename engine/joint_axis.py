"""A joint's axis row: the one coordinate its motor, limits or spring act along.

- prismatic: the translation of B's anchor along the axis fixed in A; motor (bounded by
  max_force) and limits;
- wheel: the same translation, held by a spring (the wheel's motor turns it: the angular
  motor of ``engine.joint_solver``);
- rope: the span between the anchors, with an upper limit at the rope's length;
- angular spring: the relative angle from the rest angle, held by a spring.

Limits are speculative, as the revolute ones: a limit still ahead may be closed within the
step and no more. Springs are integrated as the distance joint's are (symplectic up to
``SYMPLECTIC_LIMIT``, implicit above), with the stiffness of the axis row's own mass.
"""

from __future__ import annotations

import math

from .jit import kernel
from .joint_columns import (
    AXIS_DRIVE,
    AXIS_LOWER_BIAS,
    AXIS_LOWER_MASS,
    AXIS_MAX_MOTOR,
    AXIS_MOTOR_MASS,
    AXIS_PUSH,
    AXIS_ROW,
    AXIS_SPRING_BIAS,
    AXIS_SPRING_KEEP,
    AXIS_SPRING_SCALE,
    AXIS_SPRING_SPEED,
    AXIS_UPPER_BIAS,
    AXIS_UPPER_MASS,
    LOWER,
    MOTOR,
    MOTOR_SPEED,
    SPRING_IMPULSE,
    UPPER,
)
from .joint_store import PRISMATIC, ROPE

# Largest w h (w = 2 pi f) at which a spring is integrated symplectically (see
# ``engine.joint_solver``).
SYMPLECTIC_LIMIT = 0.5


@kernel(inline=True)
def prepare_axis(c, j, kind, value, row, scale, lower, upper, length, max_force, frequency,
                 damping, dt):  # fmt: skip
    """Fill joint j's axis columns of c (J, COLUMNS) from its axis row (6,) and coordinate
    ``value`` at the step start; scale (6,): the slots' inverse masses and inertias.
    Returns which accumulated slots (motor, lower, upper, spring) are in use."""
    inverse = 0.0
    for q in range(6):
        c[j, AXIS_ROW + q] = row[q]
        c[j, AXIS_PUSH + q] = row[q] * scale[q]
        inverse += row[q] * row[q] * scale[q]
    mass = 1.0 / inverse if inverse > 0.0 else 0.0
    motor = low = high = spring = False
    if kind == PRISMATIC or kind == ROPE:
        c[j, AXIS_DRIVE] = 1.0
        if kind == ROPE:
            lower, upper = -math.inf, length
        if kind == PRISMATIC and max_force > 0.0 and mass > 0.0:
            c[j, AXIS_MOTOR_MASS] = mass
            c[j, AXIS_MAX_MOTOR] = max_force * dt
            motor = True
        if math.isfinite(lower) and mass > 0.0:
            c[j, AXIS_LOWER_MASS] = mass
            c[j, AXIS_LOWER_BIAS] = max(value - lower, 0.0) / dt
            low = True
        if math.isfinite(upper) and mass > 0.0:
            c[j, AXIS_UPPER_MASS] = mass
            c[j, AXIS_UPPER_BIAS] = max(upper - value, 0.0) / dt
            high = True
    elif frequency > 0.0 and mass > 0.0:
        omega = 2.0 * math.pi * frequency
        spring = True
        if omega * dt <= SYMPLECTIC_LIMIT:
            # Elastic push fixed at the step start, damping implicit (symplectic Euler).
            push = dt * mass * omega * omega * value
            drag = dt * 2.0 * mass * damping * omega
            c[j, AXIS_SPRING_SPEED] = drag
            c[j, AXIS_SPRING_BIAS] = push
            c[j, AXIS_SPRING_KEEP] = 1.0
            c[j, AXIS_SPRING_SCALE] = 1.0 / (1.0 + inverse * drag)
        else:
            stiffness = mass * omega * omega
            soft = 1.0 / (dt * (2.0 * mass * damping * omega + dt * stiffness))
            c[j, AXIS_SPRING_SPEED] = 1.0
            c[j, AXIS_SPRING_BIAS] = value * (dt * stiffness * soft)
            c[j, AXIS_SPRING_KEEP] = soft
            c[j, AXIS_SPRING_SCALE] = 1.0 / (inverse + soft)
    return motor, low, high, spring


@kernel(inline=True)
def _axis_speed(velocity, a, b, c, j):
    """Joint j's axis row . (v[a], v[b])."""
    return (
        c[j, AXIS_ROW] * velocity[a, 0]
        + c[j, AXIS_ROW + 1] * velocity[a, 1]
        + c[j, AXIS_ROW + 2] * velocity[a, 2]
        + c[j, AXIS_ROW + 3] * velocity[b, 0]
        + c[j, AXIS_ROW + 4] * velocity[b, 1]
        + c[j, AXIS_ROW + 5] * velocity[b, 2]
    )


@kernel(inline=True)
def push_axis(velocity, a, b, c, j, impulse):
    """(v[a], v[b]) += joint j's axis push * impulse."""
    velocity[a, 0] += c[j, AXIS_PUSH] * impulse
    velocity[a, 1] += c[j, AXIS_PUSH + 1] * impulse
    velocity[a, 2] += c[j, AXIS_PUSH + 2] * impulse
    velocity[b, 0] += c[j, AXIS_PUSH + 3] * impulse
    velocity[b, 1] += c[j, AXIS_PUSH + 4] * impulse
    velocity[b, 2] += c[j, AXIS_PUSH + 5] * impulse


@kernel(inline=True)
def solve_axis(j, a, b, c, accumulated, velocity):
    """One visit of joint j's axis row: spring, motor, then the two limits."""
    if c[j, AXIS_SPRING_SCALE] > 0.0:
        old = accumulated[j, SPRING_IMPULSE]
        speed = _axis_speed(velocity, a, b, c, j)
        step = (
            -(
                c[j, AXIS_SPRING_SPEED] * speed
                + c[j, AXIS_SPRING_BIAS]
                + c[j, AXIS_SPRING_KEEP] * old
            )
            * c[j, AXIS_SPRING_SCALE]
        )
        push_axis(velocity, a, b, c, j, step)
        accumulated[j, SPRING_IMPULSE] = old + step
    if c[j, AXIS_MOTOR_MASS] > 0.0:
        relative = _axis_speed(velocity, a, b, c, j) - c[j, MOTOR_SPEED]
        old = accumulated[j, MOTOR]
        bound = c[j, AXIS_MAX_MOTOR]
        new = min(max(old - c[j, AXIS_MOTOR_MASS] * relative, -bound), bound)
        push_axis(velocity, a, b, c, j, new - old)
        accumulated[j, MOTOR] = new
    if c[j, AXIS_LOWER_MASS] > 0.0:
        relative = _axis_speed(velocity, a, b, c, j)
        old = accumulated[j, LOWER]
        new = max(old - c[j, AXIS_LOWER_MASS] * (relative + c[j, AXIS_LOWER_BIAS]), 0.0)
        push_axis(velocity, a, b, c, j, new - old)
        accumulated[j, LOWER] = new
    if c[j, AXIS_UPPER_MASS] > 0.0:
        relative = -_axis_speed(velocity, a, b, c, j)
        old = accumulated[j, UPPER]
        new = max(old - c[j, AXIS_UPPER_MASS] * (relative + c[j, AXIS_UPPER_BIAS]), 0.0)
        push_axis(velocity, a, b, c, j, old - new)
        accumulated[j, UPPER] = new


@kernel(inline=True)
def warm_start_axis(j, a, b, c, accumulated, velocity):
    """Apply joint j's last impulses along its axis row: the spring's, and the motor's and
    limits' when they act along it."""
    impulse = accumulated[j, SPRING_IMPULSE]
    if c[j, AXIS_DRIVE] > 0.0:
        impulse += accumulated[j, MOTOR] + accumulated[j, LOWER] - accumulated[j, UPPER]
    if impulse != 0.0:
        push_axis(velocity, a, b, c, j, impulse)
