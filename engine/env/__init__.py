"""Learning environments over the engine (docs/env.md), an optional part: ``pip install 'monopoly-engine[rl]'``
brings numpy, Gymnasium and PettingZoo.

- :class:`MonopolyEnv`: the PettingZoo AEC environment, every seat a learner;
- :class:`MonopolySeatEnv`: the Gymnasium single-seat wrapper, the other seats bots (``action_masks()`` for
  sb3-contrib's MaskablePPO);
- :mod:`monopoly.env.codec`: the action codec (every decision's answers as integers, from the ruleset);
- :mod:`monopoly.env.observation`: the observation vector.
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as missing:  # pragma: no cover - the extra is not installed
    raise ImportError(f"monopoly.env needs the rl extra ({missing.name} is missing): "
                      "pip install 'monopoly-engine[rl]'") from None

from .codec import CODEC_VERSION, Codec, codec_for
from .gym_env import MonopolySeatEnv
from .observation import Observer
from .pettingzoo_env import REWARDS, MonopolyEnv, env

__all__ = ["CODEC_VERSION", "REWARDS", "Codec", "MonopolyEnv", "MonopolySeatEnv", "Observer", "codec_for", "env"]
