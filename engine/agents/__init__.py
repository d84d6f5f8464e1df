"""Agents: the decision protocol and the built-in bots, found by name."""

from __future__ import annotations

import difflib

from .base import Agent
from .bots import BOTS, CautiousAgent, GreedyAgent, RandomAgent, TraderAgent
from .recorder import RecordingAgent, ReplayAgent, ReplayMismatch


def make_agent(name: str) -> Agent:
    """A new bot by name (``random``, ``greedy``, ``cautious``, ``trader``)."""
    try:
        return BOTS[name]()
    except KeyError:
        close = difflib.get_close_matches(name, list(BOTS), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise ValueError(f"no agent named '{name}'{hint}; built-in agents: {', '.join(BOTS)}") from None


__all__ = ["BOTS", "Agent", "CautiousAgent", "GreedyAgent", "RandomAgent", "RecordingAgent", "ReplayAgent",
           "ReplayMismatch", "TraderAgent", "make_agent"]
