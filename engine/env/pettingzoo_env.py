"""The PettingZoo AEC environment of a game (docs/env.md): each decision of the engine is a step of the seat it
asks (``agent_selection``), the action an integer of the ruleset's codec (:mod:`monopoly.env.codec`), the
observation a dict of ``observation`` (:mod:`monopoly.env.observation`) and ``action_mask``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..game.decisions import Decision
from ..game.game import Game
from ..ruleset import Ruleset, load_ruleset
from .codec import CODEC_VERSION, Codec, codec_for, whole
from .observation import Observer

#: The rewards an environment may give: ``win`` (at the end: +1 to the winner, -1 to the others, 0 to all when
#: nobody wins), ``worth`` (after each step, each seat's change of net worth over the starting cash).
REWARDS = ("win", "worth")


def table_of(ruleset: Ruleset | str, variants: Sequence[str], players: int, reward: str,
             render_mode: str | None) -> Ruleset:
    """The ruleset of an environment (the object given, or one loaded by name or path with ``variants``), its
    other arguments checked: a ValueError saying what is wrong."""
    if reward not in REWARDS:
        raise ValueError(f"reward is one of {', '.join(REWARDS)}")
    if render_mode not in (None, "ansi"):
        raise ValueError("render_mode is None or 'ansi'")
    if isinstance(ruleset, Ruleset):
        if variants:
            raise ValueError("variants go with a ruleset's name, not with a loaded ruleset (load it with them)")
    else:
        ruleset = load_ruleset(ruleset, list(variants))
    problem = ruleset.players_problem(players)
    if problem is not None:
        raise ValueError(problem)
    return ruleset


class MonopolyEnv(AECEnv):  # PettingZoo ships no types: its AECEnv is Any to mypy
    """A Monopoly game as a PettingZoo AEC environment.

    ``MonopolyEnv(ruleset="classic", variants=(), players=4, max_turns=1000, reward="win")``; agents are
    ``player_0`` ... by seat. ``reset(seed=S)`` starts the game of seed S (the same seed and actions give the same
    game, in any process); without a seed, one is drawn from the environment's generator.
    """

    metadata: ClassVar[dict[str, Any]] = {"name": "monopoly_v1", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, ruleset: Ruleset | str = "classic", variants: Sequence[str] = (), players: int = 4, *,
                 max_turns: int = 1000, reward: str = "win", render_mode: str | None = None):
        super().__init__()
        self.ruleset = table_of(ruleset, variants, players, reward, render_mode)
        self.players = players
        self.max_turns = max_turns
        self.reward = reward
        self.render_mode = render_mode
        self.codec: Codec = codec_for(self.ruleset)
        self.observer = Observer(self.ruleset, players, self.codec.choices)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = list(self.possible_agents)
        observation = spaces.Box(low=0.0, high=np.inf, shape=(self.observer.size,), dtype=np.float32)
        mask = spaces.Box(low=0, high=1, shape=(self.codec.size,), dtype=np.int8)
        self.observation_spaces = {agent: spaces.Dict({"observation": observation, "action_mask": mask})
                                   for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.codec.size) for agent in self.possible_agents}
        self.codec_version = CODEC_VERSION
        self._rng = np.random.default_rng()
        self.game: Game | None = None
        self._decision: Decision | None = None
        self._mask = np.zeros(self.codec.size, dtype=np.int8)
        self._worth: list[int] = []

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ playing

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            game_seed = seed
        else:
            game_seed = int(self._rng.integers(0, 2**31 - 1))
        self.game = Game(self.ruleset, players=self.players, seed=game_seed, max_turns=self.max_turns)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._worth = [self.ruleset.starting_cash] * self.players
        self._advance()

    def _advance(self) -> None:
        """Look at the next decision: the seat it asks is selected, its mask made; at the end, everyone is done."""
        game = self.game
        assert game is not None
        decision = self._decision = game.advance()
        for agent in self.agents:
            self.infos[agent] = {}
        if decision is None:
            self._finish()
            return
        self.agent_selection = self.possible_agents[decision.seat]
        self._mask = self.codec.mask(game, decision).astype(np.int8)
        self.infos[self.agent_selection] = {"action_mask": self._mask, "decision": decision.kind}

    def _finish(self) -> None:
        game = self.game
        assert game is not None
        truncated = game.end_reason in ("turn_limit", "event_limit")
        for seat, agent in enumerate(self.possible_agents):
            if agent not in self.agents:
                continue
            if self.reward == "win" and game.winner is not None:
                self.rewards[agent] += 1.0 if seat == game.winner else -1.0
            self.terminations[agent] = not truncated
            self.truncations[agent] = truncated
        if self.agents:
            self.agent_selection = self.agents[0]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        game, decision = self.game, self._decision
        assert game is not None and decision is not None
        code = whole(action, self.codec.size)
        self._cumulative_rewards[agent] = 0.0
        for name in self.agents:
            self.rewards[name] = 0.0
        answer = self.codec.decode(game, decision, code)
        illegal = not self._mask[code]
        if illegal:  # not legal now: refused (a `refused` event) and the safe answer taken
            game.respond(answer)
        else:
            game.answer(answer)
        if self.reward == "worth":
            start = self.ruleset.starting_cash
            for seat, name in enumerate(self.possible_agents):
                worth = 0 if game.bankrupt[seat] else game.net_worth(seat)
                self.rewards[name] = (worth - self._worth[seat]) / start
                self._worth[seat] = worth
        self._advance()
        if illegal:
            self.infos[agent]["illegal"] = True  # after the next decision's infos are made
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self.game
        assert game is not None
        seat = self.possible_agents.index(agent)
        decision = self._decision if agent == self.agent_selection else None
        mask = self._mask if decision is not None and not (self.terminations.get(agent) or
                                                            self.truncations.get(agent)) \
            else np.zeros(self.codec.size, dtype=np.int8)
        return {"observation": self.observer.observe(game, seat, decision), "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        from ..agents.describe import describe

        game = self.game
        assert game is not None
        seat = self._decision.seat if self._decision is not None else 0
        return describe(game, seat, self._decision)

    def close(self) -> None:
        pass

    def answer_of(self, action: int) -> Any:
        """The engine's answer ``action`` stands for at the pending decision (for reading a policy's choices)."""
        assert self.game is not None and self._decision is not None
        return self.codec.decode(self.game, self._decision, int(action))


def env(**kwargs: Any) -> MonopolyEnv:
    """PettingZoo's usual constructor name."""
    return MonopolyEnv(**kwargs)
