"""The clock: the steps a world has taken, the time ``advance`` has banked, and the pose
revision that tells the query index a pose changed between steps.

Saved as three header scalars (``state.accumulator``, ``state.steps``,
``state.pose_revision``): ``scalars``, ``validate``, ``from_scalars``.
"""

from __future__ import annotations


class Clock:
    """steps: steps taken; accumulator: seconds banked by ``advance`` (less than a step
    after it returns); pose_revision: bumped by every pose write outside ``step``."""

    SAVED = {
        "steps": "header state.steps",
        "accumulator": "header state.accumulator",
        "pose_revision": "header state.pose_revision",
    }
    EXCLUDED: dict = {}

    def __init__(self):
        self.steps = 0
        self.accumulator = 0.0
        self.pose_revision = 0

    def to_arrays(self) -> dict:
        """No arrays: the clock is three header scalars."""
        return {}

    def scalars(self) -> dict:
        """The header state entries: accumulator, steps, pose_revision."""
        return {
            "accumulator": float(self.accumulator),
            "steps": int(self.steps),
            "pose_revision": int(self.pose_revision),
        }

    @staticmethod
    def validate(scalars: dict, dt: float, max_steps_per_advance: int, where: str) -> None:
        """ValueError naming ``where`` if more time is banked than ``advance`` ever leaves
        (less than one step, or the steps a raising handler cut short). The scalars' types
        and signs are checked with the rest of the header."""
        if not scalars["accumulator"] < (max_steps_per_advance + 1) * dt:
            raise ValueError(
                f"{where}: header field 'state.accumulator' is {scalars['accumulator']!r}, "
                "more than advance() ever leaves banked"
            )

    @classmethod
    def from_scalars(cls, scalars: dict, past_revision: int | None = None) -> Clock:
        """A clock from checked header scalars. past_revision: the revision of the world
        restored into (None: a new world); the new one is above it and the saved one, so
        that no query index cached for an earlier state of that world matches."""
        clock = cls()
        clock.steps = scalars["steps"]
        clock.accumulator = float(scalars["accumulator"])
        clock.pose_revision = scalars["pose_revision"]
        if past_revision is not None:
            clock.pose_revision = max(scalars["pose_revision"], past_revision) + 1
        return clock
