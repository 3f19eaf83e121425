"""draw and draw.trajectory: outlines where the bodies are, rendered with Agg to PNG.

Placement is checked twice: the outline vertices against the pose formula (to rounding,
1e-12 m), and the rendered pixels: at each body's centre the picture has that body's
colour, and the background elsewhere.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_rgb  # noqa: E402

from engine import (  # noqa: E402
    Box,
    Chain,
    Circle,
    ConcavePolygon,
    DistanceJoint,
    Polygon,
    RevoluteJoint,
    Segment,
    World,
)
from engine.experiments import draw, record  # noqa: E402
from engine.experiments.drawing import FACES  # noqa: E402
from engine.experiments.outlines import outlines  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def scene() -> World:
    world = World()
    world.add_body(Box(12, 1), position=(0, -0.5), kind="static")
    world.add_body(Box(2, 0.5), position=(-4, 3), kind="kinematic", velocity=(0.5, 0))
    world.add_body(Box(1, 1), position=(-1, 0.5), angle=0.2)
    world.add_body(Circle(0.6), position=(2, 0.6))
    world.add_body(
        ConcavePolygon([(0, 0), (2, 0), (2, 0.6), (0.6, 0.6), (0.6, 2), (0, 2)]), position=(4, 3)
    )
    bob = world.add_body(Circle(0.3), position=(0, 4))
    world.add_joint(DistanceJoint(bob, None, bob.position, (1, 5.5)))
    return world


def test_outlines_follow_the_pose_formula():
    world = World()
    box = world.add_body(Box(2, 1), position=(3, 4), angle=0.5)
    # a compound body: its shapes are placed so that their common centroid is the position
    pair = world.add_body([Box(1, 1), Circle(0.5, offset=(2, 0))], position=(-1, 1), angle=1.0)
    found = outlines(world)
    c, s = np.cos(0.5), np.sin(0.5)
    corners = np.array([[-1, -0.5], [1, -0.5], [1, 0.5], [-1, 0.5]]) @ [[c, s], [-s, c]]
    assert np.allclose(found.polygons[0], corners + (3, 4), rtol=0, atol=1e-12)
    assert found.polygon_body.tolist() == [0, 1] and found.circle_body.tolist() == [1]
    areas = np.array([1.0, np.pi * 0.25])
    centroid = areas @ np.array([[0, 0], [2, 0]]) / areas.sum()
    turn = np.array([[np.cos(1.0), -np.sin(1.0)], [np.sin(1.0), np.cos(1.0)]])
    assert np.allclose(found.centres[0], turn @ ([2, 0] - centroid) + (-1, 1), atol=1e-12)
    assert found.radii.tolist() == [0.5]
    assert box.mass == 2.0 and pair.kind == "dynamic"


def pixel_colour(ax, point) -> np.ndarray:
    """RGB (0-1) of the rendered pixel at the data point ``point``."""
    canvas = ax.figure.canvas
    canvas.draw()
    image = np.asarray(canvas.buffer_rgba())[:, :, :3] / 255.0
    x, y = ax.transData.transform(point)
    return image[image.shape[0] - 1 - int(round(y)), int(round(x))]


def test_draw_renders_each_body_where_it_is(tmp_path):
    world = scene()
    ax = draw(world, contacts=True)
    assert ax.get_aspect() == 1.0
    path = tmp_path / "scene.png"
    ax.figure.savefig(path, dpi=80)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # The L's centroid, by hand: a 2 x 0.6 bar (area 1.2, centroid (1, 0.3)) and a 0.6 x 1.4
    # upright (area 0.84, centroid (0.3, 1.3)) give (0.7118, 0.7118); a point inside the
    # upright, (0.3, 1.6) in the outline's frame, is at (4, 3) + (0.3, 1.6) - centroid.
    centroid = (1.2 * np.array([1, 0.3]) + 0.84 * np.array([0.3, 1.3])) / 2.04
    upright = tuple(np.array([4, 3]) + [0.3, 1.6] - centroid)
    expected = {
        (0, -0.5): "static",
        (-4, 3): "kinematic",
        (-1, 0.5): "dynamic",
        (2, 0.75): "dynamic",  # the circle, off its radius line
        upright: "dynamic",
    }
    for point, kind in expected.items():
        assert np.allclose(pixel_colour(ax, point), to_rgb(FACES[kind]), atol=0.02), point
    for empty in [(-2.5, 1.5), (3, 5.5), (-5, 5)]:
        assert np.allclose(pixel_colour(ax, empty), 1.0, atol=0.02), empty


def test_draw_shows_joints_and_contacts_when_asked():
    world = World()
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    crate = world.add_body(Box(1, 1), position=(0, 0.5))
    bob = world.add_body(Circle(0.2), position=(3, 2))
    world.add_joint(RevoluteJoint(bob, None, anchor=(3, 3)))
    for _ in range(5):
        world.step()
    plain = draw(world, joints=False)
    detailed = draw(world, contacts=True)
    assert len(detailed.collections) > len(plain.collections)
    segments = [
        segment
        for collection in detailed.collections
        if hasattr(collection, "get_segments")
        for segment in collection.get_segments()
    ]
    anchor = world.joints[0].anchor_a
    assert any(
        np.allclose(segment[0], bob.position) and np.allclose(segment[1], anchor)
        for segment in segments
    )
    contact_points = np.concatenate([contact.points for contact in world.contacts])
    offsets = np.concatenate([c.get_offsets() for c in detailed.collections[-1:]])
    assert np.allclose(offsets, contact_points)
    assert crate.kind == "dynamic"


def test_draw_uses_the_axes_it_is_given_and_refuses_other_things():
    figure, (left, right) = plt.subplots(1, 2)
    assert draw(scene(), ax=right) is right and not left.collections
    with pytest.raises(TypeError, match="^world"):
        draw("world")
    with pytest.raises(TypeError, match="^ax"):
        draw(scene(), ax=figure)


def test_draw_trajectory_draws_the_paths_of_the_bodies_that_moved(tmp_path):
    world = scene()
    trajectory = record(world, steps=40, every=2)
    ax = draw(world)
    assert draw.trajectory(trajectory, ax) is ax
    paths = ax.collections[-3].get_segments()
    positions = trajectory.positions
    moved = [i for i in range(trajectory.bodies) if np.any(positions[:, i] != positions[0, i])]
    assert 0 not in moved and {1, 4, 5} <= set(moved)  # the platform, the L, the pendulum
    assert len(paths) == len(moved)
    for path, body in zip(paths, moved):
        assert np.allclose(path, trajectory.positions[:, body])
    ax.figure.savefig(tmp_path / "paths.png", dpi=60)
    only = draw.trajectory(trajectory, bodies=[3])
    assert len(only.collections[0].get_segments()) == 1
    with pytest.raises(ValueError, match="^bodies"):
        draw.trajectory(trajectory, bodies=[9])
    with pytest.raises(TypeError, match="^trajectory"):
        draw.trajectory(world)


def test_an_empty_world_and_a_still_trajectory_draw_nothing_without_error():
    world = World()
    ax = draw(world, contacts=True)
    assert all(len(collection.get_paths()) == 0 for collection in ax.collections)
    world.add_body(Box(1, 1), kind="static")
    trajectory = record(world, steps=3)
    ax = draw.trajectory(trajectory)
    assert len(ax.collections[0].get_segments()) == 0


def test_lines_and_bodies_in_their_own_frame_are_drawn_where_they_are():
    world = World()
    ground = world.add_body(
        [Segment((0, 0), (4, 1)), Segment((4, 1), (6, 0))], kind="static", origin="local"
    )
    rail = world.add_body(Chain([(0, 3), (2, 3), (2, 5)]), kind="static", position=(10, 0))
    hull = world.add_body(
        Polygon([(-1, 0), (1, 0), (0.5, 1), (-0.5, 1)]), position=(3, 6), angle=0.3,
        origin="local",
    )  # fmt: skip
    found = outlines(world)
    assert found.line_body.tolist() == [0, 0, 1]
    assert np.allclose(found.lines[0], ground.local_to_world([(0, 0), (4, 1)]), atol=1e-12)
    assert np.allclose(found.lines[1], ground.local_to_world([(4, 1), (6, 0)]), atol=1e-12)
    assert len(found.lines[2]) == 3
    assert rail.kind == "static"
    corners = hull.local_to_world([(-1, 0), (1, 0), (0.5, 1), (-0.5, 1)])
    assert np.allclose(found.polygons[0], corners, atol=1e-12)
