"""Cards and effects at run time: the triggers of an event fired, a card drawn (and kept), an effect's choice
asked with what each alternative would cost, the variables an effect sets. The effect language's closures
(effects/compile.py) run here, called with the game in play, whose methods they call back
(:class:`~monopoly.game.host.Host`: the interface the effect language defines in effects/host.py).
"""

from __future__ import annotations

from typing import Any

from ..effects.host import MAX_GAME_EVENTS
from . import apply as writes
from .core import MAX_CHAINED_MOVES, Core, Steps, WorthNeeded, refuse, safe_repr
from .decisions import check_answer
from .end import out_of_events
from .events import CHOICE
from .question import Decision

#: The events of the turn itself: the moves their triggers cause count from nothing (the others happen inside
#: a move, whose count goes on).
_FRESH = frozenset({"game_start", "turn_start", "turn_end", "roll"})


def fire(game: Core, event: str, runs: tuple[Any, ...], p: int, amount: int = 0) -> Steps:
    """The effects of an event's triggers (``Tables.on_event`` or ``instead_of``), for player ``p``, in file
    order, ``amount`` the event's money (an effect's `amount`); they stop when the player is bankrupt or the
    game over. A trigger's effect does not set off the triggers of the event it is on (a fee paid by a
    trigger on fees): no rule loops. Returns True when one replaced the event's default handling."""
    firing = game._firing
    if event in firing:
        return False
    firing.add(event)
    saved, game.event_amount = game.event_amount, amount
    replaced = False
    try:
        for run in runs:
            if game.bankrupt[p] or game.finished or (len(game.events) >= MAX_GAME_EVENTS and out_of_events(game)):
                break
            if event in _FRESH:  # an event of the turn itself: its moves count from nothing
                game._chain = 0
            if (yield from run(game, p, None)):
                replaced = True
    finally:
        firing.discard(event)
        game.event_amount = saved
    return replaced


def event(game: Core, event: str, p: int, amount: int = 0) -> Steps:
    """Fire the triggers on ``event`` that happened to ``p`` (after the default handling)."""
    runs = game.tables.on_event.get(event)
    if runs:
        yield from fire(game, event, runs, p, amount)


def replaced(game: Core, event: str, p: int, amount: int = 0) -> Steps:
    """Fire the ``instead`` triggers on ``event`` (before the default handling): True when one replaced it."""
    runs = game.tables.instead_of.get(event)
    if runs:
        return (yield from fire(game, event, runs, p, amount))
    return False


def draw_card(game: Core, p: int, deck_key: str) -> Steps:
    deck = game.decks[deck_key]
    if not deck:
        return  # every card of the deck is held by players
    game._chain += 1
    if game._chain > MAX_CHAINED_MOVES or (len(game.events) >= MAX_GAME_EVENTS and out_of_events(game)):
        return  # a card drawing from its own deck, over and over; or the game's record full
    if game.rules.shuffle_before_draw and len(deck) > 1:
        order = list(deck)
        game.rng.shuffle(order)
        writes.shuffle(game, deck_key, tuple(order))
    slot = game.tables.decks[deck_key][deck[0]]
    # To the bottom at once, so the decks are whole whatever the card does (a card that is
    # kept leaves the bottom again in keep_card).
    writes.card(game, p, deck_key, slot.index, slot.text, slot.keeps)
    yield from slot.run(game, p, slot)


def keep_card(game: Core, p: int, card: Any) -> None:
    """``p`` keeps the card being resolved: it leaves the bottom of its deck for the player's hand."""
    if card is None:
        return
    if card.slot in game.decks[card.deck]:  # not when a second `keep` in the same effect comes along
        writes.keep(game, p, card.deck, card.index, card.slot)


def choose(game: Core, p: int, options: tuple[str, ...], costs: tuple[Any, ...] = (),
           landings: tuple[Any, ...] = (), worth: bool = False) -> Steps:
    """``p`` chooses one of an effect's alternatives (the texts ``options``); returns the index. ``costs``
    and ``landings`` tell an agent what each would cost and where it would move the token
    (:meth:`option_costs`, :meth:`option_landings`); ``worth``: an alternative pays by a player's net worth,
    whatever happens (its cost cannot be told without adding the worth up)."""
    game._option_costs = costs
    game._option_landings = landings
    game._option_worth = worth
    decision = Decision(p, "choose", (options,))
    try:
        choice = yield decision
    finally:
        game._option_costs = ()
        game._option_landings = ()
    reason = check_answer(game, decision, choice)
    if reason is not None:
        refuse(game, p, f"choice {safe_repr(choice)}", f"{reason}; taken as 0")
        choice = 0
    writes.note(game, (CHOICE, p, options, choice))
    return choice


def option_costs(game: Core, seat: int, *, worth: int | None = None) -> list[int]:
    """While ``seat`` is choosing between an effect's alternatives: what each would cost it in
    cash now (payments less collections; moves and draws count 0). Empty at other times.

    Empty too when an alternative's cost needs the player's worth added up (``N% of net worth``,
    the classic Income Tax): the printed rule is to choose "before you add up your total worth",
    so the game does not add it up for the player. An agent may work out what it knows itself and
    give it as ``worth``: the alternatives are then priced with that figure instead (so
    ``worth=game.net_worth(seat)`` is the agent adding up for itself). An agent that takes the
    costs as its guide and gets none falls back on its own default, as when the game cannot say
    (the built-in bots take the first alternative, the classic flat 200).
    """
    if not game._option_costs or (worth is None and game._option_worth):
        return []  # the worth is not added up for the player
    game._pricing = True
    game._priced_worth = worth
    try:
        return [cost(game, seat) for cost in game._option_costs]
    except WorthNeeded:
        return []
    finally:
        game._pricing = False


def option_landings(game: Core, seat: int) -> list[int | None]:
    """While ``seat`` is choosing between an effect's alternatives: the space each would move its token to
    first (None: no move, or one the game cannot say beforehand); empty when none of them moves (the
    speed die's Bus, `move forward die 1 spaces | ...`, and a space one chooses have them)."""
    return [None if landing is None else landing(game, seat) for landing in game._option_landings]


def set_variable(game: Core, index: int, name: str, value: int) -> None:
    """A variable of the game takes ``value`` (an effect's `set jackpot to ...`, `add ... to jackpot`)."""
    writes.variable(game, name, value)
