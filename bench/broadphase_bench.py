"""Broad-phase timings on scenes with the box density of a typical physics scene.

Boxes have sides of 0.5 to 1.5 and are scattered uniformly over a square of side
``1.5 * sqrt(N)``, about one box per 2.25 units of area, so most boxes touch zero to two
neighbours. Run ``python -m bench.broadphase_bench`` to print the table.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from engine.broadphase import brute_force_pairs
from engine.broadphase_grid import grid_pairs
from engine.broadphase_quadtree import quadtree_pairs

SIZES = (2_000, 10_000)
REPEATS = 20


def physics_scene(count: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Random boxes: ``(count, 2) float64`` lower and upper corners."""
    rng = np.random.default_rng(seed)
    lower = rng.uniform(0.0, 1.5 * np.sqrt(count), (count, 2))
    return lower, lower + rng.uniform(0.5, 1.5, (count, 2))


def best_ms(method: Callable[..., np.ndarray], lower: np.ndarray, upper: np.ndarray) -> float:
    """Fastest of ``REPEATS`` calls in milliseconds, after one warm-up call.

    The minimum is the least noisy estimate of the cost itself: slower runs only add
    interference from the rest of the machine.
    """
    method(lower, upper)
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        method(lower, upper)
        times.append(time.perf_counter() - start)
    return 1e3 * min(times)


def run() -> list[tuple[str, float, str]]:
    """Time both broad-phase methods and count the pairs they find.

    Returns:
        Rows ``(name, value, unit)``: milliseconds per call for each method and size,
        the number of overlapping pairs per size, and the brute-force reference at the
        smallest size.
    """
    rows = []
    for count in SIZES:
        lower, upper = physics_scene(count)
        label = f"{count // 1000}k boxes"
        pairs = grid_pairs(lower, upper)
        # Timings mean nothing if the methods disagree.
        if not np.array_equal(pairs, quadtree_pairs(lower, upper)):
            raise AssertionError(f"grid and quadtree disagree on {label}")
        rows.append((f"grid pairs, {label}", best_ms(grid_pairs, lower, upper), "ms"))
        rows.append((f"quadtree pairs, {label}", best_ms(quadtree_pairs, lower, upper), "ms"))
        rows.append((f"overlapping pairs, {label}", float(len(pairs)), "pairs"))
        if count == SIZES[0]:
            rows.append(
                (f"brute force pairs, {label}", best_ms(brute_force_pairs, lower, upper), "ms")
            )
    return rows


if __name__ == "__main__":
    for name, value, unit in run():
        print(f"{name:32s} {value:10.2f} {unit}")
