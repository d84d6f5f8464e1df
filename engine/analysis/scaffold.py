"""A new edition file to start from: the schema line, ``extends`` and every section explained.

The file validates as it is. Its comments follow one convention: a line
starting with ``##`` explains, a line starting with a single ``# `` is an
example; removing the ``# `` of every example line still gives a valid file,
because the examples are made from the edition it extends (its own space,
group and deck names), not from classic's.

>>> import monopoly
>>> text = scaffold_edition("seaside", monopoly.load_ruleset("classic"), extends="classic", schema="schema.json")
>>> text.splitlines()[0]
'# yaml-language-server: $schema=schema.json'
>>> "extends: classic" in text
True
"""

from __future__ import annotations

import json
import os
import re
import textwrap
from importlib import resources
from pathlib import Path

import yaml

from ..ruleset.model import Ruleset, Space

#: What an edition id may be (the schema's ``slug``): lowercase letters, digits and dashes.
ID_PATTERN = re.compile(r"^[a-z][a-z0-9-]*$")
ID_MAX = 64


class ScaffoldError(ValueError):
    """A name that cannot be an edition id; ``hint`` says what would be."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint


def suggest_id(name: str) -> str | None:
    """The nearest valid id: lowercase, runs of other characters as one dash.

    >>> suggest_id("My Edition!"), suggest_id("2024 rules"), suggest_id("***")
    ('my-edition', 'edition-2024-rules', None)
    """
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    if not slug:
        return None
    if not slug[0].isalpha():
        slug = f"edition-{slug}"
    return slug[:ID_MAX].rstrip("-")


def check_id(name: str) -> None:
    """Raise :class:`ScaffoldError` unless ``name`` is a valid edition id."""
    if ID_PATTERN.match(name) and len(name) <= ID_MAX:
        return
    hint = "an id is lowercase letters, digits and dashes, starting with a letter"
    if len(name) > ID_MAX:
        hint += f", at most {ID_MAX} characters"
    better = suggest_id(name)
    if better and better != name:
        hint += f"; try '{better}'"
    raise ScaffoldError(f"'{name}' is not a valid edition id", hint)


def display_name(edition_id: str) -> str:
    """``my-edition`` -> ``My Edition``."""
    return " ".join(part.capitalize() for part in edition_id.split("-") if part)


def installed_schema() -> Path:
    """The path of the ruleset schema file of this installation."""
    return Path(str(resources.files("monopoly.schema").joinpath("ruleset.schema.json")))


def schema_reference(target: Path, schema: Path | None = None) -> str:
    """What the ``$schema=`` line of a file written at ``target`` says.

    Inside the tree that holds the schema (the repository, for a checkout): a
    relative path, so the file still points at it when the tree is moved or
    shared. Anywhere else: the absolute path of the installed schema.
    """
    schema = (schema or installed_schema()).resolve()
    folder = target.resolve().parent
    root = schema.parent.parent
    if folder == root or root in folder.parents:
        return Path(os.path.relpath(schema, folder)).as_posix()
    return schema.as_posix()


def extends_reference(base: str, base_file: Path | None, target: Path) -> str:
    """What ``extends:`` says: a built-in name as given; a file as a path relative to the new file,
    or absolute when the two have nothing in common but the root (``../../../..`` helps nobody)."""
    if base_file is None:
        return base
    base_path, folder = base_file.resolve(), target.resolve().parent
    if os.path.commonpath([base_path, folder]) == base_path.anchor:
        return base_path.as_posix()
    return Path(os.path.relpath(base_path, folder)).as_posix()


# ---------------------------------------------------------------------------- YAML text


def _scalar(value: str, *, flow: bool = False, key: bool = False) -> str:
    """``value`` as a YAML scalar: plain where it reads back the same, else double-quoted.

    ``flow``: inside ``{...}``, where commas and braces end a plain scalar;
    ``key``: before a colon.
    """
    if key:
        probe = f"{{{value}: 1}}" if flow else f"{value}: 1"
        expected: object = {value: 1}
    else:
        probe = f"{{k: {value}}}" if flow else f"k: {value}"
        expected = {"k": value}
    try:
        plain = bool(value) and value == value.strip() and yaml.safe_load(probe) == expected
    except yaml.YAMLError:
        plain = False
    return value if plain else json.dumps(value, ensure_ascii=False)


def _prose(text: str) -> list[str]:
    """An explanation as ``##`` comment lines of a readable width."""
    return [f"## {line}" for line in textwrap.wrap(text, width=86, break_long_words=False, break_on_hyphens=False)]


