"""The game in play as the effect language and agents see it: :class:`Host` adds to the state
(:class:`~monopoly.game.core.Core`) the methods an effect's closures call back (the interface the effect
language defines in effects/host.py: move, pay, collect, draw, choose, jail, the pot, the variables), the
queries agents ask (net worth, prices, legal actions, what a choice's alternatives cost) and the set-ups of
lessons and tests (a charge, a trip to jail). Each is one call into the rule module that owns it.
"""

from __future__ import annotations

from typing import Any

from . import actions as act
from . import building, cards, jail, landing, money, movement
from .auction import auction_lot
from .core import Core, Steps
from .end import out_of_events, valuation


class Host(Core):
    """The effect language's interface and the agents' queries over a game in play."""

    # ------------------------------------------------------------------ moves (effects)

    def advance_to(self, p: int, targets: tuple[int, ...], rent: tuple[str, int] | None) -> Steps:
        """``p`` advances to the nearest of ``targets`` ahead (an effect's `advance to`) and lands there."""
        return landing.advance_to(self, p, targets, rent)

    def go_back_to(self, p: int, targets: tuple[int, ...]) -> Steps:
        """``p`` goes back to the nearest of ``targets`` behind (an effect's `go back to`) and lands there."""
        return landing.go_back_to(self, p, targets)

    def move_by(self, p: int, steps: int) -> Steps:
        """``p`` moves ``steps`` forward (backward when negative: an effect's `move`) and lands there."""
        return landing.move_by(self, p, steps)

    def go_to_jail(self, p: int) -> Steps:
        """``p`` goes to jail (an effect's `go to jail`), with the triggers on it."""
        return jail.go_to_jail(self, p)

    def send_to_jail(self, p: int, why: str = "sent") -> None:
        """``p``'s token goes to jail at once, without triggers (for set-ups)."""
        movement.send_to_jail(self, p, why)

    def roll_afresh(self, p: int) -> None:
        """``p`` throws the counted dice afresh (an effect's `roll`): a `roll` event, and nobody moves."""
        movement.roll_afresh(self, p)

    # ------------------------------------------------------------------ money (effects)

    def charge(self, p: int, creditor: int, amount: int, reason: str) -> Steps:
        """``p`` owes ``amount`` to ``creditor`` (a seat, BANK or POT): raises funds or goes bankrupt; True
        when paid in full (``game.carry_out(game.charge(...))`` in a set-up)."""
        return money.charge(self, p, creditor, amount, reason)

    def gain(self, p: int, amount: int, reason: str) -> None:
        """The bank pays ``p`` (an effect's `collect`)."""
        money.gain(self, p, amount, reason)

    def pay_fee(self, p: int, amount: int, reason: str) -> Steps:
        """``p`` pays a tax, fine or fee (an effect's `pay N`) to the bank, or the pot by the rules."""
        return money.pay_fee(self, p, amount, reason)

    def pay_to_pot(self, p: int, amount: int, reason: str) -> Steps:
        """``p`` pays ``amount`` into the pot (an effect's `pay N to pot`)."""
        return money.pay_to_pot(self, p, amount, reason)

    def pay_player(self, p: int, to: int, amount: int, reason: str) -> Steps:
        """``p`` pays ``amount`` to seat ``to`` (an effect's `pay N to ...`)."""
        return money.pay_player(self, p, to, amount, reason)

    def pay_each(self, p: int, amount: int, reason: str) -> Steps:
        """``p`` pays ``amount`` to every other player (an effect's `pay N to each player`)."""
        return money.pay_each(self, p, amount, reason)

    def collect_from(self, p: int, source: int, amount: int, reason: str) -> Steps:
        """Seat ``source`` pays ``p`` ``amount`` (an effect's `collect N from ...`)."""
        return money.collect_from(self, p, source, amount, reason)

    def collect_from_each(self, p: int, amount: int, reason: str) -> Steps:
        """Every other player pays ``p`` ``amount`` (an effect's `collect N from each player`)."""
        return money.collect_from_each(self, p, amount, reason)

    def add_to_pot(self, amount: int, reason: str) -> None:
        """The bank puts ``amount`` in the pot (an effect's `add N to pot`)."""
        money.add_to_pot(self, amount, reason)

    def take_pot(self, p: int) -> None:
        """``p`` takes the pot, without the triggers on taking it (for set-ups)."""
        money.take_pot(self, p)

    def collect_pot(self, p: int) -> Steps:
        """``p`` takes the pot (an effect's `collect pot`), then the triggers on taking it run."""
        return money.collect_pot(self, p)

    def auction(self, s: int) -> Steps:
        """Auction lot ``s`` among the players the rules let buy it."""
        return auction_lot(self, s)

    # ------------------------------------------------------------------ cards and choices (effects)

    def draw_card(self, p: int, deck_key: str) -> Steps:
        """``p`` draws the top card of a deck and it does what it says (an effect's `draw`)."""
        return cards.draw_card(self, p, deck_key)

    def keep_card(self, p: int, card: Any) -> None:
        """``p`` keeps the card being resolved (an effect's `keep`)."""
        cards.keep_card(self, p, card)

    def choose(self, p: int, options: tuple[str, ...], costs: tuple[Any, ...] = (),
               landings: tuple[Any, ...] = (), worth: bool = False) -> Steps:
        """``p`` chooses one of an effect's alternatives; returns the index (see :func:`cards.choose`)."""
        return cards.choose(self, p, options, costs, landings, worth)

    def set_variable(self, index: int, name: str, value: int) -> None:
        """A variable of the game takes ``value`` (an effect's `set jackpot to ...`)."""
        cards.set_variable(self, index, name, value)

    def out_of_events(self) -> bool:
        """Whether the game has recorded all the events a game may (it is then over: ``end: event_limit``).
        The effects ask it at each of their steps."""
        return out_of_events(self)

    # ------------------------------------------------------------------ queries (effects and agents)

    def option_costs(self, seat: int, *, worth: int | None = None) -> list[int]:
        """While ``seat`` chooses between an effect's alternatives: what each would cost it in cash now (see
        :func:`~monopoly.game.cards.option_costs`, which says when it is empty)."""
        return cards.option_costs(self, seat, worth=worth)

    def option_landings(self, seat: int) -> list[int | None]:
        """While ``seat`` chooses between an effect's alternatives: the space each would move its token to."""
        return cards.option_landings(self, seat)

    def charges_rent(self, p: int, s: int) -> bool:
        """Whether ``p`` would be charged rent on ``s`` by the rules (see :func:`landing.charges_rent`)."""
        return landing.charges_rent(self, p, s)

    def rent_due(self, s: int, rent_mod: tuple[str, int] | None = None) -> int:
        """The rent a visitor owes on space ``s`` now (0 when unowned or mortgaged). A query: nothing changes."""
        return landing.rent_due(self, s, rent_mod)

    def net_worth(self, p: int) -> int:
        """Cash, printed prices of all lots (mortgaged or not) and buildings at cost (the income-tax worth)."""
        return money.net_worth(self, p)

    def valuation(self, p: int) -> int:
        """The rulebook's worth for ending a game (mortgaged lots at their mortgage value)."""
        return valuation(self, p)

    def houses_of(self, p: int) -> int:
        """The houses ``p`` has on the board."""
        return building.houses_of(self, p)

    def hotels_of(self, p: int) -> int:
        """The hotels ``p`` has on the board."""
        return building.hotels_of(self, p)

    def count_owned(self, p: int, indexes: tuple[int, ...]) -> int:
        """How many of the lots ``indexes`` ``p`` owns."""
        return building.count_owned(self, p, indexes)

    def sell_value(self, group: int) -> int:
        """What the bank pays back for one building of ``group``."""
        return act.sell_value(self, group)

    def lot_sale_value(self, s: int) -> int:
        """What the bank pays for lot ``s`` sold back to it (``rules.sell_lots``)."""
        return act.lot_sale_value(self, s)

    def unmortgage_cost(self, s: int) -> int:
        """What lifting the mortgage of lot ``s`` costs (its mortgage value and the interest)."""
        return act.unmortgage_cost(self, s)

    def legal_actions(self, seat: int, *, raising: bool = False) -> list[act.Action]:
        """What ``seat`` may build, sell, mortgage or unmortgage now."""
        return act.legal_actions(self, seat, raising=raising)
