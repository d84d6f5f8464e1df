"""Fuzzing three entry points: `validate FILE`, `play --resume SAVE` and `replay LOG --verify` never crash.

"Never crash" means: the exit status is 0, 1 or 2 (never 70, the internal error
of ``main()``), no exception but SystemExit escapes the command (CliRunner
calls the click group itself, so a bug shows as ``result.exception``), no
traceback is printed, and each input is answered within TIME_LIMIT seconds
with less than OUTPUT_LIMIT bytes of output.

The inputs come from :mod:`tests.fuzz_inputs`: mutations of the real ruleset
files, of saves and logs the program wrote itself (games of bots and of a
person, both save formats, several variants), random YAML, JSON and bytes,
all seeded. The default run tries a few hundred inputs and some hypothesis
properties; the campaign (``-m slow``) tries MONOPOLY_FUZZ_INPUTS inputs per
entry point (10,000 by default) and prints a summary. Every finding names
``kind seed index``; ``python -m tests.fuzz_inputs repro KIND SEED INDEX``
makes that input again, writes it to a file and shows the traceback.

Environment: MONOPOLY_FUZZ_INPUTS (inputs per entry point in the campaign),
MONOPOLY_FUZZ_SEED (the campaign's seed, 0 by default: it starts with a
sweep of every place), MONOPOLY_FUZZ_DEFAULT_INPUTS (the default run, 150),
MONOPOLY_FUZZ_CRASH_DIR (where the inputs of findings are written),
MONOPOLY_FUZZ_REPORT (a JSON file for the summaries), MONOPOLY_FUZZ_NO_CACHE
(load built-in rulesets afresh for every input).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from . import fuzz_inputs as fz

DEFAULT_INPUTS = int(os.environ.get("MONOPOLY_FUZZ_DEFAULT_INPUTS", "150"))
DEFAULT_SEED = 1  # random inputs (seed 0 starts with the sweep, which the campaign runs)
CAMPAIGN_INPUTS = int(os.environ.get("MONOPOLY_FUZZ_INPUTS", "10000"))
CAMPAIGN_SEED = int(os.environ.get("MONOPOLY_FUZZ_SEED", "0"))

PROPERTY = settings(max_examples=30, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def corpus() -> fz.Corpus:
    return fz.build_corpus()


@pytest.fixture(scope="module")
def workdir(tmp_path_factory, corpus):
    """The folder every input runs in (its odd files in place), with built-in rulesets loaded once."""
    folder = tmp_path_factory.mktemp("fuzz")
    fz.prepare_workdir(folder)
    here = os.getcwd()
    os.chdir(folder)
    try:
        with fz.cached_builtin_rulesets():
            yield folder
    finally:
        os.chdir(here)


def no_findings(outcomes: list[fz.Outcome]) -> None:
    found = [o for o in outcomes if o.finding]
    if found:
        lines = [f"{len(found)} of {len(outcomes)} inputs went wrong:"]
        for outcome in found[:10]:
            lines.append(f"- {outcome.case.describe()}\n  {outcome.problem}\n  reproduce: python -m tests.fuzz_inputs "
                         f"repro {outcome.case.kind} {outcome.case.seed} {outcome.case.index}")
            lines.extend(f"  | {line}" for line in outcome.detail.strip().splitlines()[-6:])
        pytest.fail("\n".join(lines), pytrace=False)


def run(kind: str, data: bytes, workdir: Path, args: list[str] | None = None, stdin: str = "") -> fz.Outcome:
    case = fz.Case(kind, -1, -1, data, args or {"validate": ["validate", "{file}"],
                                                "resume": ["play", "--resume", "{file}"],
                                                "replay": ["replay", "{file}", "--verify"]}[kind], stdin=stdin)
    return fz.run_case(case, workdir)


def check(kind: str, data: bytes, workdir: Path, **kw: Any) -> fz.Outcome:
    outcome = run(kind, data, workdir, **kw)
    no_findings([outcome])
    return outcome


# ---------------------------------------------------------------------- the generators and the harness


def test_the_corpus_is_healthy(corpus, workdir):
    """What the mutants start from works: every source validates, every save resumes, every log verifies."""
    for name, raw in corpus.yaml_sources:
        args = ["validate", "classic", "--variant", "{file}"] if b"kind: variant" in raw else None
        assert check("validate", raw, workdir, args=args).exit_code == 0, name
    for name, raw in corpus.saves:
        outcome = check("resume", raw, workdir, stdin="quit\n")
        assert outcome.exit_code == 0, (name, outcome.said)
    for name, raw in corpus.logs:
        outcome = check("replay", raw, workdir, args=["replay", "{file}", "--verify", *corpus.log_args.get(name, [])])
        assert outcome.exit_code == 0 and "replay identically" in outcome.said, (name, outcome.said)
    assert any(b'"finished":false' in raw for _, raw in corpus.saves)  # games that go on when resumed
    assert any(b'"human"' in raw for _, raw in corpus.saves)
    assert any(b'"monopoly-save"' in raw[:40] for _, raw in corpus.saves)  # the engine's own format


@pytest.mark.parametrize("kind", fz.KINDS)
def test_inputs_are_made_again_from_their_numbers(kind, corpus):
    for index in (0, 7, 5000):
        a, b = fz.make_case(kind, 3, index, corpus), fz.make_case(kind, 3, index, corpus)
        assert (a.data, a.args, a.stdin, a.log, a.notes) == (b.data, b.args, b.stdin, b.log, b.notes)
    assert fz.make_case(kind, 3, 1, corpus).data != fz.make_case(kind, 4, 1, corpus).data


def test_the_harness_reports_a_crash_a_traceback_and_a_hang(workdir, monkeypatch, corpus):
    from monopoly.cli import replay_command

    log = corpus.logs[0][1]

    def broken(*args: Any, **kw: Any) -> Any:
        raise KeyError("planted")

    monkeypatch.setattr(replay_command, "read_log", broken)
    outcome = run("replay", log, workdir)
    assert outcome.problem is not None and outcome.problem.startswith("crash: uncaught KeyError")
    assert "planted" in outcome.detail and outcome.signature.startswith("KeyError at ")

    def noisy(*args: Any, **kw: Any) -> Any:
        import click

        click.echo("Traceback (most recent call last):\n  File ...")
        raise SystemExit(1)

    monkeypatch.setattr(replay_command, "read_log", noisy)
    assert run("replay", log, workdir).problem == "a traceback in the output"

    def stuck(*args: Any, **kw: Any) -> Any:
        time.sleep(5)

    monkeypatch.setattr(replay_command, "read_log", stuck)
    monkeypatch.setattr(fz, "HARD_TIMEOUT", 0.2)
    outcome = run("replay", log, workdir)
    assert outcome.problem is not None and outcome.problem.startswith("hang") and outcome.seconds < 2


def test_exit_statuses_through_main_are_those_of_the_group(workdir, corpus):
    """The console entry point (with its last guard, exit 70) answers the fuzzed inputs as the group does."""
    from monopoly.cli.main import main

    for kind in fz.KINDS:
        for index in range(8):
            case = fz.make_case(kind, DEFAULT_SEED, index, corpus)
            outcome = fz.run_case(case, workdir)
            argv = fz.place_case(case, workdir)
            with CliRunner().isolation(input=case.stdin):
                try:
                    main(argv)
                    code = 0
                except SystemExit as exc:
                    code = exc.code if isinstance(exc.code, int) else 1
            assert code != 70, case.describe()
            assert code == outcome.exit_code, case.describe()


# ---------------------------------------------------------------------- the default run: a few hundred inputs


@pytest.mark.parametrize("kind", fz.KINDS)
def test_fuzzed_inputs_never_crash(kind, corpus, workdir):
    outcomes = [fz.run_case(fz.make_case(kind, DEFAULT_SEED, index, corpus), workdir)
                for index in range(DEFAULT_INPUTS)]
    no_findings(outcomes)
    assert {o.exit_code for o in outcomes} <= {0, 1, 2}


@pytest.mark.parametrize("kind", fz.KINDS)
def test_the_sweep_starts_never_crash(kind, corpus, workdir):
    """A sample of the campaign's sweep (every place once): a stride through it."""
    size = {"validate": len(fz._yaml_sweep(corpus)), "resume": len(fz._save_sweep(corpus)),
            "replay": len(fz._log_sweep(corpus))}[kind]
    outcomes = [fz.run_case(fz.make_case(kind, 0, index, corpus), workdir)
                for index in range(0, size, max(1, size // 40))]
    no_findings(outcomes)


# ---------------------------------------------------------------------- hypothesis: random bytes, YAML, JSON

json_leaves = (st.none() | st.booleans() | st.integers() | st.integers(-2**70, 2**70)
               | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=20))
json_values = st.recursive(json_leaves, lambda children: st.lists(children, max_size=5)
                           | st.dictionaries(st.text(max_size=8), children, max_size=5), max_leaves=20)


def json_text(value: Any) -> bytes:
    return fz.encode_text(fz.dump_json(value, ascii_only=False))


yaml_scalars = st.one_of(
    st.sampled_from(fz.YAML_PLAIN),
    st.tuples(st.sampled_from(fz.YAML_TAGS), st.sampled_from(fz.YAML_PLAIN + ["", "x", "'1'", '"a"'])).map(" ".join),
    st.lists(st.sampled_from(fz.YAML_ESCAPES + fz.YAML_RAW_CHARS + ["a", " ", "1"]), max_size=6)
    .map(lambda parts: '"' + "".join(parts) + '"'),
    st.text(max_size=12).map(lambda t: "'" + t.replace("'", "''") + "'"),
    st.sampled_from(["*a", "&a x", "&a [1, 2]", "*undefined", "<<", "{<<: *a}"]),
)
yaml_nodes = st.recursive(yaml_scalars, lambda children: st.lists(children, max_size=4).map(
    lambda xs: "[" + ", ".join(xs) + "]") | st.lists(st.tuples(st.sampled_from(fz.RULESET_KEYS), children),
                                                      max_size=4).map(
    lambda kv: "{" + ", ".join(f"{k}: {v}" for k, v in kv) + "}"), max_leaves=12)
yaml_documents = st.tuples(
    st.sampled_from(["", "\ufeff", "%YAML 1.1\n---\n", "--- \n", "%TAG ! tag:yaml.org,2002:\n---\n"]),
    st.one_of(st.none(), yaml_scalars),
    st.lists(st.tuples(st.sampled_from(fz.RULESET_KEYS) | st.text(min_size=1, max_size=6), yaml_nodes), max_size=8),
    st.sampled_from(["\n", "\r\n", "\r", "\u2028", "\x85"]),
).map(lambda d: fz.encode_text(d[0] + (f"id: {d[1]}" + d[3] if d[1] is not None else "")
                               + d[3].join(f"{k}: {v}" for k, v in d[2]) + d[3]))


@PROPERTY
@given(st.binary(max_size=2000))
def test_validate_random_bytes(workdir, data):
    check("validate", data, workdir)


@PROPERTY
@given(yaml_documents)
def test_validate_random_yaml(workdir, data):
    check("validate", data, workdir, args=["validate", "{file}", "--format", "json"])


@PROPERTY
@given(st.sampled_from(range(len(fz.YAML_SOURCES))), st.integers(0, 10**6), yaml_nodes)
def test_validate_a_real_file_with_one_value_replaced(workdir, corpus, source, where, value):
    lines = corpus.yaml_sources[source][1].decode().split("\n")
    candidates = fz.value_lines(lines)
    line = candidates[where % len(candidates)]
    lines[line] = fz.replace_value(lines[line], value)
    check("validate", fz.encode_text("\n".join(lines)), workdir)


@PROPERTY
@given(json_values | st.binary(max_size=500))
def test_resume_random_json_or_bytes(workdir, value):
    check("resume", value if isinstance(value, bytes) else json_text(value), workdir)


@PROPERTY
@given(st.data())
def test_resume_a_real_save_with_one_value_replaced(workdir, corpus, data):
    _, raw = data.draw(st.sampled_from(corpus.saves), label="save")
    tree = json.loads(raw)
    groups = fz._patterns_of(raw.decode())
    _, paths = data.draw(st.sampled_from(groups), label="pattern")
    path = data.draw(st.sampled_from(paths), label="path")
    tree = fz.set_at(tree, path, data.draw(json_values, label="value"))
    check("resume", json_text(tree), workdir, stdin=data.draw(st.sampled_from(fz.RESUME_INPUTS), label="typed"))


@PROPERTY
@given(st.lists(json_values, min_size=1, max_size=5) | st.binary(max_size=500))
def test_replay_random_json_lines_or_bytes(workdir, value):
    data = value if isinstance(value, bytes) else b"\n".join(json_text(v) for v in value) + b"\n"
    check("replay", data, workdir)


@PROPERTY
@given(st.data())
def test_replay_a_real_log_with_one_field_replaced(workdir, corpus, data):
    _, raw = data.draw(st.sampled_from(corpus.logs), label="log")
    lines = raw.decode().splitlines()
    number = data.draw(st.integers(0, len(lines) - 1), label="line")
    event = json.loads(lines[number])
    key = data.draw(st.sampled_from(sorted(event) + ["extra"]), label="key")
    event[key] = data.draw(json_values, label="value")
    lines[number] = fz.dump_json(event)
    check("replay", fz.encode_text("\n".join(lines) + "\n"), workdir)


# ---------------------------------------------------------------------- the campaign


@pytest.mark.slow
@pytest.mark.parametrize("kind", fz.KINDS)
def test_fuzz_campaign(kind, tmp_path_factory, capsys):
    """MONOPOLY_FUZZ_INPUTS inputs (10,000 by default) of one entry point; a summary is printed either way."""
    crash_dir = Path(os.environ.get("MONOPOLY_FUZZ_CRASH_DIR") or tmp_path_factory.mktemp(f"fuzz-findings-{kind}"))
    summary = fz.run_campaign(kind, CAMPAIGN_INPUTS, CAMPAIGN_SEED, crash_dir=crash_dir)
    report = summary.report()
    with capsys.disabled():
        print(f"\n{report}\n  inputs of findings: {crash_dir}" if summary.findings else f"\n{report}")
    target = os.environ.get("MONOPOLY_FUZZ_REPORT")
    if target:
        path = Path(target)
        done = json.loads(path.read_text(encoding="utf-8")) if path.exists() else []
        done = [s for s in done if s.get("kind") != kind] + [summary.to_json()]
        path.write_text(json.dumps(done, indent=2), encoding="utf-8")
    assert summary.tried == CAMPAIGN_INPUTS
    assert not summary.findings, report
