"""The command line: ``python -m engine.experiments FILE.py:FUNCTION --grid ...``.

    python -m engine.experiments bounce.py:bounce --grid restitution=0:1:21 \\
        --grid height=1,2,4 --repeats 3 --out results.parquet [--scheduler ADDRESS]

A grid entry is ``NAME=START:STOP:COUNT`` (COUNT evenly spaced numbers, both ends
included, as numpy.linspace), ``NAME=A,B,C`` (a list) or ``NAME=VALUE``. Values that read
as integers are ints, as numbers are floats, anything else a string.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import sys
from pathlib import Path

import numpy as np

from .extras import require
from .sweep import sweep


def main(argv=None) -> int:
    """Run the command line with ``argv`` (default: sys.argv[1:]); returns the exit code."""
    parser = _parser()
    arguments = parser.parse_args(argv)
    try:
        grid = dict(parse_grid_entry(entry) for entry in arguments.grid)
        function = load_function(arguments.target, ship=arguments.scheduler is not None)
        table = sweep(
            function,
            grid,
            repeats=arguments.repeats,
            workers=arguments.workers,
            scheduler=arguments.scheduler,
            out=arguments.out,
            progress=not arguments.no_progress,
            base_seed=arguments.base_seed,
        )
    except (ValueError, TypeError, ConnectionError, ImportError) as error:
        parser.exit(2, f"{parser.prog}: error: {error}\n")
    failed = int(table["error"].notna().sum())
    where = f", written to {arguments.out}" if arguments.out else ""
    print(f"{len(table)} runs, {failed} failed{where}")
    if not arguments.out:
        print(table.to_string())
    return 0


def parse_grid_entry(text: str):
    """``"name=spec"`` -> (name, values); ValueError for a malformed entry."""
    name, sign, spec = text.partition("=")
    name = name.strip()
    if not sign or not name or not spec:
        raise ValueError(f"--grid: expected NAME=VALUES, got {text!r}")
    parts = spec.split(":")
    if len(parts) == 3:
        try:
            start, stop, count = float(parts[0]), float(parts[1]), int(parts[2])
        except ValueError:
            raise ValueError(
                f"--grid: {name}: START:STOP:COUNT needs numbers, got {spec!r}"
            ) from None
        if count < 1:
            raise ValueError(f"--grid: {name}: COUNT must be >= 1, got {count}")
        return name, np.linspace(start, stop, count).tolist()
    return name, [_value(item.strip()) for item in spec.split(",")]


def load_function(target: str, ship: bool = False):
    """The function named by ``"path/to/file.py:function"``.

    The file is imported as a module named after it, with its folder first on sys.path,
    so worker processes can import it too. ship: have Dask send the module's code to the
    cluster's workers by value (they may not have the file).
    """
    path_text, colon, name = target.rpartition(":")
    path = Path(path_text)
    if not colon or not name or path.suffix != ".py":
        raise ValueError(f"target: expected FILE.py:FUNCTION, got {target!r}")
    if not path.is_file():
        raise ValueError(f"target: no file {str(path)!r}")
    folder = str(path.resolve().parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(path.stem, path.resolve())
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    if not callable(getattr(module, name, None)):
        raise ValueError(f"target: {str(path)!r} has no function {name!r}")
    if ship:
        cloudpickle = require("cloudpickle", "a sweep on a Dask cluster")
        cloudpickle.register_pickle_by_value(module)
        return ByValue(getattr(module, name))
    return getattr(module, name)


class ByValue:
    """A function that travels as its code: pickled, it becomes cloudpickle's copy of it
    (with its module's code, registered to go by value), so a Dask worker or scheduler
    without the file rebuilds it. Dask itself pickles a task by reference when plain
    pickle can, which would need the file on every machine."""

    def __init__(self, function):
        self._function = function
        functools.update_wrapper(self, function)  # its name and signature, for sweep's checks

    def __call__(self, *args, **kwargs):
        return self._function(*args, **kwargs)

    def __reduce__(self):
        cloudpickle = require("cloudpickle", "a sweep on a Dask cluster")
        return cloudpickle.loads, (cloudpickle.dumps(self._function),)


def _value(text: str):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine.experiments",
        description="Run an experiment function over a grid of parameters.",
    )
    parser.add_argument("target", help="the experiment: FILE.py:FUNCTION")
    parser.add_argument(
        "--grid",
        action="append",
        default=[],
        metavar="NAME=VALUES",
        help="a parameter: NAME=START:STOP:COUNT, NAME=A,B,C or NAME=VALUE (repeatable)",
    )
    parser.add_argument("--repeats", type=int, default=1, help="runs per parameter set")
    parser.add_argument("--workers", type=int, help="local worker processes (default: cores)")
    parser.add_argument("--scheduler", help="a Dask scheduler address, tcp://host:8786")
    parser.add_argument("--out", help="results file, .parquet or .csv (resumed if present)")
    parser.add_argument("--base-seed", type=int, default=0, help="base of the runs' seeds")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser
