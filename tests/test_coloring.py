"""Tests of constraint colouring: every colour must be a conflict-free batch."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.coloring_bench import pyramid_graph
from engine.coloring import _hash32, batch_is_independent, color_batches, color_constraints

SETTINGS = settings(deadline=None, max_examples=150)


def brute_force_independent(body_a, body_b, movable, colors) -> bool:
    """Per colour, count each movable body over the colour's constraints: all counts <= 1."""
    counts: dict[int, Counter] = {}
    for a, b, color in zip(body_a.tolist(), body_b.tolist(), colors.tolist()):
        counter = counts.setdefault(color, Counter())
        for body in {a, b}:
            if movable[body]:
                counter[body] += 1
    return all(count <= 1 for counter in counts.values() for count in counter.values())


def brute_force_first_fit(body_a, body_b, movable, colors) -> bool:
    """Each colour is maximal: a constraint of colour k meets every colour below k."""
    used: dict[int, set] = {}
    for a, b, color in zip(body_a.tolist(), body_b.tolist(), colors.tolist()):
        used.setdefault(color, set()).update(body for body in (a, b) if movable[body])
    for a, b, color in zip(body_a.tolist(), body_b.tolist(), colors.tolist()):
        ends = {body for body in (a, b) if movable[body]}
        if any(not ends & used[below] for below in range(color)):
            return False
    return True


def max_movable_degree(body_a, body_b, movable) -> int:
    """Largest number of constraints at one movable body (0 when there is none)."""
    degree = Counter()
    for a, b in zip(body_a.tolist(), body_b.tolist()):
        for body in {a, b}:
            if movable[body]:
                degree[body] += 1
    return max(degree.values(), default=0)


def check_coloring(body_a, body_b, movable, colors) -> int:
    """Assert every property of a valid colouring; return the number of colours."""
    m = body_a.size
    assert colors.shape == (m,)
    assert colors.dtype == np.int64
    count = int(colors.max()) + 1 if m else 0
    # Every constraint coloured, colours contiguous 0..C-1.
    assert set(colors.tolist()) == set(range(count))
    assert brute_force_independent(body_a, body_b, movable, colors)
    assert brute_force_first_fit(body_a, body_b, movable, colors)
    degree = max_movable_degree(body_a, body_b, movable)
    # Proven bound (see engine.coloring): each colour is a maximal independent set, so a
    # constraint's colour is at most the number of constraints it conflicts with,
    # <= 2 * (D - 1); hence C <= 2D - 1. Any valid colouring needs at least D colours.
    if m:
        assert degree <= count <= max(1, 2 * degree - 1)
    return count


@st.composite
def multigraphs(draw):
    """Random contact multigraphs: skewed degrees, duplicate pairs, random movable mask."""
    n = draw(st.integers(2, 200))
    m = draw(st.integers(0, 600))
    seed = draw(st.integers(0, 2**32 - 1))
    movable_share = draw(st.sampled_from([0.0, 0.3, 0.7, 0.95, 1.0]))
    skew = draw(st.sampled_from([0.0, 1.0, 2.0]))
    duplicate_share = draw(st.sampled_from([0.0, 0.1, 0.5]))
    rng = np.random.default_rng(seed)
    # Zipf-like body weights make hubs, so high degrees and long conflict chains occur.
    weight = 1.0 / np.arange(1, n + 1) ** skew
    weight = rng.permutation(weight / weight.sum())
    body_a = rng.choice(n, size=m, p=weight)
    body_b = (body_a + rng.integers(1, n, size=m)) % n  # never a self-loop
    # Duplicates: copies of earlier constraints, in either orientation.
    copy = np.flatnonzero(rng.random(m) < duplicate_share)
    copy = copy[copy > 0]
    source = rng.integers(0, copy, size=copy.size) if copy.size else copy
    flip = rng.random(copy.size) < 0.5
    body_a[copy], body_b[copy] = (
        np.where(flip, body_b[source], body_a[source]),
        np.where(flip, body_a[source], body_b[source]),
    )
    movable = rng.random(n) < movable_share
    return body_a.astype(np.int64), body_b.astype(np.int64), movable


