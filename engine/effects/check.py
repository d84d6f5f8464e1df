"""Static checks of a parsed effect against the names a ruleset defines.

`check_effect` returns every problem it finds (not just the first), each with the
1-based line and column of the offending name inside the effect text and, when a
known name is close, a "did you mean" hint.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import attrs

from ..ruleset.problems import closest
from . import ast
from .parse import EffectSyntaxError, parse_effect

__all__ = ["WHERE", "EffectNames", "EffectProblem", "check_effect", "parse_and_check", "suggest"]

# Where an effect can be written: on a card, on a board space, or in a trigger.
WHERE = frozenset({"card", "space", "trigger"})


@attrs.frozen
class EffectNames:
    """The names an effect may refer to, taken from one ruleset."""

    spaces: tuple[str, ...] = attrs.field(converter=tuple)  # board order
    kinds: frozenset[str] = attrs.field(converter=frozenset)  # space kinds used on this board
    groups: frozenset[str] = attrs.field(converter=frozenset)  # group keys
    decks: frozenset[str] = attrs.field(converter=frozenset)  # deck keys


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
    :func:`monopoly.ruleset.problems.closest`)."""
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


def check_effect(effect: ast.Effect, names: EffectNames, where: str) -> list[EffectProblem]:
    """Every problem of `effect` in a ruleset with these `names`, in text order.

    `where` is "card", "space" or "trigger": some statements only make sense on a card.
    """
    if where not in WHERE:
        raise ValueError(f"where must be one of {sorted(WHERE)}, not {where!r}")
    problems = [problem for statement in effect.statements() for problem in _check(statement, names, where)]
    problems.sort(key=lambda problem: (problem.line, problem.column))
    return problems


def _check(statement: ast.Statement, names: EffectNames, where: str) -> Iterator[EffectProblem]:
    kinds_and_groups = names.kinds | names.groups
    if isinstance(statement, (ast.Collect, ast.Pay)):
        for term in statement.amount.terms:
            if isinstance(term, ast.PerOwned) and term.name not in kinds_and_groups:
                # "per houses" is a plausible slip for the building counts.
                candidates = kinds_and_groups | ast.BUILDING_WORDS
                yield _unknown_kind_or_group(term.name, term.line, term.column, candidates)
    elif isinstance(statement, (ast.AdvanceTo, ast.GoBackTo)):
        target = statement.target
        if isinstance(target, ast.SpaceTarget) and target.name not in names.spaces:
            yield EffectProblem(
                "unknown-space",
                f'unknown space "{target.name}"',
                _unknown_hint(target.name, names.spaces),
                target.line,
                target.column,
            )
        elif isinstance(target, ast.NearestTarget) and target.name not in kinds_and_groups:
            yield _unknown_kind_or_group(target.name, target.line, target.column, kinds_and_groups)
    elif isinstance(statement, ast.Draw) and statement.deck not in names.decks:
        yield EffectProblem(
            "unknown-deck",
            f'unknown deck "{statement.deck}"',
            _unknown_hint(statement.deck, names.decks, list_up_to=8),
            statement.line,
            statement.column,
        )
    elif isinstance(statement, ast.Keep) and where != "card":
        yield EffectProblem(
            "keep-outside-card",
            f'"keep" only works on a card (it keeps the card), not in a {where} effect',
            None,
            statement.line,
            statement.column,
        )


def _unknown_kind_or_group(name: str, line: int, column: int, candidates: Iterable[str]) -> EffectProblem:
    return EffectProblem(
        "unknown-kind-or-group",
        f'unknown space kind or group "{name}"',
        _unknown_hint(name, candidates, list_up_to=12),
        line,
        column,
    )


def parse_and_check(text: str, names: EffectNames, where: str) -> tuple[ast.Effect | None, list[EffectProblem]]:
    """Parse and check in one step; a syntax error becomes one problem with code "syntax"."""
    try:
        effect = parse_effect(text)
    except EffectSyntaxError as error:
        return None, [EffectProblem("syntax", error.message, error.hint, error.line, error.column)]
    return effect, check_effect(effect, names, where)
