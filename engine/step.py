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
5. write back, remember impulses (the resting contacts' too), record events (with the
   resting contacts), let islands at rest fall asleep.

Each stage is a compiled kernel over the world's arrays; no Python loop runs over bodies,
parts, pairs, contacts or joints. Arrays indexed by body row carry one extra row at the
end, N, for the world itself (see ``engine.forces``).
"""

from __future__ import annotations

import numpy as np

from .candidate_pairs import GRID, QUADTREE, classify_pairs, collision_filters, find_candidates
from .contact_manifolds import NO_MANIFOLDS, find_manifolds
from .events import body_pair_keys
from .forces import start_of_step
from .resting_parts import pairs_among_resting, resting_rows
from .settings import FLIP_SLOPS, SPECULATIVE_SLOPS
from .sleep import active_bodies
from .solve_stage import solve_stage
from .solver_inputs import contact_columns, solver_joint_columns

METHOD_CODES = {"grid": GRID, "quadtree": QUADTREE}
NO_KEYS = np.zeros(0, dtype=np.int64)
# The body columns ``engine.solve_stage.solve_stage`` takes, in its order.
SOLVE_BODY_FIELDS = (
    "position", "angle", "velocity", "angular_velocity", "force", "torque", "inv_mass",
    "inv_inertia", "kind", "awake", "damping", "gravity_scale", "thickness", "bullet", "reach",
    "sleep_time", "island", "sleep_threshold",
)  # fmt: skip


def solve_settings(world) -> tuple:
    """The world's solver settings as the floats ``engine.substep.solve_substeps`` takes
    (positions ``DT`` ... ``UNITS_PER_METER`` there)."""
    # Floats all, whatever the user set them with: one compiled signature.
    return tuple(
        map(float, (
            world.dt, world.substeps, world.relax_iterations, world.contact_hertz,
            world.contact_damping_ratio, world.max_contact_push_speed, world.joint_hertz,
            world.joint_damping_ratio, world._restitution_threshold, world._linear_slop,
            world.position_iterations, world._units_per_meter,
        ))
    )  # fmt: skip


def moving_rows(active: np.ndarray) -> np.ndarray:
    """(A,) int64 the rows of the bodies the solve moves, from active (N,) bool: its loops
    over bodies visit only these (static, sleeping and resting kinematic bodies keep their
    poses and velocities, and cost nothing there)."""
    return np.flatnonzero(active)


def resting_contacts(world, parts, part_reach, owner, start, velocity, body, part, filters,
                     speculative, flip_tolerance):  # fmt: skip
    """The Manifolds among the resting parts (``engine.resting_parts``): kept while the
    resting parts stay as they are, found again (narrow phase at rest, warm-started) when
    the grid was rebuilt."""
    cache = world._resting_parts
    if cache.contacts is None:
        pairs = pairs_among_resting(cache.arrays)
        solid, _ = classify_pairs(pairs, owner, *filters)
        cache.contacts = NO_MANIFOLDS
        if solid.shape[1]:
            cache.contacts = find_manifolds(
                parts, part_reach, solid, start, velocity, body["reach"], part["friction"],
                part["restitution"], body["thickness"], world.dt, speculative, flip_tolerance,
                world._linear_slop, world._warm,
            )  # fmt: skip
    return cache.contacts


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
    dt = world.dt
    # The world's tolerances, in its units; the kernels take them as arguments.
    slop = world._linear_slop
    speculative = SPECULATIVE_SLOPS * slop
    flip_tolerance = FLIP_SLOPS * slop
    body = world._bodies.columns()
    joints = world._joints.columns()
    parts = world._parts.packed()
    part_reach = world._parts.table.view("reach")
    owner = world._parts.table.view("body")
    part = world._parts.table.columns()
    jointed = world._jointed_keys()
    events = world._event_log

    # 1. forces -> the velocities the phases sweep with (sleeping bodies feel nothing)
    velocity, start, inv_mass, inv_inertia, dynamic = start_of_step(
        body["position"], body["angle"], body["velocity"], body["angular_velocity"],
        body["force"], body["torque"], body["inv_mass"], body["inv_inertia"], body["kind"],
        body["awake"], body["damping"], body["gravity_scale"], world._gravity, dt,
    )  # fmt: skip

    # 2. broad phase: the moving parts' swept boxes, among themselves and against the
    # resting parts' kept grid, filtered; islands something reached wake
    def broad_phase():
        resting_parts = world._resting_parts
        resting = resting_parts.current(
            world._parts, parts.vertices, parts.count, parts.radius, owner, start,
            resting_rows(owner, body["kind"], body["awake"], part["sensor"]), speculative,
            cell_size,
        )  # fmt: skip
        return find_candidates(
            parts.vertices, parts.count, parts.radius, owner, start, velocity, body["reach"],
            dt, speculative, METHOD_CODES[world.broadphase], cell_size, *filters, resting,
        )  # fmt: skip

    cell_size = world._cell_size or 0.0
    filters = collision_filters(body, part, jointed)
    solid, sensing = broad_phase()
    slots = world._joint_slots()
    active, reached = active_bodies(
        body["kind"], body["awake"], velocity, solid[2], solid[3], slots
    )
    while len(reached):
        # Keeping their resting time: restarted, two neighbouring islands that settle at
        # different times would wake each other in turn and never both sleep. The woken
        # bodies move now: paired again, with each other and with what they reach.
        world._wake_rows(reached, restart=False)
        solid, sensing = broad_phase()
        active, reached = active_bodies(
            body["kind"], body["awake"], velocity, solid[2], solid[3], slots
        )
    resting = resting_contacts(
        world, parts, part_reach, owner, start, velocity, body, part, filters, speculative,
        flip_tolerance,
    )  # fmt: skip

    # 3. narrow phase with each pair's relative velocity; sensors only overlap
    manifolds = NO_MANIFOLDS
    ignored = NO_KEYS
    if solid.shape[1]:
        manifolds = find_manifolds(
            parts, part_reach, solid, start, velocity, body["reach"], part["friction"],
            part["restitution"], body["thickness"], dt, speculative, flip_tolerance, slop,
            world._warm,
        )  # fmt: skip
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
        tuple(map(body.__getitem__, SOLVE_BODY_FIELDS)), world._gravity,
        contact_columns(manifolds), manifolds.parts, solver_joint_columns(joints), slots,
        (parts.vertices, parts.normals, parts.count, parts.radius, part_reach), owner, solid,
        start, velocity, inv_mass, inv_inertia, dynamic, filters, ignored, active,
        moving_rows(active), solve_settings(world), world._clock.steps % 2 == 1,
        (float(world.sleep), float(world._sleep_threshold), float(world._time_to_sleep)),
        world._bodies.next_island,
    )  # fmt: skip
    # Remember impulses, and tell the game what happened.
    # The resting contacts are reported and keep their impulses, unsolved.
    reported = manifolds.joined(resting)
    if len(reported) or len(world._warm.keys):
        world._warm.store(
            reported.keys, *joined_impulses(warm, resting, len(manifolds), len(reported))
        )
    world._clock.steps += 1
    events.record(
        reported, sensors, body["body_id"], world._handles_by_row(),
        world._parts.table.view("shape"),
    )  # fmt: skip
