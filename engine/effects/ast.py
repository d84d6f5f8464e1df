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
#: How deep operators, brackets, conditions and ifs may nest inside each other in one effect.
MAX_DEPTH = 32

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


# --------------------------------------------------------------------------- expressions
#
# Every value has a type: a number, a player, a space or a condition. Numbers are the
# classic terms above and the nodes below; who and which are `Ref`s; conditions are
# the nodes of the next section. The parser builds only well-typed shapes where the
# grammar can tell; `monopoly.effects.check` resolves names and reports the rest
# ("`cash of Boardwalk`: Boardwalk is a space, a player was expected").

#: The players a `Ref` can name, and how each is written.
PLAYER_REFS = {"you": "you", "owner": "owner", "richest": "richest player", "poorest": "poorest player",
               "chosen": "a player you choose"}


@attrs.frozen
class Ref:
    """Who or which: `you`, `owner` (of the space the player stands on), `richest player`, `poorest player`,
    `a player you choose` (only as who is paid or pays: a `choose` decision), or a space by name (`space`
    true: `"Boardwalk"`, or a bare one-word name)."""

    name: str = attrs.field()
    space: bool = False
    line: int = _position()
    column: int = _position()

    @name.validator
    def _known(self, attribute: attrs.Attribute[Any], value: str) -> None:
        if self.space:
            _space_name(self, attribute, value)
        elif value not in PLAYER_REFS:
            raise ValueError(f"a player reference is one of {sorted(PLAYER_REFS)}, got {value!r}")

    def to_text(self) -> str:
        return f'"{self.name}"' if self.space else PLAYER_REFS[self.name]

    __str__ = to_text


#: The quantities of the game: name -> (how it is written, what its `of` names: "player", "space" or None
#: when it takes none, and whether the `of` may be left out: then it is the player's own).
QUANTITIES: dict[str, tuple[str, str | None, bool]] = {
    "cash": ("cash", "player", True),
    "net_worth": ("net worth", "player", True),
    "houses": ("houses", "player", True),
    "hotels": ("hotels", "player", True),
    "turns_in_jail": ("turns in jail", "player", True),
    "laps": ("laps", "player", True),
    "price": ("price", "space", False),
    "mortgage_value": ("mortgage value", "space", False),
    "rent": ("rent", "space", False),
    "pot": ("pot", None, False),
    "dice": ("dice", None, False),
    "round": ("round", None, False),
    "players_left": ("players left", None, False),
    "salary": ("salary", None, False),
    # The money of the event a trigger is on (the rent, the fee...): only in such a trigger (effects/check.py).
    "amount": ("amount", None, False),
    # The lot whose rent a kind's rent works out (only there, effects/check.py): its building level (0 none, 1 to
    # houses_per_hotel houses, one more a hotel) and how many lots of its group its owner has.
    "level": ("level", None, False),
    "owned_in_group": ("owned in group", None, False),
}
#: The quantities known only in a kind's rent (`kinds.*.rent`): they describe the lot being rented.
RENT_QUANTITIES = frozenset({"level", "owned_in_group"})


@attrs.frozen
class Quantity:
    """A quantity of the game: `cash`, `net worth of owner`, `price of "Boardwalk"`, `pot`, `dice`..."""

    name: str = attrs.field(validator=attrs.validators.in_(tuple(QUANTITIES)))
    of: Ref | None = attrs.field(default=None, validator=attrs.validators.optional(attrs.validators.instance_of(Ref)))
    line: int = _position()
    column: int = _position()

    @of.validator
    def _fits(self, attribute: attrs.Attribute[Any], value: Ref | None) -> None:
        written, takes, optional = QUANTITIES[self.name]
        if value is None and takes is not None and not optional:
            raise ValueError(f"{written} needs `of`: {written} of ...")
        if value is not None and takes is None:
            raise ValueError(f"{written} takes no `of`")

    def to_text(self) -> str:
        written = QUANTITIES[self.name][0]
        return f"{written} of {self.of.to_text()}" if self.of is not None else written

    __str__ = to_text


