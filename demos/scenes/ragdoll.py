"""A ragdoll: nine boxes and a head held together by revolute joints with angle limits.

Seen from the front, standing, feet at the given point. The limits keep the limbs within a
body's reach (an elbow bends one way, a neck does not turn round); the parts share a
negative collision group, so they never collide with each other and a limb may cross the
torso as in a side view, while they still collide with everything else.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine import Box, Circle, RevoluteJoint, World

# Part sizes and joint places for a figure 1.9 m tall, feet at y = 0 and centred on x = 0:
# (width, height) and centre of each box, for the right side (x > 0); the left mirrors it.
TORSO = ((0.38, 0.62), (0.0, 1.27))
HEAD_RADIUS, HEAD_CENTRE = 0.14, (0.0, 1.72)
NECK = (0.0, 1.58)
LIMBS = {
    # name: (size, centre, joint with the part above, (lower, upper) limits for the right)
    "upper_arm": ((0.12, 0.34), (0.27, 1.36), (0.27, 1.53), (-0.5, 2.8)),
    "lower_arm": ((0.10, 0.32), (0.27, 1.03), (0.27, 1.19), (-2.5, 0.0)),
    "upper_leg": ((0.16, 0.46), (0.10, 0.73), (0.10, 0.96), (-0.4, 1.2)),
    "lower_leg": ((0.13, 0.44), (0.10, 0.28), (0.10, 0.50), (-0.1, 1.6)),
}
NECK_LIMITS = (-0.5, 0.5)
# The part each limb hangs from.
PARENT = {
    "upper_arm": "torso",
    "lower_arm": "upper_arm",
    "upper_leg": "torso",
    "lower_leg": "upper_leg",
}


@dataclass
class Ragdoll:
    """The bodies by name ("torso", "head", "left_upper_arm", ...) and the joints."""

    parts: dict
    joints: list


def add_ragdoll(
    world: World, feet, scale: float = 1.0, angle: float = 0.0, group: int = -1, **options
) -> Ragdoll:
    """Add a ragdoll standing with its feet at ``feet`` (2,), ``scale`` times 1.9 m tall,
    turned by ``angle``; ``group`` (negative) keeps its parts from colliding with each
    other. ``options`` go to every ``add_body`` (density, friction, ...)."""
    feet = np.asarray(feet, dtype=np.float64)
    c, s = np.cos(angle), np.sin(angle)

    def place(point) -> np.ndarray:
        x, y = scale * np.asarray(point, dtype=np.float64)
        return feet + np.array([c * x - s * y, s * x + c * y])

    def add(shape, centre):
        return world.add_body(shape, position=place(centre), angle=angle, group=group, **options)

    size, centre = TORSO
    parts = {"torso": add(Box(scale * size[0], scale * size[1]), centre)}
    parts["head"] = add(Circle(scale * HEAD_RADIUS), HEAD_CENTRE)
    joints = [world.add_joint(_joint(parts["torso"], parts["head"], place(NECK), NECK_LIMITS))]
    for side, sign in (("right", 1.0), ("left", -1.0)):
        for name, (size, centre, pivot, limits) in LIMBS.items():
            mirror = np.array([sign, 1.0])
            parts[f"{side}_{name}"] = add(Box(scale * size[0], scale * size[1]), centre * mirror)
            parent = PARENT[name] if PARENT[name] == "torso" else f"{side}_{PARENT[name]}"
            # Mirroring turns every rotation round: the left side's limits are the right's
            # negated and swapped.
            lower, upper = limits if sign > 0 else (-limits[1], -limits[0])
            joint = _joint(
                parts[parent], parts[f"{side}_{name}"], place(pivot * mirror), (lower, upper)
            )
            joints.append(world.add_joint(joint))
    return Ragdoll(parts, joints)


def _joint(parent, child, pivot, limits) -> RevoluteJoint:
    lower, upper = limits
    return RevoluteJoint(parent, child, pivot, lower=lower, upper=upper)
