"""Agents: the decision protocol and the built-in bots, found by name."""

from __future__ import annotations

from .base import Agent
from .bots import BOTS, CautiousAgent, GreedyAgent, RandomAgent, TraderAgent, make_agent
from .recorder import RecordingAgent, ReplayAgent, ReplayMismatch

__all__ = ["BOTS", "Agent", "CautiousAgent", "GreedyAgent", "RandomAgent", "RecordingAgent", "ReplayAgent",
           "ReplayMismatch", "TraderAgent", "make_agent"]
