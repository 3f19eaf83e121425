"""Sweeps: what the machinery of ``engine.experiments.sweep`` costs next to the runs.

2,000 small worlds (10 boxes dropped on the ground, 1 s of simulated time at 1/60 each)
swept on 2 local worker processes. Each run's own time is measured inside the worker
(the ``wall_time`` column), so the machinery is the rest of the workers' time:
``2 x wall - sum(wall_time)``: starting the pool, sending chunks and results, the table,
the tail where one worker waits for the other. The target is under 5 % of the runs' own
time. A plain in-process loop over the first RUNS_IN_LOOP of the same runs gives the
reference time per run (all 2,000 would take minutes more). Sweeps of 5,000 and 50,000
runs that do almost nothing show the machinery in absolute terms, for runs that will get
cheaper: its fixed cost per sweep (the intercept: starting the workers) and its cost per
run (the slope).

Run alone with ``python -m bench.experiments_bench``.
"""

from __future__ import annotations

import time

import numpy as np

from engine import Box, World
from engine.experiments import sweep

RUNS = 2_000
RUNS_IN_LOOP = 200
TRIVIAL_RUNS = (5_000, 50_000)
WORKERS = 2


def drop(boxes, seed):
    """``boxes`` boxes dropped at seeded places onto the ground, stepped for 1 s."""
    rng = np.random.default_rng(seed)
    world = World()
    world.add_body(Box(20, 1), position=(0, -0.5), kind="static")
    for _ in range(boxes):
        position = (rng.uniform(-5, 5), rng.uniform(0.5, 5))
        world.add_body(Box(0.5, 0.5), position=position, angle=rng.uniform(0, 3))
    for _ in range(60):
        world.step()
    return {
        "kinetic_energy": world.kinetic_energy(),
        "height": float(world.positions[1:, 1].mean()),
    }


def trivial(x, seed):
    """A run that costs next to nothing: only the machinery is left to measure."""
    return {"y": x + seed % 7}


def _timed_sweep(function, grid, **options):
    start = time.perf_counter()
    table = sweep(function, grid=grid, progress=False, **options)
    return table, time.perf_counter() - start


def _machinery(wall: float, table, workers: int) -> float:
    """Seconds per run that the workers spent on anything but the runs."""
    return (workers * wall - table["wall_time"].sum()) / len(table)


def run() -> list[tuple[str, float, str]]:
    """Rows (name, value, unit) for the benchmark table."""
    table, wall = _timed_sweep(drop, {"boxes": [10]}, repeats=RUNS, workers=WORKERS)
    assert table["error"].isna().all()
    per_run = table["wall_time"].mean()
    machinery = _machinery(wall, table, WORKERS)

    seeds = table["seed"].tolist()[:RUNS_IN_LOOP]
    start = time.perf_counter()
    for seed in seeds:
        drop(10, seed)
    loop_per_run = (time.perf_counter() - start) / RUNS_IN_LOOP

    in_process, in_process_wall = _timed_sweep(
        drop, {"boxes": [10]}, repeats=RUNS_IN_LOOP, workers=1
    )
    spent = []  # worker seconds not spent in the runs, for each sweep of TRIVIAL_RUNS
    for count in TRIVIAL_RUNS:
        trivial_table, trivial_wall = _timed_sweep(
            trivial, {"x": list(range(count))}, workers=WORKERS
        )
        spent.append(count * _machinery(trivial_wall, trivial_table, WORKERS))
    per_trivial_run = (spent[1] - spent[0]) / (TRIVIAL_RUNS[1] - TRIVIAL_RUNS[0])
    fixed = spent[0] - per_trivial_run * TRIVIAL_RUNS[0]
    label = f"sweep {RUNS:,} drops"
    return [
        (f"{label}, {WORKERS} processes: rate", RUNS / wall, "runs/s"),
        (f"{label}: plain loop rate ({RUNS_IN_LOOP} runs)", 1 / loop_per_run, "runs/s"),
        (f"{label}: run time in a plain loop", 1e3 * loop_per_run, "ms"),
        (f"{label}: run time inside the sweep", 1e3 * per_run, "ms"),
        (f"{label}: machinery per run", 1e3 * machinery, "ms"),
        (f"{label}: machinery / run time", 100 * machinery / per_run, "%"),
        (
            f"sweep {RUNS_IN_LOOP} drops in-process: machinery per run",
            1e3 * (in_process_wall - in_process["wall_time"].sum()) / RUNS_IN_LOOP,
            "ms",
        ),
        (f"sweep trivial runs, {WORKERS} processes: fixed cost", fixed, "worker s"),
        (f"sweep trivial runs, {WORKERS} processes: cost per run", 1e6 * per_trivial_run, "us"),
    ]


if __name__ == "__main__":
    for label, value, unit in run():
        print(f"{label:<60} {value:>12,.3f}  {unit}")
