"""The World's state components: each owns its attributes, saves, checks and rebuilds itself.

The body store, part table, joint store, warm-start cache, clock and event log each list
their attributes as saved or excluded, give their arrays (``to_arrays``) and header
scalars, check a snapshot's (``validate``) and build themselves from checked arrays
(``from_arrays``). These tests hold each to that contract on a world with every shape and
joint kind, independently of the snapshot module's own tests.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_snapshot import small_world

from engine import Box, World
from engine.body_store import BodyStore
from engine.clock import Clock
from engine.joint_store import JointStore
from engine.part_table import PartTable
from engine.snapshot import snapshot
from engine.snapshot_format import ArrayChecker, Version
from engine.snapshot_take import COMPONENTS, EXCLUDED_ATTRIBUTES, SAVED_ATTRIBUTES
from engine.warm_start import WarmStartCache

TABLES = {"_bodies": BodyStore, "_parts": PartTable, "_joints": JointStore}


@pytest.fixture(scope="module")
def stepped():
    return small_world()


def test_each_component_lists_every_attribute_as_saved_or_excluded(stepped):
    for attribute, component in COMPONENTS.items():
        assert not component.SAVED.keys() & component.EXCLUDED.keys(), component.__name__
        known = component.SAVED.keys() | component.EXCLUDED.keys()
        for world in (World(), stepped):
            have = set(vars(getattr(world, attribute)))
            assert have == known, (component.__name__, have ^ known)


def test_the_world_holds_settings_and_components_only(stepped):
    """Beyond the settings, every saved World attribute is a component."""
    settings = {name for name, how in SAVED_ATTRIBUTES.items() if how.startswith("setting")}
    assert set(SAVED_ATTRIBUTES) - settings == set(COMPONENTS)
    for attribute, component in COMPONENTS.items():
        assert type(getattr(stepped, attribute)) is component
    # Left out: the query index, the resting parts' grid and the step's kept inputs
    # (caches) and what holds only during a step.
    assert set(EXCLUDED_ATTRIBUTES) == {
        "_query_index",
        "_resting_parts",
        "_step_inputs",
        "_stepping",
        "_running",
        "_deferred",
    }


@pytest.mark.parametrize("component", [BodyStore, JointStore, WarmStartCache])
def test_a_new_attribute_in_a_component_is_refused_by_snapshot(component):
    world = small_world(0)
    attribute = next(name for name, cls in COMPONENTS.items() if cls is component)
    getattr(world, attribute).ropes = []
    with pytest.raises(TypeError, match=f"{component.__name__} attribute.*ropes"):
        snapshot(world)


def test_the_layouts_name_every_array_a_snapshot_holds(stepped):
    arrays = snapshot(stepped)._arrays
    for component in (BodyStore, PartTable, JointStore, WarmStartCache):
        layout = component.layout()
        for name, (dims, dtype) in layout.items():
            assert name in arrays, name
            assert arrays[name].dtype == np.dtype(dtype), name
            assert arrays[name].ndim == len(dims), name


def _checker(stepped, arrays=None):
    snap = snapshot(stepped)
    counts, state = snap._header["counts"], snap._header["state"]
    sizes = {
        "N": counts["bodies"],
        "P": counts["parts"],
        "K": counts["part_width"],
        "I": state["next_id"],
        "J": counts["joints"],
    }
    return ArrayChecker("test", dict(snap._arrays) if arrays is None else arrays, sizes), snap


def test_tables_rebuilt_from_their_own_arrays_equal_the_originals(stepped):
    check, snap = _checker(stepped)
    state = snap._header["state"]
    version = Version(snap._header["version"])
    bodies, row_of_id = BodyStore.validate(check, version, state["next_id"])
    parts = PartTable.validate(check, version, state["next_part_uid"])
    joints = JointStore.validate(check, version, bodies["kind"], row_of_id, state["next_joint_id"])
    warm = WarmStartCache.validate(check, snap._header["counts"]["parts"])
    rebuilt = {
        "_bodies": BodyStore.from_arrays(bodies, row_of_id, state, stepped._bodies.handles, 0),
        "_parts": PartTable.from_arrays(parts, check.sizes["K"], state["next_part_uid"]),
        "_joints": JointStore.from_arrays(joints, stepped._joints.handles, state["next_joint_id"]),
        "_warm": WarmStartCache.from_arrays(warm),
    }
    for attribute, component in rebuilt.items():
        original = getattr(stepped, attribute)
        mine, theirs = component.to_arrays(), original.to_arrays()
        assert mine.keys() == theirs.keys()
        for name in mine:
            assert np.array_equal(mine[name], theirs[name]), name
            assert mine[name].dtype == theirs[name].dtype, name
        if hasattr(original, "scalars"):
            assert component.scalars() == original.scalars()
    assert rebuilt["_bodies"].handles == stepped._bodies.handles
    assert rebuilt["_joints"].handles == stepped._joints.handles


def test_the_clock_round_trips_and_moves_past_a_restored_worlds_revision(stepped):
    scalars = stepped._clock.scalars()
    assert vars(Clock.from_scalars(scalars)) == vars(stepped._clock)
    later = Clock.from_scalars(scalars, past_revision=scalars["pose_revision"] + 7)
    assert later.pose_revision == scalars["pose_revision"] + 8
    assert later.steps == scalars["steps"] == 40
    with pytest.raises(ValueError, match="state.accumulator"):
        Clock.validate({**scalars, "accumulator": 1.0}, 1 / 60, 8, "test")


@pytest.mark.parametrize(
    "name, change, message",
    [
        ("body.inv_mass", lambda a: a * 2.0, "inv_mass"),
        ("body.mass", lambda a: np.where(np.isinf(a), np.nan, a), "NaN or infinity"),
        ("row_of_id", lambda a: a[::-1].copy(), "row_of_id"),
        ("part.body", lambda a: a[::-1].copy(), "body order"),
        ("joint.kind", lambda a: np.full_like(a, 42), "unknown kinds"),
        ("joint.body_a", lambda a: np.full_like(a, 10**6), "do not exist"),
        ("warm.keys", lambda a: a[::-1].copy(), "not sorted"),
        ("warm.normal", lambda a: np.full_like(a, np.inf), "NaN or infinity"),
    ],
)
def test_each_component_refuses_a_broken_array_of_its_own(stepped, name, change, message):
    check, snap = _checker(stepped)
    arrays = dict(snap._arrays)
    arrays[name] = change(np.array(arrays[name]))
    check = ArrayChecker("test", arrays, check.sizes)
    state = snap._header["state"]
    version = Version(snap._header["version"])
    with pytest.raises(ValueError, match=message):
        bodies, row_of_id = BodyStore.validate(check, version, state["next_id"])
        PartTable.validate(check, version, state["next_part_uid"])
        JointStore.validate(check, version, bodies["kind"], row_of_id, state["next_joint_id"])
        WarmStartCache.validate(check, snap._header["counts"]["parts"])


def test_a_removed_body_leaves_the_id_map_and_handles_consistent():
    world = World()
    boxes = [world.add_body(Box(1, 1), position=(2 * i, 0)) for i in range(5)]
    world.remove(boxes[1])
    store = world._bodies
    assert store.handles == [boxes[0], *boxes[2:]]
    assert store.row_of_id[: store.next_id].tolist() == [0, -1, 1, 2, 3]
    assert list(store.handle_objects()) == store.handles
    assert store.view("body_id").tolist() == [0, 2, 3, 4]
