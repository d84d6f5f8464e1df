"""Exact long-run landing odds from a Markov chain built from the ruleset itself.

Nothing here knows the classic board: the chain comes from the board size, the
dice, the doubles rule, the spaces and cards that move a token (read from their
effect ASTs) and the jail rules.

One transition is one roll. The state after a roll is where the token ended and
how many doubles in a row led there (so the next roll knows whether a third
double sends it to jail), or "in jail" with the number of failed attempts so
far. The stationary distribution over those states is the share of rolls that
end on each square: the convention of the published tables, with "In Jail" apart
from "Just Visiting". Cards are drawn at random, each card of an n-card deck
with probability 1/n; a card that is kept (Get Out of Jail Free) moves nothing.

Effects that move the token or draw a card are followed as the engine plays them, up to
the engine's bound on one roll (:data:`MAX_CHAIN`, 16): every move and every draw an effect
causes after the roll counts one, whether it comes from the card drawn at the space landed on,
from a card that card draws (a card that says ``draw chance``, even inside the Chance deck, or
two decks that draw from each other), or from a move onto a space that draws or moves again. A
landing's land triggers act first, then its card, then the space's own effect, each only while
the token is still on the space. The probability mass that reaches the bound is not dropped: as
in the engine, a move over the bound still moves the token but it does not land (nothing on the
new space happens), and a draw over the bound is not made (the token stays where it is). So a
one-card deck whose card draws it again leaves the token where it drew, and a deck half of
whose cards draw again keeps the token there with probability 2^-16, when all 16 draws
allowed draw again.

A land trigger with a condition (``if:``) counts as firing half the time, as the branches of
an ``if`` do; one with ``instead`` leaves out the space's card and effect when it fires. Triggers
on passing a space and on events of the game are not followed: one whose effect may move the
player (or keep them out of jail, ``instead`` on go_to_jail) makes the odds approximate, and
``LandingOdds.approximate`` names it.

``jail="short"``: a jailed player pays at once and rolls as usual (where the rules let the fine be paid
first: on a jail of one turn, ``max_turns: 1``, the print has the player throw first, as ``long`` does).
``jail="long"``: a jailed player rolls for doubles up to the limit; each failed
roll ends "in jail", and after the last failed roll the fine is paid and the
token moves by that roll.
"""

from __future__ import annotations

import functools
import itertools
from collections import defaultdict
from collections.abc import Iterable
from typing import Any, TypeVar

import attrs

from ..effects import ast
from ..game.movement import steps_ahead_to, steps_back_to
from ..ruleset.model import Ruleset

JAIL = -1  # an end of a move: sent to jail
#: Moves and draws effects may cause after one roll (cards that move onto cards that move, cards
#: that draw cards...): the engine's bound (``monopoly.game.game.MAX_CHAINED_MOVES``).
MAX_CHAIN = 16
#: The count of moves and draws once it is over the bound (nothing more lands or draws).
OVER = MAX_CHAIN + 1
#: Where a token is inside one landing: its space (or JAIL) and the moves and draws so far.
End = tuple[int, int]
Key = TypeVar("Key")


@attrs.frozen
class LandingOdds:
    """Share of rolls ending on each space (``landing``, board order) and in jail (``in_jail``).

    ``landing[jail_index]`` is "Just Visiting"; the shares and ``in_jail`` sum to 1.
    ``rolls_per_turn`` converts shares of rolls into landings per turn.
    """

    ruleset_id: str
    jail: str
    names: tuple[str, ...]
    landing: tuple[float, ...]
    in_jail: float
    rolls_per_turn: float
    #: Why the odds are not exact, if they are not: each construct of the ruleset the chain cannot follow
    #: exactly (an `if` whose branches move the player counts them as even chances).
    approximate: tuple[str, ...] = ()

    def per_turn(self, index: int) -> float:
        """Expected landings on ``index`` per turn of one player (doubles included)."""
        return self.landing[index] * self.rolls_per_turn

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset_id,
            "jail": self.jail,
            "landing": [{"index": i, "name": n, "probability": p}
                        for i, (n, p) in enumerate(zip(self.names, self.landing, strict=True))],
            "in_jail": self.in_jail,
            "rolls_per_turn": self.rolls_per_turn,
            "exact": not self.approximate,
            "approximate": list(self.approximate),
        }


