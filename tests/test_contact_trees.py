"""Exact solves over contact trees (``engine.contact_trees``): which manifolds form trees,
the solve against a dense oracle written here, momentum, and the points it releases."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Box, World
from engine.contact_solver import COLUMNS, prepare_contacts
from engine.contact_trees import contact_forest, solve_contact_trees
from engine.soft_contacts import BIAS_RATE, IMPULSE_SCALE, MASS_SCALE, prepare_soft


def stack(tilts, shifts):
    """Manifolds (as ``engine.substep`` holds them) of a stack of len(tilts) bodies on
    the ground, body k on body k - 1 (the ground below body 0), each contact's normal
    tilted by tilts[k] rad and its two points shifted sideways by shifts[k] m, bodies of
    1-2 kg. Returns (columns dict, inv_mass, inv_inertia) with the world's row last."""
    n = len(tilts)
    mass = 1.0 + np.arange(n) / max(n - 1, 1)
    inv_mass = np.append(1.0 / mass, 0.0)
    inv_inertia = np.append(6.0 / mass, 0.0)
    body_a = np.array([n if k == 0 else k - 1 for k in range(n)])
    body_b = np.arange(n)
    normal = np.array([(np.sin(t), np.cos(t)) for t in tilts])
    arm_b = np.zeros((n, 2, 2))
    arm_a = np.zeros((n, 2, 2))
    for k in range(n):
        for p, x in enumerate((-0.5, 0.5)):
            arm_b[k, p] = (x + shifts[k], -0.5)
            arm_a[k, p] = (x + shifts[k], 0.5 if k > 0 else 0.0)
    columns = {
        "body_a": body_a,
        "body_b": body_b,
        "count": np.full(n, 2),
        "normal": normal,
        "arm_a": arm_a,
        "arm_b": arm_b,
        "separation": np.full((n, 2), -1e-4),
    }
    return columns, inv_mass, inv_inertia


def prepared(columns, inv_mass, inv_inertia, velocity, h=1 / 240):
    m = len(columns["body_a"])
    c = prepare_contacts(
        columns["body_a"], columns["body_b"], columns["count"], columns["normal"],
        columns["arm_a"], columns["arm_b"], columns["separation"], np.full(m, 0.5),
        np.zeros(m), velocity, inv_mass, inv_inertia, h,
    )  # fmt: skip
    soft = prepare_soft(
        c, columns["body_a"], columns["body_b"], columns["count"], columns["normal"],
        columns["arm_a"], columns["arm_b"], columns["separation"], np.full(m, 0.005), 60.0,
        10.0, h,
    )  # fmt: skip
    return c, soft


def forest(columns, inv_mass, inv_inertia, c, solve=None):
    m = len(columns["body_a"])
    return contact_forest(
        columns["body_a"], columns["body_b"], columns["count"], columns["separation"],
        np.ones(m, np.bool_) if solve is None else solve, np.full(len(inv_mass), -1), c,
        inv_mass, inv_inertia,
    )  # fmt: skip


def run_pass(columns, inv_mass, inv_inertia, velocity, impulse, use_bias):
    """One exact pass; returns (velocity after, impulses after, the forest)."""
    c, soft = prepared(columns, inv_mass, inv_inertia, velocity)
    trees = forest(columns, inv_mass, inv_inertia, c)
    n = len(inv_mass)
    velocity = velocity.copy()
    impulse = impulse.copy()
    turn = np.zeros((n, 2))
    turn[:, 0] = 1.0
    solve_contact_trees(
        trees, c, soft, columns["count"], columns["body_a"], columns["body_b"],
        columns["arm_a"], columns["arm_b"], impulse, velocity, np.zeros((n, 3)), turn,
        inv_mass, inv_inertia, 3.0, use_bias,
    )  # fmt: skip
    return velocity, impulse, trees, c, soft


def jacobian(columns, n):
    """(2 M, 3 (N + 1)) the normal rows of every point, dense."""
    m = len(columns["body_a"])
    rows = np.zeros((2 * m, 3 * n))
    for i in range(m):
        a, b = columns["body_a"][i], columns["body_b"][i]
        nx, ny = columns["normal"][i]
        for p in range(2):
            ra, rb = columns["arm_a"][i, p], columns["arm_b"][i, p]
            rows[2 * i + p, 3 * a : 3 * a + 3] = (-nx, -ny, -(ra[0] * ny - ra[1] * nx))
            rows[2 * i + p, 3 * b : 3 * b + 3] += (nx, ny, rb[0] * ny - rb[1] * nx)
    return rows


