"""The demos: their pure helpers without a window, then every scene rendered offscreen.

Rendering goes through pyglet's headless mode on Mesa's EGL. Where that cannot start, the
rendering tests fail (they do not skip) with a message naming the Debian packages, which
CI installs with ``make system-deps``.
"""

from __future__ import annotations

import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from demos.app import headless, registry
from demos.app.cli import list_scenes
from demos.app.interpolation import PoseHistory
from demos.app.recording import Recorder
from demos.app.scene import counted
from demos.app.stepper import Stepper
from demos.draw import palette, tessellate
from demos.draw.camera import Camera
from demos.draw.hud import Stats, stats_line
from demos.scenes import sat_explorer_math as sat
from engine import Box, Circle, Polygon, World, collide

ROOT = Path(__file__).resolve().parents[1]
SQUARE = np.array([(0.0, 0.0), (3.0, 0.0), (3.0, 3.0), (0.0, 3.0)])
FAR_SQUARE = np.array([(4.0, 4.0), (6.0, 4.0), (6.0, 6.0), (4.0, 6.0)])
QUAD = np.array([(0.0, 0.0), (3.0, 0.0), (5.0, 4.0), (0.0, 5.0)])


# -- the SAT explorer's maths, against projections worked out by hand ---------------------
def test_projection_of_a_square_on_the_axes_and_the_diagonal():
    assert sat.project(SQUARE, (1.0, 0.0)) == (0.0, 3.0)
    assert sat.project(SQUARE, (0.0, 1.0)) == (0.0, 3.0)
    low, high = sat.project(SQUARE, np.array([1.0, 1.0]) / np.sqrt(2.0))
    # Corners (0, 0) and (3, 3) are the extremes: 0 and 6 / sqrt(2).
    assert low == pytest.approx(0.0) and high == pytest.approx(6.0 / np.sqrt(2.0))


def test_projection_of_a_quadrilateral_on_its_slanted_edge_normal():
    # Edge (3, 0) -> (5, 4) has outward normal (4, -2) / sqrt(20).
    normals = sat.edge_normals(QUAD)
    assert normals[1] == pytest.approx(np.array([4.0, -2.0]) / np.sqrt(20.0))
    # Dots with (4, -2): (0,0) 0, (3,0) 12, (5,4) 12, (0,5) -10.
    low, high = sat.project(QUAD, normals[1])
    assert low == pytest.approx(-10.0 / np.sqrt(20.0))
    assert high == pytest.approx(12.0 / np.sqrt(20.0))


def test_overlap_is_negative_for_a_gap_and_the_common_length_otherwise():
    assert sat.overlap((0.0, 3.0), (4.0, 6.0)) == -1.0
    assert sat.overlap((0.0, 3.0), (2.0, 6.0)) == 1.0
    assert sat.overlap_interval((0.0, 3.0), (2.0, 6.0)) == (2.0, 3.0)
    assert sat.overlap_interval((0.0, 3.0), (4.0, 6.0)) is None


def test_push_goes_past_the_nearer_end_when_one_shadow_contains_the_other():
    assert sat.push((0.0, 3.0), (2.0, 6.0)) == -1.0  # a slides down by its overlap
    # Contained: up by 7 (min past 7) or down by 6 (max past 4): the shorter wins.
    assert sat.push((0.0, 10.0), (4.0, 7.0)) == -6.0


def test_two_squares_with_a_gap_are_separated_by_an_axis_with_the_gap_of_one():
    result = sat.sat(SQUARE, FAR_SQUARE)
    assert result.separating is not None and result.mtv_axis is None
    assert result.axes[result.separating].overlap == pytest.approx(-1.0)
    assert np.all(result.mtv == 0.0)
    # Four edge normals per square, but only two distinct directions between them.
    assert len(result.axes) == 8 and len(sat.distinct_axes(result.axes)) == 2


def test_overlapping_polygons_give_the_engines_minimum_translation():
    a = sat.transform(SQUARE - 1.5, (0.0, 0.0), 0.3)
    b = sat.transform([(-1.5, -0.5), (1.5, -0.5), (0.0, 1.0)], (1.2, 0.8), 0.1)
    result = sat.sat(a, b)
    assert result.separating is None
    hit = collide(Polygon(a), (0, 0, 0), Polygon(b), (0, 0, 0))
    assert hit.intersect
    assert result.mtv == pytest.approx(hit.mtv, abs=1e-9)


def test_shadow_segment_drops_perpendiculars_onto_the_wall():
    # Axis x, wall through (0, -2): the shadow [1, 3] lies from (1, -2) to (3, -2).
    segment = sat.shadow_segment((1.0, 3.0), (1.0, 0.0), (0.0, -2.0))
    assert segment == pytest.approx(np.array([(1.0, -2.0), (3.0, -2.0)]))


