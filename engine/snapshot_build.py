"""Building a world's state from a checked snapshot, and swapping it in at once.

Every component is built first from the checked arrays (``from_arrays``); only then, when
nothing can fail any more, are they put into the World: a restore changes the world
completely or not at all.
"""

from __future__ import annotations

import numpy as np

from .axis_joints import AngularSpring, PrismaticJoint, RopeJoint, WheelJoint
from .body import Body
from .body_store import BodyStore
from .clock import Clock
from .drive_joints import GearJoint, MotorJoint
from .event_log import EventLog
from .joint_store import WORLD, JointStore
from .joints import DistanceJoint, MouseJoint, RevoluteJoint, WeldJoint
from .part_table import PartTable
from .snapshot_check import Checked
from .snapshot_format import SETTINGS
from .warm_start import WarmStartCache

# Joint kind code -> the handle class of the joints of that kind.
JOINT_CLASSES = {
    cls._kind: cls
    for cls in (
        RevoluteJoint, DistanceJoint, WeldJoint, MouseJoint, PrismaticJoint, WheelJoint,
        RopeJoint, AngularSpring, GearJoint, MotorJoint,
    )
}  # fmt: skip


def apply(
    world,
    checked: Checked,
    references: tuple | None,
    joint_references: tuple | None,
    fresh: bool,
) -> None:
    """Build the components from ``checked``, then swap them into ``world`` at once.

    references, joint_references: weak references to the snapshot's Body and Joint handles
    (None: build new ones). fresh: ``world`` was just made (load, unpickling): ids and the
    pose revision are taken as saved. Otherwise handles of ``world`` may be out there: ids
    stay above every id handed out, and the pose revision moves past every value the query
    index has seen.
    """
    state, counts = checked.state, checked.counts
    n = counts["bodies"]

    # Handles: the same objects where this world's handles are still alive.
    handles = []
    for i, body_id in enumerate(checked.handle_ids.tolist()):
        handle = references[i]() if references is not None else None
        if handle is None or handle._world is not world or handle._id != body_id:
            handle = Body(world, body_id, tuple(checked.shapes[i]), *checked.labels[i])
        handles.append(handle)
    by_id = np.empty(max(1, state["next_id"]), dtype=object)
    by_id[checked.handle_ids] = handles
    joint_handles, joint_bodies = _joint_handles(world, checked.joints, by_id, joint_references)

    previous = None if fresh else world
    bodies = BodyStore.from_arrays(
        checked.bodies,
        checked.row_of_id,
        state,
        handles[:n],
        0 if previous is None else previous._bodies.next_id,
    )
    parts = PartTable.from_arrays(checked.parts, counts["part_width"], state["next_part_uid"])
    next_joint_id = state["next_joint_id"]
    if previous is not None:
        next_joint_id = max(next_joint_id, previous._joints.next_id)
    joints = JointStore.from_arrays(checked.joints, joint_handles, next_joint_id)
    warm = WarmStartCache.from_arrays(checked.warm)
    clock = Clock.from_scalars(state, None if previous is None else previous._clock.pose_revision)

    def handles_of(name: str) -> np.ndarray:
        ids = checked.arrays[name]
        result = np.empty(ids.shape, dtype=object)
        result[...] = by_id[ids]
        return result

    # Restore keeps the world's own handlers (code, not state).
    event_log = EventLog.from_arrays(
        checked.arrays, handles_of, state["stepped"], world._event_log.handlers
    )

    # Nothing below can fail: the world changes completely or (above) not at all.
    for attribute in SETTINGS.values():
        setattr(world, attribute, getattr(checked.world, attribute))
    for joint, (body_a, body_b) in zip(joint_handles, joint_bodies):
        joint._body_a, joint._body_b = body_a, body_b
    for handle, (tag, user_data) in zip(handles, checked.labels):
        handle._tag, handle._user_data = tag, user_data
    world._bodies, world._parts, world._joints = bodies, parts, joints
    world._warm, world._clock, world._event_log = warm, clock, event_log


def _joint_handles(world, joints: dict, by_id: np.ndarray, references: tuple | None):
    """The Joint handles of the joint rows, and the user-facing bodies of each.

    A handle of this world that the snapshot holds is reused (matched by joint id); any
    other is a new object of the class of its kind code. joints: field -> (J, ...) arrays;
    by_id: object array, body id -> the restored world's Body handle. Returns (handles,
    [(body_a, body_b)]): the caller sets the bodies once nothing can fail any more (a joint
    to the world is stored with the world in slot A, but its user gave the body first).
    """
    alive = [reference() for reference in references or ()]
    own = {joint._id: joint for joint in alive if joint is not None and joint._world is world}
    handles, bodies = [], []
    rows = zip(*(joints[name].tolist() for name in ("joint_id", "kind", "body_a", "body_b")))
    for joint_id, kind, id_a, id_b in rows:
        cls = JOINT_CLASSES[kind]
        handle = own.get(joint_id)
        if type(handle) is not cls:
            handle = cls.__new__(cls)
            handle._world, handle._id = world, joint_id
            handle._points, handle._spec = None, {}  # only read before a joint is added
            handle._frames = handle._reference = None
            handle._body_a = handle._body_b = None
        handles.append(handle)
        if id_a == WORLD:
            bodies.append((by_id[id_b], None))
        else:
            bodies.append((by_id[id_a], by_id[id_b]))
    return handles, bodies
