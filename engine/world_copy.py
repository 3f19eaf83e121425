"""``copy.deepcopy`` and ``pickle`` of a World: through a snapshot, handlers kept.

deepcopy shares the (immutable) snapshot and calls the same handler objects; pickle keeps
the snapshot's arrays and shapes as data and pickles each handler, naming one that cannot
be pickled.
"""

from __future__ import annotations

import pickle
import threading

from .snapshot_build import apply
from .snapshot_check import check_snapshot
from .snapshot_format import SETTINGS
from .snapshot_take import Snapshot, snapshot


def world_getstate(world) -> dict:
    """``World.__getstate__``: a snapshot and the event handlers.

    deepcopy: the copy shares the (immutable) snapshot and calls the same handler objects.
    pickle: the snapshot is pickled as arrays and shape data; each handler is pickled too,
    and one that cannot be raises TypeError naming it.
    """
    snap = snapshot(world)
    # Outside the (shared, immutable) snapshot, so that deepcopy copies the user data.
    user_data = [data for _, data in snap._labels]
    return {
        "snapshot": snap,
        "handlers": _Handlers(world._event_log.handlers),
        "user_data": user_data,
    }


def world_setstate(world, state: dict) -> None:
    """``World.__setstate__``: ``world`` is a bare ``World.__new__`` object."""
    if not isinstance(state, dict) or not isinstance(state.get("snapshot"), Snapshot):
        raise ValueError("pickled World: its state is not a World snapshot")
    world_type = type(world)
    snap = state["snapshot"]
    where = "pickled World"
    checked = check_snapshot(snap._header, dict(snap._arrays), snap._shapes, where, world_type,
                             snap._labels)  # fmt: skip
    user_data = state.get("user_data")
    if isinstance(user_data, list) and len(user_data) == len(checked.labels):
        checked.labels = tuple((tag, data) for (tag, _), data in zip(checked.labels, user_data))
    # A fully initialised World first, so that what this module does not restore (handlers,
    # caches, attributes added later with their defaults) is as a new World has it.
    probe = checked.world
    world_type.__init__(world, **{arg: getattr(probe, attr) for arg, attr in SETTINGS.items()})
    apply(world, checked, snap._handles, snap._joint_handles, fresh=True)
    handlers = state.get("handlers")
    if isinstance(handlers, _Handlers):
        for event, functions in handlers.by_event.items():
            world._event_log.handlers[event] = list(functions)


class _Handlers:
    """A World's handlers inside its copied or pickled state.

    deepcopy keeps the handler objects (functions cannot be meaningfully deep-copied, and
    a copied bound method would drag a copy of its whole object along); pickling checks
    each handler first so that the error names the culprit.
    """

    __slots__ = ("by_event",)

    def __init__(self, by_event: dict):
        self.by_event = {event: list(functions) for event, functions in by_event.items()}

    def __copy__(self) -> _Handlers:
        return _Handlers(self.by_event)

    def __deepcopy__(self, memo) -> _Handlers:
        return _Handlers(self.by_event)

    def __reduce__(self):
        _check_picklable(self.by_event)
        return _Handlers, (self.by_event,)


# Set while checking handlers: a handler whose pickle holds the world (a bound method of a
# game object that owns it) would otherwise check itself again, forever.
_checking = threading.local()


def _check_picklable(by_event: dict) -> None:
    if getattr(_checking, "active", False):
        return
    _checking.active = True
    try:
        for event, functions in by_event.items():
            for function in functions:
                try:
                    pickle.dumps(function)
                except Exception as error:
                    name = getattr(function, "__qualname__", None) or repr(function)
                    raise TypeError(
                        f"cannot pickle World: its {event!r} handler {name} cannot be pickled "
                        f"({error}); unregister it with world.off({event!r}, handler) first, "
                        "or register a module-level function"
                    ) from error
    finally:
        _checking.active = False
