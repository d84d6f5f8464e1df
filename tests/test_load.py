"""The YAML loader refuses hostile and broken bytes with one located problem each."""

from __future__ import annotations

import pytest

from monopoly.ruleset.load import MAX_BYTES, load_bytes
from monopoly.ruleset.problems import RulesetError


def problem_of(raw: bytes):
    with pytest.raises(RulesetError) as info:
        load_bytes(raw, "f.yaml")
    assert len(info.value.problems) == 1
    return info.value.problems[0]


def test_marks_are_one_based_for_keys_and_values():
    doc = load_bytes(b"id: x\nrules:\n  salary: 200\n", "f.yaml")
    assert doc.data == {"id": "x", "rules": {"salary": 200}}
    assert (doc.mark(("rules", "salary"), key=True).line, doc.mark(("rules", "salary"), key=True).column) == (3, 3)
    assert (doc.mark(("rules", "salary")).line, doc.mark(("rules", "salary")).column) == (3, 11)
    # a place not written falls back to its nearest ancestor
    assert doc.mark(("rules", "salary", "nothing")).line == 3


def test_keys_are_text_as_written_and_values_are_typed():
    doc = load_bytes(b"id: x\non: yes\nno: 1.5\n3: null\n", "f.yaml")
    assert doc.data == {"id": "x", "on": True, "no": 1.5, "3": None}


@pytest.mark.parametrize(
    "raw, code, line, column",
    [
        (b"", "empty", 1, 1),
        (b"# nothing\n\n", "empty", 1, 1),
        (b"- a\n- b\n", "not-a-mapping", 1, 1),
        (b"just text\n", "not-a-mapping", 1, 1),
        (b"a: 1\nb: 2\na: 3\n", "duplicate-key", 3, 1),
        (b"a:\n  b: 1\n  b: 2\n", "duplicate-key", 3, 3),
        (b"a: 1\nb: caf\xe9\n", "encoding", 2, 7),
        (b"a: \x00\n", "encoding", 1, 4),
        (b"id: x\na: [1, 2\n", "yaml", 3, 1),
        (b"a: [1, 2\n", "not-a-ruleset", 2, 1),
        (b"a: 1\n---\nb: 2\n", "multiple-documents", 2, 1),
        (b"a: !!python/object/apply:os.system [ls]\n", "unsafe-tag", 1, 4),
        (b"a: !!binary aGVsbG8=\n", "unsafe-tag", 1, 4),
        (b"a: &x {b: 1}\n<<: *x\n", "merge-key", 2, 1),
        (b"? [1, 2]\n: 3\n", "bad-key", 1, 3),
    ],
)
def test_broken_bytes_get_one_located_problem(raw, code, line, column):
    problem = problem_of(raw)
    assert (problem.code, problem.line, problem.column) == (code, line, column)
    assert problem.file == "f.yaml"


def test_duplicate_key_message_names_the_first():
    problem = problem_of(b"id: x\nname: a\nprice: 1\nname: b\n")
    assert problem.message == "duplicate key 'name' (first written at line 2)"
    assert problem.source_line == "name: b"


def test_before_its_id_a_file_is_not_quoted():
    # nothing has shown yet that this is a ruleset: located, but neither the key nor the line is shown
    problem = problem_of(b"aws_secret: wJalrXUtnFEMI\naws_secret: x\nid: x\n")
    assert problem.message == "not a ruleset file (no `id:` key before this): a key written twice (first at line 1)"
    assert problem.source_line is None and (problem.line, problem.column) == (2, 1)
    for raw in (b"password: !!int hunter2\n", b"k: !Sub secret\n", b"k: *secret\n", b'k: "\\e[2Jsecret"\n'):
        problem = problem_of(raw)
        assert "secret" not in problem.format() and "hunter2" not in problem.format(), raw


def test_too_large_is_refused_before_parsing():
    problem = problem_of(b"a: 1\n" + b"#" * MAX_BYTES)
    assert problem.code == "too-large"


def test_deep_nesting_is_refused():
    problem = problem_of(b"a: " + b"[" * 100 + b"]" * 100 + b"\n")
    assert problem.code == "too-deep"


def test_alias_bomb_is_refused_quickly():
    lines = [b'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    previous = b"a"
    for name in b"bcdefghi":
        ref = b"*" + previous
        lines.append(bytes([name]) + b": &" + bytes([name]) + b" [" + b",".join([ref] * 9) + b"]")
        previous = bytes([name])
    problem = problem_of(b"\n".join(lines) + b"\n")
    assert problem.code == "too-many-nodes"


def test_too_many_aliases_are_refused():
    raw = b"a: &a 1\nb: [" + b",".join([b"*a"] * 101) + b"]\n"
    assert problem_of(raw).code == "too-many-aliases"


def test_a_few_aliases_are_fine():
    doc = load_bytes(b"id: x\nrent: &r [1, 2]\nother: *r\n", "f.yaml")
    assert doc.data["other"] == [1, 2]


def test_utf8_bom_and_unicode_text_are_fine():
    doc = load_bytes("\ufeffid: x\ncurrency: \"£\"\n".encode("utf-8"), "f.yaml")
    assert doc.data == {"id": "x", "currency": "£"}
