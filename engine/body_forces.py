"""Pushing a body: forces and torques for the next step, impulses now.

``Body`` takes these methods from ``BodyForces``. Each is checked against what the step can
represent (the speed or spin it would give) before anything changes.
"""

from __future__ import annotations

import math

import numpy as np

from .body_store import DYNAMIC
from .settings import MAX_ANGULAR_SPEED, MAX_COORDINATE, MAX_SPEED
from .validation import (
    as_bounded_vector,
    as_finite_float,
    bounded_components,
    check_bound,
    clear_of,
)

LARGEST = float(np.finfo(float).max)
CLEAR_SPEED = clear_of(MAX_SPEED)


class BodyForces:
    """Forces, torques and impulses on a body (a part of ``Body``)."""

    __slots__ = ()

    def apply_torque(self, torque) -> None:
        """Add a torque (N m) for the next step, counter-clockwise positive. Torques are
        cleared after each step, like forces."""
        torque = as_finite_float(torque, "torque")
        world = self._world
        row = world._row_now(self)
        if row >= 0:  # between steps: the same check and sum, on the row's cells
            cells = world._bodies.cells()
            total = cells["torque"][row] + torque
            spin = abs(total) * cells["inv_inertia"][row] * world.dt
            if not spin <= MAX_ANGULAR_SPEED:
                check_bound(spin, "torque", MAX_ANGULAR_SPEED, "rad/s of spin gained in a step")
            if not cells["awake"][row]:
                world._wake_rows(row)
            cells["torque"][row] = total
            return
        with np.errstate(over="ignore", invalid="ignore"):
            spin = abs(self._get("torque") + torque) * self._get("inv_inertia") * world.dt
        check_bound(float(spin), "torque", MAX_ANGULAR_SPEED, "rad/s of spin gained in a step")

        def turn(row: int) -> None:
            world._wake_rows(row)
            world._bodies.arrays["torque"][row] += torque

        world._change_body(self, turn)

    def apply_force(self, force, point=None, *, local_point=None) -> None:
        """Add a force (N) for the next step, at a world ``point`` or at ``local_point`` in the
        body's frame (default: the centre of mass).

        force: (2,); point, local_point: (2,) or None, not both. A force off the centre of
        mass also gives torque. Forces are cleared after each step.
        """
        fx, fy = bounded_components(force, "force", LARGEST, "N")
        world = self._world
        row = world._row_now(self) if local_point is None else -1
        if row >= 0:
            self._push_now(row, fx, fy, point)
            return
        force = np.array([fx, fy])
        point = self._world_point(point, local_point)
        torque = self._moment_arm_cross(point, force)
        # What the forces pushed so far plus this one would add to the velocity next step.
        dt = world.dt
        inv_mass, inv_inertia = self._get("inv_mass"), self._get("inv_inertia")
        with np.errstate(over="ignore", invalid="ignore"):
            gain = np.hypot(*(self._get("force") + force)) * inv_mass * dt
            spin = abs(self._get("torque") + torque) * inv_inertia * dt
        check_bound(float(gain), "force", MAX_SPEED, "m/s of speed gained in a step")
        check_bound(float(spin), "point", MAX_ANGULAR_SPEED, "rad/s of spin gained in a step")

        def push(row: int) -> None:
            world._wake_rows(row)
            world._bodies.arrays["force"][row] += force
            world._bodies.arrays["torque"][row] += torque

        world._change_body(self, push)

    def _push_now(self, row: int, fx: float, fy: float, point) -> None:
        """``apply_force`` (fx, fy) at the world ``point`` (or None) on the body at ``row``,
        between steps: the same checks and sums as the general way, in Python floats on
        the row's cells."""
        world = self._world
        cells = world._bodies.cells()
        torque = 0.0
        if point is not None:
            px, py = bounded_components(point, "point", MAX_COORDINATE, "m")
            position = cells["position"]
            torque = (px - position[row, 0]) * fy - (py - position[row, 1]) * fx
        forces, dt = cells["force"], world.dt
        total_x, total_y = forces[row, 0] + fx, forces[row, 1] + fy
        total_torque = cells["torque"][row] + torque
        gain = math.hypot(total_x, total_y) * cells["inv_mass"][row] * dt
        if not gain < CLEAR_SPEED:  # else judged as the general way judges it
            with np.errstate(over="ignore", invalid="ignore"):
                gain = np.hypot(total_x, total_y) * cells["inv_mass"][row] * dt
            check_bound(float(gain), "force", MAX_SPEED, "m/s of speed gained in a step")
        spin = abs(total_torque) * cells["inv_inertia"][row] * dt
        if not spin <= MAX_ANGULAR_SPEED:
            check_bound(spin, "point", MAX_ANGULAR_SPEED, "rad/s of spin gained in a step")
        if not cells["awake"][row]:
            world._wake_rows(row)
        forces[row, 0], forces[row, 1] = total_x, total_y
        cells["torque"][row] = total_torque

    def apply_impulse(self, impulse, point=None, *, local_point=None) -> None:
        """Change the momentum now by ``impulse`` (N s) at a world ``point`` or at
        ``local_point`` in the body's frame (default: the centre of mass).

        impulse: (2,); point, local_point: (2,) or None, not both. Static and kinematic
        bodies are not affected.
        """
        jx, jy = bounded_components(impulse, "impulse", LARGEST, "N s")
        world = self._world
        row = world._row_now(self) if local_point is None else -1
        if row < 0:  # during a step, for a local point, or for a removed body
            self._apply_impulse_slowly(jx, jy, point, local_point)
            return
        # Between steps, straight into the row's cells: the same checks and sums as the
        # general way, in Python floats.
        cells = world._bodies.cells()
        inv_mass = cells["inv_mass"][row]
        angular = 0.0
        if point is not None:
            px, py = bounded_components(point, "point", MAX_COORDINATE, "m")
            position = cells["position"]
            angular = (px - position[row, 0]) * jy - (py - position[row, 1]) * jx
        if inv_mass == 0.0:  # a static or kinematic body (a dynamic one's is 1 / mass > 0)
            return
        velocity = cells["velocity"]
        vx = velocity[row, 0] + jx * inv_mass
        vy = velocity[row, 1] + jy * inv_mass
        spin = cells["angular_velocity"][row] + angular * cells["inv_inertia"][row]
        if not math.hypot(vx, vy) < CLEAR_SPEED:  # else judged as the general way judges it
            check_bound(float(np.hypot(vx, vy)), "impulse", MAX_SPEED, "m/s of resulting speed")
        if not abs(spin) <= MAX_ANGULAR_SPEED:
            check_bound(abs(spin), "point", MAX_ANGULAR_SPEED, "rad/s of resulting spin")
        if not cells["awake"][row]:
            world._wake_rows(row)
        velocity[row, 0] = vx
        velocity[row, 1] = vy
        cells["angular_velocity"][row] = spin

    def _apply_impulse_slowly(self, jx: float, jy: float, point, local_point) -> None:
        """``apply_impulse`` the general way: queued during a step, refused for a removed
        body, at a local point carried into the world."""
        impulse = np.array([jx, jy])
        point = self._world_point(point, local_point)
        angular = self._moment_arm_cross(point, impulse)
        world = self._world
        if self._get("kind") != DYNAMIC:
            world._change_body(self, lambda row: None)  # refuses a removed body
            return
        with np.errstate(over="ignore", invalid="ignore"):
            velocity = self._get("velocity") + impulse * self._get("inv_mass")
            spin = self._get("angular_velocity") + angular * self._get("inv_inertia")
        check_bound(float(np.hypot(*velocity)), "impulse", MAX_SPEED, "m/s of resulting speed")
        check_bound(abs(float(spin)), "point", MAX_ANGULAR_SPEED, "rad/s of resulting spin")

        def kick(row: int) -> None:
            bodies = world._bodies.arrays
            world._wake_rows(row)
            bodies["velocity"][row] += impulse * bodies["inv_mass"][row]
            bodies["angular_velocity"][row] += angular * bodies["inv_inertia"][row]

        world._change_body(self, kick)

    def _world_point(self, point, local_point):
        """The world point a force or impulse acts at: ``point``, or ``local_point`` carried
        into the world, or None for the centre of mass."""
        if local_point is None:
            return point
        if point is not None:
            raise ValueError("local_point: give a world point or a local point, not both")
        local = as_bounded_vector(local_point, "local_point", MAX_COORDINATE, "m")
        return self.local_to_world(local)

    def _moment_arm_cross(self, point, vector: np.ndarray) -> float:
        if point is None:
            return 0.0
        arm = as_bounded_vector(point, "point", MAX_COORDINATE, "m") - self._get("position")
        with np.errstate(over="ignore", invalid="ignore"):
            return float(arm[0] * vector[1] - arm[1] * vector[0])
