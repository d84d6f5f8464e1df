"""The action codec: every decision and its legal answers as integers in one fixed-size space, computed from the
ruleset (board size, groups, kinds, kept cards), for learning agents (docs/env.md).

One :class:`Codec` a ruleset. ``codec.size`` integers; ``codec.mask(game, decision)`` marks the legal ones (a
numpy array of bools, exactly the codes whose answer ``game.check`` accepts); ``codec.decode(game, decision,
code)`` is the answer a code stands for now; ``codec.encode(game, decision, answer)`` the code of an answer,
when it has one. The layout, in order (``codec.layout`` names each block with its start and length):

=================  =======  ==================================================================================
block              length   the answer
=================  =======  ==================================================================================
``no``             1        False (buy, answer_trade, lift_mortgage), 0 (a bid: drop out), None (act, between,
                            raise_funds: done)
``yes``            1        True (buy, answer_trade, lift_mortgage)
``jail``           3        "roll", "pay", "card"
``choose``         C        the option's index (C = the most options any choose can have: the board's size,
                            the players, 32 alternatives)
``bid``            7        above the high bid by 1 or 10, 10/25/50/100% of the printed price (of a lot; of
                            the cheapest building for the bank's last houses or hotels), or all one's cash
``build`` ...      5 x S    Build, SellBuilding, Mortgage, Unmortgage, SellLot of each space
``use_card``       K        UseCard of each card a ruleset's deck lets a player keep
``buy_lot``        3 x S    a trade: that lot from its owner for 1, 1.5 or 2 times its printed price
``sell_completing`` 3 x S   a trade: one's own lot to the player who owns the rest of its group (the lot that
                            completes their group) for 1.5, 2 or 3 times its price
``swap``           O x O    a trade: one's own lot (of the O lots) for another's lot, its owner the partner
``buy_card``       K        a trade: that kept card from its holder for the jail's fine
=================  =======  ==================================================================================

Every build, sale, mortgage, lift and card use is one code; bids and trades are templates (a few of the many
answers), the partner implied by who owns the lot or holds the card. ``CODEC_VERSION`` changes with the layout.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from ..game import actions as act
from ..game.decisions import Bids, Decision, Trades, check_answer, legal_answers

if TYPE_CHECKING:
    from ..game.game import Game
    from ..ruleset.model import Ruleset

#: The version of the layout: a policy trained on one version reads its actions by that version's.
CODEC_VERSION = 1
#: The most alternatives of a `choose:` the codec gives codes to, besides the board's spaces and the players.
CHOOSE_ALTERNATIVES = 32
#: The bid buckets: (step above the high bid, or None), (share of the price in percent, or None); the last: all cash.
BID_STEPS = (1, 10)
BID_SHARES = (10, 25, 50, 100)
BUY_MULTIPLES = (1.0, 1.5, 2.0)
SELL_MULTIPLES = (1.5, 2.0, 3.0)
JAIL_OPTIONS = ("roll", "pay", "card")
_YES_NO = ("buy", "answer_trade", "lift_mortgage")
_ACTIONS = ("act", "between", "raise_funds")
_SPACE_ACTIONS = (act.Build, act.SellBuilding, act.Mortgage, act.Unmortgage, act.SellLot)
#: The decisions each block answers.
_KINDS_OF = {"jail": ("jail",), "choose": ("choose",), "bid": ("bid",), "build": _ACTIONS, "sell": _ACTIONS,
             "mortgage": _ACTIONS, "unmortgage": _ACTIONS, "sell_lot": _ACTIONS, "use_card": ("act",),
             "buy_lot": ("act", "between"), "sell_completing": ("act", "between"), "swap": ("act", "between"),
             "buy_card": ("act", "between")}


class Codec:
    """The action space of one ruleset (see the module docstring)."""

    def __init__(self, ruleset: Ruleset, tables: Any):
        self.ruleset = ruleset
        size = len(ruleset.board)
        self.spaces = size
        self.ownable: tuple[int, ...] = tuple(tables.ownable)
        self.rank = {s: i for i, s in enumerate(self.ownable)}  # a lot's place among the ownable ones
        self.cards: tuple[tuple[str, int], ...] = tuple(sorted(tables.card_use))
        self.card_rank = {card: i for i, card in enumerate(self.cards)}
        self.choices = max(size, ruleset.max_players, CHOOSE_ALTERNATIVES)
        owned = len(self.ownable)
        blocks = [("no", 1), ("yes", 1), ("jail", 3), ("choose", self.choices),
                  ("bid", len(BID_STEPS) + len(BID_SHARES) + 1),
                  ("build", size), ("sell", size), ("mortgage", size), ("unmortgage", size), ("sell_lot", size),
                  ("use_card", len(self.cards)), ("buy_lot", 3 * size), ("sell_completing", 3 * size),
                  ("swap", owned * owned), ("buy_card", len(self.cards))]
        self.layout: dict[str, tuple[int, int]] = {}
        start = 0
        for name, length in blocks:
            self.layout[name] = (start, length)
            start += length
        self.size = start
        self._space_blocks = tuple(self.layout[name][0] for name in
                                   ("build", "sell", "mortgage", "unmortgage", "sell_lot"))
        self._action_codes = {kind: base for kind, base in zip(_SPACE_ACTIONS, self._space_blocks, strict=True)}
        groups = tables.members
        self._group_of = tables.group_of
        self._members = groups
        self._price = tables.price
        cheapest = [c for c in tables.house_cost if c > 0]
        self._building_price = min(cheapest) if cheapest else 0
        self._ownable_array = np.array(self.ownable, dtype=np.int64)

    def start(self, name: str) -> int:
        return self.layout[name][0]

    # ------------------------------------------------------------------ one code

    def decode(self, game: Game, decision: Decision, code: int) -> Any:
        """The answer ``code`` stands for at ``decision`` (an answer the game refuses when the code is not legal
        now: see :meth:`mask`)."""
        kind = decision.kind
        code = whole(code, self.size)
        if code == 0:
            return False if kind in _YES_NO else 0 if kind == "bid" else None if kind in _ACTIONS else _NONE
        if code == 1:
            return True if kind in _YES_NO else _NONE
        block, offset = self._block(code)
        if kind not in _KINDS_OF[block]:
            return _NONE
        if block == "jail":
            return JAIL_OPTIONS[offset]
        if block == "choose":
            return offset
        if block == "bid":
            value = self._bid(game, decision, offset)
            return value if value > decision.args[1] else _NONE  # a bucket at or below the high bid is no bid
        if block in ("build", "sell", "mortgage", "unmortgage", "sell_lot"):
            return _SPACE_ACTIONS[("build", "sell", "mortgage", "unmortgage", "sell_lot").index(block)](offset)
        if block == "use_card":
            return act.UseCard(*self.cards[offset])
        seat = decision.seat
        if block == "buy_lot":
            s, m = divmod(offset, 3)
            return act.Trade(seat, game.owner[s], give_cash=int(self._price[s] * BUY_MULTIPLES[m]), get_spaces=(s,))
        if block == "sell_completing":
            s, m = divmod(offset, 3)
            return act.Trade(seat, self._completer(game, s), give_spaces=(s,),
                             get_cash=int(self._price[s] * SELL_MULTIPLES[m]))
        if block == "swap":
            a, b = divmod(offset, len(self.ownable))
            mine, theirs = self.ownable[a], self.ownable[b]
            return act.Trade(seat, game.owner[theirs], give_spaces=(mine,), get_spaces=(theirs,))
        card = self.cards[offset]  # buy_card
        return act.Trade(seat, self._holder(game, card), give_cash=game.rules.jail.fine, get_cards=(card,))

    def encode(self, game: Game, decision: Decision, answer: Any) -> int | None:
        """The code of ``answer`` at ``decision``, or None when no code stands for it (a bid or a trade outside
        the templates)."""
        kind = decision.kind
        if kind in _YES_NO:
            return 1 if answer is True else 0 if answer is False else None
        if kind == "jail":
            return self.start("jail") + JAIL_OPTIONS.index(answer) if answer in JAIL_OPTIONS else None
        if kind == "choose":
            return self.start("choose") + answer if type(answer) is int and 0 <= answer < self.choices else None
        if kind == "bid":
            if answer is None or (type(answer) is int and answer == 0):
                return 0
            if type(answer) is not int:
                return None
            for offset in range(self.layout["bid"][1]):
                if self._bid(game, decision, offset) == answer:
                    return self.start("bid") + offset
            return None
        if answer is None:
            return 0
        base = self._action_codes.get(type(answer))
        if base is not None:
            return base + answer.space
        if type(answer) is act.UseCard:
            rank = self.card_rank.get((answer.deck, answer.card))
            return None if rank is None else self.start("use_card") + rank
        if type(answer) is act.Trade:
            for code in self._trade_codes(game, decision.seat, answer):
                if self.decode(game, decision, code) == answer:
                    return code
        return None

    def _trade_codes(self, game: Game, seat: int, trade: act.Trade) -> list[int]:
        found = []
        if len(trade.get_spaces) == 1 and not trade.give_spaces:
            found += [self.start("buy_lot") + 3 * trade.get_spaces[0] + m for m in range(3)]
        if len(trade.give_spaces) == 1 and not trade.get_spaces:
            found += [self.start("sell_completing") + 3 * trade.give_spaces[0] + m for m in range(3)]
        if len(trade.give_spaces) == 1 and len(trade.get_spaces) == 1:
            a, b = self.rank.get(trade.give_spaces[0]), self.rank.get(trade.get_spaces[0])
            if a is not None and b is not None:
                found.append(self.start("swap") + a * len(self.ownable) + b)
        if len(trade.get_cards) == 1 and trade.get_cards[0] in self.card_rank:
            found.append(self.start("buy_card") + self.card_rank[trade.get_cards[0]])
        return [code for code in found if 0 <= code < self.size]

    def _block(self, code: int) -> tuple[str, int]:
        for name, (start, length) in self.layout.items():
            if start <= code < start + length:
                return name, code - start
        raise ValueError(f"no block holds {code}")

    def _bid(self, game: Game, decision: Decision, offset: int) -> int:
        item, high = decision.args[0], decision.args[1]
        steps = len(BID_STEPS)
        if offset < steps:
            return high + BID_STEPS[offset]
        if offset < steps + len(BID_SHARES):
            price = self._price[item[1]] if item[0] == "space" else self._building_price
            return price * BID_SHARES[offset - steps] // 100
        return game.cash[decision.seat]

    def _completer(self, game: Game, s: int) -> int:
        """The player who owns every other lot of ``s``'s group (-1 when none does)."""
        group = self._group_of[s]
        if group < 0:
            return -1
        others = [game.owner[m] for m in self._members[group] if m != s]
        return others[0] if others and others[0] >= 0 and all(o == others[0] for o in others) else -1

    def _holder(self, game: Game, card: tuple[str, int]) -> int:
        for seat, cards in enumerate(game.held_cards):
            if card in cards:
                return seat
        return -1

    # ------------------------------------------------------------------ the mask

    def mask(self, game: Game, decision: Decision) -> np.ndarray:
        """The legal codes at ``decision``: exactly those whose :meth:`decode` the game accepts now."""
        mask = np.zeros(self.size, dtype=bool)
        kind, seat = decision.kind, decision.seat
        if kind in _YES_NO:
            mask[0] = mask[1] = True
            return mask
        if kind == "jail":
            base = self.start("jail")
            for option in decision.args[0]:
                mask[base + JAIL_OPTIONS.index(option)] = True
            return mask
        if kind == "choose":
            count = min(len(decision.args[0]), self.choices)
            base = self.start("choose")
            mask[base:base + count] = True
            return mask
        if kind == "bid":
            mask[0] = True
            bids = legal_answers(game, decision)
            assert isinstance(bids, Bids)
            base, length = self.layout["bid"]
            for offset in range(length):
                value = self._bid(game, decision, offset)
                if bids.low <= value <= bids.high:
                    mask[base + offset] = True
            return mask
        mask[0] = True  # done
        spaces: list[Trades] = []
        codes = self._action_codes
        for answer in legal_answers(game, decision):
            if answer is None:
                continue
            if type(answer) is Trades:
                spaces.append(answer)
                continue
            first = codes.get(type(answer))
            if first is not None:
                mask[first + answer.space] = True
            else:
                code = self.encode(game, decision, answer)
                if code is not None:
                    mask[code] = True
        if spaces:
            self._trade_mask(game, seat, mask, spaces)
        return mask

    def _trade_mask(self, game: Game, seat: int, mask: np.ndarray, spaces: list[Trades]) -> None:
        by_partner = {trades.partner: trades for trades in spaces}
        cash = game.cash[seat]
        price = self._price
        mine = spaces[0].give_spaces  # the same for every partner: one's own lots that may change hands
        base = self.start("buy_lot")
        for trades in spaces:
            for s in trades.get_spaces:
                for m, multiple in enumerate(BUY_MULTIPLES):
                    if int(price[s] * multiple) <= cash:
                        mask[base + 3 * s + m] = True
        base = self.start("sell_completing")
        for s in mine:
            partner = by_partner.get(self._completer(game, s))
            if partner is None:
                continue
            for m, multiple in enumerate(SELL_MULTIPLES):
                if int(price[s] * multiple) <= partner.get_cash:
                    mask[base + 3 * s + m] = True
        theirs = [s for trades in spaces for s in trades.get_spaces]
        if mine and theirs:
            owned = len(self.ownable)
            rows = np.array([self.rank[s] for s in mine], dtype=np.int64)
            cols = np.array([self.rank[s] for s in theirs], dtype=np.int64)
            mask[self.start("swap") + (rows[:, None] * owned + cols[None, :]).ravel()] = True
        fine = game.rules.jail.fine
        if fine <= cash:
            base = self.start("buy_card")
            for trades in spaces:
                for card in trades.get_cards:
                    rank = self.card_rank.get(tuple(card))  # type: ignore[arg-type]
                    if rank is not None:
                        mask[base + rank] = True

    def check(self, game: Game, decision: Decision, code: int) -> str | None:
        """Why the answer of ``code`` would be refused now (None when it is legal): the game's own check."""
        return check_answer(game, decision, self.decode(game, decision, code))


