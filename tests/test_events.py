"""The structured event log: every line of a real game matches ``schema/events.schema.json``,
the payments alone give every seat's final cash, and a bad line is reported at its number."""

from __future__ import annotations

import doctest
import json
import re
from typing import Any

import pytest
from jsonschema import Draft202012Validator

import monopoly
from monopoly.agents import Agent
from monopoly.game import EVENT_TYPES, Build, Game
from monopoly.game import log as log_module
from monopoly.game.log import EventLog, LogError, read_log, replay_payments, verify_payments

from .conftest import ROOT

SCHEMA = json.loads((ROOT / "schema" / "events.schema.json").read_text(encoding="utf-8"))
VALIDATOR = Draft202012Validator(SCHEMA)
BOTS = ("greedy", "cautious", "random", "trader")
EDITIONS = tuple(b.id for b in monopoly.builtin_rulesets() if b.kind == "edition")
VARIANTS = tuple(b.id for b in monopoly.builtin_rulesets() if b.kind == "variant")
#: Every edition alone, and every variant alone on the classic edition.
SETUPS = [(edition, ()) for edition in EDITIONS] + [("classic", (variant,)) for variant in VARIANTS]


def setup_id(setup: tuple[str, tuple[str, ...]]) -> str:
    return "+".join((setup[0], *setup[1]))


def play(edition: str, variants: tuple[str, ...], seed: int, *, max_turns: int = 300,
         names: tuple[str, ...] = BOTS, observers: tuple[Any, ...] = ()) -> Game:
    ruleset = monopoly.load_ruleset(edition, variants)
    game = Game(ruleset, [monopoly.make_agent(n) for n in names], seed=seed, max_turns=max_turns,
                observers=observers)
    game.play()
    return game


#: The whole schema with its oneOf narrowed to one type's branch, by type (made when first needed).
_BRANCHES: dict[str, Draft202012Validator] = {}


def schema_errors(lines: list[str]) -> list[str]:
    """Every line that does not match the whole schema (its oneOf included), as 'line N: message'.

    The first line of each type meets the whole oneOf (exactly one branch matches it); the others of that
    type meet the same schema with the oneOf narrowed to their branch, which is the same verdict (the branches
    differ in their `type` constant, so no line of this type can match another) at an eighth of the time.
    """
    problems = []
    seen: set[Any] = set()
    for number, line in enumerate(lines, 1):
        event = json.loads(line)
        kind = event.get("type") if isinstance(event, dict) else None
        validator = VALIDATOR
        if kind in seen and kind in SCHEMA["$defs"]:
            validator = _BRANCHES.get(kind)
            if validator is None:
                validator = _BRANCHES[kind] = Draft202012Validator(dict(SCHEMA, oneOf=[{"$ref": f"#/$defs/{kind}"}]))
        seen.add(kind)
        for error in validator.iter_errors(event):
            problems.append(f"line {number}: {error.message} in {line}")
    return problems


# ---------------------------------------------------------------------- the schema itself


def test_schema_is_a_valid_2020_12_schema():
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_schema_has_one_closed_branch_per_event_type():
    types = SCHEMA["properties"]["type"]["enum"]
    assert tuple(types) == EVENT_TYPES  # the engine's list and the schema's agree
    assert [branch["$ref"] for branch in SCHEMA["oneOf"]] == [f"#/$defs/{t}" for t in types]
    for kind in types:
        branch = SCHEMA["$defs"][kind]
        assert branch["properties"]["type"] == {"const": kind, "description": "The event type."}
        assert branch["unevaluatedProperties"] is False, kind
        # logs before them still read; a roll without an extra die, a move past GO once or not
        optional = {"rules", "log", "decks"} if kind == "game_start" else \
            {"extra"} if kind == "roll" else {"passes"} if kind == "move" else set()
        assert set(branch["required"]) == set(branch["properties"]) - optional, kind


def test_every_property_has_a_description():
    missing = []

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            for name, sub in node.get("properties", {}).items():
                if "description" not in sub:
                    missing.append(f"{path}.properties.{name}")
            for key, sub in node.items():
                walk(sub, f"{path}.{key}")
        elif isinstance(node, list):
            for i, sub in enumerate(node):
                walk(sub, f"{path}[{i}]")

    walk(SCHEMA, "$")
    assert not missing


