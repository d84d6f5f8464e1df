"""`monopoly simulate` and `monopoly.sim`: reproducible batches, statistics, logs and variants."""

from __future__ import annotations

import doctest
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import monopoly
from monopoly import sim
from monopoly.cli.main import cli
from monopoly.game import log
from monopoly.sim import simulate, summarize, wilson

ENDS = {"last_standing", "bankruptcies", "time", "turn_limit"}
MIXED = "greedy,cautious,random,trader"


def run(*args: str) -> Any:
    result = CliRunner().invoke(cli, ["simulate", *args])
    assert result.exit_code == 0, result.output
    return result


def run_json(*args: str) -> dict[str, Any]:
    return json.loads(run(*args, "--format", "json").output)


def read_log(path: Path) -> list[dict[str, Any]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    events = [json.loads(line) for line in lines]
    # compact, one event a line, UTF-8 (docs/events.md)
    assert lines == [json.dumps(e, separators=(",", ":"), ensure_ascii=False) for e in events]
    return events


def replay_payments(events: list[dict[str, Any]]) -> tuple[dict[int, int], int]:
    """Every seat's cash and the pot, from the payment events alone (the engine's one replayer)."""
    replayed = log.replay_payments(events)
    assert replayed["pot"] >= 0
    return dict(enumerate(replayed["cash"])), replayed["pot"]


def payments(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "payment"]


# ---------------------------------------------------------------- reproducibility (the "must show" command)


@pytest.fixture(scope="module")
def classic_200() -> str:
    return run("classic", "--games", "200", "--seed", "1", "--format", "json").output


def test_same_command_twice_gives_identical_json(classic_200):
    assert run("classic", "--games", "200", "--seed", "1", "--format", "json").output == classic_200


def test_jobs_2_gives_identical_json(classic_200):
    assert run("classic", "--games", "200", "--seed", "1", "--format", "json", "--jobs", "2").output == classic_200


def test_every_game_ends_and_the_cap_share_is_reported(classic_200):
    data = json.loads(classic_200)
    games, summary = data["games"], data["summary"]
    assert [g["seed"] for g in games] == list(range(1, 201))
    for game in games:
        assert game["end"] in {"last_standing", "turn_limit"}  # classic has no other end
        assert 0 < game["turns"] <= 1000
        assert (game["winner"] is None) == (game["end"] == "turn_limit")
        assert len(game["standings"]) == 4
        if game["winner"] is not None:
            assert game["standings"][0]["seat"] == game["winner"]
        if game["end"] == "last_standing":
            assert sum(s["bankrupt"] for s in game["standings"]) == 3
    capped = sum(g["end"] == "turn_limit" for g in games)
    assert summary["turn_limit"] == {"games": capped, "share": round(capped / 200, 6)}
    assert sum(summary["ends"].values()) == 200
    assert summary["ends"].get("turn_limit", 0) == capped
    # a draw is a win for nobody
    assert sum(s["wins"] for s in summary["seats"]) + summary["no_winner"] == 200
    assert summary["agents"] == [{"agent": "greedy", "seats": 4, "wins": 200 - summary["no_winner"],
                                  "win_rate": round((200 - summary["no_winner"]) / 200, 6),
                                  "ci95": summary["agents"][0]["ci95"], "fair_share": 1.0}]
    turns = sorted(g["turns"] for g in games)
    assert summary["turns"]["min"] == turns[0] and summary["turns"]["max"] == turns[-1]
    assert summary["turns"]["p90"] == turns[179]  # nearest rank: the 180th of 200


def test_text_summary():
    out = run("classic", "--games", "12", "--players", MIXED, "--max-turns", "300").output
    assert "classic: 12 games, seeds 1..12, turn cap 300" in out
    assert "Wins by seat (95% confidence interval):" in out
    for name in MIXED.split(","):
        assert name in out
    assert "Wins by agent" in out and "fair share" in out
    assert "Game length (turns): mean " in out and "median" in out and "p90" in out
    assert "Stopped by the turn cap: " in out
    assert "Ends: " in out
    assert "simulating" not in out  # no progress bar when the output is not a terminal


def test_library_jobs_and_chunks_do_not_change_games_or_logs(tmp_path):
    classic = monopoly.load_ruleset("classic")
    names = MIXED.split(",")
    seen: list[list[int]] = [[], []]
    one = simulate(classic, names, games=7, seed=40, jobs=1, max_turns=150, log_dir=tmp_path / "one",
                   progress=seen[0].append)
    three = simulate(classic, names, games=7, seed=40, jobs=3, max_turns=150, log_dir=tmp_path / "three",
                     progress=seen[1].append)
    assert one.to_json() == three.to_json()
    assert sum(seen[0]) == sum(seen[1]) == 7
    files = sorted(p.name for p in (tmp_path / "one").iterdir())
    assert files == sorted(f"game-{seed}.jsonl" for seed in range(40, 47))
    for name in files:
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "three" / name).read_bytes()


