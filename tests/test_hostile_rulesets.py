"""Ruleset files from strangers: never leak another file, never flood, never crash (docs/security.md)."""

from __future__ import annotations

import json
import os
import tracemalloc
from pathlib import Path

import pytest

from monopoly.ruleset import check_ruleset, find_ruleset
from monopoly.ruleset.compose import RulesetNotFound
from monopoly.ruleset.load import MAX_NODES, load_bytes
from monopoly.ruleset.problems import EXCERPT_WIDTH, Problem, RulesetError, cap_per_file, excerpt

from .conftest import DATA

HOSTILE = DATA / "hostile" / "rulesets"
SECRET = "SECRET-TOKEN"


def validate(runner, cli, *args: str):
    return runner.invoke(cli, ["validate", *args], catch_exceptions=False)


@pytest.fixture
def secrets(tmp_path) -> dict[str, Path]:
    """Files a stranger's ruleset might try to reach: no extension, YAML without `id`, YAML that does not parse."""
    folder = tmp_path / "private"
    folder.mkdir()
    plain = folder / "shadow"
    plain.write_text(f"root:{SECRET}-1:19000:0:99999:7:::\nuser:{SECRET}-2:19000\n")
    mapping = folder / "config.yaml"
    mapping.write_text(f"password: {SECRET}-3\nboard: {SECRET}-4\n")
    broken = folder / "notes.yml"
    broken.write_text(f"{SECRET}-5: [\n{SECRET}-6\n")
    return {"plain": plain, "mapping": mapping, "broken": broken}


def _relative(path: Path, start: Path) -> str:
    return os.path.relpath(path, start)


@pytest.mark.parametrize("which", ["plain", "mapping", "broken"])
@pytest.mark.parametrize("form", ["absolute", "dotdot"])
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_extends_never_shows_another_file(runner, cli, tmp_path, secrets, which, form, fmt):
    edition = tmp_path / "work" / "deep" / "mine.yaml"
    edition.parent.mkdir(parents=True)
    target = secrets[which]
    named = str(target) if form == "absolute" else _relative(target, edition.parent)
    edition.write_text(f"id: mine\nname: Mine\nextends: {named}\n")
    result = validate(runner, cli, str(edition), "--format", fmt)
    assert result.exit_code == 1
    assert SECRET not in result.output
    if fmt == "json":
        assert json.loads(result.output)


@pytest.mark.parametrize("which", ["plain", "mapping", "broken"])
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_variant_path_never_shows_another_file(runner, cli, secrets, which, fmt):
    result = runner.invoke(cli, ["validate", "classic", "--variant", str(secrets[which]), "--format", fmt])
    assert result.exit_code in (1, 2)
    assert SECRET not in result.output


@pytest.mark.parametrize("which", ["plain", "mapping", "broken"])
def test_a_file_that_is_not_a_ruleset_is_one_line_naming_it(runner, cli, secrets, which):
    result = runner.invoke(cli, ["validate", str(secrets[which])])
    assert result.exit_code in (1, 2)
    assert SECRET not in result.output
    problem_lines = [line for line in result.output.splitlines() if ": error: " in line or "Error:" in line]
    assert len(problem_lines) == 1
    assert secrets[which].name in result.output


def test_only_yaml_files_are_rulesets(tmp_path):
    plain = tmp_path / "rules.txt"
    plain.write_text("id: x\nname: X\nextends: classic\n")
    with pytest.raises(RulesetNotFound, match=r"only \.yaml and \.yml"):
        find_ruleset(str(plain))
    (tmp_path / "rules.YML").write_text("id: x\nname: X\nextends: classic\n")
    assert find_ruleset(str(tmp_path / "rules.YML")).name == "rules.YML"


def test_a_bare_name_is_a_builtin_even_when_a_file_has_that_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "classic").write_text("not a ruleset")
    assert find_ruleset("classic").name == "classic.yaml"
    assert find_ruleset("classic").parent != tmp_path


def test_a_device_or_a_folder_named_yaml_is_refused(tmp_path):
    folder = tmp_path / "folder.yaml"
    folder.mkdir()
    with pytest.raises(RulesetNotFound, match="not a regular file"):
        find_ruleset(str(folder))
    if os.path.exists("/dev/null"):
        link = tmp_path / "null.yaml"
        link.symlink_to("/dev/null")
        with pytest.raises(RulesetNotFound, match="not a regular file"):
            find_ruleset(str(link))


def test_a_pipe_named_yaml_does_not_hang(tmp_path):
    pipe = tmp_path / "pipe.yaml"
    os.mkfifo(pipe)
    with pytest.raises(RulesetNotFound, match="not a regular file"):
        find_ruleset(str(pipe))
    from monopoly.ruleset.load import load_file

    with pytest.raises(RulesetError, match="not a regular file"):  # swapped in after the check: still no hang
        load_file(pipe)


