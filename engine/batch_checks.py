"""Checks of the arrays written into a ``WorldBatch``: the rules a handle's write follows,
over many values at once, with the handle's messages (``engine.validation``).

A check raises before anything is written, so a refused write leaves the batch as it was.
"""

from __future__ import annotations

import numbers

import numpy as np

from .validation import check_bound


def real_array(value, argument: str, shape: tuple, infinity: float | None = None) -> np.ndarray:
    """``value`` as a float64 array broadcast to ``shape``: TypeError for bools or
    anything that is not numbers, ValueError for a shape that does not broadcast or a
    value that is not finite (``infinity``, +inf or -inf, is allowed where it means
    something: a missing limit)."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{argument}: expected real numbers, got {type(value).__name__}")
    try:
        array = np.asarray(value)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{argument}: expected real numbers ({error})") from None
    if array.dtype == np.bool_ or not (
        np.issubdtype(array.dtype, np.integer) or np.issubdtype(array.dtype, np.floating)
    ):
        raise TypeError(f"{argument}: expected real numbers, got an array of {array.dtype}")
    try:
        array = np.broadcast_to(array.astype(np.float64), shape)
    except ValueError:
        raise ValueError(
            f"{argument}: expected values of shape {shape} (or one that broadcasts to it), "
            f"got {np.shape(value)}"
        ) from None
    wrong = ~np.isfinite(array)
    if infinity is not None:
        wrong &= array != infinity
    if wrong.any():
        allowed = "" if infinity is None else f" or {infinity} (none)"
        raise ValueError(f"{argument}: must be finite{allowed}, got {array[wrong][0]}")
    return array


def bool_array(value, argument: str, shape: tuple) -> np.ndarray:
    """``value`` as a bool array broadcast to ``shape``: TypeError for anything but bools
    (a handle's ``awake`` takes only True or False)."""
    array = np.asarray(value)
    if array.dtype != np.bool_:
        kind = type(value).__name__ if array.ndim == 0 else f"an array of {array.dtype}"
        raise TypeError(f"{argument}: expected bools, got {kind}")
    try:
        return np.broadcast_to(array, shape)
    except ValueError:
        raise ValueError(
            f"{argument}: expected values of shape {shape} (or one that broadcasts to it), "
            f"got {array.shape}"
        ) from None


def check_lengths(vectors: np.ndarray, argument: str, limit: float, unit: str) -> None:
    """ValueError unless every (..., 2) vector's length is within ``limit``, naming the
    longest, as ``engine.validation.as_bounded_vector`` does for one."""
    if vectors.size == 0:
        return
    lengths = np.hypot(vectors[..., 0], vectors[..., 1])
    longest = float(lengths.max())
    if not longest <= limit:
        check_bound(longest, argument, limit, unit)


def check_sizes(values: np.ndarray, argument: str, limit: float, unit: str) -> None:
    """ValueError unless every value's magnitude is within ``limit``, naming the largest."""
    if values.size == 0:
        return
    largest = float(np.abs(values).max())
    if not largest <= limit:
        check_bound(largest, argument, limit, unit)


def copy_count(value) -> int:
    """``copies`` as a positive int: TypeError for a non-integer, ValueError below one."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"copies: expected an int, got {type(value).__name__}")
    if value < 1:
        raise ValueError(f"copies: must be at least 1, got {value}")
    return int(value)