@attrs.frozen
class Name:
    """A word where a number goes that is no quantity of the language: a variable of the game when the ruleset
    declares one of that name (`jackpot`), else reported by the checker as an unknown quantity (with the
    closest known ones)."""

    name: str
    line: int = _position()
    column: int = _position()

    def to_text(self) -> str:
        return self.name

    __str__ = to_text


def plural(kind: str) -> str:
    """How a count of a space kind is written: `railroad` -> `railroads`, `utility` -> `utilities`."""
    if kind.endswith("y") and kind[-2:-1] not in ("", *"aeiou"):
        return kind[:-1] + "ies"
    if kind.endswith(("s", "x", "z", "ch", "sh")):
        return kind + "es"
    return kind + "s"


@attrs.frozen
class Owned:
    """`railroads owned by owner` (a space kind, by its plural; `railroads you own` reads the same) or
    `lots of group red owned by you` (a group, by its key): how many of those spaces that player owns.

    ``name`` is the plural as written (``group`` false) or the group key; `line`/`column` point at it."""

    name: str = attrs.field(validator=_identifier)
    of: Ref = attrs.field(validator=attrs.validators.instance_of(Ref))
    group: bool = False
    line: int = _position()
    column: int = _position()

    def to_text(self) -> str:
        what = f"lots of group {self.name}" if self.group else self.name
        return f"{what} owned by {self.of.to_text()}"

    __str__ = to_text


@attrs.frozen
class Figure:
    """`figure N`: the Nth (from 1) of the rent figures printed on the lot (its `rent:` list); only in a kind's
    rent. `last figure` (``last`` true) is the last of them, whatever their number."""

    index: Any = attrs.field(default=None)
    last: bool = False
    line: int = _position()
    column: int = _position()

    @index.validator
    def _index(self, attribute: attrs.Attribute[Any], value: Any) -> None:
        if self.last != (value is None):
            raise ValueError("a figure has an index, or is the last one")
        if value is not None:
            _number(self, attribute, value)

    def to_text(self) -> str:
        if self.index is None:
            return "last figure"
        inner = _text(self.index)
        return f"figure ({inner})" if isinstance(self.index, (Arith, IfNumber)) else f"figure {inner}"

    __str__ = to_text


#: The numbers of the rules an expression may read: `rules.` and the keys down to a whole number.
RULE_RE = re.compile(r"rules(\.[a-z][a-z0-9_]*)+\Z")


@attrs.frozen
class RuleValue:
    """`rules.rent.full_group_multiplier`: a whole number of the ruleset's `rules:` (fixed while playing)."""

    path: str = attrs.field(validator=attrs.validators.matches_re(RULE_RE))
    line: int = _position()
    column: int = _position()

    def to_text(self) -> str:
        return self.path

    __str__ = to_text


@attrs.frozen
class IfNumber:
    """`if C then A else B`, a number: A when the condition holds, else B (in arithmetic, in brackets)."""

    condition: Any = attrs.field()
    then: Any = attrs.field()
    otherwise: Any = attrs.field()

    @condition.validator
    def _condition(self, attribute: attrs.Attribute[Any], value: Any) -> None:
        if not isinstance(value, CONDITION_TYPES):
            raise TypeError(f"an if takes a condition, not {type(value).__name__}")

    @then.validator
    def _then(self, attribute: attrs.Attribute[Any], value: Any) -> None:
        if not isinstance(value, Amount):
            raise TypeError(f"a branch of a number if is an amount, not {type(value).__name__}")

    @otherwise.validator
    def _otherwise(self, attribute: attrs.Attribute[Any], value: Any) -> None:
        self._then(attribute, value)

    def to_text(self) -> str:
        then = self.then.to_text()
        if len(self.then.terms) == 1 and isinstance(self.then.terms[0], IfNumber):
            then = f"({then})"
        return f"if {self.condition.to_text()} then {then} else {self.otherwise.to_text()}"

    __str__ = to_text


