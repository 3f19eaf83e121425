"""Joints at work: a rope bridge, a chain, a Newton's cradle, springs, a motor and ragdolls.

Each contraption shows a kind of joint doing what it is meant for:

- the bridge's planks hang on revolute joints between two posts, sagging along an arc;
- the chain is a row of links on revolute joints, pinned to the world at one end;
- the cradle's balls swing on distance joints (rigid strings) from fixed points;
- two boxes bounce on distance joints with a spring frequency (1 Hz and 3 Hz);
- a paddle wheel turns on a revolute joint with a motor; its paddles are welded to the hub;
- ragdolls (revolute joints with angle limits) fall onto the bridge.

Anchors on the world (body_b None) are fixed points; the beams and shelves drawn there are
static bodies for the eye, and for the balls and boxes to hit.
"""

from __future__ import annotations

import numpy as np

from engine import Box, Circle, DistanceJoint, RevoluteJoint, WeldJoint, World

from ..app.registry import scene
from ..app.scene import Scene
from ..draw import palette
from .ragdoll import add_ragdoll

GROUND_TOP = 0.0
STATIC = {"kind": "static", "friction": 0.8}

# The bridge: posts' inner faces at +-BRIDGE_HALF_SPAN, planks pinned end to end.
BRIDGE_HALF_SPAN = 5.0
BRIDGE_Y = 5.5
PLANKS = 11
PLANK_PITCH = 0.95  # m between a plank's two pins: 10.45 m of deck over a 10 m span
PLANK_THICKNESS = 0.2

# The chain hangs from a world point and starts raised to one side, so that it swings.
CHAIN_PIVOT = (-7.5, 14.0)
CHAIN_LINKS = 12
LINK_LENGTH = 0.55
CHAIN_START_ANGLE = np.radians(65.0)  # from hanging straight down, to the right

# The cradle: five balls on strings from a beam; the first starts pulled aside.
CRADLE_BEAM_Y = 14.0
CRADLE_X = 7.0  # the first ball's string
CRADLE_BALL = 0.45
CRADLE_STRING = 4.0
# Balls a little apart so that impacts happen one at a time and only the last ball flies
# out (see the billiards scene); wider than a step's travel at the lowest point (0.08 m).
CRADLE_GAP = 0.12
CRADLE_LIFT = np.radians(50.0)

# Springs: boxes hanging from a shelf, let go from above their rest point.
SHELF = (-11.0, 6.8)  # centre of its underside
SPRINGS = ((-12.5, 1.0), (-9.5, 3.0))  # (x, frequency in Hz)
SPRING_LENGTH = 2.6
SPRING_DAMPING = 0.05
SPRING_LIFT = 1.2

# The paddle wheel, in a drum of balls.
WHEEL_CENTRE = (10.0, 2.4)
PADDLE_LENGTH = 3.3
MOTOR_SPEED = -3.0  # rad/s, clockwise: fast enough to toss the balls
MOTOR_TORQUE = 600.0  # N m
DRUM_CLEARANCE = 0.15  # m between the paddles' tips and the drum
DRUM_WALL = 0.25
DRUM_SEGMENTS = 10
DRUM_WALL_ABOVE = 2.6  # height of the drum's straight walls above the wheel's axle
DRUM_BALLS = 14

RAGDOLL_SCALE = 1.5
RAGDOLL_DROP = (0.0, 9.0)  # feet of the first ragdoll
RAGDOLL_COLOURS = ((240, 122, 140, 255), (129, 212, 150, 255), (102, 178, 255, 255))


def hanging_arc(left, right, count: int, pitch: float) -> np.ndarray:
    """(count + 1, 2) points from ``left`` to ``right`` (same height, (2,) each), ``pitch``
    apart, on a circular arc below them: where the pins of a slack bridge hang.

    Needs count * pitch longer than the span and shorter than a half circle over it.
    """
    left, right = np.asarray(left, dtype=np.float64), np.asarray(right, dtype=np.float64)
    span = right[0] - left[0]

    def chord_gap(radius: float) -> float:  # chord of the arc for this radius, minus span
        return 2.0 * radius * np.sin(count * np.arcsin(pitch / (2.0 * radius))) - span

    # The arc turns through at most a half circle: radius from there up to nearly straight.
    low, high = pitch / (2.0 * np.sin(0.5 * np.pi / count)), 1e6
    for _ in range(100):
        middle = 0.5 * (low + high)
        low, high = (middle, high) if chord_gap(middle) < 0.0 else (low, middle)
    radius = 0.5 * (low + high)
    step = 2.0 * np.arcsin(pitch / (2.0 * radius))  # angle each plank turns through
    sweep = count * step
    centre = np.array([0.5 * (left[0] + right[0]), left[1] + radius * np.cos(0.5 * sweep)])
    angles = -0.5 * np.pi - 0.5 * sweep + step * np.arange(count + 1)
    return centre + radius * np.column_stack([np.cos(angles), np.sin(angles)])


