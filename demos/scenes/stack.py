"""Vertical stacks of boxes and a house of cards: resting contact and friction at work.

The stacks test the solver's patience (every box rests on the one below, the bottom one
carries them all); the card house tests friction: each card leans on its partner and only
friction at its foot keeps it from sliding out.
"""

from __future__ import annotations

import numpy as np

from engine import Box, Circle, World

from ..app.registry import scene
from ..app.scene import Scene, counted

STACKS = ((-15.0, 10), (-12.5, 14), (-10.0, 18))  # (x, boxes)
CARD_LENGTH, CARD_THICKNESS = 2.0, 0.08
LEAN = 0.32  # rad from vertical
FRICTION = 0.9
LEVELS = 4


def add_stacks(world: World) -> None:
    """Columns of unit boxes, each a hair above the last so they start just apart."""
    for x, count in STACKS:
        for i in range(count):
            world.add_body(Box(1.0, 1.0), position=(x, 0.5 + i * 1.0005), friction=0.7)


def add_card_house(world: World, x0: float, levels: int) -> None:
    """Pairs of leaning cards (A-frames) with flat cards across their tops, ``levels`` high."""
    length, thick, lean = CARD_LENGTH, CARD_THICKNESS, LEAN
    # Centre offset that makes the inner top corners of a leaning pair meet at the apex.
    reach = 0.5 * length * np.sin(lean) + 0.5 * thick * np.cos(lean)
    rise = length * np.cos(lean) + thick * np.sin(lean)  # height of an A-frame
    pitch = 4.0 * reach + 0.1  # distance between neighbouring apexes
    base = 0.0
    for level in range(levels):
        frames = levels - level
        for i in range(frames):
            apex_x = x0 + (i - 0.5 * (frames - 1)) * pitch
            for side in (-1.0, 1.0):
                world.add_body(
                    Box(thick, length),
                    position=(apex_x + side * reach, base + 0.5 * rise + 0.002),
                    angle=side * lean,
                    friction=FRICTION,
                )
        base += rise + 0.004
        for i in range(frames - 1):
            world.add_body(
                Box(0.9 * pitch + 2.0 * reach, thick),
                position=(x0 + (i + 0.5 - 0.5 * (frames - 1)) * pitch, base + 0.5 * thick),
                friction=FRICTION,
            )
        base += thick + 0.004


@scene("stack", "box stacks 10, 14 and 18 high, and a four-level house of cards")
def build() -> Scene:
    world = World()
    world.add_body(Box(60.0, 2.0), position=(0.0, -1.0), kind="static", friction=FRICTION)
    add_stacks(world)
    add_card_house(world, 4.0, LEVELS)
    thrown = []

    def on_key(name: str) -> bool:
        if name == "B":
            # A light ball lobbed at the card house: it only takes a nudge.
            thrown.append(
                world.add_body(
                    Circle(0.35), position=(-5.0, 9.0), velocity=(9.0, -1.0), density=2.0
                )
            )
            return True
        return False

    return Scene(
        world,
        view=(-17.0, -1.0, 13.0, 19.0),
        on_key=on_key,
        keys=[("B", "lob a ball")],
        status=lambda: [
            f"friction {FRICTION} everywhere; cards lean {np.degrees(LEAN):.0f} degrees",
            f"{counted(len(thrown), 'ball')} lobbed"
            if thrown
            else "B lobs a ball at the card house",
        ],
        script=[(150, "B")],
    )
