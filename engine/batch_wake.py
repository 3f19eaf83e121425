"""What a write into a ``WorldBatch`` wakes or puts to sleep, copy by copy, as the same
write through a body's handle does in a World (``engine.world_bodies``).

A change by hand wakes the body's island, and, when anything in its copy sleeps, the
islands of the bodies it touched in the last step; a force or impulse wakes the body's
island alone; ``awake = False`` puts a dynamic body to sleep alone in a new island.
Cells are taken in the order given (copy, then row), as one handle call after another.
"""

from __future__ import annotations

from .jit import kernel


@kernel(inline=True)
def wake_island(awake, island, sleep_time, which):
    """Wake every sleeping body of island ``which`` in one copy (awake, island, sleep_time
    (N,)), their resting time restarted."""
    for i in range(len(awake)):
        if not awake[i] and island[i] == which:
            awake[i] = True
            sleep_time[i] = 0.0


@kernel
def wake_for_writes(copies, rows, touching_too, awake, island, sleep_time, touching,
                    body_id, row_of_id):  # fmt: skip
    """Wake what writes to the bodies at (copies (K,), rows (K,)) wake, in place.

    touching_too: also the islands of the bodies each touched in the last step (a change
    by hand) rather than its own island alone (a force or impulse); awake, island,
    sleep_time (C, N); touching: typed list of C sorted (T,) int64 body-pair keys;
    body_id (N,) int64; row_of_id (I,) int64 (-1 for a removed body).
    """
    for k in range(len(copies)):
        c, row = copies[k], rows[k]
        if not awake[c, row]:
            wake_island(awake[c], island[c], sleep_time[c], island[c, row])
        if not touching_too:
            continue
        anyone_asleep = False
        for i in range(awake.shape[1]):
            if not awake[c, i]:
                anyone_asleep = True
                break
        if not anyone_asleep:
            continue
        me = body_id[row]
        for key in touching[c]:
            first, second = key >> 32, key & 0xFFFFFFFF
            other = second if first == me else first if second == me else -1
            if other < 0:
                continue
            near = row_of_id[other]
            if near >= 0 and not awake[c, near]:
                wake_island(awake[c], island[c], sleep_time[c], island[c, near])


@kernel
def write_awake(copies, rows, values, kind, awake, velocity, angular_velocity, island,
                sleep_time, next_island, dynamic):  # fmt: skip
    """Set ``awake`` of the bodies at (copies (K,), rows (K,)) to values (K,) bool, in
    place: True wakes the body's island, False puts it (dynamic, velocities zeroed) to
    sleep alone in a new island numbered from next_island (C,). kind (N,) int8; awake,
    island, sleep_time (C, N); velocity (C, N, 2), angular_velocity (C, N); dynamic: the
    dynamic kind code."""
    for k in range(len(copies)):
        c, row = copies[k], rows[k]
        if values[k]:
            if not awake[c, row]:
                wake_island(awake[c], island[c], sleep_time[c], island[c, row])
        elif kind[row] == dynamic:
            awake[c, row] = False
            velocity[c, row, 0] = 0.0
            velocity[c, row, 1] = 0.0
            angular_velocity[c, row] = 0.0
            island[c, row] = next_island[c]
            next_island[c] += 1
