"""The World's settings that can change after it is made: tolerances, gravity, broad phase,
the solver's settings.

Each setter checks its value with the rule ``World()`` uses and names the argument when it
refuses one; the step reads the stored values.
"""

from __future__ import annotations

import numpy as np

from .settings import (
    LINEAR_SLOP,
    MAX_GRAVITY,
    RESTITUTION_THRESHOLD,
    SLEEP_THRESHOLD,
    TIME_TO_SLEEP,
)
from .solver_settings import count_setting, non_negative_setting
from .validation import (
    as_bounded_vector,
    as_positive_float,
)


def _checked(name: str, check, doc: str) -> property:
    """A setting stored as ``_name``, checked by ``check(value)`` (which returns the value
    to store, or raises naming the argument) whenever it is set."""
    private = "_" + name

    def read(self):
        return getattr(self, private)

    def write(self, value) -> None:
        setattr(self, private, check(value))

    return property(read, write, doc=doc)


class WorldSettings:
    """The settings of a World, read and set as attributes (part of ``World``)."""

    # -- settings -------------------------------------------------------------------------
    @property
    def units_per_meter(self) -> float:
        """Length units in a metre (fixed when the world is made): 1 for metres, 100 for
        100 pixels a metre. The length and speed tolerances are their metre values times it.
        """
        return self._units_per_meter

    @property
    def linear_slop(self) -> float:
        """Overlap push-out leaves, and what counts as touching, in length units (default
        0.005 m); a contact between bodies thinner than 50 slops gets 2% of the thinner
        one's thickness."""
        return self._linear_slop

    @linear_slop.setter
    def linear_slop(self, value) -> None:
        self._linear_slop = self._tolerance(value, "linear_slop", LINEAR_SLOP)

    @property
    def restitution_threshold(self) -> float:
        """Slowest approach, in units/s, that bounces (default 1 m/s)."""
        return self._restitution_threshold

    @restitution_threshold.setter
    def restitution_threshold(self, value) -> None:
        self._restitution_threshold = self._tolerance(
            value, "restitution_threshold", RESTITUTION_THRESHOLD
        )

    @property
    def sleep_threshold(self) -> float:
        """Speed, in units/s, below which a body counts as resting (default 0.05 m/s), at
        its centre and at its reach when turning; bodies may set their own."""
        return self._sleep_threshold

    @sleep_threshold.setter
    def sleep_threshold(self, value) -> None:
        self._sleep_threshold = self._tolerance(value, "sleep_threshold", SLEEP_THRESHOLD)

    @property
    def time_to_sleep(self) -> float:
        """Seconds an island's bodies must all rest before it falls asleep (default 0.5)."""
        return self._time_to_sleep

    @time_to_sleep.setter
    def time_to_sleep(self, value) -> None:
        self._time_to_sleep = self._tolerance(value, "time_to_sleep", TIME_TO_SLEEP, scaled=False)

    def _tolerance(self, value, name: str, default: float, scaled: bool = True) -> float:
        """A tolerance as set: a positive finite number, or None for its default (in the
        world's units when ``scaled``), as ``World()`` takes it."""
        if value is None:
            return default * self._units_per_meter if scaled else default
        return as_positive_float(value, name)

    @property
    def dt(self) -> float:
        """The fixed step, s."""
        return self._dt

    @property
    def gravity(self) -> np.ndarray:
        """(2,) float64 gravity, m/s^2: a read-only copy (assign the whole vector)."""
        gravity = self._gravity.copy()
        gravity.flags.writeable = False
        return gravity

    @gravity.setter
    def gravity(self, value) -> None:
        self._gravity = as_bounded_vector(value, "gravity", MAX_GRAVITY, "m/s^2")

    @property
    def broadphase(self) -> str:
        """ "grid" or "quadtree" (assign to switch)."""
        return self._broadphase

    @broadphase.setter
    def broadphase(self, value: str) -> None:
        self._broadphase = _check_broadphase(value)

    # The solver's settings, each checked as ``World()`` checks it (a world given 0
    # sub-steps after it was made stepped nothing, silently).
    substeps = _checked(
        "substeps",
        lambda v: count_setting(v, "substeps", 1),
        "Sub-steps per step (at least 1; default 4).",
    )
    relax_iterations = _checked(
        "relax_iterations",
        lambda v: count_setting(v, "relax_iterations", 0),
        "Passes without bias after each sub-step's solve (default 1).",
    )
    contact_hertz = _checked(
        "contact_hertz",
        lambda v: non_negative_setting(v, "contact_hertz"),
        "Contact stiffness, Hz (at most a quarter of the sub-step rate is used).",
    )
    contact_damping_ratio = _checked(
        "contact_damping_ratio",
        lambda v: non_negative_setting(v, "contact_damping_ratio"),
        "Contact damping ratio (default 10).",
    )
    max_contact_push_speed = _checked(
        "max_contact_push_speed",
        lambda v: non_negative_setting(v, "max_contact_push_speed"),
        "The fastest push-out of overlap, units/s (default 3 m/s).",
    )
    joint_hertz = _checked(
        "joint_hertz",
        lambda v: non_negative_setting(v, "joint_hertz"),
        "Stiffness of the rigid joints off the joint trees, Hz (default 60).",
    )
    joint_damping_ratio = _checked(
        "joint_damping_ratio",
        lambda v: non_negative_setting(v, "joint_damping_ratio"),
        "Damping ratio of the rigid joints off the joint trees (default 2).",
    )
    position_iterations = _checked(
        "position_iterations",
        lambda v: count_setting(v, "position_iterations", 0),
        "Passes of the position push-out of deep overlap (default 3).",
    )
    max_steps_per_advance = _checked(
        "max_steps_per_advance",
        lambda v: count_setting(v, "max_steps_per_advance", 1, None),
        "The most steps one ``advance`` takes (default 8).",
    )

    @property
    def time(self) -> float:
        """Simulated seconds: steps taken times dt."""
        return self._clock.steps * self._dt


def _check_broadphase(value) -> str:
    if value not in ("grid", "quadtree"):
        raise ValueError(f"broadphase: must be 'grid' or 'quadtree', got {value!r}")
    return value
