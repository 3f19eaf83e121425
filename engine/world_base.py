"""The base class of World, for the modules World itself is built from.

Snapshots take a World and check that they were given one; checking against this base
(World derives from it) spares them importing ``engine.world``, which imports them.
Snapshots that must make a World are given the class by the World method that calls them.
(The queries take the state they read instead: see ``engine.queries``.)
"""

from __future__ import annotations


class WorldBase:
    """What every World is an instance of (no state of its own)."""

    __slots__ = ()
