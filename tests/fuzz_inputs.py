"""Seeded hostile inputs for three entry points, and a harness that runs them and records what happened.

The entry points are ``monopoly validate FILE`` (ruleset YAML), ``monopoly play
--resume SAVE`` (JSON save files) and ``monopoly replay LOG --verify`` (JSON
Lines event logs). Each input is a :class:`Case` made by :func:`make_case` from
a kind, a seed and an index alone (``random.Random`` seeded with a string, a
corpus of real files built deterministically by :func:`build_corpus`), so any
input of a campaign can be made again from the three numbers it is reported with.

:func:`run_case` runs one case in-process through click's CliRunner and
returns an :class:`Outcome`; an outcome is a *finding* when the command crashed
(an exception other than SystemExit, an exit status other than 0, 1 or 2, or a
traceback in its output), took longer than :data:`TIME_LIMIT` seconds, or
printed more than :data:`OUTPUT_LIMIT` bytes.

Reproduce one input from a report, or run a campaign outside pytest::

    .venv/bin/python -m tests.fuzz_inputs repro resume 0 1234     # runs it, shows the traceback
    .venv/bin/python -m tests.fuzz_inputs campaign --inputs 10000  # all three kinds
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import functools
import hashlib
import json
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from monopoly.agents.base import Wrapper

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ROOT / "rulesets"
DATA = ROOT / "tests" / "data"

KINDS = ("validate", "resume", "replay")
#: Seconds an input may take before it counts as a hang (a generous detector, not a speed test).
TIME_LIMIT = 5.0
#: Seconds after which a run is interrupted (so a real hang cannot stop the campaign).
HARD_TIMEOUT = 10.0
#: Bytes of output (stdout and stderr) an input may produce.
OUTPUT_LIMIT = 200 * 1024
GOOD_EXITS = (0, 1, 2)
#: The turn limit of the games of the corpus: a resumed game ends within a few turns.
CORPUS_MAX_TURNS = 30
#: A fixed time_left for the saves of time-limit games (the real value depends on the clock).
FIXED_TIME_LEFT = 5000.0


# ---------------------------------------------------------------------- JSON with what json.dumps cannot write


class Raw:
    """Text put into generated JSON as it is: ``NaN``, ``1e400``, 40 digits, a 100,000-deep array..."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        shown = self.text if len(self.text) <= 40 else f"{self.text[:20]}...({len(self.text)} chars)"
        return f"Raw({shown!r})"


class Pairs:
    """A JSON object written with its pairs as they are, so the same key can be written twice."""

    __slots__ = ("pairs",)

    def __init__(self, pairs: list[tuple[str, Any]]):
        self.pairs = pairs

    def __repr__(self) -> str:
        return f"Pairs({[k for k, _ in self.pairs]!r})"


def dump_json(value: Any, *, ascii_only: bool = True, compact: bool = True) -> str:
    """``value`` as JSON text; :class:`Raw` and :class:`Pairs` written as they are, NaN as ``NaN``."""
    comma, colon = (",", ":") if compact else (", ", ": ")
    out: list[str] = []

    def emit(item: Any) -> None:
        if isinstance(item, Raw):
            out.append(item.text)
        elif isinstance(item, Pairs):
            out.append("{")
            for n, (key, sub) in enumerate(item.pairs):
                if n:
                    out.append(comma)
                out.append(json.dumps(key, ensure_ascii=ascii_only) + colon)
                emit(sub)
            out.append("}")
        elif isinstance(item, dict):
            emit(Pairs(list(item.items())))
        elif isinstance(item, (list, tuple)):
            out.append("[")
            for n, sub in enumerate(item):
                if n:
                    out.append(comma)
                emit(sub)
            out.append("]")
        elif isinstance(item, int) and not isinstance(item, bool):
            out.append(str(item))  # never json.dumps: it refuses ints past Python's digit limit
        else:
            out.append(json.dumps(item, ensure_ascii=ascii_only))

    emit(value)
    return "".join(out)


def has_special(value: Any) -> bool:
    if isinstance(value, (Raw, Pairs)):
        return True
    if isinstance(value, float):
        return value != value or value in (float("inf"), float("-inf"))
    if isinstance(value, dict):
        return any(has_special(v) for v in value.values())
    if isinstance(value, list):
        return any(has_special(v) for v in value)
    return False


def encode_text(text: str) -> bytes:
    """UTF-8, lone surrogates written as their (invalid) three bytes."""
    return text.encode("utf-8", "surrogatepass")


# ---------------------------------------------------------------------- hostile atoms

BUILTIN_NAMES = ["classic", "uk", "short-game", "time-limit", "free-parking-jackpot", "tournament",
                 "income-tax-2008"]
BOT_NAMES = ["greedy", "cautious", "random", "trader"]
CONTROL_CHARS = ["\x00", "\x07", "\x08", "\x0b", "\x0c", "\r", "\x1b", "\x7f", "\x85", "\x9b", "\u2028", "\u2029",
                 "\ufeff", "\ufffe", "\uffff", "\ud800", "\udfff", "\u202e", "\t", "\n"]
HOSTILE_STRINGS = [
    "", " ", "x", "classic", "uk", "short-game", "time-limit", "nope", "Classic", "classic ", "greedy", "cautious",
    "random", "trader", "you", "human", "human:", "human:Ada", "human:\x1b[2J", "HUMAN:Bob", "robot",
    "monopoly-play", "monopoly-save", "game_start", "turn", "game_end", "decision", "payment",
    "classic.yaml", "x.yaml", "zero.yaml", "fifo.yaml", "dir.yaml", "missing.yml", "../../etc/passwd",
    "/etc/passwd", "/dev/zero", "/dev/stdin", "/proc/self/environ", ".", "..", "/", "~", "$HOME",
    str(RULESETS / "classic.yaml"), str(RULESETS / "uk.yaml"), str(RULESETS / "variants" / "short-game.yaml"),
    str(DATA / "good" / "mini.yaml"), str(DATA / "broken" / "alias-bomb.yaml"),
    str(DATA / "hostile" / "draws" / "ping-pong.yaml"), "rulesets/classic.yaml",
    "\x1b[2J\x1b[H", "\x1b]0;pwned\x07", "a\x00b", "\u2028", "\x85", "\r", "\ud800", "\udfff", "\u202egnp.exe",
    "\U0001F600", "𝕏𝕐", "£€¥", "%s%n%x", "{0}{1}", "'\"\\", "\\u0000", "null", "true", "0", "-1", "NaN",
    "a" * 300, "b" * 70_000, "\n" * 50, "deadbeef" * 8, "0" * 64, "G" * 64,
]
HOSTILE_INTS = [0, 1, -1, 2, 3, 7, 39, 40, 41, 100, 624, 625, 999, 1000, 1500, 2**31 - 1, 2**31, 2**32 - 1, 2**32,
                2**53 + 1, 2**63 - 1, 2**63, 2**64, -2**63, -2**64, 10**12, 10**12 + 1, 10**29, 10**30 - 1, 10**30,
                -10**30, 10**40, 10**400]
HOSTILE_FLOATS = [0.0, -0.0, 0.5, 1.5, -1.5, 1e-320, 5e-324, 1e308, 1.7976931348623157e308, 1e16, 30.0,
                  float("nan"), float("inf"), float("-inf")]
#: Raw JSON that a lenient reader takes but a strict one must refuse (or take with care).
HOSTILE_RAW = ["NaN", "-NaN", "Infinity", "-Infinity", "1e400", "-1e400", "1E+999", "1e-400", "9" * 31, "-" + "9" * 31,
               "9" * 5000, "0.0000000000000000000000000000001", "1" + "0" * 40 + ".5", "-0", '"\\u001b[2J"',
               '"\\ud800"', '"\\udc00\\ud800"', '"\\u0000"', '"\\u0085"', '"\\u2028"', '"\\b\\f"',
               "[" * 63 + "]" * 63, "[" * 64 + "]" * 64, "[" * 65 + "]" * 65, "[" * 2000 + "]" * 2000,
               '{"a":' * 100 + "1" + "}" * 100, "1.0", "1e2", "-1E-2", "0e0", "[[[]]]", "{}"]
#: Raw text that is not JSON at all.
BROKEN_RAW = ["01", "1.", ".5", "+1", "0x10", "tru", "nul", "undefined", "'single'", '"\\x41"', '"\\q"',
              '"unterminated', "[1,]", "{,}", "[,1]", '{"a" 1}', "//c", "/*c*/1", "\u00a01", "\ufeff1"]


def random_text(rng: random.Random, max_size: int = 20) -> str:
    """A short string of anything: letters, controls, surrogates, astral characters."""
    out = []
    for _ in range(rng.randint(0, max_size)):
        r = rng.random()
        if r < 0.5:
            out.append(rng.choice("abcdefghijklmnopqrstuvwxyzABCXYZ0123456789 _-:.,/#&*!?%@`'\"\\{}[]|>"))
        elif r < 0.7:
            out.append(rng.choice(CONTROL_CHARS))
        elif r < 0.8:
            out.append(chr(rng.randint(0, 0x1F)))
        elif r < 0.9:
            out.append(chr(rng.randint(0xA0, 0xFFFF)))
        else:
            out.append(chr(rng.randint(0x10000, 0x10FFFF)))
    return "".join(out)


