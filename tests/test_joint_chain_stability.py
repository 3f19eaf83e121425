"""A fuzzer of the sub-stepped solver's joints: random chains of 2 to 6 bodies.

Boxes and circles of random sizes and densities, at random poses, moving and spinning,
each neighbouring pair joined by a joint of any of the ten kinds, with random anchors
(often outside both bodies) and random limits, motors and springs; sometimes one body is
static, sometimes one is joined to the world too. No gravity, no sleep, 200 steps at 1, 2
or 4 sub-steps. What must hold: every number stays finite, a static body never moves,
and a chain held by nothing outside itself keeps its linear momentum to rounding.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
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

STEPS = 200
KINDS = (
    "revolute", "rod", "spring", "weld", "mouse", "prismatic", "wheel", "rope",
    "angular_spring", "gear", "motor",
)  # fmt: skip
# Kinds that may hold a body to the world (body_b None).
WORLD_KINDS = ("revolute", "rod", "spring", "weld", "prismatic", "rope", "motor", "mouse")
# Linear momentum kept to this share of the chain's momentum scale (sum of |m v| or of
# the joints' impulses, and at least its mass at FLOOR_SPEED: ``momentum``): the solver's
# impulses are equal and opposite, so only rounding may change the sum. The floor keeps a
# chain at rest (overlapping bodies pushed apart at 1e-19 m/s) from being judged on the
# rounding of nothing.
MOMENTUM_ROUNDING = 1e-9
FLOOR_SPEED = 1e-6  # m/s

places = st.floats(-3.0, 3.0)
points = st.tuples(st.floats(-4.0, 4.0), st.floats(-4.0, 4.0))
speeds = st.floats(-5.0, 5.0)


@st.composite
def bodies(draw) -> dict:
    """One body's shape, density and motion."""
    if draw(st.booleans()):
        shape = ("box", draw(st.floats(0.1, 2.0)), draw(st.floats(0.1, 2.0)))
    else:
        shape = ("circle", draw(st.floats(0.05, 1.0)))
    return {
        "shape": shape,
        "density": draw(st.floats(0.1, 10.0)),
        "position": (draw(places), draw(places)),
        "angle": draw(st.floats(-math.pi, math.pi)),
        "velocity": (draw(speeds), draw(speeds)),
        "spin": draw(st.floats(-8.0, 8.0)),
    }


@st.composite
def joints(draw, kinds=KINDS) -> dict:
    """One joint's kind and settings (its anchors are world points, often outside both
    bodies)."""
    kind = draw(st.sampled_from(kinds))
    spec = {"kind": kind, "anchor_a": draw(points), "anchor_b": draw(points)}
    limited = draw(st.booleans())
    if kind in ("revolute", "prismatic"):
        spec["lower"] = -draw(st.floats(0.0, 1.0)) if limited else None
        spec["upper"] = draw(st.floats(0.0, 1.0)) if limited else None
    if kind in ("revolute", "prismatic", "wheel"):
        spec["motor_speed"] = draw(st.floats(-5.0, 5.0))
        spec["max_motor"] = draw(st.sampled_from([0.0, 1.0, 5.0, 50.0]))
    if kind in ("spring", "wheel", "angular_spring", "mouse"):
        spec["frequency"] = draw(st.floats(0.5, 10.0))
        spec["damping"] = draw(st.floats(0.0, 1.0))
    if kind in ("prismatic", "wheel"):
        turn = draw(st.floats(-math.pi, math.pi))
        spec["axis"] = (math.cos(turn), math.sin(turn))
    if kind == "gear":
        spec["ratio"] = draw(st.floats(0.2, 5.0)) * draw(st.sampled_from([-1.0, 1.0]))
    if kind in ("motor", "mouse"):
        spec["max_force"] = draw(st.sampled_from([1.0, 50.0, 1000.0]))
        spec["correction"] = draw(st.floats(0.0, 1.0))
    if kind == "rope":
        spec["slack"] = draw(st.floats(0.0, 1.0))
    return spec


