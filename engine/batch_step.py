"""Many copies of one world stepped in one compiled call, spread over threads.

The copies share what a step only reads and never changes (the packed parts, collision
filters, joint slots); each has its own body and joint columns (a leading copy axis on
every array), gravity, friction and restitution, and what a World keeps between steps:
the grid of its resting parts and the contacts among them, the warm-start cache, the body
pairs touching after its last step and the next island id. Each copy runs exactly the
step a World runs (``engine.whole_step.step_core``, or nothing but the bookkeeping when
nothing in it can move, as ``engine.step.hold_still``), so a copy ends bit for bit where
the same World stepped alone ends, whichever thread stepped it.
"""

from __future__ import annotations

import numba
import numpy as np

from .events import began_and_ended, touching_pairs
from .jit import kernel
from .sleep import any_active
from .substep import SUBSTEPS
from .warm_start import _store
from .whole_step import step_core


@kernel(parallel=True)
def step_copies(body, gravity, shapes, owner, sensor, friction, restitution, filters, slots,
                joints, joint_rows, grids, grid_valid, resting, warms, touching, events,
                next_island, steps, detect_settings, solve_settings, sleep):  # fmt: skip
    """Step every copy once, in place, each on a thread of its own.

    body: the 19 body columns of ``engine.step_inputs.SOLVE_BODY_FIELDS``, each (C, N, ...);
    gravity (C, 2); shapes: the packed parts (``engine.step_inputs.StepInputs.table``)
    with the copies' own geometry: vertices, normals (C, P, K, 2), count, radius (P,)
    shared, reach (C, P); owner, sensor (P,) shared; friction, restitution (C, P); filters
    (``engine.candidate_pairs.collision_filters``) and slots (J, 2), shared; joints: the 21
    solver joint columns (``engine.solver_inputs.SOLVER_JOINT_FIELDS``), each (C, J, ...);
    joint_rows: the three workspace arrays (``engine.soft_joints.joint_workspace``), each
    (C, J, ...). Kept per copy between steps: grids (typed list of C resting grids, as
    ``engine.resting_parts.build_resting_grid`` gives them), grid_valid (C,) bool,
    resting (typed list of C manifold columns, ``engine.contact_manifolds`` order, of the
    contacts among resting parts), warms (typed list of C warm-start caches: keys (W,)
    int64, normal, tangent (W,)), touching (typed list of C sorted (K,) int64 body-pair
    keys, ``engine.events.touching_pairs``), events (typed list of C (began (B,) int64
    body-pair keys, their normal impulses (B,), ended (E,) keys) of the last step's
    contact begin and end), next_island (C,) int64, steps (C,) int64
    the steps each copy has taken (odd ones solve backwards, as a World's do). Settings as
    ``whole_step`` takes them, shared.
    """
    for c in numba.prange(len(gravity)):
        # A prange index is unsigned; the copy index is an int64 like every row index.
        step_copy(np.int64(c), body, gravity, shapes, owner, sensor, friction, restitution,
                  filters, slots, joints, joint_rows, grids, grid_valid, resting, warms,
                  touching, events, next_island, steps, detect_settings, solve_settings,
                  sleep)  # fmt: skip


@kernel
def step_copy(c, body, gravity, shapes, owner, sensor, friction, restitution, filters, slots,
              joints, joint_rows, grids, grid_valid, resting, warms, touching, events,
              next_island, steps, detect_settings, solve_settings, sleep):  # fmt: skip
    """Step copy ``c`` as ``engine.step.advance_one_step`` steps a World without presolve
    handlers (``step_copies`` describes the arguments)."""
    copy_body = body_of(body, c)
    copy_joints = joints_of(joints, c)
    vertices, normals, count, radius, reach = shapes
    table = (vertices[c], normals[c], count, radius, reach[c])
    backwards = steps[c] % 2 == 1
    steps[c] += 1
    rows = (joint_rows[0][c], joint_rows[1][c], joint_rows[2][c])
    kept = resting[c]
    grid = grids[c]
    if (
        grid_valid[c]
        and len(grid[0]) == len(owner)
        and not any_active(copy_body[8], copy_body[9], copy_body[2], copy_body[3])
    ):
        # Nothing can move (``engine.step.still``): the resting contacts are all there is.
        hold_copy_still(copy_body, copy_joints, solve_settings[SUBSTEPS])
        found = kept
        normal, tangent = kept[9], kept[10]
    else:
        _, grid, rebuilt, _, found, among, impulses, island = step_core(
            copy_body, gravity[c], table, (owner, sensor, friction[c], restitution[c]),
            filters, slots, copy_joints, rows, grid, grid_valid[c], warms[c],
            detect_settings, solve_settings, backwards, sleep, next_island[c],
        )  # fmt: skip
        next_island[c] = island
        if rebuilt:
            grids[c] = grid
            grid_valid[c] = True
            kept = among
            resting[c] = kept
        # The step's manifolds, then the resting contacts: what the World reports and keeps.
        normal = np.concatenate((impulses[0], kept[9]))
        tangent = np.concatenate((impulses[1], kept[10]))
        found = joined(found, kept)
    keys = found[12]
    if len(keys) or len(warms[c][0]):
        warms[c] = _store(keys, normal, tangent)
    if len(keys) or len(touching[c]):
        flags, pairs, current = touching_pairs(found[0], found[1], filters[5], found[6],
                                               found[9], found[13])  # fmt: skip
        began, _, ended = began_and_ended(touching[c], current)
        # A pair's impulse: its touching manifolds' normal impulses, summed in their order
        # (``engine.events.contact_table``).
        sums = np.zeros(len(current))
        for i in range(len(flags)):
            if flags[i]:
                at = np.searchsorted(current, pairs[i])
                sums[at] += found[9][i, 0] + found[9][i, 1]
        events[c] = (current[began], sums[began], touching[c][ended])
        touching[c] = current
    elif len(events[c][0]) or len(events[c][2]):
        events[c] = (events[c][0][:0], events[c][1][:0], events[c][2][:0])


