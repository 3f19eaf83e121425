"""The prismatic, wheel, rope, angular spring, gear and motor joints against physics:
limits, motors, suspension and spring periods, gear ratios, rope lengths, bounded drives,
conservation laws over random joined pairs, and the API's errors."""

from __future__ import annotations

import math

import numpy as np
import pytest
from builders import G, run_for
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    AngularSpring,
    Box,
    Chain,
    Circle,
    GearJoint,
    MotorJoint,
    PrismaticJoint,
    RevoluteJoint,
    RopeJoint,
    WheelJoint,
    World,
)


def down_crossings(values: np.ndarray, dt: float) -> np.ndarray:
    """Times where ``values`` (one per step, from t = dt) cross zero going down."""
    times = dt * np.arange(1, len(values) + 1)
    down = np.flatnonzero((values[:-1] > 0.0) & (values[1:] <= 0.0))
    fraction = values[down] / (values[down] - values[down + 1])
    return times[down] + fraction * dt


def symplectic_period(omega: float, h: float) -> float:
    """The period symplectic Euler gives an undamped oscillator of angular frequency omega."""
    return 2.0 * math.pi / (2.0 / h * math.asin(omega * h / 2.0))


# -- prismatic ------------------------------------------------------------------------------
def test_a_prismatic_elevator_moves_at_motor_speed_and_holds_its_limits():
    world = World(sleep=False)
    platform = world.add_body(Box(2, 0.2), position=(0, 1))
    lift = world.add_joint(
        PrismaticJoint(platform, None, (0, 1), (0, 1), lower=-0.5, upper=2.0, motor_speed=1.0,
                       max_motor_force=100.0 * platform.mass)
    )  # fmt: skip
    heights, speeds = [], []

    def measure():
        heights.append(lift.translation)
        speeds.append(lift.translation_speed)

    run_for(world, 1.0, measure)
    # The force suffices: the motor reaches its speed in the first step and keeps it.
    assert np.allclose(speeds, 1.0, rtol=1e-9)
    assert platform.velocity[1] == pytest.approx(1.0, rel=1e-9)
    assert lift.translation == pytest.approx(1.0, rel=1e-9)
    assert lift.motor_force == pytest.approx(platform.mass * G, rel=1e-9)
    run_for(world, 2.0, measure)
    assert max(heights) < 2.0 + 0.001 and heights[-1] > 2.0 - 0.001  # on the upper limit
    lift.motor_speed = -1.0
    heights.clear()
    run_for(world, 4.0, measure)
    assert min(heights) > -0.5 - 0.001 and heights[-1] < -0.5 + 0.001  # on the lower one
    assert platform.angle == 0.0 and platform.position[0] == 0.0


def test_a_prismatic_motor_too_weak_for_its_load_accelerates_at_the_force_balance():
    world = World(sleep=False)
    platform = world.add_body(Box(2, 0.2), position=(0, 1))
    force = 0.5 * platform.mass * G  # half the weight
    world.add_joint(
        PrismaticJoint(platform, None, (0, 1), (0, 1), motor_speed=1.0, max_motor_force=force)
    )
    run_for(world, 1.0)
    assert platform.velocity[1] == pytest.approx((force / platform.mass - G) * 1.0, rel=1e-9)


def test_a_slider_conserves_momentum_along_its_axis_and_does_not_turn():
    world = World(gravity=(0, 0), sleep=False)
    a = world.add_body(Box(1, 0.5), position=(0, 0), velocity=(1.0, -0.5), angular_velocity=0.3)
    b = world.add_body(Circle(0.3), position=(1.5, 1.0), velocity=(-2.0, 1.0))
    slide = world.add_joint(PrismaticJoint(a, b, (1.5, 1.0), (2, 1)))
    momentum = world.momentum()
    worst_angle, worst_off = 0.0, 0.0

    def measure():
        nonlocal worst_angle, worst_off
        worst_angle = max(worst_angle, abs(b.angle - a.angle))
        off = slide.anchor_b - slide.anchor_a
        worst_off = max(worst_off, abs(off @ np.array([-slide.axis[1], slide.axis[0]])))

    run_for(world, 3.0, measure)
    assert np.allclose(world.momentum(), momentum, rtol=0, atol=1e-9 * np.abs(momentum).max())
    assert worst_angle < 1e-9 and worst_off < 1e-9


