"""Acting between turns: the phase after a player's own turn (``act``) and before another's (``between``),
an action applied (verified, then carried out: a trade asks its partner, a kept card is used, the last
houses are auctioned), and trades.
"""

from __future__ import annotations

from typing import Any

from ..effects.host import MAX_GAME_EVENTS
from . import actions as act
from . import apply as writes
from . import building, money
from .actions import TRADE, USE_CARD
from .apply import payment
from .auction import shortage_auction, shortage_possible
from .core import MAX_ACTIONS_PER_PHASE, MAX_REFUSALS, Core, Steps, ask_direct, refuse, set_owner
from .decisions import NOT_YOUR_TURN, yes
from .end import out_of_events
from .question import RAISED, Decision, new_decision


def between_turns(game: Core, p: int, action: Any, decision: Decision | None = None) -> Steps:
    """The seat's actions between turns, starting with ``action``, until it answers None: after its own
    turn (``act``), or before another's (``decision``, a ``between``)."""
    refusals = 0
    game.trades_this_phase = 0
    if decision is None:
        decision = game._act[p]
    kind = decision[1]
    event_limit = MAX_GAME_EVENTS  # a local: a module global is looked up by name at each use
    try:
        for _ in range(MAX_ACTIONS_PER_PHASE):
            if type(action) is TRADE:
                if game.trades_this_phase >= game.rules.trades_per_phase:
                    return
                game.trades_this_phase += 1
            done: bool | None
            if kind == "between" and type(action) is USE_CARD:
                refuse(game, p, action, NOT_YOUR_TURN)
                done = False
            else:
                done = building.apply_now(game, p, action, game.debt_depth > 0)  # a plain call when it asks nobody
                if done is None:
                    done = yield from apply_asking(game, p, action)
            if not done:
                refusals += 1
                if refusals >= MAX_REFUSALS:
                    return
            if game.finished or game.bankrupt[p] or (len(game.events) >= event_limit and out_of_events(game)):
                return
            direct = game._direct
            if direct is None:
                action = yield decision
            else:  # play() drives: asked here (yielded all the same when the agent raised)
                ask = direct[p][kind]
                if ask is None:  # a quiet agent (decisions.QUIET): done
                    game._answers.append(None)
                    return
                to_move = decision[2]  # act: nothing more; between: the seat to move
                action = ask_direct(game, decision, ask, p, to_move[0]) if to_move else \
                    ask_direct(game, decision, ask, p)
                if action is RAISED:
                    action = yield decision
            if action is None:
                return
    finally:
        game.trades_this_phase = 0


def apply_steps(game: Core, seat: Any, action: Any, *, raising: bool = False) -> Steps:
    """Verify ``seat``'s ``action`` and take it (True), or refuse it with a reason (False)."""
    done = building.apply_now(game, seat, action, raising or game.debt_depth > 0)
    if done is None:
        done = yield from apply_asking(game, seat, action)
    return done


def apply_asking(game: Core, seat: int, action: Any) -> Steps:
    """A verified action whose taking may ask players (see :func:`~monopoly.game.building.apply_now`)."""
    if type(action) is act.Trade:
        return (yield from trade(game, action))
    if type(action) is act.UseCard:
        yield from use_card(game, seat, action)
        return True
    if type(action) is act.Build and shortage_possible(game, action.space) and \
            (yield from shortage_auction(game, seat, action.space)):
        return True
    return (yield from building.do_triggered(game, seat, action))


def use_card(game: Core, seat: int, action: act.UseCard) -> Steps:
    """A verified use of a kept card on the turn: back under its deck, then its use's effect."""
    writes.use_card(game, seat, action.deck, action.card)
    use = game.tables.card_use[(action.deck, action.card)][1]
    if use is not None:
        game._chain = 0
        yield from use(game, seat, None)


def trade(game: Core, trade: Any) -> Steps:  # Any: lists where tuples are due, made tuples here
    trade = act.clean_trade(trade)  # the partner is shown plain tuples, whatever the proposer sent
    partner = trade.partner
    decision = new_decision((partner, "answer_trade", (trade,)))
    direct = game._direct
    answer = RAISED if direct is None else ask_direct(game, decision, direct[partner]["answer_trade"], partner,
                                                             trade)
    if answer is RAISED:  # asked by play(), or the agent asked here raised
        answer = yield decision
    accepted = yes(game, partner, "answer_trade", answer)
    writes.trade(game, accepted, trade.proposer, partner, trade.give_spaces, trade.give_cash,  # cards move here
                 trade.give_cards, trade.get_spaces, trade.get_cash, trade.get_cards)
    if not accepted:
        return True
    a, b = trade.proposer, partner
    if trade.give_cash:
        payment(game, a, b, trade.give_cash, "trade")
    if trade.get_cash:
        payment(game, b, a, trade.get_cash, "trade")
    for s in trade.give_spaces:
        set_owner(game, s, b, "trade")
    for s in trade.get_spaces:
        set_owner(game, s, a, "trade")
    for receiver, spaces in ((b, trade.give_spaces), (a, trade.get_spaces)):
        for s in spaces:  # not once the interest of one has ended the game (a bankruptcy, the last but one)
            if game.mortgaged[s] and not game.bankrupt[receiver] and not game.finished:
                yield from money.receive_mortgaged(game, receiver, s)
    return True
