"""``Batched``: a sweep whose runs differ only in settings and initial state, run a chunk
at a time as the copies of one WorldBatch. The oracle is the same experiment written as a
plain function that builds a World per run: the tables must be equal, value for value.

The experiment's pieces are at the top of this module: worker processes import them.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_experiments_sweep import drop  # the same experiment, a World per run

from engine import Box, Circle, World, WorldBatch
from engine.experiments import Batched, sweep

GRID = {"restitution": [0.0, 0.5, 0.9], "height": [1.0, 2.0]}


def build_drop():
    world = World()
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    world.add_body(Circle(0.2), position=(0, 1.0))
    world.add_body(Box(0.4, 0.4), position=(0.5, 0.3))
    return world


def run_drop(batch, parameters, seeds):
    """``drop`` for every copy at once: the same draws from each run's seed."""
    draws = [np.random.default_rng(seed) for seed in seeds]
    nudges = np.array([rng.normal() for rng in draws])
    tilts = np.array([rng.uniform(0, 1) for rng in draws])
    batch.positions[:, 1] = np.column_stack([np.zeros(len(seeds)), parameters["height"]])
    batch.velocities[:, 1] = np.column_stack([nudges, np.zeros(len(seeds))])
    batch.set_material(1, "restitution", parameters["restitution"])
    batch.angles[:, 2] = tilts
    batch.step(30)
    return {
        "ball_x": batch.positions[:, 1, 0],
        "ball_y": batch.positions[:, 1, 1],
        "box_angle": batch.angles[:, 2],
    }


def run_broken(batch, parameters, seeds):
    raise RuntimeError("this experiment fails")


def run_short(batch, parameters, seeds):
    return {"value": np.zeros(1)}


BATCHED_DROP = Batched(build_drop, run_drop)


def plain(table):
    return table.drop(columns="wall_time")


def test_a_batched_sweep_gives_the_table_of_a_world_per_run():
    one_by_one = sweep(drop, grid=GRID, repeats=2, workers=1, progress=False)
    batched = sweep(BATCHED_DROP, grid=GRID, repeats=2, progress=False)
    assert plain(batched).equals(plain(one_by_one))
    assert batched["error"].isna().all()


def test_local_processes_each_run_their_chunks_as_batches():
    # A batch stepped here first starts numba's threads, which GNU OpenMP cannot fork:
    # the pool must start its workers afresh.
    WorldBatch(build_drop(), 2).step()
    batched = sweep(BATCHED_DROP, grid=GRID, repeats=2, workers=2, progress=False)
    one_by_one = sweep(drop, grid=GRID, repeats=2, workers=1, progress=False)
    assert plain(batched).equals(plain(one_by_one))


def test_a_failing_chunk_records_its_error_for_each_run():
    table = sweep(Batched(build_drop, run_broken), grid=GRID, progress=False)
    assert table["error"].str.contains("RuntimeError: this experiment fails").all()
    table = sweep(Batched(build_drop, run_short), grid={"x": [1, 2, 3]}, progress=False)
    assert table["error"].str.contains("one value per copy").all()


def test_one_run_called_alone():
    assert BATCHED_DROP(restitution=0.5, height=1.0, seed=3) == pytest.approx(
        drop(0.5, 1.0, 3), abs=0
    )


@pytest.mark.parametrize("build, run", [(None, run_drop), (build_drop, "run")])
def test_batched_needs_two_callables(build, run):
    with pytest.raises(TypeError):
        Batched(build, run)


@pytest.mark.slow
def test_a_dask_cluster_runs_each_chunk_as_a_batch():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        batched = sweep(
            BATCHED_DROP, grid=GRID, repeats=2, scheduler=cluster.scheduler_address,
            progress=False,
        )  # fmt: skip
    one_by_one = sweep(drop, grid=GRID, repeats=2, workers=1, progress=False)
    assert plain(batched).equals(plain(one_by_one))
