"""The event log: games written as JSON Lines, read back, checked, and replayed.

One event per line, in the order the engine emitted them, each a JSON object
whose ``type`` selects its shape (``schema/events.schema.json``, described in
docs/events.md). Write a log by attaching an :class:`EventLog` as an observer;
read it back with :func:`read_log`, which checks every line against the schema
and names the file and line of the first bad one.

A log may come from anyone, so reading one is bounded and strict: lines of at
most :data:`MAX_LINE_BYTES`, files of at most :data:`MAX_LOG_BYTES` and
:data:`MAX_LOG_LINES` lines, and every line through
:func:`monopoly.game.jsonin.parse_json` (no key twice, no NaN, no control
characters in strings, no absurd nesting or numbers). Messages quote at most
a short, escaped excerpt of what was read.

>>> import io, monopoly
>>> from monopoly.game.log import EventLog, replay_payments
>>> out = io.StringIO()
>>> game = monopoly.Game(monopoly.load_ruleset("classic"), [monopoly.make_agent("greedy") for _ in "ab"], seed=3,
...                      max_turns=40, observers=[EventLog(out)])
>>> result = game.play()
>>> events = read_log(io.StringIO(out.getvalue()))
>>> events[0]["type"], events[-1]["type"]
('game_start', 'game_end')
>>> replay_payments(events)["cash"] == game.cash
True
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from importlib import resources
from typing import IO, Any, TextIO, Union

import jsonschema
from jsonschema.exceptions import best_match

from .._mypyc import mypyc_attr
from ..files import NotRegularFile, open_regular
from .apply import apply
from .events import from_dict
from .fields import Fields
from .jsonin import JsonInputError, describe, excerpt, format_size, parse_json

Event = dict[str, Any]
LogSource = Union[str, "os.PathLike[str]", IO[str], IO[bytes]]

#: How the bank and the pot are written in a payment's ``from`` and ``to``.
PARTIES = ("bank", "pot")

#: The most seats a game has: a ruleset is played by at most 16 players (schema/ruleset.schema.json, players.max).
MAX_SEATS = 16
#: The longest line of a log, in bytes (characters for a text stream), its line break not counted.
MAX_LINE_BYTES = 64 * 1024
#: The largest log, in bytes (characters for a text stream).
MAX_LOG_BYTES = 32 * 1024 * 1024
#: The most lines a log may have (a 1,000-turn game has about 6,000 events; reading and telling a log costs
#: time and memory by its lines, so the limit keeps both bounded). A game records at most 90,000 events
#: (game/end.py MAX_GAME_EVENTS), so the log of any game the engine plays fits.
MAX_LOG_LINES = 100_000
#: Control characters a log's strings may hold: card texts may have line breaks and tabs.
ALLOWED_CONTROLS = "\n\t"


@mypyc_attr(native_class=False)
class LogError(ValueError):
    """A log line that is not a valid event, or a log whose money does not add up.

    ``str()`` reads ``file:line: message``; the parts are in ``source``,
    ``line`` (1-based, or None for the whole log) and ``message``.
    """

    def __init__(self, message: str, *, source: str = "<events>", line: int | None = None):
        self.source = source
        self.line = line
        self.message = message
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {message}")


# ---------------------------------------------------------------------- writing

_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


class EventLog:
    """An observer that writes every event as one compact JSON line.

    ``target`` is a path (opened for writing, UTF-8, and closed by :meth:`close`
    or at the end of a ``with`` block) or a text file object (left open). The
    output is flushed when the game ends (``game_end``) and on :meth:`flush`.

    >>> import io
    >>> out = io.StringIO()
    >>> log = EventLog(out)
    >>> log({"type": "payment", "from": "bank", "to": 0, "amount": 200, "reason": "salary"})
    >>> out.getvalue()
    '{"type":"payment","from":"bank","to":0,"amount":200,"reason":"salary"}\\n'
    """

    def __init__(self, target: str | os.PathLike[str] | TextIO, *, replace: bool = True):
        if isinstance(target, (str, os.PathLike)):
            from ..files import create

            self.name = os.fspath(target)
            # never through a symbolic link; with replace=False, never over a file that exists
            self._file: TextIO = create(target, replace=replace)
            self._owned = True
        else:
            self.name = getattr(target, "name", "<stream>")
            self._file = target
            self._owned = False
        self._write = self._file.write
        #: Events written so far.
        self.count = 0

    def __call__(self, event: Mapping[str, Any]) -> None:
        self._write(_encode(event) + "\n")
        self.count += 1
        if event["type"] == "game_end":
            self._file.flush()

    def flush(self) -> None:
        self._file.flush()

    def close(self) -> None:
        """Flush, and close the file if this log opened it."""
        if self._owned:
            self._file.close()
        else:
            self._file.flush()

    def __enter__(self) -> EventLog:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


# ---------------------------------------------------------------------- reading


@functools.cache
def event_schema() -> dict[str, Any]:
    """The JSON Schema of one event line (``schema/events.schema.json``)."""
    text = resources.files("monopoly.schema").joinpath("events.schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@functools.cache
def _validators() -> dict[str, jsonschema.Draft202012Validator]:
    """One validator per event type: each checks against that type's definition only,
    which is faster than the schema's ``oneOf`` and gives the error of the right branch."""
    schema = event_schema()
    validators = {}
    for name in schema["properties"]["type"]["enum"]:
        branch = {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": f"#/$defs/{name}"}
        validators[name] = jsonschema.Draft202012Validator(branch)
    return validators


def event_problem(event: Any) -> str | None:
    """What is wrong with one decoded event, in words; None when it matches the schema.

    The words quote at most a short, escaped excerpt of the event.
    """
    if not isinstance(event, dict):
        return f"expected a JSON object, found {type(event).__name__}"
    kind = event.get("type")
    validators = _validators()
    if not isinstance(kind, str) or kind not in validators:
        if kind is None:
            return "the event has no 'type'"
        return f"unknown event type {describe(kind)}; expected one of {', '.join(validators)}"
    error = best_match(validators[kind].iter_errors(event))
    if error is None:
        return None
    where = "".join(f"[{p!r}]" if isinstance(p, int) else f".{_short(str(p))}" for p in error.absolute_path)
    message = error.message
    if error.validator in ("oneOf", "anyOf") and isinstance(error.schema, dict) and "description" in error.schema:
        message = f"{describe(error.instance)} is not valid here ({error.schema['description']})"
    else:
        message = _shorten_quotes(message, error.instance)
    return f"{kind} event{_short(where, 80)}: {message}"


def _short(text: str, limit: int = 40) -> str:
    """A name from the log for a message: as it is when short and printable, else an escaped excerpt."""
    return text if len(text) <= limit and text.isprintable() else excerpt(text, limit)


def _shorten_quotes(message: str, instance: Any) -> str:
    """A schema message whose quotes of the event (its reprs) are cut to short descriptions."""
    quoted = [instance]
    if isinstance(instance, dict):
        quoted.extend(instance)  # additionalProperties quotes the unexpected keys
    for value in quoted:
        try:
            shown = repr(value)
        except ValueError:  # an int too long to print (not from parse_json, which refuses them)
            continue
        if len(shown) > 40 and shown in message:
            message = message.replace(shown, describe(value))
    if len(message) > 300 or not message.isprintable():
        message = excerpt(message, 300)[1:-1]
    return message


def read_log(source: LogSource, *, validate: bool = True) -> list[Event]:
    """The events of a JSON Lines log, in order.

    ``source`` is a path or an open file (text or binary). Every line must be
    one JSON object; with ``validate`` (the default) it must also match the
    event schema. The first bad line raises :class:`LogError` naming
    ``file:line`` and what is wrong, and so does a line longer than
    :data:`MAX_LINE_BYTES`, a log larger than :data:`MAX_LOG_BYTES` or longer
    than :data:`MAX_LOG_LINES` lines (nothing past the limit is read).
    """
    if isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        try:
            file = open_regular(source)  # a pipe or a device is refused, not waited on
        except NotRegularFile:
            raise LogError("not a regular file (a pipe, a device or a folder)", source=name) from None
        with file:
            return _read_lines(file, name, validate)
    return _read_lines(source, str(getattr(source, "name", "<stream>")), validate)


def _read_lines(source: Any, name: str, validate: bool) -> list[Event]:
    events: list[Event] = []
    read = getattr(source, "read", None)
    lines: Iterable[str | bytes] = _bounded_lines(read) if read is not None else source
    total = 0
    check = event_problem if validate else _object_problem
    for number, raw in enumerate(lines, 1):
        if number > MAX_LOG_LINES:
            raise LogError(f"the log has more than {MAX_LOG_LINES:,} lines, more than a log can have",
                           source=name, line=number)
        total += len(raw) + 1
        if total > MAX_LOG_BYTES:  # a line break counted after every line
            raise LogError(f"the log is larger than {format_size(MAX_LOG_BYTES)}, more than a log can be",
                           source=name, line=number)
        if isinstance(raw, bytes):
            content = raw.rstrip(b"\r\n")
            if len(content) > MAX_LINE_BYTES:
                raise LogError(f"the line is longer than {format_size(MAX_LINE_BYTES)}, more than an event can be",
                               source=name, line=number)
            try:
                line = content.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise LogError(f"not UTF-8 text (byte {exc.start + 1})", source=name, line=number) from None
        else:
            line = raw.rstrip("\r\n")
            if len(line) > MAX_LINE_BYTES:
                raise LogError(f"the line is longer than {MAX_LINE_BYTES:,} characters, more than an event can be",
                               source=name, line=number)
        if not line or line.isspace():
            raise LogError("empty line (a log has one JSON object on every line)", source=name, line=number)
        try:
            event = parse_json(line, source=name, allow=ALLOWED_CONTROLS)
        except JsonInputError as exc:
            raise LogError(f"{exc.message} (column {exc.column})" if exc.column is not None else exc.message,
                           source=name, line=number) from None
        problem = check(event)
        if problem is not None:
            raise LogError(problem, source=name, line=number)
        events.append(event)
    return events


#: How much of a file is read at a time.
_CHUNK = 1 << 20


def _bounded_lines(read: Any) -> Iterator[str | bytes]:
    """The lines of a file (text or binary), without their line breaks, read a chunk at a time.

    A line longer than :data:`MAX_LINE_BYTES` is given as soon as it is known to be (only its start:
    the reader refuses it), so that no more than a chunk and a line are ever held.
    """
    rest = read(0)  # b"" or "": the file's own kind of text
    newline = b"\n" if isinstance(rest, bytes) else "\n"
    while True:
        chunk = read(_CHUNK)
        if not chunk:
            if rest:
                yield rest
            return
        parts = (rest + chunk).split(newline)
        rest = parts.pop()
        yield from parts
        if len(rest) > MAX_LINE_BYTES + 1:  # the \r of a \r\n may still be in it
            yield rest
            return


def _object_problem(event: Any) -> str | None:
    return None if isinstance(event, dict) else f"expected a JSON object, found {type(event).__name__}"


def check_references(events: Sequence[Mapping[str, Any]], board_size: int | None = None, *,
                     source: str = "<events>") -> None:
    """Raise :class:`LogError` at the first event naming a seat beyond ``game_start.players``
    (or, with ``board_size``, a space beyond the board): the schema cannot know either."""
    seats = None
    for number, event in enumerate(events, 1):
        if event.get("type") == "game_start":
            seats = len(event["players"])
            continue
        fields: list[tuple[str, Any, str]] = []
        for key in ("seat", "partner", "proposer", "winner", "creditor"):
            fields.append((key, event.get(key), "seat"))
        kind = event.get("type")
        for key in ("from", "to"):
            fields.append((key, event.get(key), "space" if kind == "move" else "seat"))
        fields.append(("space", event.get("space"), "space"))
        for key in ("give_spaces", "get_spaces"):
            fields.extend((key, space, "space") for space in event.get(key, ()))
        for key, value, what in fields:
            if type(value) is not int:
                continue
            limit = seats if what == "seat" else board_size
            if limit is not None and not 0 <= value < limit:
                raise LogError(f"'{key}' is {value}, but the game has no {what} {value}", source=source, line=number)


# ---------------------------------------------------------------------- replaying


def replay_payments(events: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Every seat's cash and the pot, from the payment events alone.

    Returns ``{"cash": [cash of seat 0, seat 1, ...], "pot": pot}``. The number
    of seats comes from ``game_start`` (or, without it, the highest seat paid).
    Replaying a whole log gives the final cash of ``game_end``; replaying a
    prefix gives the cash at that point.

    >>> replay_payments([
    ...     {"type": "game_start", "ruleset": "classic", "variants": [], "seed": 1, "players": ["a", "b"]},
    ...     {"type": "payment", "from": "bank", "to": 0, "amount": 1500, "reason": "starting cash"},
    ...     {"type": "payment", "from": "bank", "to": 1, "amount": 1500, "reason": "starting cash"},
    ...     {"type": "payment", "from": 1, "to": "pot", "amount": 75, "reason": "Luxury Tax"},
    ...     {"type": "payment", "from": 1, "to": 0, "amount": 24, "reason": "rent"}])
    {'cash': [1524, 1401], 'pot': 75}
    """
    payments = []
    seats = 0
    for number, event in enumerate(events, 1):
        kind = event["type"]
        if kind == "payment":
            for side in ("from", "to"):
                who = event[side]
                if who not in PARTIES and not (isinstance(who, int) and not isinstance(who, bool) and who >= 0):
                    raise LogError(f"payment {side} {describe(who)}: expected a seat number, 'bank' or 'pot'",
                                   line=number)
                if isinstance(who, int) and who >= MAX_SEATS:
                    raise LogError(f"payment {side} {describe(who)}: not a seat of any game (a game has at most "
                                   f"{MAX_SEATS} seats, 0 to {MAX_SEATS - 1})", line=number)
                if isinstance(who, int):
                    seats = max(seats, who + 1)
            payments.append(event)
        elif kind == "game_start":
            seats = max(seats, len(event["players"]))
    ledger = _Ledger(seats)  # the payments applied by the one writer (apply.payment), nothing else
    for event in payments:
        apply(ledger, from_dict(event))
    return {"cash": ledger.cash, "pot": ledger.pot}


class _Ledger(Fields):
    """The cash of ``seats`` seats and the pot, and nothing else: what a payment writes (apply.payment, which
    takes a ``Fields``: in the compiled build it reads and writes the fields directly)."""

    __slots__ = ()

    def __init__(self, seats: int):
        self.cash = [0] * seats
        self.pot = 0
        self.record = _kept_nowhere  # a field, not a method: the compiled writer reads it as one


def _kept_nowhere(record: Any) -> None:
    """A payment applied is recorded by the writer; a ledger keeps no record."""


def verify_payments(events: Iterable[Mapping[str, Any]], *, source: str = "<events>") -> None:
    """Check that the payments of a finished game give every seat's cash in ``game_end``.

    Raises :class:`LogError` naming the seats whose cash differs, or when the
    log does not end with ``game_end``.
    """
    events = list(events)
    if not events or events[-1]["type"] != "game_end":
        raise LogError("the log does not end with a game_end event", source=source)
    replayed = replay_payments(events)["cash"]
    wrong = []
    for standing in events[-1]["standings"]:
        seat = standing["seat"]
        got = replayed[seat] if seat < len(replayed) else 0
        if got != standing["cash"]:
            wrong.append(f"seat {seat}: payments give {got}, game_end says {standing['cash']}")
    if wrong:
        raise LogError("; ".join(wrong), source=source, line=len(events))
