"""Many copies of a small world: ``WorldBatch`` against a Python loop over Worlds.

The world is the one an experiment sweeps: ten boxes dropped on a ground, settling (they
are still moving and touching over the timed steps; sleeping is off so that every copy
does the work of a moving world throughout). Rows:

- body-steps per second of a batch of 1,024 copies, on one thread and on every core;
- the same 1,024 copies as 1,024 Worlds stepped one after another in a Python loop, and
  how many times faster the batch is;
- ``reset`` of 100 copies out of 1,024.

Run alone with ``python -m bench.batch_bench``.
"""

from __future__ import annotations

import copy
import time

import numba
import numpy as np

from engine import Box, World, WorldBatch

COPIES = 1024
BODIES = 10  # the ground and nine boxes
STEPS = 30  # steps per timed run
ROUNDS = 3


def settling_world() -> World:
    """A ground and nine boxes in a loose heap above it, sleep off, stepped 30 times so
    that the heap has landed and is settling when the timing starts."""
    world = World(sleep=False)
    world.add_body(Box(20, 1), position=(0, -0.5), kind="static")
    rng = np.random.default_rng(0)
    for i in range(BODIES - 1):
        x = -2.0 + 0.55 * (i % 5) + rng.uniform(-0.05, 0.05)
        world.add_body(Box(0.5, 0.5), position=(x, 0.3 + 0.6 * (i // 5)), angle=0.05 * i)
    for _ in range(30):
        world.step()
    return world


def batch_rate(batch: WorldBatch, threads: int) -> float:
    """Body-steps per second of ``batch`` on ``threads`` threads: the best of ROUNDS runs
    of STEPS steps."""
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        batch.step(1)  # compiled and warm
        best = float("inf")
        for _ in range(ROUNDS):
            start = time.perf_counter()
            batch.step(STEPS)
            best = min(best, time.perf_counter() - start)
    finally:
        numba.set_num_threads(previous)
    return batch.copies * batch.body_count * STEPS / best


def loop_rate(worlds: list) -> float:
    """Body-steps per second of stepping ``worlds`` one after another from Python."""
    for world in worlds:
        world.step()
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in range(STEPS):
            for world in worlds:
                world.step()
        best = min(best, time.perf_counter() - start)
    return len(worlds) * len(worlds[0].bodies) * STEPS / best


def reset_time(batch: WorldBatch, count: int = 100) -> float:
    """Seconds to reset ``count`` of the batch's copies: the best of 20 resets."""
    chosen = np.arange(0, batch.copies, batch.copies // count)[:count]
    best = float("inf")
    for _ in range(20):
        start = time.perf_counter()
        batch.reset(chosen)
        best = min(best, time.perf_counter() - start)
    return best


def run() -> list:
    """Rows (label, value, unit) for ``make bench``."""
    world = settling_world()
    cores = numba.config.NUMBA_NUM_THREADS
    one = batch_rate(WorldBatch(world, COPIES), 1)
    every = batch_rate(WorldBatch(world, COPIES), cores)
    loop = loop_rate([copy.deepcopy(world) for _ in range(COPIES)])
    reset = reset_time(WorldBatch(world, COPIES))
    return [
        (f"batch {COPIES} x {BODIES} bodies, 1 thread", one, "body-steps/s"),
        (f"batch {COPIES} x {BODIES} bodies, {cores} threads", every, "body-steps/s"),
        (f"{COPIES} Worlds in a Python loop", loop, "body-steps/s"),
        (f"batch ({cores} threads) / loop", every / loop, "x"),
        (f"batch reset of 100 copies of {COPIES}", reset * 1e3, "ms"),
    ]


if __name__ == "__main__":
    for label, value, unit in run():
        print(f"{label:<52} {value:>14,.4g}  {unit}")