def test_convexity_check_rejects_a_dent():
    assert sat.is_convex(SQUARE)
    assert not sat.is_convex([(0, 0), (2, 0), (1, 0.5), (2, 2), (0, 2)])


def test_explorer_drags_corners_but_keeps_the_polygons_convex():
    from demos.scenes.sat_explorer import Explorer

    explorer = Explorer()
    corner = explorer.world_polygon("A")[0].copy()
    assert explorer.press(corner + 0.05, "LEFT")  # within the grab radius of the corner
    explorer.drag(corner - 0.5)
    assert explorer.world_polygon("A")[0] == pytest.approx(corner - 0.5)
    explorer.drag(explorer.world_polygon("A").mean(axis=0))  # would dent the polygon
    assert explorer.world_polygon("A")[0] == pytest.approx(corner - 0.5)
    explorer.release()
    centre = explorer.world_polygon("B").mean(axis=0)
    assert explorer.press(centre, "LEFT")
    explorer.drag(centre + (1.0, 0.0))
    assert explorer.world_polygon("B").mean(axis=0) == pytest.approx(centre + (1.0, 0.0))
    assert not explorer.auto  # the user took over from the drifting demo


# -- renderer helpers without a window ----------------------------------------------------
def test_fan_gives_k_minus_two_triangles_per_padded_polygon():
    square = np.array([[(0, 0), (1, 0), (1, 1), (0, 1)]], dtype=float)
    triangle = np.array([[(0, 0), (1, 0), (0, 1), (0, 0)]], dtype=float)  # padded to 4
    triangles = tessellate.fan(np.concatenate([square, triangle])).reshape(-1, 3, 2)
    assert len(triangles) == 4
    u, v = triangles[:, 1] - triangles[:, 0], triangles[:, 2] - triangles[:, 0]
    area = 0.5 * np.abs(u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0])
    assert area[:2].sum() == pytest.approx(1.0) and area[2:].sum() == pytest.approx(0.5)


def test_inset_moves_every_edge_inwards_by_the_width():
    box = Box(2.0, 2.0)
    packed = box.packed
    inner = tessellate.inset(packed.vertices, packed.normals, packed.count, 0.25)
    assert np.abs(inner[0]).max(axis=0) == pytest.approx([0.75, 0.75])


def _triangle_areas(xy: np.ndarray) -> np.ndarray:
    tri = xy.reshape(-1, 3, 2).astype(np.float64)
    u, v = tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]
    return 0.5 * np.abs(u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0])


def test_sensors_are_drawn_as_translucent_outlines_without_a_fill():
    from demos.app.interpolation import current_poses
    from demos.draw.canvas import Canvas
    from demos.draw.debug_draw import Overlays, WorldPainter

    world = World(gravity=(0, 0))
    world.add_body(Box(2, 2), position=(0, 0), kind="static")
    world.add_body(Box(2, 2), position=(10, 0), kind="static", sensor=True)
    world.add_body(Circle(1), position=(20, 0), sensor=True)
    world.add_body(Circle(1), position=(30, 0))
    canvas = Canvas()
    canvas.pixel = 0.01
    WorldPainter().paint(canvas, world, current_poses(world), Overlays())
    drawn = canvas.vertices()
    areas = _triangle_areas(drawn["xy"])
    alpha = drawn["rgba"][::3, 3]
    body = np.rint(drawn["xy"].reshape(-1, 3, 2)[:, :, 0].mean(axis=1) / 10.0).astype(int)
    solid_box, sensor_box, sensor_disc, solid_disc = (body == i for i in range(4))
    # Solid bodies: opaque and filled (the edge colour's shape, the fill's inset on top).
    assert (alpha[solid_box | solid_disc] == 255).all()
    assert areas[solid_box].sum() > 4.0 and areas[solid_disc].sum() > 0.95 * np.pi
    # Sensors: translucent, and only a band along the outline, nothing inside it.
    assert sensor_box.any() and (alpha[sensor_box | sensor_disc] < 255).all()
    band = 2.0 * canvas.pixel  # SENSOR_EDGE_PX wide
    assert areas[sensor_box].sum() == pytest.approx(8.0 * band - 4.0 * band**2, rel=0.01)
    assert areas[sensor_disc].sum() < 2.0 * np.pi * band
    centre_near = np.abs(drawn["xy"][np.repeat(sensor_box, 3)] - (10.0, 0.0)).max(axis=1)
    assert centre_near.min() > 1.0 - band - 1e-6  # no vertex inside the band


def test_camera_round_trips_and_zooms_about_the_pointer():
    camera = Camera(800, 600)
    camera.fit((-10, -5), (10, 5), margin=0.0)
    point = np.array([3.0, -2.0])
    assert camera.to_world(camera.to_screen(point)) == pytest.approx(point)
    before = camera.to_world((100.0, 100.0))
    camera.zoom_at((100.0, 100.0), 2.0)
    assert camera.to_world((100.0, 100.0)) == pytest.approx(before)


