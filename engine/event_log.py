"""The event log: a World's contacts, sensor overlaps and events, and its handlers.

Each step hands the log what it found (``presolve`` before the solve, ``record`` after
write-back); the log compares it with the step before and keeps arrays only: Contact and
Event objects are built when someone asks (a handler, ``contacts``, ``events``), so a
world nobody listens to pays for no per-contact work. The World runs ``dispatch`` after
the step.

Its state goes into snapshots and files as plain arrays: ``to_arrays`` gives them,
``validate`` checks a file's, ``from_arrays`` builds a log from them
(``engine.event_arrays`` holds the format). Handlers are code, not state: never saved.
"""

from __future__ import annotations

import numpy as np

from .bulk_views import ContactArrays, contact_arrays
from .contact_solver import Manifolds
from .event_arrays import arrays_of_log, check_arrays, check_shapes, layout, log_state
from .event_handlers import (
    HandlerError,
    call,
    check_between,
    check_event,
    entry,
    no_handlers,
    unregister,
)
from .events import (
    ContactTable,
    Event,
    SensorOverlap,
    began_and_ended,
    body_pair_keys,
    contact_table,
    group_by_pair,
    sensor_order,
    touching_pairs,
)
from .sensor_overlaps import NO_SENSOR_KEYS, sensor_overlaps

NO_KEYS = np.zeros(0, dtype=np.int64)
NO_FLAGS = np.zeros(0, dtype=bool)
NO_HANDLES = np.empty((0, 2), dtype=object)


