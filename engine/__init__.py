"""monopoly: a rules-as-data Monopoly engine.

Editions and house rules are YAML files checked against a JSON Schema; card
and space text is a small effect language. This module is the public API.

>>> import monopoly
>>> classic = monopoly.load_ruleset("classic")
>>> classic.space("Illinois Avenue").rent
(20, 100, 300, 750, 925, 1100)
>>> game = monopoly.Game(classic, [monopoly.make_agent("greedy") for _ in range(3)], seed=1, max_turns=200)
>>> result = game.play()
>>> result.end in ("last_standing", "turn_limit")
True
"""

from __future__ import annotations

from .agents import BOTS, Agent, make_agent
from .game import (
    BANK,
    POT,
    Build,
    Game,
    GameOver,
    IllegalAction,
    Mortgage,
    Result,
    SellBuilding,
    SetupError,
    Standing,
    Trade,
    Unmortgage,
)
from .game.save import SaveError, game_from_json, game_to_json, position_to_json, read_position_file
from .game.state import GameState, Setup, StateError
from .ruleset import (
    Problem,
    Ruleset,
    RulesetError,
    RulesetNotFound,
    builtin_rulesets,
    check_ruleset,
    load_ruleset,
)
from .sim import SimulationResult, simulate
from .stepper import Decision, Stepper

__all__ = [
    "BANK",
    "BOTS",
    "POT",
    "Agent",
    "Build",
    "Decision",
    "Game",
    "GameOver",
    "GameState",
    "IllegalAction",
    "Mortgage",
    "Problem",
    "Result",
    "Ruleset",
    "RulesetError",
    "RulesetNotFound",
    "SaveError",
    "SellBuilding",
    "Setup",
    "SetupError",
    "SimulationResult",
    "Standing",
    "StateError",
    "Stepper",
    "Trade",
    "Unmortgage",
    "builtin_rulesets",
    "check_ruleset",
    "game_from_json",
    "game_to_json",
    "load_ruleset",
    "make_agent",
    "position_to_json",
    "read_position_file",
    "simulate",
]
