"""Swept SAT: a fast polygon driven by the arrow keys, stopped at its time of impact.

The player moves 0.5 m per frame, more than half its own size, so testing overlap only at
the end of each frame would let it skip through thin walls. Instead every frame's motion is
swept with ``engine.collide(..., velocity, dt)``: the earliest time of impact among the
obstacles stops it just short of the surface, the velocity loses its component along the
contact normal, and the rest of the frame is spent sliding along the surface.

The probe ahead of the player shows the same computation over a longer look-ahead: where
it would hit (the ghost at the time of impact), the normal there, and the slide after it.
"""

from __future__ import annotations

import numpy as np

from engine import Box, Circle, ConcavePolygon, Polygon, World, collide, collide_many

from .. import world_data
from ..app.registry import scene
from ..app.scene import Input, Scene
from ..draw import palette

SPEED = 30.0  # m/s: 0.5 m per frame at 60 fps
LOOKAHEAD = 0.35  # s swept by the probe
SKIN = 0.01  # m left between the player and a surface after a stop
SLIDES = 3  # sweeps per frame: hit, slide, hit again in a corner...
TRAIL = 90  # frames of path kept
ARROWS = {"LEFT": (-1, 0), "RIGHT": (1, 0), "UP": (0, 1), "DOWN": (0, -1)}
PLAYER_COLOUR = (255, 209, 102, 255)


class Sweep:
    """A single sweep-and-slide: what hit, when, and where the motion went."""

    def __init__(self, start, hits):
        self.start = np.asarray(start, dtype=np.float64)
        self.hits = hits  # list of (pose at impact, toi, normal, contact points)
        self.end = self.start


def sweep_and_slide(shape, pose, velocity, seconds, obstacles) -> Sweep:
    """Move ``shape`` from ``pose`` (3,) at ``velocity`` (2,) for ``seconds`` among the
    convex ``obstacles`` (shapes, poses (M, 3)), stopping at each first impact and sliding.

    Obstacles are convex parts: for a concave shape ``collide`` reports the deepest part's
    normal, which need not be the normal of the part hit first.
    """
    shapes, poses = obstacles
    count = len(shapes)
    result = Sweep(pose, [])
    pose = np.asarray(pose, dtype=np.float64).copy()
    velocity = np.asarray(velocity, dtype=np.float64).copy()
    remaining = float(seconds)
    for _ in range(SLIDES):
        if remaining <= 0.0 or not velocity.any():
            break
        # One batched call sweeps the player against every obstacle part at once.
        batch = collide_many(
            shape, np.tile(pose, (count, 1)), shapes, poses, np.tile(velocity, (count, 1)),
            remaining,
        )  # fmt: skip
        if batch.intersect.any():
            # Started inside (rounding after a stop): step out along the deepest MTV.
            deepest = int(np.argmax(batch.depth))
            pose[:2] += batch.mtv[deepest] * 1.01
            continue
        closing = batch.normal @ velocity
        ahead = batch.will_intersect & (closing > 0.0)
        if not ahead.any():
            pose[:2] += velocity * remaining
            remaining = 0.0
            break
        first = int(np.flatnonzero(ahead)[np.argmin(batch.toi[ahead])])
        toi, normal = float(batch.toi[first]), batch.normal[first]
        touch = pose.copy()
        touch[:2] += velocity * toi
        points = collide(shape, touch, shapes[first], poses[first]).points
        result.hits.append((touch, toi, normal, points))
        # Stop a skin short along the normal, then keep only the motion along the surface.
        moved = max(toi - SKIN / closing[first], 0.0)
        pose[:2] += velocity * moved
        remaining -= moved
        velocity = velocity - closing[first] * normal
    result.end = pose
    return result


