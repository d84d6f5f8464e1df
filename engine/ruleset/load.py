"""YAML text -> plain data with source marks, refusing hostile or broken files.

PyYAML's safe parser produces events; this module builds the data from them
itself instead of calling ``safe_load`` so that it can

* keep the 1-based line and column of every key and value (``Document.marks``),
* refuse duplicate keys (``safe_load`` silently keeps the last),
* refuse deep nesting before anything recursive runs,
* count aliases and the size they expand to (a "billion laughs" file is refused
  long before anything walks the expanded tree),
* read mapping keys as the text written (``on:`` stays ``"on"``, not ``True``),
* count lines as editors do (only ``\\n`` ends a line: a file holding U+2028,
  U+0085 or a lone carriage return is refused, located, instead of being
  numbered differently by the YAML reader and by the designer's editor).

A file from a stranger must be as harmless as a picture (docs/security.md): only
the plain tags are constructed (text, whole numbers, numbers, true/false, null;
a ``!!python/...``, ``!!set`` or ``!!binary`` tag is an error, and so is a value
its tag cannot read, such as ``!!int abc``); NaN and infinities, control
characters and terminal escapes in text are refused; and a file that is not a
ruleset at all (not YAML, not a mapping, no ``id:``) is refused with one line
that never quotes it.
"""

from __future__ import annotations

import math
import os
import re
from typing import Any, cast

import attrs
import yaml

from .problems import Problem, RulesetError, brief, describe_type

MAX_BYTES = 1024 * 1024
MAX_DEPTH = 64
MAX_ALIASES = 100
#: A large edition has a few thousand values (classic: about 600).
MAX_NODES = 20_000

Path = tuple[Any, ...]

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_RESOLVER = yaml.resolver.Resolver()
_CONSTRUCTOR = yaml.constructor.SafeConstructor()

#: The tags a scalar may carry, explicitly or as resolved: nothing that builds objects.
_SCALAR_TAGS = {f"tag:yaml.org,2002:{name}": name for name in ("str", "int", "float", "bool", "null")}
#: Characters no ruleset needs, that a terminal may obey, or that editors and YAML count differently as
#: line ends: C0 controls but tab and line feed, DEL, C1 controls, surrogates, U+2028/9, U+FFFE/F, the
#: bidirectional embeddings, overrides and isolates (U+202A-E, U+2066-9: they make a name show reversed or
#: spoofed), and a carriage return not followed by a line feed.
_BAD_CHARACTER = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069"
                            "\ufffe\uffff]|\r(?!\n)")
#: The same inside a value: tabs and line feeds are text; a value may not hold a line end of another kind.
_BAD_IN_VALUE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069"
                           "\ufffe\uffff]")
_CHARACTER_NAMES = {"\x00": "NUL", "\x1b": "ESCAPE", "\x7f": "DELETE", "\x85": "NEXT LINE", "\r": "CARRIAGE RETURN",
                    "\u2028": "LINE SEPARATOR", "\u2029": "PARAGRAPH SEPARATOR", "\ufeff": "BYTE ORDER MARK",
                    "\u202e": "RIGHT-TO-LEFT OVERRIDE", "\u202d": "LEFT-TO-RIGHT OVERRIDE"}


def character_name(char: str) -> str:
    """``U+001B (ESCAPE)``: how a problem names a character it cannot show."""
    name = _CHARACTER_NAMES.get(char)
    return f"U+{ord(char):04X}" + (f" ({name})" if name else "")


@attrs.frozen
class Mark:
    """A 1-based position in a file."""

    line: int
    column: int


