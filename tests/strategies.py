"""Hypothesis strategies for games: seeds, agent line-ups, variant combinations and random valid rulesets.

One module, as attrs keeps its strategies, so every property test draws from the same
generators:

* :func:`seeds` -- game seeds;
* :func:`agent_lineups` -- 2 to 6 built-in bots by name;
* :func:`variant_combos` -- subsets of the built-in variants that fit together;
* :func:`ruleset_data` / :func:`ruleset_texts` / :func:`rulesets` -- randomly generated
  *valid* editions of other sizes, as a tree, as YAML text, and loaded through
  ``monopoly.load_ruleset(path)`` (so the whole loader runs: YAML, schema, semantic
  checks, the effect parser and checker, the model).

Generated rulesets cover what the language and the schema allow: boards of 12 to 60
spaces (one go first, one jail, a go-to-jail action space), colour groups of 2 to 4
streets, railroad and utility groups, 0 to 3 decks whose cards use every statement of
the effect language (docs/effects.md), taxes, extra action spaces, triggers, and rules
drawn within the schema bounds.

Every shape is drawn by default, including those that once broke the engine
(:data:`RESTRICTED_SHAPES`); ``unrestricted=False`` leaves those out.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any

import yaml
from hypothesis import strategies as st

import monopoly
from monopoly.agents import BOTS
from monopoly.ruleset import Ruleset, builtin_rulesets

#: The built-in bots a line-up draws from.
AGENTS: tuple[str, ...] = tuple(sorted(BOTS))

#: Built-in editions the variants apply to.
EDITIONS: tuple[str, ...] = ("classic", "uk")

#: Variants that cannot be combined (each sets how the game ends).
EXCLUSIVE_VARIANTS: tuple[frozenset[str], ...] = (frozenset({"short-game", "time-limit", "deal-all-deeds"}),
                                                  frozenset({"auto-income-tax", "income-tax-2008"}))

#: Shapes that once broke the engine (each kept as a test in tests/test_invariants.py):
#: moving after `go to jail`, a `keep` that does not run, pass triggers that move or
#: bankrupt, cards drawing from their own deck, a collector going bankrupt mid-collection.
#: The generator draws them all by default; ``unrestricted=False`` leaves them out.
RESTRICTED_SHAPES = ("jail-then-move", "keep-lost", "pass-trigger", "draw-recursion", "collector-bankrupt")


# ---------------------------------------------------------------------------- games


def seeds() -> st.SearchStrategy[int]:
    """A game seed."""
    return st.integers(min_value=0, max_value=2**32 - 1)


def agent_lineups(min_players: int = 2, max_players: int = 6) -> st.SearchStrategy[list[str]]:
    """Bot names, one per seat (``random``, ``greedy``, ``cautious``, ``trader``)."""
    return st.lists(st.sampled_from(AGENTS), min_size=min_players, max_size=max_players)


def _variant_names() -> list[str]:
    return sorted(b.id for b in builtin_rulesets() if b.kind == "variant")


def _fits(combo: tuple[str, ...]) -> bool:
    return not any(len(group & set(combo)) > 1 for group in EXCLUSIVE_VARIANTS)


def variant_combos() -> st.SearchStrategy[tuple[str, ...]]:
    """Built-in variants that fit together, in the order they are applied (short-game and
    time-limit exclude each other)."""
    names = _variant_names()
    return st.lists(st.sampled_from(names), unique=True, max_size=len(names)).map(tuple).filter(_fits)


# ---------------------------------------------------------------------------- effects


class BoardNames:
    """What an effect on a board may name: its spaces, its kinds and groups, its decks."""

    def __init__(self, spaces: list[str], kinds_and_groups: list[str], decks: list[str],
                 variables: tuple[str, ...] = ()):
        self.spaces = sorted(set(spaces))
        self.kinds_and_groups = sorted(set(kinds_and_groups))
        self.decks = decks
        self.variables = variables


def _quoted(name: str) -> str:
    return f'"{name}"'


@st.composite
def _amounts(draw: Any, names: BoardNames) -> str:
    """An amount: a sum of 1 to 3 terms (number, per house, per hotel, per kind or group, % of net worth)."""
    terms = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["fixed", "fixed", "house", "hotel", "owned", "percent"]))
        if kind == "fixed":
            terms.append(str(draw(st.integers(0, 250))))
        elif kind == "house":
            terms.append(f"{draw(st.integers(0, 60))} per house")
        elif kind == "hotel":
            terms.append(f"{draw(st.integers(0, 150))} per hotel")
        elif kind == "owned":
            terms.append(f"{draw(st.integers(0, 60))} per {draw(st.sampled_from(names.kinds_and_groups))}")
        else:
            terms.append(f"{draw(st.integers(1, 25))}% of net worth")
    return " + ".join(terms)


@st.composite
def _rent_suffix(draw: Any) -> str:
    kind = draw(st.sampled_from(["none", "none", "times", "dice"]))
    if kind == "times":
        return f" with rent x{draw(st.integers(1, 4))}"
    if kind == "dice":
        return f" with rent {draw(st.integers(1, 12))} x dice"
    return ""


#: Every statement of the effect language (docs/effects.md).
STATEMENTS = ("collect", "collect_each", "pay", "pay_each", "collect_pot", "advance", "advance_nearest",
              "go_back", "move", "go_to_jail", "keep", "draw", "variable", "pay_pot", "every")
#: Statements that move the player (a drawn card may move them too).
MOVING = frozenset({"advance", "advance_nearest", "go_back", "move", "go_to_jail", "draw", "every"})
#: The events a generated trigger is on (land and pass often).
TRIGGER_EVENTS = ("land", "land", "land", "pass", "pass", "game_start", "turn_start", "turn_end", "roll", "buy",
                  "take_pot", "build", "mortgage", "unmortgage", "rent", "fee", "go_to_jail", "leave_jail",
                  "bankrupt")
#: The events whose triggers know an `amount`, and those a trigger may replace (`instead`).
AMOUNT_EVENTS = ("rent", "fee", "build", "mortgage", "unmortgage", "bankrupt")
INSTEAD_EVENTS = ("land", "rent", "fee", "go_to_jail")
#: A trigger's conditions (`if:`).
CONDITIONS = ("doubles", "not doubles", "cash < 500", "dice >= 7 and not doubles", "you are in jail",
              "owner is in jail or pot > 100")
#: Money only, from the bank or the pot: what a pass trigger may do when restricted (``pass-trigger``).
BANK_MONEY = ("collect", "collect_pot")


class _Context:
    """Where an effect is written and which statements it may use there."""

    def __init__(self, names: BoardNames, where: str, unrestricted: bool, decks: list[str] | None = None,
                 statements: tuple[str, ...] = STATEMENTS):
        self.names = names
        self.where = where
        self.unrestricted = unrestricted
        self.decks = names.decks if decks is None else decks  # decks a ``draw`` may name
        self.statements = tuple(s for s in statements if (s != "keep" or where == "card")
                                and (s != "draw" or self.decks) and (s != "variable" or names.variables))


@st.composite
def _statements(draw: Any, ctx: _Context, kinds: tuple[str, ...]) -> str:
    """One statement of the effect language, of one of ``kinds``."""
    names = ctx.names
    kind = draw(st.sampled_from(kinds))
    if kind == "collect":
        return f"collect {draw(_amounts(names))}"
    if kind == "collect_each":
        return f"collect {draw(_amounts(names))} from each player"
    if kind == "pay":
        pick = draw(st.integers(0, 7))
        if pick == 0:  # a player the player picks (a choose decision)
            return f"pay {draw(_amounts(names))} to a player you choose"
        if pick == 1:  # one inside the number too: one choice for the statement
            to = draw(st.sampled_from(["", " to a player you choose", " to owner"]))
            return f"pay {draw(st.integers(1, 50))}% of cash of a player you choose{to}"
        return f"pay {draw(_amounts(names))}"
    if kind == "pay_each":
        return f"pay {draw(_amounts(names))} to each player"
    if kind == "pay_pot":
        return f"pay {draw(_amounts(names))} to pot"
    if kind == "collect_pot":
        return "collect pot"
    if kind == "advance":
        if draw(st.integers(0, 5)) == 0:
            return f"advance to a space you choose{draw(_rent_suffix())}"
        return f"advance to {_quoted(draw(st.sampled_from(names.spaces)))}{draw(_rent_suffix())}"
    if kind == "advance_nearest":
        return f"advance to nearest {draw(st.sampled_from(names.kinds_and_groups))}{draw(_rent_suffix())}"
    if kind == "go_back":
        if draw(st.integers(0, 3)) == 0:
            return f"go back to nearest {draw(st.sampled_from(names.kinds_and_groups))}"
        return f"go back to {_quoted(draw(st.sampled_from(names.spaces)))}"
    if kind == "move":
        if draw(st.integers(0, 3)) == 0:  # by an amount worked out in play
            return draw(st.sampled_from(["move forward dice spaces", "go back dice spaces",
                                         "move forward 2 x dice - 7 spaces"]))
        return f"move {draw(st.integers(-12, 12).filter(bool))}"
    if kind == "go_to_jail":
        return "go to jail"
    if kind == "keep":
        return "keep"
    if kind == "every":  # every player in turn: one statement of the others, as each of them; or a choice
        inner = tuple(k for k in ctx.statements if k not in ("keep", "every"))
        if draw(st.booleans()):
            return f"every player: {draw(_statements(ctx, inner))}"
        return f"({'choose: ' + ' | '.join(draw(_statements(ctx, inner)) for _ in range(2))})"
    if kind == "variable":  # the ruleset's variables: set, added to, read
        name = draw(st.sampled_from(names.variables))
        return draw(st.sampled_from([f"set {name} to {draw(_amounts(names))}", f"add {draw(_amounts(names))} to {name}",
                                     f"collect {name}", f"pay {name} / 2"]))
    return f"draw {draw(st.sampled_from(ctx.decks))}"


@st.composite
def _sequences(draw: Any, ctx: _Context, first: bool) -> str:
    """1 to 3 statements separated by ``;``.

    Restricted, a statement that moves the player comes last (``jail-then-move``) and
    ``keep`` comes first in a card that is not a choice (``keep-lost``).
    """
    count = draw(st.integers(1, 3))
    parts: list[str] = []
    for i in range(count):
        kinds = ctx.statements
        if not ctx.unrestricted:
            if i < count - 1:
                kinds = tuple(k for k in kinds if k not in MOVING)
            if i > 0 or not first:
                kinds = tuple(k for k in kinds if k != "keep")
        if "keep" in parts:
            kinds = tuple(k for k in kinds if k != "keep")
        if not kinds:
            break
        parts.append(draw(_statements(ctx, kinds)))
    return "; ".join(parts) if parts else "collect 0"


@st.composite
def _effects(draw: Any, ctx: _Context) -> str:
    """An effect: a sequence of 1 to 3 statements, or a choice between 2 or 3 of them."""
    if draw(st.integers(0, 4)) == 0:
        options = [draw(_sequences(ctx, first=False)) for _ in range(draw(st.integers(2, 3)))]
        return "choose: " + " | ".join(options)
    return draw(_sequences(ctx, first=True))


def effects(names: BoardNames, where: str, *, unrestricted: bool = True, decks: list[str] | None = None,
            statements: tuple[str, ...] = STATEMENTS) -> st.SearchStrategy[str]:
    """Effect text for a ``card``, a ``space`` or a ``trigger`` of a board with these names."""
    return _effects(_Context(names, where, unrestricted, decks, statements))


@st.composite
def _tax_effects(draw: Any, names: BoardNames, unrestricted: bool) -> str:
    kind = draw(st.sampled_from(["flat", "flat", "choice", "any"]))
    if kind == "flat":
        return f"pay {draw(st.integers(0, 300))}"
    if kind == "choice":
        return f"choose: pay {draw(st.integers(0, 300))} | pay {draw(st.integers(1, 20))}% of net worth"
    return draw(effects(names, "space", unrestricted=unrestricted))


# ---------------------------------------------------------------------------- rulesets


@st.composite
def _non_decreasing(draw: Any, length: int, low: int, high: int, step: int) -> list[int]:
    values = [draw(st.integers(low, high))]
    for _ in range(length - 1):
        values.append(values[-1] + draw(st.integers(0, step)))
    return values


def _mostly(usual: st.SearchStrategy[int], low: int, high: int) -> st.SearchStrategy[int]:
    """Usually ``usual``, sometimes anything from ``low`` to ``high`` (the schema's bounds)."""
    return st.one_of(usual, usual, usual, st.integers(low, high))


@st.composite
def _rules(draw: Any) -> dict[str, Any]:
    end_when = draw(st.sampled_from(["last_standing", "last_standing", "bankruptcies", "time"]))
    end: dict[str, Any] = {"when": end_when}
    if end_when == "bankruptcies":
        end["bankruptcies"] = draw(st.integers(1, 7))
    elif end_when == "time":
        end["minutes"] = draw(st.integers(1, 1440))
        end["rounds"] = draw(st.integers(1, 200))
    return {
        "salary": draw(st.integers(0, 400)),
        "jail": {"fine": draw(st.integers(0, 200)), "max_turns": draw(_mostly(st.integers(1, 4), 1, 10)),
                 "doubles_to_jail": draw(_mostly(st.integers(0, 4), 0, 10)), "rent_in_jail": draw(st.booleans())},
        "rent": {"full_group_multiplier": draw(_mostly(st.integers(1, 3), 1, 10))},
        "building": {"even": draw(st.booleans()), "houses_per_hotel": draw(_mostly(st.integers(1, 5), 1, 10)),
                     "sell_back": draw(st.sampled_from([0, 0.25, 0.5, 0.75, 1])),
                     "hotel_breakdown": draw(st.sampled_from(["any_time", "debts_only"])),
                     "shortage_auction": draw(st.booleans())},
        "cards": {"shuffle_before_draw": draw(st.sampled_from([False, False, True]))},
        "mortgage": {"interest": draw(st.sampled_from([0, 0.1, 0.15, 0.5, 1])), "allowed": draw(
            st.sampled_from([True, True, True, False]))},
        "sell_lots": {"to_bank": draw(st.sampled_from([False, False, True])),
                      "pays": draw(st.sampled_from([0, 0.5, 0.9, 1]))},
        "auction": {"on_decline": draw(st.booleans()), "min_bid": draw(_mostly(st.integers(0, 50), 0, 1_000_000))},
        "fees_to": draw(st.sampled_from(["bank", "pot"])),
        "rounding": draw(st.sampled_from(["down", "up", "nearest"])),
        "setup": {"deal_deeds": draw(_mostly(st.integers(0, 3), 0, 20))},
        "end": end,
    }


@st.composite
def ruleset_data(draw: Any, *, unrestricted: bool = True) -> dict[str, Any]:
    """A valid edition as a tree: a board of 12 to 60 spaces, groups, decks, triggers and rules.

    With ``unrestricted=False`` the shapes of :data:`RESTRICTED_SHAPES` are not drawn.
    """
    size = draw(st.integers(12, 60), label="size")
    rules = draw(_rules(), label="rules")
    hph = rules["building"]["houses_per_hotel"]
    deck_keys = [f"deck_{letter}" for letter in "abc"[: draw(st.integers(0, 3), label="decks")]]
    deck_space = {key: f"Draw {key[-1].upper()}" for key in deck_keys}

    # Spaces other than GO: what must be there first, then what may be.
    must: list[dict[str, Any]] = [{"name": "Jail", "kind": "jail"},
                                  {"name": "Go To Jail", "kind": "action", "effect": "go to jail"}]
    must += [{"name": deck_space[key], "kind": "draw", "deck": key} for key in deck_keys]
    if rules["fees_to"] == "pot":
        must.append({"name": "Jackpot", "kind": "plain", "effect": "collect pot"})
    may: list[dict[str, Any]] = []
    may += [{"name": deck_space[key], "kind": "draw", "deck": key}
            for key in deck_keys for _ in range(draw(st.integers(0, 2)))]
    taxes = draw(st.integers(0, 3), label="taxes")
    actions = draw(st.integers(0, 2), label="actions")
    may += [{"name": f"Tax {i + 1}", "kind": "tax", "effect": None} for i in range(taxes)]
    may += [{"name": f"Action {i + 1}", "kind": "action", "effect": None} for i in range(actions)]
    room = size - 1 - len(must)
    may = may[:room]
    room -= len(may)

    # Ownable groups, as many as fit.
    colour_sizes = draw(st.lists(st.integers(2, 4), max_size=12), label="colour groups")
    railroads = draw(st.integers(0, 4), label="railroads")
    utilities = draw(st.integers(0, 3), label="utilities")
    groups: dict[str, dict[str, Any]] = {}
    ownable: list[dict[str, Any]] = []
    wanted = [(f"c{i}", "street", n) for i, n in enumerate(colour_sizes)]
    wanted += [("rails", "railroad", railroads), ("utils", "utility", utilities)]
    for key, kind, count in wanted:
        if count == 0 or count > room:
            continue
        room -= count
        group: dict[str, Any] = {"name": key.title()}
        if kind == "street":
            group["house_cost"] = draw(st.integers(1, 300))
        groups[key] = group
        for i in range(count):
            price = draw(st.integers(1, 500))
            space: dict[str, Any] = {"name": f"{key.title()} {i + 1}", "kind": kind, "group": key, "price": price}
            if draw(st.booleans()):
                space["mortgage"] = draw(st.integers(0, price))
            if kind == "street":
                space["rent"] = draw(_non_decreasing(hph + 2, 0, 60, 300))
            elif kind == "railroad":
                space["rent"] = draw(_non_decreasing(count, 1, 60, 100))
            else:
                space["rent"] = draw(_non_decreasing(count, 1, 6, 6))
            ownable.append(space)
    plain = [{"name": f"Rest {i + 1}", "kind": "plain"} for i in range(room)]

    rest = must + may + ownable + plain
    order = draw(st.permutations(range(len(rest))), label="order")
    board = [{"name": "Go", "kind": "go"}] + [rest[i] for i in order]
    assert len(board) == size

    variables = {"jackpot": draw(st.integers(0, 500))} if draw(st.integers(0, 3), label="variables") == 0 else {}
    names = BoardNames([s["name"] for s in board], [s["kind"] for s in board] + list(groups), deck_keys,
                       tuple(variables))
    for space in board:
        if space.get("effect", "") is None:
            space["effect"] = draw(_tax_effects(names, unrestricted) if space["kind"] == "tax"
                                   else effects(names, "space", unrestricted=unrestricted))
    decks = {}
    for number, key in enumerate(deck_keys):
        # A card draws only from an earlier deck when restricted (``draw-recursion``).
        drawable = deck_keys if unrestricted else deck_keys[:number]
        cards = []
        for i in range(draw(st.integers(1, 8))):
            card: dict[str, Any] = {"text": f"Card {key[-1].upper()}{i + 1}",
                                    "effect": draw(effects(names, "card", unrestricted=unrestricted, decks=drawable))}
            count = draw(st.integers(1, 3))
            if count > 1:
                card["count"] = count
            cards.append(card)
        decks[key] = {"name": deck_space[key], "cards": cards}
    triggers = []
    kinds = sorted({space["kind"] for space in board})
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 2]), label="triggers")):
        on = draw(st.sampled_from(TRIGGER_EVENTS))
        # A pass trigger only takes money from the bank or the pot when restricted (``pass-trigger``), and so
        # does a trigger on another event than landing.
        allowed = BANK_MONEY if on != "land" and not unrestricted else STATEMENTS
        effect = draw(effects(names, "trigger", unrestricted=unrestricted, statements=allowed))
        if on in AMOUNT_EVENTS and draw(st.booleans()):
            effect = f"{effect}; collect {draw(st.integers(1, 100))}% of amount" if " | " not in effect else effect
        trigger: dict[str, Any] = {"on": on}
        if on in ("land", "pass"):
            if draw(st.booleans()):
                trigger["space"] = draw(st.sampled_from(names.spaces))
            else:
                trigger["kind"] = draw(st.sampled_from(kinds))
        if draw(st.integers(0, 2)) == 0:
            trigger["if"] = draw(st.sampled_from(CONDITIONS + (("amount > 50",) if on in AMOUNT_EVENTS else ())))
        if on in INSTEAD_EVENTS and draw(st.integers(0, 2)) == 0:
            trigger["instead"] = True
        trigger["effect"] = effect
        triggers.append(trigger)

    if not unrestricted and "from each player" in repr((board, decks, triggers)):
        rules["mortgage"]["interest"] = 0  # collector-bankrupt

    data: dict[str, Any] = {
        "id": "generated",
        "name": "Generated board",
        "description": f"A random board of {size} spaces.",
        "players": {"min": 2, "max": draw(st.integers(6, 16))},
        "dice": {"count": draw(st.integers(1, 4)), "sides": draw(_mostly(st.integers(2, 8), 2, 20))},
        "bank": {"houses": draw(st.integers(0, 60)), "hotels": draw(st.integers(0, 20)),
                 "starting_cash": draw(st.integers(0, 3000))},
        "groups": groups,
        "board": board,
        "rules": rules,
    }
    if decks:
        data["decks"] = decks
    if triggers:
        data["triggers"] = triggers
    if variables:
        data["variables"] = variables
    permissions = {key: draw(st.sampled_from(conditions)) for key, conditions in PERMISSIONS.items()
                   if draw(st.integers(0, 3)) == 0}
    if permissions:
        data["permissions"] = permissions
    # The classic kinds' rents changed as a variant may (drawn last: the draws above stay as they were).
    kinds: dict[str, dict[str, Any]] = {}
    if draw(st.integers(0, 3), label="railroad rent") == 0:
        kinds["railroad"] = {"rent": draw(st.sampled_from(RAILROAD_RENTS)), "mortgaged": draw(st.booleans())}
    if draw(st.integers(0, 3), label="street rent") == 0:
        kinds["street"] = {"rent": draw(st.sampled_from(STREET_RENTS))}
    if kinds:
        data["kinds"] = kinds
    if draw(st.integers(0, 4)) == 0:  # dice of their own: an extra die with numbers and symbols (the speed die)
        data["dice"].update(draw(_dice_of_their_own(data["dice"]["count"], names)))
    return data