@SETTINGS
@given(multigraphs())
def test_random_multigraphs_are_coloured_validly(graph):
    body_a, body_b, movable = graph
    colors = color_constraints(body_a, body_b, movable)
    count = check_coloring(body_a, body_b, movable, colors)
    batches = color_batches(colors)
    assert len(batches) == count
    assert all(batch_is_independent(body_a, body_b, movable, batch) for batch in batches)
    # Deterministic, and independent of the integer dtype and container of the input.
    again = color_constraints(body_a.astype(np.int32), body_b.tolist(), movable.tolist())
    np.testing.assert_array_equal(colors, again)


@SETTINGS
@given(
    st.integers(2, 8).flatmap(
        lambda n: st.tuples(
            st.lists(
                st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(
                    lambda pair: pair[0] != pair[1]
                ),
                max_size=40,
            ),
            st.lists(st.booleans(), min_size=n, max_size=n),
        )
    )
)
def test_small_multigraphs_shrinkable(graph):
    # Few bodies and many constraints: duplicates and dense conflicts, with clean shrinking.
    pairs, movable = graph
    body_a = np.array([a for a, _ in pairs], dtype=np.int64)
    body_b = np.array([b for _, b in pairs], dtype=np.int64)
    movable = np.array(movable, dtype=bool)
    check_coloring(body_a, body_b, movable, color_constraints(body_a, body_b, movable))


@pytest.mark.parametrize("rows", [1, 2, 3, 5, 20, 60])
def test_pyramid_uses_few_colours_over_max_degree(rows):
    body_a, body_b, movable = pyramid_graph(rows)
    colors = color_constraints(body_a, body_b, movable)
    count = check_coloring(body_a, body_b, movable, colors)
    degree = max_movable_degree(body_a, body_b, movable)
    assert count <= degree + 2


def test_pyramid_graph_shape():
    # Guards the generator: 100 rows ~ 5,000 boxes and ~15,000 contacts, interior degree 6.
    body_a, body_b, movable = pyramid_graph(100)
    assert movable.size == 1 + 5050
    assert body_a.size == 99 * 100 // 2 + 100 + 2 * (5050 - 100)
    assert max_movable_degree(body_a, body_b, movable) == 6


def test_large_graphs_pack_many_constraints_per_colour():
    """Large graphs: colours stay few, so each colour is a big batch.

    A regression to one winner per round, or static bodies wrongly treated as shared, shows
    here as thousands of colours rather than a handful (speed itself is for make bench).
    """
    m = 50_000
    star_on_ground = (np.arange(1, m + 1), np.zeros(m, dtype=np.int64), np.arange(m + 1) > 0)
    for (body_a, body_b, movable), most in ((pyramid_graph(100), 6 + 2), (star_on_ground, 1)):
        colors = color_constraints(body_a, body_b, movable)
        assert colors.max() + 1 <= most
        assert all(batch_is_independent(body_a, body_b, movable, b) for b in color_batches(colors))


def test_priority_hash_is_a_bijection():
    # Unique priorities are what make two winners of one round never share a body.
    # Consecutive indices (the real input) and a wide stride that reaches the top bits.
    values = np.sort(np.concatenate([np.arange(1 << 20), np.arange(1 << 20) * 4093]))
    values = values[np.diff(values, prepend=-1) > 0].astype(np.uint32)
    hashed = np.sort(_hash32(values))
    assert (np.diff(hashed) > 0).all()
    assert hashed[0] >= 0 and hashed[-1] < 1 << 32


def test_no_constraints():
    empty = np.zeros(0, dtype=np.int64)
    colors = color_constraints(empty, empty, np.ones(3, dtype=bool))
    assert colors.shape == (0,) and colors.dtype == np.int64
    assert color_batches(colors) == []
    assert color_constraints(empty, empty, np.zeros(0, dtype=bool)).shape == (0,)
    assert batch_is_independent(empty, empty, np.ones(3, dtype=bool), empty)


def test_all_static_bodies_share_colour_zero():
    body_a = np.array([0, 0, 1, 2, 0])
    body_b = np.array([1, 2, 2, 3, 1])
    colors = color_constraints(body_a, body_b, np.zeros(4, dtype=bool))
    np.testing.assert_array_equal(colors, np.zeros(5, dtype=np.int64))


