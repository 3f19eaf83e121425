"""Positional correction: push-out along contact normals, overlap recovery and resting drift.

The rule lives in ``engine/position_correction.py``: a per-body cap on the pushes, static
contacts corrected last in every pass, and a final guard that leaves no static contact
deeper than the step's own motion made it. These tests check the outcome through the
public API only: where the bodies are, how deep they sit in each other and in static
shapes, and how fast a separation throws them.
"""

from __future__ import annotations

import numpy as np
import pytest
from builders import add_ground, ground_world, run, steps
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine import Box, Chain, Circle, RevoluteJoint, World, collide
from engine.settings import LINEAR_SLOP, MAX_CORRECTION

GROUND_TOP = 0.0  # the top face of ``add_ground``'s box

# --------------------------------------------------------------------------- resting contact


@pytest.mark.slow
def test_box_rests_on_ground_for_a_minute():
    """3600 steps of a unit box on the ground.

    5 mm of sinking or bouncing is visible on screen and larger than any sensible contact
    slop; drift or tilt at rest means the solver injects energy or is asymmetric.
    """
    world = World()
    add_ground(world)
    box = world.add_body(Box(1, 1), position=(0, 0.5))
    worst_height = 0.0
    for _ in range(3600):
        world.step()
        worst_height = max(worst_height, abs(box.position[1] - 0.5))
    assert worst_height < 5e-3
    assert abs(box.position[0]) < 5e-3
    assert abs(box.angle) < 1e-3
    assert np.hypot(*box.velocity) < 1e-3


def test_compound_l_body_settles_with_centre_of_mass_at_geometric_height():
    """An L made of a 2 x 1 box and a 1 x 1 box on top of its right half. Its centre of mass
    is 1/3 above the centre of the bottom box, so resting on its base the body's position
    (its centre of mass) is at y = 0.5 + 1/3. 5 mm: resting contact slop. Reporting the
    shape origin instead of the centre of mass would be 33 cm off."""
    world = World()
    add_ground(world)
    body = world.add_body([Box(2, 1), Box(1, 1, offset=(0.5, 1.0))], position=(0, 1.2))
    run(world, steps(3.0))
    assert body.position[1] == pytest.approx(0.5 + 1.0 / 3.0, abs=5e-3)
    assert abs(body.angle) < 1e-2
    assert np.hypot(*body.velocity) < 1e-2


# --------------------------------------------------------------------------- overlap recovery


def max_pair_overlap(world: World, shapes: list) -> float:
    """Deepest penetration over all body pairs, measured by the narrow phase."""
    poses = [(b.position[0], b.position[1], b.angle) for b in world.bodies]
    deepest = 0.0
    for i in range(len(shapes)):
        for j in range(i + 1, len(shapes)):
            deepest = max(deepest, collide(shapes[i], poses[i], shapes[j], poses[j]).depth)
    return deepest


def recover(world: World, shapes: list, seconds: float = 3.0):
    fastest = 0.0
    for _ in range(steps(seconds)):
        world.step()
        fastest = max(fastest, float(np.max(np.hypot(*world.velocities.T))))
    return fastest, max_pair_overlap(world, shapes)


def test_overlapping_row_on_ground_separates_calmly():
    """Ten unit boxes in a row on the ground, each overlapping its neighbours by 30 %.

    5 m/s is faster than a 1 m fall; a solver that resolves overlap by velocity impulses
    without a cap flings them much faster. After 3 s, 1 cm of residual overlap is twice a
    typical slop and 3 % of the initial overlap.
    """
    world = World()
    ground_shape = Box(40, 1)
    world.add_body(ground_shape, position=(0, -0.5), kind="static")
    shapes = [ground_shape]
    for i in range(10):
        shapes.append(Box(1, 1))
        world.add_body(shapes[-1], position=((i - 4.5) * 0.7, 0.5))
    assert max_pair_overlap(world, shapes) == pytest.approx(0.3, abs=1e-9)
    fastest, overlap = recover(world, shapes)
    assert fastest < 5.0
    assert overlap < 0.01
    assert np.all(np.isfinite(world.positions))


def test_overlapping_cluster_in_the_air_separates_calmly():
    """Ten unit boxes in a 5 x 2 block with 30 % overlap both ways, no gravity."""
    world = World(gravity=(0.0, 0.0))
    shapes = []
    for i in range(10):
        row, col = divmod(i, 5)
        shapes.append(Box(1, 1))
        world.add_body(shapes[-1], position=((col - 2) * 0.7, row * 0.7))
    fastest, overlap = recover(world, shapes)
    assert fastest < 5.0
    assert overlap < 0.01