def dice_outcomes(count: int, sides: int, doubles: tuple[int, ...] | None = None) -> list[tuple[int, bool, float]]:
    """(total, is_double, probability) for every distinct (total, double) outcome of the dice; ``doubles``: the
    dice (from 1) that make doubles (`dice.doubles`), every one when None."""
    table: dict[tuple[int, bool], float] = defaultdict(float)
    weight = 1.0 / sides**count
    counted = tuple(d - 1 for d in doubles) if doubles is not None else tuple(range(count))
    if sides**count <= 200_000:
        for roll in itertools.product(range(1, sides + 1), repeat=count):
            faces = {roll[i] for i in counted}
            table[(sum(roll), len(counted) > 1 and len(faces) == 1)] += weight  # one die never throws doubles
    else:  # pragma: no cover - the schema caps dice well below this
        raise ValueError("too many dice outcomes to enumerate")
    return [(total, double, p) for (total, double), p in sorted(table.items())]


class _Board:
    """Where a landing on each space finally leaves the token, as a distribution.

    Inside, a token's place is an :data:`End`: its space (or JAIL) and the moves and draws
    effects have caused since the roll, the count the engine bounds by :data:`MAX_CHAIN`.
    """

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        self.size = len(ruleset.board)
        self.jail = next(s.index for s in ruleset.board if s.kind == "jail")
        self.go = next((s.index for s in ruleset.board if s.kind == "go"), -1)
        self.by_name: dict[str, tuple[int, ...]] = defaultdict(tuple)
        self.by_key: dict[str, tuple[int, ...]] = defaultdict(tuple)
        for space in ruleset.board:
            self.by_name[space.name] += (space.index,)
            for key in (space.kind, space.group):
                if key is not None:
                    self.by_key[key] += (space.index,)
        self.decks = {deck.key: deck for deck in ruleset.decks}
        self.land_triggers: dict[int, list[Any]] = defaultdict(list)
        self.approximate: dict[str, None] = {}  # the reasons, in the order met (a dict keeps them once)
        for trigger in ruleset.triggers:
            if trigger.on == "land":
                for index in trigger.spaces:
                    self.land_triggers[index].append(trigger)
            elif (trigger.on == "go_to_jail" and trigger.instead) or (trigger.on != "go_to_jail"
                                                                        and _may_move(trigger.effect)):
                # (the effect of a trigger on going to jail runs in jail, where nobody moves)
                self.approximate[f"the trigger on {_trigger_place(trigger)} may move the player (or keep them "
                                 "out of jail) at a moment the odds do not follow"] = None
        if ruleset.extra_die is not None:
            self.approximate["the extra die (dice.extra) is not in the chain: the odds follow the counted dice "
                             "alone, while its numbers, symbols and triples move the player by what the game "
                             "holds then (laps for when it is thrown, owners, the player's choices)"] = None
        self._cache: dict[int, dict[int, float]] = {}
        self._landings: dict[End, dict[End, float]] = {}
        self._draws: dict[tuple[int, str, int], dict[End, float]] = {}
        for deck in ruleset.decks:
            for card in deck.cards:
                if card.use_effect is not None and any(isinstance(s, _MOVING) for s in card.use_effect.statements()):
                    self.approximate[f'the kept card "{card.text}" moves its holder when used, at a time the '
                                     "player chooses, which the odds do not follow"] = None

    def settle(self, index: int) -> dict[int, float]:
        """Distribution of where a token that a roll brings to ``index`` ends (JAIL for jail)."""
        if index not in self._cache:
            ends: dict[int, float] = defaultdict(float)
            for (end, _), p in self.land(index, 0).items():
                ends[end] += p
            self._cache[index] = dict(ends)
        return self._cache[index]

    def land(self, index: int, chain: int) -> dict[End, float]:
        """A token lands on ``index`` after ``chain`` moves and draws since the roll: where it ends.

        As in the engine: the space's land triggers, then its card (a draw space), then its own
        effect, each only while the token is still on the space and not in jail.
        """
        key = (index, chain)
        if key not in self._landings:
            space = self.ruleset.board[index]
            steps: list[Any] = []
            if space.kind == "draw" and space.deck in self.decks:
                steps.append(functools.partial(self._draw, space.deck))
            if space.effect is not None:
                steps.append(functools.partial(self._effect, space.effect))
            # The land triggers first; an `instead` one that fires leaves the space's own steps out (marked True).
            marked: dict[tuple[int, int, bool], float] = {(index, chain, False): 1.0}
            for trigger in self.land_triggers[index]:
                marked = self._land_trigger(trigger, index, chain, marked, steps)
            outcome: dict[End, float] = defaultdict(float)
            for (at, count, replaced), p in marked.items():
                if replaced or at != index:
                    outcome[(at, count)] += p
                    continue
                ends: dict[End, float] = {(at, count): 1.0}
                for step in steps:
                    ends = _merge(_scaled(step(a, c), q) if a == index else {(a, c): q} for (a, c), q in ends.items())
                for end, q in ends.items():
                    outcome[end] += p * q
            self._landings[key] = dict(outcome)
        return self._landings[key]

    def _land_trigger(self, trigger: Any, index: int, chain: int, marked: dict[tuple[int, int, bool], float],
                      steps: list[Any]) -> dict[tuple[int, int, bool], float]:
        """One land trigger on ``index``, on the token's places so far: it fires (half the time when it has a
        condition the chain cannot know) while the token is still on the space."""
        fires = (1.0,) if trigger.condition is None else (0.5, 0.0)
        result: dict[tuple[int, int, bool], float] = defaultdict(float)
        for (at, count, replaced), p in marked.items():
            if at != index:
                result[(at, count, replaced)] += p
                continue
            for weight in fires:
                if weight:
                    for (a, c), q in self._effect(trigger.effect, at, count).items():
                        result[(a, c, replaced or (trigger.instead and a == index))] += p * weight * q
                else:
                    result[(at, count, replaced)] += p * 0.5
        if trigger.condition is not None:
            moves = self._effect(trigger.effect, index, chain) != {(index, chain): 1.0}
            default_moves = trigger.instead and bool(steps) and _moves_from(steps, index, chain)
            if moves or default_moves:
                self.approximate[f'the trigger on {_trigger_place(trigger)} if "{trigger.condition_text}" moves the '
                                 "player on a condition the odds cannot know: it counts as firing half the time"] = None
        return dict(result)

    def _draw(self, deck_key: str, at: int, chain: int) -> dict[End, float]:
        """A card of ``deck_key`` is drawn at ``at``: over the bound it is not, and nothing happens."""
        if chain >= MAX_CHAIN:
            return {(at, OVER): 1.0}
        key = (at, deck_key, chain)
        if key not in self._draws:
            deck = self.decks[deck_key]
            total = deck.size
            self._draws[key] = _merge(_scaled(self._effect(card.effect, at, chain + 1), card.count / total)
                                      for card in deck.cards)
        return self._draws[key]

    def _effect(self, effect: ast.Effect, at: int, chain: int) -> dict[End, float]:
        """Where an effect starting at ``at`` leaves the token; choices count as equally likely."""
        options = effect.alternatives
        return _merge(_scaled(self._sequence(option.statements, at, chain), 1 / len(options))
                      for option in options)

    def _sequence(self, statements: Iterable[Any], at: int, chain: int) -> dict[End, float]:
        current: dict[End, float] = {(at, chain): 1.0}
        for statement in statements:
            current = _merge({(position, count): p} if position == JAIL
                             else _scaled(self._statement(statement, position, count), p)
                             for (position, count), p in current.items())
        return current

    def _statement(self, statement: Any, at: int, chain: int) -> dict[End, float]:
        if isinstance(statement, ast.ChooseStatement):  # as a whole effect's choice: even chances
            return _merge(_scaled(self._sequence(option.statements, at, chain), 1 / len(statement.options))
                          for option in statement.options)
        if isinstance(statement, ast.EveryPlayer):
            # The player whose turn it is goes first: the chain follows them through it (the others' tokens are
            # their own chains'); what the others do before the next roll (money, owners) it cannot know.
            through = self._sequence(statement.body.statements, at, chain)
            if through != {(at, chain): 1.0}:
                self.approximate[f'"{statement.to_text()}" moves every player: the odds follow the player whose '
                                 "turn it is, not the others' tokens it moves"] = None
            return through
        if isinstance(statement, ast.If):
            # The chain cannot know the condition (money, owners): its branches count as even chances. An `if`
            # that moves nobody changes nothing here; one whose branches move makes the odds approximate.
            branches = (statement.then.statements, statement.otherwise.statements if statement.otherwise else ())
            ends = [self._sequence(branch, at, chain) for branch in branches]
            if ends[0] != ends[1]:
                self.approximate[f'"{statement.to_text()}" moves the player on a condition the odds cannot know '
                                 "(money, owners): its branches count as even chances"] = None
            return _merge(_scaled(end, 0.5) for end in ends)
        if isinstance(statement, ast.MoveBy):
            # How far is worked out in the game (money, owners, the dice of the turn): the chain cannot know it.
            self.approximate[f'"{statement.to_text()}" moves the player by an amount the odds cannot know: they '
                             "count it as no move"] = None
            return {(at, chain): 1.0}
        if isinstance(statement, ast.GoToJail):
            return {(JAIL, chain): 1.0}
        if isinstance(statement, ast.Draw):
            if statement.deck in self.decks:
                return self._draw(statement.deck, at, chain)
            return {(at, chain): 1.0}
        if isinstance(statement, (ast.AdvanceTo, ast.GoBackTo)) and isinstance(statement.target, ast.ChosenTarget):
            # The player picks: the chain cannot know which (it depends on money, owners, strategy).
            self.approximate[f'"{statement.to_text()}" lets the player pick a space: the odds count every name '
                             "on the board as an even chance"] = None
            picks = tuple(self.by_name.values())
            return _merge(_scaled(self._arrive(self._destination(statement, at, indexes), chain), 1 / len(picks))
                          for indexes in picks)
        if isinstance(statement, (ast.AdvanceTo, ast.GoBackTo)) and isinstance(statement.target, ast.NearestTarget) \
                and statement.target.dynamic:
            # Which lots are unowned, mortgaged or another's is the game's: the chain counts the nearest of the
            # first alternative's kind, whoever owns it.
            self.approximate[f'"{statement.to_text()}" depends on who owns what: the odds count it as a move to '
                             f"the nearest {statement.target.name}"] = None
            name = statement.target.name
            indexes = self.by_key[name] if name != "lot" else tuple(s.index for s in self.ruleset.board if s.ownable)
            return self._arrive(self._destination(statement, at, indexes), chain) if indexes else {(at, chain): 1.0}
        if isinstance(statement, ast.Roll):
            return {(at, chain): 1.0}  # a throw that moves nobody
        if isinstance(statement, (ast.AdvanceTo, ast.GoBackTo, ast.Move)):
            return self._arrive(self._destination(statement, at), chain)
        return {(at, chain): 1.0}

    def _arrive(self, target: int, chain: int) -> dict[End, float]:
        """A move of the token to ``target``: it lands there, unless the moves and draws are over the bound."""
        if chain >= MAX_CHAIN:  # over the bound the token moves but does not land
            return {(target, OVER): 1.0}
        return self.land(target, chain + 1)

    def _destination(self, statement: Any, at: int, indexes: tuple[int, ...] | None = None) -> int:
        n = self.size
        if isinstance(statement, ast.Move):
            return (at + statement.steps) % n
        target = statement.target
        if indexes is None:
            indexes = self.by_key[target.name] if isinstance(target, ast.NearestTarget) else self.by_name[target.name]
        if isinstance(statement, ast.AdvanceTo):
            return (at + steps_ahead_to(at, indexes, size=n)) % n
        return (at - steps_back_to(at, indexes, size=n)) % n