@pytest.mark.parametrize("leaves_movable", [True, False])
def test_star_on_movable_hub_needs_one_colour_per_constraint(leaves_movable):
    m = 25
    body_a = np.zeros(m, dtype=np.int64)
    body_b = np.arange(1, m + 1)
    movable = np.full(m + 1, leaves_movable)
    movable[0] = True
    colors = color_constraints(body_a, body_b, movable)
    np.testing.assert_array_equal(np.sort(colors), np.arange(m))


def test_star_on_static_hub_needs_one_colour():
    m = 25
    body_a = np.arange(1, m + 1)
    body_b = np.zeros(m, dtype=np.int64)
    movable = np.ones(m + 1, dtype=bool)
    movable[0] = False
    np.testing.assert_array_equal(color_constraints(body_a, body_b, movable), np.zeros(m))


def test_duplicate_pairs_get_distinct_colours():
    body_a = np.array([0, 1, 0, 1, 2, 3])
    body_b = np.array([1, 0, 1, 0, 3, 2])
    movable = np.array([True, False, False, False])
    colors = color_constraints(body_a, body_b, movable)
    # Four constraints on the pair (0, 1) with 0 movable; the (2, 3) pair is static-only.
    assert sorted(colors[:4].tolist()) == [0, 1, 2, 3]
    assert colors.max() == 3


@SETTINGS
@given(multigraphs(), st.integers(1, 12))
def test_max_colors_overflow(graph, max_colors):
    body_a, body_b, movable = graph
    free = color_constraints(body_a, body_b, movable)
    capped = color_constraints(body_a, body_b, movable, max_colors=max_colors)
    # Colours below the cap are built exactly as without it; the rest go to the last one.
    np.testing.assert_array_equal(capped, np.minimum(free, max_colors - 1))
    batches = color_batches(capped)
    assert len(batches) == min(max_colors, len(color_batches(free)))
    for batch in batches[:-1]:
        assert batch_is_independent(body_a, body_b, movable, batch)


def test_overflow_colour_may_share_bodies():
    m = 10
    body_a = np.zeros(m, dtype=np.int64)
    body_b = np.arange(1, m + 1)
    movable = np.ones(m + 1, dtype=bool)
    colors = color_constraints(body_a, body_b, movable, max_colors=3)
    batches = color_batches(colors)
    assert [batch.size for batch in batches] == [1, 1, m - 2]
    assert batch_is_independent(body_a, body_b, movable, batches[0])
    assert not batch_is_independent(body_a, body_b, movable, batches[2])
    np.testing.assert_array_equal(
        color_constraints(body_a, body_b, movable, max_colors=1), np.zeros(m)
    )
    with pytest.raises(ValueError, match="^max_colors"):
        color_constraints(body_a, body_b, movable, max_colors=0)


def test_color_batches_are_stable_and_in_colour_order():
    colors = np.array([2, 0, 1, 0, 2, 2, 1, 0])
    batches = color_batches(colors)
    assert [batch.tolist() for batch in batches] == [[1, 3, 7], [2, 6], [0, 4, 5]]
    assert all(batch.dtype == np.int64 for batch in batches)
    with pytest.raises(ValueError, match="^colors"):
        color_batches(np.array([0, -1]))


def test_batch_is_independent():
    body_a = np.array([0, 2, 0, 3, 4])
    body_b = np.array([1, 1, 3, 3, 1])
    movable = np.array([True, False, True, True, True])
    assert batch_is_independent(body_a, body_b, movable, np.array([0, 1]))  # share static 1
    assert not batch_is_independent(body_a, body_b, movable, np.array([0, 2]))  # share 0
    assert batch_is_independent(body_a, body_b, movable, np.array([3]))  # self-loop: once
    assert not batch_is_independent(body_a, body_b, movable, np.array([2, 3]))  # share 3
    assert not batch_is_independent(body_a, body_b, movable, np.array([4, 4]))  # repeated


def test_bad_inputs_are_refused():
    movable = np.ones(3, dtype=bool)
    with pytest.raises(ValueError, match="^body_b"):
        color_constraints([0, 1], [1], movable)
    with pytest.raises(ValueError, match="^body_b"):
        color_constraints([0, 1], [1, 3], movable)
    with pytest.raises(ValueError, match="^body_a"):
        color_constraints([-1], [1], movable)
    with pytest.raises(ValueError, match="^body_a"):
        color_constraints([[0, 1]], [[1, 2]], movable)
