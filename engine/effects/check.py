"""Static checks of a parsed effect against the names a ruleset defines.

`check_effect` returns every problem it finds (not just the first), each with the
1-based line and column of the offending name inside the effect text and, when a
known name is close, a "did you mean" hint.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import attrs

from ..suggest import closest
from . import ast
from .parse import EffectSyntaxError, parse_condition, parse_effect, parse_number

__all__ = ["AMOUNT_EVENTS", "TRIGGER_AMOUNTS", "WHERE", "EffectNames", "EffectProblem", "check_condition",
           "check_effect", "check_number", "parse_and_check", "parse_and_check_condition", "parse_and_check_number",
           "suggest"]

# Where an effect can be written: on a card, on a board space, or in a trigger.
WHERE = frozenset({"card", "card use", "space", "trigger"})


def _strings(values: Iterable[str]) -> frozenset[str]:
    return frozenset(values)
def _pairs(items: Iterable[tuple[str, object]] | None) -> tuple[tuple[str, object], ...] | None:
    return None if items is None else tuple(items)


@attrs.frozen
class EffectNames:
    """The names an effect may refer to, taken from one ruleset."""

    spaces: tuple[str, ...] = attrs.field(converter=tuple)  # board order
    kinds: frozenset[str] = attrs.field(converter=frozenset)  # space kinds used on this board
    groups: frozenset[str] = attrs.field(converter=frozenset)  # group keys
    decks: frozenset[str] = attrs.field(converter=frozenset)  # deck keys
    variables: frozenset[str] = attrs.field(converter=frozenset, default=frozenset())  # the game's named numbers
    dice: int = 2  # the dice a throw may hold (`die N`): the counted dice, and the extra die if there is one
    faces: frozenset[str] = attrs.field(converter=_strings, default=frozenset())  # the symbols on the dice
    extra_die: bool | None = None  # the ruleset throws an extra die (dice.extra); None: not known, not checked
    #: the space kinds the ruleset declares (`kinds:`), those without a space on this board too
    declared_kinds: frozenset[str] = attrs.field(converter=frozenset, default=frozenset())
    #: the values of the ruleset's rules by path (``rules.rent.full_group_multiplier``: 2), for `rules.` numbers;
    #: None: not known, and a `rules.` number is not checked
    rules: tuple[tuple[str, object], ...] | None = attrs.field(converter=_pairs, default=None)
    #: the groups that have spaces on this board (None: every group does); `nearest` a group of none finds nothing
    placed_groups: frozenset[str] | None = attrs.field(converter=attrs.converters.optional(frozenset),
                                                       default=None)


@attrs.frozen
class EffectProblem:
    """One thing wrong with an effect; `code` is a short kebab-case id."""

    code: str
    message: str
    hint: str | None
    line: int
    column: int


def suggest(name: str, candidates: Iterable[str]) -> str | None:
    """The known name closest to `name`, or None; a case-only difference always wins (bounded in time:
    :func:`monopoly.suggest.closest`)."""
    return closest(name, candidates)


def _unknown_hint(name: str, candidates: Iterable[str], list_up_to: int = 0) -> str | None:
    candidates = sorted(set(candidates))
    match = closest(name, candidates)
    if match is not None:
        note = " (names are case-sensitive)" if match.lower() == name.lower() else ""
        return f'did you mean "{match}"?{note}'
    if candidates and len(candidates) <= list_up_to:
        return "known names: " + ", ".join(f'"{candidate}"' for candidate in candidates)
    return None


def check_effect(effect: ast.Effect, names: EffectNames, where: str, *,
                 amount: str | None = None) -> list[EffectProblem]:
    """Every problem of `effect` in a ruleset with these `names`, in text order.

    `where` is "card", "card use" (what using a kept card does), "space" or "trigger": some statements only make
    sense on a card. Names are resolved
    and every value is checked for its type: a player where a player goes, a space where a space goes, a
    known quantity where a number goes. `amount` is what the quantity `amount` is at this place (a trigger
    on an event with money: "the rent", "the fee"...); None where it is nothing, and `amount` is an error.
    """
    if where not in WHERE:
        raise ValueError(f"where must be one of {sorted(WHERE)}, not {where!r}")
    problems: list[EffectProblem] = []
    for sequence in effect.alternatives:
        problems.extend(_check_sequence(sequence, names, where, conditional=""))
    if amount is None:
        problems.extend(_amount_outside(effect.alternatives))
    problems.extend(_rent_outside(effect.alternatives))
    problems.sort(key=lambda problem: (problem.line, problem.column))
    return problems


def check_condition(condition: object, names: EffectNames, *, amount: str | None = None) -> list[EffectProblem]:
    """Every problem of a condition alone (a trigger's `if:`), as :func:`check_effect` does."""
    problems = list(_check_condition(condition, names))
    if amount is None:
        problems.extend(_amount_outside((condition,)))
    problems.extend(_rent_outside((condition,)))
    problems.sort(key=lambda problem: (problem.line, problem.column))
    return problems


def check_number(number: ast.Amount, names: EffectNames) -> list[EffectProblem]:
    """Every problem of a number alone that is a kind's rent (`kinds.*.rent`), as :func:`check_effect` does: there
    the quantities of the lot being rented (`level`, `owned in group`, `figure N`, `hotel`, `whole group`) are
    known."""
    problems = list(_check_amount(number, names))
    problems.extend(_amount_outside((number,)))
    problems.sort(key=lambda problem: (problem.line, problem.column))
    return problems


def _rent_outside(nodes: Iterable[object]) -> Iterator[EffectProblem]:
    for node in _nodes(nodes):
        if isinstance(node, ast.Quantity) and node.name in ast.RENT_QUANTITIES:
            written, line, column = ast.QUANTITIES[node.name][0], node.line, node.column
        elif isinstance(node, ast.RentTest):
            written, line, column = ast.RENT_TESTS[node.name], node.line, node.column
        elif isinstance(node, ast.Figure):
            written, line, column = "last figure" if node.last else "figure", node.line, node.column
        else:
            continue
        yield EffectProblem(
            "rent-outside-kind",
            f'"{written}" describes the lot whose rent a kind works out, and there is none here',
            "it is known only in a kind's rent (kinds: {street: {rent: ...}})", line, column)


#: The events of the game whose triggers know an `amount`, and what it is there.
TRIGGER_AMOUNTS = {
    "rent": "the rent owed",
    "fee": "the tax, fine or fee owed",
    "build": "what the house or hotel cost",
    "mortgage": "what the mortgage raised",
    "unmortgage": "what lifting the mortgage cost",
    "bankrupt": "the debt that could not be paid",
}
AMOUNT_EVENTS = tuple(TRIGGER_AMOUNTS)


def _amount_outside(nodes: Iterable[object]) -> Iterator[EffectProblem]:
    for node in _nodes(nodes):
        if isinstance(node, ast.Quantity) and node.name == "amount":
            yield EffectProblem(
                "amount-outside-trigger",
                '"amount" is the money of the event a trigger is on, and there is none here',
                "it is known only in a trigger on " + _or(AMOUNT_EVENTS) + " (the rent, the fee, the cost...)",
                node.line, node.column)


def _nodes(roots: Iterable[object]) -> Iterator[object]:
    """Every node under ``roots`` (:func:`ast.nodes` of each)."""
    for root in roots:
        yield from ast.nodes(root)


def _check_sequence(sequence: ast.Sequence, names: EffectNames, where: str, *,
                    conditional: str) -> Iterator[EffectProblem]:
    for statement in sequence.statements:
        yield from _check(statement, names, where, conditional=conditional)


def _check(statement: ast.Statement, names: EffectNames, where: str, *,
           conditional: str = "") -> Iterator[EffectProblem]:
    """``conditional``: the statement happens only in some cases, in a branch of an `if` ("if") or an alternative
    of a `(choose: ...)` statement ("choice"); "" when it always does."""
    kinds_and_groups = names.kinds | names.groups
    if isinstance(statement, (ast.Collect, ast.Pay, ast.AddToPot, ast.PayToPot)):
        yield from _check_amount(statement.amount, names, choosable=True)
    elif isinstance(statement, (ast.PayTo, ast.CollectFrom)):
        yield from _check_amount(statement.amount, names, choosable=True)
        party = statement.to if isinstance(statement, ast.PayTo) else statement.source
        yield from _check_ref(party, "player", statement.to_text(), names, choosable=True)
    elif isinstance(statement, ast.ChooseStatement):
        for option in statement.options:
            yield from _check_sequence(option, names, where, conditional="choice")
    elif isinstance(statement, ast.EveryPlayer):
        for inner in statement.body.statements:
            if isinstance(inner, ast.Keep):
                yield EffectProblem("keep-in-every", '"keep" cannot be in "every player": one card is kept by one '
                                    "player", 'write "keep" on its own, outside "every player"', inner.line,
                                    inner.column)
        yield from _check_sequence(statement.body, names, where, conditional=conditional)
    elif isinstance(statement, ast.If):
        yield from _check_condition(statement.condition, names)
        yield from _check_sequence(statement.then, names, where, conditional="if")
        if statement.otherwise is not None:
            yield from _check_sequence(statement.otherwise, names, where, conditional="if")
    elif isinstance(statement, ast.MoveBy):
        yield from _check_amount(statement.count, names, choosable=True)
    elif isinstance(statement, (ast.SetVariable, ast.AddToVariable)):
        yield from _check_amount(statement.amount, names, choosable=True)
        if statement.name not in names.variables:
            yield _unknown_variable(statement.name, statement.line, statement.column, names)
    elif isinstance(statement, (ast.AdvanceTo, ast.GoBackTo)):
        target = statement.target
        if isinstance(target, ast.SpaceTarget) and target.name not in names.spaces:
            yield _unknown_space(target.name, target.line, target.column, names)
        elif isinstance(target, ast.NearestTarget):
            yield from _check_nearest(target, kinds_and_groups, names)
    elif isinstance(statement, ast.Draw) and statement.deck not in names.decks:
        yield EffectProblem(
            "unknown-deck",
            f'unknown deck "{statement.deck}"',
            _unknown_hint(statement.deck, names.decks, list_up_to=8),
            statement.line,
            statement.column,
        )
    elif isinstance(statement, ast.Keep):
        if where != "card":
            yield EffectProblem(
                "keep-outside-card",
                f'"keep" only works on a card (it keeps the card), not in a {where} effect',
                "a card being used goes back under its deck; drawing it is what keeps it" if where == "card use"
                else None,
                statement.line,
                statement.column,
            )
        elif conditional == "if":
            yield EffectProblem(
                "keep-in-if",
                '"keep" cannot be in a branch of an "if": a card is kept, or not, whatever happens',
                'write "keep" on its own, outside the "if"',
                statement.line,
                statement.column,
            )
        elif conditional:
            yield EffectProblem(
                "keep-in-choice",
                '"keep" cannot be in an alternative of a "(choose: ...)" statement: only a choice that is the whole '
                'effect ("choose: keep | ...") may keep the card',
                'start the effect with "choose:" to let the player choose to keep it, or write "keep" on its own',
                statement.line,
                statement.column,
            )


def _check_nearest(target: ast.NearestTarget, kinds_and_groups: frozenset[str],
                   names: EffectNames) -> Iterator[EffectProblem]:
    """`nearest KIND` (or `lot`, any space that can be owned), its filters, and the targets after `or`."""
    part: ast.NearestTarget | None = target
    while part is not None:
        if part.name in names.declared_kinds and part.name not in kinds_and_groups:
            yield _kind_not_placed(part.name, f'"nearest {part.name}" finds nothing', part.line, part.column)
        elif part.name not in kinds_and_groups and (part.name != "lot" or "lot" in kinds_and_groups):
            yield _unknown_kind_or_group(part.name, part.line, part.column, kinds_and_groups | {"lot"})
        elif (names.placed_groups is not None and part.name in names.groups and part.name not in names.kinds
              and part.name not in names.placed_groups):
            yield EffectProblem(
                "nearest-nothing", f'group "{part.name}" has no space on this board: "nearest {part.name}" finds '
                "nothing", f'give spaces "group: {part.name}", or name a kind or group the board has',
                part.line, part.column)
        if part.filter == "unowned" and part.others:
            yield EffectProblem("nearest-never", f'"{part.to_text()}" names no space: an unowned lot is owned by '
                                "nobody", 'write "nearest unowned lot" or "nearest lot owned by another player"',
                                part.line, part.column)
        part = part.otherwise


def _unknown_space(name: str, line: int, column: int, names: EffectNames) -> EffectProblem:
    return EffectProblem("unknown-space", f'unknown space "{name}"', _unknown_hint(name, names.spaces), line, column)


#: The quantities as written, for hints.
_QUANTITY_WORDS = tuple(written for written, _, _ in ast.QUANTITIES.values())
#: The players a reference can name, as written (a player one chooses only goes where a payment does).
_PLAYER_WORDS = tuple(written for name, written in ast.PLAYER_REFS.items() if name != "chosen")


def _check_amount(amount: ast.Amount, names: EffectNames, *, choosable: bool = False) -> Iterator[EffectProblem]:
    """The names and types of an amount; ``choosable``: in a statement (so `a player you choose` may be in it,
    the one the statement asks for), not in a condition."""
    for term in amount.terms:
        yield from _check_number(term, names, choosable)


def _check_number(node: object, names: EffectNames, choosable: bool = False) -> Iterator[EffectProblem]:
    if isinstance(node, ast.PerOwned):
        if node.name not in names.kinds | names.groups:
            # "per houses" is a plausible slip for the building counts.
            yield _unknown_kind_or_group(node.name, node.line, node.column,
                                         names.kinds | names.groups | ast.BUILDING_WORDS)
    elif isinstance(node, ast.Quantity):
        if node.of is not None:
            takes = ast.QUANTITIES[node.name][1]
            assert takes is not None  # a node that takes no `of` has none (ast validates it)
            yield from _check_ref(node.of, takes, node.to_text(), names, choosable=choosable)
    elif isinstance(node, ast.Owned):
        yield from _check_owned(node, names, choosable)
    elif isinstance(node, ast.Die):
        if node.number > names.dice:
            yield EffectProblem("unknown-die", f'"{node.to_text()}": the ruleset throws {names.dice} dice',
                                f'the dice are "die 1" to "die {names.dice}" (the counted dice first, then an extra '
                                "die)", node.line, node.column)
    elif isinstance(node, ast.Name):
        if node.name in names.variables:
            return
        counted = _kind_of_plural(node.name, names)
        if counted is not None:  # "railroads" alone: whose?
            yield EffectProblem("unknown-quantity", f'"{node.name}" counts the {node.name} of a player: say whose',
                                f'write "{node.name} owned by you" (or by owner, ...)', node.line, node.column)
            return
        known = (*_QUANTITY_WORDS, *sorted(names.variables))
        match = closest(node.name, known) or next(  # or one glued to more letters: "potatoes"
            (word for word in sorted(_QUANTITY_WORDS, key=len, reverse=True) if node.name.startswith(word)), None)
        if match is not None:
            hint = f'did you mean "{match}"?'
        elif node.name in ast.PLAYER_REFS:
            hint = f'{node.name} is a player: a number goes here, such as "cash of {node.name}"'
        else:
            hint = "a number goes here, or a quantity: " + ", ".join(_QUANTITY_WORDS)
        yield EffectProblem("unknown-quantity", f'unknown quantity "{node.name}"', hint, node.line, node.column)
    elif isinstance(node, ast.Arith):
        yield from _check_number(node.left, names, choosable)
        yield from _check_number(node.right, names, choosable)
    elif isinstance(node, ast.Extreme):
        for arg in node.args:
            yield from _check_number(arg, names, choosable)
    elif isinstance(node, ast.PercentOf):
        yield from _check_number(node.of, names, choosable)
    elif isinstance(node, ast.IfNumber):
        yield from _check_condition(node.condition, names)
        yield from _check_amount(node.then, names, choosable=choosable)
        yield from _check_amount(node.otherwise, names, choosable=choosable)
    elif isinstance(node, ast.Figure):
        if node.index is not None:
            yield from _check_number(node.index, names, choosable)
    elif isinstance(node, ast.RuleValue):
        yield from _check_rule(node, names)


def _check_rule(node: ast.RuleValue, names: EffectNames) -> Iterator[EffectProblem]:
    """`rules.X.Y`: a key of the ruleset's rules that holds a whole number (rules not known: not checked)."""
    if names.rules is None:
        return
    values = dict(names.rules)
    if node.path not in values:
        numbers = [path for path, value in values.items() if type(value) is int]
        match = closest(node.path, numbers)
        hint = f'did you mean "{match}"?' if match is not None else (
            "a rule is written with its keys from rules:, such as \"rules.salary\"")
        yield EffectProblem("unknown-rule", f'no rule "{node.path}" in this ruleset', hint, node.line, node.column)
    elif type(values[node.path]) is not int:
        yield EffectProblem("type-mismatch", f'"{node.path}" is {values[node.path]!r}, a whole number was expected',
                            "only the rules that hold a whole number can be read as one", node.line, node.column)


def _unknown_variable(name: str, line: int, column: int, names: EffectNames) -> EffectProblem:
    hint = _unknown_hint(name, names.variables, list_up_to=8) or (
        f'declare it in the ruleset, with the value it starts at: "variables: {{{name}: 0}}"')
    return EffectProblem("unknown-variable", f'unknown variable "{name}"', hint, line, column)


def _kind_of_plural(word: str, names: EffectNames) -> str | None:
    """The space kind of this ruleset that ``word`` is the plural of (`railroads`: `railroad`), or None."""
    return next((kind for kind in sorted(names.kinds) if ast.plural(kind) == word), None)


def _check_owned(node: ast.Owned, names: EffectNames, choosable: bool = False) -> Iterator[EffectProblem]:
    """`railroads owned by P`: a kind of this board, by its plural; `lots of group G owned by P`: a group."""
    hint: str | None
    if node.group:
        if node.name not in names.groups:
            hint = (f'{node.name} is a space kind: write "{ast.plural(node.name)} owned by ..."'
                    if node.name in names.kinds else _unknown_hint(node.name, names.groups, list_up_to=12))
            yield EffectProblem("unknown-group", f'unknown group "{node.name}"', hint, node.line, node.column)
    elif _kind_of_plural(node.name, names) is None:
        placed = next((kind for kind in sorted(names.declared_kinds) if ast.plural(kind) == node.name), None)
        if placed is not None:
            yield _kind_not_placed(placed, f'"{node.to_text()}" is always 0', node.line, node.column)
            yield from _check_ref(node.of, "player", node.to_text(), names, choosable=choosable)
            return
        plurals = {ast.plural(kind) for kind in names.kinds}
        if node.name in names.kinds:
            hint = f'a count takes the plural: write "{ast.plural(node.name)}"'
        elif node.name in names.groups:
            hint = f'{node.name} is a group: write "lots of group {node.name} owned by ..."'
        else:
            hint = _unknown_hint(node.name, plurals, list_up_to=12)
        yield EffectProblem("unknown-kind", f'unknown space kind "{node.name}" (a count names the kind in the '
                            "plural)", hint, node.line, node.column)
    yield from _check_ref(node.of, "player", node.to_text(), names, choosable=choosable)


def _kind_not_placed(kind: str, so: str, line: int, column: int) -> EffectProblem:
    """A kind the ruleset declares, of which the board has no space."""
    return EffectProblem("kind-not-on-board", f'no space of kind "{kind}" is on this board: {so}',
                         f'give spaces "kind: {kind}", or name a kind or group the board has', line, column)


def _check_ref(ref: ast.Ref, expected: str, context: str, names: EffectNames, *,
               choosable: bool = False) -> Iterator[EffectProblem]:
    """``ref`` where a ``expected`` ("player" or "space") goes, in the text ``context``; ``choosable``: where the
    player may be one the player chooses (in a statement: who is paid, who pays, whose cash...)."""
    if expected == "player":
        if ref.name == "chosen" and not ref.space and not choosable:
            yield EffectProblem(
                "choice-not-here", f'"{context}": a player you choose can be in a statement, not in a condition '
                "(a condition is tested before anybody is asked)",
                'choose in the statement instead: "pay 10% of cash of a player you choose to a player you choose"',
                ref.line, ref.column)
            return
        if not ref.space:
            return
        if ref.name in names.spaces:
            yield EffectProblem(
                "type-mismatch", f'"{context}": {ref.name} is a space, a player was expected',
                "a player is " + _or(_PLAYER_WORDS), ref.line, ref.column)
            return
        glued = next((words for words in _PLAYER_WORDS + ("each player",) if ref.name == words.replace(" ", "")), None)
        match = closest(ref.name, _PLAYER_WORDS)
        hint = (f'write "{glued}", in two words' if glued is not None
                else f'did you mean "{match}"?' if match is not None else "a player is " + _or(_PLAYER_WORDS))
        yield EffectProblem("unknown-player", f'unknown player "{ref.name}"', hint, ref.line, ref.column)
        return
    if not ref.space:
        yield EffectProblem(
            "type-mismatch", f'"{context}": {ref.to_text()} is a player, a space was expected',
            'name a space, in double quotes as on the board: "Boardwalk"', ref.line, ref.column)
    elif ref.name not in names.spaces:
        yield _unknown_space(ref.name, ref.line, ref.column, names)


def _check_condition(node: object, names: EffectNames) -> Iterator[EffectProblem]:
    if isinstance(node, ast.Compare):
        yield from _check_amount(node.left, names)
        yield from _check_amount(node.right, names)
    elif isinstance(node, ast.InJail):
        yield from _check_ref(node.who, "player", node.to_text(), names)
    elif isinstance(node, ast.Owns):
        yield from _check_ref(node.who, "player", node.to_text(), names)
        yield from _check_ref(node.what, "space", node.to_text(), names)
    elif isinstance(node, ast.Rolled) and node.face not in names.faces:
        yield EffectProblem("unknown-face", f'no die of this ruleset has the face "{node.face}"',
                            _unknown_hint(node.face, names.faces, list_up_to=8) or
                            "symbols are the faces of an extra die (dice.extra.faces)", node.line, node.column)
    elif isinstance(node, ast.Triples) and names.extra_die is False:
        yield EffectProblem("no-extra-die", '"triples" never holds: it reads the counted dice and an extra die, and '
                            "this ruleset throws no extra die", 'write "doubles" for dice that show the same, or give '
                            "the ruleset an extra die (dice.extra)", node.line, node.column)
    elif isinstance(node, ast.Not):
        yield from _check_condition(node.part, names)
    elif isinstance(node, ast.Logic):
        yield from _check_condition(node.left, names)
        yield from _check_condition(node.right, names)


def _or(words: tuple[str, ...]) -> str:
    return ", ".join(f'"{word}"' for word in words[:-1]) + f' or "{words[-1]}"'


def _unknown_kind_or_group(name: str, line: int, column: int, candidates: Iterable[str]) -> EffectProblem:
    return EffectProblem(
        "unknown-kind-or-group",
        f'unknown space kind or group "{name}"',
        _unknown_hint(name, candidates, list_up_to=12),
        line,
        column,
    )


def parse_and_check(text: str, names: EffectNames, where: str, *,
                    amount: str | None = None) -> tuple[ast.Effect | None, list[EffectProblem]]:
    """Parse and check in one step; a syntax error becomes one problem with code "syntax"."""
    try:
        effect = parse_effect(text)
    except EffectSyntaxError as error:
        return None, [EffectProblem("syntax", error.message, error.hint, error.line, error.column)]
    return effect, check_effect(effect, names, where, amount=amount)


def parse_and_check_number(text: str, names: EffectNames) -> tuple[ast.Amount | None, list[EffectProblem]]:
    """A number alone (a kind's rent), parsed and checked in one step (as :func:`parse_and_check`). A text that
    is a condition or an effect rather than a number is one problem, "type-mismatch", at its start."""
    try:
        number = parse_number(text)
    except EffectSyntaxError as error:
        for parse, what in ((parse_condition, "a condition"), (parse_effect, "an effect (what happens)")):
            try:
                parse(text)
            except EffectSyntaxError:
                continue
            return None, [EffectProblem("type-mismatch", f"the rent is {what}, a number was expected",
                                        'a rent is an amount alone, such as "figure owned in group" or '
                                        '"if hotel then last figure else figure (level + 1)"', 1, 1)]
        return None, [EffectProblem("syntax", error.message, error.hint, error.line, error.column)]
    return number, check_number(number, names)


def parse_and_check_condition(text: str, names: EffectNames, *,
                              amount: str | None = None) -> tuple[object | None, list[EffectProblem]]:
    """A condition alone (a permission of the ruleset, a trigger's `if:`), parsed and checked in one step (as
    :func:`parse_and_check`): its names resolved and its values of the types they must be."""
    try:
        condition = parse_condition(text)
    except EffectSyntaxError as error:
        return None, [EffectProblem("syntax", error.message, error.hint, error.line, error.column)]
    return condition, check_condition(condition, names, amount=amount)
