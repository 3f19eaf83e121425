"""One fixed step of a World, as data flowing through the stages.

1. forces -> the velocities a whole step of them gives, which the broad and narrow phase
   sweep with (the solve applies the forces itself, a sub-step at a time);
2. broad phase on the moving parts' swept boxes, among themselves and against the kept
   grid of the static and sleeping parts (``engine.resting_parts``) -> candidate part
   pairs, filtered; the islands something reached wake; the contacts among resting parts
   come from that grid's cache;
3. narrow phase (swept SAT with relative velocities) -> contact manifolds, warm-started;
   presolve handlers may drop some; sensors report overlaps;
4. manifolds, joints, velocities -> the sub-stepped soft solve (``engine.substep``) ->
   the step's end poses and velocities, the impulses, which bodies push-out moved; fast
   bodies stop at their time of impact;
5. write back, let islands at rest fall asleep, remember impulses (the resting contacts'
   too), record events (with the resting contacts).

Each stage is a compiled kernel over the world's arrays; no Python loop runs over bodies,
parts, pairs, contacts or joints. Stages 1 to 5's write-back and sleep are one compiled
call (``engine.whole_step``); after it runs what hands objects to Python (the warm-start
cache, sensor overlaps, events). A world with presolve handlers, which must run between
detection and solve, takes the staged path instead: stages 1 to 3 in one call
(``engine.detect_stage``), the handlers, then the rest in another (``engine.solve_stage``),
bit for bit the same step. Arrays indexed by body row carry one extra row at the end, N,
for the world itself (see ``engine.forces``).

A world in which nothing can move (``still``: every part resting in the kept grid, no
body awake) skips the stages: ``hold_still`` leaves the world as they would.
"""

from __future__ import annotations

import numpy as np

from .candidate_pairs import GRID, QUADTREE
from .contact_manifolds import NO_MANIFOLDS
from .contact_solver import Manifolds
from .detect_stage import detect_stage
from .events import body_pair_keys
from .resting_parts import empty_grid
from .sensor_overlaps import NO_SENSOR_KEYS
from .settings import FLIP_SLOPS, SPECULATIVE_SLOPS
from .sleep import any_active
from .solve_stage import solve_stage
from .solver_inputs import contact_columns
from .whole_step import whole_step

METHOD_CODES = {"grid": GRID, "quadtree": QUADTREE}
NO_KEYS = np.zeros(0, dtype=np.int64)
# What ``still`` and ``hold_still`` read: the body columns that say whether a body moves,
# what a step without sensor overlaps reports of them, and the joints' impulse columns.
STILL_FIELDS = ("kind", "awake", "velocity", "angular_velocity")
NO_SENSORS = (NO_SENSOR_KEYS, NO_SENSOR_KEYS, NO_SENSOR_KEYS)
JOINT_IMPULSES = ("impulse", "motor_impulse", "lower_impulse", "upper_impulse", "spring_impulse")


def solve_settings(world) -> tuple:
    """The world's solver settings as the floats ``engine.substep.solve_substeps`` takes
    (positions ``DT`` ... ``UNITS_PER_METER`` there)."""
    # Floats all, whatever the user set them with: one compiled signature. The stored
    # values, read without the properties (checked when set).
    return tuple(
        map(float, (
            world._dt, world._substeps, world._relax_iterations, world._contact_hertz,
            world._contact_damping_ratio, world._max_contact_push_speed, world._joint_hertz,
            world._joint_damping_ratio, world._restitution_threshold, world._linear_slop,
            world._position_iterations, world._units_per_meter,
        ))
    )  # fmt: skip


def moving_rows(active: np.ndarray) -> np.ndarray:
    """(A,) int64 the rows of the bodies the solve moves, from active (N,) bool: its loops
    over bodies visit only these (static, sleeping and resting kinematic bodies keep their
    poses and velocities, and cost nothing there)."""
    return active.nonzero()[0]


