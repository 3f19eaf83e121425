"""The sub-stepped soft solver: velocities and positions of a step in n small steps.

``World(substeps=n)`` (n >= 1, 4 by default) solves each step's contacts and joints here,
after the forces, broad and narrow phase of ``engine.step`` (contacts are found once per
step):

    for each of the n sub-steps h = dt / n:
        integrate velocities (gravity, applied forces, damping) over h;
        warm start (the last sub-step's impulses);
        solve the rigid joints whose graph is a tree exactly instead of as springs
        (``engine.joint_trees``), aimed at the error the sub-step would end with, so
        that the passes that follow see velocities their joints hold;
        solve contacts and joints once, soft, with a bias from their error *now*
        (``engine.soft_joints``, ``engine.soft_contacts``), the contacts with static and
        kinematic bodies last (``fixed_last``), then once more the contacts of the bodies
        struck faster than the push speed, and those of their neighbours with static and
        kinematic bodies (``_struck_pass``); the touching contacts whose graph is a tree
        are then solved exactly, on stiffer springs (``engine.contact_trees``), and the
        joint trees once more, for what these passes changed;
        integrate positions over h, then move the tree joints' bodies onto their joints
        (one Newton step on positions);
        relax: solve them again without bias (``relax_iterations`` passes; trees exact,
        contact and joint ones),
        and once more as after the biased pass for the bodies struck;
        restitution for the points that arrived in this sub-step (approached faster
        than the threshold and were pushed): they leave at -e times their approach,
        once per step, and the sub-steps left carry them away;
    continuous collision: a fast body whose motion over the step would pass through a
    static or kinematic part stops at its time of impact (``engine.ccd``), and the
    bodies of its joint tree with it.

Bouncing in the sub-step of arrival (and, in the biased pass, aiming a point arriving
from a gap at where it would be after bouncing part-way through the sub-step) puts a
bounce where it happened: bounced at the end of the step instead, a ball dropped from
2 m with e = 0.2 rebounds 4 % short (one sub-step of rising lost).

Small steps are what make it converge: each sub-step sees the error the last one left,
so a stack, a chain or a heavy load settle instead of sagging or drifting. The springs
push overlapping bodies apart, at most ``max_contact_push_speed``; only overlap deeper
than they hold is pushed out on positions (``_push_out_deep``).

Impulses: the manifolds' ``normal_impulse`` and ``tangent_impulse`` hold what the whole
step applied (events and contact tables read them); the warm-start cache and the joint
table keep the last sub-step's times n, so that both stay in per-step units (a manifold
struck in the step: the least of its sub-steps', as the last may hold the impact).
"""

from __future__ import annotations

import math

import numpy as np

from .body_store import DYNAMIC
from .ccd import allowed_times
from .ccd_pairs import sweep_pairs
from .contact_cores import round_cores
from .contact_slop import body_slops
from .contact_solver import (
    APPROACH0,
    IM_A,
    IM_B,
    RESTITUTION,
    prepare_contacts,
    restitute,
    warm_start_contacts,
)
from .contact_trees import (
    contact_forest,
    solve_contact_trees,
    stiffen_tree_springs,
)
from .jit import kernel
from .joint_columns import AXIS_DRIVE, ROWS
from .joint_geometry import HAS_AXIS
from .joint_solver import (
    ACCUMULATED,
    LOWER,
    MOTOR,
    SPRING_IMPULSE,
    UPPER,
    joint_scratch,
    prepare_joints,
    solve_joint,
    warm_start_joints,
)
from .joint_store import GEAR
from .joint_trees import (
    joint_forest,
    predicted_targets,
    project_trees,
)
from .position_correction import correct_positions
from .rotation import cos_sin
from .settings import (
    ANGULAR_SLOP,
    CCD_FRACTION,
    CORRECTION_FACTOR,
    MAX_CORRECTION,
    SPECULATIVE_SLOPS,
)
from .soft_contacts import (
    LEAVE0,
    bound_friction,
    hold_deep_overlaps,
    hold_loads_at_touching,
    loaded_depths,
    opening_speeds,
    prepare_soft,
    softness,
    solve_soft_contact,
)
from .soft_joints import keep_spring_pushes, soften_joints, solve_soft_main
from .solver_inputs import (
    STREAMS,
    interleaved_order,
)
from .solver_settings import (
    DEEP_OVERLAP,
    DEEP_PUSH_STEPS,
    FREE_BAND,
    IMPACT_BIASED,
    IMPACT_RELAX,
    MAX_HERTZ_SHARE,
    TREE_TOLERANCE,
)
from .tree_solve import RIGID, solve_trees, tree_workspace
from .tree_turns import (
    engage_limits,
    held_turns,
    settle_limits,
    solve_held_turns,
)

# Positions in the ``settings`` tuple ``solve_substeps`` takes (see its docstring).
(DT, SUBSTEPS, RELAX_ITERATIONS, CONTACT_HERTZ, CONTACT_RATIO, PUSH_SPEED, JOINT_HERTZ,
 JOINT_RATIO, RESTITUTION_THRESHOLD, LINEAR_SLOP, POSITION_ITERATIONS,
 UNITS_PER_METER) = range(12)  # fmt: skip


