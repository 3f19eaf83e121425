"""Small worlds against pymunk: what a game's calls into the world cost each frame.

A game reads and writes its bodies and joints from Python every frame, spawns and removes
bodies, and steps a world that may hold only a few of them. Each row times one such call
in both engines in one process, in alternating chunks (so that both see the same machine
load), and keeps each engine's best chunk, the one least disturbed by other work:

- ``body.position`` read; ``body.velocity = ...``; ``body.apply_impulse(j, point=p)``
  (pymunk: ``apply_impulse_at_world_point``); a revolute joint's ``motor_speed = ...``
  (pymunk: a SimpleMotor's ``rate``), in a world of a static ground, a ball and a wheel
  turned by a motor;
- ``add_body`` of one circle then ``remove`` (pymunk: a new Body and Circle, ``space.add``
  and ``space.remove``); the engine's circle shape is made once and shared, as shapes are
  immutable, while pymunk's shape belongs to its body and is made with it;
- a batch of 1,000 circles added (``add_bodies``; pymunk: 1,000 bodies and shapes made and
  given to one ``space.add``), into the same world, removed again between the timings;
- one step of a world holding one falling circle.

Run alone with ``python -m bench.small_worlds_bench``.
"""

from __future__ import annotations

import time

import numpy as np
import pymunk

from engine import Box, Circle, RevoluteJoint, World

DT = 1 / 60
CHUNK = 200  # calls per timed chunk
ROUNDS = 60  # chunks per engine
BATCH = 1000
BATCH_ROUNDS = 15


def best_per_call(engine_chunk, pymunk_chunk, calls: int = CHUNK, rounds: int = ROUNDS):
    """Seconds per call of each engine: the best of ``rounds`` chunks of ``calls`` calls,
    the engines' chunks alternating. Each ``*_chunk(calls)`` makes the calls."""
    best = [float("inf"), float("inf")]
    for _ in range(rounds):
        for i, chunk in enumerate((engine_chunk, pymunk_chunk)):
            start = time.perf_counter()
            chunk(calls)
            best[i] = min(best[i], (time.perf_counter() - start) / calls)
    return best[0], best[1]


def engine_scene():
    """(world, ball, wheel's motor joint): a ground, a ball and a wheel on a motor."""
    world = World(dt=DT)
    world.add_body(Box(40, 1), position=(0, -0.5), kind="static")
    ball = world.add_body(Circle(0.5), position=(0, 2))
    wheel = world.add_body(Circle(0.3), position=(3, 2))
    motor = world.add_joint(
        RevoluteJoint(wheel, None, anchor=(3, 2), motor_speed=1.0, max_motor_torque=10.0)
    )
    world.step()
    return world, ball, motor


def pymunk_scene():
    """(space, ball, wheel's motor): the same scene in pymunk."""
    space = pymunk.Space()
    space.gravity = (0.0, -9.81)
    ground = pymunk.Poly.create_box(space.static_body, (40, 1))
    space.add(ground)
    bodies = []
    for radius, x in ((0.5, 0.0), (0.3, 3.0)):
        mass = np.pi * radius**2
        body = pymunk.Body(mass, pymunk.moment_for_circle(mass, 0, radius))
        body.position = (x, 2.0)
        space.add(body, pymunk.Circle(body, radius))
        bodies.append(body)
    motor = pymunk.SimpleMotor(space.static_body, bodies[1], 1.0)
    space.add(motor)
    space.step(DT)
    return space, bodies[0], motor