def random_string(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.55:
        return rng.choice(HOSTILE_STRINGS)
    if r < 0.9:
        return random_text(rng)
    return rng.choice("xyz\x1b\u2028") * rng.choice([100, 1000, 20_000])


def random_json(rng: random.Random, depth: int = 3, keys: Sequence[str] = ()) -> Any:
    """A random JSON value (possibly with Raw and Pairs parts), at most ``depth`` containers deep."""
    r = rng.random()
    if r < 0.08:
        return None
    if r < 0.15:
        return rng.random() < 0.5
    if r < 0.33:
        return rng.choice(HOSTILE_INTS) if rng.random() < 0.7 else rng.randint(-1000, 1000)
    if r < 0.42:
        return rng.choice(HOSTILE_FLOATS) if rng.random() < 0.7 else rng.uniform(-1e6, 1e6)
    if r < 0.52:
        return Raw(rng.choice(HOSTILE_RAW if rng.random() < 0.85 else BROKEN_RAW))
    if r < 0.72 or depth <= 0:
        return random_string(rng)
    if r < 0.86:
        size = rng.choice([0, 1, 2, 3, 5, 8]) if rng.random() < 0.95 else rng.choice([100, 1000, 5000])
        return [random_json(rng, depth - 1 if size < 10 else 0, keys) for _ in range(size)]
    pairs = []
    for _ in range(rng.choice([0, 1, 2, 3, 4])):
        key = rng.choice(keys) if keys and rng.random() < 0.6 else random_string(rng)
        pairs.append((key, random_json(rng, depth - 1, keys)))
    if pairs and rng.random() < 0.2:
        pairs.append((pairs[0][0], random_json(rng, 0, keys)))
    return Pairs(pairs)


# ---------------------------------------------------------------------- paths into JSON trees

JsonPath = tuple[Any, ...]


def all_paths(tree: Any, path: JsonPath = ()) -> Iterator[JsonPath]:
    yield path
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield from all_paths(value, path + (key,))
    elif isinstance(tree, list):
        for index, value in enumerate(tree):
            yield from all_paths(value, path + (index,))


def pattern_of(path: JsonPath) -> JsonPath:
    return tuple("*" if isinstance(p, int) else p for p in path)


@functools.lru_cache(maxsize=64)
def _patterns_of(text: str) -> tuple[tuple[JsonPath, tuple[JsonPath, ...]], ...]:
    tree = json.loads(text)
    grouped: dict[JsonPath, list[JsonPath]] = {}
    for path in all_paths(tree):
        grouped.setdefault(pattern_of(path), []).append(path)
    return tuple((pattern, tuple(paths)) for pattern, paths in grouped.items())


def pick_path(rng: random.Random, tree: Any, text: str | None = None) -> JsonPath:
    """A path into ``tree``: first a key pattern (list indices as ``*``) uniformly, then one of its places,
    so that the 624 words of a generator state do not drown the fields of one value."""
    if text is not None:
        groups = _patterns_of(text)
        _, paths = groups[rng.randrange(len(groups))]
        path = paths[rng.randrange(len(paths))]
        if _exists(tree, path):
            return path
    paths_now = list(all_paths(tree))
    grouped: dict[JsonPath, list[JsonPath]] = {}
    for path in paths_now:
        grouped.setdefault(pattern_of(path), []).append(path)
    patterns = list(grouped)
    chosen = grouped[patterns[rng.randrange(len(patterns))]]
    return chosen[rng.randrange(len(chosen))]


def _exists(tree: Any, path: JsonPath) -> bool:
    node = tree
    for part in path:
        in_object = isinstance(node, dict) and isinstance(part, str) and part in node
        in_array = isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        if not (in_object or in_array):
            return False
        node = node[part]
    return True


def get_at(tree: Any, path: JsonPath) -> Any:
    for part in path:
        tree = tree[part]
    return tree


def set_at(tree: Any, path: JsonPath, value: Any) -> Any:
    if not path:
        return value
    get_at(tree, path[:-1])[path[-1]] = value
    return tree


def show_path(path: JsonPath) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(the whole file)"


def nudged(rng: random.Random, value: Any) -> Any:
    """A number moved a little or a lot, or turned into another type."""
    if isinstance(value, bool):
        return rng.choice([not value, 0, 1, None, "true"])
    if isinstance(value, (int, float)):
        return rng.choice([value + 1, value - 1, -value, -value - 1, 0, value * 1000, value + 0.5, float(value),
                           2**64, 2**64 + value, -2**63, 2**31, 10**30, str(value), True, None, [value]])
    return random_json(rng, 1)


def mutate_tree(rng: random.Random, tree: Any, text: str | None, keys: Sequence[str],
                notes: list[str], donors: Sequence[Any] = ()) -> Any:
    """One random change somewhere in ``tree`` (changed in place when it can be); a note says what."""
    path = pick_path(rng, tree, text)
    if not _exists(tree, path):
        return tree
    here = get_at(tree, path)
    where = show_path(path)
    op = rng.choice(["set", "set", "set", "nudge", "nudge", "delete", "add-key", "lengthen", "shorten",
                     "swap", "rename", "wrap", "donor", "duplicate-key"])
    parent = get_at(tree, path[:-1]) if path else None
    if op == "nudge" and isinstance(here, (int, float)):
        value = nudged(rng, here)
        notes.append(f"{where}: {here!r} -> {value!r}")
        return set_at(tree, path, value)
    if op == "delete" and path:
        notes.append(f"{where}: deleted")
        del parent[path[-1]]
        return tree
    if op == "add-key" and isinstance(here, dict):
        key = rng.choice(keys) if keys and rng.random() < 0.5 else random_string(rng)
        value = random_json(rng, 2, keys)
        notes.append(f"{where}: extra key {key!r} = {value!r}")
        here[key] = value
        return tree
    if op == "lengthen" and isinstance(here, list):
        count = rng.choice([1, 1, 2, 10, 1000])
        extra = [copy_json(rng.choice(here)) if here and rng.random() < 0.6 else random_json(rng, 1, keys)
                 for _ in range(count)]
        at = rng.randint(0, len(here))
        here[at:at] = extra
        notes.append(f"{where}: {count} items put in at {at}")
        return tree
    if op == "shorten" and isinstance(here, list) and here:
        keep = rng.choice([0, len(here) - 1, rng.randrange(len(here))])
        start = rng.randint(0, len(here) - 1) if rng.random() < 0.5 else keep
        removed = len(here) - keep
        del here[start:start + removed]
        notes.append(f"{where}: cut from {len(here) + removed} to {len(here)} items")
        return tree
    if op == "swap" and path:
        other = pick_path(rng, tree, text)
        if other and _exists(tree, other) and not _prefix(path, other) and not _prefix(other, path):
            a, b = get_at(tree, path), get_at(tree, other)
            set_at(tree, path, b)
            set_at(tree, other, a)
            notes.append(f"{where} swapped with {show_path(other)}")
            return tree
    if op == "rename" and path and isinstance(parent, dict):
        key = rng.choice(keys) if keys and rng.random() < 0.5 else random_string(rng)
        notes.append(f"{where}: key renamed to {key!r}")
        parent[key] = parent.pop(path[-1])
        return tree
    if op == "wrap":
        value = rng.choice([[here], {"value": here}, json.dumps(here) if not has_special(here) else "x", [here, here]])
        notes.append(f"{where}: wrapped as {type(value).__name__}")
        return set_at(tree, path, value)
    if op == "donor" and donors:
        donor = rng.choice(donors)
        if _exists(donor, path):
            notes.append(f"{where}: taken from another game's file")
            return set_at(tree, path, copy_json(get_at(donor, path)))
    if op == "duplicate-key" and isinstance(here, dict) and here:
        key = rng.choice(list(here))
        value = here[key] if rng.random() < 0.3 else random_json(rng, 1, keys)
        pairs = list(here.items())
        pairs.insert(rng.randint(0, len(pairs)), (key, value))
        notes.append(f"{where}: key {key!r} written twice (again as {value!r})")
        return set_at(tree, path, Pairs(pairs))
    value = random_json(rng, 2, keys)
    notes.append(f"{where}: {describe_short(here)} -> {value!r}")
    return set_at(tree, path, value)


def plausible_change(rng: random.Random, tree: Any, notes: list[str], text: str | None = None) -> Any:
    """A change a save could almost have: a number moved by one or to a small value, a flag flipped, a list
    shuffled. Many of these still load, and the game then plays on from a state nobody reached."""
    leaves = [p for p in all_paths(tree) if p and isinstance(get_at(tree, p), (bool, int, list))
              and not (isinstance(get_at(tree, p), list) and len(get_at(tree, p)) > 100)]
    if not leaves:
        return tree
    # the patterns of leaves first, as pick_path does, so that generator words do not drown the rest
    grouped: dict[JsonPath, list[JsonPath]] = {}
    for path in leaves:
        grouped.setdefault(pattern_of(path), []).append(path)
    patterns = list(grouped)
    path = rng.choice(grouped[patterns[rng.randrange(len(patterns))]])
    here = get_at(tree, path)
    if isinstance(here, bool):
        value: Any = not here
    elif isinstance(here, int):
        value = rng.choice([here + 1, here - 1, 0, -1, 1, 2, rng.randint(0, 40), here * 2, here + rng.randint(2, 50)])
    else:
        value = list(here)
        r = rng.random()
        if r < 0.4:
            rng.shuffle(value)
        elif r < 0.6 and value:
            value.pop(rng.randrange(len(value)))
        elif r < 0.8 and value:
            value.insert(rng.randint(0, len(value)), copy_json(rng.choice(value)))
        else:
            value.reverse()
    notes.append(f"{show_path(path)}: {describe_short(here)} -> {describe_short(value)}")
    return set_at(tree, path, value)


def _prefix(a: JsonPath, b: JsonPath) -> bool:
    return b[:len(a)] == a


def describe_short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def copy_json(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) for v in value]
    return value


BAD_UTF8 = [b"\xff", b"\xfe", b"\xc3", b"\xc3\x28", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf", b"\xe2\x82",
            b"\x80", b"\xf8\x88\x80\x80\x80"]


def mutate_bytes(rng: random.Random, raw: bytes, notes: list[str]) -> bytes:
    """Damage of the kind a disk, a network or an editor does: bytes flipped, lost or added, a cut end."""
    data = bytearray(raw)
    op = rng.choice(["truncate", "truncate", "flip", "insert", "delete", "bad-utf8", "bom", "crlf", "append",
                     "nul", "utf16"])
    if op == "truncate":
        at = rng.randint(0, len(data))
        notes.append(f"cut at byte {at} of {len(data)}")
        return bytes(data[:at])
    if op == "flip" and data:
        for _ in range(rng.choice([1, 1, 2, 8])):
            at = rng.randrange(len(data))
            data[at] = rng.randrange(256) if rng.random() < 0.5 else data[at] ^ (1 << rng.randrange(8))
        notes.append("bytes flipped")
        return bytes(data)
    if op == "insert":
        at = rng.randint(0, len(data))
        piece = rng.randbytes(rng.choice([1, 2, 8, 64])) if rng.random() < 0.5 else \
            rng.choice([b"{", b"}", b"[", b"]", b",", b":", b'"', b"\\", b"\n", b"\r", b"\x00", b"NaN", b"1e400"])
        data[at:at] = piece
        notes.append(f"{piece[:16]!r} put in at byte {at}")
        return bytes(data)
    if op == "delete" and data:
        at = rng.randrange(len(data))
        size = rng.choice([1, 2, 10, 100, 1000])
        del data[at:at + size]
        notes.append(f"{size} bytes deleted at {at}")
        return bytes(data)
    if op == "bad-utf8":
        at = rng.randint(0, len(data))
        piece = rng.choice(BAD_UTF8)
        data[at:at] = piece
        notes.append(f"invalid UTF-8 {piece!r} at byte {at}")
        return bytes(data)
    if op == "bom":
        notes.append("byte-order mark put in front" + (" twice" if rng.random() < 0.3 else ""))
        return b"\xef\xbb\xbf" * (2 if notes[-1].endswith("twice") else 1) + bytes(data)
    if op == "crlf":
        notes.append("line ends written as CR LF")
        return bytes(data).replace(b"\n", b"\r\n")
    if op == "append":
        piece = rng.choice([b"\n", b" ", b"x", b"{}", b"\n\n", b"\x00", b"[]", rng.randbytes(16)])
        notes.append(f"{piece!r} appended")
        return bytes(data) + piece
    if op == "nul":
        at = rng.randint(0, len(data))
        data[at:at] = b"\x00" * rng.choice([1, 100])
        notes.append(f"NUL bytes at {at}")
        return bytes(data)
    notes.append("written as UTF-16")
    return bytes(data).decode("utf-8", "replace").encode("utf-16")


def random_bytes(rng: random.Random) -> bytes:
    size = rng.choice([0, 1, 2, 3, 16, 100, 1000, 10_000])
    if rng.random() < 0.5:
        return rng.randbytes(size)
    alphabet = b'{}[]:,"\\ -#&*!|>\n\r\t0123456789abcdefnrtuxyzEINaIfy.+~%@'
    return bytes(rng.choice(alphabet) for _ in range(size))


# ---------------------------------------------------------------------- random YAML

