"""Money: payments, debts, raising funds, bankruptcy to a player or to the bank.

Every movement of cash is one ``payment`` (:func:`monopoly.game.apply.payment`) and one event, so the
log alone accounts for all money. A debt (``charge``) is paid at once when the
cash is there. When it is not, and selling every building and mortgaging every
lot could not cover it either, the debtor is bankrupt at once, with everything
as it is. Otherwise the debtor's agent sells and mortgages, then the engine
does it for them at the least loss (:meth:`Money._liquidate`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any, cast

from . import actions as act
from . import apply as writes
from .apply import payment
from .decisions import RAISED, Decision, check_answer, new_decision
from .events import BANK, POT
from .fields import Fields

if TYPE_CHECKING:
    from ..ruleset.model import Rules
    from .game import Game
    from .tables import Tables

#: A part of the turn that may ask players (see game.Steps).
Steps = Generator[Decision | None, Any, Any]

#: Refused or useless answers an agent may give in one phase before the engine moves on.
MAX_REFUSALS = 8

#: What a yes-or-no answer that is not a bool counts as, by question (always no: the answer that risks nothing).
_TAKEN_AS_NO = {
    "buy": "taken as False: not bought",
    "answer_trade": "taken as False: the trade is declined",
    "lift_mortgage": "taken as False: the mortgage stays and its interest is due now",
}


class Money(Fields):
    """The money part of :class:`~monopoly.game.Game` (a mixin: the state lives on the game)."""

    tables: Tables
    rules: Rules
    agents: list[Any]
    players: int
    bankrupt: list[bool]
    bankrupt_order: list[int]
    jail_turns: list[int]
    held_cards: list[list[tuple[str, int]]]
    debt_depth: int
    finished: bool
    _direct: list[dict[str, Any]] | None

    # Defined by Game (game.py, auction.py, end.py); here so that each module type-checks (and compiles) alone.
    def _refuse(self, seat: Any, action: Any, reason: str) -> None: raise NotImplementedError
    def _apply_now(self, seat: Any, action: Any, raising: bool) -> bool | None: raise NotImplementedError
    def _apply_asking(self, seat: int, action: Any) -> Steps: raise NotImplementedError
    def _do(self, seat: int, action: act.Action) -> int: raise NotImplementedError
    def _acted(self, seat: int, action: act.Action, amount: int) -> Steps: raise NotImplementedError
    def _event(self, event: str, p: int, amount: int = 0) -> Steps: raise NotImplementedError
    def _set_owner(self, s: int, seat: int, how: str) -> None: raise NotImplementedError
    def _check_end(self) -> None: raise NotImplementedError
    def auction(self, s: int) -> Steps: raise NotImplementedError
    def _ask_direct(self, decision: Decision, ask: Callable[..., Any], *args: Any) -> Any: raise NotImplementedError

    def _yes(self, seat: int, question: str, answer: Any) -> bool:
        """An agent's answer to the yes-or-no ``question`` (an Agent method name): True only for True.

        Anything but a bool (1, "yes", None, an object whose ``__bool__`` raises...) is refused,
        told to the agent, and counts as False.
        """
        if answer is True:
            return True
        if answer is not False:
            reason = check_answer(cast("Game", self), Decision(seat, question), answer)
            self._refuse(seat, f"{question} answer {act.safe_repr(answer)}", f"{reason}; {_TAKEN_AS_NO[question]}")
        return False

    def _fees_to(self) -> int:
        return POT if self.rules.fees_to == "pot" else BANK

    def charge(self, p: int, creditor: int, amount: int, reason: str) -> Steps:
        """``p`` owes ``amount`` to ``creditor`` (a seat, BANK or POT). Raises funds or goes bankrupt.

        Returns True when paid in full.
        """
        if amount <= 0 or self.bankrupt[p]:
            return not self.bankrupt[p]
        if self.cash[p] < amount:
            yield from self._raise_funds(p, amount)
            if self.bankrupt[p] or self.finished:
                return False  # a trigger of a step (a mortgage's, which moved the player) ended them or the game
            if self.cash[p] < amount:
                yield from self._bankrupt(p, creditor, amount, reason)
                return False
        payment(self, p, creditor, amount, reason)
        return True

    def sell_value(self, group: int) -> int:
        """What the bank pays back for one building of ``group`` (its cost times ``rules.building.sell_back``):
        the one home of that price, for sales, fund raising and bankruptcy."""
        return int(self.tables.house_cost[group] * self.rules.building.sell_back)

    def lot_sale_value(self, s: int) -> int:
        """What the bank pays for lot ``s`` sold back to it (``rules.sell_lots``: that share of its printed price)."""
        return int(self.tables.price[s] * self.rules.sell_lot_pays)

    def _can_raise(self, p: int, amount: int) -> bool:
        """Could ``p`` have ``amount`` in hand by selling every building and mortgaging every lot?"""
        t = self.tables
        owner, buildings, mortgaged = self.owner, self.buildings, self.mortgaged
        total = self.cash[p]
        mortgaging = self.rules.mortgage_allowed
        for s in t.ownable:
            if owner[s] == p:
                if buildings[s]:
                    total += buildings[s] * self.sell_value(t.group_of[s])
                if not mortgaged[s] and mortgaging and t.mortgageable[s]:
                    total += t.mortgage[s]
                if total >= amount:
                    return True  # enough found: the rest need not be added up
        return total >= amount

    def _raise_funds(self, p: int, amount: int) -> Steps:
        """Let the agent sell and mortgage until ``amount`` is in hand; then do it for them.

        Nothing is sold or mortgaged when even everything could not raise ``amount``: the printed rules
        make a player who "owes more than he can pay" bankrupt, and the creditor then takes the lots as they
        are (paying the 10% interest only on those that were mortgaged already).
        """
        if not self._can_raise(p, amount):
            return
        refusals = 0
        self.debt_depth += 1
        decision = new_decision((p, "raise_funds", (amount,)))
        try:
            while self.cash[p] < amount and refusals < MAX_REFUSALS and not (self.bankrupt[p] or self.finished):
                direct = self._direct
                action = RAISED if direct is None else self._ask_direct(decision, direct[p]["raise_funds"], p, amount)
                if action is RAISED:  # asked by play(), or the agent asked here raised
                    action = yield decision
                if action is None:
                    break
                kind = type(action)
                if kind is not act.SellBuilding and kind is not act.Mortgage and kind is not act.SellLot:
                    self._refuse(p, action, check_answer(cast("Game", self), decision, action) or "")
                    refusals += 1
                else:
                    done = self._apply_now(p, action, True)
                    if done is None:
                        done = yield from self._apply_asking(p, action)
                    if not done:
                        refusals += 1
            yield from self._liquidate(p, amount)
        finally:
            self.debt_depth -= 1

    def _liquidate(self, p: int, amount: int) -> Steps:
        """Raise ``amount`` for ``p`` at the least loss, one step at a time, until it is in hand.

        Each step is the one that gives up least: a mortgage gives up the interest that lifting it will cost
        (10%), a building sold the part of its price the bank does not pay back (half). Sales keep their group
        even, and a hotel comes down only as far as the bank's houses allow (:func:`~.actions.sale_of`). Ties
        go to the step that raises more, then to the lot first on the board. So lots without buildings are
        mortgaged before houses are sold, the cheapest houses go first, and nothing more is sold once the
        debt is covered.
        """
        triggers = self.tables.action_triggers
        find = None  # the least-loss step (the one home of that order: actions.cheapest_step), while no owner changes
        while self.cash[p] < amount and not (self.bankrupt[p] or self.finished):
            if find is None or triggers:  # a mortgage's triggers may do anything: found afresh after them
                find = act.step_finder(cast("Game", self), p)
            step = find()
            if step is None:
                break
            moved = self._do(p, step)
            if triggers:
                yield from self._acted(p, step, moved)

    def _sell_down(self, p: int, changes: tuple[tuple[int, int], ...] | list[tuple[int, int]]) -> None:
        """Sell buildings back to the bank: each ``(lot, level after)``, at the sell-back price, the bank's
        stock following (a hotel that goes back brings its houses with it)."""
        t = self.tables
        hotel = t.hotel_level
        # Lots of houses first: the houses they give back are those a hotel broken down takes (the bank's stock
        # never goes below nothing, even between two of these sales).
        for s, new in sorted(changes, key=lambda change: self.buildings[change[0]] == hotel):
            count = self.buildings[s] - new
            payment(self, BANK, p, self.sell_value(t.group_of[s]) * count, "sell building")
            writes.sell(self, p, s, new, count)

    def _sell_group(self, p: int, group: int) -> None:
        """Sell every building of a group to the bank (a bankrupt's buildings)."""
        self._sell_down(p, [(s, 0) for s in self.tables.members[group] if self.buildings[s]])

    def _bankrupt(self, p: int, creditor: int, owed: int, reason: str) -> Steps:
        """``p`` cannot pay ``owed`` to ``creditor``: everything ``p`` has goes to the creditor.

        To a player: buildings go back to the bank at the sell-back price and that money goes to the
        creditor with the rest of the cash, then the lots as they are (the creditor lifts each mortgaged
        one or pays its interest now) and the kept cards. To the bank: the lots are auctioned unmortgaged
        and the cards go back under their decks. When this bankruptcy ends the game (the short game's
        second), play ceases at once: a player creditor takes the lots with their buildings and mortgages
        as they are, and nothing is auctioned, so the final valuation sees the buildings with the creditor.
        """
        t = self.tables
        going = t.on_event.get("bankrupt")
        if going:  # before anything is handed over: what the player holds after them goes to the creditor
            yield from cast("Game", self)._fire("bankrupt", going, p, owed)
            if self.bankrupt[p] or self.finished:
                return  # their effect ended the player (to someone else) or the game
        end = self.rules.end
        ceases = end.when == "bankruptcies" and len(self.bankrupt_order) + 1 >= end.bankruptcies
        writes.bankrupt(self, p, creditor, owed, reason)  # out, and the kept cards to the creditor or the decks
        if not (ceases and creditor >= 0):
            # Buildings go back to the bank at the sell-back price, the money to the creditor with the rest.
            owner, buildings, group_of = self.owner, self.buildings, t.group_of
            for group in sorted({group_of[s] for s in t.ownable if buildings[s] and owner[s] == p}):  # group order
                self._sell_group(p, group)
        if self.cash[p] > 0:
            payment(self, p, creditor, self.cash[p], "bankruptcy")
        elif self.cash[p] < 0:  # a debt the bank writes off
            payment(self, BANK, p, -self.cash[p], "debt written off")
        lots = [s for s in t.ownable if self.owner[s] == p]
        if creditor >= 0:
            if ceases:  # built groups change hands whole, mortgages and all
                for s in lots:
                    self._set_owner(s, creditor, "bankruptcy")
            else:
                for s in lots:
                    self._set_owner(s, creditor, "bankruptcy")
                for s in lots:
                    if self.mortgaged[s] and not self.bankrupt[creditor] and not self.finished:
                        yield from self._receive_mortgaged(creditor, s)
        else:
            for s in lots:
                self._set_owner(s, -1, "bankruptcy")  # back to the bank unmortgaged
        self._check_end()
        if creditor < 0 and not self.finished:
            for s in lots:
                yield from self.auction(s)
                if self.finished:
                    break

    def _receive_mortgaged(self, p: int, s: int) -> Steps:
        """A mortgaged lot changed hands: lift it at once, or pay the interest now."""
        lift = self.unmortgage_cost(s)
        lifts = False
        if self.cash[p] >= lift:
            decision = new_decision((p, "lift_mortgage", (s,)))
            direct = self._direct
            answer = RAISED if direct is None else self._ask_direct(decision, direct[p]["lift_mortgage"], p, s)
            if answer is RAISED:  # asked by play(), or the agent asked here raised
                answer = yield decision
            lifts = self._yes(p, "lift_mortgage", answer)
        if lifts:
            payment(self, p, BANK, lift, "unmortgage")
            writes.unmortgage(self, p, s)
            if self.tables.action_triggers:
                yield from self._event("unmortgage", p, lift)
        else:
            yield from self.charge(p, BANK, lift - self.tables.mortgage[s], "mortgage interest")

    def unmortgage_cost(self, s: int) -> int:
        value = self.tables.mortgage[s]
        return value + math.ceil(value * self.rules.mortgage_interest - 1e-9)
