"""JSON Schema validation of one document, with errors rewritten in plain words.

The schema (``schema/ruleset.schema.json``) ships with the package. Every
error jsonschema finds becomes a :class:`Problem` at the file, line and column
of the offending key or value; the common keywords are rewritten into
sentences a designer can act on, with a "did you mean" where one helps.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Iterator, Mapping
from importlib import resources
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError

from ..suggest import closest
from .load import Document
from .problems import Problem, brief, describe_type, more_problems


@functools.cache
def schema_text() -> str:
    return resources.files("monopoly.schema").joinpath("ruleset.schema.json").read_text(encoding="utf-8")


@functools.cache
def schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(schema_text())
    return loaded


@functools.cache
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema())


def suggest(word: str, choices: Any, *, quote: str = "'") -> str | None:
    """``did you mean 'price'?`` for the closest choice (:func:`~monopoly.suggest.closest`), or None."""
    match = closest(word, choices)
    return f"did you mean {quote}{match}{quote}?" if match is not None else None


def check_document(doc: Document, limit: int | None = None) -> list[Problem]:
    """The schema problems of one document, each at its own place, without repeats.

    With ``limit``, at most that many are explained, and a closing note counts
    the rest without explaining them (exactly, unless there were so many errors
    that jsonschema was stopped early: then "more than"), so a hostile file with
    20,000 wrong values costs about what one with a hundred does.
    """
    raw_limit = None if limit is None else 5 * limit + 1
    errors = list(itertools.islice(_validator().iter_errors(doc.data), raw_limit))
    complete = raw_limit is None or len(errors) < raw_limit
    errors.sort(key=lambda e: [(0, p, "") if isinstance(p, int) else (1, 0, str(p)) for p in e.absolute_path])
    seen: set[tuple[int, int, str]] = set()
    problems: list[Problem] = []
    leaves = list(_leaf_errors(errors))
    for number, error in enumerate(leaves):
        explained = 0
        for problem in _explain(doc, error):
            explained += 1
            key = (problem.line, problem.column, problem.message)
            if key in seen:
                continue
            if limit is not None and len(problems) >= limit:
                more = _weight(error) - explained + 1 + sum(_weight(e) for e in leaves[number + 1:])
                problems.append(more_problems(doc.file, more, exact=complete))
                return problems
            seen.add(key)
            problems.append(problem)
    if not complete:
        problems.append(more_problems(doc.file, 0, exact=False))
    return problems


def _weight(error: ValidationError) -> int:
    """How many problems ``error`` explains into, counted without explaining it."""
    value = error.instance
    if error.validator == "additionalProperties" and isinstance(value, dict):
        allowed = error.schema.get("properties", {}) if isinstance(error.schema, Mapping) else {}
        return sum(1 for key in value if key not in allowed)
    if error.validator == "required" and isinstance(value, dict) and isinstance(error.validator_value, list):
        return sum(1 for key in error.validator_value if key not in value)
    return 1


#: The JSON type of a value read from YAML (a bool is not a whole number here).
_JSON_TYPES = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"), (list, "array"),
               (dict, "object"))


def _leaf_errors(errors: Any) -> Iterator[ValidationError]:
    """Errors without their combinator wrappers (anyOf/oneOf keep their best branch: the one of the value's type,
    when one branch alone is, so that a symbol face 'Bus' is told how a symbol is written, not that it is not a
    number)."""
    for error in errors:
        if error.validator in ("anyOf", "oneOf") and error.context:
            yield from _leaf_errors([_best_branch(error)])
        else:
            yield error


def _best_branch(error: ValidationError) -> ValidationError:
    branches = error.validator_value if isinstance(error.validator_value, list) else []
    kind = next((name for types, name in _JSON_TYPES if isinstance(error.instance, types)), None)
    typed = [i for i, branch in enumerate(branches) if isinstance(branch, Mapping) and branch.get("type") == kind]
    if len(typed) == 1:
        mine = [sub for sub in error.context if sub.relative_schema_path and sub.relative_schema_path[0] == typed[0]]
        if mine:
            best: ValidationError = jsonschema.exceptions.best_match(mine)
            return best
    best = jsonschema.exceptions.best_match(error.context)
    return best


def _explained(doc: Document, errors: list[ValidationError]) -> Iterator[Problem]:
    for error in _leaf_errors(errors):
        yield from _explain(doc, error)


def _explain(doc: Document, error: ValidationError) -> Iterator[Problem]:
    path = tuple(error.absolute_path)
    keyword = error.validator
    value: Any = error.instance
    subschema: dict[str, Any] = dict(error.schema) if isinstance(error.schema, Mapping) else {}
    rule: Any = error.validator_value
    where = _describe(path)
    if keyword == "additionalProperties" and isinstance(value, dict):
        allowed = list(subschema.get("properties", {}))
        for key in value:
            if key in allowed:
                continue
            hint = suggest(key, allowed) if len(key) <= 100 else None
            if key in ("board", "extends") and "board" not in allowed:
                hint = "a variant changes spaces with `spaces:` and cannot replace the board or extend an edition"
            if hint is None:
                hint = "allowed keys here: " + ", ".join(allowed)
            yield doc.problem(path + (key,), "unknown-key", f"unknown key '{brief(key, 60)}'{where}", hint, key=True)
        return
    if keyword == "required":
        missing = [k for k in rule if isinstance(value, dict) and k not in value]
        for key in missing:
            yield doc.problem(path, "missing-key", f"missing required key '{key}'{where}",
                              _describe_key(subschema, key), key=True)
        return
    if keyword in ("enum", "const"):
        allowed = rule if keyword == "enum" else [rule]
        hint = suggest(str(value), allowed) if isinstance(value, str) and len(value) <= 100 else None
        listed = ", ".join(str(a) for a in allowed)
        yield doc.problem(path, "bad-value", f"{_show(value)} is not allowed{where}; use one of: {listed}", hint)
        return
    if keyword == "type":
        expected = rule
        expected = " or ".join(expected) if isinstance(expected, list) else expected
        yield doc.problem(path, "wrong-type",
                          f"expected {_article(expected)}{where}, got {describe_type(value)} {_show(value)}",
                          _type_hint(expected, value))
        return
    if keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        word = "at least" if "inimum" in keyword else "at most"
        yield doc.problem(path, "out-of-range", f"{_show(value)} is out of range{where}: it must be {word} "
                          f"{rule}")
        return
    if keyword == "pattern":
        description = subschema.get("description") or f"it must match {rule}"
        if "propertyNames" in error.absolute_schema_path:  # a key of the mapping at path: point at that key
            yield doc.problem(path + (value,), "bad-key-name", f"'{brief(str(value), 60)}' is not a valid key{where}",
                              description, key=True)
            return
        if isinstance(value, str) and value != value.lower() and re.fullmatch(str(rule), value.lower()):
            description = f"{description} Write '{value.lower()}'."
        yield doc.problem(path, "bad-format", f"{_show(value)} is not valid{where}", description)
        return
    if keyword in ("minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties"):
        what = {"Items": "items", "Length": "characters", "Properties": "keys"}[keyword[3:]]
        word = "at least" if keyword.startswith("min") else "at most"
        yield doc.problem(path, "bad-size", f"{where.strip(' ()') or 'value'} must have {word} "
                          f"{rule} {what}".replace("in ", "", 1))
        return
    if keyword == "propertyNames":
        for key in value if isinstance(value, dict) else ():
            if not _valid_name(rule, key):
                yield doc.problem(path + (key,), "bad-key-name", f"'{brief(key, 60)}' is not a valid key{where}",
                                  "keys here are lowercase letters, digits and underscores, starting with a letter",
                                  key=True)
        return
    yield doc.problem(path, "schema", f"{error.message}{where}")


def _valid_name(subschema: dict[str, Any], key: str) -> bool:
    resolved = _validator().evolve(schema=subschema)
    return resolved.is_valid(key)


def _describe_key(subschema: dict[str, Any], key: str) -> str | None:
    prop = subschema.get("properties", {}).get(key, {})
    description = prop.get("description")
    if description is None and "$ref" in prop:
        target = prop["$ref"].rsplit("/", 1)[-1]
        description = schema()["$defs"].get(target, {}).get("description")
    return f"'{key}': {description}" if description else None


def _describe(path: tuple[Any, ...]) -> str:
    from .problems import format_path

    return f" in {format_path(path)}" if path else ""


def _article(word: str) -> str:
    names = {"integer": "a whole number", "number": "a number", "string": "text", "boolean": "true or false",
             "object": "a mapping of keys", "array": "a list", "null": "nothing"}
    return " or ".join(names.get(w, w) for w in word.split(" or "))


def _type_hint(expected: str, value: Any) -> str | None:
    if expected == "integer" and isinstance(value, str) and value.lstrip("$£€").replace(",", "").isdigit():
        return "write amounts as plain numbers, without a currency sign or separators"
    if expected == "integer" and isinstance(value, float):
        return "amounts are whole numbers"
    if expected == "string" and isinstance(value, bool):
        return "YAML reads yes/no/on/off/true/false as true or false: quote it to keep it as text"
    if expected == "string" and isinstance(value, (int, float)):
        return "quote it to keep it as text"
    if value is None:
        return "the value is missing after the ':'"
    return None


def _show(value: Any) -> str:
    if isinstance(value, str):
        return f"'{brief(value, 40)}'"
    if isinstance(value, (dict, list)):
        return ""
    return json.dumps(value)