def _unique_unreferenced_street(ruleset: Ruleset, skip: tuple[str, ...] = ()) -> Space | None:
    """A street whose name appears once on the board and in no effect (so renaming it breaks nothing)."""
    effects = [s.effect_text or "" for s in ruleset.board]
    effects += [c.effect_text for d in ruleset.decks for c in d.cards]
    effects += [t.effect_text for t in ruleset.triggers] + [t.space_name or "" for t in ruleset.triggers]
    effects += [t.condition_text or "" for t in ruleset.triggers]
    for space in ruleset.board:
        if not space.buildable or space.name in skip:
            continue
        if sum(s.name == space.name for s in ruleset.board) != 1:
            continue
        if any(space.name in text for text in effects):
            continue
        return space
    return None


def _new_space_name(ruleset: Ruleset) -> str:
    names = {s.name for s in ruleset.board}
    for candidate in ("Harbour Lane", "Harbour Lane East", "Market Row"):
        if candidate not in names:
            return candidate
    return f"Street {len(names) + 1}"  # pragma: no cover - a board using all three names


def scaffold_edition(edition_id: str, base: Ruleset, *, extends: str, schema: str) -> str:
    """The text of a new edition file ``edition_id`` that extends ``base`` (written as ``extends``)."""
    check_id(edition_id)
    name = display_name(edition_id)
    out = [
        f"# yaml-language-server: $schema={schema}",
        "##",
        *_prose(f"{name}: a new edition built on {base.name}. This file says only what changes; everything "
                f"else comes from {extends}. After each change, check it:"),
        f"##   monopoly validate {edition_id}.yaml",
        "## then look at it and measure it:",
        f"##   monopoly render {edition_id}.yaml -o {edition_id}.svg --heat",
        f"##   monopoly analyze {edition_id}.yaml --format html -o {edition_id}.html",
        "##",
        '## Lines starting with "##" explain. Lines starting with a single "# " are examples:',
        '## delete the "# " at the start of each line of one to use it. Every key is described',
        "## in docs/ruleset-reference.md of the monopoly-engine project.",
        "",
        f"id: {edition_id}",
        f"name: {_scalar(name)}",
        f"description: {_scalar(f'A new edition built on {base.name}.')}",
        f"extends: {_scalar(extends)}",
        "",
    ]
    out += _money_section(base)
    out += _spaces_section(base)
    out += _groups_section(base)
    out += _decks_section(base)
    out += _rules_section(base)
    out += _triggers_section(base)
    out += _permissions_section()
    return "\n".join(out).rstrip() + "\n"


def _heading(title: str) -> str:
    return f"## ---- {title} " + "-" * max(4, 80 - len(title))


def _money_section(base: Ruleset) -> list[str]:
    other = "€" if base.currency != "€" else "£"
    return [
        _heading("Money and the table"),
        *_prose(f"currency: the sign printed before every amount, up to 4 characters; {base.name} uses "
                f"{base.currency}."),
        f"# currency: {_scalar(other)}",
        "",
        *_prose("bank: the houses and hotels in the box, and the cash each player starts with."),
        f"# bank: {{houses: {base.houses}, hotels: {base.hotels}, starting_cash: {base.starting_cash}}}",
        "",
        *_prose("players: how many may sit at the table. dice: how many dice, and their sides."),
        f"# players: {{min: {base.min_players}, max: {base.max_players}}}",
        f"# dice: {{count: {base.dice_count}, sides: {base.dice_sides}}}",
        "",
    ]


