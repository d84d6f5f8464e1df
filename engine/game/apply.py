"""The one writer of a game's state: one function per event type, and :func:`apply`.

The rules (``game.py``, ``money.py``, ``auction.py``, ``end.py``) decide what
happens; every change they make to the state is a call of one of the functions
below, which writes the change and records the event (``state.record``). So the
record is exactly what was applied, and replaying it is applying it again:
:func:`apply` sends a record to its function. The live game, log replays
(:class:`~monopoly.game.replay.Replay`: the narration of ``monopoly replay``, the tests' shadow ledgers), the
payment checks (:func:`~monopoly.game.log.replay_payments`, on the cash and the pot alone) and a state played
back for checking all go through here; nothing else writes state.

A state is a :class:`~monopoly.game.fields.Fields` (in the compiled build the writers take nothing else) with the
fields of :class:`~monopoly.game.state.GameState`
(decks as deques), ``tables`` (the ruleset's compiled tables, or None for a log
read without its ruleset: then the bank's stock and the decks are not followed)
and ``record`` (called with each record).

>>> import monopoly
>>> from monopoly.game.log import read_log
>>> game = monopoly.Game(monopoly.load_ruleset("classic"), [monopoly.make_agent("greedy") for _ in "ab"], seed=3,
...                      max_turns=40)
>>> result = game.play()
>>> from monopoly.game.replay import Replay
>>> replayed = Replay.of_records(game.events, game.ruleset)
>>> replayed.cash == game.cash and replayed.owner == game.owner and replayed.buildings == game.buildings
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .events import (
    AUCTION,
    BANK,
    BANKRUPT,
    BUILD,
    BUY,
    CARD,
    CHOICE,
    DECISION,
    GAME_END,
    GAME_START,
    JAIL,
    KEEP,
    MORTGAGE,
    MOVE,
    PAYMENT,
    POT,
    PROPERTY,
    REFUSED,
    ROLL,
    SELL,
    SHUFFLE,
    TIME_UP,
    TO_MOVE,
    TRADE,
    TURN,
    UNMORTGAGE,
    USE_CARD,
    VARIABLE,
)
from .fields import Fields
from .stock import stock_change

Record = tuple[Any, ...]


def game_start(g: Any, ruleset: str, variants: tuple[str, ...], seed: int, max_turns: int | None,
               players: tuple[str, ...], rules: int, log: int, decks: tuple[tuple[str, tuple[int, ...]], ...]) -> None:
    g.started = True
    for key, order in decks:
        deck = g.decks.get(key)
        if deck is not None:
            deck.clear()
            deck.extend(order)
    if g.tables is not None:
        g.position[:] = [max(g.tables.go, 0)] * len(g.position)
    g.record((GAME_START, ruleset, variants, seed, max_turns, players, rules, log, decks))


def turn(g: Fields, number: int, round_: int, seat: int) -> None:
    g.turn = number
    g.round = round_
    g.current = seat
    g.record((TURN, number, round_, seat))


def to_move(g: Fields, seat: int, round_: int) -> None:
    g.current = seat
    g.round = round_
    g.record((TO_MOVE, seat, round_))


def next_turn(g: Fields, seat: int, round_: int, number: int) -> None:
    """The seat to move next and its turn beginning, the two events in one call (the turn loop's, when nothing
    happens between two turns)."""
    g.current = seat
    g.round = round_
    record = g.record
    record((TO_MOVE, seat, round_))
    g.turn = number
    record((TURN, number, round_, seat))


def roll(g: Fields, seat: int, dice: tuple[int, ...], extra: tuple[int | str, ...] = ()) -> None:
    """A throw: the counted dice, and what an extra die showed (``extra``, recorded only when it was thrown, so
    a ruleset without one records the roll it always did)."""
    g.last_roll = dice
    g.last_extra = extra
    g.record((ROLL, seat, dice, extra) if extra else (ROLL, seat, dice))


def roll_and_move(g: Fields, seat: int, dice: tuple[int, ...], frm: int, to: int, passed_go: bool) -> None:
    """A roll and the move by it, the two events in one call (the hot line of every simulation)."""
    g.last_roll = dice
    record = g.record
    record((ROLL, seat, dice))
    g.position[seat] = to
    if passed_go:
        g.laps[seat] += 1
    record((MOVE, seat, frm, to, passed_go))


def move(g: Fields, seat: int, frm: int, to: int, passed_go: bool, passes: int = 0) -> None:
    """A move; ``passes``: how many times it went past the go space, written only when more than once (a lap or
    more in one move), so a move that passes once or not at all records what it always did."""
    g.position[seat] = to
    if passes > 1:  # laps more: the token went round the board and past the go space again
        g.laps[seat] += passes
        g.record((MOVE, seat, frm, to, passed_go, passes))
        return
    if passed_go:  # a lap more: the token passed the go space, or came onto it
        g.laps[seat] += 1
    g.record((MOVE, seat, frm, to, passed_go))


def jail(g: Any, seat: int, action: str, how: str, card: tuple[str, int] | None) -> None:
    if action == "enter":
        g.jail_turns[seat] = 0
    elif action == "stay":
        g.jail_turns[seat] += 1
    else:
        g.jail_turns[seat] = -1
        if card is not None:
            held = g.held_cards[seat]
            if card in held:
                held.remove(card)
                _return_card(g, card)
    g.record((JAIL, seat, action, how, card))


def buy(g: Any, seat: int, space: int, price: int) -> None:
    g.owner[space] = seat
    g.owner_version += 1
    g.record((BUY, seat, space, price))


def auction(g: Any, item: str, space: int | None, winner: int | None, price: int, bids: int) -> None:
    if item == "space" and winner is not None and space is not None:
        g.owner[space] = winner
        g.owner_version += 1
    g.record((AUCTION, item, space, winner, price, bids))


def card(g: Any, seat: int, deck_key: str, index: int, text: str, kept: bool) -> None:
    """A card drawn: the top card goes under its deck at once (a card kept leaves it again: :func:`keep`)."""
    deck = g.decks.get(deck_key)
    if deck:
        deck.append(deck.popleft())
    g.record((CARD, seat, deck_key, index, text, kept))


def keep(g: Any, seat: int, deck_key: str, index: int, slot: int) -> None:
    deck = g.decks.get(deck_key)
    if deck is not None and slot in deck:
        deck.remove(slot)
    g.held_cards[seat].append((deck_key, index))
    g.record((KEEP, seat, deck_key, index, slot))


def use_card(g: Any, seat: int, deck_key: str, index: int) -> None:
    """``seat`` uses a card it holds on its turn: the card goes back under its deck."""
    held = g.held_cards[seat]
    card = (deck_key, index)
    if card in held:
        held.remove(card)
        _return_card(g, card)
    g.record((USE_CARD, seat, deck_key, index))


def shuffle(g: Any, deck_key: str, order: tuple[int, ...]) -> None:
    """The cards left in a deck, in a new order (from the top)."""
    deck = g.decks.get(deck_key)
    if deck is not None:
        deck.clear()
        deck.extend(order)
    g.record((SHUFFLE, deck_key, order))


def variable(g: Any, name: str, value: int) -> None:
    """A variable of the game takes a new value (a log read without its ruleset: only recorded)."""
    index = g.tables.variable_index.get(name) if g.tables is not None else None
    if index is not None:
        g.variables[index] = value
    g.record((VARIABLE, name, value))


def note(g: Any, record: Record) -> None:
    """An event that changes nothing (a choice told, an answer refused, a decision recorded): recorded only."""
    g.record(record)


def payment(g: Fields, frm: int, to: int, amount: int, reason: str) -> None:
    if frm >= 0:
        g.cash[frm] -= amount
    elif frm == POT:
        g.pot -= amount
    if to >= 0:
        g.cash[to] += amount
    elif to == POT:
        g.pot += amount
    g.record((PAYMENT, frm, to, amount, reason))


def property_(g: Fields, space: int, frm: int, to: int, how: str) -> None:
    """A lot changes hands other than by buying (a trade, a bankruptcy, a deal, a set-up); to the bank it
    comes unmortgaged."""
    g.owner[space] = to if to >= 0 else -1
    if to < 0:
        g.mortgaged[space] = False
    g.owner_version += 1
    g.record((PROPERTY, space, frm, to, how))


def build(g: Any, seat: int, space: int, level: int) -> None:
    t = g.tables
    if t is not None:  # a hotel sends its houses back to the bank
        houses, hotels = stock_change(level - 1, level, hotel_level=t.hotel_level)
        g.houses_left += houses
        g.hotels_left += hotels
    g.buildings[space] = level
    g.record((BUILD, seat, space, level))


def sell(g: Any, seat: int, space: int, level: int, sold: int) -> None:
    t = g.tables
    if t is not None:
        houses, hotels = stock_change(level + sold, level, hotel_level=t.hotel_level)
        g.houses_left += houses
        g.hotels_left += hotels
    g.buildings[space] = level
    g.record((SELL, seat, space, level, sold))


def mortgage(g: Fields, seat: int, space: int) -> None:
    g.mortgaged[space] = True
    g.record((MORTGAGE, seat, space))


def unmortgage(g: Fields, seat: int, space: int) -> None:
    g.mortgaged[space] = False
    g.record((UNMORTGAGE, seat, space))


def trade(g: Any, accepted: bool, proposer: int, partner: int, give_spaces: tuple[int, ...], give_cash: int,
          give_cards: tuple[tuple[str, int], ...], get_spaces: tuple[int, ...], get_cash: int,
          get_cards: tuple[tuple[str, int], ...]) -> None:
    """A trade answered. Accepted, the kept cards change hands here; the cash and the lots follow as payments
    and property events."""
    if accepted:
        held = g.held_cards
        for cards, frm, to in ((give_cards, proposer, partner), (get_cards, partner, proposer)):
            for held_card in cards:
                if held_card in held[frm]:
                    held[frm].remove(held_card)
                    held[to].append(held_card)
    g.record((TRADE, accepted, proposer, partner, give_spaces, give_cash, give_cards, get_spaces, get_cash,
              get_cards))


def bankrupt(g: Any, seat: int, creditor: int, owed: int, reason: str) -> None:
    """``seat`` is out: its kept cards go to a player creditor, or back under their decks; its buildings, cash
    and lots follow as sales, payments and property events."""
    g.bankrupt[seat] = True
    g.bankrupt_order.append(seat)
    g.jail_turns[seat] = -1
    cards = g.held_cards[seat]
    g.held_cards[seat] = []
    if creditor >= 0:
        g.held_cards[creditor].extend(cards)
    else:
        for held_card in cards:
            _return_card(g, held_card)
    g.record((BANKRUPT, seat, creditor, owed, reason))


def game_end(g: Any, end: str, winner: int | None, turns: int, rounds: int, standings: tuple[Any, ...]) -> None:
    g.finished = True
    g.end_reason = end
    g.winner = winner
    g.record((GAME_END, end, winner, turns, rounds, standings))


def _return_card(g: Any, held_card: tuple[str, int]) -> None:
    """A held card goes back under its deck (the first of its slots that is out of the deck)."""
    if g.tables is None:
        return
    deck_key, index = held_card
    slots = g.tables.decks.get(deck_key, ())
    deck = g.decks[deck_key]
    for slot_index, slot in enumerate(slots):
        if slot.index == index and slot_index not in deck:
            deck.append(slot_index)
            return


#: Each event type's function, by type code.
_APPLY: dict[int, Callable[..., None]] = {
    GAME_START: game_start, TURN: turn, TO_MOVE: to_move, ROLL: roll, MOVE: move, JAIL: jail, BUY: buy,
    AUCTION: auction, CARD: card, KEEP: keep, SHUFFLE: shuffle, USE_CARD: use_card, VARIABLE: variable,
    PAYMENT: payment, PROPERTY: property_, BUILD: build, SELL: sell, MORTGAGE: mortgage, UNMORTGAGE: unmortgage,
    TRADE: trade, BANKRUPT: bankrupt, GAME_END: game_end,
}
for _code in (CHOICE, REFUSED, DECISION, TIME_UP):
    _APPLY[_code] = lambda g, *fields, _code=_code: g.record((_code, *fields))


def apply(g: Any, record: Record) -> None:
    """Apply one event (a record, see :mod:`monopoly.game.events`) to the state ``g``: the one replayer."""
    _APPLY[record[0]](g, *record[1:])


__all__ = ["BANK", "apply"]
