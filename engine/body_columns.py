"""``add_bodies``' arguments: one value for every body, or one per body, checked as
``add_body`` checks them and turned into columns of B values.

One value is checked by the very check ``add_body`` uses, so it is refused with the same
message. An array is checked at once (its type, its shape, finite entries, the setting's
rule); its first bad entry is then checked alone, so the message names the argument, the
body (``friction[3]: must be >= 0, got -1``) and the problem as ``add_body`` would.
"""

from __future__ import annotations

import numpy as np

from .field_rules import RULES, check_integer
from .validation import as_finite_array, bounded_components, check_bound


def vectors(value, count: int, argument: str, limit: float, unit: str) -> np.ndarray:
    """(B, 2) float64 from one (2,) vector for all or (B, 2), each at most ``limit``
    long (in ``unit``). One vector comes back as a read-only broadcast view of it."""
    if _dimensions(value) != 2:
        one = np.array(bounded_components(value, argument, limit, unit))
        return np.broadcast_to(one, (count, 2))
    return bounded_rows(value, argument, limit, unit, (count, 2))


def bounded_rows(value, argument: str, limit: float, unit: str, shape=(-1, 2)) -> np.ndarray:
    """(B, 2) float64 vectors, finite and each at most ``limit`` long (in ``unit``).
    ``shape``: (-1, 2) for any B. A float64 array within the limit passes with one pass
    over it; anything else is checked by ``as_finite_array`` and ``check_lengths``."""
    if isinstance(value, np.ndarray) and value.dtype == np.float64 and value.ndim == 2:
        if value.shape[1] == 2 and shape[0] in (-1, len(value)):
            # NaN and infinity are not <= limit: they too go the full way
            if (np.hypot(value[:, 0], value[:, 1]) <= limit).all():
                return value
    array = as_finite_array(value, shape, argument)
    check_lengths(array, argument, limit, unit)
    return array


def check_lengths(array: np.ndarray, argument: str, limit: float, unit: str, per_body=True):
    """ValueError naming ``argument`` (and the body, when ``per_body``) unless each of the
    (B, 2) vectors is at most ``limit`` long, as ``as_bounded_vector`` judges it."""
    lengths = np.hypot(array[:, 0], array[:, 1])
    for i in np.flatnonzero(~(lengths <= limit)).tolist():
        check_bound(float(lengths[i]), f"{argument}[{i}]" if per_body else argument, limit, unit)


def numbers_of(value, count: int, argument: str, check, holds=None) -> np.ndarray:
    """(B,) float64 from one number for all or (B,) numbers. ``check(value, argument)``
    is the one-number check; ``holds``, when given, tells at once which entries of an
    array pass it (an array without ``holds`` passes when its entries are finite)."""
    if _dimensions(value) == 0:
        return np.full(count, check(value, argument), dtype=np.float64)
    array = as_finite_array(value, (count,), argument)
    if holds is not None:
        _first_bad(array, holds(array), argument, check)
    return array


def ruled(setting: str, value, count: int, argument: str, check) -> np.ndarray:
    """``numbers_of`` for a setting with a rule in ``engine.field_rules.RULES``."""
    return numbers_of(value, count, argument, check, RULES[setting].holds)


def integers(setting: str, value, count: int, argument: str) -> np.ndarray:
    """(B,) int64 from one int for all or (B,) ints, within the rule of ``setting``."""
    if _dimensions(value) == 0:
        return np.full(count, check_integer(setting, value, argument), dtype=np.int64)
    if not isinstance(value, np.ndarray) or value.dtype == object:
        # numpy would take True as 1, and 1.5 in an object array: the entries are
        # checked as add_body checks one
        for entry in np.asarray(value, dtype=object).reshape(-1).tolist():
            if isinstance(entry, bool) or not isinstance(entry, (int, np.integer)):
                raise TypeError(f"{argument}: expected ints, got {type(entry).__name__}")
    array = np.asarray(value)
    if array.dtype.kind not in "iuO":
        raise TypeError(f"{argument}: expected ints, got an array of {array.dtype}")
    _check_shape(array, count, argument)
    holds = RULES[setting].holds(array)
    _first_bad(array, holds, argument, lambda v, name: check_integer(setting, v, name))
    return array.astype(np.int64)


def flags(value, count: int, argument: str, check) -> np.ndarray:
    """(B,) bool from one bool for all or (B,) bools; ``check`` is the one-bool check."""
    if _dimensions(value) == 0:
        return np.full(count, check(value, argument), dtype=bool)
    array = np.asarray(value)
    if array.dtype != bool:
        raise TypeError(f"{argument}: expected bools, got an array of {array.dtype}")
    _check_shape(array, count, argument)
    return array


def labels(value, count: int, argument: str, check) -> list:
    """B values from one value for all (a str or None) or a list or tuple of B, each
    passed through the one-value ``check(value, argument)``."""
    if value is None or isinstance(value, str):
        return [check(value, argument)] * count
    entries = _sequence(value, count, argument)
    return [check(entry, f"{argument}[{i}]") for i, entry in enumerate(entries)]


def one_each(value, count: int, argument: str) -> list:
    """B values from None (None for each) or a list or tuple of B values, taken as they
    are (``user_data``)."""
    return [None] * count if value is None else list(_sequence(value, count, argument))


def _sequence(value, count: int, argument: str):
    if not isinstance(value, (list, tuple, np.ndarray)):
        raise TypeError(
            f"{argument}: expected one value for every body or a list of one per body, "
            f"got {type(value).__name__}"
        )
    if len(value) != count:
        raise ValueError(f"{argument}: expected one entry per body ({count}), got {len(value)}")
    return value


def _dimensions(value) -> int:
    """How many dimensions ``value`` has as an array (a ragged nesting: 1)."""
    if isinstance(value, np.ndarray):
        return value.ndim
    if isinstance(value, (str, bytes)) or value is None or not hasattr(value, "__len__"):
        return 0
    try:
        return np.asarray(value, dtype=object).ndim
    except ValueError:
        return 1


def _check_shape(array: np.ndarray, count: int, argument: str) -> None:
    if array.shape != (count,):
        raise ValueError(f"{argument}: expected an array of shape ({count},), got {array.shape}")


def _first_bad(array: np.ndarray, holds: np.ndarray, argument: str, check) -> None:
    """Check the entries that ``holds`` marks as failing one by one, naming each by its
    body: the first raises as the one-value check raises."""
    for i in np.flatnonzero(~holds).tolist():
        check(array[i].item(), f"{argument}[{i}]")
