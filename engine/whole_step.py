"""The step as one compiled call, for worlds where no Python has to run between its
detection and its solve (no presolve handler).

Every array crossing between Python and compiled code costs: each one handed in about
60 ns to check and unpack, each one handed back about 0.4 us to wrap. The staged step
(``engine.detect_stage``, then ``engine.solve_stage``) hands the detection's results back
to Python and in again, and its two calls take the body columns twice: in a world of one
body those crossings cost more than its physics. Here the detection's results go straight
into the solve, and only what Python needs afterwards comes back. Sensors only overlap,
so ``engine.sensor_overlaps`` runs after the call, on the step's start poses it returns.

The two paths give the same world bit for bit; ``tests/test_whole_step.py`` holds them to it.
"""

from __future__ import annotations

import numpy as np

from .detect_stage import detect
from .jit import kernel
from .solve_stage import solve_stage


@kernel(inline=True)
def step_core(body, gravity, table, part_columns, filters, slots, joints, joint_rows, grid,
              grid_valid, warm, detect_settings, solve_settings, backwards, sleep,
              next_island):  # fmt: skip
    """``whole_step`` for compiled callers (``engine.batch_step``), which pay nothing for
    arrays handed back: the same arguments; returns (sensing, start), the resting grid's
    arrays (rebuilt or as they came in), whether it was rebuilt, whether any island was
    woken, the manifold columns of the solid pairs and of the contacts among the resting
    parts (empty when none), the impulses ((M, 2), (M,)) and the next unused island id.
    """
    (position, angle, velocity, angular_velocity, force, torque, inv_mass, inv_inertia, kind,
     awake, damping, gravity_scale, thickness, bullet, reach, sleep_time, island,
     own_threshold, enable_sleep) = body  # fmt: skip
    detect_body = (
        position, angle, velocity, angular_velocity, force, torque, inv_mass, inv_inertia,
        kind, awake, damping, gravity_scale, reach, thickness, island,
    )  # fmt: skip
    forced, pairs, active, grid, rebuilt, woke, found, among = detect(
        detect_body, gravity, table, part_columns, filters, slots, grid, grid_valid, warm,
        detect_settings,
    )  # fmt: skip
    swept, start, step_inv_mass, step_inv_inertia, dynamic = forced
    solid, sensing = pairs
    # Manifolds order to the solver's (``engine.solver_inputs.contact_columns``).
    contacts = (
        found[0], found[1], found[2], found[3], found[4], found[5], found[6], found[7],
        found[8], found[9], found[10], found[13],
    )  # fmt: skip
    impulses, next_island = solve_stage(
        body, gravity, contacts, found[14], joints, slots, joint_rows, table,
        part_columns[0], solid, start, swept, step_inv_mass, step_inv_inertia, dynamic, filters,
        np.zeros(0, dtype=np.int64), active, np.flatnonzero(active), solve_settings,
        backwards, sleep, next_island,
    )  # fmt: skip
    return (sensing, start), grid, rebuilt, woke, found, among, impulses, next_island


@kernel
def whole_step(body, gravity, table, part_columns, filters, slots, joints, joint_rows, grid,
               grid_valid, warm, detect_settings, solve_settings, backwards, sleep,
               next_island):  # fmt: skip
    """Detect and solve one step, in place, as ``engine.step`` runs the two stages.

    body: the body columns ``engine.solve_stage.solve_stage`` takes, in its order (they
    hold those ``engine.detect_stage.detect_stage`` takes); gravity (2,); table: the
    packed parts (vertices, normals, count, radius, reach); part_columns: owner, sensor,
    friction, restitution (P,); filters: ``engine.candidate_pairs.collision_filters``;
    slots (J, 2); joints: the solver's joint columns; joint_rows: the room for their rows
    (``engine.soft_joints.joint_workspace``); grid, grid_valid, warm, detect_settings: as
    ``detect_stage`` takes them; solve_settings, backwards, sleep, next_island: as
    ``solve_stage`` takes them.

    Returns (sensing (4, S) sensor pairs, start (N + 1, 3) poses), the resting grid's
    arrays if rebuilt (else None), whether any island was woken, the manifold columns of
    the solid pairs and of the contacts among the resting parts (each None if there are
    none), the impulses ((M, 2), (M,)) for the warm-start cache and the next unused island
    id.
    """
    sensing, grid, rebuilt, woke, found, among, impulses, next_island = step_core(
        body, gravity, table, part_columns, filters, slots, joints, joint_rows, grid,
        grid_valid, warm, detect_settings, solve_settings, backwards, sleep, next_island,
    )  # fmt: skip
    return (
        sensing, grid if rebuilt else None, woke,
        found if len(found[0]) else None, among if len(among[0]) else None, impulses,
        next_island,
    )  # fmt: skip
