"""Money: payments, debts, raising funds, bankruptcy to a player or to the bank, net worth, and the money
primitives of the effect language (collect, pay, the pot).

Every movement of cash is one ``payment`` (:func:`monopoly.game.apply.payment`) and one event, so the
log alone accounts for all money. A debt (``charge``) is paid at once when the
cash is there. When it is not, and selling every building and mortgaging every
lot could not cover it either, the debtor is bankrupt at once, with everything
as it is. Otherwise the debtor's agent sells and mortgages, then the engine
does it for them at the least loss (:func:`liquidate`).
"""

from __future__ import annotations

from . import actions as act
from . import apply as writes
from . import auction, building, cards
from .apply import payment
from .core import MAX_CASH, MAX_REFUSALS, Core, Steps, WorthNeeded, ask_direct, fees_to, refuse, set_owner
from .decisions import check_answer, yes
from .end import check_end
from .events import BANK, POT
from .question import RAISED, new_decision


def charge(game: Core, p: int, creditor: int, amount: int, reason: str) -> Steps:
    """``p`` owes ``amount`` to ``creditor`` (a seat, BANK or POT). Raises funds or goes bankrupt.

    Returns True when paid in full.
    """
    if amount <= 0 or game.bankrupt[p]:
        return not game.bankrupt[p]
    if game.cash[p] < amount:
        yield from raise_funds(game, p, amount)
        if game.bankrupt[p] or game.finished:
            return False  # a trigger of a step (a mortgage's, which moved the player) ended them or the game
        if game.cash[p] < amount:
            yield from bankrupt(game, p, creditor, amount, reason)
            return False
    payment(game, p, creditor, amount, reason)
    return True


def can_raise(game: Core, p: int, amount: int) -> bool:
    """Could ``p`` have ``amount`` in hand by selling every building and mortgaging every lot?"""
    t = game.tables
    owner, buildings, mortgaged = game.owner, game.buildings, game.mortgaged
    total = game.cash[p]
    mortgaging = game.rules.mortgage_allowed
    for s in t.ownable:
        if owner[s] == p:
            if buildings[s]:
                total += buildings[s] * act.sell_value(game, t.group_of[s])
            if not mortgaged[s] and mortgaging and t.mortgageable[s]:
                total += t.mortgage[s]
            if total >= amount:
                return True  # enough found: the rest need not be added up
    return total >= amount


def raise_funds(game: Core, p: int, amount: int) -> Steps:
    """Let the agent sell and mortgage until ``amount`` is in hand; then do it for them.

    Nothing is sold or mortgaged when even everything could not raise ``amount``: the printed rules
    make a player who "owes more than he can pay" bankrupt, and the creditor then takes the lots as they
    are (paying the 10% interest only on those that were mortgaged already).
    """
    if not can_raise(game, p, amount):
        return
    refusals = 0
    game.debt_depth += 1
    decision = new_decision((p, "raise_funds", (amount,)))
    try:
        while game.cash[p] < amount and refusals < MAX_REFUSALS and not (game.bankrupt[p] or game.finished):
            direct = game._direct
            action = RAISED if direct is None else ask_direct(game, decision, direct[p]["raise_funds"], p, amount)
            if action is RAISED:  # asked by play(), or the agent asked here raised
                action = yield decision
            if action is None:
                break
            kind = type(action)
            if kind is not act.SellBuilding and kind is not act.Mortgage and kind is not act.SellLot:
                refuse(game, p, action, check_answer(game, decision, action) or "")
                refusals += 1
            else:
                done = building.apply_now(game, p, action, True)
                if done is None:
                    done = yield from building.do_triggered(game, p, action)  # only triggers ask here
                if not done:
                    refusals += 1
        yield from liquidate(game, p, amount)
    finally:
        game.debt_depth -= 1


def liquidate(game: Core, p: int, amount: int) -> Steps:
    """Raise ``amount`` for ``p`` at the least loss, one step at a time, until it is in hand.

    Each step is the one that gives up least: a mortgage gives up the interest that lifting it will cost
    (10%), a building sold the part of its price the bank does not pay back (half). Sales keep their group
    even, and a hotel comes down only as far as the bank's houses allow (:func:`~.actions.sale_of`). Ties
    go to the step that raises more, then to the lot first on the board. So lots without buildings are
    mortgaged before houses are sold, the cheapest houses go first, and nothing more is sold once the
    debt is covered.
    """
    triggers = game.tables.action_triggers
    find = None  # the least-loss step (the one home of that order: actions.cheapest_step), while no owner changes
    while game.cash[p] < amount and not (game.bankrupt[p] or game.finished):
        if find is None or triggers:  # a mortgage's triggers may do anything: found afresh after them
            find = act.step_finder(game, p)
        step = find()
        if step is None:
            break
        moved = building.do(game, p, step)
        if triggers:
            yield from building.acted(game, p, step, moved)


