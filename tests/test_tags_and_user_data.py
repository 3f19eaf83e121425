"""Body tags, handlers registered between two tags, and the user_data slot.

The oracle for a tagged handler is an untagged one registered beside it: the tagged handler
must see exactly the untagged one's events between the two tags, in the same order, each
contact turned so that body_a carries the first tag (normal reversed when turned).
"""

from __future__ import annotations

import copy
import io
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Box, Circle, Contact, World

CONTACT_EVENTS = ("contact_begin", "contact_persist", "contact_end")


def oriented(subject, first_tag: str, second_tag: str):
    """The subject as a handler between (first_tag, second_tag) must receive it, or None."""
    if not isinstance(subject, Contact):
        tags = {subject.sensor.tag, subject.other.tag}
        return subject if tags == {first_tag, second_tag} else None
    if (subject.body_a.tag, subject.body_b.tag) == (first_tag, second_tag):
        return subject
    if (subject.body_a.tag, subject.body_b.tag) == (second_tag, first_tag):
        return Contact(
            subject.body_b, subject.body_a, -subject.normal, subject.points, subject.depth,
            subject.normal_impulse, subject.tangent_impulse,
        )  # fmt: skip
    return None


def described(subject) -> tuple:
    if isinstance(subject, Contact):
        return (id(subject.body_a), id(subject.body_b), tuple(subject.normal.tolist()),
                subject.normal_impulse)  # fmt: skip
    return (id(subject.sensor), id(subject.other))


@settings(max_examples=25, deadline=None)
@given(
    tags=st.lists(st.sampled_from(["player", "coin", None]), min_size=4, max_size=10),
    seed=st.integers(0, 2**16),
    between=st.sampled_from([("player", "coin"), ("coin", "player"), ("coin", "coin")]),
)
def test_a_tagged_handler_sees_exactly_its_pairs_turned_its_way(tags, seed, between):
    rng = np.random.default_rng(seed)
    world = World()
    world.add_body(Box(6, 1), position=(0, -0.5), kind="static", tag="coin")
    for i, tag in enumerate(tags):
        shape = Circle(0.3) if i % 2 else Box(0.5, 0.4)
        world.add_body(shape, position=(rng.uniform(-2, 2), 0.5 + 0.6 * i), tag=tag,
                       angle=rng.uniform(0, 3), sensor=bool(i % 5 == 4))  # fmt: skip
    everything, tagged = [], []
    for event in (*CONTACT_EVENTS, "sensor_begin", "sensor_end"):
        world.on(event, lambda s, e=event: everything.append((e, s)))
        world.on(event, lambda s, e=event: tagged.append((e, s)), between=between)
    for step in range(90):
        world.step()
        if step == 60:
            world.remove(world.bodies[-1])  # a removed body's contact_end keeps its tag
    expected = [(e, oriented(s, *between)) for e, s in everything]
    expected = [(e, described(s)) for e, s in expected if s is not None]
    assert [(e, described(s)) for e, s in tagged] == expected
    for _, subject in tagged:
        if isinstance(subject, Contact):
            assert (subject.body_a.tag, subject.body_b.tag) == between


def test_contact_normal_points_from_the_first_tag_to_the_second():
    world = World()
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static", tag="ground")
    hero = world.add_body(Box(0.5, 1.0), position=(0, 0.5), tag="player")
    seen = {}
    world.on("contact_persist", lambda c: seen.setdefault("up", c), between=("ground", "player"))
    world.on("contact_persist", lambda c: seen.setdefault("down", c), between=("player", "ground"))
    for _ in range(10):
        world.step()
    assert seen["up"].body_b is hero and seen["up"].normal[1] == pytest.approx(1.0)
    assert seen["down"].body_a is hero and seen["down"].normal[1] == pytest.approx(-1.0)


def test_a_tagged_presolve_makes_a_one_way_platform_for_its_tags_only():
    world = World()
    world.add_body(Box(4, 0.2), position=(0, 2.0), kind="static", tag="ledge")
    hero = world.add_body(Circle(0.25), position=(0, 0.0), velocity=(0, 8), tag="player")
    crate = world.add_body(Box(0.4, 0.4), position=(1.0, 0.0), velocity=(0, 8))

    @world.on("presolve", between=("player", "ledge"))
    def pass_upwards(contact):
        return contact.body_a.velocity[1] <= 0.0  # the player passes while it rises

    for _ in range(45):
        world.step()
    assert hero.position[1] > 2.1  # went through and landed on top
    assert crate.position[1] < 2.0  # hit it from below


