"""Reading JSON that anyone may have written: bounded, strict, and quiet about what it read.

Save files and event logs come from other people. Opening one must be as safe
as opening a picture: no traceback, no unbounded time or memory, and a message
that says where the problem is without printing the file back (at most a short
excerpt, its control characters escaped). :func:`parse_json` refuses, with the
line and column:

* invalid JSON;
* nesting deeper than ``max_depth`` (checked before decoding, in linear time:
  a 100,000-deep array would otherwise make :func:`json.loads` overflow the stack);
* a key written twice in one object;
* ``NaN``, ``Infinity`` and ``-Infinity``, and numbers that overflow to infinity (``1e400``);
* integers of more than :data:`MAX_INT_DIGITS` digits;
* control characters (C0, DEL, C1: ESC, NUL, BEL...) and lone surrogates in
  strings, which would reach a terminal or fail to print.

>>> parse_json('{"a": [1, 2.5, "x"]}', source="in.json")
{'a': [1, 2.5, 'x']}
>>> parse_json('{"a": 1,\\n "a": 2}', source="in.json")
Traceback (most recent call last):
...
monopoly.game.jsonin.JsonInputError: in.json:2:2: the key 'a' is written twice in the object at the top level
>>> parse_json('{"a": ' + '[' * 100_000, source="deep.json")
Traceback (most recent call last):
...
monopoly.game.jsonin.JsonInputError: deep.json:1:70: nested deeper than 64 levels (at a[0][0]...)
>>> parse_json('{"name": "\\\\u001b[2J"}', source="in.json")
Traceback (most recent call last):
...
monopoly.game.jsonin.JsonInputError: in.json:1:10: the string at name holds the control character U+001B (ESC)
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
from itertools import accumulate
from typing import Any

from .._mypyc import mypyc_attr
from ..files import NotRegularFile, open_regular

#: The most digits an integer may have (money, seeds and counts are far shorter).
MAX_INT_DIGITS = 30
#: The default deepest nesting of arrays and objects.
MAX_DEPTH = 64
#: The longest excerpt of the input a message quotes.
EXCERPT = 60

_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
# A string, tolerating one that never ends (it then runs to the end of the text); linear, no backtracking.
_STRING_RE = r'"[^"\\]*(?:\\.[^"\\]*)*"?'
_STRING = re.compile(_STRING_RE, re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_TOKEN = re.compile(_STRING_RE + r'|[\[\]{}:,]|[^\s\[\]{}:,"]+', re.DOTALL)
_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?")
# Characters no decoded string may hold: C0 controls, DEL, C1 controls and (lone) surrogates.
_BAD_CHARS = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_CONTROL_NAMES = {0x00: "NUL", 0x07: "BEL", 0x08: "BS", 0x09: "TAB", 0x0A: "LF", 0x0B: "VT", 0x0C: "FF",
                  0x0D: "CR", 0x1B: "ESC", 0x7F: "DEL", 0x9B: "CSI"}
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,39}")


@mypyc_attr(native_class=False)
class JsonInputError(ValueError):
    """JSON input refused: ``str()`` reads ``source:line:column: message``.

    ``line`` and ``column`` count from 1 (both None when the problem is the
    whole input, such as its size); ``path`` is where in the data it is
    (``state.cash[2]``, "" for the top level), or None when unknown.
    """

    def __init__(self, message: str, *, source: str, line: int | None = None, column: int | None = None,
                 path: str | None = None):
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        self.path = path
        where = source if line is None else f"{source}:{line}" if column is None else f"{source}:{line}:{column}"
        super().__init__(f"{where}: {message}")


# ---------------------------------------------------------------------- showing input in messages


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """``text`` quoted for a message: control and invisible characters escaped, at most about ``limit`` long.

    >>> excerpt("plain")
    "'plain'"
    >>> excerpt("\\x1b[31mred")
    "'\\\\x1b[31mred'"
    >>> len(excerpt("x" * 10_000)) <= 64
    True
    """
    out: list[str] = []
    size = 0
    for ch in text[:limit]:
        piece = ch if ch.isprintable() and ch not in "\\'" else ("\\" + ch if ch in "\\'" else repr(ch)[1:-1])
        if size + len(piece) > limit:
            out.append("…")
            break
        out.append(piece)
        size += len(piece)
    else:
        if len(text) > limit:
            out.append("…")
    return "'" + "".join(out) + "'"


def describe(value: Any) -> str:
    """A short, safe description of a decoded JSON value for a message (never the whole value).

    >>> describe(True), describe(None), describe(-5), describe("x"), describe([1, 2]), describe({"a": 1})
    ('true', 'null', '-5', "'x'", 'a list of 2 items', 'an object of 1 key')
    >>> describe(10**5000)
    'a number of about 5001 digits'
    """
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int):
        if value.bit_length() > 96:
            return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
        return str(int(value))
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "-Infinity" if value < 0 else "Infinity"
        return repr(value)
    if isinstance(value, str):
        return excerpt(value, 40)
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)} item{'' if len(value) == 1 else 's'}"
    if isinstance(value, dict):
        return f"an object of {len(value)} key{'' if len(value) == 1 else 's'}"
    return f"a value of type {type(value).__name__}"


def format_path(parts: list[str | int]) -> str:
    """``["state", "cash", 2]`` as ``state.cash[2]``; keys that are not plain names are quoted."""
    out = []
    for part in parts:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif _IDENTIFIER.fullmatch(part):
            out.append(f".{part}" if out else part)
        else:
            out.append(f"[{excerpt(part, 30)}]")
    return "".join(out)


def char_name(ch: str) -> str:
    """``U+001B (ESC)``, ``U+0085 (a C1 control)``, ``U+D800 (a lone surrogate)``."""
    code = ord(ch)
    if 0xD800 <= code <= 0xDFFF:
        return f"U+{code:04X} (a lone surrogate)"
    name = _CONTROL_NAMES.get(code, "a C1 control" if code >= 0x80 else "a control character")
    return f"U+{code:04X} ({name})"


# ---------------------------------------------------------------------- reading


@mypyc_attr(native_class=False)
class _Refused(Exception):
    """Raised by a decoding hook; the text is then walked to say what and where."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise _Refused
    return obj


