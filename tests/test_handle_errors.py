"""Every error a handle call raises, word for word, and that a refused call changes nothing.

Each row is a bad call on a small world (a ground, two dynamic bodies, a kinematic one, a
removed one, a joint of every kind that has setters, a removed joint and one never added),
the exception it raises and its message. The messages are the ones the handles gave before
their fast paths: a faster read or write must refuse the same inputs with the same words.
After a refused call the world's saved state is bitwise what it was.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

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
    WheelJoint,
    World,
)

NAN, INF = float("nan"), float("inf")


def scene() -> SimpleNamespace:
    """The world of the table's calls and its handles, by the names the calls use."""
    w = World()
    ground = w.add_body(Box(40, 1), position=(0, -0.5), kind="static")
    b = w.add_body(Box(1, 1), position=(0, 2))
    c = w.add_body(Circle(0.5), position=(3, 2))
    k = w.add_body(Box(1, 0.2), position=(-3, 2), kind="kinematic")
    gone = w.add_body(Circle(0.3), position=(6, 2))
    w.remove(gone)
    joints = {
        "rev": RevoluteJoint(c, None, anchor=(3, 2), lower=-1.0, upper=1.0),
        "dist": DistanceJoint(b, c, (0, 2), (3, 2)),
        "mouse": MouseJoint(b, (0, 2)),
        "pris": PrismaticJoint(b, None, (0, 2), (1, 0), lower=-1.0, upper=1.0),
        "wheel": WheelJoint(b, c, (3, 2), (0, 1)),
        "rope": RopeJoint(b, c, (0, 2), (3, 2)),
        "spring": AngularSpring(b, c, frequency=2.0),
        "gear": GearJoint(b, c),
        "motor": MotorJoint(b, c),
        "removed": RevoluteJoint(b, c, anchor=(1, 2)),
    }
    for joint in joints.values():
        w.add_joint(joint)
    w.remove_joint(joints["removed"])
    loose = RevoluteJoint(b, c, anchor=(1, 2))
    return SimpleNamespace(w=w, ground=ground, b=b, c=c, k=k, gone=gone, loose=loose, **joints)


