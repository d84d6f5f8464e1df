"""Keep docs/ruleset-reference.md and schema/ruleset.schema.json from drifting apart.

The reference documents every key as a table row whose first cell is the key's
path from the top of a ruleset file, in backticks:

* ``a.b`` for key ``b`` inside the mapping at key ``a``;
* ``a.*.b`` where ``*`` is any key the designer chooses (a group key, a deck
  key, a space name), i.e. the schema's ``additionalProperties``;
* ``a[].b`` for key ``b`` inside each item of the list at ``a``.

Only tables whose header is exactly ``| key | type | default | meaning |`` are
read, so other tables in the document (the list of space kinds, for instance)
are free to use backticks in their first column.

This module also checks that the YAML examples in the two designer documents
are valid against the schema, so an example cannot teach a key that no longer
exists.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_PATH = ROOT / "schema" / "ruleset.schema.json"
REFERENCE_PATH = ROOT / "docs" / "ruleset-reference.md"
GUIDE_PATH = ROOT / "docs" / "designer-guide.md"

# The objects the reference promises to cover; the walk must reach every one.
COVERED_DEFS = ("edition", "variant", "space", "group", "deck", "card", "trigger", "rules")

KEY_TABLE_HEADER = re.compile(r"^\|\s*key\s*\|\s*type\s*\|\s*default\s*\|\s*meaning\s*\|\s*$")
SEPARATOR_ROW = re.compile(r"^\|(\s*:?-+:?\s*\|)+\s*$")
PATH_CELL = re.compile(r"^`([^`]+)`$")
# A cell boundary is a pipe that is not escaped as \|.
CELL_SPLIT = re.compile(r"(?<!\\)\|")

Schema = dict[str, Any]


def load_schema() -> Schema:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


class SchemaWalk:
    """Every property path of the schema, with the schema object at each path."""

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self.defs: dict[str, Schema] = schema.get("$defs", {})
        self.paths: dict[str, list[Schema]] = {}
        self.reached_defs: set[str] = set()

    def resolve(self, ref: str) -> tuple[str, Schema]:
        prefix = "#/$defs/"
        assert ref.startswith(prefix), f"only local $defs references are expected, got {ref!r}"
        name = ref[len(prefix) :]
        assert name in self.defs, f"$ref to a missing definition {ref!r}"
        return name, self.defs[name]

    def walk(self, node: Any, prefix: str, stack: tuple[str, ...] = ()) -> None:
        if not isinstance(node, dict):
            return  # `true`/`false` schemas declare no keys
        if "$ref" in node:
            name, target = self.resolve(node["$ref"])
            self.reached_defs.add(name)
            if name not in stack:  # a recursive definition adds no new key names
                self.walk(target, prefix, (*stack, name))
        for key, sub in node.get("properties", {}).items():
            path = f"{prefix}.{key}" if prefix else key
            self.paths.setdefault(path, []).append(sub)
            self.walk(sub, path, stack)
        for keyword in ("additionalProperties", "unevaluatedProperties"):
            self.walk(node.get(keyword), f"{prefix}.*", stack)
        for sub in node.get("patternProperties", {}).values():
            self.walk(sub, f"{prefix}.*", stack)
        for keyword in ("items", "unevaluatedItems", "contains"):
            self.walk(node.get(keyword), f"{prefix}[]", stack)
        for sub in node.get("prefixItems", []):
            self.walk(sub, f"{prefix}[]", stack)
        for keyword in ("allOf", "anyOf", "oneOf"):
            for sub in node.get(keyword, []):
                self.walk(sub, prefix, stack)
        # `if` only tests a document; the keys it may allow are in then/else.
        for keyword in ("then", "else"):
            self.walk(node.get(keyword), prefix, stack)


def schema_walk() -> SchemaWalk:
    walk = SchemaWalk(load_schema())
    for name in ("edition", "variant"):
        walk.reached_defs.add(name)
        walk.walk(walk.defs[name], "", (name,))
    return walk


def top_keys(schema: Schema, name: str) -> set[str]:
    return set(schema["$defs"][name].get("properties", {}))


def iter_key_rows(text: str) -> Iterator[tuple[int, list[str]]]:
    """(line number, cells) of each row of every key table."""
    in_table = False
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if KEY_TABLE_HEADER.match(stripped):
            in_table = True
            continue
        if not in_table:
            continue
        if not stripped.startswith("|"):
            in_table = False
            continue
        if SEPARATOR_ROW.match(stripped):
            continue
        cells = [cell.strip() for cell in CELL_SPLIT.split(stripped.strip("|"))]
        yield number, cells


def documented_rows() -> dict[str, tuple[int, list[str]]]:
    rows: dict[str, tuple[int, list[str]]] = {}
    problems: list[str] = []
    for number, cells in iter_key_rows(REFERENCE_PATH.read_text(encoding="utf-8")):
        where = f"{REFERENCE_PATH.name}:{number}"
        if len(cells) != 4:
            problems.append(f"{where}: a key row needs 4 cells, found {len(cells)} (escape a pipe as \\|)")
            continue
        match = PATH_CELL.match(cells[0])
        if match is None:
            problems.append(f"{where}: the first cell must be one `path` in backticks, found {cells[0]!r}")
            continue
        path = match.group(1)
        if path in rows:
            problems.append(f"{where}: `{path}` is already documented on line {rows[path][0]}")
            continue
        if not all(cells):
            problems.append(f"{where}: `{path}` has an empty cell (write a dash for no default)")
        rows[path] = (number, cells)
    assert not problems, "\n".join(problems)
    return rows


@pytest.fixture(scope="module")
def walk() -> SchemaWalk:
    return schema_walk()


@pytest.fixture(scope="module")
def rows() -> dict[str, tuple[int, list[str]]]:
    return documented_rows()


def test_walk_reaches_every_covered_definition(walk: SchemaWalk) -> None:
    missing = [name for name in COVERED_DEFS if name not in walk.reached_defs]
    assert not missing, f"the schema walk never reached $defs {missing}"
    assert len(walk.paths) > 50, "suspiciously few keys: is the walk still following the schema?"


def test_every_schema_key_is_documented(walk: SchemaWalk, rows: dict[str, tuple[int, list[str]]]) -> None:
    missing = sorted(set(walk.paths) - set(rows))
    assert not missing, "keys in the schema but not in docs/ruleset-reference.md:\n" + "\n".join(
        f"  `{path}`" for path in missing
    )


def test_every_documented_key_exists(walk: SchemaWalk, rows: dict[str, tuple[int, list[str]]]) -> None:
    extra = sorted(set(rows) - set(walk.paths))
    assert not extra, "keys in docs/ruleset-reference.md that the schema does not have:\n" + "\n".join(
        f"  line {rows[path][0]}: `{path}`" for path in extra
    )


def test_edition_only_keys_say_so(rows: dict[str, tuple[int, list[str]]]) -> None:
    """A top-level key a variant may not use must say 'Editions only', and no other may."""
    schema = load_schema()
    edition_only = top_keys(schema, "edition") - top_keys(schema, "variant")
    wrong = []
    for path, (number, cells) in rows.items():
        if "." in path or "[" in path:
            continue
        says_so = re.search(r"\beditions? only\b", cells[3], re.IGNORECASE) is not None
        if says_so != (path in edition_only):
            should = "say" if path in edition_only else "not say"
            wrong.append(f"line {number}: `{path}` should {should} 'Editions only'")
    assert not wrong, "\n".join(wrong)


def test_enum_values_are_listed(walk: SchemaWalk, rows: dict[str, tuple[int, list[str]]]) -> None:
    """Each allowed value of an enum (or const) appears, in backticks, in its row."""
    missing = []
    for path, subs in walk.paths.items():
        if path not in rows:
            continue  # reported by test_every_schema_key_is_documented
        number, cells = rows[path]
        row_text = " ".join(cells[1:])
        for sub in subs:
            values = list(sub.get("enum", [])) + ([sub["const"]] if "const" in sub else [])
            for value in values:
                if f"`{value}`" not in row_text:
                    missing.append(f"line {number}: `{path}` does not list `{value}`")
    assert not missing, "\n".join(missing)


# --- the YAML examples of the designer documents -------------------------------------------

YAML_BLOCK = re.compile(r"^```yaml[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


class KeysAsWrittenLoader(yaml.SafeLoader):
    """SafeLoader that keeps scalar mapping keys as the text written, as the ruleset loader does.

    Plain YAML 1.1 would turn a trigger's ``on:`` key into the boolean True.
    """

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        self.flatten_mapping(node)
        mapping: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode):
                key: Any = key_node.value
            else:
                key = self.construct_object(key_node, deep=deep)
            mapping[key] = self.construct_object(value_node, deep=deep)
        return mapping


KeysAsWrittenLoader.add_constructor(
    "tag:yaml.org,2002:map",
    lambda loader, node: loader.construct_mapping(node, deep=True),
)


def yaml_examples() -> list[Any]:
    examples = []
    for path in (GUIDE_PATH, REFERENCE_PATH):
        if not path.exists():
            continue  # a missing document fails the reference tests above, not collection
        text = path.read_text(encoding="utf-8")
        for match in YAML_BLOCK.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            examples.append(pytest.param(path.name, line, match.group(1), id=f"{path.name}:{line}"))
    return examples


@pytest.mark.parametrize(("doc", "line", "source"), yaml_examples())
def test_yaml_examples_match_the_schema(doc: str, line: int, source: str) -> None:
    """A whole file (it has an `id`) is checked as it is; a fragment inside a stub edition.

    Examples that show a mistake on purpose are fenced as ```text, not ```yaml.
    """
    data = yaml.load(source, Loader=KeysAsWrittenLoader)
    assert isinstance(data, dict), f"{doc}:{line}: a yaml example must be a mapping"
    if "id" not in data:
        data = {"id": "example", "name": "Example", "extends": "classic", **data}
    validator = jsonschema.Draft202012Validator(load_schema())
    errors = [
        f"{doc}:{line}: {'/'.join(map(str, error.absolute_path)) or '(top)'}: {error.message}"
        for error in validator.iter_errors(data)
    ]
    assert not errors, "\n".join(errors)


def _leaves(data: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    for key, value in data.items():
        path = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            yield from _leaves(value, path)
        else:
            yield path, value


def test_the_reference_gives_the_defaults_of_the_defaults_file():
    """rulesets/base/defaults.yaml is the one home of the defaults; the reference's column must agree."""
    from monopoly.ruleset.model import DEFAULTS

    cells = {}
    for line in REFERENCE_PATH.read_text(encoding="utf-8").splitlines():
        parts = [part.strip() for part in line.strip().strip("|").split("|")]
        if len(parts) >= 4 and parts[0].startswith("`") and parts[2].startswith("`"):
            cells[parts[0].strip("`")] = yaml.safe_load(parts[2].strip("`"))
    leaves = dict(_leaves(DEFAULTS))
    assert len(leaves) > 20
    wrong = {path: (cells.get(path), value) for path, value in leaves.items() if cells.get(path) != value}
    assert not wrong, f"reference default != defaults.yaml: {wrong}"