@st.composite
def chains(draw) -> dict:
    """A chain: bodies, a joint per neighbouring pair, which body is static (None: none),
    an optional joint of one body to the world, and the sub-steps."""
    count = draw(st.integers(2, 6))
    return {
        "bodies": draw(st.lists(bodies(), min_size=count, max_size=count)),
        "joints": draw(st.lists(joints(), min_size=count - 1, max_size=count - 1)),
        "static": draw(st.one_of(st.none(), st.integers(0, count - 1))),
        "grounded": draw(st.one_of(st.none(), st.integers(0, count - 1))),
        "ground_joint": draw(joints(WORLD_KINDS)),
        "substeps": draw(st.sampled_from([1, 2, 4])),
    }


def add_joint(world: World, spec: dict, a, b) -> None:
    """Join bodies a and b (b None: the world) as spec says."""
    kind, anchor_a, anchor_b = spec["kind"], spec["anchor_a"], spec["anchor_b"]
    span = max(math.dist(anchor_a, anchor_b), 0.1)  # anchors may coincide
    if kind == "revolute":
        joint = RevoluteJoint(
            a, b, anchor_a, lower=spec["lower"], upper=spec["upper"],
            motor_speed=spec["motor_speed"], max_motor_torque=spec["max_motor"],
        )  # fmt: skip
    elif kind == "rod":
        joint = DistanceJoint(a, b, anchor_a, anchor_b, length=span)
    elif kind == "spring":
        joint = DistanceJoint(
            a, b, anchor_a, anchor_b, length=span, frequency=spec["frequency"],
            damping=spec["damping"],
        )  # fmt: skip
    elif kind == "weld":
        joint = WeldJoint(a, b, anchor_a)
    elif kind == "mouse":
        joint = MouseJoint(
            a, anchor_b, max_force=spec["max_force"], frequency=spec["frequency"],
            damping=spec["damping"], anchor=anchor_a,
        )  # fmt: skip
    elif kind == "prismatic":
        joint = PrismaticJoint(
            a, b, anchor_a, spec["axis"], lower=spec["lower"], upper=spec["upper"],
            motor_speed=spec["motor_speed"], max_motor_force=spec["max_motor"],
        )  # fmt: skip
    elif kind == "wheel":
        joint = WheelJoint(
            a, b, anchor_a, spec["axis"], frequency=spec["frequency"], damping=spec["damping"],
            motor_speed=spec["motor_speed"], max_motor_torque=spec["max_motor"],
        )  # fmt: skip
    elif kind == "rope":
        joint = RopeJoint(a, b, anchor_a, anchor_b, length=span * (1.0 + spec["slack"]))
    elif kind == "angular_spring":
        joint = AngularSpring(a, b, spec["frequency"], damping=spec["damping"])
    elif kind == "gear":
        joint = GearJoint(a, b, ratio=spec["ratio"])
    else:
        joint = MotorJoint(a, b, max_force=spec["max_force"], max_torque=spec["max_force"],
                           correction=spec["correction"])  # fmt: skip
    world.add_joint(joint)


def build(chain: dict) -> World:
    """The world a drawn chain describes."""
    world = World(gravity=(0.0, 0.0), substeps=chain["substeps"], sleep=False)
    handles = []
    for i, body in enumerate(chain["bodies"]):
        shape = body["shape"]
        part = Box(shape[1], shape[2]) if shape[0] == "box" else Circle(shape[1])
        static = chain["static"] == i
        handle = world.add_body(
            part, position=body["position"], angle=body["angle"],
            velocity=(0.0, 0.0) if static else body["velocity"],
            angular_velocity=0.0 if static else body["spin"], density=body["density"],
            kind="static" if static else "dynamic",
        )  # fmt: skip
        handles.append(handle)
    for i, spec in enumerate(chain["joints"]):
        a, b = handles[i], handles[i + 1]
        if spec["kind"] == "mouse" and chain["static"] == i:
            a = b  # a mouse pulls a body that moves
        add_joint(world, spec, a, b)
    grounded = chain["grounded"]
    if grounded is not None and grounded != chain["static"]:
        add_joint(world, chain["ground_joint"], handles[grounded], None)
    return world


def held_from_outside(chain: dict) -> bool:
    """Whether something outside the chain can push it: a static body, a joint to the
    world, or a mouse joint (always to the world)."""
    grounded = chain["grounded"] is not None and chain["grounded"] != chain["static"]
    mouse = any(spec["kind"] == "mouse" for spec in chain["joints"])
    return chain["static"] is not None or grounded or mouse


