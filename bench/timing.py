"""Timing helpers shared by the benchmarks."""

from __future__ import annotations

import time


def best_of(repeats: int, run) -> float:
    """Shortest wall time of ``repeats`` calls of ``run()``, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)