class EventLog:
    """What the last two steps touched, the last step's events, and the handlers.

    contact_keys: (C,) sorted body-pair keys touching after the last step (they decide the
    next step's contact_begin and contact_end). sensor_keys: (S, 2) the sensor overlaps
    after the last step, (body-pair key, shape-pair key) sorted; sensor_handles: (S, 2)
    object, their Body handles (sensor, other); sensor_shapes: (S, 2) int64 the shapes'
    indices in those bodies' shapes. handlers: event name -> list of callables.
    """

    # Which attributes a snapshot saves (through ``to_arrays``) and which it leaves out:
    # ``engine.snapshot`` refuses a log with an attribute in neither.
    SAVED = {
        "contact_keys": "array contact_keys: decides the next step's contact_begin/end",
        "sensor_keys": "array sensor_keys: decides the next step's sensor_begin/end",
        "sensor_handles": "array sensor_handles (ids): the subjects of the next sensor_end",
        "sensor_shapes": "array sensor_shapes: their shapes (indices in the bodies' shapes)",
        "_tables": "arrays contacts.*: the last two steps' contacts, summed per pair",
        "_pending": "arrays events.*: the last step's events (world.events)",
        "_sensor_pending": "arrays events.sensor_*: the last step's sensor events",
    }
    EXCLUDED = {
        "handlers": "code, not state: restore keeps the world's own, files hold no code; "
        "deepcopy and pickle carry them separately",
        "_sources": "the raw manifolds behind _tables, which are saved instead (summed per "
        "body pair: all that contacts and events read)",
        "_events": "cache of Event objects, rebuilt on demand from _pending",
        # Snapshots refuse to run during a step, and between steps it is None.
        "presolve_error": "a presolve handler's error, raised at the end of its step",
    }

    sensor_overlaps = staticmethod(sensor_overlaps)

    def __init__(self, handlers: dict | None = None):
        self.handlers = no_handlers() if handlers is None else handlers
        self.contact_keys = NO_KEYS
        self.sensor_keys = NO_SENSOR_KEYS
        self.sensor_handles = NO_HANDLES
        self.sensor_shapes = NO_SENSOR_KEYS
        # Per step, the step before the last (0) and the last (1): what a ContactTable is
        # built from, and the table once built.
        self._sources = (None, None)
        self._tables = (None, None)
        # None until a step is recorded: (began, persisting, ended) masks of the tables'
        # pairs, and the sensor events' (old handles, new handles, began, ended, old
        # shapes, new shapes).
        self._pending = None
        self._sensor_pending = None
        self._events = None
        self.presolve_error = None

    @property
    def stepped(self) -> bool:
        """A step has been recorded (its events are the last step's)."""
        return self._pending is not None

    # -- registration -----------------------------------------------------------------------
    def on(self, event: str, handler=None, *, between=None):
        """``World.on``: register ``handler`` (or return a decorator that does)."""
        check_event(event)
        tags = check_between(between)

        def register(function):
            self.handlers[event].append(entry(function, tags))
            return function

        return register if handler is None else register(handler)

    def off(self, event: str, handler, *, between=None) -> None:
        """``World.off``: unregister the earliest matching registration."""
        check_event(event)
        unregister(self.handlers, event, handler, check_between(between))

    # -- during the step --------------------------------------------------------------------
    def presolve(self, manifolds: Manifolds, body_ids, handles, part_shapes):
        """Let ``presolve`` handlers drop contacts for this step (one-way platforms).

        body_ids: (N,) int64; handles: (N,) object Body handles; part_shapes: (P,) int64
        each part's shape index. Returns the manifolds kept and the (K,) body-pair keys of
        the pairs dropped. A handler's error is kept (``presolve_error``), not raised.
        """
        handlers = self.handlers["presolve"]
        if not handlers or len(manifolds) == 0:
            return manifolds, np.zeros(0, dtype=np.int64)
        keys = body_pair_keys(manifolds.body_a, manifolds.body_b, body_ids)
        table = contact_table(
            manifolds, np.ones(len(manifolds), dtype=bool), keys, handles,
            part_shapes[manifolds.parts],
        )  # fmt: skip
        unique, pair = group_by_pair(keys)
        keep_pair = np.ones(len(unique), dtype=bool)
        # One call per touching body pair: user code decides, so this loop is inherent.
        for i in range(len(table)):
            contact = table.contact(i)
            for handler in handlers:
                try:
                    verdict = call(handler, "presolve", contact)
                except HandlerError as error:
                    # The step still completes; the error is raised once it has.
                    self.presolve_error = self.presolve_error or error
                    continue
                # False (or numpy's False) ignores the contact; None keeps it.
                if verdict is not None and not verdict:
                    keep_pair[i] = False
                    break
        return manifolds.subset(np.flatnonzero(keep_pair[pair])), unique[~keep_pair]

    def take_presolve_error(self):
        """The error a presolve handler raised this step (or None), forgotten."""
        error, self.presolve_error = self.presolve_error, None
        return error

    def record(self, manifolds: Manifolds, sensors, body_ids, handles, part_shapes) -> None:
        """This step's touching pairs and what changed since the last step.

        sensors: what ``sensor_overlaps`` found; body_ids: (N,) int64; handles: (N,)
        object Body handles; part_shapes: (P,) int64. Only keys are compared here.
        """
        sensor_keys, sensor_rows, sensor_shapes = sensors
        if not (
            len(manifolds) or len(self.contact_keys) or len(sensor_keys) or len(self.sensor_keys)
        ):
            # Nothing touches now or did before: nothing to compare (the common lone body).
            self._sources = (self._sources[1], None)
            self._tables = (self._tables[1], None)
            self._pending = (NO_FLAGS, NO_FLAGS, NO_FLAGS)
            self._sensor_pending = (self.sensor_handles, self.sensor_handles, NO_FLAGS,
                                    NO_FLAGS, self.sensor_shapes, self.sensor_shapes)  # fmt: skip
            self._events = None
            return
        touching, keys, current_keys = touching_pairs(
            manifolds.body_a, manifolds.body_b, body_ids, manifolds.separation,
            manifolds.normal_impulse, manifolds.slop,
        )  # fmt: skip
        began, persisting, ended = began_and_ended(self.contact_keys, current_keys)
        old = len(self.sensor_keys)
        if old or len(sensor_keys):
            # Sensor overlaps compare by (body pair, shape pair): ranks of both lists at once.
            both = np.concatenate([self.sensor_keys, sensor_keys])
            rank = sensor_order(both[:, 0], both[:, 1])
            sensor_began, _, sensor_ended = began_and_ended(rank[:old], rank[old:])
        else:  # no sensor overlaps now or before (most worlds)
            sensor_began = sensor_ended = NO_FLAGS
        # The part rows the manifolds name can change before the table is built (a body
        # removed): their shapes are looked up now.
        shapes = part_shapes[manifolds.parts]
        self._sources = (self._sources[1], (manifolds, touching, keys, handles, shapes))
        self._tables = (self._tables[1], None)
        self.contact_keys = current_keys
        self._pending = (began, persisting, ended)
        self._sensor_pending = (
            self.sensor_handles,
            handles[sensor_rows] if len(sensor_rows) else np.empty((0, 2), dtype=object),
            sensor_began,
            sensor_ended,
            self.sensor_shapes,
            sensor_shapes,
        )
        self.sensor_keys = sensor_keys
        self.sensor_handles = self._sensor_pending[1]
        self.sensor_shapes = sensor_shapes
        self._events = None  # built on demand from the pending arrays

    # -- after the step ---------------------------------------------------------------------
    def contact_table(self, which: int) -> ContactTable:
        """The ContactTable of the step before the last (0) or of the last step (1)."""
        if self._tables[which] is None:
            source = self._sources[which]
            table = ContactTable.empty() if source is None else contact_table(*source)
            tables = list(self._tables)
            tables[which] = table
            self._tables = tuple(tables)
        return self._tables[which]

    @property
    def contacts(self) -> list:
        """The Contact of each body pair touching after the last step."""
        table = self.contact_table(1)
        return [table.contact(i) for i in range(len(table))]

    def contact_arrays(self, row_of_id: np.ndarray) -> ContactArrays:
        """The last step's contacts as arrays; row_of_id: (I,) int64 body id -> row."""
        return contact_arrays(self.contact_table(1), row_of_id)

    @property
    def events(self) -> list:
        """The Events of the last step."""
        if self._events is None:
            self._events = self._build_events(None)
        return list(self._events)

    def _build_events(self, wanted) -> list:
        """Event objects of the last step; only the kinds in ``wanted`` (None: all)."""
        events = []
        if self._pending is None:
            return events
        began, persisting, ended = self._pending
        previous, current = self.contact_table(0), self.contact_table(1)
        old_handles, new_handles, sensor_began, sensor_ended, old_shapes, new_shapes = (
            self._sensor_pending
        )
        groups = (
            ("contact_begin", current, np.flatnonzero(began)),
            ("contact_persist", current, np.flatnonzero(persisting)),
            ("contact_end", previous, np.flatnonzero(ended)),
        )
        for name, table, rows in groups:
            if wanted is None or name in wanted:
                events += [Event(name, table.contact(i)) for i in rows]
        for name, handles, shapes, rows in (
            ("sensor_begin", new_handles, new_shapes, np.flatnonzero(sensor_began)),
            ("sensor_end", old_handles, old_shapes, np.flatnonzero(sensor_ended)),
        ):
            if wanted is None or name in wanted:
                events += [Event(name, _overlap(handles[i], shapes[i])) for i in rows]
        return events

    def dispatch(self) -> None:
        """Run the handlers for the last step's events.

        A body removed by a handler is gone for the handlers after it: events that involve
        it are skipped. A handler that raises stops the dispatch; the step is complete.
        """
        wanted = {name for name, handlers in self.handlers.items() if handlers} - {"presolve"}
        if not wanted:
            return
        for event in self._build_events(wanted):
            subject = event.subject
            bodies = (
                (subject.body_a, subject.body_b)
                if event.name.startswith("contact")
                else (subject.sensor, subject.other)
            )
            ending = event.name in ("contact_end", "sensor_end")
            for handler in list(self.handlers[event.name]):
                # A body removed by an earlier handler is gone for every later one.
                if not ending and any(body.world is None for body in bodies):
                    break
                call(handler, event.name, subject)

    # -- snapshots and files ----------------------------------------------------------------
    layout = staticmethod(layout)

    def to_arrays(self, ids_of) -> dict:
        """The arrays a snapshot holds for the log, by name (``engine.event_arrays``);
        ids_of: (...) object array of Body handles -> (...) int64 their ids."""
        return arrays_of_log(self, ids_of)

    @staticmethod
    def validate(check, stepped: bool, handle_ids: np.ndarray, has_shapes: bool = True):
        """Check a file's event arrays with ``check`` (an ``engine.snapshot_format``
        ArrayChecker)."""
        check_arrays(check, stepped, handle_ids, has_shapes)

    @staticmethod
    def validate_shapes(check, shapes: tuple, handle_ids: np.ndarray, next_id: int) -> None:
        """Check that the event arrays' shape indices name shapes their bodies have."""
        check_shapes(check, shapes, handle_ids, next_id)

    @classmethod
    def from_arrays(cls, arrays: dict, handles_of, stepped: bool, handlers=None) -> EventLog:
        """A log from validated arrays; handles_of(name): that array of ids as Body
        handles. handlers: the registry to keep (None: none registered)."""
        log = cls(handlers)
        for name, value in log_state(arrays, handles_of, stepped).items():
            setattr(log, name, value)
        return log


def _overlap(handles, shapes) -> SensorOverlap:
    """A SensorOverlap from its bodies (sensor, other) and their shape indices (2,)."""
    sensor, other = handles
    return SensorOverlap(sensor, other, sensor.shapes[shapes[0]], other.shapes[shapes[1]])