def add_bridge(world: World, colours: dict) -> list:
    """Two posts and a deck of planks pinned end to end; returns the planks."""
    for side in (-1.0, 1.0):
        world.add_body(
            Box(1.0, BRIDGE_Y), position=(side * (BRIDGE_HALF_SPAN + 0.5), 0.5 * BRIDGE_Y), **STATIC
        )
    pins = hanging_arc(
        (-BRIDGE_HALF_SPAN, BRIDGE_Y - 0.5 * PLANK_THICKNESS),
        (BRIDGE_HALF_SPAN, BRIDGE_Y - 0.5 * PLANK_THICKNESS),
        PLANKS,
        PLANK_PITCH,
    )
    planks = []
    for start, end in zip(pins[:-1], pins[1:]):
        along = end - start
        plank = world.add_body(
            # A hair shorter than the pitch: neighbours turn about their shared pin freely.
            Box(0.94 * PLANK_PITCH, PLANK_THICKNESS),
            position=0.5 * (start + end),
            angle=float(np.arctan2(along[1], along[0])),
            friction=0.9,
        )
        colours[plank] = (196, 150, 98, 255)
        planks.append(plank)
    # The end pins hold the deck to the world at the posts' top corners.
    holders = [None] + planks + [None]
    for pin, left, right in zip(pins, holders[:-1], holders[1:]):
        first, second = (left, right) if left is not None else (right, None)
        world.add_joint(RevoluteJoint(first, second, pin))
    return planks


def add_chain(world: World) -> list:
    """CHAIN_LINKS links pinned end to end, the first to the world at CHAIN_PIVOT."""
    pivot = np.asarray(CHAIN_PIVOT, dtype=np.float64)
    direction = np.array([np.sin(CHAIN_START_ANGLE), -np.cos(CHAIN_START_ANGLE)])
    links, previous = [], None
    for i in range(CHAIN_LINKS):
        start = pivot + i * LINK_LENGTH * direction
        link = world.add_body(
            Box(LINK_LENGTH + 0.08, 0.16),
            position=start + 0.5 * LINK_LENGTH * direction,
            angle=float(np.arctan2(direction[1], direction[0])),
            density=2.0,
        )
        world.add_joint(RevoluteJoint(link, previous, start))
        links.append(link)
        previous = link
    return links


def add_cradle(world: World, colours: dict) -> list:
    """A beam and five balls on strings (rigid distance joints); the first pulled aside."""
    pitch = 2.0 * CRADLE_BALL + CRADLE_GAP
    beam_x = CRADLE_X + 2.0 * pitch
    world.add_body(Box(6.0 * pitch, 0.3), position=(beam_x, CRADLE_BEAM_Y + 0.15), **STATIC)
    balls = []
    for i in range(5):
        top = np.array([CRADLE_X + i * pitch, CRADLE_BEAM_Y])
        swing = CRADLE_LIFT if i == 0 else 0.0
        centre = top + CRADLE_STRING * np.array([-np.sin(swing), -np.cos(swing)])
        ball = world.add_body(
            Circle(CRADLE_BALL), position=centre, restitution=1.0, friction=0.0, density=4.0
        )
        world.add_joint(DistanceJoint(ball, None, centre, top))
        colours[ball] = (200, 205, 215, 255)
        balls.append(ball)
    return balls


def add_springs(world: World) -> list:
    """A shelf and boxes hanging from it on springs, let go SPRING_LIFT above rest."""
    x, y = SHELF
    world.add_body(Box(5.0, 0.4), position=(x, y + 0.2), **STATIC)
    springs = []
    for spring_x, frequency in SPRINGS:
        top = np.array([spring_x, y])
        centre = top - (0.0, SPRING_LENGTH + 0.5 - SPRING_LIFT)
        box = world.add_body(Box(1.0, 1.0), position=centre)
        joint = DistanceJoint(
            box,
            None,
            centre + (0.0, 0.5),
            top,
            length=SPRING_LENGTH,
            frequency=frequency,
            damping=SPRING_DAMPING,
        )
        springs.append(world.add_joint(joint))
    return springs