# ---------------------------------------------------------------------- real games


@pytest.mark.parametrize("setup", SETUPS, ids=setup_id)
def test_logged_game_validates_line_by_line(tmp_path, setup):
    edition, variants = setup
    events: list[dict[str, Any]] = []
    path = tmp_path / "game.jsonl"
    with EventLog(path) as log:
        game = play(edition, variants, seed=1, max_turns=120, observers=(events.append, log))
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(events) == log.count
    assert not schema_errors(lines)
    assert read_log(path) == events  # the file round-trips exactly
    assert events[0]["type"] == "game_start" and events[0]["ruleset"] == edition
    assert events[0]["variants"] == list(variants)
    assert events[-1]["type"] == "game_end"
    assert replay_payments(events) == {"cash": game.cash, "pot": game.pot}


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("variants", [(), *((v,) for v in VARIANTS), ("free-parking-jackpot", "tournament")],
                         ids=lambda v: "+".join(v) or "plain")
def test_payments_replay_to_every_seats_final_cash(edition, variants):
    for seed in (1, 2, 3):
        events: list[dict[str, Any]] = []
        game = play(edition, variants, seed, observers=(events.append,))
        replayed = replay_payments(events)
        assert replayed["cash"] == game.cash, f"seed {seed}"
        assert replayed["pot"] == game.pot, f"seed {seed}"
        end = events[-1]
        assert end["type"] == "game_end"
        assert {s["seat"]: s["cash"] for s in end["standings"]} == dict(enumerate(game.cash))
        assert {s["seat"]: s["bankrupt"] for s in end["standings"]} == dict(enumerate(game.bankrupt))
        assert {s["seat"]: s["net_worth"] for s in end["standings"]} == \
            {s: game.valuation(s) for s in range(game.players)}
        verify_payments(events)
        if not {"free-parking-jackpot", "jackpot-seeded", "taxes-to-pot"} & set(variants):  # the variants with a pot
            assert all("pot" not in (e["from"], e["to"]) for e in events if e["type"] == "payment")


# Seeds 1, 3 and 6 end by a bankruptcy in the middle of a turn (the end check must not run twice).
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_game_end_is_the_last_event_and_comes_once(seed):
    events: list[dict[str, Any]] = []
    play("classic", ("short-game",), seed, names=("greedy", "greedy", "random"), observers=(events.append,))
    ends = [i for i, e in enumerate(events) if e["type"] == "game_end"]
    assert ends == [len(events) - 1]


def test_payments_replay_at_every_point_of_a_game():
    """Replaying a prefix of the log gives the cash at that point (checked after every event)."""
    ruleset = monopoly.load_ruleset("classic", ["free-parking-jackpot"])
    events: list[dict[str, Any]] = []
    cash = [0] * 4
    pot = 0
    game = Game(ruleset, [monopoly.make_agent(n) for n in BOTS], seed=5, max_turns=150)

    def check(event: dict[str, Any]) -> None:
        nonlocal pot
        events.append(event)
        if event["type"] == "payment":
            for side, sign in (("from", -1), ("to", 1)):
                who = event[side]
                if who == "pot":
                    pot += sign * event["amount"]
                elif who != "bank":
                    cash[who] += sign * event["amount"]
        assert cash == game.cash and pot == game.pot, f"after event {len(events)}: {event}"

    game.observe(check)
    game.play()
    assert replay_payments(events) == {"cash": game.cash, "pot": game.pot}


# ---------------------------------------------------------------------- rare events, set up


class Scripted(Agent):
    """Bids on buildings up to 100, declines lots, and refuses nothing by itself."""

    name = "scripted"

    def buy(self, game, seat, space):
        return False

    def bid(self, game, seat, item, high_bid, leader):
        return high_bid + 1 if item[0] != "space" and high_bid < 100 else 0


