"""Forces to velocities: gravity and the forces and torques applied since the last step."""

from __future__ import annotations

import numpy as np

from .body_store import DYNAMIC
from .jit import kernel


@kernel
def velocities_after_forces(velocity, angular_velocity, force, torque, inv_mass, inv_inertia,
                            kind, awake, gravity, dt):  # fmt: skip
    """(N + 1, 3) velocities (vx, vy, w) after one step of forces; the last row is the
    world's, zero (joints use it).

    velocity, force: (N, 2); angular_velocity, torque, inv_mass, inv_inertia: (N,); kind:
    (N,) int8; awake: (N,) bool (sleeping bodies feel nothing until woken); gravity: (2,).
    """
    n = len(kind)
    out = np.zeros((n + 1, 3))
    for i in range(n):
        falling = 1.0 if kind[i] == DYNAMIC and awake[i] else 0.0
        out[i, 0] = velocity[i, 0] + dt * (gravity[0] * falling + force[i, 0] * inv_mass[i])
        out[i, 1] = velocity[i, 1] + dt * (gravity[1] * falling + force[i, 1] * inv_mass[i])
        out[i, 2] = angular_velocity[i] + dt * torque[i] * inv_inertia[i]
    return out
