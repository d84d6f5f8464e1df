"""Flat lookup tables compiled from a ruleset once, shared by every game that plays it.

The turn loop reads these lists by space index; effects are already closures.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Final

from ..effects.compile import Names, compile_condition, compile_effect
from ..effects.rent import compile_rent, is_pure, reads_count, reads_dice
from ..ruleset.model import Kind, Ruleset
from .dice import compile_dice, doubles_places
from .rent import cached_rows, rent_at, rent_rows, rows_cache

# Space kind codes for the turn loop: nothing to do, a lot (of a kind that is owned), a draw.
NOTHING: Final = 0
LOT: Final = 1
DRAW: Final = 4
# What a landing takes (Tables.landing).
QUIET: Final = 0
OWNABLE: Final = 1
ASK: Final = 2


class CardSlot:
    """One physical card of a deck (a card with ``count: 2`` is two slots)."""

    __slots__ = ("deck", "index", "keeps", "run", "slot", "text")

    def __init__(self, deck: str, index: int, slot: int, text: str, run: Any, keeps: bool):
        self.deck = deck
        self.index = index  # the card's place in the deck's list in the ruleset
        self.slot = slot  # this copy's place among the deck's slots
        self.text = text
        self.run = run
        self.keeps = keeps


class Tables:
    """Everything the engine needs about a ruleset, as lists indexed by space or group."""

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        board = ruleset.board
        rules = ruleset.rules
        rule_values = dict(ruleset.rule_values)
        names = Names(board, rules.rounding, tuple(name for name, _ in ruleset.variables), rule_values,
                      extra_die=ruleset.extra_die is not None, doubles=doubles_places(ruleset))
        #: the dice beyond a count and sides (game/dice.py), or None
        self.dice = compile_dice(ruleset, names)
        #: the game's variables (``variables:``): their names and the values they start at, in order
        self.variable_names = tuple(name for name, _ in ruleset.variables)
        self.variable_index = {name: index for index, name in enumerate(self.variable_names)}
        self.variable_start = tuple(value for _, value in ruleset.variables)
        kinds = {kind.name: kind for kind in ruleset.kinds}
        kind_of = [kinds.get(s.kind, Kind(s.kind)) for s in board]
        self._set_spaces(ruleset, kind_of)
        self._set_groups(ruleset)
        self._set_rents(ruleset, kind_of, rule_values, names)
        self.space_effect = [
            compile_effect(s.effect, names, s.name) if s.effect is not None else None for s in board
        ]
        self._set_decks(ruleset, names)
        self._set_triggers(ruleset, names)
        self.actions_cache: Any = None  # actions.py's getters and actions by space, made on first use
        # What landing on each space takes, for the turn loop's fast path: QUIET nothing at all, OWNABLE an
        # ownable lot with no effect or trigger (its owner and the rent decide), else ASK (the full landing).
        # A rent with triggers is paid in the full landing.
        self.landing = [
            ASK if self.space_effect[i] is not None or self.land_triggers[i] or self.kind[i] == DRAW
            or (self.rent_triggers and self.kind[i] != NOTHING)
            else QUIET if self.kind[i] == NOTHING else OWNABLE
            for i in range(self.size)
        ]

    def _set_spaces(self, ruleset: Ruleset, kind_of: list[Kind]) -> None:
        """The board, by space: names, kinds, prices, rents, decks; the go and jail spaces."""
        board = ruleset.board
        self.size = len(board)
        self.names = tuple(s.name for s in board)
        self.kind = [LOT if s.ownable else DRAW if s.kind == "draw" else NOTHING for s in board]
        self.ownable = tuple(s.index for s in board if s.ownable)
        #: by space: whether houses and hotels go on it, whether it may be mortgaged (its kind's `build`,
        #: `mortgaged`)
        self.build_on = [s.buildable for s in board]
        self.mortgageable = [kind.owned and kind.mortgaged for kind in kind_of]
        self.price = [s.price or 0 for s in board]
        self.mortgage = [s.mortgage or 0 for s in board]
        self.rent = [s.rent for s in board]
        self.deck_of = [s.deck for s in board]
        self.go = next((s.index for s in board if s.kind == "go"), -1)
        self.jail = next(s.index for s in board if s.kind == "jail")

    def _set_groups(self, ruleset: Ruleset) -> None:
        """The groups: each lot's, their lots, what building on them costs; the houses a hotel takes."""
        board = ruleset.board
        group_keys = [g.key for g in ruleset.groups]
        self.group_keys = tuple(group_keys)
        self.group_of = [group_keys.index(s.group) if s.group in group_keys and s.ownable else -1 for s in board]
        self.members = [g.members for g in ruleset.groups]
        self.house_cost = [g.house_cost or 0 for g in ruleset.groups]
        self.buildable = [bool(g.members) and board[g.members[0]].buildable and g.house_cost is not None
                          for g in ruleset.groups]
        #: Each group with buildings allowed (and lots), with its lots, in group order: the shortage check's groups
        self.buildable_groups = tuple((g, tuple(members)) for g, members in enumerate(self.members)
                                      if self.buildable[g] and members)
        #: By space: what one of its buildings cost (its group's house cost; 0 off the groups): a lot's buildings at
        #: cost are its level times this, a hotel counted with its houses (worth and valuation)
        self.building_cost_of = [self.house_cost[g] if g >= 0 else 0 for g in self.group_of]
        self.hph = ruleset.rules.building.houses_per_hotel
        self.hotel_level = self.hph + 1

    def _set_rents(self, ruleset: Ruleset, kind_of: list[Kind], rule_values: dict[str, Any], names: Names) -> None:
        """Each lot's rent by its kind's (game/rent.py): worked out here for every level, count of its group owned
        and dice total when it reads no more than that (rent_rows, looked up by landing.rent_at), else None and
        worked out at each payment from rent_fn."""
        board = ruleset.board
        totals = tuple(range(ruleset.dice_count, ruleset.dice_count * ruleset.dice_sides + 1))
        self.rent_rows: list[tuple[Any, ...] | None] = [None] * self.size
        self.rent_fn: list[Any] = [None] * self.size
        self.peers: list[tuple[int, ...]] = [() for _ in board]
        compiled: dict[str, tuple[Any, bool, bool, str, Any]] = {}
        for s in board:
            group = self.group_of[s.index]
            members = tuple(self.members[group]) if group >= 0 else (s.index,) if s.ownable else ()
            self.peers[s.index] = members  # a lot's group (a lot of no group: itself alone)
            kind = kind_of[s.index]
            if not s.ownable or kind.rent is None:
                continue
            if kind.name not in compiled:
                compiled[kind.name] = (compile_rent(kind.rent, rule_values, names), is_pure(kind.rent),
                                       reads_dice(kind.rent), reads_count(kind.rent),
                                       rows_cache(kind.rent, ruleset.rule_values))
            fn, pure, dice, counts, cache = compiled[kind.name]
            self.rent_fn[s.index] = fn
            if pure:
                levels, size = self.hotel_level + 1 if s.buildable else 1, len(members)
                thrown = totals if dice else None
                self.rent_rows[s.index] = cached_rows(
                    cache, (s.rent, levels, size, self.hotel_level, thrown),
                    partial(rent_rows, fn, s.rent, levels=levels, size=size, hotel_level=self.hotel_level,
                            totals=thrown, counts=counts))
        #: By lot that is built on: its rent at each level with its whole group owned (from the rows; None for a
        #: rent worked out at payment), what a bot weighs a house by.
        self.rent_whole: list[tuple[int, ...] | None] = [
            tuple(rent_at(self, s.index, level, len(self.peers[s.index])) for level in range(self.hotel_level + 1))
            if s.buildable and self.rent_rows[s.index] is not None else None for s in board]

    def _set_decks(self, ruleset: Ruleset, names: Names) -> None:
        """The decks, as their cards' slots, and the uses of the cards that are kept."""
        self.decks: dict[str, list[CardSlot]] = {}
        #: By kept card (deck, index in the deck's list): when it is used (``in_jail`` or ``turn``), and the run of
        #: its use's effect (None: a card used in jail that only lets the player out).
        self.card_use: dict[tuple[str, int], tuple[str, Any]] = {}
        for deck in ruleset.decks:
            slots: list[CardSlot] = []
            for index, card in enumerate(deck.cards):
                run = compile_effect(card.effect, names, card.text)
                keeps = card.use_when is not None  # the model gives a use to every card its effect keeps
                if card.use_when is not None:
                    self.card_use[(deck.key, index)] = (card.use_when, None if card.use_effect is None else
                                                        compile_effect(card.use_effect, names, card.text))
                for _ in range(card.count):
                    slots.append(CardSlot(deck.key, index, len(slots), card.text, run, keeps))
            self.decks[deck.key] = slots
        self.has_turn_cards = any(when == "turn" for when, _ in self.card_use.values())

    def _set_triggers(self, ruleset: Ruleset, names: Names) -> None:
        """The triggers, by space (land, pass) and by event, and the permissions; whether the events that are
        fired only for their triggers have any."""
        board = ruleset.board
        self.land_triggers: list[tuple[Any, ...]] = [() for _ in board]
        self.pass_triggers: list[tuple[Any, ...]] = [() for _ in board]
        #: The effects of the triggers on each event of the game (``on_event["roll"]``...), in file order; those
        #: that replace the event's default handling (``instead``) apart, in ``instead_of``.
        self.on_event: dict[str, tuple[Any, ...]] = {}
        self.instead_of: dict[str, tuple[Any, ...]] = {}
        for trigger in ruleset.triggers:
            if trigger.on not in ("land", "pass"):
                run = _trigger_run(trigger, names, _trigger_reason(trigger, trigger.on.replace("_", " ")))
                table = self.instead_of if trigger.instead else self.on_event
                table[trigger.on] = table.get(trigger.on, ()) + (run,)
                continue
            where = trigger.space_name if trigger.space_name is not None else f"a {trigger.kind}"
            run = _trigger_run(trigger, names, _trigger_reason(trigger, f"{trigger.on} {where}"))
            spaces = self.land_triggers if trigger.on == "land" else self.pass_triggers
            for index in trigger.spaces:
                spaces[index] += (run,)
        #: The ruleset's permissions (``permissions:``), each a test of (game, player); None where there is none.
        permits = {p.key: compile_condition(p.condition, names) for p in ruleset.permissions
                   if p.condition is not None}
        self.permit_buy: Any = permits.get("buy")
        self.permit_rent: Any = permits.get("rent")
        self.permit_build: Any = permits.get("build")
        self.permit_mortgage: Any = permits.get("mortgage")
        self.permit_trade: Any = permits.get("trade")
        self.on_roll = self.on_event.get("roll", ())
        self.on_turn_start = self.on_event.get("turn_start", ())
        self.on_turn_end = self.on_event.get("turn_end", ())
        self.on_leave_jail = self.on_event.get("leave_jail", ())
        #: Whether rent, fees or going to jail have triggers (their events are fired only then).
        self.rent_triggers = "rent" in self.on_event or "rent" in self.instead_of
        self.fee_triggers = "fee" in self.on_event or "fee" in self.instead_of
        self.jail_triggers = "go_to_jail" in self.on_event or "go_to_jail" in self.instead_of
        #: Whether builds, mortgages or unmortgages have triggers.
        self.action_triggers = any(event in self.on_event for event in ("build", "mortgage", "unmortgage"))
        self.has_pass_triggers = any(self.pass_triggers)
        self.has_land_triggers = any(self.land_triggers)