def whole(action: Any, size: int) -> int:
    """``action`` as a code (a Python or numpy whole number from 0 below ``size``); a ValueError for anything
    else (a float, a string, a bool)."""
    import operator

    if isinstance(action, (bool, np.bool_)):
        raise ValueError(f"an action is a whole number from 0 to {size - 1}, not {action!r}")
    try:
        code = operator.index(action)
    except TypeError:
        raise ValueError(f"an action is a whole number from 0 to {size - 1}, not {action!r}") from None
    if not 0 <= code < size:
        raise ValueError(f"an action is a whole number from 0 to {size - 1}, not {code}")
    return code


class _NotAnAnswer:
    def __repr__(self) -> str:
        return "<no answer>"


#: What a code decodes to where it stands for nothing (the game refuses it).
_NONE: Any = _NotAnAnswer()


@cache
def _codec_for(ruleset: Ruleset) -> Codec:
    from ..game.tables import tables_for

    return Codec(ruleset, tables_for(ruleset))


def codec_for(ruleset: Ruleset) -> Codec:
    """The codec of ``ruleset`` (made once a ruleset)."""
    return _codec_for(ruleset)


def legal_codes(codec: Codec, game: Game, decision: Decision) -> Sequence[int]:
    """The legal codes as a list of integers."""
    return [int(code) for code in np.flatnonzero(codec.mask(game, decision))]
