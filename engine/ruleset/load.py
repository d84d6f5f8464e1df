"""YAML text -> plain data with source marks, refusing hostile or broken files.

PyYAML's safe parser produces events; this module builds the data from them
itself instead of calling ``safe_load`` so that it can

* keep the 1-based line and column of every key and value (``Document.marks``),
* refuse duplicate keys (``safe_load`` silently keeps the last),
* refuse deep nesting before anything recursive runs,
* count aliases and the size they expand to (a "billion laughs" file is refused
  long before anything walks the expanded tree),
* read mapping keys as the text written (``on:`` stays ``"on"``, not ``True``).

Only the safe tags are constructed: a ``!!python/...`` tag is an error.
"""

from __future__ import annotations

import os
from typing import Any

import attrs
import yaml

from .problems import Problem, RulesetError, describe_type

MAX_BYTES = 1024 * 1024
MAX_DEPTH = 64
MAX_ALIASES = 100
MAX_NODES = 100_000

Path = tuple[Any, ...]

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_RESOLVER = yaml.resolver.Resolver()
_CONSTRUCTOR = yaml.constructor.SafeConstructor()


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

    A missing file raises ``FileNotFoundError`` (callers report it as a usage error).
    """
    name = display_path(path)
    with open(path, "rb") as handle:
        raw = handle.read(MAX_BYTES + 1)
    return load_bytes(raw, name)


def load_bytes(raw: bytes, name: str) -> Document:
    """Parse ruleset bytes; ``name`` is the file name used in problems."""

    def fail(code: str, message: str, hint: str | None = None, line: int = 1, column: int = 1,
             source: str | None = None) -> RulesetError:
        return RulesetError([Problem(name, line, column, code, message, hint, source_line=source)])

    if len(raw) > MAX_BYTES:
        raise fail("too-large", f"file is larger than {MAX_BYTES // 1024} KiB",
                   "a ruleset is a few dozen KiB; split it with `extends` if it really is this big")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        bad_line = raw.split(b"\n")[line - 1].decode("utf-8", "replace")
        raise fail("encoding", f"byte 0x{raw[exc.start]:02x} is not valid UTF-8",
                   "save the file as UTF-8", line, column, bad_line) from None
    if "\x00" in text:
        offset = text.index("\x00")
        line = text.count("\n", 0, offset) + 1
        raise fail("encoding", "the file holds a NUL character: is it a binary file?", None, line,
                   offset - text.rfind("\n", 0, offset))
    lines = tuple(text.splitlines())
    builder = _Builder(name, lines)
    try:
        data = builder.build(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        column = mark.column + 1 if mark else 1
        message = exc.problem or exc.context or "invalid YAML"
        if exc.context and exc.problem:
            message = f"{exc.problem} ({exc.context})"
        source = lines[line - 1] if 0 < line <= len(lines) else None
        hint = _yaml_hint(message)
        if source is not None and "\t" in source[: column]:
            hint = "indent with spaces, not tabs"
        raise fail("yaml", f"invalid YAML: {message}", hint, line, column, source) from None
    except yaml.YAMLError as exc:
        raise fail("yaml", f"invalid YAML: {exc}") from None
    return Document(name, data, lines, builder.value_marks, builder.key_marks)


def _yaml_hint(message: str) -> str | None:
    if "mapping values are not allowed" in message:
        return "a value that contains ': ' must be quoted, e.g. text: \"Note: ...\""
    if "could not find expected ':'" in message:
        return "a key needs a ':' after it; a line of text may need quotes"
    return None


class _Builder:
    """Builds plain data from the safe parser's events."""

    def __init__(self, name: str, lines: tuple[str, ...]):
        self.name = name
        self.lines = lines
        self.value_marks: dict[Path, Mark] = {}
        self.key_marks: dict[Path, Mark] = {}
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.aliases = 0
        self.nodes = 0

    def error(self, code: str, message: str, mark: Any, hint: str | None = None) -> RulesetError:
        line, column = mark.line + 1, mark.column + 1
        source = self.lines[line - 1] if 0 < line <= len(self.lines) else None
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
                                        f"the file must hold a mapping of keys, not {describe_type(data)}",
                                        "start with `id: my-edition` and `name: My Edition`",
                                        source_line=self.lines[mark.line - 1] if self.lines else None)])
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
            raise self.error("too-many-nodes", f"the document expands to more than {MAX_NODES} values",
                             mark, "aliases that refer to aliases multiply; write the values out instead")

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
                raise self.error("yaml", f"unknown alias *{event.anchor}", event.start_mark)
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
                                     f"duplicate key '{key}' (first written at line {first.line})",
                                     key_event.start_mark, "YAML keeps only one of them: remove or rename one")
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
        # Keys are names: keep the text written, so `on:` or `yes:` are not booleans.
        return event.value

    def _check_tag(self, event: Any, default: str) -> None:
        if event.tag not in (None, "!", default):
            raise self.error("unsafe-tag", f"tag {event.tag} is not allowed", event.start_mark,
                             "rulesets hold plain text, numbers, lists and mappings only")

    def _scalar(self, event: Any) -> Any:
        tag = event.tag
        if tag is None or tag == "!":
            tag = _RESOLVER.resolve(yaml.ScalarNode, event.value, event.implicit)
        construct = _CONSTRUCTOR.yaml_constructors.get(tag)
        if construct is None or tag in ("tag:yaml.org,2002:binary", "tag:yaml.org,2002:timestamp"):
            if tag == "tag:yaml.org,2002:timestamp":
                return event.value  # a date is text to a ruleset
            raise self.error("unsafe-tag", f"tag {tag} is not allowed", event.start_mark,
                             "rulesets hold plain text, numbers, lists and mappings only")
        node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)
        return construct(_CONSTRUCTOR, node)