def _trigger_reason(trigger: Any, event: str) -> str:
    """What a trigger's payments say they are for: its name, or the event it is on ("trigger on rent"), so that
    they are never taken for the event's own payment (a rent, a fee)."""
    return trigger.name if trigger.name is not None else f"trigger on {event}"


def _trigger_run(trigger: Any, names: Names, reason: str) -> Any:
    """A trigger as ``run(game, player, card)``: a generator that returns True when it replaced the event's
    default handling (an ``instead`` trigger whose condition held), else a false value."""
    run = compile_effect(trigger.effect, names, reason)
    if trigger.condition is None and not trigger.instead:
        return run  # returns None
    test = compile_condition(trigger.condition, names) if trigger.condition is not None else None
    instead = trigger.instead

    def fire(game: Any, p: int, card: Any) -> Any:
        if test is not None and not test(game, p):
            return False
        yield from run(game, p, card)
        return instead

    return fire


_CACHE: dict[int, tuple[Ruleset, Tables]] = {}


def tables_for(ruleset: Ruleset) -> Tables:
    """The tables of a ruleset, built on first use (the ruleset object is the key)."""
    hit = _CACHE.get(id(ruleset))
    if hit is not None and hit[0] is ruleset:
        return hit[1]
    tables = Tables(ruleset)
    if len(_CACHE) > 64:
        _CACHE.clear()
    _CACHE[id(ruleset)] = (ruleset, tables)
    return tables
