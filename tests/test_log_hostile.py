"""Event logs from strangers: every hostile line refused at its file:line, in bounded time and memory.

The cases put one hostile line into a real log (written by EventLog) and check
that :func:`read_log` names the file, the line and the problem, quoting no
more than a short escaped excerpt. The JSON reader behind it
(:mod:`monopoly.game.jsonin`) is tested here too, as logs read it line by line.
"""

from __future__ import annotations

import doctest
import io
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

import monopoly
from monopoly.game import jsonin
from monopoly.game import log as log_module
from monopoly.game.jsonin import JsonInputError, describe, excerpt, parse_json, read_json_file
from monopoly.game.log import MAX_LINE_BYTES, MAX_SEATS, EventLog, LogError, read_log, replay_payments
from tests.conftest import ROOT

DEEP = 100_000
DEEP_LINE = 30_000  # as deep as a line of at most 64 KiB can be
NUMBER = 5  # the line made hostile


@pytest.fixture(scope="module")
def lines(tmp_path_factory) -> list[str]:
    path = tmp_path_factory.mktemp("log") / "good.jsonl"
    with EventLog(path) as out:
        monopoly.Game(monopoly.load_ruleset("classic"), [monopoly.make_agent(n) for n in ("greedy", "random")],
                      seed=9, max_turns=60, observers=[out]).play()
    return path.read_text(encoding="utf-8").splitlines()


def card_line(lines: list[str]) -> dict[str, Any]:
    return json.loads(next(line for line in lines if '"type":"card"' in line))


def with_line(tmp_path: Path, lines: list[str], line: str | bytes, number: int = NUMBER) -> Path:
    path = tmp_path / "hostile.jsonl"
    data = [x.encode() for x in lines]
    data[number - 1] = line if isinstance(line, bytes) else line.encode("utf-8", "surrogatepass")
    path.write_bytes(b"\n".join(data) + b"\n")
    return path


def refused(path: Path, *words: str, number: int = NUMBER, validate: bool = True) -> LogError:
    with pytest.raises(LogError) as caught:
        read_log(path, validate=validate)
    error = caught.value
    assert isinstance(error, ValueError)
    assert (error.source, error.line) == (str(path), number)
    message = str(error)
    assert message.startswith(f"{path}:{number}: ")
    for word in words:
        assert word in message
    assert len(error.message) < 400 and message.isprintable()
    return error


# ---------------------------------------------------------------------- hostile lines


@pytest.mark.parametrize(("line", "words"), [
    ('{"type":"turn","turn":1,"round":0,"seat":0,"seat":1}', "the key 'seat' is written twice in the object at the "
                                                             "top level (column 44)"),
    ('{"type":"payment","from":0,"to":"bank","amount":NaN,"reason":"rent"}', "NaN at amount is not a JSON number"),
    ('{"type":"payment","from":0,"to":"bank","amount":Infinity,"reason":"rent"}', "Infinity at amount"),
    ('{"type":"payment","from":0,"to":"bank","amount":1e400,"reason":"rent"}', "the number at amount is too large"),
    ('{"type":"payment","from":0,"to":"bank","amount":' + "9" * 40 + ',"reason":"rent"}',
     "the number at amount has 40 digits (at most 30 are read) (column 49)"),
    ('{"type":"payment","from":0,"to":"bank","amount":' + "9" * 5000 + ',"reason":"rent"}',
     "the number at amount has 5000 digits"),
    ('{"type":"turn","turn":1,"round":0,"seat":0,"x":' + "[" * DEEP_LINE + "]" * DEEP_LINE + "}",
     "nested deeper than 64 levels (at x[0][0]"),
    ("[" * DEEP_LINE * 2, "nested deeper than 64 levels (at [0][0]"),
    ('{"type":"turn","turn":1,"round":0,"seat":0', "not valid JSON: Expecting ',' delimiter (column 43)"),
])
def test_a_hostile_line_is_refused_at_its_line(tmp_path, lines, line, words):
    start = time.perf_counter()
    refused(with_line(tmp_path, lines, line), words)
    refused(with_line(tmp_path, lines, line), words, validate=False)  # the JSON reader refuses it, schema or not
    assert time.perf_counter() - start < 2.0