def _float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise _Refused
    return value


def _constant(name: str) -> Any:
    raise _Refused


# The decoder's scanner, called directly: JSONDecoder.decode costs as much again around it.
_scan = json.JSONDecoder(object_pairs_hook=_pairs, parse_float=_float,
                         parse_constant=_constant).scan_once  # type: ignore[attr-defined]
_WHITESPACE = re.compile(r"[ \t\n\r]*")
# Cheap first looks for what the exact walk refuses (each a single character class or run: fast to search).
_RAW_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_LONG_DIGITS = re.compile(f"[0-9]{{{MAX_INT_DIGITS + 1}}}")


def _skip_space(text: str, pos: int) -> int:
    match = _WHITESPACE.match(text, pos)
    return match.end() if match is not None else pos


@functools.lru_cache(maxsize=8)
def _escapes(allow: str) -> re.Pattern[str]:
    """Escapes that may decode to a refused character (``\\u001b``, ``\\b``...), ``allow`` left out."""
    short = "".join(c for c in "bfnrt" if json.loads(f'"\\{c}"') not in allow)
    return re.compile(r"\\u(?:00[01]|00[89]|007[fF]|[dD][89a-fA-F])" + (f"|\\\\[{short}]" if short else ""))


def parse_json(text: str, *, source: str, max_depth: int = MAX_DEPTH, allow: str = "") -> Any:
    """The value of the JSON ``text``, or :class:`JsonInputError` naming ``source``, the line and the column.

    ``allow`` lists control characters strings may hold after all (a log's card
    texts may have line breaks: ``allow="\\n\\t"``). Valid input costs little
    more than :func:`json.loads`: the exact checks run only on text with many
    brackets, or with something in it that looks refused.
    """
    if len(text) > max_depth and text.count("[") + text.count("{") > max_depth:
        _check_depth(text, source, max_depth, allow)
    try:
        value, end = _scan(text, _skip_space(text, 0) if text[:1] in " \t\n\r" else 0)
        if end != len(text):
            end = _skip_space(text, end)
            if end != len(text):
                raise json.JSONDecodeError("Extra data", text, end)
    except StopIteration as exc:
        line, column = location(text, exc.value)
        raise JsonInputError("not valid JSON: Expecting value", source=source, line=line, column=column) from None
    except json.JSONDecodeError as exc:
        raise JsonInputError(f"not valid JSON: {exc.msg}", source=source, line=exc.lineno,
                             column=exc.colno) from None
    except (_Refused, ValueError, RecursionError):  # a hook refused, or an integer past Python's own digit limit
        problem = _find_problem(text, source, allow)
        raise (problem or JsonInputError("the JSON holds a number or key this program refuses",
                                         source=source)) from None
    if (not text.isprintable() and _RAW_BAD.search(text) is not None) or \
            ("\\" in text and _escapes(allow).search(text) is not None) or _LONG_DIGITS.search(text) is not None:
        problem = _find_problem(text, source, allow)
        if problem is not None:
            raise problem
    return value