def test_stepper_runs_one_step_per_sixtieth_with_hooks_before_each():
    world = World()
    world.add_body(Box(1, 1), position=(0, 5))
    calls = []
    stepper = Stepper(world, [lambda w: calls.append(w.time)])
    for _ in range(30):
        stepper.advance(1 / 60)
    assert world.time == pytest.approx(30 / 60)
    assert len(calls) == 30 and calls[0] == 0.0
    stepper.paused = True
    stepper.advance(1.0)
    assert world.time == pytest.approx(30 / 60)
    stepper.step_once()
    assert world.time == pytest.approx(31 / 60)


def test_stepper_speed_does_not_depend_on_the_frame_rate():
    worlds = []
    for frame in (1 / 30, 1 / 144):
        world = World()
        world.add_body(Box(1, 1), position=(0, 10))
        stepper = Stepper(world)
        for _ in range(round(2.0 / frame)):
            stepper.advance(frame)
        worlds.append(world)
    assert worlds[0].time == pytest.approx(worlds[1].time, abs=1 / 60)


def test_interpolation_blends_by_alpha_and_survives_removal():
    world = World(gravity=(0, 0))
    first = world.add_body(Circle(0.5), position=(0, 0), velocity=(60, 0))
    second = world.add_body(Circle(0.5), position=(5, 0), velocity=(60, 0))
    history = PoseHistory()
    history.capture(world)
    world.step()  # both move 1 m
    assert history.blend(world, 0.25)[:, 0] == pytest.approx([0.25, 5.25])
    world.remove(first)
    assert history.blend(world, 0.5)[:, 0] == pytest.approx([5.5])
    assert second.world is world


def recompute_contacts(world: World, gap: float = 0.02):
    """The touching part pairs found afresh at the current poses with the engine's broad
    and narrow phase (an oracle for the overlay, which reads the World's last step):
    (points (M, 2), normals (M, 2), pair count)."""
    from engine.broadphase import find_pairs
    from engine.narrowphase import collide_parts
    from engine.packing import PackedParts
    from engine.swept_bounds import part_bounds

    arrays = world.part_arrays()
    packed = PackedParts(arrays.vertices, arrays.normals, arrays.count, arrays.radius)
    owner = arrays.body
    poses = np.column_stack([world.positions, world.angles])
    lower, upper = part_bounds(packed, poses[owner])
    pairs = find_pairs(lower - gap, upper + gap, world.broadphase, world.cell_size)
    part_a, part_b = pairs[:, 0], pairs[:, 1]
    body_a, body_b = owner[part_a], owner[part_b]
    dynamic = world.kinds == World.KIND_CODES["dynamic"]
    keep = (body_a != body_b) & (dynamic[body_a] | dynamic[body_b])
    part_a, part_b, body_a, body_b = part_a[keep], part_b[keep], body_a[keep], body_b[keep]
    found = collide_parts(packed, part_a, poses[body_a], packed, part_b, poses[body_b], margin=gap)
    touching = found.point_count > 0
    count = found.point_count[touching]
    slot = np.arange(2)[None, :] < count[:, None]
    points = found.points[touching][slot]
    return points, np.repeat(found.normal[touching], count, axis=0), int(touching.sum())


def test_contact_overlay_agrees_with_a_recomputation():
    from demos.draw.contact_points import contact_count, find_contacts

    world = World()
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    for i in range(3):
        world.add_body(Box(1, 1), position=(0, 0.5 + i * 1.001))
    for _ in range(30):
        world.step()
    engine = find_contacts(world)
    points, normals, pairs = recompute_contacts(world)
    assert engine.manifolds == pairs == contact_count(world) == 3
    assert len(engine.points) == len(points) == 6
    # Every point sits on a face between two boxes: y = 0, 1 or 2 (within the slop).
    assert np.abs(engine.points[:, 1] - np.round(engine.points[:, 1])).max() < 0.02
    assert np.abs(np.abs(engine.normals[:, 1]) - 1.0).max() < 1e-6
    assert np.abs(np.abs(normals[:, 1]) - 1.0).max() < 1e-6


def test_gif_delays_add_up_to_real_time():
    recorder = Recorder("unused.gif", every=2, fps=60)
    recorder.frames = [None] * 30
    durations = recorder.durations()
    assert all(d % 10 == 0 for d in durations)
    assert sum(durations) == 1000


def test_the_missing_library_message_names_the_packages():
    message = str(headless.explain(OSError("libEGL.so.1: cannot open"), headless=True))
    for package in ("libegl1", "libegl-mesa0", "libgl1-mesa-dri"):
        assert package in message
    assert "make system-deps" in message


