"""Continuous collision: stop fast bodies at their time of impact so nothing tunnels.

Speculative contacts stop most fast bodies at the surface already. What they cannot see is
an approach along an axis that was not the best one at the start of the step, or a sweep
through a body that the solver turned towards. So after the sub-steps, every body moving
more than a fraction of its own size in the step is swept again with its mean velocity over
the step against the static and kinematic parts near its path (and, for bullets, against
dynamic ones too), with the exact time of impact of the swept narrow phase. A body that
would hit something within the step is moved only up to that instant, a slop short of
contact. Whether it would pass more than a slop into the surface is judged by the slower of
its centre's approach and its leading point's, turning included (the sweep itself
translates), unless the centre would go a quarter of its size past: a body rolling or
tipping on a surface as it slides fast does not approach it.
"""

from __future__ import annotations

import math

import numpy as np

from .body_store import DYNAMIC, STATIC
from .contact_slop import slop_of
from .jit import kernel
from .narrowphase import collide_kernel


@kernel
def allowed_times(
    vertices, normals, count, radius, part_reach, part_a, part_b, body_a, body_b, kind,
    bullet, reach, start, velocity, rows, dt, fraction, thickness, world_slop,
):  # fmt: skip
    """(N,) time in [0, dt] each body may move for this step without tunnelling.

    Part table (P, K, 2) vertices and normals, (P,) count, radius and part_reach;
    (M,) broad-phase part pairs and their bodies; (N,) kind, bullet, reach; start: (N, 3)
    poses at the step start; velocity: (N + 1, 3) what they move with; rows (K,): the
    bodies that may have moved (the others' velocity is zero); thickness (N,) and the
    world's slop give each body's own (``engine.contact_slop``). Static bodies among rows
    get 0, a fast dynamic body that would go more than its slop into a part (its centre
    and its leading point both) the time of its first impact less its slop, every other
    body dt.
    """
    n = len(kind)
    allowed = np.full(n, dt)
    fast = np.zeros(n, dtype=np.bool_)
    any_fast = False
    for i in rows:
        if kind[i] == STATIC:
            allowed[i] = 0.0
        elif kind[i] == DYNAMIC:
            # sqrt, not hypot: a quarter of the cost (a square that overflows reads as fast).
            vx, vy = velocity[i, 0], velocity[i, 1]
            travel = (math.sqrt(vx * vx + vy * vy) + abs(velocity[i, 2]) * reach[i]) * dt
            fast[i] = travel > fraction * reach[i]
            any_fast = any_fast or fast[i]
    if not any_fast:
        return allowed
    # A sweeps against B: A fast, B not dynamic, or A a fast bullet and B anything.
    m = len(part_a)
    mover = np.empty(2 * m, dtype=np.int64)
    other = np.empty(2 * m, dtype=np.int64)
    mover_part = np.empty(2 * m, dtype=np.int64)
    other_part = np.empty(2 * m, dtype=np.int64)
    count_sweeps = 0
    for side in range(2):
        for i in range(m):
            a, b = (body_a[i], body_b[i]) if side == 0 else (body_b[i], body_a[i])
            if fast[a] and (kind[b] != DYNAMIC or bullet[a]):
                mover[count_sweeps], other[count_sweeps] = a, b
                if side == 0:
                    mover_part[count_sweeps], other_part[count_sweeps] = part_a[i], part_b[i]
                else:
                    mover_part[count_sweeps], other_part[count_sweeps] = part_b[i], part_a[i]
                count_sweeps += 1
    if count_sweeps == 0:
        return allowed
    mover, other = mover[:count_sweeps], other[:count_sweeps]
    relative = np.empty((count_sweeps, 2))
    for s in range(count_sweeps):
        relative[s, 0] = velocity[mover[s], 0] - velocity[other[s], 0]
        relative[s, 1] = velocity[mover[s], 1] - velocity[other[s], 1]
    mover_poses, other_poses = start[mover], start[other]
    mover_turns = np.empty((count_sweeps, 2))
    other_turns = np.empty((count_sweeps, 2))
    for s in range(count_sweeps):
        mover_turns[s, 0], mover_turns[s, 1] = (
            math.cos(mover_poses[s, 2]),
            math.sin(mover_poses[s, 2]),
        )
        other_turns[s, 0], other_turns[s, 1] = (
            math.cos(other_poses[s, 2]),
            math.sin(other_poses[s, 2]),
        )
    # The sweep flag is computed at run time (dt >= 0 always holds): a literal True would
    # compile the narrow phase once more.
    found = collide_kernel(
        vertices, normals, count, radius, part_reach, mover_part[:count_sweeps], mover_poses,
        mover_turns,
        vertices, normals, count, radius, part_reach, other_part[:count_sweeps], other_poses,
        other_turns,
        relative, dt >= 0.0, np.full(count_sweeps, dt), np.zeros(count_sweeps), 0.0,
    )  # fmt: skip
    separation, normal, toi = found[0], found[1], found[2]
    for s in range(count_sweeps):
        a, b, nx, ny = mover[s], other[s], normal[s, 0], normal[s, 1]
        slop = slop_of(world_slop, thickness[a])
        closing = relative[s, 0] * nx + relative[s, 1] * ny
        # The slower of its centre and its leading point (turning included): a box tipping
        # onto its face as it slides has its centre coming down and its corner, on the
        # floor, not (judged by its centre, it was stopped every step, hanging in the air).
        # Unless the centre itself would go a good part of the body past the surface.
        lead = _leading_closing(
            vertices, count, radius, mover_part[s], start[a], mover_turns[s], velocity[a],
            start[b], velocity[b], nx, ny, slop,
        )  # fmt: skip
        through = closing * dt > fraction * reach[a]
        speed = closing if through else min(lead, closing)
        if separation[s] <= 0.0 and speed * dt > slop:
            # Already inside at the start (squeezed in by a heavy body, spawned there): it
            # may go a slop deeper and no more; the push-out takes it back.
            allowed[a] = min(allowed[a], slop / speed)
            continue
        if not (separation[s] > 0.0) or math.isnan(toi[s]):
            continue
        # A sweep that ends less than a slop past the surface is a landing, not a tunnel:
        # the contact handles it next step, and the body keeps its motion along the surface.
        margin = slop
        if speed * (dt - toi[s]) > margin:
            # Stop a slop short of contact along the normal, so the next step starts apart.
            stop = max(toi[s] - margin / speed, 0.0)
            allowed[a] = min(allowed[a], stop)
    return allowed


