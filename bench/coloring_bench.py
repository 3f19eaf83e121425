"""Constraint colouring: time and colour count on a box-pyramid contact graph and a random one."""

from __future__ import annotations

import numpy as np

from bench.timing import best_of
from engine.coloring import color_batches, color_constraints

PYRAMID_ROWS = 100
RANDOM_BODIES = 5_000
RANDOM_CONSTRAINTS = 20_000


def pyramid_graph(rows: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Contact graph of a triangular pyramid of boxes on the ground.

    Body 0 is the static ground; boxes follow row by row from the bottom row of ``rows``
    boxes. Each box touches its left and right neighbours and the two boxes it rests on;
    bottom-row boxes touch the ground instead.

    Returns:
        ``(body_a (M,) int64, body_b (M,) int64, movable (N,) bool)`` with
        ``N = 1 + rows * (rows + 1) / 2`` and ``M`` about ``1.5 * rows**2``.
    """
    starts = 1 + np.concatenate([[0], np.cumsum(np.arange(rows, 0, -1))])
    body_a, body_b = [], []
    for row in range(rows):  # set-up only: one step per row, not per box
        boxes = starts[row] + np.arange(rows - row)
        body_a.append(boxes[:-1])
        body_b.append(boxes[1:])
        if row == 0:
            body_a.append(boxes)
            body_b.append(np.zeros_like(boxes))
        else:
            below = starts[row - 1] + np.arange(rows - row)
            body_a += [boxes, boxes]
            body_b += [below, below + 1]
    movable = np.ones(starts[-1], dtype=bool)
    movable[0] = False
    return np.concatenate(body_a), np.concatenate(body_b), movable


def random_graph(bodies: int, constraints: int, seed: int = 1):
    """``constraints`` random pairs of distinct bodies, all movable: ``(M,), (M,), (N,)``."""
    rng = np.random.default_rng(seed)
    body_a = rng.integers(0, bodies, constraints)
    body_b = (body_a + rng.integers(1, bodies, constraints)) % bodies
    return body_a, body_b, np.ones(bodies, dtype=bool)


def max_movable_degree(body_a, body_b, movable) -> int:
    """Largest number of constraints at one movable body."""
    ends = np.concatenate([body_a[movable[body_a]], body_b[movable[body_b]]])
    return int(np.bincount(ends).max()) if ends.size else 0


def run() -> list[tuple[str, float, str]]:
    """Rows (name, value, unit) for the benchmark table."""
    rows = []
    graphs = [
        (f"{PYRAMID_ROWS}-row pyramid graph", "pyramid", pyramid_graph(PYRAMID_ROWS)),
        (
            f"random, {RANDOM_CONSTRAINTS // 1000}k pairs of {RANDOM_BODIES // 1000}k bodies",
            "random",
            random_graph(RANDOM_BODIES, RANDOM_CONSTRAINTS),
        ),
    ]
    for label, short, (body_a, body_b, movable) in graphs:
        seconds = best_of(20, lambda a=body_a, b=body_b, m=movable: color_constraints(a, b, m))
        colors = color_constraints(body_a, body_b, movable)
        used = int(colors.max()) + 1
        degree = max_movable_degree(body_a, body_b, movable)
        rows += [
            (f"colouring: {label}", 1e3 * seconds, "ms"),
            (f"colouring: {short} constraints", float(body_a.size), ""),
            (f"colouring: {short} colours used", float(used), ""),
            (f"colouring: {short} max movable degree", float(degree), ""),
            (f"colouring: {short} colours used / max degree", used / degree, ""),
        ]
        if short == "pyramid":
            batches = best_of(20, lambda c=colors: color_batches(c))
            rows.append(("colouring: color_batches, pyramid", 1e3 * batches, "ms"))
    return rows


if __name__ == "__main__":
    for label, value, unit in run():
        print(f"{label:<52} {value:>14,.2f}  {unit}")