def test_off_removes_the_registration_with_the_same_tags():
    world = World()

    def handler(contact):
        pass

    world.on("contact_begin", handler, between=("a", "b"))
    world.on("contact_begin", handler)
    with pytest.raises(ValueError, match=r"not registered for this event between \('a', 'c'\)"):
        world.off("contact_begin", handler, between=("a", "c"))
    world.off("contact_begin", handler, between=("a", "b"))
    assert world._event_log.handlers["contact_begin"] == [handler]
    world.off("contact_begin", handler)
    assert world._event_log.handlers["contact_begin"] == []


@pytest.mark.parametrize(
    ("between", "error", "message"),
    [
        ("player", TypeError, "between: expected a pair of tags"),
        (("player",), TypeError, "between: expected a pair of tags"),
        (("player", None), TypeError, "between: expected two tags"),
        (("player", 3), TypeError, "between: expected a str or None, got int"),
        (("player", ""), ValueError, "between: must not be empty"),
    ],
)
def test_bad_between_is_refused_by_name(between, error, message):
    world = World()
    with pytest.raises(error, match=message):
        world.on("contact_begin", print, between=between)
    assert world._event_log.handlers["contact_begin"] == []


def test_tags_are_checked():
    world = World()
    with pytest.raises(TypeError, match="tag: expected a str or None, got int"):
        world.add_body(Box(1, 1), tag=7)
    assert world.bodies == []
    body = world.add_body(Box(1, 1), tag="crate")
    with pytest.raises(ValueError, match="tag: must not be empty"):
        body.tag = ""
    assert body.tag == "crate"
    body.tag = None
    assert body.tag is None


def labelled_world():
    world = World()
    world.add_body(Box(10, 1), kind="static", tag="ground", user_data={"level": 1})
    coin = world.add_body(Circle(0.2), position=(0, 2), tag="coin", user_data=[1, "two"])
    world.add_body(Box(1, 1), position=(2, 2))
    return world, coin


def test_tags_and_user_data_go_through_files_snapshots_deepcopy_and_pickle():
    world, coin = labelled_world()
    buffer = io.BytesIO()
    world.save(buffer)
    loaded = World.load(io.BytesIO(buffer.getvalue()))
    assert [b.tag for b in loaded.bodies] == ["ground", "coin", None]
    assert [b.user_data for b in loaded.bodies] == [{"level": 1}, [1, "two"], None]

    saved = world.snapshot()
    coin.tag, coin.user_data = "gem", "changed"
    world.restore(saved)
    assert (coin.tag, coin.user_data) == ("coin", [1, "two"])  # the same handle, restored

    twin = copy.deepcopy(world)
    assert twin.bodies[1].user_data == [1, "two"]
    assert twin.bodies[1].user_data is not coin.user_data  # a deep copy is a copy
    unpickled = pickle.loads(pickle.dumps(world))
    assert [b.tag for b in unpickled.bodies] == ["ground", "coin", None]
    assert unpickled.bodies[0].user_data == {"level": 1}


def test_user_data_a_file_cannot_hold_is_refused_naming_the_body(tmp_path):
    world, coin = labelled_world()
    coin.user_data = object()
    path = tmp_path / "world.npz"
    with pytest.raises(TypeError, match=r"user_data of body 1: a file holds only JSON data"):
        world.save(path)
    assert not path.exists() and list(tmp_path.iterdir()) == []
    # In memory it is kept as it is.
    assert copy.deepcopy(world).bodies[1].user_data is not None
    world.restore(world.snapshot())
    assert isinstance(coin.user_data, object)


def test_bad_tags_in_a_file_are_refused():
    from test_snapshot import read_npz, write_npz

    world, _ = labelled_world()
    buffer = io.BytesIO()
    world.save(buffer)
    header, arrays = read_npz(buffer.getvalue())
    header["tags"][1] = 5
    with pytest.raises(ValueError, match=r"header 'tags'\[1\] is 5"):
        World.load(io.BytesIO(write_npz(header, arrays)))
    header["tags"] = header["tags"][:2]
    with pytest.raises(ValueError, match="header 'tags' must be a list of 3"):
        World.load(io.BytesIO(write_npz(header, arrays)))
