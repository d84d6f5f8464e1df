"""The observation vector of the learning environments: the position and the pending decision as numbers, from
one seat's point of view (the observer's seat first, then the others in turn order), its size following the
edition and the number of players (docs/env.md has the layout).

===========  ==============  ===================================================================================
block        length          values
===========  ==============  ===================================================================================
seats        7 x n           for each seat from the observer on: cash / starting cash, position / spaces, in
                             jail (0/1), failed tries in jail / the most, bankrupt (0/1), laps (at most 10) / 10,
                             cards held
spaces       (n + 3) x S     for each space: its owner one-hot (nobody, then the seats from the observer on),
                             buildings / the hotel's level, mortgaged (0/1)
bank         4               houses left / houses, hotels left / hotels, pot / starting cash, turn / turn cap
decision     9 + 8           the pending decision's kind one-hot (buy, bid, jail, choose, act, between,
                             answer_trade, raise_funds, lift_mortgage; all 0 when the observer is not asked), its
                             space / spaces (buy, lift_mortgage, a lot's auction), the high bid / starting cash,
                             the debt / starting cash, the next to move (seats from the observer) / n, the jail's
                             options roll, pay, card (0/1), the alternatives of a choice / the codec's most
===========  ==============  ===================================================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..game.decisions import KINDS, Decision

if TYPE_CHECKING:
    from ..game.game import Game
    from ..ruleset.model import Ruleset

#: Values per seat, and per decision besides its kind.
SEAT_VALUES = 7
DECISION_VALUES = 8


class Observer:
    """Makes the observation vectors of ``ruleset`` games of ``players`` seats."""

    def __init__(self, ruleset: Ruleset, players: int, choices: int):
        self.players = players
        self.spaces = len(ruleset.board)
        self.start_cash = max(ruleset.starting_cash, 1)
        self.houses = max(ruleset.houses, 1)
        self.hotels = max(ruleset.hotels, 1)
        self.jail_tries = max(ruleset.rules.jail.max_turns, 1)
        self.choices = choices
        n, s = players, self.spaces
        self.seat_start = 0
        self.space_start = SEAT_VALUES * n
        self.bank_start = self.space_start + (n + 3) * s
        self.decision_start = self.bank_start + 4
        self.size = self.decision_start + len(KINDS) + DECISION_VALUES
        self._owner_onehot = np.eye(n + 1, dtype=np.float32)
        self._kind_index = {kind: i for i, kind in enumerate(KINDS)}
        self._orders = [tuple((seat + i) % n for i in range(n)) for seat in range(n)]  # from each seat on
        self._per_cash = 1.0 / self.start_cash
        self._per_space = 1.0 / s
        self._per_try = 1.0 / self.jail_tries
        self._per_level = np.float32(1.0 / (ruleset.rules.building.houses_per_hotel + 1))

    def observe(self, game: Game, seat: int, decision: Decision | None) -> np.ndarray:
        """The vector of ``game`` as ``seat`` sees it; ``decision`` is described when it is that seat's."""
        n = self.players
        out = np.empty(self.size, dtype=np.float32)
        # the seats, from the observer on (a few numbers each: plain Python, one copy into the vector)
        cash, position, jail, bankrupt, laps, held = (game.cash, game.position, game.jail_turns, game.bankrupt,
                                                      game.laps, game.held_cards)
        per_cash, per_space, per_try = self._per_cash, self._per_space, self._per_try
        seats: list[float] = []
        for q in self._orders[seat]:
            tries = jail[q]
            seats += (cash[q] * per_cash, position[q] * per_space, tries >= 0, tries * per_try if tries > 0 else 0.0,
                      bankrupt[q], (laps[q] if laps[q] < 10 else 10) * 0.1, len(held[q]))
        out[:self.space_start] = seats
        lots = np.array((game.owner, game.buildings, game.mortgaged), dtype=np.int64)
        owner = lots[0]
        relative = np.where(owner >= 0, (owner - seat) % n + 1, 0)
        block = out[self.space_start:self.bank_start].reshape(self.spaces, n + 3)
        block[:, :n + 1] = self._owner_onehot[relative]
        block[:, n + 1] = lots[1] * self._per_level
        block[:, n + 2] = lots[2]
        b = self.bank_start
        out[b:b + 4] = (game.houses_left / self.houses, game.hotels_left / self.hotels, game.pot / self.start_cash,
                        game.turn / max(game.turn_cap, 1))
        out[self.decision_start:] = 0.0
        if decision is not None and decision.seat == seat:
            self._decision(out, game, seat, decision)
        return out

    def _decision(self, out: np.ndarray, game: Game, seat: int, decision: Decision) -> None:
        d = self.decision_start
        kind, args = decision.kind, decision.args
        out[d + self._kind_index[kind]] = 1.0
        v = d + len(KINDS)
        space: Any = None
        if kind in ("buy", "lift_mortgage"):
            space = args[0]
        elif kind == "bid":
            item = args[0]
            space = item[1] if item[0] == "space" else None
            out[v + 1] = args[1] / self.start_cash
        elif kind == "raise_funds":
            out[v + 2] = args[0] / self.start_cash
        elif kind == "between":
            out[v + 3] = ((args[0] - seat) % self.players) / self.players
        elif kind == "jail":
            for i, option in enumerate(("roll", "pay", "card")):
                out[v + 4 + i] = option in args[0]
        elif kind == "choose":
            out[v + 7] = len(args[0]) / self.choices
        if space is not None:
            out[v] = space / self.spaces
