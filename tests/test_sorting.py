"""The compiled stable sort of non-negative int64 keys (``engine.sorting``), against numpy's."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from engine.sorting import argsort_keys, median

keys = st.lists(st.integers(min_value=0, max_value=2**62), max_size=300)


@given(keys, st.sampled_from(["as drawn", "sorted", "reversed"]), st.integers(1, 4))
def test_argsort_keys_is_numpys_stable_argsort(values, arrangement, repeat):
    # Repeats make ties, whose order a stable sort keeps; sorted input takes the shortcut.
    array = np.repeat(np.array(values, dtype=np.int64), repeat)
    if arrangement == "sorted":
        array = np.sort(array)
    elif arrangement == "reversed":
        array = np.sort(array)[::-1].copy()
    np.testing.assert_array_equal(argsort_keys(array), np.argsort(array, kind="stable"))


def test_sorted_keys_keep_their_positions():
    array = np.array([0, 3, 3, 7, 2**40], dtype=np.int64)
    np.testing.assert_array_equal(argsort_keys(array), np.arange(5))


finite = st.floats(allow_nan=False, allow_infinity=False, width=64)


@given(st.lists(finite, min_size=1, max_size=300), st.integers(1, 3))
def test_median_is_numpys(values, repeat):
    # Repeats make ties; signed zeros and negatives exercise the float keys' order.
    array = np.repeat(np.array(values, dtype=np.float64), repeat)
    with np.errstate(over="ignore"):  # the middle two of huge values sum past the range
        expected = np.median(array)
    assert median(array) == expected
