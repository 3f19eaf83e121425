"""One module per scene; importing this package registers them all, in menu order.

To add a scene, write ``demos/scenes/NAME.py`` with a ``@scene(...)`` builder and add the
module name here.
"""

from importlib import import_module

MODULES = (
    "sat_explorer",
    "sweep",
    "pyramid",
    "stack",
    "rain",
    "bullets",
    "billiards",
    "concave",
    "broadphase",
    "platformer",
    "joints",
    "sat_text",
)


for _module in MODULES:
    import_module(f"{__name__}.{_module}")
