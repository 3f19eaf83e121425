"""Narrow-phase throughput: pair tests per second on random box and hexagon pairs."""

from __future__ import annotations

import numpy as np

from bench.timing import best_of
from engine import Box, Polygon, collide, collide_many
from engine.narrowphase import collide_parts
from engine.packing import concatenate

PAIRS = 100_000
SINGLE_PAIRS = 5_000


def random_pairs(n: int, seed: int = 1):
    """n pairs of boxes and hexagons, about half of them overlapping, with velocities."""
    rng = np.random.default_rng(seed)
    hexagon = Polygon([(np.cos(t), np.sin(t)) for t in np.arange(6) * np.pi / 3])
    catalog = [Box(1.5, 1.0), hexagon]
    kind_a, kind_b = rng.integers(0, 2, n), rng.integers(0, 2, n)
    poses_a = np.zeros((n, 3))
    poses_a[:, 2] = rng.uniform(0, 2 * np.pi, n)
    # Centre distances up to 3.1 leave about half the pairs overlapping.
    reach, heading = rng.uniform(0, 3.1, n), rng.uniform(0, 2 * np.pi, n)
    poses_b = np.stack(
        [reach * np.cos(heading), reach * np.sin(heading), rng.uniform(0, 2 * np.pi, n)], axis=1
    )
    velocities = rng.normal(size=(n, 2))
    return catalog, kind_a, kind_b, poses_a, poses_b, velocities


def run() -> list[tuple[str, float, str]]:
    """Rows (name, value, unit) for the benchmark table."""
    catalog, kind_a, kind_b, poses_a, poses_b, velocities = random_pairs(PAIRS)
    table = concatenate([shape.packed for shape in catalog])
    shapes_a = [catalog[i] for i in kind_a]
    shapes_b = [catalog[i] for i in kind_b]
    dt = 1 / 60

    kernel = best_of(
        5, lambda: collide_parts(table, kind_a, poses_a, table, kind_b, poses_b, velocities, dt)
    )
    batch = best_of(5, lambda: collide_many(shapes_a, poses_a, shapes_b, poses_b, velocities, dt))
    overlapping = collide_many(shapes_a, poses_a, shapes_b, poses_b).intersect.mean()

    def one_by_one():
        for i in range(SINGLE_PAIRS):
            collide(shapes_a[i], poses_a[i], shapes_b[i], poses_b[i], velocities[i], dt)

    single = best_of(2, one_by_one)
    rows = [
        ("narrow phase: pairs overlapping", 100.0 * overlapping, "%"),
        ("narrow phase: kernel (100k pairs)", PAIRS / kernel, "pairs/s"),
        ("narrow phase: collide_many end to end", PAIRS / batch, "pairs/s"),
        ("narrow phase: collide, one call a pair", SINGLE_PAIRS / single, "pairs/s"),
    ]
    rows += _pymunk_rows(catalog, kind_a, kind_b, poses_a, poses_b)
    return rows


def _pymunk_rows(catalog, kind_a, kind_b, poses_a, poses_b):
    """pymunk's per-call shape collision on the same pairs, for scale (if installed)."""
    try:
        import pymunk
    except ImportError:
        return []
    bodies = []
    for kinds, poses in ((kind_a, poses_a), (kind_b, poses_b)):
        column = []
        for kind, pose in zip(kinds[:SINGLE_PAIRS], poses[:SINGLE_PAIRS]):
            body = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
            body.position = float(pose[0]), float(pose[1])
            body.angle = float(pose[2])
            shape = pymunk.Poly(body, [tuple(v) for v in catalog[kind].vertices])
            shape.cache_bb()
            column.append(shape)
        bodies.append(column)

    def one_by_one():
        for shape_a, shape_b in zip(*bodies):
            try:
                shape_a.shapes_collide(shape_b)
            except AssertionError:
                # Some pymunk versions assert on pairs that are apart; the call still ran.
                pass

    elapsed = best_of(3, one_by_one)
    return [("pymunk shapes_collide, one call a pair", SINGLE_PAIRS / elapsed, "pairs/s")]