def decode_utf8(data: bytes, *, source: str) -> str:
    """``data`` as text (a leading byte-order mark dropped), or :class:`JsonInputError` at the first bad byte."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise JsonInputError(f"not UTF-8 text (byte {exc.start + 1} of the file is 0x{data[exc.start]:02x})",
                             source=source, line=line, column=column) from None
    return text[1:] if text.startswith("\ufeff") else text


def read_json_file(path: str | os.PathLike[str], *, max_bytes: int, max_depth: int = MAX_DEPTH,
                   source: str | None = None, allow: str = "", kind: str = "file of this kind") -> Any:
    """The JSON value in the file at ``path``: at most ``max_bytes`` are read, bigger files are refused.

    Every problem (the file cannot be read, is too big, is not UTF-8, or
    :func:`parse_json` refuses it) is a :class:`JsonInputError` whose source is
    ``source`` (by default the path); ``kind`` names the file in the message
    about its size ("save file").
    """
    name = source if source is not None else os.fspath(path)
    try:
        with open_regular(path) as file:  # a pipe or a device is refused, not waited on
            data = file.read(max_bytes + 1)
    except NotRegularFile:
        raise JsonInputError("not a regular file (a pipe, a device or a folder)", source=name) from None
    except OSError as exc:
        raise JsonInputError(f"cannot read the file ({exc.strerror or type(exc).__name__})", source=name) from None
    if len(data) > max_bytes:
        raise JsonInputError(f"the file is larger than {format_size(max_bytes)}, more than a {kind} can be",
                             source=name)
    return parse_json(decode_utf8(data, source=name), source=name, max_depth=max_depth, allow=allow)


def format_size(count: int) -> str:
    """``4 MiB``, ``64 KiB``, ``1,000 bytes``: a size limit in words."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= size and count % size == 0:
            return f"{count // size} {unit}"
    return f"{count:,} bytes"


# ---------------------------------------------------------------------- the slow, exact checks


def location(text: str, pos: int) -> tuple[int, int]:
    """The line and column (from 1, in characters) of offset ``pos`` of ``text``."""
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def _check_depth(text: str, source: str, max_depth: int, allow: str) -> None:
    """Refuse nesting deeper than ``max_depth``, counting brackets outside strings, in linear time."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    if len(brackets) <= max_depth or max(accumulate(map(_STEP.__getitem__, brackets))) <= max_depth:
        return
    problem = _find_problem(text, source, allow, max_depth)
    raise problem or JsonInputError(f"nested deeper than {max_depth} levels", source=source)


def _find_problem(text: str, source: str, allow: str, max_depth: int | None = None) -> JsonInputError | None:
    """Walk the tokens of ``text`` for the first refused nesting, key, string or number, and say where it is."""
    # One frame per open array or object: [is_object, key or index, keys seen, expecting a key]
    stack: list[list[Any]] = []

    def where() -> str:
        parts = [frame[1] for frame in stack if frame[1] is not None]
        found = format_path(parts)
        if not found:
            return "the top level"
        return found if len(found) <= 80 else format_path(parts[:6]) + "…" + format_path(parts[-6:])

    def refuse(message: str, pos: int) -> JsonInputError:
        line, column = location(text, pos)
        full = format_path([frame[1] for frame in stack if frame[1] is not None])
        return JsonInputError(message, source=source, line=line, column=column, path=full)

    for match in _TOKEN.finditer(text):
        token = match.group()
        first = token[0]
        if first == '"':
            frame = stack[-1] if stack else None
            is_key = frame is not None and frame[0] and frame[3]
            if "\\" in token or len(token) < 2 or token[-1] != '"':
                try:
                    value = json.loads(token)
                except ValueError:
                    return None  # not a whole string: the decoder's own error stands
            else:
                value = token[1:-1]
            for bad in _BAD_CHARS.finditer(value):
                if bad.group() not in allow:
                    what = "a key" if is_key else "the string"
                    control = "the control character " if ord(bad.group()) < 0xD800 else ""
                    return refuse(f"{what} at {where()} holds {control}{char_name(bad.group())}", match.start())
            if is_key and frame is not None:
                if value in frame[2]:
                    frame[1] = None
                    return refuse(f"the key {excerpt(value, 40)} is written twice in the object at {where()}",
                                  match.start())
                frame[2].add(value)
                frame[1] = value
                frame[3] = False
        elif first in "[{":
            if max_depth is not None and len(stack) >= max_depth:
                return refuse(f"nested deeper than {max_depth} levels (at {where()})", match.start())
            stack.append([first == "{", None if first == "{" else 0, set(), True])
        elif first in "]}":
            if stack:
                stack.pop()
        elif first == ",":
            if stack:
                frame = stack[-1]
                if frame[0]:
                    frame[1] = None
                    frame[3] = True
                else:
                    frame[1] += 1
        elif first == ":":
            continue
        elif token in ("NaN", "Infinity", "-Infinity"):
            return refuse(f"{token} at {where()} is not a JSON number", match.start())
        else:
            number = _NUMBER.fullmatch(token)
            if number is None:
                continue  # true, false, null, or not JSON (the decoder says so)
            if number.group(1) is None and number.group(2) is None:
                digits = len(token) - token.startswith("-")
                if digits > MAX_INT_DIGITS:
                    return refuse(f"the number at {where()} has {digits} digits (at most {MAX_INT_DIGITS} "
                                  "are read)", match.start())
            elif math.isinf(float(token)):
                return refuse(f"the number at {where()} is too large ({excerpt(token, 30)} is beyond the "
                              "largest floating-point number)", match.start())
    return None
