"""The effect language as data: frozen attrs nodes built by `monopoly.effects.parse`.

An `Effect` is either a `Sequence` of statements or a top-level `Choice` between
sequences. Statements are small verb nodes (`Collect`, `Pay`, `AdvanceTo`, ...);
how much money moves is an `Amount`, a sum of terms.

Nodes that carry a name (a space, a kind or group, a deck) also carry the 1-based
`line` and `column` of that name inside the effect text, so a checker can point at
it. Positions are metadata: they take no part in equality or hashing, so the same
effect written twice (or printed and parsed back) compares equal.

Every node has `to_text()` (and `str()`), which prints the canonical effect text;
parsing that text gives back an equal node.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Union

import attrs

# Sanity limits, checked by the parser (as syntax errors with a position) and again
# by the node validators (so hand-built nodes cannot hold nonsense either).
AMOUNT_MAX = 1_000_000
PERCENT_MIN, PERCENT_MAX = 1, 100
RENT_MULTIPLIER_MIN, RENT_MULTIPLIER_MAX = 1, 100
DICE_MULTIPLE_MIN, DICE_MULTIPLE_MAX = 1, 1000
MOVE_MIN, MOVE_MAX = -100, 100

# Kinds, group keys and deck keys.
IDENTIFIER_RE = re.compile(r"[a-z][a-z0-9_]*\Z")
# `per house` and `per hotel` count buildings, so they cannot name a kind or group.
BUILDING_WORDS = frozenset({"house", "hotel"})


def _int_between(low: int, high: int) -> Any:
    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if type(value) is not int or not low <= value <= high:
            raise ValueError(f"{attribute.name} must be an int in {low}..{high}, got {value!r}")

    return check


def _identifier(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, str) or not IDENTIFIER_RE.match(value):
        raise ValueError(f"{attribute.name} must match [a-z][a-z0-9_]*, got {value!r}")


def _space_name(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    # The name is printed between double quotes, so it may not contain one.
    if not isinstance(value, str) or not value.strip() or '"' in value or "\n" in value:
        raise ValueError(f"{attribute.name} must be a non-blank name without '\"' or newline, got {value!r}")


def _as_tuple(items: Any) -> tuple[Any, ...]:
    """Lists given to a node are kept as tuples (nodes are frozen and hashable)."""
    return tuple(items)


def _position() -> Any:
    """A 1-based line or column; 0 means unknown (a node built by hand)."""
    return attrs.field(default=0, eq=False, kw_only=True)


# --------------------------------------------------------------------------- amounts


@attrs.frozen
class Fixed:
    """A plain number: `50`."""

    value: int = attrs.field(validator=_int_between(0, AMOUNT_MAX))

    def to_text(self) -> str:
        return str(self.value)

    __str__ = to_text


@attrs.frozen
class PerHouse:
    """`25 per house`: times the number of houses the player owns."""

    value: int = attrs.field(validator=_int_between(0, AMOUNT_MAX))

    def to_text(self) -> str:
        return f"{self.value} per house"

    __str__ = to_text


@attrs.frozen
class PerHotel:
    """`100 per hotel`: times the number of hotels the player owns."""

    value: int = attrs.field(validator=_int_between(0, AMOUNT_MAX))

    def to_text(self) -> str:
        return f"{self.value} per hotel"

    __str__ = to_text


@attrs.frozen
class PerOwned:
    """`10 per railroad`: times the number of spaces of that kind or group the player owns."""

    value: int = attrs.field(validator=_int_between(0, AMOUNT_MAX))
    name: str = attrs.field(validator=_identifier)
    line: int = _position()
    column: int = _position()

    @name.validator
    def _not_a_building(self, attribute: attrs.Attribute[Any], value: str) -> None:
        if value in BUILDING_WORDS:
            raise ValueError(f"use PerHouse/PerHotel for {value!r}")

    def to_text(self) -> str:
        return f"{self.value} per {self.name}"

    __str__ = to_text


@attrs.frozen
class PercentOfNetWorth:
    """`10% of net worth`: cash + printed prices of all properties + buildings at cost."""

    percent: int = attrs.field(validator=_int_between(PERCENT_MIN, PERCENT_MAX))

    def to_text(self) -> str:
        return f"{self.percent}% of net worth"

    __str__ = to_text


Term = Union[Fixed, PerHouse, PerHotel, PerOwned, PercentOfNetWorth]
TERM_TYPES: tuple[type, ...] = (Fixed, PerHouse, PerHotel, PerOwned, PercentOfNetWorth)


def _tuple_of(types: tuple[type, ...], minimum: int) -> Any:
    def check(instance: object, attribute: attrs.Attribute[Any], value: tuple[Any, ...]) -> None:
        if len(value) < minimum:
            raise ValueError(f"{attribute.name} needs at least {minimum} item(s)")
        for item in value:
            if not isinstance(item, types):
                raise TypeError(f"{attribute.name} cannot hold {type(item).__name__}")

    return check


@attrs.frozen
class Amount:
    """A sum of terms: `25 per house + 100 per hotel`."""

    terms: tuple[Term, ...] = attrs.field(converter=_as_tuple, validator=_tuple_of(TERM_TYPES, 1))

    @property
    def constant(self) -> int | None:
        """The value when every term is a plain number (the common case), else None."""
        if all(type(term) is Fixed for term in self.terms):
            return sum(term.value for term in self.terms if isinstance(term, Fixed))
        return None

    def to_text(self) -> str:
        return " + ".join(term.to_text() for term in self.terms)

    __str__ = to_text


# --------------------------------------------------------------------------- targets


@attrs.frozen
class SpaceTarget:
    """One named space: `"Illinois Avenue"` or the bare word `GO`."""

    name: str = attrs.field(validator=_space_name)
    line: int = _position()
    column: int = _position()

    def to_text(self) -> str:
        # Canonical text always quotes: the bare form is only a convenience.
        return f'"{self.name}"'

    __str__ = to_text


@attrs.frozen
class NearestTarget:
    """`nearest railroad`: the next space ahead of that kind or group."""

    name: str = attrs.field(validator=_identifier)
    line: int = _position()
    column: int = _position()

    def to_text(self) -> str:
        return f"nearest {self.name}"

    __str__ = to_text


Target = Union[SpaceTarget, NearestTarget]


@attrs.frozen
class RentMultiplier:
    """`with rent x2`: the landing pays the owner `factor` times the normal rent."""

    factor: int = attrs.field(validator=_int_between(RENT_MULTIPLIER_MIN, RENT_MULTIPLIER_MAX))

    def to_text(self) -> str:
        return f"with rent x{self.factor}"

    __str__ = to_text


@attrs.frozen
class RentFromDice:
    """`with rent 10 x dice`: the landing pays the owner `multiple` times a fresh roll."""

    multiple: int = attrs.field(validator=_int_between(DICE_MULTIPLE_MIN, DICE_MULTIPLE_MAX))

    def to_text(self) -> str:
        return f"with rent {self.multiple} x dice"

    __str__ = to_text


RentModifier = Union[RentMultiplier, RentFromDice]

# --------------------------------------------------------------------------- statements


@attrs.frozen
class Collect:
    """`collect 50` (from the bank) or `collect 10 from each player`."""

    amount: Amount = attrs.field(validator=attrs.validators.instance_of(Amount))
    from_each_player: bool = False

    def to_text(self) -> str:
        text = f"collect {self.amount.to_text()}"
        return text + " from each player" if self.from_each_player else text

    __str__ = to_text


@attrs.frozen
class Pay:
    """`pay 15` (to the bank, or the pot) or `pay 50 to each player`."""

    amount: Amount = attrs.field(validator=attrs.validators.instance_of(Amount))
    to_each_player: bool = False

    def to_text(self) -> str:
        text = f"pay {self.amount.to_text()}"
        return text + " to each player" if self.to_each_player else text

    __str__ = to_text


@attrs.frozen
class CollectPot:
    """`collect pot`: take the free-parking jackpot."""

    def to_text(self) -> str:
        return "collect pot"

    __str__ = to_text


@attrs.frozen
class AdvanceTo:
    """`advance to ...`: move forward (passing GO pays the salary), maybe with a rent change."""

    target: Target = attrs.field(validator=attrs.validators.instance_of((SpaceTarget, NearestTarget)))
    rent: RentModifier | None = attrs.field(
        default=None,
        validator=attrs.validators.optional(attrs.validators.instance_of((RentMultiplier, RentFromDice))),
    )

    def to_text(self) -> str:
        text = f"advance to {self.target.to_text()}"
        return f"{text} {self.rent.to_text()}" if self.rent is not None else text

    __str__ = to_text


@attrs.frozen
class GoBackTo:
    """`go back to "Old Kent Road"`: move backwards; never pays the salary."""

    target: SpaceTarget = attrs.field(validator=attrs.validators.instance_of(SpaceTarget))

    def to_text(self) -> str:
        return f"go back to {self.target.to_text()}"

    __str__ = to_text


@attrs.frozen
class Move:
    """`move 3` / `move -3`: by that many spaces, negative is backwards."""

    steps: int = attrs.field(validator=_int_between(MOVE_MIN, MOVE_MAX))

    @steps.validator
    def _not_zero(self, attribute: attrs.Attribute[Any], value: int) -> None:
        if value == 0:
            raise ValueError("steps cannot be 0")

    def to_text(self) -> str:
        return f"move {self.steps}"

    __str__ = to_text


@attrs.frozen
class GoToJail:
    """`go to jail`."""

    def to_text(self) -> str:
        return "go to jail"

    __str__ = to_text


@attrs.frozen
class Keep:
    """`keep`: the card stays with the player until used (Get Out of Jail Free).

    `line`/`column` point at the keyword, for the card-only check.
    """

    line: int = _position()
    column: int = _position()

    def to_text(self) -> str:
        return "keep"

    __str__ = to_text


@attrs.frozen
class Draw:
    """`draw chance`: draw a card from the deck with that key."""

    deck: str = attrs.field(validator=_identifier)
    line: int = _position()
    column: int = _position()

    def to_text(self) -> str:
        return f"draw {self.deck}"

    __str__ = to_text


Statement = Union[Collect, Pay, CollectPot, AdvanceTo, GoBackTo, Move, GoToJail, Keep, Draw]
STATEMENT_TYPES: tuple[type, ...] = (Collect, Pay, CollectPot, AdvanceTo, GoBackTo, Move, GoToJail, Keep, Draw)

# --------------------------------------------------------------------------- effects


@attrs.frozen
class Sequence:
    """Statements run in order: `pay 50; draw chance`."""

    statements: tuple[Statement, ...] = attrs.field(converter=_as_tuple, validator=_tuple_of(STATEMENT_TYPES, 1))

    def to_text(self) -> str:
        return "; ".join(statement.to_text() for statement in self.statements)

    __str__ = to_text


@attrs.frozen
class Choice:
    """`choose: pay 10 | draw chance`: the player picks one alternative (top level only)."""

    options: tuple[Sequence, ...] = attrs.field(converter=_as_tuple, validator=_tuple_of((Sequence,), 2))

    def to_text(self) -> str:
        return "choose: " + " | ".join(option.to_text() for option in self.options)

    __str__ = to_text


@attrs.frozen
class Effect:
    """One parsed effect: a sequence, or a choice between sequences."""

    body: Sequence | Choice = attrs.field(validator=attrs.validators.instance_of((Sequence, Choice)))

    @property
    def is_choice(self) -> bool:
        return isinstance(self.body, Choice)

    @property
    def alternatives(self) -> tuple[Sequence, ...]:
        """The sequences the player can end up running: one, unless this is a choice."""
        return self.body.options if isinstance(self.body, Choice) else (self.body,)

    def statements(self) -> Iterator[Statement]:
        """Every statement, in text order, across all alternatives."""
        for sequence in self.alternatives:
            yield from sequence.statements

    def to_text(self) -> str:
        return self.body.to_text()

    __str__ = to_text


def walk(effect: Effect) -> Iterator[Statement]:
    """Every statement of `effect`, in text order (same as `effect.statements()`)."""
    return effect.statements()


def single(*statements: Statement) -> Effect:
    """Build a plain sequence effect: `single(Pay(Amount([Fixed(50)])))`."""
    return Effect(Sequence(statements))
