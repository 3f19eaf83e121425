"""Tests of the broad phase: grid and quadtree must find exactly the brute-force pairs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.broadphase import brute_force_pairs, find_pairs
from engine.broadphase_grid import grid_cells, grid_pairs
from engine.broadphase_quadtree import quadtree_nodes, quadtree_pairs
from engine.cell_grid import AXIS_BITS, LARGE, MAX_CELLS_PER_BOX, build_cells

SETTINGS = settings(deadline=None, max_examples=150)
MANY = settings(deadline=None, max_examples=400)


def make_scene(
    seed: int,
    count: int,
    layout: str,
    size: str,
    point_share: float,
    snap: bool,
    touching: int,
    huge: int,
    offset: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Build a random scene of ``count`` boxes plus touching copies and huge boxes."""
    rng = np.random.default_rng(seed)
    if size == "mixed":
        extent = 10.0 ** rng.uniform(-2.0, 2.0, (count, 2))
        typical = 1.0
    else:
        typical = float(size)
        extent = typical * rng.uniform(0.5, 1.5, (count, 2))
    extent[rng.random(count) < point_share] = 0.0

    side = typical * 1.5 * np.sqrt(max(count, 1))
    if layout == "spread":
        lower = rng.uniform(0.0, side, (count, 2))
    elif layout == "clustered":
        centres = rng.uniform(0.0, side, (3, 2))
        lower = centres[rng.integers(0, 3, count)] + rng.normal(0.0, typical, (count, 2))
    else:  # every box on one horizontal line
        lower = np.stack([rng.uniform(0.0, side, count), np.zeros(count)], axis=1)
    if snap:
        # Coordinates on a coarse lattice make shared edges and identical boxes common.
        step = typical / 2.0
        lower = np.round(lower / step) * step
        extent = np.round(extent / step) * step
    upper = lower + extent

    big = rng.uniform(100.0, 1e4, (huge, 2)) * typical
    big_lower = rng.uniform(-side, side, (huge, 2))
    lower = np.concatenate([lower, big_lower]) + offset
    upper = np.concatenate([upper, big_lower + big]) + offset

    # Copies placed exactly against the right edge of existing boxes (touching on x).
    source = rng.integers(0, len(lower), touching if len(lower) else 0)
    width = upper[source, 0] - lower[source, 0]
    copy_lower = np.stack([upper[source, 0], lower[source, 1]], axis=1)
    copy_upper = np.stack([upper[source, 0] + width, upper[source, 1]], axis=1)
    lower = np.concatenate([lower, copy_lower])
    upper = np.concatenate([upper, copy_upper])
    order = rng.permutation(len(lower))
    return lower[order], upper[order]


@st.composite
def scenes(draw, max_count: int = 300) -> tuple[np.ndarray, np.ndarray]:
    """Random scenes: sizes 1e-2..1e2, spread, clustered or collinear, far from origin."""
    return make_scene(
        seed=draw(st.integers(0, 2**32 - 1)),
        count=draw(st.integers(0, max_count)),
        layout=draw(st.sampled_from(["spread", "clustered", "line"])),
        size=draw(st.sampled_from(["0.01", "1", "100", "mixed"])),
        point_share=draw(st.sampled_from([0.0, 0.1, 0.5, 1.0])),
        snap=draw(st.booleans()),
        touching=draw(st.integers(0, 20)),
        huge=draw(st.integers(0, 3)),
        offset=draw(st.sampled_from([0.0, 1e6, -1e6, -12345.678])),
    )


@st.composite
def lattice_scenes(draw) -> tuple[np.ndarray, np.ndarray]:
    """Few boxes on a half-unit lattice: touching and identical boxes, shrinkable."""
    cell = st.integers(0, 8).map(lambda k: k * 0.5)
    extent = st.integers(0, 3).map(lambda k: k * 0.5)
    boxes = draw(st.lists(st.tuples(cell, cell, extent, extent), max_size=40))
    array = np.array(boxes, dtype=np.float64).reshape(-1, 4)
    return array[:, :2], array[:, :2] + array[:, 2:]


def assert_all_methods_match(lower: np.ndarray, upper: np.ndarray) -> None:
    expected = brute_force_pairs(lower, upper)
    for method in (grid_pairs, quadtree_pairs):
        found = method(lower, upper)
        assert found.dtype == np.int64 and found.shape[1:] == (2,), method.__name__
        assert np.array_equal(found, expected), method.__name__


