"""Parameter sets of a sweep: the cartesian product of a grid, or an explicit list.

A grid maps each parameter name to its values (a list, tuple, range or 1-D array; a lone
number or string is one value). Its parameter sets are the cartesian product in the order
given, the last parameter changing fastest, as ``itertools.product`` orders them. An
explicit list of dicts is taken as it is. Values must be numbers, bools or strings:
they become table columns and go into each run's seed.

>>> parameter_sets({"e": [0.5, 1.0], "h": [1, 2]})
[{'e': 0.5, 'h': 1}, {'e': 0.5, 'h': 2}, {'e': 1.0, 'h': 1}, {'e': 1.0, 'h': 2}]
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Mapping

import numpy as np

# Columns every sweep table has; a parameter may not take one of these names.
RESERVED = ("repeat", "seed", "wall_time", "error")


def parameter_sets(grid) -> list[dict]:
    """The parameter sets of ``grid`` (a dict name -> values, or a list of dicts), each a
    dict of plain Python scalars. Raises ValueError for an empty grid, a parameter without
    values, duplicate sets or a reserved name; TypeError for values of the wrong kind."""
    if isinstance(grid, Mapping):
        return _product(grid)
    if isinstance(grid, (list, tuple)):
        return _explicit(grid)
    raise TypeError(
        f"grid: expected a dict of parameter values or a list of parameter dicts, "
        f"got {type(grid).__name__}"
    )


def _product(grid: Mapping) -> list[dict]:
    if not grid:
        raise ValueError("grid: it is empty; give each parameter its values")
    names = [_check_name(name) for name in grid]
    columns = []
    for name in names:
        values = _values(grid[name], name)
        if not values:
            raise ValueError(f"grid: parameter {name!r} has no values")
        if len(set(map(_identity, values))) != len(values):
            raise ValueError(f"grid: parameter {name!r} repeats a value; use repeats= instead")
        columns.append(values)
    return [dict(zip(names, point)) for point in itertools.product(*columns)]


def _explicit(sets) -> list[dict]:
    if not sets:
        raise ValueError("grid: the list of parameter sets is empty")
    result, seen = [], set()
    for i, entry in enumerate(sets):
        if not isinstance(entry, Mapping):
            raise TypeError(f"grid: entry {i} is a {type(entry).__name__}, not a dict")
        names = [_check_name(name) for name in entry]
        if result and sorted(names) != sorted(result[0]):
            raise ValueError(
                f"grid: entry {i} has parameters {sorted(names)}, entry 0 has "
                f"{sorted(result[0])}; every entry needs the same ones"
            )
        point = {name: _scalar(entry[name], name) for name in names}
        key = _identity(tuple(sorted(point.items())))
        if key in seen:
            raise ValueError(f"grid: entry {i} repeats an earlier entry; use repeats= instead")
        seen.add(key)
        result.append(point)
    return result


def _check_name(name) -> str:
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"grid: parameter names must be identifiers, got {name!r}")
    if name in RESERVED:
        raise ValueError(
            f"grid: {name!r} is a column sweep fills in itself"
            + ("; the base of the seeds is sweep's base_seed=" if name == "seed" else "")
        )
    return name


def _values(values, name: str) -> list:
    if isinstance(values, (str, bytes, numbers.Number, np.generic)):
        return [_scalar(values, name)]
    if isinstance(values, np.ndarray):
        if values.ndim != 1:
            raise ValueError(f"grid: parameter {name!r} needs a 1-D array, got {values.shape}")
        values = values.tolist()
    if not isinstance(values, (list, tuple, range)):
        raise TypeError(
            f"grid: parameter {name!r} needs a list of values, got {type(values).__name__}"
        )
    return [_scalar(value, name) for value in values]


def _scalar(value, name: str):
    """``value`` as a plain bool, int, float or str."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        value = float(value)
        if not math.isfinite(value):
            raise ValueError(f"grid: parameter {name!r} has a non-finite value {value}")
        return value
    raise TypeError(
        f"grid: parameter {name!r} values must be numbers, bools or strings, "
        f"got {type(value).__name__}"
    )


def _identity(value):
    """A hashable key that tells 1, 1.0 and True apart (Python's == does not)."""
    if isinstance(value, tuple):
        return tuple(_identity(item) for item in value)
    return (type(value).__name__, value)
