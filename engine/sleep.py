"""Sleeping: which bodies the step must move, and islands at rest falling asleep.

A dynamic body at rest (slower than its sleep threshold at its centre and at its reach,
not pushed out of an overlap, no contact deeper than twice its slop that is opening)
counts its resting time. Its speed is taken at the middle of the step, the mean of its
velocities at the step's start and end: a body under a heavy pile can be left by the
solver's passes alternating between two states, moving one way at the end of one step and
back at the end of the next, which is no motion. An overlap that does not open is not
being pushed out: bodies wedged into each other, the pushes balanced, may sleep.
An island whose bodies have all rested long enough falls asleep, if it rests on something
static or kinematic (a joint to the world counts): a body drifting freely, however slowly,
keeps its momentum. Sleeping bodies stop and leave the solver; their contacts stay for
events.
"""

from __future__ import annotations

import math

import numpy as np

from .body_store import DYNAMIC, KINEMATIC
from .islands import union_find
from .jit import kernel


@kernel
def any_active(kind, awake, velocity, angular_velocity):
    """Whether the step moves any body (kind, awake (N,), velocity (N, 2), angular_velocity
    (N,) as the body columns hold them): an awake dynamic body or a moving kinematic one,
    as ``active_bodies`` counts them. Stops at the first."""
    for i in range(len(kind)):
        if kind[i] == DYNAMIC and awake[i]:
            return True
        if kind[i] == KINEMATIC and (
            velocity[i, 0] != 0.0 or velocity[i, 1] != 0.0 or angular_velocity[i] != 0.0
        ):
            return True
    return False


@kernel
def active_bodies(kind, awake, velocity, pair_a, pair_b, slots):
    """(N,) bool bodies the step moves, and (W,) rows of sleeping bodies reached this step.

    Active: awake dynamic bodies and moving kinematic ones. A sleeping body is reached by
    an active one through a candidate pair (pair_a, pair_b: (M,) body rows) or a joint
    (slots: (J, 2) rows, the world N). velocity: (N + 1, 3).
    """
    n = len(kind)
    active = np.zeros(n + 1, dtype=np.bool_)
    asleep = np.zeros(n + 1, dtype=np.bool_)
    for i in range(n):
        if kind[i] == DYNAMIC:
            active[i] = awake[i]
            asleep[i] = not awake[i]
        elif kind[i] == KINEMATIC:
            active[i] = velocity[i, 0] != 0.0 or velocity[i, 1] != 0.0 or velocity[i, 2] != 0.0
    reached = np.zeros(n + 1, dtype=np.bool_)
    for e in range(len(pair_a) + len(slots)):
        if e < len(pair_a):
            a, b = pair_a[e], pair_b[e]
        else:
            a, b = slots[e - len(pair_a), 0], slots[e - len(pair_a), 1]
        if active[a] and asleep[b]:
            reached[b] = True
        if active[b] and asleep[a]:
            reached[a] = True
    return active[:n], np.flatnonzero(reached[:n])


@kernel
def constraints_to_solve(active, dynamic, body_a, body_b, slots):
    """Which manifolds (M,) and joints (J,) the solver works on: those with an active body
    (active: (N,) bool; dynamic: (N + 1,) bool; slots: (J, 2), the world N); a joint
    needs a dynamic body too."""
    n = len(active)
    solve_contacts = np.empty(len(body_a), dtype=np.bool_)
    for i in range(len(body_a)):
        solve_contacts[i] = active[body_a[i]] or active[body_b[i]]
    solve_joints = np.empty(len(slots), dtype=np.bool_)
    for j in range(len(slots)):
        a, b = slots[j, 0], slots[j, 1]
        moving = (a < n and active[a]) or (b < n and active[b])
        solve_joints[j] = moving and (dynamic[a] or dynamic[b])
    return solve_contacts, solve_joints


