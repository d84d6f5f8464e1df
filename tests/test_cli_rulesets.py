"""The ruleset commands: exit codes, formats, help."""

from __future__ import annotations

import json

from monopoly.ruleset.schema import schema

from .conftest import DATA, RULESETS


def test_validate_builtin_and_path_exit_zero(runner, cli):
    for target in ("classic", "uk", str(RULESETS / "classic.yaml")):
        result = runner.invoke(cli, ["validate", target])
        assert result.exit_code == 0, result.output
        assert result.output.startswith("ok: ")


def test_validate_every_shipped_file(runner, cli):
    files = sorted(str(p) for p in RULESETS.rglob("*.yaml") if p.parent.name != "base")
    assert len(files) >= 7
    result = runner.invoke(cli, ["validate", *files])
    assert result.exit_code == 0, result.output
    assert result.output.count("ok: ") == len(files)


def test_validate_reports_all_problems_of_all_files(runner, cli):
    broken = DATA / "broken"
    result = runner.invoke(cli, ["validate", str(broken / "unknown-key.yaml"), str(broken / "unknown-group.yaml"),
                                 "classic"])
    assert result.exit_code == 1
    assert "unknown key 'prise'" in result.output and "unknown group 'bleu'" in result.output
    assert "ok: classic" in result.output
    assert result.output.rstrip().endswith("2 errors, 0 warnings")


def test_validate_json_lists_problem_fields(runner, cli):
    result = runner.invoke(cli, ["validate", str(DATA / "broken" / "unknown-key.yaml"), "--format", "json"])
    assert result.exit_code == 1
    [problem] = json.loads(result.output)
    assert set(problem) == {"file", "line", "column", "path", "severity", "code", "message", "hint"}
    assert problem["path"] == "board[2].prise"


def test_validate_json_of_a_valid_file_is_an_empty_list(runner, cli):
    result = runner.invoke(cli, ["validate", "classic", "--format", "json"])
    assert result.exit_code == 0 and json.loads(result.output) == []


def test_warnings_do_not_fail(runner, cli, tmp_path):
    path = tmp_path / "spare.yaml"
    path.write_text("id: spare\nname: Spare\nextends: classic\ngroups:\n  spare: {name: Spare, house_cost: 10}\n")
    result = runner.invoke(cli, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert "warning: group 'spare' has no spaces" in result.output


def test_usage_errors_exit_two(runner, cli):
    assert runner.invoke(cli, ["validate"]).exit_code == 2
    assert runner.invoke(cli, ["validate", "missing.yaml"]).exit_code == 2
    result = runner.invoke(cli, ["validate", "clasic"])
    assert result.exit_code == 2 and "did you mean 'classic'?" in result.output
    assert runner.invoke(cli, ["validate", "classic", "--variant", "nope"]).exit_code == 2
    assert runner.invoke(cli, ["validate", "classic", "--bogus"]).exit_code == 2
    assert runner.invoke(cli, ["show", "classic", "--format", "xml"]).exit_code == 2


def test_validate_with_conflicting_variants_exits_one(runner, cli):
    result = runner.invoke(cli, ["validate", "classic", "--variant", "short-game", "--variant", "time-limit"])
    assert result.exit_code == 1
    assert "variants 'short-game' and 'time-limit' set rules.end.when differently" in result.output


def test_list_shows_editions_and_variants_with_descriptions(runner, cli):
    result = runner.invoke(cli, ["list", "--format", "json"])
    assert result.exit_code == 0
    rows = {row["id"]: row for row in json.loads(result.output)}
    assert rows["classic"]["kind"] == "edition" and rows["tournament"]["kind"] == "variant"
    assert all(row["description"] for row in rows.values())
    text = runner.invoke(cli, ["list"]).output
    assert "Editions:" in text and "Variants" in text and "free-parking-jackpot" in text


def test_show_applies_variants(runner, cli):
    result = runner.invoke(cli, ["show", "classic", "--variant", "short-game", "--variant", "free-parking-jackpot",
                                 "--format", "json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["variants"] == ["short-game", "free-parking-jackpot"]
    assert data["rules"]["building"]["houses_per_hotel"] == 3
    assert data["rules"]["end"]["when"] == "bankruptcies" and data["rules"]["end"]["bankruptcies"] == 2
    assert data["rules"]["fees_to"] == "pot"
    assert data["board"][20]["effect"] == "collect pot"


def test_show_of_a_broken_file_exits_one(runner, cli):
    result = runner.invoke(cli, ["show", str(DATA / "broken" / "unknown-key.yaml")])
    assert result.exit_code == 1 and "unknown key 'prise'" in result.output


def test_schema_prints_the_schema(runner, cli):
    result = runner.invoke(cli, ["schema"])
    assert result.exit_code == 0 and json.loads(result.output) == schema()


def test_help_texts(runner, cli):
    for command in ([], ["validate"], ["show"], ["list"], ["schema"]):
        result = runner.invoke(cli, [*command, "--help"])
        assert result.exit_code == 0 and "Usage:" in result.output


def test_shipped_files_start_with_the_schema_line():
    for path in (p for p in RULESETS.rglob("*.yaml") if p.parent.name != "base"):  # base/: defaults, not rulesets
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema=") and first.endswith("schema/ruleset.schema.json")
