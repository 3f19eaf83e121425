"""A World's events: registering handlers and reading the last step's contacts and events.

The event log (``engine.event_log``) owns the state; these methods are its public face.
"""

from __future__ import annotations


class WorldEvents:
    """Handlers, contacts and events (part of ``World``)."""

    # -- events (engine.event_log) --------------------------------------------------------
    def on(self, event: str, handler=None, *, between=None):
        """Register ``handler(subject)`` for an event; usable as a decorator.

        Events: "contact_begin", "contact_persist", "contact_end" (subject: Contact),
        "sensor_begin", "sensor_end" (subject: SensorOverlap), and "presolve" (subject:
        Contact; return False to ignore that contact for this step). Handlers run after
        the step, in the order registered; presolve runs inside it, before the solve.

        between: (tag_a, tag_b), two body tags: the handler sees only those pairs, a
        contact with ``body_a`` the body tagged ``tag_a`` (its normal turned to match).
        """
        return self._event_log.on(event, handler, between=between)

    def off(self, event: str, handler, *, between=None) -> None:
        """Unregister a handler added with ``on`` (with the same ``between``, if any): the
        earliest such registration goes."""
        self._event_log.off(event, handler, between=between)

    @property
    def contacts(self) -> list:
        """The Contact of each body pair touching after the last step."""
        return self._event_log.contacts

    @property
    def events(self) -> list:
        """The Events of the last step, for code that polls instead of registering handlers."""
        return self._event_log.events
