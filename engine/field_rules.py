"""The rules of the bodies', shapes' and joints' settings, each written once.

A setting's rule (the range a friction, a restitution, a 16-bit mask, a spring's damping may
take) is checked in three places: where a program gives it (``add_body``, a shape's or a
joint's constructor), where it is changed (a body's or a joint's setter) and where a file
brings it (``load``, through the stores' ``validate``). All three read the rule from here:
the scalar checks raise with the argument's name, ``holds`` tests a whole saved column, and
both say the range the same way. The fields' dtypes and shapes are the stores' tables
(``BODY_FIELDS``, ``JOINT_FIELDS``); a field with a rule has it here, under its name.
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

    def holds_number(self, value) -> bool:
        """``holds`` for one Python number, without numpy's cost (NaN is not within)."""
        above = value > self.low if self.low_open else value >= self.low
        below = value < self.high if self.high_open else value <= self.high
        return above and below


NON_NEGATIVE = Rule(0.0, math.inf, "must be >= 0")
POSITIVE = Rule(0.0, math.inf, "must be > 0", low_open=True)
SHARE = Rule(0.0, 1.0, "must be within [0, 1]")
# Largest gear ratio either way: beyond it one body's inertia drowns the other's. The rule
# is on the ratio's size (a negative ratio turns the bodies the same way).
MAX_RATIO = 1e6
RATIO_SIZE = Rule(
    1.0 / MAX_RATIO, MAX_RATIO, f"its size must be within [{1.0 / MAX_RATIO:g}, {MAX_RATIO:g}]"
)

# The largest gravity scale a body may have: a thousand times the world's gravity is far
# beyond any use, and keeps the step's arithmetic as far from overflow as MAX_GRAVITY does.
MAX_GRAVITY_SCALE = 1000.0

# Setting -> its rule. A body's sleep threshold is stored as 0 for "the world's": the
# argument itself (None or > 0) is checked by World.add_body.
RULES = {
    "density": POSITIVE,
    "friction": NON_NEGATIVE,
    "restitution": Rule(0.0, 1.0, "must be in [0, 1]"),
    "category": Rule(0, 0xFFFF, "must be a 16-bit value in [0, 0xFFFF]", integer=True),
    "mask": Rule(0, 0xFFFF, "must be a 16-bit value in [0, 0xFFFF]", integer=True),
    "group": Rule(-(2**31), 2**31, "must fit in 32 bits", high_open=True, integer=True),
    "damping": NON_NEGATIVE,
    "gravity_scale": Rule(-MAX_GRAVITY_SCALE, MAX_GRAVITY_SCALE, "must be within +-1000"),
    "sleep_threshold": NON_NEGATIVE,
}
# Joint field -> its rule for every kind. Some kinds ask more of a field, by kind code in
# ``engine.joint_store``: POSITIVE_FOR_KINDS.
JOINT_RULES = {
    "frequency": NON_NEGATIVE,  # 0: rigid
    "damping": NON_NEGATIVE,
    "max_force": NON_NEGATIVE,
    "max_motor_torque": NON_NEGATIVE,  # 0: no motor
    "correction": SHARE,
}


def check_number(setting: str, value, argument: str | None = None) -> float:
    """``value`` as a float within the rule of ``setting``; TypeError for a non-number,
    ValueError naming ``argument`` (default: the setting) otherwise."""
    return check_rule(RULES[setting], value, argument or setting)


def check_integer(setting: str, value, argument: str | None = None) -> int:
    """``value`` as an int within the rule of ``setting``; TypeError for anything but an
    int (a bool is not one), ValueError naming ``argument`` out of range."""
    argument = argument or setting
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{argument}: expected an int, got {type(value).__name__}")
    rule = RULES[setting]
    if not rule.holds_number(int(value)):
        raise ValueError(f"{argument}: {rule.text}, got {value}")
    return int(value)


def check_rule(rule: Rule, value, argument: str) -> float:
    """``value`` as a float within ``rule``; TypeError for a non-number, ValueError naming
    ``argument`` otherwise."""
    number = as_finite_float(value, argument)
    if not rule.holds_number(number):
        raise ValueError(f"{argument}: {rule.text}, got {number:g}")
    return number


def column_message(table: str, setting: str, rule: Rule | None = None) -> str:
    """How ``load`` says a saved column breaks the rule of ``setting`` (default: its rule
    in RULES)."""
    rule = rule or RULES[setting]
    return f"array '{table}.{setting}' holds values out of range ({rule.text})"
