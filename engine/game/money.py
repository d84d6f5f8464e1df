"""Money: payments, debts, raising funds, bankruptcy to a player or to the bank.

Every movement of cash is one ``_transfer`` and one ``payment`` event, so the
log alone accounts for all money. A debt (``charge``) is paid at once when the
cash is there; otherwise the debtor's agent sells and mortgages, then the
engine does it for them, and what is still short ends in bankruptcy.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from . import actions as act
from .events import BANK, POT, party

if TYPE_CHECKING:
    from ..ruleset.model import Rules
    from .tables import Tables

#: Refused or useless answers an agent may give in one phase before the engine moves on.
MAX_REFUSALS = 8

#: What a yes-or-no answer that is not a bool counts as, by question (always no: the answer that risks nothing).
_TAKEN_AS_NO = {
    "buy": "taken as False: not bought",
    "answer_trade": "taken as False: the trade is declined",
    "lift_mortgage": "taken as False: the mortgage stays and its interest is due now",
}


class Money:
    """The money part of :class:`~monopoly.game.Game` (a mixin: the state lives on the game)."""

    tables: Tables
    rules: Rules
    agents: list[Any]
    players: int
    cash: list[int]
    pot: int
    owner: list[int]
    buildings: list[int]
    mortgaged: list[bool]
    bankrupt: list[bool]
    bankrupt_order: list[int]
    jail_turns: list[int]
    held_cards: list[list[tuple[str, int]]]
    houses_left: int
    hotels_left: int
    debt_depth: int
    finished: bool
    _emit: Any

    if TYPE_CHECKING:
        def _refuse(self, seat: int, action: Any, reason: str) -> None: ...
        def apply(self, seat: int, action: act.Action, *, raising: bool = False) -> bool: ...
        def _do(self, seat: int, action: act.Action) -> None: ...
        def _set_owner(self, s: int, seat: int, how: str | None) -> None: ...
        def _return_card(self, deck_key: str, card_index: int) -> None: ...
        def _check_end(self) -> None: ...
        def auction(self, s: int) -> None: ...

    def _yes(self, seat: int, question: str, answer: Any) -> bool:
        """An agent's answer to the yes-or-no ``question`` (an Agent method name): True only for True.

        Anything but a bool (1, "yes", None, an object whose ``__bool__`` raises...) is refused,
        told to the agent, and counts as False.
        """
        if answer is True:
            return True
        if answer is not False:
            self._refuse(seat, f"{question} answer {act.safe_repr(answer)}",
                         f"answer {question} with True or False (a bool); {_TAKEN_AS_NO[question]}")
        return False

    def _fees_to(self) -> int:
        return POT if self.rules.fees_to == "pot" else BANK

    def _transfer(self, frm: int, to: int, amount: int, reason: str) -> None:
        """Move cash; every movement of money goes through here (and is one event)."""
        if frm >= 0:
            self.cash[frm] -= amount
        elif frm == POT:
            self.pot -= amount
        if to >= 0:
            self.cash[to] += amount
        elif to == POT:
            self.pot += amount
        if self._emit:
            self._emit({"type": "payment", "from": party(frm), "to": party(to), "amount": amount, "reason": reason})

    def charge(self, p: int, creditor: int, amount: int, reason: str) -> bool:
        """``p`` owes ``amount`` to ``creditor`` (a seat, BANK or POT). Raises funds or goes bankrupt.

        Returns True when paid in full.
        """
        if amount <= 0 or self.bankrupt[p]:
            return not self.bankrupt[p]
        if self.cash[p] < amount:
            self._raise_funds(p, amount)
            if self.cash[p] < amount:
                self._bankrupt(p, creditor, amount, reason)
                return False
        self._transfer(p, creditor, amount, reason)
        return True

    def _raise_funds(self, p: int, amount: int) -> None:
        """Let the agent sell and mortgage until ``amount`` is in hand; then do it for them."""
        agent = self.agents[p]
        refusals = 0
        self.debt_depth += 1
        try:
            while self.cash[p] < amount and refusals < MAX_REFUSALS:
                action = agent.raise_funds(self, p, amount)
                if action is None:
                    break
                kind = type(action)
                if kind is not act.SellBuilding and kind is not act.Mortgage:
                    self._refuse(p, action, "while paying a debt, only selling buildings (SellBuilding) and "
                                 "mortgaging (Mortgage) raise money")
                    refusals += 1
                elif not self.apply(p, action, raising=True):
                    refusals += 1
            self._liquidate(p, amount)
        finally:
            self.debt_depth -= 1

    def _liquidate(self, p: int, amount: int) -> None:
        """Sell buildings (most built first, evenly) and then mortgage lots until ``amount`` is in hand."""
        t = self.tables
        while self.cash[p] < amount:
            built = [s for s in t.ownable if self.owner[s] == p and self.buildings[s]]
            if not built:
                break
            s = max(built, key=lambda x: (self.buildings[x], t.house_cost[t.group_of[x]], -x))
            self._do(p, act.SellBuilding(s))
        for s in t.ownable:
            if self.cash[p] >= amount:
                break
            if self.owner[s] == p and not self.mortgaged[s]:
                self._do(p, act.Mortgage(s))

    def _sell_group(self, p: int, group: int) -> None:
        """Sell every building of a group to the bank (a hotel that cannot be broken down for lack of houses)."""
        t = self.tables
        value = int(t.house_cost[group] * self.rules.building.sell_back)
        for s in t.members[group]:
            level = self.buildings[s]
            if not level:
                continue
            if level == t.hotel_level:
                self.hotels_left += 1
            else:
                self.houses_left += level
            self.buildings[s] = 0
            self._transfer(BANK, p, value * level, "sell building")
            if self._emit:
                self._emit({"type": "sell", "seat": p, "space": s, "level": 0, "sold": level})

    def _bankrupt(self, p: int, creditor: int, owed: int, reason: str) -> None:
        t = self.tables
        if self._emit:
            self._emit({"type": "bankrupt", "seat": p, "creditor": party(creditor), "owed": owed, "reason": reason})
        # Buildings go back to the bank at the sell-back price, the money to the creditor with the rest.
        for group in range(len(t.members)):
            if any(self.owner[s] == p and self.buildings[s] for s in t.members[group]):
                self._sell_group(p, group)
        if self.cash[p] > 0:
            self._transfer(p, creditor, self.cash[p], "bankruptcy")
        elif self.cash[p] < 0:  # a debt the bank writes off
            self._transfer(BANK, p, -self.cash[p], "debt written off")
        self.bankrupt[p] = True
        self.bankrupt_order.append(p)
        self.jail_turns[p] = -1
        lots = [s for s in t.ownable if self.owner[s] == p]
        cards = self.held_cards[p]
        self.held_cards[p] = []
        if creditor >= 0:
            self.held_cards[creditor].extend(cards)
            for s in lots:
                self._set_owner(s, creditor, "bankruptcy")
            for s in lots:
                if self.mortgaged[s] and not self.bankrupt[creditor]:
                    self._receive_mortgaged(creditor, s)
        else:
            for deck, index in cards:
                self._return_card(deck, index)
            for s in lots:
                self._set_owner(s, -1, "bankruptcy")
                self.mortgaged[s] = False
        self._check_end()
        if creditor < 0 and not self.finished:
            for s in lots:
                self.auction(s)
                if self.finished:
                    break

    def _receive_mortgaged(self, p: int, s: int) -> None:
        """A mortgaged lot changed hands: lift it at once, or pay the interest now."""
        lift = self.unmortgage_cost(s)
        if self.cash[p] >= lift and self._yes(p, "lift_mortgage", self.agents[p].lift_mortgage(self, p, s)):
            self._transfer(p, BANK, lift, "unmortgage")
            self.mortgaged[s] = False
            if self._emit:
                self._emit({"type": "unmortgage", "seat": p, "space": s})
        else:
            self.charge(p, BANK, lift - self.tables.mortgage[s], "mortgage interest")

    def unmortgage_cost(self, s: int) -> int:
        value = self.tables.mortgage[s]
        return value + math.ceil(value * self.rules.mortgage_interest - 1e-9)