# -- wheel ----------------------------------------------------------------------------------
def build_car(world: World, x: float, y: float, frequency=2.0, damping=0.1, motor_speed=0.0,
              max_torque=0.0, r=0.4):  # fmt: skip
    """A 3 m chassis on two wheels 2.2 m apart, whose axles are ``r + 0.6`` m below the
    chassis's centre at (x, y)."""
    chassis = world.add_body(Box(3, 0.5), position=(x, y))
    wheels, joints = [], []
    for dx in (-1.1, 1.1):
        wheel = world.add_body(Circle(r), position=(x + dx, y - 0.6 - r), friction=1.0)
        joints.append(
            world.add_joint(
                WheelJoint(
                    chassis,
                    wheel,
                    wheel.position,
                    (0, 1),
                    frequency=frequency,
                    damping=damping,
                    motor_speed=motor_speed,
                    max_motor_torque=max_torque,
                )
            )  # fmt: skip
        )
        wheels.append(wheel)
    return chassis, wheels, joints


def flat_ground(world: World, kind: str) -> None:
    """A static ground whose top is y = 0: a box, or a chain running right to left (its
    front, the solid side's outside, up)."""
    if kind == "box":
        world.add_body(Box(60, 1), position=(0, -0.5), kind="static", friction=1.0)
    else:
        points = [(x, 0.0) for x in np.linspace(30, -30, 61)]  # 1 m links
        world.add_body(Chain(points), kind="static", friction=1.0, origin="local")


@pytest.mark.parametrize("ground", ["box", "chain"])
def test_a_car_dropped_on_its_wheels_bounces_at_its_suspension_frequency(ground):
    world = World(sleep=False)
    flat_ground(world, ground)
    frequency, zeta = 2.0, 0.1
    chassis, wheels, joints = build_car(world, 0.0, 1.45, frequency, zeta)
    heights = []
    run_for(world, 5.0, lambda: heights.append(chassis.position[1]))
    heights = np.array(heights)
    # Each spring's stiffness is its axis row's mass times w^2: the chassis (linear and, at
    # 1.1 m from its centre, turning) and the wheel. Standing on the ground the wheels stay
    # put, so the chassis bounces on two such springs.
    mass, inertia, wheel = chassis.mass, chassis.inertia, wheels[0].mass
    row_mass = 1.0 / (1.0 / mass + 1.1**2 / inertia + 1.0 / wheel)
    omega = 2.0 * math.pi * frequency
    stiffness, drag = row_mass * omega**2, 2.0 * row_mass * zeta * omega
    bounce = math.sqrt(2.0 * stiffness / mass)
    ratio = 2.0 * drag / (2.0 * math.sqrt(2.0 * stiffness * mass))
    expected = symplectic_period(bounce, world.dt) / math.sqrt(1.0 - ratio**2)
    rest = heights[-60:].mean()
    periods = np.diff(down_crossings(heights[:180] - rest, world.dt))
    assert len(periods) >= 2
    assert periods.mean() == pytest.approx(expected, rel=0.01)
    # Damped hard, it settles where the springs carry the chassis's weight, 1 m above the
    # wheels when unloaded (the wheels stand on the ground, within its slop).
    for joint in joints:
        joint.damping = 1.0
    run_for(world, 3.0)
    assert [w.position[1] for w in wheels] == pytest.approx([0.4, 0.4], abs=0.005)
    sag = mass * G / (2.0 * stiffness)
    assert chassis.position[1] == pytest.approx(wheels[0].position[1] + 1.0 - sag, abs=1e-4)


