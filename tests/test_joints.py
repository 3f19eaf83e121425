"""Joints against physics: pendulum periods, chains, motors, limits, springs, ragdolls,
conservation laws over random joined pairs, and the API's errors."""

from __future__ import annotations

import math

import numpy as np
import pytest
from builders import DT, G, run_for
from hypothesis import assume, given
from hypothesis import strategies as st

from engine import (
    Box,
    Circle,
    DistanceJoint,
    MouseJoint,
    RevoluteJoint,
    WeldJoint,
    World,
)


def crossings(times: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Times where ``values`` crosses zero going down, linearly interpolated."""
    down = np.flatnonzero((values[:-1] > 0.0) & (values[1:] <= 0.0))
    fraction = values[down] / (values[down] - values[down + 1])
    return times[down] + fraction * (times[down + 1] - times[down])


def measured_period(world: World, body, seconds: float, axis: int = 0, centre=0.0) -> float:
    values = []
    run_for(world, seconds, lambda: values.append(body.position[axis] - centre))
    times = world.dt * np.arange(1, len(values) + 1)
    return float(np.diff(crossings(times, np.array(values))).mean())


# -- pendulums ------------------------------------------------------------------------------
@pytest.mark.parametrize("length", [0.5, 1.0, 2.0])
@pytest.mark.parametrize("joint", ["revolute", "rod"])
@pytest.mark.usefixtures("both_solvers")
def test_small_swings_of_a_pendulum_have_period_two_pi_sqrt_l_over_g(length, joint):
    world = World(sleep=False)
    swing = 0.05  # rad: the large-amplitude correction (1 + swing^2 / 16) is 0.02%
    bob = world.add_body(
        Circle(0.02), position=(length * math.sin(swing), -length * math.cos(swing))
    )
    if joint == "revolute":
        world.add_joint(RevoluteJoint(bob, None, anchor=(0, 0)))
    else:
        world.add_joint(DistanceJoint(bob, None, bob.position, (0, 0)))
    period = measured_period(world, bob, 6.0 * length**0.5 + 2.0)
    assert period == pytest.approx(2 * math.pi * math.sqrt(length / G), rel=0.01)
    # Tighter, against the compound pendulum: the disc turns with a revolute arm (its own
    # inertia m r^2 / 2 adds), and it does not turn on a rod's pin.
    r = 0.02
    own = r * r / 2 if joint == "revolute" else 0.0
    exact = 2 * math.pi * math.sqrt((length**2 + own) / (G * length)) * (1 + swing**2 / 16)
    assert period == pytest.approx(exact, rel=0.002)


def test_a_pendulum_keeps_its_length_and_energy():
    world = World(sleep=False)
    bob = world.add_body(Circle(0.05), position=(1.0, 0.0))  # released horizontal
    world.add_joint(RevoluteJoint(bob, None, anchor=(0, 0)))
    mass, inertia, h = bob.mass, bob.inertia, world.dt
    worst_length, energies = 0.0, []

    def measure():
        nonlocal worst_length
        worst_length = max(worst_length, abs(np.hypot(*bob.position) - 1.0))
        v, w = bob.velocity, bob.angular_velocity
        energy = 0.5 * mass * v @ v + 0.5 * inertia * w * w + mass * G * bob.position[1]
        # Symplectic Euler keeps E + (h / 2) F.v (exactly so in free fall), not E itself:
        # E alone wobbles by h/2 m g v within each swing.
        energies.append(energy - 0.5 * h * mass * G * v[1])

    run_for(world, 20.0, measure)
    assert worst_length < 0.001
    energies = np.array(energies) / (mass * G)  # as a height, m
    assert np.ptp(energies) < 0.005
    # No drift: the first two seconds and the last two have the same mean energy.
    assert abs(energies[-120:].mean() - energies[:120].mean()) < 0.001


def test_a_chain_of_twenty_links_hangs_without_stretching_more_than_one_percent():
    world = World(sleep=False)
    links, previous, link = [], None, 0.5
    for i in range(20):
        body = world.add_body(Box(0.1, link), position=(0, -link / 2 - link * i))
        world.add_joint(RevoluteJoint(body, previous, anchor=(0, -link * i)))
        links.append(body)
        previous = body
    nominal = 20 * link
    worst = 0.0

    def measure():
        nonlocal worst
        bottom = links[-1].position[1] - link / 2 * math.cos(links[-1].angle)
        worst = max(worst, (-bottom - nominal) / nominal)

    run_for(world, 5.0, measure)
    assert worst < 0.01
    gaps = [np.hypot(*(joint.anchor_a - joint.anchor_b)) for joint in world.joints]
    assert sum(gaps) < 0.001 * nominal  # at rest the pivots have closed


def test_a_swinging_chain_stays_within_one_percent_of_its_length():
    world = World(sleep=False)
    previous, link = None, 0.5
    for i in range(20):
        body = world.add_body(Box(link, 0.1), position=(link / 2 + link * i, 0))
        world.add_joint(RevoluteJoint(body, previous, anchor=(link * i, 0)))
        previous = body
    run_for(world, 6.0)
    gaps = sum(np.hypot(*(joint.anchor_a - joint.anchor_b)) for joint in world.joints)
    assert gaps < 0.01 * 20 * link


# -- motors and limits ----------------------------------------------------------------------
def test_a_motor_accelerates_at_its_torque_limit_then_holds_its_speed():
    world = World(gravity=(0, 0), sleep=False)
    wheel = world.add_body(Circle(0.5), position=(0, 0))
    torque, target = 0.2, 5.0
    axle = world.add_joint(
        RevoluteJoint(wheel, None, anchor=(0, 0), motor_speed=target, max_motor_torque=torque)
    )
    run_for(world, 1.0)
    # Torque-limited: w = T t / I exactly (one step's impulse T dt at a time).
    assert wheel.angular_velocity == pytest.approx(torque / wheel.inertia * 1.0, rel=1e-9)
    assert axle.motor_torque == pytest.approx(torque)
    run_for(world, 3.0)
    assert wheel.angular_velocity == pytest.approx(target, rel=1e-6)
    assert axle.speed == pytest.approx(target, rel=1e-6)


def test_a_motor_turns_a_wheel_that_drives_a_cart_against_gravity():
    world = World(sleep=False)
    world.add_body(Box(40, 1), position=(0, -0.5), kind="static")
    cart = world.add_body(Box(2, 0.4), position=(0, 0.9))
    wheels = [world.add_body(Circle(0.4), position=(x, 0.4), friction=1.0) for x in (-0.8, 0.8)]
    for wheel in wheels:
        world.add_joint(
            RevoluteJoint(cart, wheel, anchor=wheel.position, motor_speed=-4.0,
                          max_motor_torque=50.0)
        )  # fmt: skip
    run_for(world, 2.0)
    # Rolling without slipping: v = -w r, with w the wheels' spin (clockwise drives +x).
    assert cart.velocity[0] == pytest.approx(4.0 * 0.4, rel=1e-3)
    assert cart.position[0] > 1.5


@pytest.mark.parametrize("lower, upper", [(-0.5, 0.25), (-1.2, 0.0), (0.0, 0.0)])
def test_limits_hold_a_falling_arm(lower, upper):
    world = World(sleep=False)
    arm = world.add_body(Box(2, 0.2), position=(1, 0))
    hinge = world.add_joint(RevoluteJoint(arm, None, anchor=(0, 0), lower=lower, upper=upper))
    angles = []
    run_for(world, 3.0, lambda: angles.append(hinge.angle))
    slop = math.radians(2.5)
    assert min(angles) > lower - slop and max(angles) < upper + slop
    # It hangs on the lower limit at rest (gravity turns it clockwise).
    assert hinge.angle == pytest.approx(lower, abs=math.radians(2.5))
    assert abs(arm.angular_velocity) < 1e-3


def test_an_upper_limit_stops_a_motor():
    world = World(gravity=(0, 0), sleep=False)
    arm = world.add_body(Box(1, 0.1), position=(0.5, 0))
    hinge = world.add_joint(
        RevoluteJoint(arm, None, anchor=(0, 0), upper=1.0, motor_speed=3.0, max_motor_torque=10.0)
    )
    run_for(world, 2.0)
    assert hinge.angle == pytest.approx(1.0, abs=math.radians(2.5))
    assert abs(hinge.speed) < 1e-6


# -- springs --------------------------------------------------------------------------------
@pytest.mark.parametrize("frequency", [0.5, 1.0, 2.0, 4.0])
def test_an_undamped_spring_oscillates_at_its_frequency_and_keeps_its_amplitude(frequency):
    world = World(gravity=(0, 0), sleep=False)
    bob = world.add_body(Circle(0.1), position=(1.2, 0))
    world.add_joint(DistanceJoint(bob, None, (1.2, 0), (0, 0), length=1.0, frequency=frequency))
    samples = []
    run_for(world, 10.0, lambda: samples.append(bob.position[0] - 1.0))
    times = DT * np.arange(1, len(samples) + 1)
    period = np.diff(crossings(times, np.array(samples))).mean()
    # Symplectic Euler: the frequency is high by (w h)^2 / 24, 0.7% at 4 Hz and 60 Hz.
    w_h = 2 * math.pi * frequency * DT
    assert 1 / period == pytest.approx(frequency * (1 + w_h**2 / 24), rel=0.002)
    assert max(samples[-round(2 / frequency / DT) :]) == pytest.approx(0.2, rel=0.03)


def test_a_damped_spring_decays_at_its_damping_ratio():
    world = World(gravity=(0, 0), sleep=False)
    frequency, ratio = 1.0, 0.1
    bob = world.add_body(Circle(0.1), position=(1.2, 0))
    world.add_joint(
        DistanceJoint(bob, None, (1.2, 0), (0, 0), length=1.0, frequency=frequency, damping=ratio)
    )
    samples = []
    run_for(world, 6.0, lambda: samples.append(bob.position[0] - 1.0))
    samples = np.array(samples)
    peaks = np.flatnonzero((samples[1:-1] > samples[:-2]) & (samples[1:-1] >= samples[2:])) + 1
    # Successive peaks shrink by exp(-zeta w T_d), T_d = 1 / (f sqrt(1 - zeta^2)).
    decrement = np.log(samples[peaks[:-1]] / samples[peaks[1:]]).mean()
    expected = 2 * math.pi * ratio / math.sqrt(1 - ratio**2)
    assert decrement == pytest.approx(expected, rel=0.05)


def test_a_critically_damped_spring_does_not_overshoot():
    world = World(gravity=(0, 0), sleep=False)
    bob = world.add_body(Circle(0.1), position=(1.5, 0))
    world.add_joint(DistanceJoint(bob, None, (1.5, 0), (0, 0), length=1.0, frequency=2.0,
                                  damping=1.0))  # fmt: skip
    samples = []
    run_for(world, 3.0, lambda: samples.append(bob.position[0] - 1.0))
    assert min(samples) > -1e-3
    assert samples[-1] < 1e-3


def test_a_stiff_spring_is_stable_and_loses_energy():
    world = World(gravity=(0, 0), sleep=False)
    bob = world.add_body(Circle(0.1), position=(1.2, 0))
    world.add_joint(DistanceJoint(bob, None, (1.2, 0), (0, 0), length=1.0, frequency=30.0))
    samples = []
    run_for(world, 2.0, lambda: samples.append(abs(bob.position[0] - 1.0)))
    assert max(samples) <= 0.2 + 1e-9
    assert samples[-1] < 0.2


# -- welds, mouse -----------------------------------------------------------------------------
def test_welded_bodies_keep_their_relative_pose_when_they_land():
    world = World(sleep=False)
    world.add_body(Box(20, 1), position=(0, -0.5), kind="static")
    a = world.add_body(Box(1, 1), position=(0, 3), angle=0.3)
    b = world.add_body(Box(2, 0.3), position=(1.2, 3.4), angle=0.3)
    world.add_joint(WeldJoint(a, b, anchor=(0.6, 3.3)))

    def relative():
        c, s = math.cos(-a.angle), math.sin(-a.angle)
        d = b.position - a.position
        return np.array([c * d[0] - s * d[1], s * d[0] + c * d[1], b.angle - a.angle])

    start = relative()
    worst = 0.0

    def measure():
        nonlocal worst
        worst = max(worst, float(np.abs(relative() - start).max()))

    run_for(world, 3.0, measure)
    assert worst < 0.02
    assert np.abs(relative() - start).max() < 0.002


def test_a_welded_pair_spins_like_one_rigid_body():
    world = World(gravity=(0, 0), sleep=False)
    a = world.add_body(Box(1, 1), position=(-0.5, 0))
    b = world.add_body(Box(1, 1), position=(0.5, 0))
    world.add_joint(WeldJoint(a, b, anchor=(0, 0)))
    for body in (a, b):
        body.angular_velocity = 2.0
        body.velocity = (0.0, 2.0 * body.position[0])  # rigid rotation about the origin
    run_for(world, 2.0)
    assert a.angular_velocity == pytest.approx(2.0, rel=1e-3)
    assert np.hypot(*a.position) == pytest.approx(0.5, abs=2e-3)


def test_a_mouse_joint_pulls_a_body_to_its_target():
    world = World(sleep=False)
    world.add_body(Box(20, 1), position=(0, -0.5), kind="static")
    crate = world.add_body(Box(1, 1), position=(0, 0.5))
    pull = world.add_joint(MouseJoint(crate, target=(0, 1.0), max_force=1000.0))
    pull.target = (3.0, 4.0)
    run_for(world, 2.0)
    np.testing.assert_allclose(pull.anchor_a, (3.0, 4.0), atol=0.05)


def test_a_mouse_joint_pulls_with_no_more_than_its_force():
    world = World(gravity=(0, 0), sleep=False)
    crate = world.add_body(Box(1, 1), position=(0, 0), density=10.0)  # 10 kg
    world.add_joint(MouseJoint(crate, target=(0, 0), max_force=20.0)).target = (100.0, 0.0)
    run_for(world, 1.0)
    # At most 20 N on 10 kg: at most 2 m/s after 1 s, and the cap is reached.
    assert crate.velocity[0] == pytest.approx(2.0, rel=1e-9)


# -- whole scenes ---------------------------------------------------------------------------
# Joint friction of the ragdoll's hinges, N m, as a motor held at zero speed. Without it a
# limb left dangling is a frictionless pendulum and swings for ever, whatever the engine.
HINGE_FRICTION = 0.05


def ragdoll(world: World, x: float, y: float) -> list:
    """A ragdoll standing at (x, y) (its feet): head, torso, arms and legs in two parts,
    with a little friction in every hinge."""
    parts = {
        "torso": (Box(0.4, 0.7), (x, y + 1.25)),
        "head": (Circle(0.15), (x, y + 1.78)),
        "upper_arm_l": (Box(0.12, 0.35), (x - 0.28, y + 1.42)),
        "lower_arm_l": (Box(0.1, 0.35), (x - 0.28, y + 1.07)),
        "upper_arm_r": (Box(0.12, 0.35), (x + 0.28, y + 1.42)),
        "lower_arm_r": (Box(0.1, 0.35), (x + 0.28, y + 1.07)),
        "thigh_l": (Box(0.15, 0.45), (x - 0.1, y + 0.68)),
        "shin_l": (Box(0.12, 0.45), (x - 0.1, y + 0.23)),
        "thigh_r": (Box(0.15, 0.45), (x + 0.1, y + 0.68)),
        "shin_r": (Box(0.12, 0.45), (x + 0.1, y + 0.23)),
    }
    body = {name: world.add_body(shape, position=at) for name, (shape, at) in parts.items()}
    joints = [
        ("torso", "head", (x, y + 1.62), -0.5, 0.5),
        ("torso", "upper_arm_l", (x - 0.28, y + 1.58), -2.5, 0.5),
        ("upper_arm_l", "lower_arm_l", (x - 0.28, y + 1.25), -2.0, 0.0),
        ("torso", "upper_arm_r", (x + 0.28, y + 1.58), -0.5, 2.5),
        ("upper_arm_r", "lower_arm_r", (x + 0.28, y + 1.25), 0.0, 2.0),
        ("torso", "thigh_l", (x - 0.1, y + 0.9), -1.5, 0.5),
        ("thigh_l", "shin_l", (x - 0.1, y + 0.45), 0.0, 2.0),
        ("torso", "thigh_r", (x + 0.1, y + 0.9), -0.5, 1.5),
        ("thigh_r", "shin_r", (x + 0.1, y + 0.45), -2.0, 0.0),
    ]
    for a, b, anchor, lower, upper in joints:
        world.add_joint(
            RevoluteJoint(
                body[a], body[b], anchor=anchor, lower=lower, upper=upper,
                max_motor_torque=HINGE_FRICTION,
            )
        )  # fmt: skip
    return list(body.values())


@pytest.mark.parametrize("spin", [0.5, 2.0, 3.5])
def test_a_ragdoll_falls_onto_the_ground_without_exploding(spin):
    world = World()
    world.add_body(Box(40, 1), position=(0, -0.5), kind="static")
    bodies = ragdoll(world, 0.0, 4.0)
    bodies[0].angular_velocity = spin  # tumble on the way down
    drop = 4.0 + 1.0
    worst_speed, worst_gap = 0.0, 0.0

    def measure():
        nonlocal worst_speed, worst_gap
        worst_speed = max(worst_speed, float(np.hypot(*world.velocities.T).max()))
        worst_gap = max(worst_gap, max(np.hypot(*(j.anchor_a - j.anchor_b)) for j in world.joints))

    run_for(world, 5.0, measure)
    # Nothing moves faster than a free fall from its height would make it (plus the spin).
    assert worst_speed < math.sqrt(2 * G * drop) + 2.0 * 0.6
    assert worst_gap < 0.05
    # It comes to rest on the ground, in one piece, and falls asleep.
    assert all(0.0 < body.position[1] < 1.5 for body in bodies)
    assert not world.awake[1:].any()
    for joint in world.joints:
        assert np.hypot(*(joint.anchor_a - joint.anchor_b)) < 0.01
        assert joint.lower - math.radians(3) <= joint.angle <= joint.upper + math.radians(3)


def sagging_pivots(count: int, link: float, span: float) -> np.ndarray:
    """(count + 1, 2) pivots of ``count`` links of length ``link`` hanging between two
    points ``span`` apart at height 0, on a circular arc: equal chords of one circle."""
    low, high = 1e-6, math.pi / 2  # half the arc's angle: sin(a) / sin(a / count) = ...
    for _ in range(100):
        half = 0.5 * (low + high)
        if math.sin(half) / math.sin(half / count) > span / link:
            low = half
        else:
            high = half
    radius = span / (2 * math.sin(half))
    angles = np.linspace(-half, half, count + 1)
    return np.column_stack([radius * np.sin(angles), radius * (math.cos(half) - np.cos(angles))])


def test_a_rope_bridge_holds_a_crate():
    world = World()
    pivots = sagging_pivots(10, 1.0, 9.0) + (0.0, 1.0)
    posts = [world.add_body(Box(0.4, 2), position=(x, 0), kind="static") for x in (-4.7, 4.7)]
    previous = posts[0]
    for start, end in zip(pivots[:-1], pivots[1:]):
        centre, d = (start + end) / 2, end - start
        plank = world.add_body(Box(1.0, 0.2), position=centre, angle=math.atan2(d[1], d[0]))
        world.add_joint(RevoluteJoint(previous, plank, anchor=start))
        previous = plank
    world.add_joint(RevoluteJoint(previous, posts[1], anchor=pivots[-1]))
    crate = world.add_body(Box(0.8, 0.8), position=(0, 3), density=5.0)
    run_for(world, 8.0)
    # It sags under the crate but holds it, and each pivot stays closed. (Nothing damps
    # the joints, so it still sways a little: rest is not asked for.)
    assert pivots[:, 1].min() - 1.5 < crate.position[1] < pivots[:, 1].min() + 1.0
    assert max(np.hypot(*(j.anchor_a - j.anchor_b)) for j in world.joints) < 0.01


# -- conservation laws over random joined pairs ---------------------------------------------
@st.composite
def joined_pairs(draw):
    kind = draw(st.sampled_from(["revolute", "distance", "weld", "spring"]))
    size = st.floats(0.2, 2.0)
    speed = st.floats(-5.0, 5.0)
    poses = [(draw(st.floats(-1, 1)), draw(st.floats(-1, 1)), draw(st.floats(-3, 3))) for _ in "ab"]
    shapes = [Box(draw(size), draw(size)) for _ in "ab"]
    motion = [(draw(speed), draw(speed), draw(speed)) for _ in "ab"]
    density = [draw(st.floats(0.1, 10.0)) for _ in "ab"]
    anchor = (draw(st.floats(-1, 1)), draw(st.floats(-1, 1)))
    return kind, poses, shapes, motion, density, anchor


def momenta(world: World) -> tuple:
    bodies = world.bodies
    mass = np.array([b.mass for b in bodies])
    linear = (mass[:, None] * world.velocities).sum(axis=0)
    r, v = world.positions, world.velocities
    spin = np.array([b.inertia for b in bodies]) * world.angular_velocities
    angular = float((mass * (r[:, 0] * v[:, 1] - r[:, 1] * v[:, 0]) + spin).sum())
    return linear, angular


@given(joined_pairs())
@pytest.mark.usefixtures("both_solvers")
def test_a_joint_conserves_the_pairs_momentum_and_holds_them_together(case):
    kind, poses, shapes, motion, density, anchor = case
    world = World(gravity=(0, 0), sleep=False)
    bodies = [
        world.add_body(shape, position=pose[:2], angle=pose[2], velocity=m[:2],
                       angular_velocity=m[2], density=d)
        for shape, pose, m, d in zip(shapes, poses, motion, density)
    ]  # fmt: skip
    a, b = bodies
    if kind == "revolute":
        joint = RevoluteJoint(a, b, anchor=anchor)
    elif kind == "weld":
        joint = WeldJoint(a, b, anchor=anchor)
    else:
        frequency = 1.0 if kind == "spring" else 0.0
        # A rod much shorter than a step's relative motion spins round by radians per
        # step, which no step-linearised solver follows: keep to turns below ~0.5 rad.
        assume(np.hypot(*(b.position - np.array(anchor))) > 0.6)
        joint = DistanceJoint(a, b, anchor, b.position, frequency=frequency)
    world.add_joint(joint)
    linear0, angular0 = momenta(world)
    run_for(world, 1.0)
    linear, angular = momenta(world)
    # Joint impulses are equal and opposite at one point: no net force, no net torque.
    # (Positional correction moves positions, not velocities, but the angular momentum
    # about the origin depends on the positions too: a small drift is allowed.)
    scale = 1.0 + float(np.abs(linear0).max()) + abs(angular0)
    np.testing.assert_allclose(linear, linear0, atol=1e-9 * scale)
    assert angular == pytest.approx(angular0, abs=0.02 * scale)
    if kind in ("revolute", "weld"):
        assert np.hypot(*(joint.anchor_a - joint.anchor_b)) < 0.02
    if kind == "distance":
        assert joint.current_length == pytest.approx(joint.length, abs=0.02)


# -- the world's bookkeeping ----------------------------------------------------------------
def test_joined_bodies_do_not_collide_unless_the_joint_says_so():
    for collide, apart in ((False, False), (True, True)):
        world = World(gravity=(0, 0), sleep=False)
        a = world.add_body(Box(1, 1), position=(0, 0))
        b = world.add_body(Box(1, 1), position=(0.5, 0))  # half overlapping
        world.add_joint(DistanceJoint(a, b, (0, 0), (0.5, 0), frequency=0.5, damping=0.0,
                                      collide_connected=collide))  # fmt: skip
        run_for(world, 0.5)
        assert (len(world.contacts) > 0) == apart


def test_removing_a_body_removes_its_joints_and_wakes_what_they_held():
    world = World()
    world.add_body(Box(20, 1), position=(0, -0.5), kind="static")
    a = world.add_body(Box(1, 1), position=(0, 3))
    b = world.add_body(Box(1, 1), position=(1.5, 3))
    c = world.add_body(Box(1, 1), position=(3, 3))
    first = world.add_joint(RevoluteJoint(a, b, anchor=(0.75, 3)))
    second = world.add_joint(DistanceJoint(b, c, b.position, c.position))
    third = world.add_joint(RevoluteJoint(a, None, anchor=(0, 3.5)))
    world.remove(b)
    assert world.joints == [third]
    assert first.world is None and second.world is None
    with pytest.raises(ValueError, match="removed"):
        first.anchor_a  # noqa: B018
    run_for(world, 1.0)
    assert c.position[1] < 1.0  # nothing holds it any more


def test_remove_joint_lets_the_body_fall_and_a_second_removal_raises():
    world = World()
    bob = world.add_body(Circle(0.1), position=(0, -1))
    pin = world.add_joint(RevoluteJoint(bob, None, anchor=(0, 0)))
    run_for(world, 2.0)
    assert not bob.awake  # a pendulum at rest sleeps
    world.remove_joint(pin)
    assert bob.awake and world.joints == []
    run_for(world, 0.5)
    assert bob.position[1] < -2.0
    with pytest.raises(ValueError, match="already been removed"):
        world.remove_joint(pin)


def test_joined_bodies_sleep_and_wake_together():
    world = World()
    world.add_body(Box(20, 1), position=(0, -0.5), kind="static")
    a = world.add_body(Box(1, 1), position=(-2, 0.5))
    b = world.add_body(Box(1, 1), position=(2, 0.5))
    rope = world.add_joint(DistanceJoint(a, b, a.position, b.position))
    run_for(world, 2.0)
    assert not a.awake and not b.awake
    b.apply_impulse((0, 3))  # only b is touched: its island, a included, wakes
    assert a.awake and b.awake
    run_for(world, 3.0)
    assert not a.awake
    rope.length = 3.0  # changing a joint wakes its bodies
    assert a.awake and b.awake
    run_for(world, 2.0)
    assert rope.current_length == pytest.approx(3.0, abs=0.01)


def test_setting_a_mouse_target_wakes_the_body():
    world = World()
    world.add_body(Box(20, 1), position=(0, -0.5), kind="static")
    crate = world.add_body(Box(1, 1), position=(0, 0.5))
    pull = world.add_joint(MouseJoint(crate, target=(0, 0.5)))
    run_for(world, 2.0)
    assert not crate.awake
    pull.target = (0, 3)
    assert crate.awake


def test_joints_added_and_removed_by_a_presolve_handler_take_effect_after_the_step():
    world = World(sleep=False)
    floor = world.add_body(Box(20, 1), position=(0, -0.5), kind="static")
    crate = world.add_body(Box(1, 1), position=(0, 0.6))
    added = []

    @world.on("presolve")
    def grab(contact):
        if not added:
            added.append(world.add_joint(RevoluteJoint(crate, None, anchor=(0, 3))))
            assert world.joints == []  # not during the step
        elif len(added) == 1:
            world.remove_joint(added[0])
            added.append(None)
            assert world.joints == [added[0]]  # still there until the step ends
        return None

    world.step()
    assert world.joints == added
    world.step()
    assert world.joints == []
    world.off("presolve", grab)
    world.add_joint(RevoluteJoint(crate, None, anchor=(0, 3)))
    world.remove(floor)
    run_for(world, 1.0)
    assert crate.position[1] > 0.5  # the joint holds it up


def test_joint_properties_read_and_write():
    world = World()
    a = world.add_body(Box(1, 1), position=(0, 0))
    hinge = RevoluteJoint(a, None, anchor=(0.5, 0.5), lower=-1.0, motor_speed=2.0)
    assert hinge.lower == -1.0 and hinge.upper is None and hinge.world is None
    hinge.upper = 1.0
    world.add_joint(hinge)
    assert hinge.world is world and hinge.body_a is a and hinge.body_b is None
    assert hinge.upper == 1.0 and hinge.motor_speed == 2.0 and hinge.angle == 0.0
    np.testing.assert_allclose(hinge.anchor_a, (0.5, 0.5))
    np.testing.assert_allclose(hinge.anchor_b, (0.5, 0.5))
    hinge.lower = None
    assert hinge.lower is None
    rod = world.add_joint(DistanceJoint(a, None, (0, 0), (3, 4)))
    assert rod.length == pytest.approx(5.0) and rod.frequency == 0.0


@pytest.mark.parametrize(
    "build, error, message",
    [
        (lambda a, b: RevoluteJoint("a", b, (0, 0)), TypeError, "body_a"),
        (lambda a, b: RevoluteJoint(a, 3, (0, 0)), TypeError, "body_b"),
        (lambda a, b: RevoluteJoint(a, a, (0, 0)), ValueError, "body_b"),
        (lambda a, b: RevoluteJoint(a, b, (0, np.nan)), ValueError, "anchor"),
        (lambda a, b: RevoluteJoint(a, b, (0, 0), lower=1.0, upper=0.0), ValueError, "lower"),
        (lambda a, b: RevoluteJoint(a, b, (0, 0), max_motor_torque=-1), ValueError, "max_motor"),
        (lambda a, b: RevoluteJoint(a, b, (0, 0), collide_connected=1), TypeError, "collide"),
        (lambda a, b: DistanceJoint(a, b, (0, 0), (0, 0)), ValueError, "length"),
        (lambda a, b: DistanceJoint(a, b, (0, 0), (1, 0), length=-1.0), ValueError, "length"),
        (lambda a, b: DistanceJoint(a, b, (0, 0), (1, 0), frequency=-1), ValueError, "frequency"),
        (lambda a, b: DistanceJoint(a, b, (0, 0), (1, 0), damping=np.inf), ValueError, "damping"),
        (lambda a, b: WeldJoint(a, b, "here"), TypeError, "anchor"),
        (lambda a, b: MouseJoint(a, (0, 0), max_force=-5.0), ValueError, "max_force"),
        (lambda a, b: MouseJoint(a, (0, 0), frequency=0.0), ValueError, "frequency"),
    ],
)
def test_bad_joint_arguments_raise_naming_the_argument(build, error, message):
    world = World()
    a = world.add_body(Box(1, 1))
    b = world.add_body(Box(1, 1), position=(2, 0))
    with pytest.raises(error, match=message):
        build(a, b)


def test_add_joint_refuses_bad_joints_and_leaves_the_world_unchanged():
    world, other = World(), World()
    a = world.add_body(Box(1, 1))
    ground = world.add_body(Box(5, 1), position=(0, -2), kind="static")
    wall = world.add_body(Box(1, 5), position=(4, 0), kind="static")
    stranger = other.add_body(Box(1, 1))
    joint = world.add_joint(RevoluteJoint(a, ground, anchor=(0, -1)))
    cases = [
        ("not a joint", TypeError, "joint"),
        (joint, ValueError, "already"),
        (RevoluteJoint(a, stranger, anchor=(0, 0)), ValueError, "body_b: it belongs to another"),
        (WeldJoint(ground, wall, anchor=(2, 0)), ValueError, "dynamic"),
    ]
    removed = world.add_body(Box(1, 1), position=(0, 5))
    late = RevoluteJoint(a, removed, anchor=(0, 4))
    world.remove(removed)
    cases.append((late, ValueError, "body_b: it has been removed"))
    for bad, error, message in cases:
        with pytest.raises(error, match=message):
            world.add_joint(bad)
        assert world.joints == [joint]
    with pytest.raises(ValueError, match="not in this world"):
        world.remove_joint(RevoluteJoint(a, None, anchor=(0, 0)))
    with pytest.raises(ValueError, match="not been added"):
        RevoluteJoint(a, None, anchor=(0, 0)).angle  # noqa: B018


def test_block_inverse_is_exact_and_gives_zero_for_singular_or_broken_blocks():
    from engine.joint_geometry import inverse3

    blocks = np.random.default_rng(7).normal(size=(20, 3, 3))
    blocks[4] = 0.0  # two static bodies
    blocks[9, 1, 1] = np.inf  # a body thrown to infinity
    inverse = np.empty_like(blocks)
    for block, out in zip(blocks, inverse):
        inverse3(block, out)
    fine = [i for i in range(20) if i not in (4, 9)]
    np.testing.assert_allclose(
        inverse[fine] @ blocks[fine], np.broadcast_to(np.eye(3), (18, 3, 3)), atol=1e-9
    )
    assert not inverse[[4, 9]].any()


def test_readings_that_need_a_world_raise_before_the_joint_is_added():
    world = World()
    arm = world.add_body(Box(1, 0.1), position=(0.5, 0))
    hinge = RevoluteJoint(arm, None, anchor=(0, 0), max_motor_torque=1.0)
    for reading in ("reaction_force", "motor_torque", "speed", "angle", "anchor_a"):
        with pytest.raises(ValueError, match="not been added"):
            getattr(hinge, reading)
    assert hinge.max_motor_torque == 1.0  # settings read back before adding


def test_a_joint_copied_with_its_world_works_in_the_copy():
    import copy

    world = World(sleep=False)
    bob = world.add_body(Circle(0.1), position=(1, 0))
    pin = world.add_joint(RevoluteJoint(bob, None, anchor=(0, 0)))
    twin, twin_pin = copy.deepcopy((world, pin))
    run_for(twin, 0.5)
    assert twin_pin.world is twin
    assert twin_pin.angle == pytest.approx(twin.bodies[0].angle)
    assert pin.angle == 0.0  # the original did not move


def test_speed_reads_the_joints_own_bodies_among_many_joints():
    world = World(gravity=(0, 0), sleep=False)
    a = world.add_body(Box(1, 1), position=(0, 0), angular_velocity=1.0)
    b = world.add_body(Box(1, 1), position=(3, 0), angular_velocity=-2.0)
    c = world.add_body(Box(1, 1), position=(6, 0), angular_velocity=0.5)
    first = world.add_joint(RevoluteJoint(b, None, anchor=(3, 0)))
    second = world.add_joint(RevoluteJoint(a, c, anchor=(3, 0), collide_connected=True))
    assert first.speed == -2.0  # slot A is the world, slot B is b
    assert second.speed == 0.5 - 1.0  # c relative to a


@pytest.mark.parametrize("frequency", [1e-300, 5e-324])
def test_a_mouse_joint_too_weak_to_pull_leaves_the_body_alone(frequency):
    world = World(gravity=(0, 0), sleep=False)
    crate = world.add_body(Box(1, 1), velocity=(1.0, 0.0))
    world.add_joint(MouseJoint(crate, target=(5, 5), frequency=frequency, damping=0.0))
    run_for(world, 0.5)
    # Practically no spring: the crate keeps drifting, nothing turns NaN or rigid.
    np.testing.assert_allclose(crate.velocity, (1.0, 0.0))
    np.testing.assert_allclose(crate.position, (0.5, 0.0))
