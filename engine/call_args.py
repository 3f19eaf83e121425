"""Arguments of the kernel-backed APIs: points, poses, velocities and dt read as Python
floats, and arrays brought to the one layout the kernels are compiled for.

A query or a ``collide`` call is a few microseconds of work, and turning a point into a
checked numpy array costs as much again. Tuples, lists and 1-D numeric arrays of finite
numbers are read straight into floats here; anything else goes through
``engine.validation``, which raises the errors it always has, naming the argument.
"""

from __future__ import annotations

import numpy as np

from .validation import as_finite_array, as_finite_float

# Element types read directly; anything else (bools, strings, nested sequences, objects)
# takes the general path and its errors.
_PLAIN = frozenset({float, int, np.float64, np.float32, np.int64, np.int32})


def _items(value, length: int):
    """The items of a tuple, list or 1-D numeric array of ``length``, else None."""
    kind = type(value)
    if kind is tuple or kind is list:
        return value if len(value) == length else None
    if kind is np.ndarray and value.shape == (length,) and value.dtype.kind in "fiu":
        return value.tolist()
    return None


def vector_floats(value, argument: str) -> tuple[float, float]:
    """A finite 2-vector as two floats; the errors of ``as_vector`` otherwise."""
    items = _items(value, 2)
    if items is not None:
        x, y = items
        if type(x) in _PLAIN and type(y) in _PLAIN:
            try:
                x, y = float(x), float(y)
            except OverflowError:
                pass  # an int too large for float64: the general path says so
            else:
                # x - x is 0 for a finite x and NaN for infinity or NaN.
                if (x - x) + (y - y) == 0.0:
                    return x, y
    return tuple(as_finite_array(value, (2,), argument).tolist())


def pose_floats(value, argument: str) -> tuple[float, float, float]:
    """A finite pose (x, y, angle) as three floats; the errors of ``as_pose`` otherwise."""
    items = _items(value, 3)
    if items is not None:
        x, y, angle = items
        if type(x) in _PLAIN and type(y) in _PLAIN and type(angle) in _PLAIN:
            try:
                x, y, angle = float(x), float(y), float(angle)
            except OverflowError:
                pass
            else:
                if (x - x) + (y - y) + (angle - angle) == 0.0:
                    return x, y, angle
    return tuple(as_finite_array(value, (3,), argument).tolist())


def kernel_layout(array: np.ndarray) -> np.ndarray:
    """``array`` if it is writable and C-contiguous, else such a copy: the one layout the
    kernels are compiled for (a read-only or strided array would compile another)."""
    if not (array.flags.c_contiguous and array.flags.writeable):
        array = np.array(array, order="C")
    return array


def finite_float(value, argument: str) -> float:
    """A finite real number as a float; the errors of ``as_finite_float`` otherwise."""
    if type(value) is float and value - value == 0.0:
        return value
    return as_finite_float(value, argument)