class Driver:
    """The player: its shape, pose and velocity, driven by the keys or by the autopilot."""

    def __init__(self, world: World, obstacles: list) -> None:
        self.world = world
        self.shape = Polygon([(-0.6, -0.4), (0.6, -0.4), (0.75, 0.15), (0.0, 0.55), (-0.75, 0.15)])
        self.pose = np.array([-7.0, -3.0, 0.0])
        self.velocity = np.zeros(2)
        self.heading = np.array([1.0, 0.35]) / np.hypot(1.0, 0.35)
        parts = [
            (part, world_data.shape_pose(body))
            for body in obstacles
            for part in body.shapes[0].parts
        ]
        self.obstacles = ([part for part, _ in parts], np.array([pose for _, pose in parts]))
        self.trail = [self.pose[:2].copy()]
        self.auto = True  # until an arrow key is pressed
        self._time = 0.0
        self.probe: Sweep | None = None

    def frame(self, state: Input) -> None:
        held = [ARROWS[name] for name in ARROWS if name in state.keys]
        if held:
            self.auto = False
        self._time += state.seconds
        if self.auto:
            # Head for a point circling the room, so the player keeps meeting obstacles.
            target = 6.5 * np.array([np.cos(0.5 * self._time), 0.8 * np.sin(0.7 * self._time)])
            direction = target - self.pose[:2]
        else:
            direction = np.sum(held, axis=0) if held else np.zeros(2)
        length = float(np.hypot(*direction))
        self.velocity = SPEED * direction / length if length > 1e-9 else np.zeros(2)
        if self.auto:
            # Ease in near the target instead of overshooting it every frame.
            self.velocity *= min(1.0, length / (4.0 * SPEED * max(state.seconds, 1e-3)))
        if length > 1e-9:
            self.heading = direction / length
        move = sweep_and_slide(self.shape, self.pose, self.velocity, state.seconds, self.obstacles)
        self.pose = move.end
        self.trail = (self.trail + [self.pose[:2].copy()])[-TRAIL:]
        self.probe = sweep_and_slide(
            self.shape, self.pose, SPEED * self.heading, LOOKAHEAD, self.obstacles
        )

    def draw(self, canvas, poses) -> None:
        canvas.polyline(np.array(self.trail), palette.with_alpha(PLAYER_COLOUR, 90), 2.0)
        probe = self.probe
        if probe is not None:
            self._draw_probe(canvas, probe)
        outline = _placed(self.shape, self.pose)
        canvas.polygons(outline[None], np.array([palette.shade(PLAYER_COLOUR, 0.7)]))
        canvas.polyline(outline, PLAYER_COLOUR, 2.0, closed=True)

    def _draw_probe(self, canvas, probe: Sweep) -> None:
        ghost = palette.with_alpha(PLAYER_COLOUR, 110)
        corners = _placed(self.shape, probe.start)
        stop = probe.hits[0][0] if probe.hits else probe.end
        # The swept region up to the first impact: every corner's straight path.
        canvas.lines(corners, _placed(self.shape, stop), palette.with_alpha(PLAYER_COLOUR, 45), 1.0)
        for rank, (touch, toi, normal, points) in enumerate(probe.hits):
            outline = _placed(self.shape, touch)
            canvas.polyline(outline, palette.with_alpha(palette.BAD, 230), 2.0, closed=True)
            if len(points):
                canvas.dots(points, palette.CONTACT_POINT, 4.0)
                base = points.mean(axis=0)
                canvas.arrows(base, base - 0.9 * normal, palette.CONTACT_NORMAL, 2.0, 9.0)
                if rank == 0:
                    label_at = outline.mean(axis=0) + (0.0, 1.0)
                    canvas.text(label_at, f"toi {toi * 1000:.0f} ms", palette.TEXT, 9, "center")
        if probe.hits:
            start = probe.hits[0][0][:2]
            canvas.dashed(start, probe.end[:2], palette.ACCENT, 1.5, 6.0)
            canvas.polyline(_placed(self.shape, probe.end), ghost, 1.2, closed=True)

    def status(self) -> list[str]:
        probe = self.probe
        mode = "autopilot (arrows take over)" if self.auto else "arrow keys"
        lines = [f"{mode}: {SPEED:.0f} m/s = {SPEED / 60:.1f} m per frame"]
        if probe is not None and probe.hits:
            toi = probe.hits[0][1]
            slide = "then slides" if len(probe.hits) < 2 else "slides, hits again"
            when = "touching now" if toi < 1e-3 else f"impact after {toi * 1000:.0f} ms"
            lines.append(f"probe {LOOKAHEAD * 1000:.0f} ms ahead: {when}, {slide}")
        else:
            lines.append(f"probe: clear for the next {LOOKAHEAD * 1000:.0f} ms")
        return lines


def _placed(shape, pose) -> np.ndarray:
    """A polygon's vertices at ``pose``."""
    c, s = np.cos(pose[2]), np.sin(pose[2])
    return shape.vertices @ np.array([[c, s], [-s, c]]) + pose[:2]


def _obstacles(world: World) -> list:
    """A room with a few obstacles of every kind of shape; returns their bodies."""
    static = {"kind": "static"}
    bodies = [
        world.add_body(Box(20.0, 0.3), position=(0.0, -6.0), **static),
        world.add_body(Box(20.0, 0.3), position=(0.0, 6.0), **static),
        world.add_body(Box(0.3, 12.0), position=(-10.0, 0.0), **static),
        world.add_body(Box(0.3, 12.0), position=(10.0, 0.0), **static),
        world.add_body(Box(3.0, 1.2), position=(0.5, 0.5), angle=0.5, **static),
        world.add_body(Circle(1.3), position=(-4.5, 2.5), **static),
        world.add_body(
            Polygon([(-1.5, -1.0), (1.8, -1.2), (0.2, 1.6)]), position=(5.0, -2.5), **static
        ),
        world.add_body(Box(0.12, 4.0), position=(-3.0, -3.5), **static),
        world.add_body(
            ConcavePolygon([(0, 1.6), (0.45, 0.5), (1.6, 0.45), (0.7, -0.3), (1.0, -1.5),
                            (0, -0.8), (-1.0, -1.5), (-0.7, -0.3), (-1.6, 0.45), (-0.45, 0.5)]),
            position=(5.5, 3.0), angle=0.2, **static,
        ),
    ]  # fmt: skip
    return bodies


@scene("sweep", "swept SAT: a fast polygon, its time of impact, and the slide along walls")
def build() -> Scene:
    world = World(gravity=(0.0, 0.0))
    driver = Driver(world, _obstacles(world))
    return Scene(
        world,
        view=(-10.5, -6.5, 10.5, 6.5),
        on_frame=driver.frame,
        draw=driver.draw,
        status=driver.status,
        keys=[("arrows", "drive")],
    )