@MANY
@given(scenes())
def test_methods_match_brute_force_on_random_scenes(scene):
    assert_all_methods_match(*scene)


@MANY
@given(lattice_scenes())
def test_methods_match_brute_force_on_lattice_scenes(scene):
    assert_all_methods_match(*scene)


@SETTINGS
@given(scenes(max_count=150), st.sampled_from([1e-4, 1e-2, 0.3, 1.0, 10.0, 1e3, 1e7]))
def test_grid_with_explicit_cell_size_matches_brute_force(scene, cell_size):
    lower, upper = scene
    assert np.array_equal(grid_pairs(lower, upper, cell_size), brute_force_pairs(lower, upper))


@SETTINGS
@given(scenes(max_count=150), st.sampled_from([0, 1, 3, 12, 30]))
def test_quadtree_with_explicit_depth_matches_brute_force(scene, max_depth):
    lower, upper = scene
    found = quadtree_pairs(lower, upper, max_depth=max_depth)
    assert np.array_equal(found, brute_force_pairs(lower, upper))


def test_five_thousand_random_boxes():
    rng = np.random.default_rng(5000)
    lower = rng.uniform(-50.0, 50.0, (5000, 2))
    upper = lower + rng.uniform(0.0, 2.0, (5000, 2))
    expected = brute_force_pairs(lower, upper)
    assert len(expected) > 1000
    assert np.array_equal(grid_pairs(lower, upper), expected)
    assert np.array_equal(quadtree_pairs(lower, upper), expected)


def test_brute_force_on_a_hand_checked_scene():
    lower = np.array([[0.0, 0.0], [1.0, 0.5], [3.0, 3.0], [2.0, 0.0], [0.5, 0.5]])
    upper = np.array([[1.0, 1.0], [2.0, 2.0], [4.0, 4.0], [2.5, 0.4], [0.5, 0.5]])
    # 0-1 touch on x = 1; 1-3 touch at x = 2 but miss on y; 4 is a point inside 0.
    assert brute_force_pairs(lower, upper).tolist() == [[0, 1], [0, 4]]


@pytest.mark.parametrize("method", ["grid", "quadtree", "brute"])
def test_find_pairs_dispatches_and_accepts_lists(method):
    lower = [[0, 0], [1, 1], [5, 5]]
    upper = [[1, 1], [2, 2], [6, 6]]
    assert find_pairs(lower, upper, method).tolist() == [[0, 1]]
    # Only the grid uses a cell size; the others accept and ignore one.
    assert find_pairs(lower, upper, method, 0.5).tolist() == [[0, 1]]
    assert find_pairs(lower, upper).tolist() == [[0, 1]]


@pytest.mark.parametrize("method", ["grid", "quadtree", "brute"])
def test_no_boxes_and_one_box(method):
    none = np.zeros((0, 2))
    assert find_pairs(none, none, method).shape == (0, 2)
    one = np.array([[1.0, 2.0]])
    found = find_pairs(one, one + 1.0, method)
    assert found.shape == (0, 2) and found.dtype == np.int64


@pytest.mark.parametrize("method", ["grid", "quadtree"])
@pytest.mark.parametrize("extent", [0.0, 1.0])
def test_identical_boxes_all_overlap(method, extent):
    lower = np.full((7, 2), -3.5)
    expected = np.array([(i, j) for i in range(7) for j in range(i + 1, 7)])
    assert np.array_equal(find_pairs(lower, lower + extent, method), expected)