@pytest.mark.parametrize(("text", "words"), [
    ("\\u001b[2J\\u001b[H", "the string at text holds the control character U+001B (ESC)"),
    ("pay \\u0000 now", "U+0000 (NUL)"),
    ("bell\\u0007", "U+0007 (BEL)"),
    ("back\\bspace", "U+0008 (BS)"),
    ("return\\rhere", "U+000D (CR)"),
    ("\\u009b31m", "U+009B (CSI)"),
    ("\u0085", "U+0085 (a C1 control)"),
    ("\\u007f", "U+007F (DEL)"),
    ("half \\ud83d a smile", "U+D83D (a lone surrogate)"),
])
def test_control_characters_in_strings_are_refused(tmp_path, lines, text, words):
    card = card_line(lines)
    line = json.dumps(card, separators=(",", ":"), ensure_ascii=False).replace(
        json.dumps(card["text"], ensure_ascii=False), '"' + text + '"')
    assert line != json.dumps(card, separators=(",", ":"), ensure_ascii=False)
    refused(with_line(tmp_path, lines, line), words)


def test_a_control_character_in_a_key_is_refused(tmp_path, lines):
    refused(with_line(tmp_path, lines, '{"type":"turn","\\u001b":1}'), "a key at the top level holds the control "
                                                                       "character U+001B (ESC)")


def test_line_breaks_and_tabs_in_card_texts_are_read(tmp_path, lines):
    """A ruleset may give a card a text of several lines (a YAML block): the engine logs it, and it reads back."""
    card = card_line(lines)
    card["text"] = "Advance to GO.\nCollect $200.\tNow."
    path = with_line(tmp_path, lines, json.dumps(card, separators=(",", ":"), ensure_ascii=False))
    assert read_log(path)[NUMBER - 1] == card
    escaped = json.dumps("a \\u001b b")  # an escaped backslash: the text is the six characters \u001b, not ESC
    card["text"] = json.loads(escaped)
    path = with_line(tmp_path, lines, json.dumps(card, separators=(",", ":"), ensure_ascii=False))
    assert read_log(path)[NUMBER - 1]["text"] == "a \\u001b b"


def test_a_line_longer_than_the_limit_is_refused_without_reading_it_all(tmp_path, lines):
    card = card_line(lines)
    card["text"] = "x" * (MAX_LINE_BYTES + 1)
    refused(with_line(tmp_path, lines, json.dumps(card)), "the line is longer than 64 KiB")
    card["text"] = "x" * (MAX_LINE_BYTES - 200)  # a long line within the limit reads
    path = with_line(tmp_path, lines, json.dumps(card, separators=(",", ":")))
    assert read_log(path)[NUMBER - 1] == card
    start = time.perf_counter()
    path = with_line(tmp_path, lines, b"[" * (64 << 20), number=2)  # 64 MiB on one line
    refused(path, "the line is longer than 64 KiB", number=2)
    assert time.perf_counter() - start < 3.0


def test_a_line_longer_than_the_limit_in_a_text_stream_is_refused(lines):
    text = "\n".join([*lines[:2], '{"type":"' + "x" * (2 * MAX_LINE_BYTES) + '"}', *lines[2:]]) + "\n"
    with pytest.raises(LogError, match=r"^<stream>:3: the line is longer than 65,536 characters"):
        read_log(io.StringIO(text))


