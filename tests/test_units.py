"""Units and scale: a world in pixels or millimetres moves as the same world in metres, the
tolerances are world settings, and small bodies rest on each other instead of sinking.

The scale property is exact physics: with every length and speed tolerance (and gravity)
scaled by k, the equations of motion of a scene built k times larger are those of the
metre scene with lengths multiplied by k, so only rounding may tell them apart.
"""

from __future__ import annotations

import math
import pickle
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracles import penetration_of

from engine import Box, Circle, DistanceJoint, RevoluteJoint, World

STEPS = 120
# Changes of units by a few parts in 10^15 to 10^13: how far rounding alone carries a scene.
ROUNDING_NUDGES = (2e-15, 1e-14, 1e-13)

TOLERANCES = {
    "linear_slop": 0.005,
    "restitution_threshold": 1.0,
    "sleep_threshold": 0.05,
}


# -- the same scene at two scales -------------------------------------------------------------
@st.composite
def small_scenes(draw):
    """A ground, two to four boxes and circles (stacked in a loose column, some thrown) and
    perhaps a joint, as plain numbers in metres.

    Left out: scenes where rounding alone must break a symmetry, on which no engine can
    have the property (two bodies spawned inside each other with their centres exactly
    aligned are pushed apart to whichever side rounding favours). So the bodies start
    apart, each a little off the others' axis (by an irrational fraction of a millimetre,
    which no drawn number cancels)."""
    count = draw(st.integers(2, 4))
    bodies = []
    top = 0.0  # the highest point of the bodies placed so far
    for i in range(count):
        round_ = draw(st.booleans())
        size = draw(st.floats(0.2, 1.0))
        aspect = draw(st.floats(0.5, 2.0))
        reach = size / 2 if round_ else math.hypot(size, size * aspect) / 2
        x = draw(st.floats(-3.0, 3.0)) + 1e-3 * math.sqrt(2.0) * (i + 1)
        y = top + reach + draw(st.floats(0.01, 1.5))
        top = y + reach
        bodies.append(
            {
                "shape": ("circle", size / 2) if round_ else ("box", size, size * aspect),
                "position": (x, y),
                "angle": draw(st.floats(-1.0, 1.0)),
                "velocity": (draw(st.floats(-3.0, 3.0)), draw(st.floats(-3.0, 3.0))),
                "angular_velocity": draw(st.floats(-3.0, 3.0)),
                "density": draw(st.floats(0.5, 3.0)),
                "friction": draw(st.floats(0.0, 1.0)),
                "restitution": draw(st.sampled_from([0.0, 0.3, 0.8])),
            }
        )
    joint = draw(st.sampled_from([None, "revolute", "distance"]))
    return bodies, joint


def build(scene, k: float, **settings) -> World:
    """The scene in units of 1/k metre: lengths times k, gravity from the default;
    ``settings`` go to the World."""
    bodies, joint = scene
    world = World(units_per_meter=k, **settings)
    world.add_body(Box(20 * k, 1 * k), position=(0, -0.5 * k), kind="static")
    handles = []
    for spec in bodies:
        kind, *dims = spec["shape"]
        shape = Circle(dims[0] * k) if kind == "circle" else Box(dims[0] * k, dims[1] * k)
        handles.append(
            world.add_body(
                shape,
                position=np.multiply(spec["position"], k),
                angle=spec["angle"],
                velocity=np.multiply(spec["velocity"], k),
                angular_velocity=spec["angular_velocity"],
                density=spec["density"],
                friction=spec["friction"],
                restitution=spec["restitution"],
            )
        )
    a, b = handles[0], handles[1]
    if joint == "revolute":
        world.add_joint(RevoluteJoint(a, b, anchor=(a.position + b.position) / 2))
    elif joint == "distance":
        world.add_joint(DistanceJoint(a, b, a.position, b.position, frequency=2.0, damping=0.3))
    return world


