"""Problems found in ruleset files, reported like a compiler reports errors.

Every check in the ruleset layer collects :class:`Problem` records instead of
stopping at the first; :class:`RulesetError` carries all of them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

import attrs

ERROR = "error"
WARNING = "warning"
#: A remark that is neither: "N more problems are not shown".
NOTE = "note"
#: How much of a source line a problem shows: a window around the column.
EXCERPT_WIDTH = 100
#: The longest message or hint printed; a longer one (a huge key, say) is cut.
MESSAGE_WIDTH = 400
#: Problems shown per file by default; the rest are counted in one closing line.
MAX_PROBLEMS = 100

_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"
                          "\ufffe\uffff]")


def escape(text: str) -> str:
    """``text`` safe for a terminal: control characters (escape sequences, NUL...) written as ``\\x1b``."""
    if not _UNPRINTABLE.search(text):
        return text
    return _UNPRINTABLE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def brief(text: str, width: int = MESSAGE_WIDTH) -> str:
    """``text`` escaped and cut to ``width`` characters (``...`` marks the cut)."""
    text = escape(text)
    return text if len(text) <= width else text[: max(width - 3, 1)] + "..."


def excerpt(line: str, column: int, width: int = EXCERPT_WIDTH) -> tuple[str, int]:
    """A window of at most ``width`` characters of ``line`` around ``column`` (1-based), escaped,
    and the column of the same character in the window."""
    line = line.rstrip("\n").expandtabs(1)
    index = min(max(column - 1, 0), len(line))
    start = 0
    if len(line) > width:
        start = min(max(index - width // 2, 0), len(line) - width)
    window = line[start: start + width]
    prefix, suffix = ("..." if start > 0 else ""), ("..." if start + width < len(line) else "")
    before = escape(window[: index - start])
    caret = len(prefix) + sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in before)
    return prefix + escape(window) + suffix, caret + 1


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
    #: On a "more problems" note: how many problems it stands for, and whether that count is exact.
    hidden: int = 0
    hidden_exact: bool = True

    def format(self) -> str:
        """The compiler-style text form: location, message, source line, caret, hint.

        Bounded whatever the file holds: the message and hint are cut to
        ``MESSAGE_WIDTH``, the source line to a window of ``EXCERPT_WIDTH``
        characters around the column, and control characters are escaped.
        """
        out = [f"{escape(self.file)}:{self.line}:{self.column}: {self.severity}: {brief(self.message)}"]
        if self.source_line is not None:
            shown, caret = excerpt(self.source_line, self.column)
            out.append(f"  {shown}")
            out.append("  " + " " * (caret - 1) + "^")
        if self.hint:
            out.append(f"  hint: {brief(self.hint)}")
        return "\n".join(out)

    def to_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "path": brief(self.path, 200),
            "severity": self.severity,
            "code": self.code,
            "message": brief(self.message),
            "hint": brief(self.hint) if self.hint is not None else None,
        }


def sort_key(problem: Problem) -> tuple[str, bool, int, int, str]:
    """File by file, in the order of the text; a closing note last in its file."""
    return (problem.file, problem.severity == NOTE, problem.line, problem.column, problem.message)


def more_problems(file: str, count: int, *, exact: bool = True) -> Problem:
    """The closing note of a file whose problems were cut at the limit."""
    counted = f"{count:,}" if exact else f"more than {count:,}"
    return Problem(file, 1, 1, "more-problems", f"{counted} more problems in this file are not shown",
                   "fix these first, or show more with --max-problems N (0 shows all)", severity=NOTE,
                   hidden=count, hidden_exact=exact)


def cap_per_file(problems: Iterable[Problem], limit: int | None) -> list[Problem]:
    """At most ``limit`` problems of each file (None: all), in order; the rest counted in one note per file.

    Notes already made (by a check that stopped early) are merged into the count.
    """
    ordered = sorted(problems, key=sort_key)
    if limit is None:
        return ordered
    kept: list[Problem] = []
    shown: dict[str, int] = {}
    hidden: dict[str, tuple[int, bool]] = {}
    for problem in ordered:
        count, exact = hidden.get(problem.file, (0, True))
        if problem.code == "more-problems":
            hidden[problem.file] = (count + problem.hidden, exact and problem.hidden_exact)
        elif shown.get(problem.file, 0) < limit:
            shown[problem.file] = shown.get(problem.file, 0) + 1
            kept.append(problem)
        else:
            hidden[problem.file] = (count + 1, exact)
    kept.extend(more_problems(file, count, exact=exact) for file, (count, exact) in hidden.items())
    return sorted(kept, key=sort_key)


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
