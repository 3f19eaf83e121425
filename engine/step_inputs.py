"""What a step hands its compiled calls that changes only with the tables' layout.

Every step passes the two compiled calls (``engine.detect_stage``, ``engine.solve_stage``)
the same views of the body, part and joint tables, and what follows from which bodies
the joints join. Gathering them anew each step cost a small world more than its physics,
so they are kept until a table's ``version`` moves on: rows added, removed or grown, an
array replaced, a snapshot restored. Values written in place (a velocity, a friction, a
body's kind) need nothing: the views show them.
"""

from __future__ import annotations

from .candidate_pairs import collision_filters
from .soft_joints import joint_workspace
from .solver_inputs import solver_joint_columns

# The body columns ``engine.detect_stage.detect_stage`` takes, in its order.
DETECT_BODY_FIELDS = (
    "position", "angle", "velocity", "angular_velocity", "force", "torque", "inv_mass",
    "inv_inertia", "kind", "awake", "damping", "gravity_scale", "reach", "thickness",
    "island",
)  # fmt: skip
# The body columns ``engine.solve_stage.solve_stage`` takes, in its order.
SOLVE_BODY_FIELDS = (
    "position", "angle", "velocity", "angular_velocity", "force", "torque", "inv_mass",
    "inv_inertia", "kind", "awake", "damping", "gravity_scale", "thickness", "bullet", "reach",
    "sleep_time", "island", "sleep_threshold", "enable_sleep",
)  # fmt: skip


class StepInputs:
    """The views and derived arrays one step passes its kernels, for one layout of the
    world's tables (``current`` gathers them again when it changed).

    detect_body, solve_body: the body columns (N, ...) in ``DETECT_BODY_FIELDS`` and
    ``SOLVE_BODY_FIELDS`` order; body: every body column by name; parts: the packed parts
    (P, ...); table: (vertices, normals, count, radius, reach); part: every part column by
    name; part_columns: (owner, sensor, friction, restitution) (P,); filters:
    ``engine.candidate_pairs.collision_filters``; slots (J, 2): the joints' body rows;
    joints: the joint columns the solver takes (``engine.solver_inputs``); joint_rows: the
    room the solver writes the joints' rows into (``engine.soft_joints.joint_workspace``).
    """

    def __init__(self):
        self._tables = (None, None, None)  # the tables gathered from, and their versions
        self._versions = None

    def current(self, world) -> StepInputs:
        """Itself, gathered again from ``world`` if a table's layout changed since (or a
        table was replaced, as a restore does)."""
        tables = (world._bodies, world._parts.table, world._joints)
        versions = tuple(table.version for table in tables)
        if versions != self._versions or any(a is not b for a, b in zip(tables, self._tables)):
            self._gather(world)
            self._tables, self._versions = tables, versions
        return self

    def _gather(self, world) -> None:
        body = world._bodies.columns()
        part = world._parts.table.columns()
        self.body = body
        self.detect_body = tuple(map(body.__getitem__, DETECT_BODY_FIELDS))
        self.solve_body = tuple(map(body.__getitem__, SOLVE_BODY_FIELDS))
        self.parts = world._parts.packed()
        self.part = part
        self.table = (
            self.parts.vertices, self.parts.normals, self.parts.count, self.parts.radius,
            part["reach"],
        )  # fmt: skip
        self.part_columns = (part["body"], part["sensor"], part["friction"], part["restitution"])
        self.filters = collision_filters(body, part, world._jointed_keys())
        self.slots = world._joint_slots()
        self.joints = solver_joint_columns(world._joints.columns())
        self.joint_rows = joint_workspace(len(self.slots))