def test_a_car_drives_over_bumps_on_its_motors():
    world = World(sleep=False)
    world.add_body(Box(80, 1), position=(30, -0.5), kind="static", friction=1.0)
    for i in range(12):  # low bumps every 4 m
        world.add_body(Box(0.8, 0.12), position=(4.0 + 4.0 * i, 0.06), angle=0.0, kind="static")
    speed, r = -6.0, 0.4  # clockwise: forwards, to +x
    chassis, wheels, joints = build_car(world, 0.0, 1.4, 3.0, 0.5, speed, 60.0, r)
    worst_off = 0.0

    def measure():
        nonlocal worst_off
        for joint in joints:
            off = joint.anchor_b - joint.anchor_a
            worst_off = max(worst_off, abs(off @ np.array([-joint.axis[1], joint.axis[0]])))

    run_for(world, 8.0, measure)
    travelled = chassis.position[0]
    assert travelled > 0.8 * -speed * r * 6.0  # rolls at about r w once up to speed
    assert abs(chassis.angle) < 0.3
    assert [joint.speed for joint in joints] == pytest.approx([speed, speed], abs=0.5)
    assert worst_off < 0.005


def test_a_car_drives_over_chain_terrain_on_its_motors():
    world = World(sleep=False)
    xs = np.arange(80.0, -10.5, -0.5)  # right to left: the front is up
    hills = np.where(xs > 3.0, 0.35 * np.sin(0.5 * xs) * np.minimum(1.0, (xs - 3.0) / 3.0), 0.0)
    world.add_body(Chain(np.column_stack([xs, hills])), kind="static", friction=1.0,
                   origin="local")  # fmt: skip
    speed, r = -6.0, 0.4
    chassis, wheels, joints = build_car(world, 0.0, 1.4, 3.0, 0.5, speed, 60.0, r)
    lowest = np.inf

    def measure():
        nonlocal lowest
        for wheel in wheels:
            ground = np.interp(wheel.position[0], xs[::-1], hills[::-1])
            lowest = min(lowest, wheel.position[1] - r - ground)

    run_for(world, 8.0, measure)
    assert chassis.position[0] > 0.8 * -speed * r * 6.0
    assert abs(chassis.angle) < 0.5
    # The wheels roll on the chain's front: never more than a slop and a bit into it.
    assert lowest > -0.02


# -- rope -----------------------------------------------------------------------------------
def test_a_rope_is_slack_below_its_length_and_holds_a_thrown_load_within_one_percent():
    world = World(sleep=False)
    bob = world.add_body(Circle(0.1), position=(0.5, 0.0), density=100.0)
    rope = world.add_joint(RopeJoint(bob, None, bob.position, (0, 0), length=2.0))
    # Slack: free fall, exactly as without the rope, until the rope is taut.
    fall = []
    while rope.current_length < 1.9:
        world.step()
        fall.append((bob.velocity[1], rope.tension))
    velocities = np.array(fall)
    times = world.dt * np.arange(1, len(fall) + 1)
    assert np.allclose(velocities[:, 0], -G * times, rtol=1e-12)
    assert np.all(velocities[:, 1] == 0.0)
    bob.velocity = (12.0, 5.0)  # thrown around
    worst = 0.0

    def measure():
        nonlocal worst
        worst = max(worst, rope.current_length)

    run_for(world, 6.0, measure)
    assert worst < 2.0 * 1.01
    assert rope.current_length == pytest.approx(2.0, abs=0.02)  # hanging at rest: taut


