"""The ruleset model: frozen attrs classes, immutable after load and cheap to share.

Built from a composed, checked tree by :func:`build_ruleset`. Defaults for keys
a base edition leaves out live in ``rulesets/base/defaults.yaml`` (the values of
the classic game), loaded as :data:`DEFAULTS`, and nowhere else.
"""

from __future__ import annotations

import copy
from typing import Any

import attrs

from .dice import ExtraDie, build_dice

SpaceIndex = int

#: Where the values used where a ruleset does not give its own (the classic rules) are kept.
DEFAULTS_FILE = "base/defaults.yaml"


def _load_defaults() -> dict[str, Any]:
    """The values every ruleset starts from, read from ``rulesets/base/defaults.yaml`` by the safe loader."""
    from importlib import resources

    from .load import load_bytes

    raw = resources.files("monopoly.rulesets").joinpath(DEFAULTS_FILE).read_bytes()
    data: dict[str, Any] = load_bytes(raw, DEFAULTS_FILE, require_id=False).data
    return data


#: What a base edition may leave out: the classic rules as printed. Its one home is
#: ``rulesets/base/defaults.yaml`` (data, as every rule is); this is that file, loaded.
DEFAULTS: dict[str, Any] = _load_defaults()


def rule_values(rules: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    """The leaves of a `rules:` tree by their path as an expression reads them (``rules.salary``: 200)."""
    found: list[tuple[str, Any]] = []

    def walk(prefix: str, node: dict[str, Any]) -> None:
        for key, value in node.items():
            if isinstance(value, dict):
                walk(f"{prefix}.{key}", value)
            else:
                found.append((f"{prefix}.{key}", value))

    walk("rules", rules)
    return tuple(found)


@attrs.frozen
class Kind:
    """A kind of space (`kinds:`): whether its lots are owned (bought, auctioned, traded), built on, mortgaged,
    and the rent of an owned one (``rent``, an expression of the effect language over the lot: its level, how
    many of its group its owner has, its figures, the dice; ``rent_text`` as written). The roles of the go,
    jail and draw kinds (the salary, where jail is, drawing from the space's deck) go by their names."""

    name: str
    owned: bool = False
    build: bool = False
    mortgaged: bool = False
    rent_text: str | None = None
    rent: Any = attrs.field(default=None, eq=False, repr=False)


@attrs.frozen
class Group:
    """A colour group (or the railroads, or the utilities)."""

    key: str
    name: str
    color: str | None
    house_cost: int | None
    members: tuple[SpaceIndex, ...]


@attrs.frozen
class Space:
    """One space of the board. ``effect`` is the parsed effect (an AST), if any."""

    index: SpaceIndex
    name: str
    kind: str
    label: str
    group: str | None = None
    price: int | None = None
    mortgage: int | None = None
    rent: tuple[int, ...] = ()
    deck: str | None = None
    effect_text: str | None = None
    effect: Any = attrs.field(default=None, eq=False, repr=False)
    #: from its kind (`kinds:`): whether the space is a lot that is owned, and built on
    ownable: bool = False
    buildable: bool = False


@attrs.frozen
class Card:
    """One card of a deck. A card its effect keeps is used as ``use_when`` says (``in_jail``: a way out of jail;
    ``turn``: an action after the roll), doing ``use_effect`` (None: nothing more than that); a card not kept has
    ``use_when`` None."""

    text: str
    effect_text: str
    effect: Any = attrs.field(eq=False, repr=False)
    count: int = 1
    use_when: str | None = None
    use_effect_text: str | None = None
    use_effect: Any = attrs.field(default=None, eq=False, repr=False)


@attrs.frozen
class Deck:
    key: str
    name: str
    cards: tuple[Card, ...]

    @property
    def size(self) -> int:
        return sum(card.count for card in self.cards)


@attrs.frozen
class Trigger:
    on: str  # "land" or "pass" (on a space), or an event of the game: game_start, turn_start, turn_end, roll, ...
    space_name: str | None  # the space of a land or pass trigger (or None: a kind, or an event of the game)
    spaces: tuple[SpaceIndex, ...]  # the spaces of a land or pass trigger (the named one, or all of the kind)
    effect_text: str
    effect: Any = attrs.field(eq=False, repr=False)
    name: str | None = None  # its name, by which a file built on this one changes or removes it
    kind: str | None = None  # the kind of space of a land or pass trigger on every space of a kind
    condition_text: str | None = None  # `if:`: it fires only when this holds
    condition: Any = attrs.field(default=None, eq=False, repr=False)
    instead: bool = False  # the effect replaces the event's default handling


@attrs.frozen
class JailRules:
    fine: int
    max_turns: int
    doubles_to_jail: int
    rent_in_jail: bool
    #: the fine may be paid before throwing on the last turn in jail too (the print: only on the turns before it)
    pay_on_last_turn: bool = False


@attrs.frozen
class BuildingRules:
    even: bool
    houses_per_hotel: int
    sell_back: float
    hotel_breakdown: str
    shortage_auction: bool


@attrs.frozen
class EndRules:
    when: str
    bankruptcies: int
    minutes: int
    rounds: int


@attrs.frozen
class Rules:
    salary: int
    jail: JailRules
    full_group_multiplier: int
    building: BuildingRules
    mortgage_interest: float
    mortgage_allowed: bool
    #: an unmortgaged lot of a group without buildings may be sold back to the bank, for this share of its price
    sell_lots_to_bank: bool
    sell_lot_pays: float
    shuffle_before_draw: bool
    auction_on_decline: bool
    auction_min_bid: int
    #: trades one player may propose in one after-turn phase (each refused or declined one counts)
    trades_per_phase: int
    fees_to: str
    #: how an effect's fractions become whole numbers: "down", "up" or "nearest" (a half up)
    rounding: str
    deal_deeds: int | str  # a number a seat, or "all"
    deeds_free: bool
    end: EndRules
    #: who acts between two turns: "every_player" (the print's "at any time") or "mover" (only the player whose
    #: turn just ended)
    between_turns: str = "every_player"


#: The permissions a ruleset may set (`permissions:`), each a condition on top of the printed rules.
PERMISSIONS = ("buy", "rent", "build", "mortgage", "trade")


@attrs.frozen
class Permission:
    """``key`` (one of :data:`PERMISSIONS`) is allowed when ``condition`` holds (its text: ``text``)."""

    key: str
    text: str
    condition: Any = attrs.field(eq=False, repr=False)


@attrs.frozen
class Ruleset:
    """A whole, checked ruleset: an edition with its variants applied."""

    id: str
    name: str
    description: str
    currency: str
    min_players: int
    max_players: int
    dice_count: int
    dice_sides: int
    houses: int
    hotels: int
    starting_cash: int
    groups: tuple[Group, ...]
    board: tuple[Space, ...]
    decks: tuple[Deck, ...]
    triggers: tuple[Trigger, ...]
    rules: Rules
    variants: tuple[str, ...] = ()
    files: tuple[str, ...] = ()
    permissions: tuple[Permission, ...] = ()
    #: the game's named numbers (`variables:`), each with the value it starts at, in the file's order
    variables: tuple[tuple[str, int], ...] = ()
    #: the counted dice (from 1) that make doubles (`dice.doubles`); None: every one
    dice_doubles: tuple[int, ...] | None = None
    #: a die thrown beside the counted ones (`dice.extra`: the speed die); None: none
    extra_die: ExtraDie | None = None
    #: the kinds of space (`kinds:`, the classic ones from rulesets/base/defaults.yaml), in the file's order
    kinds: tuple[Kind, ...] = ()
    #: every value of `rules:` by its path (``rules.salary``: 200), as `rules.` expressions read them
    rule_values: tuple[tuple[str, Any], ...] = ()

    def players_problem(self, players: int) -> str | None:
        """Why this ruleset cannot be played by ``players`` seats (None: it can): the one home of that rule.

        >>> import monopoly
        >>> monopoly.load_ruleset("classic").players_problem(9)
        'Monopoly (US, classic) is played by 2 to 8 players, not 9'
        """
        if self.min_players <= players <= self.max_players:
            return None
        return f"{self.name} is played by {self.min_players} to {self.max_players} players, not {players}"

    def kind(self, name: str) -> Kind:
        """The kind of that name; ``KeyError`` if there is none."""
        for kind in self.kinds:
            if kind.name == name:
                return kind
        raise KeyError(name)

    def space(self, name: str) -> Space:
        """The first space with this name; ``KeyError`` if there is none."""
        for space in self.board:
            if space.name == name:
                return space
        raise KeyError(name)

    def group(self, key: str) -> Group:
        for group in self.groups:
            if group.key == key:
                return group
        raise KeyError(key)

    def deck(self, key: str) -> Deck:
        for deck in self.decks:
            if deck.key == key:
                return deck
        raise KeyError(key)

    def to_dict(self) -> dict[str, Any]:
        """The resolved ruleset as plain data (what ``monopoly show`` prints)."""
        rules = self.rules
        return {
            "id": self.id,
            "name": self.name,
            "description": self.description,
            "variants": list(self.variants),
            "currency": self.currency,
            "players": {"min": self.min_players, "max": self.max_players},
            "dice": {"count": self.dice_count, "sides": self.dice_sides,
                     **({"doubles": list(self.dice_doubles)} if self.dice_doubles is not None else {}),
                     **({"extra": self.extra_die.to_dict()} if self.extra_die is not None else {})},
            "bank": {"houses": self.houses, "hotels": self.hotels, "starting_cash": self.starting_cash},
            "groups": {
                g.key: _drop_none({"name": g.name, "color": g.color, "house_cost": g.house_cost,
                                   "members": [self.board[i].name for i in g.members]})
                for g in self.groups
            },
            "board": [
                _drop_none({
                    "index": s.index, "name": s.name, "kind": s.kind,
                    "label": s.label if s.label != s.name else None,
                    "group": s.group, "price": s.price, "mortgage": s.mortgage,
                    "rent": list(s.rent) if s.rent else None, "deck": s.deck, "effect": s.effect_text,
                })
                for s in self.board
            ],
            "decks": {
                d.key: {"name": d.name, "cards": [
                    {"text": c.text, "effect": c.effect_text, **({"count": c.count} if c.count != 1 else {}),
                     **({"use": _drop_none({"when": c.use_when, "effect": c.use_effect_text})} if c.use_when else {})}
                    for c in d.cards]}
                for d in self.decks
            },
            "triggers": [_drop_none({"name": t.name, "on": t.on, "space": t.space_name, "kind": t.kind,
                                     "if": t.condition_text, "instead": t.instead or None, "effect": t.effect_text})
                         for t in self.triggers],
            "kinds": {k.name: _drop_none({"owned": k.owned, "build": k.build, "mortgaged": k.mortgaged,
                                          "rent": k.rent_text}) for k in self.kinds},
            "permissions": {p.key: p.text for p in self.permissions},
            **({"variables": dict(self.variables)} if self.variables else {}),
            "rules": {
                "salary": rules.salary,
                "between_turns": rules.between_turns,
                "jail": attrs.asdict(rules.jail),
                "rent": {"full_group_multiplier": rules.full_group_multiplier},
                "building": attrs.asdict(rules.building),
                "mortgage": {"interest": rules.mortgage_interest, "allowed": rules.mortgage_allowed},
                "sell_lots": {"to_bank": rules.sell_lots_to_bank, "pays": rules.sell_lot_pays},
                "trade": {"max_per_phase": rules.trades_per_phase},
                "cards": {"shuffle_before_draw": rules.shuffle_before_draw},
                "auction": {"on_decline": rules.auction_on_decline, "min_bid": rules.auction_min_bid},
                "fees_to": rules.fees_to,
                "rounding": rules.rounding,
                "setup": {"deal_deeds": rules.deal_deeds, "deeds_free": rules.deeds_free},
                "end": attrs.asdict(rules.end),
            },
        }


def _drop_none(mapping: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in mapping.items() if v is not None}


def with_defaults(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` layered over :data:`DEFAULTS` (mappings merge, the rest replaces)."""
    merged = copy.deepcopy(DEFAULTS)

    def merge(into: dict[str, Any], over: dict[str, Any]) -> None:
        for key, value in over.items():
            if isinstance(value, dict) and isinstance(into.get(key), dict):
                merge(into[key], value)
            else:
                into[key] = value

    merge(merged, data)
    return merged


#: How a kept card without a `use` is used: the meaning of a bare `keep` (the printed rules' Get Out of Jail Free
#: card), as docs/effects.md says; the shipped editions write it out on their cards.
DEFAULT_USE = {"when": "in_jail"}


def _card(raw: dict[str, Any], effects: dict[tuple[Any, ...], Any], place: tuple[Any, ...]) -> Card:
    """A card of the data, with its use when its effect keeps it (a kept card without `use`: :data:`DEFAULT_USE`)."""
    from ..effects.ast import Keep

    effect = effects.get(place + ("effect",))
    kept = effect is not None and any(isinstance(s, Keep) for s in effect.statements())
    use = raw.get("use", DEFAULT_USE) if kept else {}
    return Card(raw["text"], raw["effect"], effect, raw.get("count", 1), use.get("when"), use.get("effect"),
                effects.get(place + ("use", "effect")))


def build_ruleset(data: dict[str, Any], effects: dict[tuple[Any, ...], Any],
                  variants: tuple[str, ...] = (), files: tuple[str, ...] = ()) -> Ruleset:
    """The model of a checked tree. ``effects`` maps the place of each effect text to its AST."""
    data = with_defaults(data)
    kinds = tuple(Kind(name, bool(raw.get("owned", False)), bool(raw.get("build", False)),
                       bool(raw.get("mortgaged", False)), raw.get("rent"), effects.get(("kinds", name, "rent")))
                  for name, raw in data.get("kinds", {}).items())
    by_name = {kind.name: kind for kind in kinds}
    board = []
    for index, raw in enumerate(data["board"]):
        price = raw.get("price")
        kind = by_name.get(raw["kind"], Kind(raw["kind"]))
        board.append(Space(
            index=index, name=raw["name"], kind=raw["kind"], label=raw.get("label", raw["name"]),
            group=raw.get("group"), price=price,
            mortgage=raw.get("mortgage", price // 2 if price is not None else None),
            rent=tuple(raw.get("rent", ())), deck=raw.get("deck"),
            effect_text=raw.get("effect"), effect=effects.get(("board", index, "effect")),
            ownable=kind.owned, buildable=kind.build,
        ))
    groups = tuple(
        Group(key, raw.get("name", key.replace("_", " ").title()), raw.get("color"), raw.get("house_cost"),
              tuple(s.index for s in board if s.group == key))
        for key, raw in data.get("groups", {}).items()
    )
    decks = tuple(
        Deck(key, raw.get("name", key.replace("_", " ").title()), tuple(
            _card(card, effects, ("decks", key, "cards", i)) for i, card in enumerate(raw["cards"])))
        for key, raw in data.get("decks", {}).items()
    )
    triggers = tuple(
        Trigger(raw["on"], raw.get("space"),
                tuple(s.index for s in board if s.name == raw.get("space") or s.kind == raw.get("kind")),
                raw["effect"], effects.get(("triggers", i, "effect")), name=raw.get("name"), kind=raw.get("kind"),
                condition_text=raw.get("if"), condition=effects.get(("triggers", i, "if")),
                instead=bool(raw.get("instead", False)))
        for i, raw in enumerate(data.get("triggers", []))
    )
    dice_doubles, extra_die = build_dice(data["dice"], effects)
    r = data["rules"]
    rules = Rules(
        salary=r["salary"],
        jail=JailRules(**r["jail"]),
        full_group_multiplier=r["rent"]["full_group_multiplier"],
        building=BuildingRules(**r["building"]),
        mortgage_interest=r["mortgage"]["interest"],
        mortgage_allowed=r["mortgage"]["allowed"],
        sell_lots_to_bank=r["sell_lots"]["to_bank"],
        sell_lot_pays=r["sell_lots"]["pays"],
        shuffle_before_draw=r["cards"]["shuffle_before_draw"],
        auction_on_decline=r["auction"]["on_decline"],
        auction_min_bid=r["auction"]["min_bid"],
        trades_per_phase=r["trade"]["max_per_phase"],
        fees_to=r["fees_to"],
        rounding=r["rounding"],
        deal_deeds=r["setup"]["deal_deeds"],
        deeds_free=r["setup"]["deeds_free"],
        end=EndRules(**r["end"]),
        between_turns=r["between_turns"],
    )
    return Ruleset(
        id=data["id"], name=data["name"], description=data.get("description", ""), currency=data["currency"],
        min_players=data["players"]["min"], max_players=data["players"]["max"],
        dice_count=data["dice"]["count"], dice_sides=data["dice"]["sides"],
        houses=data["bank"]["houses"], hotels=data["bank"]["hotels"], starting_cash=data["bank"]["starting_cash"],
        groups=groups, board=tuple(board), decks=decks, triggers=triggers, rules=rules,
        variants=variants, files=files, variables=tuple(data.get("variables", {}).items()), kinds=kinds,
        rule_values=rule_values(r),
        permissions=tuple(Permission(key, text, effects.get(("permissions", key)))
                          for key, text in data.get("permissions", {}).items()),
        dice_doubles=dice_doubles, extra_die=extra_die,
    )
