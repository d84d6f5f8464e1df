"""Effect text -> `monopoly.effects.ast.Effect`, with errors a designer can act on.

The lark parser (LALR, contextual lexer) is built lazily on first use and cached
for the life of the process; after that, parsing one effect costs tens of
microseconds. Every failure, whatever the input, is an `EffectSyntaxError` with a
plain-words message, a 1-based line and column inside the effect text, the
expected words and, where we can guess the mistake, a hint.
"""

from __future__ import annotations

import difflib
import functools
import importlib.resources
import re
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar, cast

from lark import Lark, Token, Transformer_NonRecursive, v_args
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError
from lark.lexer import PatternStr

from . import ast

__all__ = ["EffectSyntaxError", "parse_condition", "parse_effect", "parse_number", "parser"]


class EffectSyntaxError(Exception):
    """An effect text that is not valid effect language.

    `line` and `column` are 1-based within the effect text; `expected` lists the
    words that would have been accepted there (may be empty, e.g. for a number out
    of range); `hint` is a suggestion or None; `text` is the whole effect text.
    """

    def __init__(
        self,
        message: str,
        *,
        line: int,
        column: int,
        expected: Iterable[str] = (),
        hint: str | None = None,
        text: str = "",
    ) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.expected = list(expected)
        self.hint = hint
        self.text = text

    def __str__(self) -> str:
        text = f"{self.line}:{self.column}: {self.message}"
        return f"{text} (hint: {self.hint})" if self.hint else text

    def __reduce__(self) -> Any:
        # Keyword-only arguments: the default Exception pickling would lose them,
        # and errors travel between simulation worker processes.
        return (_rebuild_error, (self.message, self.line, self.column, self.expected, self.hint, self.text))

    def caret(self) -> str:
        """The offending source line, and under it a caret at the column."""
        lines = self.text.split("\n")
        source = lines[self.line - 1].rstrip("\r") if 0 < self.line <= len(lines) else ""
        # Keep tabs as tabs so the caret lines up however the terminal shows them.
        pad = "".join("\t" if char == "\t" else " " for char in source[: max(self.column - 1, 0)])
        return f"{source}\n{pad}^"


def _rebuild_error(
    message: str, line: int, column: int, expected: list[str], hint: str | None, text: str
) -> EffectSyntaxError:
    return EffectSyntaxError(message, line=line, column=column, expected=expected, hint=hint, text=text)


# --------------------------------------------------------------------------- the parser


class _WordEverywhere:
    """A postlexer that changes no token.

    It exists for `always_accept`: the contextual lexer then tries WORD in every
    state, and a keyword only wins when the whole word is the keyword. Without it
    "gotojail" would lex as "go" "to" "jail" and "collect potatoes" would fail
    in the middle of a word.
    """

    always_accept = ("WORD",)

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        return stream


GRAMMAR_OPTIONS: dict[str, Any] = {
    "parser": "lalr",
    "lexer": "contextual",
    "propagate_positions": True,
    "maybe_placeholders": True,
    "start": ["start", "permission", "number_alone"],
}


def grammar_text() -> str:
    return importlib.resources.files("monopoly.grammar").joinpath("effects.lark").read_text(encoding="utf-8")


def parser_options() -> dict[str, Any]:
    """The options the tables are built with (data only; the postlexer is given again at load)."""
    return dict(GRAMMAR_OPTIONS)


def build_parser() -> Lark:
    """The parser built from the grammar (about a fifth of a second)."""
    return Lark(grammar_text(), postlex=_WordEverywhere(), **GRAMMAR_OPTIONS)


@functools.cache
def parser() -> Lark:
    """The effect parser, built on first use and then shared.

    It is read from the LALR tables shipped beside the grammar (a few
    milliseconds; see :mod:`monopoly.effects.tables`), or built from the grammar
    when those were made from another grammar or lark version. No per-user cache
    file is read or written. Strict mode (conflicts are errors) is checked by the
    tests, not at every start.
    """
    from .tables import load_tables

    loaded = load_tables(grammar_text(), parser_options(), {"postlex": _WordEverywhere()})
    return loaded if loaded is not None else build_parser()


@functools.cache
def _terminal_words() -> dict[str, str]:
    """Terminal name -> how we say it to a designer."""
    words = {
        "NUMBER": "a number",
        "STRING": "a space name in double quotes",
        "TIMES": 'a multiplier such as "x2"',
        "COMPARE": 'a comparison ("<", "<=", ">", ">=", "=" or "!=")',
        "WORD": "a name",
        "RULE": 'a number of the rules, such as "rules.salary"',
        "$END": "the end of the effect",
    }
    for terminal in parser().terminals:
        if isinstance(terminal.pattern, PatternStr):
            words[terminal.name] = f'"{terminal.pattern.value}"'
    return words


