"""Snapshots of a 5,000-body world: save and load time and file size, in memory and on disk.

The world is a settled-in pile: 5,000 boxes, circles (each with its own radius, so each is
a distinct shape in the file), hexagons and concave L shapes dropped into a container and
stepped 60 times, so that the warm-start cache and the contact tables are full. Times are
the best of REPEATS runs (the least disturbed by the machine), files go to a temporary
directory.

Run alone with ``python -m bench.snapshot_bench``.
"""

from __future__ import annotations

import copy
import math
import os
import pickle
import tempfile
import time

import numpy as np

from engine import Box, Circle, ConcavePolygon, Polygon, World
from engine.snapshot import load, restore, save, snapshot, world_getstate, world_setstate

BODIES = 5_000
SETTLE_STEPS = 120
REPEATS = 5


def pile(bodies: int = BODIES, seed: int = 0) -> World:
    """``bodies`` mixed bodies in a grid above a walled floor, stepped SETTLE_STEPS times."""
    rng = np.random.default_rng(seed)
    world = World()
    columns = 100
    width = 1.2 * columns
    world.add_body(Box(width + 2, 1), position=(0, -0.5), kind="static")
    for side in (-1, 1):
        world.add_body(Box(1, 80), position=(side * (width / 2 + 0.5), 40), kind="static")
    box = Box(0.8, 0.8)
    hexagon = Polygon(
        [(0.45 * math.cos(t), 0.45 * math.sin(t)) for t in np.arange(6) * math.pi / 3]
    )
    concave = ConcavePolygon([(0, 0), (0.9, 0), (0.9, 0.3), (0.3, 0.3), (0.3, 0.9), (0, 0.9)])
    for i in range(bodies):
        row, column = divmod(i, columns)
        shape = [box, Circle(float(rng.uniform(0.3, 0.45))), hexagon, concave][i % 4]
        position = (1.2 * (column - columns / 2 + 0.5), 0.6 + 1.2 * row)
        world.add_body(shape, position=position, angle=float(rng.uniform(0, 6)))
    for _ in range(SETTLE_STEPS):
        world.step()
    return world


def _best(action, repeats: int = REPEATS) -> float:
    """Best wall time of ``action()`` over ``repeats`` runs, in ms."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return 1e3 * min(times)


def run() -> list[tuple[str, float, str]]:
    """Rows (name, value, unit) for the benchmark table."""
    world = pile()
    label = f"snapshot {BODIES:,} bodies"
    snap = snapshot(world)
    rows = [
        (f"{label}: snapshot() in memory", _best(lambda: snapshot(world)), "ms"),
        (f"{label}: restore()", _best(lambda: restore(world, snap)), "ms"),
        (f"{label}: snapshot arrays", snap.nbytes / 1024, "KiB"),
    ]
    with tempfile.TemporaryDirectory() as directory:
        for compress in (False, True):
            kind = "compressed" if compress else "npz"
            path = os.path.join(directory, f"world-{kind}.npz")
            rows += [
                (
                    f"{label}: save ({kind})",
                    _best(lambda p=path, c=compress: save(world, p, c)),
                    "ms",
                ),
                (f"{label}: load ({kind})", _best(lambda p=path: load(p, World)), "ms"),
                (f"{label}: file size ({kind})", os.path.getsize(path) / 1024, "KiB"),
            ]
    # deepcopy and pickle go through the same snapshot, as World's own methods delegate to
    # engine.snapshot; wired here for as long as World does not define them itself.
    added = [name for name in ("__getstate__", "__setstate__") if name not in vars(World)]
    for name in added:
        setattr(World, name, {"__getstate__": world_getstate, "__setstate__": world_setstate}[name])
    try:
        data = pickle.dumps(world)
        rows += [
            (f"{label}: copy.deepcopy", _best(lambda: copy.deepcopy(world)), "ms"),
            (f"{label}: pickle.dumps", _best(lambda: pickle.dumps(world)), "ms"),
            (f"{label}: pickle.loads", _best(lambda: pickle.loads(data)), "ms"),
            (f"{label}: pickle size", len(data) / 1024, "KiB"),
        ]
    finally:
        for name in added:
            delattr(World, name)
    return rows


if __name__ == "__main__":
    for label, value, unit in run():
        print(f"{label:<52} {value:>14,.1f}  {unit}")
