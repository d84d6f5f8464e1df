"""Checks the schema cannot express: cross-references, sizes that must agree, effects.

Runs on the composed tree (after ``extends`` and variants), so a variant that
breaks an edition is caught; every problem is reported at the line of the file
that wrote the offending value.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..effects.ast import plural
from ..effects.check import (
    TRIGGER_AMOUNTS,
    EffectNames,
    parse_and_check,
    parse_and_check_condition,
    parse_and_check_number,
)
from ..effects.parse import keywords
from ..effects.rent import figures_read, is_pure
from .compose import Composed
from .dice import check_dice, dice_thrown, effect_places, symbols_of
from .load import Mark
from .model import DEFAULTS, rule_values, with_defaults
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
    kinds: dict[str, dict[str, Any]] = data.get("kinds", {})
    _check_kinds(composed, kinds, problems)
    _check_board(composed, board, groups, decks, kinds, problems)
    _check_groups(composed, board, groups, kinds, problems)
    _check_decks(composed, board, decks, problems)
    _check_misc(composed, data, board, problems)
    check_dice(composed, data["dice"], problems)
    effects = _check_effects(composed, data, board, problems)
    _check_rent_figures(composed, data, board, kinds, effects, problems)
    return problems, effects


def _check_kinds(composed: Composed, kinds: dict[str, dict[str, Any]], problems: list[Problem]) -> None:
    """A kind that is not owned is neither built on nor mortgaged and has no rent; an owned one has a rent."""
    for name, kind in kinds.items():
        here = ("kinds", name)
        if kind.get("owned"):
            if "rent" not in kind:
                problems.append(composed.problem(here + ("owned",), "missing-key",
                                                 f"kind {name} is owned but has no rent",
                                                 'give it a rent, such as "rent: figure owned in group"'))
            continue
        for key, what in (("build", "built on"), ("mortgaged", "mortgaged"), ("rent", "given a rent")):
            if kind.get(key, False) is not False:
                problems.append(composed.problem(
                    here + (key,), "kind-not-owned", f"kind {name} is not owned, so it cannot be {what}",
                    f"add owned: true to kind {name}, or take {key} away", key=True))


def _owned_kinds(kinds: dict[str, dict[str, Any]]) -> list[str]:
    return [name for name, kind in kinds.items() if kind.get("owned")]


def _spoken_list(words: list[str]) -> str:
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def _check_board(composed: Composed, board: list[dict[str, Any]], groups: dict[str, Any],
                 decks: dict[str, Any], kinds: dict[str, dict[str, Any]], problems: list[Problem]) -> None:
    counts = Counter(space["kind"] for space in board)
    if counts["jail"] != 1:
        jails = [i for i, s in enumerate(board) if s["kind"] == "jail"]
        where = ("board", jails[1], "kind") if len(jails) > 1 else ("board",)
        problems.append(composed.problem(where, "jail-count",
                                         f"the board needs exactly one space of kind jail, it has {counts['jail']}",
                                         "jail is where `go to jail` and the doubles rule send a player"))
    if counts["go"] > 1:
        problems.append(composed.problem(("board",), "go-count",
                                         f"the board has {counts['go']} spaces of kind go; it may have one at most"))
    owned = _owned_kinds(kinds)
    owned_names = Counter(space["name"] for space in board if space["kind"] in owned)
    for index, space in enumerate(board):
        here = ("board", index)
        kind = space["kind"]
        name = space["name"]
        if kind not in kinds:
            problems.append(composed.problem(  # the code the schema gave it when the kinds were a fixed list
                here + ("kind",), "bad-value",
                f"'{kind}' is not allowed in board[{index}].kind: no kind of that name is declared; use one of: "
                + ", ".join(kinds), suggest(kind, kinds) or "declare it under kinds:, e.g. "
                f"kinds: {{{kind}: {{owned: true, mortgaged: true, rent: figure owned in group}}}}"))
            continue
        if kind in owned:
            for key in ("group", "price"):
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
        else:
            for key in _OWNABLE_ONLY:
                if key in space:
                    problems.append(composed.problem(
                        here + (key,), "not-ownable",
                        f"a space of kind {kind} has no {key}: only "
                        f"{_spoken_list([plural(k) for k in owned])} do",
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
    where = _written_at(composed, cause, place)
    return f"{what}, set at {where}" if where is not None else None


def _written_at(composed: Composed, cause: tuple[Any, ...], place: tuple[Any, ...]) -> str | None:
    """FILE:LINE:COLUMN of ``cause``, when another file than the one of ``place`` wrote it."""
    if cause[:1] == ("rules",) and not _has(composed.data, cause):
        return None  # a default, set by nobody
    cause_doc, cause_where = composed.origin(cause)
    place_doc, _ = composed.origin(place)
    if cause_doc is place_doc or tuple(cause_where) not in cause_doc.value_marks:
        return None  # the same file, or no file wrote it (the built-in defaults)
    mark = cause_doc.mark(cause_where)
    return f"{cause_doc.file}:{mark.line}:{mark.column}"


def _has(data: Any, path: tuple[Any, ...]) -> bool:
    for part in path:
        if not isinstance(data, dict) or part not in data:
            return False
        data = data[part]
    return True


def _check_groups(composed: Composed, board: list[dict[str, Any]], groups: dict[str, Any],
                  kinds: dict[str, dict[str, Any]], problems: list[Problem]) -> None:
    owned = _owned_kinds(kinds)
    for key, group in groups.items():
        members = [(i, s) for i, s in enumerate(board) if s.get("group") == key and s["kind"] in owned]
        here = ("groups", key)
        if not members:
            problems.append(composed.problem(here, "unused-group", f"group '{key}' has no spaces", key=True,
                                             severity="warning"))
            continue
        present = {s["kind"] for _, s in members}
        if len(present) > 1:
            problems.append(composed.problem(here, "mixed-group",
                                             f"group '{key}' mixes " + " and ".join(sorted(present)),
                                             "a group holds spaces of one kind", key=True))
            continue
        kind = present.pop()
        if kinds[kind].get("build") and "house_cost" not in group:
            problems.append(composed.problem(here, "missing-key",
                                             f"group '{key}' holds {plural(kind)} and needs a house_cost", key=True))


def _check_rent_figures(composed: Composed, data: dict[str, Any], board: list[dict[str, Any]],
                        kinds: dict[str, dict[str, Any]], effects: dict[tuple[Any, ...], Any],
                        problems: list[Problem]) -> None:
    """Each lot holds the rent figures its kind's rent reads: every `figure N` it can come to (by level, by how
    many of its group are owned, by the dice), and one more, the last, when it reads `last figure` (the hotel's:
    the figures between may go unread); without `last figure`, exactly those."""
    rules = data["rules"]
    hph = rules["building"]["houses_per_hotel"]
    dice = data["dice"]
    totals = tuple(range(dice["count"], dice["count"] * dice["sides"] + 1))
    values = dict(rule_values(rules))
    sizes = Counter(s.get("group") for s in board if kinds.get(s["kind"], {}).get("owned"))
    read: dict[tuple[str, int], Any] = {}
    for index, space in enumerate(board):
        kind_name = space["kind"]
        kind = kinds.get(kind_name)
        if kind is None or not kind.get("owned"):
            continue
        rent_ast = effects.get(("kinds", kind_name, "rent"))
        if rent_ast is None:
            continue  # no rent, or one with its own problems
        here = ("board", index)
        name = space["name"]
        size = sizes[space.get("group")] if space.get("group") is not None else 1
        key = (kind_name, size)
        if key not in read:
            read[key] = figures_read(rent_ast, values, levels=hph + 2 if kind.get("build") else 1, size=size,
                                     totals=totals)
        needed, last, by_dice, by_owned = read[key]
        rent = space.get("rent")
        if rent is None:
            if needed or last:
                problems.append(composed.problem(here, "missing-key", f'{kind_name} "{name}" needs a rent', key=True))
            continue
        count = len(rent)
        what = "dice multipliers" if by_dice else "rent figures"
        # where the kind's rent is written, when another file wrote it (a variant's kinds:, the base's defaults)
        at = _written_at(composed, ("kinds", kind_name, "rent"), here + ("rent",))
        written = f"the rent of kind {kind_name} is written at {at}" if at is not None else None
        if last and count < needed + 1:
            if kind.get("build"):
                message = (f'"{name}" has {count} rent figures; a {kind_name} needs {needed + 1}: with 0 to '
                           f'{needed - 1} houses, then with a hotel')
            else:
                message = (f'"{name}" has {count} rent figures; the rent of kind {kind_name} reads figure {needed} '
                           f"and the last one after it, so it needs {needed + 1}")
            problems.append(composed.problem(
                here + ("rent",), "rent-length", message,
                _set_elsewhere(composed, ("rules", "building", "houses_per_hotel"), here + ("rent",),
                               f"houses_per_hotel is {hph}") if kind.get("build") else written))
        elif not last and (count < needed or (count > needed and needed == size and by_owned)):
            if needed == size and by_owned and space.get("group") is not None:
                message = (f'"{name}" has {count} {what}; its group \'{space["group"]}\' has {size} '
                           f"{kind_name} spaces, so it needs one for each number owned (1 to {size})")
            else:
                message = f'"{name}" has {count} rent figures; the rent of kind {kind_name} reads {needed} of them'
            problems.append(composed.problem(here + ("rent",), "rent-length", message, written))
        elif not last and needed and count > needed and is_pure(rent_ast):  # every figure it can read is known
            unread = "the last is" if count == needed + 1 else f"the last {count - needed} are"
            problems.append(composed.problem(
                here + ("rent",), "rent-unread",
                f'"{name}" has {count} {what}; the rent of kind {kind_name} reads {needed} of them: {unread} never '
                "used", written or "remove the figures no rent reads, or check the kind's rent", severity="warning"))


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
        extra_die="extra" in data["dice"],
        declared_kinds=frozenset(data.get("kinds", {})),
        rules=rule_values(data["rules"]),
        placed_groups=frozenset(s["group"] for s in board if s.get("group") is not None),
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
    for name, kind in data.get("kinds", {}).items():
        if isinstance(kind.get("rent"), str):
            places.append((("kinds", name, "rent"), kind["rent"], "rent", None))
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
        elif where == "rent":
            effect, found = parse_and_check_number(text, names)
        else:
            effect, found = parse_and_check(text, names, where, amount=amount)
        if effect is not None and not (where == "rent" and found):  # a rent with problems is not worked out
            effects[place] = effect
        for item in found:
            problems.append(_effect_problem(composed, place, item))
    _check_draw_loops(composed, data, effects, problems)
    _check_card_uses(composed, data, effects, problems)
    _check_trigger_volume(composed, data, effects, problems)
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


#: The events the triggers on one event may make each time it happens before the validator warns: a game records
#: at most 90,000 (monopoly.effects.host.MAX_GAME_EVENTS) and stops there.
MANY_TRIGGER_EVENTS = 1_000


def _check_trigger_volume(composed: Composed, data: dict[str, Any], effects: dict[tuple[Any, ...], Any],
                          problems: list[Problem]) -> None:
    """Triggers on one event that together pay, move or draw a thousand times each time it happens (every
    player, the most players the ruleset seats): a game of them soon records the most events a game does, and
    stops there with no winner. Valid, so a warning at the first of them."""
    from ..effects import ast
    from ..effects.host import MAX_GAME_EVENTS

    seats = data["players"]["max"]

    def most(sequence: Any) -> int:
        total = 0
        for statement in sequence.statements:
            if isinstance(statement, ast.EveryPlayer):
                total += seats * most(statement.body)
            elif isinstance(statement, ast.If):
                total += max(most(statement.then), most(statement.otherwise) if statement.otherwise else 0)
            elif isinstance(statement, ast.ChooseStatement):
                total += max(most(option) for option in statement.options)
            else:
                total += 1
        return total

    by_event: dict[str, tuple[int, int]] = {}  # event: (its first trigger's index, the events of them all)
    for index, trigger in enumerate(data.get("triggers", [])):
        effect = effects.get(("triggers", index, "effect"))
        if effect is not None:
            first, total = by_event.get(trigger["on"], (index, 0))
            by_event[trigger["on"]] = (first, total + max(most(option) for option in effect.alternatives))
    for on, (first, total) in by_event.items():
        if total > MANY_TRIGGER_EVENTS:
            problems.append(composed.problem(
                ("triggers", first, "effect"), "many-trigger-events",
                f"the triggers on {on} make up to {total:,} events each time (with {seats} players): a game records "
                f"at most {MAX_GAME_EVENTS:,}, and one of these may stop there, with no winner (end: event_limit)",
                "pay or collect a sum once (collect 20) rather than many times, or use fewer triggers",
                severity="warning"))


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
