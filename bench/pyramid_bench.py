"""Box pyramid: step time against pymunk in one process, interleaved; drift; memory.

Rows 20, 40 and 100 (210, 820 and 5,050 unit boxes spaced 1.125 apart, friction 0.6,
dt 1/60). Both engines run the same scene; their steps are timed in alternating chunks so
that both see the same machine load. ``ENGINE_SUBSTEPS=4`` runs the engine with the
sub-stepped soft solver (the default World's, ``SUBSTEPS``); ``ENGINE_SUBSTEPS=0`` the
one-solve step.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

import numpy as np

from engine import Box, World
from engine.solver_settings import SUBSTEPS as DEFAULT_SUBSTEPS

DT = 1 / 60
# The engine's solver: n >= 1 that many soft sub-steps (the default World's unless set), 0
# the one-solve step.
SUBSTEPS = int(os.environ.get("ENGINE_SUBSTEPS", str(DEFAULT_SUBSTEPS)))
SPACING = 1.125


def pyramid_positions(rows: int) -> np.ndarray:
    """(B, 2) centres of a pyramid of unit boxes resting on y = 0, bottom row first."""
    centres = []
    for row in range(rows):
        count = rows - row
        for i in range(count):
            centres.append(((i - (count - 1) / 2) * SPACING, 0.5 + row))
    return np.array(centres)


def engine_pyramid(rows: int, sleep: bool = False):
    """The pyramid in the engine; sleeping off unless asked, as pymunk runs by default."""
    world = World(dt=DT, sleep=sleep, substeps=SUBSTEPS)
    world.add_body(Box(2 * SPACING * rows + 20, 1), position=(0, -0.5), kind="static")
    box = Box(1, 1)
    bodies = [world.add_body(box, position=p, friction=0.6) for p in pyramid_positions(rows)]
    return world, world.step, lambda: bodies[-1].position


def pymunk_pyramid(rows: int):
    import pymunk

    space = pymunk.Space()
    space.gravity = (0.0, -9.81)
    ground = pymunk.Segment(space.static_body, (-1000, 0), (1000, 0), 0.0)
    ground.friction = 0.6
    space.add(ground)
    top = None
    for x, y in pyramid_positions(rows):
        body = pymunk.Body(1.0, pymunk.moment_for_box(1.0, (1, 1)))
        body.position = (float(x), float(y))
        shape = pymunk.Poly.create_box(body, (1, 1))
        shape.friction = 0.6
        space.add(body, shape)
        top = body
    return space, lambda: space.step(DT), lambda: np.array(top.position)


def _timed(step, count: int) -> list[float]:
    times = []
    for _ in range(count):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return times


def step_times(rows: int, warmup: int, measured: int, chunk: int = 10):
    """Median ms per step for (engine, pymunk), measured in alternating chunks."""
    _, ours, _ = engine_pyramid(rows)
    _, theirs, _ = pymunk_pyramid(rows)
    for _ in range(warmup):
        ours()
        theirs()
    ours_t, theirs_t = [], []
    for _ in range(measured // chunk):
        ours_t += _timed(ours, chunk)
        theirs_t += _timed(theirs, chunk)
    return 1e3 * statistics.median(ours_t), 1e3 * statistics.median(theirs_t)


def top_drift(make, rows: int, seconds: float = 10.0) -> float:
    """Distance the top box moved in ``seconds`` of simulated time."""
    _, step, top = make(rows)
    start = top()
    for _ in range(int(round(seconds / DT))):
        step()
    return float(np.hypot(*(top() - start)))


def peak_memory_mb(rows: int, steps: int = 10) -> float:
    """Peak resident memory of a fresh process that builds and steps the pyramid."""
    code = (
        "from bench.pyramid_bench import engine_pyramid\n"
        f"w, step, top = engine_pyramid({rows})\n"
        f"for _ in range({steps}): step()\n"
        "import resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(out.stdout.strip()) / 1024.0  # ru_maxrss is in KiB on Linux


def sleeping_step_times(rows: int = 40) -> tuple[float, float, float]:
    """Median ms per step of the pyramid while settling (awake) and once asleep.

    Also returns the simulated seconds it took for every box to fall asleep.
    """
    world, step, _ = engine_pyramid(rows, sleep=True)
    awake_times = _timed(step, 60)
    seconds = 1.0
    while world.awake[1:].any() and seconds < 30.0:
        for _ in range(30):
            step()
        seconds += 0.5
    asleep_times = _timed(step, 60)
    return 1e3 * statistics.median(awake_times), 1e3 * statistics.median(asleep_times), seconds


def run() -> list[tuple[str, float, str]]:
    rows_out = []
    awake_ms, asleep_ms, seconds = sleeping_step_times(40)
    rows_out += [
        ("pyramid 40 rows: engine step, awake", awake_ms, "ms"),
        ("pyramid 40 rows: engine step, asleep", asleep_ms, "ms"),
        ("pyramid 40 rows: simulated time until all asleep", seconds, "s"),
    ]
    for rows, warmup, measured in ((20, 60, 120), (40, 60, 120), (100, 20, 40)):
        ours, theirs = step_times(rows, warmup, measured)
        rows_out += [
            (f"pyramid {rows} rows: engine step", ours, "ms"),
            (f"pyramid {rows} rows: pymunk step", theirs, "ms"),
            (f"pyramid {rows} rows: engine / pymunk", ours / theirs, "x"),
        ]
    rows_out.append(("pyramid 100 rows: engine peak memory", peak_memory_mb(100), "MB"))
    for rows in (20, 40):
        rows_out.append(
            (f"pyramid {rows} rows: engine top drift, 10 s", top_drift(engine_pyramid, rows), "m")
        )
        rows_out.append(
            (f"pyramid {rows} rows: pymunk top drift, 10 s", top_drift(pymunk_pyramid, rows), "m")
        )
    return rows_out