@st.composite
def _dice_of_their_own(draw: Any, count: int, names: BoardNames) -> dict[str, Any]:
    """``dice.doubles`` and ``dice.extra`` (docs/ruleset-reference.md, *dice*), drawn last so that the rest of a
    random ruleset is what it was."""
    kind = draw(st.sampled_from(["lot", *names.kinds_and_groups]))
    moves = [f"advance to nearest unowned {kind} or nearest unmortgaged {kind} owned by another player",
             "choose: move forward die 1 spaces | move forward dice spaces", "move 2", "go back 3 spaces",
             "roll; collect 10 x dice", "advance to a space you choose"]
    faces = draw(st.lists(st.sampled_from([1, 2, 3, 4, "zoom", "bus"]), min_size=2, max_size=6))
    extra: dict[str, Any] = {"faces": faces}
    symbols = sorted({face for face in faces if isinstance(face, str)})
    if symbols:
        extra["symbols"] = {face: {draw(st.sampled_from(["instead", "after"])): draw(st.sampled_from(moves))}
                            for face in symbols}
    if draw(st.booleans()):
        extra["when"] = draw(st.sampled_from(["laps >= 1", "not doubles", "cash > 200"]))
    if draw(st.booleans()):
        extra["triples"] = draw(st.sampled_from(moves))
    dice: dict[str, Any] = {"extra": extra}
    if count >= 3 and draw(st.booleans()):
        dice["doubles"] = [1, 2]
    return dice


