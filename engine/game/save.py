"""Saving a game to JSON and loading it back to the identical game (the RNG included)."""

from __future__ import annotations

from collections import deque
from typing import Any

from .game import Game, agent_name

FORMAT = "monopoly-save"
VERSION = 1

_LISTS = ("cash", "position", "jail_turns", "bankrupt", "bankrupt_order", "owner", "buildings", "mortgaged")
_SCALARS = ("houses_left", "hotels_left", "pot", "turn", "round", "current", "started", "finished", "end_reason",
            "winner", "owner_version")


class SaveError(ValueError):
    """A save file that is not ours, is damaged, or belongs to another ruleset or table of agents."""


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


def game_from_json(data: Any, ruleset: Any, agents: list[Any]) -> Game:
    """The game saved in ``data``, played on by ``agents`` (same names as when saved)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError("this is not a monopoly save file")
    if data.get("version") != VERSION:
        raise SaveError(f"save format version {data.get('version')!r} is not supported (this program reads {VERSION})")
    try:
        saved = data["ruleset"]
        if saved["id"] != ruleset.id or list(saved["variants"]) != list(ruleset.variants):
            raise SaveError(f"the save is of ruleset {saved['id']} with variants {saved['variants']}, "
                            f"not {ruleset.id} with {list(ruleset.variants)}")
        names = [agent_name(a) for a in agents]
        if names != data["agents"]:
            raise SaveError(f"the save was played by {', '.join(data['agents'])}, not {', '.join(names)}")
        game = Game(ruleset, agents, seed=int(data["seed"]), max_turns=data["max_turns"])
        state = data["state"]
        for name in _LISTS:
            value = list(state[name])
            if name not in ("bankrupt_order",) and len(value) != len(getattr(game, name)):
                raise SaveError(f"'{name}' has {len(value)} entries, expected {len(getattr(game, name))}")
            setattr(game, name, value)
        for name in _SCALARS:
            setattr(game, name, state[name])
        game.held_cards = [[(str(deck), int(index)) for deck, index in cards] for cards in state["held_cards"]]
        if set(state["decks"]) != set(game.decks):
            raise SaveError("the decks in the save do not match the ruleset")
        game.decks = {key: deque(int(i) for i in order) for key, order in state["decks"].items()}
        game.last_roll = tuple(state["last_roll"])
        version, internal, gauss = state["rng"]
        game.rng.setstate((version, tuple(internal), gauss))
        for agent, agent_state in zip(agents, data["agent_states"], strict=True):
            _set_agent_state(agent, agent_state)
        check_state(game)
    except SaveError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise SaveError(f"the save file is damaged ({type(exc).__name__}: {exc})") from None
    return game


def check_state(game: Game) -> None:
    """Raise :class:`SaveError` unless the state is one the rules could reach (a save is outside data)."""
    t = game.tables
    n = game.players
    problems: list[str] = []

    def ints(name: str, values: list[Any], low: int, high: int) -> None:
        for i, v in enumerate(values):
            if type(v) is not int or not low <= v <= high:
                problems.append(f"{name}[{i}] is {v!r}, not a whole number from {low} to {high}")

    ints("position", game.position, 0, t.size - 1)
    ints("jail_turns", game.jail_turns, -1, max(game.rules.jail.max_turns, 1))
    ints("owner", game.owner, -1, n - 1)
    ints("buildings", game.buildings, 0, t.hotel_level)
    ints("cash", game.cash, -10**9, 10**9)
    for name in ("houses_left", "hotels_left", "pot", "turn", "round"):
        value = getattr(game, name)
        if type(value) is not int or value < 0:
            problems.append(f"{name} is {value!r}, not a whole number of at least 0")
    if type(game.current) is not int or not 0 <= game.current < n:
        problems.append(f"current is {game.current!r}, not a seat from 0 to {n - 1}")
    if any(type(v) is not bool for v in game.bankrupt + game.mortgaged):
        problems.append("bankrupt and mortgaged hold true or false only")
    if problems:
        raise SaveError("the save file is damaged: " + "; ".join(problems[:3]))
    if sorted(game.bankrupt_order) != [s for s in range(n) if game.bankrupt[s]]:
        problems.append("bankrupt_order does not list exactly the bankrupt seats")
    if not game.finished and game.bankrupt[game.current]:
        problems.append("the seat to play is bankrupt")
    for space in range(t.size):
        owner = game.owner[space]
        if owner >= 0 and (space not in t.ownable or game.bankrupt[owner]):
            problems.append(f"{t.names[space]} has an owner it cannot have")
        if game.buildings[space] and (t.kind[space] != 1 or owner < 0):  # 1: a street
            problems.append(f"{t.names[space]} has buildings but is not an owned street")
        if game.mortgaged[space] and owner < 0:
            problems.append(f"{t.names[space]} is mortgaged but has no owner")
    houses = sum(b for b in game.buildings if b < t.hotel_level)
    hotels = sum(1 for b in game.buildings if b == t.hotel_level)
    if (game.houses_left + houses, game.hotels_left + hotels) != (game.ruleset.houses, game.ruleset.hotels):
        problems.append("the houses and hotels in the bank and on the board do not add up to the box")
    for key, slots in t.decks.items():
        held = [(d, i) for cards in game.held_cards for d, i in cards if d == key]
        in_deck = list(game.decks[key])
        if sorted(in_deck) != sorted(set(in_deck)) or any(not 0 <= i < len(slots) for i in in_deck):
            problems.append(f"deck {key} lists a card twice or a card it does not have")
            continue
        rest = sorted(slots[i].index for i in range(len(slots)) if i not in set(in_deck))
        if rest != sorted(i for _, i in held):
            problems.append(f"the cards of deck {key} are neither in it nor held")
    if any(d not in t.decks for cards in game.held_cards for d, _ in cards):
        problems.append("a held card belongs to no deck")
    if problems:
        raise SaveError("the save file is damaged: " + "; ".join(problems[:3]))


def _agent_state(agent: Any) -> Any:
    get = getattr(agent, "get_state", None)
    return get() if get is not None else None


def _set_agent_state(agent: Any, state: Any) -> None:
    put = getattr(agent, "set_state", None)
    if put is not None and state is not None:
        put(state)
