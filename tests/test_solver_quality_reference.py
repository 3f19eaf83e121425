"""The pymunk, Box2D 2.3 and Box2D 3 harness of ``bench.solver_quality_reference``: it
builds the scenes as the engine's bench does (a sanity check of the harness, not of the
engines)."""

import math

import pytest

pytest.importorskip("pymunk")
pytest.importorskip("Box2D")
pytest.importorskip("pyb2d3")

from bench import reference_worlds  # noqa: E402
from bench import solver_quality_reference as reference  # noqa: E402
from demos.scenes.rain import SHAPES  # noqa: E402
from engine import Box, Circle  # noqa: E402


@pytest.mark.parametrize("make", reference.ENGINES, ids=lambda make: make.name)
def test_a_ball_dropped_2_m_with_e_half_rebounds_about_half_a_metre(make):
    world = make()
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    ball = world.add_body(Circle(0.25), position=(0, 2.25), restitution=0.5)
    apex = reference.bounce_apex(world, ball, 0.25)
    assert apex == pytest.approx(0.5, rel=0.25)


@pytest.mark.parametrize("make", reference.ENGINES, ids=lambda make: make.name)
def test_the_bounce_rows_come_out_finite(make):
    rows = list(reference.bounce_errors(make))
    assert [label[:15] for label, _, _ in rows] == ["bounce apex e=0"] * 3
    assert all(math.isfinite(value) for _, value, _ in rows)


@pytest.mark.parametrize("make", reference.ENGINES, ids=lambda make: make.name)
@pytest.mark.parametrize("kind", sorted(SHAPES))
def test_the_rain_shapes_keep_the_engines_mass(make, kind):
    """Each of the rain's shapes (the star as its convex parts) at density 2."""
    world = make()
    body = world.add_body(SHAPES[kind], density=2.0)
    mass = body.massData.mass if make is reference_worlds.Box2DWorld else body.mass
    assert mass == pytest.approx(2.0 * SHAPES[kind].area, rel=1e-5)


@pytest.mark.parametrize("depth", [0.0, 0.01, 0.03])
def test_box2d3_depth_is_the_deepest_box_corner_inside_the_wall(depth):
    """Box2D 3's tumbler measure, taken from the poses: a box tilted 45 degrees with its
    lowest corner ``depth`` into a kinematic slab, another box well clear of it."""
    world = reference_worlds.Box2D3World()
    slab = world.add_body(Box(4, 1), position=(0, -0.5), kind="kinematic")
    world.add_body(Box(0.4, 0.4), position=(0, 0.2 * math.sqrt(2) - depth), angle=math.pi / 4)
    world.add_body(Box(0.4, 0.4), position=(1, 2))
    assert world.deepest(slab) == pytest.approx(depth, abs=1e-6)


def test_box2d3_pins_start_closed_and_hold_a_hanging_link():
    world = reference_worlds.Box2D3World(sleep=False)
    link = world.add_body(Box(0.5, 0.1), position=(0.25, 0))
    pin = world.add_pin(link, None, anchor=(0, 0))
    assert world.pin_gap(pin) == pytest.approx(0, abs=1e-6)
    for _ in range(60):
        world.step()
    assert world.position(link)[1] < -0.2  # swung down about the pin
    assert world.pin_gap(pin) < 0.01
