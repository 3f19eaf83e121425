"""What a worker does with a chunk of runs: call the function, time it, keep its result
or its error.

This module is what worker processes and Dask workers import, so it imports nothing
beyond the standard library and numpy. A chunk is several runs in one task: one round
trip to a worker process costs about a millisecond and to a Dask worker several, which
would weigh on runs that take a few milliseconds themselves.
"""

from __future__ import annotations

import numbers
import time
from typing import NamedTuple

import numpy as np


class Outcome(NamedTuple):
    """What one run gave: the run's ``seed``, its ``values`` (dict column -> number or
    array; empty when it failed), ``wall_time`` (s) and ``error`` (None, or the exception
    as "Type: message")."""

    seed: int
    values: dict
    wall_time: float
    error: str | None


def run_chunk(function, runs, pass_seed: bool, taken: tuple) -> list[Outcome]:
    """Call ``function(**parameters)`` (and ``seed=``, when ``pass_seed``) for each Run of
    ``runs``. A run that raises is recorded and the others go on. ``taken``: column names
    the function's results may not use (the parameters and sweep's own columns). An
    experiment that runs a chunk whole (``engine.experiments.Batched``: one WorldBatch
    for the chunk) is handed it."""
    if hasattr(function, "run_chunk"):
        return function.run_chunk(runs, pass_seed, taken)
    outcomes = []
    for run in runs:
        arguments = dict(run.parameters, seed=run.seed) if pass_seed else run.parameters
        start = time.perf_counter()
        try:
            values, error = result_values(function(**arguments), taken), None
        except Exception as exception:
            values, error = {}, f"{type(exception).__name__}: {exception}"
        outcomes.append(Outcome(run.seed, values, time.perf_counter() - start, error))
    return outcomes


def result_values(result, taken: tuple) -> dict:
    """The function's result as a dict of plain numbers, strings and float arrays;
    TypeError or ValueError for anything else, which then counts as the run's error."""
    if not isinstance(result, dict):
        raise TypeError(f"the function returned a {type(result).__name__}, not a dict")
    values = {}
    for name, value in result.items():
        if not isinstance(name, str):
            raise TypeError(f"result keys must be strings, got {name!r}")
        if name in taken:
            raise ValueError(f"result {name!r} clashes with a column of the same name")
        values[name] = _plain(value, name)
    return values


def _plain(value, name: str):
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, numbers.Real):
        return float(value)
    if isinstance(value, (np.ndarray, list, tuple)):
        try:
            return np.asarray(value, dtype=np.float64)
        except (TypeError, ValueError):
            pass
    raise TypeError(
        f"result {name!r}: expected a number, a string or an array, got {type(value).__name__}"
    )
