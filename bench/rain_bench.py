"""The `rain` scene's pile against pymunk: 1,000 mixed bodies in a container.

Boxes, circles, hexagons and concave stars pour from the spout of ``demos/scenes/rain.py``
(the same shapes, the same random sequence) into the same U of static boxes, with sleeping
off in both engines. The stars go into pymunk as the convex parts the engine splits them
into. Once all 1,000 have poured and the pile has formed, both engines' steps are timed in
alternating chunks, as the pyramid benchmark does. Run alone with
``python -m bench.rain_bench``.
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from demos.scenes.rain import SHAPES, TARGET, Spout, add_container
from engine import Circle, World

DT = 1 / 60
POUR_STEPS = 500  # the spout pours 4 a step: done by step 250, then the pile settles
MEASURED = 120
CHUNK = 10


def engine_rain():
    """The rain scene, poured, in the engine."""
    world = World(dt=DT, sleep=False)
    add_container(world)
    spout = Spout({})
    for _ in range(POUR_STEPS):
        spout.before_step(world)
        world.step()
    return world


def pymunk_rain(world: World):
    """The same bodies, where the engine's pour left them, in a pymunk Space."""
    import pymunk

    space = pymunk.Space()
    space.gravity = (0.0, -9.81)
    space.iterations = 10
    for body in world.bodies:
        kind = pymunk.Body.STATIC if body.kind == "static" else pymunk.Body.DYNAMIC
        handle = pymunk.Body(body_type=kind)
        handle.position = tuple(body.position.tolist())
        handle.angle = float(body.angle)
        handle.velocity = tuple(body.velocity.tolist())
        handle.angular_velocity = float(body.angular_velocity)
        shapes = []
        for shape in body.shapes:
            for part in shape.parts:
                # Parts are in the shape's frame; the body's origin is its centre of mass.
                if isinstance(part, Circle):
                    offset = tuple((part.centroid - _centre(body)).tolist())
                    shapes.append(pymunk.Circle(handle, part.radius, offset))
                else:
                    points = [tuple(p) for p in (part.vertices - _centre(body)).tolist()]
                    shapes.append(pymunk.Poly(handle, points))
        for shape in shapes:
            shape.friction = body.friction
            if kind == pymunk.Body.DYNAMIC:
                shape.density = 1.0
        space.add(handle, *shapes)
    return space


def _centre(body) -> np.ndarray:
    """The centroid of a body's shapes in their own frame (its centre of mass)."""
    area = sum(shape.area for shape in body.shapes)
    return sum(shape.area * shape.centroid for shape in body.shapes) / area


def step_times() -> tuple[float, float, int]:
    """Median ms per step of (engine, pymunk) on the poured pile, and the body count."""
    world = engine_rain()
    space = pymunk_rain(world)
    for _ in range(20):
        world.step()
        space.step(DT)
    ours, theirs = [], []
    for _ in range(MEASURED // CHUNK):
        for step, times in ((world.step, ours), (lambda: space.step(DT), theirs)):
            for _ in range(CHUNK):
                start = time.perf_counter()
                step()
                times.append(time.perf_counter() - start)
    return 1e3 * statistics.median(ours), 1e3 * statistics.median(theirs), len(world.bodies)


def run():
    assert set(SHAPES) == {"box", "circle", "hexagon", "star"} and TARGET == 1000
    ours, theirs, bodies = step_times()
    yield f"rain pile ({bodies - 3} bodies, sleeping off): engine step", ours, "ms"
    yield f"rain pile ({bodies - 3} bodies, sleeping off): pymunk step", theirs, "ms"
    yield "rain pile: engine / pymunk", ours / theirs, "x"


if __name__ == "__main__":
    for label, value, unit in run():
        print(f"{label:<52} {value:>10.4g}  {unit}")
