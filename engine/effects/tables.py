"""The effect parser's LALR tables, shipped with the package as JSON.

Building the tables from the grammar takes about a fifth of a second, most of a
cold `monopoly validate`. lark's own cache would keep them in a per-user file,
but it stores a pickle and unpickles it before checking anything, so a file
planted in the cache folder would run code. Instead the tables are generated
once, by the developers, into ``grammar/effects.tables.json`` beside the
grammar: package data, trusted as the code is, read as plain JSON (no pickle,
nothing from the user's folders).

The file records the hash of the grammar and options it was built from and the
lark version that built it; when either differs from what is installed, the
parser is built from the grammar instead (slower, same result). A test fails
when the shipped tables are stale. Regenerate them with::

    python -m monopoly.effects.write_tables
"""

from __future__ import annotations

import hashlib
import importlib.resources
import json
from typing import Any

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

TABLES_FILE = "effects.tables.json"
FORMAT = "monopoly-parser-tables"
#: Options that are objects, not data: given again when the tables are loaded.
_LIVE_OPTIONS = ("postlex",)


def grammar_key(grammar: str, options: dict[str, Any]) -> str:
    """What the tables depend on: the grammar text and the parser options."""
    return hashlib.sha256((grammar + repr(sorted(options.items()))).encode("utf-8")).hexdigest()


def tables_json(parser: Lark, grammar: str, options: dict[str, Any]) -> str:
    """The tables of a built parser as JSON text."""
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data = dict(data, options={k: v for k, v in data["options"].items() if k not in _LIVE_OPTIONS})
    document = {"format": FORMAT, "grammar_sha256": grammar_key(grammar, options), "lark": lark.__version__,
                "tables": _encode({"data": data, "memo": memo})}
    return json.dumps(document, separators=(",", ":"), sort_keys=True) + "\n"


def load_tables(grammar: str, options: dict[str, Any], live: dict[str, Any]) -> Lark | None:
    """The parser from the shipped tables; None when they are missing or were built from something else."""
    try:
        text = importlib.resources.files("monopoly.grammar").joinpath(TABLES_FILE).read_text(encoding="utf-8")
        document = json.loads(text)
    except (OSError, ValueError):
        return None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        return None
    if document.get("grammar_sha256") != grammar_key(grammar, options) or document.get("lark") != lark.__version__:
        return None
    try:
        return Lark.__new__(Lark)._load(_decode(document["tables"]), **live)
    except Exception:  # tables lark cannot read are only slower: build from the grammar
        return None


def _encode(value: Any) -> Any:
    """JSON keeps only text keys: a mapping with other keys becomes ``{"@items": [[key, value], ...]}``."""
    if isinstance(value, dict):
        if all(isinstance(key, str) for key in value):
            return {key: _encode(item) for key, item in value.items()}
        return {"@items": [[key, _encode(item)] for key, item in value.items()]}
    if isinstance(value, (list, tuple)):
        return [_encode(item) for item in value]
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, dict):
        if len(value) == 1 and "@items" in value:
            return {key: _decode(item) for key, item in value["@items"]}
        return {key: _decode(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_decode(item) for item in value]
    return value