@functools.cache
def _amount_starts() -> frozenset[str]:
    """The terminals an amount may start with besides a number: quantity keywords, min, max, "(" and a word."""
    starts = {"WORD", "LPAR", "MIN", "MAX", "RULE"}
    # and the group counts, a die, a lot's figures, a number's `if`
    written = {written.split()[0] for written, _, _ in ast.QUANTITIES.values()} | {"lots", "die", "figure", "last",
                                                                                      "if"}
    for terminal in parser().terminals:
        if isinstance(terminal.pattern, PatternStr) and terminal.pattern.value in written | {"min", "max", "("}:
            starts.add(terminal.name)
    return frozenset(starts)


@functools.cache
def keywords() -> frozenset[str]:
    """Every word of the language: its keywords (`pay`, `per`, `nearest`, ...) and the quantities of one word
    that are no keyword (`amount`)."""
    return frozenset(
        terminal.pattern.value
        for terminal in parser().terminals
        if isinstance(terminal.pattern, PatternStr) and terminal.pattern.value.isalpha()
    ) | _WORD_QUANTITIES


# --------------------------------------------------------------------------- tree -> AST


class _Invalid(Exception):
    """Raised inside the Transformer; becomes an EffectSyntaxError at `token`."""

    def __init__(self, message: str, token: Token, hint: str | None = None, after_words: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.token = token
        self.hint = hint
        self.after_words = after_words  # the error is this many words after the token's start


def _bounded(token: Token, low: int, high: int, what: str, hint: str | None = None) -> int:
    digits = token.lstrip("-")
    # Guard before int(): a number too long to be in range need not be converted
    # (and Python refuses to convert very long digit strings at all).
    value = int(token) if len(digits) <= 12 else (high + 1 if not token.startswith("-") else low - 1)
    if not low <= value <= high:
        raise _Invalid(f"{what} must be between {low} and {high}, not {token}", token, hint)
    return value


def _amount_value(token: Token) -> int:
    hint = 'write "pay" or "collect" to say which way the money goes' if token.startswith("-") else None
    return _bounded(token, 0, ast.AMOUNT_MAX, "an amount", hint)


def _identifier(token: Token, what: str) -> str:
    if not ast.IDENTIFIER_RE.match(token):
        lowered = token.lower()
        hint = f'write "{lowered}"' if ast.IDENTIFIER_RE.match(lowered) else None
        raise _Invalid(f'{what} is written in lowercase letters, digits and "_", not "{token}"', token, hint)
    return str(token)


@v_args(inline=True)
class _Build(Transformer_NonRecursive[Any, Any]):
    """Builds AST nodes bottom-up; names keep the position of their token."""

    def start(self, body: ast.Sequence | ast.Choice) -> ast.Effect:
        return ast.Effect(body)

    def choice(self, *options: ast.Sequence) -> ast.Choice:
        return ast.Choice(options)

    @v_args(meta=True)
    def choose_statement(self, meta: Any, children: list[Any]) -> ast.ChooseStatement:
        return _nested(ast.ChooseStatement(children[0].options), meta)

    def sequence(self, *statements: ast.Statement) -> ast.Sequence:
        return ast.Sequence(statements)

    def collect(self, amount: ast.Amount) -> ast.Collect | ast.CollectPot:
        if amount.terms == (ast.Quantity("pot"),):  # "collect pot": take the pot (its money, not the bank's)
            return ast.CollectPot()
        return ast.Collect(amount)

    def collect_from(self, amount: ast.Amount, source: ast.Ref) -> ast.CollectFrom:
        return ast.CollectFrom(amount, source)

    def add_to_pot(self, amount: ast.Amount) -> ast.AddToPot:
        return ast.AddToPot(amount)

    def add_to_variable(self, amount: ast.Amount, name: Token) -> ast.AddToVariable:
        return ast.AddToVariable(amount, _identifier(name, "a variable"), line=name.line or 0,
                                 column=name.column or 0)

    def set_variable(self, name: Token, amount: ast.Amount) -> ast.SetVariable:
        return ast.SetVariable(_identifier(name, "a variable"), amount, line=name.line or 0, column=name.column or 0)

    def pay_to(self, amount: ast.Amount, to: ast.Ref) -> ast.PayTo:
        return ast.PayTo(amount, to)

    def pay_to_pot(self, amount: ast.Amount) -> ast.PayToPot:
        return ast.PayToPot(amount)

    @v_args(meta=True)
    def if_statement(self, meta: Any, children: list[Any]) -> ast.If:
        condition, then, *rest = children
        otherwise = rest[0] if rest else None
        return _nested(ast.If(condition, _as_sequence(then), None if otherwise is None else _as_sequence(otherwise)),
                       meta)

    @v_args(meta=True)
    def every_player(self, meta: Any, children: list[Any]) -> ast.EveryPlayer:
        try:
            node = ast.EveryPlayer(_as_sequence(children[0]))
        except ValueError as error:
            position = Token("EXPRESSION", "", start_pos=getattr(meta, "start_pos", 0) or 0)
            raise _Invalid(str(error), position, 'write one "every player:" around the statements') from None
        return _nested(node, meta)

    def collect_from_each(self, amount: ast.Amount) -> ast.Collect:
        return ast.Collect(amount, from_each_player=True)

    def collect_pot(self) -> ast.CollectPot:
        return ast.CollectPot()

    def pay(self, amount: ast.Amount) -> ast.Pay:
        return ast.Pay(amount)

    def pay_to_each(self, amount: ast.Amount) -> ast.Pay:
        return ast.Pay(amount, to_each_player=True)

    def advance(self, target: ast.Target, rent: ast.RentModifier | None) -> ast.AdvanceTo:
        return ast.AdvanceTo(target, rent)

    def go_back(self, target: ast.SpaceTarget) -> ast.GoBackTo:
        return ast.GoBackTo(target)

    def move(self, steps: Token) -> ast.Move:
        value = _bounded(steps, ast.MOVE_MIN, ast.MOVE_MAX, "the number of spaces to move")
        if value == 0:
            raise _Invalid(
                f"the number of spaces to move cannot be 0 (use -100 to -1 or 1 to {ast.MOVE_MAX})",
                steps,
                "negative numbers move backwards",
            )
        return ast.Move(value)

    @v_args(meta=True)
    def move_forward(self, meta: Any, children: list[Any]) -> ast.Move | ast.MoveBy:
        return _move_by(children[0], meta, forward=True)

    @v_args(meta=True)
    def move_back(self, meta: Any, children: list[Any]) -> ast.Move | ast.MoveBy:
        return _move_by(children[0], meta, forward=False)

    def go_to_jail(self) -> ast.GoToJail:
        return ast.GoToJail()

    def roll(self) -> ast.Roll:
        return ast.Roll()

    def die(self, number: Token) -> ast.Die:
        return ast.Die(_bounded(number, 1, ast.DIE_MAX, "a die's number", 'the dice are counted from 1: "die 1"'),
                       line=number.line or 0, column=number.column or 0)

    @v_args(meta=True)
    def keep(self, meta: Any, children: list[Any]) -> ast.Keep:
        return ast.Keep(line=meta.line, column=meta.column)

    def draw(self, deck: Token) -> ast.Draw:
        return ast.Draw(_identifier(deck, "a deck key"), line=deck.line or 0, column=deck.column or 0)

    def amount(self, expression: Any) -> ast.Amount:
        if isinstance(expression, _Terms):
            return ast.Amount(tuple(expression))
        return ast.Amount((expression,))

    @v_args(meta=True)
    def add(self, meta: Any, children: list[Any]) -> Any:
        left, right = children
        if _classic(left) and _classic(right):  # a plain sum of the classic terms stays the list it always was
            return _Terms((*_terms(left), *_terms(right)))
        return _nested(ast.Arith("+", _expression(left, meta), _expression(right, meta)), meta)

    @v_args(meta=True)
    def subtract(self, meta: Any, children: list[Any]) -> ast.Arith:
        return _arith("-", meta, children)

    @v_args(meta=True)
    def multiply(self, meta: Any, children: list[Any]) -> ast.Arith:
        return _arith("x", meta, children)

    @v_args(meta=True)
    def divide(self, meta: Any, children: list[Any]) -> ast.Arith:
        return _arith("/", meta, children)

    @v_args(meta=True)
    def percent_of(self, meta: Any, children: list[Any]) -> Any:
        percent, of = children
        value = _bounded(percent, ast.PERCENT_MIN, ast.PERCENT_MAX, "a percentage")
        if of == ast.Quantity("net_worth"):  # the classic term, as it always was
            return ast.PercentOfNetWorth(value)
        return _nested(ast.PercentOf(value, _expression(of, meta)), meta)

    @v_args(meta=True)
    def minimum(self, meta: Any, children: list[Any]) -> ast.Extreme:
        return _nested(ast.Extreme("min", [_expression(child, meta) for child in children]), meta)

    @v_args(meta=True)
    def maximum(self, meta: Any, children: list[Any]) -> ast.Extreme:
        return _nested(ast.Extreme("max", [_expression(child, meta) for child in children]), meta)

    def term(self, quantity: Any) -> Any:
        return quantity

    def owned_of_kind(self, word: Token, of: ast.Ref) -> ast.Owned:
        return ast.Owned(_identifier(word, "a space kind"), of, line=word.line or 0, column=word.column or 0)

    def owned_of_group(self, key: Token, of: ast.Ref) -> ast.Owned:
        return ast.Owned(_identifier(key, "a group key"), of, group=True, line=key.line or 0,
                         column=key.column or 0)

    @v_args(meta=True)
    def you_own(self, meta: Any, children: list[Any]) -> ast.Ref:
        return ast.Ref("you", line=meta.line, column=meta.column)

    def name(self, word: Token) -> ast.Name | ast.Quantity:
        if str(word) in _WORD_QUANTITIES:  # a quantity of one word that is no keyword (`amount`)
            return ast.Quantity(str(word), line=word.line or 0, column=word.column or 0)
        return ast.Name(str(word), line=word.line or 0, column=word.column or 0)

    def __default__(self, data: Any, children: list[Any], meta: Any) -> Any:
        """The rules named after a quantity (`cash`, `net_worth`, ...; `rent_of`) or a player (`you`,
        `owner`, `richest`, `poorest`): one node each, with the position of its first word."""
        quantity = _QUANTITY_RULES.get(data)
        if quantity is not None:  # the optional `of` is among the children (absent: none)
            return _quantity(quantity, meta, children)
        if data in ast.PLAYER_REFS:
            return ast.Ref(str(data), line=getattr(meta, "line", 0) or 0, column=getattr(meta, "column", 0) or 0)
        return cast(Any, super()).__default__(data, children, meta)

    def ref(self, space: ast.SpaceTarget) -> ast.Ref:
        return ast.Ref(space.name, space=True, line=space.line, column=space.column)

    # conditions
    def condition(self, condition: Any) -> Any:
        return condition

    def permission(self, condition: Any) -> Any:
        return condition

    def number_alone(self, amount: ast.Amount) -> ast.Amount:
        return amount

    @v_args(meta=True)
    def if_number(self, meta: Any, children: list[Any]) -> ast.IfNumber:
        return _nested(ast.IfNumber(*children), meta)

    @v_args(meta=True)
    def figure(self, meta: Any, children: list[Any]) -> ast.Figure:
        return _nested(ast.Figure(_expression(children[0], meta), line=meta.line, column=meta.column), meta)

    @v_args(meta=True)
    def last_figure(self, meta: Any, children: list[Any]) -> ast.Figure:
        return ast.Figure(last=True, line=meta.line, column=meta.column)

    def rule_value(self, path: Token) -> ast.RuleValue:
        return ast.RuleValue(str(path), line=path.line or 0, column=path.column or 0)

    @v_args(meta=True)
    def hotel(self, meta: Any, children: list[Any]) -> ast.RentTest:
        return ast.RentTest("hotel", line=meta.line, column=meta.column)

    @v_args(meta=True)
    def whole_group(self, meta: Any, children: list[Any]) -> ast.RentTest:
        return ast.RentTest("whole_group", line=meta.line, column=meta.column)

    @v_args(meta=True)
    def either(self, meta: Any, children: list[Any]) -> ast.Logic:
        return _nested(ast.Logic("or", *children), meta)

    @v_args(meta=True)
    def both(self, meta: Any, children: list[Any]) -> ast.Logic:
        return _nested(ast.Logic("and", *children), meta)

    @v_args(meta=True)
    def negate(self, meta: Any, children: list[Any]) -> ast.Not:
        return _nested(ast.Not(children[0]), meta)

    def compare(self, left: ast.Amount, op: Token, right: ast.Amount) -> ast.Compare:
        return ast.Compare(str(op), left, right)

    def in_jail(self, who: ast.Ref) -> ast.InJail:
        return ast.InJail(who)

    def owns(self, who: ast.Ref, what: ast.Ref) -> ast.Owns:
        return ast.Owns(who, what)

    def doubles(self) -> ast.Doubles:
        return ast.Doubles()

    @v_args(meta=True)
    def triples(self, meta: Any, children: list[Any]) -> ast.Triples:
        return ast.Triples(line=getattr(meta, "line", 0), column=getattr(meta, "column", 0))

    def rolled(self, face: Token) -> ast.Rolled:
        return ast.Rolled(_identifier(face, "a face of a die"), line=face.line or 0, column=face.column or 0)

    def fixed(self, value: Token) -> ast.Fixed:
        return ast.Fixed(_amount_value(value))

    def per_house(self, value: Token) -> ast.PerHouse:
        return ast.PerHouse(_amount_value(value))

    def per_hotel(self, value: Token) -> ast.PerHotel:
        return ast.PerHotel(_amount_value(value))

    def per_owned(self, value: Token, name: Token) -> ast.PerOwned:
        return ast.PerOwned(
            _amount_value(value),
            _identifier(name, "a space kind or group key"),
            line=name.line or 0,
            column=name.column or 0,
        )

    def percent_of_net_worth(self, percent: Token) -> ast.PercentOfNetWorth:
        return ast.PercentOfNetWorth(_bounded(percent, ast.PERCENT_MIN, ast.PERCENT_MAX, "a percentage"))

    def nearest(self, kept: str | None, name: Token, others: bool | None,
                otherwise: ast.NearestTarget | None) -> ast.NearestTarget:
        return ast.NearestTarget(
            _identifier(name, "a space kind or group key"), line=name.line or 0, column=name.column or 0,
            filter=kept, others=bool(others), otherwise=otherwise,
        )

    def unowned(self) -> str:
        return "unowned"

    def unmortgaged(self) -> str:
        return "unmortgaged"

    def others(self) -> bool:
        return True

    def chosen_space(self) -> ast.ChosenTarget:
        return ast.ChosenTarget()

    def quoted_space(self, name: Token) -> ast.SpaceTarget:
        inner = name[1:-1]
        if not inner.strip():
            raise _Invalid("a space name cannot be empty", name)
        return ast.SpaceTarget(inner, line=name.line or 0, column=name.column or 0)

    def bare_space(self, name: Token) -> ast.SpaceTarget:
        return ast.SpaceTarget(str(name), line=name.line or 0, column=name.column or 0)

    def rent_multiplier(self, times: Token) -> ast.RentMultiplier:
        # "x2" is one token; the error for a bad factor still points at it.
        factor = Token.new_borrow_pos("NUMBER", times[1:], times)
        return ast.RentMultiplier(
            _bounded(factor, ast.RENT_MULTIPLIER_MIN, ast.RENT_MULTIPLIER_MAX, "a rent multiplier")
        )

    def rent_from_dice(self, multiple: Token) -> ast.RentFromDice:
        return ast.RentFromDice(
            _bounded(multiple, ast.DICE_MULTIPLE_MIN, ast.DICE_MULTIPLE_MAX, "a dice multiple")
        )


#: The grammar's rule for each quantity (the rule of `rent of S` is `rent_of`: `rent` is the rent modifier's).
#: Quantities the grammar reads as a plain word (no keyword: `amount` stays free for names elsewhere).
_WORD_QUANTITIES = frozenset({"amount"})
_QUANTITY_RULES = {**{name: name for name in ast.QUANTITIES if name != "rent" and name not in _WORD_QUANTITIES},
                   "rent_of": "rent"}


def _move_by(amount: ast.Amount, meta: Any, *, forward: bool) -> ast.Move | ast.MoveBy:
    """`move forward N spaces`, `go back N spaces`: a constant count is the plain `move N` (`move -N`), with
    its limits; any other is worked out when the move happens."""
    constant = amount.constant
    if constant is None:
        return _nested(ast.MoveBy(amount, forward), meta)
    if not 1 <= constant <= ast.MOVE_MAX:
        position = Token("NUMBER", "", start_pos=getattr(meta, "start_pos", 0) or 0)
        raise _Invalid(f"the number of spaces to move must be between 1 and {ast.MOVE_MAX}, not {constant}",
                       position, after_words=2)  # at the count, after "move forward" or "go back"
    return ast.Move(constant if forward else -constant)


def _as_sequence(branch: Any) -> ast.Sequence:
    return branch if isinstance(branch, ast.Sequence) else ast.Sequence((branch,))


class _Terms(tuple[Any, ...]):
    """A plain sum of the classic terms while it is being read (`25 per house + 100 per hotel`): it becomes the
    list of terms of an amount, as the language always read it, however long."""


def _classic(value: Any) -> bool:
    return isinstance(value, (_Terms, *ast.TERM_TYPES))


def _terms(value: Any) -> tuple[Any, ...]:
    return tuple(value) if isinstance(value, _Terms) else (value,)


def _expression(value: Any, meta: Any) -> Any:
    """An operand as an expression node: a plain sum met by another operator becomes its `+` nodes."""
    if not isinstance(value, _Terms):
        return value
    node = value[0]
    for term in value[1:]:
        node = _nested(ast.Arith("+", node, term), meta)
    return node


def _arith(op: str, meta: Any, children: list[Any]) -> ast.Arith:
    left, right = children
    return _nested(ast.Arith(op, _expression(left, meta), _expression(right, meta)), meta)


_Node = TypeVar("_Node")


def _nested(node: _Node, meta: Any) -> _Node:
    """``node``, unless it nests deeper than :data:`~monopoly.effects.ast.MAX_DEPTH` (then a located error)."""
    if _depth(node, ast.MAX_DEPTH + 1) > ast.MAX_DEPTH:
        position = Token("EXPRESSION", "", start_pos=getattr(meta, "start_pos", 0) or 0)
        raise _Invalid(f"this is nested more than {ast.MAX_DEPTH} deep (operators, brackets, conditions or ifs "
                       "inside each other)", position, "split the rule into simpler effects or triggers")
    return node


def _depth(node: Any, budget: int) -> int:
    """How deep ``node`` nests (counting no further than ``budget``)."""
    if budget <= 0:
        return 0
    inner = _inner(node)
    return 1 + max((_depth(child, budget - 1) for child in inner), default=0)


def _inner(node: Any) -> tuple[Any, ...]:
    if isinstance(node, (ast.Arith, ast.Compare, ast.Logic)):
        return (node.left, node.right)
    if isinstance(node, ast.Extreme):
        return node.args
    if isinstance(node, ast.PercentOf):
        return (node.of,)
    if isinstance(node, ast.Amount):
        return node.terms
    if isinstance(node, ast.Not):
        return (node.part,)
    if isinstance(node, ast.IfNumber):
        return (node.condition, node.then, node.otherwise)
    if isinstance(node, ast.Figure):
        return (node.index,) if node.index is not None else ()
    if isinstance(node, ast.If):
        return (node.condition, node.then) + ((node.otherwise,) if node.otherwise is not None else ())
    if isinstance(node, ast.EveryPlayer):
        return (node.body,)
    if isinstance(node, ast.ChooseStatement):
        return node.options
    if isinstance(node, ast.Sequence):
        return node.statements
    if isinstance(node, (ast.Pay, ast.Collect, ast.PayTo, ast.CollectFrom, ast.AddToPot, ast.PayToPot,
                         ast.SetVariable, ast.AddToVariable)):
        return (node.amount,)
    if isinstance(node, ast.MoveBy):
        return (node.count,)
    return ()


def _quantity(name: str, meta: Any, children: list[Any]) -> ast.Quantity:
    of = next((child for child in children if isinstance(child, ast.Ref)), None)
    return ast.Quantity(name, of, line=getattr(meta, "line", 0) or 0, column=getattr(meta, "column", 0) or 0)


_BUILD = _Build()


# --------------------------------------------------------------------------- entry point


def parse_effect(text: str) -> ast.Effect:
    """Parse one effect; raise EffectSyntaxError (and nothing else) for bad text.

    >>> parse_effect("pay 25 per house + 100 per hotel").to_text()
    'pay 25 per house + 100 per hotel'
    """
    effect: ast.Effect = _parse(text, "start")
    return effect


def parse_condition(text: str) -> ast.Condition:
    """Parse one condition alone (a permission of the ruleset, a trigger's `if:`); raise EffectSyntaxError for
    bad text.

    >>> parse_condition("laps >= 1 and not you are in jail").to_text()
    'laps >= 1 and not you are in jail'
    """
    condition: ast.Condition = _parse(text, "permission")
    return condition


def parse_number(text: str) -> ast.Amount:
    """Parse one number alone (a kind's rent); raise EffectSyntaxError for bad text.

    >>> parse_number("if hotel then last figure else figure (level + 1)").to_text()
    'if hotel then last figure else figure (level + 1)'
    """
    number: ast.Amount = _parse(text, "number_alone")
    return number


def _parse(text: str, start: str) -> Any:
    """The AST of ``text`` read from the grammar's ``start`` symbol (an effect, or a permission's condition)."""
    if not isinstance(text, str):
        raise TypeError(f"{'effect' if start == 'start' else 'condition'} text must be a str, not "
                        f"{type(text).__name__}")
    try:
        tree = parser().parse(text, start=start)
        return _BUILD.transform(tree)
    except VisitError as wrapped:
        problem = wrapped.orig_exc
        if isinstance(problem, _Invalid):
            pos = problem.token.start_pos or 0
            if problem.after_words:
                skipped = re.match(rf"(?:\S+\s+){{{problem.after_words}}}", text[pos:])
                pos += skipped.end() if skipped else 0
            hint = problem.hint
            if problem.token.startswith("-") and re.search(r"\b(forward|back)\s*\Z", text[:pos]):
                hint = 'a count of spaces is a number of at least 1: "go back 3 spaces" moves back'
            raise _error_at(text, pos, problem.message, hint=hint) from None
        raise problem from None
    except UnexpectedInput as failure:
        raise _explain(text, failure, start) from None
    except LarkError as failure:  # anything else lark may raise: still one error type
        what = "effect" if start == "start" else "condition"
        raise _error_at(text, 0, f"cannot read this {what}: {failure}") from None


def _line_column(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, column


def _error_at(
    text: str, pos: int, message: str, *, expected: Iterable[str] = (), hint: str | None = None
) -> EffectSyntaxError:
    line, column = _line_column(text, pos)
    return EffectSyntaxError(message, line=line, column=column, expected=expected, hint=hint, text=text)


# --------------------------------------------------------------------------- explaining failures

# A rough tokenizer, only used to describe the text around an error.
_ROUGH_TOKEN = re.compile(r'"[^"\n]*"?|[A-Za-z][A-Za-z0-9_]*|-?[0-9]+|\S')
_CURRENCY = "$£€¥₹"
_CURLY_QUOTES = "“”„‘’«»"


def _rough_tokens(text: str) -> list[tuple[str, int]]:
    return [(match.group(), match.start()) for match in _ROUGH_TOKEN.finditer(text)]


def _explain(text: str, failure: UnexpectedInput, start: str = "start") -> EffectSyntaxError:
    end = len(text.rstrip())
    if isinstance(failure, UnexpectedToken) and failure.token.type != "$END":
        pos = failure.token.start_pos if failure.token.start_pos is not None else end
        found: str | None = str(failure.token)
    elif isinstance(failure, UnexpectedCharacters):
        pos = failure.pos_in_stream if failure.pos_in_stream is not None else end
        found = text[pos] if pos < len(text) else None
    else:  # end of input ($END token or UnexpectedEOF): lark has no useful position
        pos, found = end, None

    prefix = text[:pos]
    expected_terminals = _acceptable(prefix, failure, start)
    before = _rough_tokens(prefix)
    expected = _expected_words(expected_terminals, before)
    context = _context(prefix)
    shown = "the end of the effect" if found is None else _show(found)

    if not text.strip():
        message = f"the effect is empty: expected {_or_list(expected)}"
    elif expected:
        message = f"expected {_or_list(expected)} {context}, found {shown}"
    else:
        message = f"unexpected {shown} {context}"
    hint = _hint(text, pos, found, expected_terminals, before)
    if start == "number_alone":  # the same words, about a rent
        message = message.replace("the end of the effect", "the end of the rent").replace(
            "the effect is empty", "the rent is empty").replace("the start of the effect", "the start of the rent")
        expected = [word.replace("the end of the effect", "the end of the rent") for word in expected]
        if not text.strip():
            hint = 'a rent is a number, such as "figure owned in group" or "25 x owned in group"'
    elif start != "start":  # the same words, about a condition alone (a permission, a trigger's `if:`)
        message = message.replace("the end of the effect", "the end of the condition").replace(
            "the effect is empty", "the condition is empty").replace("the start of the effect",
                                                                     "the start of the condition")
        expected = [word.replace("the end of the effect", "the end of the condition") for word in expected]
        if not text.strip():
            hint = 'a condition such as "doubles", "dice = 7" or "cash < 500"'
        elif re.search(r"\bthen\b", text):
            hint = "a trigger's `if` holds the condition alone: write what happens in `effect`"
        elif hint is None and text.split()[0] in _STATEMENT_WORDS:  # an effect where a condition goes
            hint = f'a condition goes here, not a statement such as "{text.split()[0]}": "laps >= 1", "doubles"'
    elif hint is None and pos == len(text) - len(text.lstrip()) and not before and \
            _looks_like_condition(text):  # a condition where an effect goes
        hint = f'this is a condition, and an effect does something here: "if {text.strip()} then ..."'
    return _error_at(text, pos, message, expected=expected, hint=hint)


#: The words a statement starts with (an effect written where a condition goes is told so).
_STATEMENT_WORDS = frozenset({"add", "advance", "choose", "collect", "draw", "go", "keep", "move", "pay", "roll",
                              "set"})


def _looks_like_condition(text: str) -> bool:
    """Whether an effect's text reads as a condition (`cash > 5`, `doubles`, `you are in jail`)."""
    return bool(re.search(r"[<>=]|!=|\b(doubles|triples|rolled|is in jail|are in jail|owns?)\b", text))


def _acceptable(prefix: str, failure: UnexpectedInput, start: str = "start") -> set[str]:
    """The terminals the parser would take right after `prefix`.

    Replaying the prefix on an interactive parser gives the exact set (LALR
    tables alone may list tokens that only fail after a reduction).
    """
    try:
        replay = parser().parse_interactive(prefix, start=start)
        replay.exhaust_lexer()
        accepted: set[str] = set(cast(Any, replay).accepts())  # lark's method is untyped
        return accepted
    except LarkError:
        if isinstance(failure, UnexpectedToken):
            return set(failure.expected)
        return set(getattr(failure, "allowed", None) or ()) - {"WS"}


def _expected_words(terminals: set[str], before: list[tuple[str, int]]) -> list[str]:
    words = _terminal_words()
    previous = before[-1][0] if before else ""
    described: set[str] = set()
    if "NUMBER" in terminals:
        # Where an amount may start, the quantities and the brackets start one too: "a number" says it (a
        # word that is no quantity parses, and the checker names the closest ones).
        terminals = {name for name in terminals if name not in _amount_starts()}
    for name in terminals:
        if name == "WS":
            continue
        if name == "A":  # "a space you choose" where a move's target goes, else "a player you choose"
            described.add('"a space you choose"' if "NEAREST" in terminals else '"a player you choose"')
            continue
        if name == "WORD":
            if previous == "draw":
                described.add("a deck key")
            elif previous in ("per", "nearest"):
                described.add("a space kind or group key")
            elif "STRING" not in terminals:  # beside STRING it is only the bare space name
                described.add(words["WORD"])
            continue
        described.add(words.get(name, name))
    return sorted(described, key=_word_order)


def _word_order(word: str) -> tuple[int, str]:
    if word == "the end of the effect":
        return (3, word)
    if not word.startswith('"'):
        return (0, word)  # a number, a deck key, ...
    if word[1:-1].isalpha():
        return (1, word)  # keywords
    return (2, word)  # punctuation


def _or_list(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _show(found: str) -> str:
    if found == '"':
        return "a lone double quote"
    if '"' in found:
        return found if found.startswith('"') and found.endswith('"') else f"'{found}'"
    return f'"{found}"'


def _shorten(text: str, limit: int = 40) -> str:
    if len(text) <= limit:
        return text
    tail = text[-limit:]
    return "..." + tail[tail.find(" ") + 1 :] if " " in tail else "..." + tail


def _context(prefix: str) -> str:
    """`after "pay 25"`: the current statement up to the error, for the message."""
    start, quoted = 0, False
    for index, char in enumerate(prefix):
        if char == '"':
            quoted = not quoted
        elif not quoted and char in ";|:":
            start = index + 1
    statement = " ".join(prefix[start:].split())
    if statement:
        return f'after "{_shorten(statement)}"'
    everything = " ".join(prefix.split())
    if everything:
        return f'after "{_shorten(everything)}"'
    return "at the start of the effect"


def _hint(text: str, pos: int, found: str | None, expected: set[str], before: list[tuple[str, int]]) -> str | None:
    """A guess at what the designer meant, or None."""
    rest = text[pos:]
    words = [token for token, _ in before]
    previous = words[-1] if words else ""
    following = _rough_tokens(rest)
    after_found = following[1][0] if len(following) > 1 else ""

    if not text.strip():
        return 'an effect is at least one statement, for example "collect 50"'
    if found is None:
        if previous == ";":
            return 'remove the trailing ";" (or add the next statement after it)'
        if words and words[0] == "choose" and "|" not in words and "VBAR" in expected:
            return 'a choice needs at least two alternatives separated by "|"'
        return None
    if found in _CURRENCY:
        number = re.match(r"\s*(-?[0-9]+)", rest[1:])
        example = f'"{number.group(1)}", not "{found}{number.group(1)}"' if number else "just the number"
        return f"amounts are written without the currency sign: write {example}"
    if found in _CURLY_QUOTES:
        return 'use straight double quotes (") around space names'
    if found == '"':
        return "the space name has no closing double quote (names cannot span lines)"
    if found == "." and not rest[1:].strip():
        return 'effects do not end with a full stop: remove the "."'
    if found == "," and previous.lstrip("-").isdigit() and rest[1:2].isdigit():
        return f'write numbers without separators: "{previous}{rest[1:].split()[0].rstrip(";|")}"'
    if found == "-" and "NUMBER" in expected:
        return 'write the minus sign next to the number: "-3"'
    if found == "=":
        return '"=" compares two amounts in a condition (if cash = 0 then ...); a rent change is written "with rent x2"'
    if found == "choose":
        return '"choose:" can only start an effect, once: a choice cannot be nested or follow another statement'
    if len(words) >= 2 and words[-2] == "rolled" and previous == "then":
        return 'after "rolled" comes a face of the extra die, then "then": "if rolled bus then collect 50"'
    if previous == "rolled" and found[:1].isdigit():
        return f'"rolled" takes a symbol face; a number is read with "die": "if die 3 = {found} then ..."'
    if found == "rent" and previous in (";", ""):
        return 'a rent change belongs to the move: write "advance to nearest railroad with rent x2"'
    if found == "x" and previous == "rent" and after_found.isdigit():
        return f'write the multiplier without a space: "x{after_found}"'

    # A bare space name followed by more text: most likely a name of several words.
    if len(words) >= 2 and words[-2] == "to" and previous[:1].isalpha() and previous != "nearest":
        start = before[-1][1]
        name = re.split(r";|\||\swith\s", text[start:], maxsplit=1)[0].strip()
        if name != previous:
            return f'put a space name of more than one word in double quotes: "{name}"'
    if len(words) >= 2 and words[-2] in ("per", "nearest") and found[:1].isalpha():
        if found == "owned":
            return f'"per {previous}" already counts the spaces the player owns: remove "owned"'
        return f'kind and group keys are one word: did you mean "{previous}_{found}"?'

    if found[:1].isalpha():
        accepted = sorted(
            value[1:-1]
            for value in (_terminal_words().get(name, "") for name in expected)
            if value.startswith('"') and value[1:-1].isalpha()
        )
        if found.lower() in accepted:
            return f'keywords are lowercase: write "{found.lower()}"'
        close = difflib.get_close_matches(found.lower(), accepted, n=1, cutoff=0.7)
        if close:
            return f'did you mean "{close[0]}"?'
    return None
