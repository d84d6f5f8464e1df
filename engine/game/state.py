"""A position as plain data: :class:`GameState`, and every way one can break the rules.

A ``GameState`` holds what the rules need to go on: cash, places, jail, deeds,
buildings, mortgages, the bank's stock, the pot, the decks and the cards
players keep, whose turn it is, how the game ended, the random generator, and,
taken at a decision in the middle of a turn, the turn's pending work
(:class:`Pending`: the turn's start and the answers given since, which play the
turn again to where it waits). No agents, no closures, no ruleset: plain lists and numbers,
so it copies cheaply (:meth:`GameState.copy`), goes to JSON and back
(:meth:`to_json`, :meth:`from_json`; a save's ``state`` is this JSON), and can
be set up by hand (:meth:`new` and the set-up methods) and checked
(:meth:`problems`, which lists *every* way it breaks the rules or the ruleset,
as ``chess.Board.status()`` does).

A :class:`Setup` builds a position on a ruleset, by the names on its board:

>>> import monopoly
>>> classic = monopoly.load_ruleset("classic")
>>> setup = Setup(classic, players=2)
>>> setup.give("Boardwalk", 0).give("Park Place", 0).build("Boardwalk", 3)
Setup(classic, GameState(2 players, turn 0, seat 0 to move))
>>> setup.problems()
['the buildings of the dark_blue group are uneven (0/3), but the rules build and sell evenly']
>>> setup.build("Park Place", 2).problems(), setup.state.houses_left
([], 27)

A game takes a position with :meth:`Game.from_state <monopoly.game.game.Game.from_state>`
and gives one with :meth:`Game.state <monopoly.game.game.Game.state>`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Container, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from .._mypyc import mypyc_attr
from .core import MAX_CASH
from .fields import FIELDS, Fields
from .jsonin import describe, excerpt
from .start import started
from .stock import on_board, stock_change
from .tables import tables_for

if TYPE_CHECKING:
    from ..ruleset import Ruleset

#: Seeds, turn caps and counters are whole numbers of fewer digits than this (the JSON reader's limit).
_BIG = 10**30
#: How a message writes the highest of those.
_BIG_TEXT = "10**30 - 1"
_WORD = 2**32  # a Mersenne Twister word: 0 <= x < 2**32
_MT_WORDS = 624
_END_REASONS = ("last_standing", "bankruptcies", "time", "turn_limit", "event_limit")

#: The fields of a position, in the order of its JSON: lists by seat or by space, then scalars.
LISTS = ("cash", "position", "jail_turns", "laps", "bankrupt", "bankrupt_order", "owner", "buildings", "mortgaged")
#: Keys a position written before them lacks, with the value they then take (by the number of seats).
OPTIONAL = {"laps": lambda n: [0] * n}
SCALARS = ("houses_left", "hotels_left", "pot", "turn", "round", "current", "started", "finished", "end_reason",
           "winner", "owner_version")
STATE_KEYS = (*LISTS, *SCALARS, "held_cards", "decks", "last_roll", "rng")
#: The keys of a state's ``pending`` (only in a state taken in the middle of a turn).
PENDING_KEYS = ("start", "fixed_dice", "answers", "decision")
#: The most answers a position's pending work may hold: a turn asks a few dozen at most, but a position taken
#: inside play() (which marks only its start) holds every answer since: a decision a seat a turn, and more.
MAX_PENDING_ANSWERS = 100_000


@mypyc_attr(native_class=False)
class StateError(ValueError):
    """A position that breaks the rules or the ruleset; ``problems`` lists every reason."""

    def __init__(self, problems: Sequence[str]):
        self.problems = list(problems)
        shown = "; ".join(self.problems[:20]) + (f"; and {len(self.problems) - 20} more" if len(self.problems) > 20
                                                 else "")
        super().__init__(shown)


class Pending:
    """The pending work of a half-played turn, as data: ``start``, the position at the turn's start (between
    turns), the dice fixed for it then, and the ``answers`` given since (as given: refused ones are refused
    again), which play the turn again to the ``decision`` (seat, kind) it waits for. The rules are
    deterministic, so this is all a game needs to go on from the middle of a turn."""

    __slots__ = ("answers", "decision", "fixed_dice", "start")

    def __init__(self, start: GameState, fixed_dice: Sequence[tuple[int, ...]], answers: Sequence[Any],
                 decision: tuple[int, str]):
        self.start = start
        self.fixed_dice = tuple(tuple(roll) for roll in fixed_dice)
        self.answers = tuple(answers)
        self.decision = decision

    def to_json(self) -> dict[str, Any]:
        from .answers import encode_answer

        return {"start": self.start.to_json(), "fixed_dice": [list(roll) for roll in self.fixed_dice],
                "answers": [encode_answer(answer) for answer in self.answers],
                "decision": {"seat": self.decision[0], "kind": self.decision[1]}}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pending:
        from .answers import decode_answer

        return cls(GameState._unchecked(data["start"]), [tuple(roll) for roll in data["fixed_dice"]],
                   [decode_answer(answer) for answer in data["answers"]],
                   (data["decision"]["seat"], data["decision"]["kind"]))


class Driven(Protocol):
    """What a position is taken from and put into: a game and its driver (:class:`~monopoly.game.game.Game`)."""

    rng: random.Random
    decks: dict[str, Any]
    held_cards: list[list[tuple[str, int]]]
    last_roll: tuple[int, ...]
    last_extra: tuple[int | str, ...]
    variables: list[Any]

    @property
    def pending(self) -> Any: ...  # the decision the game waits for (Decision), or None

    def pending_work(self) -> Pending | None: ...
    def resume_pending(self, pending: Pending) -> None: ...
    def forget_turn(self) -> None: ...


class GameState(Fields):  # not compiled: a Python class over the compiled Fields
    """A position (see the module docstring). Set-up methods return the state, so they chain."""

    __slots__ = tuple(name for name in (*STATE_KEYS, "last_extra", "pending", "variables") if name not in FIELDS)

    # the fields of every turn (cash, position, laps, owner, buildings, mortgaged, the bank's stock, pot, turn,
    # round, current, owner_version, last_roll, last_extra) are declared by Fields; the rest here
    jail_turns: list[int]
    bankrupt: list[bool]
    bankrupt_order: list[int]
    started: bool
    finished: bool
    end_reason: str | None
    winner: int | None
    held_cards: list[list[tuple[str, int]]]
    decks: dict[str, list[int]]
    rng: tuple[int, tuple[int, ...], float | None]
    pending: Pending | None  # the half-played turn's work; None between turns
    variables: list[int]  # the ruleset's variables (`variables:`), in its order; in the JSON only when there are

    # ------------------------------------------------------------------ to and from games and JSON

    @classmethod
    def of(cls, game: Driven) -> GameState:
        """The position of ``game`` now (a copy: later moves of the game do not change it), with the pending
        work of the turn when the game waits for a decision in the middle of one."""
        state = cls._copied(game, game.rng.getstate())
        state.pending = game.pending_work()
        return state

    @classmethod
    def _copied(cls, source: Any, rng: Any) -> GameState:
        """A new state with the fields of ``source`` (a game or a state) copied, and ``rng``."""
        state = cls.__new__(cls)
        for name in LISTS:
            setattr(state, name, list(getattr(source, name)))
        for name in SCALARS:
            setattr(state, name, getattr(source, name))
        state.held_cards = [list(cards) for cards in source.held_cards]
        state.decks = {key: list(order) for key, order in source.decks.items()}
        state.last_roll = tuple(source.last_roll)
        state.last_extra = tuple(source.last_extra)
        state.rng = rng
        state.variables = list(source.variables)
        state.pending = getattr(source, "pending", None) if isinstance(source, GameState) else None
        return state

    def put(self, game: Driven) -> None:
        """Make this the position of ``game`` (a copy: the game's moves do not change this state). A state with
        pending work puts the turn's start and plays the turn again to its decision with the answers given;
        :class:`StateError` if that does not come out as this state says."""
        from collections import deque

        if self.pending is not None:
            game.resume_pending(self.pending)
            comes_out = GameState._copied(game, game.rng.getstate())
            mine = GameState._copied(self, self.rng)
            mine.pending = comes_out.pending = None
            if comes_out != mine:
                differ = [name for name in (*LISTS, *SCALARS, "held_cards", "decks", "last_roll", "rng")
                          if comes_out.to_json()[name] != mine.to_json()[name]]
                raise StateError([f"the position does not follow from its turn's start and answers: "
                                  f"{', '.join(differ)} differ"])
            decision = game.pending
            if decision is None or (decision.seat, decision.kind) != tuple(self.pending.decision):
                raise StateError([f"the turn's answers lead to {decision!r}, not to the decision the position "
                                  f"waits for ({self.pending.decision[1]} of seat {self.pending.decision[0]})"])
            return
        game.forget_turn()  # a turn loop going on holds the old lists; the standings are worked out again
        for name in LISTS:
            setattr(game, name, list(getattr(self, name)))
        for name in SCALARS:
            setattr(game, name, getattr(self, name))
        game.held_cards = [list(cards) for cards in self.held_cards]
        game.decks = {key: deque(self.decks[key]) for key in game.decks}
        game.last_roll = tuple(self.last_roll)
        game.last_extra = tuple(self.last_extra)
        game.variables = list(self.variables)
        game.rng.setstate(self.rng)

    def copy(self) -> GameState:
        """An independent copy: cheap (lists of numbers), the ruleset is not copied."""
        return GameState._copied(self, self.rng)

    def to_json(self) -> dict[str, Any]:
        """The position as plain JSON data (the ``state`` of a save)."""
        data: dict[str, Any] = {name: list(getattr(self, name)) for name in LISTS}
        data.update({name: getattr(self, name) for name in SCALARS})
        data["held_cards"] = [[list(card) for card in cards] for cards in self.held_cards]
        data["decks"] = {key: list(order) for key, order in self.decks.items()}
        data["last_roll"] = list(self.last_roll)
        version, internal, gauss = self.rng
        data["rng"] = [version, list(internal), gauss]
        if self.variables:  # a ruleset without variables writes the position it always wrote
            data["variables"] = list(self.variables)
        if self.last_extra:  # likewise a throw without an extra die
            data["last_extra"] = list(self.last_extra)
        if self.pending is not None:
            data["pending"] = self.pending.to_json()
        return data

    @classmethod
    def from_json(cls, data: Any, ruleset: Ruleset, *, players: int, max_turns: int | None = None) -> GameState:
        """The position in ``data`` (as :meth:`to_json` writes it), once every field and the whole position are
        checked against the rules and ``ruleset``; :class:`StateError` lists every problem otherwise."""
        found = _Found()
        _check_state_fields(data, ruleset, players, found)
        if found.ok("state"):
            _check_rules(data, max_turns, ruleset, players, found)
        if found.problems:
            raise StateError(found.problems)
        return cls._unchecked(data)

    @classmethod
    def _unchecked(cls, data: dict[str, Any]) -> GameState:
        state = cls.__new__(cls)
        for name in LISTS:
            setattr(state, name, list(data[name]) if name in data else OPTIONAL[name](len(data["cash"])))
        for name in SCALARS:
            setattr(state, name, data[name])
        state.held_cards = [[(deck, index) for deck, index in cards] for cards in data["held_cards"]]
        state.decks = {key: list(order) for key, order in data["decks"].items()}
        state.last_roll = tuple(data["last_roll"])
        version, internal, gauss = data["rng"]
        state.rng = (version, tuple(internal), gauss)
        state.variables = list(data.get("variables", ()))
        state.last_extra = tuple(data.get("last_extra", ()))
        state.pending = Pending.from_json(data["pending"]) if data.get("pending") is not None else None
        return state

    def problems(self, ruleset: Ruleset, *, max_turns: int | None = None) -> list[str]:
        """Every way this position breaks the rules or ``ruleset`` (empty when it is one a game can reach
        between turns): types and ranges first, then the rules (even building, whole groups, the bank's stock,
        cards, jail, how the game ended...)."""
        found = _Found()
        data = self.to_json()
        _check_state_fields(data, ruleset, len(self.cash), found)
        _check_rules(data, max_turns, ruleset, len(self.cash), found)
        return found.problems

    def __repr__(self) -> str:
        where = "finished" if self.finished else f"seat {self.current} to move" if self.pending is None else \
            f"{self.pending.decision[1]} of seat {self.pending.decision[0]} pending"
        return f"GameState({len(self.cash)} players, turn {self.turn}, {where})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def in_jail(self, seat: int) -> bool:
        """Whether ``seat`` is in jail (``jail_turns[seat]`` is then the failed tries to leave so far, 0 on the
        turn it went in; -1 is free). A player only visiting the jail space is not in jail.

        >>> import monopoly
        >>> state = Setup(monopoly.load_ruleset("classic"), players=2).jail(1, tries=2).place(0, "Jail").state
        >>> state.in_jail(0), state.in_jail(1), state.jail_turns
        (False, True, [-1, 2])
        """
        if type(seat) is not int or not 0 <= seat < len(self.jail_turns):
            raise ValueError(f"no seat {seat!r}: seats are 0 to {len(self.jail_turns) - 1}")
        return self.jail_turns[seat] >= 0

    @classmethod
    def new(cls, ruleset: Ruleset, players: int, *, seed: int = 0, deal: bool = True) -> GameState:
        """The position at the start of a game of ``players`` with ``seed``: starting cash paid, decks
        shuffled (and deeds dealt, where the ruleset deals them: ``rules.deal_deeds``; ``deal=False`` leaves
        every deed with the bank), the first seat to move. The position is started: a game put in it never
        starts it again (no second starting cash, shuffle or deal)."""
        game = started(ruleset, players, seed, deal=deal)
        return cls._copied(game, game.rng.getstate())


class Setup:
    """A position built by hand on ``ruleset``: hand out lots, place buildings (the bank's stock follows),
    set the bank's stock and the pot, mortgage, move tokens, jail, stack decks, give kept cards, choose who
    moves. Spaces are named as on the board (or given by index); every method returns the set-up, so calls
    chain. A name, seat, deck or card that does not exist is a ``ValueError`` at once; the rest is not checked
    while building: :meth:`problems` lists every rule the position breaks, and :meth:`checked` returns the
    position only when there is none.

    ``Setup(ruleset, players=N, seed=S)`` starts from the first position of a game: the starting cash paid,
    the decks shuffled and, where the ruleset deals title deeds at the start (``rules.deal_deeds``: the
    short-game and time-limit variants), the deeds dealt; ``deal=False`` starts without the deal, every deed
    with the bank and every seat with the starting cash. Either way the position is started, so a game put in
    it (``Game.from_state``) plays on from it and never deals on top. ``Setup(ruleset, state)`` goes on from
    any position (the set-up changes that state)."""

    def __init__(self, ruleset: Ruleset, state: GameState | None = None, *, players: int | None = None,
                 seed: int = 0, deal: bool = True):
        if state is None:
            if players is None:
                raise ValueError("Setup: give the number of players (players=N), or a state to start from")
            state = GameState.new(ruleset, players, seed=seed, deal=deal)
        elif not isinstance(state, GameState):
            raise ValueError(f"Setup: the state to start from is {type(state).__name__}, not a GameState "
                             "(GameState.from_json reads one from JSON)")
        elif players is not None and players != len(state.cash):
            raise ValueError(f"Setup: players={players}, but the state has {len(state.cash)} seats")
        elif not deal:
            raise ValueError("Setup: deal=False is for a new start (players=N); the state given is past its start")
        self.ruleset = ruleset
        self.state = state
        self._tables = tables_for(ruleset)

    def __repr__(self) -> str:
        return f"Setup({self.ruleset.id}, {self.state!r})"

    # -- looking things up

    def space(self, space: int | str) -> int:
        """The index of a space given by name or index; ``ValueError`` naming the closest names otherwise."""
        names = self._tables.names
        if type(space) is int and 0 <= space < len(names):
            return space
        if isinstance(space, str) and space in names:
            return names.index(space)
        import difflib

        close = difflib.get_close_matches(str(space), names, n=3)
        raise ValueError(f"no space {space!r} on the board of {self.ruleset.id}"
                         + (f" (did you mean {', '.join(close)}?)" if close else ""))

    def _seat(self, seat: int) -> int:
        if type(seat) is not int or not 0 <= seat < len(self.state.cash):
            raise ValueError(f"no seat {seat!r}: seats are 0 to {len(self.state.cash) - 1}")
        return seat

    def _deck(self, deck: str) -> str:
        if deck not in self._tables.decks:
            raise ValueError(f"no deck {deck!r} (decks: {', '.join(self._tables.decks)})")
        return deck

    def _card(self, deck: str, card: int | str, *, among: Container[int] | None = None,
              taken: Container[int] = ()) -> int:
        """A card's slot in its deck, by slot number or by the start of its printed text: for a text, its first
        slot ``among`` these (all when None) and not ``taken`` (a card printed twice has two slots)."""
        slots = self._tables.decks[self._deck(deck)]
        if type(card) is int and 0 <= card < len(slots):
            return card
        if isinstance(card, str):
            texts = self.ruleset.deck(deck).cards
            matches = [slot for slot, entry in enumerate(slots)
                       if texts[entry.index].text.lower().startswith(card.lower())]
            for slot in matches:
                if (among is None or slot in among) and slot not in taken:
                    return slot
            if matches:
                return matches[0]  # every copy is taken: the problem is the position's (problems() says)
        raise ValueError(f"no card {card!r} in deck {deck}: give a slot from 0 to {len(slots) - 1} or the start "
                         "of a card's text")

    # -- changing the position

    def give(self, space: int | str, seat: int | None) -> Setup:
        """``seat`` owns ``space`` (None: the bank)."""
        s = self.space(space)
        self.state.owner[s] = -1 if seat is None else self._seat(seat)
        self.state.owner_version += 1
        return self

    def build(self, space: int | str, level: int | str) -> Setup:
        """``level`` buildings on ``space``: a number of houses, or ``"hotel"``; the bank's stock follows (the
        pieces come out of the bank, and those a lower level no longer needs go back). A hotel is a level of its
        own, which the ruleset sets: one above the houses a hotel takes (``rules.building.houses_per_hotel``), 5
        on the classic board, 4 in the short game; ``"hotel"`` is that level, whatever the ruleset."""
        s = self.space(space)
        state = self.state
        hotel = self._tables.hotel_level
        if level == "hotel":
            level = hotel
        elif type(level) is not int:
            raise ValueError(f"Setup.build: the level is {level!r}, not a number of houses (0 to {hotel - 1}) or "
                             f"'hotel' (level {hotel} in these rules)")
        houses, hotels = stock_change(state.buildings[s], level, hotel_level=hotel)
        state.houses_left += houses
        state.hotels_left += hotels
        state.buildings[s] = level
        return self

    def set_stock(self, *, houses: int | None = None, hotels: int | None = None) -> Setup:
        """The bank's stock: ``houses`` and ``hotels`` in the bank now (None: as it is). Set it after the
        buildings (each :meth:`build` takes its pieces from the bank). Fewer than the box less what stands on
        the board is a shortage set up: the pieces missing are out of the game; more is a problem."""
        if houses is not None:
            self.state.houses_left = houses
        if hotels is not None:
            self.state.hotels_left = hotels
        return self

    def set_pot(self, amount: int) -> Setup:
        """The pot (the money of ``pay to pot`` and ``fees_to: pot``, which ``collect pot`` takes: the Free
        Parking jackpot) holds ``amount``."""
        self.state.pot = amount
        return self

    def mortgage(self, space: int | str, mortgaged: bool = True) -> Setup:
        self.state.mortgaged[self.space(space)] = mortgaged
        return self

    def set_cash(self, seat: int, amount: int) -> Setup:
        self.state.cash[self._seat(seat)] = amount
        return self

    def set_variable(self, name: str, value: int) -> Setup:
        """Give the ruleset's variable ``name`` (`variables:`) a value; ``ValueError`` for a name it does not
        declare."""
        names = self._tables.variable_names
        if name not in names:
            raise ValueError(f"no variable {name!r} in {self.ruleset.id}"
                             + (f" (its variables: {', '.join(names)})" if names else " (it declares none)"))
        self.state.variables[names.index(name)] = value
        return self

    def place(self, seat: int, space: int | str) -> Setup:
        """Put ``seat``'s token on ``space`` (out of jail)."""
        self.state.position[self._seat(seat)] = self.space(space)
        self.state.jail_turns[seat] = -1
        return self

    def set_laps(self, seat: int, laps: int) -> Setup:
        """``seat`` has passed or landed on the go space ``laps`` times."""
        self.state.laps[self._seat(seat)] = laps
        return self

    def jail(self, seat: int, tries: int = 0) -> Setup:
        """``seat`` in jail, having failed ``tries`` times to leave."""
        self.state.position[self._seat(seat)] = self._tables.jail
        self.state.jail_turns[seat] = tries
        return self

    def stack(self, deck: str, cards: Iterable[int | str]) -> Setup:
        """Put these cards on top of ``deck``, in this order, the first on top (each by its slot, or by the start
        of its text: a card printed twice, given twice, is both its slots); the rest keep their order."""
        order = self.state.decks[self._deck(deck)]
        top: list[int] = []
        for card in cards:
            top.append(self._card(deck, card, taken=top))
        self.state.decks[deck] = top + [slot for slot in order if slot not in top]
        return self

    def give_card(self, seat: int, deck: str, card: int | str) -> Setup:
        """``seat`` keeps ``card`` of ``deck`` (it leaves the deck; held cards are named by the card's index in
        the ruleset's deck, not by slot)."""
        slot = self._card(deck, card, among=self.state.decks[self._deck(deck)])
        index = self._tables.decks[deck][slot].index
        self.state.decks[deck] = [s for s in self.state.decks[deck] if s != slot]
        self.state.held_cards[self._seat(seat)].append((deck, index))
        return self

    def to_move(self, seat: int) -> Setup:
        self.state.current = self._seat(seat)
        return self

    # -- checking

    def problems(self, *, max_turns: int | None = None) -> list[str]:
        return self.state.problems(self.ruleset, max_turns=max_turns)

    def checked(self, *, max_turns: int | None = None) -> GameState:
        """The position, if it breaks no rule; :class:`StateError` listing every problem otherwise."""
        problems = self.problems(max_turns=max_turns)
        if problems:
            raise StateError(problems)
        return self.state


# ---------------------------------------------------------------------- the checks


class _Found:
    """The problems found so far, and the fields they make unusable for the checks that follow."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.bad: set[str] = set()

    def add(self, field: str, message: str) -> None:
        self.problems.append(message)
        self.bad.add(field)

    def ok(self, *fields: str) -> bool:
        return not self.bad.intersection(fields)


def _is_int(value: Any, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _check_rng(value: Any, where: str, field: str, found: _Found) -> None:
    """A Mersenne Twister state as ``random.getstate()`` gives it: [3, 624 words and an index, gauss]."""
    if not isinstance(value, list) or len(value) != 3:
        found.add(field, f"{where} is {describe(value)}, not a generator state [3, [625 numbers], null]")
        return
    version, internal, gauss = value
    if type(version) is not int or version != 3:
        found.add(field, f"{where}[0] is {describe(version)}, not 3 (the generator's version)")
    if not isinstance(internal, list) or len(internal) != _MT_WORDS + 1:
        found.add(field, f"{where}[1] is {describe(internal)}, not a list of {_MT_WORDS + 1} numbers")
    else:
        words = internal[:_MT_WORDS]
        fine = set(map(type, words)) == {int} and min(words) >= 0 and max(words) < _WORD  # the usual case, fast
        wrong = [] if fine else [i for i in range(_MT_WORDS) if not _is_int(internal[i], 0, _WORD - 1)]
        if wrong:
            found.add(field, f"{where}[1] has {len(wrong)} numbers that are not whole numbers from 0 to "
                             f"{_WORD - 1} (the first: [{wrong[0]}] is {describe(internal[wrong[0]])})")
        elif not any(words):
            found.add(field, f"{where}[1] is all zeros, which no generator reaches")
        if not _is_int(internal[_MT_WORDS], 0, _MT_WORDS):
            found.add(field, f"{where}[1][{_MT_WORDS}] is {describe(internal[_MT_WORDS])}, not an index from 0 "
                             f"to {_MT_WORDS}")
    if gauss is not None and not (type(gauss) is float and math.isfinite(gauss)):
        found.add(field, f"{where}[2] is {describe(gauss)}, not null or a number")


def check_keys(data: dict[str, Any], allowed: Sequence[str], where: str, found: _Found, *,
               optional: Container[str] = ()) -> None:
    """Every key of ``data`` is one of ``allowed``, and every one of ``allowed`` but the ``optional`` is there."""
    for key in data:
        if key not in allowed:
            found.add("unknown keys", f"{where} has an unknown key {excerpt(str(key), 40)}")
    for key in allowed:
        if key not in data and key not in optional:
            found.add(key, f"{where} has no '{key}'")


def fixed_roll_problem(ruleset: Ruleset, roll: Sequence[Any]) -> str | None:
    """Why ``roll`` is not a roll to fix (``Game.fix_dice``): the counted dice, then, where the ruleset has an
    extra die, optionally the face it shows; None when it is one."""
    count, sides = ruleset.dice_count, ruleset.dice_sides
    extra = ruleset.extra_die
    dice, rest = list(roll[:count]), list(roll[count:])
    if len(dice) != count or not all(type(d) is int and 1 <= d <= sides for d in dice):
        return f"{list(roll)!r} is not a roll of {count} dice with {sides} sides"
    if rest and (extra is None or len(rest) > 1 or type(rest[0]) not in (int, str) or rest[0] not in extra.faces):
        faces = ", ".join(map(str, extra.faces)) if extra is not None else ""
        return (f"{list(roll)!r}: after the {count} dice comes at most one face of the extra die ({faces})"
                if extra is not None else f"{list(roll)!r} is not a roll of {count} dice with {sides} sides")
    return None


def _check_state_fields(state: Any, ruleset: Any, n: int, found: _Found) -> None:
    """The type and range of every field of the state, each on its own."""
    if not isinstance(state, dict):
        found.add("state", f"state is {describe(state)}, not an object")
        return
    t = tables_for(ruleset)
    check_keys({key: value for key, value in state.items() if key not in ("pending", "variables", "last_extra")},
               STATE_KEYS,
               "state", found, optional=OPTIONAL)
    _check_variables(state.get("variables", []), ruleset, found)
    if "pending" in state:
        _check_pending(state["pending"], ruleset, n, found)
    fields = _FieldCheck(state, found)
    _check_lists(fields, state, ruleset, t, n)
    _check_scalars(fields, state, ruleset, n)
    _check_cards(state, t, n, found)
    _check_dice(state, ruleset, found)
    if "rng" in state:
        _check_rng(state["rng"], "state.rng", "rng", found)


def _check_variables(values: Any, ruleset: Any, found: _Found) -> None:
    """The ruleset's variables: one whole number each, in the ruleset's order."""
    declared = [name for name, _ in ruleset.variables]
    if not isinstance(values, list) or len(values) != len(declared):
        found.add("variables", f"state.variables is {describe(values)}, not the values of the ruleset's "
                               f"{len(declared)} variables ({', '.join(declared) or 'none'}), in order")
        return
    for name, value in zip(declared, values, strict=True):
        if not _is_int(value, 0, MAX_CASH):
            found.add("variables", f"the variable {name} is {describe(value)}, not a whole number from 0 to "
                                   f"{MAX_CASH}")


class _FieldCheck:
    """Checks of one field of a state's JSON each, by its kind (a field left out is not checked here)."""

    def __init__(self, state: dict[str, Any], found: _Found):
        self.state = state
        self.found = found

    def typed_list(self, name: str, length: int, fits: Any, what: str) -> None:
        """A list of ``length`` entries, each one that ``fits`` (``what`` says why one does not)."""
        if name not in self.state:
            return
        value = self.state[name]
        if not isinstance(value, list):
            self.found.add(name, f"state.{name} is {describe(value)}, not a list")
        elif len(value) != length:
            self.found.add(name, f"'{name}' has {len(value)} entries, expected {length}")
        else:
            for i, v in enumerate(value):
                if not fits(v):
                    self.found.add(name, f"state.{name}[{i}] is {describe(v)}, {what}")

    def int_list(self, name: str, length: int, low: int, high: int, what: str) -> None:
        """A list of ``length`` whole numbers from ``low`` to ``high``."""
        self.typed_list(name, length, lambda v: _is_int(v, low, high), what)

    def bool_list(self, name: str, length: int) -> None:
        """A list of ``length`` trues and falses."""
        self.typed_list(name, length, lambda v: type(v) is bool, "not true or false")

    def scalar(self, name: str, low: int, high: int, what: str, *, null: bool = False) -> None:
        """A whole number from ``low`` to ``high`` (or null, where ``null``)."""
        state = self.state
        if name in state and not (null and state[name] is None) and not _is_int(state[name], low, high):
            self.found.add(name, f"state.{name} is {describe(state[name])}, {what}")


def _check_lists(fields: _FieldCheck, state: dict[str, Any], ruleset: Any, t: Any, n: int) -> None:
    """The lists by seat and by space, and the order of the bankruptcies."""
    # A game can end in the middle of a turn (a trigger's effect bankrupting the last rival while a jailed player
    # pays the fine after the last try): its final position may hold that player at the last try.
    jail_high = max(ruleset.rules.jail.max_turns - (0 if state.get("finished") is True else 1), 0)
    # Cash and the pot up to what the JSON reader takes, not MAX_CASH: the bank's effects stop there, but rents,
    # salaries and trades may carry a seat past it, and a save the program wrote must load again.
    fields.int_list("cash", n, 0, _BIG - 1, f"not a whole number from 0 to {_BIG_TEXT} (cash is never negative "
                                            "between turns: a debt is paid at once, or the player goes bankrupt)")
    fields.int_list("position", n, 0, t.size - 1, f"past the board (its spaces are 0 to {t.size - 1})")
    fields.int_list("jail_turns", n, -1, jail_high,
                    f"not -1 (free) or the failed tries in jail so far, 0 to {jail_high}")
    fields.int_list("laps", n, 0, _BIG, "not a whole number of at least 0 (the times past or onto the go space)")
    fields.int_list("owner", t.size, -1, n - 1, f"not -1 (the bank) or a seat from 0 to {n - 1}")
    fields.int_list("buildings", t.size, 0, t.hotel_level, f"not a number of buildings from 0 to {t.hotel_level} "
                                                           f"({t.hotel_level}: a hotel)")
    fields.bool_list("bankrupt", n)
    fields.bool_list("mortgaged", t.size)
    order = state.get("bankrupt_order")
    if "bankrupt_order" in state:
        if not isinstance(order, list) or len(order) > n:
            fields.found.add("bankrupt_order", f"state.bankrupt_order is {describe(order)}, not a list of seats")
        elif not all(_is_int(seat, 0, n - 1) for seat in order) or len(set(order)) != len(order):
            fields.found.add("bankrupt_order",
                             f"state.bankrupt_order is not a list of different seats from 0 to {n - 1}")


def _check_scalars(fields: _FieldCheck, state: dict[str, Any], ruleset: Any, n: int) -> None:
    """The single numbers, flags and the end's reason."""
    fields.scalar("houses_left", 0, ruleset.houses, f"not a number of houses from 0 to {ruleset.houses} (the box)")
    fields.scalar("hotels_left", 0, ruleset.hotels, f"not a number of hotels from 0 to {ruleset.hotels} (the box)")
    fields.scalar("pot", 0, _BIG - 1, f"not a whole number from 0 to {_BIG_TEXT}")
    fields.scalar("turn", 0, _BIG, "not a whole number of at least 0")
    fields.scalar("round", 0, _BIG, "not a whole number of at least 0")
    fields.scalar("owner_version", 0, _BIG, "not a whole number of at least 0")
    fields.scalar("current", 0, n - 1, f"not a seat from 0 to {n - 1}")
    fields.scalar("winner", 0, n - 1, f"not null or a seat from 0 to {n - 1}", null=True)
    for name in ("started", "finished"):
        if name in state and type(state[name]) is not bool:
            fields.found.add(name, f"state.{name} is {describe(state[name])}, not true or false")
    reason = state.get("end_reason")
    if reason is not None and not (isinstance(reason, str) and reason in _END_REASONS):
        fields.found.add("end_reason", f"state.end_reason is {describe(reason)}, not null or one of "
                                       f"{', '.join(_END_REASONS)}")


def _check_dice(state: dict[str, Any], ruleset: Any, found: _Found) -> None:
    """The last roll and the extra die's last face."""
    roll = state.get("last_roll")
    if "last_roll" in state:
        dice, sides = ruleset.dice_count, ruleset.dice_sides
        fine = isinstance(roll, list) and (
            (len(roll) == 2 and all(type(d) is int and d == 0 for d in roll)) or  # no roll yet
            (len(roll) == dice and all(_is_int(d, 1, sides) for d in roll)))
        if not fine:
            found.add("last_roll", f"state.last_roll is {describe(roll)}, not {dice} dice from 1 to {sides} "
                                   "(or [0, 0] before the first roll)")
    if "last_extra" in state:
        extra = state["last_extra"]
        faces = ruleset.extra_die.faces if ruleset.extra_die is not None else ()
        if not (isinstance(extra, list) and len(extra) <= 1 and all(
                type(face) in (int, str) and face in faces for face in extra)):
            found.add("last_extra", f"state.last_extra is {describe(extra)}, not [] or one face of the extra die "
                                    f"({', '.join(map(str, faces)) or 'the ruleset has none'})")


def _check_cards(state: dict[str, Any], t: Any, n: int, found: _Found) -> None:
    """Held cards are [deck, card] pairs of cards that are kept; decks list their slots once each."""
    keepable = {key: {slot.index for slot in slots if slot.keeps} for key, slots in t.decks.items()}
    cards = {key: len({slot.index for slot in slots}) for key, slots in t.decks.items()}
    slots_total = sum(len(slots) for slots in t.decks.values())
    held = state.get("held_cards")
    if "held_cards" in state:
        if not isinstance(held, list) or len(held) != n:
            found.add("held_cards", f"state.held_cards is {describe(held)}, not a list of {n} lists of cards")
        else:
            for seat, hand in enumerate(held):
                if not isinstance(hand, list) or len(hand) > slots_total:
                    found.add("held_cards", f"state.held_cards[{seat}] is {describe(hand)}, not a list of cards")
                    continue
                for i, card in enumerate(hand):
                    where = f"state.held_cards[{seat}][{i}]"
                    if not (isinstance(card, list) and len(card) == 2 and isinstance(card[0], str) and
                            type(card[1]) is int):
                        found.add("held_cards", f"{where} is {describe(card)}, not a [deck, card number] pair")
                    elif card[0] not in keepable:
                        found.add("held_cards", f"{where} is a card of {describe(card[0])}, a deck the ruleset "
                                                "does not have")
                    elif not 0 <= card[1] < cards[card[0]]:
                        found.add("held_cards", f"{where} is card {describe(card[1])} of {card[0]}, which has "
                                                f"cards 0 to {cards[card[0]] - 1}")
                    elif card[1] not in keepable[card[0]]:
                        found.add("held_cards", f"{where} is card {card[1]} of {card[0]}, not a card a player "
                                                "keeps")
    decks = state.get("decks")
    if "decks" in state:
        if not isinstance(decks, dict):
            found.add("decks", f"state.decks is {describe(decks)}, not an object of the decks")
            return
        for key in decks:
            if key not in t.decks:
                found.add("decks", f"state.decks has {excerpt(str(key), 40)}, a deck the ruleset does not have")
        for key, slots in t.decks.items():
            order = decks.get(key)
            if key not in decks:
                found.add("decks", f"state.decks has no deck {key}")
            elif not isinstance(order, list) or len(order) > len(slots):
                found.add("decks", f"state.decks.{key} is {describe(order)}, not a list of its "
                                   f"{len(slots)} cards")
            elif not all(_is_int(i, 0, len(slots) - 1) for i in order) or len(set(order)) != len(order):
                found.add("decks", f"state.decks.{key} lists a card twice, or a card it does not have "
                                   f"(its cards are 0 to {len(slots) - 1})")


def _check_pending(pending: Any, ruleset: Any, n: int, found: _Found) -> None:
    """The pending work of a state taken mid-turn: its fields, and its start as a whole position."""
    from .answers import decode_answer, encode_answer
    from .decisions import KINDS

    if not isinstance(pending, dict):
        found.add("pending", f"state.pending is {describe(pending)}, not an object")
        return
    check_keys(pending, PENDING_KEYS, "state.pending", found)
    start = pending.get("start")
    if isinstance(start, dict) and "pending" in start:
        found.add("pending", "state.pending.start has pending work of its own: a turn starts between turns")
    elif "start" in pending:
        inner = _Found()
        _check_state_fields(start, ruleset, n, inner)
        if inner.ok("state") and isinstance(start, dict):
            _check_rules(start, None, ruleset, n, inner)
        for problem in inner.problems:
            found.add("pending", f"state.pending.start: {problem}")
    dice = pending.get("fixed_dice")
    if "fixed_dice" in pending and not (isinstance(dice, list) and len(dice) <= 100 and all(
            isinstance(roll, list) and fixed_roll_problem(ruleset, roll) is None for roll in dice)):
        found.add("pending", f"state.pending.fixed_dice is {describe(dice)}, not a list of rolls of "
                             f"{ruleset.dice_count} dice of {ruleset.dice_sides} sides"
                             + (" (and a face of the extra die)" if ruleset.extra_die is not None else ""))
    answers = pending.get("answers")
    if "answers" in pending:
        if not isinstance(answers, list) or len(answers) > MAX_PENDING_ANSWERS:
            found.add("pending", f"state.pending.answers is {describe(answers)}, not a list of at most "
                                 f"{MAX_PENDING_ANSWERS} answers")
        else:
            for number, answer in enumerate(answers):
                try:
                    if encode_answer(decode_answer(answer)) != answer:
                        raise ValueError
                except (ValueError, KeyError, TypeError, AttributeError):
                    found.add("pending", f"state.pending.answers[{number}] is {describe(answer)}, not an answer "
                                         "as a log or a save writes one")
                    break
    decision = pending.get("decision")
    if "decision" in pending and not (isinstance(decision, dict) and set(decision) == {"seat", "kind"} and
                                      _is_int(decision["seat"], 0, n - 1) and decision["kind"] in KINDS):
        found.add("pending", f"state.pending.decision is {describe(decision)}, not a seat and a decision kind")


def _check_rules(state: dict[str, Any], max_turns: Any, ruleset: Any, n: int, found: _Found) -> None:
    """The whole state against the rules: what no game reaches between turns. Checks that need a field
    already found wrong are left out. A state taken mid-turn is checked through its turn's start (above):
    the rest follows from the rules, and putting it in a game checks that it does."""
    from .core import turn_cap

    if "pending" in state:
        return
    t = tables_for(ruleset)
    rules = ruleset.rules
    ok = found.ok
    add = found.problems.append
    bankrupt: Any = state.get("bankrupt")  # each used only where its field passed its checks
    if ok("bankrupt", "bankrupt_order") and sorted(state["bankrupt_order"]) != [s for s in range(n) if bankrupt[s]]:
        add("state.bankrupt_order does not list exactly the bankrupt seats")
    if ok("current", "bankrupt", "finished") and not state["finished"] and bankrupt[state["current"]]:
        add(f"the seat to play (state.current, {state['current']}) is bankrupt")
    if ok("bankrupt", "cash", "jail_turns", "held_cards"):
        for seat in range(n):
            if bankrupt[seat] and (state["cash"][seat] or state["jail_turns"][seat] != -1 or
                                   state["held_cards"][seat]):
                add(f"seat {seat} is bankrupt but still has cash, cards or a place in jail")
    if ok("jail_turns", "position"):
        for seat, tries in enumerate(state["jail_turns"]):
            if tries >= 0 and state["position"][seat] != t.jail:
                add(f"state.jail_turns[{seat}] is {tries}, but seat {seat} is not in jail (it is on "
                    f"{t.names[state['position'][seat]]})")
    owner: Any = state.get("owner")
    if ok("owner", "bankrupt"):
        ownable = set(t.ownable)
        for space, seat in enumerate(owner):
            if seat >= 0 and space not in ownable:
                add(f"{t.names[space]} (space {space}) has an owner, but it cannot be owned")
            elif seat >= 0 and bankrupt[seat]:
                add(f"{t.names[space]} is owned by seat {seat}, who is bankrupt")
    if ok("owner", "mortgaged"):
        for space, mortgaged in enumerate(state["mortgaged"]):
            if mortgaged and owner[space] < 0:
                add(f"{t.names[space]} is mortgaged but has no owner")
    if ok("buildings", "owner", "mortgaged"):
        _check_buildings(state, t, rules, add)
    if ok("buildings", "houses_left", "hotels_left"):
        # Fewer than the box is a shortage set up by hand (the pieces missing are out of the game); the play
        # itself only moves pieces between the bank and the board.
        houses, hotels = on_board(state["buildings"], hotel_level=t.hotel_level)
        if state["houses_left"] + houses > ruleset.houses or state["hotels_left"] + hotels > ruleset.hotels:
            add(f"the houses and hotels in the bank and on the board come to more than the box holds: {houses} "
                f"houses and {hotels} hotels built, {state['houses_left']} and {state['hotels_left']} in the bank, "
                f"{ruleset.houses} and {ruleset.hotels} in the box")
    if ok("decks", "held_cards"):
        for key, slots in t.decks.items():
            held = sorted(i for hand in state["held_cards"] for d, i in hand if d == key)
            in_deck = set(state["decks"][key])
            rest = sorted(slots[i].index for i in range(len(slots)) if i not in in_deck)
            if rest != held:
                add(f"the cards of deck {key} are not all in it or held once (missing from the deck: {len(rest)}, "
                    f"held: {len(held)})")
    if ok("started", "cash", "owner", "buildings", "held_cards", "decks") and not state["started"]:
        _check_unstarted(state, t, add)
    if ok("started", "finished", "end_reason", "winner", "bankrupt", "turn", "max_turns"):
        _check_end(state, max_turns, rules, n, add)
    if ok("turn", "round", "started", "finished", "max_turns"):
        turn = state["turn"]
        if not state["started"] and (turn or state["round"]):
            add(f"state.turn is {turn}, but the game has not started")
        if state["round"] > turn:
            add(f"state.round ({state['round']}) is more than state.turn ({turn})")
        cap, what = turn_cap(max_turns), "max_turns" if max_turns is not None else "the turn ceiling"
        if turn > cap:
            add(f"state.turn ({turn}) is past {what} ({cap})")
        elif state["started"] and not state["finished"] and turn >= cap:
            add(f"the game reached {what} ({cap}) but is not finished")


def _check_buildings(state: dict[str, Any], t: Any, rules: Any, add: Any) -> None:
    owner, buildings, mortgaged = state["owner"], state["buildings"], state["mortgaged"]
    for space, level in enumerate(buildings):
        if not level:
            continue
        group = t.group_of[space]
        if not t.build_on[space] or group < 0 or not t.buildable[group]:
            add(f"{t.names[space]} has buildings, but nothing can be built on it")
        elif owner[space] < 0:
            add(f"{t.names[space]} has buildings but no owner")
    for group, members in enumerate(t.members):
        levels = [buildings[m] for m in members]
        if not t.buildable[group] or not any(levels):
            continue
        name = t.group_keys[group]
        if len({owner[m] for m in members}) != 1:
            add(f"the {name} group has buildings, but its lots do not all have one owner (buildings need the "
                "whole group)")
        for m in members:
            if mortgaged[m]:
                add(f"the {name} group has buildings, but {t.names[m]} is mortgaged")
        if rules.building.even and max(levels) - min(levels) > 1:
            add(f"the buildings of the {name} group are uneven ({'/'.join(map(str, levels))}), but the rules "
                "build and sell evenly")


def _check_unstarted(state: dict[str, Any], t: Any, add: Any) -> None:
    """A game not started yet starts when it is played: it pays the starting cash, shuffles the decks and deals
    the deeds on top of what its position holds, so that position holds none of these yet."""
    held = [what for what, there in (
        ("cash", any(state["cash"])), ("deeds", any(seat >= 0 for seat in state["owner"])),
        ("buildings", any(state["buildings"])), ("kept cards", any(state["held_cards"])),
        ("decks out of the ruleset's order", any(state["decks"][key] != list(range(len(slots)))
                                                 for key, slots in t.decks.items())),
    ) if there]
    if held:
        add(f"the game has not started (state.started is false), but its position has {', '.join(held)}: its "
            "start would pay the starting cash, shuffle the decks and deal deeds on top of them (a position set "
            "up by hand is one of a started game, as Setup and GameState.new give)")


def _check_end(state: dict[str, Any], max_turns: Any, rules: Any, n: int, add: Any) -> None:
    from .core import turn_cap

    finished, reason, winner, bankrupt = state["finished"], state["end_reason"], state["winner"], state["bankrupt"]
    alive = [s for s in range(n) if not bankrupt[s]]
    if finished and not state["started"]:
        add("the game is finished but was never started")
    if not finished:
        if winner is not None:
            add(f"state.winner is {winner}, but the game is not finished")
        if reason is not None:
            add(f"state.end_reason is {reason}, but the game is not finished")
        if len(alive) <= 1 and n > 1:  # the last bankruptcy ends the game at once, whatever the rules' end
            left = f"only seat {alive[0]} is" if alive else "no seat is"
            add(f"{left} still in the game, but the game is not finished: the last bankruptcy but one ends it")
        return
    if reason is None:
        add("the game is finished but state.end_reason does not say why")
        return
    if winner is not None and bankrupt[winner]:
        add(f"the winner, seat {winner}, is bankrupt")
    if reason == "last_standing":
        if len(alive) > 1:
            add(f"the game ended with one player standing, but {len(alive)} are not bankrupt")
        elif winner != (alive[0] if alive else None):
            add(f"the game ended with one player standing, but the winner is {describe(winner)}")
    elif reason == "turn_limit":
        if winner is not None:
            add(f"a game stopped by its turn limit has no winner, but state.winner is {winner}")
        if state["turn"] < turn_cap(max_turns):
            add("the game is said to have reached its turn limit, but it has not")
    elif reason == "event_limit":
        if winner is not None:
            add(f"a game stopped by the most events a game records has no winner, but state.winner is {winner}")
    else:
        if rules.end.when != reason:
            add(f"the game is said to have ended by {reason}, which is not how this ruleset ends")
        if winner is None:
            add(f"a game ended by {reason} has a winner, but state.winner is null")


