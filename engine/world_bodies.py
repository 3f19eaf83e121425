"""Bodies in a World: adding, removing, and reading and writing their rows.

A body's state lives in its row of the body store (``engine.body_store``) and its parts in
the part table; a Body handle reads and writes through the methods here. During a step
(from a presolve handler) adds, removes and writes are queued and applied when it ends, so
the step's arrays never change under it.
"""

from __future__ import annotations

import inspect
import math

import numpy as np

from .body import Body
from .body_store import KIND_CODES
from .body_template import template
from .filtering import check_bits, check_group, check_tag
from .materials import check_density, check_flag, check_friction, check_restitution
from .motion_settings import check_damping, check_gravity_scale
from .segments import check_dynamic
from .settings import (
    MAX_ANGULAR_SPEED,
    MAX_COORDINATE,
    MAX_SPEED,
)
from .shapes import Shape
from .validation import (
    as_bounded_float,
    as_bounded_vector,
    as_finite_float,
    as_positive_float,
    bounded_components,
)


class WorldBodies:
    """Adding, removing, reading and writing bodies (part of ``World``)."""

    # -- bodies ---------------------------------------------------------------------------
    def add_body(
        self,
        shapes,
        position=(0.0, 0.0),
        angle: float = 0.0,
        velocity=(0.0, 0.0),
        angular_velocity: float = 0.0,
        density: float = 1.0,
        friction: float = 0.6,
        restitution: float = 0.0,
        kind: str = "dynamic",
        bullet: bool = False,
        sensor: bool = False,
        category: int = 0x0001,
        mask: int = 0xFFFF,
        group: int = 0,
        sleep_threshold: float | None = None,
        linear_damping: float = 0.0,
        angular_damping: float = 0.0,
        gravity_scale: float = 1.0,
        fixed_rotation: bool = False,
        enable_sleep: bool = True,
        tag: str | None = None,
        user_data=None,
        origin: str = "centroid",
    ) -> Body:
        """Add a body made of one shape or a list of shapes; returns its handle.

        origin="centroid": the body's ``position`` is its centre of mass; the shapes are
        placed so that their common centroid lands there. origin="local": the shapes stay
        where they were given, and ``position`` is the place of their origin (the centre
        of mass is then ``body.center_of_mass``). A ConcavePolygon brings its convex parts.

        sensor: detects overlaps (``sensor_begin``/``sensor_end`` events) but never pushes
        or is pushed. category, mask: 16-bit collision filter; two bodies collide only if
        each one's category is in the other's mask. group: a shared non-zero group
        overrides the masks: positive always collides, negative never.
        sleep_threshold: the body's own resting speed, units/s (None: the world's).
        linear_damping, angular_damping: drag rates, 1/s (>= 0): each step divides the
        velocities by 1 + dt * rate. gravity_scale: multiplies the world's gravity for this
        body (0: it floats; negative: it rises). fixed_rotation: nothing turns the body
        (its inverse inertia is 0; ``inertia`` still reports its shapes'). enable_sleep
        False: the body never falls asleep, and neither does any island it is in (Box2D's
        ``enableSleep``).
        tag: a name for the kind of thing it is, for handlers registered ``between`` tags
        (see ``on``). user_data: anything the program keeps with the body.
        """
        shapes = _check_shapes(shapes)
        position = np.array(bounded_components(position, "position", MAX_COORDINATE, "m"))
        velocity = np.array(bounded_components(velocity, "velocity", MAX_SPEED, "m/s"))
        # One check per property, shared with the shapes and the body setters. An argument
        # left at its default (the very object in the signature: valid, and its own checked
        # value) needs none: most are, in a game spawning bodies.
        given = _DEFAULTS
        if angle is not given["angle"]:
            angle = as_finite_float(angle, "angle")
        if angular_velocity is not given["angular_velocity"]:
            angular_velocity = as_bounded_float(
                angular_velocity, "angular_velocity", MAX_ANGULAR_SPEED, "rad/s"
            )
        if density is not given["density"]:
            density = check_density(density)
        if friction is not given["friction"]:
            friction = check_friction(friction)
        if restitution is not given["restitution"]:
            restitution = check_restitution(restitution)
        if kind not in KIND_CODES:
            raise ValueError(f"kind: must be one of {sorted(KIND_CODES)}, got {kind!r}")
        bullet = check_flag(bullet, "bullet")
        sensor = check_flag(sensor, "sensor")
        fixed_rotation = check_flag(fixed_rotation, "fixed_rotation")
        enable_sleep = check_flag(enable_sleep, "enable_sleep")
        if category is not given["category"]:
            category = check_bits(category, "category")
        if mask is not given["mask"]:
            mask = check_bits(mask, "mask")
        if group is not given["group"]:
            group = check_group(group)
        own_threshold = _check_sleep_threshold(sleep_threshold)
        if linear_damping is not given["linear_damping"]:
            linear_damping = check_damping(linear_damping, "linear_damping")
        if angular_damping is not given["angular_damping"]:
            angular_damping = check_damping(angular_damping, "angular_damping")
        damping = [linear_damping, angular_damping]
        if gravity_scale is not given["gravity_scale"]:
            gravity_scale = check_gravity_scale(gravity_scale)
        tag = check_tag(tag)
        if origin not in ("centroid", "local"):
            raise ValueError(f"origin: must be 'centroid' or 'local', got {origin!r}")

        shapes = tuple(shapes)
        body = template(shapes)
        if kind == "dynamic" and not body.may_be_dynamic:
            check_dynamic(shapes, "shapes")  # raises, saying why
        # Each shape's own density, else the body's: the centre of mass is mass-weighted.
        geometry = body.geometry(density)
        centroid = geometry.centroid
        offset = -centroid if origin == "local" else np.zeros(2)
        if origin == "local":
            c, s = math.cos(angle), math.sin(angle)
            centre = position + np.array([c * centroid[0] - s * centroid[1],
                                          s * centroid[0] + c * centroid[1]])  # fmt: skip
            position = as_bounded_vector(centre, "position", MAX_COORDINATE, "m")
        dynamic = kind == "dynamic"
        mass = geometry.mass if dynamic else np.inf
        inertia = geometry.inertia if dynamic else np.inf
        if dynamic:
            for name, value in (("mass", mass), ("inertia", inertia)):
                if not (0.0 < value < np.inf and 1.0 / value < np.inf):
                    raise ValueError(
                        f"density: gives these shapes a {name} of {value:g}, which float64 "
                        "cannot invert"
                    )

        record = {
            "position": position,
            "origin_offset": offset,
            "angle": angle,
            # Static bodies never move, whatever they were given.
            "velocity": velocity if kind != "static" else np.zeros(2),
            "angular_velocity": angular_velocity if kind != "static" else 0.0,
            "mass": mass,
            "inertia": inertia,
            "inv_mass": 1.0 / mass if dynamic else 0.0,
            "inv_inertia": 1.0 / inertia if dynamic and not fixed_rotation else 0.0,
            "friction": friction,
            "restitution": restitution,
            "density": density,
            "kind": KIND_CODES[kind],
            "bullet": bullet,
            "reach": geometry.reach,
            "thickness": geometry.thickness,
            "sensor": sensor,
            "category": category,
            "mask": mask,
            "group": group,
            "awake": True,
            "island": -1,
            "sleep_threshold": own_threshold,
            "damping": damping,
            "gravity_scale": gravity_scale,
            "fixed_rotation": fixed_rotation,
            "enable_sleep": enable_sleep,
        }
        materials = body.part_columns(record)
        parts = body.parts(density, self._parts.width)
        handle = Body(self, self._bodies.new_id(), shapes, tag, user_data)
        if self._stepping:
            # Inside a presolve handler the step's arrays are in use: add after the step.
            self._deferred.append(("add", handle, record, parts, materials))
        else:
            self._insert(handle, record, parts, materials)
        return handle

    def _insert(self, handle: Body, record: dict, parts: tuple, materials: dict) -> None:
        """Enter a checked body: its ``record`` of fields, its ``parts`` (PackedParts in its
        own frame, (S,) reach) and their ``materials`` columns."""
        record["body_id"] = handle._id
        row = self._bodies.add(handle, record)
        packed, reach = parts
        self._parts.append(packed, row, materials, reach)
        self._clock.pose_revision += 1  # the query index must see the new body
        if record["kind"] == KIND_CODES["static"]:
            self._resting_parts.invalidate()

    def _apply_deferred(self) -> None:
        """Carry out the adds and removes asked for during the step (by presolve handlers)."""
        deferred, self._deferred = self._deferred, []
        for action, handle, *data in deferred:
            if action == "add":
                self._insert(handle, *data)
            elif action == "add_joint":
                if handle._world is self and self._joint_row(handle) < 0:
                    self._insert_joint(handle)
            elif action == "remove_joint":
                if self._joint_row(handle) >= 0:
                    self._delete_joint(self._joint_row(handle))
            elif action == "change_joint":
                if self._joint_row(handle) >= 0:
                    data[0](self._joint_row(handle))
            elif action == "change":
                if self._row_of(handle) >= 0:
                    data[0](self._row_of(handle))
            elif self._row_of(handle) >= 0:
                self.remove(handle)

    def _queued(self, action: str, handle) -> bool:
        """True when ``action`` ("add", "remove", ...) is queued for ``handle`` this step."""
        return any(entry[0] == action and entry[1] is handle for entry in self._deferred)

    def _holds(self, body: Body) -> bool:
        """True while ``body`` belongs to this world: added (or queued to be added during
        this step) and not removed (nor queued to be removed)."""
        if self._row_of(body) < 0 and not self._queued("add", body):
            return False
        return not (self._deferred and self._queued("remove", body))

    def _change_body(self, body: Body, change) -> None:
        """Run ``change(row)`` on the body's row: now, or when the step ends if one is
        running (a presolve handler), so that the step's write-back cannot undo it.

        Raises ValueError for a body that is removed or queued for removal.
        """
        if not self._holds(body):
            raise ValueError("body: it has been removed from its world")
        if self._stepping or self._row_of(body) < 0:
            self._deferred.append(("change", body, change))
        else:
            change(self._row_of(body))

    def remove(self, body: Body) -> None:
        """Remove a body. Other handles stay valid; removing twice raises ValueError."""
        if not isinstance(body, Body):
            raise TypeError(f"body: expected a Body, got {type(body).__name__}")
        if body._world is not self:
            raise ValueError("body: it belongs to another world")
        row = self._row_of(body)
        if self._deferred:
            pending = [entry[1] for entry in self._deferred]
            if (
                row < 0
                and body not in pending
                or any(
                    action == "remove" and handle is body for action, handle, *_ in self._deferred
                )
            ):
                raise ValueError("body: it has already been removed")
        elif row < 0:
            raise ValueError("body: it has already been removed")
        if self._stepping or row < 0:
            # Inside a presolve handler, or added during this step: remove after the step.
            self._deferred.append(("remove", body))
            return
        # Bodies resting on the removed one wake up (and fall, if it held them); its
        # joints go with it, and what they held wakes too.
        if self._bodies.any_asleep():
            self._wake_touching(body._id)
            self._wake_rows(row)
        joints = self._joints
        if body._id in joints.joined_ids():
            mine = (joints.view("body_a") == body._id) | (joints.view("body_b") == body._id)
            for joint_row in np.flatnonzero(mine)[::-1]:  # from the back: rows stay valid
                self._delete_joint(int(joint_row))
        parts = self._parts.delete_body(row)
        self._warm.forget_parts(parts.start, parts.stop - parts.start)
        self._bodies.remove(row)
        self._clock.pose_revision += 1  # the query index must drop the body
        self._resting_parts.invalidate()  # the part rows after it moved up

    @property
    def bodies(self) -> list:
        """Every body, in the order added."""
        return list(self._bodies.handles)

    def _row_of(self, body: Body) -> int:
        return self._bodies.row_of_id.item(body._id)

    def _row_now(self, body: Body) -> int:
        """The body's row when a write may go straight into it: between steps, for a body
        in the table. -1 otherwise: a write then takes the general way (queued during a
        step, refused for a removed body)."""
        if self._stepping or self._deferred:
            return -1
        return self._bodies.row_of_id.item(body._id)

    def _read_body(self, body: Body, field: str):
        """One field of a body's row; for a body queued to be added during this step, the
        value it will be added with. ValueError once the body is removed."""
        row = self._bodies.row_of_id.item(body._id)
        if row >= 0:
            return self._bodies.arrays[field][row]
        for action, handle, *data in self._deferred:
            if action == "add" and handle is body:
                return data[0][field]
        raise ValueError("body: it has been removed from its world")

    def _set_body(self, body: Body, field: str, value) -> None:
        """Set one (validated) field of a body: now, or when the step ends (see
        ``_change_body``). A static body's velocity can only be zero."""
        row = self._row_now(body)
        if row >= 0:
            if field in MOTION and self._bodies.cells()["kind"][row] == KIND_CODES["static"]:
                if np.any(np.asarray(value) != 0.0):
                    raise ValueError(f"{field}: a static body cannot move; make it kinematic")
            self._write_body(row, field, value)
            return
        if not self._holds(body):
            raise ValueError("body: it has been removed from its world")
        if field in MOTION and np.any(np.asarray(value) != 0.0):
            if self._read_body(body, "kind") == KIND_CODES["static"]:
                raise ValueError(f"{field}: a static body cannot move; make it kinematic")
        self._change_body(body, lambda row: self._write_body(row, field, value))

    def _set_material(self, body: Body, name: str, value) -> None:
        """Set the body's (validated) ``name``, one of PART_MATERIALS, and that of every
        part whose shape leaves it unset (a shape's own value wins): now, or when the step
        ends (see ``_change_body``)."""
        owned = template(body._shapes).owned[name]

        def change(row: int) -> None:
            self._write_body(row, name, value)
            self._parts.table.arrays[name][self._parts.rows_of(row)][~owned] = value

        self._change_body(body, change)

    def _part_column(self, body: Body, name: str) -> np.ndarray:
        """(S,) the part-table column ``name`` of the body's parts (for a body queued to be
        added during this step, as it will be added). ValueError once the body is removed."""
        row = self._row_of(body)
        if row >= 0:
            return self._parts.table.arrays[name][self._parts.rows_of(row)]
        for action, handle, *data in self._deferred:
            if action == "add" and handle is body:
                return data[2][name]
        raise ValueError("body: it has been removed from its world")

    def _put_to_sleep(self, row: int) -> None:
        """Put the dynamic body at ``row`` to sleep now, alone in a new island."""
        bodies = self._bodies.arrays
        bodies["awake"][row] = False
        bodies["velocity"][row] = 0.0
        bodies["angular_velocity"][row] = 0.0
        bodies["island"][row] = self._bodies.next_island
        self._bodies.next_island += 1
        self._bodies.sleep_changed()
        # It may have been moved since it last rested: its contacts are found again.
        self._resting_parts.invalidate()

    def _write_body(self, row: int, field: str, value) -> None:
        self._wake_for_change(row)
        column = self._bodies.arrays[field]
        # Compared as lists: numpy's any costs more than the write itself.
        changed = field in POSE and column[row].tolist() != np.asarray(value).tolist()
        column[row] = value
        if changed:
            self._clock.pose_revision += 1  # tells the query index a pose changed outside step
            if self._bodies.cells()["kind"][row] == KIND_CODES["static"]:
                self._resting_parts.invalidate()

    def _wake_for_change(self, row: int) -> None:
        """Wake the island of the body at ``row`` and whatever touched it in the last step:
        a change by hand (a move, a new filter or material) would go unnoticed by a
        sleeping island. In a world where nothing sleeps, two reads decide that."""
        bodies = self._bodies
        if not bodies.cells()["awake"][row]:
            self._wake_rows(row)
        if bodies.any_asleep():
            self._wake_touching(bodies.cells()["body_id"][row])


# add_body's arguments' defaults: one left at its default needs no check.
_DEFAULTS = {
    name: parameter.default
    for name, parameter in inspect.signature(WorldBodies.add_body).parameters.items()
}

# The fields a static body must keep at zero, and those that place a body.
MOTION = ("velocity", "angular_velocity")
POSE = ("position", "angle")


def _check_sleep_threshold(value) -> float:
    """A body's own sleep threshold: a positive speed, or None (stored as 0: the world's)."""
    return 0.0 if value is None else as_positive_float(value, "sleep_threshold")


def _check_shapes(shapes, argument: str = "shapes") -> list:
    """A body's shapes as a list: one Shape, or a non-empty list or tuple of them."""
    if isinstance(shapes, Shape):
        return [shapes]
    if isinstance(shapes, (list, tuple)):
        if not shapes:
            raise ValueError(f"{argument}: a body needs at least one shape")
        for shape in shapes:
            if not isinstance(shape, Shape):
                raise TypeError(f"{argument}: expected shapes, got {type(shape).__name__}")
        return list(shapes)
    raise TypeError(
        f"{argument}: expected a shape or a list of shapes, got {type(shapes).__name__}"
    )
