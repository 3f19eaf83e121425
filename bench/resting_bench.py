"""What bodies that do not move cost a step: a level of static tiles against pymunk, and a
world whose boxes are all asleep against the engine's own one-body step.

- Tile level: 5,000 static unit boxes (a 100 x 50 block) and 10 balls of radius 0.3
  dropped on it, dt 1/60; both engines step it in one process, in alternating chunks, and
  each keeps its best chunk. Timed once the balls rest (asleep in both engines), and
  again with sleep off and the balls rolling across the tiles at 2 m/s.
- All asleep: 2,400 unit boxes in 40 rows of 60 on a static ground, stepped until every
  box sleeps, then timed against a world of one falling box.

Run alone with ``python -m bench.resting_bench``.
"""

from __future__ import annotations

import time

import numpy as np
import pymunk

from engine import Box, Circle, World

DT = 1 / 60
TILES_WIDE, TILES_DEEP = 100, 50
BALLS = 10
CHUNK = 50
ROUNDS = 20
SETTLE_STEPS = 240


def tile_level_engine(sleep: bool = True, roll: float = 0.0) -> World:
    """The tile level in the engine; sleep off and roll (m/s) > 0: the balls keep rolling."""
    world = World(dt=DT, sleep=sleep)
    count = TILES_WIDE * TILES_DEEP
    x = np.arange(count) % TILES_WIDE + 0.5
    y = -(np.arange(count) // TILES_WIDE) - 0.5
    world.add_bodies(Box(1.0, 1.0), np.column_stack([x, y]), kind="static")
    drops = np.column_stack([np.linspace(5, 95, BALLS), np.full(BALLS, 3.0)])
    world.add_bodies(Circle(0.3), drops, velocities=(roll, 0.0))
    return world


def tile_level_pymunk(sleep: bool = True, roll: float = 0.0) -> pymunk.Space:
    """The tile level in pymunk (its defaults but friction 0.6 and, with sleep, 0.5 s to
    sleep, as the engine)."""
    space = pymunk.Space()
    space.gravity = (0, -9.81)
    if sleep:
        space.sleep_time_threshold = 0.5
    for i in range(TILES_WIDE * TILES_DEEP):
        x, y = i % TILES_WIDE + 0.5, -(i // TILES_WIDE) - 0.5
        tile = pymunk.Poly(space.static_body, [(x - 0.5, y - 0.5), (x + 0.5, y - 0.5),
                                               (x + 0.5, y + 0.5), (x - 0.5, y + 0.5)])  # fmt: skip
        tile.friction = 0.6
        space.add(tile)
    for x in np.linspace(5, 95, BALLS):
        body = pymunk.Body(1.0, pymunk.moment_for_circle(1.0, 0, 0.3))
        body.position = (float(x), 3.0)
        body.velocity = (roll, 0.0)
        ball = pymunk.Circle(body, 0.3)
        ball.friction = 0.6
        space.add(body, ball)
    return space


def best_step(steppers, rounds: int = ROUNDS, chunk: int = CHUNK) -> list:
    """Seconds per step of each stepper (a function of no arguments): the best of
    ``rounds`` chunks of ``chunk`` steps, the steppers' chunks alternating."""
    best = [float("inf")] * len(steppers)
    for _ in range(rounds):
        for i, step in enumerate(steppers):
            start = time.perf_counter()
            for _ in range(chunk):
                step()
            best[i] = min(best[i], (time.perf_counter() - start) / chunk)
    return best


def asleep_world() -> World:
    world = World(dt=DT)
    world.add_body(Box(200, 1), position=(0, -0.5), kind="static")
    count, wide = 2400, 60
    x = (np.arange(count) % wide) * 1.5 - 45
    y = (np.arange(count) // wide) * 1.0 + 0.5
    world.add_bodies(Box(1.0, 1.0), np.column_stack([x, y]))
    for _ in range(600):
        world.step()
        if _awake(world) == 0:
            break
    return world


def _awake(world: World) -> int:
    """How many dynamic bodies of ``world`` are awake."""
    return sum(body.awake for body in world.bodies if body.kind == "dynamic")


def run() -> list:
    engine = tile_level_engine()
    space = tile_level_pymunk()
    for _ in range(SETTLE_STEPS):
        engine.step()
        space.step(DT)
    tiles, pymunk_tiles = best_step([engine.step, lambda: space.step(DT)])
    # Rolling: sleep off, the balls roll across the tiles for the whole timing.
    engine = tile_level_engine(sleep=False, roll=2.0)
    space = tile_level_pymunk(sleep=False, roll=2.0)
    for _ in range(60):
        engine.step()
        space.step(DT)
    rolling, pymunk_rolling = best_step([engine.step, lambda: space.step(DT)], rounds=10)
    asleep = asleep_world()
    lone = World(dt=DT)
    lone.add_body(Box(1, 1), position=(0, 1e6))  # falls for the whole timing
    awake = _awake(asleep)
    sleeping, one_body = best_step([asleep.step, lone.step])
    return [
        ("tile level (5,000 static tiles, 10 balls): engine", tiles * 1e3, "ms/step"),
        ("tile level: pymunk", pymunk_tiles * 1e3, "ms/step"),
        ("tile level: engine / pymunk", tiles / pymunk_tiles, "x"),
        ("tile level, balls rolling (sleep off): engine", rolling * 1e3, "ms/step"),
        ("tile level, balls rolling: pymunk", pymunk_rolling * 1e3, "ms/step"),
        ("tile level, balls rolling: engine / pymunk", rolling / pymunk_rolling, "x"),
        ("2,400 boxes asleep: engine", sleeping * 1e3, "ms/step"),
        ("2,400 boxes asleep: bodies still awake", awake, "bodies"),
        ("2,400 boxes asleep / engine's one-body step", sleeping / one_body, "x"),
    ]


if __name__ == "__main__":
    for label, value, unit in run():
        print(f"{label:<52} {value:>12.4g}  {unit}")
