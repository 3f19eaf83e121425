"""The velocity passes over contacts and joints together, colour by colour.

Contacts and joints share one colouring, so colour c holds some manifolds and some joints
with no dynamic body in common: both batches of a colour are solved before the next colour,
and every constraint sees what the colours before it did (Gauss-Seidel over the whole
constraint graph, not over contacts and joints separately).
"""

from __future__ import annotations

from itertools import zip_longest


def solve_velocities(contacts, joints, passes: int) -> None:
    """Run ``passes`` Gauss-Seidel passes of a ContactSolver and a JointSolver, whose
    batch lists are indexed by the same colours, then store the contact impulses."""
    colours = [
        (contact, joint)
        for contact, joint in zip_longest(contacts.batches, joints.batches)
        if (contact is not None and len(contact.bodies))
        or (joint is not None and len(joint.bodies))
    ]
    for _ in range(passes):
        for contact, joint in colours:
            if contact is not None and len(contact.bodies):
                contacts.solve(contact)
            if joint is not None and len(joint.bodies):
                joints.solve(joint)
    contacts.store()
