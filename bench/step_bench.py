"""The cost of a step at the small end, of compiling, and of starting up.

- a world with one falling body: what a step costs when there is nothing to solve;
- the `joints` demo scene (rope bridge, chain, cradle, springs, paddle wheel, ragdolls);
- cold compile: ``python -m engine.warm`` in a new process with an empty kernel cache
  (two processes compile at once, as ``make install`` runs it);
- warm start: a new process that imports the engine, builds a world and steps it once,
  with the kernels cached.

Run alone with ``python -m bench.step_bench``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

from engine import Circle, World

STEPS = 2000


def one_body_step_us() -> float:
    world = World()
    world.add_body(Circle(0.5), position=(0, 1000))
    for _ in range(100):
        world.step()
    start = time.perf_counter()
    for _ in range(STEPS):
        world.step()
    return 1e6 * (time.perf_counter() - start) / STEPS


def joints_scene_ms(steps: int = 300) -> float:
    from demos.app.registry import lookup

    scene = lookup("joints").build()
    world = scene.world

    def step():
        if scene.before_step:
            scene.before_step(world)
        world.step()

    for _ in range(60):
        step()
    start = time.perf_counter()
    for _ in range(steps):
        step()
    return 1e3 * (time.perf_counter() - start) / steps


def cold_compile_s() -> float:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, ENGINE_KERNEL_CACHE=cache)
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "engine.warm"], env=env, check=True, capture_output=True
        )
        return time.perf_counter() - start


WARM_START = """
from engine import Box, World
world = World()
world.add_body(Box(40, 1), position=(0, -0.5), kind="static")
world.add_body(Box(1, 1), position=(0, 0.6))
world.step()
"""


def warm_start_s() -> float:
    """Seconds for a new process to import, build a two-body world and step it once."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", WARM_START], check=True, capture_output=True)
        best = min(best, time.perf_counter() - start)
    return best


def run():
    yield "step: a world with one body", one_body_step_us(), "us"
    yield "step: the joints demo scene", joints_scene_ms(), "ms"
    yield "start: import + build a world + first step, new process", warm_start_s(), "s"
    yield "start: cold compile of every kernel (make install)", cold_compile_s(), "s"


if __name__ == "__main__":
    for label, value, unit in run():
        print(f"{label:<56} {value:>10.4g}  {unit}")