@attrs.frozen(eq=False)
class Document:
    """One YAML file as plain data, with where each key and value was written."""

    file: str
    data: Any = attrs.field(repr=False)
    lines: tuple[str, ...] = attrs.field(repr=False)
    value_marks: dict[Path, Mark] = attrs.field(repr=False)
    key_marks: dict[Path, Mark] = attrs.field(repr=False)

    def mark(self, path: Path, *, key: bool = False) -> Mark:
        """Where ``path`` was written; the nearest enclosing place if it was not."""
        if key and path in self.key_marks:
            return self.key_marks[path]
        while True:
            if path in self.value_marks:
                return self.value_marks[path]
            if not path:
                return Mark(1, 1)
            path = path[:-1]

    def source_line(self, line: int) -> str | None:
        if 1 <= line <= len(self.lines):
            return self.lines[line - 1]
        return None

    def problem(self, path: Path, code: str, message: str, hint: str | None = None,
                *, key: bool = False, severity: str = "error", offset: Mark | None = None) -> Problem:
        """A problem located at ``path`` (its key with ``key=True``)."""
        from .problems import format_path

        mark = self.mark(path, key=key)
        if offset is not None:
            mark = offset
        return Problem(
            file=self.file,
            line=mark.line,
            column=mark.column,
            code=code,
            message=message,
            hint=hint,
            path=format_path(path),
            severity=severity,
            source_line=self.source_line(mark.line),
        )


def display_path(path: str | os.PathLike[str]) -> str:
    """The path as a person would type it: relative to the working folder when inside it."""
    path = os.fspath(path)
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return path
    return path if rel.startswith("..") else rel


def load_file(path: str | os.PathLike[str]) -> Document:
    """Read and parse one ruleset file; raise :class:`RulesetError` if it is unusable.

    Only a regular file is read, and at most ``MAX_BYTES`` + 1 bytes of it (a
    device, a pipe or a folder is refused: it could block or never end). A
    missing file raises ``FileNotFoundError`` (callers report it as a usage error).
    """
    name = display_path(path)
    return load_bytes(read_regular_file(path, MAX_BYTES, name), name)


def read_regular_file(path: str | os.PathLike[str], limit: int, name: str) -> bytes:
    """At most ``limit`` + 1 bytes of a regular file; :class:`RulesetError` for a pipe, a device or a folder
    (:func:`monopoly.files.open_regular`: a file swapped for a pipe after a check cannot hang the program)."""
    from ..files import NotRegularFile, open_regular

    try:
        with open_regular(path) as handle:
            return handle.read(limit + 1)
    except NotRegularFile:
        raise RulesetError([Problem(name, 1, 1, "not-a-file", f"{name} is not a regular file",
                                    "give the path of a .yaml file")]) from None


