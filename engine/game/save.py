"""Saving a game to JSON and loading it back to the identical game (the RNG included).

A save file may come from anyone, so loading one checks everything before the
game is built: :func:`read_save_file` reads at most :data:`MAX_SAVE_BYTES`
through :mod:`monopoly.game.jsonin` (no key twice, no NaN, no absurd nesting
or numbers, no control characters), and :func:`game_from_json` checks the type
and range of every field, then the whole state against the rules, and raises
one :class:`SaveError` listing every problem it found.

A save is written between turns, so it holds what the rules allow there: no
seat has negative cash (a debt is paid at once, or the debtor goes bankrupt),
buildings stand evenly (when the rules say so) on whole, unmortgaged groups of
one owner, a seat in jail stands on the jail, and so on.
"""

from __future__ import annotations

import math
import os
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from .game import Game, agent_name
from .jsonin import JsonInputError, describe, excerpt, read_json_file
from .tables import STREET, tables_for

FORMAT = "monopoly-save"
VERSION = 1
#: The largest save file :func:`read_save_file` reads (a real one is a few KiB).
MAX_SAVE_BYTES = 4 * 1024 * 1024
#: How many problems a :class:`SaveError` message lists (all are in ``problems``).
MAX_SHOWN = 20
#: No seat's cash, nor the pot, gets anywhere near this in a game.
MAX_CASH = 10**12
#: Seeds, turn caps and counters are whole numbers of fewer digits than this (the JSON reader's limit).
_BIG = 10**30
_WORD = 2**32  # a Mersenne Twister word: 0 <= x < 2**32
_MT_WORDS = 624
_END_REASONS = ("last_standing", "bankruptcies", "time", "turn_limit")
DAMAGED = "the save file is damaged"

_LISTS = ("cash", "position", "jail_turns", "bankrupt", "bankrupt_order", "owner", "buildings", "mortgaged")
_SCALARS = ("houses_left", "hotels_left", "pot", "turn", "round", "current", "started", "finished", "end_reason",
            "winner", "owner_version")
_TOP_KEYS = ("format", "version", "ruleset", "seed", "max_turns", "agents", "agent_states", "state")
_STATE_KEYS = (*_LISTS, *_SCALARS, "held_cards", "decks", "last_roll", "rng")


class SaveError(ValueError):
    """A save file that is not ours, is damaged, or belongs to another ruleset or table of agents.

    ``problems`` lists every problem found, in words; the message shows the
    first :data:`MAX_SHOWN` of them (after ``heading``, "the save file is
    damaged", when there is one) and how many more there are.
    """

    def __init__(self, problems: str | Sequence[str], *, heading: str | None = None):
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        self.heading = heading
        shown = "; ".join(self.problems[:MAX_SHOWN])
        if len(self.problems) > MAX_SHOWN:
            shown += f"; and {len(self.problems) - MAX_SHOWN} more"
        super().__init__(f"{heading}: {shown}" if heading else shown)


# ---------------------------------------------------------------------- writing


def game_to_json(game: Game) -> dict[str, Any]:
    """Everything needed to continue ``game`` exactly: plain JSON data."""
    version, internal, gauss = game.rng.getstate()
    state: dict[str, Any] = {name: list(getattr(game, name)) for name in _LISTS}
    state.update({name: getattr(game, name) for name in _SCALARS})
    state["held_cards"] = [[list(card) for card in cards] for cards in game.held_cards]
    state["decks"] = {key: list(order) for key, order in game.decks.items()}
    state["last_roll"] = list(game.last_roll)
    state["rng"] = [version, list(internal), gauss]
    return {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": {"id": game.ruleset.id, "variants": list(game.ruleset.variants)},
        "seed": game.seed,
        "max_turns": game.max_turns,
        "agents": [agent_name(a) for a in game.agents],
        "agent_states": [_agent_state(a) for a in game.agents],
        "state": state,
    }


# ---------------------------------------------------------------------- reading


