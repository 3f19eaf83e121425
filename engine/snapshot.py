"""Snapshots of a World: in memory, on disk, and through ``copy.deepcopy`` and ``pickle``.

>>> from engine import Box, World
>>> from engine.snapshot import restore, snapshot
>>> world = World()
>>> crate = world.add_body(Box(1, 1), position=(0, 5))
>>> saved = snapshot(world)
>>> for _ in range(30):
...     world.step()
>>> restore(world, saved)
>>> crate.position.tolist()
[0.0, 5.0]

A World is its settings plus components that own their state: the body store, the part
table, the joint store, the warm-start cache, the clock and the event log
(``engine.snapshot_take.COMPONENTS``). Each gives its arrays and header scalars, checks a
snapshot's (``validate``) and builds itself from checked ones (``from_arrays``); the
modules here only loop over them:

- ``engine.snapshot_take``: ``snapshot`` and the Snapshot object;
- ``engine.snapshot_check``: checking a snapshot completely before anything is built;
- ``engine.snapshot_geometry``: the parts and masses a file's shapes must make;
- ``engine.snapshot_build``: building the components and swapping them in at once;
- ``engine.world_file``: ``save`` and ``load`` (the file format: docs/file-format.md);
- ``engine.world_copy``: ``copy.deepcopy`` and ``pickle``.
"""

from __future__ import annotations

from .snapshot_build import apply
from .snapshot_check import check_snapshot
from .snapshot_format import FORMAT_NAME, VERSION
from .snapshot_take import (
    EXCLUDED_ATTRIBUTES,
    SAVED_ATTRIBUTES,
    Snapshot,
    check_not_stepping,
    check_world,
    snapshot,
)
from .world_copy import world_getstate, world_setstate
from .world_file import load, save

__all__ = [
    "FORMAT_NAME",
    "VERSION",
    "SAVED_ATTRIBUTES",
    "EXCLUDED_ATTRIBUTES",
    "Snapshot",
    "snapshot",
    "restore",
    "save",
    "load",
    "world_getstate",
    "world_setstate",
]


def restore(world, snap: Snapshot) -> None:
    """Set the state of ``world`` to ``snap`` (taken from this world or another one).

    The snapshot is checked first; a bad one raises ValueError and leaves the world as it
    was. Handles of this world keep working for the bodies and joints that exist in the
    snapshot, and report "removed" for the others. Body and joint ids are never reused:
    those added after a restore get ids above every id this world has handed out (the
    relative order of ids, all that event order depends on, is unchanged). The world keeps
    its event handlers.
    During a step (from a presolve handler) it raises RuntimeError; from a contact or
    sensor handler it works, but the handlers after it still get the step's events.
    """
    check_world(world, "world")
    check_not_stepping(world, "restore")
    if not isinstance(snap, Snapshot):
        raise TypeError(f"snap: expected a Snapshot, got {type(snap).__name__}")
    checked = check_snapshot(
        snap._header, dict(snap._arrays), snap._shapes, "snapshot", type(world), snap._labels
    )
    apply(world, checked, snap._handles, snap._joint_handles, fresh=False)
