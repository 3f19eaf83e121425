"""Joints of every kind: momentum over random joined pairs, adding and removing, sleeping,
collision between joined bodies, saved copies, and the checks on arguments and settings."""

from __future__ import annotations

import math

import numpy as np
import pytest
from builders import run_for
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine import (
    AngularSpring,
    Box,
    Circle,
    DistanceJoint,
    GearJoint,
    MotorJoint,
    MouseJoint,
    PrismaticJoint,
    RevoluteJoint,
    RopeJoint,
    WeldJoint,
    WheelJoint,
    World,
)
from engine.settings import LINEAR_SLOP


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


@pytest.mark.xfail(
    strict=True,
    reason="known limitation (docs/joints.md): a rod anchored far outside a light body "
    "breaks when lever and rod come into line as it snaps taut",
)
def test_a_rod_snapping_taut_on_a_light_body_keeps_its_length():
    # Found by the test below with a random seed: a 44 g box whose rod is anchored 2.2 m
    # from its centre, to a 1 kg box moving off at 4.5 m/s.
    world = World(gravity=(0, 0), sleep=False)
    light = world.add_body(Box(0.21875, 0.203125), position=(1.0, 1.0))
    heavy = world.add_body(Box(1.0, 1.0), position=(0.0, 0.0), velocity=(-4.0, 2.0))
    rod = world.add_joint(DistanceJoint(light, heavy, (-1.0, 0.0), heavy.position))
    widest = 0.0
    for _ in range(60):
        world.step()
        widest = max(widest, abs(rod.current_length - rod.length))
    assert widest < 0.02


def momenta(world: World) -> tuple:
    bodies = world.bodies
    mass = np.array([b.mass for b in bodies])
    linear = (mass[:, None] * world.velocities).sum(axis=0)
    r, v = world.positions, world.velocities
    spin = np.array([b.inertia for b in bodies]) * world.angular_velocities
    angular = float((mass * (r[:, 0] * v[:, 1] - r[:, 1] * v[:, 0]) + spin).sum())
    return linear, angular


@given(joined_pairs())
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
    # A rope needs anchors apart: at one point it has no length (RopeJoint says so).
    assume(kind != "rope" or np.hypot(*(point - a.position)) > 0.0)
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
        # Ropes are corrected on positions leaving the world's slop (docs/joints.md), and
        # no more: a 0.25 m rope to a spinning disc sat at 0.255 m, 2 % long, the slop to
        # the last bit or two.
        assert joint.current_length < max(length * 1.01, length + LINEAR_SLOP * (1 + 1e-9))
    if kind == "gear":
        assert abs(joint.error) < 1e-6


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


# -- the API ---------------------------------------------------------------------------------
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
    # A limit may never pass the other one; a refused write changes nothing.
    with pytest.raises(ValueError, match=r"upper: must be >= lower \(-0.5\), got -0.6"):
        hinge.lower = -0.5
        hinge.upper = -0.6
    with pytest.raises(ValueError, match=r"lower: must be <= upper \(1.0\), got 1.5"):
        hinge.lower = 1.5
    assert (hinge.lower, hinge.upper) == (-0.5, 1.0)
    rod = world.add_joint(DistanceJoint(a, None, (0, 0), (3, 4)))
    assert rod.length == pytest.approx(5.0) and rod.frequency == 0.0


def test_readings_that_need_a_world_raise_before_the_joint_is_added():
    world = World()
    arm = world.add_body(Box(1, 0.1), position=(0.5, 0))
    hinge = RevoluteJoint(arm, None, anchor=(0, 0), max_motor_torque=1.0)
    for reading in ("reaction_force", "motor_torque", "speed", "angle", "anchor_a"):
        with pytest.raises(ValueError, match="not been added"):
            getattr(hinge, reading)
    assert hinge.max_motor_torque == 1.0  # settings read back before adding


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
