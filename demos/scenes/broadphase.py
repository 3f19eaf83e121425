"""The broad phase at work: 2,000 bodies bouncing in a box, with its cells drawn.

Gravity is off and every collision is elastic, so the crowd keeps moving forever. The
broad phase's job is to find the few pairs of parts whose boxes overlap among the two
million possible pairs; the overlay shows the occupied grid cells or quadtree nodes, and
the HUD counts the pairs found at the current poses and the time that took. G switches the
world between the two methods (the step uses the same one).
"""

from __future__ import annotations

import time

import numpy as np

from engine import Box, Circle, Polygon, World
from engine.broadphase import find_pairs

from .. import world_data
from ..app.registry import scene
from ..app.scene import Scene
from ..draw.contact_points import part_boxes

COUNT = 2000
ARENA = (64.0, 36.0)


@scene("broadphase", "2,000 bodies bouncing in a box; the grid or quadtree drawn live (G)")
def build() -> Scene:
    world = World(gravity=(0.0, 0.0), broadphase="grid")
    width, height = ARENA
    wall = {"kind": "static", "restitution": 1.0, "friction": 0.0}
    world.add_body(Box(width + 2.0, 1.0), position=(0.0, -0.5 * height - 0.5), **wall)
    world.add_body(Box(width + 2.0, 1.0), position=(0.0, 0.5 * height + 0.5), **wall)
    world.add_body(Box(1.0, height), position=(-0.5 * width - 0.5, 0.0), **wall)
    world.add_body(Box(1.0, height), position=(0.5 * width + 0.5, 0.0), **wall)

    rng = np.random.default_rng(5)
    shapes = [Box(0.6, 0.6), Circle(0.3), Polygon([(-0.35, -0.3), (0.4, -0.25), (0.0, 0.4)])]
    # A jittered lattice, so that nothing starts overlapping.
    columns = 64
    rows = -(-COUNT // columns)
    xs = (np.arange(COUNT) % columns + 0.5) / columns * (width - 2.0) - 0.5 * (width - 2.0)
    ys = (np.arange(COUNT) // columns + 0.5) / rows * (height - 2.0) - 0.5 * (height - 2.0)
    for i in range(COUNT):
        speed, heading = rng.uniform(1.0, 5.0), rng.uniform(0.0, 2.0 * np.pi)
        world.add_body(
            shapes[i % len(shapes)],
            position=(xs[i] + rng.uniform(-0.1, 0.1), ys[i] + rng.uniform(-0.1, 0.1)),
            angle=rng.uniform(0.0, 2.0 * np.pi),
            velocity=(speed * np.cos(heading), speed * np.sin(heading)),
            angular_velocity=rng.uniform(-2.0, 2.0),
            restitution=1.0,
            friction=0.0,
        )

    figures = {"pairs": 0, "ms": 0.0}

    def on_frame(_input) -> None:
        lower, upper = part_boxes(world)
        start = time.perf_counter()
        pairs = find_pairs(lower, upper, world.broadphase, world_data.cell_size(world))
        elapsed = (time.perf_counter() - start) * 1000.0
        figures["pairs"] = len(pairs)
        figures["ms"] = elapsed if figures["ms"] == 0.0 else 0.9 * figures["ms"] + 0.1 * elapsed

    def on_key(name: str) -> bool:
        if name == "G":
            world.broadphase = "quadtree" if world.broadphase == "grid" else "grid"
            figures["ms"] = 0.0
            return True
        return False

    def status() -> list[str]:
        boxes = len(world_data.parts(world).owner)
        possible = boxes * (boxes - 1) // 2
        return [
            f"{world.broadphase}: {figures['pairs']:,} overlapping box pairs of {possible:,} "
            f"possible, found in {figures['ms']:.1f} ms",
        ]

    return Scene(
        world,
        view=(-0.5 * width - 1.0, -0.5 * height - 1.0, 0.5 * width + 1.0, 0.5 * height + 1.0),
        on_frame=on_frame,
        on_key=on_key,
        status=status,
        keys=[("G", "grid/quadtree")],
        overlays={"broadphase": True},
        script=[(120, "G")],
    )