YAML_TAGS = ["!!int", "!!float", "!!bool", "!!null", "!!str", "!!set", "!!binary", "!!timestamp", "!!omap", "!!pairs",
             "!!seq", "!!map", "!!merge", "!!value", "!!yaml", "!!python/object/apply:os.system",
             "!!python/name:os.system", "!!python/tuple", "!!python/object:builtins.dict", "!!python/module:os",
             "!!python/bytes", "!!python/str", "!!python/complex", "!!python/none", "!custom", "!", "!!",
             "!<tag:yaml.org,2002:int>", "!<tag:yaml.org,2002:str>", "!<!>", "!e!x", "!<x>", "!!int:x"]
YAML_PLAIN = ["0", "-0", "007", "0x1F", "0o17", "0b101", "1_000", "1:20:30", "190:20:30.15", "+12", "1e400", "-1e400",
              "1e-400", "3.14", "6.8523015e+5", "685.230_15e+03", ".nan", ".NaN", ".NAN", ".inf", "-.inf", "+.Inf",
              ".Inf", "~", "null", "Null", "NULL", "true", "True", "FALSE", "yes", "No", "on", "OFF", "y", "n",
              "2001-12-14t21:59:43.10-05:00", "2002-12-14", "1999-99-99", "9" * 40, "-" + "9" * 400, "9" * 5000,
              "<<", "=", "?", "-", "|", ">", "@x", "`x", "%x", "!x", "&", "*", "a: b", "a #c", "[", "]", "{", "}",
              "-1", "1.0", "0.", ".", "...", "---", "a\tb", "£200", "$1,500", "200%", "x" * 200]
YAML_ESCAPES = [r"\e", r"\x07", r"\0", r"\a", r"\b", r"\v", r"\f", r"\N", r"\_", r"\L", r"\P", r"\u2028", r"\u2029",
                r"\x85", r"\x9b", r"\x1b[2J", r"\U0001F600", r"\ud800", r"\uDFFF", r"\uFEFF", r"\uFFFE", r"\t",
                r"\/", r"\"", r"\\", r"\ ", r"\r", r"\n", r"\q", r"\x", r"\u12", r"\U110000", r"\xzz", "\\"]
YAML_RAW_CHARS = ["\u2028", "\u2029", "\x85", "\r", "\ufeff", "\x00", "\x07", "\x1b", "\t", "\x7f", "\x9b",
                  "\ufffe", "\uffff", "\ud800", "\u00a0", "\u200b", "\x0c", "\x0b"]
#: Keys of ruleset files, so that random files get past "not a ruleset" into the deeper checks.
RULESET_KEYS = ["id", "name", "description", "kind", "extends", "currency", "bank", "houses", "hotels",
                "starting_cash", "groups", "board", "spaces", "decks", "cards", "rules", "dice", "count", "sides",
                "salary", "price", "rent", "mortgage", "house_cost", "color", "type", "effect", "text", "deck",
                "group", "end", "when", "setup", "deal_deeds", "building", "jail", "fees_to", "bankruptcies",
                "minutes", "rounds", "players", "min", "max", "auction", "trades", "keep"]


def yaml_word(rng: random.Random) -> str:
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz_") for _ in range(rng.randint(1, 10)))


def yaml_double_quoted(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(0, 6)):
        r = rng.random()
        if r < 0.45:
            parts.append(rng.choice(YAML_ESCAPES))
        elif r < 0.6:
            parts.append(rng.choice(YAML_RAW_CHARS))
        else:
            parts.append(random_text(rng, 6).replace('"', "").replace("\\", ""))
    return '"' + "".join(parts) + '"'


def yaml_scalar(rng: random.Random) -> str:
    """One scalar as written in a flow context: plain, quoted, tagged, anchored or an alias."""
    r = rng.random()
    if r < 0.25:
        text = rng.choice(YAML_PLAIN)
    elif r < 0.35:
        text = str(rng.choice(HOSTILE_INTS))
    elif r < 0.45:
        text = yaml_word(rng)
    elif r < 0.52:
        text = "'" + random_text(rng, 10).replace("'", "''") + "'"
    elif r < 0.7:
        text = yaml_double_quoted(rng)
    elif r < 0.75:
        text = yaml_word(rng) + rng.choice(YAML_RAW_CHARS) + yaml_word(rng)
    elif r < 0.8:
        text = rng.choice("xy\x1b") * rng.choice([1000, 10_000, 100_000])
    elif r < 0.88:
        text = f"*{rng.choice(['a', 'b', 'x', 'undefined', yaml_word(rng)])}"
        return text
    else:
        text = rng.choice(YAML_PLAIN + ["", "x", '"x"', "'1'", "abc"])
    if rng.random() < 0.2:
        text = f"{rng.choice(YAML_TAGS)} {text}"
    if rng.random() < 0.08:
        text = f"&{rng.choice(['a', 'b', 'x', yaml_word(rng)])} {text}"
    return text


def yaml_flow(rng: random.Random, depth: int) -> str:
    r = rng.random()
    if depth <= 0 or r < 0.55:
        return yaml_scalar(rng)
    items = rng.randint(0, 4)
    prefix = ""
    if rng.random() < 0.15:
        prefix = f"&{rng.choice(['a', 'b', 'x'])} "
    if rng.random() < 0.1:
        prefix += rng.choice(["!!set ", "!!omap ", "!!map ", "!!seq ", "!!str ", "!!python/tuple "])
    if r < 0.78:
        return prefix + "[" + ", ".join(yaml_flow(rng, depth - 1) for _ in range(items)) + "]"
    return prefix + "{" + ", ".join(f"{yaml_key(rng)}: {yaml_flow(rng, depth - 1)}" for _ in range(items)) + "}"


def yaml_key(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.5:
        return rng.choice(RULESET_KEYS)
    if r < 0.65:
        return yaml_word(rng)
    if r < 0.75:
        return rng.choice(["<<", "? x", "[a, b]", "{a: 1}", "1", "1.5", "true", "null", "~", "''", '""', "on",
                           "!!int 3", "&k key", "*a", "-", "a b", "id", "'id'", '"id"'])
    return yaml_scalar(rng)


def yaml_block(rng: random.Random, depth: int, indent: int, lines: list[str]) -> None:
    """A block mapping or sequence at ``indent`` appended to ``lines``."""
    pad = " " * indent
    sequence = rng.random() < 0.35
    for _ in range(rng.randint(1, 5)):
        head = f"{pad}- " if sequence else f"{pad}{yaml_key(rng)}:"
        r = rng.random()
        if depth > 0 and r < 0.35:
            anchor = f" &{rng.choice(['a', 'b', 'x'])}" if rng.random() < 0.15 else ""
            if sequence:
                lines.append(f"{pad}-{anchor}")
            else:
                lines.append(head + anchor)
            yaml_block(rng, depth - 1, indent + rng.choice([2, 2, 4, 1]), lines)
        elif r < 0.45:
            style = rng.choice(["|", ">", "|-", ">+", "|2", "|9", ">-", "|+"])
            lines.append(f"{head} {style}" if not sequence else f"{pad}- {style}")
            for _ in range(rng.randint(0, 3)):
                lines.append(" " * (indent + 2) + random_text(rng, 30).replace("\n", ""))
        elif r < 0.5:
            lines.append(f"{head} <<: *{rng.choice(['a', 'b', 'nope'])}" if sequence else f"{pad}<<: *a")
        else:
            lines.append(f"{head} {yaml_flow(rng, max(depth - 1, 0))}")


def random_yaml(rng: random.Random, notes: list[str]) -> bytes:
    """A random YAML document (or several): shapes of rulesets, every tag, anchors, deep or long nodes."""
    r = rng.random()
    lines: list[str] = []
    if rng.random() < 0.1:
        lines.append(rng.choice(["%YAML 1.1", "%YAML 1.2", "%YAML 9.9", "%TAG ! tag:yaml.org,2002:",
                                 "%TAG !e! tag:example.com,2000:", "%FOO bar"]))
        lines.append("---")
    elif rng.random() < 0.1:
        lines.append(rng.choice(["---", "--- !!map", "--- &a", "--- |"]))
    if r < 0.08:
        depth = rng.choice([10, 63, 64, 65, 100, 1000, 50_000])
        notes.append(f"flow nesting {depth} deep")
        lines.append("id: deep")
        lines.append("x: " + "[" * depth + "]" * depth if rng.random() < 0.5 else "x: " + "{a: " * depth + "1"
                     + "}" * depth)
    elif r < 0.14:
        depth = rng.choice([20, 64, 65, 200, 2000])
        notes.append(f"block nesting {depth} deep")
        lines.append("id: deep")
        lines.extend(" " * i + ("- " if rng.random() < 0.3 else "a:") for i in range(depth))
        lines[-1] += " 1"
    elif r < 0.2:
        levels = rng.randint(2, 10)
        width = rng.randint(2, 10)
        notes.append(f"alias bomb {levels} levels x {width}")
        lines.append("id: laughs")
        lines.append("l0: &l0 [" + ", ".join(["lol"] * width) + "]")
        for level in range(1, levels):
            lines.append(f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * width) + "]")
        lines.append(f"board: *l{levels - 1}")
    elif r < 0.25:
        size = rng.choice([10_000, 100_000, 1_000_000, 1_100_000])
        notes.append(f"a line of {size} characters")
        lines.append("id: long")
        lines.append("name: " + rng.choice(["x", "é", "\x1b", "9"]) * size)
    elif r < 0.3:
        notes.append("scalar tags")
        lines.append("id: " + yaml_scalar(rng))
        for key in rng.sample(RULESET_KEYS, 6):
            lines.append(f"{key}: {rng.choice(YAML_TAGS)} {rng.choice(YAML_PLAIN)}")
    else:
        notes.append("random ruleset-shaped document" if r < 0.8 else "random document")
        if r < 0.8:
            lines.append(f"id: {yaml_scalar(rng) if rng.random() < 0.3 else yaml_word(rng)}")
            if rng.random() < 0.4:
                parent = rng.choice(["classic", "uk", "nope", "x.yaml", "/dev/zero", yaml_scalar(rng)])
                lines.append(f"extends: {parent}")
            if rng.random() < 0.3:
                lines.append("kind: " + rng.choice(["variant", "edition", yaml_scalar(rng)]))
            yaml_block(rng, rng.randint(1, 4), 0, lines)
        elif r < 0.9:
            yaml_block(rng, rng.randint(0, 5), 0, lines)
        else:
            lines.append(yaml_flow(rng, 5))
    if rng.random() < 0.1:
        lines.extend(["---", "id: second"] if rng.random() < 0.5 else ["...", "--- x"])
    end = rng.choice(["\n", "\n", "\r\n", "", "\r"])
    text = end.join(lines) + (end if end else "")
    if rng.random() < 0.05:
        text = "\ufeff" + text
        notes.append("BOM")
    return encode_text(text)


# ---------------------------------------------------------------------- YAML file mutations

_VALUE_LINE = re.compile(r"^(\s*(?:-\s+)?(?:[^\s#\"'{\[][^#:]*?|\"[^\"]*\"|'[^']*')\s*:\s+)(\S.*)$")
_ITEM_LINE = re.compile(r"^(\s*-\s+)(\S.*)$")


