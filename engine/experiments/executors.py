"""Where chunks of runs execute: in this process, in local worker processes, or on a Dask
cluster. All three offer the sweep loop the same small interface, ``Executor``.

Local processes are forked where the platform can (Linux) and this process runs a single
thread: they then start with the engine imported and its kernels loaded, in milliseconds.
Otherwise (macOS, Windows, or threads alive: a progress bar, a Dask client) they start
with "spawn", a fresh interpreter, which costs each worker the engine's import and kernel
loading (about half a second). The experiment function must be importable by spawned
workers: defined in a module or in a script guarded by ``if __name__ == "__main__":``.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import pickle
import sys
import threading
from typing import Protocol

from .extras import require
from .worker import run_chunk


class Executor(Protocol):
    """What the sweep loop needs from a place where runs execute."""

    slots: int  # how many chunks run at once
    # How long a chunk should take, so that its round trip is a small share of it (a
    # local process answers in about a millisecond, Dask in several).
    target_seconds: float

    def submit(self, chunk_args: tuple):
        """Start ``run_chunk(*chunk_args)``; return its future (concurrent or Dask)."""

    def wait(self, futures) -> set:
        """Block until at least one of ``futures`` is done; return the done ones."""

    def close(self, pending) -> None:
        """Stop, cancelling the futures still ``pending`` (empty at a normal end)."""


class InProcess:
    """An Executor that runs each chunk at once, in this process (``workers=1``: for
    debugging)."""

    slots = 1
    target_seconds = 0.5  # only sets how often results are written and shown

    def submit(self, chunk_args) -> concurrent.futures.Future:
        future = concurrent.futures.Future()
        future.set_result(run_chunk(*chunk_args))
        return future

    def wait(self, futures) -> set:
        return set(futures)

    def close(self, pending) -> None:
        pass


class LocalProcesses:
    """An Executor over a pool of ``workers`` local processes (concurrent.futures over
    multiprocessing)."""

    target_seconds = 0.2

    def __init__(self, function, workers: int):
        check_importable(function)
        self.slots = workers
        forkable = "fork" in multiprocessing.get_all_start_methods() and sys.platform.startswith(
            "linux"
        )
        # Forking copies only the calling thread: a process with other threads (Python's,
        # or the OpenMP threads numba starts for a WorldBatch, which GNU OpenMP refuses to
        # fork) starts its workers afresh instead.
        alone = threading.active_count() == 1 and not _parallel_threads_started()
        method = "fork" if forkable and alone else "spawn"
        context = multiprocessing.get_context(method)
        self._pool = concurrent.futures.ProcessPoolExecutor(workers, mp_context=context)

    def submit(self, chunk_args) -> concurrent.futures.Future:
        return self._pool.submit(run_chunk, *chunk_args)

    def wait(self, futures) -> set:
        done, _ = concurrent.futures.wait(futures, return_when=concurrent.futures.FIRST_COMPLETED)
        return done

    def close(self, pending) -> None:
        self._pool.shutdown(wait=True, cancel_futures=bool(pending))


class DaskCluster:
    """An Executor sending chunks as tasks to a ``distributed.Client``; the client is
    closed at the end only when this object opened it (from a scheduler address)."""

    target_seconds = 1.0

    def __init__(self, client, owned: bool):
        self._distributed = require("distributed", "a sweep on a Dask cluster")
        self._client = client
        self._owned = owned
        # Yields each submitted future once, as it finishes (bound to this client's loop,
        # not to a default client).
        self._finished = self._distributed.as_completed(loop=client.loop)
        workers = client.scheduler_info().get("workers", {})
        self.slots = max(1, sum(worker.get("nthreads", 1) for worker in workers.values()))

    @classmethod
    def connect(cls, address: str, timeout: float) -> DaskCluster:
        """A client of the scheduler at ``address``; ConnectionError naming it when no
        scheduler answers within ``timeout`` seconds."""
        distributed = require("distributed", "a sweep on a Dask cluster")
        try:
            client = distributed.Client(address, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as error:
            raise ConnectionError(
                f"scheduler: no Dask scheduler answered at {address!r} within {timeout:g} s "
                f"({type(error).__name__}: {error})"
            ) from error
        return cls(client, owned=True)

    def submit(self, chunk_args):
        future = self._client.submit(run_chunk, *chunk_args, pure=False)
        self._finished.add(future)
        return future

    def wait(self, futures) -> set:
        return {next(self._finished), *self._finished.next_batch(block=False)}

    def close(self, pending) -> None:
        if pending:
            self._client.cancel(list(pending))
        if self._owned:
            self._client.close()


def check_importable(function) -> None:
    """Raise TypeError when worker processes could not receive ``function``: it cannot be
    pickled (a lambda, a nested function), or it lives in an interactive ``__main__``
    (a notebook, the REPL) that a fresh process cannot import."""
    advice = "define it at the top level of a module or script, or use workers=1 or a Dask client"
    try:
        pickle.dumps(function)
    except Exception as error:
        raise TypeError(
            f"function: worker processes cannot receive it ({error}); {advice}"
        ) from None
    main = sys.modules.get("__main__")
    interactive = main is not None and not getattr(main, "__file__", None)
    if getattr(function, "__module__", None) == "__main__" and interactive:
        raise TypeError(
            "function: it is defined in an interactive session, which worker processes "
            f"cannot import; {advice}"
        )


def _parallel_threads_started() -> bool:
    """Whether numba has started its threads in this process (a parallel kernel ran)."""
    numba = sys.modules.get("numba")
    if numba is None:
        return False
    try:
        numba.threading_layer()
    except ValueError:  # no parallel kernel has run: no threads
        return False
    return True


def default_workers() -> int:
    """The cores this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)