#: Binary operators, loosest first: (precedence, written).
OPERATORS = {"+": 1, "-": 1, "x": 2, "/": 2}


def _number(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, NUMBER_TYPES):
        raise TypeError(f"{attribute.name} must be a number expression, not {type(value).__name__}")


@attrs.frozen
class Arith:
    """`a + b`, `a - b`, `a x b`, `a / b` (division rounds down; by 0 gives 0)."""

    op: str = attrs.field(validator=attrs.validators.in_(tuple(OPERATORS)))
    left: Any = attrs.field(validator=_number)
    right: Any = attrs.field(validator=_number)

    def to_text(self) -> str:
        mine = OPERATORS[self.op]
        left, right = _text(self.left), _text(self.right)
        if _precedence(self.left) < mine:
            left = f"({left})"
        if isinstance(self.left, IfNumber):
            left = f"({left})"
        if isinstance(self.right, IfNumber):
            right = f"({right})"
        # a - (b - c), a / (b x c): the right side binds apart when it is as loose
        if _precedence(self.right) < mine or (_precedence(self.right) == mine and self.op in "-/"):
            right = f"({right})"
        return f"{left} {self.op} {right}"

    __str__ = to_text


@attrs.frozen
class Extreme:
    """`min(a, b, ...)` or `max(a, b, ...)`."""

    fn: str = attrs.field(validator=attrs.validators.in_(("min", "max")))
    args: tuple[Any, ...] = attrs.field(converter=_as_tuple)

    @args.validator
    def _numbers(self, attribute: attrs.Attribute[Any], value: tuple[Any, ...]) -> None:
        if len(value) < 2:
            raise ValueError(f"{self.fn} needs at least 2 numbers")
        for item in value:
            _number(self, attribute, item)

    def to_text(self) -> str:
        return f"{self.fn}({', '.join(_text(arg) for arg in self.args)})"

    __str__ = to_text


@attrs.frozen
class PercentOf:
    """`5% of cash`, `50% of (price of "Boardwalk" + 100)`: rounded down."""

    percent: int = attrs.field(validator=_int_between(PERCENT_MIN, PERCENT_MAX))
    of: Any = attrs.field(validator=_number)

    def to_text(self) -> str:
        inner = _text(self.of)
        return f"{self.percent}% of ({inner})" if isinstance(self.of, (Arith, IfNumber)) \
            else f"{self.percent}% of {inner}"

    __str__ = to_text


def _text(node: Any) -> str:
    text: str = node.to_text()
    return text


def _precedence(node: Any) -> int:
    return OPERATORS[node.op] if isinstance(node, Arith) else 3


#: The most dice a ruleset throws (its counted dice and an extra die): `die N` is at most this.
DIE_MAX = 8


@attrs.frozen
class Die:
    """`die 1`, `die 3`: the face of one die of the throw just made, by its number (the counted dice of
    `dice.count` first, then the extra die); 0 for a symbol, or a die not thrown."""

    number: int = attrs.field(validator=_int_between(1, DIE_MAX))
    line: int = _position()
    column: int = _position()

    def to_text(self) -> str:
        return f"die {self.number}"

    __str__ = to_text


NUMBER_TYPES: tuple[type, ...] = (*TERM_TYPES, Quantity, Owned, Name, Arith, Extreme, PercentOf, Die, Figure,
                                   RuleValue, IfNumber)


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
    """A sum of terms: `25 per house + 100 per hotel`; or one number expression (`cash - 100`), the form of any
    amount that is not a plain sum of the classic terms."""

    terms: tuple[Any, ...] = attrs.field(converter=_as_tuple, validator=_tuple_of(NUMBER_TYPES, 1))

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


#: What `nearest` may keep of a kind or group: the lots nobody owns, or those not mortgaged.
NEAREST_FILTERS = ("unowned", "unmortgaged")