def add_drum(world: World, centre: np.ndarray) -> None:
    """A static drum round the wheel: a half circle of boxes below, walls above. The
    paddles pass DRUM_CLEARANCE from it, less than a ball, so they sweep every ball up."""
    radius = 0.5 * PADDLE_LENGTH + DRUM_CLEARANCE + 0.5 * DRUM_WALL
    edges = np.linspace(np.pi, 2.0 * np.pi, DRUM_SEGMENTS + 1)
    chord = 2.0 * radius * np.sin(0.5 * (edges[1] - edges[0]))
    for middle in 0.5 * (edges[:-1] + edges[1:]):
        world.add_body(
            # A little longer than the chord, so that neighbours overlap and leave no gap.
            Box(1.15 * chord, DRUM_WALL),
            position=centre + radius * np.array([np.cos(middle), np.sin(middle)]),
            angle=float(middle + 0.5 * np.pi),
            **STATIC,
        )
    for side in (-1.0, 1.0):
        world.add_body(
            Box(DRUM_WALL, DRUM_WALL_ABOVE),
            position=centre + (side * radius, 0.5 * DRUM_WALL_ABOVE),
            **STATIC,
        )


def add_paddle_wheel(world: World, colours: dict) -> RevoluteJoint:
    """A hub on a motor, two paddles welded across it, in a drum of balls to stir."""
    centre = np.asarray(WHEEL_CENTRE, dtype=np.float64)
    # The wheel's parts share a group so that the crossed paddles do not collide.
    wheel = {"group": -2, "density": 2.0, "friction": 0.6}
    hub = world.add_body(Circle(0.45), position=centre, **wheel)
    colours[hub] = (214, 178, 96, 255)
    for angle in (0.25 * np.pi, 0.75 * np.pi):
        paddle = world.add_body(Box(PADDLE_LENGTH, 0.22), position=centre, angle=angle, **wheel)
        colours[paddle] = (250, 210, 105, 255)
        world.add_joint(WeldJoint(hub, paddle, centre))
    motor = world.add_joint(
        RevoluteJoint(hub, None, centre, motor_speed=MOTOR_SPEED, max_motor_torque=MOTOR_TORQUE)
    )
    add_drum(world, centre)
    rng = np.random.default_rng(7)
    for i in range(DRUM_BALLS):
        offset = ((i % 7) - 3.0) * 0.5, 1.9 + 0.55 * (i // 7)
        ball = world.add_body(Circle(rng.uniform(0.18, 0.25)), position=centre + offset)
        colours[ball] = (94, 208, 205, 255)
    return motor


@scene("joints", "a rope bridge, a chain, a cradle, springs, a motor and ragdolls on joints")
def build() -> Scene:
    world = World()
    colours: dict = {}
    world.add_body(Box(34.0, 1.0), position=(0.0, GROUND_TOP - 0.5), **STATIC)
    add_bridge(world, colours)
    add_chain(world)
    add_cradle(world, colours)
    add_springs(world)
    motor = add_paddle_wheel(world, colours)
    ragdolls = []

    def drop_ragdoll() -> None:
        count = len(ragdolls)
        feet = (RAGDOLL_DROP[0] - 1.5 * (count % 3), RAGDOLL_DROP[1] + 0.5 * (count % 2))
        doll = add_ragdoll(
            world, feet, scale=RAGDOLL_SCALE, angle=-0.35 * (-1) ** count, friction=0.8
        )
        for part in doll.parts.values():
            colours[part] = RAGDOLL_COLOURS[count % len(RAGDOLL_COLOURS)]
        ragdolls.append(doll)

    drop_ragdoll()

    def on_key(name: str) -> bool:
        if name == "B":
            drop_ragdoll()
            return True
        if name == "M":
            motor.motor_speed = -motor.motor_speed
            return True
        return False

    def draw(canvas, poses) -> None:
        for x, frequency in SPRINGS:
            canvas.text((x + 0.8, SHELF[1] - 0.6), f"{frequency:.0f} Hz", palette.TEXT_DIM, 10)

    def status() -> list[str]:
        turning = "clockwise" if motor.motor_speed < 0 else "anticlockwise"
        return [
            f"{len(world.joints)} joints; {len(ragdolls)} ragdolls of 10 parts and 9 pins",
            f"motor {abs(motor.motor_speed):.1f} rad/s {turning}, "
            f"torque {abs(motor.motor_torque):.0f} of {MOTOR_TORQUE:.0f} N m",
        ]

    return Scene(
        world,
        view=(-14.0, -0.5, 14.0, 14.5),
        on_key=on_key,
        draw=draw,
        status=status,
        keys=[("B", "drop a ragdoll"), ("M", "reverse motor")],
        colours=colours,
        script=[(100, "B")],
    )
