"""Which broad-phase part pairs the step collides, and which only sense.

A pair of parts is dropped when both belong to one body, when the collision filter says
the parts do not collide (categories, masks and groups, as Box2D filters: each part's
category in the other's mask; a shared non-zero group overrides that, a positive group
always collides, a negative one never), when a joint between the bodies keeps them from
colliding, and when neither body can move. Pairs with a sensor part are kept apart: they
report overlaps but never push. The filter and the sensor flag are the parts' own (their
shape's, else their body's: ``engine.materials``), so one body may hold a solid shape and
a sensor shape, or shapes on different layers.
"""

from __future__ import annotations

import numpy as np

from .body_store import DYNAMIC, STATIC
from .box_pairs import canonical_pairs, grown
from .broadphase_grid import choose_cell_size, grid_kernel
from .broadphase_quadtree import quadtree_kernel
from .jit import kernel
from .resting_parts import moving_part_rows, pairs_with_resting
from .swept_bounds import swept_bounds, swept_bounds_of

# Broad-phase methods, as the kernels take them.
GRID, QUADTREE = 0, 1


@kernel(inline=True)
def pair_key(id_a, id_b):
    """int64 key of a body pair by the bodies' stable ids, smaller id first."""
    return (min(id_a, id_b) << 32) | max(id_a, id_b)


def collision_filters(body: dict, part: dict, jointed) -> tuple:
    """The (kind, sensor, category, mask, group, body_id, jointed) tuple that
    ``classify_pairs`` filters with and ``pairs_among`` takes, from the body and part
    columns and the sorted keys of jointed body pairs that must not collide."""
    return (
        body["kind"], part["sensor"], part["category"], part["mask"], part["group"],
        body["body_id"], jointed,
    )  # fmt: skip


@kernel(inline=True)
def holds_key(keys, key):
    """Whether the sorted int64 keys (K,) hold key."""
    at = np.searchsorted(keys, key)
    return at < len(keys) and keys[at] == key


@kernel
def classify_pairs(pairs, owner, kind, sensor, category, mask, group, body_id, jointed):
    """Split part pairs (M, 2) into solid and sensing pairs.

    owner: (P,) body row of each part; sensor, category, mask, group: (P,) per part; kind,
    body_id: (N,) per body; jointed: (K,) sorted body-pair keys of joints whose bodies
    must not collide.
    Returns (solid, sensing), each (4, S) int64: rows part_a, part_b, body_a, body_b, in
    the order of ``pairs``.
    """
    m = len(pairs)
    out = np.empty((4, m), dtype=np.int64)
    is_solid = np.zeros(m, dtype=np.bool_)
    kept = 0
    for i in range(m):
        part_a, part_b = pairs[i, 0], pairs[i, 1]
        a, b = owner[part_a], owner[part_b]
        if a == b:
            continue
        if group[part_a] == group[part_b] and group[part_a] != 0:
            if group[part_a] < 0:
                continue
        elif (category[part_a] & mask[part_b]) == 0 or (category[part_b] & mask[part_a]) == 0:
            continue
        if len(jointed) and holds_key(jointed, pair_key(body_id[a], body_id[b])):
            continue
        if sensor[part_a] or sensor[part_b]:
            if kind[a] == STATIC and kind[b] == STATIC:
                continue
        elif kind[a] != DYNAMIC and kind[b] != DYNAMIC:
            continue
        else:
            is_solid[kept] = True
        out[0, kept], out[1, kept], out[2, kept], out[3, kept] = part_a, part_b, a, b
        kept += 1
    solid = np.flatnonzero(is_solid[:kept])
    sensing = np.flatnonzero(~is_solid[:kept])
    return out[:, solid], out[:, sensing]


@kernel
def find_candidates(vertices, count, radius, owner, start, velocity, reach, dt, speculative,
                    method, cell_size, kind, sensor, category, mask, group, body_id,
                    jointed, resting):  # fmt: skip
    """The broad phase of a step: part pairs whose swept boxes overlap, filtered.

    Parts: vertices (P, K, 2), count, radius, owner (P,); bodies: start poses and
    velocities (N + 1, 3), reach (N,) and the columns of ``classify_pairs`` (the filter and
    sensor flag per part). Each part's box covers its motion over the step plus the
    speculative distance; turning is covered by a margin, since a point at distance reach
    moves |w| reach dt. Only the moving parts (all but the resting ones) are boxed and
    paired here, by method GRID (cell_size > 0, or <= 0 to choose it) or QUADTREE; they
    meet the resting parts in ``resting``, the grid of ``engine.resting_parts``. Returns
    (solid, sensing) as ``classify_pairs`` does, in the canonical order of the part pairs.
    """
    n = len(kind)
    moving = moving_part_rows(resting[0], len(owner))
    # End poses and margins for the moving parts' bodies only (a resting tile gets none).
    end = np.empty((n, 3))
    margin = np.empty(n)
    for p in moving:
        i = owner[p]
        for axis in range(3):
            end[i, axis] = start[i, axis] + velocity[i, axis] * dt
        margin[i] = speculative + abs(velocity[i, 2]) * reach[i] * dt
    lower, upper = swept_bounds_of(moving, vertices, count, radius, owner, start, end, margin)
    if len(moving) < 2:
        local = np.empty((0, 2), dtype=np.int64)
    elif method == GRID:
        local = grid_kernel(
            lower, upper, cell_size if cell_size > 0.0 else choose_cell_size(lower, upper)
        )
    else:
        local = quadtree_kernel(lower, upper, np.int64(-1))  # not a literal: one compile
    # Moving rows ascend, so the moving pairs keep their canonical order as part rows.
    buffer = np.empty((len(local) + 2 * len(moving) + 16, 2), dtype=np.int64)
    for k in range(len(local)):
        buffer[k, 0], buffer[k, 1] = moving[local[k, 0]], moving[local[k, 1]]
    found = len(local)
    while True:
        added = pairs_with_resting(moving, lower, upper, resting, buffer, found)
        if added >= 0:
            break
        buffer = grown(buffer, found)
    pairs = buffer[:found]
    if added > found:
        pairs = canonical_pairs(buffer, added, len(owner))
    return classify_pairs(pairs, owner, kind, sensor, category, mask, group, body_id, jointed)


@kernel
def pairs_among(chosen, vertices, count, radius, owner, start, end, margin, filters):
    """(4, S) solid pairs, filtered as ``classify_pairs`` filters, between the parts
    ``chosen`` (P,) bool whose boxes over a motion from poses ``start`` to ``end``
    (N + 1, 3), grown by margin (N,), overlap: a broad phase of its own for a few bodies'
    parts against some others. Parts: vertices (P, K, 2), count, radius, owner (P,);
    filters: (kind, sensor, category, mask, group, body_id, jointed). Part rows index the
    whole table.
    """
    kind, sensor, category, mask, group, body_id, jointed = filters
    parts = np.flatnonzero(chosen)
    if len(parts) < 2:
        return np.empty((4, 0), dtype=np.int64)
    sub_owner = owner[parts]
    lower, upper = swept_bounds(
        vertices[parts], count[parts], radius[parts], sub_owner, start, end, margin
    )  # fmt: skip
    pairs = grid_kernel(lower, upper, choose_cell_size(lower, upper))
    solid, _ = classify_pairs(
        pairs, sub_owner, kind, sensor[parts], category[parts], mask[parts], group[parts],
        body_id, jointed,
    )  # fmt: skip
    for i in range(solid.shape[1]):
        solid[0, i], solid[1, i] = parts[solid[0, i]], parts[solid[1, i]]
    return solid
