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
    except SaveError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise SaveError(f"the save file is damaged ({type(exc).__name__}: {exc})") from None
    return game


def _agent_state(agent: Any) -> Any:
    get = getattr(agent, "get_state", None)
    return get() if get is not None else None


def _set_agent_state(agent: Any, state: Any) -> None:
    put = getattr(agent, "set_state", None)
    if put is not None and state is not None:
        put(state)