def handle_calls():
    """Rows of the four handle calls."""
    world, ball, motor = engine_scene()
    space, pm_ball, pm_motor = pymunk_scene()

    def reads(body):
        def chunk(calls):
            for _ in range(calls):
                body.position  # noqa: B018 (the read is what is timed)

        return chunk

    def velocity_writes(body):
        def chunk(calls):
            for _ in range(calls):
                body.velocity = (1.0, 0.5)

        return chunk

    def engine_impulses(calls):
        ball.velocity, ball.angular_velocity = (0.0, 0.0), 0.0  # spin and speed stay small
        for _ in range(calls):
            ball.apply_impulse((0.0, 0.01), point=(0.1, 2.0))

    def pymunk_impulses(calls):
        pm_ball.velocity, pm_ball.angular_velocity = (0.0, 0.0), 0.0
        for _ in range(calls):
            pm_ball.apply_impulse_at_world_point((0.0, 0.01), (0.1, 2.0))

    def engine_motor(calls):
        for _ in range(calls):
            motor.motor_speed = 2.0

    def pymunk_motor(calls):
        for _ in range(calls):
            pm_motor.rate = 2.0

    cases = [
        ("body.position read", reads(ball), reads(pm_ball)),
        ("body.velocity write", velocity_writes(ball), velocity_writes(pm_ball)),
        ("body.apply_impulse at a point", engine_impulses, pymunk_impulses),
        ("joint.motor_speed write", engine_motor, pymunk_motor),
    ]
    for label, ours, theirs in cases:
        yield label, *best_per_call(ours, theirs)


def add_and_remove():
    """Rows of one circle added and removed, and of a batch of 1,000 added."""
    world, _, _ = engine_scene()
    space, _, _ = pymunk_scene()
    circle = Circle(0.2)
    mass = np.pi * 0.2**2
    moment = pymunk.moment_for_circle(mass, 0, 0.2)

    def engine_one(calls):
        for _ in range(calls):
            world.remove(world.add_body(circle, position=(5.0, 5.0)))

    def pymunk_one(calls):
        for _ in range(calls):
            body = pymunk.Body(mass, moment)
            body.position = (5.0, 5.0)
            shape = pymunk.Circle(body, 0.2)
            space.add(body, shape)
            space.remove(body, shape)

    yield "add_body + remove, one circle", *best_per_call(engine_one, pymunk_one, 50)

    positions = np.column_stack([np.arange(BATCH) % 40 - 20.0, 5.0 + np.arange(BATCH) // 40])
    points = [tuple(p) for p in positions.tolist()]
    best = [float("inf"), float("inf")]
    for _ in range(BATCH_ROUNDS):
        start = time.perf_counter()
        added = world.add_bodies(circle, positions)
        best[0] = min(best[0], time.perf_counter() - start)
        world.remove_bodies(added)
        start = time.perf_counter()
        objects = []
        for point in points:
            body = pymunk.Body(mass, moment)
            body.position = point
            objects += (body, pymunk.Circle(body, 0.2))
        space.add(*objects)
        best[1] = min(best[1], time.perf_counter() - start)
        space.remove(*objects)
    yield f"add_bodies, a batch of {BATCH:,} circles", *best


def one_body_step():
    """The row of a step of a world of one falling circle."""
    world = World(dt=DT)
    world.add_body(Circle(0.5), position=(0, 1000))
    space = pymunk.Space()
    space.gravity = (0.0, -9.81)
    mass = np.pi * 0.25
    body = pymunk.Body(mass, pymunk.moment_for_circle(mass, 0, 0.5))
    body.position = (0, 1000)
    space.add(body, pymunk.Circle(body, 0.5))

    def ours(calls):
        for _ in range(calls):
            world.step()

    def theirs(calls):
        for _ in range(calls):
            space.step(DT)

    ours(100)
    theirs(100)
    yield "step, a world of one body", *best_per_call(ours, theirs, 50, 40)


def run() -> list[tuple[str, float, str]]:
    rows = []
    for source in (handle_calls(), add_and_remove(), one_body_step()):
        for label, ours, theirs in source:
            # A batch in ms, the rest in microseconds.
            scale, unit = (1e3, "ms") if label.startswith("add_bodies") else (1e6, "us")
            rows += [
                (f"small worlds: {label}, engine", scale * ours, unit),
                (f"small worlds: {label}, pymunk", scale * theirs, unit),
                (f"small worlds: {label}, engine / pymunk", ours / theirs, "x"),
            ]
    return rows


if __name__ == "__main__":
    for label, value, unit in run():
        print(f"{label:<64} {value:>10.4g}  {unit}")
