"""Problems found in ruleset files, reported like a compiler reports errors.

Every check in the ruleset layer collects :class:`Problem` records instead of
stopping at the first; :class:`RulesetError` carries all of them.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

ERROR = "error"
WARNING = "warning"


@attrs.frozen
class Problem:
    """One thing wrong with a ruleset file, at a 1-based line and column.

    ``path`` is the place in the document (``board[4].effect``); ``source_line``
    is the text of that line, for the caret display.
    """

    file: str
    line: int
    column: int
    code: str
    message: str
    hint: str | None = None
    path: str = ""
    severity: str = ERROR
    source_line: str | None = None

    def format(self) -> str:
        """The compiler-style text form: location, message, source line, caret, hint."""
        out = [f"{self.file}:{self.line}:{self.column}: {self.severity}: {self.message}"]
        if self.source_line is not None:
            line = self.source_line.rstrip("\n").expandtabs(1)
            out.append(f"  {line}")
            out.append("  " + " " * max(self.column - 1, 0) + "^")
        if self.hint:
            out.append(f"  hint: {self.hint}")
        return "\n".join(out)

    def to_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "path": self.path,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
        }


def sort_key(problem: Problem) -> tuple[str, int, int, str]:
    return (problem.file, problem.line, problem.column, problem.message)


class RulesetError(Exception):
    """A ruleset could not be loaded; ``problems`` lists every reason found."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems = sorted(problems, key=sort_key)
        errors = [p for p in self.problems if p.severity == ERROR]
        first = errors[0] if errors else (self.problems[0] if self.problems else None)
        summary = first.format().splitlines()[0] if first else "invalid ruleset"
        more = len(errors) - 1
        super().__init__(summary + (f" (and {more} more)" if more > 0 else ""))


def describe_type(value: object) -> str:
    """How a problem names the type of a value: "a whole number", "text", "a list"..."""
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    if value is None:
        return "nothing"
    return type(value).__name__


def format_path(path: tuple[object, ...]) -> str:
    """``("board", 4, "effect")`` -> ``board[4].effect``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out