@pytest.mark.parametrize("method", ["grid", "quadtree"])
def test_touching_edges_and_corners_overlap(method):
    # A 3 x 3 checkerboard of unit squares: every neighbour touches by edge or corner.
    corner = np.array([(x, y) for y in range(3) for x in range(3)], dtype=np.float64) + 1e6
    found = find_pairs(corner, corner + 1.0, method)
    expected = [
        (i, j)
        for i in range(9)
        for j in range(i + 1, 9)
        if abs(i % 3 - j % 3) <= 1 and abs(i // 3 - j // 3) <= 1
    ]
    assert found.tolist() == [list(pair) for pair in expected]


@pytest.mark.parametrize("method", ["grid", "quadtree"])
def test_separated_boxes_do_not_overlap(method):
    lower = np.array([[0.0, 0.0], [1.0 + 1e-12, 0.0], [0.0, 1.0 + 1e-9]])
    assert find_pairs(lower, lower + 1.0, method).shape == (0, 2)


def test_one_huge_box_among_many():
    rng = np.random.default_rng(7)
    lower = np.concatenate([[[-1e5, -1e5]], rng.uniform(0.0, 60.0, (2000, 2))])
    upper = lower + np.concatenate([[[2e5, 1e5 + 30.0]], np.full((2000, 2), 1.0)])
    expected = brute_force_pairs(lower, upper)
    assert np.count_nonzero(expected[:, 0] == 0) > 500
    assert np.array_equal(grid_pairs(lower, upper), expected)
    assert np.array_equal(quadtree_pairs(lower, upper), expected)


def test_grid_sweep_keeps_a_touching_box_despite_rounding():
    # Box 1 ends exactly where the large box 0 starts; with these magnitudes, computing
    # where box 1 starts back from box 0 rounds one ulp past it unless the reach is padded.
    start = 803317.88788359
    lower = np.array([[start, 0.0], [-864748.2804919991, 0.0]])
    upper = np.array([[start + 1e8, 1.0], [start, 1.0]])
    assert grid_pairs(lower, upper, cell_size=5e5).tolist() == [[0, 1]]


def test_grid_sweep_reaches_back_to_wide_small_boxes():
    # Box 0 is a thin pole (101 cells, so swept); box 1 is wide but small (12 cells) and
    # touches it from the left, so the sweep must reach back by box 1's width.
    lower = np.array([[5.0, 0.0], [0.0, 0.0]])
    upper = np.array([[5.1, 100.0], [5.0, 1.0]])
    assert grid_pairs(lower, upper, cell_size=1.0).tolist() == [[0, 1]]


def test_grid_with_cells_too_small_to_index():
    # 1e3 / 1e-9 cells would overflow the packed cell keys; such boxes take the sweep.
    rng = np.random.default_rng(3)
    lower = rng.uniform(0.0, 1e3, (300, 2))
    lower[:100] = lower[100:200]
    upper = lower + rng.uniform(0.0, 200.0, (300, 2))
    upper[::3] = lower[::3]
    expected = brute_force_pairs(lower, upper)
    assert np.array_equal(grid_pairs(lower, upper, cell_size=1e-9), expected)


def test_grid_cells_cover_the_stored_boxes():
    rng = np.random.default_rng(11)
    lower = rng.uniform(-20.0, 20.0, (200, 2))
    upper = lower + rng.uniform(0.0, 2.0, (200, 2))
    cell_lower, cell_upper = grid_cells(lower, upper, cell_size=1.5)
    assert cell_lower.shape == cell_upper.shape and cell_lower.shape[1:] == (2,)
    assert np.allclose(cell_upper - cell_lower, 1.5)
    assert len(np.unique(np.round(cell_lower / 1.5), axis=0)) == len(cell_lower)
    # Every box's centre is inside some occupied cell.
    centre = (lower + upper) / 2.0
    inside = (cell_lower[None] <= centre[:, None]) & (centre[:, None] <= cell_upper[None])
    assert inside.all(axis=2).any(axis=1).all()


def cells_by_hand(lower, upper, size) -> tuple[dict, list]:
    """The grid's cells, plainly: {(column, row): boxes covering it} and the large boxes."""
    origin = lower.min(axis=0)
    first = np.floor((lower - origin) / size).astype(np.int64)
    last = np.floor((upper - origin) / size).astype(np.int64)
    cells, large = {}, []
    for i in range(len(lower)):
        if np.prod(last[i] - first[i] + 1) > MAX_CELLS_PER_BOX:
            large.append(i)
            continue
        for column in range(first[i, 0], last[i, 0] + 1):
            for row in range(first[i, 1], last[i, 1] + 1):
                cells.setdefault((column, row), []).append(i)
    return cells, large


@SETTINGS
@given(scenes(max_count=120), st.sampled_from([0.05, 0.7, 3.0, 1e3]))
def test_the_cell_grid_lists_each_box_in_the_cells_it_covers(scene, size):
    """The grid the broad phase and the query index share, dense or sparse, against a plain
    listing: each cell's boxes (ascending), the large boxes left out."""
    lower, upper = scene
    if len(lower) == 0 or np.ptp(np.concatenate([lower, upper])) / size > 2**29:
        return  # cell coordinates past the grid's reach: every box is large, tested above
    spans = np.zeros((len(lower), 6), dtype=np.int64)  # a column beyond the grid's own
    grid = build_cells(lower, upper, size, spans)
    cells, large = cells_by_hand(lower, upper, size)
    assert np.flatnonzero(spans[:, LARGE]).tolist() == large
    assert not spans[:, 5].any()
    listed = {}
    for c, key in enumerate(grid.keys.tolist()):
        boxes = grid.boxes[grid.start[c] : grid.start[c + 1]].tolist()
        if boxes:
            listed[(key >> AXIS_BITS, key & (2**AXIS_BITS - 1))] = boxes
    assert listed == cells
    assert np.all(np.diff(grid.keys) > 0)
    if grid.dense:
        assert len(grid.keys) == grid.columns * grid.rows


def test_a_sparse_cell_grid_lists_only_occupied_cells():
    lower = np.array([[0.0, 0.0], [1e4, 1e4], [1e4, 0.0]])
    upper = lower + 1.0
    grid = build_cells(lower, upper, 1.0, np.zeros((3, 5), dtype=np.int64))
    assert not grid.dense and len(grid.keys) == 12  # three boxes of 2 x 2 cells
    # Column by column: box 0's two columns, then box 2's and box 1's, which share them.
    assert grid.boxes.tolist() == [0] * 4 + [2, 2, 1, 1] * 2


def test_quadtree_nodes_hold_their_boxes():
    rng = np.random.default_rng(12)
    lower = rng.uniform(-20.0, 20.0, (200, 2))
    upper = lower + 10.0 ** rng.uniform(-2.0, 1.0, (200, 2))
    node_lower, node_upper = quadtree_nodes(lower, upper)
    side = node_upper - node_lower
    assert node_lower.shape == node_upper.shape and node_lower.shape[1:] == (2,)
    assert np.allclose(side[:, 0], side[:, 1]) and len(node_lower) < len(lower)
    # Loose by two: every box fits in the doubled square of at least one node.
    slack = 1e-9 * side
    fits = (node_lower[None] - slack <= lower[:, None]) & (
        upper[:, None] <= node_lower[None] + 2.0 * side + slack
    )
    assert fits.all(axis=2).any(axis=1).all()


def test_drawing_helpers_accept_no_boxes():
    none = np.zeros((0, 2))
    for lower, upper in (grid_cells(none, none), quadtree_nodes(none, none)):
        assert lower.shape == (0, 2) and upper.shape == (0, 2)


GOOD = np.zeros((3, 2))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: find_pairs(np.full((3, 2), np.nan), GOOD), "lower must be finite"),
        (lambda: find_pairs(GOOD, np.full((3, 2), np.inf)), "upper must be finite"),
        (lambda: find_pairs(np.zeros((3, 3)), np.zeros((3, 3))), r"lower must have shape \(N, 2\)"),
        (lambda: find_pairs(GOOD, np.zeros(6)), r"upper must have shape \(N, 2\)"),
        (lambda: find_pairs(GOOD, np.zeros((4, 2))), "same shape"),
        (lambda: find_pairs(GOOD, GOOD - 1.0), "upper must be >= lower"),
        (lambda: find_pairs(GOOD, GOOD, method="octree"), "method must be one of"),
        (lambda: find_pairs(GOOD, GOOD, method="quadtree", cell_size=-2.0), "cell_size must"),
        (lambda: grid_pairs(GOOD, GOOD, cell_size=0.0), "cell_size must be positive"),
        (lambda: grid_pairs(GOOD, GOOD, cell_size=-1.0), "cell_size must be positive"),
        (lambda: grid_pairs(GOOD, GOOD, cell_size=np.nan), "cell_size must be positive"),
        (lambda: grid_cells(GOOD, GOOD, cell_size="big"), "cell_size must be a number"),
        (lambda: quadtree_pairs(GOOD, GOOD, max_depth=-1), "max_depth must be between"),
        (lambda: quadtree_pairs(GOOD, GOOD, max_depth=31), "max_depth must be between"),
        (lambda: quadtree_nodes(GOOD, GOOD, max_depth=2.5), "max_depth must be an integer"),
        (lambda: brute_force_pairs([["a", "b"]], [["c", "d"]]), "lower must be numeric"),
    ],
)
def test_bad_input_raises_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()
