"""How many runs go into the next task.

A task's round trip to a worker has a fixed cost, so cheap runs travel in chunks: the
chunk grows until it takes about ``target_seconds`` of work, judged from the runs measured
so far (the first chunks hold one run each, to measure). Chunks stay small enough that
every slot still has about two of them near the end, so no worker finishes long before
the others, and that results are written and shown often.

>>> sizes = ChunkSizes(slots=2, target_seconds=0.2)
>>> sizes.next(remaining=1000)
1
>>> sizes.observe([0.01, 0.01])
>>> sizes.next(remaining=1000)
20
>>> sizes.next(remaining=30)
8
"""

from __future__ import annotations

import math


class ChunkSizes:
    """Chunk sizes for ``slots`` parallel slots and chunks of about ``target_seconds``."""

    def __init__(self, slots: int, target_seconds: float, largest: int = 10_000):
        self._slots = slots
        self._target = target_seconds
        self._largest = largest
        self._runs = 0
        self._seconds = 0.0

    def observe(self, wall_times) -> None:
        """Learn from the wall times (s) of finished runs."""
        self._runs += len(wall_times)
        self._seconds += float(sum(wall_times))

    def next(self, remaining: int) -> int:
        """The size of the next chunk when ``remaining`` runs are not yet sent (>= 1)."""
        if self._runs == 0:
            return 1
        mean = self._seconds / self._runs
        size = self._largest if mean <= 0.0 else round(self._target / mean)
        balanced = math.ceil(remaining / (2 * self._slots))
        return max(1, min(size, balanced, self._largest))
