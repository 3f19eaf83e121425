"""The step's detection as one compiled call: forces, the broad phase against the kept grid
of resting parts, the islands it reaches woken, and the narrow phase.

``detect_stage`` runs what ``engine.step`` describes as stages 1 to 3, up to the presolve
handlers: one call instead of one per stage, since in a small world the calls (each
passing dozens of arrays) and the Python between them cost more than the physics. The
grid of resting parts (``engine.resting_parts``) comes in, and goes out again only when
it was rebuilt (the resting parts changed), with the contacts among them found anew.
"""

from __future__ import annotations

import numpy as np

from .candidate_pairs import classify_pairs, find_candidates
from .contact_manifolds import manifold_columns, no_manifold_columns
from .forces import start_of_step
from .jit import kernel
from .resting_parts import build_resting_grid, pairs_among_resting, resting_rows
from .sleep import active_bodies

# Positions in the ``settings`` tuple ``detect_stage`` takes.
DT, SPECULATIVE, FLIP_TOLERANCE, LINEAR_SLOP, METHOD, CELL_SIZE = range(6)


@kernel
def detect_stage(body, gravity, parts, part_columns, filters, slots, grid, grid_valid,
                 warm, settings):  # fmt: skip
    """Stages 1 to 3 of a step. Returns (swept, start, inv_mass, inv_inertia, dynamic),
    as ``engine.forces.start_of_step`` does; (solid, sensing), the step's (4, S) candidate
    pairs as ``engine.candidate_pairs.find_candidates`` gives them; active (N,) bool, as
    ``engine.sleep.active_bodies`` gives it; the resting grid's arrays if they were
    rebuilt (else None), and whether any island was woken; the manifold columns of the
    solid pairs (None if there are none) and, if the grid was rebuilt, of the contacts
    among the resting parts (None if not rebuilt or there are none), in
    ``engine.contact_solver.Manifolds`` order. None, not empty arrays: each array handed
    back costs Python an object (about a quarter of a microsecond, even for one that
    came in), and most steps find nothing new here.

    body: the body columns (N, ...) position, angle, velocity, angular_velocity, force,
    torque, inv_mass, inv_inertia, kind, awake (woken islands change it in place),
    damping, gravity_scale, reach, thickness, island; gravity (2,); parts: the packed
    parts (vertices, normals, count, radius, reach); part_columns: owner, sensor,
    friction, restitution (P,); filters: ``engine.candidate_pairs.collision_filters``;
    slots (J, 2): the joints' body rows (the world: N); grid: the resting grid's arrays
    (``engine.resting_parts.RestingParts.arrays``), kept if grid_valid and built for the
    resting parts of now; warm: the warm-start cache's keys, normal and tangent impulses;
    settings: the floats at the positions DT ... CELL_SIZE name (the world's, in its
    units; METHOD: the broad phase's code).
    """
    forced, pairs, active, grid, rebuilt, woke, manifolds, resting = detect(
        body, gravity, parts, part_columns, filters, slots, grid, grid_valid, warm, settings
    )
    return (
        forced, pairs, active, grid if rebuilt else None, woke,
        manifolds if len(manifolds[0]) else None, resting if len(resting[0]) else None,
    )  # fmt: skip