def run(world: World) -> np.ndarray:
    """(STEPS, N, 3) poses after every step."""
    poses = np.empty((STEPS, len(world.bodies), 3))
    for step in range(STEPS):
        world.step()
        poses[step, :, :2] = world.positions
        poses[step, :, 2] = world.angles
    return poses


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scene=small_scenes(), k=st.floats(0.5, 2000.0))
def test_a_scene_built_k_times_larger_moves_as_the_metre_scene_scaled(scene, k):
    metres = run(build(scene, 1.0))
    scaled = run(build(scene, k))
    size = 20.0  # the ground's width: the scene's size, in metres
    # Only rounding may tell the two apart, and some scenes (a bouncing box knocking a
    # stack over) are chaotic: in them a change of units by a part in 10^15 already moves
    # the bodies by 0.3 mm within the run (measured). Rounding's own reach is measured on
    # the metre scene with its units nudged by such parts; k may do ten times that, and
    # in a scene that rounding does not carry far, no more than 1e-6 of its size.
    nudges = [run(build(scene, 1.0 + eps)) for eps in ROUNDING_NUDGES]
    reach_xy = max(np.max(np.abs(n[..., :2] / (1 + e) - metres[..., :2])) for n, e in
                   zip(nudges, ROUNDING_NUDGES))  # fmt: skip
    reach_angle = max(np.max(np.abs(n[..., 2] - metres[..., 2])) for n in nudges)
    assert np.max(np.abs(scaled[..., :2] / k - metres[..., :2])) <= max(1e-6 * size, 10 * reach_xy)
    assert np.max(np.abs(scaled[..., 2] - metres[..., 2])) <= max(1e-6, 10 * reach_angle)


def test_a_box_lying_flat_struck_into_a_spin_moves_alike_at_both_scales():
    # A box lying flat on the ground (its angle a rounding error either side of 0) is
    # struck into a spin of 12 rad/s. The sweep judges a body by its leading point; judged
    # by whichever of its two lower corners rounding put lower (the one going down at one
    # scale, the one going up at the other), it was stopped at one scale only and the runs
    # ended 9 cm apart (found by the property above). Both corners lie within a slop of
    # the ground, and both are judged.
    box = {"angle": 0.0, "velocity": (0.0, 0.0), "angular_velocity": 0.0, "density": 1.0,
           "friction": 0.0, "restitution": 0.0}  # fmt: skip
    scene = (
        [
            {**box, "shape": ("box", 0.5655527674643153, 0.41532781360660653),
             "position": (0.0014142135623730952, 1.8508372576928618), "angle": -0.35,
             "velocity": (0.0, -1.013671875), "angular_velocity": 0.005859375,
             "density": 0.6780742483862541, "friction": 0.26979447827739717,
             "restitution": 0.3},
            {**box, "shape": ("circle", 0.11414679685128402),
             "position": (2.2528284271247463, 2.4876963122370075), "velocity": (-1.5, -2.125),
             "angular_velocity": -1.5, "density": 1.9375, "friction": 0.25},
            {**box, "shape": ("box", 0.38569679878476454, 0.3977498237467884),
             "position": (0.00423878831048132, 2.955276483461743),
             "velocity": (-0.484375, -0.359375), "density": 2.75, "friction": 0.78125},
            {**box, "shape": ("box", 1.0, 1.0),
             "position": (0.005656854249492381, 4.9394062523602384)},
        ],
        "distance",
    )  # fmt: skip
    metres = run(build(scene, 1.0))
    scaled = run(build(scene, 1.5))
    assert np.max(np.abs(scaled[..., :2] / 1.5 - metres[..., :2])) <= 1e-6 * 20.0


@pytest.mark.parametrize("k", [128.0, 1024.0])
@settings(max_examples=10, deadline=None)
@given(scene=small_scenes())
def test_at_a_power_of_two_scale_the_scene_agrees_bit_for_bit(scene, k):
    """Multiplying by a power of two is exact in float64, and so is every operation of the
    step on the scaled numbers: nothing in the step is a length that does not scale."""
    metres = run(build(scene, 1.0))
    scaled = run(build(scene, k))
    assert np.array_equal(scaled[..., :2] / k, metres[..., :2])
    assert np.array_equal(scaled[..., 2], metres[..., 2])


# -- the scenes, in pixels --------------------------------------------------------------
def pyramid(world: World, rows: int, size: float) -> list:
    world.add_body(Box(40 * size, size), position=(0, -size / 2), kind="static")
    boxes = []
    for row in range(rows):
        for column in range(rows - row):
            x = (column - (rows - row - 1) / 2) * size * 1.05
            boxes.append(world.add_body(Box(size, size), position=(x, (row + 0.5) * size)))
    return boxes


def test_a_pyramid_in_pixels_falls_asleep_like_the_one_in_metres():
    """55 boxes at 100 pixels a metre: the sleep speed is 5 pixels/s, not 0.05."""
    asleep = {}
    for k in (1.0, 100.0):
        world = World(units_per_meter=k)
        boxes = pyramid(world, 10, 1.0 * k)
        for _ in range(600):
            world.step()
        asleep[k] = sum(not box.awake for box in boxes)
    assert asleep == {1.0: 55, 100.0: 55}