def bankrupt(game: Core, p: int, creditor: int, owed: int, reason: str) -> Steps:
    """``p`` cannot pay ``owed`` to ``creditor``: everything ``p`` has goes to the creditor.

    To a player: buildings go back to the bank at the sell-back price and that money goes to the
    creditor with the rest of the cash, then the lots as they are (the creditor lifts each mortgaged
    one or pays its interest now) and the kept cards. To the bank: the lots are auctioned unmortgaged
    and the cards go back under their decks. When this bankruptcy ends the game (the short game's
    second), play ceases at once: a player creditor takes the lots with their buildings and mortgages
    as they are, and nothing is auctioned, so the final valuation sees the buildings with the creditor.
    """
    t = game.tables
    going = t.on_event.get("bankrupt")
    if going:  # before anything is handed over: what the player holds after them goes to the creditor
        yield from cards.fire(game, "bankrupt", going, p, owed)
        if game.bankrupt[p] or game.finished:
            return  # their effect ended the player (to someone else) or the game
    end = game.rules.end
    ceases = end.when == "bankruptcies" and len(game.bankrupt_order) + 1 >= end.bankruptcies
    writes.bankrupt(game, p, creditor, owed, reason)  # out, and the kept cards to the creditor or the decks
    if not (ceases and creditor >= 0):
        # Buildings go back to the bank at the sell-back price, the money to the creditor with the rest.
        owner, buildings, group_of = game.owner, game.buildings, t.group_of
        for group in sorted({group_of[s] for s in t.ownable if buildings[s] and owner[s] == p}):  # group order
            building.sell_group(game, p, group)
    if game.cash[p] > 0:
        payment(game, p, creditor, game.cash[p], "bankruptcy")
    elif game.cash[p] < 0:  # a debt the bank writes off
        payment(game, BANK, p, -game.cash[p], "debt written off")
    lots = [s for s in t.ownable if game.owner[s] == p]
    if creditor >= 0:
        if ceases:  # built groups change hands whole, mortgages and all
            for s in lots:
                set_owner(game, s, creditor, "bankruptcy")
        else:
            for s in lots:
                set_owner(game, s, creditor, "bankruptcy")
            for s in lots:
                if game.mortgaged[s] and not game.bankrupt[creditor] and not game.finished:
                    yield from receive_mortgaged(game, creditor, s)
    else:
        for s in lots:
            set_owner(game, s, -1, "bankruptcy")  # back to the bank unmortgaged
    check_over(game)
    if creditor < 0 and not game.finished:
        for s in lots:
            yield from auction.auction_lot(game, s)
            if game.finished:
                break


def receive_mortgaged(game: Core, p: int, s: int) -> Steps:
    """A mortgaged lot changed hands: lift it at once, or pay the interest now."""
    lift = act.unmortgage_cost(game, s)
    lifts = False
    if game.cash[p] >= lift:
        decision = new_decision((p, "lift_mortgage", (s,)))
        direct = game._direct
        answer = RAISED if direct is None else ask_direct(game, decision, direct[p]["lift_mortgage"], p, s)
        if answer is RAISED:  # asked by play(), or the agent asked here raised
            answer = yield decision
        lifts = yes(game, p, "lift_mortgage", answer)
    if lifts:
        payment(game, p, BANK, lift, "unmortgage")
        writes.unmortgage(game, p, s)
        if game.tables.action_triggers:
            yield from cards.event(game, "unmortgage", p, lift)
    else:
        yield from charge(game, p, BANK, lift - game.tables.mortgage[s], "mortgage interest")


def gain(game: Core, p: int, amount: int, reason: str) -> None:
    """The bank pays ``p`` (an effect's `collect`), never past :data:`~monopoly.game.state.MAX_CASH` in
    hand: an effect such as `collect 100% of net worth` doubles cash each time, and no position may hold
    more."""
    amount = min(amount, MAX_CASH - game.cash[p])
    if amount > 0:
        payment(game, BANK, p, amount, reason)


