"""The layout of the joint solver's prepared rows and accumulated impulses.

Everything a pass reads of a joint is one row of a single (J, COLUMNS) array, and its
accumulated impulses one row of a (J, ACCUMULATED) array: an inner-loop helper handed many
arrays pays for each of them on every call, more than for the arithmetic.
"""

from __future__ import annotations

# The main block (see ``engine.joint_geometry``).
ROWS = 0  # 18: its three Jacobian rows, (3, 6) row-major
PUSH = 18  # 18: the same scaled by inverse mass and inertia (velocity per impulse)
INVERSE = 36  # 9: (K + gamma)^-1, row-major; zero for a broken block
GAMMA, BIAS = 45, 48  # 3 each: softness of each row, and its bias
MAX_IMPULSE = 51  # a mouse or motor joint's max_force * h on rows 0 and 1; inf otherwise
SPRING, SPRING_PUSH, SPRING_DAMPING, SPRING_SCALE = 52, 53, 54, 55  # symplectic springs
# The angular motor and limits (revolute; the wheel's motor).
MOTOR_MASS, MAX_MOTOR_IMPULSE, MOTOR_SPEED = 56, 57, 58
LOWER_MASS, UPPER_MASS, LOWER_BIAS, UPPER_BIAS = 59, 60, 61, 62
MAX_ANGULAR_IMPULSE = 63  # a motor joint's max torque * h on row 2; inf otherwise
# The axis row (see ``engine.joint_axis``): its Jacobian and push, and what acts on it.
AXIS_ROW, AXIS_PUSH = 64, 70  # 6 each
AXIS_DRIVE = 76  # 1: the motor and limit impulses act along the axis row, not the angle
AXIS_MOTOR_MASS, AXIS_MAX_MOTOR = 77, 78
AXIS_LOWER_MASS, AXIS_UPPER_MASS, AXIS_LOWER_BIAS, AXIS_UPPER_BIAS = 79, 80, 81, 82
# The axis spring: impulse step = -(SPEED * Cdot + BIAS + KEEP * accumulated) * SCALE.
AXIS_SPRING_SPEED, AXIS_SPRING_BIAS, AXIS_SPRING_KEEP, AXIS_SPRING_SCALE = 83, 84, 85, 86
COLUMNS = 87

# Columns of the accumulated impulses: the main block's three, then these.
MOTOR, LOWER, UPPER, SPRING_IMPULSE = 3, 4, 5, 6
ACCUMULATED = 7
