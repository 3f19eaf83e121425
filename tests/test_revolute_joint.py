"""Revolute joint: pendulum periods, chains, motors, limits, ragdolls and a rope bridge."""

from __future__ import annotations

import math

import numpy as np
import pytest
from builders import G, integration_step, measured_period, ragdoll, run_for

from engine import Box, Circle, DistanceJoint, RevoluteJoint, World


# -- pendulums ------------------------------------------------------------------------------
# (The rod, a DistanceJoint of length L, swings as the same simple pendulum: the two are
# measured side by side.)
@pytest.mark.parametrize("length", [0.5, 1.0, 2.0])
@pytest.mark.parametrize("joint", ["revolute", "rod"])
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
    mass, inertia, h = bob.mass, bob.inertia, integration_step(world)
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


def test_speed_reads_the_joints_own_bodies_among_many_joints():
    world = World(gravity=(0, 0), sleep=False)
    a = world.add_body(Box(1, 1), position=(0, 0), angular_velocity=1.0)
    b = world.add_body(Box(1, 1), position=(3, 0), angular_velocity=-2.0)
    c = world.add_body(Box(1, 1), position=(6, 0), angular_velocity=0.5)
    first = world.add_joint(RevoluteJoint(b, None, anchor=(3, 0)))
    second = world.add_joint(RevoluteJoint(a, c, anchor=(3, 0), collide_connected=True))
    assert first.speed == -2.0  # slot A is the world, slot B is b
    assert second.speed == 0.5 - 1.0  # c relative to a


# -- whole scenes ---------------------------------------------------------------------------
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
