"""Wrong answers from agents, damaged saves and doctored logs: refused with a reason, never a crash."""

from __future__ import annotations

import json

import pytest

import monopoly
from monopoly import SaveError, Trade, game_from_json, game_to_json

CLASSIC = monopoly.load_ruleset("classic")


class Bidder(monopoly.Agent):
    def __init__(self, bid):
        self.answer = bid

    def buy(self, game, seat, space):
        return False

    def bid(self, game, seat, item, high_bid, leader):
        return self.answer


@pytest.mark.parametrize("bid", ["10", 10.5, True, [10]])
def test_a_bid_that_is_not_a_whole_number_is_refused(bid):
    game = monopoly.Game(CLASSIC, [Bidder(bid), Bidder(0)], seed=1)
    game.start()
    game.fix_dice([(1, 2)])  # onto Baltic Avenue, declined, auctioned
    events = []
    game.observe(events.append)
    game.play_turn()
    assert game.cash == [1500, 1500] and game.owner[3] == -1
    [refused] = [e for e in events if e["type"] == "refused"]
    assert "whole number" in refused["reason"]


@pytest.mark.parametrize("trade", [
    Trade(0, 1, give_spaces=("1",)),
    Trade(0, 1, give_cash="5", give_spaces=(1,)),
    Trade(0, 1, give_cash=2.5, give_spaces=(1,)),
    Trade(0, 1, give_cards=(("chance", "x"),)),
    Trade(0, 1, give_spaces=1),  # type: ignore[arg-type]
    Trade(0, True, give_spaces=(1,)),
    Trade(0, 1, give_spaces=(99,)),
])
def test_malformed_trades_are_refused_and_change_nothing(trade):
    game = monopoly.Game(CLASSIC, [monopoly.Agent(), monopoly.Agent()], seed=1)
    game.start()
    game.give(1, 0)
    before = game_to_json(game)["state"]
    refused = []
    game.observe(lambda e: refused.append(e) if e["type"] == "refused" else None)
    assert game.apply(0, trade) is False
    assert game_to_json(game)["state"] == before and refused


def saved():
    game = monopoly.Game(CLASSIC, [monopoly.make_agent("greedy"), monopoly.make_agent("greedy")], seed=4)
    for _ in range(6):
        game.play_turn()
    return json.loads(json.dumps(game_to_json(game)))


@pytest.mark.parametrize("change", [
    lambda s: s.__setitem__("current", 5),
    lambda s: s["position"].__setitem__(0, 999),
    lambda s: s["owner"].__setitem__(1, 9),
    lambda s: s["owner"].__setitem__(0, 1),  # GO cannot be owned
    lambda s: s["buildings"].__setitem__(1, 9),
    lambda s: s["decks"]["chance"].append(99),
    lambda s: s["decks"]["chance"].pop(),
    lambda s: s.__setitem__("houses_left", 33),  # more than the box (fewer is a shortage set up by hand)
    lambda s: s["cash"].__setitem__(0, "lots"),
    lambda s: s["bankrupt"].__setitem__(1, True),
])
def test_a_damaged_save_is_refused(change):
    data = saved()
    change(data["state"])
    with pytest.raises(SaveError, match="damaged"):
        game_from_json(data, CLASSIC, [monopoly.make_agent("greedy"), monopoly.make_agent("greedy")])


def test_an_intact_save_loads():
    data = saved()
    game = game_from_json(data, CLASSIC, [monopoly.make_agent("greedy"), monopoly.make_agent("greedy")])
    assert game.turn == 6


def test_resume_of_a_damaged_save_exits_one(runner, cli, tmp_path):
    data = saved()
    data["state"]["current"] = 5
    path = tmp_path / "save.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    before = path.read_bytes()
    result = runner.invoke(cli, ["play", "--resume", str(path)])
    assert result.exit_code == 1 and "damaged" in result.output
    assert path.read_bytes() == before  # never overwritten


def test_replay_of_a_log_naming_a_missing_seat_or_space_exits_one(runner, cli, tmp_path):
    folder = tmp_path / "logs"
    assert runner.invoke(cli, ["simulate", "classic", "--games", "1", "--max-turns", "20", "--log", str(folder),
                               "--format", "json"]).exit_code == 0
    [log] = folder.iterdir()
    lines = log.read_text(encoding="utf-8").splitlines()
    turn = next(i for i, line in enumerate(lines) if '"type":"turn"' in line)
    move = next(i for i, line in enumerate(lines) if '"type":"move"' in line)
    for index, old, new, words in ((turn, '"seat":0', '"seat":7', "no seat 7"),
                                   (move, '"to":', '"to":99,"x":', None)):
        doctored = list(lines)
        doctored[index] = doctored[index].replace(old, new, 1)
        if words is None:
            event = json.loads(lines[index])
            event["to"] = 99
            doctored[index] = json.dumps(event, separators=(",", ":"))
            words = "no space 99"
        bad = tmp_path / "bad.jsonl"
        bad.write_text("\n".join(doctored) + "\n", encoding="utf-8")
        result = runner.invoke(cli, ["replay", str(bad)])
        assert result.exit_code == 1, result.output
        assert words in result.output and f"bad.jsonl:{index + 1}:" in result.output


@pytest.mark.parametrize("command", [["render", "classic"], ["analyze", "classic"],
                                     ["analyze", "classic", "--format", "html"]])
def test_an_unwritable_output_is_a_clear_error(command, runner, cli, tmp_path):
    target = tmp_path / "missing-folder" / "out.file"
    result = runner.invoke(cli, [*command, "-o", str(target)])
    assert result.exit_code == 1 and "out.file: it cannot be written" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_render_writes_the_file_it_is_given(runner, cli, tmp_path):
    target = tmp_path / "board.svg"
    result = runner.invoke(cli, ["render", "classic", "-o", str(target)])
    assert result.exit_code == 0 and target.read_text(encoding="utf-8").startswith("<svg")