@attrs.frozen
class NearestTarget:
    """`nearest railroad`: the next space ahead of that kind or group (`lot`: any space that can be owned).
    `filter` keeps the unowned (or the unmortgaged) ones, `others` those owned by another player than the
    mover; `otherwise` is the target after `or`, taken when this one has no space now."""

    name: str = attrs.field(validator=_identifier)
    line: int = _position()
    column: int = _position()
    filter: str | None = attrs.field(default=None,
                                     validator=attrs.validators.optional(attrs.validators.in_(NEAREST_FILTERS)))
    others: bool = False
    otherwise: NearestTarget | None = None

    @property
    def dynamic(self) -> bool:
        """Whether the spaces it means depend on the game (owners, mortgages): worked out when it happens."""
        return self.filter is not None or self.others or self.otherwise is not None

    def to_text(self) -> str:
        text = "nearest " + (f"{self.filter} " if self.filter else "") + self.name
        text += " owned by another player" if self.others else ""
        return text + (f" or {self.otherwise.to_text()}" if self.otherwise is not None else "")

    __str__ = to_text


@attrs.frozen
class ChosenTarget:
    """`a space you choose`: the player picks a space of the board by its name (a `choose` decision)."""

    def to_text(self) -> str:
        return "a space you choose"

    __str__ = to_text


Target = Union[SpaceTarget, NearestTarget, ChosenTarget]
TARGET_TYPES: tuple[type, ...] = (SpaceTarget, NearestTarget, ChosenTarget)


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

    target: Target = attrs.field(validator=attrs.validators.instance_of(TARGET_TYPES))
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
    """`go back to "Old Kent Road"`, `go back to nearest railroad`: move backwards; never pays the salary."""

    target: Target = attrs.field(validator=attrs.validators.instance_of(TARGET_TYPES))

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
class MoveBy:
    """`move forward dice spaces`, `go back 1 per railroad spaces`: forward (or back) by an amount worked out
    when it happens, at most :data:`MOVE_MAX` (0 or less: no move). A constant count is a `Move`."""

    count: Amount = attrs.field(validator=attrs.validators.instance_of(Amount))
    forward: bool = True

    @count.validator
    def _not_constant(self, attribute: attrs.Attribute[Any], value: Amount) -> None:
        if value.constant is not None:
            raise ValueError("a constant count is a Move")

    def to_text(self) -> str:
        return f"{'move forward' if self.forward else 'go back'} {self.count.to_text()} spaces"

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


@attrs.frozen
class PayTo:
    """`pay 50 to owner`, `pay 10% of cash to poorest player`: the player pays that player (nobody there,
    such as the owner of an unowned space: the bank)."""

    amount: Amount = attrs.field(validator=attrs.validators.instance_of(Amount))
    to: Ref = attrs.field(validator=attrs.validators.instance_of(Ref))

    def to_text(self) -> str:
        return f"pay {self.amount.to_text()} to {self.to.to_text()}"

    __str__ = to_text


@attrs.frozen
class CollectFrom:
    """`collect 20 from richest player`: that player pays the player (nobody there: the bank does)."""

    amount: Amount = attrs.field(validator=attrs.validators.instance_of(Amount))
    source: Ref = attrs.field(validator=attrs.validators.instance_of(Ref))

    def to_text(self) -> str:
        return f"collect {self.amount.to_text()} from {self.source.to_text()}"

    __str__ = to_text


@attrs.frozen
class AddToPot:
    """`add 500 to pot`: the bank puts that much in the pot (a jackpot seeded, a fine doubled there)."""

    amount: Amount = attrs.field(validator=attrs.validators.instance_of(Amount))

    def to_text(self) -> str:
        return f"add {self.amount.to_text()} to pot"

    __str__ = to_text


@attrs.frozen
class SetVariable:
    """`set jackpot to 500`: the game's named number (declared in the ruleset's `variables`) takes that value.
    `line`/`column` point at the name."""

    name: str = attrs.field(validator=_identifier)
    amount: Amount = attrs.field(validator=attrs.validators.instance_of(Amount))
    line: int = _position()
    column: int = _position()

    def to_text(self) -> str:
        return f"set {self.name} to {self.amount.to_text()}"

    __str__ = to_text


