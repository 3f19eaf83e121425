"""The World: bodies in structure-of-arrays storage and the fixed-step pipeline.

One ``step`` of ``dt``, as data flowing (each stage a function from arrays to arrays; see
``engine.step``):

1. forces -> velocities (gravity, applied forces), for the sweeps;
2. broad phase on swept part boxes -> candidate part pairs;
3. narrow phase (swept SAT with relative velocities) -> contact manifolds;
4. ``substeps`` sub-steps of warm-started soft contacts and joints -> poses, velocities
   and impulses, fast bodies stopped at their time of impact (``engine.substep``);
5. remember impulses for the next step's warm start; events; sleep.
"""

from __future__ import annotations

import math

import numpy as np

from .body_store import BodyStore
from .clock import Clock
from .event_log import EventLog
from .joint_store import JointStore
from .part_table import PartTable
from .query_index import QueryIndexCache
from .resting_parts import RestingParts
from .settings import (
    LINEAR_SLOP,
    MAX_DT,
    MAX_GRAVITY,
    MAX_STEPS_PER_ADVANCE,
    MAX_UNITS_PER_METER,
    POSITION_ITERATIONS,
    RESTITUTION_THRESHOLD,
    SLEEP_THRESHOLD,
    TIME_TO_SLEEP,
)
from .snapshot import load as load_world
from .snapshot import restore as restore_world
from .snapshot import save as save_world
from .snapshot import snapshot as snapshot_world
from .snapshot import world_getstate, world_setstate
from .solver_settings import (
    CONTACT_DAMPING_RATIO,
    CONTACT_HERTZ,
    JOINT_DAMPING_RATIO,
    JOINT_HERTZ,
    RELAX_ITERATIONS,
    SUBSTEPS,
    soft_solver_settings,
)
from .step import advance_one_step
from .step_inputs import StepInputs
from .validation import (
    as_bounded_vector,
    as_finite_float,
    as_positive_float,
    check_bound,
)
from .warm_start import WarmStartCache
from .world_base import WorldBase
from .world_batches import WorldBatches
from .world_bodies import WorldBodies
from .world_events import WorldEvents
from .world_explosions import WorldExplosions
from .world_joints import WorldJoints
from .world_queries import WorldQueries
from .world_settings import WorldSettings, _check_broadphase
from .world_views import WorldViews