@kernel(inline=True)
def joined(first, second):
    """The manifold columns (``engine.contact_manifolds`` order) of ``first`` then
    ``second``, as ``engine.contact_solver.Manifolds.joined`` joins them."""
    return (
        np.concatenate((first[0], second[0])), np.concatenate((first[1], second[1])),
        np.concatenate((first[2], second[2])), np.concatenate((first[3], second[3])),
        np.concatenate((first[4], second[4])), np.concatenate((first[5], second[5])),
        np.concatenate((first[6], second[6])), np.concatenate((first[7], second[7])),
        np.concatenate((first[8], second[8])), np.concatenate((first[9], second[9])),
        np.concatenate((first[10], second[10])), np.concatenate((first[11], second[11])),
        np.concatenate((first[12], second[12])), np.concatenate((first[13], second[13])),
        np.concatenate((first[14], second[14])),
    )  # fmt: skip


@kernel(inline=True)
def hold_copy_still(body, joints, substeps):
    """``engine.step.hold_still``'s changes to one copy in which nothing can move: forces
    cleared, and the joints' impulses through the sub-steps' shares and back (rounding)."""
    body[4][:] = 0.0
    body[5][:] = 0.0
    # The impulse columns of ``engine.solver_inputs.SOLVER_JOINT_FIELDS``: impulse,
    # motor_impulse, lower_impulse, upper_impulse, spring_impulse.
    impulse = joints[16]
    for j in range(impulse.shape[0]):
        for k in range(impulse.shape[1]):
            impulse[j, k] = impulse[j, k] / substeps * substeps
    for column in (joints[17], joints[18], joints[19], joints[20]):
        for j in range(len(column)):
            column[j] = column[j] / substeps * substeps


@kernel(inline=True)
def body_of(body, c):
    """Copy ``c``'s 19 body columns (views) from the stacked (C, N, ...) ones."""
    return (
        body[0][c], body[1][c], body[2][c], body[3][c], body[4][c], body[5][c], body[6][c],
        body[7][c], body[8][c], body[9][c], body[10][c], body[11][c], body[12][c],
        body[13][c], body[14][c], body[15][c], body[16][c], body[17][c], body[18][c],
    )  # fmt: skip


@kernel(inline=True)
def joints_of(joints, c):
    """Copy ``c``'s 21 solver joint columns (views) from the stacked (C, J, ...) ones."""
    return (
        joints[0][c], joints[1][c], joints[2][c], joints[3][c], joints[4][c], joints[5][c],
        joints[6][c], joints[7][c], joints[8][c], joints[9][c], joints[10][c],
        joints[11][c], joints[12][c], joints[13][c], joints[14][c], joints[15][c],
        joints[16][c], joints[17][c], joints[18][c], joints[19][c], joints[20][c],
    )  # fmt: skip


@kernel
def reset_kept(chosen, grids, resting, warms, touching, events, grid, among, warm, pairs,
               happened):  # fmt: skip
    """Give the copies ``chosen`` (K,) int64 what a new copy keeps between steps, in
    place: the resting grid (marked stale by the caller), the contacts among resting
    parts, the warm-start cache, the touching pairs and the last step's contact events
    (``step_copies``' lists)."""
    for c in chosen:
        grids[c] = grid
        resting[c] = among
        warms[c] = warm
        touching[c] = pairs
        events[c] = happened


@kernel
def gathered_events(events):
    """The copies' last contact events as flat arrays: (copy (B,) int64, began keys (B,),
    their impulses (B,)), (copy (E,) int64, ended keys (E,)), copies in order."""
    began = ended = 0
    for c in range(len(events)):
        began += len(events[c][0])
        ended += len(events[c][2])
    began_copy = np.empty(began, dtype=np.int64)
    began_keys = np.empty(began, dtype=np.int64)
    impulses = np.empty(began)
    ended_copy = np.empty(ended, dtype=np.int64)
    ended_keys = np.empty(ended, dtype=np.int64)
    b = e = 0
    for c in range(len(events)):
        keys, sums, gone = events[c]
        for k in range(len(keys)):
            began_copy[b], began_keys[b], impulses[b] = c, keys[k], sums[k]
            b += 1
        for k in range(len(gone)):
            ended_copy[e], ended_keys[e] = c, gone[k]
            e += 1
    return (began_copy, began_keys, impulses), (ended_copy, ended_keys)


@kernel
def touching_flags(touching, keys):
    """(C, K) bool: whether each copy's touching pairs (``step_copies``' typed list of C
    sorted body-pair keys) hold each of keys (K,) int64."""
    flags = np.zeros((len(touching), len(keys)), dtype=np.bool_)
    for c in range(len(touching)):
        pairs = touching[c]
        for k in range(len(keys)):
            at = np.searchsorted(pairs, keys[k])
            flags[c, k] = at < len(pairs) and pairs[at] == keys[k]
    return flags
