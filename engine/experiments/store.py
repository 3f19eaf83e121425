"""The results file of a sweep (``out=``): Parquet or CSV, written as runs finish, read
back to resume.

Each write replaces the whole file atomically (a temporary file beside it, then
``os.replace``), so the file on disk is always complete and readable by plain pandas,
whatever moment the sweep is stopped at. Rewriting costs time in proportion to the rows,
so writes are spaced out: at least ``MIN_INTERVAL`` seconds apart and at least
``COST_FACTOR`` times as long as the last write took, which keeps writing under about
5 % of the time; the last rows are written when the sweep ends or is interrupted.
A run killed without warning (power cut, ``kill -9``) loses at most the runs finished
since the last write, and a sweep started again with the same ``out`` reruns them.

Rows are matched to runs by their ``seed`` column (see ``seeds``); rows of runs not in the
current plan are kept in the file but left out of the returned table.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np

from .extras import require
from .table import frame

FORMATS = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv"}
MIN_INTERVAL = 1.0  # s between writes
COST_FACTOR = 20  # at least this many times the last write's duration between writes


class InMemory:
    """Where the records go without ``out=``: a list, nothing written."""

    path = None

    def __init__(self):
        self.rows = []

    def add(self, rows: list[dict]) -> None:
        """Keep ``rows``."""
        self.rows.extend(rows)

    def write(self) -> None:
        """Nothing to write."""


class ResultsFile:
    """The results at ``path``, with the parameter columns ``parameters``.

    ``rows``: the records already in the file (list of dicts), read on opening. Raises
    ValueError when the path has another suffix, its folder is missing, or the file holds
    something else than a sweep over the same parameters.
    """

    def __init__(self, path, parameters: list[str]):
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"out: expected a path, got {type(path).__name__}")
        self.path = Path(path)
        self.format = FORMATS.get(self.path.suffix.lower())
        if self.format is None:
            raise ValueError(f"out: must end in .parquet, .pq or .csv, got {self.path.name!r}")
        if not self.path.parent.is_dir():
            raise ValueError(f"out: folder {str(self.path.parent)!r} does not exist")
        self._pandas = require("pandas", "writing sweep results")
        if self.format == "parquet":
            require("pyarrow", "writing sweep results to Parquet")
        self._parameters = parameters
        self.rows = self._read(parameters) if self.path.exists() else []
        self._written = len(self.rows)
        self._last_write = time.monotonic()
        self._last_cost = 0.0

    def add(self, rows: list[dict]) -> None:
        """Keep ``rows`` and write them when it is time to (see the module notes)."""
        self.rows.extend(rows)
        wait = max(MIN_INTERVAL, COST_FACTOR * self._last_cost)
        if time.monotonic() - self._last_write >= wait:
            self.write()

    def write(self) -> None:
        """Write every row now (nothing to do when nothing is new)."""
        if len(self.rows) == self._written:
            return
        start = time.monotonic()
        table = frame(self._pandas, self.rows, self._parameters)
        temporary = self.path.with_name(self.path.name + ".partial")
        if self.format == "parquet":
            table.to_parquet(temporary, index=False)
        else:
            table.to_csv(temporary, index=False)
        os.replace(temporary, self.path)
        self._written = len(self.rows)
        self._last_write = time.monotonic()
        self._last_cost = self._last_write - start

    def _read(self, parameters: list[str]) -> list[dict]:
        pandas = self._pandas
        try:
            # Nullable dtypes: an integer column with gaps stays integers (no float64
            # rounding of large values such as seeds).
            if self.format == "parquet":
                table = pandas.read_parquet(self.path, dtype_backend="numpy_nullable")
            else:
                table = pandas.read_csv(
                    self.path, dtype_backend="numpy_nullable", **_exact_floats(pandas)
                )
        except Exception as error:
            raise ValueError(f"out: cannot read {str(self.path)!r} to resume: {error}") from None
        if len(table) == 0 and len(table.columns) == 0:
            return []
        own = ("repeat", "seed", "wall_time", "error")
        missing = [column for column in (*parameters, *own) if column not in table.columns]
        if missing:
            raise ValueError(
                f"out: {str(self.path)!r} is not the results of a sweep over "
                f"{', '.join(parameters)} (no column {', '.join(missing)}); "
                "choose another file or remove it"
            )
        return [
            {name: _plain(pandas, value) for name, value in record.items()}
            for record in table.to_dict("records")
        ]


def _exact_floats(pandas) -> dict:
    """read_csv options that give back the float64 bits that were written: pandas before
    3.0 parses floats to a near neighbour unless asked for "round_trip" (3.0 parses them
    exactly and deprecates the option)."""
    return {"float_precision": "round_trip"} if int(pandas.__version__.split(".")[0]) < 3 else {}


def _plain(pandas, value):
    """A cell as the runs gave it: None for missing, Python scalars for numpy's."""
    if value is pandas.NA:
        return None
    return value.item() if isinstance(value, np.generic) else value
