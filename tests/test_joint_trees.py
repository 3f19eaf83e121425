"""Exact solves over trees of rigid joints (``engine.joint_trees``) in the sub-stepped
solver: chains under load and whipping keep their length, the solve matches a dense one,
loops keep a spanning tree and close around it, and internal impulses keep momentum."""

from __future__ import annotations

import math

import numpy as np
import pytest
from builders import G, ragdoll, run_for

from demos.scenes.ragdoll import add_ragdoll
from engine import (
    Box,
    Circle,
    PrismaticJoint,
    RevoluteJoint,
    WeldJoint,
    World,
)
from engine.joint_geometry import USED_ROWS
from engine.joint_store import PRISMATIC, REVOLUTE, WELD
from engine.joint_trees import joint_forest
from engine.tree_solve import RIGID, solve_trees, tree_workspace


def hanging_chain(links: int, load: float, **settings):
    """A chain of 0.5 m links hanging from the world at the origin, with a disc of
    ``load`` times a link's mass pinned below: (world, links, weight)."""
    world = World(sleep=False, **settings)
    bodies, previous = [], None
    for i in range(links):
        link = world.add_body(Box(0.1, 0.5), position=(0, -0.25 - 0.5 * i))
        world.add_joint(RevoluteJoint(link, previous, anchor=(0, -0.5 * i)))
        bodies.append(link)
        previous = link
    density = load * previous.mass / (math.pi * 0.09)
    weight = world.add_body(Circle(0.3), position=(0, -0.5 * links - 0.3), density=density)
    world.add_joint(RevoluteJoint(weight, previous, anchor=(0, -0.5 * links)))
    return world, bodies, weight


def test_a_chain_holding_a_hundredfold_weight_stretches_less_than_one_percent():
    world, _, weight = hanging_chain(20, 100.0)
    worst = 0.0
    for _ in range(300):
        world.step()
        pin = -(weight.position[1] + 0.3 * math.cos(weight.angle))
        worst = max(worst, abs(pin / 10.0 - 1.0))
    assert worst < 0.01


def test_the_top_pin_of_a_hanging_chain_reports_the_whole_weight():
    world, links, weight = hanging_chain(20, 100.0)
    run_for(world, 2.0)
    carried = (sum(link.mass for link in links) + weight.mass) * G
    force = world.joints[0].reaction_force
    # On the top link (slot B is the link, the world alone is slot A): it holds it up.
    assert abs(abs(force[1]) - carried) < 0.01 * carried
    assert abs(force[0]) < 1e-6 * carried


def widest_pivot_gap(world: World, steps: int) -> float:
    """The widest gap between any joint's two anchors over ``steps`` steps."""
    widest = 0.0
    for _ in range(steps):
        world.step()
        gaps = [np.hypot(*(joint.anchor_a - joint.anchor_b)) for joint in world.joints]
        widest = max(widest, max(gaps))
    return widest


def test_a_hundred_link_chain_whipping_down_keeps_every_pivot_within_a_centimetre():
    world = World(sleep=False)
    previous = None
    for i in range(100):
        link = world.add_body(Box(0.5, 0.1), position=(0.25 + 0.5 * i, 0))
        world.add_joint(RevoluteJoint(link, previous, anchor=(0.5 * i, 0)))
        previous = link
    assert widest_pivot_gap(world, 300) < 0.01


def test_a_tree_of_pins_welds_and_sliders_holds_each_joint_within_ten_microns():
    # An arm pinned to the world, a forearm welded on, a heavy slider on it, a heavy bob
    # pinned to the slider from 1 m below it (rods stay springs: see TREE_KINDS):
    # swinging down for 3 s.
    world = World(sleep=False)
    arm = world.add_body(Box(1.0, 0.1), position=(0.5, 0.0))
    fore = world.add_body(Box(1.0, 0.1), position=(1.5, 0.0))
    slider = world.add_body(Box(0.3, 0.3), position=(2.0, 0.0), density=20.0)
    bob = world.add_body(Circle(0.1), position=(2.0, -1.0), density=50.0)
    pin = world.add_joint(RevoluteJoint(arm, None, anchor=(0, 0)))
    weld = world.add_joint(WeldJoint(fore, arm, anchor=(1.0, 0.0)))
    slide = world.add_joint(PrismaticJoint(fore, slider, (2.0, 0.0), (1.0, 0.0)))
    hang = world.add_joint(RevoluteJoint(bob, slider, anchor=slider.position))
    worst = 0.0
    for _ in range(180):
        world.step()
        off = slide.anchor_b - slide.anchor_a
        across = np.array([-slide.axis[1], slide.axis[0]])
        errors = [
            np.hypot(*(pin.anchor_a - pin.anchor_b)),
            np.hypot(*(weld.anchor_a - weld.anchor_b)),
            abs(fore.angle - arm.angle),  # radians on a 1 m arm: metres at its end
            abs(off @ across),
            abs(slider.angle - fore.angle),
            np.hypot(*(hang.anchor_a - hang.anchor_b)),
        ]
        worst = max(worst, *errors)
    # (The springs: 3 mm off the slider's axis.)
    assert worst < 1e-5


