"""A 20-row pyramid of boxes; B fires a heavy ball into it."""

from __future__ import annotations

from engine import Box, Circle, World

from ..app.registry import scene
from ..app.scene import Scene

ROWS = 20
SIZE = 1.0
BALL_SPEED = 40.0  # m/s
BALL_DENSITY = 20.0  # the boxes have 1


@scene("pyramid", "a 20-row box pyramid; B fires a heavy ball into it")
def build() -> Scene:
    world = World(gravity=(0.0, -9.81))
    world.add_body(Box(80.0, 2.0), position=(0.0, -1.0), kind="static", friction=0.8)
    for row in range(ROWS):
        count = ROWS - row
        for i in range(count):
            x = (i - 0.5 * (count - 1)) * SIZE
            # A hair of vertical gap, so the rows settle onto each other instead of
            # starting in contact at rounding distance.
            world.add_body(Box(SIZE, SIZE), position=(x, (row + 0.5) * SIZE * 1.001), friction=0.7)
    fired = []

    def fire() -> None:
        ball = world.add_body(
            Circle(1.2),
            position=(-18.0, 4.0 + 2.5 * (len(fired) % 4)),
            velocity=(BALL_SPEED, 3.0),
            density=BALL_DENSITY,
            friction=0.4,
            bullet=True,
        )
        fired.append(ball)
        demo.colours[ball] = (255, 240, 200, 255)

    def on_key(name: str) -> bool:
        if name == "B":
            fire()
            return True
        return False

    def status() -> list[str]:
        if not fired:
            return ["press B to fire"]
        return [
            f"{len(fired)} fired: radius 1.2 m, density {BALL_DENSITY:.0f}, {BALL_SPEED:.0f} m/s"
        ]

    demo = Scene(
        world,
        view=(-20.0, -1.0, 20.0, 21.0),
        on_key=on_key,
        status=status,
        keys=[("B", "fire ball")],
        script=[(100, "B")],
    )
    return demo