def inverse_masses(inv_mass, inv_inertia):
    """W (3 (N + 1), 3 (N + 1)): diag(inv_mass, inv_mass, inv_inertia) of every body."""
    return np.diag(np.stack([inv_mass, inv_mass, inv_inertia], axis=1).ravel())


speeds = st.floats(-2.0, 2.0)


def drawn_velocities(data, size):
    """(size + 1, 3) velocities: drawn for the stack's bodies, zero for the world's row."""
    velocity = np.zeros((size + 1, 3))
    drawn = data.draw(st.lists(st.tuples(speeds, speeds, speeds), min_size=size, max_size=size))
    velocity[:size] = np.array(drawn)
    return velocity


@settings(max_examples=40, deadline=None)
@given(
    size=st.integers(1, 5),
    tilt=st.floats(-0.3, 0.3),
    shift=st.floats(-0.3, 0.3),
    data=st.data(),
)
def test_the_relax_pass_matches_a_dense_solve(size, tilt, shift, data):
    """Rigid rows, every point active (large warm impulses, so none is released): the
    pass leaves J v = 0, with v - v0 = W J^T lambda, lambda = -(J W J^T)^-1 J v0."""
    columns, inv_mass, inv_inertia = stack([tilt * (k % 2) for k in range(size)],
                                           [shift * (k % 3 - 1) for k in range(size)])  # fmt: skip
    n = size + 1
    velocity = drawn_velocities(data, size)
    impulse = np.full((size, 2), 100.0)
    after, impulses, trees, _, _ = run_pass(
        columns, inv_mass, inv_inertia, velocity, impulse, False
    )
    assert len(trees[0]) == size  # the stack is one tree
    rows = jacobian(columns, n)
    w = inverse_masses(inv_mass, inv_inertia)
    k = rows @ w @ rows.T
    lam = np.linalg.solve(k, -rows @ velocity.ravel())
    expected = velocity.ravel() + w @ rows.T @ lam
    np.testing.assert_allclose(after.ravel(), expected, atol=1e-9)
    np.testing.assert_allclose(impulses.ravel(), 100.0 + lam, atol=1e-9)
    np.testing.assert_allclose(rows @ after.ravel(), 0.0, atol=1e-9)


