"""Gymnasium environments on the engine: ``Lander``, Gymnasium's LunarLander-v3, and
``LanderVector``, many of its episodes stepped together on a ``WorldBatch``.

Needs Gymnasium, the ``rl`` extra (``pip install 'engine[rl]'``).
"""

try:
    import gymnasium  # noqa: F401
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError("engine.envs needs Gymnasium: pip install 'engine[rl]'") from error

from .lander import Lander
from .lander_vector import LanderVector

__all__ = ["Lander", "LanderVector"]