def test_two_ropes_swinging_a_load_ten_times_the_middle_bodys_mass_stretch_under_two_percent():
    """Gauss-Seidel carries tension down a chain slowly: the lighter the middle body, the
    more a swinging chain of ropes stretches (1.4% here; 4.5% at a mass ratio of 50)."""
    world = World(sleep=False)
    light = world.add_body(Circle(0.05), position=(1.0, 0.0))
    heavy = world.add_body(Circle(0.05), position=(2.0, 0.0), density=10.0)
    upper = world.add_joint(RopeJoint(light, None, light.position, (0, 0)))
    lower = world.add_joint(RopeJoint(heavy, light, heavy.position, light.position))
    worst = 0.0

    def measure():
        nonlocal worst
        worst = max(worst, upper.current_length - 1.0, lower.current_length - 1.0)

    run_for(world, 6.0, measure)
    assert worst < 0.02


# -- angular spring -------------------------------------------------------------------------
@pytest.mark.parametrize("frequency", [0.5, 1.0, 3.0])
def test_an_angular_spring_oscillates_at_its_frequency(frequency):
    world = World(sleep=False)
    wheel = world.add_body(Box(1.0, 0.3), position=(0, 2))
    world.add_joint(RevoluteJoint(wheel, None, (0, 2)))
    spring = world.add_joint(AngularSpring(wheel, None, frequency, rest_angle=0.4))
    angles = []
    run_for(world, 4.0 / frequency + 0.5, lambda: angles.append(spring.angle - 0.4))
    angles = np.array(angles)
    period = np.diff(down_crossings(angles, world.dt)).mean()
    # The body's own inertia: stiffness I w^2 gives w exactly (symplectic Euler's period).
    assert period == pytest.approx(symplectic_period(2 * math.pi * frequency, world.dt), rel=2e-3)
    # No energy lost: symplectic Euler's amplitude, 0.4 / sqrt(1 - (w h / 2)^2) at most.
    top = 0.4 / math.sqrt(1.0 - (math.pi * frequency * world.dt) ** 2)
    assert np.abs(angles).max() == pytest.approx(top, rel=3e-3)


def test_an_angular_spring_between_two_bodies_uses_their_reduced_inertia_and_damps():
    world = World(gravity=(0, 0), sleep=False)
    a = world.add_body(Box(1.0, 0.3), position=(0, 0))
    b = world.add_body(Box(2.0, 0.3), position=(3, 0), angular_velocity=2.0)
    zeta, frequency = 0.1, 1.0
    world.add_joint(AngularSpring(a, b, frequency, damping=zeta))
    spin = world.angular_momentum()
    relative = []
    run_for(world, 6.0, lambda: relative.append(b.angle - a.angle))
    relative = np.array(relative)
    assert world.angular_momentum() == pytest.approx(spin, rel=1e-9)
    omega = 2 * math.pi * frequency
    damped = symplectic_period(omega, world.dt) / math.sqrt(1 - zeta**2)
    assert np.diff(down_crossings(relative, world.dt)).mean() == pytest.approx(damped, rel=0.01)
    # Logarithmic decrement over a period: 2 pi zeta / sqrt(1 - zeta^2).
    peaks = [relative[i] for i in range(1, len(relative) - 1)
             if relative[i - 1] < relative[i] >= relative[i + 1]]  # fmt: skip
    decrement = np.log(np.array(peaks[:-1]) / np.array(peaks[1:])).mean()
    assert decrement == pytest.approx(2 * math.pi * zeta / math.sqrt(1 - zeta**2), rel=0.05)


