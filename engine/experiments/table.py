"""The sweep's table: one row per run, in plan order, whoever ran it and whenever.

Columns: the parameters (in grid order), ``repeat``, ``seed``, the values the function
returned (in the order first met), ``wall_time`` (s, the function's own time) and
``error`` (None, or the exception as "Type: message"). A value missing from some rows
(their runs failed) is NaN, or <NA> in an integer column: integers stay exact (pandas'
Int64) rather than turning into floats.
"""

from __future__ import annotations

from .plan import Run
from .worker import Outcome

LAST = ("wall_time", "error")


def record_of(run: Run, outcome: Outcome) -> dict:
    """The table row of one finished run."""
    return {
        **run.parameters,
        "repeat": run.repeat,
        "seed": run.seed,
        **outcome.values,
        "wall_time": outcome.wall_time,
        "error": outcome.error,
    }


def assemble(pandas, runs: list[Run], records: list[dict]):
    """DataFrame of the ``runs``' records, in the order of ``runs`` (records of other
    runs are left out; a run with two records keeps the first)."""
    by_seed = {}
    for record in records:
        by_seed.setdefault(record["seed"], record)
    rows = [by_seed[run.seed] for run in runs if run.seed in by_seed]
    return frame(pandas, rows, list(runs[0].parameters) if runs else [])


def frame(pandas, rows: list[dict], parameters: list[str]):
    """DataFrame of the records ``rows`` as they are, columns in table order."""
    names = dict.fromkeys([*parameters, "repeat", "seed"])  # an ordered set
    for row in rows:
        names.update(dict.fromkeys(row))
    names = [name for name in names if name not in LAST] + list(LAST)
    columns = {name: _column(pandas, name, [row.get(name) for row in rows]) for name in names}
    return pandas.DataFrame(columns, columns=names, index=pandas.RangeIndex(len(rows)))


def _column(pandas, name: str, values: list):
    """``values`` (None where missing) as a column: integers with gaps as Int64, the rest
    as pandas infers (floats with gaps as float64 with NaN, arrays as objects); the error
    column as objects, None for "no error"."""
    if name == "error":
        return pandas.Series(values, dtype=object)
    if any(value is None for value in values):
        present = [value for value in values if value is not None]
        if present and all(type(value) is int for value in present):
            return pandas.array(values, dtype="Int64")
    return pandas.Series(values)
