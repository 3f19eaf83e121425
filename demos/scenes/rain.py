"""A stream of mixed shapes pouring into a container until it holds 1,000 bodies.

Boxes, circles, hexagons and concave stars (each star is several convex parts) fall from a
spout, four per step, each into a slot of the spout that the previous bodies have already
left, so they never start overlapping.
"""

from __future__ import annotations

import numpy as np

from engine import Box, Circle, ConcavePolygon, Polygon, World

from ..app.registry import scene
from ..app.scene import Scene

TARGET = 1000
PER_STEP = 4
SLOTS = 20  # spout positions; a slot is reused every SLOTS / PER_STEP steps
SPOUT_Y, SPOUT_WIDTH = 26.0, 13.0
FALL_SPEED = 12.0  # m/s at birth: 0.2 m per step, so a slot is clear when reused

KIND_COLOURS = {
    "box": (102, 178, 255, 255),
    "circle": (129, 212, 150, 255),
    "hexagon": (255, 159, 102, 255),
    "star": (240, 122, 140, 255),
}


def _regular(sides: int, radius: float) -> np.ndarray:
    angle = np.arange(sides) * 2.0 * np.pi / sides
    return radius * np.column_stack([np.cos(angle), np.sin(angle)])


def _star(points: int, outer: float, inner: float) -> np.ndarray:
    angle = np.arange(2 * points) * np.pi / points + np.pi / 2
    radius = np.where(np.arange(2 * points) % 2 == 0, outer, inner)
    return np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])


SHAPES = {
    "box": Box(0.7, 0.7),
    "circle": Circle(0.36),
    "hexagon": Polygon(_regular(6, 0.4)),
    "star": ConcavePolygon(_star(5, 0.5, 0.24)),
}


def add_container(world: World) -> None:
    """A U of static boxes: floor and two walls, leaning out a little."""
    static = {"kind": "static", "friction": 0.5}
    world.add_body(Box(26.0, 1.0), position=(0.0, -0.5), **static)
    world.add_body(Box(1.0, 22.0), position=(-13.5, 10.0), angle=-0.06, **static)
    world.add_body(Box(1.0, 22.0), position=(13.5, 10.0), angle=0.06, **static)


class Spout:
    """Adds bodies before each step until the world holds TARGET of them."""

    def __init__(self, colours: dict, seed: int = 7) -> None:
        self.rng = np.random.default_rng(seed)
        self.colours = colours
        self.slot = 0
        self.poured = 0
        self.open = True
        self.slots = np.linspace(-0.5 * SPOUT_WIDTH, 0.5 * SPOUT_WIDTH, SLOTS)
        self.rng.shuffle(self.slots)

    def before_step(self, world: World) -> None:
        if not self.open or self.poured >= TARGET:
            return
        kinds = list(SHAPES)
        for _ in range(min(PER_STEP, TARGET - self.poured)):
            x = self.slots[self.slot % SLOTS] + self.rng.uniform(-0.05, 0.05)
            self.slot += 1
            kind = kinds[self.rng.integers(len(kinds))]
            body = world.add_body(
                SHAPES[kind],
                position=(x, SPOUT_Y),
                angle=self.rng.uniform(0.0, 2.0 * np.pi),
                velocity=(self.rng.uniform(-1.0, 1.0), -FALL_SPEED),
                angular_velocity=self.rng.uniform(-3.0, 3.0),
                friction=0.5,
            )
            self.colours[body] = KIND_COLOURS[kind]
            self.poured += 1

    def on_key(self, name: str) -> bool:
        if name == "T":
            self.open = not self.open
            return True
        return False

    def status(self) -> list[str]:
        state = "pouring" if self.open and self.poured < TARGET else "closed"
        return [
            f"{self.poured} / {TARGET} poured ({state}): boxes, circles, hexagons, concave stars",
        ]


@scene("rain", "mixed shapes pour into a container until it holds 1,000 bodies")
def build() -> Scene:
    world = World()
    add_container(world)
    colours: dict = {}
    spout = Spout(colours)
    return Scene(
        world,
        view=(-15.0, -1.5, 15.0, 27.0),
        before_step=spout.before_step,
        on_key=spout.on_key,
        status=spout.status,
        keys=[("T", "tap on/off")],
        colours=colours,
    )