def test_every_scene_is_listed_with_a_summary():
    listing = list_scenes()
    expected = ("sat", "sweep", "pyramid", "stack", "rain", "bullets", "billiards", "concave",
                "broadphase", "platformer", "joints")  # fmt: skip
    for name in expected:
        assert f"  {name} " in listing
    assert registry.lookup("default").name == registry.DEFAULT


def test_every_scene_module_is_found_without_a_list(tmp_path, monkeypatch):
    import demos.scenes

    table = registry.scenes()
    registering = {entry.build.__module__ for entry in table.values()}
    folder = Path(demos.scenes.__file__).parent
    for info in pkgutil.iter_modules([str(folder)]):
        if "@scene(" in (folder / f"{info.name}.py").read_text():
            assert f"demos.scenes.{info.name}" in registering, info.name
    # Another package of scenes: its modules load in name order; a helper adds nothing.
    package = tmp_path / "discovered_scenes"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "helper.py").write_text("SIZE = 1.0\n")
    for module, name in (("b_second", "test-second"), ("a_first", "test-first")):
        (package / f"{module}.py").write_text(
            "from demos import scene\nfrom engine import World\n\n\n"
            f"@scene({name!r}, 'a test scene')\ndef build():\n    return World()\n"
        )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_SCENES", dict(table))  # forgotten after the test
    assert registry.import_scenes("discovered_scenes") == ["test-first", "test-second"]


def test_a_name_cannot_be_taken_by_a_second_scene():
    registry.scenes()
    with pytest.raises(ValueError, match="registered twice"):
        registry.scene("pyramid", "another pyramid")(lambda: World())


def test_body_colours_differ_between_neighbours():
    colours = palette.body_colours(np.arange(16))
    assert all((colours[i] != colours[i + 1]).any() for i in range(15))


def test_the_documented_scene_example_works():
    """The "Writing a scene" example in docs/demos.md registers and runs as printed."""
    text = (ROOT / "docs" / "demos.md").read_text()
    section = text[text.index("## Writing a scene") :]
    code = section[section.index("```python") + len("```python") : section.index("```\n\n")]
    exec(compile(code, "docs/demos.md", "exec"), {})
    built = registry.lookup("ramp").build()
    assert built.on_key("B")
    for _ in range(60):
        built.world.step()
    assert len(built.world.bodies) == 12


# -- scenes from a file of one's own --------------------------------------------------------
EXAMPLE = ROOT / "docs" / "examples" / "seesaw_scene.py"
TWO_SCENES = """
from demos import Scene, scene
from engine import Box, World


@scene("file-one", "the first scene of a file")
def one() -> Scene:
    world = World()
    world.add_body(Box(10, 1), position=(0, 0), kind="static")
    world.add_body(Box(1, 1), position=(0, 3))
    return Scene(world)


@scene("file-two", "the second scene of a file")
def two() -> World:
    world = World()
    world.add_body(Box(10, 1), position=(0, 0), kind="static")
    return world
"""


def test_the_documented_scene_file_is_the_example_file():
    text = (ROOT / "docs" / "demos.md").read_text()
    section = text[text.index("## A scene in a file of your own") :]
    code = section[section.index("```python\n") + len("```python\n") : section.index("```\n\n")]
    assert code == EXAMPLE.read_text()


def test_a_scene_file_runs_offscreen_like_a_bundled_scene(tmp_path, capsys):
    from demos.app.cli import main

    stem = tmp_path / "seesaw"
    argv = [str(EXAMPLE), "--headless", "--frames", "40", "--size", "480x300", "--out", str(stem)]
    try:
        code = main(argv)
    except headless.GraphicsUnavailable as error:
        pytest.fail(str(error), pytrace=False)
    assert code == 0, capsys.readouterr().err
    assert "seesaw: 40 frames" in capsys.readouterr().out
    with Image.open(stem.with_suffix(".gif")) as animation:
        assert animation.n_frames == 20
    pixels = np.asarray(Image.open(stem.with_suffix(".png")).convert("RGB"))
    assert len(np.unique(pixels.reshape(-1, 3), axis=0)) > 40  # drawn, with its HUD
    # Its scene is registered like a bundled one; loading the file again replaces it.
    (entry,) = registry.load_file(EXAMPLE)
    assert registry.lookup("seesaw") is entry and entry.summary.startswith("balls rain")
    built = entry.build()
    for _ in range(240):
        built.before_step(built.world)
        built.world.step()
    assert "left" in built.status()[0]