@kernel
def solve_substeps(body, gravity, contacts, part_pairs, solve_contacts, joints, slots,
                   solve_joints, joint_rows, table, owner, solid, start, swept, inv_mass,
                   inv_inertia, filters, ignored, moving, settings, backwards,
                   sleep):  # fmt: skip
    """The step's end poses (N + 1, 3), velocities (rows (K,) ascending, the bodies the
    sub-steps worked on (``solve_rows``; the others keep theirs), with theirs (K + 1, 3),
    the world's last), which bodies (N,) bool
    push-out moved (``_push_out_deep``), the impulses ((M, 2), (M,)) for the warm-start
    cache, each point's separation (M, 2) (with sleep on, plus the depth its spring sits
    at under its load), and how fast each manifold (M,) opened over the step (with sleep
    on, for sleep: an overlap deeper than where its spring rests, opening, is still being
    pushed out; else empty); the manifolds' impulse columns become the step's.

    body: the body columns (N, ...) velocity, angular_velocity, force, torque, inv_mass,
    inv_inertia, kind, awake, damping, gravity_scale, thickness, bullet, reach; gravity
    (2,); contacts: the manifolds' columns (``engine.solver_inputs.contact_columns``) with
    part_pairs (M, 2) and solve_contacts (M,) bool; joints: the joint table's solver
    columns (``solver_joint_columns``), slots (J, 2), solve_joints (J,) bool, joint_rows:
    the solver's room for the joints' prepared rows (``joint_workspace``); table: the
    packed parts (vertices, normals, count, radius, reach), owner (P,), solid: the step's
    (4, S) candidate pairs, for continuous collision, with the filters and ignored pair
    keys ``engine.ccd_pairs`` takes; start: (N + 1, 3) poses; swept (N + 1, 3): the
    velocities the broad phase used; inv_mass, inv_inertia: (N + 1,); moving: (A,) int64
    the rows of the bodies the step moves (``engine.sleep.active_bodies``): the others
    keep their poses and velocities. settings: the floats at the positions DT ...
    UNITS_PER_METER name (the world's, in its units); backwards: this step visits the
    manifolds in reverse; sleep: the world's sleep is on.
    """
    (body_velocity, angular_velocity, force, torque, body_inv_mass, body_inv_inertia, kind,
     awake, damping, gravity_scale, thickness, bullet, reach) = body  # fmt: skip
    (body_a, body_b, count, normal, arm_a, arm_b, separation, friction, restitution,
     normal_impulse, tangent_impulse, slop) = contacts  # fmt: skip
    dt = settings[DT]
    substeps = int(settings[SUBSTEPS])
    # The sub-steps work on the rows that take part only: a level of static tiles or a
    # sleeping pile costs them nothing (``solve_rows``).
    rows, local = solve_rows(moving, body_a, body_b, slots, len(kind))
    every = len(rows) == len(kind)
    if every:
        # Every row takes part (a pyramid, all awake): the rows are their own places.
        velocity, accel, drag = substep_forces(
            body_velocity, angular_velocity, force, torque, body_inv_mass, body_inv_inertia,
            kind, awake, damping, gravity_scale, gravity,
        )  # fmt: skip
        local_a, local_b, local_slots, local_moving = body_a, body_b, slots, moving
        local_inv_mass, local_inv_inertia, local_start = inv_mass, inv_inertia, start
        local_thickness = thickness
    else:
        with_world = np.empty(len(rows) + 1, dtype=np.int64)
        with_world[:-1] = rows
        with_world[-1] = len(kind)
        velocity, accel, drag = substep_forces(
            body_velocity[rows], angular_velocity[rows], force[rows], torque[rows],
            body_inv_mass[rows], body_inv_inertia[rows], kind[rows], awake[rows],
            damping[rows], gravity_scale[rows], gravity,
        )  # fmt: skip
        local_a, local_b = local[body_a], local[body_b]
        local_slots, local_moving = _local_slots(local, slots), local[moving]
        local_inv_mass, local_inv_inertia = inv_mass[with_world], inv_inertia[with_world]
        local_start, local_thickness = start[with_world], thickness[rows]
    local_contacts = (
        local_a, local_b, count, normal, arm_a, arm_b, separation, friction, restitution,
        normal_impulse, tangent_impulse, slop,
    )  # fmt: skip
    # Contact springs stay within the sub-steps' reach: at most MAX_HERTZ_SHARE of their rate.
    contact_hertz = min(settings[CONTACT_HERTZ], MAX_HERTZ_SHARE * substeps / dt)
    solver_settings = (
        contact_hertz, settings[CONTACT_RATIO], settings[PUSH_SPEED], settings[JOINT_HERTZ],
        settings[JOINT_RATIO], settings[RESTITUTION_THRESHOLD],
        settings[LINEAR_SLOP] * TREE_TOLERANCE, ANGULAR_SLOP * TREE_TOLERANCE, IMPACT_RELAX,
        IMPACT_BIASED,
    )  # fmt: skip
    radius = table[3]
    cores = round_cores(
        arm_a, arm_b, normal, separation, count, radius[part_pairs[:, 0]],
        radius[part_pairs[:, 1]],
    )  # fmt: skip
    push_depth = DEEP_PUSH_STEPS * settings[PUSH_SPEED] * dt
    deep = deep_overlaps(
        local_thickness, local_a, local_b, local_slots, solve_joints, local_inv_mass, push_depth
    )
    if int(settings[POSITION_ITERATIONS]) == 0:
        # No push-out passes: no overlap is held for them, the springs part it all (held,
        # two boxes spawned 30 % into each other stayed so).
        deep[:] = np.inf
    local_moved, warm_normal, warm_tangent, tree_of, loaded = _substeps(
        local_contacts, cores, solve_contacts, joints, local_slots, solve_joints, joint_rows,
        local_start, velocity, accel, drag, local_inv_mass, local_inv_inertia, dt, substeps,
        int(settings[RELAX_ITERATIONS]), solver_settings, backwards, deep, local_moving,
    )  # fmt: skip
    moved = local_moved
    if not every:
        moved = np.zeros(start.shape)
        for q in range(len(rows)):
            for axis in range(3):
                moved[rows[q], axis] = local_moved[q, axis]
    poses = _stop_tunnels(
        table, owner, solid, filters, ignored, bullet, reach, thickness, start, swept, moved,
        dt, settings[LINEAR_SLOP], rows, tree_of, velocity,
    )  # fmt: skip
    pushed = _push_out_deep(
        thickness, contacts, part_pairs, cores, solve_contacts, poses, start, inv_mass, table,
        owner, solid, filters, ignored, loaded, deep, settings,
    )  # fmt: skip
    # Sleep judges overlap from where each loaded spring rests, not from touching, and
    # only while the springs are pushing it out.
    settled = separation
    opening = np.zeros(0)
    if sleep:
        settled = separation + loaded
        opening = opening_speeds(
            count, normal, cores[0], cores[1], separation, loaded, slop, body_a, body_b,
            moved, dt,
        )  # fmt: skip
    return poses, (rows, velocity), pushed, (warm_normal, warm_tangent), settled, opening


