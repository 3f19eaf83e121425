"""Forces to velocities: gravity and the forces and torques applied since the last step.

The step's arrays indexed by body row carry one extra row at the end, N, for the world
itself: zero pose, velocity and inverse mass, so that joints to the world need no special
case. They are made here, with the velocities after forces.
"""

from __future__ import annotations

import numpy as np

from .body_store import DYNAMIC
from .jit import kernel


@kernel
def start_of_step(position, angle, velocity, angular_velocity, force, torque, inv_mass,
                  inv_inertia, kind, awake, damping, gravity_scale, gravity, dt):  # fmt: skip
    """The step's starting arrays, each with the world's row N appended.

    Per body (N,) / (N, 2): the body columns; kind int8; awake bool (sleeping bodies feel
    nothing until woken); damping (N, 2) linear and angular, 1/s; gravity_scale (N,);
    gravity: (2,). A dynamic body's velocities after the forces are divided by
    1 + dt * damping (drag taken implicitly: stable at any rate). Returns velocities
    (N + 1, 3) (vx, vy, w) after one step of forces, start poses (N + 1, 3), inverse masses
    and inertias (N + 1,), and dynamic (N + 1,) bool.
    """
    n = len(kind)
    out_velocity = np.zeros((n + 1, 3))
    start = np.zeros((n + 1, 3))
    out_inv_mass = np.zeros(n + 1)
    out_inv_inertia = np.zeros(n + 1)
    dynamic = np.zeros(n + 1, dtype=np.bool_)
    for i in range(n):
        dynamic[i] = kind[i] == DYNAMIC
        falling = gravity_scale[i] if dynamic[i] and awake[i] else 0.0
        out_velocity[i, 0] = velocity[i, 0] + dt * (
            gravity[0] * falling + force[i, 0] * inv_mass[i]
        )
        out_velocity[i, 1] = velocity[i, 1] + dt * (
            gravity[1] * falling + force[i, 1] * inv_mass[i]
        )
        out_velocity[i, 2] = angular_velocity[i] + dt * torque[i] * inv_inertia[i]
        if dynamic[i] and (damping[i, 0] > 0.0 or damping[i, 1] > 0.0):
            linear = 1.0 / (1.0 + dt * damping[i, 0])
            out_velocity[i, 0] *= linear
            out_velocity[i, 1] *= linear
            out_velocity[i, 2] /= 1.0 + dt * damping[i, 1]
        start[i, 0], start[i, 1], start[i, 2] = position[i, 0], position[i, 1], angle[i]
        out_inv_mass[i] = inv_mass[i]
        out_inv_inertia[i] = inv_inertia[i]
    return out_velocity, start, out_inv_mass, out_inv_inertia, dynamic


@kernel
def write_back(poses, end_velocity, position, angle, body_velocity, angular_velocity, force,
               torque):  # fmt: skip
    """Store the step's end into the body columns (N, 2) / (N,) and clear the applied
    forces and torques. end_velocity: (rows (K,), velocity (K + 1, 3)), the bodies the
    solve worked on (``engine.substep.solve_rows``) and their velocities; only they take
    their poses from poses (N + 1, 3) and their velocities: the others did not move."""
    rows, velocity = end_velocity
    for i in range(len(angle)):
        force[i, 0] = force[i, 1] = 0.0
        torque[i] = 0.0
    for q in range(len(rows)):
        i = rows[q]
        position[i, 0], position[i, 1], angle[i] = poses[i, 0], poses[i, 1], poses[i, 2]
        body_velocity[i, 0], body_velocity[i, 1] = velocity[q, 0], velocity[q, 1]
        angular_velocity[i] = velocity[q, 2]