@attrs.frozen
class AddToVariable:
    """`add 100 to jackpot`: the variable goes up by that much (at most 10^12)."""

    amount: Amount = attrs.field(validator=attrs.validators.instance_of(Amount))
    name: str = attrs.field(validator=_identifier)
    line: int = _position()
    column: int = _position()

    @name.validator
    def _not_the_pot(self, attribute: attrs.Attribute[Any], value: str) -> None:
        if value == "pot":
            raise ValueError("`add N to pot` is AddToPot")

    def to_text(self) -> str:
        return f"add {self.amount.to_text()} to {self.name}"

    __str__ = to_text


@attrs.frozen
class PayToPot:
    """`pay 50 to pot`: the player pays that much into the pot, whatever the rules say of fees (a trigger that
    sends a fee there instead: `{on: fee, instead: true, effect: pay amount to pot}`)."""

    amount: Amount = attrs.field(validator=attrs.validators.instance_of(Amount))

    def to_text(self) -> str:
        return f"pay {self.amount.to_text()} to pot"

    __str__ = to_text


# --------------------------------------------------------------------------- conditions

#: Comparisons, as written.
COMPARISONS = ("<", "<=", ">", ">=", "=", "!=")


@attrs.frozen
class Compare:
    """`cash < 100`, `dice = 12`, `net worth of owner >= 2000`."""

    op: str = attrs.field(validator=attrs.validators.in_(COMPARISONS))
    left: Amount = attrs.field(validator=attrs.validators.instance_of(Amount))
    right: Amount = attrs.field(validator=attrs.validators.instance_of(Amount))

    def to_text(self) -> str:
        return f"{self.left.to_text()} {self.op} {self.right.to_text()}"

    __str__ = to_text


@attrs.frozen
class InJail:
    """`you are in jail`, `owner is in jail`."""

    who: Ref = attrs.field(validator=attrs.validators.instance_of(Ref))

    def to_text(self) -> str:
        return f"{self.who.to_text()} {'are' if self.who.name == 'you' and not self.who.space else 'is'} in jail"

    __str__ = to_text


@attrs.frozen
class Owns:
    """`you own "Boardwalk"`, `owner owns "Park Place"`."""

    who: Ref = attrs.field(validator=attrs.validators.instance_of(Ref))
    what: Ref = attrs.field(validator=attrs.validators.instance_of(Ref))

    def to_text(self) -> str:
        verb = "own" if self.who.name == "you" and not self.who.space else "owns"
        return f"{self.who.to_text()} {verb} {self.what.to_text()}"

    __str__ = to_text


@attrs.frozen
class Doubles:
    """`doubles`: the dice just thrown all show the same face."""

    def to_text(self) -> str:
        return "doubles"

    __str__ = to_text


@attrs.frozen
class Triples:
    """`triples`: the counted dice and the extra die all show the same number (a speed die's triple)."""

    line: int = _position()
    column: int = _position()

    def to_text(self) -> str:
        return "triples"

    __str__ = to_text


@attrs.frozen
class Rolled:
    """`rolled bus`: a die of the throw just made shows that symbol (a face of the extra die)."""

    face: str = attrs.field(validator=_identifier)
    line: int = _position()
    column: int = _position()

    def to_text(self) -> str:
        return f"rolled {self.face}"

    __str__ = to_text


@attrs.frozen
class Not:
    """`not C` (binds tighter than `and` and `or`)."""

    part: Any = attrs.field()

    @part.validator
    def _simple(self, attribute: attrs.Attribute[Any], value: Any) -> None:
        if not isinstance(value, (*TEST_TYPES, Not)):  # the language has no parentheses around conditions
            raise TypeError(f"not takes a comparison, a test or another not, not {type(value).__name__}")

    def to_text(self) -> str:
        return f"not {self.part.to_text()}"

    __str__ = to_text


