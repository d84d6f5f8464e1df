"""monopoly: a rules-as-data Monopoly engine.

Editions and house rules are YAML files checked against a JSON Schema; card
and space text is a small effect language. This module is the public API.

>>> import monopoly
>>> classic = monopoly.load_ruleset("classic")
>>> classic.space("Illinois Avenue").rent
(20, 100, 300, 750, 925, 1100)
"""

from __future__ import annotations

from .ruleset import (
    Problem,
    Ruleset,
    RulesetError,
    RulesetNotFound,
    builtin_rulesets,
    check_ruleset,
    load_ruleset,
)

__all__ = [
    "Problem",
    "Ruleset",
    "RulesetError",
    "RulesetNotFound",
    "builtin_rulesets",
    "check_ruleset",
    "load_ruleset",
]