@kernel
def detect(body, gravity, parts, part_columns, filters, slots, grid, grid_valid, warm,
           settings):  # fmt: skip
    """``detect_stage`` for compiled callers, which pay nothing for arrays handed back:
    (swept, start, inv_mass, inv_inertia, dynamic), (solid, sensing), active, the resting
    grid's arrays (rebuilt or as they came in), whether it was rebuilt, whether any
    island was woken, and the manifold columns of the solid pairs and of the contacts
    among the resting parts (found only when the grid was rebuilt), empty when none.
    """
    (position, angle, velocity, angular_velocity, force, torque, inv_mass, inv_inertia, kind,
     awake, damping, gravity_scale, reach, thickness, island) = body  # fmt: skip
    vertices, normals, count, radius, part_reach = parts
    owner, sensor, friction, restitution = part_columns
    kinds, sensors, category, mask, group, body_id, jointed = filters
    dt, speculative = settings[DT], settings[SPECULATIVE]
    method, cell_size = int(settings[METHOD]), settings[CELL_SIZE]
    swept, start, step_inv_mass, step_inv_inertia, dynamic = start_of_step(
        position, angle, velocity, angular_velocity, force, torque, inv_mass, inv_inertia,
        kind, awake, damping, gravity_scale, gravity, dt,
    )  # fmt: skip
    rebuilt = False
    woke = False
    while True:
        rows = resting_rows(owner, kind, awake, sensor)
        if not (grid_valid and _same(grid[0], rows)):
            grid = build_resting_grid(
                vertices, count, radius, owner, start, rows, speculative, cell_size
            )
            grid_valid = True
            rebuilt = True
        solid, sensing = find_candidates(
            vertices, count, radius, owner, start, swept, reach, dt, speculative, method,
            cell_size, kinds, sensors, category, mask, group, body_id, jointed, grid,
        )  # fmt: skip
        active, reached = active_bodies(kind, awake, swept, solid[2], solid[3], slots)
        if len(reached) == 0:
            break
        # Keeping their resting time: restarted, two neighbouring islands that settle at
        # different times would wake each other in turn and never both sleep. The woken
        # bodies move now: paired again, with each other and with what they reach.
        _wake_islands(awake, island, reached)
        woke = True
    tolerances = (speculative, settings[FLIP_TOLERANCE], settings[LINEAR_SLOP])
    # One set of empty columns for both: allocations are much of a small world's step.
    none_found = no_manifold_columns()
    resting = none_found
    if rebuilt:
        among, _ = classify_pairs(
            pairs_among_resting(grid), owner, kinds, sensors, category, mask, group, body_id,
            jointed,
        )  # fmt: skip
        if among.shape[1]:
            resting = _narrow(
                among, parts, friction, restitution, start, swept, reach, thickness, dt,
                tolerances, warm,
            )  # fmt: skip
    manifolds = none_found
    if solid.shape[1]:
        manifolds = _narrow(
            solid, parts, friction, restitution, start, swept, reach, thickness, dt,
            tolerances, warm,
        )  # fmt: skip
    return (
        (swept, start, step_inv_mass, step_inv_inertia, dynamic), (solid, sensing), active,
        grid, rebuilt, woke, manifolds, resting,
    )  # fmt: skip


@kernel
def _same(kept, rows):
    """Whether the int64 arrays kept and rows (R,) are equal."""
    if len(kept) != len(rows):
        return False
    for i in range(len(rows)):
        if kept[i] != rows[i]:
            return False
    return True


@kernel
def _wake_islands(awake, island, reached):
    """Wake, in place, every body (awake, island (N,)) of the islands of the sleeping rows
    ``reached`` (W,), keeping their resting time."""
    islands = np.empty(len(reached), dtype=np.int64)
    k = 0
    for row in reached:
        if not awake[row]:
            islands[k] = island[row]
            k += 1
    islands = np.sort(islands[:k])
    for i in range(len(awake)):
        if not awake[i]:
            at = np.searchsorted(islands, island[i])
            if at < k and islands[at] == island[i]:
                awake[i] = True


@kernel
def _narrow(solid, parts, friction, restitution, start, swept, reach, thickness, dt,
            tolerances, warm):  # fmt: skip
    """The manifold columns of the solid pairs (4, S) (``engine.contact_manifolds``)."""
    vertices, normals, count, radius, part_reach = parts
    speculative, flip_tolerance, slop = tolerances
    return manifold_columns(
        vertices, normals, count, radius, part_reach, solid, start, swept, reach, friction,
        restitution, thickness, dt, speculative, flip_tolerance, slop, warm[0], warm[1],
        warm[2],
    )  # fmt: skip
