"""A World's queries: points, boxes, rays and shape casts, and the character controller.

Each method hands the world's state to the query functions (``engine.queries``,
``engine.raycast``, ``engine.character``), which ask the query index which parts are near
and test only those exactly.
"""

from __future__ import annotations

from .character import move_and_slide
from .queries import check_body, query_aabb, query_point, shape_cast
from .query_index import QueryIndex
from .raycast import raycast, raycast_all, raycast_many


class WorldQueries:
    """Point, box, ray and shape queries, and moving a body by hand (part of ``World``)."""

    # -- queries --------------------------------------------------------------------------
    def _query_stamp(self) -> tuple:
        """What the query index depends on (``engine.query_index``)."""
        return (
            self._bodies.count,
            self._bodies.next_id,
            self._clock.steps,
            self._clock.pose_revision,
        )

    def _current_index(self) -> QueryIndex:
        """The query index at the current poses, built first if the world changed since."""
        return self._query_index.current(self._query_stamp(), self._bodies, self._parts.table)

    def query_point(self, point) -> list:
        """The bodies whose shapes contain ``point`` (2,) (touching counts), in body order."""
        return query_point(self._current_index(), self._handles_by_row(), point)

    def query_aabb(self, lower, upper) -> list:
        """The bodies whose shapes overlap the box [lower, upper] (each (2,)), exactly."""
        return query_aabb(self._current_index(), self._handles_by_row(), lower, upper)

    def raycast(self, start, end, mask: int = 0xFFFF):
        """The first body the segment start -> end hits (a RayHit: body, point, normal,
        fraction), or None. Only bodies whose category is in ``mask``; sensors are ignored.
        """
        parts, handles = self._parts.table.columns(), self._handles_by_row()
        return raycast(self._current_index(), parts, handles, start, end, mask)

    def raycast_all(self, start, end, mask: int = 0xFFFF) -> list:
        """Every body the segment hits (first hit per body), nearest first."""
        parts, handles = self._parts.table.columns(), self._handles_by_row()
        return raycast_all(self._current_index(), parts, handles, start, end, mask)

    def raycast_many(self, starts, ends, mask: int = 0xFFFF):
        """R rays at once: starts, ends (R, 2). Returns RayHits arrays (body_row -1: no hit)."""
        return raycast_many(self._current_index(), self._parts.table.columns(), starts, ends, mask)

    def shape_cast(self, shape, pose, motion, mask: int = 0xFFFF):
        """The first body ``shape`` at ``pose`` (3,) would hit when swept by ``motion`` (2,):
        a ShapeHit (body, toi as a fraction of the motion, normal, point) or None."""
        parts, handles = self._parts.table.columns(), self._handles_by_row()
        return shape_cast(self._current_index(), parts, handles, shape, pose, motion, mask)

    def move_and_slide(self, body, motion, max_slides: int = 4, floor_angle=None):
        """Move ``body`` by ``motion`` (2,), stopping at contacts and sliding along them.

        Returns a SlideResult (position, contacts, on_floor). See engine.character.
        """
        row = check_body(self, body)
        index, parts, handles = self._current_index(), self._parts.table, self._handles_by_row()
        result, moved = move_and_slide(
            index, parts.columns(), self._bodies.columns(), handles, row, motion, max_slides,
            floor_angle, self._units_per_meter,
        )  # fmt: skip
        if moved:
            body.position = result.position  # validated like any write: raises, or is made
            self._query_index.patch(index, row, self._bodies, self._query_stamp())
        return result