def joined_impulses(warm: tuple, resting, solved: int, total: int) -> tuple:
    """The impulses (total, 2) and (total,) to keep for the step's manifolds (``warm``,
    from the solve, ``solved`` of them) then the resting contacts (their own)."""
    if solved == total:
        return warm
    if solved == 0:
        return resting.normal_impulse, resting.tangent_impulse
    return (
        np.concatenate([warm[0], resting.normal_impulse]),
        np.concatenate([warm[1], resting.tangent_impulse]),
    )


def advance_one_step(world) -> None:
    """Run one step of ``world.dt`` on the world's arrays (the handlers run afterwards)."""
    dt = world._dt
    # The world's tolerances, in its units; the kernels take them as arguments.
    slop = world._linear_slop
    speculative = SPECULATIVE_SLOPS * slop
    flip_tolerance = FLIP_SLOPS * slop
    inputs = world._step_inputs.current(world)
    body, part, parts, table, filters, slots = (
        inputs.body,
        inputs.part,
        inputs.parts,
        inputs.table,
        inputs.filters,
        inputs.slots,
    )
    owner = inputs.part_columns[0]
    cell_size = float(world._cell_size or 0.0)
    events = world._event_log
    cache = world._resting_parts
    stamp = (world._parts, speculative, cell_size)

    if still(inputs, cache, stamp):
        hold_still(world, inputs, cache.contacts)
        return

    grid_in = cache.arrays if cache.arrays is not None else empty_grid()
    grid_valid = cache.built_for(stamp) and cache.contacts is not None
    warm_in = (world._warm.keys, world._warm.normal, world._warm.tangent)
    detect_settings = (
        dt, speculative, flip_tolerance, slop, float(METHOD_CODES[world._broadphase]),
        cell_size,
    )  # fmt: skip
    sleep = (float(world.sleep), float(world._sleep_threshold), float(world._time_to_sleep))
    backwards = world._clock.steps % 2 == 1
    if not events.handlers["presolve"]:
        # No Python between the stages: one compiled call (``engine.whole_step``).
        (sensing, start), grid, woke, found, among_resting, warm, next_island = whole_step(
            inputs.solve_body, world._gravity, table, inputs.part_columns, filters, slots,
            inputs.joints, inputs.joint_rows, grid_in, grid_valid, warm_in, detect_settings,
            solve_settings(world), backwards, sleep, world._bodies.next_island,
        )  # fmt: skip
        world._bodies.next_island = next_island
        resting = take_detection(world, cache, stamp, grid, among_resting, woke)
        manifolds = Manifolds(*found) if found is not None else NO_MANIFOLDS
        sensors = events.sensor_overlaps(
            parts, sensing, start, body["body_id"], part["sensor"], part["shape"]
        )
        remember(world, inputs, manifolds, resting, warm, sensors)
        return

    # 1. forces -> the velocities the phases sweep with (sleeping bodies feel nothing);
    # 2. broad phase: the moving parts' swept boxes, among themselves and against the
    # resting parts' kept grid, filtered; islands something reached wake;
    # 3. narrow phase with each pair's relative velocity: one compiled call
    forced, (solid, sensing), active, grid, woke, found, among_resting = detect_stage(
        inputs.detect_body, world._gravity, table, inputs.part_columns, filters, slots,
        grid_in, grid_valid, warm_in, detect_settings,
    )  # fmt: skip
    velocity, start, inv_mass, inv_inertia, dynamic = forced
    resting = take_detection(world, cache, stamp, grid, among_resting, woke)

    # Presolve handlers may drop some manifolds; sensors only overlap.
    manifolds = Manifolds(*found) if found is not None else NO_MANIFOLDS
    ignored = NO_KEYS
    if solid.shape[1]:
        manifolds, ignored = events.presolve(
            manifolds, body["body_id"], world._handles_by_row(), part["shape"]
        )
        ignored = np.ascontiguousarray(ignored, dtype=np.int64)
        if len(ignored):
            # Pairs a presolve handler ignored must not stop each other in the sweep either.
            keys = body_pair_keys(solid[2], solid[3], body["body_id"])
            solid = solid[:, ~np.isin(keys, ignored)]
    sensors = events.sensor_overlaps(
        parts, sensing, start, body["body_id"], part["sensor"], part["shape"]
    )

    # 4. the solve, on the constraints where something can move (contacts inside a
    # sleeping island or against static ground are kept for events but cost nothing);
    # 5. write back, and let islands at rest fall asleep: one compiled call
    warm, world._bodies.next_island = solve_stage(
        inputs.solve_body, world._gravity, contact_columns(manifolds), manifolds.parts,
        inputs.joints, slots, inputs.joint_rows, table, owner, solid, start, velocity,
        inv_mass, inv_inertia, dynamic, filters, ignored, active, moving_rows(active),
        solve_settings(world), backwards, sleep, world._bodies.next_island,
    )  # fmt: skip
    remember(world, inputs, manifolds, resting, warm, sensors)


