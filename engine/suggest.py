"""Suggestions for a misspelt name ("did you mean ..."): the one home of them, for the loader, the schema,
the semantic checks of a ruleset and the effect language's checks. Bounded, so that a hostile file cannot make
them slow: a word or choices too long or too many get none, and one check makes at most a budget of them.
"""

from __future__ import annotations

import contextlib
import contextvars
import difflib
import itertools
from collections.abc import Iterator
from typing import Any

#: "Did you mean" costs time by the square of the names' length: past these, no suggestion is made.
MAX_SUGGEST_LENGTH = 40
MAX_SUGGEST_CHOICES = 500
#: How many suggestions one check of a ruleset may make (a hostile file may ask for thousands).
SUGGESTIONS_PER_CHECK = 50
_budget: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar("suggestions", default=None)


@contextlib.contextmanager
def suggestion_budget(count: int = SUGGESTIONS_PER_CHECK) -> Iterator[None]:
    """Within the block, :func:`closest` makes at most ``count`` suggestions (then it says nothing)."""
    token = _budget.set([count])
    try:
        yield
    finally:
        _budget.reset(token)


def closest(word: str, choices: Any) -> str | None:
    """The choice closest to ``word`` for a "did you mean", or None. A difference of case alone always wins.

    None, at once, for a word longer than ``MAX_SUGGEST_LENGTH``, for more than ``MAX_SUGGEST_CHOICES``
    choices, or once the check's :func:`suggestion_budget` is spent: a hostile file cannot make it slow.
    """
    budget = _budget.get()
    if len(word) > MAX_SUGGEST_LENGTH or (budget is not None and budget[0] <= 0):
        return None
    listed = [str(c) for c in itertools.islice(choices, MAX_SUGGEST_CHOICES + 1)]
    if len(listed) > MAX_SUGGEST_CHOICES:
        return None
    if budget is not None:
        budget[0] -= 1
    by_lower: dict[str, str] = {}
    for choice in sorted(c for c in listed if len(c) <= 2 * MAX_SUGGEST_LENGTH):
        by_lower.setdefault(choice.lower(), choice)
    if word.lower() in by_lower:
        return by_lower[word.lower()]
    if word in listed:
        return None
    close = difflib.get_close_matches(word, list(by_lower.values()), n=1, cutoff=0.6)
    if not close:
        close = [by_lower[c] for c in difflib.get_close_matches(word.lower(), list(by_lower), n=1, cutoff=0.6)]
    return close[0] if close else None


