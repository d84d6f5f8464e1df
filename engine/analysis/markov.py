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

``jail="short"``: a jailed player pays at once and rolls as usual.
``jail="long"``: a jailed player rolls for doubles up to the limit; each failed
roll ends "in jail", and after the last failed roll the fine is paid and the
token moves by that roll.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

import attrs

from ..effects import ast
from ..ruleset.model import Ruleset

JAIL = -1  # an end of a move: sent to jail
#: Moves one landing may cause (cards that move onto cards that move...), as in the engine.
MAX_CHAIN = 16


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
        }


def dice_outcomes(count: int, sides: int) -> list[tuple[int, bool, float]]:
    """(total, is_double, probability) for every distinct (total, double) outcome of the dice."""
    table: dict[tuple[int, bool], float] = defaultdict(float)
    weight = 1.0 / sides**count
    if sides**count <= 200_000:
        for roll in itertools.product(range(1, sides + 1), repeat=count):
            table[(sum(roll), count > 1 and len(set(roll)) == 1)] += weight  # one die never throws doubles
    else:  # pragma: no cover - the schema caps dice well below this
        raise ValueError("too many dice outcomes to enumerate")
    return [(total, double, p) for (total, double), p in sorted(table.items())]


class _Board:
    """Where a landing on each space finally leaves the token, as a distribution."""

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
        for trigger in ruleset.triggers:
            if trigger.on == "land":
                for index in trigger.spaces:
                    self.land_triggers[index].append(trigger.effect)
        self._cache: dict[int, dict[int, float]] = {}

    def settle(self, index: int, depth: int = 0) -> dict[int, float]:
        """Distribution of where a token that lands on ``index`` ends (JAIL for jail)."""
        if depth == 0 and index in self._cache:
            return self._cache[index]
        space = self.ruleset.board[index]
        outcome: dict[int, float] = {index: 1.0}
        effects = list(self.land_triggers.get(index, []))
        if space.kind == "draw" and space.deck in self.decks:
            outcome = self._draw(index, space.deck, depth)
        if space.effect is not None:
            effects.append(space.effect)
        for effect in effects:  # triggers and the space's own effect act on a token still here
            parts = []
            for at, p in outcome.items():
                if at == index:
                    parts.append({end: q * p for end, q in self._effect(effect, at, depth).items()})
                else:
                    parts.append({at: p})
            outcome = _merge(parts)
        if depth == 0:
            self._cache[index] = outcome
        return outcome

    def _draw(self, at: int, deck_key: str, depth: int) -> dict[int, float]:
        deck = self.decks[deck_key]
        total = deck.size
        parts = []
        for card in deck.cards:
            weight = card.count / total
            parts.append({end: p * weight for end, p in self._effect(card.effect, at, depth).items()})
        return _merge(parts)

    def _effect(self, effect: ast.Effect, at: int, depth: int) -> dict[int, float]:
        """Where an effect starting at ``at`` leaves the token; choices count as equally likely."""
        options = effect.alternatives
        parts = []
        for option in options:
            ends = self._sequence(option.statements, at, depth)
            parts.append({end: p / len(options) for end, p in ends.items()})
        return _merge(parts)

    def _sequence(self, statements: Iterable[Any], at: int, depth: int) -> dict[int, float]:
        current: dict[int, float] = {at: 1.0}
        for statement in statements:
            following: list[dict[int, float]] = []
            for position, p in current.items():
                if position == JAIL:
                    following.append({JAIL: p})
                    continue
                ends = self._statement(statement, position, depth)
                following.append({end: q * p for end, q in ends.items()})
            current = _merge(following)
        return current

    def _statement(self, statement: Any, at: int, depth: int) -> dict[int, float]:
        if isinstance(statement, ast.GoToJail):
            return {JAIL: 1.0}
        if isinstance(statement, ast.Draw):
            if statement.deck in self.decks:
                return self._draw(at, statement.deck, depth)
            return {at: 1.0}
        if isinstance(statement, (ast.AdvanceTo, ast.GoBackTo, ast.Move)):
            target = self._destination(statement, at)
            if depth + 1 > MAX_CHAIN:
                return {target: 1.0}
            return self.settle(target, depth + 1)
        return {at: 1.0}

    def _destination(self, statement: Any, at: int) -> int:
        n = self.size
        if isinstance(statement, ast.Move):
            return (at + statement.steps) % n
        target = statement.target
        indexes = self.by_key[target.name] if isinstance(target, ast.NearestTarget) else self.by_name[target.name]
        if isinstance(statement, ast.AdvanceTo):
            return min(indexes, key=lambda i: (i - at - 1) % n)
        return min(indexes, key=lambda i: (at - i - 1) % n)


def _merge(parts: Iterable[dict[int, float]]) -> dict[int, float]:
    merged: dict[int, float] = defaultdict(float)
    for part in parts:
        for key, p in part.items():
            merged[key] += p
    return dict(merged)


def landing_odds(ruleset: Ruleset, jail: str = "short") -> LandingOdds:
    """The exact long-run share of rolls ending on each space (see the module docstring)."""
    if jail not in ("short", "long"):
        raise ValueError("jail must be 'short' or 'long'")
    board = _Board(ruleset)
    n = board.size
    rules = ruleset.rules.jail
    limit = rules.doubles_to_jail
    streak_states = max(limit, 1)  # doubles in a row so far: 0 .. limit-1
    attempts = max(rules.max_turns, 1) if jail == "long" else 1
    outcomes = dice_outcomes(ruleset.dice_count, ruleset.dice_sides)

    # State numbering: (space, streak) -> space * streak_states + streak; jail k -> n * streak_states + k.
    jail_base = n * streak_states
    size = jail_base + attempts

    def state(space: int, streak: int) -> int:
        return jail_base if space == JAIL else space * streak_states + streak

    rows: list[dict[int, float]] = []
    for space in range(n):
        for streak in range(streak_states):
            rows.append(_roll_from(board, outcomes, space, streak, limit, state))
    for k in range(attempts):
        if jail == "short":
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
                       1.0 / turn_starts)


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