def test_set_up_rare_events_match_the_schema():
    """A building-shortage auction, a refused action, set-up deeds, selling everything
    and a bankruptcy to the pot (with the bank's auctions after it) all match the schema."""
    events: list[dict[str, Any]] = []
    ruleset = monopoly.load_ruleset("classic", ["free-parking-jackpot"])
    game = Game(ruleset, [Scripted(), monopoly.make_agent("greedy"), Scripted()], seed=3,
                observers=[events.append])
    game.start()
    for space, seat in ((1, 0), (3, 0), (6, 1), (8, 1), (9, 1)):
        game.give(space, seat)
    game.houses_left = 1
    assert game.apply(0, Build(1))  # seats 0 and 1 both want the last house: it is auctioned
    assert not game.apply(0, Build(0))  # GO is not a street: refused
    game.cash[0] = 5
    game.carry_out(game.pay_fee(0, 40, "Luxury Tax"))  # short: a lot is mortgaged
    game.carry_out(game.pay_fee(0, 10_000, "Income Tax"))  # owed to the pot, cannot pay: bankrupt to the pot
    lines = [json.dumps(e) for e in events]
    assert not schema_errors(lines)
    kinds = {e["type"] for e in events}
    assert {"property", "auction", "build", "refused", "sell", "mortgage", "bankrupt"} <= kinds
    house_auction = next(e for e in events if e["type"] == "auction")
    assert house_auction["item"] == "house" and house_auction["space"] is None
    assert next(e for e in events if e["type"] == "bankrupt")["creditor"] == "pot"
    assert any(e["type"] == "property" and e["how"] == "setup" for e in events)
    assert any(e["type"] == "property" and e["to"] == "bank" for e in events)
    assert any(e["type"] == "sell" and e["level"] == 0 for e in events)


DOCS = ROOT / "docs" / "events.md"


def test_docs_show_a_valid_example_of_every_event_type():
    text = DOCS.read_text(encoding="utf-8")
    examples = [json.loads(block) for block in re.findall(r"```json\n(\{.*?\})\n```", text, re.S)]
    assert sorted(e["type"] for e in examples) == sorted(EVENT_TYPES)  # one each
    for example in examples:
        assert not schema_errors([json.dumps(example)]), example


def test_docs_list_exactly_the_fields_of_every_event_type():
    sections = re.split(r"^### `(\w+)`\n", DOCS.read_text(encoding="utf-8"), flags=re.M)
    documented = {}
    for name, body in zip(sections[1::2], sections[2::2], strict=True):
        table = body.split("| field | type | meaning |", 1)[1].split("\n\n", 1)[0]
        documented[name] = set(re.findall(r"^\| `(\w+)` \|", table, re.M))
    assert set(documented) == set(EVENT_TYPES)
    for kind in EVENT_TYPES:
        assert documented[kind] == set(SCHEMA["$defs"][kind]["properties"]) - {"type"}, kind


# ---------------------------------------------------------------------- writing and reading


def test_event_log_writes_compact_lines_and_flushes_at_the_end(tmp_path):
    path = tmp_path / "game.jsonl"
    log = EventLog(path)
    events: list[dict[str, Any]] = []
    play("uk", (), 2, max_turns=40, observers=(events.append, log))
    # flushed on game_end: the file is complete before the log is closed
    lines = path.read_text(encoding="utf-8").splitlines()
    log.close()
    assert [json.loads(line) for line in lines] == events
    for line in lines:
        assert line == json.dumps(json.loads(line), separators=(",", ":"), ensure_ascii=False)
    assert "£" in path.read_text(encoding="utf-8")  # UTF-8 text, not \\u escapes


def test_event_log_writes_to_an_open_text_file(tmp_path):
    path = tmp_path / "game.jsonl"
    with path.open("w", encoding="utf-8") as out:
        log = EventLog(out)
        play("classic", (), 4, max_turns=30, observers=(log,))
        log.close()  # flushes; the file stays open for its owner
        assert not out.closed
    assert read_log(path)[-1]["type"] == "game_end"
    with path.open("rb") as binary:
        assert read_log(binary)[-1]["type"] == "game_end"