# -- gear -----------------------------------------------------------------------------------
@pytest.mark.parametrize("ratio", [1.0, 2.5, -0.4])
def test_a_gear_keeps_its_ratio_and_reflects_inertia(ratio):
    world = World(sleep=False)
    driver = world.add_body(Circle(0.5), position=(0, 2))
    driven = world.add_body(Circle(0.5 * abs(ratio)), position=(3, 2))
    world.add_joint(RevoluteJoint(driver, None, driver.position))
    world.add_joint(RevoluteJoint(driven, None, driven.position))
    gear = world.add_joint(GearJoint(driver, driven, ratio))
    torque = 2.0
    worst_angle, worst_speed = 0.0, 0.0

    def measure():
        nonlocal worst_angle, worst_speed
        worst_angle = max(worst_angle, abs(gear.error))
        rates = driver.angular_velocity + ratio * driven.angular_velocity
        worst_speed = max(worst_speed, abs(rates) / abs(driver.angular_velocity))
        driver.apply_torque(torque)

    driver.apply_torque(torque)
    run_for(world, 3.0, measure)
    assert worst_angle < 1e-6 and worst_speed < 1e-6
    # The driven wheel turns at -1/ratio of the driver: the torque drives both inertias.
    reflected = driver.inertia + driven.inertia / ratio**2
    assert driver.angular_velocity == pytest.approx(torque / reflected * 3.0, rel=1e-6)
    assert gear.reaction_torque == pytest.approx(
        driven.inertia * -torque / reflected / ratio, rel=1e-6
    )


def test_a_gear_driven_by_a_motor_keeps_its_ratio():
    world = World(sleep=False)
    driver = world.add_body(Box(1.0, 0.2), position=(0, 2))
    driven = world.add_body(Box(2.0, 0.2), position=(3, 2))
    world.add_joint(
        RevoluteJoint(driver, None, driver.position, motor_speed=4.0, max_motor_torque=5.0)
    )
    world.add_joint(RevoluteJoint(driven, None, driven.position))
    gear = world.add_joint(GearJoint(driver, driven, 2.0))
    worst = 0.0

    def measure():
        nonlocal worst
        worst = max(worst, abs(gear.error))

    run_for(world, 4.0, measure)
    assert worst < 1e-6
    assert driver.angular_velocity == pytest.approx(4.0, rel=1e-3)
    assert driven.angular_velocity == pytest.approx(-2.0, rel=1e-3)


# -- motor joint ----------------------------------------------------------------------------
def test_a_motor_joint_drives_a_body_to_its_pose_with_bounded_force_and_torque():
    world = World(gravity=(0, 0), sleep=False)
    ground = world.add_body(Box(1, 1), position=(0, 0), kind="static")
    crate = world.add_body(Box(1, 0.5), position=(1, 1))
    force, torque = 5.0, 0.5
    drive = world.add_joint(
        MotorJoint(ground, crate, linear_offset=(4, 2), angular_offset=1.0, max_force=force,
                   max_torque=torque, correction=0.3)
    )  # fmt: skip
    worst_linear, worst_angular = 0.0, 0.0
    last = [crate.velocity, crate.angular_velocity]

    def measure():
        nonlocal worst_linear, worst_angular
        worst_linear = max(worst_linear, np.hypot(*(crate.velocity - last[0])) / world.dt)
        worst_angular = max(worst_angular, abs(crate.angular_velocity - last[1]) / world.dt)
        last[:] = [crate.velocity, crate.angular_velocity]

    run_for(world, 10.0, measure)
    # Far from its target it pushes with all it has, and never more.
    assert worst_linear == pytest.approx(force / crate.mass, rel=1e-9)
    assert worst_angular == pytest.approx(torque / crate.inertia, rel=1e-9)
    assert crate.position == pytest.approx([4, 2], abs=1e-3)
    assert crate.angle == pytest.approx(1.0, abs=1e-3)
    drive.linear_offset = (0, 3)  # a new target: it follows
    run_for(world, 10.0)
    assert crate.position == pytest.approx([0, 3], abs=1e-3)


def test_a_motor_joint_to_the_world_and_its_settings():
    world = World(sleep=False)
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    body = world.add_body(Circle(0.3), position=(0, 3))
    hold = world.add_joint(MotorJoint(body, None, max_force=2.0 * body.mass * G))
    assert hold.linear_offset.tolist() == [0, 3] and hold.angular_offset == 0.0
    run_for(world, 2.0)
    assert body.position == pytest.approx([0, 3], abs=1e-3)  # held against gravity
    hold.max_force = 0.5 * body.mass * G  # too weak: it sinks at g / 2
    run_for(world, 0.5)
    assert body.velocity[1] == pytest.approx(-0.5 * G * 0.5, rel=0.05)


