"""Positions from velocities, then positional correction: one kernel for the stage.

1. Continuous collision: each body may move for the time ``engine.ccd`` allows (a fast
   body stops at its time of impact), and moves that long with its final velocity.
2. Joints whose bodies touch nothing have the drift of the step's curved motion removed
   and carried into their velocities (``engine.joint_positions``, SHAKE).
3. Overlap deeper than the slop is pushed out along the contact normals
   (``engine.position_correction``).
4. What error the joints are left with is removed on positions only.
"""

from __future__ import annotations

import numpy as np

from .candidate_pairs import collision_filters
from .ccd import allowed_times
from .ccd_pairs import sweep_pairs
from .contact_cores import round_cores
from .contact_slop import body_slops
from .jit import kernel
from .joint_positions import correct_joint_positions
from .position_correction import correct_positions


def integrate_positions(parts, part_reach, owner, solid, body: dict, part: dict, jointed, ignored,
                        manifolds, solve_contacts, joints: dict, slots, solve_joints, start,
                        velocity, swept, inv_mass, inv_inertia, dt, passes,
                        settings):  # fmt: skip
    """The poses (N + 1, 3) at the end of the step, and which bodies (N,) bool the
    positional correction moved by more than a fifth of their slop (not at rest yet).

    parts, part_reach, owner: the world's part table; solid: (4, S) candidate pairs; body:
    the body columns; part: the part columns (the filter); jointed, ignored: sorted
    body-pair keys of pairs joints and presolve keep apart; manifolds with solve_contacts
    (M,); joints: joint columns, slots (J, 2), solve_joints (J,); start, velocity:
    (N + 1, 3) (velocity changes for SHAKE); swept (N + 1, 3): the velocities the broad
    phase used (``engine.ccd_pairs``); settings: (ccd_fraction, the world's slop,
    correction_factor, max_correction, speculative distance).
    """
    m = manifolds
    # The push-out follows each gap as the bodies turn by what turns with them.
    core_a, core_b = round_cores(
        m.arm_a, m.arm_b, m.normal, m.separation, m.count, parts.radius[m.parts[:, 0]],
        parts.radius[m.parts[:, 1]],
    )  # fmt: skip
    return _integrate(
        (parts.vertices, parts.normals, parts.count, parts.radius, part_reach), solid,
        (body["kind"], body["bullet"], body["reach"], body["thickness"]), owner,
        collision_filters(body, part, jointed), ignored,
        (m.body_a, m.body_b, m.normal, core_a, core_b, m.separation, m.slop), solve_contacts,
        (joints["kind"], joints["anchor_a"], joints["anchor_b"], joints["reference_angle"],
         joints["lower"], joints["upper"], joints["length"], joints["frequency"],
         joints["axis"], joints["ratio"], joints["rest_angle"]),
        slots, solve_joints, start, velocity, swept, inv_mass, inv_inertia, dt, passes,
        settings,
    )  # fmt: skip


@kernel
def _integrate(table, solid, bodies, owner, filters, ignored, contacts, solve_contacts, joints,
               slots, solve_joints, start, velocity, swept, inv_mass, inv_inertia, dt, passes,
               settings):  # fmt: skip
    """The stage's kernel; table, bodies, contacts, joints and settings are tuples."""
    vertices, normals, count, radius, part_reach = table
    kind, bullet, reach, thickness = bodies
    body_a, body_b = contacts[0], contacts[1]
    ccd_fraction, world_slop, factor, max_correction, margin = settings
    n = len(kind)
    slop = body_slops(thickness, world_slop)
    sweeps = sweep_pairs(
        vertices, count, radius, owner, filters, ignored, solid, bullet, reach, start, swept,
        velocity, dt, ccd_fraction, margin,
    )  # fmt: skip
    allowed = allowed_times(
        vertices, normals, count, radius, part_reach, sweeps[0], sweeps[1], sweeps[2],
        sweeps[3], kind, bullet, reach, start, velocity, dt, ccd_fraction, slop,
    )  # fmt: skip
    poses = start.copy()
    for i in range(n):
        for axis in range(3):
            poses[i, axis] = start[i, axis] + velocity[i, axis] * allowed[i]
    any_joint = False
    for j in range(len(slots)):
        any_joint = any_joint or solve_joints[j]
    if any_joint:
        # Joints whose bodies no solved contact touches are free: their drift is carried.
        touching = np.zeros(n + 1, dtype=np.bool_)
        for i in range(len(body_a)):
            if solve_contacts[i]:
                touching[body_a[i]] = True
                touching[body_b[i]] = True
        free = np.empty(len(slots), dtype=np.bool_)
        for j in range(len(slots)):
            free[j] = not (touching[slots[j, 0]] or touching[slots[j, 1]])
        correct_joint_positions(
            *joints, slots, solve_joints, poses, inv_mass, inv_inertia, passes,
            max_correction, world_slop, True, start, velocity, dt, free,
        )  # fmt: skip
    integrated = poses.copy()
    turned = np.empty(n + 1)
    for i in range(n + 1):
        turned[i] = poses[i, 2] - start[i, 2]
    correct_positions(
        contacts, solve_contacts, poses, start, turned, inv_mass, passes,
        (factor, max_correction), slop, (table, owner, filters, ignored, solid, margin),
    )  # fmt: skip
    if any_joint:
        correct_joint_positions(
            *joints, slots, solve_joints, poses, inv_mass, inv_inertia, passes,
            max_correction, world_slop, False, start, velocity, dt, solve_joints,
        )  # fmt: skip
    pushed = np.zeros(n, dtype=np.bool_)
    for i in range(n):
        for axis in range(2):
            if abs(poses[i, axis] - integrated[i, axis]) > 0.2 * slop[i]:
                pushed[i] = True
    return poses, pushed
