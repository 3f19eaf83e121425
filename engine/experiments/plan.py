"""The runs of a sweep: every parameter set, repeated, each with its own seed; and the
check that the experiment function can take them.

Everything here happens before anything runs, so bad input fails at once and leaves no
results file behind.
"""

from __future__ import annotations

import inspect
from typing import NamedTuple

from .grid import parameter_sets
from .seeds import run_seed


class Run(NamedTuple):
    """One call of the experiment function: its ``parameters``, ``repeat`` index and
    ``seed`` (which also names the run in the results)."""

    parameters: dict
    repeat: int
    seed: int


def plan_runs(grid, repeats: int, base_seed: int) -> list[Run]:
    """Every run of a sweep, in table order: each parameter set of ``grid`` (see
    ``grid.parameter_sets``), then its ``repeats`` repeats."""
    if isinstance(repeats, bool) or not isinstance(repeats, int):
        raise TypeError(f"repeats: expected an int, got {type(repeats).__name__}")
    if repeats < 1:
        raise ValueError(f"repeats: must be >= 1, got {repeats}")
    if isinstance(base_seed, bool) or not isinstance(base_seed, int):
        raise TypeError(f"base_seed: expected an int, got {type(base_seed).__name__}")
    if base_seed < 0:
        raise ValueError(f"base_seed: must be >= 0, got {base_seed}")
    return [
        Run(parameters, repeat, run_seed(base_seed, parameters, repeat))
        for parameters in parameter_sets(grid)
        for repeat in range(repeats)
    ]


def takes_seed(function, names) -> bool:
    """Check that ``function`` can be called with the parameters ``names`` as keywords;
    return whether it takes a ``seed`` keyword too.

    Raises TypeError for a non-callable, ValueError for a parameter the function does not
    take or one it needs that the grid does not give.
    """
    if not callable(function):
        raise TypeError(f"function: expected a callable, got {type(function).__name__}")
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return False  # no signature to check (some builtins): call it and see
    accepted = {
        name: parameter
        for name, parameter in signature.parameters.items()
        if parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY)
    }
    open_ended = any(p.kind == p.VAR_KEYWORD for p in signature.parameters.values())
    title = f"{getattr(function, '__name__', 'function')}{signature}"
    unknown = [name for name in names if name not in accepted and not open_ended]
    if unknown:
        raise ValueError(f"grid: {title} takes no parameter {', '.join(map(repr, unknown))}")
    missing = [
        name
        for name, parameter in accepted.items()
        if parameter.default is parameter.empty and name not in names and name != "seed"
    ]
    missing += [
        name
        for name, parameter in signature.parameters.items()
        if parameter.kind == parameter.POSITIONAL_ONLY and parameter.default is parameter.empty
    ]
    if missing:
        raise ValueError(
            f"grid: {title} needs {', '.join(map(repr, missing))}, which the grid does not give"
        )
    return "seed" in accepted