# (a statement on the scene's names (run with exec), exception, message)
BAD_CALLS = [
    ("b.position = (NAN, 0.0)", ValueError, "position: must be finite (found NaN or infinity)"),
    (
        "b.position = (1e30, 0.0)",
        ValueError,
        "position: 1e+30 m is more than the step represents (at most 1e+12)",
    ),
    ('b.position = "ab"', TypeError, "position: expected numbers, got str"),
    (
        "b.position = (1.0, 2.0, 3.0)",
        ValueError,
        "position: expected an array of shape (2,), got (3,)",
    ),
    ("b.position = (True, 1.0)", TypeError, "position: expected real numbers, got bool"),
    ("b.position = None", TypeError, "position: expected numbers, got NoneType"),
    (
        "b.position = [[1.0, 2.0]]",
        ValueError,
        "position: expected an array of shape (2,), got (1, 2)",
    ),
    (
        "b.position = (10**400, 0)",
        ValueError,
        "position: must be finite (a number is too large for float64)",
    ),
    ("b.angle = NAN", ValueError, "angle: must be finite, got nan"),
    ('b.angle = "x"', TypeError, "angle: expected a real number, got str"),
    ("b.angle = True", TypeError, "angle: expected a real number, got bool"),
    ("b.velocity = (INF, 0.0)", ValueError, "velocity: must be finite (found NaN or infinity)"),
    (
        "b.velocity = (1e30, 0.0)",
        ValueError,
        "velocity: 1e+30 m/s is more than the step represents (at most 1e+06)",
    ),
    (
        # Just over the limit: written with the digits that tell it from the limit.
        "b.velocity = (-1e6, 1e3)",
        ValueError,
        "velocity: 1000000.5 m/s is more than the step represents (at most 1e+06)",
    ),
    ("b.velocity = (1.0,)", ValueError, "velocity: expected an array of shape (2,), got (1,)"),
    (
        "b.velocity = np.array([1.0, NAN])",
        ValueError,
        "velocity: must be finite (found NaN or infinity)",
    ),
    (
        "b.velocity = np.array([1, 2], dtype=np.int8) + 1j",
        TypeError,
        "velocity: expected real numbers, got an array of complex128",
    ),
    (
        "ground.velocity = (1.0, 0.0)",
        ValueError,
        "velocity: a static body cannot move; make it kinematic",
    ),
    (
        "ground.angular_velocity = 1.0",
        ValueError,
        "angular_velocity: a static body cannot move; make it kinematic",
    ),
    ("b.angular_velocity = NAN", ValueError, "angular_velocity: must be finite, got nan"),
    (
        "b.angular_velocity = 1e30",
        ValueError,
        "angular_velocity: 1e+30 rad/s is more than the step represents (at most 1e+06)",
    ),
    ('b.angular_velocity = "1"', TypeError, "angular_velocity: expected a real number, got str"),
    ("b.tag = 3", TypeError, "tag: expected a str or None, got int"),
    ('b.tag = ""', ValueError, "tag: must not be empty (use None for no tag)"),
    ("b.friction = -1.0", ValueError, "friction: must be >= 0, got -1"),
    ('b.friction = "a"', TypeError, "friction: expected a real number, got str"),
    ("b.restitution = 2.0", ValueError, "restitution: must be in [0, 1], got 2"),
    ("b.linear_damping = -1.0", ValueError, "linear_damping: must be >= 0, got -1"),
    ("b.angular_damping = NAN", ValueError, "angular_damping: must be finite, got nan"),
    ("b.gravity_scale = 1e4", ValueError, "gravity_scale: must be within +-1000, got 10000"),
    ("b.sleep_threshold = 0.0", ValueError, "sleep_threshold: must be > 0, got 0.0"),
    ("b.sleep_threshold = -1.0", ValueError, "sleep_threshold: must be > 0, got -1.0"),
    ("b.awake = 1", TypeError, "awake: expected a bool, got int"),
    ("ground.awake = False", ValueError, "awake: only dynamic bodies sleep"),
    ("b.sensor = 1", TypeError, "sensor: expected a bool, got int"),
    (
        "b.category = 0x10000",
        ValueError,
        "category: must be a 16-bit value in [0, 0xFFFF], got 65536",
    ),
    ("b.mask = -1", ValueError, "mask: must be a 16-bit value in [0, 0xFFFF], got -1"),
    ("b.group = 2**40", ValueError, "group: must fit in 32 bits, got 1099511627776"),
    ("b.category = 1.5", TypeError, "category: expected an int, got float"),
    (
        "b.mass = -1.0",
        ValueError,
        "mass: must be > 0 and give a mass and inertia float64 can invert, got -1",
    ),
    ("b.mass = NAN", ValueError, "mass: must be finite, got nan"),
    ("ground.mass = 1.0", ValueError, "mass: only a dynamic body has a mass to set"),
    ("b.inertia = 0.0", ValueError, "inertia: must be > 0 and invertible in float64, got 0"),
    ("ground.inertia = 1.0", ValueError, "inertia: only a dynamic body has an inertia to set"),
    ("b.fixed_rotation = 1", TypeError, "fixed_rotation: expected a bool, got int"),
    (
        'b.kind = "x"',
        ValueError,
        "kind: must be one of ['dynamic', 'kinematic', 'static'], got 'x'",
    ),
    ("b.apply_torque(NAN)", ValueError, "torque: must be finite, got nan"),
    (
        "b.apply_torque(1e300)",
        ValueError,
        "torque: 1e+299 rad/s of spin gained in a step"
        " is more than the step represents (at most 1e+06)",
    ),
    ("b.apply_force((NAN, 0.0))", ValueError, "force: must be finite (found NaN or infinity)"),
    (
        "b.apply_force((1.0, 0.0), point=(NAN, 0.0))",
        ValueError,
        "point: must be finite (found NaN or infinity)",
    ),
    (
        "b.apply_force((1.0, 0.0), point=(0.0, 0.0), local_point=(0.0, 0.0))",
        ValueError,
        "local_point: give a world point or a local point, not both",
    ),
    (
        "b.apply_force((1e300, 0.0))",
        ValueError,
        "force: 1.66667e+298 m/s of speed gained in a step"
        " is more than the step represents (at most 1e+06)",
    ),
    (
        "b.apply_force((1.0, 0.0), local_point=(INF, 0.0))",
        ValueError,
        "local_point: must be finite (found NaN or infinity)",
    ),
    (
        "b.apply_force((1e10, 0.0), point=(0.0, 1e5))",
        ValueError,
        "force: 1.66667e+08 m/s of speed gained in a step"
        " is more than the step represents (at most 1e+06)",
    ),
    ("b.apply_impulse((0.0, NAN))", ValueError, "impulse: must be finite (found NaN or infinity)"),
    (
        "b.apply_impulse((1e300, 0.0))",
        ValueError,
        "impulse: 1e+300 m/s of resulting speed is more than the step represents (at most 1e+06)",
    ),
    (
        "b.apply_impulse((1.0, 0.0), point=(NAN, 0.0))",
        ValueError,
        "point: must be finite (found NaN or infinity)",
    ),
    (
        "b.apply_impulse((1.0, 0.0), point=(1e30, 0.0))",
        ValueError,
        "point: 1e+30 m is more than the step represents (at most 1e+12)",
    ),
    (
        "b.apply_impulse((1e8, 0.0), point=(0.0, 1e5))",
        ValueError,
        "impulse: 1e+08 m/s of resulting speed is more than the step represents (at most 1e+06)",
    ),
    (
        "b.apply_impulse((1.0, 0.0), point=(0.0, 0.0), local_point=(0.0, 0.0))",
        ValueError,
        "local_point: give a world point or a local point, not both",
    ),
    ('b.apply_impulse("x")', TypeError, "impulse: expected numbers, got str"),
    ('b.local_to_world("x")', TypeError, "points: expected numbers, got str"),
    (
        "b.local_to_world((1.0, 2.0, 3.0))",
        ValueError,
        "points: expected an array of shape (2,), got (3,)",
    ),
    ("b.world_to_local((NAN, 0.0))", ValueError, "points: must be finite (found NaN or infinity)"),
    ("b.velocity_at([[1.0, INF]])", ValueError, "points: must be finite (found NaN or infinity)"),
    ("gone.position", ValueError, "body: it has been removed from its world"),
    ("gone.velocity", ValueError, "body: it has been removed from its world"),
    ("gone.angle", ValueError, "body: it has been removed from its world"),
    ("gone.position = (0.0, 0.0)", ValueError, "body: it has been removed from its world"),
    ("gone.velocity = (1.0, 0.0)", ValueError, "body: it has been removed from its world"),
    ("gone.angular_velocity = 1.0", ValueError, "body: it has been removed from its world"),
    ("gone.angle = 1.0", ValueError, "body: it has been removed from its world"),
    ("gone.friction = 1.0", ValueError, "body: it has been removed from its world"),
    ("gone.awake = True", ValueError, "body: it has been removed from its world"),
    ("gone.mass = 2.0", ValueError, "body: it has been removed from its world"),
    ("gone.apply_impulse((1.0, 0.0))", ValueError, "body: it has been removed from its world"),
    ("gone.apply_force((1.0, 0.0))", ValueError, "body: it has been removed from its world"),
    ("gone.apply_torque(1.0)", ValueError, "body: it has been removed from its world"),
    ("w.remove(gone)", ValueError, "body: it has already been removed"),
    ('w.remove("x")', TypeError, "body: expected a Body, got str"),
    ("w.remove(World().add_body(Circle(1.0)))", ValueError, "body: it belongs to another world"),
    ("rev.motor_speed = NAN", ValueError, "motor_speed: must be finite, got nan"),
    (
        "rev.motor_speed = 1e30",
        ValueError,
        "motor_speed: 1e+30 rad/s is more than the step represents (at most 1e+06)",
    ),
    ('rev.motor_speed = "x"', TypeError, "motor_speed: expected a real number, got str"),
    ("rev.motor_speed = True", TypeError, "motor_speed: expected a real number, got bool"),
    ("rev.max_motor_torque = -1.0", ValueError, "max_motor_torque: must be >= 0, got -1"),
    ("rev.lower = 2.0", ValueError, "lower: must be <= upper (1.0), got 2.0"),
    ("rev.upper = -2.0", ValueError, "upper: must be >= lower (-1.0), got -2.0"),
    ("rev.lower = NAN", ValueError, "lower: must be finite, got nan"),
    ("dist.length = -1.0", ValueError, "length: must be > 0, got -1.0"),
    (
        "dist.length = 1e30",
        ValueError,
        "length: 1e+30 m is more than the step represents (at most 2e+12)",
    ),
    ("dist.frequency = -1.0", ValueError, "frequency: must be >= 0, got -1"),
    ("dist.damping = NAN", ValueError, "damping: must be finite, got nan"),
    ("mouse.target = (NAN, 0.0)", ValueError, "target: must be finite (found NaN or infinity)"),
    ("mouse.max_force = -1.0", ValueError, "max_force: must be >= 0, got -1"),
    ("mouse.frequency = 0.0", ValueError, "frequency: must be > 0, got 0"),
    (
        "pris.motor_speed = 1e30",
        ValueError,
        "motor_speed: 1e+30 m/s is more than the step represents (at most 1e+06)",
    ),
    ("pris.max_motor_force = -1.0", ValueError, "max_motor_force: must be >= 0, got -1"),
    ("pris.lower = 5.0", ValueError, "lower: must be <= upper (1.0), got 5.0"),
    ("wheel.frequency = 0.0", ValueError, "frequency: must be > 0, got 0"),
    ("wheel.motor_speed = NAN", ValueError, "motor_speed: must be finite, got nan"),
    ("rope.length = 0.0", ValueError, "length: must be > 0, got 0.0"),
    ("spring.rest_angle = NAN", ValueError, "rest_angle: must be finite, got nan"),
    ("spring.frequency = 0.0", ValueError, "frequency: must be > 0, got 0"),
    ("motor.correction = 2.0", ValueError, "correction: must be within [0, 1], got 2"),
    ("motor.max_torque = -1.0", ValueError, "max_torque: must be >= 0, got -1"),
    (
        "motor.linear_offset = (NAN, 0.0)",
        ValueError,
        "linear_offset: must be finite (found NaN or infinity)",
    ),
    ("motor.angular_offset = INF", ValueError, "angular_offset: must be finite, got inf"),
    ("removed.motor_speed = 1.0", ValueError, "joint: it has been removed from its world"),
    ("removed.motor_speed", ValueError, "joint: it has been removed from its world"),
    ("removed.anchor_a", ValueError, "joint: it has been removed from its world"),
    ("loose.reaction_force", ValueError, "joint: it has not been added to a world"),
    ("w.remove_joint(removed)", ValueError, "joint: it has already been removed"),
    ('w.remove_joint("x")', TypeError, "joint: expected a Joint, got str"),
]


def saved_state(world: World) -> tuple:
    """The world's snapshot as (header, arrays): everything that decides its future."""
    snap = world.snapshot()
    return snap._header, dict(snap._arrays)


def assert_same_saved_state(before: tuple, after: tuple) -> None:
    assert before[0] == after[0]
    assert before[1].keys() == after[1].keys()
    for name, array in before[1].items():
        assert np.array_equal(array, after[1][name], equal_nan=array.dtype.kind == "f"), name


@pytest.mark.parametrize("call, error, message", BAD_CALLS, ids=[row[0] for row in BAD_CALLS])
def test_a_bad_handle_call_raises_its_message_and_changes_nothing(call, error, message):
    s = scene()
    before = saved_state(s.w)
    names = {"np": np, "NAN": NAN, "INF": INF, "World": World, "Circle": Circle, **vars(s)}
    with pytest.raises(error) as raised:
        exec(call, names)
    assert str(raised.value) == message
    assert_same_saved_state(before, saved_state(s.w))
