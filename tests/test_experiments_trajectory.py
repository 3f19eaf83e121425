"""record and Trajectory: conservation read-outs frame by frame, measured against physics;
the long-format dataframe; saving and loading.

The step is sub-stepped: a body nothing holds flies its exact parabola, so in free fall
the energy is kept to rounding (1e-9 of the energy scale: a few hundred float additions).
A held body moves as semi-implicit (symplectic) Euler at the sub-step h = dt / n, which
keeps E + (h / 2) F.v (F = m g, the weight) near constant; on a pendulum the joint's forces
come from an iterative solver, so the modified energy is kept only as well as the solver
keeps it: measured at 4 sub-steps, it wanders by 3.6e-4 m g L over 20 s and its mean drifts
by -1.5e-4 m g L (the joint tree moves the bob back onto its joint whenever the error passes
its tolerance, which takes a little energy: see TREE_TOLERANCE); the tolerances are 0.001
and 3e-4 (a solver that loses or gains energy at 1e-4 per swing, 1e-3 over the 10 swings,
misses them). An elastic collision without friction and without gravity should keep
momentum and angular momentum to rounding, and kinetic energy to 1e-12: the step keeps
momentum and energy, not yet angular momentum.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from builders import G

from engine import Box, Circle, RevoluteJoint, World
from engine.experiments import Trajectory, load, record


def test_free_fall_keeps_its_energy_to_rounding():
    world = World(gravity=(0.0, -G))
    body = world.add_body(Box(1, 0.5), position=(3, 100), velocity=(2, 5), angular_velocity=0.7)
    trajectory = record(world, steps=90, every=3)
    dt, m = world.dt, body.mass
    t = np.arange(0, 91, 3) * dt
    assert np.allclose(trajectory.time, t, rtol=0, atol=1e-12)
    scale = m * G * 100  # the energy at stake
    assert np.ptp(trajectory.energy) < 1e-9 * scale
    # Momentum grows by m g per second; the spin and the sideways motion are untouched.
    assert np.allclose(trajectory.momentum[:, 1], m * (5 - G * t), rtol=0, atol=1e-9)
    assert np.all(trajectory.momentum[:, 0] == m * 2)
    assert np.all(trajectory.angular_velocities[:, 0] == 0.7)


def test_a_frictionless_pendulum_keeps_its_energy_to_the_solvers_accuracy():
    world = World(sleep=False)
    bob = world.add_body(Circle(0.05), position=(1.0, 0.0))  # released horizontal
    world.add_joint(RevoluteJoint(bob, None, anchor=(0, 0)))
    trajectory = record(world, steps=1200)  # 20 s, about 10 swings
    h, m = world.dt / world.substeps, bob.mass
    weight_power = m * trajectory.velocities[:, 0] @ world.gravity
    modified = (trajectory.energy + 0.5 * h * weight_power) / (m * G * 1.0)  # in m g L
    assert np.ptp(modified) < 0.001
    assert abs(modified[-120:].mean() - modified[:120].mean()) < 3e-4
    # the energy moves between kinetic and potential: a full swing was recorded
    assert trajectory.kinetic_energy.max() == pytest.approx(m * G, rel=0.01)


@pytest.mark.xfail(
    strict=True,
    reason="soft step: angular momentum jumps by -0.0108 of 1.698 (0.6 %) at the impact, at "
    "1 to 8 sub-steps alike; momentum and energy are kept to rounding",
)
def test_an_elastic_collision_keeps_momentum_angular_momentum_and_energy():
    world = World(gravity=(0.0, 0.0), sleep=False)
    ball = world.add_body(
        Circle(0.5), position=(-2, 0.1), velocity=(3, 0), restitution=1.0, friction=0.0
    )
    box = world.add_body(
        Box(1, 1),
        position=(2, -0.2),
        velocity=(-1, 0.5),
        angular_velocity=1,
        restitution=1.0,
        friction=0.0,
        density=2,
    )
    trajectory = record(world, steps=120, every=2)
    assert not np.allclose(ball.velocity, (3, 0)), "they did not collide"
    assert np.allclose(trajectory.momentum, trajectory.momentum[0], rtol=0, atol=1e-12)
    assert np.ptp(trajectory.angular_momentum) < 1e-12 * 10
    assert np.ptp(trajectory.kinetic_energy) < 1e-12 * trajectory.kinetic_energy[0]
    assert trajectory.potential_energy.tolist() == [0.0] * len(trajectory)
    assert box.mass == 2.0


def test_the_arrays_are_frames_of_the_world_in_body_order():
    world = World()
    ground = world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    ball = world.add_body(Circle(0.25), position=(1, 2), velocity=(1, 0))
    trajectory = record(world, steps=10, every=5)
    assert len(trajectory) == 3 and trajectory.bodies == 2
    assert trajectory.positions.shape == (3, 2, 2) and trajectory.angles.shape == (3, 2)
    assert trajectory.velocities.shape == (3, 2, 2) and trajectory.momentum.shape == (3, 2)
    assert np.array_equal(trajectory.positions[-1], world.positions)
    assert np.array_equal(trajectory.positions[0, 0], ground.position)
    assert trajectory.masses[1] == ball.mass and np.isinf(trajectory.masses[0])
    with pytest.raises(ValueError):
        trajectory.positions[0, 0, 0] = 1.0  # read-only


def test_to_dataframe_is_long_format_with_the_documented_fields():
    world = World()
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    world.add_body(Circle(0.25), position=(1, 2), velocity=(1, 0), angular_velocity=2)
    trajectory = record(world, steps=4, every=2)
    table = trajectory.to_dataframe()
    assert list(table.columns) == ["time", "body", "field", "value"]
    body_fields = ["x", "y", "angle", "vx", "vy", "angular_velocity"]
    world_fields = [
        "kinetic_energy",
        "potential_energy",
        "momentum_x",
        "momentum_y",
        "angular_momentum",
    ]
    assert len(table) == 3 * (2 * len(body_fields) + len(world_fields))
    frame = table[table["time"] == trajectory.time[1]]
    assert frame["field"].tolist() == body_fields * 2 + world_fields
    assert frame["body"].tolist()[:12] == [0] * 6 + [1] * 6
    assert frame["body"].iloc[12:].isna().all()
    # values land in the right cells
    cell = table.set_index(["time", "body", "field"])["value"]
    t = trajectory.time[2]
    assert cell[(t, 1, "y")] == trajectory.positions[2, 1, 1]
    assert cell[(t, 1, "vx")] == trajectory.velocities[2, 1, 0]
    assert cell[(t, 1, "angular_velocity")] == trajectory.angular_velocities[2, 1]
    world_rows = table[table["body"].isna()].set_index(["time", "field"])["value"]
    assert world_rows[(t, "momentum_y")] == trajectory.momentum[2, 1]
    assert world_rows[(t, "kinetic_energy")] == trajectory.kinetic_energy[2]
    # the usual reshaping works: one column per body
    wide = table[table["field"] == "x"].pivot(index="time", columns="body", values="value")
    assert np.array_equal(wide.to_numpy(), trajectory.positions[:, :, 0])


def test_save_and_load_give_back_every_array(tmp_path):
    world = World()
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    world.add_body(Box(1, 1), position=(0, 3), angle=0.3)
    trajectory = record(world, steps=30, every=3)
    path = tmp_path / "drop.trajectory"  # any name: no suffix is added
    trajectory.save(path)
    again = load(path)
    assert isinstance(again, Trajectory) and again.dt == trajectory.dt
    for name in (
        "time",
        "masses",
        "gravity",
        "positions",
        "angles",
        "velocities",
        "angular_velocities",
        "kinetic_energy",
        "potential_energy",
        "momentum",
        "angular_momentum",
    ):
        assert np.array_equal(getattr(again, name), getattr(trajectory, name)), name
    pd.testing.assert_frame_equal(again.to_dataframe(), trajectory.to_dataframe())


def test_load_refuses_foreign_and_damaged_files(tmp_path):
    world = World()
    world.add_body(Circle(1), position=(0, 0))
    world.save(tmp_path / "world.npz")
    with pytest.raises(ValueError, match="^path: not a"):
        load(tmp_path / "world.npz")
    (tmp_path / "text.npz").write_text("not a zip")
    with pytest.raises(ValueError, match="^path: not a readable trajectory"):
        load(tmp_path / "text.npz")
    with pytest.raises(ValueError, match="^path: not a readable trajectory"):
        load(tmp_path / "missing.npz")
    trajectory = record(world, steps=2)
    trajectory.save(tmp_path / "good.npz")
    with np.load(tmp_path / "good.npz") as data:
        arrays = dict(data)
    arrays["positions"] = arrays["positions"][:, :, :1]  # wrong shape
    np.savez(tmp_path / "bad.npz", **arrays)
    with pytest.raises(ValueError, match="^path: damaged trajectory file"):
        load(tmp_path / "bad.npz")


def test_bad_arguments_leave_the_world_untouched():
    world = World()
    ball = world.add_body(Circle(0.5), position=(0, 5))
    for arguments, error, name in [
        ((world, -1), ValueError, "steps"),
        ((world, 2.5), TypeError, "steps"),
        ((world, 10, 0), ValueError, "every"),
        ((world, 10, 3), ValueError, "steps: must be a multiple"),
        (("world", 10), TypeError, "world"),
    ]:
        with pytest.raises(error, match=f"^{name}"):
            record(*arguments)
    assert world.time == 0.0 and ball.position.tolist() == [0.0, 5.0]


def test_a_recording_that_raises_puts_the_world_back():
    world = World()
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    ball = world.add_body(Circle(0.5), position=(0, 1))
    world.on("contact_begin", lambda contact: world.remove(ball))
    with pytest.raises(ValueError, match="^world: bodies were added or removed"):
        record(world, steps=120)
    assert world.time == 0.0 and ball.world is world
    assert ball.position.tolist() == [0.0, 1.0]
