"""A 2D rigid-body physics engine whose hot paths are numpy operations on whole arrays.

>>> from engine import Box, collide
>>> collide(Box(1, 1), (0, 0, 0), Box(1, 1), (0.9, 0, 0)).intersect
True
"""

from .axis_joints import AngularSpring, PrismaticJoint, RopeJoint, WheelJoint
from .batch import WorldBatch
from .batch_columns import BatchColumn
from .body import Body
from .bulk_views import ContactArrays, JointArrays, PartArrays
from .chain import Chain
from .collide import Collision, CollisionBatch, collide, collide_many
from .drive_joints import GearJoint, MotorJoint
from .event_handlers import HandlerError
from .events import Contact, Event, SensorOverlap
from .joint_base import Joint
from .joints import DistanceJoint, MouseJoint, RevoluteJoint, WeldJoint
from .segments import Segment
from .shapes import Box, Circle, ConcavePolygon, Polygon, Shape
from .world import World

__all__ = [
    "Body",
    "ContactArrays",
    "JointArrays",
    "PartArrays",
    "Contact",
    "DistanceJoint",
    "Joint",
    "MouseJoint",
    "RevoluteJoint",
    "WeldJoint",
    "PrismaticJoint",
    "WheelJoint",
    "RopeJoint",
    "AngularSpring",
    "GearJoint",
    "MotorJoint",
    "Event",
    "HandlerError",
    "SensorOverlap",
    "World",
    "WorldBatch",
    "BatchColumn",
    "Box",
    "Chain",
    "Circle",
    "Collision",
    "CollisionBatch",
    "ConcavePolygon",
    "Polygon",
    "Segment",
    "Shape",
    "collide",
    "collide_many",
]
