"""Compile (or load) every kernel once: ``python -m engine.warm``.

Runs a small world that uses every stage and feature (every shape and joint kind, sensors,
bullets, kinematic bodies, presolve, both broad phases, sleeping), the public narrow phase
and the queries, so that each kernel is compiled for the argument types the engine uses
and cached on disk (see ``engine.jit``). ``make install`` runs it, so a user's first world
starts at once. The world's kernels and the public API's are compiled in two processes at
once (compiling is single-threaded). While they compile, each says every
``PROGRESS_EVERY`` seconds how many kernels it has compiled so far (a first run takes
minutes, and nobody should wait in silence); at the end, how long it took.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from numba.core import event

PROGRESS_EVERY = 20.0  # seconds between a compiling process's progress lines


def warm(parallel: bool = True) -> float:
    """Touch every kernel, in two processes unless ``parallel`` is False; returns the
    seconds it took."""
    began = time.perf_counter()
    print(
        "engine: loading the physics kernels, compiling those not yet cached...",
        file=sys.stderr,
        flush=True,
    )
    os.environ["ENGINE_QUIET_COMPILE"] = "1"  # the line above says it for every process
    # The compiling processes optimise at LLVM's level 1: the kernels run as fast as at
    # numba's default level 3 (measured on the step, the narrow phase and the queries),
    # and most of a compile is numba's own typing, which no level shortens.
    os.environ.setdefault("NUMBA_OPT", "1")
    if parallel:
        with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
            for done in [pool.submit(_timed, warm_world), pool.submit(_timed, warm_api)]:
                print(f"engine: {done.result()}", file=sys.stderr, flush=True)
    else:
        warm_world()
        warm_api()
    return time.perf_counter() - began


class _CompileCount(event.Listener):
    """Counts the engine's kernels this process compiles (loading a cached one is not a
    compile)."""

    def __init__(self):
        self.count = 0

    def on_start(self, ev) -> None:
        pass

    def on_end(self, ev) -> None:
        dispatcher = ev.data.get("dispatcher")
        module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
        if module.startswith("engine."):
            self.count += 1


def _timed(task, every: float = PROGRESS_EVERY) -> str:
    """Run ``task``, printing every ``every`` seconds how many kernels it has compiled so
    far, and say how long it took."""
    began = time.perf_counter()
    compiled = _CompileCount()
    done = threading.Event()

    def report() -> None:
        while not done.wait(every):
            print(
                f"engine: {task.__name__}: kernels compiled so far: {compiled.count} "
                f"({time.perf_counter() - began:.0f} s)",
                file=sys.stderr,
                flush=True,
            )

    event.register("numba:compile", compiled)
    reporter = threading.Thread(target=report, daemon=True)
    reporter.start()
    try:
        task()
    finally:
        done.set()
        reporter.join()
        event.unregister("numba:compile", compiled)
    return (
        f"{task.__name__} took {time.perf_counter() - began:.1f} s "
        f"(kernels compiled: {compiled.count})"
    )


def warm_world() -> None:
    """Step a world that uses every stage and feature."""
    from . import (
        Box,
        Circle,
        ConcavePolygon,
        DistanceJoint,
        MouseJoint,
        Polygon,
        RevoluteJoint,
        WeldJoint,
        World,
        WorldBatch,
    )

    for broadphase in ("grid", "quadtree"):
        world = World(broadphase=broadphase)
        world.add_body(Box(20, 1), position=(0, -0.5), kind="static")
        world.add_body(Box(2, 0.2), position=(3, 2), kind="kinematic", velocity=(0.5, 0))
        crate = world.add_body(Box(1, 1), position=(0, 1), restitution=0.5)
        ball = world.add_body(Circle(0.3), position=(0.2, 2.5), restitution=0.8)
        star = world.add_body(
            ConcavePolygon([(0, 0), (2, 0), (2, 2), (1, 1), (0, 2)]), position=(-3, 2)
        )
        hexagon = Polygon([(np.cos(t), np.sin(t)) for t in np.arange(6) * np.pi / 3])
        bullet = world.add_body(hexagon, position=(-6, 3), velocity=(300, 0), bullet=True)
        world.add_body(Circle(1.0), position=(5, 1), sensor=True, kind="static")
        arm = world.add_body(Box(1, 0.1), position=(6.5, 4))
        world.add_joint(
            RevoluteJoint(arm, None, anchor=(6, 4), lower=-1, upper=1, max_motor_torque=1)
        )
        world.add_joint(DistanceJoint(crate, ball, (0, 1), (0.2, 2.5), frequency=2.0))
        world.add_joint(DistanceJoint(star, None, (-3, 2), (-3, 5), frequency=30.0))
        world.add_joint(DistanceJoint(arm, crate, (6.5, 4), (0, 1)))
        world.add_joint(WeldJoint(bullet, star, anchor=(-4, 3)))
        world.add_joint(MouseJoint(ball, target=(0, 3), max_force=100.0))
        if broadphase == "quadtree":
            # A presolve handler sends the step the staged way; the grid world's takes the
            # one call (``engine.whole_step``): both are compiled.
            world.on("presolve", lambda contact: True)
        world.on("contact_begin", lambda contact: None)
        for _ in range(60):
            world.step()
        if broadphase == "grid":
            # Copies of it stepped together (``engine.batch``), and what writes wake.
            batch = WorldBatch(world, 2)
            batch.velocities[0, 2] = (0.0, 1.0)
            batch.awake[1, 2] = False
            batch.awake[1, 2] = True
            batch.step(2)
            batch.touching([(0, 2)])
            batch.contact_events()
            batch.raycast_many(np.zeros((2, 1, 2)), np.ones((2, 1, 2)))
            batch.reset([0])


def warm_api() -> None:
    """The queries, and the public narrow and broad phase on their own."""
    from . import Box, Circle, World, collide, collide_many
    from .broadphase import find_pairs

    # The narrow phase first: the other process's world needs it too, and finds it cached
    # if this one got there first.
    collide(Box(1, 1), (0, 0, 0), Circle(0.5), (0.8, 0, 0), (1, 0), 0.1)
    poses = np.zeros((2, 3))
    collide_many([Box(1, 1), Circle(1)], poses, Box(1, 1), poses)
    lower = np.array([[0.0, 0.0], [0.5, 0.5]])
    for method in ("grid", "quadtree"):
        find_pairs(lower, lower + 1.0, method)
    world = World()
    world.add_body(Box(20, 1), position=(0, -0.5), kind="static")
    world.add_body(Circle(0.5), position=(1, 1), sensor=True)
    mover = world.add_body(Box(1, 1), position=(0, 0.6), kind="kinematic")
    world.query_point((0, 1))
    world.query_aabb((-1, -1), (1, 1))
    world.raycast((-8, 0.5), (8, 0.5))
    world.raycast_many(np.array([[-8.0, 0.5]]), np.array([[8.0, 0.5]]))
    world.raycast_all((-8, 0.5), (8, 0.5))
    world.shape_cast(Box(0.5, 0.5), (0, 4, 0), (0, -4))
    world.move_and_slide(mover, (0.1, -0.1))


def main() -> None:
    seconds = warm()
    print(f"engine: kernels ready ({seconds:.1f} s)")


if __name__ == "__main__":
    main()