def pay_fee(game: Core, p: int, amount: int, reason: str) -> Steps:
    """``p`` pays a tax, fine or fee (an effect's `pay N`, the jail fine) to the bank, or the pot by the
    rules; the triggers on fees run."""
    if game.tables.fee_triggers:
        yield from fee(game, p, fees_to(game), amount, reason)
    else:
        yield from charge(game, p, fees_to(game), amount, reason)


def pay_to_pot(game: Core, p: int, amount: int, reason: str) -> Steps:
    """``p`` pays ``amount`` into the pot (an effect's `pay N to pot`): a fee too."""
    if game.tables.fee_triggers:
        yield from fee(game, p, POT, amount, reason)
    else:
        yield from charge(game, p, POT, amount, reason)


def fee(game: Core, p: int, to: int, amount: int, reason: str) -> Steps:
    """A fee of a ruleset with triggers on fees: an `instead` one may replace the payment; the others run
    after it. A fee of nothing is no fee."""
    if amount <= 0 or game.bankrupt[p]:
        return
    if not (yield from cards.replaced(game, "fee", p, amount)):
        yield from charge(game, p, to, amount, reason)
    yield from cards.event(game, "fee", p, amount)


def pay_player(game: Core, p: int, to: int, amount: int, reason: str) -> Steps:
    """``p`` pays ``amount`` to seat ``to`` (an effect's `pay N to ...`); to nobody (-1) or a seat out of
    the game, the bank; to itself, nothing."""
    if to == p:
        return
    yield from charge(game, p, to if to >= 0 and not game.bankrupt[to] else BANK, amount, reason)


def collect_from(game: Core, p: int, source: int, amount: int, reason: str) -> Steps:
    """Seat ``source`` pays ``p`` ``amount`` (an effect's `collect N from ...`); nobody (-1) or a seat out
    of the game: the bank pays; itself: nothing."""
    if source == p:
        return
    if source < 0 or game.bankrupt[source]:
        gain(game, p, amount, reason)
        return
    yield from charge(game, source, p, amount, reason)


def collect_from_each(game: Core, p: int, amount: int, reason: str) -> Steps:
    for other in range(game.players):
        if game.bankrupt[p] or game.finished:
            return  # the collector went bankrupt (e.g. on the interest of a lot handed over)
        if other != p and not game.bankrupt[other]:
            yield from charge(game, other, p, amount, reason)


def pay_each(game: Core, p: int, amount: int, reason: str) -> Steps:
    """``p`` pays ``amount`` to every other player, raising the whole sum first. When even selling and
    mortgaging everything could not raise it, nothing is sold or mortgaged: the players are paid in turn
    from the cash there is, and the first who cannot be is the creditor of the bankruptcy."""
    others = [o for o in range(game.players) if o != p and not game.bankrupt[o]]
    total = amount * len(others)
    hopeless = False
    if game.cash[p] < total:
        hopeless = not can_raise(game, p, total)
        if not hopeless:
            yield from raise_funds(game, p, total)
    for other in others:
        if game.bankrupt[p] or game.finished:
            return
        if hopeless and game.cash[p] < amount:
            yield from bankrupt(game, p, other, amount, reason)
            return
        yield from charge(game, p, other, amount, reason)


def add_to_pot(game: Core, amount: int, reason: str) -> None:
    """The bank puts ``amount`` in the pot (an effect's `add N to pot`), never past
    :data:`~monopoly.game.state.MAX_CASH` in it."""
    amount = min(amount, MAX_CASH - game.pot)
    if amount > 0:
        payment(game, BANK, POT, amount, reason)


def take_pot(game: Core, p: int) -> None:
    if game.pot > 0:
        payment(game, POT, p, game.pot, "pot")


def collect_pot(game: Core, p: int) -> Steps:
    """``p`` takes the pot (an effect's `collect pot`), then the triggers on taking it run."""
    take_pot(game, p)
    taken = game.tables.on_event.get("take_pot")
    if taken:
        yield from cards.fire(game, "take_pot", taken, p)


def net_worth(game: Core, p: int) -> int:
    """Cash, printed prices of all lots (mortgaged or not) and buildings at cost (the income-tax worth)."""
    if game._pricing:  # option_costs: the player chooses before the worth is added up
        if game._priced_worth is None:
            raise WorthNeeded
        return game._priced_worth
    t = game.tables
    owner, buildings, price, cost_of = game.owner, game.buildings, t.price, t.building_cost_of
    total = game.cash[p]
    for s in t.ownable:
        if owner[s] == p:
            total += price[s] + buildings[s] * cost_of[s]
    return total


def check_over(game: Core) -> None:
    if not game.finished:
        check_end(game)
