"""The joint table: one row per joint, in the order the joints were added.

A joint joins slot A and slot B. A slot holds a body id, or -1 for the world itself (a
fixed frame at the origin). When a joint holds one body to the world, the world takes slot
A and the body slot B, whatever order the user gave: then the joint's angle, limits and
motor speed are the body's own turn, counter-clockwise, as one would expect of a wheel on
an axle. Anchors are stored in each slot's own frame (for the world: world points), so a
joint follows its bodies without being updated.

Columns are shared between kinds where their meaning is the same: ``lower``, ``upper`` and
``motor_speed`` are on the joint's coordinate (an angle for a revolute joint, a
translation for a prismatic one), ``max_force`` bounds a force (a mouse's pull, a
prismatic motor, a motor joint) and ``max_motor_torque`` a torque.
"""

from __future__ import annotations

import numpy as np

REVOLUTE, DISTANCE, WELD, MOUSE = 0, 1, 2, 3
PRISMATIC, WHEEL, ROPE, ANGULAR_SPRING, GEAR, MOTOR_JOINT = 4, 5, 6, 7, 8, 9
WORLD = -1

# Field name -> (trailing shape, dtype) of the per-joint arrays.
JOINT_FIELDS = {
    "joint_id": ((), np.int64),
    "kind": ((), np.int8),
    "body_a": ((), np.int64),  # body id in slot A, or WORLD
    "body_b": ((), np.int64),
    "anchor_a": ((2,), np.float64),  # in slot A's frame, from its centre of mass
    "anchor_b": ((2,), np.float64),
    # angle_b - angle_a when the joint was made; a gear: angle_a + ratio angle_b then; a
    # motor joint: the angle_b - angle_a it drives to (its angular offset)
    "reference_angle": ((), np.float64),
    "lower": ((), np.float64),  # limits on the joint coordinate, -inf / +inf: none
    "upper": ((), np.float64),
    "motor_speed": ((), np.float64),  # rad/s of B relative to A (prismatic: m/s)
    "max_motor_torque": ((), np.float64),  # N m; 0: no motor (motor joint: its max torque)
    "length": ((), np.float64),  # distance joint rest length, rope length, m
    "frequency": ((), np.float64),  # Hz; 0: rigid
    "damping": ((), np.float64),  # damping ratio
    "max_force": ((), np.float64),  # mouse pull, prismatic motor, motor joint, N
    "collide_connected": ((), bool),
    "axis": ((2,), np.float64),  # prismatic and wheel: unit axis in slot A's frame
    "ratio": ((), np.float64),  # gear ratio
    "rest_angle": ((), np.float64),  # angular spring: rest angle from the reference angle
    "correction": ((), np.float64),  # motor joint: share of the pose error closed per step
    # Accumulated impulses, kept from step to step for warm starting.
    "impulse": ((3,), np.float64),  # point x, point y (or the distance axis), angle
    "motor_impulse": ((), np.float64),
    "lower_impulse": ((), np.float64),
    "upper_impulse": ((), np.float64),
    "spring_impulse": ((), np.float64),  # wheel and angular spring
}


def joint_slots(ids_a: np.ndarray, ids_b: np.ndarray, row_of_id: np.ndarray, body_count: int):
    """(J, 2) int64 body rows of every joint's slots A and B from their body ids (J,); the
    world (WORLD) is row ``body_count``, one past the bodies."""
    ids = np.column_stack([ids_a, ids_b])
    rows = row_of_id[np.maximum(ids, 0)]
    return np.where(ids == WORLD, body_count, rows)