def momentum(world: World) -> tuple[np.ndarray, float]:
    """The linear momentum (2,) of the dynamic bodies and its scale: the sum of |m v|, or
    of the linear impulses the joints passed between the bodies in the last step if more
    (at least the bodies' mass at FLOOR_SPEED).

    Each impulse passed changes the sum by its rounding: bodies that overlap where their
    joints hold them (coincident circles, pushed apart by their contacts) trade 6 mN s a
    step at 1e-15 m/s, and their momentum wanders by 1e-17 of rounding."""
    dynamic = world.kinds == World.KIND_CODES["dynamic"]
    push = world.masses[dynamic, None] * world.velocities[dynamic]
    floor = FLOOR_SPEED * world.masses[dynamic].sum()
    passed = sum(float(np.abs(joint.reaction_force).sum()) for joint in world.joints)
    return push.sum(axis=0), max(float(np.abs(push).sum()), passed * world.dt, floor)


def run_chain(chain: dict, steps: int = STEPS) -> dict:
    """Step a chain and say what went wrong: the first step with a non-finite number, the
    largest move of a static body, the largest momentum drift over its scale."""
    world = build(chain)
    static = world.kinds != World.KIND_CODES["dynamic"]
    start = world.positions[static].copy(), world.angles[static].copy()
    initial, scale = momentum(world)
    outcome = {"non_finite": None, "static_moved": 0.0, "momentum_drift": 0.0}
    for step in range(steps):
        world.step()
        state = (world.positions, world.angles, world.velocities, world.angular_velocities)
        if not all(np.isfinite(column).all() for column in state):
            outcome["non_finite"] = step
            return outcome
        moved = max(
            np.abs(world.positions[static] - start[0]).max(initial=0.0),
            np.abs(world.angles[static] - start[1]).max(initial=0.0),
        )
        outcome["static_moved"] = max(outcome["static_moved"], moved)
        now, size = momentum(world)
        scale = max(scale, size)
        drift = float(np.abs(now - initial).max()) / scale
        outcome["momentum_drift"] = max(outcome["momentum_drift"], drift)
    return outcome


# Derandomized: the same 40 chains every run. Drawn afresh, 6,000 chains (hypothesis seeds
# 12 to 14) found the cases kept as tests below (see docs/joints.md).
@settings(max_examples=40, derandomize=True, database=None)
@given(chains())
def test_random_joint_chains_stay_finite_and_keep_momentum(chain):
    outcome = run_chain(chain)
    assert outcome["non_finite"] is None, outcome
    assert outcome["static_moved"] == 0.0, outcome
    if not held_from_outside(chain):
        assert outcome["momentum_drift"] <= MOMENTUM_ROUNDING, outcome


def spin_after(world: World, steps: int) -> float:
    """The fastest spin over the steps, rad/s (inf once a number is not finite)."""
    fastest = 0.0
    for _ in range(steps):
        world.step()
        if not np.isfinite(world.velocities).all():
            return math.inf
        fastest = max(fastest, float(np.abs(world.angular_velocities).max()))
    return fastest


@pytest.mark.parametrize("substeps", [1, 2, 4])
def test_a_light_box_welded_by_a_far_anchor_to_a_spinning_one_keeps_its_spin(substeps):
    # The warm start kicks the light box's spin hard (its inertia is tiny against the
    # anchor's lever); extrapolated with that kick, the weld's predicted error reached
    # 7.6e3 rad/s in 4 steps at one sub-step.
    world = World(gravity=(0.0, 0.0), substeps=substeps, sleep=False)
    small = world.add_body(Box(0.2, 0.14), position=(0.0, 0.0), angular_velocity=6.0)
    big = world.add_body(Box(1.25, 0.88), position=(4.2, 0.0), angular_velocity=-3.4)
    world.add_joint(WeldJoint(small, big, (3.83, 0.0)))
    assert spin_after(world, STEPS) < 6.0


