"""The velocity solve: joints and contact manifolds in one Gauss-Seidel loop.

Warm starting applies last step's impulses; the contacts of small or thin bodies get passes
of their own; then each pass visits every joint and then every manifold, each seeing the
velocities the constraints before it produced, so that non-penetration has the final word
in a pass; then one restitution pass bounces what hit hard
(``engine.contact_solver``, ``engine.joint_solver``).

Why small bodies get more: in one step gravity moves a body g dt^2 (2.7 mm at 60 Hz), and
what the passes leave unsolved becomes overlap, which for a 5 mm body is a large part of
its size. Ten passes leave a settled pile of 5 mm boxes 30% deep in each other, twenty
5%. The contacts whose slop is below the world's (bodies thinner than 50 slops, see
``engine.contact_slop``) are the ones for which it shows, and only they pay for it.

The whole stage is one kernel: its working arrays never leave compiled code.
"""

from __future__ import annotations

import numpy as np

from .contact_solver import prepare_contacts, restitute, solve_contact, warm_start_contacts
from .jit import kernel
from .joint_geometry import HAS_AXIS
from .joint_solver import (
    ACCUMULATED,
    LOWER,
    MOTOR,
    SPRING_IMPULSE,
    UPPER,
    prepare_joints,
    solve_joint,
    warm_start_joints,
)

# Runs of manifolds the passes interleave (see ``interleaved_order``): two give nearly all
# the speed of many, and keep the bottom-up order of a stack best.
STREAMS = 2


def solve_velocities(manifolds, solve_contacts, joints: dict, slots, solve_joints, start,
                     velocity, inv_mass, inv_inertia, dt, passes, threshold, slop,
                     backwards):  # fmt: skip
    """Run the velocity stage, changing ``velocity`` (N + 1, 3) and the impulses of the
    manifolds and joints in place.

    manifolds: the step's Manifolds, solve_contacts (M,) bool those with a moving body;
    joints: the joint table's columns (J,), slots (J, 2) body rows (the world: N),
    solve_joints (J,) bool; start: (N + 1, 3) poses; inv_mass, inv_inertia: (N + 1,).
    threshold: the restitution threshold; slop: the world's linear slop. backwards: visit
    the manifolds in reverse order (every other step; see ``_solve``).
    """
    contacts = contact_columns(manifolds)
    joint_columns = solver_joint_columns(joints)
    _solve(
        contacts, solve_contacts, joint_columns, slots, solve_joints, start, velocity,
        inv_mass, inv_inertia, dt, passes, threshold, slop, backwards,
    )  # fmt: skip


