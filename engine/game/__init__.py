"""The play side: one generic engine for any valid ruleset."""

from __future__ import annotations

from .actions import Action, Build, IllegalAction, Mortgage, SellBuilding, SellLot, Trade, Unmortgage, UseCard
from .decisions import Bids, Decision, IllegalAnswer, Trades
from .end import Result, Standing
from .events import BANK, EVENT_TYPES, POT
from .game import Game, GameOver, NoDecision, SetupError, play

__all__ = [
    "BANK", "EVENT_TYPES", "POT", "Action", "Bids", "Build", "Decision", "Game", "GameOver", "IllegalAction",
    "IllegalAnswer", "Mortgage", "NoDecision", "Result", "SellBuilding", "SellLot", "SetupError", "Standing",
    "Trade", "Trades", "Unmortgage", "UseCard", "play",
]