def _moves_from(steps: list[Any], index: int, chain: int) -> bool:
    """Whether the space's own steps (its card, its effect) may move a token that landed there."""
    ends: dict[End, float] = {(index, chain): 1.0}
    for step in steps:
        ends = _merge(_scaled(step(a, c), q) if a == index else {(a, c): q} for (a, c), q in ends.items())
    return ends != {(index, chain): 1.0}


_MOVING = (ast.AdvanceTo, ast.GoBackTo, ast.Move, ast.GoToJail, ast.Draw)


def _may_move(effect: ast.Effect) -> bool:
    """Whether an effect may move its player (a move, jail, a card drawn, in any branch)."""
    def moves(statements: Iterable[Any]) -> bool:
        for statement in statements:
            if isinstance(statement, _MOVING):
                return True
            if isinstance(statement, ast.If) and (moves(statement.then.statements) or (
                    statement.otherwise is not None and moves(statement.otherwise.statements))):
                return True
            if isinstance(statement, ast.EveryPlayer) and moves(statement.body.statements):
                return True
            if isinstance(statement, ast.ChooseStatement) and any(moves(o.statements) for o in statement.options):
                return True
        return False

    return any(moves(option.statements) for option in effect.alternatives)


def _trigger_place(trigger: Any) -> str:
    if trigger.space_name is not None:
        return f'{trigger.on} "{trigger.space_name}"'
    if trigger.kind is not None:
        return f"{trigger.on} of a {trigger.kind}"
    return trigger.on