@pytest.fixture
def logged_lines(tmp_path) -> list[str]:
    path = tmp_path / "good.jsonl"
    with EventLog(path) as log:
        play("classic", (), 9, max_turns=20, observers=(log,))
    return path.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize(("corrupt", "message"), [
    (lambda line: line[: len(line) // 2], "not valid JSON"),
    (lambda line: "", "empty line"),
    (lambda line: "[1, 2]", "expected a JSON object, found list"),
    (lambda line: '{"type": "teleport", "seat": 0}', "unknown event type 'teleport'"),
    (lambda line: '{"seat": 0}', "no 'type'"),
    (lambda line: '{"type":"payment","from":0,"to":"bank","amount":-5,"reason":"rent"}', "payment event.amount"),
    (lambda line: '{"type":"payment","from":0,"to":"bank","amount":5,"reason":"rent","tip":1}', "'tip'"),
    (lambda line: '{"type":"turn","turn":3,"round":0}', "'seat' is a required property"),
])
def test_a_bad_line_is_reported_with_its_number(tmp_path, logged_lines, corrupt, message):
    number = 5
    lines = list(logged_lines)
    lines[number - 1] = corrupt(lines[number - 1])
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(LogError) as caught:
        read_log(path)
    error = caught.value
    assert isinstance(error, ValueError)
    assert error.line == number and error.source == str(path)
    assert str(error).startswith(f"{path}:{number}: ")
    assert message in str(error)


def test_a_line_that_is_not_utf8_is_reported(tmp_path, logged_lines):
    path = tmp_path / "bad.jsonl"
    data = ("\n".join(logged_lines[:2]) + "\n").encode() + b'{"type": "\xff"}\n'
    path.write_bytes(data)
    with pytest.raises(LogError, match=rf"^{re.escape(str(path))}:3: not UTF-8"):
        read_log(path)


def test_reading_without_validation_only_checks_json(tmp_path):
    path = tmp_path / "odd.jsonl"
    path.write_text('{"type": "teleport"}\n', encoding="utf-8")
    assert read_log(path, validate=False) == [{"type": "teleport"}]


def test_verify_payments_names_the_seat_whose_cash_differs():
    events: list[dict[str, Any]] = []
    play("classic", (), 3, max_turns=40, observers=(events.append,))
    verify_payments(events)
    tampered = [e for e in events if not (e["type"] == "payment" and e["reason"] == "starting cash" and e["to"] == 1)]
    with pytest.raises(LogError, match="seat 1: payments give"):
        verify_payments(tampered)
    with pytest.raises(LogError, match="does not end with a game_end"):
        verify_payments(events[:-1])


def test_log_module_examples_run():
    failures, tried = doctest.testmod(log_module, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0


def test_the_turn_loops_two_events_in_one_call_write_what_the_two_writers_write():
    """``apply.next_turn`` and ``apply.roll_and_move`` are the hot loop's two events in one call each: the state
    and the records come out as the one-event writers (``to_move`` then ``turn``; ``roll`` then ``move``) make
    them, and an observer sees each event with the state of its own writer (the state just before the next)."""
    from monopoly.game import apply as writes
    from monopoly.game.state import GameState

    classic = monopoly.load_ruleset("classic")
    for composed, parts in (
        (lambda g: writes.next_turn(g, 2, 3, 7),
         (lambda g: writes.to_move(g, 2, 3), lambda g: writes.turn(g, 7, 3, 2))),
        (lambda g: writes.roll_and_move(g, 1, (3, 4), 5, 12, False),
         (lambda g: writes.roll(g, 1, (3, 4)), lambda g: writes.move(g, 1, 5, 12, False))),
    ):
        one, two = Game(classic, players=4, seed=3), Game(classic, players=4, seed=3)
        seen_one: list[GameState] = []
        seen_two: list[GameState] = []
        for game, seen in ((one, seen_one), (two, seen_two)):
            game.start()
            def record(entry: tuple[Any, ...], game: Game = game, seen: list[GameState] = seen,
                       keep: Any = game.record) -> None:
                seen.append(GameState.of(game))
                keep(entry)

            game.record = record
        composed(one)
        for part in parts:
            part(two)
        assert one.events[-2:] == two.events[-2:]
        assert GameState.of(one) == GameState.of(two)
        # each record is made with the state its own writer leaves before it (as observers and replay see it)
        assert seen_one[-2:] == seen_two[-2:]


def test_each_type_code_is_its_place_in_types():
    """The codes are written out as Final constants (compiled as literals): each must be its type's place."""
    from monopoly.game import events as ev
    assert [getattr(ev, name.upper()) for name, _ in ev.TYPES] == list(range(len(ev.TYPES)))
    assert {name: getattr(ev, name.upper()) for name, _ in ev.TYPES} == ev.CODES