def test_logging_does_not_change_results(tmp_path):
    classic = monopoly.load_ruleset("classic")
    plain = simulate(classic, ["greedy", "trader", "cautious"], games=3, seed=5, max_turns=200)
    logged = simulate(classic, ["greedy", "trader", "cautious"], games=3, seed=5, max_turns=200, log_dir=tmp_path)
    assert plain.to_json() == logged.to_json()


# ---------------------------------------------------------------- event logs


def test_log_writes_one_jsonl_per_game_and_payments_replay_to_final_cash(tmp_path):
    data = run_json("classic", "--games", "6", "--seed", "3", "--players", MIXED, "--max-turns", "300",
                    "--log", str(tmp_path / "logs"))
    logs = sorted((tmp_path / "logs").iterdir())
    assert [p.name for p in logs] == sorted(f"game-{seed}.jsonl" for seed in range(3, 9))
    for game in data["games"]:
        events = read_log(tmp_path / "logs" / f"game-{game['seed']}.jsonl")
        assert events[0]["type"] == "game_start" and events[0]["seed"] == game["seed"]
        end = events[-1]
        assert end["type"] == "game_end"
        assert [e["type"] for e in events].count("game_end") == 1
        assert (end["end"], end["winner"], end["turns"]) == (game["end"], game["winner"], game["turns"])
        assert end["standings"] == game["standings"]
        cash, _pot = replay_payments(events)
        assert cash == {s["seat"]: s["cash"] for s in end["standings"]}
    # and the project's reader accepts them: every event valid against schema/events.schema.json
    events = log.read_log(tmp_path / "logs" / "game-3.jsonl")
    log.verify_payments(events)


# ---------------------------------------------------------------- variants change what they should


def test_short_game_ends_at_the_second_bankruptcy(tmp_path):
    data = run_json("classic", "--variant", "short-game", "--games", "16", "--players", MIXED, "--max-turns", "500")
    ends = {g["end"] for g in data["games"]}
    assert ends <= {"bankruptcies", "turn_limit"} and "bankruptcies" in ends
    for game in data["games"]:
        standings = game["standings"]
        bankrupt = sum(s["bankrupt"] for s in standings)
        if game["end"] == "bankruptcies":
            assert bankrupt == 2
            alive = [s for s in standings if not s["bankrupt"]]
            assert game["winner"] == alive[0]["seat"]
            assert alive[0]["net_worth"] == max(s["net_worth"] for s in alive)
        else:
            assert bankrupt < 2 and game["winner"] is None


def test_short_game_deals_two_deeds_each(tmp_path):
    run("classic", "--variant", "short-game", "--games", "2", "--max-turns", "20", "--log", str(tmp_path))
    for path in tmp_path.iterdir():
        events = read_log(path)
        first_turn = next(i for i, e in enumerate(events) if e["type"] == "turn")
        dealt = [e for e in events[:first_turn] if e["type"] == "property" and e["how"] == "deal"]
        assert sorted(e["to"] for e in dealt) == [0, 0, 1, 1, 2, 2, 3, 3]
    classic_logs = tmp_path / "classic"
    run("classic", "--games", "2", "--max-turns", "20", "--log", str(classic_logs))
    for path in classic_logs.iterdir():
        assert not [e for e in read_log(path) if e["type"] == "property" and e["how"] == "deal"]


def test_time_limit_ends_with_time_at_the_round_limit():
    limit = monopoly.load_ruleset("classic", ["time-limit"]).rules.end.rounds
    data = run_json("classic", "--variant", "time-limit", "--games", "10", "--players", MIXED)
    ends = {g["end"] for g in data["games"]}
    assert ends <= {"time", "last_standing"} and "time" in ends
    for game in data["games"]:
        if game["end"] == "time":
            assert game["rounds"] == limit
            assert game["winner"] == game["standings"][0]["seat"]
        else:
            assert game["rounds"] <= limit


def test_time_limit_gives_every_seat_the_same_number_of_turns(tmp_path):
    limit = monopoly.load_ruleset("classic", ["time-limit"]).rules.end.rounds
    data = run_json("classic", "--variant", "time-limit", "--games", "1", "--log", str(tmp_path))
    assert data["games"][0]["end"] == "time"
    turns = [e["seat"] for e in read_log(tmp_path / "game-1.jsonl") if e["type"] == "turn"]
    assert [turns.count(seat) for seat in range(4)] == [limit] * 4


def test_the_pot_exists_only_with_the_jackpot_variant(tmp_path):
    for variants, dirname in (([], "classic"), (["--variant", "free-parking-jackpot"], "jackpot")):
        run("classic", *variants, "--games", "6", "--players", MIXED, "--max-turns", "300",
            "--log", str(tmp_path / dirname))
    to_pot = from_pot = 0
    for path in (tmp_path / "jackpot").iterdir():
        events = read_log(path)
        cash, _pot = replay_payments(events)
        assert cash == {s["seat"]: s["cash"] for s in events[-1]["standings"]}
        to_pot += sum(p["to"] == "pot" for p in payments(events))
        from_pot += sum(p["from"] == "pot" for p in payments(events))
    assert to_pot and from_pot  # fees fill the pot, Free Parking empties it
    for path in (tmp_path / "classic").iterdir():
        assert not [p for p in payments(read_log(path)) if "pot" in (p["from"], p["to"])]