@attrs.frozen
class Logic:
    """`A and B`, `A or B` (`and` binds tighter than `or`)."""

    op: str = attrs.field(validator=attrs.validators.in_(("and", "or")))
    left: Any = attrs.field()
    right: Any = attrs.field()

    @left.validator
    def _left(self, attribute: attrs.Attribute[Any], value: Any) -> None:
        _condition_part(self.op, value, right=False)

    @right.validator
    def _right(self, attribute: attrs.Attribute[Any], value: Any) -> None:
        _condition_part(self.op, value, right=True)

    def to_text(self) -> str:
        return f"{self.left.to_text()} {self.op} {self.right.to_text()}"

    __str__ = to_text


#: The tests known only in a kind's rent, as written: the lot has a hotel; its owner has its whole group.
RENT_TESTS = {"hotel": "hotel", "whole_group": "whole group"}


@attrs.frozen
class RentTest:
    """`hotel` (the lot being rented has a hotel), `whole group` (its owner has every lot of its group): only in
    a kind's rent."""

    name: str = attrs.field(validator=attrs.validators.in_(tuple(RENT_TESTS)))
    line: int = _position()
    column: int = _position()

    def to_text(self) -> str:
        return RENT_TESTS[self.name]

    __str__ = to_text


TEST_TYPES: tuple[type, ...] = (Compare, InJail, Owns, Doubles, Triples, Rolled, RentTest)
CONDITION_TYPES: tuple[type, ...] = (*TEST_TYPES, Not, Logic)
#: A condition: a test, or tests joined by `and`, `or` and `not`.
Condition = Union[Compare, InJail, Owns, Doubles, Triples, Rolled, RentTest, Not, Logic]


def _condition_part(op: str, value: Any, *, right: bool) -> None:
    # Written without parentheses, `a or b and c` is `a or (b and c)`; the shapes that text cannot show
    # are not nodes either.
    if not isinstance(value, CONDITION_TYPES):
        raise TypeError(f"{op} joins conditions, not {type(value).__name__}")
    # `or` is the loosest and both chain to the left: an `or` holds an `or` only on its left, an `and` holds
    # an `and` only on its left and never an `or`.
    if isinstance(value, Logic) and ((op == "and" and (right or value.op == "or")) or (right and value.op == "or")):
        raise TypeError(f"this {op} cannot hold that {value.op} (conditions have no parentheses)")


# --------------------------------------------------------------------------- if

@attrs.frozen
class If:
    """`if C then S [else S]`: a branch is one statement, or a sequence in parentheses."""

    condition: Any = attrs.field(validator=attrs.validators.instance_of(CONDITION_TYPES))
    then: Sequence = attrs.field()
    otherwise: Sequence | None = None

    def __attrs_post_init__(self) -> None:
        _check_if_branches(self)

    def to_text(self) -> str:
        text = f"if {self.condition.to_text()} then {_branch_text(self.then)}"
        return text + f" else {_branch_text(self.otherwise)}" if self.otherwise is not None else text

    __str__ = to_text


def _branch_text(branch: Sequence) -> str:
    if len(branch.statements) == 1 and not isinstance(branch.statements[0], If):  # a choice has its parentheses
        return branch.statements[0].to_text()
    return f"({branch.to_text()})"


@attrs.frozen
class ChooseStatement:
    """`(choose: A | B)`: a choice inside a sequence or a branch; the player picks one alternative, then the
    sequence goes on."""

    options: tuple[Sequence, ...] = attrs.field(converter=_as_tuple)

    def __attrs_post_init__(self) -> None:
        if len(self.options) < 2 or not all(isinstance(option, Sequence) for option in self.options):
            raise TypeError("a choice takes two sequences or more")

    def to_text(self) -> str:
        return "(choose: " + " | ".join(option.to_text() for option in self.options) + ")"

    __str__ = to_text


