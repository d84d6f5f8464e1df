"""Regenerate the effect parser's shipped tables (``grammar/effects.tables.json``, see
:mod:`monopoly.effects.tables`) from the grammar: a developer's tool, run after the grammar changes::

    python -m monopoly.effects.write_tables
"""

from __future__ import annotations

import importlib.resources
import sys
from pathlib import Path

from .parse import build_parser, grammar_text, parser_options
from .tables import TABLES_FILE, tables_json


def main() -> None:  # pragma: no cover - a developer's tool, exercised by hand
    grammar = grammar_text()
    folder = Path(str(importlib.resources.files("monopoly.grammar")))
    target = folder / TABLES_FILE
    target.write_text(tables_json(build_parser(), grammar, parser_options()), encoding="utf-8")
    print(f"wrote {target}", file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    main()