def take_detection(world, cache, stamp, grid, among_resting, woke):
    """What the detection tells Python: a rebuilt grid of resting parts kept, with the
    contacts among them (manifold columns, or None for none); woken islands noted.
    Returns the resting parts' contacts (Manifolds)."""
    if grid is not None:
        among = Manifolds(*among_resting) if among_resting is not None else NO_MANIFOLDS
        cache.keep(grid, stamp, among)
    if woke:
        world._bodies.sleep_changed()
    return cache.contacts


def remember(world, inputs, manifolds, resting, warm, sensors) -> None:
    """The step's end in Python: the impulses kept for the next warm start, the clock on,
    and the step's contacts and sensor overlaps recorded as events."""
    body, part = inputs.body, inputs.part
    # The resting contacts are reported and keep their impulses, unsolved.
    reported = manifolds.joined(resting)
    if len(reported) or len(world._warm.keys):
        world._warm.store(
            reported.keys, *joined_impulses(warm, resting, len(manifolds), len(reported))
        )
    world._clock.steps += 1
    world._event_log.record(
        reported, sensors, body["body_id"], world._handles_by_row(), part["shape"]
    )


def still(inputs, cache, stamp) -> bool:
    """Whether nothing can happen in this step: every part rests (static or asleep) in the
    kept grid of resting parts, their contacts found, and no body is awake (a sleeping
    world, a level of static tiles whose bodies all sleep). Then every stage would leave
    the world as it is (Box2D's solver sets: a world of sleepers costs an empty one)."""
    return (
        cache.built_for(stamp)
        and cache.contacts is not None
        and len(cache.arrays[0]) == len(inputs.part_columns[0])
        and not any_active(*(inputs.body[name] for name in STILL_FIELDS))
    )


def hold_still(world, inputs, resting) -> None:
    """The step of a world in which nothing moves (``still``), as the stages would leave it:
    forces cleared, the joints' impulses through the sub-steps' shares and back, the
    resting contacts' impulses kept and reported, the clock on."""
    body = inputs.body
    # A force on a static body wakes nothing, and the stages clear it all the same. The
    # rest needs nothing: the step after bodies fell asleep (or were moved, or restored)
    # rebuilt the grid of resting parts, so was not still, and left resting times zero
    # and poses as the stages leave them (-0.0 read as 0.0).
    body["force"].fill(0.0)
    body["torque"].fill(0.0)
    if world._joints.count:
        # The sub-steps solve every joint's impulses as shares of the step's and scale
        # them back, the resting ones too: at 3 sub-steps that rounds.
        substeps = float(world._substeps)
        joints = world._joints.columns()
        for name in JOINT_IMPULSES:
            column = joints[name]
            column /= substeps
            column *= substeps
    # Nothing solved: the resting contacts keep their own impulses.
    remember(
        world, inputs, NO_MANIFOLDS, resting,
        (resting.normal_impulse, resting.tangent_impulse), NO_SENSORS,
    )  # fmt: skip
