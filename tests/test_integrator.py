"""Integration: free motion, with no contacts, against exact formulas.

The default step (sub-steps) integrates each sub-step h = dt / n as v += a h, then, for a
body nothing holds, x += h v - a h^2 / 2 with v the new velocity: the exact parabola under
constant forces, so free fall matches the continuous formula to rounding, at every step
and whatever the number of sub-steps (semi-implicit Euler, x += h v, would lag behind it
by g h t / 2).
"""

from __future__ import annotations

import numpy as np
import pytest
from builders import DT, G, hexagon, run

from engine import Box, Circle, World


def test_free_fall_flies_the_exact_parabola():
    """Free fall under gravity with no contacts: y0 + v0 t - g t^2 / 2 and v0 - g t to
    1e-9 m (rounding of ~400 float additions on numbers of size 100 is ~1e-12 m; semi-implicit
    Euler at the sub-step would lag by g h t / 2 = 1.8e-2 m after 1.5 s)."""
    world = World(dt=DT)
    x0, y0, vx0, vy0, a0, w0 = 3.0, 100.0, 2.0, 5.0, 0.3, 0.7
    body = world.add_body(
        Box(1, 0.5), position=(x0, y0), velocity=(vx0, vy0), angle=a0, angular_velocity=w0
    )
    n = 90
    run(world, n)
    t = n * DT
    assert world.time == pytest.approx(t, rel=1e-12)
    assert body.position[1] == pytest.approx(y0 + vy0 * t - 0.5 * G * t * t, abs=1e-9)
    assert body.velocity[1] == pytest.approx(vy0 - G * t, abs=1e-9)
    # Horizontal motion and rotation are unforced: exact up to rounding.
    assert body.position[0] == pytest.approx(x0 + vx0 * t, abs=1e-9)
    assert body.velocity[0] == vx0
    assert body.angle == pytest.approx(a0 + w0 * t, abs=1e-9)
    assert body.angular_velocity == w0


def test_free_fall_with_other_dt_and_gravity():
    """The same parabola holds for any dt, gravity vector and number of sub-steps (1e-9 m:
    rounding)."""
    dt, g = 1.0 / 120.0, np.array([1.5, -3.0])
    for substeps in (1, 3, 8):
        world = World(gravity=tuple(g), dt=dt, substeps=substeps)
        body = world.add_body(Circle(0.3), position=(0.0, 0.0))
        n = 150
        run(world, n)
        t = n * dt
        assert np.allclose(body.position, 0.5 * g * t * t, rtol=0, atol=1e-9)
        assert np.allclose(body.velocity, g * t, rtol=0, atol=1e-9)


def test_free_fall_from_rest_is_on_the_parabola_at_every_step():
    """From rest, every step ends on y0 - g t^2 / 2 and -g t, at 1, 4 and 8 sub-steps alike
    (measured: 7e-14 m and 6e-14 m/s at worst, the rounding of numbers of size 100; 1e-12).
    Semi-implicit Euler would lag behind it by g h t / 2 at the sub-step h."""
    for substeps in (1, 4, 8):
        world = World(dt=DT, substeps=substeps)
        body = world.add_body(Box(1, 0.5), position=(3.0, 100.0))
        for n in range(1, 91):
            world.step()
            t = n * DT
            assert body.position[1] == pytest.approx(100.0 - 0.5 * G * t * t, abs=1e-12)
            assert body.velocity[1] == pytest.approx(-G * t, abs=1e-12)
        assert body.position[0] == 3.0 and body.velocity[0] == 0.0


def test_no_gravity_no_contacts_keeps_momentum_and_spin_exactly():
    """Nothing acts: velocities and spins must not change by a single bit (no damping)."""
    world = World(gravity=(0.0, 0.0))
    specs = [
        (Box(1, 2), (0, 0), (3.0, -1.0), 2.0),
        (Circle(0.5), (50, 0), (-0.25, 7.0), -5.0),
        (hexagon(0.7), (0, 50), (0.0, 0.0), 0.125),
        ([Box(2, 1), Box(1, 1, offset=(0.5, 1.0))], (50, 50), (-3.0, -3.0), 11.0),  # an L
    ]
    bodies = [
        world.add_body(shape, position=p, velocity=v, angular_velocity=w, density=1.0 + i)
        for i, (shape, p, v, w) in enumerate(specs)
    ]
    starts = [b.position.copy() for b in bodies]
    n = 120
    run(world, n)
    for body, start, (_, _, v, w) in zip(bodies, starts, specs):
        assert np.array_equal(body.velocity, v)
        assert body.angular_velocity == w
        # Position: x0 + v t, to rounding of 120 additions (1e-9 m is ample).
        assert np.allclose(body.position, start + np.array(v) * n * DT, rtol=0, atol=1e-9)
