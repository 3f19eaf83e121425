"""A scene in a file of its own: ``python -m demos docs/examples/seesaw_scene.py``.

Balls rain on a seesaw and roll off whichever end is down; a sensor at each side counts
the balls that reach it and takes them away. Sensors detect overlaps without pushing, so
they are drawn as outlines only.
"""

import numpy as np

from demos import Scene, scene
from engine import Box, Circle, RevoluteJoint, World


@scene("seesaw", "balls rain on a seesaw; a sensor at each side counts where they go")
def build() -> Scene:
    world = World()
    world.add_body(Box(30, 1), position=(0, -0.5), kind="static")
    for x in (-14.5, 14.5):
        world.add_body(Box(1, 6), position=(x, 3), kind="static")
    plank = world.add_body(Box(10, 0.3), position=(0, 2))
    world.add_joint(RevoluteJoint(plank, None, (0, 2)))
    bins = {
        side: world.add_body(Box(5, 3), position=(x, 1.5), kind="static", sensor=True)
        for side, x in (("left", -11.0), ("right", 11.0))
    }
    counts = dict.fromkeys(bins, 0)

    @world.on("sensor_begin")
    def reached(overlap) -> None:
        for side, sensor in bins.items():
            if overlap.sensor is sensor and overlap.other.world is world:
                counts[side] += 1
                world.remove(overlap.other)  # removing inside a handler is allowed

    rng = np.random.default_rng(7)

    def before_step(world: World) -> None:
        if round(world.time / world.dt) % 20 == 0:  # a ball every third of a second
            world.add_body(Circle(0.35), position=(rng.uniform(-4.5, 4.5), 10))

    def status() -> list[str]:
        return [f"left {counts['left']}   right {counts['right']}"]

    bin_colour = (129, 212, 150, 255)  # drawn as a translucent outline: a sensor
    return Scene(
        world,
        view=(-15, -1, 15, 11),
        before_step=before_step,
        status=status,
        colours=dict.fromkeys(bins.values(), bin_colour),
    )
