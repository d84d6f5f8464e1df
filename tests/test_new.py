"""`monopoly new`: a new edition file that validates as written, with every section explained."""

from __future__ import annotations

import doctest
import re
import shutil
from pathlib import Path

import pytest
import yaml

from monopoly.analysis import scaffold
from monopoly.analysis.scaffold import check_id, installed_schema, schema_reference, suggest_id

from .conftest import DATA, ROOT

GOOD = DATA / "good"
SECTIONS = ("currency:", "bank:", "spaces:", "groups:", "decks:", "rules:", "triggers:")


def uncomment_examples(text: str) -> str:
    """The file with every example line (a single ``# ``) made live and the explanations (``##``) dropped."""
    lines = []
    for number, line in enumerate(text.splitlines()):
        if number == 0 or line.startswith("##") or not line.startswith("# "):
            lines.append(line)
        else:
            lines.append(line[2:])
    return "\n".join(lines) + "\n"


def test_docstring_examples():
    failures, tried = doctest.testmod(scaffold)
    assert tried > 0 and failures == 0


def test_new_writes_a_valid_edition_extending_classic(runner, cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(cli, ["new", "seaside"])
    assert result.exit_code == 0, result.output
    path = tmp_path / "seaside.yaml"
    text = path.read_text(encoding="utf-8")
    # outside the repository the schema line names the installed schema by its absolute path
    assert text.splitlines()[0] == f"# yaml-language-server: $schema={installed_schema().resolve().as_posix()}"
    assert Path(text.splitlines()[0].split("$schema=", 1)[1]).is_file()
    data = yaml.safe_load(text)
    assert data == {"id": "seaside", "name": "Seaside", "extends": "classic",
                    "description": "A new edition built on Monopoly (US, classic)."}
    for section in SECTIONS:
        example = re.search(rf"^# {re.escape(section)}", text, flags=re.M)
        explained = re.search(rf"^## {re.escape(section)} ", text, flags=re.M)
        assert example and explained, f"{section} is not explained with an example"
    validated = runner.invoke(cli, ["validate", str(path)])
    assert validated.exit_code == 0, validated.output
    assert validated.output.startswith("ok: ")


@pytest.mark.parametrize("base", ["classic", "uk", str(GOOD / "harbour-24.yaml"), str(GOOD / "metro-48.yaml"),
                                  str(GOOD / "mini.yaml")])
def test_the_examples_are_valid_too(base, runner, cli, tmp_path):
    """Uncommenting every example still gives a valid edition: the examples use the base's own names."""
    path = tmp_path / "mine.yaml"
    result = runner.invoke(cli, ["new", "mine", "--from", base, "-o", str(path)])
    assert result.exit_code == 0, result.output
    assert runner.invoke(cli, ["validate", str(path)]).exit_code == 0
    live = tmp_path / "live.yaml"
    live.write_text(uncomment_examples(path.read_text(encoding="utf-8")), encoding="utf-8")
    data = yaml.safe_load(live.read_text(encoding="utf-8"))
    assert {"currency", "bank", "spaces", "decks", "rules", "triggers"} <= set(data)
    validated = runner.invoke(cli, ["validate", str(live)])
    assert validated.exit_code == 0, live.read_text(encoding="utf-8") + validated.output


def test_from_a_file_extends_it_by_a_relative_path(runner, cli, tmp_path):
    folder = tmp_path / "editions"
    folder.mkdir()
    shutil.copy(GOOD / "harbour-24.yaml", folder / "harbour.yaml")
    out = tmp_path / "mine" / "quay.yaml"
    out.parent.mkdir()
    result = runner.invoke(cli, ["new", "quay", "--from", str(folder / "harbour.yaml"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert yaml.safe_load(out.read_text(encoding="utf-8"))["extends"] == "../editions/harbour.yaml"
    validated = runner.invoke(cli, ["validate", str(out)])
    assert validated.exit_code == 0 and "(24 spaces" in validated.output


def test_inside_the_repository_the_schema_line_is_relative():
    schema = installed_schema().resolve()
    if schema.parent.parent != ROOT.resolve():
        pytest.skip("the package is not installed from this checkout (editable)")
    assert schema_reference(ROOT / "rulesets" / "mine.yaml") == "../schema/ruleset.schema.json"
    assert schema_reference(ROOT / "tests" / "data" / "good" / "x.yaml") == "../../../schema/ruleset.schema.json"
    assert schema_reference(ROOT / "mine.yaml") == "schema/ruleset.schema.json"


def test_schema_line_written_in_the_repository_resolves(runner, cli):
    schema = installed_schema().resolve()
    if schema.parent.parent != ROOT.resolve():
        pytest.skip("the package is not installed from this checkout (editable)")
    folder = ROOT / "test-artifacts" / "scaffold"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "inside.yaml"
    path.unlink(missing_ok=True)
    try:
        assert runner.invoke(cli, ["new", "inside", "-o", str(path)]).exit_code == 0
        line = path.read_text(encoding="utf-8").splitlines()[0]
        reference = line.split("$schema=", 1)[1]
        assert not reference.startswith("/") and (folder / reference).resolve() == schema
    finally:
        path.unlink(missing_ok=True)


def test_schema_reference_of_another_tree(tmp_path):
    schema = tmp_path / "site" / "monopoly" / "schema" / "ruleset.schema.json"
    assert schema_reference(tmp_path / "elsewhere" / "x.yaml", schema) == schema.resolve().as_posix()
    assert schema_reference(tmp_path / "site" / "monopoly" / "x.yaml", schema) == "schema/ruleset.schema.json"


def test_never_overwrites(runner, cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    existing = tmp_path / "seaside.yaml"
    existing.write_text("# mine, do not touch\n", encoding="utf-8")
    result = runner.invoke(cli, ["new", "seaside"])
    assert result.exit_code == 1
    assert "already exists" in result.output
    assert existing.read_text(encoding="utf-8") == "# mine, do not touch\n"
    other = tmp_path / "other.yaml"
    other.write_text("x: 1\n", encoding="utf-8")
    assert runner.invoke(cli, ["new", "seaside", "-o", str(other)]).exit_code == 1
    assert other.read_text(encoding="utf-8") == "x: 1\n"


@pytest.mark.parametrize(("name", "suggestion"), [
    ("My Edition", "my-edition"),
    ("Seaside", "seaside"),
    ("sea_side", "sea-side"),
    ("2024-rules", "edition-2024-rules"),
    ("-seaside", "seaside"),
    ("a" * 65, "a" * 64),
    ("***", None),
])
def test_invalid_names_are_usage_errors_with_a_hint(name, suggestion, runner, cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(cli, ["new", "--", name])  # "--": a name may start with a dash
    assert result.exit_code == 2
    assert "not a valid edition id" in result.output
    assert "lowercase letters, digits and dashes" in result.output
    if suggestion:
        assert f"try '{suggestion}'" in result.output
    assert list(tmp_path.iterdir()) == []


def test_valid_ids():
    for name in ("classic", "seaside", "my-edition-2", "a"):
        check_id(name)
    assert suggest_id("Harbour Town!") == "harbour-town"


def test_from_must_be_an_edition_that_exists(runner, cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    variant = runner.invoke(cli, ["new", "x", "--from", "short-game"])
    assert variant.exit_code == 2 and "is a variant" in variant.output
    unknown = runner.invoke(cli, ["new", "x", "--from", "classik"])
    assert unknown.exit_code == 2 and "did you mean 'classic'" in unknown.output
    broken = runner.invoke(cli, ["new", "x", "--from", str(DATA / "broken" / "unknown-key.yaml")])
    assert broken.exit_code == 1 and "unknown key 'prise'" in broken.output
    assert list(tmp_path.iterdir()) == []


def test_cannot_write(runner, cli, tmp_path):
    result = runner.invoke(cli, ["new", "x", "-o", str(tmp_path / "missing" / "x.yaml")])
    assert result.exit_code == 1 and "x.yaml: it cannot be written (No such file or directory)" in result.output


def test_help_lists_the_workbench_commands(runner, cli):
    result = runner.invoke(cli, ["--help"])
    assert result.exit_code == 0
    assert re.search(r"^\s+render\s", result.output, flags=re.M)
    assert re.search(r"^\s+new\s", result.output, flags=re.M)
