"""Joints: step time of worlds held together by joints, and what a joint costs.

- 40 ragdolls (10 parts, 9 limited pins each: 400 bodies, 360 joints) tumbling onto the
  ground, timed while they fall and land (steps 1-120);
- a 100-link chain swinging from the world;
- the same 400 bodies with no joints, for the cost of the joints themselves.

Sleeping is off so that every step solves everything. Run alone with
``python -m bench.joints_bench``.
"""

from __future__ import annotations

import time

from demos.scenes.ragdoll import add_ragdoll
from engine import Box, RevoluteJoint, World

RAGDOLLS = 40
CHAIN_LINKS = 100
STEPS = 120


def ragdolls(joined: bool = True) -> World:
    world = World(sleep=False)
    world.add_body(Box(200, 1), position=(0, -0.5), kind="static")
    for i in range(RAGDOLLS):
        add_ragdoll(world, ((i % 10) * 2.0 - 9.0, 1.0 + (i // 10) * 2.5), group=-1 - i)
    if not joined:
        for joint in world.joints:
            world.remove_joint(joint)
    return world


def chain() -> World:
    world = World(sleep=False)
    previous = None
    for i in range(CHAIN_LINKS):
        link = world.add_body(Box(0.5, 0.1), position=(0.25 + 0.5 * i, 0))
        world.add_joint(RevoluteJoint(link, previous, anchor=(0.5 * i, 0)))
        previous = link
    return world


def milliseconds_per_step(world: World, steps: int = STEPS) -> float:
    start = time.perf_counter()
    for _ in range(steps):
        world.step()
    return 1e3 * (time.perf_counter() - start) / steps


def run():
    yield (
        "joints: 40 ragdolls (400 bodies, 360 joints) step",
        milliseconds_per_step(ragdolls()),
        "ms",
    )
    yield (
        "joints: the same 400 bodies, no joints, step",
        milliseconds_per_step(ragdolls(joined=False)),
        "ms",
    )
    world = chain()
    yield "joints: 100-link chain swinging, step", milliseconds_per_step(world), "ms"
    gaps = [abs(j.anchor_a - j.anchor_b).max() for j in world.joints]
    yield "joints: 100-link chain, widest pivot gap after 2 s", max(gaps), "m"


if __name__ == "__main__":
    for label, value, unit in run():
        print(f"{label:<52} {value:>10.4g}  {unit}")