@pytest.mark.parametrize("name", ["a" * 300, "a" * 300 + ".yaml", "x/" * 3000 + "y.yaml"])
def test_overlong_extends_is_a_located_problem(tmp_path, name):
    edition = tmp_path / "long.yaml"
    edition.write_text(f"id: long\nname: Long\nextends: {name}\n")
    ruleset, problems = check_ruleset(edition)
    assert ruleset is None
    assert problems[0].line == 3 and problems[0].code in ("unknown-extends", "bad-size")
    assert len(problems[0].format()) < 1000


# ---------------------------------------------------------------------- the corpus

CORPUS = {
    # file: (code of the first problem, line, column, words in its message)
    "tag-set.yaml": ("unsafe-tag", 2, 7, "!!set"),
    "tag-pairs.yaml": ("unsafe-tag", 2, 7, "!!pairs"),
    "tag-omap.yaml": ("unsafe-tag", 2, 7, "!!omap"),
    "tag-binary.yaml": ("unsafe-tag", 2, 7, "!!binary"),
    "tag-timestamp.yaml": ("unsafe-tag", 2, 7, "!!timestamp"),
    "tag-python.yaml": ("unsafe-tag", 2, 7, "python/object"),
    "tag-float-empty.yaml": ("bad-value", 2, 7, "is not a valid !!float"),
    "tag-int-empty.yaml": ("bad-value", 2, 7, "is not a valid !!int"),
    "tag-int-abc.yaml": ("bad-value", 2, 7, "'abc' is not a valid !!int"),
    "tag-float-abc.yaml": ("bad-value", 2, 7, "'abc' is not a valid !!float"),
    "tag-int-0x.yaml": ("bad-value", 2, 7, "'0x' is not a valid !!int"),
    "tag-float-dot.yaml": ("bad-value", 2, 7, "'.' is not a valid !!float"),
    "tag-bool-maybe.yaml": ("bad-value", 2, 7, "'maybe' is not a valid !!bool"),
    "tag-bool-empty.yaml": ("bad-value", 2, 7, "'' is not a valid !!bool"),
    "tag-float-0b.yaml": ("bad-value", 2, 7, "'0b101' is not a valid !!float"),
    "nan-sell-back.yaml": ("not-finite", 6, 16, "'.nan' is not a finite number"),
    "nan-interest.yaml": ("not-finite", 6, 15, "'.NaN' is not a finite number"),
    "inf-salary.yaml": ("not-finite", 5, 11, "'.inf' is not a finite number"),
    "neg-inf.yaml": ("not-finite", 6, 15, "'-.Inf' is not a finite number"),
    "float-overflow.yaml": ("not-finite", 6, 15, "is not a finite number"),
    "huge-int.yaml": ("bad-value", 5, 11, "is not a valid !!int"),
    "extends-long.yaml": ("unknown-extends", 3, 10, "cannot find the edition"),
    "extends-long-path.yaml": ("bad-size", 3, 10, "at most"),
    "extends-not-yaml.yaml": ("unknown-extends", 3, 10, "'/etc/passwd'"),
    "extends-dotdot.yaml": ("unknown-extends", 3, 10, "cannot find the edition"),
    "extends-dev.yaml": ("unknown-extends", 3, 10, "cannot find the edition"),
    "escape-in-name.yaml": ("bad-character", 2, 7, "U+001B (ESCAPE)"),
    "nul-escape.yaml": ("bad-character", 2, 7, "U+0000 (NUL)"),
    "bell-escape.yaml": ("bad-character", 2, 7, "U+0007"),
    "raw-escape.yaml": ("bad-character", 3, 3, "U+001B (ESCAPE)"),
    "line-separator.yaml": ("bad-character", 2, 11, "U+2028 (LINE SEPARATOR)"),
    "bidi-override.yaml": ("bad-character", 2, 11, "U+202E (RIGHT-TO-LEFT OVERRIDE)"),
    "next-line.yaml": ("bad-character", 2, 9, "U+0085 (NEXT LINE)"),
    "lone-cr.yaml": ("bad-character", 1, 9, "U+000D (CARRIAGE RETURN)"),
    "bom-inside.yaml": ("bad-character", 2, 9, "U+FFFE"),
    "binary.yaml": ("encoding", 2, 118, "not valid UTF-8"),
    "not-utf8-secret.yaml": ("encoding", 1, 14, "byte 0xff is not valid UTF-8"),
    "no-id.yaml": ("not-a-ruleset", 1, 1, "has no `id:` key"),
    "list.yaml": ("not-a-mapping", 1, 1, "not a ruleset file"),
    "scalar.yaml": ("not-a-mapping", 1, 1, "not a ruleset file"),
    "broken-yaml-no-id.yaml": ("not-a-ruleset", 2, 5, "not valid YAML before any `id:` key"),
}


