"""The data side: ruleset files -> a checked, frozen :class:`Ruleset`.

Never imports the game side.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from ..suggest import suggestion_budget
from .compose import Builtin, RulesetNotFound, builtin_rulesets, compose, find_ruleset, is_builtin_name
from .model import DEFAULTS, Card, Deck, Group, Rules, Ruleset, Space, Trigger, build_ruleset
from .problems import ERROR, MAX_PROBLEMS, NOTE, WARNING, Problem, RulesetError, cap_per_file
from .semantics import check_composed

PathOrName = str | os.PathLike[str]


def check_ruleset(
    name_or_path: PathOrName, variants: Sequence[PathOrName] = (), *, max_problems: int | None = MAX_PROBLEMS
) -> tuple[Ruleset | None, list[Problem]]:
    """Load and check a ruleset; return it (None if it has errors) and every problem found.

    At most ``max_problems`` problems of each file are returned (None: all),
    then one note (severity ``note``, code ``more-problems``) counting the rest.
    Warnings do not stop a ruleset from loading. Raises :class:`RulesetNotFound`
    for a name or path that does not exist (a usage error, not a problem in a file).
    """
    with suggestion_budget():
        try:
            composed = compose(name_or_path, variants, max_problems=max_problems)
        except RulesetError as exc:
            return None, cap_per_file(exc.problems, max_problems)
        problems, effects = check_composed(composed)
    problems = cap_per_file(problems, max_problems)
    if any(p.severity == ERROR for p in problems):
        return None, problems
    ruleset = build_ruleset(composed.data, effects, tuple(composed.variants),
                            tuple(doc.file for doc in composed.documents))
    return ruleset, problems


def load_ruleset(name_or_path: PathOrName, variants: Sequence[PathOrName] = ()) -> Ruleset:
    """Load a built-in ruleset by name (``"classic"``) or a file by path, with variants applied.

    >>> ruleset = load_ruleset("classic", variants=["free-parking-jackpot"])
    >>> ruleset.space("Boardwalk").price, ruleset.rules.fees_to
    (400, 'pot')

    Raises :class:`RulesetError` listing every problem when the files are not valid.
    """
    ruleset, problems = check_ruleset(name_or_path, variants)
    if ruleset is None:
        raise RulesetError(problems)
    return ruleset


__all__ = [
    "DEFAULTS",
    "ERROR",
    "MAX_PROBLEMS",
    "NOTE",
    "WARNING",
    "Builtin",
    "Card",
    "Deck",
    "Group",
    "Problem",
    "Rules",
    "Ruleset",
    "RulesetError",
    "RulesetNotFound",
    "Space",
    "Trigger",
    "builtin_rulesets",
    "check_ruleset",
    "find_ruleset",
    "is_builtin_name",
    "load_ruleset",
]
