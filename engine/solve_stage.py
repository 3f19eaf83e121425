"""The step's solve and what follows it, as one compiled call: which constraints to solve,
the sub-stepped solve (``engine.substep``), the write-back of poses and velocities, and
sleep (``engine.sleep.fall_asleep``).

One call instead of one per stage: in a small world the calls themselves (each passing
dozens of arrays) and the Python between them cost more than the physics.
"""

from __future__ import annotations

from .forces import write_back
from .jit import kernel
from .sleep import constraints_to_solve, fall_asleep
from .substep import DT, solve_substeps

# Positions in the ``sleep`` tuple ``solve_stage`` takes.
SLEEP_ON, SLEEP_THRESHOLD, TIME_TO_SLEEP = range(3)


@kernel
def solve_stage(body, gravity, contacts, part_pairs, joints, slots, joint_rows, table,
                owner, solid, start, swept, inv_mass, inv_inertia, dynamic, filters,
                ignored, active, moving, settings, backwards, sleep,
                next_island):  # fmt: skip
    """Solve the step, write its end into the body columns, count resting time and put
    islands at rest to sleep, in place. Returns the impulses ((M, 2), (M,)) for the
    warm-start cache and the next unused island id.

    body: the body columns (N, ...) position, angle, velocity, angular_velocity, force,
    torque, inv_mass, inv_inertia, kind, awake, damping, gravity_scale, thickness, bullet,
    reach, sleep_time, island, sleep_threshold, enable_sleep; active (N,) bool: the bodies the step
    moves (``engine.sleep.active_bodies``), moving (A,) int64 their rows; dynamic
    (N + 1,) bool; sleep: (on, the world's threshold, time to sleep) as floats;
    next_island: the next unused island id. The rest as ``engine.substep.solve_substeps``
    takes them.
    """
    (position, angle, velocity, angular_velocity, force, torque, body_inv_mass,
     body_inv_inertia, kind, awake, damping, gravity_scale, thickness, bullet, reach,
     sleep_time, island, own_threshold, enable_sleep) = body  # fmt: skip
    body_a, body_b = contacts[0], contacts[1]
    sleeping = sleep[SLEEP_ON] != 0.0
    # Sleep judges each body's speed at the middle of the step: from its start and end.
    start_velocity = velocity.copy() if sleeping else velocity[:0]
    start_angular_velocity = angular_velocity.copy() if sleeping else angular_velocity[:0]
    solve_contacts, solve_joints = constraints_to_solve(active, dynamic, body_a, body_b, slots)
    poses, end_velocity, pushed, warm, settled, opening = solve_substeps(
        (velocity, angular_velocity, force, torque, body_inv_mass, body_inv_inertia, kind,
         awake, damping, gravity_scale, thickness, bullet, reach),
        gravity, contacts, part_pairs, solve_contacts, joints, slots, solve_joints,
        joint_rows, table, owner, solid, start, swept, inv_mass, inv_inertia, filters,
        ignored, moving, settings, backwards, sleeping,
    )  # fmt: skip
    write_back(poses, end_velocity, position, angle, velocity, angular_velocity, force, torque)
    if sleeping:
        next_island = fall_asleep(
            kind, awake, velocity, angular_velocity, start_velocity, start_angular_velocity,
            reach, sleep_time, island, pushed, own_threshold, enable_sleep, body_a, body_b,
            settled, opening, contacts[11], slots, settings[DT], sleep[SLEEP_THRESHOLD],
            sleep[TIME_TO_SLEEP], next_island,
        )  # fmt: skip
    return warm, next_island
