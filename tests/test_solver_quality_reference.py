"""The pymunk and Box2D harness of ``bench.solver_quality_reference``: it builds the scenes
as the engine's bench does (a sanity check of the harness, not of either engine)."""

import math

import pytest

pytest.importorskip("pymunk")
pytest.importorskip("Box2D")

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
    mass = body.mass if make is reference_worlds.PymunkWorld else body.massData.mass
    assert mass == pytest.approx(2.0 * SHAPES[kind].area, rel=1e-5)
