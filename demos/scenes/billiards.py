"""Restitution and friction: a break shot on a billiard table and two Newton's cradles.

The table is seen from above, so gravity is off. Real balls slow down by rolling
resistance, which a 2D rigid-body engine does not model; here a per-step hook scales the
table balls' velocities by (1 - DAMPING * dt), a linear damping, and stops them below a
crawl. Cushions and balls are nearly elastic (restitution 0.9 / 0.95) and almost
frictionless.

The cradles are rows of balls on a frictionless floor with restitution 1. In the upper
row the balls touch: the solver resolves the whole row's contacts together and the impulse
spreads along it, so several balls move off. In the lower row they stand 15 cm apart, more
than a ball travels in one step (8 m/s / 60 = 13 cm): the collisions happen one at a time
and the last ball leaves alone, as in a real cradle.
"""

from __future__ import annotations

import numpy as np

from engine import Box, Circle, World

from ..app.registry import scene
from ..app.scene import Scene, counted

BALL = 0.5
TABLE = (28.0, 14.0)  # inner width, height; bottom-left corner at (-14, 0)
DAMPING = 0.45  # 1/s: fraction of speed lost per second on the cloth
REST_SPEED = 0.05  # m/s below which a table ball stops
BREAK_SPEED = 32.0
STRIKE_SPEED = 8.0  # the cradles' striker
# Wider than a step's travel at STRIKE_SPEED, so no two impacts fall in the same step.
CRADLE_GAP = 0.15

BALL_COLOURS = [
    (250, 210, 70, 255),  # 1 yellow
    (70, 120, 230, 255),  # 2 blue
    (230, 70, 60, 255),  # 3 red
    (140, 80, 200, 255),  # 4 purple
    (255, 140, 40, 255),  # 5 orange
    (40, 160, 90, 255),  # 6 green
    (150, 50, 60, 255),  # 7 maroon
    (30, 30, 34, 255),  # 8 black
]
CUE_COLOUR = (245, 245, 240, 255)
CLOTH = (34, 92, 64, 255)
WOOD = (150, 100, 62, 255)


def rack_positions(apex, gap: float = 0.02) -> np.ndarray:
    """The 15 ball centres of a triangle rack pointing left from ``apex`` (2,)."""
    pitch = 2.0 * BALL + gap
    rows = []
    for row in range(5):
        for i in range(row + 1):
            rows.append((row * pitch * np.sqrt(3) / 2, (i - row / 2) * pitch))
    return np.asarray(apex) + np.array(rows)


class Table:
    """Balls on cloth: the rack, the cue ball, the damping hook."""

    def __init__(self, world: World, colours: dict) -> None:
        self.world = world
        width, height = TABLE
        cushion = {"kind": "static", "restitution": 0.9, "friction": 0.1}
        left, bottom = -0.5 * width, 0.0
        cushions = [
            world.add_body(Box(width + 2.0, 1.0), position=(0.0, bottom - 0.5), **cushion),
            world.add_body(Box(width + 2.0, 1.0), position=(0.0, bottom + height + 0.5), **cushion),
            world.add_body(Box(1.0, height), position=(left - 0.5, 0.5 * height), **cushion),
            world.add_body(Box(1.0, height), position=(-left + 0.5, 0.5 * height), **cushion),
        ]
        for body in cushions:
            colours[body] = WOOD
        ball = {"restitution": 0.95, "friction": 0.05}
        self.balls = []
        for number, centre in enumerate(rack_positions((5.0, 0.5 * height))):
            body = world.add_body(Circle(BALL), position=centre, **ball)
            colours[body] = BALL_COLOURS[number % len(BALL_COLOURS)]
            self.balls.append(body)
        self.cue = world.add_body(Circle(BALL), position=(-8.0, 0.5 * height), **ball)
        colours[self.cue] = CUE_COLOUR
        self.balls.append(self.cue)
        self.rng = np.random.default_rng(3)

    def shoot(self) -> None:
        aim = self.rng.uniform(-0.01, 0.01)
        self.cue.velocity = BREAK_SPEED * np.array([np.cos(aim), np.sin(aim)])

    def before_step(self, world: World) -> None:
        """Linear damping on the cloth: v *= 1 - DAMPING * dt; crawling balls stop."""
        keep = 1.0 - DAMPING * world.dt
        for ball in self.balls:
            velocity = ball.velocity * keep
            if np.hypot(*velocity) < REST_SPEED:
                velocity[:] = 0.0
            ball.velocity = velocity
            ball.angular_velocity = ball.angular_velocity * keep

    def moving(self) -> int:
        return sum(1 for ball in self.balls if np.hypot(*ball.velocity) > 0.0)


def add_cradle(world: World, y: float, gap: float, colours: dict) -> list:
    """Five balls in a row ``gap`` apart, a striker, and elastic end walls."""
    elastic = {"restitution": 1.0, "friction": 0.0}
    pitch = 2.0 * BALL + gap
    world.add_body(Box(0.6, 2.0), position=(-13.0, y), kind="static", **elastic)
    world.add_body(Box(0.6, 2.0), position=(13.0, y), kind="static", **elastic)
    row = [
        world.add_body(Circle(BALL), position=(i * pitch - 2.0 * pitch, y), **elastic)
        for i in range(5)
    ]
    striker = world.add_body(Circle(BALL), position=(-7.0, y), **elastic)
    for body in row + [striker]:
        colours[body] = (200, 205, 215, 255)
    colours[striker] = (255, 209, 102, 255)
    return [striker] + row


@scene("billiards", "a break shot (restitution, damping) and two Newton's cradles")
def build() -> Scene:
    world = World(gravity=(0.0, 0.0))
    colours: dict = {}
    table = Table(world, colours)
    strikers = [
        add_cradle(world, -3.0, 0.0, colours)[0],
        add_cradle(world, -6.0, CRADLE_GAP, colours)[0],
    ]

    def on_key(name: str) -> bool:
        if name == "B":
            table.shoot()
            return True
        if name == "N":
            for striker in strikers:
                striker.velocity = (STRIKE_SPEED, 0.0)
            return True
        return False

    def backdrop(canvas) -> None:
        width, height = TABLE
        canvas.rectangles((-0.5 * width, 0.0), (0.5 * width, height), CLOTH)
        canvas.text((-13.5, -1.9), "touching: the impulse spreads", (200, 205, 215, 255), 10)
        canvas.text((-13.5, -4.9), "15 cm apart: one ball out", (200, 205, 215, 255), 10)

    return Scene(
        world,
        view=(-15.0, -7.2, 15.0, 15.0),
        before_step=table.before_step,
        on_key=on_key,
        backdrop=backdrop,
        status=lambda: [
            f"balls e=0.95, cushions e=0.9; damping {DAMPING}/s stands in for rolling resistance",
            f"{counted(table.moving(), 'table ball')} moving; cradles: restitution 1, no friction",
        ],
        keys=[("B", "break"), ("N", "swing cradles")],
        colours=colours,
        script=[(20, "B"), (20, "N")],
    )
