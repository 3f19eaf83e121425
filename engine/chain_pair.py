"""One link of a Chain (a one-sided segment with ghost vertices) against a rounded core.

1. One-sided: a core whose centre (the mean of its vertices) is behind the link's line
   meets nothing; it passes through.
2. The link is collided as a two-sided segment (``engine.segment_pair``). Its normal is
   kept when it is the link's own front normal, or when it leaves the link at an end
   whose corner is convex (the chain turns away there) and stays on this link's side of
   the corner's bisector: those directions are the link's own. At a free end of an open
   chain every direction past the end is.
3. Any other normal points into a neighbour's region, where a lone segment's end would
   catch a body sliding across the join (a ghost collision). Then the front face alone
   answers: separation along the front normal, points clipped to the link, or no contact
   when the core lies wholly beside the link past a straight or convex corner (the
   neighbour has it). Past a concave corner the front face still answers: the core is
   about to meet it.
4. Time of impact: the segment's, unless the normal at that instant is not the link's; then
   the instant the core reaches the front face's line beside the link, if it does.

The link comes as a (4, K) hull of its two ends (its normal slots hold the front normal),
with the ghosts; the other core in the link's frame. Returns the pair's answer with the
normal from the link towards the other core.
"""

from __future__ import annotations

import math

import numpy as np

from .jit import kernel
from .segment_pair import _rounded_clip, rounded_pair


@kernel(inline=True)
def _own_normal(s, before_x, before_y, after_x, after_y, nx, ny):
    """True when the unit normal (nx, ny) belongs to link s (see the module's step 2)."""
    fx, fy = s[2, 0], s[3, 0]
    up = nx * fx + ny * fy
    if up <= 0.0:
        return False
    tx, ty = -fy, fx  # the direction of travel, a -> b
    along = nx * tx + ny * ty
    if along == 0.0:
        return True
    if along < 0.0:
        ex, ey = s[0, 0] - before_x, s[1, 0] - before_y  # the link before, into a
        turn = ex * ty - ey * tx
    else:
        ex, ey = after_x - s[0, 1], after_y - s[1, 1]  # the link after, out of b
        turn = tx * ey - ty * ex
    if ex == 0.0 and ey == 0.0:
        return True  # a free end
    if turn <= 0.0:
        return False  # straight on or a concave corner: the neighbour's face covers it
    length = math.hypot(ex, ey)
    mx, my = fx + ey / length, fy - ex / length  # the bisector of the two front normals
    return up * math.hypot(mx, my) >= mx * fx + my * fy


@kernel(inline=True)
def _concave_end(s, before_x, before_y, after_x, after_y, nx, ny):
    """True when the unit normal (nx, ny) leaves link s past an end whose corner is
    concave (the chain turns towards the front there: the neighbour rises into the
    link's front)."""
    fx, fy = s[2, 0], s[3, 0]
    tx, ty = -fy, fx
    along = nx * tx + ny * ty
    if along < 0.0:
        ex, ey = s[0, 0] - before_x, s[1, 0] - before_y
        turn = ex * ty - ey * tx
    elif along > 0.0:
        ex, ey = after_x - s[0, 1], after_y - s[1, 1]
        turn = tx * ey - ty * ex
    else:
        return False
    return turn < 0.0


@kernel(inline=True)
def _front_gap(s, o, no, ro):
    """Least separation along link s's front normal of the part of core o (no vertices,
    rounded by ro) that lies in the strip beside the link (within its extent along the
    direction of travel); inf when no part of it does. The rest of the core is the
    neighbours'."""
    fx, fy = s[2, 0], s[3, 0]
    tx, ty = -fy, fx
    lower = tx * s[0, 0] + ty * s[1, 0]
    upper = tx * s[0, 1] + ty * s[1, 1]
    gap = np.inf
    for j in range(no):
        # A vertex's rounding reaches into the strip from up to ro outside it.
        at = tx * o[0, j] + ty * o[1, j]
        outside = max(lower - at, at - upper, 0.0)
        if outside <= ro:
            below = fx * (o[0, j] - s[0, 0]) + fy * (o[1, j] - s[1, 0])
            gap = min(gap, below - math.sqrt(ro * ro - outside * outside))
        if no == 1:
            break
        k = j + 1 if j + 1 < no else 0
        ax, ay, bx, by = o[0, j], o[1, j], o[0, k], o[1, k]
        at_a, at_b = tx * ax + ty * ay, tx * bx + ty * by
        if at_b == at_a:
            continue  # across the strip: its ends (above) say it all
        # The edge a-b clipped to [lower, upper] along the travel.
        t0, t1 = (lower - at_a) / (at_b - at_a), (upper - at_a) / (at_b - at_a)
        lo, hi = max(min(t0, t1), 0.0), min(max(t0, t1), 1.0)
        if lo > hi:
            continue
        for t in (lo, hi):
            x, y = ax + t * (bx - ax), ay + t * (by - ay)
            gap = min(gap, fx * (x - s[0, 0]) + fy * (y - s[1, 0]) - ro)
    return gap


