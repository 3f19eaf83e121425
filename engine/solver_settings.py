"""The settings of the sub-stepped soft solver (``engine.substep``): defaults and checks.

``World()`` solves each step in SUBSTEPS sub-steps with soft contacts and joints
(``substeps=n``, n >= 1: a step is at least one sub-step).
"""

from __future__ import annotations

import numbers

from .validation import as_finite_float

# Sub-steps per step, the default. Four are Box2D v3's default: enough for a column of 20
# boxes to stand a minute and a chain to hold 100 times its link mass (30 boxes need 8
# sub-steps and 120 Hz contacts: see docs/world.md).
SUBSTEPS = 4
# Passes without bias after each sub-step's solve, taking out the speed the springs gave.
RELAX_ITERATIONS = 1
# Relax passes added to a sub-step for the contacts of the bodies struck in the step
# faster than the contact springs can push (max_contact_push_speed): one pass cannot carry
# an impact through what the struck body rests on (a box landing at 20 m/s on one resting
# on the ground drove it into the ground, which threw both back up at 2.6 m/s; now
# 0.18 m/s). A settling pyramid of 5,050 boxes has no such impact and pays nothing.
IMPACT_RELAX = 1
# And biased passes added to the sub-step for the same contacts, right after the biased
# pass (contacts with static and kinematic bodies come last in every pass, so a box struck
# from above by another is stopped against the ground only after the box-on-box contact
# was solved: visited once more, that contact stops the falling box too; without it a box
# landing at 10 m/s on a resting one sprang up at 0.3 m/s).
IMPACT_BIASED = 1
# Contact springs: as stiff as the sub-steps can follow (a quarter of their rate, 60 Hz
# at 4 sub-steps of 1/60 s; beyond that one Gauss-Seidel pass per sub-step sets a column
# of boxes jittering) and heavily damped (a landing does not bounce off the spring).
# Against static and kinematic bodies twice as stiff. At 30 Hz (Box2D's default) a
# column of 20 boxes sags 11 cm and buckles within 15 s; at 60 Hz it stands.
CONTACT_HERTZ = 60.0
CONTACT_DAMPING_RATIO = 10.0
# The stiffest contact spring, as a share of the sub-step rate.
MAX_HERTZ_SHARE = 0.25
# Joint trees (``engine.joint_trees``) move bodies onto their joints only for the error
# past this share of the linear and angular slop (0.5 mm, 0.2 degrees): moved away every
# sub-step, the error a swinging disc leaves costs it 8 % of its energy in 10 s; past
# 0.1 it loses 0.3 %, and a whipping chain's pivots open by 0.7 mm (0.2: 1.4 mm).
TREE_TOLERANCE = 0.1
# The fastest speed at which contact springs push overlapping bodies apart: bodies spawned
# into each other separate instead of flying apart.
MAX_CONTACT_PUSH_SPEED = 3.0  # m/s
# Overlap past the depth at which the springs hold their loads, as a share of the thinner
# body's thickness, that is held rigid and pushed out on positions (bodies spawned into
# each other). Lower, the pushes reach small piles too (their loads' noise), and they stop
# sleeping.
DEEP_OVERLAP = 0.15
# And, whatever the thickness, overlap past what the springs push out in this many steps
# at max_contact_push_speed (2.5 cm at 3 m/s and 60 Hz). Deeper, the springs push for
# several steps at their top speed, and along a row of overlapping bodies the pushes add up
# faster than the relax passes take them back: ten unit boxes spawned in a row 30 % into
# each other left at 2.4 m/s with the thickness share alone (its 15 cm), 1.2 m/s at one
# step's push, 0.64 m/s at half. Half a step's push also took the tumbler's deepest box
# over six seeds from 1.19 to 0.93 cm and kept the rain demo's pile in its container
# (3 bodies over the wall before). Small bodies keep the thickness share: 15 % of a
# 16 cm box is less.
DEEP_PUSH_STEPS = 0.5
# A body flies the exact parabola of its forces within a sub-step unless its contacts
# change its velocity by at least this share of what the forces do; below it, the
# parabola's share shrinks in proportion (``engine.substep.free_share``). Held whenever an
# impulse was positive, a flat landing met an impulse of 4e-18 at one scale and 0 at
# another, and the two runs parted by h^2 g / 2 (8.5e-5 m).
FREE_BAND = 1e-3
# Joint springs: stiffer than contacts (a chain must not stretch), less damped.
JOINT_HERTZ = 60.0
JOINT_DAMPING_RATIO = 2.0


def soft_solver_settings(substeps, relax_iterations, contact_hertz, contact_damping_ratio,
                         max_contact_push_speed, joint_hertz, joint_damping_ratio,
                         units: float) -> dict:  # fmt: skip
    """The checked settings by World attribute name; max_contact_push_speed None is
    MAX_CONTACT_PUSH_SPEED in the world's units. TypeError or ValueError naming the
    argument for a bad one."""
    push = MAX_CONTACT_PUSH_SPEED * units if max_contact_push_speed is None else None
    settings = {
        "substeps": count_setting(substeps, "substeps", 1),
        "relax_iterations": count_setting(relax_iterations, "relax_iterations", 0),
        "contact_hertz": non_negative_setting(contact_hertz, "contact_hertz"),
        "contact_damping_ratio": non_negative_setting(
            contact_damping_ratio, "contact_damping_ratio"
        ),
        "max_contact_push_speed": non_negative_setting(
            push if push is not None else max_contact_push_speed, "max_contact_push_speed"
        ),
        "joint_hertz": non_negative_setting(joint_hertz, "joint_hertz"),
        "joint_damping_ratio": non_negative_setting(joint_damping_ratio, "joint_damping_ratio"),
    }
    return settings


# The most sub-steps, relax passes or push-out passes a step takes: a count past it (a
# damaged file's 2**31 sub-steps) would make one step run for hours, not more exactly.
MAX_PASSES = 1000


def count_setting(value, argument: str, least: int, most: int | None = MAX_PASSES) -> int:
    """value as an int of at least ``least`` and at most ``most`` (None: no bound);
    TypeError or ValueError naming argument."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{argument}: expected an int, got {type(value).__name__}")
    if value < least:
        raise ValueError(f"{argument}: must be >= {least}, got {value}")
    if most is not None and value > most:
        raise ValueError(f"{argument}: must be <= {most}, got {value}")
    return int(value)


def non_negative_setting(value, argument: str) -> float:
    """value as a finite float >= 0; TypeError or ValueError naming argument."""
    result = as_finite_float(value, argument)
    if result < 0.0:
        raise ValueError(f"{argument}: must be >= 0, got {result}")
    return result