@kernel(inline=True)
def _leading_closing(vertices, count, radius, part, pose, turn, velocity, other_pose,
                     other_velocity, nx, ny, slop):  # fmt: skip
    """The fastest approach along the normal (nx, ny), from the mover towards the other
    body, of the mover part's leading points: its vertices within ``slop`` of the one
    furthest that way at the step's start (a face lying on the surface leads with both its
    ends, whichever rounding puts ahead), each body's turning included. velocity,
    other_velocity (3,) as (vx, vy, w); pose, other_pose (3,); turn: the mover's
    (cos, sin)."""
    c, s_ = turn[0], turn[1]
    furthest = -np.inf
    for k in range(count[part]):
        x = c * vertices[part, k, 0] - s_ * vertices[part, k, 1]
        y = s_ * vertices[part, k, 0] + c * vertices[part, k, 1]
        furthest = max(furthest, x * nx + y * ny)
    fastest = -np.inf
    for k in range(count[part]):
        x = c * vertices[part, k, 0] - s_ * vertices[part, k, 1]
        y = s_ * vertices[part, k, 0] + c * vertices[part, k, 1]
        if x * nx + y * ny >= furthest - slop:
            px, py = x + radius[part] * nx, y + radius[part] * ny
            # The point's velocity on each body: v + w x r.
            ox = pose[0] + px - other_pose[0]
            oy = pose[1] + py - other_pose[1]
            vx = velocity[0] - velocity[2] * py - (other_velocity[0] - other_velocity[2] * oy)
            vy = velocity[1] + velocity[2] * px - (other_velocity[1] + other_velocity[2] * ox)
            fastest = max(fastest, vx * nx + vy * ny)
    return fastest