def read_save_file(path: str | os.PathLike[str], *,
                   formats: Mapping[str, int | tuple[int, ...]] | None = None) -> dict[str, Any]:
    """The data of the save file at ``path``, once it is sure to be a save this program reads.

    At most :data:`MAX_SAVE_BYTES` are read, as strict JSON
    (:func:`monopoly.game.jsonin.read_json_file`). ``formats`` maps each
    accepted ``format`` to the ``version`` read (by default the engine's own,
    ``{"monopoly-save": 1}``; a program that wraps the engine's save in its own
    passes both). The game in the data is checked by :func:`game_from_json`.
    Every problem raises :class:`SaveError`, its message starting with the path.
    """
    accepted = {FORMAT: VERSION} if formats is None else dict(formats)
    name = os.fspath(path)
    try:
        data = read_json_file(path, max_bytes=MAX_SAVE_BYTES, kind="save file")
    except JsonInputError as exc:
        raise SaveError(str(exc)) from None
    if not isinstance(data, dict):
        raise SaveError(f"{name} is not a monopoly save file (it holds {describe(data)}, not an object)")
    found = data.get("format")
    if not isinstance(found, str) or found not in accepted:
        what = f" (its format is {describe(found)})" if isinstance(found, str) else ""
        raise SaveError(f"{name} is not a monopoly save file{what}")
    version = data.get("version")
    wanted = accepted[found]
    versions = wanted if isinstance(wanted, tuple) else (wanted,)
    if type(version) is not int or version not in versions:
        raise SaveError(f"{name}: save version {describe(version)} is not supported "
                        f"(this program reads version {' or '.join(map(str, versions))})")
    return data


def game_from_json(data: Any, ruleset: Any, agents: list[Any]) -> Game:
    """The game saved in ``data``, played on by ``agents`` (same names as when saved).

    Nothing of ``data`` reaches the game before it is checked: a save of
    another ruleset or other players, or one that is damaged, raises
    :class:`SaveError` (its ``problems`` list all that is wrong).
    """
    _check_header(data, ruleset, agents)
    found = _Found()
    _check_fields(data, ruleset, len(agents), found)
    if found.ok("state"):
        _check_rules(data["state"], data.get("max_turns"), ruleset, len(agents), found)
    if found.problems:
        raise SaveError(found.problems, heading=DAMAGED)
    game = Game(ruleset, agents, seed=data["seed"], max_turns=data["max_turns"])
    _restore(game, data["state"])
    problems = _restore_agents(game, data["agent_states"])
    if problems:
        raise SaveError(problems, heading=DAMAGED)
    return game


def check_state(game: Game) -> None:
    """Raise :class:`SaveError` unless the state is one the rules could reach between turns."""
    found = _Found()
    state = game_to_json(game)["state"]
    _check_state_fields(state, game.ruleset, game.players, found)
    _check_rules(state, game.max_turns, game.ruleset, game.players, found)
    if found.problems:
        raise SaveError(found.problems, heading=DAMAGED)


class _Found:
    """The problems found so far, and the fields they make unusable for the checks that follow."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.bad: set[str] = set()

    def add(self, field: str, message: str) -> None:
        self.problems.append(message)
        self.bad.add(field)

    def ok(self, *fields: str) -> bool:
        return not self.bad.intersection(fields)


def _names(values: Sequence[Any]) -> str:
    shown = [v if isinstance(v, str) and len(v) <= 30 and v.isprintable() else describe(v) for v in values[:10]]
    return ", ".join(shown) + (f" and {len(values) - 10} more" if len(values) > 10 else "")


def _check_header(data: Any, ruleset: Any, agents: list[Any]) -> None:
    """Refuse at once what is not a save of this program, or a save of another game."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError("this is not a monopoly save file")
    version = data.get("version")
    if type(version) is not int or version != VERSION:
        raise SaveError(f"save format version {describe(version)} is not supported (this program reads {VERSION})")
    saved = data.get("ruleset")
    if not isinstance(saved, dict) or not isinstance(saved.get("id"), str) or \
            not isinstance(saved.get("variants"), list) or not all(isinstance(v, str) for v in saved["variants"]):
        raise SaveError(f"'ruleset' is {describe(saved)}, not an object of the ruleset's id and its variants",
                        heading=DAMAGED)
    if saved["id"] != ruleset.id or saved["variants"] != list(ruleset.variants):
        raise SaveError(f"the save is of ruleset {_names([saved['id']])} with variants "
                        f"[{_names(saved['variants'])}], not {ruleset.id} with {list(ruleset.variants)}")
    names = data.get("agents")
    if isinstance(names, list) and all(isinstance(n, str) for n in names):
        mine = [agent_name(a) for a in agents]
        if names != mine:
            raise SaveError(f"the save was played by {_names(names)}, not {_names(mine)}")