@settings(max_examples=40, deadline=None)
@given(size=st.integers(1, 5), depth=st.floats(1e-4, 0.02), data=st.data())
def test_the_biased_pass_matches_a_dense_soft_solve(size, depth, data):
    """Soft rows: (K + G) dx = -(J v + bias / mass scale) - G x, G each manifold's own
    2x2 block of K times impulse scale / mass scale, bias its spring's pull at the depth."""
    columns, inv_mass, inv_inertia = stack([0.0] * size, [0.1] * size)
    columns["separation"][:] = -depth
    n = size + 1
    velocity = drawn_velocities(data, size)
    impulse = np.full((size, 2), 100.0)
    after, impulses, trees, c, soft = run_pass(
        columns, inv_mass, inv_inertia, velocity, impulse, True
    )
    rows = jacobian(columns, n)
    w = inverse_masses(inv_mass, inv_inertia)
    k = rows @ w @ rows.T
    g = np.zeros_like(k)
    rhs = -rows @ velocity.ravel()
    for i in range(size):
        ratio = soft[i, IMPULSE_SCALE] / soft[i, MASS_SCALE]
        g[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = ratio * k[2 * i : 2 * i + 2, 2 * i : 2 * i + 2]
        rhs[2 * i : 2 * i + 2] -= max(soft[i, BIAS_RATE] * -depth, -3.0 / soft[i, MASS_SCALE])
    rhs -= g @ impulse.ravel()
    lam = np.linalg.solve(k + g, rhs)
    np.testing.assert_allclose(after.ravel(), velocity.ravel() + w @ rows.T @ lam, atol=1e-9)
    np.testing.assert_allclose(impulses.ravel(), 100.0 + lam, atol=1e-9)


def test_a_floating_tree_keeps_its_momentum():
    """Two bodies in contact, away from the ground: internal impulses only."""
    columns, inv_mass, inv_inertia = stack([0.1, -0.2, 0.05], [0.2, -0.1, 0.0])
    velocity = np.array([[0.3, -1.0, 0.5], [-0.2, 0.4, -1.0], [1.0, -2.0, 0.3], [0, 0, 0]])
    before = velocity[:3].T @ (1.0 / inv_mass[:3])
    c, soft = prepared(columns, inv_mass, inv_inertia, velocity)
    # The first manifold (to the ground) is not solved: the other two float.
    trees = forest(columns, inv_mass, inv_inertia, c, np.array([False, True, True]))
    assert sorted(trees[0]) == [1, 2]
    turn = np.tile([1.0, 0.0], (4, 1))
    impulse = np.full((3, 2), 1.0)
    solve_contact_trees(
        trees, c, soft, columns["count"], columns["body_a"], columns["body_b"],
        columns["arm_a"], columns["arm_b"], impulse, velocity, np.zeros((4, 3)), turn,
        inv_mass, inv_inertia, 3.0, True,
    )  # fmt: skip
    after = velocity[:3].T @ (1.0 / inv_mass[:3])
    np.testing.assert_allclose(after[:2], before[:2], atol=1e-12)


def test_a_point_the_solve_would_pull_is_released_and_the_rest_solved_again():
    """A box on the ground spinning fast: holding both points would pull at one of them;
    it is let go (no negative impulse), and the other point holds alone: it stops
    approaching, and the box keeps turning."""
    columns, inv_mass, inv_inertia = stack([0.0], [0.0])
    velocity = np.array([[0.0, 0.0, 4.0], [0.0, 0.0, 0.0]])
    after, impulses, _, _, _ = run_pass(
        columns, inv_mass, inv_inertia, velocity, np.zeros((1, 2)), False
    )
    assert (impulses >= 0.0).all()
    assert impulses[0, 0] > 0.0 and impulses[0, 1] == 0.0  # the corner turning down holds
    rows = jacobian(columns, 2)
    speeds_after = rows @ after.ravel()
    assert abs(speeds_after[0]) < 1e-12  # the held point stops
    assert speeds_after[1] > 0.0  # the other lifts off
    assert after[0, 2] > 0.0


def test_which_manifolds_form_trees():
    """A column on the ground is one tree; a box touching two static bodies, and a box
    resting on two others that stand on the ground, close loops through the ground and
    stay with Gauss-Seidel; a manifold whose points are all apart joins nothing."""
    inv_mass = np.array([1.0, 1.0, 1.0, 0.0])
    inv_inertia = np.array([6.0, 6.0, 6.0, 0.0])
    ground = 3

    def trees_of(pairs, separation=None):
        m = len(pairs)
        columns = {
            "body_a": np.array([a for a, _ in pairs]),
            "body_b": np.array([b for _, b in pairs]),
            "count": np.full(m, 2),
            "separation": np.full((m, 2), -1e-3) if separation is None else separation,
        }
        c = np.zeros((m, COLUMNS))
        edges = contact_forest(
            columns["body_a"], columns["body_b"], columns["count"], columns["separation"],
            np.ones(m, np.bool_), np.full(4, -1), c, inv_mass, inv_inertia,
        )[0]  # fmt: skip
        return sorted(edges.tolist())

    assert trees_of([(ground, 0), (0, 1), (1, 2)]) == [0, 1, 2]
    assert trees_of([(ground, 0), (0, ground)]) == []
    assert trees_of([(ground, 0), (ground, 1), (0, 2), (1, 2)]) == []
    apart = np.array([[-1e-3, -1e-3], [2e-3, 3e-3]])
    assert trees_of([(ground, 0), (0, 1)], apart) == [0]


# -- loads held at touching ------------------------------------------------------------------
def test_a_heavy_box_on_a_light_one_rests_at_touching():
    # A spring carries its load (F / m) / w^2 deep, m the light box's effective mass: the
    # 1,000 kg box sank 13 mm into the 1 kg one. Moved by their last load, the tree's
    # springs hold it at touching; measured 0.26 mm low after 10 s.
    world = World(substeps=4)
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    light = world.add_body(Box(0.5, 0.5), position=(0, 0.25), density=4.0)  # 1 kg
    heavy = world.add_body(Box(1.0, 1.0), position=(0, 1.0), density=1000.0)  # 1,000 kg
    for _ in range(600):
        world.step()
    assert abs(1.0 - heavy.position[1]) < 1e-3
    assert abs(0.25 - light.position[1]) < 1e-3
    assert np.all(np.isfinite(world.positions))


def test_a_resting_tree_is_not_lifted_off_what_carries_it():
    # The moved springs hold the load at touching, not above it: no point of a resting
    # column ends apart by more than a rounding of its spring (a gap would be a body
    # hovering, carried by a spring past its surface).
    world = World(substeps=4, sleep=False)
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    boxes = [
        world.add_body(Box(1, 1), position=(0, 0.5 + k), density=1.0 + 9 * k) for k in range(5)
    ]
    for _ in range(300):
        world.step()
    heights = np.array([box.position[1] for box in boxes])
    gaps = np.diff(np.concatenate([[0.0], heights + 0.5])) - 1.0
    assert np.all(gaps < 1e-4), gaps
    assert np.all(gaps > -2e-3), gaps