def test_forty_ragdolls_piling_up_keep_every_pivot_within_a_centimetre():
    # Limbs landing fast meet the continuous-collision stop: a ragdoll stops as one.
    world = World(sleep=False)
    world.add_body(Box(200, 1), position=(0, -0.5), kind="static")
    for i in range(40):
        add_ragdoll(world, ((i % 10) * 2.0 - 9.0, 1.0 + (i // 10) * 2.5), group=-1 - i)
    assert widest_pivot_gap(world, 120) < 0.01


@pytest.mark.parametrize("spin", [0.5, 2.0, 3.5])
def test_a_ragdoll_lying_on_the_ground_does_not_spin_up(spin):
    """Dropped tumbling from 4 m, with limits and hinge friction in every joint and its
    parts colliding with each other. Stopped as one by the continuous-collision stop, it
    kept its velocities and was stopped again every step, frozen, speeding up; limits and
    hinge friction solved as torques alone were undone by the tree's exact pivots."""
    world = World(sleep=False)
    world.add_body(Box(40, 1), position=(0, -0.5), kind="static")
    ragdoll(world, 0.0, 4.0)[0].angular_velocity = spin  # tumble on the way down
    run_for(world, 5.0)
    fastest = 0.0
    for _ in range(300):  # 5-10 s
        world.step()
        fastest = max(fastest, float(np.hypot(*world.velocities.T).max()))
    assert fastest < 1.0


def test_a_two_link_arm_resting_on_its_limits_holds_them_still():
    """Hanging from the world with both hinges pressed against their lower limits by its
    weight: the tree solve holds the engaged limits exactly, pivots included."""
    world = World(sleep=False)
    upper = world.add_body(Box(1, 0.2), position=(0.5, 2))
    fore = world.add_body(Box(1, 0.2), position=(1.5, 2))
    shoulder = world.add_joint(RevoluteJoint(upper, None, anchor=(0, 2), lower=-0.3, upper=0.3))
    elbow = world.add_joint(RevoluteJoint(upper, fore, anchor=(1, 2), lower=-0.3, upper=0.3))
    run_for(world, 2.0)
    for joint in (shoulder, elbow):
        assert joint.angle == pytest.approx(-0.3, abs=math.radians(0.2))
        assert abs(joint.speed) < 1e-3
        assert np.hypot(*(joint.anchor_a - joint.anchor_b)) < 1e-4


# -- the forest -----------------------------------------------------------------------------
def forest(pairs, kinds, movable):
    """joint_forest on joints ``pairs`` (J, 2) of kinds (J,) between slots whose inverse
    masses are 1 where ``movable`` (N + 1,) and 0 elsewhere."""
    slots = np.array(pairs, dtype=np.int64)
    inv = np.where(np.array(movable), 1.0, 0.0)
    kind = np.array(kinds, dtype=np.int8)
    count = len(kind)
    return joint_forest(kind, slots, np.ones(count, np.bool_), inv, inv)


# A Y-shaped figure: torso 0 held by kinematic slot 6; head 1 welded on, an arm 2 with a
# forearm 3, an arm 4 joined the other way round, a leg 5 sliding. Slots 7 and 8: a
# separate two-link chain; slot 9: the world.
Y_PAIRS = [(6, 0), (0, 1), (0, 2), (2, 3), (4, 0), (0, 5), (7, 8)]
Y_KINDS = [REVOLUTE, WELD, REVOLUTE, REVOLUTE, REVOLUTE, PRISMATIC, REVOLUTE]
Y_MOVABLE = [True] * 6 + [False, True, True, False]


def test_every_joint_of_a_tree_is_ordered_children_before_parents():
    order, child, parent, _, _ = forest(Y_PAIRS, Y_KINDS, Y_MOVABLE)
    assert sorted(order) == list(range(len(Y_PAIRS)))
    finished = set()
    for j in order:
        # A child is done when its joint goes: no later joint may touch it.
        assert child[j] not in finished
        finished.add(child[j])
    assert order[0] == 0 and child[0] == 6 and parent[0] == 0


@pytest.mark.parametrize(
    "extra",
    [(1, 2), (5, 9), (3, 6)],
    ids=["a loop through bodies", "a second hold on the world", "a second hold on slot 6"],
)
def test_a_joint_that_closes_a_loop_is_left_off_a_spanning_tree(extra):
    pairs = Y_PAIRS + [extra]
    order, child, parent, _, _ = forest(pairs, Y_KINDS + [REVOLUTE], Y_MOVABLE)
    # Every joint but the one that closes the loop is on a tree, children before parents.
    assert sorted(order) == list(range(len(Y_PAIRS)))
    assert child[len(Y_PAIRS)] == -1 and parent[len(Y_PAIRS)] == -1
    finished = set()
    for j in order:
        assert child[j] not in finished
        finished.add(child[j])
    # The tree edges span each component once: no body is a child twice.
    movable_children = [child[j] for j in order if Y_MOVABLE[child[j]]]
    assert len(movable_children) == len(set(movable_children))


@pytest.mark.parametrize("seed", range(5))
def test_the_tree_solve_matches_a_dense_solve(seed):
    rng = np.random.default_rng(seed)
    slots = np.array(Y_PAIRS[:6], dtype=np.int64)
    kind = np.array(Y_KINDS[:6], dtype=np.int8)
    count, n = len(kind), 8
    inv_mass = np.r_[rng.uniform(0.1, 10.0, 6), 0.0, 0.0]
    inv_inertia = np.r_[rng.uniform(0.1, 50.0, 6), 0.0, 0.0]
    used = np.array([[1, 1, 0], [1, 1, 1], [1, 1, 0], [1, 1, 0], [1, 1, 0], [1, 0, 1]], bool)
    rows = rng.normal(size=(count, 3, 6)) * used[:, :, None]
    target = rng.normal(size=(count, 3))
    velocity = rng.normal(size=(n, 3))
    velocity[7] = 0.0  # the world; slot 6 is kinematic and moving

    # Dense: every used row over all slots' (vx, vy, w), K = J W J^T.
    picked = [(j, r) for j in range(count) for r in range(3) if used[j, r]]
    jacobian = np.zeros((len(picked), 3 * n))
    for i, (j, r) in enumerate(picked):
        a, b = slots[j]
        jacobian[i, 3 * a : 3 * a + 3] = rows[j, r, :3]
        jacobian[i, 3 * b : 3 * b + 3] = rows[j, r, 3:]
    w = np.diag(np.c_[inv_mass, inv_mass, inv_inertia].ravel())
    k = jacobian @ w @ jacobian.T
    rhs = np.array([target[j, r] for j, r in picked]) - jacobian @ velocity.ravel()
    lam = np.linalg.solve(k, rhs)
    expected_velocity = (velocity.ravel() + w @ jacobian.T @ lam).reshape(n, 3)
    expected = np.zeros((count, 3))
    for i, (j, r) in enumerate(picked):
        expected[j, r] = lam[i]

    order, child, parent, side, _ = joint_forest(
        kind, slots, np.ones(count, np.bool_), inv_mass, inv_inertia
    )
    out = velocity.copy()
    impulses = np.zeros((count, 7))
    solve_trees(
        order, child, parent, side, USED_ROWS[kind], rows.reshape(count, 18), 0, target,
        inv_mass, inv_inertia, out, impulses, RIGID, tree_workspace(n, len(order)),
    )  # fmt: skip
    scale = np.abs(expected).max()
    np.testing.assert_allclose(impulses[:, :3], expected, rtol=0, atol=1e-9 * scale)
    np.testing.assert_allclose(out, expected_velocity, rtol=0, atol=1e-9 * scale)
    assert (impulses[:, 3:] == 0).all()

    # A workspace a solve of other rows left behind gives the same answer to the bit: the
    # solves of a step share one (its impulses to apply are zero again after each solve).
    work = tree_workspace(n, len(order))
    for block in work:
        block[...] = rng.normal(size=block.shape)
    work[2][...] = 0.0
    again, again_impulses = velocity.copy(), np.zeros((count, 7))
    solve_trees(
        order, child, parent, side, USED_ROWS[kind], rows.reshape(count, 18), 0, target,
        inv_mass, inv_inertia, again, again_impulses, RIGID, work,
    )  # fmt: skip
    assert np.array_equal(again, out) and np.array_equal(again_impulses, impulses)
    assert (work[2] == 0.0).all()


# -- loops: a spanning tree, the closing joint around it ---------------------------------
def test_a_four_bar_linkage_and_a_ring_run_on_spanning_trees_and_hold():
    world = World(sleep=False)
    # Four-bar: a crank and a rocker pinned to the ground, a coupler between them.
    crank = world.add_body(Box(1.0, 0.1), position=(0.0, 0.5), angle=math.pi / 2)
    coupler = world.add_body(Box(2.0, 0.1), position=(1.0, 1.0))
    rocker = world.add_body(Box(1.0, 0.1), position=(2.0, 0.5), angle=math.pi / 2)
    bars = [
        RevoluteJoint(crank, None, anchor=(0.0, 0.0)),
        RevoluteJoint(coupler, crank, anchor=(0.0, 1.0)),
        RevoluteJoint(rocker, coupler, anchor=(2.0, 1.0)),
        RevoluteJoint(rocker, None, anchor=(2.0, 0.0)),
    ]
    # A free ring of four links, spinning.
    ring = [
        world.add_body(Box(1.0, 0.1), position=p, angle=a, angular_velocity=2.0)
        for p, a in (((5.5, 0), 0), ((6, 0.5), math.pi / 2), ((5.5, 1), 0), ((5, 0.5), math.pi / 2))
    ]  # fmt: skip
    corners = [(6, 0), (6, 1), (5, 1), (5, 0)]
    loop = [RevoluteJoint(ring[i], ring[i - 3], anchor=corners[i]) for i in range(4)]
    for joint in bars + loop:
        world.add_joint(joint)
    crank.angular_velocity = 3.0
    cols = world._joints.columns()
    inv = np.r_[[1.0 / b.mass for b in world.bodies], 0.0]
    order, _, _, _, _ = joint_forest(
        cols["kind"], world._joint_slots(), np.ones(8, np.bool_), inv, inv
    )
    # Three joints of each loop on a tree; the fourth closes the loop around it.
    assert len(order) == 6
    widest = 0.0
    for _ in range(300):
        world.step()
        widest = max(widest, *(np.hypot(*(j.anchor_a - j.anchor_b)) for j in bars + loop))
    assert np.isfinite(world.positions).all() and np.isfinite(world.velocities).all()
    assert widest < 0.05


# -- momentum and repeatability -------------------------------------------------------------
def flailing_chain(seed: int = 3) -> World:
    """Ten links flailing in free space; they never collide with each other (one negative
    group), so only the joints act."""
    rng = np.random.default_rng(seed)
    world = World(gravity=(0, 0), sleep=False)
    previous = None
    for i in range(10):
        link = world.add_body(
            Box(0.5, 0.1), position=(0.25 + 0.5 * i, 0), velocity=rng.uniform(-3, 3, 2),
            angular_velocity=rng.uniform(-3, 3), group=-1,
        )  # fmt: skip
        if previous is not None:
            world.add_joint(RevoluteJoint(link, previous, anchor=(0.5 * i, 0)))
        previous = link
    return world


def test_a_free_chain_keeps_its_momentum():
    world = flailing_chain()
    linear, angular = world.momentum(), world.angular_momentum()
    run_for(world, 5.0)
    np.testing.assert_allclose(world.momentum(), linear, rtol=0, atol=1e-12)
    # The position step moves bodies, not velocities, and the angular momentum about a
    # point depends on positions: it drifts, by 7 parts in 10^9 over these 5 s.
    assert world.angular_momentum() == pytest.approx(angular, rel=1e-7)


def test_a_tree_steps_the_same_twice():
    first, second = flailing_chain(), flailing_chain()
    run_for(first, 1.0)
    run_for(second, 1.0)
    assert first.positions.tobytes() == second.positions.tobytes()
    assert first.velocities.tobytes() == second.velocities.tobytes()


@pytest.mark.parametrize("shape", ["disc", "rod"])
def test_a_pendulum_swinging_from_horizontal_keeps_its_energy(shape):
    # A small disc on a 1 m arm turns with the arm: its tiny inertia makes the joint's
    # mass matrix nearly of rank one, where moving bodies onto the joint every sub-step
    # would cost 8 % of the energy in 10 s.
    world = World(sleep=False)
    if shape == "disc":
        bob = world.add_body(Circle(0.05), position=(1.0, 0.0))
    else:
        bob = world.add_body(Box(1.0, 0.1), position=(0.5, 0.0))
    world.add_joint(RevoluteJoint(bob, None, anchor=(0, 0)))
    energies = []

    def measure():
        v, w = bob.velocity, bob.angular_velocity
        energy = 0.5 * bob.mass * v @ v + 0.5 * bob.inertia * w * w + bob.mass * G * bob.position[1]
        energies.append(energy / (bob.mass * G))  # as a height, m

    run_for(world, 10.0, measure)
    # The mean over a second (about one swing) at the start and at the end: 0.1 mm apart
    # (the soft joints of before: 2 mm).
    assert abs(np.mean(energies[-60:]) - np.mean(energies[:60])) < 0.001
