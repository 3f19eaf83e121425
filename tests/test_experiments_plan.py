"""A sweep's plan, before anything runs: parameter sets, seeds, the function check, chunk
sizes and the table's rows.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from engine.experiments.chunking import ChunkSizes
from engine.experiments.grid import parameter_sets
from engine.experiments.plan import plan_runs, takes_seed
from engine.experiments.seeds import run_seed


def bounce(restitution, height, seed):
    return {}


# --------------------------------------------------------------------------- grid


def test_grid_is_the_cartesian_product_last_name_fastest():
    sets = parameter_sets({"e": np.linspace(0, 1, 3), "h": [1, 2]})
    assert sets == [
        {"e": 0.0, "h": 1},
        {"e": 0.0, "h": 2},
        {"e": 0.5, "h": 1},
        {"e": 0.5, "h": 2},
        {"e": 1.0, "h": 1},
        {"e": 1.0, "h": 2},
    ]
    # numpy scalars become plain Python ones (they are table cells and seed inputs)
    assert all(type(point["e"]) is float and type(point["h"]) is int for point in sets)


def test_a_lone_value_and_strings_count_as_one_value():
    assert parameter_sets({"broadphase": "grid", "n": 3}) == [{"broadphase": "grid", "n": 3}]


def test_an_explicit_list_is_taken_as_it_is():
    sets = [{"h": 2, "e": 0.5}, {"e": 0.1, "h": 1}]
    assert parameter_sets(sets) == sets
    assert parameter_sets([{}]) == [{}]  # one run without parameters


@pytest.mark.parametrize(
    "grid, error, message",
    [
        ({}, ValueError, "empty"),
        ([], ValueError, "empty"),
        ({"e": []}, ValueError, "'e' has no values"),
        ({"e": np.zeros((2, 2))}, ValueError, "1-D"),
        ({"e": [0.5, 0.5]}, ValueError, "repeats a value"),
        ([{"e": 1}, {"e": 1}], ValueError, "repeats an earlier"),
        ([{"e": 1}, {"h": 1}], ValueError, "same ones"),
        ({"seed": [1, 2]}, ValueError, "base_seed"),
        ({"error": [1]}, ValueError, "fills in itself"),
        ({"not a name": [1]}, ValueError, "identifiers"),
        ({"e": [float("nan")]}, ValueError, "non-finite"),
        ({"e": [[1, 2]]}, TypeError, "numbers, bools or strings"),
        ({"e": {1, 2}}, TypeError, "list of values"),
        ([3], TypeError, "not a dict"),
        ("e=1", TypeError, "dict of parameter values"),
    ],
)
def test_bad_grids_name_the_argument_and_the_problem(grid, error, message):
    with pytest.raises(error, match=f"^grid: .*{message}"):
        parameter_sets(grid)


def test_one_and_one_point_oh_and_true_are_different_values():
    assert len(parameter_sets({"x": [1, 1.0, True]})) == 3


# --------------------------------------------------------------------------- seeds


def test_every_run_has_its_own_seed_and_the_same_plan_the_same_seeds():
    runs = plan_runs({"e": np.linspace(0, 1, 11), "h": [1, 2, 4]}, repeats=3, base_seed=0)
    seeds = [run.seed for run in runs]
    assert len(runs) == 99 and len(set(seeds)) == 99
    assert all(0 <= seed < 2**63 for seed in seeds)
    again = plan_runs({"e": np.linspace(0, 1, 11), "h": [1, 2, 4]}, repeats=3, base_seed=0)
    assert [run.seed for run in again] == seeds
    other = plan_runs({"e": np.linspace(0, 1, 11), "h": [1, 2, 4]}, repeats=3, base_seed=1)
    assert not set(run.seed for run in other) & set(seeds)


def test_a_grid_point_keeps_its_seeds_when_the_grid_grows_or_is_reordered():
    small = plan_runs({"e": [0.5], "h": [2]}, repeats=2, base_seed=7)
    large = plan_runs({"h": [1, 2, 4], "e": [0.0, 0.5, 1.0]}, repeats=2, base_seed=7)
    by_point = {(run.parameters["e"], run.parameters["h"], run.repeat): run.seed for run in large}
    assert [by_point[(0.5, 2, run.repeat)] for run in small] == [run.seed for run in small]


def test_seeds_tell_value_types_apart():
    assert run_seed(0, {"x": 1}, 0) != run_seed(0, {"x": 1.0}, 0) != run_seed(0, {"x": True}, 0)


@pytest.mark.parametrize(
    "repeats, base_seed, error, argument",
    [
        (0, 0, ValueError, "repeats"),
        (1.5, 0, TypeError, "repeats"),
        (True, 0, TypeError, "repeats"),
        (1, -1, ValueError, "base_seed"),
        (1, 0.5, TypeError, "base_seed"),
    ],
)
def test_bad_repeats_and_base_seed(repeats, base_seed, error, argument):
    with pytest.raises(error, match=f"^{argument}:"):
        plan_runs({"e": [1]}, repeats, base_seed)


# --------------------------------------------------------------------------- the function


def test_the_seed_is_passed_when_the_function_takes_one():
    assert takes_seed(bounce, ["restitution", "height"]) is True
    assert takes_seed(lambda restitution, height: {}, ["restitution", "height"]) is False
    assert takes_seed(lambda **anything: {}, ["restitution", "height"]) is False


def test_a_parameter_the_function_does_not_take_is_refused():
    with pytest.raises(ValueError, match=r"^grid: bounce\(.*\) takes no parameter 'restitutio'"):
        takes_seed(bounce, ["restitutio", "height"])


def test_a_parameter_the_function_needs_and_the_grid_lacks_is_refused():
    with pytest.raises(ValueError, match="^grid: .* needs 'height'"):
        takes_seed(bounce, ["restitution"])
    # defaults and the seed need nothing from the grid
    assert takes_seed(lambda e, h=2, seed=0: {}, ["e"]) is True
    assert takes_seed(functools.partial(bounce, height=2), ["restitution"]) is True


def test_a_non_callable_is_refused():
    with pytest.raises(TypeError, match="^function: expected a callable, got int"):
        takes_seed(3, [])


# --------------------------------------------------------------------------- chunks


def test_chunks_grow_to_the_target_and_shrink_at_the_end():
    sizes = ChunkSizes(slots=2, target_seconds=0.2)
    assert sizes.next(remaining=1000) == 1  # nothing measured yet
    sizes.observe([0.002] * 10)
    assert sizes.next(remaining=10_000) == 100  # 0.2 s of 2 ms runs
    assert sizes.next(remaining=40) == 10  # two chunks per slot are left for the end
    assert sizes.next(remaining=1) == 1
    slow = ChunkSizes(slots=2, target_seconds=0.2)
    slow.observe([5.0])
    assert slow.next(remaining=1000) == 1  # never below one run
    instant = ChunkSizes(slots=1, target_seconds=0.2, largest=500)
    instant.observe([0.0])
    assert instant.next(remaining=10_000) == 500