@pytest.mark.parametrize("chunk", [3, 7, 4096])
def test_lines_across_the_chunks_the_file_is_read_in_read_the_same(tmp_path, lines, monkeypatch, chunk):
    path = tmp_path / "crlf.jsonl"
    path.write_bytes(("\r\n".join(lines[:40]) + "\r\n").encode())
    monkeypatch.setattr(log_module, "_CHUNK", chunk)
    assert read_log(path) == [json.loads(line) for line in lines[:40]]
    assert read_log(io.StringIO("\n".join(lines[:40]))) == [json.loads(line) for line in lines[:40]]  # no last \n
    with pytest.raises(LogError, match=r":3: the line is longer than 64 KiB"):
        read_log(io.BytesIO(("\n".join(lines[:2]) + "\n" + "x" * (MAX_LINE_BYTES + 3)).encode()))


def test_a_log_of_too_many_lines_is_refused_at_the_first_line_past(tmp_path, lines, monkeypatch):
    path = with_line(tmp_path, lines, lines[NUMBER - 1])
    assert len(read_log(path)) == len(lines)
    monkeypatch.setattr(log_module, "MAX_LOG_LINES", 10)
    refused(path, "the log has more than 10 lines", number=11)


def test_a_log_too_large_is_refused_where_it_passes_the_limit(tmp_path, lines, monkeypatch):
    path = with_line(tmp_path, lines, lines[NUMBER - 1])
    limit = sum(len(line) + 1 for line in lines[:7]) + 10
    monkeypatch.setattr(log_module, "MAX_LOG_BYTES", limit)
    refused(path, f"the log is larger than {limit:,} bytes, more than a log can be", number=8)


def test_the_limits_of_a_log(lines):
    assert log_module.MAX_LINE_BYTES == 64 * 1024
    assert log_module.MAX_LOG_BYTES == 32 * 1024 * 1024
    assert log_module.MAX_LOG_LINES == 100_000


def test_the_line_limit_leaves_room_for_the_longest_real_games():
    # a game of 4 greedy bots to the default turn cap of simulate (1,000 turns) is far below the limit
    import io as _io

    import monopoly

    out = _io.StringIO()
    game = monopoly.Game(monopoly.load_ruleset("classic"), [monopoly.make_agent("greedy") for _ in range(4)],
                         seed=2, max_turns=1000, observers=[log_module.EventLog(out)])
    game.play()
    assert len(out.getvalue().splitlines()) * 5 < log_module.MAX_LOG_LINES


def test_a_pipe_or_a_device_is_not_read(tmp_path):
    import os as _os

    fifo = tmp_path / "game.jsonl"
    _os.mkfifo(fifo)
    with pytest.raises(LogError, match="not a regular file"):
        read_log(fifo)
    with pytest.raises(LogError, match="not a regular file"):
        read_log("/dev/zero")


def test_streams_text_and_binary_are_read_with_the_same_checks(lines):
    bad = [*lines[:3], '{"type":"turn","turn":1,"turn":2,"round":0,"seat":0}', *lines[4:]]
    text = "\n".join(bad) + "\n"
    for stream in (io.StringIO(text), io.BytesIO(text.encode())):
        with pytest.raises(LogError, match=r"^<stream>:4: the key 'turn' is written twice"):
            read_log(stream)
    good = "\n".join(lines) + "\n"
    assert read_log(io.StringIO(good)) == read_log(io.BytesIO(good.encode())) == [json.loads(x) for x in lines]


# ---------------------------------------------------------------------- short messages


@pytest.mark.parametrize("line", [
    '{"type":"' + "\u2603" * 20_000 + '"}',
    '{"type":"turn","turn":"' + "x" * 50_000 + '","round":0,"seat":0}',
    '{"type":"turn","turn":1,"round":0,"seat":0,"' + "k" * 50_000 + '":1}',
    '{"type":["' + "y" * 50_000 + '"]}',
    '{"type":"payment","from":"' + "z" * 50_000 + '","to":"bank","amount":5,"reason":"rent"}',
    '{"type":"payment","from":0,"to":"bank","amount":-5,"reason":"' + "r" * 50_000 + '"}',
])
def test_messages_quote_only_a_short_excerpt_of_the_line(tmp_path, lines, line):
    error = refused(with_line(tmp_path, lines, line))
    assert len(error.message) < 400