def test_a_file_with_several_scenes_runs_the_first_or_the_one_named(tmp_path, capsys):
    from demos.app.cli import main

    path = tmp_path / "two_scenes.py"
    path.write_text(TWO_SCENES)
    assert [entry.name for entry in registry.load_file(path)] == ["file-one", "file-two"]
    assert isinstance(registry.pick(registry.load_file(path), "file-two", "x").build(), World)
    common = ["--headless", "--frames", "2", "--size", "320x200", "--out", str(tmp_path / "x")]
    assert main([str(path), *common]) == 0
    out = capsys.readouterr().out
    assert "file-one: 2 frames" in out and "also has file-two (--scene NAME)" in out
    assert main([str(path), "--scene", "file-two", *common]) == 0
    assert "file-two: 2 frames" in capsys.readouterr().out


@pytest.mark.parametrize(
    "kind, expected",
    [
        ("missing", "no such file"),
        ("folder", "is a folder"),
        ("text", "not a Python file"),
        ("empty", "registers no scene"),
        ("taken", "'pyramid' is registered twice"),
        ("unknown", "no scene 'nope' in it; it has: file-one, file-two"),
    ],
)
def test_a_bad_scene_file_is_refused_with_its_name(kind, expected, tmp_path, capsys):
    from demos.app.cli import main

    files = {
        "missing": ("missing.py", None),
        "folder": ("folder", None),
        "text": ("notes.txt", "not a scene"),
        "empty": ("empty.py", "import math\n"),
        "taken": ("taken.py", TWO_SCENES.replace("file-one", "pyramid")),
        "unknown": ("two.py", TWO_SCENES),
    }
    name, content = files[kind]
    path = tmp_path / name
    if kind == "folder":
        path.mkdir()
    elif content is not None:
        path.write_text(content)
    argv = [str(path), "--headless", "--frames", "1"]
    if kind == "unknown":
        argv += ["--scene", "nope"]
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"python -m demos: {path}: ") and expected in error


def test_scene_option_needs_a_file(capsys):
    from demos.app.cli import main

    assert main(["pyramid", "--scene", "pyramid"]) == 2
    assert "--scene picks one of a file's scenes" in capsys.readouterr().err


def test_counts_on_screen_agree_with_their_number():
    assert counted(1, "ball") == "1 ball"
    assert counted(0, "ball") == "0 balls"
    assert counted(2, "body", "bodies") == "2 bodies"
    line = stats_line(Stats(fps=60.0, step_ms=1.0, bodies=1, contacts=1))
    assert "1 body " in line and line.endswith("1 contact")
    stack = registry.lookup("stack").build()
    assert stack.on_key("B")
    assert "1 ball lobbed" in stack.status()
    assert stack.on_key("B")
    assert "2 balls lobbed" in stack.status()


# -- joints: dragging with a mouse joint, drawing, the scene ------------------------------
def test_dragging_pulls_the_body_with_a_mouse_joint_and_letting_go_removes_it():
    from demos.app.mouse_drag import PULL_PER_KG, MouseDrag
    from engine import MouseJoint

    world = World()
    world.add_body(Box(20, 1), position=(0, -0.5), kind="static")
    heavy = world.add_body(Box(1, 1), position=(0, 0.5), density=50.0)  # 50 kg
    drag = MouseDrag()
    stepper = Stepper(world, [drag.before_step])
    assert not drag.grab(world, (5.0, 5.0))  # nothing there
    assert drag.grab(world, (0.2, 0.7)) and drag.active and drag.body is heavy
    (joint,) = world.joints
    assert isinstance(joint, MouseJoint) and joint.body_a is heavy
    assert joint.max_force == pytest.approx(PULL_PER_KG * heavy.mass)
    assert drag.grabbed_point() == pytest.approx([0.2, 0.7])
    drag.move((3.0, 4.0))
    assert joint.target == pytest.approx([3.0, 4.0])
    for _ in range(60):
        stepper.advance(1 / 60)
    # A second later the heavy body hangs from the pointer by the grabbed point.
    assert np.hypot(*(drag.grabbed_point() - (3.0, 4.0))) < 0.1
    held_at = heavy.position[1]
    drag.release()
    assert world.joints == [] and not drag.active and drag.body is None
    drag.release()  # letting go twice is harmless
    for _ in range(60):
        stepper.advance(1 / 60)
    assert held_at > 3.5 and heavy.position[1] < 1.0  # fell back to the ground


def test_dragging_survives_the_body_being_removed():
    from demos.app.mouse_drag import MouseDrag

    world = World()
    box = world.add_body(Box(1, 1), position=(0, 0))
    drag = MouseDrag()
    assert drag.grab(world, (0.0, 0.0))
    world.remove(box)  # its joints go with it
    assert world.joints == [] and not drag.active
    drag.move((1.0, 1.0))
    drag.before_step(world)
    drag.release()
    assert drag.body is None and drag.joint is None