def steps_to_part(k: float) -> int:
    """Steps two boxes spawned 30 % into each other, at ``k`` units a metre, take to part
    (to within two slops of touching), at most 200."""
    world = World(units_per_meter=k, gravity=(0, 0))
    a = world.add_body(Box(k, k), position=(0, 0))
    b = world.add_body(Box(k, k), position=(0.7 * k, 0))
    steps = 0
    while b.position[0] - a.position[0] < k * (1 - 2 * 0.005) and steps < 200:
        world.step()
        steps += 1
    return steps


def test_boxes_spawned_overlapping_in_pixels_come_apart_as_fast_as_in_metres():
    """30% overlap: the push-out cap is 20 pixels a pass at 100 pixels a metre, not 0.2;
    the sub-steps' push speed 300 pixels/s, not 3."""
    assert steps_to_part(100.0) == steps_to_part(1.0)


def test_boxes_spawned_overlapping_come_apart_within_three_steps():
    # Measured: 2 steps, the overlap past half a step's push moved apart on positions (the
    # contact springs alone, at 3 m/s apart at most, take 9).
    assert steps_to_part(1.0) <= 3


# -- small bodies ------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [0.005, 0.01])
def test_a_stack_of_small_boxes_rests_within_five_percent_of_their_size(size):
    world = World()
    world.add_body(Box(1.0, 0.1), position=(0, -0.05), kind="static")
    boxes = [
        world.add_body(Box(size, size), position=(0, size * (1.1 * i + 0.5))) for i in range(5)
    ]
    for _ in range(600):
        world.step()
    heights = np.array([box.position[1] for box in boxes])
    overlaps = np.concatenate([[size / 2 - heights[0]], size - np.diff(heights)])
    assert np.all(overlaps <= 0.05 * size), overlaps / size
    assert np.all(overlaps >= 0.0), "the boxes hover"
    assert np.all(np.abs([box.position[0] for box in boxes]) <= 0.05 * size)
    assert not any(box.awake for box in boxes)