def test_a_small_box_welded_3_6_m_away_to_a_heavy_box_keeps_its_spin():
    # Found by the fuzzer: non-finite at step 27 with four sub-steps.
    world = World(gravity=(0.0, 0.0), substeps=4, sleep=False)
    heavy = world.add_body(
        Box(1.243, 0.872), position=(0.0, 1.201), angle=-2.872, velocity=(-5.0, -5.0),
        angular_velocity=1.828, density=9.129,
    )  # fmt: skip
    light = world.add_body(
        Box(0.227, 0.1), position=(0.0, 2.569), angle=0.001, velocity=(-3.917, 0.488),
        angular_velocity=5.387, density=1.004,
    )  # fmt: skip
    world.add_joint(WeldJoint(heavy, light, (0.0, -1.029)))
    assert spin_after(world, STEPS) < 6.0


@pytest.mark.parametrize("substeps", [1, 2, 4])
def test_a_light_box_between_a_far_hinge_and_a_limited_motor_stays_finite(substeps):
    # A light box hinged 1 m outside itself to one box and, by a limited motor, to
    # another: at one sub-step its spin reached 1e7 rad/s in 8 steps.
    world = World(gravity=(0.0, 0.0), substeps=substeps, sleep=False)
    light = world.add_body(Box(0.25, 0.175), position=(0.0, 0.0))
    hinged = world.add_body(Box(1.0, 0.7), position=(2.5, 0.0))
    driven = world.add_body(Box(1.0, 0.7), position=(-2.0, 0.0))
    world.add_joint(RevoluteJoint(light, hinged, (1.125, 0.0)))
    world.add_joint(
        RevoluteJoint(
            light, driven, (-1.0, 0.0), lower=-0.5, upper=0.5, motor_speed=3.0,
            max_motor_torque=5.0,
        )
    )  # fmt: skip
    assert spin_after(world, STEPS) < 10.0


# A 0.3 x 3.5 m bar welded to a static box 30 km away, at rest or thrown at 1 km/s: the
# joint's anchor is some 20 km from the bar's centre.
FAR_WELDS = {
    "spinning": ((25806.6, 15297.7), (17472.3, 10357.3), -2.82, (0.0, 0.0), 3.31),
    "thrown": ((-28100.2, 10506.1), (-19924.8, 7449.5), -2.51, (-988.9, 148.7), 1.72),
}


@pytest.mark.parametrize("case", FAR_WELDS)
@pytest.mark.parametrize("substeps", [1, 2, 4])
def test_a_bar_welded_to_a_far_static_box_stays_finite_and_held(substeps, case):
    # The weld's block is nearly of rank one on so long a lever; inverted by cofactors it
    # lost every digit and the step went non-finite in 9 to 55 steps, the static box's
    # position with them.
    far, anchor, angle, velocity, spin = FAR_WELDS[case]
    world = World(gravity=(0.0, 0.0), substeps=substeps, sleep=False)
    ground = world.add_body(Box(1.0, 1.0), position=far, kind="static")
    bar = world.add_body(
        Box(0.3, 3.5), position=(0.0, 0.0), angle=angle, velocity=velocity,
        angular_velocity=spin,
    )  # fmt: skip
    weld = WeldJoint(bar, ground, anchor)
    world.add_joint(weld)
    for _ in range(100):
        world.step()
        assert np.isfinite(world.positions).all() and np.isfinite(world.velocities).all()
    assert tuple(world.positions[0]) == far
    assert math.dist(weld.anchor_a, weld.anchor_b) < 1e-3


@pytest.mark.parametrize("substeps", [1, 2, 4])
def test_a_light_disc_welded_far_out_to_a_disc_pinned_twice_stays_on_its_joints(substeps):
    # Found by the fuzzer: a hub pinned twice to the world (a loop through the ground),
    # welded to a 20 g disc 2.1 m away, which is hinged at the hub's centre to a disc that
    # a rod of 0.1 m holds to a box, the rod's anchors first coincident. Left out of the
    # exact tree whole for its loop, the hub's joints were springs alone, and at four
    # sub-steps the light disc spun up to 1e7 rad/s in five steps.
    world = World(gravity=(0.0, 0.0), substeps=substeps, sleep=False)
    inner = world.add_body(Circle(0.3, mask=0), density=3.45)
    light = world.add_body(Circle(0.06, mask=0), position=(2.1, 0.0), density=1.73)
    hub = world.add_body(Circle(0.5, mask=0), velocity=(0.0, 2.0), density=0.1)
    box = world.add_body(Box(0.94, 2.0, mask=0), density=2.14)
    world.add_joint(DistanceJoint(box, inner, (0.0, 0.0), (0.0, 0.0), length=0.1))
    world.add_joint(RevoluteJoint(inner, light, (0.0, 0.0)))
    world.add_joint(WeldJoint(light, hub, (0.0, 0.0)))
    for _ in range(2):
        world.add_joint(RevoluteJoint(hub, None, (0.0, 0.0)))
    for _ in range(STEPS):
        world.step()
        assert np.isfinite(world.velocities).all() and np.isfinite(world.positions).all()
    # The pins hold the hub, the weld keeps the light disc 2.1 m out, the rod its length,
    # and with nothing driving it the chain has come to rest.
    assert np.hypot(*hub.position) < 1e-3
    assert math.dist(light.position, hub.position) == pytest.approx(2.1, abs=1e-3)
    assert math.dist(box.position, inner.position) == pytest.approx(0.1, abs=1e-3)
    speeds = np.abs(world.velocities).max(), np.abs(world.angular_velocities).max()
    assert max(speeds) < 1e-3


