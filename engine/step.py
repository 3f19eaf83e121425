"""One fixed step of a World, as data flowing through the stages.

1. forces -> velocities (gravity, applied forces);
2. broad phase on the parts' swept boxes -> candidate part pairs, filtered;
3. narrow phase (swept SAT with relative velocities) -> contact manifolds, warm-started;
   presolve handlers may drop some; sensors report overlaps;
4. velocity solve: joints and contacts in one Gauss-Seidel loop, then restitution;
5. integrate positions, stopping fast bodies at their time of impact;
6. positional correction: joint drift, overlaps along contact normals, joint error;
7. write back, remember impulses, record events, let islands at rest fall asleep.

Each stage is a compiled kernel over the world's arrays (or a few whole-array numpy calls);
no Python loop runs over bodies, parts, pairs, contacts or joints. Arrays indexed by body
row carry one extra row at the end, N, for the world itself: zero pose, velocity and
inverse mass, so that joints to the world need no special case.
"""

from __future__ import annotations

import numpy as np

from .body_store import DYNAMIC, KIND_CODES
from .broadphase import find_pairs_checked
from .candidate_pairs import classify_pairs
from .ccd import allowed_times
from .contact_manifolds import find_manifolds
from .contact_solver import prepare_contacts, restitute, warm_start_contacts
from .events import body_pair_keys
from .forces import velocities_after_forces
from .joint_positions import correct_joint_positions
from .joint_solver import prepare_joints, warm_start_joints
from .position_correction import correct_positions
from .settings import (
    CCD_FRACTION,
    CORRECTION_FACTOR,
    FLIP_TOLERANCE,
    LINEAR_SLOP,
    MAX_CORRECTION,
    RESTITUTION_THRESHOLD,
    SLEEP_SPEED,
    SPECULATIVE_DISTANCE,
    TIME_TO_SLEEP,
)
from .sleep import active_bodies, fall_asleep
from .swept_bounds import swept_bounds
from .velocity_solver import interleaved_order, solve_passes

STATIC = KIND_CODES["static"]
# Runs of manifolds the velocity passes interleave (see velocity_solver.interleaved_order):
# two give nearly all the speed of many, and keep the bottom-up order of a stack best.
SOLVER_STREAMS = 2
NO_PAIRS = np.zeros((4, 0), dtype=np.int64)