def _scaled(part: dict[End, float], weight: float) -> dict[End, float]:
    return {key: p * weight for key, p in part.items()}


def _merge(parts: Iterable[dict[Key, float]]) -> dict[Key, float]:
    merged: dict[Key, float] = defaultdict(float)
    for part in parts:
        for key, p in part.items():
            merged[key] += p
    return dict(merged)


#: The most states the exact solution takes on (a dense elimination, whose time grows as the cube: about 20
#: seconds at this many on a slow machine). Classic has 123; a board of 200 spaces with the usual three
#: doubles has 603.
MAX_STATES = 610


class ChainTooLarge(ValueError):
    """The ruleset's chain of states (spaces times the doubles in a row a roll may follow, and the jail's turns)
    is more than :data:`MAX_STATES`: its exact odds would take too long to find."""


def landing_odds(ruleset: Ruleset, jail: str = "short") -> LandingOdds:
    """The exact long-run share of rolls ending on each space (see the module docstring)."""
    if jail not in ("short", "long"):
        raise ValueError("jail must be 'short' or 'long'")
    board = _Board(ruleset)
    n = board.size
    rules = ruleset.rules.jail
    limit = rules.doubles_to_jail
    streak_states = max(limit, 1)  # doubles in a row so far: 0 .. limit-1
    pays_first = jail == "short" and (rules.max_turns > 1 or rules.pay_on_last_turn)
    attempts = 1 if pays_first else max(rules.max_turns, 1)
    outcomes = dice_outcomes(ruleset.dice_count, ruleset.dice_sides, ruleset.dice_doubles)

    # State numbering: (space, streak) -> space * streak_states + streak; jail k -> n * streak_states + k.
    jail_base = n * streak_states
    size = jail_base + attempts
    if size > MAX_STATES:
        raise ChainTooLarge(f"{ruleset.name}: its exact odds are a chain of {size:,} states ({n} spaces times "
                            f"{streak_states} counts of doubles in a row, and {attempts} of jail), more than the "
                            f"{MAX_STATES} the exact solution takes on in bounded time: fewer spaces, or a lower "
                            "rules.jail.doubles_to_jail, make it smaller")

    def state(space: int, streak: int) -> int:
        return jail_base if space == JAIL else space * streak_states + streak

    rows: list[dict[int, float]] = []
    for space in range(n):
        for streak in range(streak_states):
            rows.append(_roll_from(board, outcomes, space, streak, limit, state))
    for k in range(attempts):
        if pays_first:
            rows.append(_roll_from(board, outcomes, board.jail, 0, limit, state))
            continue
        row: dict[int, float] = defaultdict(float)
        for total, double, p in outcomes:
            last = k + 1 >= rules.max_turns
            if double or last:
                for end, q in board.settle((board.jail + total) % n).items():
                    row[state(end, 0)] += p * q
            else:
                row[jail_base + k + 1] += p
        rows.append(dict(row))

    pi = [max(0.0, x) for x in _stationary(rows, size)]  # rounding leaves -1e-17 where 0 is meant
    landing = [sum(pi[space * streak_states + s] for s in range(streak_states)) for space in range(n)]
    in_jail = sum(pi[jail_base:])
    # A turn starts after every roll that ends it: a non-double (streak 0) or any roll into jail.
    turn_starts = sum(pi[space * streak_states] for space in range(n)) + in_jail
    return LandingOdds(ruleset.id, jail, tuple(s.name for s in ruleset.board), tuple(landing), in_jail,
                       1.0 / turn_starts, tuple(board.approximate))


