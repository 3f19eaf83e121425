"""Each setting's rule is written once and says the same thing wherever it is checked:
given to add_body, to a shape, to a body's setter, or read from a file."""

from __future__ import annotations

import io

import numpy as np
import pytest

from engine import Box, Circle, World
from engine.field_rules import RULES

CASES = [  # setting, a bad value, the words every message must have
    ("friction", -0.5, "must be >= 0"),
    ("restitution", 1.5, "must be in [0, 1]"),
    ("density", 0.0, "must be > 0"),
    ("category", 0x10000, "must be a 16-bit value in [0, 0xFFFF]"),
    ("mask", -1, "must be a 16-bit value in [0, 0xFFFF]"),
    ("group", 2**31, "must fit in 32 bits"),
    ("gravity_scale", 1001.0, "must be within +-1000"),
    ("linear_damping", -1.0, "must be >= 0"),
]


@pytest.mark.parametrize(("name", "bad", "words"), CASES)
def test_add_body_a_setter_and_a_shape_say_the_same(name, bad, words):
    world = World()
    with pytest.raises(ValueError) as given:
        world.add_body(Box(1, 1), **{name: bad})
    assert str(given.value).startswith(f"{name}: {words}") and world.bodies == []
    body = world.add_body(Box(1, 1))
    if name != "density":  # a body's density is set through its mass
        before = getattr(body, name)
        with pytest.raises(ValueError) as setter:
            setattr(body, name, bad)
        assert str(setter.value) == str(given.value) and getattr(body, name) == before
    if name in ("friction", "restitution", "density", "category", "mask", "group"):
        with pytest.raises(ValueError) as shape:
            Circle(1, **{name: bad})
        assert str(shape.value) == str(given.value)


@pytest.mark.parametrize("name", ["friction", "restitution", "category", "mask", "group",
                                  "gravity_scale", "density"])  # fmt: skip
def test_a_file_breaking_a_rule_is_refused_with_the_rule(name):
    from test_snapshot import read_npz, write_npz

    world = World()
    world.add_body(Box(1, 1))
    buffer = io.BytesIO()
    world.save(buffer)
    header, arrays = read_npz(buffer.getvalue())
    bad = {case: value for case, value, _ in CASES}[name]
    column = arrays[f"body.{name}"].copy()
    column[0] = bad
    arrays[f"body.{name}"] = column
    with pytest.raises(ValueError) as error:
        World.load(io.BytesIO(write_npz(header, arrays)))
    assert f"'body.{name}' holds values out of range ({RULES[name].text})" in str(error.value)


def test_rules_accept_their_edges_and_refuse_nan():
    assert RULES["restitution"].holds(np.array([0.0, 1.0])).all()
    assert not RULES["density"].holds(0.0) and RULES["density"].holds(1e-300)
    assert RULES["group"].holds(-(2**31)) and not RULES["group"].holds(2**31)
    assert not RULES["friction"].holds(np.nan)
