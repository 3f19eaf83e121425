"""The lander of ``bench.lander`` in Box2D 2.3 (the ``box2d`` package), as Gymnasium builds
it, for side-by-side figures: the same terrain, push and engine spread from the same seed,
the same controller, Box2D's 180 velocity and 60 position iterations.

    python -m bench.lander_box2d       # 20 episodes in each engine, and the step's cost
"""

from __future__ import annotations

import time

import numpy as np

from bench.lander import MAX_STEPS, Lander, Outcome, controller, engine_push, episode
from engine.envs.lander_world import (
    CHUNKS,
    FPS,
    GROUND,
    HEIGHT,
    HULL,
    HULL_CATEGORY,
    INITIAL_RANDOM,
    LEG_AWAY,
    LEG_CATEGORY,
    LEG_DOWN,
    LEG_HALF_HEIGHT,
    LEG_HALF_WIDTH,
    LEG_REST,
    LEG_SPEED,
    LEG_TORQUE,
    LEG_TRAVEL,
    SCALE,
    WIDTH,
)

VELOCITY_ITERATIONS, POSITION_ITERATIONS = 180, 60  # Gymnasium's


class Box2DLander:
    """One episode's Box2D world, drawn from ``seed`` as ``bench.lander.Lander`` draws."""

    def __init__(self, seed: int):
        import Box2D

        b2 = Box2D.b2
        self.random = np.random.default_rng(seed)
        self.world = b2.world(gravity=(0, -10))
        heights = self.random.uniform(0.0, HEIGHT / 2, size=CHUNKS + 1)
        xs = [WIDTH / (CHUNKS - 1) * i for i in range(CHUNKS)]
        pad_y = HEIGHT / 4
        self.pad_y = pad_y
        heights[CHUNKS // 2 - 2 : CHUNKS // 2 + 3] = pad_y
        smooth = [0.33 * (heights[i - 1] + heights[i] + heights[i + 1]) for i in range(CHUNKS)]
        self.ground = self.world.CreateStaticBody(
            shapes=b2.edgeShape(vertices=[(0, 0), (WIDTH, 0)])
        )
        for i in range(CHUNKS - 1):
            self.ground.CreateEdgeFixture(
                vertices=[(xs[i], smooth[i]), (xs[i + 1], smooth[i + 1])], density=0, friction=0.1
            )
        top = (WIDTH / 2, HEIGHT)
        self.hull = self.world.CreateDynamicBody(
            position=top, angle=0.0,
            fixtures=b2.fixtureDef(
                shape=b2.polygonShape(vertices=[(x / SCALE, y / SCALE) for x, y in HULL]),
                density=5.0, friction=0.1, categoryBits=HULL_CATEGORY, maskBits=GROUND,
                restitution=0.0,
            ),
        )  # fmt: skip
        push = self.random.uniform(-INITIAL_RANDOM, INITIAL_RANDOM, size=2)
        self.hull.ApplyForceToCenter((float(push[0]), float(push[1])), True)
        self.legs, self.hinges = [], []
        for side in (-1, +1):
            # Made as Gymnasium makes it: beside the hull, 0.6 m below its hinge and outside
            # its limits, for the joint to pull in.
            leg = self.world.CreateDynamicBody(
                position=(WIDTH / 2 - side * LEG_AWAY / SCALE, HEIGHT), angle=side * 0.05,
                fixtures=b2.fixtureDef(
                    shape=b2.polygonShape(box=(LEG_HALF_WIDTH / SCALE, LEG_HALF_HEIGHT / SCALE)),
                    density=1.0, restitution=0.0, categoryBits=LEG_CATEGORY, maskBits=GROUND,
                ),
            )  # fmt: skip
            rest = -side * LEG_REST
            lower, upper = (rest, rest + LEG_TRAVEL) if side < 0 else (rest - LEG_TRAVEL, rest)
            joint = self.world.CreateJoint(
                b2.revoluteJointDef(
                    bodyA=self.hull, bodyB=leg, localAnchorA=(0, 0),
                    localAnchorB=(side * LEG_AWAY / SCALE, LEG_DOWN / SCALE), enableMotor=True,
                    enableLimit=True, maxMotorTorque=LEG_TORQUE, motorSpeed=side * LEG_SPEED,
                    lowerAngle=lower, upperAngle=upper,
                )
            )  # fmt: skip
            self.legs.append(leg)
            self.hinges.append((joint, lower, upper))
        self.legs_down = [False, False]
        self.crashed = False

    def observe(self) -> np.ndarray:
        """The observation (8,) of ``bench.lander.Lander.observe``."""
        x, y = self.hull.position
        vx, vy = self.hull.linearVelocity
        return np.array([
            (x - WIDTH / 2) / (WIDTH / 2), (y - (self.pad_y + LEG_DOWN / SCALE)) / (HEIGHT / 2),
            vx * (WIDTH / 2) / FPS, vy * (HEIGHT / 2) / FPS, self.hull.angle,
            20.0 * self.hull.angularVelocity / FPS, float(self.legs_down[0]),
            float(self.legs_down[1]),
        ])  # fmt: skip

    def _fire(self, action: int) -> None:
        spread = self.random.uniform(-1.0, 1.0, size=2) / SCALE
        push = engine_push(action, self.hull.angle, tuple(self.hull.position), spread)
        if push is not None:
            impulse, at = push
            self.hull.ApplyLinearImpulse(tuple(map(float, impulse)), tuple(map(float, at)), True)

    def step(self, action: int) -> tuple[np.ndarray, str | None]:
        """Fire, step, and judge: (observation (8,), ending or None)."""
        self._fire(action)
        self.world.Step(1.0 / FPS, VELOCITY_ITERATIONS, POSITION_ITERATIONS)
        down = [False, False]
        for contact in self.world.contacts:
            if not contact.touching:
                continue
            pair = (contact.fixtureA.body, contact.fixtureB.body)
            if self.hull in pair:
                self.crashed = True
            for i, leg in enumerate(self.legs):
                down[i] = down[i] or leg in pair
        self.legs_down = down
        state = self.observe()
        if self.crashed or abs(state[0]) >= 1.0:
            return state, "crashed" if self.crashed else "out"
        if not self.hull.awake:
            return state, "landed"
        return state, None

    def limit_excess(self) -> float:
        """How far past a limit either hinge is, rad."""
        return max(max(lower - j.angle, j.angle - upper, 0.0) for j, lower, upper in self.hinges)


def box2d_episode(seed: int, max_steps: int = MAX_STEPS) -> Outcome:
    """Fly one Box2D episode with the controller; the limit excess is measured from the
    100th step on (the legs start outside their limits)."""
    lander = Box2DLander(seed)
    outcome = Outcome()
    state = lander.observe()
    touched = None
    for step in range(max_steps):
        state, ending = lander.step(controller(state))
        outcome.steps = step + 1
        if step >= 100:
            outcome.limit_excess = max(outcome.limit_excess, lander.limit_excess())
        outcome.speeds.append(float(np.hypot(*lander.hull.linearVelocity)))
        if touched is None and any(lander.legs_down):
            touched = step
        if ending is not None:
            outcome.ending = ending
            if ending == "landed" and touched is not None:
                outcome.settle_steps = step - touched
            break
    return outcome


def step_cost(make, steps: int = 200) -> float:
    """Median µs per step of the lander's first ``steps`` steps, engines idle."""
    world_step = make()
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        world_step()
        times.append(time.perf_counter() - start)
    return 1e6 * float(np.median(times))


def _engine_step():
    lander = Lander(0)
    return lander.world.step


def _box2d_step():
    lander = Box2DLander(0)
    return lambda: lander.world.Step(1.0 / FPS, VELOCITY_ITERATIONS, POSITION_ITERATIONS)


def run(episodes: int = 20) -> list[tuple[str, float, str]]:
    """The bench rows: per engine, episodes landed (asleep) of ``episodes``, the worst limit
    excess, the median steps from touch to sleep, and the falling lander's step cost."""
    rows = []
    for name, fly in (("engine", episode), ("Box2D 2.3", box2d_episode)):
        outcomes = [fly(seed) for seed in range(episodes)]
        settle = [o.settle_steps for o in outcomes if o.settle_steps is not None]
        rows += [
            (f"lander {name}: landed and asleep of {episodes}",
             sum(o.ending == "landed" for o in outcomes), "episodes"),
            (f"lander {name}: worst limit excess", max(o.limit_excess for o in outcomes), "rad"),
            (f"lander {name}: steps from touch to sleep, median",
             float(np.median(settle)) if settle else float("nan"), "steps"),
        ]  # fmt: skip
    rows.append(("lander step, falling: engine", step_cost(_engine_step), "us"))
    rows.append(("lander step, falling: Box2D 2.3", step_cost(_box2d_step), "us"))
    return rows


def main() -> None:
    for label, value, unit in run():
        print(f"{label:<52} {value:>10.4g}  {unit}")


if __name__ == "__main__":
    main()
