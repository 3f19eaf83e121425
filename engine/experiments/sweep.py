"""``sweep``: run an experiment function over a grid of parameters, on local processes or
a Dask cluster, and gather one table row per run."""

from __future__ import annotations

from collections import deque

from ..validation import as_positive_float
from .chunking import ChunkSizes
from .executors import DaskCluster, Executor, InProcess, LocalProcesses, default_workers
from .extras import require
from .grid import RESERVED
from .plan import plan_runs, takes_seed
from .progress import progress_bar
from .store import InMemory, ResultsFile
from .table import assemble, record_of

IN_FLIGHT_PER_SLOT = 2  # chunks queued per slot, so a slot never waits for the next one


def sweep(
    function,
    grid,
    repeats: int = 1,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    client=None,
    out=None,
    progress: bool = True,
    base_seed: int = 0,
    connect_timeout: float = 10.0,
):
    """Call ``function(**parameters)`` for every parameter set of ``grid``, ``repeats``
    times each, and return a pandas DataFrame with one row per run.

    grid: a dict ``name -> values`` (the cartesian product is swept, the last name
    changing fastest) or an explicit list of parameter dicts. Values are numbers, bools or
    strings. Each run gets a seed derived from ``base_seed``, its parameters and its repeat
    index (see ``engine.experiments.seeds``), passed as ``seed=`` when the function takes
    one; the same grid and base seed give the same seeds on any machine.

    function: returns a dict of numbers (or strings, or arrays); a run that raises is
    recorded with its error and the others go on.

    function may be an ``engine.experiments.Batched`` experiment: runs that differ only in
    settings and initial state, run a chunk at a time as the copies of one WorldBatch
    (then ``workers`` defaults to 1: the batch uses the cores).

    Where the runs execute: ``workers`` local processes (default: the cores available;
    ``workers=1`` runs in this process, for debugging), or a Dask cluster given by its
    ``scheduler`` address ("tcp://host:8786") or a ``client`` (``distributed.Client``).
    Local processes import the function afresh, so it must be defined in a module or a
    script guarded by ``if __name__ == "__main__":``.

    out: a .parquet or .csv path. Results are written there as runs finish; a sweep
    started again with the same ``out`` skips the runs already in it (failed ones too:
    remove their rows to run them again). progress: a tqdm bar on the terminal.
    connect_timeout: seconds to wait for a ``scheduler`` before a ConnectionError.

    Returns the table, in plan order (parameter set, then repeat), columns: the
    parameters, ``repeat``, ``seed``, the function's values, ``wall_time`` (s) and
    ``error`` (None when the run succeeded). Every column but ``wall_time`` is the same
    whichever executor ran the sweep.

    >>> def square(x, seed):
    ...     return {"y": x * x}
    >>> table = sweep(square, grid={"x": [1, 2, 3]}, workers=1, progress=False)
    >>> table["y"].tolist(), table["error"].tolist()
    ([1, 4, 9], [None, None, None])
    """
    pandas = require("pandas", "sweep")
    if not callable(function):
        raise TypeError(f"function: expected a callable, got {type(function).__name__}")
    runs = plan_runs(grid, repeats, base_seed)
    names = list(runs[0].parameters)
    pass_seed = takes_seed(function, names)
    _check_executor_choice(workers, scheduler, client, connect_timeout)
    results = ResultsFile(out, names) if out is not None else InMemory()
    finished = {record["seed"] for record in results.rows}
    pending = [run for run in runs if run.seed not in finished]
    if pending:
        executor = _open_executor(function, workers, scheduler, client, connect_timeout, pending)
        bar = progress_bar(len(runs), len(runs) - len(pending), progress)
        try:
            _run_all(executor, bar, function, pending, pass_seed, (*names, *RESERVED), results)
        finally:
            bar.close()
            results.write()
    return assemble(pandas, runs, results.rows)


def _run_all(executor: Executor, bar, function, pending, pass_seed, taken, results) -> None:
    """Send chunks of ``pending`` runs to ``executor`` and hand the records to
    ``results`` as they finish."""
    sizes = ChunkSizes(executor.slots, executor.target_seconds)
    queue = deque(pending)
    in_flight = {}  # future -> its runs
    try:
        while queue or in_flight:
            while queue and len(in_flight) < IN_FLIGHT_PER_SLOT * executor.slots:
                chunk = [queue.popleft() for _ in range(min(sizes.next(len(queue)), len(queue)))]
                in_flight[executor.submit((function, chunk, pass_seed, taken))] = chunk
            for future in executor.wait(in_flight):
                chunk = in_flight.pop(future)
                outcomes = _outcomes(future, results)
                sizes.observe([outcome.wall_time for outcome in outcomes])
                results.add([record_of(run, outcome) for run, outcome in zip(chunk, outcomes)])
                bar.update(len(chunk))
    finally:
        executor.close(in_flight)


def _outcomes(future, results):
    try:
        return future.result()
    except Exception as error:
        kept = f"; the finished runs are in {str(results.path)!r}" if results.path else ""
        raise RuntimeError(
            f"sweep: a worker failed outside the experiment function "
            f"({type(error).__name__}: {error}){kept}"
        ) from error


def _check_executor_choice(workers, scheduler, client, connect_timeout) -> None:
    as_positive_float(connect_timeout, "connect_timeout")
    if scheduler is not None and client is not None:
        raise ValueError("scheduler: give a scheduler address or a client, not both")
    if workers is not None:
        if scheduler is not None or client is not None:
            raise ValueError("workers: a Dask cluster brings its own workers; drop workers=")
        if isinstance(workers, bool) or not isinstance(workers, int):
            raise TypeError(f"workers: expected an int, got {type(workers).__name__}")
        if workers < 1:
            raise ValueError(f"workers: must be >= 1, got {workers}")
    if scheduler is not None and not isinstance(scheduler, str):
        raise TypeError(f"scheduler: expected an address string, got {type(scheduler).__name__}")


def _open_executor(function, workers, scheduler, client, connect_timeout, pending) -> Executor:
    if scheduler is not None:
        return DaskCluster.connect(scheduler, connect_timeout)
    if client is not None:
        distributed = require("distributed", "a sweep on a Dask cluster")
        if not isinstance(client, distributed.Client):
            raise TypeError(f"client: expected a distributed.Client, got {type(client).__name__}")
        return DaskCluster(client, owned=False)
    if workers is None:
        # A batched experiment spreads its copies over the cores itself: one process.
        workers = 1 if hasattr(function, "run_chunk") else default_workers()
    if workers == 1:
        return InProcess()
    return LocalProcesses(function, min(workers, len(pending)))