#: Rents a random ruleset may give railroads (one figure for each number owned) and streets (houses_per_hotel + 2
#: figures): worked out ahead, reading the dice, or reading the game (worked out at payment).
RAILROAD_RENTS = (
    "2 x figure owned in group",
    "figure owned in group x dice",
    "if whole group then 2 x figure owned in group else figure owned in group",
    "figure owned in group + 5% of cash",
)
STREET_RENTS = (
    "if hotel then last figure else figure (level + 1)",
    "figure (level + 1) + (if level = 0 and whole group then figure 1 else 0)",
    "if hotel then last figure else figure (level + 1) + 10% of cash of owner",
)


#: Conditions a random ruleset may put on each permission (docs/effects.md, "Permissions").
PERMISSIONS = {
    "buy": ("laps >= 1", "cash > 300", "not you are in jail"),
    "rent": ("not owner is in jail", "laps of owner >= 1", "round > 2"),
    "build": ("laps >= 1", "cash > 500 or round > 5"),
    "mortgage": ("cash < 300", "not doubles"),
    "trade": ("not you are in jail", "round > 1"),
}


class _NoAliases(yaml.SafeDumper):
    """Write repeated values out instead of as anchors and aliases."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def to_yaml(data: dict[str, Any]) -> str:
    """The YAML text of a ruleset tree: no aliases, keys in the order given, one space per line."""
    return yaml.dump(data, Dumper=_NoAliases, sort_keys=False, allow_unicode=True, width=200,
                     default_flow_style=None)


def ruleset_texts(*, unrestricted: bool = True) -> st.SearchStrategy[str]:
    """The YAML text of a valid generated edition."""
    return ruleset_data(unrestricted=unrestricted).map(to_yaml)


_LOADED: dict[str, Ruleset] = {}


def load_text(text: str) -> Ruleset:
    """Load a ruleset from its YAML text through a file, as a designer's file is loaded; cached by text."""
    hit = _LOADED.get(text)
    if hit is not None:
        return hit
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "generated.yaml")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        ruleset = monopoly.load_ruleset(path)
    if len(_LOADED) > 512:
        _LOADED.clear()
    _LOADED[text] = ruleset
    return ruleset


def rulesets(*, unrestricted: bool = True) -> st.SearchStrategy[Ruleset]:
    """A valid generated edition, loaded with ``monopoly.load_ruleset``."""
    return ruleset_texts(unrestricted=unrestricted).map(load_text)


__all__ = [
    "AGENTS", "EDITIONS", "EXCLUSIVE_VARIANTS", "RESTRICTED_SHAPES", "agent_lineups", "effects", "load_text",
    "ruleset_data", "ruleset_texts", "rulesets", "seeds", "to_yaml", "variant_combos",
]
