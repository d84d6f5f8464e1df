"""One call for the whole analysis of a ruleset: exact odds and money tables, as JSON data."""

from __future__ import annotations

from typing import Any

from ..ruleset.model import Ruleset
from .markov import landing_odds
from .money import money_tables


def analyze(ruleset: Ruleset, jail: str = "short") -> dict[str, Any]:
    """``{"ruleset", "variants", "jail", "landing": [...], "in_jail", "rolls_per_turn", "money": {...}}``."""
    odds = landing_odds(ruleset, jail)
    data = odds.to_json()
    data["variants"] = list(ruleset.variants)
    data["currency"] = ruleset.currency
    data["money"] = money_tables(ruleset, odds)
    return data
