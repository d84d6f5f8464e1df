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

from typing import Any

from .agents import BOTS, Agent, RecordingAgent, make_agent
from .agents.describe import describe
from .agents.process import AgentProcessError, ProcessAgent, ProcessAgentFactory
from .agents.recorder import ReplayCheck, replay_log
from .effects.host import MAX_GAME_EVENTS
from .files import NotRegularFile, OutputError, open_regular, write_whole
from .files import create as create_file
from .game import (
    BANK,
    POT,
    Bids,
    Build,
    Decision,
    Game,
    GameOver,
    IllegalAction,
    IllegalAnswer,
    Mortgage,
    NoDecision,
    Result,
    SellBuilding,
    SellLot,
    SetupError,
    Standing,
    Trade,
    Trades,
    Unmortgage,
    UseCard,
    play,
)
from .game.actions import Action
from .game.actions import verify as verify_action
from .game.core import TURN_CEILING, compiled
from .game.decisions import MAX_AGENT_NAME, safe_name
from .game.events import RULES_VERSION
from .game.log import EventLog, LogError, read_log
from .game.log import check_references as check_log_references
from .game.replay import Replay
from .game.save import (
    SaveError,
    game_from_json,
    game_to_json,
    position_to_json,
    read_position_file,
    read_save_file,
)
from .game.state import GameState, Setup, StateError
from .ruleset import (
    ERROR,
    MAX_PROBLEMS,
    NOTE,
    WARNING,
    Problem,
    Ruleset,
    RulesetError,
    RulesetNotFound,
    builtin_rulesets,
    check_ruleset,
    find_ruleset,
    is_builtin_name,
    load_ruleset,
)
from .ruleset.load import load_file as read_ruleset_document
from .ruleset.problems import escape
from .ruleset.schema import schema_text as ruleset_schema_text
from .sim import AgentFailure, SimulationResult, Summary, dedicate_process, simulate

#: The workbench (analysis, pictures, reports, scaffolds), imported on first use: it is not needed to play.
_LAZY = {
    "analyze": ("monopoly.analysis.analyze", "analyze"),
    "landing_odds": ("monopoly.analysis.markov", "landing_odds"),
    "ChainTooLarge": ("monopoly.analysis.markov", "ChainTooLarge"),
    "render_board_svg": ("monopoly.analysis.render", "render_board_svg"),
    "render_report_html": ("monopoly.analysis.report", "render_report_html"),
    "ScaffoldError": ("monopoly.analysis.scaffold", "ScaffoldError"),
    "check_edition_id": ("monopoly.analysis.scaffold", "check_id"),
    "extends_reference": ("monopoly.analysis.scaffold", "extends_reference"),
    "scaffold_edition": ("monopoly.analysis.scaffold", "scaffold_edition"),
    "schema_reference": ("monopoly.analysis.scaffold", "schema_reference"),
    "BACKENDS": ("monopoly.sim", "BACKENDS"),
    "BackendError": ("monopoly.sim", "BackendError"),
    "ray_available": ("monopoly.sim", "ray_available"),
    "COMPARE_FIGURES": ("monopoly.analysis.compare", "FAMILIES"),
    "Comparison": ("monopoly.analysis.compare", "Comparison"),
    "compare": ("monopoly.analysis.compare", "compare"),
    "render_compare_html": ("monopoly.analysis.compare_page", "render_compare_html"),
    "BalanceResult": ("monopoly.analysis.balance", "BalanceResult"),
    "balance": ("monopoly.analysis.balance", "balance"),
    "create_web_app": ("monopoly.web.server", "create_app"),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        module, attribute = _LAZY[name]
        value = getattr(importlib.import_module(module), attribute)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'monopoly' has no attribute {name!r}")


__all__ = [
    "BACKENDS",
    "BANK",
    "BOTS",
    "COMPARE_FIGURES",
    "ERROR",
    "MAX_AGENT_NAME",
    "MAX_GAME_EVENTS",
    "MAX_PROBLEMS",
    "NOTE",
    "POT",
    "RULES_VERSION",
    "TURN_CEILING",
    "WARNING",
    "Action",
    "Agent",
    "AgentFailure",
    "AgentProcessError",
    "BackendError",
    "BalanceResult",
    "Bids",
    "Build",
    "ChainTooLarge",
    "Comparison",
    "Decision",
    "EventLog",
    "Game",
    "GameOver",
    "GameState",
    "IllegalAction",
    "IllegalAnswer",
    "LogError",
    "Mortgage",
    "NoDecision",
    "NotRegularFile",
    "OutputError",
    "Problem",
    "ProcessAgent",
    "ProcessAgentFactory",
    "RecordingAgent",
    "Replay",
    "ReplayCheck",
    "Result",
    "Ruleset",
    "RulesetError",
    "RulesetNotFound",
    "SaveError",
    "ScaffoldError",
    "SellBuilding",
    "SellLot",
    "Setup",
    "SetupError",
    "SimulationResult",
    "Standing",
    "StateError",
    "Summary",
    "Trade",
    "Trades",
    "Unmortgage",
    "UseCard",
    "analyze",
    "balance",
    "builtin_rulesets",
    "check_edition_id",
    "check_log_references",
    "check_ruleset",
    "compare",
    "compiled",
    "create_file",
    "create_web_app",
    "dedicate_process",
    "describe",
    "escape",
    "extends_reference",
    "find_ruleset",
    "game_from_json",
    "game_to_json",
    "is_builtin_name",
    "landing_odds",
    "load_ruleset",
    "make_agent",
    "open_regular",
    "play",
    "position_to_json",
    "ray_available",
    "read_log",
    "read_position_file",
    "read_ruleset_document",
    "read_save_file",
    "render_board_svg",
    "render_compare_html",
    "render_report_html",
    "replay_log",
    "ruleset_schema_text",
    "safe_name",
    "scaffold_edition",
    "schema_reference",
    "simulate",
    "verify_action",
    "write_whole",
]