def test_the_corpus_lists_every_file():
    assert sorted(CORPUS) == sorted(p.name for p in HOSTILE.glob("*.yaml"))


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_hostile_file_is_one_located_problem(runner, cli, name):
    code, line, column, words = CORPUS[name]
    ruleset, problems = check_ruleset(HOSTILE / name)
    assert ruleset is None
    first = problems[0]
    assert (first.code, first.line, first.column) == (code, line, column)
    assert words in first.message
    result = validate(runner, cli, str(HOSTILE / name))
    assert result.exit_code == 1
    assert f"{name}:{line}:{column}: error: " in result.output
    assert "\x1b" not in result.output and "\x00" not in result.output and "\x07" not in result.output
    assert SECRET not in result.output


def test_a_file_with_a_control_character_is_located_where_editors_count(runner, cli):
    result = validate(runner, cli, str(HOSTILE / "raw-escape.yaml"))
    assert "raw-escape.yaml:3:3:" in result.output and "U+001B (ESCAPE)" in result.output
    assert "\x1b" not in result.output and "cleared" not in result.output  # located, not quoted


def test_locations_use_line_feeds_only():
    # U+2028 after line 1 would make the YAML reader count one more line than an editor
    doc = load_bytes(b"id: x\nname: 'a'\nrent: [1, 2]\n", "f.yaml")
    assert doc.mark(("rent",)).line == 3
    with pytest.raises(RulesetError) as caught:
        load_bytes("id: x\nname: 'a\u2028b'\nrent: [1, 2]\n".encode(), "f.yaml")
    assert (caught.value.problems[0].line, caught.value.problems[0].column) == (2, 9)


def test_crlf_files_are_fine():
    doc = load_bytes(b"id: x\r\nname: X\r\nrent: [1, 2]\r\n", "f.yaml")
    assert doc.data["rent"] == [1, 2] and doc.mark(("rent",)).line == 3
    assert doc.source_line(3) == "rent: [1, 2]"


@pytest.mark.parametrize("value", ['"tab\\there"', '"line\\nbreak"', "plain text", "'£ and ü'"])
def test_printable_text_and_tabs_and_line_feeds_stay_allowed(value):
    doc = load_bytes(f"id: x\nname: {value}\n".encode(), "f.yaml")
    assert isinstance(doc.data["name"], str)


def test_explicit_plain_tags_still_work():
    doc = load_bytes(b"id: !!str 12\nprice: !!int '40'\nrate: !!float 1\nflag: !!bool yes\nnone: !!null ''\n",
                     "f.yaml")
    assert doc.data == {"id": "12", "price": 40, "rate": 1.0, "flag": True, "none": None}


# ---------------------------------------------------------------------- bounded output


def test_an_excerpt_is_a_window_around_the_column():
    line = "x" * 50_000 + "HERE" + "y" * 50_000
    shown, caret = excerpt(line, 50_001)
    assert len(shown) <= EXCERPT_WIDTH + 6
    assert shown[caret - 1: caret + 3] == "HERE"
    short, at = excerpt("price: ten", 8)
    assert (short, at) == ("price: ten", 8)


def test_a_problem_is_bounded_and_escaped_whatever_it_holds():
    problem = Problem("f.yaml", 1, 70_000, "x", "unknown key '" + "\x1b[2J" * 10_000 + "'",
                      hint="h" * 10_000, source_line="\x1b]0;title\x07" + "z" * 100_000)
    text = problem.format()
    assert len(text) < 1200 and "\x1b" not in text and "\x07" not in text
    assert len(json.dumps(problem.to_json())) < 1200


def _big_files(folder: Path) -> dict[str, Path]:
    files = {
        "one-line": "id: x\nname: X\nboard: [" + ",".join(["0"] * 99_990) + "]\n",
        "80k-keys": "id: x\nname: X\n" + "".join(f"k{i}: 1\n" for i in range(80_000)),
        "19k-keys": "id: x\nname: X\n" + "".join(f"k{i}: 1\n" for i in range(19_990)),
        "long-key": "id: x\nname: X\nextends: classic\n" + "k" * 200_000 + ": 1\n",
        "long-line": "id: x\nname: X\nextends: classic\nrules: {salary: 200, "
                     + "".join(f"a{i}: 1, " for i in range(19_000)) + "}\n",
        "many-cards": "id: c\nname: C\nextends: classic\ndecks:\n  chance:\n    name: Chance\n    cards:\n"
                      + "".join(f"      - {{text: t{i}, effect: pay pay}}\n" for i in range(199)),
    }
    paths = {}
    for name, text in files.items():
        paths[name] = folder / f"{name}.yaml"
        paths[name].write_text(text)
    return paths


