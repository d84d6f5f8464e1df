"""Shared fixtures: paths to the repository's data and a CLI runner; the property tests' profile.

The default run draws the same examples every time (hypothesis's ``derandomize``): a run on a clean clone gives
the verdict the last run gave, and finding new failures is the work of the long campaigns
(``pytest -m slow``) and of ``HYPOTHESIS_PROFILE=explore pytest``, which draws new examples each run.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import settings

settings.register_profile("fixed", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fixed"))

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
RULESETS = ROOT / "rulesets"


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def cli():
    from monopoly.cli.main import cli as command

    return command
