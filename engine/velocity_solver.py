"""The velocity passes: joints and contact manifolds in one Gauss-Seidel loop.

Each pass visits every joint and then every manifold, each seeing the velocities that the
constraints before it produced; the contacts come last so that non-penetration has the
final word in a pass. Warm starting and the restitution pass run around the passes
(``engine.contact_solver``, ``engine.joint_solver``).
"""

from __future__ import annotations

import numpy as np

from .contact_solver import solve_contact
from .jit import kernel
from .joint_solver import solve_joint


@kernel
def solve_passes(
    passes,
    order,
    body_a, body_b, contact_solve, geometry, mass, k, contact_inverse, row_mass,
    tangent_mass, friction, target, block, second, normal_impulse, tangent_impulse,
    slots, joint_solve, joint_rows, joint_push, joint_inverse, gamma, bias, max_impulse,
    spring, spring_push, spring_damping, spring_scale, motor_mass, max_motor_impulse,
    lower_mass, upper_mass, lower_bias, upper_bias, motor_speed, impulse, motor_impulse,
    lower_impulse, upper_impulse, inv_inertia, velocity,
):  # fmt: skip
    """Run ``passes`` Gauss-Seidel passes over the joints (J) and manifolds (M) whose
    ``*_solve`` flag is set, changing ``velocity`` (N + 1, 3) and the accumulated impulses
    in place. The other arguments are what ``prepare_contacts`` and ``prepare_joints``
    returned and the joint and manifold columns."""
    speed = np.zeros(3)
    step = np.zeros(3)
    for _ in range(passes):
        for j in range(len(slots)):
            if joint_solve[j]:
                solve_joint(
                    j, slots[j, 0], slots[j, 1], joint_rows, joint_push, joint_inverse, gamma,
                    bias, max_impulse, spring, spring_push, spring_damping, spring_scale,
                    motor_mass, max_motor_impulse, lower_mass, upper_mass, lower_bias,
                    upper_bias, motor_speed, impulse, motor_impulse, lower_impulse,
                    upper_impulse, inv_inertia, velocity, speed, step,
                )  # fmt: skip
        for i in order:
            if contact_solve[i]:
                solve_contact(
                    i, body_a[i], body_b[i], geometry, mass, k, contact_inverse,
                    row_mass, tangent_mass, friction, target, block, second, normal_impulse,
                    tangent_impulse, velocity,
                )  # fmt: skip


@kernel
def interleaved_order(m, streams):
    """0..m-1 as ``streams`` contiguous runs visited in turn: i, i + m/s, i + 2m/s, ...

    Within each run the manifolds keep their order (the broad phase's, which lists the
    parts of a stack from the bottom up, so Gauss-Seidel carries loads up the stack in one
    pass); runs far apart in that order rarely share a body, so the CPU overlaps their work
    instead of waiting for each manifold's velocities before the next.
    """
    order = np.empty(m, dtype=np.int64)
    run = (m + streams - 1) // streams
    k = 0
    for i in range(run):
        for s in range(streams):
            j = s * run + i
            if j < m:
                order[k] = j
                k += 1
    return order
