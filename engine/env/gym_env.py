"""The Gymnasium single-seat environment (docs/env.md): one seat learns, the others are agents (bots by name, or
agent objects); each step answers one decision of the learner's seat, and the others' decisions are answered
in between by their agents."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..agents import make_agent
from ..game.decisions import Caller, Decision, ask_agent
from ..game.game import Game
from ..ruleset import Ruleset
from .codec import Codec, codec_for, whole
from .observation import Observer
from .pettingzoo_env import table_of

#: The decisions a hybrid learner keeps (``hybrid=True``): the rest, rarer, its helper bot answers.
HYBRID_KEEPS = ("buy", "act", "between")


class MonopolySeatEnv(gymnasium.Env):  # observations and actions: see the docstring
    """One learning seat against agents: ``MonopolySeatEnv(ruleset="classic", opponents=("greedy",) * 3,
    seat=0, max_turns=1000, reward="win", hybrid=False)``.

    ``opponents`` are bot names, ``module:Class`` names of agent classes (a new agent each game), agent classes, or
    agent objects (an object is set up afresh at each reset), one a seat in seat order without the learner's.
    Observations are the vector of :mod:`monopoly.env.observation`, actions the codes of
    :mod:`monopoly.env.codec`; ``action_masks()`` gives the legal ones (sb3-contrib's MaskablePPO asks
    it), as ``info["action_mask"]`` does. An action outside the mask is refused by the engine, which takes the
    answer that risks nothing (``info["illegal"]``). With ``hybrid``, a ``helper`` bot (greedy by default)
    answers the learner's rarer decisions (bids, jail, choices, trade offers, debts, mortgages handed over), as
    the hybrid agents of the RL literature do; the learner keeps buying, building and trading.
    """

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - gymnasium's Env declares it an instance variable

    def __init__(self, ruleset: Ruleset | str = "classic", variants: Sequence[str] = (),
                 opponents: Sequence[Any] = ("greedy", "greedy", "greedy"), *, seat: int = 0, max_turns: int = 1000,
                 reward: str = "win", hybrid: bool = False, helper: str = "greedy", render_mode: str | None = None):
        super().__init__()
        self.players = len(opponents) + 1
        self.ruleset = table_of(ruleset, variants, self.players, reward, render_mode)
        if not 0 <= seat < self.players:
            raise ValueError(f"the learner's seat is from 0 to {self.players - 1}")
        self.opponents = [_agent_class(o) if isinstance(o, str) and ":" in o else o for o in opponents]
        for opponent in self.opponents:
            if isinstance(opponent, str):
                make_agent(opponent)  # an unknown name fails now, with a "did you mean"
        self.seat = seat
        self.max_turns = max_turns
        self.reward = reward
        self.hybrid = hybrid
        self.helper_name = helper
        make_agent(helper)
        self.render_mode = render_mode
        self.codec: Codec = codec_for(self.ruleset)
        self.observer = Observer(self.ruleset, self.players, self.codec.choices)
        self.observation_space = spaces.Box(low=0.0, high=np.inf, shape=(self.observer.size,), dtype=np.float32)
        self.action_space = spaces.Discrete(self.codec.size)
        self.game: Game | None = None
        self._decision: Decision | None = None
        self._mask = np.zeros(self.codec.size, dtype=bool)
        self._worth = 0

    def _agents(self) -> list[Any]:
        others = [make_agent(o) if isinstance(o, str) else o() if isinstance(o, type) else o
                  for o in self.opponents]
        others.insert(self.seat, Caller())
        return others

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(0, 2**31 - 1))
        self.game = Game(self.ruleset, self._agents(), seed=game_seed, max_turns=self.max_turns)
        self._helper = make_agent(self.helper_name)
        self._helper.setup(self.game, self.seat, _seeded(game_seed))
        self._worth = self.ruleset.starting_cash
        self._run_others()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        game, decision = self.game, self._decision
        if game is None or decision is None:
            raise RuntimeError("the game is over (or not started): reset the environment")
        code = whole(action, self.codec.size)
        answer = self.codec.decode(game, decision, code)
        illegal = not self._mask[code]
        if illegal:
            game.respond(answer)  # refused: the safe answer taken
        else:
            game.answer(answer)
        self._run_others()
        reward = 0.0
        if self.reward == "worth":
            worth = 0 if game.bankrupt[self.seat] else game.net_worth(self.seat)
            reward = (worth - self._worth) / self.ruleset.starting_cash
            self._worth = worth
        terminated = truncated = False
        if game.finished:
            truncated = game.end_reason in ("turn_limit", "event_limit")
            terminated = not truncated
            if self.reward == "win" and game.winner is not None:
                reward = 1.0 if game.winner == self.seat else -1.0
        info = self._info()
        if illegal:
            info["illegal"] = True
        return self._observation(), reward, terminated, truncated, info

    def _run_others(self) -> None:
        """Answer every decision that is not the learner's (the hybrid helper's too) until the learner is asked
        or the game ends."""
        game = self.game
        assert game is not None
        while True:
            decision = game.advance()
            if decision is None:
                self._decision = None
                self._mask[:] = False
                return
            if decision.seat == self.seat and not (self.hybrid and decision.kind not in HYBRID_KEEPS):
                self._decision = decision
                self._mask = self.codec.mask(game, decision)
                return
            agent = self._helper if decision.seat == self.seat else game.agents[decision.seat]
            game.respond(ask_agent(agent, game, decision))

    def _observation(self) -> np.ndarray:
        assert self.game is not None
        return self.observer.observe(self.game, self.seat, self._decision)

    def _info(self) -> dict[str, Any]:
        kind = self._decision.kind if self._decision is not None else None
        return {"action_mask": self._mask.copy(), "decision": kind}

    def action_masks(self) -> np.ndarray:
        """The legal actions now (sb3-contrib's MaskablePPO calls this)."""
        return self._mask.copy()

    def answer_of(self, action: int) -> Any:
        """The engine's answer ``action`` stands for at the learner's pending decision."""
        assert self.game is not None and self._decision is not None
        return self.codec.decode(self.game, self._decision, int(action))

    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        from ..agents.describe import describe

        return describe(self.game, self.seat, self._decision)


def _agent_class(text: str) -> type:
    """The agent class ``module:Class`` names (imported as ``import module`` finds it); a new agent of it is
    made at each reset."""
    import importlib

    module_name, _, class_name = text.partition(":")
    found = getattr(importlib.import_module(module_name), class_name, None)
    if not isinstance(found, type):
        raise ValueError(f"{text!r}: {module_name} has no agent class {class_name}")
    return found


def _seeded(seed: int) -> Any:
    from ..game.game import SeatRandom

    return SeatRandom(seed * 1_000_003 + 999_983)
