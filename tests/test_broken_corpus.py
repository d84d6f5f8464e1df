"""Every file in tests/data/broken/ is reported at its exact place, with exit 1 and no traceback."""

from __future__ import annotations

import json

import pytest
import yaml

from .conftest import DATA

BROKEN = DATA / "broken"
EXPECTED = yaml.safe_load((BROKEN / "EXPECTED.yaml").read_text(encoding="utf-8"))


def test_every_broken_file_has_an_expectation():
    files = {p.name for p in BROKEN.glob("*.yaml") if p.name != "EXPECTED.yaml"}
    assert files == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_broken_file_is_reported_where_it_is_wrong(name, runner, cli):
    expected = EXPECTED[name]
    path = BROKEN / name
    result = runner.invoke(cli, ["validate", str(path), "--format", "json"])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    problems = [p for p in json.loads(result.output) if p["severity"] == "error"]
    first = problems[0]
    assert first["file"].endswith(name)
    assert (first["line"], first["column"], first["code"]) == (expected["line"], expected["column"], expected["code"])
    assert expected["message"] in first["message"]
    if "hint" in expected:
        assert expected["hint"] in first["hint"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_text_output_is_compiler_style(name, runner, cli):
    expected = EXPECTED[name]
    result = runner.invoke(cli, ["validate", str(BROKEN / name)])
    assert result.exit_code == 1
    first = result.output.splitlines()[0]
    assert f":{expected['line']}:{expected['column']}: error: " in first
    assert "Traceback" not in result.output
