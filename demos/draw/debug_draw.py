"""Debug drawing of any World, in bulk: every body of a kind in a handful of numpy calls.

Polygons are filled and outlined, circles get a radius line so their rotation shows,
static and kinematic bodies have their own colours. Sensors, which detect overlaps but
never push, are drawn as translucent outlines without a fill, so that what is solid shows.
Overlays (each toggled by a number key) add bounding boxes, contact points and normals,
broad-phase cells, velocities, the dimming of sleeping bodies, and the joints
(``demos.draw.joint_draw``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from engine import ConcavePolygon, World
from engine.broadphase_grid import grid_cells
from engine.broadphase_quadtree import quadtree_nodes
from engine.swept_bounds import part_bounds

from .. import world_data
from . import palette, tessellate
from .canvas import Canvas
from .contact_points import ContactPoints, find_contacts
from .joint_draw import paint_joints

# Broad-phase grid cells: line and fill (opaque, blended by hand over the background).
GRID_LINE = (62, 128, 160, 255)
GRID_FILL = (26, 40, 52, 255)
# Outline width of bodies, in pixels.
EDGE_PX = 1.5
# Sensors: a slightly wider outline, since it is all they have, at this opacity (0..255).
SENSOR_EDGE_PX = 2.0
# A segment without radius has no inside to fill: it is drawn as a line this wide.
LINE_PX = 3.0
SENSOR_ALPHA = 150
# A velocity arrow shows where the body would be this many seconds later.
VELOCITY_SECONDS = 0.1


@dataclass
class Overlays:
    """Which extras to draw. The number keys toggle the first six."""

    aabbs: bool = False
    contacts: bool = False
    broadphase: bool = False
    velocities: bool = False
    sleeping: bool = True
    joints: bool = True
    # Colour each convex part on its own and outline every part (shows decompositions);
    # with part_edges off, concave bodies are outlined along their true outline instead.
    part_colours: bool = False
    part_edges: bool = True


# key label -> (Overlays field, what it shows), for the key handler and the help text.
OVERLAY_KEYS = {
    "1": ("aabbs", "boxes"),
    "2": ("contacts", "contacts"),
    "3": ("broadphase", "broad phase"),
    "4": ("velocities", "velocities"),
    "5": ("sleeping", "dim asleep"),
    "6": ("joints", "joints"),
}
assert all(name in {f.name for f in fields(Overlays)} for name, _ in OVERLAY_KEYS.values())


class WorldPainter:
    """Draws a World onto a Canvas. ``colours`` maps bodies to RGBA overrides."""

    def __init__(self) -> None:
        self.colours: dict = {}
        self._outlines: dict[int, np.ndarray | None] = {}
        self.last_contacts: ContactPoints | None = None

    def paint(self, canvas: Canvas, world: World, poses: np.ndarray, overlays: Overlays):
        """Draw ``world`` with bodies at ``poses`` (N, 3), plus the chosen overlays."""
        packed, owner = world_data.parts(world)
        if len(owner) == 0:
            return
        part_poses = poses[owner]
        vertices = _to_world(packed.vertices, part_poses)
        colours = self.body_colours(world, overlays)
        part_colours = colours[owner]
        if overlays.part_colours:
            # Consecutive parts of one body get different colours; static bodies keep theirs.
            static = world_data.kinds(world)[owner] == world_data.STATIC
            by_part = palette.body_colours(np.arange(len(owner)) * 3 + 1)
            part_colours = np.where(static[:, None], part_colours, by_part)
        fill = palette.shade(part_colours, 0.72)
        edge = palette.shade(part_colours, 1.12)
        sensor = world_data.sensors(world)[owner]
        if sensor.any():
            edge[sensor, 3] = np.minimum(edge[sensor, 3], SENSOR_ALPHA)

        if overlays.broadphase:
            self._broadphase(canvas, world, packed, part_poses)
        outlined = None if overlays.part_edges else self._outlined_elsewhere(world, owner)
        self._polygons(canvas, packed, vertices, part_poses, fill, edge, outlined, sensor)
        if outlined is not None and outlined.any():
            self._true_outlines(canvas, world, poses, colours)
        self._circles(canvas, packed, vertices, part_poses, fill, edge, sensor)
        self._segments(canvas, packed, vertices, fill, edge, sensor)
        if overlays.joints:
            paint_joints(canvas, world, poses)

        if overlays.aabbs:
            lower, upper = part_bounds(packed, part_poses)
            canvas.boxes(lower, upper, palette.AABB, width_px=1.0)
        if overlays.velocities:
            self._velocities(canvas, world, poses)
        self.last_contacts = None
        if overlays.contacts:
            self.last_contacts = find_contacts(world)
            self._contacts(canvas, self.last_contacts)

    def _polygons(self, canvas, packed, vertices, part_poses, fill, edge, outlined, sensor) -> None:
        """Polygon parts, filled and outlined (``outlined``: parts drawn without an outline
        because their body gets its true outline instead; ``sensor``: parts drawn as an
        outline alone)."""
        polygon = (packed.radius == 0.0) & (packed.count != 2)
        solid = polygon & ~sensor
        edged = solid if outlined is None else solid & ~outlined
        plain = solid & ~edged
        # An outline is the polygon in the edge colour with its inset drawn on top: two
        # fans, far fewer vertices than a rectangle per edge.
        canvas.polygons(vertices[edged], edge[edged])
        normals = _turn(packed.normals[edged], part_poses[edged, 2])
        inner = tessellate.inset(
            vertices[edged], normals, packed.count[edged], EDGE_PX * canvas.pixel
        )
        canvas.polygons(inner, fill[edged])
        canvas.polygons(vertices[plain], fill[plain])
        # A sensor has no fill to cover the inside of its outline, so the outline is the
        # band between the polygon and its inset.
        hollow = polygon & sensor if outlined is None else polygon & sensor & ~outlined
        if hollow.any():
            normals = _turn(packed.normals[hollow], part_poses[hollow, 2])
            inner = tessellate.inset(
                vertices[hollow], normals, packed.count[hollow], SENSOR_EDGE_PX * canvas.pixel
            )
            canvas.frames(vertices[hollow], inner, edge[hollow])

    def _circles(self, canvas, packed, vertices, part_poses, fill, edge, sensor) -> None:
        """Circle parts: an edge-coloured disc, the fill disc inside, and a radius line
        along the body's angle so that rolling shows; a sensor's is a ring alone."""
        circle = (packed.radius > 0.0) & (packed.count == 1)
        if not circle.any():
            return
        # One segment count for all, from the largest on screen: smooth, never wasteful.
        segments = int(np.clip(packed.radius[circle].max() / canvas.pixel * 1.2, 8, 48))
        hollow = circle & sensor
        canvas.rings(
            vertices[hollow, 0],
            packed.radius[hollow],
            edge[hollow],
            SENSOR_EDGE_PX,
            segments,
        )
        round_part = circle & ~sensor
        if not round_part.any():
            return
        centres = vertices[round_part, 0]
        radii = packed.radius[round_part]
        inner = np.maximum(radii - EDGE_PX * canvas.pixel, 0.0)
        canvas.discs(centres, radii, edge[round_part], segments)
        canvas.discs(centres, inner, fill[round_part], segments)
        angle = part_poses[round_part, 2]
        spoke = centres + radii[:, None] * np.column_stack([np.cos(angle), np.sin(angle)])
        canvas.lines(centres, spoke, edge[round_part], width_px=EDGE_PX)

    def _segments(self, canvas, packed, vertices, fill, edge, sensor) -> None:
        """Segment parts: a capsule as a stadium (edge colour, the fill inside it; a
        sensor's as an outline alone), a line as a line a few pixels wide."""
        segment = packed.count == 2
        line = segment & (packed.radius == 0.0)
        if line.any():
            canvas.lines(vertices[line, 0], vertices[line, 1], edge[line], width_px=LINE_PX)
        capsule = segment & (packed.radius > 0.0)
        if not capsule.any():
            return
        segments = int(np.clip(packed.radius[capsule].max() / canvas.pixel * 1.2, 8, 48))
        start, end, radii = vertices[capsule, 0], vertices[capsule, 1], packed.radius[capsule]
        outer = tessellate.stadiums(start, end, radii, segments)
        hollow = sensor[capsule]
        canvas.outlines(outer[hollow], edge[capsule][hollow], width_px=SENSOR_EDGE_PX)
        inner = np.maximum(radii - EDGE_PX * canvas.pixel, 0.0)
        solid = ~hollow
        canvas.polygons(outer[solid], edge[capsule][solid])
        canvas.polygons(
            tessellate.stadiums(start[solid], end[solid], inner[solid], segments),
            fill[capsule][solid],
        )

    def body_colours(self, world: World, overlays: Overlays) -> np.ndarray:
        """(N, 4) uint8 colour of each body: by id, kind, override and sleep."""
        ids = world_data.body_ids(world)
        kinds = world_data.kinds(world)
        colours = palette.body_colours(ids)
        colours[kinds == world_data.STATIC] = palette.STATIC
        colours[kinds == world_data.KINEMATIC] = palette.KINEMATIC
        if self.colours:
            wanted = np.array([world_data.body_id(body) for body in self.colours], dtype=np.int64)
            rows = np.searchsorted(ids, wanted)
            found = rows < len(ids)
            found[found] &= ids[rows[found]] == wanted[found]
            override = np.array(list(self.colours.values()), dtype=np.uint8).reshape(-1, 4)
            colours[rows[found]] = override[found]
        if overlays.sleeping:
            asleep = world_data.sleeping(world)
            colours[asleep] = palette.shade(colours[asleep], 0.45)
        return colours

    # -- overlays -------------------------------------------------------------------------
    def _broadphase(self, canvas, world, packed, part_poses) -> None:
        lower, upper = part_bounds(packed, part_poses)
        if world.broadphase == "grid":
            cell_lower, cell_upper = grid_cells(lower, upper, world_data.cell_size(world))
            # Cells lie under the bodies, so they can be opaque: a tile in the line colour
            # with a dark tile a pixel smaller on top reads as an outlined cell, in 12
            # vertices instead of 30 for four edge rectangles and a translucent fill.
            inset = canvas.pixel
            canvas.rectangles(cell_lower, cell_upper, GRID_LINE)
            canvas.rectangles(cell_lower + inset, cell_upper - inset, GRID_FILL)
            return
        # Quadtree nodes nest: outlines only, the big shallow ones fainter, so the levels
        # read as a hierarchy instead of a wash of overlapping fills.
        node_lower, node_upper = quadtree_nodes(lower, upper)
        side = node_upper[:, 0] - node_lower[:, 0]
        alpha = np.clip(220.0 * side.min() / side, 40.0, 220.0)
        colours = np.tile(np.array(palette.BROADPHASE_CELL, dtype=np.uint8), (len(side), 1))
        colours[:, 3] = alpha.astype(np.uint8)
        canvas.boxes(node_lower, node_upper, colours, width_px=1.0)

    def _velocities(self, canvas, world, poses) -> None:
        moving = world_data.kinds(world) != world_data.STATIC
        velocity = world.velocities[moving]
        fast = np.hypot(velocity[:, 0], velocity[:, 1]) > 0.05
        start = poses[moving, :2][fast]
        canvas.arrows(start, start + VELOCITY_SECONDS * velocity[fast], palette.VELOCITY, 1.5, 7.0)

    def _contacts(self, canvas, contacts: ContactPoints) -> None:
        tip = contacts.points + contacts.normals * 16.0 * canvas.pixel
        canvas.arrows(contacts.points, tip, palette.CONTACT_NORMAL, 1.5, 6.0)
        canvas.dots(contacts.points, palette.CONTACT_POINT, 3.0)

    # -- true outlines of concave bodies --------------------------------------------------
    def _outline_of(self, body) -> np.ndarray | None:
        """A body's outline in its centre-of-mass frame if it has a concave shape."""
        key = world_data.body_id(body)
        if key not in self._outlines:
            shapes = body.shapes
            outline = None
            if len(shapes) == 1 and isinstance(shapes[0], ConcavePolygon):
                outline = np.asarray(shapes[0].outline) - shapes[0].centroid
            self._outlines[key] = outline
        return self._outlines[key]

    def _outlined_elsewhere(self, world, owner) -> np.ndarray:
        """(P,) bool: parts whose body is drawn with its true outline instead."""
        concave = np.array([self._outline_of(body) is not None for body in world.bodies])
        return concave[owner]

    def _true_outlines(self, canvas, world, poses, colours) -> None:
        for row, body in enumerate(world.bodies):
            outline = self._outline_of(body)
            if outline is None:
                continue
            points = _to_world(outline[None], poses[row : row + 1])[0]
            colour = palette.shade(colours[row], 1.12)
            if body.sensor:
                colour[3] = min(colour[3], SENSOR_ALPHA)
            canvas.polyline(points, colour, 1.5, closed=True)


def _to_world(local: np.ndarray, poses: np.ndarray) -> np.ndarray:
    """Body-frame points (P, K, 2) at poses (P, 3) -> world points (P, K, 2)."""
    c, s = np.cos(poses[:, 2])[:, None], np.sin(poses[:, 2])[:, None]
    x, y = local[..., 0], local[..., 1]
    return np.stack([c * x - s * y + poses[:, None, 0], s * x + c * y + poses[:, None, 1]], axis=-1)


def _turn(vectors: np.ndarray, angle: np.ndarray) -> np.ndarray:
    """Body-frame vectors (P, K, 2) turned by each part's angle (P,)."""
    c, s = np.cos(angle)[:, None], np.sin(angle)[:, None]
    x, y = vectors[..., 0], vectors[..., 1]
    return np.stack([c * x - s * y, s * x + c * y], axis=-1)
