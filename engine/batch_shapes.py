"""Other shapes for a static body in some copies of a ``WorldBatch`` (a terrain per copy)."""

from __future__ import annotations

import numpy as np

from .packing import widen


class BatchShapes:
    """``reshape`` (part of ``WorldBatch``)."""

    # -- shapes and contacts per copy ------------------------------------------------------
    def reshape(self, body, shapes, copies=None) -> None:
        """Give a static ``body`` other ``shapes`` in the chosen copies (a (C,) bool mask,
        indices, or None for all): terrain that differs from copy to copy.

        The new shapes are given in the body's frame, as ``origin="local"`` takes them: its
        origin at ``position`` as the body's handle reads it (the frame's origin for a body
        added with ``origin="local"``, else its centre of mass), turned by its ``angle``.
        They must make the same parts as the body's shapes do: as many, each of the same
        kind (vertex count and radius), so that the copies keep one layout. ValueError
        otherwise, or for a body that is not static; the copies find their resting
        contacts again.
        """
        from .world import World

        row = self.index_of(body)
        template = self._template
        handle = template.bodies[row]
        if handle.kind != "static":
            raise ValueError(
                f"body: only a static body can take other shapes, not a {handle.kind} one"
            )
        chosen = self._chosen(copies)
        probe = World()
        made = probe.add_body(
            shapes, kind="static", position=tuple(handle.position), angle=handle.angle,
            origin="local",
        )  # fmt: skip
        run = template._parts.rows_of(row)
        parts = np.arange(run.start, run.stop)
        packed = probe._parts.packed()
        width = self._vertices.shape[2]
        count, radius = self._inputs.table[2][parts], self._inputs.table[3][parts]
        if len(packed.count) != len(count) or not (
            np.array_equal(packed.count, count) and np.array_equal(packed.radius, radius)
        ):
            raise ValueError(
                f"shapes: they make {len(packed.count)} parts of vertex counts "
                f"{packed.count.tolist()}, where the body has {len(count)} of "
                f"{count.tolist()} (with the same radii): a batch's copies share one layout"
            )
        if packed.width > width:
            raise ValueError(
                f"shapes: a part of {packed.width} vertex slots, more than the batch's {width}"
            )
        packed = widen(packed, width)
        probe_body = probe._bodies.columns()
        indices = np.flatnonzero(chosen)
        for name in ("position", "angle", "reach", "thickness"):
            self._body[name][indices, row] = probe_body[name][0]
        self._vertices[np.ix_(indices, parts)] = packed.vertices
        self._normals[np.ix_(indices, parts)] = packed.normals
        self._reach[np.ix_(indices, parts)] = probe._parts.table.view("reach")
        self._grid_valid[indices] = False
        kept = (made.shapes, probe_body["origin_offset"][0].copy())
        for index in indices:
            self._reshaped[(int(index), row)] = kept
