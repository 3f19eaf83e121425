"""``Batched``: an experiment whose runs differ only in settings and initial state, swept
as one ``WorldBatch`` per chunk of runs.

A plain experiment function builds and steps one World per run, one run after another.
When every run holds the same bodies and joints and only their settings or starting
state differ (a restitution, a launch speed, gravity), ``sweep`` can hand a whole chunk
of runs to one batch instead: the world is built once, each run is a copy, and every
step of every copy is one compiled call spread over the cores. On a Dask cluster each
task is such a chunk. The table is the one the runs would give one World at a time, as
each copy steps as its World would, bit for bit.
"""

from __future__ import annotations

import time

import numpy as np

from .worker import Outcome, result_values


class Batched:
    """An experiment for ``sweep`` run as a WorldBatch per chunk of runs.

    build(): the World every run starts from (called once per chunk; it must not depend
    on the parameters). run(batch, parameters, seeds): sets each copy from its run's
    parameters (dict name -> (K,) array, one entry per copy) and seed ((K,) int64),
    steps the batch and returns a dict name -> (K,) values (or (K, ...) arrays), one per
    copy. Both must be defined at a module's top level for worker processes to import.

    A chunk whose ``run`` raises records the error for each of its runs.
    """

    def __init__(self, build, run):
        if not callable(build):
            raise TypeError(f"build: expected a callable, got {type(build).__name__}")
        if not callable(run):
            raise TypeError(f"run: expected a callable, got {type(run).__name__}")
        self.build = build
        self.run = run

    def __call__(self, **parameters):
        """One run alone (a batch of one): what ``sweep`` calls for a single run."""
        seed = parameters.pop("seed", 0)
        chunk = self.run_chunk_values({k: [v] for k, v in parameters.items()}, [seed])
        return {name: values[0] for name, values in chunk.items()}

    def run_chunk_values(self, parameters: dict, seeds) -> dict:
        """The ``run`` results of one batch of len(seeds) copies, checked: name -> (K, ...)."""
        from ..batch import WorldBatch

        count = len(seeds)
        batch = WorldBatch(self.build(), count)
        columns = {name: np.asarray(values) for name, values in parameters.items()}
        result = self.run(batch, columns, np.asarray(seeds, dtype=np.int64))
        if not isinstance(result, dict):
            raise TypeError(f"run returned a {type(result).__name__}, not a dict")
        checked = {}
        for name, values in result.items():
            values = np.asarray(values)
            if values.ndim == 0 or len(values) != count:
                raise ValueError(
                    f"run's result {name!r}: expected one value per copy ({count}), got "
                    f"shape {values.shape}"
                )
            checked[name] = values
        return checked

    def run_chunk(self, runs, pass_seed: bool, taken: tuple) -> list:
        """``engine.experiments.worker.run_chunk`` for a batch: one Outcome per run, the
        chunk's wall time shared out evenly."""
        start = time.perf_counter()
        parameters = {name: [run.parameters[name] for run in runs] for name in runs[0].parameters}
        seeds = [run.seed for run in runs]
        try:
            values = self.run_chunk_values(parameters, seeds)
            rows = [
                result_values({name: column[k] for name, column in values.items()}, taken)
                for k in range(len(runs))
            ]
            error = None
        except Exception as exception:
            rows, error = [{} for _ in runs], f"{type(exception).__name__}: {exception}"
        share = (time.perf_counter() - start) / len(runs)
        return [Outcome(run.seed, row, share, error) for run, row in zip(runs, rows)]