@pytest.mark.parametrize("name", ["one-line", "80k-keys", "19k-keys", "long-key", "long-line", "many-cards"])
def test_a_hostile_file_gets_a_bounded_answer(runner, cli, tmp_path, name):
    path = _big_files(tmp_path)[name]
    assert path.stat().st_size < 1024 * 1024
    tracemalloc.start()
    try:
        ruleset, problems = check_ruleset(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert ruleset is None
    assert len(problems) <= 101
    assert peak < 100 * 1024 * 1024
    result = validate(runner, cli, str(path))
    assert result.exit_code == 1
    assert len(result.output) < 100_000  # under 1 MB by far: 101 problems of a few hundred characters
    assert max(len(line) for line in result.output.splitlines()) < 500


def test_the_problem_cap_counts_the_rest(runner, cli, tmp_path):
    path = _big_files(tmp_path)["19k-keys"]
    result = validate(runner, cli, str(path))
    assert "19,891 more problems in this file are not shown" in result.output
    assert result.output.count(": error: unknown key") == 100
    assert result.output.rstrip().endswith("100 errors, 0 warnings shown; 19,891 more not shown")
    everything = validate(runner, cli, str(path), "--max-problems", "0", "--format", "json")
    assert len(json.loads(everything.output)) == 19_991
    few = validate(runner, cli, str(path), "--max-problems", "5", "--format", "json")
    listed = json.loads(few.output)
    assert len(listed) == 6 and listed[-1]["code"] == "more-problems" and listed[-1]["severity"] == "note"


def test_a_file_of_more_values_than_a_ruleset_has_stops_at_once(tmp_path):
    path = _big_files(tmp_path)["80k-keys"]
    _, problems = check_ruleset(path)
    assert [p.code for p in problems] == ["too-many-nodes"]
    assert f"more than {MAX_NODES:,} values" in problems[0].message


def test_cap_per_file_keeps_files_apart():
    problems = [Problem(f, i, 1, "c", "m") for f in ("a.yaml", "b.yaml") for i in range(1, 8)]
    capped = cap_per_file(problems, 3)
    assert [(p.file, p.code) for p in capped] == [("a.yaml", "c")] * 3 + [("a.yaml", "more-problems")] + [
        ("b.yaml", "c")] * 3 + [("b.yaml", "more-problems")]
    assert capped[3].hidden == 4 and "4 more problems" in capped[3].message
    assert cap_per_file(problems, None) == sorted(problems, key=lambda p: (p.file, p.line))


# ---------------------------------------------------------------------- the same rule for saves and logs


def _bot_save(runner, cli, folder: Path) -> Path:
    save = folder / "game.save"
    result = runner.invoke(cli, ["play", "classic", "--players", "greedy,cautious", "--seed", "3", "--max-turns", "4",
                                 "--save", str(save)])
    assert result.exit_code == 0, result.output
    return save


@pytest.mark.parametrize("which", ["plain", "mapping", "broken"])
@pytest.mark.parametrize("field", ["ruleset", "variants"])
def test_a_save_naming_another_file_as_its_ruleset_shows_none_of_it(runner, cli, tmp_path, secrets, which, field):
    save = _bot_save(runner, cli, tmp_path)
    data = json.loads(save.read_text())
    data[field] = str(secrets[which]) if field == "ruleset" else [str(secrets[which])]
    save.write_text(json.dumps(data))
    result = runner.invoke(cli, ["play", "--resume", str(save)])
    assert result.exit_code in (1, 2), result.output
    assert SECRET not in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("which", ["plain", "mapping", "broken"])
@pytest.mark.parametrize("verify", [False, True])
def test_a_log_naming_another_file_as_its_ruleset_shows_none_of_it(runner, cli, tmp_path, secrets, which, verify):
    logs = tmp_path / "logs"
    assert runner.invoke(cli, ["simulate", "classic", "--games", "1", "--players", "greedy,random", "--max-turns",
                               "20", "--log", str(logs)]).exit_code == 0
    log = logs / "game-1.jsonl"
    lines = log.read_text().splitlines()
    start = json.loads(lines[0])
    start["ruleset"] = str(secrets[which])
    lines[0] = json.dumps(start)
    log.write_text("\n".join(lines) + "\n")
    result = runner.invoke(cli, ["replay", str(log), *(["--verify"] if verify else [])])
    assert result.exit_code in (0, 1, 2), result.output
    assert SECRET not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