# --------------------------------------------------------------------------- static geometry


def test_fifty_boxes_spawned_on_one_spot_are_not_pushed_through_the_ground():
    """They used to fling one box 2.65 m in one step; 14 of 50 ended below the ground."""
    world, _ = ground_world()
    boxes = [world.add_body(Box(1, 1), position=(0, 2.5)) for _ in range(50)]
    start = world.positions.copy()
    world.step()
    moved = np.hypot(*(world.positions - start).T)
    # One step of free fall plus at most one capped push from the other boxes.
    assert moved.max() <= MAX_CORRECTION + 9.81 * world.dt**2 + 1e-9
    for _ in range(240):
        world.step()
        heights = np.array([box.position[1] for box in boxes])
        assert heights.min() > GROUND_TOP, "a box was pushed into or through the ground"


def test_boxes_spawned_into_a_pile_by_a_handler_all_stay_above_a_thin_floor():
    """A contact handler spawning overlapping boxes on one spot above a 5 cm plank: none
    may be pushed through it (a handler like this used to lose 120 of 202 boxes)."""
    world = World()
    world.add_body(Box(8, 0.05), position=(0, -0.025), kind="static")
    world.add_body(Box(0.2, 4), position=(-4.1, 2), kind="static")
    world.add_body(Box(0.2, 4), position=(4.1, 2), kind="static")
    spawned = [world.add_body(Box(0.5, 0.5), position=(0, 0.3))]

    @world.on("contact_persist")
    def spawn(contact):
        if len(spawned) < 60:
            spawned.append(world.add_body(Box(0.5, 0.5), position=(0, 0.6)))

    for _ in range(240):
        world.step()
        lowest = min(body.position[1] for body in spawned)
        assert lowest > 0.0, "a box was pushed through the plank"
    assert len(spawned) == 60


STATIC_SHAPES = [
    (Box(12, 1), (0.0, -0.5, 0.0)),  # ground
    (Box(3, 0.06), (2.0, 1.0, 0.3)),  # a thin tilted plank
    (Circle(0.6), (-3.0, 0.3, 0.0)),  # a boulder
]


@st.composite
def piles(draw):
    """Dynamic boxes and circles heaped on and into the static shapes, at rest."""
    count = draw(st.integers(2, 24))
    bodies = []
    for _ in range(count):
        shape = draw(
            st.one_of(
                st.builds(Box, st.floats(0.1, 1.2), st.floats(0.1, 1.2)),
                st.builds(Circle, st.floats(0.05, 0.6)),
            )
        )
        x = draw(st.floats(-4.0, 4.0))
        y = draw(st.floats(-0.3, 1.5))
        angle = draw(st.floats(-np.pi, np.pi))
        bodies.append((shape, (x, y, angle)))
    return bodies


def static_depths(world: World, statics: list, dynamics: list) -> np.ndarray:
    """(D, S) penetration depth of each dynamic body in each static shape, from ``collide``."""
    depths = np.zeros((len(dynamics), len(statics)))
    for i, (body, shape) in enumerate(dynamics):
        pose = (*body.position, body.angle)
        for j, (static_shape, static_pose) in enumerate(statics):
            depths[i, j] = collide(shape, pose, static_shape, static_pose).depth
    return depths


@pytest.mark.xfail(
    strict=True,
    reason="soft step: a 1 m box spawned half into the ground over the boulder, a ball and a "
    "tilted box beside it, goes 4.6e-5 m deeper into the ground in the first step",
)
@settings(max_examples=60)
@given(piles())
@example(
    pile=[(Circle(0.375), (-1.75, 0.0, 0.0)), (Box(1.0, 1.0), (-3.0, 0.0, 0.0)),
          (Box(0.5, 1.0), (-2.4375, 0.0, 0.5))],
)  # fmt: skip
def test_push_out_never_leaves_a_body_deeper_in_static_geometry(pile):
    """Without gravity or velocity a step moves bodies by push-out alone: afterwards no
    body may sit deeper in a static shape than before (beyond the slop), however the
    dynamic bodies push each other, and no body moves further than the caps allow."""
    world = World(gravity=(0, 0), sleep=False)
    for shape, pose in STATIC_SHAPES:
        world.add_body(shape, position=pose[:2], angle=pose[2], kind="static")
    dynamics = [
        (world.add_body(shape, position=pose[:2], angle=pose[2]), shape) for shape, pose in pile
    ]
    before = static_depths(world, STATIC_SHAPES, dynamics)
    start = np.array([body.position for body, _ in dynamics])
    world.step()
    after = static_depths(world, STATIC_SHAPES, dynamics)
    allowed = np.maximum(before, LINEAR_SLOP) + 1e-9
    assert np.all(after <= allowed), (before, after)
    moved = np.hypot(*(np.array([body.position for body, _ in dynamics]) - start).T)
    # Two capped allowances (dynamic and static contacts), plus the guard, which only
    # gives back what the capped pushes took: at most both allowances again.
    assert moved.max() <= 4 * MAX_CORRECTION + 1e-9