def test_joint_arrays_put_the_anchors_where_the_handles_say():
    """The joint drawing reads the World's private joint table (demos/world_data.py); if
    the engine moves it, this fails so that world_data gets updated."""
    from demos import world_data
    from demos.app.interpolation import current_poses
    from demos.draw.canvas import Canvas
    from demos.draw.joint_draw import SPRING_ZIGS, anchor_points, paint_joints, zigzag
    from engine import DistanceJoint, MouseJoint, RevoluteJoint, WeldJoint

    world = World()
    a = world.add_body(Box(1, 0.2), position=(0.5, 0))
    b = world.add_body(Box(1, 0.2), position=(1.5, 0))
    c = world.add_body(Circle(0.3), position=(3.0, 0))
    handles = [
        world.add_joint(RevoluteJoint(a, None, (0, 0), lower=-1.0, upper=1.0)),
        world.add_joint(WeldJoint(a, b, (1, 0))),
        world.add_joint(DistanceJoint(b, c, (2, 0), (3, 0), frequency=2.0, damping=0.3)),
        world.add_joint(MouseJoint(c, (3.0, 1.0), anchor=(3.0, 0.2))),
    ]
    for _ in range(20):
        world.step()
    joints = world_data.joints(world)
    kinds = [world_data.REVOLUTE, world_data.WELD, world_data.DISTANCE, world_data.MOUSE]
    assert list(joints.kind) == kinds
    assert list(joints.frequency[:3]) == [0.0, 0.0, 2.0]  # the mouse joint's pull has one too
    points = anchor_points(joints, current_poses(world))
    for joint, ends, rows in zip(handles, points, joints.rows):
        # A joint to the world keeps the world in its first end.
        expected = (
            (joint.anchor_b, joint.anchor_a) if rows[0] < 0 else (joint.anchor_a, joint.anchor_b)
        )
        assert ends == pytest.approx(np.array(expected), abs=1e-9)
    assert points[3, 0] == pytest.approx([3.0, 1.0])  # the mouse joint's target

    start, end = zigzag(points[2:3, 0], points[2:3, 1], 0.1)
    assert len(start) == SPRING_ZIGS + 3
    assert start[0] == pytest.approx(points[2, 0]) and end[-1] == pytest.approx(points[2, 1])
    assert np.allclose(start[1:], end[:-1])  # one connected line
    canvas = Canvas()
    canvas.pixel = 0.01
    paint_joints(canvas, world, current_poses(world))
    assert canvas.vertex_count > 0


def test_joints_scene_holds_together_and_its_keys_work():
    from engine import RevoluteJoint

    built = registry.lookup("joints").build()
    world = built.world
    joints = len(world.joints)
    motor = next(j for j in world.joints if isinstance(j, RevoluteJoint) and j.max_motor_torque)
    assert built.on_key("B") and len(world.joints) == joints + 9  # a ragdoll's pins
    assert built.on_key("M") and motor.motor_speed > 0.0
    assert not built.on_key("Q")
    for _ in range(60):
        world.step()
    # The wheel turns at the motor's speed (3.0 rad/s after 1 s). Later the paddles may
    # wedge a ball against the drum and stall at the full 600 N m: in this run from 2.3 s;
    # without the keys pressed, from 1.5 s.
    assert motor.speed == pytest.approx(motor.motor_speed, abs=1.0)
    for _ in range(120):
        world.step()
    # Every pin still holds: its two anchors stay together (within a few centimetres).
    gaps = [
        np.hypot(*(j.anchor_a - j.anchor_b)) for j in world.joints if isinstance(j, RevoluteJoint)
    ]
    assert max(gaps) < 0.05
    # Nothing fell through the ground or flew off.
    moving = np.array([body.kind == "dynamic" for body in world.bodies])
    positions = world.positions[moving]
    assert positions[:, 1].min() > 0.0 and np.abs(positions[:, 0]).max() < 20.0


# -- the platformer's character, without a window ----------------------------------------
def _play(game, steps: int, held=()) -> None:
    """Run the platformer ``steps`` steps with ``held`` keys down, as the app would."""
    from demos.app.scene import Input

    for _ in range(steps):
        game.on_frame(Input(keys=frozenset(held), seconds=game.world.dt))
        game.before_step(game.world)
        game.world.step()


def _feet(game) -> float:
    """Height of the hero's feet."""
    from demos.scenes.platformer import HERO_SIZE

    return float(game.hero.position[1] - 0.5 * HERO_SIZE[1])


def test_platformer_autopilot_walks_jumps_rides_and_collects_in_120_frames():
    from demos.scenes.platformer import LIFT_Y, Platformer

    game = Platformer()
    bodies = len(game.world.bodies)
    start = game.hero.position
    _play(game, 120)
    assert game.auto  # nobody pressed a key
    assert game.hero.position[0] > start[0] + 5.0
    assert game.seen["walked"] and game.seen["one_way"] and game.seen["rode"]
    # Two coins: one on the one-way platform, one on the ride; the handler removed them.
    assert game.collected == 2 and len(game.world.bodies) == bodies - 2
    # Still riding at frame 120: standing on the lift, which moves right, and keeping up.
    assert game.riding and game.lift.velocity[0] > 0.5
    assert _feet(game) == pytest.approx(LIFT_Y, abs=0.01)
    assert np.all(game.hero.velocity == pytest.approx(game.lift.velocity, abs=1e-6))