def _roll_from(board: _Board, outcomes: list[tuple[int, bool, float]], space: int, streak: int, limit: int,
               state: Any) -> dict[int, float]:
    row: dict[int, float] = defaultdict(float)
    n = board.size
    for total, double, p in outcomes:
        if double and limit and streak + 1 >= limit:
            row[state(JAIL, 0)] += p
            continue
        next_streak = streak + 1 if double and limit else 0
        for end, q in board.settle((space + total) % n).items():
            row[state(end, next_streak if end != JAIL else 0)] += p * q
    return dict(row)


def _stationary(rows: list[dict[int, float]], size: int) -> list[float]:
    """Solve pi = pi P, sum(pi) = 1 by Gaussian elimination on (P^T - I) with one row replaced."""
    matrix = [[0.0] * (size + 1) for _ in range(size)]
    for i, row in enumerate(rows):
        for j, p in row.items():
            matrix[j][i] += p
    for i in range(size):
        matrix[i][i] -= 1.0
    matrix[-1] = [1.0] * size + [1.0]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(matrix[r][col]))
        matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
        lead = matrix[col]
        inv = 1.0 / lead[col]
        for r in range(size):
            if r != col:
                factor = matrix[r][col] * inv
                if factor:
                    target = matrix[r]
                    matrix[r] = [a - factor * b for a, b in zip(target, lead, strict=True)]
    return [matrix[i][size] / matrix[i][i] for i in range(size)]
