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

import os
from collections.abc import Mapping, Sequence
from typing import Any

from .._mypyc import mypyc_attr
from .decisions import agent_name
from .game import Game
from .jsonin import JsonInputError, describe, read_json_file
from .state import _BIG, GameState, _check_rng, _check_rules, _check_state_fields, _Found, _is_int, check_keys

FORMAT = "monopoly-save"
VERSION = 1
#: A position file: a ruleset and a state, nothing of the agents (docs/embedding.md).
POSITION_FORMAT = "monopoly-position"
POSITION_VERSION = 1
#: The save of `monopoly play`, which holds the engine's save under "game".
PLAY_FORMAT = "monopoly-play"
#: The largest save file :func:`read_save_file` reads (a real one is a few KiB).
MAX_SAVE_BYTES = 4 * 1024 * 1024
#: How many problems a :class:`SaveError` message lists (all are in ``problems``).
MAX_SHOWN = 20
DAMAGED = "the save file is damaged"

_TOP_KEYS = ("format", "version", "ruleset", "seed", "max_turns", "agents", "agent_states", "state")


@mypyc_attr(native_class=False)
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
    state = GameState.of(game).to_json()
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


def position_to_json(ruleset: Any, state: GameState) -> dict[str, Any]:
    """A position file: the ruleset it is a position of, and the state (docs/embedding.md)."""
    return {"format": POSITION_FORMAT, "version": POSITION_VERSION,
            "ruleset": {"id": ruleset.id, "variants": list(ruleset.variants)}, "state": state.to_json()}


# ---------------------------------------------------------------------- reading


def read_position_file(path: str | os.PathLike[str]) -> tuple[dict[str, Any], Any]:
    """The ruleset (``{"id", "variants"}``) and the state of a position file, or of any save (a save is a
    position: the engine's, and `monopoly play`'s). The state is checked by :meth:`GameState.from_json`;
    a file that is none of these raises :class:`SaveError`."""
    data = read_save_file(path, formats={FORMAT: VERSION, POSITION_FORMAT: POSITION_VERSION, PLAY_FORMAT: (1, 2)})
    inner = data.get("game") if data["format"] == PLAY_FORMAT else data
    if not isinstance(inner, dict):
        raise SaveError(f"{os.fspath(path)}: the save holds no game")
    saved = inner.get("ruleset")
    if not isinstance(saved, dict) or not isinstance(saved.get("id"), str) or \
            not isinstance(saved.get("variants"), list) or not all(isinstance(v, str) for v in saved["variants"]):
        raise SaveError(f"{os.fspath(path)}: 'ruleset' is {describe(saved)}, not an object of the ruleset's id "
                        "and its variants")
    if "state" not in inner:
        raise SaveError(f"{os.fspath(path)}: the file holds no 'state'")
    return {"id": saved["id"], "variants": list(saved["variants"])}, inner["state"]



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
    GameState._unchecked(data["state"]).put(game)
    problems = _restore_agents(game, data["agent_states"])
    if problems:
        raise SaveError(problems, heading=DAMAGED)
    return game


def check_state(game: Game) -> None:
    """Raise :class:`SaveError` unless the state is one the rules could reach between turns."""
    problems = GameState.of(game).problems(game.ruleset, max_turns=game.max_turns)
    if problems:
        raise SaveError(problems, heading=DAMAGED)


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


def _check_fields(data: dict[str, Any], ruleset: Any, n: int, found: _Found) -> None:
    """The type and range of every field outside the state, then of the state's."""
    check_keys(data, _TOP_KEYS, "the save", found)
    seed = data.get("seed")
    if "seed" in data and not _is_int(seed, -_BIG + 1, _BIG - 1):
        found.add("seed", f"seed is {describe(seed)}, not a whole number")
    turns = data.get("max_turns")
    if "max_turns" in data and turns is not None and not _is_int(turns, 0, _BIG - 1):
        found.add("max_turns", f"max_turns is {describe(turns)}, not null (no limit) or a whole number of at least 0")
    names = data.get("agents")
    if "agents" in data and not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
        found.add("agents", f"agents is {describe(names)}, not a list of the players' names")
    problem = ruleset.players_problem(n)
    if problem is not None:
        found.add("agents", problem)
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


# ---------------------------------------------------------------------- restoring


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