def load_bytes(raw: bytes, name: str, *, require_id: bool = True) -> Document:
    """Parse ruleset bytes; ``name`` is the file name used in problems.

    ``require_id=False`` reads a mapping that is not a ruleset of its own (the
    package's ``base/defaults.yaml``); every other check holds.
    """

    def fail(code: str, message: str, hint: str | None = None, line: int = 1, column: int = 1,
             source: str | None = None) -> RulesetError:
        return RulesetError([Problem(name, line, column, code, message, hint, source_line=source)])

    if len(raw) > MAX_BYTES:
        raise fail("too-large", f"file is larger than {MAX_BYTES // 1024} KiB",
                   "a ruleset is a few dozen KiB; split it with `extends` if it really is this big")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        # Located, but not quoted: a file that is not UTF-8 text may not be a ruleset at all.
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
        raise fail("encoding", f"byte 0x{raw[exc.start]:02x} is not valid UTF-8",
                   "save the file as UTF-8 text", line, column) from None
    bad = _BAD_CHARACTER.search(text)
    if bad is not None:
        offset = bad.start()
        line = text.count("\n", 0, offset) + 1
        column = offset - text.rfind("\n", 0, offset)
        char = bad.group()
        if char == "\x00":
            raise fail("encoding", "the file holds a NUL character: is it a binary file?", None, line, column)
        hint: str | None
        if char in "\r\x85\u2028\u2029":
            hint = "end lines with a plain line feed (LF, or CR LF); editors and YAML count this one differently"
        else:
            hint = "remove it: a ruleset holds printable text only"
        # located, not quoted: nothing has shown yet that this is a ruleset
        raise fail("bad-character", f"the file holds the character {character_name(char)}", hint, line, column)
    lines = tuple(line.removesuffix("\r") for line in text.split("\n"))
    builder = _Builder(name, lines, require_id)
    try:
        data = builder.build(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        column = mark.column + 1 if mark else 1
        message: str = exc.problem or exc.context or "invalid YAML"
        if exc.context and exc.problem:
            message = f"{exc.problem} ({exc.context})"
        if ("id",) not in builder.key_marks and require_id:
            # Nothing says this is a ruleset: say where YAML failed, but show none of it.
            raise fail("not-a-ruleset", f"not a ruleset file: it is not valid YAML before any `id:` key "
                       f"({brief(message, 80)})",
                       "a ruleset is a YAML mapping that starts with `id:` and `name:`", line, column) from None
        source = lines[line - 1] if 0 < line <= len(lines) else None
        hint = _yaml_hint(message)
        if source is not None and "\t" in source[: column]:
            hint = "indent with spaces, not tabs"
        raise fail("yaml", f"invalid YAML: {message}", hint, line, column, source) from None
    except yaml.YAMLError as exc:
        position = getattr(exc, "position", None)
        if isinstance(position, int) and 0 <= position <= len(text):
            line = text.count("\n", 0, position) + 1
            raise fail("yaml", f"invalid YAML: {brief(str(exc).split(chr(10))[0], 120)}", None, line,
                       position - text.rfind("\n", 0, position)) from None
        raise fail("yaml", f"invalid YAML: {brief(str(exc), 120)}") from None
    return Document(name, data, lines, builder.value_marks, builder.key_marks)


def _yaml_hint(message: str) -> str | None:
    if "mapping values are not allowed" in message:
        return "a value that contains ': ' must be quoted, e.g. text: \"Note: ...\""
    if "could not find expected ':'" in message:
        return "a key needs a ':' after it; a line of text may need quotes"
    return None


class _Builder:
    """Builds plain data from the safe parser's events."""

    def __init__(self, name: str, lines: tuple[str, ...], require_id: bool = True):
        self.name = name
        self.lines = lines
        self.require_id = require_id
        self.value_marks: dict[Path, Mark] = {}
        self.key_marks: dict[Path, Mark] = {}
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.aliases = 0
        self.nodes = 0

    def error(self, code: str, message: str, mark: Any, hint: str | None = None, *,
              quiet: str | None = None) -> RulesetError:
        """A problem at ``mark``. Until the file has shown it is a ruleset (its top-level ``id:`` key), it
        quotes nothing of it: no source line, and ``quiet`` (the message without the key or value) instead
        of ``message``."""
        line, column = mark.line + 1, mark.column + 1
        source = self.lines[line - 1] if 0 < line <= len(self.lines) else None
        if self.require_id and ("id",) not in self.key_marks:
            source = None
            message = "not a ruleset file (no `id:` key before this): " + (quiet if quiet is not None else message)
            hint = "a ruleset is a YAML mapping that starts with `id:` and `name:`"
        return RulesetError([Problem(self.name, line, column, code, message, hint, source_line=source)])

    def build(self, text: str) -> Any:
        loader = _Loader(text)
        try:
            self._expect(loader, yaml.StreamStartEvent)
            if loader.check_event(yaml.StreamEndEvent):
                raise RulesetError([Problem(self.name, 1, 1, "empty", "the file is empty",
                                            "a ruleset is a mapping that starts with `id:` and `name:`")])
            self._expect(loader, yaml.DocumentStartEvent)
            data, _ = self._node(loader, (), 0)
            self._expect(loader, yaml.DocumentEndEvent)
            if not loader.check_event(yaml.StreamEndEvent):
                event = loader.get_event()
                raise self.error("multiple-documents", "the file holds more than one YAML document",
                                 event.start_mark, "remove the `---` line and everything after it")
        finally:
            loader.dispose()
        if data is None:
            raise RulesetError([Problem(self.name, 1, 1, "empty", "the file is empty (it holds only comments)",
                                        "a ruleset is a mapping that starts with `id:` and `name:`")])
        if not isinstance(data, dict):
            mark = self.value_marks.get((), Mark(1, 1))
            raise RulesetError([Problem(self.name, mark.line, mark.column, "not-a-mapping",
                                        "not a ruleset file: it must hold a mapping of keys, "
                                        f"not {describe_type(data)}",
                                        "start with `id: my-edition` and `name: My Edition`")])
        if "id" not in data and self.require_id:
            raise RulesetError([Problem(self.name, 1, 1, "not-a-ruleset",
                                        "not a ruleset file: it has no `id:` key, so none of it is shown",
                                        "a ruleset is a YAML mapping that starts with `id:` and `name:`")])
        return data

    @staticmethod
    def _expect(loader: Any, kind: type) -> Any:
        event = loader.get_event()
        if not isinstance(event, kind):  # the parser guarantees the structure
            raise yaml.YAMLError(f"unexpected {type(event).__name__}")
        return event

    def _count(self, amount: int, mark: Any) -> None:
        self.nodes += amount
        if self.nodes > MAX_NODES:
            hint = ("aliases that refer to aliases multiply; write the values out instead" if self.aliases else
                    "a large edition has a few thousand values (classic: about 600)")
            raise self.error("too-many-nodes", f"the document expands to more than {MAX_NODES:,} values", mark, hint)

    def _node(self, loader: Any, path: Path, depth: int) -> tuple[Any, int]:
        """Build the next node; return its data and its size in values."""
        event = loader.get_event()
        mark = Mark(event.start_mark.line + 1, event.start_mark.column + 1)
        if isinstance(event, yaml.AliasEvent):
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                raise self.error("too-many-aliases", f"more than {MAX_ALIASES} aliases", event.start_mark,
                                 "a ruleset needs few aliases, if any")
            if event.anchor not in self.anchors:
                raise self.error("yaml", f"unknown alias *{brief(str(event.anchor), 40)}", event.start_mark,
                                 quiet="an unknown alias")
            data, size = self.anchors[event.anchor]
            self._count(size, event.start_mark)
            self.value_marks[path] = mark
            return data, size
        if depth > MAX_DEPTH:
            raise self.error("too-deep", f"values are nested more than {MAX_DEPTH} levels deep", event.start_mark)
        self.value_marks[path] = mark
        anchor = getattr(event, "anchor", None)
        if isinstance(event, yaml.ScalarEvent):
            self._count(1, event.start_mark)
            data, size = self._scalar(event), 1
        elif isinstance(event, yaml.SequenceStartEvent):
            self._check_tag(event, "tag:yaml.org,2002:seq")
            data, size = [], 1
            self._count(1, event.start_mark)
            while not loader.check_event(yaml.SequenceEndEvent):
                item, item_size = self._node(loader, path + (len(data),), depth + 1)
                data.append(item)
                size += item_size
            loader.get_event()
        elif isinstance(event, yaml.MappingStartEvent):
            self._check_tag(event, "tag:yaml.org,2002:map")
            data, size = {}, 1
            self._count(1, event.start_mark)
            while not loader.check_event(yaml.MappingEndEvent):
                key_event = loader.peek_event()
                key = self._key(loader)
                if key in data:
                    first = self.key_marks[path + (key,)]
                    raise self.error("duplicate-key",
                                     f"duplicate key '{brief(key, 60)}' (first written at line {first.line})",
                                     key_event.start_mark, "YAML keeps only one of them: remove or rename one",
                                     quiet=f"a key written twice (first at line {first.line})")
                self.key_marks[path + (key,)] = Mark(key_event.start_mark.line + 1, key_event.start_mark.column + 1)
                value, value_size = self._node(loader, path + (key,), depth + 1)
                data[key] = value
                size += value_size
            loader.get_event()
        else:  # pragma: no cover - the parser yields nothing else here
            raise yaml.YAMLError(f"unexpected {type(event).__name__}")
        if anchor is not None:
            self.anchors[anchor] = (data, size)
        return data, size

    def _key(self, loader: Any) -> str:
        event = loader.peek_event()
        if not isinstance(event, yaml.ScalarEvent):
            raise self.error("bad-key", "a key must be plain text, not a list or mapping", event.start_mark)
        if event.value == "<<" and event.implicit[0]:  # a plain (unquoted) <<
            raise self.error("merge-key", "merge keys (<<) are not supported", event.start_mark,
                             "write the keys out, or use `extends` to build on another edition")
        loader.get_event()
        self._check_text(event.value, event.start_mark)
        # Keys are names: keep the text written, so `on:` or `yes:` are not booleans.
        return event.value

    def _check_tag(self, event: Any, default: str) -> None:
        if event.tag not in (None, "!", default):
            raise self.error("unsafe-tag", f"tag {_tag_name(event.tag)} is not allowed", event.start_mark,
                             quiet="a tag that is not allowed",
                             hint="rulesets hold plain text, numbers, lists and mappings only")

    def _check_text(self, value: str, mark: Any) -> None:
        bad = _BAD_IN_VALUE.search(value)
        if bad is not None:
            raise self.error("bad-character", f"the text holds the character {character_name(bad.group())}", mark,
                             quiet=f"text that holds the character {character_name(bad.group())}",
                             hint="a ruleset's text is printable: remove the escape sequence (\\e, \\x.., \\0...)")

    def _scalar(self, event: Any) -> Any:
        tag = event.tag
        explicit = tag is not None and tag != "!"
        if not explicit:
            tag = cast(Any, _RESOLVER).resolve(yaml.ScalarNode, event.value, event.implicit)  # PyYAML's is untyped
        if tag == "tag:yaml.org,2002:timestamp" and not explicit:
            return event.value  # a date is text to a ruleset
        short = _SCALAR_TAGS.get(tag)
        if short is None:
            raise self.error("unsafe-tag", f"tag {_tag_name(tag)} is not allowed", event.start_mark,
                             quiet="a tag that is not allowed",
                             hint="rulesets hold plain text, numbers, true/false, lists and mappings only")
        node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)
        try:
            value = _CONSTRUCTOR.yaml_constructors[tag](_CONSTRUCTOR, node)
        except (yaml.YAMLError, ValueError, TypeError, IndexError, KeyError, OverflowError):
            raise self.error("bad-value", f"{_quoted(event.value)} is not a valid !!{short}", event.start_mark,
                             quiet=f"a value that is not a valid !!{short}",
                             hint="remove the tag, or write a value of that type" if explicit else
                             "write a shorter number") from None
        if short == "bool" and type(value) is not bool:
            raise self.error("bad-value", f"{_quoted(event.value)} is not a valid !!{short}", event.start_mark,
                             quiet=f"a value that is not a valid !!{short}")
        if type(value) is float and not math.isfinite(value):
            raise self.error("not-finite", f"{_quoted(event.value)} is not a finite number", event.start_mark,
                             quiet="a number that is not finite",
                             hint="write a number such as 0.5; NaN and infinities cannot be played with")
        if isinstance(value, str):
            self._check_text(value, event.start_mark)
        return value


def _tag_name(tag: str) -> str:
    """``!!set`` for ``tag:yaml.org,2002:set``, as it was written."""
    return brief("!!" + tag[len("tag:yaml.org,2002:"):] if tag.startswith("tag:yaml.org,2002:") else tag, 60)


def _quoted(text: str) -> str:
    return "'" + brief(text, 40) + "'"