def advance_one_step(world) -> None:
    """Run one step of ``world.dt`` on the world's arrays (the handlers run afterwards)."""
    dt = world.dt
    body = {name: world._bodies.view(name) for name in world._bodies.arrays}
    n = len(body["kind"])
    inv_mass = np.append(body["inv_mass"], 0.0)
    inv_inertia = np.append(body["inv_inertia"], 0.0)

    # 1. forces -> velocities (sleeping bodies feel nothing until woken)
    velocity = velocities_after_forces(
        body["velocity"], body["angular_velocity"], body["force"], body["torque"],
        body["inv_mass"], body["inv_inertia"], body["kind"], body["awake"], world._gravity, dt,
    )  # fmt: skip
    start = np.zeros((n + 1, 3))
    start[:n, :2] = body["position"]
    start[:n, 2] = body["angle"]

    # 2. broad phase on the parts' swept boxes, filtered
    parts = world._parts.packed()
    part_reach = world._parts.table.view("reach")
    solid, sensing = candidate_pairs(world, body, parts, start, velocity, dt)
    slots = world._joint_slots()
    active, reached = active_bodies(
        body["kind"], body["awake"], velocity, solid[2], solid[3], slots
    )
    if len(reached):
        world._wake_rows(reached)
        active, _ = active_bodies(body["kind"], body["awake"], velocity, solid[2], solid[3], slots)

    # 3. narrow phase with each pair's relative velocity; sensors only overlap
    manifolds, part_rows, features = find_manifolds(
        parts, part_reach, solid, start, velocity, body["reach"], body["friction"],
        body["restitution"], dt, SPECULATIVE_DISTANCE, FLIP_TOLERANCE,
    )  # fmt: skip
    world._warm.load(manifolds, part_rows, features)
    manifolds, ignored = world._presolve(manifolds, body)
    if len(ignored):
        # Pairs a presolve handler ignored must not stop each other in the sweep either.
        keys = body_pair_keys(solid[2], solid[3], body["body_id"])
        solid = solid[:, ~np.isin(keys, ignored)]
    sensor_keys, sensor_rows = world._sensor_overlaps(parts, sensing, start, body)

    # 4. velocity solve, on the constraints where something can move: contacts inside a
    # sleeping island (or against static ground) are kept for events but cost nothing
    m = manifolds
    active_row = np.append(active, False)
    solve_contacts = active_row[m.body_a] | active_row[m.body_b]
    contact = prepare_contacts(
        m.body_a, m.body_b, m.count, m.normal, m.arm_a, m.arm_b, m.separation, velocity,
        inv_mass, inv_inertia, dt,
    )  # fmt: skip
    geometry, mass, k, inverse, row_mass, tangent_mass, target, block, second, approach = contact
    joint = world._joints
    columns = {name: joint.view(name) for name in joint.arrays}
    dynamic_row = np.append(body["kind"] == DYNAMIC, False)
    solve_joints = (active_row[slots[:, 0]] | active_row[slots[:, 1]]) & (
        dynamic_row[slots[:, 0]] | dynamic_row[slots[:, 1]]
    )
    prepared = prepare_joints(
        columns["kind"], columns["anchor_a"], columns["anchor_b"], columns["reference_angle"],
        columns["lower"], columns["upper"], columns["max_motor_torque"], columns["length"],
        columns["frequency"], columns["damping"], columns["max_force"], columns["impulse"],
        columns["motor_impulse"], columns["lower_impulse"], columns["upper_impulse"], slots,
        solve_joints, start, inv_mass, inv_inertia, dt,
    )  # fmt: skip
    warm_start_contacts(
        m.body_a,
        m.body_b,
        geometry,
        mass,
        m.normal_impulse,
        m.tangent_impulse,
        solve_contacts,
        velocity,
    )
    warm_start_joints(
        slots, solve_joints, prepared[1], columns["impulse"], columns["motor_impulse"],
        columns["lower_impulse"], columns["upper_impulse"], inv_inertia, velocity,
    )  # fmt: skip
    order = interleaved_order(len(m.body_a), SOLVER_STREAMS)
    solve_passes(
        world.velocity_iterations, order, m.body_a, m.body_b, solve_contacts, geometry, mass, k,
        inverse, row_mass, tangent_mass, m.friction, target, block, second,
        m.normal_impulse, m.tangent_impulse, slots, solve_joints, *prepared,
        columns["motor_speed"], columns["impulse"], columns["motor_impulse"],
        columns["lower_impulse"], columns["upper_impulse"], inv_inertia, velocity,
    )  # fmt: skip
    restitute(
        m.body_a, m.body_b, geometry, mass, k, inverse, row_mass, target, block, second, approach,
        m.restitution, m.normal_impulse, solve_contacts, RESTITUTION_THRESHOLD, velocity,
    )  # fmt: skip

    # 5. integrate positions, stopping fast bodies at their time of impact
    allowed = allowed_times(
        parts.vertices, parts.normals, parts.count, parts.radius, part_reach,
        *solid,
        body["kind"], body["bullet"], body["reach"], start, velocity, dt, CCD_FRACTION,
        LINEAR_SLOP,
    )  # fmt: skip
    poses = start + velocity * np.append(allowed, 0.0)[:, None]

    # 6. positional correction: first the drift the joints made this step, carried into the
    # velocities (so a swinging pendulum keeps its energy); then overlaps along the contact
    # normals; then whatever error the joints are left with, on positions only
    joint_columns = (
        columns["kind"], columns["anchor_a"], columns["anchor_b"], columns["reference_angle"],
        columns["lower"], columns["upper"], columns["length"], columns["frequency"], slots,
        solve_joints,
    )  # fmt: skip
    if solve_joints.any():
        touching = np.zeros(n + 1, dtype=bool)
        touching[m.body_a[solve_contacts]] = True
        touching[m.body_b[solve_contacts]] = True
        free = ~(touching[slots[:, 0]] | touching[slots[:, 1]])
        correct_joint_positions(
            *joint_columns, poses, inv_mass, inv_inertia, world.position_iterations,
            MAX_CORRECTION, True, start, velocity, dt, free,
        )  # fmt: skip
    integrated = poses[:n, :2].copy()
    correct_positions(
        m.body_a, m.body_b, m.normal, m.arm_a, m.arm_b, m.separation, solve_contacts, poses,
        start, poses[:, 2] - start[:, 2], inv_mass, world.position_iterations, LINEAR_SLOP,
        CORRECTION_FACTOR, MAX_CORRECTION,
    )  # fmt: skip
    if solve_joints.any():
        correct_joint_positions(
            *joint_columns, poses, inv_mass, inv_inertia, world.position_iterations,
            MAX_CORRECTION, False, start, velocity, dt, solve_joints,
        )  # fmt: skip

    # 7. write back, remember impulses, and tell the game what happened
    body["position"][:] = poses[:n, :2]
    body["angle"][:] = poses[:n, 2]
    body["velocity"][:] = velocity[:n, :2]
    body["angular_velocity"][:] = velocity[:n, 2]
    body["force"][:] = 0.0
    body["torque"][:] = 0.0
    world._warm.store(manifolds)
    world._steps += 1
    world._record_events(manifolds, sensor_keys, sensor_rows, body)
    if world.sleep:
        # A body still being pushed out of an overlap is not at rest, however slow.
        pushed = np.any(np.abs(poses[:n, :2] - integrated) > 0.2 * LINEAR_SLOP, axis=1)
        world._next_island = fall_asleep(
            body["kind"], body["awake"], body["velocity"], body["angular_velocity"],
            body["reach"], body["sleep_time"], body["island"], pushed, m.body_a, m.body_b,
            m.separation, slots, dt, SLEEP_SPEED, TIME_TO_SLEEP, -2.0 * LINEAR_SLOP,
            world._next_island,
        )  # fmt: skip


def candidate_pairs(world, body: dict, parts, start, velocity, dt):
    """Broad phase: part pairs whose swept boxes overlap, between bodies that can meet.

    Returns (solid, sensing): each (4, S) int64 rows part_a, part_b, body_a, body_b;
    solid pairs collide, sensing pairs involve a sensor.
    """
    owner = world._parts.table.view("body")
    if len(owner) < 2:
        return NO_PAIRS, NO_PAIRS
    n = len(body["kind"])
    end = start[:n] + velocity[:n] * dt
    # Turning is covered by the margin: a point at distance reach moves |w| reach dt.
    margin = SPECULATIVE_DISTANCE + np.abs(velocity[:n, 2]) * body["reach"] * dt
    lower, upper = swept_bounds(
        parts.vertices, parts.count, parts.radius, owner, start, end, margin
    )
    pairs = find_pairs_checked(lower, upper, world.broadphase, world._cell_size)
    return classify_pairs(
        pairs, owner, body["kind"], body["sensor"], body["category"], body["mask"],
        body["group"], body["body_id"], world._jointed_keys(),
    )  # fmt: skip
