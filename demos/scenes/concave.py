"""Concave outlines and the convex parts the engine splits them into, tumbling together.

Every ConcavePolygon is triangulated and merged into convex parts when it is built; the
narrow phase only ever sees those parts. P switches between the true outlines and the
decomposition (each part in its own colour).
"""

from __future__ import annotations

import numpy as np

from engine import Box, ConcavePolygon, World

from ..app.registry import scene
from ..app.scene import Scene


def _star(points: int, outer: float, inner: float) -> list:
    angle = np.arange(2 * points) * np.pi / points + np.pi / 2
    radius = np.where(np.arange(2 * points) % 2 == 0, outer, inner)
    return np.column_stack([radius * np.cos(angle), radius * np.sin(angle)]).tolist()


def _crescent(radius: float, offset: float, bite: float, steps: int = 12) -> list:
    """A moon: the disc of ``radius`` minus a disc of radius ``bite`` centred ``offset``
    to the right; outer arc counter-clockwise, then the bitten arc back."""
    x0 = (radius**2 - bite**2 + offset**2) / (2.0 * offset)
    y0 = np.sqrt(radius**2 - x0**2)
    start = np.arctan2(y0, x0)
    outer = np.linspace(start, 2.0 * np.pi - start, steps)
    # The bite's arc runs from the lower crossing back up to the upper one through its
    # leftmost point (clockwise), leaving out the crossings already on the outer arc.
    low, high = np.arctan2(-y0, x0 - offset) % (2 * np.pi), np.arctan2(y0, x0 - offset)
    inner = np.linspace(low, high, steps)[1:-1]
    points = [(radius * np.cos(t), radius * np.sin(t)) for t in outer]
    points += [(offset + bite * np.cos(t), bite * np.sin(t)) for t in inner]
    return points


OUTLINES = {
    "L": [(0, 0), (2, 0), (2, 0.6), (0.6, 0.6), (0.6, 2), (0, 2)],
    "U": [(0, 0), (2.2, 0), (2.2, 1.6), (1.6, 1.6), (1.6, 0.6), (0.6, 0.6), (0.6, 1.6), (0, 1.6)],
    "T": [(0.75, 0), (1.35, 0), (1.35, 1.4), (2.1, 1.4), (2.1, 2.0), (0, 2.0), (0, 1.4),
          (0.75, 1.4)],
    "star": _star(5, 1.1, 0.45),
    "arrow": [(0, 0.3), (1.2, 0.3), (1.2, 0), (2, 0.6), (1.2, 1.2), (1.2, 0.9), (0, 0.9)],
    "moon": _crescent(1.0, 0.6, 0.85),
}  # fmt: skip
COMB = [(0, 0), (2.4, 0), (2.4, 1.4), (2.0, 1.4), (2.0, 0.5), (1.4, 0.5), (1.4, 1.4), (1.0, 1.4),
        (1.0, 0.5), (0.4, 0.5), (0.4, 1.4), (0, 1.4)]  # fmt: skip


@scene("concave", "concave outlines and their convex parts (P) tumbling together")
def build() -> Scene:
    world = World()
    static = {"kind": "static", "friction": 0.6}
    # A bowl of three slabs, and a comb-shaped static shelf that catches pieces.
    world.add_body(Box(22.0, 1.0), position=(0.0, -0.5), **static)
    world.add_body(Box(1.0, 14.0), position=(-11.0, 6.0), angle=-0.25, **static)
    world.add_body(Box(1.0, 14.0), position=(11.0, 6.0), angle=0.25, **static)
    world.add_body(ConcavePolygon(COMB), position=(-5.0, 5.0), angle=0.15, **static)
    rng = np.random.default_rng(11)
    shapes = [ConcavePolygon(outline) for outline in OUTLINES.values()]
    for i in range(36):
        shape = shapes[i % len(shapes)]
        x = -7.0 + (i % 8) * 2.1 + rng.uniform(-0.2, 0.2)
        world.add_body(
            shape,
            position=(x, 9.0 + (i // 8) * 2.6),
            angle=rng.uniform(0.0, 2.0 * np.pi),
            angular_velocity=rng.uniform(-2.0, 2.0),
            friction=0.5,
        )
    parts = sum(len(body.shapes[0].parts) for body in world.bodies if body.kind == "dynamic")

    state = {"parts": False}
    demo = Scene(
        world,
        view=(-12.5, -1.0, 12.5, 19.5),
        keys=[("P", "show parts")],
        overlays={"part_edges": False},
        status=lambda: [
            f"36 concave bodies = {parts} convex parts; "
            + ("showing the parts" if state["parts"] else "showing the outlines (P: parts)")
        ],
        script=[(150, "P")],
    )

    def on_key(name: str) -> bool:
        if name != "P":
            return False
        state["parts"] = not state["parts"]
        demo.overlays["part_colours"] = state["parts"]
        demo.overlays["part_edges"] = state["parts"]
        return True

    demo.on_key = on_key
    return demo
