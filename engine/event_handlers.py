"""Event handlers as the event log keeps them: registration, calling, and their error.

Handlers are code, not state: a world's handlers are a dict, event name -> the list of
callables registered for it (plain functions, or ``TaggedHandler`` for those registered
``between`` two tags), in the order registered. Snapshots and files never hold them.
"""

from __future__ import annotations

from .events import EVENT_NAMES, TaggedHandler
from .filtering import check_tag


class HandlerError(RuntimeError):
    """An event handler raised; the step it belongs to had completed."""


def no_handlers() -> dict:
    """An empty registry: every event name -> []."""
    return {name: [] for name in EVENT_NAMES}


def entry(function, tags: tuple | None):
    """What ``handlers[event]`` holds for ``function``: itself, or wrapped for ``tags``."""
    if not callable(function):
        raise TypeError(f"handler: expected a callable, got {type(function).__name__}")
    return function if tags is None else TaggedHandler(function, tags)


def unregister(handlers: dict, event: str, function, tags: tuple | None) -> None:
    """Remove the earliest registration of ``function`` with the same ``tags``."""
    for i, registered in enumerate(handlers[event]):
        tagged = isinstance(registered, TaggedHandler)
        key = (registered.function, registered.tags) if tagged else (registered, None)
        if key == (function, tags):
            del handlers[event][i]
            return
    raise ValueError("handler: it is not registered for this event" + (
        f" between {tags}" if tags else ""))  # fmt: skip


def check_event(event: str) -> None:
    if event not in EVENT_NAMES:
        raise ValueError(f"event: must be one of {', '.join(EVENT_NAMES)}, got {event!r}")


def check_between(value) -> tuple | None:
    """``between``: None, or a pair of body tags."""
    if value is None:
        return None
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise TypeError(f"between: expected a pair of tags (tag_a, tag_b), got {value!r}")
    if any(tag is None for tag in value):
        raise TypeError(f"between: expected two tags (str), got {value!r}")
    return (check_tag(value[0], "between"), check_tag(value[1], "between"))


def call(handler, event: str, subject):
    """``handler(subject)``; whatever it raises becomes a HandlerError naming it."""
    try:
        return handler(subject)
    except Exception as error:
        name = getattr(handler, "__qualname__", repr(handler))
        raise HandlerError(f"{event} handler {name} raised {error!r}") from error