# -- properties over random joined pairs ----------------------------------------------------
KINDS = ["prismatic", "wheel", "rope", "angular spring", "gear", "motor"]


@settings(max_examples=30, deadline=None)
@given(
    kind=st.sampled_from(KINDS),
    positions=st.lists(st.floats(-2, 2), min_size=4, max_size=4),
    anchor=st.lists(st.floats(-1, 1), min_size=2, max_size=2),
    direction=st.floats(0, 2 * math.pi),
    velocities=st.lists(st.floats(-3, 3), min_size=6, max_size=6),
)
def test_internal_joints_keep_momentum_and_hold(kind, positions, anchor, direction, velocities):
    world = World(gravity=(0, 0), sleep=False)
    a = world.add_body(Box(1, 0.6), position=positions[:2], velocity=velocities[:2],
                       angular_velocity=velocities[2])  # fmt: skip
    b = world.add_body(Circle(0.4), position=(positions[2] + 3.0, positions[3]),
                       velocity=velocities[3:5], angular_velocity=velocities[5])  # fmt: skip
    point = b.position + np.array(anchor)
    axis = (math.cos(direction), math.sin(direction))
    joint = {
        "prismatic": lambda: PrismaticJoint(a, b, point, axis),
        "wheel": lambda: WheelJoint(a, b, point, axis, frequency=2.0, damping=0.2),
        "rope": lambda: RopeJoint(a, b, a.position, point),
        "angular spring": lambda: AngularSpring(a, b, 1.5, damping=0.3),
        "gear": lambda: GearJoint(a, b, 1.0 + direction),
        "motor": lambda: MotorJoint(a, b, max_force=50.0, max_torque=20.0),
    }[kind]()
    world.add_joint(joint)
    momentum = world.momentum()
    length = joint.current_length if kind == "rope" else 0.0
    run_for(world, 2.0)
    scale = max(np.abs(momentum).max(), 1.0)
    assert np.allclose(world.momentum(), momentum, rtol=0, atol=1e-9 * scale)
    if kind in ("prismatic", "wheel"):
        off = joint.anchor_b - joint.anchor_a
        assert abs(off @ np.array([-joint.axis[1], joint.axis[0]])) < 1e-3
    if kind == "prismatic":
        assert abs(b.angle - a.angle) < 1e-3
    if kind == "rope":
        assert joint.current_length < length * 1.01
    if kind == "gear":
        assert abs(joint.error) < 1e-6


# -- the API --------------------------------------------------------------------------------
def _pair():
    world = World()
    return world, world.add_body(Box(1, 1), position=(0, 0)), world.add_body(Circle(0.5))


