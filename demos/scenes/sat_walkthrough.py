"""A terminal walk through the separating axis test on the classic worked examples."""

from __future__ import annotations

import numpy as np

from engine import Box, Circle, Polygon, collide


def _projection(vertices: np.ndarray, axis: np.ndarray) -> tuple[float, float]:
    shadow = vertices @ axis
    return float(shadow.min()), float(shadow.max())


def _axes_table(a: Polygon, b: Polygon) -> list[str]:
    lines = []
    for owner, polygon in (("A", a), ("B", b)):
        for i, axis in enumerate(polygon.normals):
            lo_a, hi_a = _projection(a.vertices, axis)
            lo_b, hi_b = _projection(b.vertices, axis)
            overlap = min(hi_a, hi_b) - max(lo_a, lo_b)
            verdict = f"overlap {overlap:.3f}" if overlap >= 0 else f"GAP {-overlap:.3f}"
            lines.append(
                f"  axis {owner}{i} ({axis[0]:+.3f}, {axis[1]:+.3f}): "
                f"A [{lo_a:+.3f}, {hi_a:+.3f}]  B [{lo_b:+.3f}, {hi_b:+.3f}]  {verdict}"
            )
    return lines


def _report(title: str, a, b, velocity=(0.0, 0.0), dt=1.0) -> None:
    print(f"\n{title}")
    if isinstance(a, Polygon) and isinstance(b, Polygon):
        print("\n".join(_axes_table(a, b)))
    hit = collide(a, (0, 0, 0), b, (0, 0, 0), velocity=velocity, dt=dt)
    print(f"  intersect={hit.intersect}  depth={hit.depth:.4f}  normal={np.round(hit.normal, 4)}")
    print(f"  mtv={np.round(hit.mtv, 4)}  contact points={np.round(hit.points, 4).tolist()}")
    if any(velocity):
        print(
            f"  moving at {velocity} for {dt} s: will_intersect={hit.will_intersect} toi={hit.toi}"
        )


def main() -> None:
    """Print the walkthrough."""
    square = Polygon([(0, 0), (0, 3), (3, 3), (3, 0)])
    far_square = Polygon([(4, 4), (4, 6), (6, 6), (6, 4)])
    quad = Polygon([(0, 0), (0, 5), (5, 4), (3, 0)])
    _report("Two squares with a gap: one axis shows it.", square, far_square)
    _report("A quadrilateral against the far square: every axis overlaps.", quad, far_square)
    cross_a = Box(6, 1)
    cross_b = Box(1, 6)
    _report("The cross: no corner inside the other, still overlapping.", cross_a, cross_b)
    _report(
        "A box sliding past a corner: each axis's swept shadow overlaps, but they never meet.",
        Box(1, 1, offset=(-2, 0.2)),
        Box(1, 1),
        velocity=(2.0, 2.0),
        dt=1.0,
    )
    _report(
        "A fast circle through a thin wall within one step: the time of impact catches it.",
        Circle(0.1, offset=(-1, 0)),
        Box(0.05, 2),
        velocity=(300.0, 0.0),
        dt=1 / 60,
    )