def small_pile(size: float, shape_kind: str, count: int = 100, **settings):
    """``count`` boxes or circles of ``size`` dropped in rows into a box 10 sizes wide;
    ``settings`` go to the World."""
    world = World(**settings)
    width = 10 * size
    world.add_body(Box(width + 2 * size, size), position=(0, -size / 2), kind="static")
    for side in (-1, 1):
        wall = Box(size, 40 * size)
        world.add_body(wall, position=(side * (width + size) / 2, 20 * size), kind="static")
    rng = np.random.default_rng(7)
    shape = Box(size, size) if shape_kind == "box" else Circle(size / 2)
    bodies = []
    for i in range(count):
        x = ((i % 8) - 3.5) * 1.2 * size + rng.uniform(-0.05, 0.05) * size
        y = (0.6 + 1.3 * (i // 8)) * size
        bodies.append(world.add_body(shape, position=(x, y), angle=rng.uniform(0.0, 1.0)))
    return world, bodies


def deepest_overlap(world: World, bodies: list, size: float, shape_kind: str) -> float:
    """The deepest overlap between two bodies of the pile, by the exact oracle."""
    if shape_kind == "box":
        half = size / 2
        spec = ("polygon", np.array([[-half, -half], [half, -half], [half, half], [-half, half]]))
    else:
        spec = ("circle", size / 2, (0.0, 0.0))
    poses = [(*body.position, body.angle) for body in bodies]
    deepest = 0.0
    for i, pose_a in enumerate(poses):
        for pose_b in poses[i + 1 :]:
            if math.hypot(pose_a[0] - pose_b[0], pose_a[1] - pose_b[1]) < 1.5 * size:
                depth = -penetration_of(spec, pose_a, spec, pose_b).signed_distance
                deepest = max(deepest, depth)
    return deepest


@pytest.mark.xfail(
    strict=True,
    reason="soft step: the deepest overlap is 0.48 (5 mm boxes), 0.34 (5 mm circles), 0.25 "
    "(1 cm boxes) and 0.19 (1 cm circles) of the size",
)
@pytest.mark.parametrize("shape_kind", ["box", "circle"])
@pytest.mark.parametrize("size", [0.005, 0.01])
def test_a_settled_pile_of_small_bodies_overlaps_by_at_most_ten_percent(size, shape_kind):
    world, bodies = small_pile(size, shape_kind)
    for _ in range(600):
        world.step()
    assert deepest_overlap(world, bodies, size, shape_kind) <= 0.10 * size
    assert np.max(np.hypot(*world.velocities.T)) < 0.05 * size / world.dt, "not settled"


@pytest.mark.parametrize("thickness", [1.0, 0.25, 0.1])
def test_contact_springs_push_an_unloaded_overlap_out_to_touching(thickness):
    """A plank spawned 2 cm into the ground, nothing pressing it: its contact spring pushes
    it out to touching, where a spring without load rests, and leaves it there (measured:
    6e-5 m deep after 10 steps, 9e-11 m after 120, at rest)."""
    world = World(gravity=(0, 0))
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    plank = world.add_body(Box(1, thickness), position=(0, thickness / 2 - 0.02))
    for _ in range(120):
        world.step()
    assert thickness / 2 - plank.position[1] == pytest.approx(0.0, abs=1e-9)
    assert plank.velocity.tolist() == [0.0, 0.0]


# -- the settings ------------------------------------------------------------------------------
@pytest.mark.parametrize("k", [1.0, 100.0, 1000.0, 0.5])
def test_defaults_are_the_metre_values_times_units_per_meter(k):
    world = World(units_per_meter=k)
    assert world.units_per_meter == k
    for name, metres in TOLERANCES.items():
        assert getattr(world, name) == pytest.approx(metres * k, rel=1e-15)
    assert world.time_to_sleep == 0.5  # a time: never scaled
    assert world.gravity.tolist() == pytest.approx([0.0, -9.81 * k], rel=1e-15)


def test_given_settings_are_kept_as_given():
    world = World(
        units_per_meter=100,
        gravity=(0, -1000),
        linear_slop=0.1,
        restitution_threshold=50,
        sleep_threshold=2,
        time_to_sleep=1.5,
    )
    assert (world.linear_slop, world.restitution_threshold) == (0.1, 50.0)
    assert (world.sleep_threshold, world.time_to_sleep) == (2.0, 1.5)
    assert world.gravity.tolist() == [0.0, -1000.0]
    text = repr(world)
    for name in ("units_per_meter=100.0", "linear_slop=0.1", "time_to_sleep=1.5"):
        assert name in text


SETTINGS = ["linear_slop", "restitution_threshold", "sleep_threshold", "time_to_sleep"]


@pytest.mark.parametrize("name", [*SETTINGS, "units_per_meter"])
@pytest.mark.parametrize(
    "value, error",
    [(0.0, ValueError), (-1.0, ValueError), (math.inf, ValueError), (math.nan, ValueError),
     ("1", TypeError), (True, TypeError), ([1.0], TypeError)],
)  # fmt: skip
def test_world_refuses_bad_settings_naming_them(name, value, error):
    with pytest.raises(error, match=name):
        World(**{name: value})


@pytest.mark.parametrize("name", SETTINGS)
def test_setting_a_bad_value_raises_and_changes_nothing(name):
    world = World()
    before = getattr(world, name)
    for value in (0.0, -2.0, math.nan, "fast"):
        with pytest.raises((ValueError, TypeError), match=name):
            setattr(world, name, value)
        assert getattr(world, name) == before
    setattr(world, name, 2 * before)
    assert getattr(world, name) == 2 * before


@pytest.mark.parametrize("k", [1.0, 100.0])
@pytest.mark.parametrize("name", SETTINGS)
def test_setting_none_restores_the_default_in_the_worlds_units(name, k):
    """None means the default when set, as it does to ``World()`` (docs/world.md)."""
    default = getattr(World(units_per_meter=k), name)
    world = World(units_per_meter=k, **{name: 3 * default})
    setattr(world, name, None)
    assert getattr(world, name) == default


def test_units_per_meter_is_fixed_and_bounded():
    world = World(units_per_meter=100)
    with pytest.raises(AttributeError):
        world.units_per_meter = 1.0
    with pytest.raises(ValueError, match="units_per_meter"):
        World(units_per_meter=1e6)


def custom_world() -> World:
    world = World(
        units_per_meter=1000, linear_slop=3.0, restitution_threshold=700.0,
        sleep_threshold=40.0, time_to_sleep=0.8,
    )  # fmt: skip
    world.add_body(Box(10000, 1000), position=(0, -500), kind="static")
    world.add_body(Box(200, 100), position=(0, 50), sleep_threshold=7.0)
    world.add_body(Circle(50), position=(500, 500))
    for _ in range(5):
        world.step()
    return world


def settings_of(world: World) -> tuple:
    return (
        world.units_per_meter, world.linear_slop, world.restitution_threshold,
        world.sleep_threshold, world.time_to_sleep,
        [body.sleep_threshold for body in world.bodies],
    )  # fmt: skip


def test_settings_survive_save_and_load(tmp_path):
    world = custom_world()
    world.save(tmp_path / "world.npz")
    loaded = World.load(tmp_path / "world.npz")
    assert settings_of(loaded) == settings_of(world) == (
        1000.0, 3.0, 700.0, 40.0, 0.8, [40.0, 7.0, 40.0]
    )  # fmt: skip
    # A body that follows the world's threshold still follows it after loading.
    loaded.sleep_threshold = 10.0
    assert [body.sleep_threshold for body in loaded.bodies] == [10.0, 7.0, 10.0]
    for _ in range(30):
        world.step()
        loaded.step()
    assert np.array_equal(world.positions, loaded.positions)


def test_settings_survive_pickle_and_restore():
    world = custom_world()
    twin = pickle.loads(pickle.dumps(world))
    assert settings_of(twin) == settings_of(world)
    snap = world.snapshot()
    other = World()
    other.restore(snap)
    assert settings_of(other) == settings_of(world)


# -- a body's own sleep threshold --------------------------------------------------------------
def slider(**body) -> tuple[World, object]:
    world = World()
    world.add_body(Box(40, 1), position=(0, -0.5), kind="static", friction=0.0)
    puck = world.add_body(
        Box(0.5, 0.2), position=(0, 0.1), velocity=(0.03, 0), friction=0.0, **body
    )
    return world, puck


def test_a_slow_slider_falls_asleep_by_default():
    world, puck = slider()
    for _ in range(120):
        world.step()
    assert not puck.awake
    assert puck.velocity[0] == 0.0


def test_its_own_sleep_threshold_keeps_a_slow_slider_awake():
    world, puck = slider(sleep_threshold=0.01)
    assert puck.sleep_threshold == 0.01
    for _ in range(300):
        world.step()
    assert puck.awake
    assert puck.velocity[0] == pytest.approx(0.03, rel=1e-9)
    assert puck.position[0] == pytest.approx(0.03 * world.time, rel=1e-6)
    puck.sleep_threshold = None  # back to the world's 0.05 m/s: it rests, then sleeps
    assert puck.sleep_threshold == world.sleep_threshold
    for _ in range(60):
        world.step()
    assert not puck.awake


def test_a_world_threshold_below_the_sliders_speed_keeps_it_awake():
    world, puck = slider()
    world.sleep_threshold = 0.01
    for _ in range(300):
        world.step()
    assert puck.awake


@pytest.mark.parametrize("value, error", [(0.0, ValueError), (-1.0, ValueError),
                                          (math.inf, ValueError), ("slow", TypeError)])  # fmt: skip
def test_a_bad_body_threshold_is_refused_and_changes_nothing(value, error):
    world, puck = slider(sleep_threshold=0.02)
    with pytest.raises(error, match="sleep_threshold"):
        puck.sleep_threshold = value
    assert puck.sleep_threshold == 0.02
    with pytest.raises(error, match="sleep_threshold"):
        world.add_body(Circle(1), sleep_threshold=value)
    assert len(world.bodies) == 2


def test_the_games_guide_plays_out_in_pixels_as_it_would_in_metres():
    """docs/games.md builds its level at 50 pixels a metre: the hero walks, jumps for the
    coin and lands on the floor; the crate thrown up through the one-way ledge comes to rest
    on it."""
    page = (Path(__file__).resolve().parent.parent / "docs" / "games.md").read_text()
    namespace = {"__name__": "__docs__"}
    for code in re.findall(r"```python\n(.*?)```", page, re.DOTALL):
        exec(compile(code, "games.md", "exec"), namespace)
    world, crate, ledge = namespace["world"], namespace["crate"], namespace["ledge"]
    assert world.units_per_meter == 50 and world.gravity[1] == pytest.approx(-490.5)
    assert namespace["score"] == [1] and namespace["on_floor"]
    top = ledge.position[1] + 5
    assert top - world.linear_slop <= crate.position[1] - 20 <= top  # resting on it
    assert crate.position[0] == pytest.approx(-275, abs=0.01)