@attrs.frozen
class EveryPlayer:
    """`every player: S`: the statement (or a sequence in parentheses) happens to every player still in the game,
    in seat order from the player the effect happens to, each as `you`; no `every player` inside it."""

    body: Sequence = attrs.field()

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.body, Sequence):
            raise TypeError("every player takes a sequence")
        if any(isinstance(node, EveryPlayer) for node in _descend(self.body)):
            raise ValueError('"every player" cannot hold another "every player"')

    def to_text(self) -> str:
        return f"every player: {_branch_text(self.body)}"

    __str__ = to_text


@attrs.frozen
class Roll:
    """`roll`: the dice are thrown afresh (a `roll` event); nobody moves, and `dice` reads the new throw."""

    def to_text(self) -> str:
        return "roll"

    __str__ = to_text


Statement = Union[Collect, Pay, CollectPot, AdvanceTo, GoBackTo, Move, MoveBy, GoToJail, Keep, Draw, PayTo,
                  CollectFrom, AddToPot, PayToPot, SetVariable, AddToVariable, Roll, If, EveryPlayer,
                  ChooseStatement]
STATEMENT_TYPES: tuple[type, ...] = (Collect, Pay, CollectPot, AdvanceTo, GoBackTo, Move, MoveBy, GoToJail, Keep,
                                     Draw, PayTo, CollectFrom, AddToPot, PayToPot, SetVariable, AddToVariable, Roll,
                                     If, EveryPlayer, ChooseStatement)

# --------------------------------------------------------------------------- effects


@attrs.frozen
class Sequence:
    """Statements run in order: `pay 50; draw chance`."""

    statements: tuple[Statement, ...] = attrs.field(converter=_as_tuple, validator=_tuple_of(STATEMENT_TYPES, 1))

    def to_text(self) -> str:
        return "; ".join(statement.to_text() for statement in self.statements)

    __str__ = to_text


def _check_if_branches(node: If) -> None:
    if not isinstance(node.then, Sequence) or (node.otherwise is not None and not isinstance(node.otherwise, Sequence)):
        raise TypeError("the branches of an if are sequences")


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
        """Every statement, in text order, across all alternatives, the statements of an `if`'s branches (and of
        an `every player`) after the `if` itself."""
        for sequence in self.alternatives:
            yield from _descend(sequence)

    def to_text(self) -> str:
        return self.body.to_text()

    __str__ = to_text


def _descend(sequence: Sequence) -> Iterator[Statement]:
    """Every statement of ``sequence``, and those inside its statements (an `if`'s branches, an `every player`'s
    body, a `(choose: ...)`'s alternatives), each after the statement that holds it."""
    for statement in sequence.statements:
        yield statement
        if isinstance(statement, If):
            yield from _descend(statement.then)
            if statement.otherwise is not None:
                yield from _descend(statement.otherwise)
        elif isinstance(statement, EveryPlayer):
            yield from _descend(statement.body)
        elif isinstance(statement, ChooseStatement):
            for option in statement.options:
                yield from _descend(option)


def nodes(node: Any) -> Iterator[Any]:
    """``node`` and every node under it, statements, conditions and numbers alike (the one walk of an AST by its
    fields; an effect's nesting is bounded: MAX_DEPTH)."""
    yield node
    if attrs.has(type(node)):
        for field in attrs.fields(type(node)):
            yield from _nodes_in(getattr(node, field.name))


def _nodes_in(value: Any) -> Iterator[Any]:
    if isinstance(value, tuple):
        for item in value:
            yield from _nodes_in(item)
    elif attrs.has(type(value)):
        yield from nodes(value)


def walk(effect: Effect) -> Iterator[Statement]:
    """Every statement of `effect`, in text order (same as `effect.statements()`)."""
    return effect.statements()


def single(*statements: Statement) -> Effect:
    """Build a plain sequence effect: `single(Pay(Amount([Fixed(50)])))`."""
    return Effect(Sequence(statements))
