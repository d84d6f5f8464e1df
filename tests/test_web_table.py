"""The web table's driver (issue 30, first part): a game of people and bots, each person's decisions sent as
agents-protocol lines and answered by lines, the bots' answered at once; nothing of HTTP."""

from __future__ import annotations

import json
from typing import Any

import pytest

import monopoly
from monopoly.web.table import Table, TableError

CLASSIC = monopoly.load_ruleset("classic")


def line(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode()


def table(seed: int = 1, max_turns: int | None = 40) -> Table:
    made = Table("t1", CLASSIC, [("Ada", None), ("greedy-2", "greedy"), ("greedy-3", "greedy")], seed=seed,
                 max_turns=max_turns)
    made.advance()
    return made


def test_a_person_is_sent_hello_then_each_decision_with_both_views():
    t = table()
    lines = t.take(0)
    assert lines[0]["type"] == "hello" and lines[0]["seat"] == 0
    decision = lines[-1]
    assert decision["type"] == "decision" and decision["seat"] == 0 and t.waiting_for == 0
    assert "text" in decision and "state" in decision and "legal" in decision
    assert "seed" not in lines[0] and "decks" not in lines[0]


def play_to_the_end(t: Table) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    for _ in range(5_000):
        lines = t.take(0)
        seen += lines
        asked = [m for m in lines if m["type"] == "decision"]
        if any(m["type"] == "end" for m in lines):
            return seen
        assert asked, lines
        decision = asked[-1]
        legal = decision["legal"]
        answer = legal[0] if isinstance(legal, list) else 0 if "pass" in legal else None
        t.receive(0, line({"type": "answer", "id": decision["id"], "answer": answer}))
    raise AssertionError("the game did not end")


def test_a_game_played_by_lines_ends_and_every_line_is_acknowledged():
    t = table()
    seen = play_to_the_end(t)
    assert t.game.finished and seen[-1]["type"] == "end"
    decisions = [m for m in seen if m["type"] == "decision"]
    acks = [m for m in seen if m["type"] == "ack"]
    assert len(acks) == len(decisions) and all(a["ok"] for a in acks)
    assert any(m["type"] == "events" for m in seen)


def test_a_refused_line_changes_nothing_and_the_decision_stays_open():
    t = table()
    decision = [m for m in t.take(0) if m["type"] == "decision"][-1]
    before = t.game.state()
    for bad in (b"{not json", line({"type": "answer", "id": 999, "answer": None}),
                line({"type": "answer", "id": decision["id"], "answer": "maybe"})):
        t.receive(0, bad)
        [ack] = t.take(0)
        assert ack["type"] == "ack" and not ack["ok"] and ack["retry"] and ack["reason"]
    assert t.game.state() == before and t.waiting_for == 0


def test_a_line_from_a_seat_not_asked_is_refused():
    t = Table("t2", CLASSIC, [("Ada", None), ("Bo", None)], seed=1, max_turns=10)
    t.advance()
    other = 1 - t.waiting_for
    t.take(other)
    t.receive(other, line({"type": "answer", "id": 1, "answer": True}))
    [ack] = t.take(other)
    assert not ack["ok"] and "nothing is asked of this seat" in ack["reason"]


def test_seats_are_found_by_their_secret_links_only():
    t = table()
    assert t.seat_of(t.seats[0].token) == 0
    with pytest.raises(TableError):
        t.seat_of(t.seats[1].token)  # a bot's seat has no link
    with pytest.raises(TableError):
        t.seat_of("guess")
    assert len(t.seats[0].token) >= 32


def test_the_same_seed_and_answers_give_the_same_game():
    first, second = table(seed=9), table(seed=9)
    play_to_the_end(first)
    play_to_the_end(second)
    assert first.game.events == second.game.events


def test_a_table_of_the_wrong_size_is_refused():
    with pytest.raises(TableError, match="2 to 8 players"):
        Table("t3", CLASSIC, [("Ada", None)], seed=1)


def test_every_line_a_seat_is_sent_follows_the_protocol_schema():
    from pathlib import Path

    import jsonschema

    schema = json.loads((Path(__file__).resolve().parent.parent / "schema" / "protocol.schema.json").read_text())
    t = table(seed=2)
    seen = play_to_the_end(t)
    for message in seen:
        jsonschema.validate(message, schema)
    assert {"hello", "decision", "ack", "events", "end"} <= {m["type"] for m in seen}


def test_the_trade_builder_checks_an_offer_without_changing_anything():
    t = Table("t4", CLASSIC, [("Ada", None), ("Bo", "greedy")], seed=1, max_turns=40)
    t.game.start()
    t.game.give(1, 0)
    t.game.give(3, 1)
    t.advance()
    while t.waiting_for is not None and t.game.pending.kind not in ("act", "between"):
        decision = [m for m in t.take(0) if m["type"] == "decision"][-1]
        legal = decision["legal"]
        t.receive(0, line({"type": "answer", "id": decision["id"],
                           "answer": legal[0] if isinstance(legal, list) else 0 if "pass" in legal else None}))
    t.take(0)
    before = t.game.state()
    offer = {"action": "trade", "proposer": 0, "partner": 1, "give_spaces": [1], "give_cash": 0, "give_cards": [],
             "get_spaces": [3], "get_cash": 0, "get_cards": []}
    t.receive(0, line({"type": "check", "answer": offer}))
    t.receive(0, line({"type": "check", "answer": {**offer, "give_cash": 10**9}}))
    first, second = t.take(0)
    assert first == {"type": "checked", "ok": True, "reason": ""}
    assert not second["ok"] and second["reason"]
    assert t.game.state() == before