@kernel
def _solve(contacts, solve_contacts, joints, slots, solve_joints, start, velocity, inv_mass,
           inv_inertia, dt, passes, threshold, world_slop, backwards):  # fmt: skip
    """The stage's kernel; contacts and joints are tuples of their columns.

    The broad phase lists a pile's manifolds row by row, left to right: passes always in
    that order see each left neighbour's new velocities first, and a pyramid slowly leans
    to one side. So every other step runs the order backwards (top down, right to left):
    a 40-row pyramid's top then moves 21 cm in 10 s instead of 28 cm (pymunk's: 23 cm),
    while the stack still settles as firmly as in one direction.
    """
    (body_a, body_b, count, normal, arm_a, arm_b, separation, friction, restitution,
     normal_impulse, tangent_impulse, slop) = contacts  # fmt: skip
    (kind, anchor_a, anchor_b, reference_angle, lower, upper, max_motor_torque, motor_speed,
     length, frequency, damping, max_force, axis, ratio, rest_angle, correction, impulse,
     motor_impulse, lower_impulse, upper_impulse, spring_impulse) = joints  # fmt: skip
    c = prepare_contacts(
        body_a, body_b, count, normal, arm_a, arm_b, separation, friction, restitution,
        velocity, inv_mass, inv_inertia, dt,
    )  # fmt: skip
    # The joints' impulses, gathered in one (J, ACCUMULATED) array for the passes.
    accumulated = np.empty((len(slots), ACCUMULATED))
    has_axis = np.empty(len(slots), dtype=np.bool_)
    for j in range(len(slots)):
        for r in range(3):
            accumulated[j, r] = impulse[j, r]
        accumulated[j, MOTOR] = motor_impulse[j]
        accumulated[j, LOWER] = lower_impulse[j]
        accumulated[j, UPPER] = upper_impulse[j]
        accumulated[j, SPRING_IMPULSE] = spring_impulse[j]
        has_axis[j] = HAS_AXIS[kind[j]]
    joint_rows = prepare_joints(
        kind, anchor_a, anchor_b, reference_angle, lower, upper, max_motor_torque,
        motor_speed, length, frequency, damping, max_force, axis, ratio, rest_angle,
        correction, slots, solve_joints, start, inv_mass, inv_inertia, dt, accumulated,
    )  # fmt: skip
    warm_start_contacts(
        body_a, body_b, c, normal_impulse, tangent_impulse, solve_contacts, velocity
    )
    warm_start_joints(kind, slots, solve_joints, joint_rows, accumulated, inv_inertia, velocity)
    order = interleaved_order(len(body_a), STREAMS)
    if backwards:
        order = order[::-1].copy()
    # The contacts of small bodies first get passes of their own; then every pass visits
    # every constraint, so none is left with another's last word.
    fine = np.empty(len(order), dtype=np.int64)
    k = 0
    for i in order:
        # A margin far above rounding: a body exactly 50 slops thick (a 25 cm box) must
        # get the same passes at every scale.
        if solve_contacts[i] and slop[i] < (1.0 - 1e-9) * world_slop:
            fine[k] = i
            k += 1
    fine = fine[:k]
    for _ in range(passes if k else 0):
        for i in fine:
            solve_contact(i, body_a[i], body_b[i], c, normal_impulse, tangent_impulse, velocity)
    for _ in range(passes):
        for j in range(len(slots)):
            if solve_joints[j]:
                solve_joint(
                    j, slots[j, 0], slots[j, 1], has_axis[j], joint_rows, accumulated,
                    inv_inertia, velocity,
                )  # fmt: skip
        for i in order:
            if solve_contacts[i]:
                solve_contact(i, body_a[i], body_b[i], c, normal_impulse, tangent_impulse, velocity)
    restitute(
        body_a, body_b, c, normal_impulse, solve_contacts, threshold, velocity, np.empty((0, 2))
    )
    for j in range(len(slots)):
        for r in range(3):
            impulse[j, r] = accumulated[j, r]
        motor_impulse[j] = accumulated[j, MOTOR]
        lower_impulse[j] = accumulated[j, LOWER]
        upper_impulse[j] = accumulated[j, UPPER]
        spring_impulse[j] = accumulated[j, SPRING_IMPULSE]


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


def contact_columns(m) -> tuple:
    """The Manifolds columns the solver kernels take, in their order: body_a, body_b,
    count (M,), normal (M, 2), arm_a, arm_b (M, 2, 2), separation (M, 2), friction,
    restitution (M,), normal_impulse (M, 2), tangent_impulse (M,), slop (M,)."""
    return (
        m.body_a, m.body_b, m.count, m.normal, m.arm_a, m.arm_b, m.separation, m.friction,
        m.restitution, m.normal_impulse, m.tangent_impulse, m.slop,
    )  # fmt: skip


def solver_joint_columns(joints: dict) -> tuple:
    """The joint-table columns (J, ...) the solver kernels take, in their order."""
    return tuple(joints[name] for name in SOLVER_JOINT_FIELDS)


SOLVER_JOINT_FIELDS = (
    "kind", "anchor_a", "anchor_b", "reference_angle", "lower", "upper", "max_motor_torque",
    "motor_speed", "length", "frequency", "damping", "max_force", "axis", "ratio",
    "rest_angle", "correction", "impulse", "motor_impulse", "lower_impulse", "upper_impulse",
    "spring_impulse",
)  # fmt: skip