def test_two_sliders_between_a_rope_and_a_gear_on_small_discs_stay_finite():
    # Found by the fuzzer (six of 2,000 fresh chains were of this kind): a box on a rope,
    # a locked slider and a limited, motorised one whose anchor is 3.9 m from the small
    # disc it carries, and a gear from that disc to another. The warm start along the
    # sliders' main rows kicked the disc, the exact tree solve took the kicks back, and the
    # kicks grew until the chain went non-finite at step 162.
    def disc(position, velocity):
        shape = ("circle", 0.1091)
        motion = {"angle": -2.142, "velocity": velocity, "spin": 6.0}
        return {"shape": shape, "density": 5.0, "position": position, **motion}

    chain = {
        "bodies": [
            {"shape": ("circle", 0.9497), "density": 6.785, "position": (-1.462, 1.691),
             "angle": 0.0, "velocity": (2.256, 1.762), "spin": 2.599},
            {"shape": ("box", 1.5, 0.3), "density": 1.705, "position": (1.002, -1.1),
             "angle": -2.439, "velocity": (0.0, 1.56), "spin": 0.0},
            {"shape": ("box", 0.6782, 1.893), "density": 0.1091, "position": (0.0, -0.3333),
             "angle": -1.847, "velocity": (0.0, 0.0), "spin": -1.829},
            disc((-1.822, -1.013), (-1.72, 0.08443)),
            disc((-1.822, -1.013), (-1.72, 0.08443)),
        ],
        "joints": [
            {"kind": "rope", "anchor_a": (0.7053, 1e-05), "anchor_b": (5.714e-06, 2.169),
             "slack": 0.1174},
            {"kind": "prismatic", "anchor_a": (0.0, 0.0), "anchor_b": (0.0, 1.366),
             "axis": (0.9445, 0.3284), "lower": 0.0, "upper": 0.0, "motor_speed": 0.0,
             "max_motor": 50.0},
            {"kind": "prismatic", "anchor_a": (3.12, -0.06681), "anchor_b": (2.0, 2.787),
             "axis": (-1.0, 0.0), "lower": 0.0, "upper": 0.6, "motor_speed": 5.0,
             "max_motor": 5.0},
            {"kind": "gear", "anchor_a": (-4.0, 2.956), "anchor_b": (-3.982, 0.0),
             "ratio": 4.398},
        ],
        "static": None,
        "grounded": None,
        "ground_joint": {"kind": "rope", "anchor_a": (0.0, 0.0), "anchor_b": (1.0, 0.0),
                         "slack": 0.0},
        "substeps": 4,
    }  # fmt: skip
    outcome = run_chain(chain)
    assert outcome["non_finite"] is None, outcome
    assert outcome["momentum_drift"] <= MOMENTUM_ROUNDING, outcome


