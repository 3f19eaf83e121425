"""Argument checks shared by the public API: each names the argument and the problem."""

from __future__ import annotations

import math
import numbers

import numpy as np

FLOAT64 = np.dtype(np.float64)
# The fast paths take a vector whose length is clearly inside its limit; one within this
# share of it (or past it) goes the full way, so that every bound is judged exactly as the
# full check judges it (numpy's hypot, which may differ from math's in the last bit).
_CLEAR_OF_LIMIT = 1.0 - 1e-9


def as_finite_float(value, argument: str) -> float:
    """A real number that is finite, as a Python float.

    Raises TypeError for a non-number (bools are refused: ``True`` as a radius is a bug),
    ValueError for NaN or infinity.
    """
    if type(value) is float and math.isfinite(value):
        return value  # the usual case, checked in a few nanoseconds
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{argument}: expected a real number, got {type(value).__name__}")
    try:
        result = float(value)
    except OverflowError:
        raise ValueError(
            f"{argument}: must be finite, got a number too large for float64"
        ) from None
    if not math.isfinite(result):
        raise ValueError(f"{argument}: must be finite, got {result}")
    return result


def as_positive_float(value, argument: str) -> float:
    """A finite real number > 0, as a Python float."""
    result = as_finite_float(value, argument)
    if result <= 0.0:
        raise ValueError(f"{argument}: must be > 0, got {result}")
    return result


def as_finite_array(value, shape: tuple, argument: str) -> np.ndarray:
    """A float64 array of the given shape whose entries are all finite.

    ``shape`` may hold -1 for "any length". Raises TypeError when the value is not numeric
    (strings, None, objects), ValueError for a wrong shape or a NaN/infinite entry.
    """
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(f"{argument}: expected numbers, got {type(value).__name__}")
    _require_real_numbers(value, argument)
    try:
        array = np.asarray(value, dtype=np.float64)
    except OverflowError:
        raise ValueError(
            f"{argument}: must be finite (a number is too large for float64)"
        ) from None
    except (TypeError, ValueError) as error:
        # Ragged nesting is a shape problem; anything else is the wrong kind of object.
        if isinstance(error, ValueError) and "inhomogeneous" in str(error):
            raise ValueError(
                f"{argument}: expected an array of shape {_shape_text(shape)}, "
                "got ragged nested sequences"
            ) from None
        raise TypeError(f"{argument}: expected numbers, got {type(value).__name__}") from None
    if array.ndim != len(shape) or any(
        want != -1 and have != want for want, have in zip(shape, array.shape)
    ):
        raise ValueError(
            f"{argument}: expected an array of shape {_shape_text(shape)}, got {array.shape}"
        )
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{argument}: must be finite (found NaN or infinity)")
    return array


def _require_real_numbers(value, argument: str) -> None:
    """TypeError unless every entry of ``value`` is a real number, as ``as_finite_float``
    takes them: no strings, no bools, no complex numbers (numpy would convert them)."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "iuf":
            return
        if value.dtype.kind != "O":
            raise TypeError(f"{argument}: expected real numbers, got an array of {value.dtype}")
    try:
        probe = np.asarray(value, dtype=object)
    except ValueError:
        return  # ragged: the conversion that follows reports the shape
    for entry in probe.reshape(-1).tolist():
        if isinstance(entry, (bool, np.bool_)) or not isinstance(entry, numbers.Real):
            raise TypeError(f"{argument}: expected real numbers, got {type(entry).__name__}")


def as_vector(value, argument: str) -> np.ndarray:
    """A finite (2,) float64 vector."""
    return as_finite_array(value, (2,), argument)


def as_bounded_vector(value, argument: str, limit: float, unit: str) -> np.ndarray:
    """A finite (2,) float64 vector whose length is at most ``limit`` (in ``unit``)."""
    vector = as_vector(value, argument)
    check_bound(float(np.hypot(vector[0], vector[1])), argument, limit, unit)
    return vector


def bounded_components(value, argument: str, limit: float, unit: str) -> tuple[float, float]:
    """``as_bounded_vector`` as two Python floats (x, y): the same checks and messages.

    A pair of floats or ints, or a (2,) float64 array, clearly inside the limit is taken
    at once; anything else (other types, non-finite entries, a length near or past the
    limit) goes through ``as_bounded_vector``.
    """
    kind = type(value)
    if kind is tuple or kind is list:
        try:
            x, y = value
        except ValueError:
            pass  # not two entries: the full check says what is wrong
        else:
            plain = type(x) is float and type(y) is float
            if not plain:
                x, y = _plain_floats(x, y)
            if math.hypot(x, y) < limit * _CLEAR_OF_LIMIT:  # False for NaN and infinity
                return value if plain and kind is tuple else (x, y)
    elif kind is np.ndarray and value.dtype is FLOAT64 and value.shape == (2,):
        x, y = value.tolist()
        if math.hypot(x, y) < limit * _CLEAR_OF_LIMIT:
            return x, y
    x, y = as_bounded_vector(value, argument, limit, unit).tolist()
    return x, y


def _plain_floats(x, y) -> tuple[float, float]:
    """Two ints or floats as floats; (nan, nan), sent on to the full check, for anything
    else (a bool, a numpy number, an int past float64)."""
    if type(x) in _PLAIN_NUMBERS and type(y) in _PLAIN_NUMBERS:
        try:
            return float(x), float(y)
        except OverflowError:
            pass
    return math.nan, math.nan


_PLAIN_NUMBERS = (float, int)  # exactly these types: a bool is not a number here


def clear_of(limit: float) -> float:
    """The length below which a vector is clearly within ``limit``: ``math.hypot`` below
    it, numpy's hypot is within too. A length at or past it (or NaN) is for
    ``check_bound`` of numpy's hypot to judge."""
    return limit * _CLEAR_OF_LIMIT


def as_bounded_float(value, argument: str, limit: float, unit: str) -> float:
    """A finite real number whose magnitude is at most ``limit`` (in ``unit``)."""
    result = as_finite_float(value, argument)
    if not abs(result) <= limit:
        check_bound(abs(result), argument, limit, unit)
    return result


def check_bound(size: float, argument: str, limit: float, unit: str) -> None:
    """ValueError unless ``size`` <= ``limit``: the step could not represent more."""
    if not size <= limit:
        raise ValueError(
            f"{argument}: {_beside(size, limit)} {unit} is more than the step represents "
            f"(at most {limit:g})"
        )


def _beside(value: float, limit: float) -> str:
    """``value`` written with as many digits as it takes not to read as ``limit`` (a speed
    just over its limit is not shown as the limit itself)."""
    for digits in range(6, 18):
        text = f"{value:.{digits}g}"
        if text != f"{limit:.{digits}g}":
            return text
    return repr(value)


def as_pose(value, argument: str) -> np.ndarray:
    """A finite pose ``(x, y, angle)`` as a (3,) float64 array."""
    return as_finite_array(value, (3,), argument)


def _shape_text(shape: tuple) -> str:
    return (
        "("
        + ", ".join("N" if n == -1 else str(n) for n in shape)
        + ("," if len(shape) == 1 else "")
        + ")"
    )
