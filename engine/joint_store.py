"""The joint table: one row per joint, in the order the joints were added.

A joint joins slot A and slot B. A slot holds a body id, or -1 for the world itself (a
fixed frame at the origin). When a joint holds one body to the world, the world takes slot
A and the body slot B, whatever order the user gave: then the joint's angle, limits and
motor speed are the body's own turn, counter-clockwise, as one would expect of a wheel on
an axle. Anchors are stored in each slot's own frame (for the world: world points), so a
joint follows its bodies without being updated.
"""

from __future__ import annotations

import numpy as np

REVOLUTE, DISTANCE, WELD, MOUSE = 0, 1, 2, 3
WORLD = -1

# Field name -> (trailing shape, dtype) of the per-joint arrays.
JOINT_FIELDS = {
    "joint_id": ((), np.int64),
    "kind": ((), np.int8),
    "body_a": ((), np.int64),  # body id in slot A, or WORLD
    "body_b": ((), np.int64),
    "anchor_a": ((2,), np.float64),  # in slot A's frame, from its centre of mass
    "anchor_b": ((2,), np.float64),
    "reference_angle": ((), np.float64),  # angle_b - angle_a when the joint was made
    "lower": ((), np.float64),  # revolute limits on the joint angle, -inf / +inf: none
    "upper": ((), np.float64),
    "motor_speed": ((), np.float64),  # rad/s of B relative to A
    "max_motor_torque": ((), np.float64),  # N m; 0: no motor
    "length": ((), np.float64),  # distance joint rest length, m
    "frequency": ((), np.float64),  # Hz; 0: rigid
    "damping": ((), np.float64),  # damping ratio
    "max_force": ((), np.float64),  # mouse joint, N
    "collide_connected": ((), bool),
    # Accumulated impulses, kept from step to step for warm starting.
    "impulse": ((3,), np.float64),  # point x, point y (or the distance axis), angle
    "motor_impulse": ((), np.float64),
    "lower_impulse": ((), np.float64),
    "upper_impulse": ((), np.float64),
}


def joint_slots(ids_a: np.ndarray, ids_b: np.ndarray, row_of_id: np.ndarray, body_count: int):
    """(J, 2) int64 body rows of every joint's slots A and B from their body ids (J,); the
    world (WORLD) is row ``body_count``, one past the bodies."""
    ids = np.column_stack([ids_a, ids_b])
    rows = row_of_id[np.maximum(ids, 0)]
    return np.where(ids == WORLD, body_count, rows)