class World(
    WorldSettings,
    WorldBodies,
    WorldBatches,
    WorldJoints,
    WorldViews,
    WorldQueries,
    WorldEvents,
    WorldExplosions,
    WorldBase,
):
    """A 2D world of rigid bodies stepped with a fixed timestep.

    gravity: (2,) m/s^2. dt: the fixed step in seconds. broadphase: "grid" (a spatial hash,
    cell size from the bodies' sizes unless ``cell_size`` is given) or "quadtree".

    Units: lengths are in whatever unit the world is built in, ``units_per_meter`` of
    them to a metre (1 for metres, 100 for a game drawn at 100 pixels a metre, 1000 for
    millimetres). The tolerances that are lengths or speeds, and the default gravity, are
    the metre values times it, so a scene built in pixels moves as the same scene in
    metres; times, angles, masses and material coefficients do not scale. The tunable
    tolerances, each a keyword and a settable attribute (None: the default):

    - ``linear_slop``: overlap push-out leaves, and what counts as touching (0.005 m);
      thin and small bodies get less (at most 2% of the thinner one's thickness);
    - ``restitution_threshold``: slowest approach that bounces (1 m/s);
    - ``sleep_threshold``: speed below which a body rests (0.05 m/s; a body may have its
      own, ``Body.sleep_threshold``);
    - ``time_to_sleep``: how long an island rests before it sleeps (0.5 s, not scaled).

    >>> from engine import World, Box
    >>> world = World()
    >>> ground = world.add_body(Box(40, 1), position=(0, -0.5), kind="static")
    >>> crate = world.add_body(Box(1, 1), position=(0, 3))
    >>> for _ in range(120):
    ...     world.step()
    >>> round(float(crate.position[1]), 2)
    0.5
    """

    def __init__(
        self,
        gravity=None,
        dt: float = 1 / 60,
        broadphase: str = "grid",
        cell_size: float | None = None,
        position_iterations: int = POSITION_ITERATIONS,
        max_steps_per_advance: int = MAX_STEPS_PER_ADVANCE,
        sleep: bool = True,
        units_per_meter: float = 1.0,
        linear_slop: float | None = None,
        restitution_threshold: float | None = None,
        sleep_threshold: float | None = None,
        time_to_sleep: float | None = None,
        substeps: int = SUBSTEPS,
        relax_iterations: int = RELAX_ITERATIONS,
        contact_hertz: float = CONTACT_HERTZ,
        contact_damping_ratio: float = CONTACT_DAMPING_RATIO,
        max_contact_push_speed: float | None = None,
        joint_hertz: float = JOINT_HERTZ,
        joint_damping_ratio: float = JOINT_DAMPING_RATIO,
    ):
        if not isinstance(sleep, (bool, np.bool_)):
            raise TypeError(f"sleep: expected a bool, got {type(sleep).__name__}")
        units = as_positive_float(units_per_meter, "units_per_meter")
        if units > MAX_UNITS_PER_METER:
            # The default gravity and tolerances would pass the limits the step represents.
            raise ValueError(
                f"units_per_meter: must be at most {MAX_UNITS_PER_METER:g}, got {units:g}"
            )
        # Checked before anything is kept: a refused World() builds nothing.
        tolerances = {
            name: as_positive_float(value, name) if value is not None else default
            for name, value, default in (
                ("linear_slop", linear_slop, LINEAR_SLOP * units),
                ("restitution_threshold", restitution_threshold, RESTITUTION_THRESHOLD * units),
                ("sleep_threshold", sleep_threshold, SLEEP_THRESHOLD * units),
                ("time_to_sleep", time_to_sleep, TIME_TO_SLEEP),
            )
        }
        # The sub-stepped solver's (``engine.substep``).
        soft = soft_solver_settings(
            substeps, relax_iterations, contact_hertz, contact_damping_ratio,
            max_contact_push_speed, joint_hertz, joint_damping_ratio, units,
        )  # fmt: skip
        if gravity is None:
            gravity = (0.0, -9.81 * units)
        self._gravity = as_bounded_vector(gravity, "gravity", MAX_GRAVITY, "m/s^2")
        self._dt = as_positive_float(dt, "dt")
        check_bound(self._dt, "dt", MAX_DT, "s")
        self._broadphase = _check_broadphase(broadphase)
        self._cell_size = None if cell_size is None else as_positive_float(cell_size, "cell_size")
        self.position_iterations = position_iterations
        self.max_steps_per_advance = max_steps_per_advance
        # The components that own the world's state (each saves and checks its own).
        self._bodies = BodyStore()
        self._parts = PartTable()
        self._joints = JointStore()
        self._warm = WarmStartCache()
        self._clock = Clock()
        self._event_log = EventLog()
        self.sleep = bool(sleep)
        self._stepping = False
        self._running = False
        self._deferred: list = []
        self._query_index = QueryIndexCache()  # a cache, rebuilt by the first query after a change
        self._resting_parts = RestingParts()  # a cache, rebuilt by the step after a change
        self._step_inputs = StepInputs()  # a cache, gathered again when a table's layout moves
        self._units_per_meter = units
        self._linear_slop = tolerances["linear_slop"]
        self._restitution_threshold = tolerances["restitution_threshold"]
        self._sleep_threshold = tolerances["sleep_threshold"]
        self._time_to_sleep = tolerances["time_to_sleep"]
        for name, value in soft.items():
            setattr(self, name, value)

    def __repr__(self) -> str:
        return (
            f"World(gravity={tuple(self._gravity.tolist())}, dt={self._dt!r}, "
            f"broadphase={self._broadphase!r}, units_per_meter={self._units_per_meter!r}, "
            f"linear_slop={self._linear_slop!r}, "
            f"restitution_threshold={self._restitution_threshold!r}, "
            f"sleep_threshold={self._sleep_threshold!r}, "
            f"time_to_sleep={self._time_to_sleep!r}, sleep={self.sleep!r}; "
            f"{self._bodies.count} bodies, {self._joints.count} joints)"
        )

    # -- time -----------------------------------------------------------------------------
    def advance(self, seconds: float) -> float:
        """Run as many fixed steps as fit in the time banked so far plus ``seconds``.

        At most ``max_steps_per_advance`` steps run per call: time beyond that is dropped
        so that a slow frame cannot snowball. Returns the leftover fraction of a step in
        [0, 1), for interpolating between the last two states when drawing. A step whose
        handler raises has used its time: the exception propagates and the time of the
        steps not run stays banked for the next call. Raises RuntimeError when called
        from an event handler (or during a step).
        """
        seconds = as_finite_float(seconds, "seconds")
        if seconds < 0.0:
            raise ValueError(f"seconds: must be >= 0, got {seconds}")
        self._refuse_reentry("advance")
        dt = self._dt
        banked = self._clock.accumulator + seconds
        # fmod is exact, so the leftover is always below one step; the count is rounded
        # rather than floored so that rounding in ``banked - leftover`` cannot lose a step.
        leftover = math.fmod(banked, dt)
        whole = (banked - leftover) / dt  # may be huge (or inf for a tiny dt): capped first
        steps = min(self.max_steps_per_advance, round(min(whole, self.max_steps_per_advance)))
        self._running = True
        try:
            for done in range(1, steps + 1):
                # Banked before each step: a handler raising in it leaves the rest banked.
                self._clock.accumulator = leftover + (steps - done) * dt
                self._step_once()
        finally:
            self._running = False
        self._clock.accumulator = leftover
        return leftover / dt

    def step(self, dt=None) -> None:
        """Advance the world by exactly one step of ``dt``, then run the event handlers.

        The step is the world's own fixed ``dt`` (``World(dt=...)``); giving one here
        raises TypeError saying so (``advance(seconds)`` runs the steps that fit in a
        stretch of time).

        Raises RuntimeError when called from an event handler (or during a step): a step
        inside a step would run on arrays the outer one is using, and events would nest.
        """
        if dt is not None:
            raise TypeError(
                f"step: takes no dt (got {dt!r}); the world always steps by its fixed "
                f"dt = {self._dt:g} s, set with World(dt=...); to run a stretch of time, "
                "call advance(seconds)"
            )
        self._refuse_reentry("step")
        self._running = True
        try:
            self._step_once()
        finally:
            self._running = False

    def _refuse_reentry(self, action: str) -> None:
        if self._running or self._stepping:
            raise RuntimeError(
                f"{action}: not possible while the world is stepping (from an event "
                "handler); call it from the game loop, after step() or advance() returned"
            )

    def _step_once(self) -> None:
        self._stepping = True
        try:
            advance_one_step(self)
        finally:
            self._stepping = False
            self._bodies.sleep_changed()  # islands may have fallen asleep
        self._apply_deferred()
        error = self._event_log.take_presolve_error()
        if error is not None:
            raise error
        self._event_log.dispatch()

    def _wake_touching(self, body_id: int) -> None:
        """Wake the islands of the bodies that touched body ``body_id`` in the last step."""
        keys = self._event_log.contact_keys
        ids = np.concatenate(
            [
                keys[(keys >> 32) == body_id] & 0xFFFFFFFF,
                keys[(keys & 0xFFFFFFFF) == body_id] >> 32,
            ]
        )
        touching = self._bodies.row_of_id[ids]
        self._wake_rows(touching[touching >= 0])

    def _wake_rows(self, rows, restart: bool = True) -> None:
        """Wake the islands of the bodies at ``rows`` (an int or (K,) int64); ``restart``
        False keeps their resting time (woken only because something came near: if it
        moves them, the sleep stage restarts their time itself)."""
        rows = np.atleast_1d(np.asarray(rows, dtype=np.int64))
        awake = self._bodies.view("awake")
        island = self._bodies.view("island")
        sleeping = rows[~awake[rows]]
        if len(sleeping) == 0:
            return
        woken = ~awake & np.isin(island, island[sleeping])
        awake[woken] = True
        if restart:
            self._bodies.view("sleep_time")[woken] = 0.0
        self._bodies.sleep_changed()

    # -- snapshots ------------------------------------------------------------------------
    def snapshot(self):
        """An immutable in-memory copy of everything that decides the future (a Snapshot)."""
        return snapshot_world(self)

    def restore(self, snap) -> None:
        """Return to ``snap``; handles of bodies in it stay usable. A bad one changes nothing."""
        restore_world(self, snap)

    def save(self, path, compress: bool = False) -> None:
        """Write the world to ``path`` (.npz with a JSON header; never pickle). See
        ``engine.snapshot`` for the format."""
        save_world(self, path, compress)

    @staticmethod
    def load(path) -> World:
        """A new World from a file written by ``save``; ValueError names what is wrong."""
        return load_world(path, World)

    __getstate__ = world_getstate
    __setstate__ = world_setstate
