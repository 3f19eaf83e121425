"""The rules of the bodies' and shapes' settings, each written once.

A setting's rule (the range a friction, a restitution, a 16-bit mask may take) is checked in
three places: where a program gives it (``add_body``, a shape's constructor), where it is
changed (a body's setter) and where a file brings it (``load``). All three read the rule
from here: the scalar checks raise with the argument's name, ``holds`` tests a whole saved
column, and both say the range the same way.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .validation import as_finite_float


@dataclass(frozen=True)
class Rule:
    """A closed or half-open range of numbers; ``integer`` ones take Python or numpy ints
    only. ``text`` says the range as the error messages put it ("must be ...")."""

    low: float
    high: float
    text: str
    low_open: bool = False
    high_open: bool = False
    integer: bool = False

    def holds(self, values) -> np.ndarray:
        """Whether each of ``values`` (any shape) is within the range (NaN is not)."""
        values = np.asarray(values)
        above = values > self.low if self.low_open else values >= self.low
        below = values < self.high if self.high_open else values <= self.high
        return above & below


# The largest gravity scale a body may have: a thousand times the world's gravity is far
# beyond any use, and keeps the step's arithmetic as far from overflow as MAX_GRAVITY does.
MAX_GRAVITY_SCALE = 1000.0

# Setting -> its rule. A body's sleep threshold is stored as 0 for "the world's": the
# argument itself (None or > 0) is checked by World.add_body.
RULES = {
    "density": Rule(0.0, math.inf, "must be > 0", low_open=True),
    "friction": Rule(0.0, math.inf, "must be >= 0"),
    "restitution": Rule(0.0, 1.0, "must be in [0, 1]"),
    "category": Rule(0, 0xFFFF, "must be a 16-bit value in [0, 0xFFFF]", integer=True),
    "mask": Rule(0, 0xFFFF, "must be a 16-bit value in [0, 0xFFFF]", integer=True),
    "group": Rule(-(2**31), 2**31, "must fit in 32 bits", high_open=True, integer=True),
    "damping": Rule(0.0, math.inf, "must be >= 0"),
    "gravity_scale": Rule(-MAX_GRAVITY_SCALE, MAX_GRAVITY_SCALE, "must be within +-1000"),
    "sleep_threshold": Rule(0.0, math.inf, "must be >= 0"),
}


def check_number(setting: str, value, argument: str | None = None) -> float:
    """``value`` as a float within the rule of ``setting``; TypeError for a non-number,
    ValueError naming ``argument`` (default: the setting) otherwise."""
    argument = argument or setting
    number = as_finite_float(value, argument)
    rule = RULES[setting]
    if not rule.holds(number):
        raise ValueError(f"{argument}: {rule.text}, got {number:g}")
    return number


def check_integer(setting: str, value, argument: str | None = None) -> int:
    """``value`` as an int within the rule of ``setting``; TypeError for anything but an
    int (a bool is not one), ValueError naming ``argument`` out of range."""
    argument = argument or setting
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{argument}: expected an int, got {type(value).__name__}")
    rule = RULES[setting]
    if not rule.holds(int(value)):
        raise ValueError(f"{argument}: {rule.text}, got {value}")
    return int(value)


def column_message(table: str, setting: str) -> str:
    """How ``load`` says a saved column breaks the rule of ``setting``."""
    return f"array '{table}.{setting}' holds values out of range ({RULES[setting].text})"
