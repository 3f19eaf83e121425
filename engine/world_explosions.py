"""World.explode: a blast that pushes the bodies around a point (part of ``World``)."""

from __future__ import annotations

import numpy as np

from .explosions import explosion_impulses
from .field_rules import NON_NEGATIVE, check_rule
from .filtering import check_bits
from .settings import MAX_ANGULAR_SPEED, MAX_COORDINATE, MAX_SPEED
from .validation import as_finite_float, bounded_components, check_bound


class WorldExplosions:
    """Blasts (part of ``World``)."""

    def explode(self, position, radius, impulse_per_length, falloff=0.0, mask=0xFFFF) -> list:
        """Push the dynamic bodies a blast at ``position`` (2,) reaches, as Box2D v3's
        ``b2World_Explode`` does; returns the bodies it pushed, in body order.

        Each part (a shape, or a piece of a concave one) whose nearest point lies within
        ``radius`` + ``falloff`` m of the blast is pushed at that point, away from it, with
        ``impulse_per_length`` N s per metre of its width across the push, in full within
        ``radius`` and falling linearly to nothing over ``falloff`` beyond it (a negative
        impulse pulls). Parts whose category is not in ``mask`` and sensors are passed
        by. The bodies pushed wake. Refused during a step (from a presolve handler); an
        event handler may call it. ValueError naming ``impulse_per_length`` if a body
        would move faster than the step represents; the world is then unchanged.
        """
        if self._stepping:
            raise RuntimeError(
                "explode: not possible during a step (from a presolve handler); call it "
                "from the game loop or an event handler"
            )
        centre = np.array(bounded_components(position, "position", MAX_COORDINATE, "m"))
        radius = check_rule(NON_NEGATIVE, radius, "radius")
        falloff = check_rule(NON_NEGATIVE, falloff, "falloff")
        impulse_per_length = as_finite_float(impulse_per_length, "impulse_per_length")
        mask = check_bits(mask, "mask")
        bodies, parts = self._bodies, self._parts.table
        linear, angular, reached = explosion_impulses(
            parts.view("vertices"), parts.view("count"), parts.view("radius"),
            parts.view("body"), parts.view("category"), parts.view("sensor"),
            bodies.view("kind"), bodies.view("position"), bodies.view("angle"), centre,
            radius, falloff, impulse_per_length, mask,
        )  # fmt: skip
        rows = np.flatnonzero(reached)
        if len(rows) == 0:
            return []
        velocity = (
            bodies.view("velocity")[rows] + linear[rows] * bodies.view("inv_mass")[rows, None]
        )
        spin = (
            bodies.view("angular_velocity")[rows] + angular[rows] * bodies.view("inv_inertia")[rows]
        )
        check_bound(
            float(np.hypot(velocity[:, 0], velocity[:, 1]).max()), "impulse_per_length",
            MAX_SPEED, "m/s of resulting speed",
        )  # fmt: skip
        check_bound(float(np.abs(spin).max()), "impulse_per_length", MAX_ANGULAR_SPEED,
                    "rad/s of resulting spin")  # fmt: skip
        bodies.view("velocity")[rows] = velocity
        bodies.view("angular_velocity")[rows] = spin
        sleeping = rows[~bodies.view("awake")[rows]]
        if len(sleeping):
            self._wake_rows(sleeping)
        return bodies.handle_objects()[rows].tolist()