@kernel(inline=True)
def _beside(s, o, no):
    """True when every vertex of core o lies beyond one end of link s (along its travel)."""
    tx, ty = -s[3, 0], s[2, 0]
    lower = tx * s[0, 0] + ty * s[1, 0]
    upper = tx * s[0, 1] + ty * s[1, 1]
    below = above = True
    for j in range(no):
        at = tx * o[0, j] + ty * o[1, j]
        below = below and at < lower
        above = above and at > upper
    return below or above


@kernel(inline=True)
def _shift(o, no, dx, dy):
    for j in range(no):
        o[0, j] += dx
        o[1, j] += dy


@kernel
def chain_pair(s, before_x, before_y, after_x, after_y, o, no, ro, vx, vy, sweep, dt, margin,
               flip_tolerance):  # fmt: skip
    """Collide link s (hull of 2 ends, radius 0) with core o (no vertices, radius ro); the
    link moves by (vx, vy) t relative to o when ``sweep``. ``o`` may be shifted and put
    back (it is scratch space). Returns the pair's answer (see ``engine.polygon_pair``)."""
    fx, fy = s[2, 0], s[3, 0]
    cx = cy = 0.0
    for j in range(no):
        cx += o[0, j] / no
        cy += o[1, j] / no
    nothing = (
        np.inf, fx, fy, np.nan, 0, np.nan, np.nan, np.nan, -1, np.nan, np.nan, np.nan, -1,
        False, False,
    )  # fmt: skip
    if fx * (cx - s[0, 0]) + fy * (cy - s[1, 0]) < 0.0:
        return nothing
    s[2, 1], s[3, 1] = -fx, -fy  # two-sided for the segment routine, restored below
    answer = rounded_pair(s, 2, 0.0, o, no, ro, vx, vy, sweep, dt, margin, flip_tolerance)
    toi = answer[3]
    if sweep and answer[0] > 0.0 and not math.isnan(toi):
        # The normal where they first touch must be the link's own too.
        _shift(o, no, -vx * toi, -vy * toi)
        hit = rounded_pair(s, 2, 0.0, o, no, ro, vx, vy, False, dt, margin, flip_tolerance)
        _shift(o, no, vx * toi, vy * toi)
        if not _own_normal(s, before_x, before_y, after_x, after_y, hit[1], hit[2]):
            toi = _face_toi(s, o, no, ro, vx, vy, dt)
    if not _own_normal(s, before_x, before_y, after_x, after_y, answer[1], answer[2]):
        # Beside the link, the neighbour has the core; but past a concave corner the
        # neighbour's face rises towards it, and this link's front face (clipped to the
        # link) is what it meets next: keep that as a contact, or the core sinks in while
        # it crosses the corner within a step.
        concave = _concave_end(s, before_x, before_y, after_x, after_y, answer[1], answer[2])
        if _beside(s, o, no) and not concave:
            s[2, 1], s[3, 1] = fx, fy
            return nothing
        # Only the part of the core beside the link counts: a large core reaching past
        # the link's ends must not be measured against the front line's extension.
        gap = _front_gap(s, o, no, ro)
        if gap == np.inf:
            s[2, 1], s[3, 1] = fx, fy
            return nothing
        count, x0, y0, s0, f0, x1, y1, s1, f1 = _rounded_clip(
            s, 2, 0, 0.0, o, no, ro, False, margin
        )
        answer = (
            gap, fx, fy, 0.0 if gap <= 0.0 else toi, count, x0, y0, s0, f0, x1, y1, s1, f1,
            False, answer[14],
        )  # fmt: skip
    else:
        answer = (
            answer[0], answer[1], answer[2], toi, answer[4], answer[5], answer[6], answer[7],
            answer[8], answer[9], answer[10], answer[11], answer[12], answer[13], answer[14],
        )  # fmt: skip
    s[2, 1], s[3, 1] = fx, fy
    return answer


@kernel(inline=True)
def _face_toi(s, o, no, ro, vx, vy, dt):
    """The instant core o (moving by -(vx, vy) t relative to link s) reaches the front
    face's line, grown by ro, beside the link; NaN if not within dt."""
    fx, fy = s[2, 0], s[3, 0]
    closing = vx * fx + vy * fy
    if closing <= 0.0:
        return np.nan
    gap = np.inf
    for j in range(no):
        gap = min(gap, fx * (o[0, j] - s[0, 0]) + fy * (o[1, j] - s[1, 0]))
    t = (gap - ro) / closing
    if not 0.0 <= t <= dt:
        return np.nan
    _shift(o, no, -vx * t, -vy * t)
    beside = _beside(s, o, no)
    _shift(o, no, vx * t, vy * t)
    return np.nan if beside else t
