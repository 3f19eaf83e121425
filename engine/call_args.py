"""Arguments of the one-call APIs (a point, a pose, a velocity, dt) read as Python floats.

A query or a ``collide`` call is a few microseconds of work, and turning a point into a
checked numpy array costs as much again. Tuples, lists and 1-D numeric arrays of finite
numbers are read straight into floats here; anything else goes through
``engine.validation``, which raises the errors it always has, naming the argument.
"""

from __future__ import annotations

import math

import numpy as np

from .validation import as_finite_array, as_finite_float

# Element types read directly; anything else (bools, strings, nested sequences, objects)
# takes the general path and its errors.
_PLAIN = {float, int, np.float64, np.float32, np.int64, np.int32}


def _plain_floats(value, length: int):
    """The floats of ``value`` if it is a plain finite sequence of ``length`` numbers, else
    None (the caller then validates it the general way)."""
    kind = type(value)
    if kind is tuple or kind is list:
        if len(value) != length:
            return None
        for item in value:
            if type(item) not in _PLAIN:
                return None
    elif kind is np.ndarray:
        if value.shape != (length,) or value.dtype.kind not in "fiu":
            return None
        value = value.tolist()
    else:
        return None
    try:
        floats = tuple(map(float, value))
    except OverflowError:
        return None  # an int too large for float64: the general path says so
    for item in floats:
        if not math.isfinite(item):
            return None
    return floats


def vector_floats(value, argument: str) -> tuple[float, float]:
    """A finite 2-vector as two floats; the errors of ``as_vector`` otherwise."""
    floats = _plain_floats(value, 2)
    if floats is None:
        floats = tuple(as_finite_array(value, (2,), argument).tolist())
    return floats


def pose_floats(value, argument: str) -> tuple[float, float, float]:
    """A finite pose (x, y, angle) as three floats; the errors of ``as_pose`` otherwise."""
    floats = _plain_floats(value, 3)
    if floats is None:
        floats = tuple(as_finite_array(value, (3,), argument).tolist())
    return floats


def finite_float(value, argument: str) -> float:
    """A finite real number as a float; the errors of ``as_finite_float`` otherwise."""
    if type(value) is float and math.isfinite(value):
        return value
    return as_finite_float(value, argument)