@kernel
def fall_asleep(kind, awake, velocity, angular_velocity, start_velocity,
                start_angular_velocity, reach, sleep_time, island, pushed, own_threshold,
                enable_sleep, body_a, body_b, separation, opening, slop, slots, dt,
                sleep_threshold, time_to_sleep, next_island):  # fmt: skip
    """Count resting time and put islands that all rested long enough to sleep, in place.

    Per body (N,): kind, awake, velocity (N, 2) and angular_velocity at the step's end,
    start_velocity (N, 2) and start_angular_velocity at its start, reach, sleep_time,
    island, pushed (moved by push-out this step), own_threshold (the body's
    sleep threshold; 0: the world's ``sleep_threshold``), enable_sleep (False: the body
    never rests, so its island never sleeps). Manifolds (M,): body_a, body_b,
    separation (M, 2): each point's separation plus the depth its spring holds its load
    at (``engine.soft_contacts.loaded_depths``: that deep it is at rest), opening (M,):
    how fast it opened over the step, slop; a contact deeper than twice its slop and
    opening faster than a body's threshold (m/s) is an overlap still being pushed out.
    slots: (J, 2) joint body rows (the world: N). Returns the next unused island id.
    """
    n = len(kind)
    deep = np.zeros(n, dtype=np.bool_)
    for i in range(len(body_a)):
        if min(separation[i, 0], separation[i, 1]) < -2.0 * slop[i]:
            for body in (body_a[i], body_b[i]):
                own = own_threshold[body]
                limit = own if own > 0.0 else sleep_threshold
                deep[body] = deep[body] or opening[i] > limit
    any_resting = False
    for i in range(n):
        candidate = kind[i] == DYNAMIC and awake[i] and enable_sleep[i]
        vx = 0.5 * (velocity[i, 0] + start_velocity[i, 0])
        vy = 0.5 * (velocity[i, 1] + start_velocity[i, 1])
        speed = math.hypot(vx, vy)
        turning = 0.5 * abs(angular_velocity[i] + start_angular_velocity[i]) * reach[i]
        limit = own_threshold[i] if own_threshold[i] > 0.0 else sleep_threshold
        resting = candidate and speed < limit and turning < limit
        resting = resting and not pushed[i] and not deep[i]
        sleep_time[i] = sleep_time[i] + dt if resting else 0.0
        any_resting = any_resting or resting
    if not any_resting:
        return next_island
    m, j = len(body_a), len(slots)
    edge_a = np.empty(m + j, dtype=np.int64)
    edge_b = np.empty(m + j, dtype=np.int64)
    edge_a[:m], edge_b[:m] = body_a, body_b
    edge_a[m:], edge_b[m:] = slots[:, 0], slots[:, 1]
    dynamic = np.zeros(n + 1, dtype=np.bool_)  # the world row, N, is not dynamic
    for i in range(n):
        dynamic[i] = kind[i] == DYNAMIC
    linked = np.empty(m + j, dtype=np.bool_)
    for e in range(m + j):
        linked[e] = dynamic[edge_a[e]] and dynamic[edge_b[e]]
    label = union_find(n + 1, edge_a, edge_b, linked)
    shortest = np.full(n + 1, np.inf)
    grounded = np.zeros(n + 1, dtype=np.bool_)
    for i in range(n):
        if kind[i] == DYNAMIC and awake[i]:
            shortest[label[i]] = min(shortest[label[i]], sleep_time[i])
    # Only an island that rests on something static sleeps.
    for e in range(m + j):
        if not linked[e]:
            for body in (edge_a[e], edge_b[e]):
                if body < n and kind[body] == DYNAMIC and awake[body]:
                    grounded[label[body]] = True
    for i in range(n):
        if kind[i] == DYNAMIC and awake[i]:
            root = label[i]
            if shortest[root] >= time_to_sleep and grounded[root]:
                awake[i] = False
                velocity[i, 0] = velocity[i, 1] = 0.0
                angular_velocity[i] = 0.0
                island[i] = next_island + root
    return next_island + n