@pytest.mark.parametrize("speed", [2.0, 4.0])
def test_a_small_ball_run_over_by_a_heavy_plank_keeps_its_centre_out_of_the_floor(speed):
    """Two 5 cm balls under a plank 8,300 times heavier, all sliding at ``speed``: the
    plank crushes down onto the floor and the balls spin at up to 130 rad/s under it.

    A ball's floor contact point does not turn with it (the ball rolls under it), but the
    push-out once tracked that gap by turning it, so a spinning ball's floor gap looked
    open and the plank's push drove it through: its centre ended 7 mm inside the floor.
    Measured since: 1 cm deep at worst (the springs of so light a body are soft).
    """
    world = World()
    add_ground(world)
    radius = 0.025
    balls = [
        world.add_body(Circle(radius), position=(x, radius), density=0.033, velocity=(speed, 0))
        for x in (-0.15, 0.15)
    ]
    world.add_body(Box(0.6, 0.1), position=(0, 2 * radius + 0.05), density=9.0, velocity=(speed, 0))
    lowest = np.inf
    for _ in range(120):
        world.step()
        lowest = min(lowest, *(ball.position[1] for ball in balls))
    assert lowest > GROUND_TOP


# ------------------------------------------------------------------- jointed static bodies


def _spawned_pile_beside_a_pendulum(floor_shape, hang_from_floor: bool) -> list:
    """Ten boxes spawned 30 % into each other in a column on a static floor, and a
    pendulum 20 m away hung from the floor's body or from the world at the same point.
    Returns the boxes' heights after each of 60 steps."""
    world = World()
    floor = world.add_body(floor_shape, position=(0, 0), kind="static", origin="local")
    boxes = [world.add_body(Box(1, 1), position=(0, 0.5 + 0.7 * i)) for i in range(10)]
    bob = world.add_body(Circle(0.2), position=(21, 5))
    if hang_from_floor:
        world.add_joint(RevoluteJoint(floor, bob, (20, 5)))
    else:
        world.add_joint(RevoluteJoint(bob, None, (20, 5)))
    heights = []
    for _ in range(60):
        world.step()
        heights.append([box.position[1] for box in boxes])
    return heights


@pytest.mark.parametrize(
    "floor_shape",
    [Box(20, 1, offset=(0, -0.5)), Chain([(10, 0), (-10, 0)])],
    ids=["box", "one-sided chain"],
)
def test_a_joint_on_a_static_body_leaves_the_push_out_against_it_unchanged(floor_shape):
    """Push-out never moves a static body, so a joint on one must not change how bodies
    are pushed out of it. Its contacts were left out of the push-out, like those of a
    jointed dynamic body: bodies crushed against it were pushed into it and, through a
    one-sided chain, out (Box2D's spinner, its ring jointed to the bar: 220 of 1,500 bodies
    out of the ring within 300 steps, none since)."""
    from_floor = _spawned_pile_beside_a_pendulum(floor_shape, hang_from_floor=True)
    from_world = _spawned_pile_beside_a_pendulum(floor_shape, hang_from_floor=False)
    np.testing.assert_allclose(from_floor, from_world, rtol=0, atol=1e-9)
    assert min(min(row) for row in from_floor) > 0.5 - 0.05


def test_with_no_push_out_passes_deep_overlap_is_left_to_the_springs():
    """position_iterations=0: nothing is held rigid for a push-out that never comes (two
    boxes spawned 30 % into each other stayed 30 % into each other for ever)."""
    world = World(gravity=(0, 0), position_iterations=0)
    a = world.add_body(Box(1, 1), position=(0, 0))
    b = world.add_body(Box(1, 1), position=(0.7, 0))
    for _ in range(60):
        world.step()
    assert b.position[0] - a.position[0] == pytest.approx(1.0, abs=2 * world.linear_slop)
