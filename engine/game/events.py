"""Events: the one record of a game. Every change of state is one event (see :mod:`monopoly.game.apply`).

A game records every event, always, as a small tuple: a type code, then the
event's fields in the order of its JSON object (seats as numbers, the bank and
the pot as :data:`BANK` and :data:`POT`, lists as tuples). That costs a tuple
and an append, so the record is kept in every game, observed or not. Reading
turns a record into a typed event (:func:`typed`: a ``NamedTuple`` such as
:class:`Payment`) or into the dict of the JSON Lines log (:func:`to_dict`, the
shape of docs/events.md and ``schema/events.schema.json``); :func:`from_dict`
goes back, for logs read from files.

>>> record = (PAYMENT, 1, POT, 75, "Luxury Tax")
>>> typed(record)
Payment(from_=1, to=-2, amount=75, reason='Luxury Tax')
>>> to_dict(record)
{'type': 'payment', 'from': 1, 'to': 'pot', 'amount': 75, 'reason': 'Luxury Tax'}
>>> from_dict(to_dict(record)) == record
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, NamedTuple

BANK: Final = -1
POT: Final = -2

#: The version of the rules the engine plays, written in every log's ``game_start`` (``rules``). A log of
#: another version may not replay identically: the rules it was played by are not these. Version 1: the
#: engine before 2026-12-01 (logs without ``rules``); 2: the rule fixes of that day (a hotel sold in a
#: shortage, the engine's fund raising, hopeless debts, the short game's end, income tax chosen before
#: adding up worth, shortage auctions, the tournament rule, mortgaged lots at their mortgage value); 3: a
#: move past GO more than once (a lap or more in one move) pays the salary each time (the sixth session); 4:
#: every player may act between turns (``between``), the fine is not paid first on the last turn in jail, the
#: tournament rule refuses any hotel breakdown that leaves the bank short for the others, the speed die's extra
#: $1,000. A log of version 3 is replayed with the knobs of the first two set as it was played
#: (``recorder.as_played_by``).
RULES_VERSION = 4

#: The version of the log's format, written in ``game_start`` (``log``). 1: logs without ``log``, before every
#: change of state was an event. 2: the events that complete the record (``to_move``, ``keep``, a jail ``stay``,
#: the driver's ``time_up``) and the decks' order in ``game_start``. A reader of version 2 reads version 1 too
#: (:data:`LOG_V2_ONLY` says what version 1 lacks).
LOG_VERSION = 2

#: How a payer or payee is written in the log.
PARTY_NAMES = {BANK: "bank", POT: "pot"}
_PARTY_OF_NAME = {"bank": BANK, "pot": POT}


def party(who: int) -> int | str:
    return PARTY_NAMES.get(who, who)


def _party_in(value: Any) -> Any:
    return _PARTY_OF_NAME.get(value, value) if isinstance(value, str) else value


class GameStart(NamedTuple):
    ruleset: str
    variants: tuple[str, ...]
    seed: int
    max_turns: int | None
    players: tuple[str, ...]
    rules: int
    log: int
    decks: tuple[tuple[str, tuple[int, ...]], ...]  # each deck's key and order of card slots after the shuffle


class Turn(NamedTuple):
    turn: int
    round: int
    seat: int


class ToMove(NamedTuple):
    """Whose turn is next (and the round it is in), at the end of a turn."""

    seat: int
    round: int


class Roll(NamedTuple):
    seat: int
    dice: tuple[int, ...]
    extra: tuple[int | str, ...] = ()  # the face of an extra die (the speed die), when one was thrown


class Move(NamedTuple):
    seat: int
    from_: int
    to: int
    passed_go: bool
    passes: int = 0  # how many times the move went past GO, when more than once (a lap or more in one move)


class Jail(NamedTuple):
    seat: int
    action: str  # enter | leave | stay (a roll that failed to leave)
    how: str
    card: tuple[str, int] | None


class Buy(NamedTuple):
    seat: int
    space: int
    price: int


class Auction(NamedTuple):
    item: str
    space: int | None
    winner: int | None
    price: int
    bids: int


class Card(NamedTuple):
    seat: int
    deck: str
    card: int
    text: str
    kept: bool


class Keep(NamedTuple):
    """``seat`` keeps the card it drew (slot ``slot`` of the deck leaves the deck for the player's hand)."""

    seat: int
    deck: str
    card: int
    slot: int


class UseCard(NamedTuple):
    """``seat`` uses the kept card ``card`` of deck ``deck`` on its turn (the card's ``use: {when: turn}``): the
    card goes back under its deck, and its use's effect follows as events of its own."""

    seat: int
    deck: str
    card: int


class Shuffle(NamedTuple):
    """The cards left in deck ``deck`` are shuffled: ``order`` is its slots from the top (the rules'
    ``cards.shuffle_before_draw``)."""

    deck: str
    order: tuple[int, ...]


class Variable(NamedTuple):
    """A variable of the game (the ruleset's ``variables``) takes a new ``value`` (`set jackpot to 500`)."""

    name: str
    value: int


class Choice(NamedTuple):
    seat: int
    options: tuple[str, ...]
    chosen: int


class Payment(NamedTuple):
    from_: int
    to: int
    amount: int
    reason: str


class Property(NamedTuple):
    space: int
    from_: int
    to: int
    how: str


class Build(NamedTuple):
    seat: int
    space: int
    level: int


class Sell(NamedTuple):
    seat: int
    space: int
    level: int
    sold: int


class Mortgage(NamedTuple):
    seat: int
    space: int


class Unmortgage(NamedTuple):
    seat: int
    space: int


class Trade(NamedTuple):
    accepted: bool
    proposer: int
    partner: int
    give_spaces: tuple[int, ...]
    give_cash: int
    give_cards: tuple[tuple[str, int], ...]
    get_spaces: tuple[int, ...]
    get_cash: int
    get_cards: tuple[tuple[str, int], ...]


class Refused(NamedTuple):
    seat: int
    action: str
    reason: str


class DecisionMade(NamedTuple):
    seat: int
    kind: str
    answer: Any


class Bankrupt(NamedTuple):
    seat: int
    creditor: int
    owed: int
    reason: str


class TimeUp(NamedTuple):
    """The driver's clock ran out (the time-limit rules' minutes), during or after ``turn``: the game ends at the
    end of that turn (at once between turns)."""

    turn: int


class GameEnd(NamedTuple):
    end: str
    winner: int | None
    turns: int
    rounds: int
    standings: tuple[Any, ...]


#: Every event type: its name in the log and its typed class, in the order of the type codes.
TYPES: tuple[tuple[str, type], ...] = (
    ("game_start", GameStart), ("turn", Turn), ("roll", Roll), ("move", Move), ("jail", Jail), ("buy", Buy),
    ("auction", Auction), ("card", Card), ("choice", Choice), ("payment", Payment), ("property", Property),
    ("build", Build), ("sell", Sell), ("mortgage", Mortgage), ("unmortgage", Unmortgage), ("trade", Trade),
    ("refused", Refused), ("decision", DecisionMade), ("bankrupt", Bankrupt), ("game_end", GameEnd),
    ("to_move", ToMove), ("keep", Keep), ("time_up", TimeUp), ("shuffle", Shuffle), ("use_card", UseCard),
    ("variable", Variable),
)
# The type codes, each its place in TYPES (tests/test_events.py holds the two together), written out: Final
# literals are constants in the compiled build, not module globals read by name at every record.
GAME_START: Final = 0
TURN: Final = 1
ROLL: Final = 2
MOVE: Final = 3
JAIL: Final = 4
BUY: Final = 5
AUCTION: Final = 6
CARD: Final = 7
CHOICE: Final = 8
PAYMENT: Final = 9
PROPERTY: Final = 10
BUILD: Final = 11
SELL: Final = 12
MORTGAGE: Final = 13
UNMORTGAGE: Final = 14
TRADE: Final = 15
REFUSED: Final = 16
DECISION: Final = 17
BANKRUPT: Final = 18
GAME_END: Final = 19
TO_MOVE: Final = 20
KEEP: Final = 21
TIME_UP: Final = 22
SHUFFLE: Final = 23
USE_CARD: Final = 24
VARIABLE: Final = 25

EVENT_TYPES = tuple(name for name, _ in TYPES)
CODES = {name: code for code, (name, _) in enumerate(TYPES)}
#: What a version-1 log does not have: these event types, and these keys of game_start.
LOG_V2_ONLY = {"types": ("to_move", "keep", "time_up", "shuffle", "use_card", "variable"),
               "game_start": ("log", "decks"),
               "jail_actions": ("stay",)}

# The keys of each type's JSON object: the class's fields, with `from_` written `from`.
_KEYS = tuple(tuple("from" if f == "from_" else f for f in cls._fields) for _, cls in TYPES)  # type: ignore[attr-defined]
#: Fields that are parties (seats, or the bank and the pot by name) in the JSON.
_PARTIES = {PAYMENT: (1, 2), PROPERTY: (2, 3), BANKRUPT: (2,)}


def typed(record: tuple[Any, ...]) -> Any:
    """The record as its typed event (a ``NamedTuple`` of this module)."""
    made: Any = TYPES[record[0]][1]
    return made(*record[1:])  # (a roll without an extra die and a move past GO once or not leave their last out)


def to_dict(record: tuple[Any, ...]) -> dict[str, Any]:
    """The record as the JSON object of the log (docs/events.md)."""
    code = record[0]
    values: list[Any] = list(record)
    values[0] = EVENT_TYPES[code]
    for index in _PARTIES.get(code, ()):
        values[index] = PARTY_NAMES.get(values[index], values[index])
    if code == GAME_START:
        values[2], values[5] = list(values[2]), list(values[5])
        values[8] = {key: list(order) for key, order in values[8]}
    elif code == ROLL:
        event = {"type": "roll", "seat": values[1], "dice": list(values[2])}
        if len(values) > 3:  # an extra die was thrown: the field a roll without one leaves out
            event["extra"] = list(values[3])
        return event
    elif code == MOVE:
        event = dict(zip(("type", "seat", "from", "to", "passed_go"), values, strict=False))
        if len(values) > 5:  # more than once past GO: the field a move past it once or not leaves out
            event["passes"] = values[5]
        return event
    elif code == SHUFFLE:
        values[2] = list(values[2])
    elif code in (JAIL, CHOICE):
        index = 4 if code == JAIL else 2
        if values[index] is not None:
            values[index] = list(values[index])
    elif code == TRADE:
        for index in (4, 7):
            values[index] = list(values[index])
        for index in (6, 9):
            values[index] = [list(card) for card in values[index]]
    elif code == GAME_END:
        values[5] = list(values[5])
    return dict(zip(("type", *_KEYS[code]), values, strict=True))


def from_dict(event: Mapping[str, Any]) -> tuple[Any, ...]:
    """A log's event as a record (the inverse of :func:`to_dict`); keys a version-1 log lacks get their
    version-1 values (no decks: an empty tuple)."""
    code = CODES[event["type"]]
    keys = _KEYS[code]
    if code == GAME_START:
        decks = event.get("decks") or {}
        return (code, event["ruleset"], tuple(event["variants"]), event["seed"], event.get("max_turns"),
                tuple(event["players"]), event.get("rules", 1), event.get("log", 1),
                tuple((key, tuple(order)) for key, order in decks.items()))
    if code == ROLL:
        extra = event.get("extra")
        return (code, event["seat"], tuple(event["dice"]), tuple(extra)) if extra else \
            (code, event["seat"], tuple(event["dice"]))
    if code == MOVE:
        passes = event.get("passes")
        moved = (code, event["seat"], event["from"], event["to"], event["passed_go"])
        return (*moved, passes) if passes is not None and passes > 1 else moved
    values: list[Any] = [code, *(event.get(key) for key in keys)]
    for index in _PARTIES.get(code, ()):
        values[index] = _party_in(values[index])
    if code == ROLL:
        values[2] = tuple(values[2])
    elif code == JAIL:
        values[4] = tuple(values[4]) if values[4] is not None else None
    elif code in (CHOICE, SHUFFLE):
        values[2] = tuple(values[2])
    elif code == TRADE:
        for index in (4, 7):
            values[index] = tuple(values[index])
        for index in (6, 9):
            values[index] = tuple(tuple(card) for card in values[index])
    elif code == GAME_END:
        values[5] = tuple(values[5])
    return tuple(values)
