"""world.explode against its definition (Box2D v3's ``b2World_Explode``).

A part whose nearest point lies within radius + falloff of the blast is pushed at that
point, away from the blast, by impulse_per_length times its width across the push,
scaled by 1 within the radius and linearly down to 0 over the falloff. The oracles are
worked by hand for circles and boxes, and the momentum each body gains is checked
against an independent sum over its shapes for random scenes.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Box, Circle, Segment, World


def _still_world():
    return World(gravity=(0, 0))


@pytest.mark.parametrize(
    "distance, expected_scale",
    [(1.5, 1.0), (2.0, 1.0), (2.6, 0.6), (3.2, 0.2), (3.8, 0.0)],
)
def test_a_ball_is_pushed_by_its_diameter_scaled_by_the_falloff(distance, expected_scale):
    """A ball of radius 0.5 whose centre is ``distance`` from the blast: its nearest point
    is distance - 0.5 away; radius 1.5 and falloff 1.5 give scale 1 up to 1.5, then
    (3 - gap) / 1.5. Its width across the push is its diameter; through its centre, no
    spin."""
    world = _still_world()
    ball = world.add_body(Circle(0.5), position=(distance, 0.0), density=2.0)
    pushed = world.explode((0, 0), radius=1.5, impulse_per_length=3.0, falloff=1.5)
    gap = distance - 0.5
    if gap > 3.0:
        assert pushed == [] and ball.velocity.tolist() == [0.0, 0.0]
        return
    assert pushed == [ball]
    scale = min(1.0, (3.0 - gap) / 1.5)
    assert scale == pytest.approx(expected_scale)
    speed = 3.0 * 1.0 * scale / ball.mass
    np.testing.assert_allclose(ball.velocity, (speed, 0.0), rtol=1e-12, atol=1e-15)
    assert ball.angular_velocity == pytest.approx(0.0, abs=1e-12)


def test_a_box_is_pushed_by_the_face_it_shows_the_blast():
    """A 2 x 0.5 box lying flat, the blast 3 m to its left on its axis: pushed at the
    middle of its left face by its height (0.5 across the push); stood on end, by 2."""
    for angle, width in ((0.0, 0.5), (math.pi / 2, 2.0)):
        world = _still_world()
        box = world.add_body(Box(2, 0.5), position=(4.0, 1.0), angle=angle)
        world.explode((4.0 - 3.0 - (1.0 if angle == 0.0 else 0.25), 1.0), radius=10.0,
                      impulse_per_length=2.0)  # fmt: skip
        np.testing.assert_allclose(box.velocity, (2.0 * width / box.mass, 0.0), atol=1e-12)
        assert box.angular_velocity == pytest.approx(0.0, abs=1e-12)


def test_a_push_off_the_centre_turns_the_body():
    """The blast below a plank's left end: pushed up at the end's nearest point, it
    turns counter-clockwise by r x J / I."""
    world = _still_world()
    plank = world.add_body(Box(4, 0.2), position=(0, 0))
    world.explode((-1.5, -1.1), radius=5.0, impulse_per_length=1.0)
    # Nearest point (-1.5, -0.1), straight up: width across it is the plank's length.
    impulse = 1.0 * 4.0
    np.testing.assert_allclose(plank.velocity, (0.0, impulse / plank.mass), atol=1e-12)
    assert plank.angular_velocity == pytest.approx(-1.5 * impulse / plank.inertia, rel=1e-12)


def test_what_the_blast_passes_by():
    world = _still_world()
    wall = world.add_body(Box(1, 1), position=(1, 0), kind="static")
    lift = world.add_body(Box(1, 1), position=(-1, 0), kind="kinematic")
    ghost = world.add_body(Box(1, 1), position=(0, 1), sensor=True)
    other = world.add_body(Box(1, 1), position=(0, -1), category=0x0004)
    hit = world.add_body(Box(1, 1), position=(0, -3))
    pushed = world.explode((0, 0), radius=5.0, impulse_per_length=1.0, mask=0x0003)
    assert pushed == [hit]
    for body in (wall, lift, ghost, other):
        assert body.velocity.tolist() == [0.0, 0.0]


def test_a_sleeping_body_is_woken_and_pushed():
    world = World()
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    crate = world.add_body(Box(1, 1), position=(0, 0.5))
    for _ in range(120):
        world.step()
    assert not crate.awake
    world.explode((-2, 0.5), radius=3.0, impulse_per_length=5.0)
    assert crate.awake and crate.velocity[0] > 0.0


@pytest.mark.parametrize(
    "arguments, error, message",
    [
        (dict(position=(0, 0), radius=-1.0, impulse_per_length=1.0), ValueError, "radius"),
        (dict(position=(0, 0), radius=1.0, impulse_per_length=1.0, falloff=math.nan),
         ValueError, "falloff"),
        (dict(position=(0, "x"), radius=1.0, impulse_per_length=1.0), TypeError, "position"),
        (dict(position=(0, 0), radius=1.0, impulse_per_length=math.inf), ValueError,
         "impulse_per_length"),
        (dict(position=(0, 0), radius=1.0, impulse_per_length=1.0, mask=-1), ValueError,
         "mask"),
        (dict(position=(0, 0), radius=1.0, impulse_per_length=1e12), ValueError,
         "impulse_per_length"),
    ],
)  # fmt: skip
def test_bad_blasts_are_refused_and_change_nothing(arguments, error, message):
    world = _still_world()
    ball = world.add_body(Circle(0.5), position=(1, 0), density=0.001)
    before = world.snapshot()
    with pytest.raises(error, match=message):
        world.explode(**arguments)
    after = world.snapshot()
    for name, array in before._arrays.items():
        assert np.array_equal(array, after._arrays[name]), name
    assert ball.velocity.tolist() == [0.0, 0.0]


def test_a_presolve_handler_may_not_explode_but_an_event_handler_may():
    world = World()
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    world.add_body(Circle(0.5), position=(0, 0.5))
    refused = []

    def presolve(contact):
        try:
            world.explode((0, 0), radius=1.0, impulse_per_length=1.0)
        except RuntimeError as error:
            refused.append(str(error))

    world.on("presolve", presolve)
    pushed = []
    world.on("contact_begin", lambda contact: pushed.extend(world.explode((0, -2), 5.0, 1.0)))
    world.step()
    assert refused and refused[0].startswith("explode: not possible during a step")
    assert len(pushed) == 1 and pushed[0].velocity[1] > 0.0


def _expected_momentum(shape, pose, centre, radius, falloff, strength):
    """An independent sum for one convex shape (circle, capsule or box) that does not hold
    the centre: its nearest point by projecting the centre on each edge of its outline in
    the world, its width from its support along the perpendicular."""
    x, y, angle = pose
    c, s = math.cos(angle), math.sin(angle)
    if isinstance(shape, Circle):
        core, r = np.zeros((1, 2)), shape.radius
    elif isinstance(shape, Segment):
        core, r = np.array([shape.a, shape.b]), shape.radius
    else:
        w, h = shape.width / 2, shape.height / 2
        core, r = np.array([(-w, -h), (w, -h), (w, h), (-w, h)]), 0.0
    world_core = core @ np.array([[c, s], [-s, c]]) + (x, y)
    starts = world_core
    ends = np.roll(world_core, -1, axis=0)
    edges = ends - starts
    lengths = np.maximum((edges**2).sum(axis=1), 1e-300)
    t = np.clip(((centre - starts) * edges).sum(axis=1) / lengths, 0.0, 1.0)
    nearest = starts + t[:, None] * edges
    gaps = np.hypot(*(nearest - centre).T)
    q = nearest[np.argmin(gaps)]
    gap = float(gaps.min())
    distance = gap - r
    if distance > radius + falloff or distance <= 0.0:
        return None
    u = (q - centre) / gap
    q = q + r * u
    line = np.array([-u[1], u[0]])
    width = float(np.ptp(world_core @ line)) + 2 * r
    scale = 1.0 if distance <= radius else min(1.0, (radius + falloff - distance) / falloff)
    return strength * width * scale * u, q


@settings(max_examples=60, deadline=None)
@given(
    kinds=st.lists(st.sampled_from(("circle", "capsule", "box")), min_size=1, max_size=5),
    seed=st.integers(0, 10_000),
    falloff=st.floats(0.0, 3.0),
)
def test_each_body_gains_the_momentum_its_shape_is_owed(kinds, seed, falloff):
    rng = np.random.default_rng(seed)
    world = _still_world()
    centre, radius, strength = np.array([0.3, -0.2]), 2.0, 1.7
    bodies, owed = [], []
    for k, kind in enumerate(kinds):
        shape = {"circle": Circle(0.3), "capsule": Segment((-0.4, 0), (0.4, 0), radius=0.2),
                 "box": Box(0.8, 0.5)}[kind]  # fmt: skip
        pose = (3.0 * math.cos(k * 1.3) * rng.uniform(0.5, 1.3),
                3.0 * math.sin(k * 1.3) * rng.uniform(0.5, 1.3), rng.uniform(-3, 3))  # fmt: skip
        body = world.add_body(shape, position=pose[:2], angle=pose[2])
        bodies.append(body)
        owed.append(_expected_momentum(shape, pose, centre, radius, falloff, strength))
    world.explode(centre, radius, strength, falloff=falloff)
    for body, expected in zip(bodies, owed):
        if expected is None:
            continue  # out of reach, or the centre inside it (pushed from its centroid)
        impulse, point = expected
        momentum = body.mass * body.velocity
        np.testing.assert_allclose(momentum, impulse, rtol=1e-9, atol=1e-9 * np.abs(impulse).max())
        arm = point - body.center_of_mass
        spin = (arm[0] * impulse[1] - arm[1] * impulse[0]) / body.inertia
        assert body.angular_velocity == pytest.approx(spin, rel=1e-9, abs=1e-9)
