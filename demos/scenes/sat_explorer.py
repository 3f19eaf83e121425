"""The SAT explorer: drag two polygons and their corners, and watch the test decide.

Every edge normal is a candidate axis, drawn as a "wall" beside the pair with both
polygons' shadows on it (red where they overlap). When one axis shows a gap it is the
separating axis and the line through the gap separates the shapes; when every axis
overlaps, the axis of least push gives the MTV, drawn as arrows and as a ghost of A moved
out. The figures come from ``demos.scenes.sat_explorer_math``; the engine's own ``collide``
answer is shown next to them as a check.
"""

from __future__ import annotations

import numpy as np

from engine import Polygon, World, collide

from ..app.registry import scene
from ..app.scene import Input, Scene
from ..draw import palette
from . import sat_explorer_math as sat

COLOURS = {"A": (102, 178, 255, 255), "B": (255, 159, 102, 255)}
GRAB_PX = 12.0  # how close to a corner a press must be to grab it
TURN_RATE = 1.5  # rad/s while A or D is held
# The table of shadows, in world units to the right of the polygons.
TABLE_LEFT, TABLE_WIDTH, TABLE_TOP, TABLE_ROW = 6.2, 4.6, 4.2, 1.0


class Explorer:
    """The two polygons and what the mouse is doing to them."""

    def __init__(self) -> None:
        self.local = {
            "A": np.array([(-1.6, -1.0), (1.4, -1.3), (1.8, 0.8), (-0.4, 1.6), (-1.8, 0.4)]),
            "B": np.array([(-1.4, -0.9), (1.5, -0.6), (0.2, 1.5)]),
        }
        self.position = {"A": np.array([-1.6, 0.0]), "B": np.array([1.9, 0.4])}
        self.angle = {"A": 0.15, "B": -0.3}
        self.selected = "A"
        self.focus = None  # highlighted axis index; None follows the verdict
        self._grab = None  # ("vertex", name, index) or ("body", name, offset)
        self.pixel = 0.02  # metres per pixel, refreshed each frame by draw
        # Until the user touches anything, B drifts in and out of A so that the scene (and
        # its recording) shows both verdicts.
        self.auto = True
        self._time = 0.0

    def world_polygon(self, name: str) -> np.ndarray:
        return sat.transform(self.local[name], self.position[name], self.angle[name])

    def result(self) -> sat.SatResult:
        return sat.sat(self.world_polygon("A"), self.world_polygon("B"))

    # -- input ----------------------------------------------------------------------------
    def press(self, point: np.ndarray, button: str) -> bool:
        self.auto = False
        for name in ("B", "A"):
            corners = self.world_polygon(name)
            distance = np.hypot(*(corners - point).T)
            if distance.min() <= GRAB_PX * self.pixel:
                self._grab = ("vertex", name, int(distance.argmin()))
                self.selected = name
                return True
        for name in ("B", "A"):
            if _inside(self.world_polygon(name), point):
                self._grab = ("body", name, self.position[name] - point)
                self.selected = name
                return True
        return False

    def drag(self, point: np.ndarray) -> None:
        if self._grab is None:
            return
        kind, name, detail = self._grab
        if kind == "body":
            self.position[name] = point + detail
            return
        # Move the corner in the polygon's own frame; refuse moves that make it concave,
        # since the test (and the engine's Polygon) is for convex shapes only.
        c, s = np.cos(self.angle[name]), np.sin(self.angle[name])
        offset = point - self.position[name]
        moved = self.local[name].copy()
        moved[detail] = (c * offset[0] + s * offset[1], -s * offset[0] + c * offset[1])
        if sat.is_convex(moved):
            self.local[name] = moved

    def release(self) -> None:
        self._grab = None

    def frame(self, state: Input) -> None:
        if self.auto:
            self._time += state.seconds
            swing = np.sin(0.9 * self._time)
            self.position["B"] = np.array([1.9 - 1.6 * max(swing, 0.0) ** 0.7, 0.4 + 0.5 * swing])
            self.angle["B"] = -0.3 + 0.35 * self._time
        turn = TURN_RATE * state.seconds
        if "A" in state.keys:
            self.angle[self.selected] += turn
        if "D" in state.keys:
            self.angle[self.selected] -= turn

    def key(self, name: str) -> bool:
        if name in ("A", "D", "TAB"):
            self.auto = False
        if name in ("A", "D"):
            return True  # turning happens while held, in frame()
        if name == "TAB":
            count = len(self.result().axes)
            self.focus = 0 if self.focus is None else (self.focus + 1) % (count + 1)
            if self.focus == count:
                self.focus = None
            return True
        return False

    # -- drawing --------------------------------------------------------------------------
    def draw(self, canvas, poses) -> None:
        self.pixel = canvas.pixel
        polygons = {name: self.world_polygon(name) for name in ("A", "B")}
        result = self.result()
        touching = result.separating is None
        centre = 0.5 * (polygons["A"].mean(axis=0) + polygons["B"].mean(axis=0))
        reach = max(np.hypot(*(p - centre).T).max() for p in polygons.values())
        focus = self._focus(result)

        for name, polygon in polygons.items():
            colour = COLOURS[name]
            fill = palette.with_alpha(palette.BAD if touching else colour, 70)
            canvas.polygons(polygon[None], np.array([fill]))
            canvas.polyline(polygon, colour, 2.5 if name == self.selected else 1.8, closed=True)
            canvas.dots(polygon, colour, 4.5)
            canvas.text(polygon.mean(axis=0), name, colour, 14, "center")
            self._normals(canvas, name, polygon, result, focus)

        self._wall(canvas, result, focus, polygons)
        if touching:
            self._mtv(canvas, result, polygons)
        else:
            self._separating_line(canvas, result, centre, reach)
        self._table(canvas, result, focus, centre, reach)

    def _focus(self, result: sat.SatResult) -> int:
        if self.focus is not None and self.focus < len(result.axes):
            return self.focus
        return result.separating if result.separating is not None else result.mtv_axis

    def _normals(self, canvas, name, polygon, result, focus) -> None:
        """Each edge's outward normal, a short arrow from its middle: the candidate axes."""
        middles = 0.5 * (polygon + np.roll(polygon, -1, axis=0))
        normals = sat.edge_normals(polygon)
        colour = palette.with_alpha(COLOURS[name], 150)
        canvas.arrows(middles, middles + 0.45 * normals, colour, 1.2, 6.0)
        for edge, (middle, normal) in enumerate(zip(middles, normals)):
            index = next(i for i, r in enumerate(result.axes) if r.owner == name and r.edge == edge)
            text_colour = palette.ACCENT if index == focus else palette.TEXT_DIM
            canvas.text(middle + 0.75 * normal, f"{name}{edge}", text_colour, 9, "center")

    def _wall(self, canvas, result, index, polygons) -> None:
        """The focused axis as a line just beside the pair, both shadows cast onto it."""
        report = result.axes[index]
        axis = report.axis
        # The wall runs along the axis, a metre beyond the pair on its lower side (or its
        # left, for an upright axis, away from the table on the right).
        side = np.array([axis[1], -axis[0]])
        if side[1] > 1e-9 or (abs(side[1]) <= 1e-9 and side[0] > 0.0):
            side = -side
        corners = np.concatenate(list(polygons.values()))
        beyond = float((corners @ side).max()) + 1.0
        low = min(report.a[0], report.b[0]) - 0.8
        high = max(report.a[1], report.b[1]) + 0.8
        start, end = beyond * side + low * axis, beyond * side + high * axis
        wall = start
        separating = index == result.separating
        line_colour = palette.GOOD if separating else palette.TEXT_DIM
        canvas.lines(start, end, line_colour, 1.2)
        canvas.arrows(end - 0.4 * axis, end + 0.4 * axis, line_colour, 1.5, 8.0)
        gap = 5.0 * canvas.pixel
        for name, interval, shift in (("A", report.a, -gap), ("B", report.b, gap)):
            segment = sat.shadow_segment(interval, axis, wall + shift * side)
            canvas.lines(segment[0], segment[1], COLOURS[name], 5.0)
        common = sat.overlap_interval(report.a, report.b)
        if common is not None:
            segment = sat.shadow_segment(common, axis, wall)
            canvas.lines(segment[0], segment[1], palette.BAD, 7.0)
        self._projectors(canvas, report, wall)
        label_at = end + 0.9 * axis + 0.35 * side
        canvas.text(label_at, f"axis {report.owner}{report.edge}", line_colour, 10, "center")

    def _table(self, canvas, result, focus, centre, reach) -> None:
        """Every distinct axis as a row: both shadows on one scale, red where they overlap."""
        distinct = sat.distinct_axes(result.axes)
        left, width, top, row = TABLE_LEFT, TABLE_WIDTH, TABLE_TOP, TABLE_ROW
        half = reach + 0.5
        canvas.text((left, top + 0.55), "shadows on each axis", palette.TEXT, 10)
        for rank, index in enumerate(distinct):
            report = result.axes[index]
            y = top - rank * row
            origin = centre @ report.axis

            def x(t, origin=origin):
                return left + 0.8 + (t - origin + half) / (2.0 * half) * width

            focused = index == focus
            if report.overlap < 0.0:
                # Any axis with a gap separates them; the verdict names the widest.
                colour = palette.GOOD if index == result.separating else palette.TEXT
                verdict = f"gap {-report.overlap:.2f}"
            elif index == result.mtv_axis:
                colour, verdict = palette.ACCENT, f"push {np.hypot(*result.mtv):.2f}"
            else:
                colour = palette.TEXT if focused else palette.TEXT_DIM
                verdict = f"{report.overlap:+.2f}"
            canvas.text((left, y), f"{report.owner}{report.edge}", colour, 10)
            canvas.lines((x(-half + origin), y), (x(half + origin), y), palette.GRID_LINE, 1.0)
            for interval, name, dy in ((report.a, "A", 0.12), (report.b, "B", -0.12)):
                canvas.lines((x(interval[0]), y + dy), (x(interval[1]), y + dy), COLOURS[name], 4.0)
            common = sat.overlap_interval(report.a, report.b)
            if common is not None:
                canvas.lines((x(common[0]), y), (x(common[1]), y), palette.BAD, 5.0)
            canvas.text((left + width + 1.1, y), verdict, colour, 10)
            if focused:
                canvas.boxes(
                    (left - 0.25, y - 0.38), (left + width + 2.9, y + 0.38), palette.TEXT_DIM, 1.0
                )

    def _projectors(self, canvas, report, wall) -> None:
        """Dashed perpendiculars from each polygon's extreme corners down to the wall."""
        for name in ("A", "B"):
            polygon = self.world_polygon(name)
            dots = polygon @ report.axis
            for corner in (polygon[dots.argmin()], polygon[dots.argmax()]):
                foot = sat.shadow_segment((corner @ report.axis,) * 2, report.axis, wall)[0]
                canvas.dashed(corner, foot, palette.with_alpha(COLOURS[name], 110), 1.0, 5.0)

    def _mtv(self, canvas, result, polygons) -> None:
        mtv = result.mtv
        centre_a = polygons["A"].mean(axis=0)
        centre_b = polygons["B"].mean(axis=0)
        canvas.polyline(
            polygons["A"] + mtv, palette.with_alpha(COLOURS["A"], 120), 1.2, closed=True
        )
        canvas.arrows(centre_a, centre_a + mtv, palette.ACCENT, 3.0, 12.0)
        canvas.arrows(centre_b, centre_b - mtv, palette.with_alpha(palette.ACCENT, 150), 2.0, 10.0)
        canvas.text(centre_a + mtv * 1.2 + (0.0, 0.35), "MTV", palette.ACCENT, 11, "center")

    def _separating_line(self, canvas, result, centre, reach) -> None:
        """The line through the middle of the gap, perpendicular to the separating axis."""
        report = result.axes[result.separating]
        axis = report.axis
        middle = 0.5 * (max(report.a[0], report.b[0]) + min(report.a[1], report.b[1]))
        foot = centre + (middle - centre @ axis) * axis
        along = np.array([-axis[1], axis[0]])
        ends = foot - (reach + 0.5) * along, foot + (reach + 0.5) * along
        canvas.dashed(ends[0], ends[1], palette.GOOD, 2.0, 10.0)

    def status(self) -> list[str]:
        result = self.result()
        a, b = self.world_polygon("A"), self.world_polygon("B")
        engine = collide(Polygon(a), (0, 0, 0), Polygon(b), (0, 0, 0))
        axes = len(sat.distinct_axes(result.axes))
        if result.separating is not None:
            report = result.axes[result.separating]
            gaps = sum(1 for r in result.axes if r.overlap < 0.0)
            return [
                f"apart: {gaps} of {len(result.axes)} axes show a gap; the widest, on "
                f"{report.owner}{report.edge}, is {-report.overlap:.3f}",
                f"engine.collide: intersect={engine.intersect}",
            ]
        report = result.axes[result.mtv_axis]
        mx, my = result.mtv
        return [
            f"overlapping on all {axes} axes; least push on {report.owner}{report.edge}: "
            f"MTV ({mx:+.3f}, {my:+.3f})",
            f"engine.collide: depth {engine.depth:.3f}, mtv ({engine.mtv[0]:+.3f}, "
            f"{engine.mtv[1]:+.3f})",
        ]


def _inside(polygon: np.ndarray, point: np.ndarray) -> bool:
    """Point inside a convex CCW polygon: on the inner side of every edge."""
    normals = sat.edge_normals(polygon)
    return bool(np.all(np.einsum("ij,ij->i", normals, point - polygon) <= 0.0))


@scene("sat", "the separating axis test, live: drag the polygons and their corners")
def build() -> Scene:
    explorer = Explorer()
    return Scene(
        World(gravity=(0.0, 0.0)),
        view=(-7.5, -6.0, 14.0, 5.5),
        on_frame=explorer.frame,
        on_key=explorer.key,
        on_press=explorer.press,
        on_drag=explorer.drag,
        on_release=explorer.release,
        draw=explorer.draw,
        status=explorer.status,
        keys=[("A/D", "turn"), ("Tab", "next axis")],
    )
