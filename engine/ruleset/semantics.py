"""Checks the schema cannot express: cross-references, sizes that must agree, effects.

Runs on the composed tree (after ``extends`` and variants), so a variant that
breaks an edition is caught; every problem is reported at the line of the file
that wrote the offending value.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..effects.check import TRIGGER_AMOUNTS, EffectNames, parse_and_check, parse_and_check_condition
from ..effects.parse import keywords
from .compose import Composed
from .dice import check_dice, dice_thrown, effect_places, symbols_of
from .load import Mark
from .model import DEFAULTS, OWNABLE_KINDS, with_defaults
from .problems import Problem
from .schema import suggest

_OWNABLE_ONLY = ("group", "price", "mortgage", "rent")
#: All the effect text of one ruleset, editions and variants together (classic: about 3,000 characters).
MAX_EFFECT_TEXT = 50_000


def check_composed(composed: Composed) -> tuple[list[Problem], dict[tuple[Any, ...], Any]]:
    """Every semantic problem, and the parsed effects by their place in the tree."""
    problems: list[Problem] = []
    data = with_defaults(composed.data)
    if "board" not in composed.data:
        problems.append(composed.problem((), "missing-key", "the edition has no board",
                                         "an edition that does not `extends` another needs a `board:` list"))
        return problems, {}
    board: list[dict[str, Any]] = data["board"]
    groups: dict[str, dict[str, Any]] = data.get("groups", {})
    decks: dict[str, dict[str, Any]] = data.get("decks", {})
    rules = data["rules"]
    _check_board(composed, board, groups, decks, rules, problems)
    _check_groups(composed, board, groups, rules, problems)
    _check_decks(composed, board, decks, problems)
    _check_misc(composed, data, board, problems)
    check_dice(composed, data["dice"], problems)
    effects = _check_effects(composed, data, board, problems)
    return problems, effects


def _check_board(composed: Composed, board: list[dict[str, Any]], groups: dict[str, Any],
                 decks: dict[str, Any], rules: dict[str, Any], problems: list[Problem]) -> None:
    kinds = Counter(space["kind"] for space in board)
    if kinds["jail"] != 1:
        jails = [i for i, s in enumerate(board) if s["kind"] == "jail"]
        where = ("board", jails[1], "kind") if len(jails) > 1 else ("board",)
        problems.append(composed.problem(where, "jail-count",
                                         f"the board needs exactly one space of kind jail, it has {kinds['jail']}",
                                         "jail is where `go to jail` and the doubles rule send a player"))
    if kinds["go"] > 1:
        problems.append(composed.problem(("board",), "go-count",
                                         f"the board has {kinds['go']} spaces of kind go; it may have one at most"))
    owned_names = Counter(space["name"] for space in board if space["kind"] in OWNABLE_KINDS)
    for index, space in enumerate(board):
        here = ("board", index)
        kind = space["kind"]
        name = space["name"]
        if kind in OWNABLE_KINDS:
            for key in ("group", "price", "rent"):
                if key not in space:
                    problems.append(composed.problem(here, "missing-key",
                                                     f'{kind} "{name}" needs a {key}', key=True))
            if owned_names[name] > 1:
                problems.append(composed.problem(here + ("name",), "duplicate-name",
                                                 f'two properties are named "{name}"',
                                                 "effects and trades find properties by name: give each its own"))
            group = space.get("group")
            if group is not None and group not in groups:
                problems.append(composed.problem(here + ("group",), "unknown-group", f"unknown group '{group}'",
                                                 suggest(group, groups) or "groups: " + ", ".join(groups)))
            price, mortgage = space.get("price"), space.get("mortgage")
            if price is not None and mortgage is not None and mortgage > price:
                problems.append(composed.problem(here + ("mortgage",), "mortgage-above-price",
                                                 f"mortgage value {mortgage} is more than the price {price}"))
            rent = space.get("rent")
            needed = rules["building"]["houses_per_hotel"] + 2
            if kind == "street" and rent is not None and len(rent) < needed:
                problems.append(composed.problem(
                    here + ("rent",), "rent-length",
                    f'"{name}" has {len(rent)} rent figures; a street needs {needed}: with 0 to '
                    f'{needed - 2} houses, then with a hotel',
                    _set_elsewhere(composed, ("rules", "building", "houses_per_hotel"), here + ("rent",),
                                   f"houses_per_hotel is {needed - 2}")))
        else:
            for key in _OWNABLE_ONLY:
                if key in space:
                    problems.append(composed.problem(
                        here + (key,), "not-ownable",
                        f"a space of kind {kind} has no {key}: only streets, railroads and utilities do",
                        _set_elsewhere(composed, here + ("kind",), here + (key,), f"its kind is {kind}"),
                        key=True))
        if kind == "draw":
            deck = space.get("deck")
            if deck is None:
                problems.append(composed.problem(here, "missing-key", f'draw space "{name}" needs a deck', key=True))
            elif deck not in decks:
                problems.append(composed.problem(here + ("deck",), "unknown-deck", f"unknown deck '{deck}'",
                                                 suggest(deck, decks) or "decks: " + (", ".join(decks) or "none")))
        elif "deck" in space:
            problems.append(composed.problem(here + ("deck",), "not-draw",
                                             f"a space of kind {kind} has no deck: only draw spaces do", key=True))


def _set_elsewhere(composed: Composed, cause: tuple[Any, ...], place: tuple[Any, ...], what: str) -> str | None:
    """A hint naming where ``cause`` was set, when another file than the one of ``place`` set it."""
    if cause[:1] == ("rules",) and not _has(composed.data, cause):
        return None  # a default, set by nobody
    cause_doc, cause_where = composed.origin(cause)
    place_doc, _ = composed.origin(place)
    if cause_doc is place_doc:
        return None
    mark = cause_doc.mark(cause_where)
    return f"{what}, set at {cause_doc.file}:{mark.line}:{mark.column}"


def _has(data: Any, path: tuple[Any, ...]) -> bool:
    for part in path:
        if not isinstance(data, dict) or part not in data:
            return False
        data = data[part]
    return True


def _check_groups(composed: Composed, board: list[dict[str, Any]], groups: dict[str, Any],
                  rules: dict[str, Any], problems: list[Problem]) -> None:
    for key, group in groups.items():
        members = [(i, s) for i, s in enumerate(board) if s.get("group") == key and s["kind"] in OWNABLE_KINDS]
        here = ("groups", key)
        if not members:
            problems.append(composed.problem(here, "unused-group", f"group '{key}' has no spaces", key=True,
                                             severity="warning"))
            continue
        kinds = {s["kind"] for _, s in members}
        if len(kinds) > 1:
            problems.append(composed.problem(here, "mixed-group", f"group '{key}' mixes " + " and ".join(sorted(kinds)),
                                             "a group holds spaces of one kind", key=True))
            continue
        kind = kinds.pop()
        if kind == "street" and "house_cost" not in group:
            problems.append(composed.problem(here, "missing-key", f"group '{key}' holds streets and needs a house_cost",
                                             key=True))
        if kind in ("railroad", "utility"):
            for index, space in members:
                rent = space.get("rent")
                if rent is not None and len(rent) != len(members):
                    what = "rent figures" if kind == "railroad" else "dice multipliers"
                    problems.append(composed.problem(
                        ("board", index, "rent"), "rent-length",
                        f'"{space["name"]}" has {len(rent)} {what}; its group \'{key}\' has {len(members)} '
                        f"{kind} spaces, so it needs one for each number owned (1 to {len(members)})"))


def _check_decks(composed: Composed, board: list[dict[str, Any]], decks: dict[str, Any],
                 problems: list[Problem]) -> None:
    used = {s.get("deck") for s in board if s["kind"] == "draw"}
    for key in decks:
        if key not in used:
            problems.append(composed.problem(("decks", key), "unused-deck",
                                             f"deck '{key}' is not drawn from any space", key=True,
                                             severity="warning"))


#: The events of a trigger that happen on a space (it names it, or a kind); the others happen to a player.
SPACE_EVENTS = ("land", "pass")
#: The events whose default handling a trigger may replace (`instead: true`), and what that handling is.
INSTEAD_EVENTS = {
    "land": "the space's card, offer, rent and effect",
    "rent": "the payment of the rent",
    "fee": "the payment of the fee",
    "go_to_jail": "the move to jail",
}


def _check_misc(composed: Composed, data: dict[str, Any], board: list[dict[str, Any]],
                problems: list[Problem]) -> None:
    players = data["players"]
    if players["min"] > players["max"]:
        problems.append(composed.problem(("players",), "players-range",
                                         f"players.min ({players['min']}) is more than players.max ({players['max']})"))
    names = [s["name"] for s in board]
    kinds = dict.fromkeys(s["kind"] for s in board)
    for index, trigger in enumerate(data.get("triggers", [])):
        on = trigger["on"]
        for key in ("space", "kind"):
            if key in trigger and on not in SPACE_EVENTS:
                problems.append(composed.problem(
                    ("triggers", index, key), "trigger-space",
                    f'a trigger on {on} happens to a player, not on a space: it takes no "{key}"',
                    f"remove the {key}, or trigger on land or pass of it"))
        if on in SPACE_EVENTS and "space" in trigger and "kind" in trigger:
            problems.append(composed.problem(
                ("triggers", index, "kind"), "trigger-space",
                f'a trigger on {on} names one space or one kind, not both',
                'keep "space" for that space alone, or "kind" for every space of the kind'))
        elif on in SPACE_EVENTS and "space" in trigger and trigger["space"] not in names:
            problems.append(composed.problem(("triggers", index, "space"), "unknown-space",
                                             f'no space named "{trigger["space"]}"',
                                             suggest(trigger["space"], dict.fromkeys(names), quote='"')))
        elif on in SPACE_EVENTS and "kind" in trigger and trigger["kind"] not in kinds:
            problems.append(composed.problem(("triggers", index, "kind"), "unknown-kind",
                                             f'no space of kind {trigger["kind"]} on this board',
                                             "the board's kinds: " + ", ".join(kinds)))
        if trigger.get("instead") and on not in INSTEAD_EVENTS:
            problems.append(composed.problem(
                ("triggers", index, "instead"), "trigger-instead",
                f"a trigger on {on} cannot replace anything: {on} has no handling of its own to leave out",
                "instead: true works on " + ", ".join(f"{event} ({what})" for event, what in INSTEAD_EVENTS.items())
                + "; without it the effect happens as well"))


def _check_effects(composed: Composed, data: dict[str, Any], board: list[dict[str, Any]],
                   problems: list[Problem]) -> dict[tuple[Any, ...], Any]:
    variables = data.get("variables", {})
    words = keywords()
    for name in variables:
        if name in words:  # `set pot to 5` would be read as the pot itself: a name of the language's own
            problems.append(composed.problem(("variables", name), "variable-name",
                                             f'"{name}" is a word of the effect language, so it cannot name '
                                             "a variable", f'give it another name, such as "my_{name}"', key=True))
    names = EffectNames(
        spaces=tuple(s["name"] for s in board),
        kinds=frozenset(s["kind"] for s in board),
        groups=frozenset(data.get("groups", {})),
        decks=frozenset(data.get("decks", {})),
        variables=frozenset(name for name in variables if name not in words),
        dice=dice_thrown(data["dice"]),
        faces=symbols_of(data["dice"]),
    )
    places: list[tuple[tuple[Any, ...], str, str, str | None]] = []
    for index, space in enumerate(board):
        if "effect" in space:
            places.append((("board", index, "effect"), space["effect"], "space", None))
    for key, deck in data.get("decks", {}).items():
        for index, card in enumerate(deck["cards"]):
            places.append((("decks", key, "cards", index, "effect"), card["effect"], "card", None))
            if "effect" in card.get("use", {}):
                places.append((("decks", key, "cards", index, "use", "effect"), card["use"]["effect"], "card use",
                               None))
    for index, trigger in enumerate(data.get("triggers", [])):
        amount = TRIGGER_AMOUNTS.get(trigger["on"])
        if "if" in trigger:
            places.append((("triggers", index, "if"), trigger["if"], "condition", amount))
        places.append((("triggers", index, "effect"), trigger["effect"], "trigger", amount))
    places.extend((place, text, where, None) for place, text, where in effect_places(data["dice"]))
    effects: dict[tuple[Any, ...], Any] = {}
    total = 0
    for place, text, where, amount in places:
        total += len(text)
        if total > MAX_EFFECT_TEXT:  # parsing costs time by the character: a ruleset's effects are bounded
            problems.append(composed.problem(place, "too-much-effect-text",
                                             f"the effects of this ruleset hold more than {MAX_EFFECT_TEXT:,} "
                                             "characters; the rest are not read",
                                             "classic's effects hold about 3,000 characters"))
            break
        if where == "condition":
            effect, found = parse_and_check_condition(text, names, amount=amount)
        else:
            effect, found = parse_and_check(text, names, where, amount=amount)
        if effect is not None:
            effects[place] = effect
        for item in found:
            problems.append(_effect_problem(composed, place, item))
    _check_draw_loops(composed, data, effects, problems)
    _check_card_uses(composed, data, effects, problems)
    for key, text in data.get("permissions", {}).items():
        total += len(text)
        if total > MAX_EFFECT_TEXT:
            break  # reported above, or the next permission is past the bound: the rest are not read
        condition, found = parse_and_check_condition(text, names)
        if condition is not None:
            effects[("permissions", key)] = condition
        for item in found:
            problems.append(_effect_problem(composed, ("permissions", key), item))
    return effects


def _check_card_uses(composed: Composed, data: dict[str, Any], effects: dict[tuple[Any, ...], Any],
                     problems: list[Problem]) -> None:
    """A card's `use` says how a kept card is used: on a card its effect does not keep, it could never be."""
    from ..effects import ast

    for key, deck in data.get("decks", {}).items():
        for index, card in enumerate(deck["cards"]):
            effect = effects.get(("decks", key, "cards", index, "effect"))
            if "use" in card and effect is not None and \
                    not any(isinstance(s, ast.Keep) for s in effect.statements()):
                problems.append(composed.problem(("decks", key, "cards", index, "use"), "use-without-keep",
                                                 "this card has a `use` but its effect does not keep it, so "
                                                 "nobody ever holds it to use",
                                                 "add `keep` to its effect, or take `use` away", key=True))


