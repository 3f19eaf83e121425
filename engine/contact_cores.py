"""What turns with a body at each contact point: the arms that track a gap as bodies turn.

A contact point lies midway between the two surfaces. As a body turns, a point fixed in it
turns with it; on a round part (a circle, a capsule, a rounded polygon) the surface point
where the normal meets it does not: the part rolls under it and only its core turns. So
the stages that follow a gap over a step from the bodies' motion (the sub-steps' soft
contacts, their push-out of deep overlap, the sleep test's opening speeds) take each
point's arm to its core point on a round part: turning the arm itself, a ball rolling at
12 m/s saw gaps open that were not there and sank 7 mm into the ground, and a 5 cm ball
spinning at 130 rad/s under a plank was pushed through its own floor contact.
"""

from __future__ import annotations

import numpy as np

from .jit import kernel


@kernel
def round_cores(arm_a, arm_b, normal, separation, count, radius_a, radius_b):
    """(core_a, core_b) (M, 2, 2): each point's arms from the centres of mass to what turns
    with each body (the arms themselves where no part is round). On a round part
    (radius > 0) the surface point at the normal is its core point plus the radius.

    arm_a, arm_b (M, 2, 2), normal (M, 2), separation (M, 2), count (M,): the manifolds';
    radius_a, radius_b (M,): the radii of their parts on A and B.
    """
    if not (np.any(radius_a > 0.0) or np.any(radius_b > 0.0)):
        return arm_a, arm_b  # nothing round: the arms are the cores
    core_a = arm_a.copy()
    core_b = arm_b.copy()
    for i in range(len(count)):
        nx, ny = normal[i, 0], normal[i, 1]
        for p in range(count[i]):
            half = 0.5 * separation[i, p]
            if radius_a[i] > 0.0:
                core_a[i, p, 0] -= (radius_a[i] + half) * nx
                core_a[i, p, 1] -= (radius_a[i] + half) * ny
            if radius_b[i] > 0.0:
                core_b[i, p, 0] += (radius_b[i] + half) * nx
                core_b[i, p, 1] += (radius_b[i] + half) * ny
    return core_a, core_b
