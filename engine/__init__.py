"""A 2D rigid-body physics engine whose hot paths are numpy operations on whole arrays.

>>> from engine import Box, collide
>>> collide(Box(1, 1), (0, 0, 0), Box(1, 1), (0.9, 0, 0)).intersect
True
"""

from .body import Body
from .chain import Chain
from .collide import Collision, CollisionBatch, collide, collide_many
from .events import Contact, Event, SensorOverlap
from .joints import DistanceJoint, Joint, MouseJoint, RevoluteJoint, WeldJoint
from .segments import Segment
from .shapes import Box, Circle, ConcavePolygon, Polygon, Shape
from .world import HandlerError, World

__all__ = [
    "Body",
    "Contact",
    "DistanceJoint",
    "Joint",
    "MouseJoint",
    "RevoluteJoint",
    "WeldJoint",
    "Event",
    "HandlerError",
    "SensorOverlap",
    "World",
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
