"""Random mutations of classic.yaml never crash the validator: exit 0 or 1, never a traceback."""

from __future__ import annotations

import json
import os
import tempfile

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from monopoly.cli.main import cli

from .conftest import RULESETS

CLASSIC = (RULESETS / "classic.yaml").read_bytes()
CLASSIC_DATA = yaml.safe_load(CLASSIC)

junk_values = st.one_of(
    st.none(), st.booleans(), st.integers(-10**9, 10**9), st.floats(allow_nan=False),
    st.text(max_size=30), st.lists(st.integers(-5, 5000), max_size=8),
    st.dictionaries(st.text(max_size=8), st.integers(), max_size=3),
)


def run_validate(raw: bytes) -> tuple[int, str]:
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "mutant.yaml")
        with open(path, "wb") as handle:
            handle.write(raw)
        result = CliRunner().invoke(cli, ["validate", path, "--format", "json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def check_mutant(raw: bytes) -> None:
    code, output = run_validate(raw)
    assert code in (0, 1), output
    problems = json.loads(output)
    assert (code == 1) == any(p["severity"] == "error" for p in problems)
    for problem in problems:
        assert problem["line"] >= 1 and problem["column"] >= 1 and problem["message"]


@st.composite
def byte_mutants(draw) -> bytes:
    raw = bytearray(CLASSIC)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(raw) - 1))
        action = draw(st.sampled_from(["delete", "insert", "replace", "cut-line", "dup-line"]))
        if action == "delete":
            del raw[at: at + draw(st.integers(1, 20))]
        elif action == "insert":
            raw[at:at] = draw(st.binary(min_size=1, max_size=8) | st.sampled_from(
                [b":", b"- ", b"{", b"]", b"\t", b"&a ", b"*a", b"!!python/name:os.system ", b"\n  ", b'"', b"#"]))
        elif action == "replace":
            raw[at] = draw(st.integers(0, 255))
        else:
            start = raw.rfind(b"\n", 0, at) + 1
            end = raw.find(b"\n", at) + 1 or len(raw)
            line = bytes(raw[start:end])
            raw[start:end] = b"" if action == "cut-line" else line + line
    return bytes(raw)


def _places(data, path=()):
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _places(value, path + (key,))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _places(value, path + (index,))


PLACES = [p for p in _places(CLASSIC_DATA) if p]


@st.composite
def data_mutants(draw) -> bytes:
    data = yaml.safe_load(CLASSIC)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(PLACES))
        parent = data
        try:
            for part in path[:-1]:
                parent = parent[part]
            action = draw(st.sampled_from(["replace", "delete", "rename"]))
            if action == "replace":
                parent[path[-1]] = draw(junk_values)
            elif action == "delete":
                del parent[path[-1]]
            elif isinstance(parent, dict):
                parent[draw(st.text(min_size=1, max_size=10))] = parent.pop(path[-1])
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation removed this place
    return yaml.safe_dump(data, allow_unicode=True).encode("utf-8")


FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LONG = settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(byte_mutants())
def test_byte_mutations_never_crash(raw):
    check_mutant(raw)


@FAST
@given(data_mutants())
def test_data_mutations_never_crash(raw):
    check_mutant(raw)


@pytest.mark.slow
@LONG
@given(byte_mutants())
def test_byte_mutations_never_crash_long(raw):
    check_mutant(raw)


@pytest.mark.slow
@LONG
@given(data_mutants())
def test_data_mutations_never_crash_long(raw):
    check_mutant(raw)


def test_unmutated_classic_is_valid():
    assert run_validate(CLASSIC)[0] == 0