def value_lines(lines: Sequence[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if _VALUE_LINE.match(line) or _ITEM_LINE.match(line)]


def replace_value(line: str, value: str) -> str:
    match = _VALUE_LINE.match(line) or _ITEM_LINE.match(line)
    if match is None:
        return line
    return match.group(1) + value


def mutate_yaml_lines(rng: random.Random, lines: list[str], notes: list[str]) -> list[str]:
    if not lines:
        lines = [""]
    op = rng.choice(["delete", "duplicate", "swap", "move", "indent", "value", "value", "value", "key", "insert",
                     "anchor-alias", "special-char", "join", "split", "comment", "tab"])
    i = rng.randrange(len(lines))
    if op == "delete":
        size = rng.choice([1, 1, 2, 5, 20])
        notes.append(f"lines {i + 1}-{i + size} deleted")
        del lines[i:i + size]
    elif op == "duplicate":
        size = rng.choice([1, 1, 3])
        notes.append(f"lines {i + 1}-{i + size} duplicated")
        lines[i:i] = lines[i:i + size]
    elif op == "swap":
        j = rng.randrange(len(lines)) if rng.random() < 0.5 else min(i + 1, len(lines) - 1)
        lines[i], lines[j] = lines[j], lines[i]
        notes.append(f"lines {i + 1} and {j + 1} swapped")
    elif op == "move":
        line = lines.pop(i)
        j = rng.randint(0, len(lines))
        lines.insert(j, line)
        notes.append(f"line {i + 1} moved to {j + 1}")
    elif op == "indent":
        delta = rng.choice([-4, -2, -1, 1, 2, 4])
        lines[i] = " " * delta + lines[i] if delta > 0 else lines[i][-delta:] if lines[i][:-delta].isspace() \
            else lines[i]
        notes.append(f"line {i + 1} indented by {delta}")
    elif op == "value":
        candidates = value_lines(lines)
        if candidates:
            i = rng.choice(candidates)
            value = yaml_flow(rng, 2) if rng.random() < 0.3 else yaml_scalar(rng)
            lines[i] = replace_value(lines[i], value)
            notes.append(f"line {i + 1}: value -> {value[:60]!r}")
    elif op == "key":
        match = re.match(r"^(\s*(?:-\s+)?)([^\s#:][^#:]*?)(\s*:.*)$", lines[i])
        if match:
            key = yaml_key(rng)
            lines[i] = match.group(1) + key + match.group(3)
            notes.append(f"line {i + 1}: key -> {key!r}")
    elif op == "insert":
        pad = len(lines[i]) - len(lines[i].lstrip(" "))
        extra: list[str] = []
        yaml_block(rng, rng.randint(0, 2), pad, extra)
        lines[i:i] = extra
        notes.append(f"{len(extra)} random lines put in at line {i + 1}")
    elif op == "anchor-alias":
        candidates = value_lines(lines)
        if len(candidates) >= 2:
            a, b = rng.sample(candidates, 2)
            match = _VALUE_LINE.match(lines[a]) or _ITEM_LINE.match(lines[a])
            assert match is not None
            lines[a] = match.group(1) + "&anc " + match.group(2)
            lines[b] = replace_value(lines[b], rng.choice(["*anc", "*anc", "*missing", "{<<: *anc}", "[*anc, *anc]"]))
            notes.append(f"anchor on line {a + 1}, alias on line {b + 1}")
    elif op == "special-char":
        line = lines[i]
        at = rng.randint(0, len(line))
        char = rng.choice(YAML_RAW_CHARS + YAML_ESCAPES)
        lines[i] = line[:at] + char + line[at:]
        notes.append(f"line {i + 1}: {char!r} put in at column {at + 1}")
    elif op == "join" and i + 1 < len(lines):
        lines[i:i + 2] = [lines[i] + rng.choice(["", " ", ", "]) + lines[i + 1].lstrip()]
        notes.append(f"lines {i + 1} and {i + 2} joined")
    elif op == "split" and lines[i]:
        at = rng.randint(0, len(lines[i]))
        lines[i:i + 1] = [lines[i][:at], lines[i][at:]]
        notes.append(f"line {i + 1} split at column {at + 1}")
    elif op == "comment":
        lines[i] = rng.choice(["# ", "#", ""]) + lines[i] + rng.choice(["  # \x1b[2J", " #", "", " # \u2028"])
        notes.append(f"line {i + 1} commented")
    else:
        lines[i] = lines[i].replace("  ", "\t", 1)
        notes.append(f"line {i + 1}: a tab in the indentation")
    return lines


def yaml_mutant(rng: random.Random, source: bytes, notes: list[str]) -> bytes:
    lines = source.decode("utf-8").split("\n")
    for _ in range(rng.choice([1, 1, 1, 2, 3, 5])):
        lines = mutate_yaml_lines(rng, lines, notes)
    raw = encode_text("\n".join(lines))
    if rng.random() < 0.25:
        raw = mutate_bytes(rng, raw, notes)
    return raw


# ---------------------------------------------------------------------- the corpus of real files


@dataclass(eq=False)
class Corpus:
    """Real files to start from: rulesets, saves (with their logs) and logs."""

    yaml_sources: list[tuple[str, bytes]]
    saves: list[tuple[str, bytes]]
    save_logs: dict[str, bytes]
    logs: list[tuple[str, bytes]]
    save_keys: list[str] = field(default_factory=list)
    log_keys: list[str] = field(default_factory=list)
    #: What `replay` needs besides the log for a game not on a built-in ruleset (--ruleset, --variant).
    log_args: dict[str, list[str]] = field(default_factory=dict)

    def digest(self) -> str:
        """A short hash of every file: the same corpus makes the same inputs."""
        h = hashlib.sha256()
        for group in (self.yaml_sources, self.saves, self.logs, sorted(self.save_logs.items())):
            for name, data in group:
                h.update(name.encode() + b"\0" + data + b"\0")
        return h.hexdigest()[:12]


YAML_SOURCES = (["rulesets/classic.yaml", "rulesets/uk.yaml"]
                + sorted(f"rulesets/variants/{p.name}" for p in (RULESETS / "variants").glob("*.yaml"))
                + sorted(f"tests/data/good/{p.name}" for p in (DATA / "good").glob("*.yaml"))
                + sorted(f"tests/data/hostile/draws/{p.name}" for p in (DATA / "hostile" / "draws").glob("*.yaml")))
#: Rulesets of the tests played for saves and logs: (a ruleset file, None) or (None, a variant of classic).
OTHER_BOARDS = [("tests/data/good/mini.yaml", None), ("tests/data/good/harbour-24.yaml", None),
                ("tests/data/good/metro-48.yaml", None), ("tests/data/hostile/draws/ping-pong.yaml", None),
                ("tests/data/hostile/draws/tiny.yaml", None), (None, "tests/data/hostile/draws/fan-out.yaml")]
#: How often each source file is mutated (classic most, as in the brief).
YAML_WEIGHTS = {"rulesets/classic.yaml": 8, "rulesets/uk.yaml": 4}


def _invoke(args: Sequence[str], stdin: str = "") -> Any:
    from click.testing import CliRunner

    from monopoly.cli.main import cli

    result = CliRunner().invoke(cli, list(args), input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise RuntimeError(f"building the corpus: {args} crashed") from result.exception
    return result


def _normalise_save(raw: bytes) -> bytes:
    """A save with its clock-dependent time_left fixed, so the corpus is the same on every run."""
    data = json.loads(raw)
    if isinstance(data.get("time_left"), float):
        data["time_left"] = FIXED_TIME_LEFT
    return json.dumps(data, separators=(",", ":")).encode()


def _mid_game(folder: Path, name: str, ruleset: str, variants: list[str], players: list[str], seed: int,
              turns: int) -> tuple[bytes, bytes, bytes]:
    """A game of bots stopped after ``turns`` turns: the save of `monopoly play`, its log, the engine's save."""
    import monopoly
    from monopoly.cli.play_command import Session, make_agents
    from monopoly.cli.render_text import Narrator

    loaded = monopoly.load_ruleset(ruleset, variants)
    narrator = Narrator(loaded, echo=lambda line: None)
    game = monopoly.Game(loaded, make_agents(players, narrator), seed=seed, max_turns=CORPUS_MAX_TURNS,
                         observers=[narrator])
    session = Session(game, narrator, players, ruleset, variants, None)
    log_path = folder / f"{name}.jsonl"
    session.open_log(open(log_path, "w", encoding="utf-8", newline="\n"))  # noqa: SIM115 - closed below
    for _ in range(turns):
        if game.finished:
            break
        game.play_turn()
    session.log.flush()  # type: ignore[union-attr]
    snapshot = session.snapshot()
    session.close_log()
    play_save = _normalise_save(json.dumps(snapshot).encode())
    engine_save = json.dumps(monopoly.game_to_json(game), separators=(",", ":")).encode()
    return play_save, log_path.read_bytes(), engine_save


@functools.lru_cache(maxsize=1)
def build_corpus() -> Corpus:
    """Saves and logs written by the program itself (CLI and engine), and the ruleset files."""
    yaml_sources = [(name, (ROOT / name).read_bytes()) for name in YAML_SOURCES]
    saves: list[tuple[str, bytes]] = []
    save_logs: dict[str, bytes] = {}
    logs: list[tuple[str, bytes]] = []
    log_args: dict[str, list[str]] = {}
    here = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="monopoly-fuzz-corpus-") as tmp:
        folder = Path(tmp)
        os.chdir(folder)
        try:
            # Finished games of bots, as the brief gives them, on the editions and variants.
            plays = [("classic", [], 1), ("classic", [], 2), ("classic", [], 3), ("uk", [], 4),
                     ("classic", ["short-game"], 5), ("classic", ["time-limit"], 6),
                     ("classic", ["free-parking-jackpot", "income-tax-2008"], 7), ("classic", ["tournament"], 8)]
            for ruleset, variants, seed in plays:
                name = f"play-{ruleset}-{'-'.join(variants) or 'plain'}-{seed}"
                args = ["play", ruleset, *[a for v in variants for a in ("--variant", v)], "--players",
                        "greedy,cautious", "--seed", str(seed), "--max-turns", str(CORPUS_MAX_TURNS),
                        "--save", f"{name}.json", "--log", f"{name}.jsonl"]
                _invoke(args)
                saves.append((name, _normalise_save((folder / f"{name}.json").read_bytes())))
                save_logs[name] = (folder / f"{name}.jsonl").read_bytes()
                logs.append((name, save_logs[name]))
            # Other boards: the small and large editions of the tests, and decks that draw from each other.
            for path, variant in OTHER_BOARDS:
                name = f"board-{Path(variant or path).stem}"
                ruleset = "classic" if variant else str(ROOT / path)
                args = ["play", ruleset, *(["--variant", str(ROOT / variant)] if variant else []), "--players",
                        "trader,random", "--seed", "17", "--max-turns", str(CORPUS_MAX_TURNS), "--save",
                        f"{name}.json", "--log", f"{name}.jsonl"]
                _invoke(args)
                saves.append((name, _normalise_save((folder / f"{name}.json").read_bytes())))
                save_logs[name] = (folder / f"{name}.jsonl").read_bytes()
                logs.append((name, save_logs[name]))
                log_args[name] = ["--ruleset", ruleset, *(["--variant", str(ROOT / variant)] if variant else [])]
            # A person, who answers a few questions and quits (a save in the middle of a game, or before it).
            for seed, answers in ((5, 20), (9, 3), (10, 0)):
                name = f"person-{seed}"
                _invoke(["play", "classic", "--players", "you,greedy", "--seed", str(seed), "--max-turns",
                         str(CORPUS_MAX_TURNS), "--save", f"{name}.json", "--log", f"{name}.jsonl"],
                        "\n" * answers + "quit\n")
                saves.append((name, _normalise_save((folder / f"{name}.json").read_bytes())))
                save_logs[name] = (folder / f"{name}.jsonl").read_bytes()
                logs.append((name, save_logs[name]))
            # Bots stopped part way (as a save after a turn is), in both save formats.
            for ruleset, variants, players, seed, turns in (
                    ("classic", [], ["greedy", "cautious"], 11, 10),
                    ("classic", [], ["random", "trader", "greedy"], 12, 5),
                    ("classic", ["time-limit"], ["greedy", "trader"], 13, 12),
                    ("uk", ["short-game"], ["cautious", "random"], 14, 8)):
                name = f"mid-{ruleset}-{'-'.join(variants) or 'plain'}-{seed}"
                play_save, log, engine_save = _mid_game(folder, name, ruleset, variants, players, seed, turns)
                saves.append((name, play_save))
                save_logs[name] = log
                logs.append((name, log))
                saves.append((f"engine-{name}", engine_save))
            # Logs of simulate, as the brief gives them.
            _invoke(["simulate", "classic", "--games", "3", "--players", "greedy,random", "--max-turns", "60",
                     "--log", "sim"])
            for path in sorted((folder / "sim").glob("*.jsonl")):
                logs.append((f"simulate-{path.stem}", path.read_bytes()))
            _invoke(["simulate", "classic", "--variant", "short-game", "--games", "1", "--players",
                     "trader,cautious,greedy", "--seed", "21", "--max-turns", "80", "--log", "sim2"])
            for path in sorted((folder / "sim2").glob("*.jsonl")):
                logs.append((f"simulate-short-{path.stem}", path.read_bytes()))
        finally:
            os.chdir(here)
    save_keys = sorted({k for _, raw in saves for p in all_paths(json.loads(raw)) for k in p if isinstance(k, str)})
    log_keys = sorted({k for _, raw in logs for line in raw.splitlines() for k in json.loads(line)})
    return Corpus(yaml_sources, saves, save_logs, logs, save_keys, log_keys, log_args)


# ---------------------------------------------------------------------- games with hostile answers


class HostileAnswers(Wrapper):
    """A bot that now and then answers something hostile: a wrong type, a lot off the board, a trade with
    a seat that is not playing, cash it has not got. Recorded (RecordingAgent), its game is a log whose
    decisions are all odd, and that must still replay or be refused cleanly."""

    def __init__(self, inner: Any, rng: random.Random, rate: float, board: int, players: int):
        super().__init__(inner)
        self.rng = rng
        self.rate = rate
        self.board = board
        self.players = players

    def _odd(self) -> bool:
        return self.rng.random() < self.rate

    # Mostly values the log's schema takes (whole numbers from 0), so that the log is read and replayed;
    # now and then one it refuses (the recorder writes those as they are: see the report of the campaign).
    def _space(self) -> Any:
        if self.rng.random() < 0.02:
            return self.rng.choice([-1, True, None, "3", 1.0])
        return self.rng.choice([0, 1, self.rng.randrange(self.board), self.board - 1, self.board, self.board + 1,
                                10**6, 10**15 - 1])

    def _seat(self, seat: int) -> Any:
        if self.rng.random() < 0.02:
            return self.rng.choice([-1, True, None])
        return self.rng.choice([seat, seat, (seat + 1) % self.players, (seat + 1) % self.players, self.players, 99,
                                10**15 - 1])

    def _cash(self) -> Any:
        if self.rng.random() < 0.02:
            return self.rng.choice([-5, True, 1.5])
        return self.rng.choice([0, 0, 1, 10, 200, 10**9, 10**12, 10**15 - 1])

    def _cards(self) -> Any:
        return self.rng.choice([(), (), (("chance", 6),), (("community_chest", 4),), (("chance", 99),), (("nope", 0),),
                                (("chance", 6), ("chance", 6)), (("", 0),) if self.rng.random() < 0.05 else ()])

    def _action(self, game: Any, seat: int) -> Any:
        from monopoly.game import Build, Mortgage, SellBuilding, Trade, Unmortgage

        r = self.rng.random()
        if r < 0.5:
            return self.rng.choice([Build, SellBuilding, Mortgage, Unmortgage])(self._space())
        if r < 0.85:
            spaces = [self._space() for _ in range(self.rng.choice([0, 1, 2]))]
            if spaces and self.rng.random() < 0.2:
                spaces.append(spaces[0])
            owned = [i for i, o in enumerate(game.owner) if o >= 0]
            if owned and self.rng.random() < 0.5:
                spaces = self.rng.sample(owned, min(len(owned), self.rng.choice([1, 2])))
            return Trade(self._seat(seat), self._seat(seat), tuple(spaces), self._cash(), self._cards(),
                         tuple(self.rng.sample(owned, min(len(owned), 1))) if owned else (), self._cash(),
                         self._cards())
        return self.rng.choice([None, 5, "x", True, "build"])

    def buy(self, game: Any, seat: int, space: int) -> Any:
        if self._odd():
            return self.rng.choice([1, 0, "yes", None, 2, -1])
        return self.inner.buy(game, seat, space)

    def bid(self, game: Any, seat: int, item: Any, high_bid: int, leader: Any) -> Any:
        if self._odd():
            return self.rng.choice([0, 1, -1, high_bid, high_bid + 1, 10**9, 10**15 - 1, True, "10", None, 1.5])
        return self.inner.bid(game, seat, item, high_bid, leader)

    def jail(self, game: Any, seat: int, options: tuple[str, ...]) -> Any:
        if self._odd():
            return self.rng.choice([*options, "card", "pay", "x", "", None, 1, "ROLL"])
        return self.inner.jail(game, seat, options)

    def choose(self, game: Any, seat: int, options: tuple[str, ...]) -> Any:
        if self._odd():
            return self.rng.choice([0, 1, len(options), -1, 99, True, None, "0"])
        return self.inner.choose(game, seat, options)

    def act(self, game: Any, seat: int) -> Any:
        if self._odd():
            return self._action(game, seat)
        return self.inner.act(game, seat)

    def answer_trade(self, game: Any, seat: int, trade: Any) -> Any:
        if self._odd():
            return self.rng.choice([True, False, 1, None, "yes"])
        return self.inner.answer_trade(game, seat, trade)

    def raise_funds(self, game: Any, seat: int, owed: int) -> Any:
        if self._odd():
            return self._action(game, seat)
        return self.inner.raise_funds(game, seat, owed)

    def lift_mortgage(self, game: Any, seat: int, space: int) -> Any:
        if self._odd():
            return self.rng.choice([True, False, 0, None])
        return self.inner.lift_mortgage(game, seat, space)


@functools.lru_cache(maxsize=16)
def _ruleset(name: str, variants: tuple[str, ...]) -> Any:
    import monopoly

    return monopoly.load_ruleset(name, list(variants))


HOSTILE_GAME_RULESETS: list[tuple[str, tuple[str, ...], list[str]]] = [
    ("classic", (), []), ("classic", ("short-game",), []), ("uk", (), []), ("classic", ("time-limit",), []),
    ("classic", ("free-parking-jackpot",), []),
    (str(DATA / "good" / "mini.yaml"), (), ["--ruleset", str(DATA / "good" / "mini.yaml")]),
    (str(DATA / "hostile" / "draws" / "tiny.yaml"), (), ["--ruleset", str(DATA / "hostile" / "draws" / "tiny.yaml")]),
]


def hostile_game_log(rng: random.Random, notes: list[str]) -> tuple[bytes, list[str]]:
    """The log of a short game whose recorded seats answer oddly now and then; and the replay's extra args."""
    import io

    import monopoly
    from monopoly.agents import RecordingAgent
    from monopoly.game.log import EventLog

    name, variants, extra = rng.choice(HOSTILE_GAME_RULESETS)
    ruleset = _ruleset(name, variants)
    count = rng.choice([2, 2, 3, 4])
    bots = [rng.choice(BOT_NAMES) for _ in range(count)]
    rate = rng.choice([0.05, 0.2, 0.5, 1.0])
    seed = rng.randrange(1, 10**6)
    agents: list[Any] = []
    for seat, bot in enumerate(bots):
        if seat == 0 or rng.random() < 0.5:
            agents.append(RecordingAgent(HostileAnswers(monopoly.make_agent(bot), random.Random(rng.random()), rate,
                                                        len(ruleset.board), count)))
        else:
            agents.append(monopoly.make_agent(bot))
    out = io.StringIO()
    game = monopoly.Game(ruleset, agents, seed=seed, max_turns=rng.choice([5, 20, 40]), observers=[EventLog(out)])
    turns = rng.choice([None, None, 3, 10])
    while not game.finished and (turns is None or game.turn < turns):
        game.play_turn()
    notes.append(f"a game of {name} {list(variants)} seed {seed}, {bots}, odd answers at rate {rate}"
                 + (f", stopped after turn {turns}" if turns else ""))
    return out.getvalue().encode("utf-8"), extra


def fresh_save(rng: random.Random, notes: list[str]) -> tuple[bytes, list[str]]:
    """A save of a game of random bots on a random ruleset, stopped after a random turn (either format);
    and the arguments `play --resume` needs besides (an engine save names its ruleset by id, not by file)."""
    import monopoly
    from monopoly.cli.play_command import Session, make_agents
    from monopoly.cli.render_text import Narrator

    name, variants, _ = rng.choice(HOSTILE_GAME_RULESETS + [(str(ROOT / p), (), []) for p, _ in OTHER_BOARDS if p])
    ruleset = _ruleset(name, variants)
    players = [rng.choice(BOT_NAMES) for _ in range(rng.choice([2, 2, 3, 4]))]
    seed = rng.randrange(1, 10**6)
    narrator = Narrator(ruleset, echo=lambda line: None)
    # Always a turn limit: a game of bots alone without one may never end (see the campaign's report).
    game = monopoly.Game(ruleset, make_agents(players, narrator), seed=seed,
                         max_turns=rng.choice([CORPUS_MAX_TURNS, CORPUS_MAX_TURNS, 60]))
    turns = rng.randint(0, 29)
    while not game.finished and game.turn < turns:
        game.play_turn()
    notes.append(f"a save of {Path(name).name} {list(variants)} seed {seed}, {players}, after turn {game.turn}")
    extra: list[str] = []
    if rng.random() < 0.5:
        data: Any = Session(game, narrator, players, name, list(variants), None).snapshot()
        if ruleset.rules.end.when == "time":
            data["time_left"] = rng.choice([FIXED_TIME_LEFT, 0.0, 0.001, 1e300])
        if rng.random() < 0.3:
            seat = rng.randrange(len(players))
            data["players"][seat] = data["game"]["agents"][seat] = rng.choice(["human", "human:Ada"])
            notes.append(f"seat {seat} is now a person")
    else:
        data = monopoly.game_to_json(game)
        notes.append("(the engine's format)")
        if name not in BUILTIN_NAMES:
            extra = [name]
    return json.dumps(data, separators=(",", ":")).encode(), extra


# ---------------------------------------------------------------------- cases


@dataclass
class Case:
    """One input to one entry point: the file, the command line and what is typed."""

    kind: str
    seed: int
    index: int
    data: bytes
    args: list[str]  # with {file} (and {log}) for the paths
    stdin: str = ""
    log: bytes | None = None  # resume --log: the log file's content (None: no such file)
    notes: list[str] = field(default_factory=list)

    def label(self) -> str:
        return f"{self.kind} seed={self.seed} index={self.index}"

    def describe(self) -> str:
        notes = "; ".join(self.notes)
        return f"{self.label()}: {notes[:600]}"


FILE_NAMES = {"validate": "mutant.yaml", "resume": "save.json", "replay": "game.jsonl"}


def _rng(kind: str, seed: int, index: int) -> random.Random:
    return random.Random(f"monopoly-fuzz:{kind}:{seed}:{index}")


def _weighted_source(rng: random.Random, corpus: Corpus) -> tuple[str, bytes]:
    weights = [YAML_WEIGHTS.get(name, 1) for name, _ in corpus.yaml_sources]
    return rng.choices(corpus.yaml_sources, weights)[0]


@functools.lru_cache(maxsize=8)
def _yaml_sweep(corpus: Corpus) -> tuple[tuple[int, int], ...]:
    """(source, line) of every value line of every source file: each replaced once, at the start."""
    out = []
    for s, (_, raw) in enumerate(corpus.yaml_sources):
        for line in value_lines(raw.decode("utf-8").split("\n")):
            out.append((s, line))
    return tuple(out)


def make_validate(rng: random.Random, corpus: Corpus, index: int, sweep: bool) -> Case:
    notes: list[str] = []
    points = _yaml_sweep(corpus)
    args = ["validate", "{file}"]
    if sweep and index < len(points):
        s, line = points[index]
        name, raw = corpus.yaml_sources[s]
        lines = raw.decode("utf-8").split("\n")
        value = yaml_scalar(rng) if rng.random() < 0.7 else yaml_flow(rng, 2)
        lines[line] = replace_value(lines[line], value)
        notes.append(f"{name} line {line + 1}: value -> {value[:80]!r}")
        data = encode_text("\n".join(lines))
    else:
        r = rng.random()
        if r < 0.12:
            data = random_bytes(rng)
            notes.append(f"{len(data)} random bytes")
        elif r < 0.4:
            data = random_yaml(rng, notes)
        else:
            name, raw = _weighted_source(rng, corpus)
            notes.append(f"mutant of {name}")
            data = yaml_mutant(rng, raw, notes)
    r = rng.random()
    if r < 0.25:
        args += ["--format", "json"]
    elif r < 0.3:
        args += ["--max-problems", rng.choice(["0", "1", "3"])]
    elif r < 0.35:
        args = ["validate", "classic", "--variant", "{file}"]
    return Case("validate", 0, index, data, args, notes=notes)


_SWEEP_VALUES: list[Any] = [None, True, False, -1, 0, 2**64, 10**30, 1.5, float("nan"), Raw("1e400"), Raw("NaN"),
                            "x", "\x1b[2J", "", [], {}, [[]], [None] * 3, Raw("[" * 100 + "]" * 100),
                            Raw('"\\ud800"')]


@functools.lru_cache(maxsize=8)
def _save_sweep(corpus: Corpus) -> tuple[tuple[int, JsonPath, int], ...]:
    """(save, path, value): every key pattern of a person's save and of an engine save, with each sweep value."""
    chosen = [i for i, (name, _) in enumerate(corpus.saves) if name in ("person-5", "engine-mid-classic-plain-11",
                                                                       "mid-classic-time-limit-13")]
    out = []
    for s in chosen:
        for _, paths in _patterns_of(corpus.saves[s][1].decode()):
            for v in range(len(_SWEEP_VALUES)):
                out.append((s, paths[len(paths) // 2], v))
    return tuple(out)


def _serialise(rng: random.Random, tree: Any) -> str:
    if not has_special(tree) and rng.random() < 0.3:
        try:
            return json.dumps(tree, indent=rng.choice([None, 1, 2, "\t"]), ensure_ascii=rng.random() < 0.8)
        except ValueError:  # an int past Python's digit limit
            pass
    return dump_json(tree, ascii_only=rng.random() < 0.8, compact=rng.random() < 0.8)


RESUME_INPUTS = ["", "quit\n", "\n" * 3 + "quit\n", "\n" * 200, "y\nn\n1\nt\nhelp\nboard\nme\nplayers\nquit\n",
                 "quit\nn\n", "quit\ngame.json\n", "\x1b[2J\n\x00\nquit\n", "99999999999999999999\n-1\nyes\n"]


TYPED_WORDS = ["", "", "", "y", "n", "yes", "no", "1", "2", "3", "9", "0", "-5", "t", "help", "board", "me",
               "players", "quit", "roll", "pay", "card", "10", "1500", "99999999999999999999", "1,1", "all", "done",
               "\x1b[2J", "\x00", "é", " 1 ", "1e400", "nan", "-0", "00000001", "n" * 5000]


def make_resume(rng: random.Random, corpus: Corpus, index: int, sweep: bool) -> Case:
    notes: list[str] = []
    points = _save_sweep(corpus)
    log: bytes | None = None
    args = ["play", "--resume", "{file}"]
    if sweep and index < len(points):
        s, path, v = points[index]
        name, raw = corpus.saves[s]
        tree = set_at(json.loads(raw), path, copy_json(_SWEEP_VALUES[v]))
        notes.append(f"{name}: {show_path(path)} -> {_SWEEP_VALUES[v]!r}")
        data = encode_text(dump_json(tree))
    else:
        r = rng.random()
        if r < 0.04:
            data = random_bytes(rng)
            notes.append(f"{len(data)} random bytes")
        elif r < 0.08:
            value = random_json(rng, 4, corpus.save_keys)
            data = encode_text(dump_json(value))
            notes.append(f"a random JSON value {describe_short(value)}")
        elif r < 0.23:
            data, extra_args = fresh_save(rng, notes)
            args += extra_args
            if rng.random() < 0.6:
                tree = json.loads(data)
                for _ in range(rng.choice([1, 1, 2])):
                    tree = plausible_change(rng, tree, notes) if rng.random() < 0.7 else \
                        mutate_tree(rng, tree, None, corpus.save_keys, notes)
                data = encode_text(dump_json(tree))
        else:
            s = rng.randrange(len(corpus.saves))
            name, raw = corpus.saves[s]
            notes.append(f"mutant of save {name}")
            tree = json.loads(raw)
            donors = [json.loads(d) for n, d in corpus.saves if n != name and n.startswith(name[:4])][:2]
            plausible = rng.random() < 0.35
            for _ in range(rng.choice([1, 1, 1, 2, 3, 5])):
                if plausible:
                    tree = plausible_change(rng, tree, notes)
                else:
                    tree = mutate_tree(rng, tree, raw.decode(), corpus.save_keys, notes, donors)
            data = encode_text(_serialise(rng, tree))
            if rng.random() < 0.15:
                data = mutate_bytes(rng, data, notes)
            if name in corpus.save_logs and rng.random() < 0.2:
                log = corpus.save_logs[name] if rng.random() < 0.7 else \
                    b"\n".join(corpus.save_logs[name].split(b"\n")[:rng.randint(0, 50)])
                args += ["--log", "{log}"] + (["--force"] if rng.random() < 0.3 else [])
                notes.append("with --log, the game's log" + (" (cut)" if not log.endswith(b"\n") else ""))
    if rng.random() < 0.04:
        extra = rng.choice([["classic"], ["uk"], ["--variant", "short-game"], ["mini.yaml"], ["--save", "other.json"],
                            ["--force"]])
        args += extra
        notes.append(f"with {' '.join(extra)}")
    stdin = rng.choice(RESUME_INPUTS) if rng.random() < 0.8 else \
        "".join(rng.choice(TYPED_WORDS) + "\n" for _ in range(rng.randint(1, 60)))
    return Case("resume", 0, index, data, args, stdin=stdin, log=log, notes=notes)


@functools.lru_cache(maxsize=8)
def _log_sweep(corpus: Corpus) -> tuple[tuple[int, int, str, int], ...]:
    """(log, line, key, value): every key of every event type of two logs, with each sweep value."""
    out = []
    for s, (name, raw) in enumerate(corpus.logs):
        if name not in ("person-5", "simulate-game-1"):
            continue
        seen = set()
        for number, line in enumerate(raw.decode().splitlines()):
            event = json.loads(line)
            for key in event:
                if (event["type"], key) not in seen:
                    seen.add((event["type"], key))
                    out.extend((s, number, key, v) for v in range(len(_SWEEP_VALUES)))
    return tuple(out)


GAME_START_VALUES: dict[str, list[Any]] = {
    "ruleset": BUILTIN_NAMES + ["nope", "x.yaml", "zero.yaml", "fifo.yaml", str(RULESETS / "classic.yaml"),
                                str(DATA / "good" / "mini.yaml"), str(DATA / "hostile" / "draws" / "ping-pong.yaml"),
                                "../classic.yaml", "", "\x1b[2J", None, 1, []],
    "variants": [[], ["short-game"], ["time-limit"], ["nope"], ["classic"], ["short-game", "short-game"],
                 [str(RULESETS / "variants" / "tournament.yaml")], ["x.yaml"], [1], "short-game", None, [None],
                 ["\x1b[2J"], [""]],
    "players": [["greedy"], ["greedy", "greedy"], ["cautious", "greedy"], ["you", "greedy"], ["human", "human"],
                ["human:Ada", "greedy"], ["random", "trader", "greedy", "cautious", "greedy", "greedy", "greedy",
                                          "greedy", "greedy"], [], ["nope", "greedy"], ["greedy"] * 50, "greedy", None,
                [1, 2]],
    "seed": [0, 1, -1, 2, 2**31, 2**64, 10**29, -10**29, 1.5, True, None, "1", Raw("1e400"), Raw("NaN")],
    "max_turns": [None, 0, 1, 2, 10, 59, 61, 10**6, 10**29, -1, 1.5, True, "60"],
}


def make_replay(rng: random.Random, corpus: Corpus, index: int, sweep: bool) -> Case:
    notes: list[str] = []
    points = _log_sweep(corpus)
    args = ["replay", "{file}", "--verify"]
    if sweep and index < len(points):
        s, number, key, v = points[index]
        name, raw = corpus.logs[s]
        lines = raw.decode().splitlines()
        event = json.loads(lines[number])
        event[key] = copy_json(_SWEEP_VALUES[v])
        lines[number] = dump_json(event)
        notes.append(f"log {name} line {number + 1} ({event.get('type')!r}): {key} -> {_SWEEP_VALUES[v]!r}")
        return Case("replay", 0, index, encode_text("\n".join(lines) + "\n"), args, notes=notes)
    if rng.random() < 0.2:
        data, extra = hostile_game_log(rng, notes)
        if rng.random() < 0.5:
            items: list[Any] = data.decode().splitlines()
            items = mutate_log_lines(rng, items, corpus, notes)
            data = b"\n".join(x if isinstance(x, bytes) else encode_text(x) for x in items) + b"\n"
        return Case("replay", 0, index, data, args + extra, notes=notes)
    r = rng.random()
    if r < 0.03:
        data = random_bytes(rng)
        notes.append(f"{len(data)} random bytes")
        return Case("replay", 0, index, data, args, notes=notes)
    if r < 0.06:
        lines = [dump_json(random_json(rng, 3, corpus.log_keys)) for _ in range(rng.randint(1, 5))]
        notes.append("random JSON lines")
        return Case("replay", 0, index, encode_text("\n".join(lines) + "\n"), args, notes=notes)
    name, raw = corpus.logs[rng.randrange(len(corpus.logs))]
    notes.append(f"mutant of log {name}")
    args += corpus.log_args.get(name, [])
    items = raw.decode().splitlines()  # each a str (a line) or bytes (a raw line)
    for _ in range(rng.choice([1, 1, 1, 2, 3, 4])):
        items = mutate_log_lines(rng, items, corpus, notes)
    ending = b"\r\n" if rng.random() < 0.05 else b"\n"
    data = ending.join(x if isinstance(x, bytes) else encode_text(x) for x in items)
    if rng.random() < 0.95:
        data += ending
    if rng.random() < 0.08:
        data = mutate_bytes(rng, data, notes)
    return Case("replay", 0, index, data, args, notes=notes)


def mutate_log_lines(rng: random.Random, items: list[Any], corpus: Corpus, notes: list[str]) -> list[Any]:
    if not items:
        return [dump_json(random_json(rng, 2))]
    op = rng.choice(["drop", "drop", "duplicate", "swap", "move", "truncate-line", "field", "field", "field",
                     "plausible", "plausible", "plausible", "plausible", "same-type",
                     "nudge", "extra-key", "duplicate-key", "random-line", "bad-utf8", "huge-line", "nan",
                     "deep", "game-start", "game-start", "game-start", "blank", "splice", "cut", "reorder-keys"])
    i = rng.randrange(len(items))
    if op == "drop":
        size = rng.choice([1, 1, 1, 2, 10])
        del items[i:i + size]
        notes.append(f"lines {i + 1}-{i + size} dropped")
    elif op == "duplicate":
        items.insert(i, items[i])
        notes.append(f"line {i + 1} duplicated")
    elif op == "swap":
        j = min(i + 1, len(items) - 1) if rng.random() < 0.6 else rng.randrange(len(items))
        items[i], items[j] = items[j], items[i]
        notes.append(f"lines {i + 1} and {j + 1} swapped")
    elif op == "move":
        line = items.pop(i)
        j = rng.randint(0, len(items))
        items.insert(j, line)
        notes.append(f"line {i + 1} moved to {j + 1}")
    elif op == "truncate-line":
        line = items[i]
        at = rng.randint(0, len(line))
        items[i] = line[:at]
        notes.append(f"line {i + 1} cut at {at}")
    elif op == "cut":
        keep = rng.randint(1, len(items))
        del items[keep:]
        notes.append(f"log cut after line {keep}")
    elif op == "blank":
        items.insert(i, rng.choice(["", " ", "\t", "\r", "\ufeff", "\x00"]))
        notes.append(f"blank line put in at {i + 1}")
    elif op == "random-line":
        items.insert(i, random_bytes(rng).replace(b"\n", b" "))
        notes.append(f"random bytes as line {i + 1}")
    elif op == "bad-utf8" and isinstance(items[i], str):
        line = encode_text(items[i])
        at = rng.randint(0, len(line))
        items[i] = line[:at] + rng.choice(BAD_UTF8) + line[at:]
        notes.append(f"invalid UTF-8 in line {i + 1}")
    elif op == "huge-line":
        size = rng.choice([65_000, 65_536, 65_537, 70_000, 1_000_000])
        items[i] = '{"type":"turn","turn":1,"round":0,"seat":0,"x":"' + "x" * size + '"}'
        notes.append(f"line {i + 1} of about {size} bytes")
    elif op == "splice":
        _, other = corpus.logs[rng.randrange(len(corpus.logs))]
        others = other.decode().splitlines()
        j = rng.randrange(len(others))
        items = items[:i] + others[j:]
        notes.append(f"line {i + 1} on taken from another log (from its line {j + 1})")
    elif op == "deep":
        event = _event(items[i])
        if event is not None:
            depth = rng.choice([63, 64, 65, 1000, 30_000])
            event[rng.choice(list(event) + ["x"])] = Raw("[" * depth + "]" * depth)
            items[i] = dump_json(event)
            notes.append(f"line {i + 1}: {depth}-deep array")
    elif op == "nan":
        event = _event(items[i])
        if event is not None:
            key = rng.choice(list(event))
            value = Raw(rng.choice(["NaN", "Infinity", "-Infinity", "1e400", "9" * 40]))
            event[key] = value
            items[i] = dump_json(event)
            notes.append(f"line {i + 1}: {key} -> {value!r}")
    elif op == "game-start":
        start = next((n for n, x in enumerate(items) if isinstance(x, str) and '"game_start"' in x), None)
        event = _event(items[start]) if start is not None else None
        if start is not None and event is not None:
            key = rng.choice(list(GAME_START_VALUES))
            value = copy_json(rng.choice(GAME_START_VALUES[key]))
            if key == "seed" and rng.random() < 0.3 and isinstance(event.get("seed"), int):
                value = event["seed"] + rng.choice([1, -1])
            event[key] = value
            items[start] = dump_json(event)
            notes.append(f"game_start {key} -> {value!r}")
    elif op == "plausible":
        event = _event(items[i])
        if event is not None:
            sub: list[str] = []
            event = plausible_change(rng, event, sub)
            items[i] = dump_json(event)
            notes.append(f"line {i + 1}: " + "; ".join(sub))
    elif op == "same-type":
        event = _event(items[i])
        kind = event.get("type") if event is not None else None
        others = [e for e in map(_event, items) if e is not None and e.get("type") == kind and e != event]
        if event is not None and others:
            other = rng.choice(others)
            key = rng.choice([k for k in event if k != "type"] or ["type"])
            if key in other:
                event[key] = other[key]
                items[i] = dump_json(event)
                notes.append(f"line {i + 1}: {key} taken from another {kind} event ({describe_short(other[key])})")
    elif op == "reorder-keys":
        event = _event(items[i])
        if event is not None:
            pairs = list(event.items())
            rng.shuffle(pairs)
            items[i] = dump_json(Pairs(pairs))
            notes.append(f"line {i + 1}: keys reordered")
    else:
        event = _event(items[i])
        if event is not None:
            tree: Any = event
            if op == "nudge":
                numbers = [k for k, v in event.items() if isinstance(v, (int, float)) and not isinstance(v, bool)]
                if numbers:
                    key = rng.choice(numbers)
                    tree[key] = nudged(rng, event[key])
                    notes.append(f"line {i + 1}: {key} {event[key]!r}")
            elif op == "extra-key":
                key = rng.choice(corpus.log_keys) if rng.random() < 0.5 else random_string(rng)
                tree[key] = random_json(rng, 2, corpus.log_keys)
                notes.append(f"line {i + 1}: extra key {key!r}")
            elif op == "duplicate-key":
                pairs = list(event.items())
                key = rng.choice(list(event))
                pairs.insert(rng.randint(0, len(pairs)), (key, event[key] if rng.random() < 0.3 else
                                                          random_json(rng, 1)))
                tree = Pairs(pairs)
                notes.append(f"line {i + 1}: key {key!r} twice")
            else:
                sub = []
                tree = mutate_tree(rng, tree, None, corpus.log_keys, sub)
                notes.append(f"line {i + 1}: " + "; ".join(sub))
            items[i] = dump_json(tree, ascii_only=rng.random() < 0.7)
    return items


def _event(item: Any) -> dict[str, Any] | None:
    if not isinstance(item, str):
        return None
    try:
        value = json.loads(item)
    except (ValueError, RecursionError):  # not JSON, or an array nested too deep for json.loads
        return None
    return value if isinstance(value, dict) else None


MAKERS: dict[str, Callable[[random.Random, Corpus, int, bool], Case]] = {
    "validate": make_validate, "resume": make_resume, "replay": make_replay}


def make_case(kind: str, seed: int, index: int, corpus: Corpus | None = None, *, sweep: bool = True) -> Case:
    """Input ``index`` of the campaign of ``kind`` with ``seed``: the same three numbers, the same input.

    With ``sweep`` (and seed 0) the first indices go through every place once
    (every value line of the ruleset files, every key path of a save, every key
    of every event type of a log); the rest are random.
    """
    corpus = corpus or build_corpus()
    case = MAKERS[kind](_rng(kind, seed, index), corpus, index, sweep and seed == 0)
    case.seed = seed
    return case


# ---------------------------------------------------------------------- running


class Hang(BaseException):
    """Raised by the alarm in a run that went on past HARD_TIMEOUT (a BaseException: CliRunner lets it through).

    ``output`` is what the command had printed by then (a game that keeps playing turns is told apart from
    a program stuck in a loop by the turns it printed)."""

    def __init__(self, output: bytes = b""):
        super().__init__()
        self.output = output


@dataclass
class Outcome:
    case: Case
    exit_code: int | None
    seconds: float
    output_bytes: int
    problem: str | None  # None: not a finding
    detail: str = ""  # the traceback, or the end of the output
    signature: str = ""  # what groups findings of the same bug
    said: str = ""  # the last line of the output (what the command answered), for statistics

    @property
    def finding(self) -> bool:
        return self.problem is not None


def _alarm(signum: int, frame: Any) -> None:
    try:
        output = bytes(sys.stdout.buffer.getvalue())  # type: ignore[attr-defined]  # CliRunner's captured output
    except (AttributeError, ValueError):
        output = b""
    raise Hang(output)


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    import threading

    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def prepare_workdir(folder: Path) -> None:
    """Odd files a hostile save or log may name: a link to /dev/zero, a FIFO, a folder, a ruleset."""
    with contextlib.suppress(OSError):
        (folder / "zero.yaml").symlink_to("/dev/zero")
    with contextlib.suppress(OSError, AttributeError):
        os.mkfifo(folder / "fifo.yaml")
    (folder / "dir.yaml").mkdir(exist_ok=True)
    shutil.copy(DATA / "good" / "mini.yaml", folder / "mini.yaml")


def _signature(exc_info: Any) -> str:
    tb = traceback.extract_tb(exc_info[2])
    frame = tb[-1] if tb else None
    ours = [f for f in tb if "/monopoly" in f.filename or "/engine/" in f.filename or "/cli/" in f.filename]
    where = ours[-1] if ours else frame
    place = f"{Path(where.filename).name}:{where.lineno} in {where.name}" if where else "?"
    return f"{exc_info[0].__name__} at {place}"


def place_case(case: Case, workdir: Path) -> list[str]:
    """Write the files of ``case`` in ``workdir`` (removing those of the case before) and return its argv."""
    path = workdir / FILE_NAMES[case.kind]
    log_path = workdir / "given.jsonl"
    for stale in (path, log_path, workdir / "other.json", workdir / "game.json"):
        with contextlib.suppress(FileNotFoundError):
            stale.unlink()
    path.write_bytes(case.data)
    if case.log is not None:
        log_path.write_bytes(case.log)
    return [a.replace("{file}", str(path)).replace("{log}", str(log_path)) for a in case.args]


def run_case(case: Case, workdir: Path, runner: Any = None) -> Outcome:
    """Run ``case`` in ``workdir`` (which must be the current folder) and judge what happened."""
    from click.testing import CliRunner

    from monopoly.cli.main import cli

    runner = runner or CliRunner()
    args = place_case(case, workdir)
    start = time.perf_counter()
    try:
        with _time_limit(HARD_TIMEOUT):
            result = runner.invoke(cli, args, input=case.stdin)
    except Hang as hang:
        seconds = time.perf_counter() - start
        turns = re.findall(rb"^--- Turn (\d+)", hang.output, re.MULTILINE)
        tail = hang.output[-600:].decode("utf-8", "replace")
        if len(turns) > 100:
            return Outcome(case, None, seconds, len(hang.output),
                           f"endless game: still playing after {seconds:.1f} s, at turn {int(turns[-1]):,} "
                           f"({len(turns):,} turns played, {len(hang.output):,} bytes printed)", tail,
                           "endless game (no turn limit, no bankruptcy)")
        return Outcome(case, None, seconds, len(hang.output), f"hang: still running after {seconds:.1f} s", tail,
                       "hang")
    seconds = time.perf_counter() - start
    output = result.output_bytes or b""
    size = len(output)
    text = output.decode("utf-8", "replace")
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        detail = "".join(traceback.format_exception(*result.exc_info))
        return Outcome(case, result.exit_code, seconds, size,
                       f"crash: uncaught {type(exc).__name__}: {str(exc)[:200]}", detail, _signature(result.exc_info))
    if result.exit_code not in GOOD_EXITS:
        return Outcome(case, result.exit_code, seconds, size, f"exit status {result.exit_code}", text[-2000:],
                       f"exit {result.exit_code}")
    if "Traceback (most recent call last)" in text:
        return Outcome(case, result.exit_code, seconds, size, "a traceback in the output", text[-3000:],
                       "traceback printed")
    if seconds > TIME_LIMIT:
        return Outcome(case, result.exit_code, seconds, size, f"slow: {seconds:.1f} s", text[-500:], "slow")
    if size > OUTPUT_LIMIT:
        return Outcome(case, result.exit_code, seconds, size, f"output of {size:,} bytes", text[:500], "big output")
    said = next((line for line in reversed(text.splitlines()) if line.strip()), "")
    return Outcome(case, result.exit_code, seconds, size, None, said=said[:300])


# ---------------------------------------------------------------------- cached built-in rulesets


@contextlib.contextmanager
def cached_builtin_rulesets(enabled: bool = True) -> Iterator[None]:
    """Load each built-in ruleset (with built-in variants) once while fuzzing resume and replay.

    Only calls naming built-ins alone are cached (a Ruleset is frozen); any file
    path, and every validate of a fuzzed file, goes through the real loader.
    """
    if not enabled or os.environ.get("MONOPOLY_FUZZ_NO_CACHE"):
        yield
        return
    from monopoly.cli import replay_command, ruleset_commands
    from monopoly.ruleset import builtin_rulesets

    builtin = {b.id for b in builtin_rulesets()}
    real = ruleset_commands.check_ruleset
    assert replay_command.check_ruleset is real
    cache: dict[Any, Any] = {}

    def check(name: Any, variants: Any = (), *, max_problems: Any = None, **kw: Any) -> Any:
        key = None
        if type(name) is str and name in builtin and not kw and all(type(v) is str and v in builtin for v in variants):
            key = (name, tuple(variants), max_problems)
            if key in cache:
                ruleset, problems = cache[key]
                return ruleset, list(problems)
        found = real(name, variants, max_problems=max_problems, **kw) if max_problems is not None else \
            real(name, variants, **kw)
        if key is not None:
            cache[key] = (found[0], list(found[1]))
        return found

    ruleset_commands.check_ruleset = check  # type: ignore[assignment]
    replay_command.check_ruleset = check  # type: ignore[assignment]
    try:
        yield
    finally:
        ruleset_commands.check_ruleset = real
        replay_command.check_ruleset = real


# ---------------------------------------------------------------------- campaigns


@dataclass
class Summary:
    kind: str
    seed: int
    tried: int = 0
    exits: collections.Counter[str] = field(default_factory=collections.Counter)
    findings: list[Outcome] = field(default_factory=list)
    max_seconds: float = 0.0
    max_seconds_case: str = ""
    max_output: int = 0
    max_output_case: str = ""
    wall: float = 0.0

    def add(self, outcome: Outcome) -> None:
        self.tried += 1
        self.exits[str(outcome.exit_code)] += 1
        if outcome.seconds > self.max_seconds:
            self.max_seconds, self.max_seconds_case = outcome.seconds, outcome.case.label()
        if outcome.output_bytes > self.max_output:
            self.max_output, self.max_output_case = outcome.output_bytes, outcome.case.label()
        if outcome.finding:
            self.findings.append(outcome)

    def distinct(self) -> dict[str, list[Outcome]]:
        grouped: dict[str, list[Outcome]] = {}
        for outcome in self.findings:
            grouped.setdefault(outcome.signature, []).append(outcome)
        return grouped

    def report(self) -> str:
        exits = ", ".join(f"{code}: {count}" for code, count in sorted(self.exits.items()))
        lines = [f"{self.kind}: {self.tried} inputs (seed {self.seed}) in {self.wall:.1f} s; exit codes {{{exits}}}; "
                 f"max time {self.max_seconds:.3f} s ({self.max_seconds_case}); max output {self.max_output:,} bytes "
                 f"({self.max_output_case}); findings: {len(self.findings)} ({len(self.distinct())} distinct)"]
        for signature, outcomes in self.distinct().items():
            first = min(outcomes, key=lambda o: len(o.case.data))
            lines.append(f"  - {signature}: {len(outcomes)} inputs, e.g. {first.case.label()} "
                         f"({len(first.case.data)} bytes): {first.problem}")
            lines.append(f"      reproduce: python -m tests.fuzz_inputs repro {first.case.kind} {first.case.seed} "
                         f"{first.case.index}")
            lines.append(f"      input: {'; '.join(first.case.notes)[:300]}")
            tail = [line for line in first.detail.strip().splitlines() if line.strip()][-4:]
            lines.extend(f"      | {line[:200]}" for line in tail)
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seed": self.seed, "inputs": self.tried, "exit_codes": dict(self.exits),
                "max_seconds": self.max_seconds, "max_seconds_case": self.max_seconds_case,
                "max_output_bytes": self.max_output, "max_output_case": self.max_output_case, "wall_seconds": self.wall,
                "findings": [{"signature": o.signature, "problem": o.problem, "case": o.case.label(),
                              "notes": o.case.notes, "bytes": len(o.case.data), "detail": o.detail[-3000:]}
                             for o in self.findings]}


def save_finding(outcome: Outcome, folder: Path) -> Path:
    """The input of a finding, its command line and traceback, in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    case = outcome.case
    stem = f"{case.kind}-{case.seed}-{case.index}"
    target = folder / f"{stem}-{FILE_NAMES[case.kind]}"
    target.write_bytes(case.data)
    if case.log is not None:
        (folder / f"{stem}-given.jsonl").write_bytes(case.log)
    args = " ".join(a.replace("{file}", str(target)).replace("{log}", f"{stem}-given.jsonl") for a in case.args)
    (folder / f"{stem}.txt").write_text(
        f"{case.describe()}\ncommand: monopoly {args}\nstdin: {case.stdin!r}\n{outcome.problem}\n\n{outcome.detail}",
        encoding="utf-8")
    return target


def run_campaign(kind: str, count: int, seed: int = 0, *, start: int = 0, crash_dir: Path | None = None,
                 progress: Callable[[str], None] | None = None, cache: bool = True) -> Summary:
    """Run inputs ``start`` to ``start + count`` of the campaign of ``kind``, in a fresh temporary folder."""
    from click.testing import CliRunner

    corpus = build_corpus()
    summary = Summary(kind, seed)
    runner = CliRunner()
    began = time.perf_counter()
    here = os.getcwd()
    with tempfile.TemporaryDirectory(prefix=f"monopoly-fuzz-{kind}-") as tmp, cached_builtin_rulesets(cache):
        folder = Path(tmp)
        prepare_workdir(folder)
        os.chdir(folder)
        try:
            for index in range(start, start + count):
                outcome = run_case(make_case(kind, seed, index, corpus), folder, runner)
                summary.add(outcome)
                if outcome.finding and crash_dir is not None:
                    save_finding(outcome, crash_dir)
                if progress is not None and (index - start + 1) % 1000 == 0:
                    progress(f"{kind}: {index - start + 1}/{count} inputs, {len(summary.findings)} findings, "
                             f"{time.perf_counter() - began:.0f} s")
        finally:
            os.chdir(here)
    summary.wall = time.perf_counter() - began
    return summary


def reproduce(kind: str, seed: int, index: int, *, cache: bool = False) -> Outcome:
    """Make input ``index`` again and run it (without the ruleset cache by default)."""
    case = make_case(kind, seed, index)
    here = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="monopoly-fuzz-repro-") as tmp, cached_builtin_rulesets(cache):
        folder = Path(tmp)
        prepare_workdir(folder)
        os.chdir(folder)
        try:
            return run_case(case, folder)
        finally:
            os.chdir(here)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz_inputs", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("campaign", help="run campaigns and print their summaries")
    run.add_argument("--inputs", type=int, default=int(os.environ.get("MONOPOLY_FUZZ_INPUTS", "10000")))
    run.add_argument("--seed", type=int, default=int(os.environ.get("MONOPOLY_FUZZ_SEED", "0")))
    run.add_argument("--kind", choices=KINDS, action="append")
    run.add_argument("--crash-dir", type=Path, default=None)
    run.add_argument("--json", type=Path, default=None, help="write the summaries here")
    again = sub.add_parser("repro", help="make one input again, save it and run it")
    again.add_argument("kind", choices=KINDS)
    again.add_argument("seed", type=int)
    again.add_argument("index", type=int)
    again.add_argument("--out", type=Path, default=Path("."), help="folder for the input file")
    args = parser.parse_args(argv)
    if args.command == "repro":
        outcome = reproduce(args.kind, args.seed, args.index)
        saved = save_finding(outcome, args.out)
        print(outcome.case.describe())
        print(f"input written to {saved}; exit code {outcome.exit_code}; {outcome.seconds:.3f} s")
        print(outcome.problem or "no finding: the command handled this input")
        if outcome.detail and outcome.finding:
            print(outcome.detail)
        return 1 if outcome.finding else 0
    summaries = []
    began = time.perf_counter()
    for kind in args.kind or KINDS:
        summary = run_campaign(kind, args.inputs, args.seed, crash_dir=args.crash_dir,
                               progress=lambda line: print(line, flush=True))
        summaries.append(summary)
        print(summary.report(), flush=True)
    print(f"wall time {time.perf_counter() - began:.1f} s for {sum(s.tried for s in summaries)} inputs")
    if args.json is not None:
        args.json.write_text(json.dumps([s.to_json() for s in summaries], indent=2), encoding="utf-8")
    return 1 if any(s.findings for s in summaries) else 0


if __name__ == "__main__":
    sys.exit(main())