def _check_draw_loops(composed: Composed, data: dict[str, Any], effects: dict[tuple[Any, ...], Any],
                      problems: list[Problem]) -> None:
    """A warning where every card of a deck draws again from decks that lead back to it: each draw then
    draws again until the engine's bound on chained effects stops it (16 draws and moves after a roll)."""
    from ..effects import ast

    draws: dict[str, list[tuple[tuple[Any, ...], set[str]]]] = {}
    for key, deck in data.get("decks", {}).items():
        for index, _ in enumerate(deck["cards"]):
            place = ("decks", key, "cards", index, "effect")
            effect = effects.get(place)
            targets = {s.deck for s in effect.statements() if isinstance(s, ast.Draw)} if effect is not None else set()
            draws.setdefault(key, []).append((place, targets))
    for key, cards in draws.items():
        if not cards or not all(targets for _, targets in cards):
            continue
        seen, frontier = set(), {t for _, targets in cards for t in targets}
        while frontier:
            deck = frontier.pop()
            if deck in seen or deck not in draws:
                continue
            seen.add(deck)
            if all(targets for _, targets in draws[deck]):
                frontier |= {t for _, targets in draws[deck] for t in targets}
        if key in seen:
            problems.append(composed.problem(cards[0][0], "draw-loop",
                                             f"every card of deck {key} draws again, from decks that lead back to it",
                                             "a draw then draws again until the limit of 16 chained draws and moves "
                                             "after a roll stops it: give the deck a card that does something else",
                                             severity="warning"))


def _effect_problem(composed: Composed, place: tuple[Any, ...], item: Any) -> Problem:
    """An effect-language problem moved from its place in the text to its place in the file."""
    doc, where = composed.origin(place)
    start = doc.mark(where)
    source = doc.source_line(start.line) or ""
    opener = source[start.column - 1: start.column]
    line, column = start.line, start.column
    if opener in "|>" and opener:
        line = start.line + item.line
        text_line = doc.source_line(line) or ""
        column = len(text_line) - len(text_line.lstrip()) + item.column
    elif item.line == 1:
        column = start.column + item.column - 1 + (1 if opener in "\"'" and opener else 0)
    else:
        line = start.line + item.line - 1
        text_line = doc.source_line(line) or ""
        column = len(text_line) - len(text_line.lstrip()) + item.column
    hint = item.hint
    if item.code == "unknown-space":
        for old, (new, renamed_at) in composed.renamed.items():
            if f'"{old}"' in item.message:
                hint = f'"{old}" was renamed to "{new}" at {renamed_at}: change this effect too'
    return doc.problem(where, f"effect-{item.code}", item.message, hint, offset=Mark(line, column))


__all__ = ["DEFAULTS", "check_composed"]