@kernel
def solve_rows(moving, body_a, body_b, slots, n):
    """The body rows (K,) the sub-steps work on, ascending: those that move (moving (A,)),
    and every body of a manifold (body_a, body_b (M,)) or joint (slots (J, 2); the world,
    row n, left out); and local (n + 1,) int64, each such row's place among them (the
    world's: K; the other entries are left undefined: a level of resting tiles costs a
    byte each here, no more). Ascending keeps every loop over bodies in its order."""
    # Each row once: marked as it is first met (the world's row counts as met).
    marked = np.zeros(n + 1, dtype=np.bool_)
    marked[n] = True
    met = np.empty(len(moving) + 2 * len(body_a) + 2 * len(slots), dtype=np.int64)
    k = 0
    for e in range(len(met)):
        if e < len(moving):
            row = moving[e]
        elif e < len(moving) + 2 * len(body_a):
            i = (e - len(moving)) // 2
            row = body_a[i] if (e - len(moving)) % 2 == 0 else body_b[i]
        else:
            j = e - len(moving) - 2 * len(body_a)
            row = slots[j // 2, j % 2]
        if not marked[row]:
            marked[row] = True
            met[k] = row
            k += 1
    if 16 * k < n:
        # Few of many (moving bodies over a level of tiles): sorting them is cheaper.
        rows = np.sort(met[:k])
    else:
        # Most of them (a pyramid): the marks, read in order, are sorted already.
        rows = np.empty(k, dtype=np.int64)
        q = 0
        for row in range(n):
            if marked[row]:
                rows[q] = row
                q += 1
    local = np.empty(n + 1, dtype=np.int64)
    for q in range(len(rows)):
        local[rows[q]] = q
    local[n] = len(rows)
    return rows, local


@kernel
def _local_slots(local, slots):
    """The joints' slots (J, 2) as places among the sub-steps' rows (``solve_rows``)."""
    out = np.empty_like(slots)
    for j in range(len(slots)):
        out[j, 0], out[j, 1] = local[slots[j, 0]], local[slots[j, 1]]
    return out


@kernel
def deep_overlaps(thickness, body_a, body_b, slots, solve_joints, inv_mass, push_depth):
    """(M,) how far past the depth at which its springs hold their load each manifold
    (bodies body_a, body_b (M,)) may overlap before it is held rigid and pushed out on
    positions: DEEP_OVERLAP of the thinner body's thickness (N,), or push_depth (what the
    springs push out in DEEP_PUSH_STEPS) if less; never (inf) for a body that push-out
    could move (inv_mass (N + 1,) > 0) with a joint (slots (J, 2), solve_joints (J,)):
    moved alone, a ragdoll's limb pulled its pivot 3 cm open. A joint on a static body
    does not count: push-out never moves it, and without its contacts push-out drove
    crushed bodies through it (Box2D's spinner, whose ring is jointed to its bar: 220 of
    1,500 bodies out of the ring in 300 steps, against 1 without push-out)."""
    jointed = np.zeros(len(thickness) + 1, dtype=np.bool_)
    for j in range(len(slots)):
        if solve_joints[j]:
            for slot in range(2):
                row = slots[j, slot]
                jointed[row] = jointed[row] or inv_mass[row] > 0.0
    deep = np.empty(len(body_a))
    for i in range(len(body_a)):
        a, b = body_a[i], body_b[i]
        if jointed[a] or jointed[b]:
            deep[i] = np.inf
        else:
            deep[i] = min(DEEP_OVERLAP * min(thickness[a], thickness[b]), push_depth)
    return deep


@kernel
def past_deep(solve_contacts, separation, loaded, deep):
    """Whether a solved manifold (solve_contacts (M,)) overlaps past its ``deep`` (M,)
    beyond the depth at which its springs hold their loads: separation and loaded (M, 2)."""
    for i in range(len(deep)):
        if solve_contacts[i] and np.isfinite(deep[i]):
            held = min(separation[i, 0] + loaded[i, 0], separation[i, 1] + loaded[i, 1])
            if held < -deep[i]:
                return True
    return False


@kernel
def _push_out_deep(thickness, contacts, part_pairs, cores, solve_contacts, poses, start,
                   inv_mass, table, owner, solid, filters, ignored, loaded, deep,
                   settings):  # fmt: skip
    """Push-out on positions (``engine.position_correction``, along each contact's
    normal) of the overlap the springs left deeper than their slop past the depth at
    which each holds its load (``loaded`` (M, 2), ``engine.soft_contacts.loaded_depths``);
    poses (N + 1, 3) change in place. Returns which bodies (N,) bool it moved by more than
    a fifth of their slop (not at rest yet). deep (M,): ``deep_overlaps``; contacts,
    part_pairs, table, settings: as ``solve_substeps`` takes them.

    Only once some manifold overlaps past its ``deep``, and then every manifold of
    bodies without joints takes part. The springs part bodies spawned into each other at
    most max_contact_push_speed (two 1 m boxes 30 % into each other: 9 steps); pushed out,
    they part in 4, and at no speed. What a spring's load explains is left to the spring:
    pushed out, a resting pile of 5 mm boxes sank back within the next step and never
    slept. Pushed out of each other at any depth, the tumbler's boxes were pushed into its
    moving walls (1.5 cm against 0.5)."""
    n = len(thickness)
    body_a, body_b, normal, separation = contacts[0], contacts[1], contacts[3], contacts[6]
    slop = contacts[11]
    pushed = np.zeros(n, dtype=np.bool_)
    if not past_deep(solve_contacts, separation, loaded, deep):
        return pushed
    solve = solve_contacts & np.isfinite(deep)
    held = separation + loaded
    # Against static and kinematic bodies the true depth: the guard that push-out drives
    # nothing deeper into them measures from it (from where the springs hold their loads,
    # a box was pushed 0.8 cm into the tumbler's moving wall, against 0.5).
    for i in range(len(body_a)):
        if inv_mass[body_a[i]] == 0.0 or inv_mass[body_b[i]] == 0.0:
            held[i, 0], held[i, 1] = separation[i, 0], separation[i, 1]
    world_slop = settings[LINEAR_SLOP]
    slops = body_slops(thickness, world_slop)
    turned = poses[:, 2] - start[:, 2]
    unpushed = poses.copy()
    correct_positions(
        (body_a, body_b, normal, cores[0], cores[1], held, slop), solve, poses, start, turned,
        inv_mass, int(settings[POSITION_ITERATIONS]),
        (CORRECTION_FACTOR, MAX_CORRECTION * settings[UNITS_PER_METER]), slops,
        (table, owner, filters, ignored, solid, SPECULATIVE_SLOPS * world_slop),
    )  # fmt: skip
    for i in range(n):
        limit = 0.2 * slops[i]
        pushed[i] = abs(poses[i, 0] - unpushed[i, 0]) > limit or (
            abs(poses[i, 1] - unpushed[i, 1]) > limit
        )
    return pushed


@kernel
def substep_forces(velocity, angular_velocity, force, torque, inv_mass, inv_inertia, kind,
                   awake, damping, gravity_scale, gravity):  # fmt: skip
    """Velocities at the step start (N + 1, 3), the acceleration the forces give
    (N + 1, 3), and the drag rates (N + 1, 2) of each body (the world's row: zero).

    Body columns (N,) / (N, 2) as ``engine.forces.start_of_step`` takes them; a sub-step
    h then does v <- (v + h accel) / (1 + h drag), as ``start_of_step`` does over a step.
    """
    n = len(kind)
    out = np.zeros((n + 1, 3))
    accel = np.zeros((n + 1, 3))
    drag = np.zeros((n + 1, 2))
    for i in range(n):
        out[i, 0], out[i, 1], out[i, 2] = velocity[i, 0], velocity[i, 1], angular_velocity[i]
        dynamic = kind[i] == DYNAMIC
        falling = gravity_scale[i] if dynamic and awake[i] else 0.0
        accel[i, 0] = gravity[0] * falling + force[i, 0] * inv_mass[i]
        accel[i, 1] = gravity[1] * falling + force[i, 1] * inv_mass[i]
        accel[i, 2] = torque[i] * inv_inertia[i]
        if dynamic:
            drag[i, 0], drag[i, 1] = damping[i, 0], damping[i, 1]
    return out, accel, drag


@kernel
def _substeps(contacts, cores, solve_contacts, joints, slots, solve_joints, joint_rows,
              start, velocity, accel, drag, inv_mass, inv_inertia, dt, substeps, relax,
              settings, backwards, deep, moving):  # fmt: skip
    """The sub-step loop; velocity (N + 1, 3) changes in place. Returns each body's
    displacement over the step (N + 1, 3), the warm-start impulses to keep ((M, 2),
    (M,)), each body's joint tree (N + 1,) (-1: none; ``engine.joint_trees``) and the
    depth (M, 2) at which each point's spring holds its last sub-step's load
    (``engine.soft_contacts.loaded_depths``); the
    manifolds' impulse columns become the step's totals, the joints' the last sub-step's
    times n. cores: the points' arms to what turns with each body
    (``engine.contact_cores``), for separations. deep (M,): how far past its loaded depth
    a manifold overlaps before its springs are held rigid for push-out to part it
    (``engine.soft_contacts.hold_deep_overlaps``). moving: (A,) int64 the rows of the
    bodies that move; the others (static, asleep, a kinematic body at rest) have no
    velocity, no acceleration and nothing that can give them either (no solved
    constraint joins two of them, and a solved one's other body has no inverse mass or
    was woken), so the loops over bodies skip them and their poses stay at start.
    joint_rows: (prepared, softened, soft_main), the arrays the joints' rows are
    written into (``joint_workspace``)."""
    core_a, core_b = cores
    (body_a, body_b, count, normal, arm_a, arm_b, separation, friction, restitution,
     normal_impulse, tangent_impulse, slop) = contacts  # fmt: skip
    (kind, anchor_a, anchor_b, reference_angle, lower, upper, max_motor_torque, motor_speed,
     length, frequency, damping, max_force, axis, ratio, rest_angle, correction, impulse,
     motor_impulse, lower_impulse, upper_impulse, spring_impulse) = joints  # fmt: skip
    (contact_hertz, contact_ratio, push, joint_hertz, joint_ratio, threshold, tree_linear,
     tree_angular, impact_relax, impact_biased) = settings  # fmt: skip
    h = dt / substeps
    inv_h = 1.0 / h
    n = len(start)
    m = len(body_a)
    c = prepare_contacts(
        body_a, body_b, count, normal, arm_a, arm_b, separation, friction, restitution,
        velocity, inv_mass, inv_inertia, h,
    )  # fmt: skip
    soft = prepare_soft(
        c, body_a, body_b, count, normal, core_a, core_b, separation, slop, contact_hertz,
        contact_ratio, h,
    )  # fmt: skip
    # This sub-step's impulses (warm-started from last step's, kept per step) and the sums.
    x = normal_impulse / substeps
    xt = tangent_impulse / substeps
    total = np.zeros((m, 2))
    least = np.full((m, 2), np.inf)
    total_t = np.zeros(m)
    j_count = len(slots)
    accumulated = np.empty((j_count, ACCUMULATED))
    has_axis = np.empty(j_count, dtype=np.bool_)
    any_joint = False
    for j in range(j_count):
        for r in range(3):
            accumulated[j, r] = impulse[j, r] / substeps
        accumulated[j, MOTOR] = motor_impulse[j] / substeps
        accumulated[j, LOWER] = lower_impulse[j] / substeps
        accumulated[j, UPPER] = upper_impulse[j] / substeps
        accumulated[j, SPRING_IMPULSE] = spring_impulse[j] / substeps
        has_axis[j] = HAS_AXIS[kind[j]]
        any_joint = any_joint or solve_joints[j]
    bounced = np.zeros(m, dtype=np.bool_)
    bounce = np.zeros(m, dtype=np.bool_)
    bouncy = False  # any solved manifold with restitution: else no bounce passes
    for i in range(m):
        bouncy = bouncy or (solve_contacts[i] and c[i, RESTITUTION] > 0.0)
    order = interleaved_order(m, STREAMS)
    if backwards:
        order = order[::-1].copy()
    order = fixed_last(order, c)
    moved = np.zeros((n, 3))
    turn = np.zeros((n, 2))
    turn[:, 0] = 1.0
    poses = start.copy()
    rigid, softened, main = joint_rows
    scratch = joint_scratch()
    joint_impulse_scale = softness(joint_hertz, joint_ratio, h)[2]
    # A motor joint closes its share of the pose error per step: per sub-step, the share
    # that compounds to it (per sub-step the whole share, the drive asked for speeds its
    # force could not brake from, and a crate swung past its target and back for ever).
    sub_correction = 1.0 - (1.0 - correction) ** (1.0 / substeps)
    # The rigid joints whose graph is a tree are solved exactly (``engine.joint_trees``).
    tree_order, child, parent, side, tree_of = joint_forest(
        kind, slots, solve_joints, inv_mass, inv_inertia
    )
    trees = len(tree_order) > 0
    # The touching contacts whose graph is a tree are solved exactly too, stiffer.
    contact_trees = contact_forest(
        body_a, body_b, count, separation, solve_contacts, tree_of, c, inv_mass, inv_inertia
    )
    stiffen_tree_springs(soft, c, contact_trees[0], contact_hertz, contact_ratio, h)
    hold_loads_at_touching(soft, c, count, x, contact_trees[0], body_a, body_b, velocity)
    hold_deep_overlaps(soft, c, count, separation, x, deep)
    exact = child >= 0
    turns_held = held_turns(kind, child)
    # Room for the joint trees' solves, shared by the step's: the forest stays the same.
    tree_work = tree_workspace(n, len(tree_order))
    tree_used = np.empty((j_count, 3), dtype=np.bool_)
    tree_rows = np.empty((j_count, 18))
    engaged = np.zeros(j_count, dtype=np.int64)
    no_target = np.zeros((j_count, 3))
    kicked = np.zeros((n, 3))
    flies = _unjointed(slots, solve_joints, drag, n)
    for _ in range(substeps):
        for i in moving:
            for axis_ in range(3):
                velocity[i, axis_] += h * accel[i, axis_]
            if drag[i, 0] > 0.0 or drag[i, 1] > 0.0:
                linear = 1.0 / (1.0 + h * drag[i, 0])
                velocity[i, 0] *= linear
                velocity[i, 1] *= linear
                velocity[i, 2] /= 1.0 + h * drag[i, 1]
        # What the bodies do before the warm start kicks them: the trees' predictions
        # extrapolate this motion, not the kick (``predicted_targets``), and what the
        # constraints do to the forces' parabola is measured from it (``free_share``).
        for i in moving:
            for axis_ in range(3):
                kicked[i, axis_] = velocity[i, axis_]
        if any_joint:
            rigid = prepare_joints(
                kind, anchor_a, anchor_b, reference_angle, lower, upper, max_motor_torque,
                motor_speed, length, frequency, damping, max_force, axis, ratio, rest_angle,
                sub_correction, slots, solve_joints, poses, inv_mass, inv_inertia, h,
                accumulated, rigid, scratch,
            )  # fmt: skip
            soften_joints(
                rigid, kind, anchor_a, anchor_b, reference_angle, lower, upper, length,
                frequency, axis, ratio, slots, solve_joints, poses, inv_mass, inv_inertia,
                joint_hertz, joint_ratio, h, exact, softened, main, scratch,
            )  # fmt: skip
            # The tree joints' main rows start each sub-step from nothing: their exact
            # solves set them whole. Warm-started, they only kicked bodies that the solve
            # then took back, and on a light body far from its slider's anchor (a 0.13 m
            # disc 3.9 m out) the kicks and take-backs grew from sub-step to sub-step
            # until the chain went non-finite (6 of 2,000 fuzzed chains).
            # So do the limits and motor along a tree slider's axis, Gauss-Seidel rows
            # between the tree's two solves: warm-started, a slider's limit pushed a body
            # 4 m from its anchor, and a slider's motor one 1.7 m out, the solve took each
            # push back, and the pushes grew until the chain went non-finite (2 of 4,000
            # fuzzed chains). Turning motors and limits keep theirs: without it, a lander
            # on motorised, limited legs and a ragdoll never fell asleep.
            for j in range(j_count if trees else 0):
                if exact[j]:
                    accumulated[j, 0] = 0.0
                    accumulated[j, 1] = 0.0
                    accumulated[j, 2] = 0.0
                    if has_axis[j] and rigid[j, AXIS_DRIVE] > 0.0:
                        accumulated[j, LOWER] = 0.0
                        accumulated[j, UPPER] = 0.0
                        accumulated[j, MOTOR] = 0.0
            warm_start_joints(kind, slots, solve_joints, rigid, accumulated, inv_inertia, velocity)
        warm_start_contacts(body_a, body_b, c, x, xt, solve_contacts, velocity)
        if trees:
            # Aimed at closing, by the sub-step's end, the error the velocities would leave.
            target = predicted_targets(
                tree_order, kind, anchor_a, anchor_b, axis, length, reference_angle, ratio,
                slots, poses, kicked, softened, ROWS, h,
            )  # fmt: skip
            # The trees first, so that the contacts and the Gauss-Seidel rows (motors,
            # limits, ropes, springs) see velocities their joints hold, not the warm
            # start's kicks that the exact solve takes back (``_solve_biased_trees``).
            _solve_biased_trees(
                tree_order, child, parent, side, kind, turns_held, slots, softened,
                target.copy(), tree_angular, inv_h, inv_mass, inv_inertia, velocity,
                accumulated, tree_work, tree_used, tree_rows, engaged,
            )  # fmt: skip
        for i in order:
            if solve_contacts[i]:
                solve_soft_contact(
                    i, body_a[i], body_b[i], c, soft, core_a, core_b, x, xt, velocity, accel,
                    moved, turn, inv_h, push, True, threshold,
                )  # fmt: skip
        solve_contact_trees(
            contact_trees, c, soft, count, body_a, body_b, core_a, core_b, x, velocity, moved,
            turn, inv_mass, inv_inertia, push, True,
        )  # fmt: skip
        # Struck bodies' contacts once more.
        hit, any_hit = _struck(c, body_a, body_b, solve_contacts, push, n)
        for _ in range(impact_biased if any_hit else 0):
            _struck_pass(
                order, hit, solve_contacts, body_a, body_b, c, soft, core_a, core_b, x, xt,
                velocity, accel, moved, turn, inv_h, push, True, threshold,
            )  # fmt: skip
        for j in range(j_count):
            if solve_joints[j]:
                if turns_held[j]:
                    solve_held_turns(
                        j, slots[j, 0], slots[j, 1], softened, accumulated, inv_inertia,
                        velocity,
                    )  # fmt: skip
                solve_joint(
                    j, slots[j, 0], slots[j, 1], has_axis[j], softened, accumulated,
                    inv_inertia, velocity, turns_held[j], False,
                )  # fmt: skip
                solve_soft_main(
                    j, slots[j, 0], slots[j, 1], softened, main, accumulated,
                    joint_impulse_scale, velocity,
                )  # fmt: skip
        if trees:
            # Again, for what the contacts and the other rows changed.
            _solve_biased_trees(
                tree_order, child, parent, side, kind, turns_held, slots, softened, target,
                tree_angular, inv_h, inv_mass, inv_inertia, velocity, accumulated, tree_work,
                tree_used, tree_rows, engaged,
            )  # fmt: skip
            gears_last(
                kind, slots, solve_joints, has_axis, softened, accumulated, inv_inertia, velocity
            )
        for i in moving:
            # A body nothing holds flies the exact parabola of its forces (constant over
            # the sub-step), h v - h^2 a / 2 with v the velocity at the end; held ones
            # move by h v, as their constraints were solved for (``free_share``).
            linear, angular = 0.0, 0.0
            if flies[i]:
                linear, angular = free_share(velocity[i], kicked[i], accel[i], h)
            for axis_ in range(3):
                share = angular if axis_ == 2 else linear
                moved[i, axis_] += h * velocity[i, axis_] - share * 0.5 * h * h * accel[i, axis_]
                poses[i, axis_] = start[i, axis_] + moved[i, axis_]
            turn[i, 0], turn[i, 1] = cos_sin(moved[i, 2])
        if trees:
            # What the velocities left open past a tolerance, closed on positions.
            shift = project_trees(
                tree_order, child, parent, side, kind, anchor_a, anchor_b, axis, length,
                reference_angle, ratio, slots, poses, inv_mass, inv_inertia, tree_linear,
                tree_angular, tree_work,
            )  # fmt: skip
            for i in moving:
                if shift[i, 0] != 0.0 or shift[i, 1] != 0.0 or shift[i, 2] != 0.0:
                    for axis_ in range(3):
                        moved[i, axis_] += shift[i, axis_]
                        poses[i, axis_] = start[i, axis_] + moved[i, axis_]
                    turn[i, 0], turn[i, 1] = cos_sin(moved[i, 2])
        if any_joint:
            # The relax passes hold the joints along their rows *now*: along the rows of
            # the sub-step's start, a swinging pendulum would lose speed every sub-step.
            rigid = prepare_joints(
                kind, anchor_a, anchor_b, reference_angle, lower, upper, max_motor_torque,
                motor_speed, length, frequency, damping, max_force, axis, ratio, rest_angle,
                sub_correction, slots, solve_joints, poses, inv_mass, inv_inertia, h,
                accumulated, rigid, scratch,
            )  # fmt: skip
            keep_spring_pushes(rigid, softened, kind, frequency)
        for _ in range(relax):
            for i in order:
                if solve_contacts[i]:
                    solve_soft_contact(
                        i, body_a[i], body_b[i], c, soft, core_a, core_b, x, xt, velocity,
                        accel, moved, turn, inv_h, push, False, threshold,
                    )  # fmt: skip
            solve_contact_trees(
                contact_trees, c, soft, count, body_a, body_b, core_a, core_b, x, velocity,
                moved, turn, inv_mass, inv_inertia, push, False,
            )  # fmt: skip
            for j in range(j_count):
                if solve_joints[j]:
                    if turns_held[j]:
                        solve_held_turns(
                            j, slots[j, 0], slots[j, 1], rigid, accumulated, inv_inertia,
                            velocity,
                        )  # fmt: skip
                    solve_joint(
                        j, slots[j, 0], slots[j, 1], has_axis[j], rigid, accumulated,
                        inv_inertia, velocity, turns_held[j], exact[j],
                    )  # fmt: skip
            if trees:
                relax_target = no_target.copy()
                engage_limits(
                    rigid, kind, turns_held, relax_target, tree_angular, inv_h, tree_used,
                    tree_rows, engaged,
                )  # fmt: skip
                solve_trees(
                    tree_order, child, parent, side, tree_used, tree_rows, 0, relax_target,
                    inv_mass, inv_inertia, velocity, accumulated, RIGID, tree_work,
                )  # fmt: skip
                settle_limits(engaged, turns_held, slots, rigid, accumulated, inv_inertia, velocity)
                gears_last(
                    kind, slots, solve_joints, has_axis, rigid, accumulated, inv_inertia,
                    velocity,
                )  # fmt: skip
                # The trees' contacts once more, so that the relax pass leaves no limb
                # driven into what it lies on (in the biased pass too, a ragdoll rocked on
                # its limits and never slept).
                for i in order:
                    if solve_contacts[i] and (tree_of[body_a[i]] >= 0 or tree_of[body_b[i]] >= 0):
                        solve_soft_contact(
                            i, body_a[i], body_b[i], c, soft, core_a, core_b, x, xt, velocity,
                            accel, moved, turn, inv_h, push, False, threshold,
                        )  # fmt: skip
        # One pass cannot carry an impact through what the struck body rests on: more for
        # the contacts of the dynamic bodies struck in this step faster than the springs
        # push (slower, the springs catch it; a settling pyramid has none). Only biased
        # passes record approaches: none struck before the extra visits, none now.
        struck, any_struck = hit, any_hit
        if any_hit:
            struck, any_struck = _struck(c, body_a, body_b, solve_contacts, push, n)
        for _ in range(impact_relax if any_struck else 0):
            _struck_pass(
                order, struck, solve_contacts, body_a, body_b, c, soft, core_a, core_b, x, xt,
                velocity, accel, moved, turn, inv_h, push, False, threshold,
            )  # fmt: skip
        bound_friction(solve_contacts, c, x, xt, body_a, body_b, velocity)
        # Bounce, once per step, the points that arrived in this sub-step: approached
        # faster than the threshold and pushed. The sub-steps left carry them away.
        for i in range(m if bouncy else 0):
            now = False
            if solve_contacts[i] and not bounced[i] and c[i, RESTITUTION] > 0.0:
                for p in range(count[i]):
                    now = now or (c[i, APPROACH0 + p] < -threshold and x[i, p] > 0.0)
            bounce[i] = now
            bounced[i] = bounced[i] or now
        if bouncy:
            restitute(
                body_a, body_b, c, x, bounce, threshold, velocity, soft[:, LEAVE0 : LEAVE0 + 2]
            )
        for i in range(m):
            total[i, 0] += x[i, 0]
            total[i, 1] += x[i, 1]
            least[i, 0] = min(least[i, 0], x[i, 0])
            least[i, 1] = min(least[i, 1], x[i, 1])
            total_t[i] += xt[i]
    loaded = loaded_depths(c, soft, count, x)
    for i in range(m):
        normal_impulse[i, 0], normal_impulse[i, 1] = total[i, 0], total[i, 1]
        tangent_impulse[i] = total_t[i]
        if solve_contacts[i] and min(c[i, APPROACH0], c[i, APPROACH0 + 1]) < -push:
            # Struck in this step: warm-started with the least of its sub-steps' impulses.
            # The last sub-step's may hold the impact, and warm-started into the next step
            # it threw a box that landed on a resting one back up at 1.5 m/s.
            x[i, 0] = least[i, 0]
            x[i, 1] = least[i, 1]
        x[i, 0] *= substeps
        x[i, 1] *= substeps
        xt[i] *= substeps
    for j in range(j_count):
        for r in range(3):
            impulse[j, r] = accumulated[j, r] * substeps
        motor_impulse[j] = accumulated[j, MOTOR] * substeps
        lower_impulse[j] = accumulated[j, LOWER] * substeps
        upper_impulse[j] = accumulated[j, UPPER] * substeps
        spring_impulse[j] = accumulated[j, SPRING_IMPULSE] * substeps
    return moved, x, xt, tree_of, loaded


@kernel(inline=True)
def gears_last(kind, slots, solve_joints, has_axis, rows, accumulated, inv_inertia, velocity):
    """Visit the gear joints once more, after the trees' exact solve: a motor on a tree
    joint that a gear drives, solved after the gear, left its ratio 1.6e-3 rad off."""
    for j in range(len(kind)):
        if solve_joints[j] and kind[j] == GEAR:
            solve_joint(
                j, slots[j, 0], slots[j, 1], has_axis[j], rows, accumulated, inv_inertia,
                velocity, False, False,
            )  # fmt: skip


@kernel
def _solve_biased_trees(order, child, parent, side, kind, held, slots, c, target, tolerance,
                        inv_h, inv_mass, inv_inertia, velocity, accumulated, work, used,
                        rows, engaged):  # fmt: skip
    """The biased pass's exact solve of the joint trees (forest arrays from
    ``joint_forest``) to target (J, 3), which it changes: the revolute limits within
    ``tolerance`` radians engaged as rows, solved with the main blocks, then settled
    (``engine.tree_turns``). c: the softened joint rows (J, COLUMNS); held (J,) bool from
    ``held_turns``; velocity (N + 1, 3) and accumulated (J, ACCUMULATED) change in place;
    work: the forest's ``tree_workspace``, used, rows, engaged: room for ``engage_limits``.

    It runs twice in each biased pass: before the contacts and the joints' Gauss-Seidel
    rows, and after them. Run only after, it left those rows to see the warm start's kicks
    along the tree joints' main rows, which the exact solve then takes back: a prismatic
    joint 0.7 m past its limit, the torque of whose limit row its angle row carried on
    levers of 4 to 6 m, had that row see an approach that was not there; its push stayed
    and grew, and the chain went non-finite in 111 steps.
    """
    engage_limits(c, kind, held, target, tolerance, inv_h, used, rows, engaged)
    solve_trees(
        order, child, parent, side, used, rows, 0, target, inv_mass, inv_inertia, velocity,
        accumulated, RIGID, work,
    )  # fmt: skip
    settle_limits(engaged, held, slots, c, accumulated, inv_inertia, velocity)


@kernel
def fixed_last(order, c):
    """order (M,) with the manifolds that have a static or kinematic body (c: the prepared
    rows, zero inverse mass on that side) moved to the end, each group keeping its order.

    Solved last, such a contact has the last word in each pass: a pile pressing a box into
    a wall leaves the box at the wall and the overlap between the boxes, where solved among
    the others the box went up to 3.4 cm into the tumbler's kinematic walls (Box2D v3's
    constraint graph likewise solves contacts with static bodies after those between two
    dynamic ones)."""
    fixed = np.empty(len(order), dtype=np.bool_)
    for i in range(len(order)):
        fixed[i] = c[i, IM_A] == 0.0 or c[i, IM_B] == 0.0
    out = np.empty(len(order), dtype=np.int64)
    filled = 0
    for last in (False, True):
        for i in order:
            if fixed[i] == last:
                out[filled] = i
                filled += 1
    return out


# Marks of ``_struck``: a body struck in this step, one sharing a manifold with it.
STRUCK, BESIDE = 2, 1


@kernel
def _struck_pass(order, struck, solve, body_a, body_b, c, soft, core_a, core_b, x, xt,
                 velocity, accel, moved, turn, inv_h, push, use_bias, threshold):  # fmt: skip
    """One pass, in ``order`` (M,), over the solved manifolds of the bodies ``struck``
    (N + 1,) marks it takes (``_struck``: STRUCK or BESIDE), biased or not (the other
    arguments as ``solve_soft_contact`` takes them): every manifold of a struck body, and
    the manifolds with static or kinematic bodies of those beside one, which ``order``
    keeps last, so that the world's parts keep the last word (left out, a box's neighbour
    struck by a falling one drove the box 1.2 cm into a wall). A biased pass leaves out a
    point bouncing within the sub-step: visited again, its bounce would be taken for a
    landing."""
    for i in order:
        # The marks first: most manifolds have none, and need not be read at all.
        mark = max(struck[body_a[i]], struck[body_b[i]])
        if mark == 0 or not solve[i]:
            continue
        if mark == BESIDE and not (c[i, IM_A] == 0.0 or c[i, IM_B] == 0.0):
            continue
        if use_bias and not (np.isnan(soft[i, LEAVE0]) and np.isnan(soft[i, LEAVE0 + 1])):
            continue  # bouncing within the sub-step
        solve_soft_contact(
            i, body_a[i], body_b[i], c, soft, core_a, core_b, x, xt, velocity, accel, moved,
            turn, inv_h, push, use_bias, threshold,
        )  # fmt: skip


@kernel
def _struck(c, body_a, body_b, solve, speed, n):
    """((n,) int8 marks, any): STRUCK for the dynamic bodies of the solved manifolds a
    point of which has approached faster than ``speed`` in this step (c: the prepared
    rows, whose APPROACH columns the biased passes keep), BESIDE for the other dynamic
    bodies of the solved manifolds of a struck one, else 0."""
    struck = np.zeros(n, dtype=np.int8)
    found = False
    for i in range(len(solve)):
        if solve[i] and min(c[i, APPROACH0], c[i, APPROACH0 + 1]) < -speed:
            if c[i, IM_A] > 0.0:
                struck[body_a[i]] = STRUCK
            if c[i, IM_B] > 0.0:
                struck[body_b[i]] = STRUCK
            found = True
    for i in range(len(solve) if found else 0):
        a, b = body_a[i], body_b[i]
        if solve[i] and (struck[a] == STRUCK or struck[b] == STRUCK):
            if c[i, IM_A] > 0.0:
                struck[a] = max(struck[a], BESIDE)
            if c[i, IM_B] > 0.0:
                struck[b] = max(struck[b], BESIDE)
    return struck, found


@kernel
def _unjointed(slots, solve_joints, drag, n):
    """(n,) bool: the bodies no solved joint holds (slots (J, 2), solve_joints (J,)) and
    no damping slows (drag (n, 2)): these fly the parabola of their forces, whatever
    their contacts leave of it (``free_share``)."""
    flies = np.ones(n, dtype=np.bool_)
    for i in range(n):
        flies[i] = drag[i, 0] == 0.0 and drag[i, 1] == 0.0
    for j in range(len(slots)):
        if solve_joints[j]:
            flies[slots[j, 0]] = False
            flies[slots[j, 1]] = False
    return flies


@kernel(inline=True)
def free_share(end, kicked, accel, h):
    """The shares (linear, angular) of a body's acceleration accel (3,) whose parabola
    it flies over a sub-step of h: 1 when its contacts did not change its velocity (3,)
    from kicked (its velocity after the forces' kick), 0 when they changed it by
    FREE_BAND of what the forces did or more, and in between in proportion: continuous
    in the impulses, so that an impulse of rounding's size does not move a body by
    h^2 g / 2 (the step's only discontinuity in the contacts' impulses)."""
    dx, dy, dw = end[0] - kicked[0], end[1] - kicked[1], end[2] - kicked[2]
    linear = _unopposed(dx * dx + dy * dy, (h * accel[0]) ** 2 + (h * accel[1]) ** 2)
    return linear, _unopposed(dw * dw, (h * accel[2]) ** 2)


@kernel(inline=True)
def _unopposed(pushed, forced):
    """1 - sqrt(pushed / forced) / FREE_BAND, at least 0; 1 with no force (the squared
    velocity changes of the contacts and of the forces)."""
    if forced > 0.0:
        return max(0.0, 1.0 - math.sqrt(pushed / forced) / FREE_BAND)
    return 1.0


@kernel
def _stop_tunnels(table, owner, solid, filters, ignored, bullet, reach, thickness, start,
                  swept, moved, dt, world_slop, rows, tree_of, velocity):  # fmt: skip
    """The poses (N + 1, 3) at the step's end: start + moved, except that a fast body
    whose straight motion over the step would pass into a static or kinematic part (or,
    for a bullet, any part) stops at its time of impact (``engine.ccd.allowed_times``,
    with the pairs of ``engine.ccd_pairs.sweep_pairs``), and with it every body of its
    joint tree. rows (K,): the sub-steps' rows (``solve_rows``), with tree_of (K + 1,)
    their joint trees (``engine.joint_trees``) and velocity (K + 1, 3). The velocities of
    a tree stopped after a share of the step are scaled by that share, in place: kept
    whole, the tree would be stopped again next step, and the next, frozen while they
    grew."""
    vertices, normals, count, radius, part_reach = table
    kind = filters[0]
    # The mean velocities: zero but in the rows that moved.
    mean = np.zeros(moved.shape)
    for i in rows:
        for axis in range(3):
            mean[i, axis] = moved[i, axis] / dt
    sweeps = sweep_pairs(
        vertices, count, radius, owner, filters, ignored, solid, bullet, reach, start, swept,
        mean, rows, dt, CCD_FRACTION, SPECULATIVE_SLOPS * world_slop,
    )  # fmt: skip
    allowed = allowed_times(
        vertices, normals, count, radius, part_reach, sweeps[0], sweeps[1], sweeps[2],
        sweeps[3], kind, bullet, reach, start, mean, rows, dt, CCD_FRACTION, thickness,
        world_slop,
    )  # fmt: skip
    # A tree stops as one: a body stopped alone would open its joints by what the others
    # moved, and the exact solve would drive it on at the speed that closes them.
    earliest = np.full(len(tree_of), dt)
    for q in range(len(rows)):
        if tree_of[q] >= 0:
            earliest[tree_of[q]] = min(earliest[tree_of[q]], allowed[rows[q]])
    for q in range(len(rows)):
        i = rows[q]
        if tree_of[q] >= 0 and kind[i] == DYNAMIC:
            allowed[i] = earliest[tree_of[q]]
            if allowed[i] < dt:
                for axis in range(3):
                    velocity[q, axis] *= allowed[i] / dt
    poses = start + moved
    for i in rows:
        if allowed[i] < dt:
            for axis in range(3):
                poses[i, axis] = start[i, axis] + mean[i, axis] * allowed[i]
    return poses