def test_two_sliders_with_limits_far_from_their_bodies_stay_finite():
    # Found by the fuzzer (1 of 2,000 fresh chains once the tree joints' main rows were no
    # longer warm-started): a box welded to the world on a wheel joint, a rope, and two
    # limited sliders anchored 4 m from the bodies they join. Warm-started, the sliders'
    # limit rows pushed on those levers, the tree solve took the pushes back, and the
    # chain went non-finite at step 162 (two sub-steps).
    def box(width, height, density, position, angle, velocity, spin):
        return {"shape": ("box", width, height), "density": density, "position": position,
                "angle": angle, "velocity": velocity, "spin": spin}  # fmt: skip

    slider = {"kind": "prismatic", "anchor_a": (-3.185, 4.0), "anchor_b": (0.0, -2.311),
              "axis": (0.2531, -0.9674), "lower": -0.1572, "upper": 0.04231,
              "motor_speed": 4.665, "max_motor": 0.0}  # fmt: skip
    chain = {
        "bodies": [
            box(0.1662, 0.1559, 7.266, (0.7622, 2.213), 3.058, (0.02, -1.16), 5.262),
            {"shape": ("circle", 0.316), "density": 0.3333, "position": (-2.719, 0.9019),
             "angle": -0.5048, "velocity": (3.631, -0.1403), "spin": 3.0},
            box(1.129, 0.1872, 9.0, (3.0, -1.255), 0.0, (0.5, -4.559), -4.007),
            box(0.21, 1.174, 9.404, (0.0, 1.621), 0.0, (-0.1187, -4.118), 4.582),
            box(1.269, 0.3309, 7.773, (-1.432, -1.499), -2.049, (-0.7696, 2.674), 0.3333),
        ],
        "joints": [
            {"kind": "wheel", "anchor_a": (0.0, 0.0), "anchor_b": (0.0, 1.0),
             "axis": (0.3562, 0.9344), "frequency": 3.649, "damping": 0.5954,
             "motor_speed": 0.55, "max_motor": 0.0},
            {"kind": "rope", "anchor_a": (-1.139, 2.238), "anchor_b": (0.0, 1.5),
             "slack": 0.4003},
            slider,
            dict(slider),
        ],
        "static": None,
        "grounded": 0,
        "ground_joint": {"kind": "weld", "anchor_a": (-5.96e-08, 0.8748),
                         "anchor_b": (-2.63, 3.953)},
        "substeps": 2,
    }  # fmt: skip
    outcome = run_chain(chain)
    assert outcome["non_finite"] is None, outcome
    assert outcome["static_moved"] == 0.0, outcome


def test_a_light_disc_pinned_2_m_from_its_centre_driving_a_heavy_box_on_a_slider():
    # Found by the fuzzer (1 of 2,000 fresh chains once the sliders' limits were no longer
    # warm-started): a 75 g disc pinned to the world 2 m from its centre by a limited,
    # motorised hinge, and a slider with a motor to a 9 kg box. Warm-started, the slider's
    # motor pushed on the disc's lever, the tree solve took the push back, and the chain
    # went non-finite at step 176 (one sub-step). The drawn numbers are kept as drawn:
    # rounded to four digits, the chain holds either way.
    chain = {
        "bodies": [
            {"shape": ("circle", 0.14755461973651868), "density": 1.1,
             "position": (1.1905591712258955e-70, 2.0), "angle": 0.2879537238705132,
             "velocity": (-9.680117673854253e-143, 4.71700458871268),
             "spin": 5.698491339573199},
            {"shape": ("box", 1.7638037745287891, 0.6416872577079358),
             "density": 8.161126836208023, "position": (-1.537668342644057e-41, -2.0),
             "angle": 1.032473448620693,
             "velocity": (-1.9457025561031478, -1.6553156170409218),
             "spin": -0.8230736536506438},
        ],
        "joints": [
            {"kind": "prismatic", "anchor_a": (-1.5957817535083012, 2.6337465293691746),
             "anchor_b": (0.7314324620027586, -1.5620691784921088),
             "axis": (-0.6147907889204705, 0.7886902344130714),
             "lower": -2.220446049250313e-16, "upper": 0.6063694801768921,
             "motor_speed": 1.5, "max_motor": 50.0},
        ],
        "static": None,
        "grounded": 0,
        "ground_joint": {"kind": "revolute",
                         "anchor_a": (0.02955601291626575, 0.011142178746417208),
                         "anchor_b": (-3.5491539335551536, -0.008940290654837035),
                         "lower": -2.2250738585072014e-308, "upper": 0.9365640027903106,
                         "motor_speed": 8.469565677397099e-229, "max_motor": 5.0},
        "substeps": 1,
    }  # fmt: skip
    outcome = run_chain(chain)
    assert outcome["non_finite"] is None, outcome
    assert outcome["static_moved"] == 0.0, outcome