def _spaces_section(base: Ruleset) -> list[str]:
    lines = [
        _heading("Spaces"),
        *_prose(f"spaces: change spaces of {base.name} by their current name. Only the keys you give change: "
                "`name` renames the space; `price`, `mortgage`, `rent`, `label` and `effect` replace what the "
                "base says. Give a new `mortgage` with a new `price` (the base states every mortgage). Cards "
                "that name a renamed space must be changed too."),
        *_prose("A board with another number or order of spaces is an edition of its own: remove `extends` "
                "and write `board`, `groups` and `decks` (docs/designer-guide.md, \"Start from classic\")."),
    ]
    examples = []
    first = _unique_unreferenced_street(base)
    if first is not None:
        examples.append(f"#   {_scalar(first.name, key=True)}: "
                        f"{{name: {_scalar(_new_space_name(base), flow=True)}}}")
    second = _unique_unreferenced_street(base, skip=(first.name,) if first else ())
    if second is not None and second.price is not None:
        price = second.price + 10
        examples.append(f"#   {_scalar(second.name, key=True)}: {{price: {price}, mortgage: {price // 2}}}")
    tax = next((s for s in base.board if s.kind == "tax" and sum(t.name == s.name for t in base.board) == 1), None)
    if tax is not None:
        examples.append(f"#   {_scalar(tax.name, key=True)}: {{effect: pay 75}}")
    if examples:
        lines += ["# spaces:", *examples]
    return lines + [""]


def _groups_section(base: Ruleset) -> list[str]:
    lines = [
        _heading("Groups"),
        *_prose("groups: the colour groups, and the groups of railroads and utilities, by key. Name only "
                "what changes: `name`, `color` (#rrggbb), `house_cost` (the price of one house, and of a "
                "hotel on top of its houses)."),
    ]
    group = next((g for g in base.groups if g.house_cost is not None and g.members), None)
    if group is not None:
        lines += ["# groups:",
                  f'#   {group.key}: {{name: Sand, color: "#E8D29B", house_cost: {group.house_cost}}}']
    return lines + [""]


def _decks_section(base: Ruleset) -> list[str]:
    decks = ", ".join(f"{d.key} ({d.size} cards)" for d in base.decks) or "none"
    lines = [
        _heading("Decks"),
        *_prose("decks: the card decks by key. A deck's `cards:` list replaces all the cards of that deck "
                "in the base; to change a few, give `remove:` (card texts), `change:` (text: the keys to "
                "change) and `add:` (new cards) instead. A new key adds a deck (and needs a `draw` space). "
                "Each card has its printed `text` and its `effect`, and `count` copies (1 by default)."),
        *_prose(f"The decks of {base.name}: {decks}."),
    ]
    deck = next((d for d in base.decks if d.cards), None)
    if deck is not None:
        lines += ["# decks:", f"#   {deck.key}:", "#     cards:"]
        for card in deck.cards[:2]:
            lines += [f"#       - text: {_scalar(card.text)}", f"#         effect: {_scalar(card.effect_text)}"]
        lines += ["#       - text: A sea breeze fills your sails. Collect 25.", "#         effect: collect 25"]
    return lines + [""]


def _rules_section(base: Ruleset) -> list[str]:
    rules = base.rules
    return [
        _heading("Rules"),
        *_prose("rules: salary, jail, rent, building, mortgages, auctions, set-up and how the game ends. "
                "Each part merges key by key with the base, so write only what you change. The values "
                f"below are those of {base.name}."),
        "# rules:",
        f"#   salary: {rules.salary}",
        f"#   jail: {{fine: {rules.jail.fine}, max_turns: {rules.jail.max_turns}}}",
        f"#   building: {{houses_per_hotel: {rules.building.houses_per_hotel}}}",
        f"#   end: {{when: {rules.end.when}}}",
        "",
    ]


def _triggers_section(base: Ruleset) -> list[str]:
    start = next((s for s in base.board if s.kind == "go"), base.board[0])
    return [
        _heading("Triggers"),
        *_prose("triggers: extra effects when a player lands on (`on: land`) or passes (`on: pass`) a space, "
                "added to those of the base. This one pays the salary again for landing exactly on "
                f"{start.name}:"),
        "# triggers:",
        f"#   - {{on: land, space: {_scalar(start.name, flow=True)}, effect: collect {base.rules.salary}}}",
        "",
    ]


def _permissions_section() -> list[str]:
    return [
        _heading("Permissions"),
        *_prose("permissions: when a player may buy, collect rent, build, mortgage or propose a trade, each a "
                "condition on top of the printed rules (docs/effects.md, Permissions). This one lets nobody buy "
                "before passing GO once:"),
        "# permissions:",
        "#   buy: laps >= 1",
        "",
    ]


__all__ = [
    "ID_PATTERN",
    "ScaffoldError",
    "check_id",
    "display_name",
    "extends_reference",
    "installed_schema",
    "scaffold_edition",
    "schema_reference",
    "suggest_id",
]