def _is_int(value: Any, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _check_fields(data: dict[str, Any], ruleset: Any, n: int, found: _Found) -> None:
    """The type and range of every field outside the state, then of the state's."""
    for key in data:
        if key not in _TOP_KEYS:
            found.add("unknown keys", f"the save has an unknown key {excerpt(str(key), 40)}")
    for key in _TOP_KEYS:
        if key not in data:
            found.add(key, f"the save has no '{key}'")
    seed = data.get("seed")
    if "seed" in data and not _is_int(seed, -_BIG + 1, _BIG - 1):
        found.add("seed", f"seed is {describe(seed)}, not a whole number")
    turns = data.get("max_turns")
    if "max_turns" in data and turns is not None and not _is_int(turns, 0, _BIG - 1):
        found.add("max_turns", f"max_turns is {describe(turns)}, not null (no limit) or a whole number of at least 0")
    names = data.get("agents")
    if "agents" in data and not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
        found.add("agents", f"agents is {describe(names)}, not a list of the players' names")
    if not ruleset.min_players <= n <= ruleset.max_players:
        found.add("agents", f"{ruleset.name} is played by {ruleset.min_players} to {ruleset.max_players} "
                            f"players, not {n}")
    states = data.get("agent_states")
    if "agent_states" in data:
        if not isinstance(states, list) or len(states) != n:
            found.add("agent_states", f"agent_states is {describe(states)}, not a list of one state a player")
        else:
            for seat, state in enumerate(states):
                _check_agent_state(state, f"agent_states[{seat}]", found)
    if "state" in data:
        _check_state_fields(data["state"], ruleset, n, found)


def _check_agent_state(state: Any, where: str, found: _Found) -> None:
    """What every agent state holds: a generator's state in "rng", and the trader's offers made in "asked"."""
    if state is None:
        return
    if not isinstance(state, dict):
        found.add("agent_states", f"{where} is {describe(state)}, not null or an object")
        return
    if "rng" in state:
        _check_rng(state["rng"], f"{where}.rng", "agent_states", found)
    asked = state.get("asked")
    if "asked" in state:
        if not isinstance(asked, list):
            found.add("agent_states", f"{where}.asked is {describe(asked)}, not a list")
            return
        wrong = [i for i, key in enumerate(asked) if not (isinstance(key, list) and len(key) == 4 and
                                                          all(_is_int(k, -_BIG + 1, _BIG - 1) for k in key))]
        if wrong:
            found.add("agent_states", f"{where}.asked has {len(wrong)} entries that are not four whole numbers "
                                      f"(the first: [{wrong[0]}] is {describe(asked[wrong[0]])})")


def _check_rng(value: Any, where: str, field: str, found: _Found) -> None:
    """A Mersenne Twister state as ``random.getstate()`` gives it: [3, 624 words and an index, gauss]."""
    if not isinstance(value, list) or len(value) != 3:
        found.add(field, f"{where} is {describe(value)}, not a generator state [3, [625 numbers], null]")
        return
    version, internal, gauss = value
    if type(version) is not int or version != 3:
        found.add(field, f"{where}[0] is {describe(version)}, not 3 (the generator's version)")
    if not isinstance(internal, list) or len(internal) != _MT_WORDS + 1:
        found.add(field, f"{where}[1] is {describe(internal)}, not a list of {_MT_WORDS + 1} numbers")
    else:
        words = internal[:_MT_WORDS]
        fine = set(map(type, words)) == {int} and min(words) >= 0 and max(words) < _WORD  # the usual case, fast
        wrong = [] if fine else [i for i in range(_MT_WORDS) if not _is_int(internal[i], 0, _WORD - 1)]
        if wrong:
            found.add(field, f"{where}[1] has {len(wrong)} numbers that are not whole numbers from 0 to "
                             f"{_WORD - 1} (the first: [{wrong[0]}] is {describe(internal[wrong[0]])})")
        elif not any(words):
            found.add(field, f"{where}[1] is all zeros, which no generator reaches")
        if not _is_int(internal[_MT_WORDS], 0, _MT_WORDS):
            found.add(field, f"{where}[1][{_MT_WORDS}] is {describe(internal[_MT_WORDS])}, not an index from 0 "
                             f"to {_MT_WORDS}")
    if gauss is not None and not (type(gauss) is float and math.isfinite(gauss)):
        found.add(field, f"{where}[2] is {describe(gauss)}, not null or a number")


def _check_state_fields(state: Any, ruleset: Any, n: int, found: _Found) -> None:
    """The type and range of every field of the state, each on its own."""
    if not isinstance(state, dict):
        found.add("state", f"state is {describe(state)}, not an object")
        return
    t = tables_for(ruleset)
    for key in state:
        if key not in _STATE_KEYS:
            found.add("unknown keys", f"state has an unknown key {excerpt(str(key), 40)}")
    for key in _STATE_KEYS:
        if key not in state:
            found.add(key, f"state has no '{key}'")

    def int_list(name: str, length: int, low: int, high: int, what: str) -> None:
        if name not in state:
            return
        value = state[name]
        if not isinstance(value, list):
            found.add(name, f"state.{name} is {describe(value)}, not a list")
        elif len(value) != length:
            found.add(name, f"'{name}' has {len(value)} entries, expected {length}")
        else:
            for i, v in enumerate(value):
                if not _is_int(v, low, high):
                    found.add(name, f"state.{name}[{i}] is {describe(v)}, {what}")

    def bool_list(name: str, length: int) -> None:
        if name not in state:
            return
        value = state[name]
        if not isinstance(value, list):
            found.add(name, f"state.{name} is {describe(value)}, not a list")
        elif len(value) != length:
            found.add(name, f"'{name}' has {len(value)} entries, expected {length}")
        else:
            for i, v in enumerate(value):
                if type(v) is not bool:
                    found.add(name, f"state.{name}[{i}] is {describe(v)}, not true or false")

    def scalar(name: str, low: int, high: int, what: str, *, null: bool = False) -> None:
        if name in state and not (null and state[name] is None) and not _is_int(state[name], low, high):
            found.add(name, f"state.{name} is {describe(state[name])}, {what}")

    jail_high = max(ruleset.rules.jail.max_turns - 1, 0)
    int_list("cash", n, 0, MAX_CASH, "not a whole number of at least 0 (cash is never negative between turns: "
                                    "a debt is paid at once, or the player goes bankrupt)")
    int_list("position", n, 0, t.size - 1, f"past the board (its spaces are 0 to {t.size - 1})")
    int_list("jail_turns", n, -1, jail_high, f"not -1 (free) or the failed tries in jail so far, 0 to {jail_high}")
    int_list("owner", t.size, -1, n - 1, f"not -1 (the bank) or a seat from 0 to {n - 1}")
    int_list("buildings", t.size, 0, t.hotel_level, f"not a number of buildings from 0 to {t.hotel_level} "
                                                    f"({t.hotel_level}: a hotel)")
    bool_list("bankrupt", n)
    bool_list("mortgaged", t.size)
    order = state.get("bankrupt_order")
    if "bankrupt_order" in state:
        if not isinstance(order, list) or len(order) > n:
            found.add("bankrupt_order", f"state.bankrupt_order is {describe(order)}, not a list of seats")
        elif not all(_is_int(seat, 0, n - 1) for seat in order) or len(set(order)) != len(order):
            found.add("bankrupt_order", f"state.bankrupt_order is not a list of different seats from 0 to {n - 1}")
    scalar("houses_left", 0, ruleset.houses, f"not a number of houses from 0 to {ruleset.houses} (the box)")
    scalar("hotels_left", 0, ruleset.hotels, f"not a number of hotels from 0 to {ruleset.hotels} (the box)")
    scalar("pot", 0, MAX_CASH, "not a whole number of at least 0")
    scalar("turn", 0, _BIG, "not a whole number of at least 0")
    scalar("round", 0, _BIG, "not a whole number of at least 0")
    scalar("owner_version", 0, _BIG, "not a whole number of at least 0")
    scalar("current", 0, n - 1, f"not a seat from 0 to {n - 1}")
    scalar("winner", 0, n - 1, f"not null or a seat from 0 to {n - 1}", null=True)
    for name in ("started", "finished"):
        if name in state and type(state[name]) is not bool:
            found.add(name, f"state.{name} is {describe(state[name])}, not true or false")
    reason = state.get("end_reason")
    if reason is not None and not (isinstance(reason, str) and reason in _END_REASONS):
        found.add("end_reason", f"state.end_reason is {describe(reason)}, not null or one of "
                                f"{', '.join(_END_REASONS)}")
    _check_cards(state, t, n, found)
    roll = state.get("last_roll")
    if "last_roll" in state:
        dice, sides = ruleset.dice_count, ruleset.dice_sides
        fine = isinstance(roll, list) and (
            (len(roll) == 2 and all(type(d) is int and d == 0 for d in roll)) or  # no roll yet
            (len(roll) == dice and all(_is_int(d, 1, sides) for d in roll)))
        if not fine:
            found.add("last_roll", f"state.last_roll is {describe(roll)}, not {dice} dice from 1 to {sides} "
                                   "(or [0, 0] before the first roll)")
    if "rng" in state:
        _check_rng(state["rng"], "state.rng", "rng", found)


def _check_cards(state: dict[str, Any], t: Any, n: int, found: _Found) -> None:
    """Held cards are [deck, card] pairs of cards that are kept; decks list their slots once each."""
    keepable = {key: {slot.index for slot in slots if slot.keeps} for key, slots in t.decks.items()}
    cards = {key: len({slot.index for slot in slots}) for key, slots in t.decks.items()}
    slots_total = sum(len(slots) for slots in t.decks.values())
    held = state.get("held_cards")
    if "held_cards" in state:
        if not isinstance(held, list) or len(held) != n:
            found.add("held_cards", f"state.held_cards is {describe(held)}, not a list of {n} lists of cards")
        else:
            for seat, hand in enumerate(held):
                if not isinstance(hand, list) or len(hand) > slots_total:
                    found.add("held_cards", f"state.held_cards[{seat}] is {describe(hand)}, not a list of cards")
                    continue
                for i, card in enumerate(hand):
                    where = f"state.held_cards[{seat}][{i}]"
                    if not (isinstance(card, list) and len(card) == 2 and isinstance(card[0], str) and
                            type(card[1]) is int):
                        found.add("held_cards", f"{where} is {describe(card)}, not a [deck, card number] pair")
                    elif card[0] not in keepable:
                        found.add("held_cards", f"{where} is a card of {describe(card[0])}, a deck the ruleset "
                                                "does not have")
                    elif not 0 <= card[1] < cards[card[0]]:
                        found.add("held_cards", f"{where} is card {describe(card[1])} of {card[0]}, which has "
                                                f"cards 0 to {cards[card[0]] - 1}")
                    elif card[1] not in keepable[card[0]]:
                        found.add("held_cards", f"{where} is card {card[1]} of {card[0]}, not a card a player "
                                                "keeps")
    decks = state.get("decks")
    if "decks" in state:
        if not isinstance(decks, dict):
            found.add("decks", f"state.decks is {describe(decks)}, not an object of the decks")
            return
        for key in decks:
            if key not in t.decks:
                found.add("decks", f"state.decks has {excerpt(str(key), 40)}, a deck the ruleset does not have")
        for key, slots in t.decks.items():
            order = decks.get(key)
            if key not in decks:
                found.add("decks", f"state.decks has no deck {key}")
            elif not isinstance(order, list) or len(order) > len(slots):
                found.add("decks", f"state.decks.{key} is {describe(order)}, not a list of its "
                                   f"{len(slots)} cards")
            elif not all(_is_int(i, 0, len(slots) - 1) for i in order) or len(set(order)) != len(order):
                found.add("decks", f"state.decks.{key} lists a card twice, or a card it does not have "
                                   f"(its cards are 0 to {len(slots) - 1})")


def _check_rules(state: dict[str, Any], max_turns: Any, ruleset: Any, n: int, found: _Found) -> None:
    """The whole state against the rules: what no game reaches between turns. Checks that need a field
    already found wrong are left out."""
    t = tables_for(ruleset)
    rules = ruleset.rules
    ok = found.ok
    add = found.problems.append
    bankrupt: Any = state.get("bankrupt")  # each used only where its field passed its checks
    if ok("bankrupt", "bankrupt_order") and sorted(state["bankrupt_order"]) != [s for s in range(n) if bankrupt[s]]:
        add("state.bankrupt_order does not list exactly the bankrupt seats")
    if ok("current", "bankrupt", "finished") and not state["finished"] and bankrupt[state["current"]]:
        add(f"the seat to play (state.current, {state['current']}) is bankrupt")
    if ok("bankrupt", "cash", "jail_turns", "held_cards"):
        for seat in range(n):
            if bankrupt[seat] and (state["cash"][seat] or state["jail_turns"][seat] != -1 or
                                   state["held_cards"][seat]):
                add(f"seat {seat} is bankrupt but still has cash, cards or a place in jail")
    if ok("jail_turns", "position"):
        for seat, tries in enumerate(state["jail_turns"]):
            if tries >= 0 and state["position"][seat] != t.jail:
                add(f"state.jail_turns[{seat}] is {tries}, but seat {seat} is not in jail (it is on "
                    f"{t.names[state['position'][seat]]})")
    owner: Any = state.get("owner")
    if ok("owner", "bankrupt"):
        ownable = set(t.ownable)
        for space, seat in enumerate(owner):
            if seat >= 0 and space not in ownable:
                add(f"{t.names[space]} (space {space}) has an owner, but it cannot be owned")
            elif seat >= 0 and bankrupt[seat]:
                add(f"{t.names[space]} is owned by seat {seat}, who is bankrupt")
    if ok("owner", "mortgaged"):
        for space, mortgaged in enumerate(state["mortgaged"]):
            if mortgaged and owner[space] < 0:
                add(f"{t.names[space]} is mortgaged but has no owner")
    if ok("buildings", "owner", "mortgaged"):
        _check_buildings(state, t, rules, add)
    if ok("buildings", "houses_left", "hotels_left"):
        houses = sum(b for b in state["buildings"] if b < t.hotel_level)
        hotels = sum(1 for b in state["buildings"] if b == t.hotel_level)
        if (state["houses_left"] + houses, state["hotels_left"] + hotels) != (ruleset.houses, ruleset.hotels):
            add(f"the houses and hotels in the bank and on the board do not add up to the box: {houses} houses "
                f"and {hotels} hotels built, {state['houses_left']} and {state['hotels_left']} in the bank, "
                f"{ruleset.houses} and {ruleset.hotels} in the box")
    if ok("decks", "held_cards"):
        for key, slots in t.decks.items():
            held = sorted(i for hand in state["held_cards"] for d, i in hand if d == key)
            in_deck = set(state["decks"][key])
            rest = sorted(slots[i].index for i in range(len(slots)) if i not in in_deck)
            if rest != held:
                add(f"the cards of deck {key} are not all in it or held once (missing from the deck: {len(rest)}, "
                    f"held: {len(held)})")
    if ok("started", "finished", "end_reason", "winner", "bankrupt", "turn", "max_turns"):
        _check_end(state, max_turns, rules, n, add)
    if ok("turn", "round", "started", "finished", "max_turns"):
        turn = state["turn"]
        if not state["started"] and (turn or state["round"]):
            add(f"state.turn is {turn}, but the game has not started")
        if state["round"] > turn:
            add(f"state.round ({state['round']}) is more than state.turn ({turn})")
        if max_turns is not None and turn > max_turns:
            add(f"state.turn ({turn}) is past max_turns ({max_turns})")
        elif max_turns is not None and state["started"] and not state["finished"] and turn >= max_turns:
            add(f"the game reached max_turns ({max_turns}) but is not finished")


def _check_buildings(state: dict[str, Any], t: Any, rules: Any, add: Any) -> None:
    owner, buildings, mortgaged = state["owner"], state["buildings"], state["mortgaged"]
    for space, level in enumerate(buildings):
        if not level:
            continue
        group = t.group_of[space]
        if t.kind[space] != STREET or group < 0 or not t.buildable[group]:
            add(f"{t.names[space]} has buildings, but nothing can be built on it")
        elif owner[space] < 0:
            add(f"{t.names[space]} has buildings but no owner")
    for group, members in enumerate(t.members):
        levels = [buildings[m] for m in members]
        if not t.buildable[group] or not any(levels):
            continue
        name = t.group_keys[group]
        if len({owner[m] for m in members}) != 1:
            add(f"the {name} group has buildings, but its lots do not all have one owner (buildings need the "
                "whole group)")
        for m in members:
            if mortgaged[m]:
                add(f"the {name} group has buildings, but {t.names[m]} is mortgaged")
        if rules.building.even and max(levels) - min(levels) > 1:
            add(f"the buildings of the {name} group are uneven ({'/'.join(map(str, levels))}), but the rules "
                "build and sell evenly")


def _check_end(state: dict[str, Any], max_turns: Any, rules: Any, n: int, add: Any) -> None:
    finished, reason, winner, bankrupt = state["finished"], state["end_reason"], state["winner"], state["bankrupt"]
    alive = [s for s in range(n) if not bankrupt[s]]
    if finished and not state["started"]:
        add("the game is finished but was never started")
    if not finished:
        if winner is not None:
            add(f"state.winner is {winner}, but the game is not finished")
        if reason is not None:
            add(f"state.end_reason is {reason}, but the game is not finished")
        return
    if reason is None:
        add("the game is finished but state.end_reason does not say why")
        return
    if winner is not None and bankrupt[winner]:
        add(f"the winner, seat {winner}, is bankrupt")
    if reason == "last_standing":
        if len(alive) > 1:
            add(f"the game ended with one player standing, but {len(alive)} are not bankrupt")
        elif winner != (alive[0] if alive else None):
            add(f"the game ended with one player standing, but the winner is {describe(winner)}")
    elif reason == "turn_limit":
        if winner is not None:
            add(f"a game stopped by its turn limit has no winner, but state.winner is {winner}")
        if max_turns is None or state["turn"] < max_turns:
            add("the game is said to have reached its turn limit, but it has not")
    else:
        if rules.end.when != reason:
            add(f"the game is said to have ended by {reason}, which is not how this ruleset ends")
        if winner is None:
            add(f"a game ended by {reason} has a winner, but state.winner is null")


# ---------------------------------------------------------------------- restoring


def _restore(game: Game, state: dict[str, Any]) -> None:
    """Put a checked state into a new game."""
    for name in _LISTS:
        setattr(game, name, list(state[name]))
    for name in _SCALARS:
        setattr(game, name, state[name])
    game.held_cards = [[(deck, index) for deck, index in cards] for cards in state["held_cards"]]
    game.decks = {key: deque(state["decks"][key]) for key in game.decks}
    game.last_roll = tuple(state["last_roll"])
    version, internal, gauss = state["rng"]
    game.rng.setstate((version, tuple(internal), gauss))


def _restore_agents(game: Game, states: list[Any]) -> list[str]:
    """Give each agent its saved state; the problems of those that do not fit their agent."""
    problems = []
    for seat, (agent, saved) in enumerate(zip(game.agents, states, strict=True)):
        where = f"agent_states[{seat}] (of {_names([agent_name(agent)])})"
        fresh = _agent_state(agent)
        if (fresh is None) != (saved is None):
            problems.append(f"{where} is {describe(saved)}, but this agent saves "
                            f"{'nothing' if fresh is None else 'a state'}")
            continue
        if isinstance(fresh, dict) and isinstance(saved, dict) and set(fresh) != set(saved):
            problems.append(f"{where} has the keys {_names(sorted(map(str, saved)))}, not those of this agent "
                            f"({_names(sorted(map(str, fresh)))})")
            continue
        try:
            _set_agent_state(agent, saved)
        except Exception as exc:  # the agent's own code: whatever it raises, the save does not fit it
            problems.append(f"{where} does not fit this agent ({type(exc).__name__})")
    return problems


def _agent_state(agent: Any) -> Any:
    get = getattr(agent, "get_state", None)
    return get() if get is not None else None


def _set_agent_state(agent: Any, state: Any) -> None:
    put = getattr(agent, "set_state", None)
    if put is not None and state is not None:
        put(state)
