"""The corpus of hostile saves and logs (tests/data/hostile/EXPECTED.yaml) through the real commands.

Each file gets the exit code and the words its entry names; none may crash (exit
70 or an exception), print a traceback, reach the terminal with a control
character, or touch a file beside it. The rulesets of the corpus are checked in
tests/test_hostile_rulesets.py, the draws in tests/test_analysis_draws.py.
"""

from __future__ import annotations

import os
import shutil

import pytest
import yaml
from click.testing import CliRunner

from .conftest import DATA

HOSTILE = DATA / "hostile"
EXPECTED = yaml.safe_load((HOSTILE / "EXPECTED.yaml").read_text(encoding="utf-8"))


def test_the_corpus_lists_every_file():
    files = sorted(f"{kind}/{p.name}" for kind in ("saves", "logs") for p in (HOSTILE / kind).iterdir())
    assert files == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hostile_save_or_log(name, tmp_path, monkeypatch):
    from monopoly.cli.main import cli

    case = EXPECTED[name]
    copy = tmp_path / os.path.basename(name)
    shutil.copyfile(HOSTILE / name, copy)
    victim = tmp_path / "victim.txt"
    victim.write_text("years of work\n")
    monkeypatch.chdir(tmp_path)
    args = ["play", "--resume", str(copy)] if name.startswith("saves/") else ["replay", str(copy), "--verify"]
    result = CliRunner().invoke(cli, args, input="")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == case["exit"], result.output
    assert case["words"] in result.output
    assert "Traceback" not in result.output
    assert not any(char in result.output for char in "\x00\x07\x1b\x9b")
    assert len(result.output) < 20_000
    assert victim.read_text() == "years of work\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([copy.name, "victim.txt"])
