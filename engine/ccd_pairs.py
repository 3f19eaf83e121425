"""The part pairs the continuous-collision sweep needs beyond the broad phase's.

The broad phase finds a step's pairs from each body's velocity at the step start. The sweep
of ``engine.ccd`` runs with each body's mean velocity over the sub-steps, and a body the
solver turned hard (a light body struck by a heavy one at 100 m/s) moves where the broad
phase never looked: swept only against the step's pairs, it would pass through a wall it
had no pair with. So a fast body whose motion leaves the boxes the broad phase used (its
end moved by more than their margin) gets a broad phase of its own, against the static and
kinematic parts (a bullet: every part), filtered as the step's pairs are.
"""

from __future__ import annotations

import math

import numpy as np

from .body_store import DYNAMIC
from .candidate_pairs import holds_key, pair_key, pairs_among
from .jit import kernel


@kernel
def sweep_pairs(vertices, count, radius, owner, filters, ignored, solid, bullet, reach, start,
                swept, velocity, rows, dt, fraction, margin):  # fmt: skip
    """(4, S) part pairs for the sweep: the step's solid pairs ``solid`` (4, S0), and,
    for fast bodies that left the broad phase's boxes, their pairs with every part they
    may sweep against (repeats are harmless: the sweep keeps the earliest impact).

    Parts: vertices (P, K, 2), count, radius, owner (P,); filters: (kind, sensor,
    category, mask, group, body_id, jointed) as ``classify_pairs`` takes them; ignored:
    sorted keys of the body pairs presolve dropped; bullet, reach (N,); start (N + 1, 3):
    poses at the step start; swept, velocity (N + 1, 3): the velocities the broad phase
    used and those the sweep moves with; rows (K,): the bodies that may have moved (the
    others' velocity is zero); fraction: the share of its reach a body moves before it is
    swept; margin: the broad phase's speculative distance.
    """
    kind, body_id = filters[0], filters[5]
    n = len(kind)
    escaping = np.zeros(n, dtype=np.bool_)
    any_escaping = False
    any_bullet = False
    for i in rows:
        if kind[i] != DYNAMIC:
            continue
        # sqrt, not hypot: a quarter of the cost (a square that overflows reads as fast).
        vx, vy = velocity[i, 0], velocity[i, 1]
        travel = (math.sqrt(vx * vx + vy * vy) + abs(velocity[i, 2]) * reach[i]) * dt
        # How far the end of the swept motion lies from the end the broad phase swept to.
        ox, oy = vx - swept[i, 0], vy - swept[i, 1]
        apart = (math.sqrt(ox * ox + oy * oy) + abs(velocity[i, 2] - swept[i, 2]) * reach[i]) * dt
        escaping[i] = travel > fraction * reach[i] and apart > margin
        any_escaping = any_escaping or escaping[i]
        any_bullet = any_bullet or (escaping[i] and bullet[i])
    if not any_escaping:
        return solid
    chosen = np.empty(len(owner), dtype=np.bool_)
    for p in range(len(owner)):
        chosen[p] = escaping[owner[p]] or kind[owner[p]] != DYNAMIC or any_bullet
    end = start.copy()
    turning = np.zeros(n)
    for i in range(n):
        for axis in range(3):
            end[i, axis] = start[i, axis] + velocity[i, axis] * dt
        turning[i] = abs(velocity[i, 2]) * reach[i] * dt
    found = pairs_among(chosen, vertices, count, radius, owner, start, end, turning, filters)
    keep = np.zeros(found.shape[1], dtype=np.bool_)
    for i in range(found.shape[1]):
        a, b = found[2, i], found[3, i]
        ignored_pair = len(ignored) > 0 and holds_key(ignored, pair_key(body_id[a], body_id[b]))
        keep[i] = (escaping[a] or escaping[b]) and not ignored_pair
    return np.concatenate((solid, found[:, keep]), axis=1)