# ---------------------------------------------------------------- usage errors


@pytest.mark.parametrize(("args", "message"), [
    (["--players", "greedy,greedyy"], "did you mean 'greedy'"),
    (["--players", "greedy"], "2 to 8 players, not 1"),
    (["--players", ",".join(["random"] * 9)], "2 to 8 players, not 9"),
    (["--players", "greedy,,random"], "empty agent name"),
    (["--jobs", "0"], "--jobs"),
    (["--games", "0"], "--games"),
    (["--max-turns", "0"], "--max-turns"),
    (["--format", "xml"], "--format"),
])
def test_usage_errors_exit_2(args, message):
    result = CliRunner().invoke(cli, ["simulate", "classic", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output


def test_unknown_ruleset_is_a_usage_error():
    result = CliRunner().invoke(cli, ["simulate", "clasic"])
    assert result.exit_code == 2 and "did you mean 'classic'" in result.output


def test_log_path_that_is_a_file_is_a_usage_error(tmp_path):
    (tmp_path / "file").write_text("")
    result = CliRunner().invoke(cli, ["simulate", "classic", "--games", "1", "--log", str(tmp_path / "file" / "x")])
    assert result.exit_code == 2 and "--log" in result.output


def test_library_refuses_bad_input():
    classic = monopoly.load_ruleset("classic")
    with pytest.raises(ValueError, match="did you mean 'cautious'"):
        simulate(classic, ["greedy", "cautius"], games=1)
    with pytest.raises(monopoly.SetupError):
        simulate(classic, ["greedy"], games=1)
    with pytest.raises(ValueError, match="games"):
        simulate(classic, ["greedy", "greedy"], games=0)
    with pytest.raises(ValueError, match="jobs"):
        simulate(classic, ["greedy", "greedy"], games=1, jobs=0)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failing_game_names_its_seed(monkeypatch, jobs):
    class Broken(monopoly.Agent):
        name = "broken"

        def buy(self, game, seat, space):
            raise RuntimeError("boom")

    monkeypatch.setitem(monopoly.BOTS, "broken", Broken)  # forked workers inherit it
    with pytest.raises(sim.AgentFailure, match=r"raised RuntimeError: boom .* seed (9|10)$"):
        simulate(monopoly.load_ruleset("classic"), ["broken", "broken"], games=2, seed=9, jobs=jobs)


# ---------------------------------------------------------------- statistics


def test_wilson_interval():
    low, high = wilson(5, 10)
    assert round(low, 4) == 0.2366 and round(high, 4) == 0.7634
    assert wilson(0, 50)[0] == 0.0 and wilson(50, 50)[1] == 1.0
    low, high = wilson(380, 1000)
    assert low < 0.38 < high and round(high - low, 3) == 0.060


def test_summary_counts_draws_as_wins_for_nobody_and_groups_agents():
    Standing, Result = monopoly.Standing, monopoly.Result

    def result(seed: int, winner: int | None, end: str, turns: int) -> Any:
        standings = tuple(Standing(s, n, 0, 0, False) for s, n in enumerate(["a", "b", "a"]))
        return Result(seed, winner, end, turns, turns // 3, standings)

    results = [result(1, 0, "last_standing", 10), result(2, 2, "last_standing", 20),
               result(3, None, "turn_limit", 30), result(4, 1, "last_standing", 40)]
    summary = summarize(results, ["a", "b", "a"], ruleset="x", max_turns=30)
    assert [s.wins for s in summary.seats] == [1, 1, 1] and summary.no_winner == 1
    assert [(a.agent, a.seats, a.wins, a.win_rate, a.fair_share) for a in summary.agents] == [
        ("a", 2, 2, 0.5, 0.666667), ("b", 1, 1, 0.25, 0.333333)]
    assert (summary.turns.mean, summary.turns.median, summary.turns.p90) == (25.0, 25.0, 40)
    assert summary.turn_limit == 1 and summary.turn_limit_share == 0.25
    assert summary.to_json()["ends"] == {"last_standing": 3, "turn_limit": 1}
    assert summary.seeds == (1, 4)


def test_docstring_examples():
    failures, tried = doctest.testmod(sim)
    assert tried > 0 and failures == 0


def test_a_dedicated_process_freezes_what_is_loaded_and_collects_young_objects_less_often():
    import gc

    from monopoly.sim import YOUNG_THRESHOLD

    def events() -> list[tuple[object, ...]]:
        game = monopoly.Game(monopoly.load_ruleset("classic"), [monopoly.make_agent("trader") for _ in range(4)],
                             seed=3, max_turns=300)
        game.play()
        return list(game.events)

    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    plain = events()
    try:
        monopoly.dedicate_process()
        assert gc.get_threshold() == (YOUNG_THRESHOLD, *before[1:])
        assert gc.get_freeze_count() > frozen
        assert events() == plain  # the collector decides nothing of a game
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()