def test_replayed_payments_name_a_bad_party_shortly():
    with pytest.raises(LogError, match="payment from 'xxxx") as caught:
        replay_payments([{"type": "payment", "from": "x" * 10_000, "to": 0, "amount": 1, "reason": "rent"}])
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize("seat", [16, 10**12, 10**100])
def test_replayed_payments_refuse_a_seat_no_game_has_without_making_room_for_it(seat):
    pattern = r"^<events>:2: payment to .+: not a seat of any game \(a game has at most 16 seats, 0 to 15\)$"
    with pytest.raises(LogError, match=pattern) as caught:
        replay_payments([{"type": "payment", "from": "bank", "to": 0, "amount": 1, "reason": "rent"},
                         {"type": "payment", "from": "bank", "to": seat, "amount": 1, "reason": "rent"}])
    assert len(str(caught.value)) < 200
    assert replay_payments([{"type": "payment", "from": "bank", "to": 15, "amount": 7, "reason": "rent"}]) == {
        "cash": [0] * 15 + [7], "pot": 0}


def test_the_most_seats_of_a_log_are_the_most_players_of_a_ruleset():
    schema = json.loads((ROOT / "schema" / "ruleset.schema.json").read_text(encoding="utf-8"))
    found = []

    def walk(node):
        if isinstance(node, dict):
            players = node.get("properties", {}).get("players", {})
            if isinstance(players, dict) and "max" in players.get("properties", {}):
                found.append(players["properties"]["max"]["maximum"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    assert found and set(found) == {MAX_SEATS}


# ---------------------------------------------------------------------- the JSON reader


@pytest.mark.parametrize(("text", "where", "words"), [
    ('{"a": 1, "b": {"c": [1, 2, {"d": 1, "d": 2}]}}', (1, 37), "the key 'd' is written twice in the object at b.c[2]"),
    ('{\n  "a": [\n    NaN\n  ]\n}', (3, 5), "NaN at a[0] is not a JSON number"),
    ('[1e309]', (1, 2), "the number at [0] is too large ('1e309'"),
    ('[-1e309]', (1, 2), "too large"),
    ('{"s": "\\u001b"}', (1, 7), "the string at s holds the control character U+001B (ESC)"),
    ('{"s": "\\n"}', (1, 7), "U+000A (LF)"),
    ('{"s": "\\t"}', (1, 7), "U+0009 (TAB)"),
    ('{"a": [1, 2,', (1, 13), "not valid JSON: Expecting value"),
    ("[1] [2]", (1, 5), "not valid JSON: Extra data"),
    ("", (1, 1), "not valid JSON: Expecting value"),
    ('{"a": ' + "[" * 65 + "]" * 65 + "}", (1, 70), "nested deeper than 64 levels (at a[0][0][0]"),
    ('{"x": "' + "[" * 200 + '", "y": ' + "{" * 70, (1, 279), "nested deeper than 64 levels (at y"),
])
def test_parse_json_refuses_with_line_and_column(text, where, words):
    with pytest.raises(JsonInputError) as caught:
        parse_json(text, source="in.json")
    error = caught.value
    assert (error.line, error.column) == where
    assert words in error.message
    assert str(error).startswith(f"in.json:{where[0]}:{where[1]}: ")


@pytest.mark.parametrize("text", [
    '{"a": [1, 2.5, -3, true, false, null, "x\\u00e9\\ud83d\\ude00\\"\\\\"]}',
    '"' + "[" * 1000 + '"',  # brackets in a string are not nesting
    "[" * 64 + "]" * 64,
    '{"n": ' + "9" * 30 + ', "f": 1e308, "g": 1e-400, "h": 0.' + "1" * 40 + "}",
    ' \n\t{"a": "\\\\u001b"} \r\n',
    '{"a": 1, "b": {"a": 2}}',  # the same key in two objects
])
def test_parse_json_reads_what_json_loads_reads(text):
    assert parse_json(text, source="in.json") == json.loads(text)


def test_parse_json_allows_the_control_characters_it_is_told_to():
    assert parse_json('"a\\nb\\tc"', source="x", allow="\n\t") == "a\nb\tc"
    with pytest.raises(JsonInputError, match=r"U\+000D \(CR\)"):
        parse_json('"a\\rb"', source="x", allow="\n\t")
    with pytest.raises(JsonInputError, match=r"x:1:73: nested deeper than 64 levels \(at \[1\]"):
        parse_json('["a\\nb", ' + "[" * 70 + "]" * 70 + "]", source="x", allow="\n\t")


def test_parse_json_is_fast_on_hostile_text():
    start = time.perf_counter()
    for text in ("[" * 1_000_000, '"' + "\\\\" * 1_000_000, '"\\"' * 300_000, "[" + "1," * 500_000 + "NaN]",
                 '{"a": "' + "x" * 1_000_000 + '\\u001b"}', "[" + '"",' * 300_000 + "1" * 40 + "]"):
        with pytest.raises(JsonInputError):
            parse_json(text, source="hostile")
    assert time.perf_counter() - start < 5.0


def test_parse_json_costs_little_more_than_json_loads(lines):
    """The per-line path of a log: at most a few times json.loads (measured: about 1.4 times)."""
    many = lines * (20_000 // len(lines) + 1)

    def best(read: Any) -> float:
        times = []
        for _ in range(3):
            start = time.perf_counter()
            for line in many:
                read(line)
            times.append(time.perf_counter() - start)
        return min(times)

    plain = best(json.loads)
    ours = best(lambda line: parse_json(line, source="x", allow="\n\t"))
    assert ours < 4 * plain


def test_read_json_file_bounds_what_it_reads(tmp_path):
    path = tmp_path / "data.json"
    path.write_text('{"a": 1}', encoding="utf-8")
    assert read_json_file(path, max_bytes=8) == {"a": 1}
    with pytest.raises(JsonInputError, match=r"data\.json: the file is larger than 7 bytes, more than a thing can"):
        read_json_file(path, max_bytes=7, kind="thing")
    path.write_bytes(b'{"a":\n "\xe9"}')
    with pytest.raises(JsonInputError, match=r"data\.json:2:3: not UTF-8 text \(byte 9 of the file is 0xe9\)"):
        read_json_file(path, max_bytes=100)


def test_excerpts_and_descriptions_are_short_and_escaped():
    assert excerpt("\x1b[2J") == "'\\x1b[2J'"
    assert excerpt("it's \\") == "'it\\'s \\\\'"
    assert excerpt("\u202e reversed") == "'\\u202e reversed'"
    long = excerpt("\x00" * 1000)
    assert len(long) <= 64 and long.endswith("…'")
    assert describe(10**100).startswith("a number of about 101 digits")
    assert describe(float("nan")) == "NaN" and describe(float("-inf")) == "-Infinity"
    assert describe(object()) == "a value of type object"


@pytest.mark.parametrize("module", [jsonin, log_module])
def test_the_docstring_examples_run(module):
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0


def test_a_long_real_log_reads_as_before(tmp_path):
    """Many games in one file: every line as json.loads reads it."""
    path = tmp_path / "many.jsonl"
    with path.open("w", encoding="utf-8") as out:
        log = EventLog(out)
        for seed in range(3):
            monopoly.Game(monopoly.load_ruleset("uk"), [monopoly.make_agent(n) for n in ("trader", "cautious")],
                          seed=seed, max_turns=200, observers=[log]).play()
    expected = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert read_log(path) == expected and len(expected) > 1000
    assert re.search("£", path.read_text(encoding="utf-8"))
