"""The Agent protocol: one method per decision the engine asks of a player.

The engine calls these with the game (read it, do not change it: changes go
through the actions you return) and the seat deciding. Subclass :class:`Agent`
and override what you care about; the defaults are plain and legal.

Illegal answers are refused by the engine with a reason (``refused`` is told)
and never change the state: an illegal bid drops out of the auction, an
illegal action is skipped, an illegal choice counts as the first option.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..game.actions import Action, Trade
    from ..game.game import Game

#: What an auction is for: ("space", index), ("house", None) or ("hotel", None).
AuctionItem = tuple[str, Any]


class Agent:
    """A player's decisions. ``name`` labels it in results and logs."""

    name = "agent"

    def setup(self, game: Game, seat: int, rng: random.Random) -> None:
        """Called once when the game is created; ``rng`` is this seat's own seeded generator."""
        self.seat = seat
        self.rng = rng

    def buy(self, game: Game, seat: int, space: int) -> bool:
        """Buy the unowned ``space`` at its printed price? (Only asked when the seat can pay it.)"""
        return True

    def bid(self, game: Game, seat: int, item: AuctionItem, high_bid: int, leader: int | None) -> int:
        """A bid above ``high_bid`` (at most your cash), or 0 to drop out of the auction."""
        return 0

    def jail(self, game: Game, seat: int, options: tuple[str, ...]) -> str:
        """At the start of a turn in jail: one of ``options`` ("roll", "pay", "card")."""
        return "card" if "card" in options else "roll"

    def choose(self, game: Game, seat: int, options: tuple[str, ...]) -> int:
        """The index of the chosen alternative of an effect's `choose:` (texts in the effect language)."""
        return 0

    def act(self, game: Game, seat: int) -> Action | None:
        """After your turn: one action (build, sell, mortgage, unmortgage, trade), or None when done."""
        return None

    def answer_trade(self, game: Game, seat: int, trade: Trade) -> bool:
        """Accept ``trade`` (you are its ``partner``)?"""
        return False

    def raise_funds(self, game: Game, seat: int, owed: int) -> Action | None:
        """You owe ``owed`` and have less: a sell or mortgage action, or None to let the engine
        sell buildings (most built first) and then mortgage lots in board order."""
        return None

    def lift_mortgage(self, game: Game, seat: int, space: int) -> bool:
        """A mortgaged lot came to you: lift the mortgage now (else pay the interest now)?"""
        return False

    def refused(self, game: Game, seat: int, action: Any, reason: str) -> None:
        """The engine refused an answer of yours; ``reason`` says why."""

    def get_state(self) -> Any:
        """JSON data a saved game keeps for this agent (by default its generator's state)."""
        rng = getattr(self, "rng", None)
        if rng is None:
            return None
        version, internal, gauss = rng.getstate()
        return {"rng": [version, list(internal), gauss]}

    def set_state(self, state: Any) -> None:
        """Restore what :meth:`get_state` returned."""
        version, internal, gauss = state["rng"]
        self.rng.setstate((version, tuple(internal), gauss))
