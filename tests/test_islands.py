"""Connected components on arrays against a breadth-first search written here."""

from __future__ import annotations

from collections import deque

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.islands import components


def reference(count, edges):
    neighbours = [[] for _ in range(count)]
    for a, b in edges:
        neighbours[a].append(b)
        neighbours[b].append(a)
    label = [-1] * count
    for start in range(count):
        if label[start] >= 0:
            continue
        queue = deque([start])
        label[start] = start
        while queue:
            node = queue.popleft()
            for other in neighbours[node]:
                if label[other] < 0:
                    label[other] = start
                    queue.append(other)
    return np.array(label)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 60).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=120),
        )
    )
)
def test_components_match_breadth_first_search(case):
    count, edges = case
    a = np.array([e[0] for e in edges], dtype=np.int64)
    b = np.array([e[1] for e in edges], dtype=np.int64)
    np.testing.assert_array_equal(components(count, a, b), reference(count, edges))


def test_a_long_chain_is_one_island():
    n = 5000
    a = np.arange(n - 1)[::-1].copy()
    b = a + 1
    assert np.all(components(n, a, b) == 0)


def test_no_edges_leaves_every_node_alone():
    np.testing.assert_array_equal(components(4, np.zeros(0, int), np.zeros(0, int)), np.arange(4))
