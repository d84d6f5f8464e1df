"""The web table's driver (issue 30, first part): a game of people and bots, each person's decisions sent as
agents-protocol lines and answered by lines, the bots' answered at once; nothing of HTTP."""

from __future__ import annotations

import json
from typing import Any

import attrs
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
    big = attrs.evolve(CLASSIC, max_players=12)  # a ruleset for more players than a table seats
    with pytest.raises(TableError, match=r"^a table seats at most 8 players, not 9$"):
        Table("t4", big, [(f"P{i}", "greedy") for i in range(9)], seed=1)
    assert Table("t5", big, [(f"P{i}", "greedy") for i in range(8)], seed=1).ruleset is big


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


class FakeClock:
    """The table's clock read, set by the test."""

    def __init__(self) -> None:
        self.seconds = 1000.0

    def __call__(self) -> float:
        return self.seconds


def test_a_person_out_of_time_is_answered_with_the_answer_that_risks_nothing():
    clock = FakeClock()
    t = Table("c1", CLASSIC, [("Ada", None), ("Bo", None)], seed=1, max_turns=40, clock=10, now=clock)
    t.game.fix_dice([(1, 2)])  # Ada lands on Baltic Avenue (3): may she buy it?
    t.advance()
    decision = [m for m in t.take(0) if m["type"] == "decision"][-1]
    assert decision["kind"] == "buy" and decision["clocks"] == {"decision": 10.0, "game": None}
    assert t.next_deadline() == 1010.0
    clock.seconds = 1009.9
    assert not t.expire() and t.waiting_for == 0  # not yet
    clock.seconds = 1010.0
    assert t.expire()
    lines = t.take(0)
    assert lines[0] == {"type": "timeout", "id": decision["id"], "seat": 0, "kind": "buy"}
    assert {"type": "timeout", "id": None, "seat": 0, "kind": "buy"} in t.take(1)
    assert not any(e.get("type") == "buy" and e.get("seat") == 0 for e in map(dict, _logged(t)))
    assert t.game.owner[3] != 0  # declined: auctioned (Bo, asked to bid now, may have it)
    assert t.waiting_for is not None and t.next_deadline() == 1020.0  # the next decision has its own ten seconds


def _logged(t: Table) -> list[dict[str, Any]]:
    from monopoly.agents.protocol import public_event

    return [public_event(record) for record in t.game.events]


def test_an_answer_in_time_stops_the_decision_clock():
    clock = FakeClock()
    t = Table("c2", CLASSIC, [("Ada", None), ("greedy-2", "greedy")], seed=1, max_turns=40, clock=30, now=clock)
    t.game.fix_dice([(1, 2)])
    t.advance()
    decision = [m for m in t.take(0) if m["type"] == "decision"][-1]
    clock.seconds += 29
    t.receive(0, line({"type": "answer", "id": decision["id"], "answer": True}))
    assert t.game.owner[3] == 0
    answered_at = clock.seconds
    assert t.waiting_for == 0 and t.next_deadline() == answered_at + 30  # the next decision's own 30 seconds
    clock.seconds += 5  # past the first decision's deadline: it no longer counts
    assert not t.expire() and not any(m["type"] == "timeout" for m in t.take(0))


@pytest.mark.parametrize("clock", [0, 4, 3601, float("nan"), float("inf")])
def test_a_decision_clock_out_of_bounds_is_refused(clock):
    with pytest.raises(TableError, match="5 to 3600 seconds"):
        Table("c3", CLASSIC, [("Ada", None), ("Bo", None)], seed=1, clock=clock)


def test_a_time_limit_table_ends_when_its_minutes_run_out():
    clock = FakeClock()
    ruleset = monopoly.load_ruleset("classic", ["time-limit"])
    t = Table("c4", ruleset, [("Ada", None), ("greedy-2", "greedy")], seed=3, now=clock)
    t.advance()
    decision = [m for m in t.take(0) if m["type"] == "decision"][-1]
    assert decision["clocks"] == {"decision": None, "game": 90 * 60.0}
    assert t.next_deadline() == 1000.0 + 90 * 60
    saved = t.saved()
    clock.seconds += 60 * 60  # an hour into the game the server stops; the table is resumed later
    resumed = Table("c4", ruleset, [("Ada", None), ("greedy-2", "greedy")], seed=0, now=clock,
                    saved=t.saved())
    assert saved["time_left"] == 90 * 60.0 and resumed.clocks()["game"] == 30 * 60.0
    resumed.advance()  # the decision Ada was asked is asked again (its line waits for her page)
    clock.seconds += 30 * 60
    assert resumed.expire()
    assert resumed.game.clock_out or resumed.game.finished  # told: the game ends after the turn in progress
    seen = play_to_the_end(resumed)
    assert resumed.game.end_reason == "time" and seen[-1]["type"] == "end"
    assert resumed.game.round < ruleset.rules.end.rounds
    assert resumed.next_deadline() is None and not resumed.expire()


def test_a_resumed_table_whose_game_was_told_its_time_is_up_is_not_told_again():
    clock = FakeClock()
    ruleset = monopoly.load_ruleset("classic", ["time-limit"])
    seats = [("Ada", None), ("greedy-2", "greedy")]
    t = Table("c5", ruleset, seats, seed=3, now=clock)
    t.advance()
    clock.seconds += 90 * 60
    t.expire()
    saved = t.saved()
    assert saved["time_left"] is None and t.game.clock_out
    resumed = Table("c5", ruleset, seats, seed=0, now=clock, saved=saved)
    resumed.advance()
    assert resumed.next_deadline() is None and not resumed.expire()
    play_to_the_end(resumed)
    assert resumed.game.end_reason == "time"
    assert sum(1 for e in _logged(resumed) if e["type"] == "time_up") == 1
