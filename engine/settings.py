"""Numerical constants of the simulation, named in one place with the reason for each.

Tolerances that are lengths or speeds are given here in metres; a World multiplies them
by its ``units_per_meter`` (a world in pixels at 100 units per metre has a slop of 0.5
pixel), and the four a user may tune (linear slop, restitution threshold, sleep threshold,
time to sleep) are World settings whose defaults these are. Times and angles never scale.
"""

# Penetration push-out leaves alone (``engine.position_correction``), and the length the
# other contact tolerances are counted in. The contact springs themselves pull towards
# touching: a box resting on the ground sits a fraction of a millimetre deep.
LINEAR_SLOP = 0.005  # m

# A contact between thin or small bodies allows at most this fraction of the thinner
# body's thickness as slop, so a 5 mm box is not left sitting 5 mm deep in its neighbour;
# bodies thicker than LINEAR_SLOP / SLOP_FRACTION (25 cm) keep the world's slop.
SLOP_FRACTION = 0.02

# Gap within which a contact is made ahead of touching, in slops. Speculative contacts let
# the solver stop bodies at the surface within a step instead of after they overlap.
SPECULATIVE_SLOPS = 4.0

# Below this approach speed an impact does not bounce: resting bodies would otherwise jitter
# on restitution computed from the small velocities gravity gives them every step.
RESTITUTION_THRESHOLD = 1.0  # m/s

# Fraction of the remaining overlap removed per push-out pass, and the most one pass may
# move a contact: large corrections in one go would launch bodies.
CORRECTION_FACTOR = 0.5
MAX_CORRECTION = 0.2  # m

# A reference face on B replaces one on A only when clearly better (by this many slops),
# so the contact points of a resting pair do not switch features (and lose warm starting)
# between steps.
FLIP_SLOPS = 0.1

# How far short of a surface ``move_and_slide`` stops a character, so that it does not
# start its next move touching.
CHARACTER_SKIN = 1e-3  # m

# Passes per step of the push-out of deep overlap (``engine.position_correction``).
POSITION_ITERATIONS = 3

# A body moving more than this fraction of its own size in one step is checked against
# the time of impact of its sweep, so that it cannot pass through thin obstacles.
CCD_FRACTION = 0.25

# How much a catch-up in World.advance may run at most, in steps per call.
MAX_STEPS_PER_ADVANCE = 8

# A body slower than this (at its centre and at its reach when turning) counts as resting.
SLEEP_THRESHOLD = 0.05  # m/s

# An island whose bodies have all rested this long falls asleep and leaves the solver.
TIME_TO_SLEEP = 0.5  # s

# The angular counterpart of the linear slop: joint trees close only the angular error
# past a share of it (``engine.solver_settings.TREE_TOLERANCE``).
ANGULAR_SLOP = 2.0 * 3.141592653589793 / 180.0  # rad

# The largest values the engine accepts where they are given (positions, anchors and
# targets; speeds; the step; gravity), in the world's units: these bounds keep float64
# arithmetic finite whatever the unit, so ``units_per_meter`` does not scale them. A step
# works with sums and products of them (v dt, w r, a joint's lever arm times a speed);
# within these limits every intermediate value stays far inside float64 and the joint
# solver stays well conditioned: welding bodies 1e12 m apart that move at MAX_SPEED still
# keeps every number finite.
MAX_COORDINATE = 1e12  # m
MAX_SPEED = 1e6  # m/s
MAX_ANGULAR_SPEED = 1e6  # rad/s
MAX_DT = 1.0  # s
MAX_GRAVITY = 1e6  # m/s^2
# Units of 10 micrometres at the finest: a finer unit would take the default gravity past
# MAX_GRAVITY.
MAX_UNITS_PER_METER = 1e5