BAD = {
    "axis zero": (lambda a, b: PrismaticJoint(a, b, (0, 0), (0, 0)), ValueError, "axis: must"),
    "axis nan": (lambda a, b: WheelJoint(a, b, (0, 0), (np.nan, 1)), ValueError, "axis: must"),
    "axis text": (lambda a, b: PrismaticJoint(a, b, (0, 0), "x"), TypeError, "axis: "),
    "limits": (
        lambda a, b: PrismaticJoint(a, b, (0, 0), (1, 0), lower=1, upper=0),
        ValueError,
        "lower: must be <= upper",
    ),  # fmt: skip
    "motor force": (
        lambda a, b: PrismaticJoint(a, b, (0, 0), (1, 0), max_motor_force=-1),
        ValueError,
        "max_motor_force: must be >= 0",
    ),  # fmt: skip
    "motor speed": (
        lambda a, b: PrismaticJoint(a, b, (0, 0), (1, 0), motor_speed=1e9),
        ValueError,
        "motor_speed: ",
    ),  # fmt: skip
    "wheel frequency": (
        lambda a, b: WheelJoint(a, b, (0, 0), (0, 1), frequency=0),
        ValueError,
        "frequency: must",
    ),
    "rope length": (
        lambda a, b: RopeJoint(a, b, (0, 0), (1, 0), length=-1),
        ValueError,
        "length: must",
    ),
    "rope anchors": (lambda a, b: RopeJoint(a, b, (0, 0), (0, 0)), ValueError, "length: the"),
    "spring frequency": (lambda a, b: AngularSpring(a, b, -1.0), ValueError, "frequency: must"),
    "rest angle": (
        lambda a, b: AngularSpring(a, b, 1.0, rest_angle=math.inf),
        ValueError,
        "rest_angle: ",
    ),
    "gear ratio": (lambda a, b: GearJoint(a, b, 0.0), ValueError, "ratio: its size"),
    "gear to the world": (lambda a, b: GearJoint(a, None), TypeError, "body_b: expected a Body"),
    "correction": (lambda a, b: MotorJoint(a, b, correction=2), ValueError, "correction: must"),
    "max torque": (lambda a, b: MotorJoint(a, b, max_torque=-1), ValueError, "max_torque: must"),
    "offset": (
        lambda a, b: MotorJoint(a, b, linear_offset=(1e13, 0)),
        ValueError,
        "linear_offset: ",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_arguments_raise_naming_the_argument(case):
    build, error, message = BAD[case]
    _, a, b = _pair()
    with pytest.raises(error, match=message):
        build(a, b)


SETTERS = [
    (lambda a, b: PrismaticJoint(a, b, (0, 0), (1, 0), lower=-1, upper=1), "upper", -2.0),
    (lambda a, b: PrismaticJoint(a, b, (0, 0), (1, 0)), "max_motor_force", -1.0),
    (lambda a, b: WheelJoint(a, b, (0, 0), (0, 1)), "frequency", 0.0),
    (lambda a, b: WheelJoint(a, b, (0, 0), (0, 1)), "damping", math.nan),
    (lambda a, b: RopeJoint(a, b, (0, 0), (1, 0)), "length", 0.0),
    (lambda a, b: AngularSpring(a, b, 1.0), "rest_angle", "1"),
    (lambda a, b: MotorJoint(a, b), "correction", 1.5),
    (lambda a, b: MotorJoint(a, b), "linear_offset", (math.inf, 0)),
    (lambda a, b: MotorJoint(a, b), "max_torque", -1.0),
]


@pytest.mark.parametrize("index", range(len(SETTERS)))
def test_a_refused_setting_names_itself_and_leaves_the_world_unchanged(index):
    build, name, value = SETTERS[index]
    world, a, b = _pair()
    joint = world.add_joint(build(a, b))
    world.step()
    before = {key: value.copy() for key, value in world._joints.columns().items()}
    with pytest.raises((ValueError, TypeError), match=f"^{name}: "):
        setattr(joint, name, value)
    for key, column in world._joints.columns().items():
        assert np.array_equal(column, before[key]), key


def test_settings_read_back_and_the_bodies_sleep_together():
    world = World()
    world.add_body(Box(20, 1), position=(0, -0.5), kind="static")
    chassis, wheels, joints = build_car(world, 0.0, 1.45, damping=0.7)
    joints[0].motor_speed = -1.0
    joints[0].max_motor_torque = 3.0
    assert (joints[0].motor_speed, joints[0].max_motor_torque) == (-1.0, 3.0)
    joints[0].motor_speed = 0.0
    joints[0].max_motor_torque = 0.0
    assert joints[1].axis.tolist() == [0.0, 1.0] and joints[1].frequency == 2.0
    run_for(world, 4.0)
    assert not chassis.awake and not any(wheel.awake for wheel in wheels)
    joints[1].damping = 0.5  # a change wakes the island
    assert chassis.awake and all(wheel.awake for wheel in wheels)