def test_platformer_one_way_platform_lets_the_hero_up_and_down_through():
    from demos.scenes.platformer import PASSING_MASK, SOLID_MASK, Platformer

    game = Platformer()
    game.auto = False
    platform = game.one_way[0]  # top at y = 2.5, above the hero's head
    game.hero.position = (platform.position[0], game.hero.position[1])
    assert game.on_key("UP")
    _play(game, 3, held=["UP"])
    assert game.hero.mask == PASSING_MASK  # rising: the platform is left out
    _play(game, 50, held=["UP"])
    assert game.on_floor and _feet(game) == pytest.approx(2.5, abs=0.01)  # landed on it
    assert game.hero.mask == SOLID_MASK
    game.on_key("DOWN")  # drop through it
    _play(game, 40)
    assert game.on_floor and _feet(game) == pytest.approx(0.0, abs=0.01)
    # A tap of the jump key (let go at once) is a short hop: it does not reach the top.
    game.on_key("W")
    peak = 0.0
    for _ in range(30):
        _play(game, 1)
        peak = max(peak, _feet(game))
    assert 0.2 < peak < 1.0


def test_platformer_slopes_walls_and_crates():
    from demos.scenes.platformer import Platformer

    game = Platformer()
    game.auto = False
    hero = game.hero
    for crate in game.crates[:3]:  # the stack at the foot of the steep face
        game.world.remove(crate)
    # Walking right along the ground into the steep face (foot at x = -3): stopped there.
    hero.position = (-6.0, hero.position[1])
    _play(game, 90, held=["RIGHT"])
    assert -3.6 < hero.position[0] < -3.0 and _feet(game) < 0.01 and game.on_floor
    # Falling against the steep face: slides down it instead of hanging on it.
    hero.position = (-2.75, 2.2)
    _play(game, 60, held=["D"])
    assert _feet(game) == pytest.approx(0.0, abs=0.01) and game.on_floor
    # Walking into a crate pushes it.
    crate = game.crates[3]  # on the mesa, at x = 5.6
    hero.position = (3.8, 5.0 + 0.55 + 0.01)
    _play(game, 30, held=["RIGHT"])
    assert game.seen["pushed"] and crate.position[0] > 5.6 + 0.5
    # The gentle ramp (foot at x = 15) is walked up to the mesa's top at y = 5.
    hero.position = (15.6, 0.551)
    _play(game, 150, held=["LEFT"])
    assert hero.position[0] < 7.0 and _feet(game) == pytest.approx(5.0, abs=0.01)
    # Standing still on the ramp: the hero stays put instead of creeping down.
    hero.position = (11.0, 5.0 - 4.0 * 0.625 + 0.7)
    _play(game, 30)
    still = hero.position
    _play(game, 60)
    assert hero.position == pytest.approx(still, abs=1e-6) and game.on_floor


# -- every scene rendered offscreen -------------------------------------------------------
FRAMES = 120
SIZE = (480, 300)
WINDOWED = [name for name, entry in registry.scenes().items() if not entry.terminal]


def _render(name: str, path: Path) -> np.ndarray:
    """Run scene ``name`` offscreen for FRAMES frames; return its last frame (H, W, 3)."""
    from demos.app.runner import RunOptions, run

    options = RunOptions(headless=True, frames=FRAMES, screenshot=path, size=SIZE)
    try:
        result = run(registry.lookup(name), options)
    except headless.GraphicsUnavailable as error:
        missing = str(error)  # fail outside the handler, without the exception chain
    else:
        missing = None
    if missing:
        pytest.fail(missing, pytrace=False)
    assert result.frames == FRAMES
    return np.asarray(Image.open(result.png).convert("RGB"))


@pytest.mark.parametrize("name", WINDOWED)
def test_scene_renders_a_picture(name, tmp_path):
    pixels = _render(name, tmp_path / f"{name}.png")
    assert pixels.shape == (SIZE[1], SIZE[0], 3)
    colours = len(np.unique(pixels.reshape(-1, 3), axis=0))
    assert colours > 40, f"{name}: only {colours} colours: blank or nearly so"
    background = np.array(palette.BACKGROUND[:3])
    drawn = np.abs(pixels.astype(int) - background).sum(axis=2) > 30
    # The scene is framed below the HUD band: something must be drawn there...
    scene_area = drawn[110:, 20:-20]
    assert scene_area.mean() > 0.02, f"{name}: the scene area is nearly empty"
    # ...and the HUD's title panel sits in the top-left corner.
    assert drawn[5:40, 5:120].mean() > 0.5, f"{name}: no HUD panel"


