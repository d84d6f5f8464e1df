"""Shared fixtures: paths to the repository's data and a CLI runner."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

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
