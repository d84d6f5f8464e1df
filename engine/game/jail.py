"""Jail: a jailed player's turn (the fine, a card, the roll for doubles, the forced fine on the last turn),
going to jail with its triggers, and leaving it.
"""

from __future__ import annotations

from typing import Any

from . import actions as act
from . import apply as writes
from . import cards, landing, money, movement
from .core import Core, Steps, ask_direct, refuse, safe_repr
from .decisions import check_answer
from .question import RAISED, new_decision


def jail_start(game: Core, p: int) -> Steps:
    """A jailed player's turn begins. True when they are out and roll normally."""
    jail = game.rules.jail
    options = ["roll"]
    # The fine is paid before throwing on the turns before the last ("before you roll the dice on either of
    # your next two turns"); on the last the player throws, and pays only after failing.
    if game.cash[p] >= jail.fine and (game.jail_turns[p] < jail.max_turns - 1 or jail.pay_on_last_turn):
        options.append("pay")
    jail_card = card_for_jail(game, p)
    if jail_card is not None:
        options.append("card")
    choice: Any  # an agent's answer, checked below
    if len(options) == 1:
        choice = options[0]
    else:
        decision = new_decision((p, "jail", (tuple(options),)))
        direct = game._direct
        choice = RAISED if direct is None else ask_direct(game, decision, direct[p]["jail"], p, decision.args[0])
        if choice is RAISED:  # asked by play(), or the agent asked here raised
            choice = yield decision
        reason = check_answer(game, decision, choice)
        if reason is not None:
            refuse(game, p, f"jail choice {safe_repr(choice)}", f"{reason}; taken as roll")
            choice = "roll"
    leaving = game.tables.on_leave_jail
    if choice == "pay":
        if not (yield from _fine_paid(game, p, jail.fine, "paid")):
            return False
        if leaving:
            yield from cards.fire(game, "leave_jail", leaving, p)
            return free(game, p)
        return True
    if choice == "card" and jail_card is not None:
        writes.jail(game, p, "leave", "card", jail_card)  # the card goes back under its deck
        use = game.tables.card_use[jail_card][1]
        if use is not None:  # what the card does besides letting the player out
            game._chain = 0
            yield from use(game, p, None)
            if game.bankrupt[p] or game.finished or game.jail_turns[p] >= 0:
                return False
        if leaving:
            yield from cards.fire(game, "leave_jail", leaving, p)
            return free(game, p)
        return True
    dice = movement.roll(game)
    special = game.tables.dice
    if special.doubles(dice) if special is not None else movement.all_same(dice):
        leave_jail(game, p, "doubles")
    else:
        writes.jail(game, p, "stay", "roll", None)
        if game.jail_turns[p] < jail.max_turns:
            return False
        if not (yield from _fine_paid(game, p, jail.fine, "forced")):
            return False
    if leaving:
        yield from cards.fire(game, "leave_jail", leaving, p)
        if not free(game, p):
            return False
    # Out by the roll: move by it, and no further roll this turn.
    game._chain = 0
    yield from movement.forward(game, p, sum(dice))
    yield from landing.land(game, p, None)
    return False


def _fine_paid(game: Core, p: int, fine: int, how: str) -> Steps:
    """The fine paid (a fee: its triggers run), then out of jail (``how``: paid, or forced after the last try);
    False when the fee's triggers ended the player or the game."""
    yield from money.pay_fee(game, p, fine, "jail fine")
    if game.bankrupt[p] or game.finished:
        return False
    leave_jail(game, p, how)
    return True


def card_for_jail(game: Core, p: int) -> tuple[str, int] | None:
    """The first card ``p`` holds that is used in jail (a kept card's ``use: {when: in_jail}``), or None."""
    if not game.held_cards[p]:
        return None
    cards = act.held_for(game, p, "in_jail")
    return cards[0] if cards else None


def leave_jail(game: Core, p: int, how: str) -> None:
    writes.jail(game, p, "leave", how, None)


def free(game: Core, p: int) -> bool:
    """``p`` plays on: out of jail, not bankrupt, the game not over (after the triggers on leaving jail)."""
    return game.jail_turns[p] < 0 and not game.bankrupt[p] and not game.finished


def go_to_jail(game: Core, p: int) -> Steps:
    """``p`` goes to jail (an effect's `go to jail`), with the triggers on it."""
    if game.tables.jail_triggers:
        yield from jailed(game, p, "sent")
    else:
        movement.send_to_jail(game, p)


def jailed(game: Core, p: int, why: str) -> Steps:
    """``p`` is sent to jail in a ruleset with triggers on it: an `instead` one may keep the player out; the
    others run after."""
    if not (yield from cards.replaced(game, "go_to_jail", p)):
        movement.send_to_jail(game, p, why)
    yield from cards.event(game, "go_to_jail", p)