def test_headless_default_run_records_like_make_demo(tmp_path):
    """`python -m demos default` without a display records by itself and says where."""
    env = {key: value for key, value in os.environ.items() if key != "DISPLAY"}
    stem = tmp_path / "demo"
    command = [sys.executable, "-m", "demos", "default", "--frames", "12", "--out", str(stem)]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    if done.returncode == 3:
        pytest.fail(done.stderr, pytrace=False)  # GL missing: the message names the packages
    assert done.returncode == 0, done.stderr
    gif, png = stem.with_suffix(".gif"), stem.with_suffix(".png")
    assert gif.is_file() and png.is_file()
    assert str(gif) in done.stdout
    with Image.open(gif) as animation:
        assert animation.n_frames == 6  # every second frame of 12


def test_common_controls_drive_the_app():
    """Pause, single step, overlays, dragging, zoom, pan and reset, through the handlers."""
    from demos.app.runner import RunOptions, open_window

    try:
        window = open_window(RunOptions(headless=True, size=SIZE, samples=0))
    except headless.GraphicsUnavailable as error:
        missing = str(error)
    else:
        missing = None
    if missing:
        pytest.fail(missing, pytrace=False)
    from pyglet.window import mouse

    from demos.app.window import DemoApp

    try:
        app = DemoApp(registry.lookup("pyramid"), window)
        world = app.world
        app.handle_key("SPACE")
        app.frame(0.5)
        assert world.time == 0.0
        app.handle_key("S")
        assert world.time == pytest.approx(world.dt)
        app.handle_key("2")
        app.render()
        assert app.overlays.contacts and app.painter.last_contacts.manifolds > 100
        app.handle_key("SPACE")

        top = max(world.bodies, key=lambda body: body.position[1])  # the pyramid's apex
        x, y = app.camera.to_screen(top.position)
        app.on_mouse_press(x, y, mouse.LEFT, 0)
        assert app.drag.body is top
        app.on_mouse_drag(x + 60, y + 60, 60, 60, mouse.LEFT, 0)
        for _ in range(20):
            app.frame(1 / 60)
        app.on_mouse_release(x + 60, y + 60, mouse.LEFT, 0)
        target = app.camera.to_world((x + 60, y + 60))
        assert np.hypot(*(top.position - target)) < 0.5

        zoom = app.camera.zoom
        app.on_mouse_scroll(x, y, 0, 1)
        assert app.camera.zoom > zoom
        centre = app.camera.centre.copy()
        app.on_mouse_drag(x, y, 30, 0, mouse.RIGHT, 0)
        assert app.camera.centre[0] < centre[0]

        app.handle_key("R")
        assert app.world is not world and app.world.time == 0.0
    finally:
        window.close()


# -- vehicle: wheel joints with motors and suspension ---------------------------------------
def test_vehicle_autopilot_drives_between_the_walls_without_flipping():
    from demos.scenes.vehicle import TURN_AT, Drive

    drive = Drive()
    reached, worst_tilt, worst_gap = set(), 0.0, 0.0
    mounts = [drive.chassis.world_to_local(wheel.position) for wheel in drive.wheels]
    for _ in range(20 * 60):
        drive.before_step(drive.world)
        drive.world.step()
        x = drive.chassis.position[0]
        reached |= {"right"} if x > TURN_AT - 1.0 else set()
        reached |= {"left"} if x < -TURN_AT + 1.0 else set()
        worst_tilt = max(worst_tilt, abs(drive.chassis.angle))
        for mount, wheel in zip(mounts, drive.wheels):
            # The wheel's centre stays on its mount's vertical line through the chassis.
            local = drive.chassis.world_to_local(wheel.position) - mount
            worst_gap = max(worst_gap, abs(local[0]))
    assert drive.auto and reached == {"left", "right"}
    assert worst_tilt < np.radians(75) and worst_gap < 0.01


def test_vehicle_keys_drive_brake_and_release_the_wheel_motors():
    from demos.scenes.vehicle import DRIVE_TORQUE, TOP_SPIN, Drive

    drive = Drive()
    assert drive.on_key("RIGHT") and not drive.auto
    _play(drive, 30, held=["RIGHT"])
    assert all(j.motor_speed == -TOP_SPIN and j.max_motor_torque == DRIVE_TORQUE
               for j in drive.joints)  # fmt: skip
    assert drive.chassis.velocity[0] > 1.0
    _play(drive, 90, held=["DOWN"])
    assert all(j.motor_speed == 0.0 for j in drive.joints)
    assert abs(drive.chassis.velocity[0]) < 0.2  # braked to a stop on the flat
    _play(drive, 5)
    assert all(j.max_motor_torque == 0.0 for j in drive.joints) and drive.command == "rolling"
