"""World queries: ray throughput against brute force, and per-query cost as the world grows.

Worlds have a fixed density (one body per 9 m^2: boxes, circles, hexagons and planks at
random poses, a third of them static), so a fixed-size query meets about the same number of
bodies whatever the world's size. Per-query times are whole calls of the World's methods
(argument checks, the kernel, the answer objects) and exclude the index build (done once
per step, by the first query after the world changed), which is reported on its own row.

Run alone with ``python -m bench.query_bench``.
"""

from __future__ import annotations

import math
import time

import numpy as np

from bench.timing import best_of
from engine import Box, Circle, Polygon, World
from engine.query_index import MOVED, UNLISTED, QueryIndex, build_index
from engine.ray_kernels import raycast_rays

AREA_PER_BODY = 9.0  # m^2
RAY_LENGTH = 10.0  # m
RAYS = 10_000
SINGLE_RAYS = 2_000
BRUTE_RAYS = 200
SIZES = (1_000, 5_000, 20_000)
QUERY_BOX = 4.0  # m, side of the query_aabb box
CALLS = 400


def random_world(bodies: int, seed: int = 0) -> tuple[World, float]:
    """A world of ``bodies`` bodies at fixed density; returns it and its side in metres."""
    rng = np.random.default_rng(seed)
    side = math.sqrt(AREA_PER_BODY * bodies)
    hexagon = Polygon([(0.6 * math.cos(t), 0.6 * math.sin(t)) for t in np.arange(6) * math.pi / 3])
    catalog = [Box(1.0, 0.6), Circle(0.5), hexagon, Box(1.5, 0.3)]
    world = World(gravity=(0.0, 0.0))
    positions = rng.uniform(0.0, side, (bodies, 2))
    angles = rng.uniform(0.0, 2 * math.pi, bodies)
    for i in range(bodies):
        kind = "static" if i % 3 == 0 else "dynamic"
        world.add_body(catalog[i % 4], position=positions[i], angle=angles[i], kind=kind)
    return world, side


def random_rays(side: float, count: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    starts = rng.uniform(0.0, side, (count, 2))
    heading = rng.uniform(0.0, 2 * math.pi, count)
    return starts, starts + RAY_LENGTH * np.stack([np.cos(heading), np.sin(heading)], axis=1)


def without_grid(index: QueryIndex) -> QueryIndex:
    """The same index with every part unlisted: each ray then tests every part exactly."""
    part_ints = index.part_ints.copy()
    part_ints[:, MOVED] = 1
    counts = index.counts.copy()
    counts[UNLISTED] = len(part_ints)
    unlisted = np.arange(len(part_ints), dtype=np.int64)
    return index._replace(part_ints=part_ints, counts=counts, unlisted=unlisted)


def brute_force_fractions(world: World, starts, ends) -> np.ndarray:
    """First-hit fraction of each ray against every part, no grid (NaN: no hit)."""
    parts = world._parts.table.columns()
    brute = without_grid(world._current_index())
    return raycast_rays(*brute, parts["category"], parts["sensor"], 0xFFFF, starts, ends)[1]


def ray_rows() -> list[tuple[str, float, str]]:
    world, side = random_world(5_000)
    starts, ends = random_rays(side, RAYS)
    build = best_of(5, lambda: build_index(world._bodies, world._parts.table))
    world._current_index()
    batched = best_of(3, lambda: world.raycast_many(starts, ends))
    pairs = list(zip(starts[:SINGLE_RAYS].tolist(), ends[:SINGLE_RAYS].tolist()))
    one_by_one = best_of(3, lambda: [world.raycast(s, e) for s, e in pairs])
    few_starts, few_ends = starts[:BRUTE_RAYS].copy(), ends[:BRUTE_RAYS].copy()
    brute = best_of(1, lambda: brute_force_fractions(world, few_starts, few_ends))
    # The reference must agree, or the speed-up means nothing.
    reference = brute_force_fractions(world, few_starts, few_ends)
    fast = world.raycast_many(few_starts, few_ends).fraction
    np.testing.assert_array_equal(fast, reference)
    hit_rate = np.mean(world.raycast_many(starts, ends).body_row >= 0)
    return [
        ("queries: index build, 5k bodies", 1e3 * build, "ms"),
        ("raycast_many: 10k rays of 10 m, 5k bodies", RAYS / batched, "rays/s"),
        ("raycast: one call per ray, 5k bodies", SINGLE_RAYS / one_by_one, "rays/s"),
        ("raycast: brute force over all parts, 5k bodies", BRUTE_RAYS / brute, "rays/s"),
        ("raycast: rays that hit something", 100.0 * hit_rate, "%"),
    ]


def per_call_us(arguments: list, call) -> float:
    """Microseconds per call over the arguments, best of five passes."""
    return 1e6 * best_of(5, lambda: [call(a) for a in arguments]) / len(arguments)


def growth_rows() -> list[tuple[str, float, str]]:
    rows = []
    for bodies in SIZES:
        rows += size_rows(bodies)
    return rows


def size_rows(bodies: int) -> list[tuple[str, float, str]]:
    """Index build and per-query times in a world of ``bodies`` bodies."""
    world, side = random_world(bodies)
    points = np.random.default_rng(2).uniform(0.0, side, (CALLS, 2))
    half = QUERY_BOX / 2
    label = f"{bodies // 1000}k bodies"
    build = best_of(5, lambda: build_index(world._bodies, world._parts.table))
    world._current_index()
    point_us = per_call_us(points.tolist(), lambda p: world.query_point(p))
    boxes = [((x - half, y - half), (x + half, y + half)) for x, y in points.tolist()]
    aabb_us = per_call_us(boxes, lambda box: world.query_aabb(*box))
    return [
        (f"queries: index build, {label}", 1e3 * build, "ms"),
        (f"query_point, {label}", point_us, "us/query"),
        (f"query_aabb {QUERY_BOX:g}x{QUERY_BOX:g} m, {label}", aabb_us, "us/query"),
    ]


def controller_rows() -> list[tuple[str, float, str]]:
    world, side = random_world(5_000)
    starts, ends = random_rays(side, CALLS, seed=3)
    box = Box(0.8, 0.8)
    casts = [((x, y, 0.0), (ex - x, ey - y)) for (x, y), (ex, ey) in zip(starts, ends)]
    cast_us = per_call_us(casts, lambda cast: world.shape_cast(box, *cast))
    mover = world.add_body(Box(0.5, 1.0), position=(side / 2, side / 2), kind="kinematic")
    world.move_and_slide(mover, (0.0, 0.0))  # the index build and any compiling, untimed
    steps = (np.random.default_rng(4).normal(size=(2000, 2)) * 0.5).tolist()
    start = time.perf_counter()
    for step in steps:
        world.move_and_slide(mover, step)
    slide_us = 1e6 * (time.perf_counter() - start) / len(steps)
    return [
        ("shape_cast: box along 10 m, 5k bodies", cast_us, "us/cast"),
        ("move_and_slide: 0.5 m moves, 5k bodies", slide_us, "us/call"),
    ]


def run() -> list[tuple[str, float, str]]:
    """Rows (name, value, unit) for the benchmark table."""
    return ray_rows() + growth_rows() + controller_rows()


if __name__ == "__main__":
    for label, value, unit in run():
        print(f"{label:<52} {value:>14,.1f}  {unit}")
