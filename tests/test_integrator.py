"""Integration: free motion, with no contacts, against exact formulas.

The default step (sub-steps) integrates each sub-step h = dt / n as v += a h, then, for a
body nothing holds, x += h v - a h^2 / 2 with v the new velocity: the exact parabola under
constant forces, so free fall matches the continuous formula to rounding. The one-solve
step (``substeps=0``) is semi-implicit (symplectic) Euler: v += a dt, then x += v dt, exact
in the discrete sense and biased by O(dt) against the continuous solution.
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


def test_the_one_solve_step_falls_by_the_discrete_formula():
    """``substeps=0``: n steps of semi-implicit Euler give exactly v_n = v0 - n g dt and
    y_n = y0 + v0 n dt - g dt^2 n(n+1)/2 (1e-9 m: rounding; any other integrator differs by
    g dt^2 / 2 = 1.4e-3 m per step). Against the continuous y0 + v0 t - g t^2 / 2 this scheme
    lags by exactly g dt t / 2 (its O(dt) bias)."""
    world = World(dt=DT, substeps=0)
    y0, vy0 = 100.0, 5.0
    body = world.add_body(Box(1, 0.5), position=(3.0, y0), velocity=(2.0, vy0))
    n = 90
    run(world, n)
    t = n * DT
    y_discrete = y0 + vy0 * n * DT - G * DT * DT * n * (n + 1) / 2
    assert body.position[1] == pytest.approx(y_discrete, abs=1e-9)
    assert body.velocity[1] == pytest.approx(vy0 - n * G * DT, abs=1e-9)
    y_continuous = y0 + vy0 * t - 0.5 * G * t * t
    assert y_continuous - body.position[1] == pytest.approx(0.5 * G * DT * t, rel=1e-6)


@pytest.mark.usefixtures("both_solvers")
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
