"""Positions as data: GameState copies, goes to JSON and back, lists every rule it breaks; set-ups by name."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import monopoly
from monopoly.game.game import Game
from monopoly.game.save import position_to_json
from monopoly.game.state import GameState, Setup, StateError

CLASSIC = monopoly.load_ruleset("classic")


def bots(*names: str) -> list:
    return [monopoly.make_agent(name) for name in names]


def played(turns: int, seed: int = 3) -> Game:
    game = Game(CLASSIC, bots("greedy", "cautious", "trader"), seed=seed, max_turns=500)
    for _ in range(turns):
        game.play_turn()
    return game


# ---------------------------------------------------------------------- data


def test_a_state_round_trips_through_json_and_back_into_a_game():
    game = played(40)
    state = game.state()
    data = json.loads(json.dumps(state.to_json()))
    again = GameState.from_json(data, CLASSIC, players=3, max_turns=500)
    assert again == state and again.to_json() == data
    other = Game.from_state(CLASSIC, bots("greedy", "cautious", "trader"), again, seed=game.seed, max_turns=500)
    for _ in range(30):  # the same dice and decisions: the same game
        game.play_turn()
        other.play_turn()
    assert other.state() == game.state()


def test_a_copy_is_independent_and_the_game_is_not_touched():
    game = played(30)
    before = game.state()
    copy = before.copy()
    copy.cash[0] += 1000
    copy.owner[39] = 2
    copy.decks["chance"].reverse()
    copy.held_cards[1].append(("chance", 0))
    assert game.state() == before and copy != before
    assert before.to_json() == GameState.of(game).to_json()


def test_a_state_taken_from_a_game_does_not_move_with_it():
    game = played(10)
    state = game.state()
    snapshot = state.to_json()
    for _ in range(10):
        game.play_turn()
    assert state.to_json() == snapshot


def test_a_search_agent_plays_a_copy_on_and_the_original_is_unchanged():
    game = played(25)
    before = game.state()
    trial = Game.from_state(CLASSIC, bots("greedy", "greedy", "greedy"), game.state(), seed=99, max_turns=500,
                            keep_dice=False)
    for _ in range(50):
        if not trial.finished:
            trial.play_turn()
    assert trial.state() != before
    assert game.state() == before


def test_every_real_position_breaks_no_rule():
    for seed in (1, 2, 3):
        game = Game(CLASSIC, bots("greedy", "trader", "random", "cautious"), seed=seed, max_turns=300)
        while not game.finished:
            game.play_turn()
            assert game.state().problems(CLASSIC, max_turns=300) == []


# ---------------------------------------------------------------------- problems


def test_a_broken_position_lists_every_problem():
    setup = Setup(CLASSIC, players=2)
    setup.state.buildings[1] = 9          # 9 buildings on Mediterranean Avenue
    setup.state.position[1] = 57          # a token on square 57 of 40
    setup.state.cash[0] = -5
    problems = setup.problems()
    assert any("buildings[1] is 9" in p for p in problems)
    assert any("position[1] is 57" in p and "past the board" in p for p in problems)
    assert any("cash[0] is -5" in p for p in problems)
    with pytest.raises(StateError) as caught:
        setup.checked()
    assert caught.value.problems == problems
    with pytest.raises(StateError):
        Game.from_state(CLASSIC, bots("greedy", "greedy"), setup.state)


def test_a_game_with_one_player_left_is_over_or_the_position_is_broken():
    """The last bankruptcy but one ends a game at once (between turns nothing more checks for it)."""
    setup = Setup(CLASSIC, players=3)
    setup.state.bankrupt[1] = setup.state.bankrupt[2] = True
    setup.state.bankrupt_order[:] = [1, 2]
    setup.state.cash[1] = setup.state.cash[2] = 0
    assert any("only seat 0 is still in the game, but the game is not finished" in p for p in setup.problems())
    setup.state.bankrupt[2] = False
    setup.state.bankrupt_order[:] = [1]
    assert setup.problems() == []


def test_buildings_need_the_whole_group_of_one_owner_unmortgaged_and_even():
    setup = Setup(CLASSIC, players=2).give("Boardwalk", 0).give("Park Place", 1).build("Boardwalk", 1)
    assert any("do not all have one owner" in p for p in setup.problems())
    setup.give("Park Place", 0).mortgage("Park Place")
    assert any("Park Place is mortgaged" in p for p in setup.problems())
    setup.mortgage("Park Place", False).build("Boardwalk", 4)
    assert any("uneven (0/4)" in p for p in setup.problems())
    setup.build("Park Place", 3)
    assert setup.problems() == []


def test_the_bank_stock_follows_the_buildings_placed():
    setup = Setup(CLASSIC, players=2)
    for name in ("Mediterranean Avenue", "Baltic Avenue"):
        setup.give(name, 1).build(name, 5)
    assert (setup.state.houses_left, setup.state.hotels_left) == (32, 10)
    setup.build("Baltic Avenue", 4)
    assert (setup.state.houses_left, setup.state.hotels_left) == (28, 11)
    assert setup.problems() == []


# ---------------------------------------------------------------------- set-ups


def test_a_set_up_position_plays_by_the_rules():
    # Seat 1 owns Park Place and Boardwalk with hotels; seat 0, who owns nothing, rolls 4 from Short Line.
    setup = (Setup(CLASSIC, players=2).give("Park Place", 1).give("Boardwalk", 1).build("Park Place", 5)
             .build("Boardwalk", 5).place(0, "Short Line").to_move(0))
    game = Game.from_state(CLASSIC, bots("cautious", "cautious"), setup.checked(), seed=5)
    game.fix_dice([(1, 3)])
    game.play_turn()
    assert game.position[0] == 39
    assert game.bankrupt[0] and game.cash[1] == 1500 + 1500  # $2,000 due, all $1,500 paid, then bankrupt
    assert game.finished and game.winner == 1


def test_jail_kept_cards_and_a_stacked_deck():
    setup = (Setup(CLASSIC, players=2).jail(0, tries=2).give_card(1, "chance", "Get Out of Jail Free")
             .stack("community_chest", ["Bank error"]).place(1, "Virginia Avenue").to_move(1))
    state = setup.checked()
    assert state.position[0] == 10 and state.jail_turns[0] == 2
    assert state.held_cards[1] == [("chance", 6)] and len(state.decks["chance"]) == 15
    game = Game.from_state(CLASSIC, bots("cautious", "cautious"), state, seed=1)
    game.fix_dice([(1, 2)])  # Virginia Avenue (14) + 3: Community Chest (17), the stacked card on top
    game.play_turn()
    assert game.position[1] == 17 and game.cash[1] == 1700  # "Bank error in your favor. Collect $200."
    assert game.jail_turns[0] == 2 and game.position[0] == 10
    assert game.held_cards[1] == [("chance", 6)]


def test_set_up_errors_name_what_is_wrong():
    setup = Setup(CLASSIC, players=2)
    with pytest.raises(ValueError, match="did you mean Boardwalk"):
        setup.give("Boardwalkk", 0)
    with pytest.raises(ValueError, match="no seat 5"):
        setup.give("Boardwalk", 5)
    with pytest.raises(ValueError, match="no deck"):
        setup.stack("fortune", [0])
    with pytest.raises(ValueError, match="no card"):
        setup.give_card(0, "chance", "Win the lottery")


# ---------------------------------------------------------------------- simulate --from


def _position_file(tmp_path, state: GameState, ruleset=CLASSIC):
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position_to_json(ruleset, state)))
    return path


def test_simulate_from_a_position_says_who_is_winning(tmp_path):
    from monopoly.cli.main import cli

    setup = Setup(CLASSIC, players=2, seed=4)
    for name in ("St. James Place", "Tennessee Avenue", "New York Avenue", "Kentucky Avenue", "Indiana Avenue",
                 "Illinois Avenue"):
        setup.give(name, 0).build(name, 4)
    setup.set_cash(1, 300)
    path = _position_file(tmp_path, setup.checked())
    args = ["simulate", "classic", "--from", str(path), "--players", "greedy,greedy", "--games", "60", "--seed", "1",
            "--format", "json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    seats = data["summary"]["seats"]
    assert seats[0]["wins"] > seats[1]["wins"] and seats[0]["ci95"][0] > 0.5
    assert data["start"]["turn"] == 0
    assert CliRunner().invoke(cli, args).output == result.output  # the same seeds, the same games
    parallel = CliRunner().invoke(cli, [*args, "--jobs", "2"])
    assert json.loads(parallel.output)["summary"] == data["summary"]


def test_simulate_from_a_save_of_monopoly_play(tmp_path):
    from monopoly.cli.main import cli

    save = tmp_path / "game.save"
    person = CliRunner().invoke(cli, ["play", "classic", "--players", "you,greedy", "--seed", "4", "--save",
                                      str(save)], input="n\n\n\n\n\n\nquit\n")
    assert person.exit_code == 0, person.output
    result = CliRunner().invoke(cli, ["simulate", "classic", "--from", str(save), "--players", "greedy,cautious",
                                      "--games", "20"])
    assert result.exit_code == 0, result.output
    assert "Played on from" in result.output and "Wins by seat" in result.output


def test_simulate_from_a_damaged_position_lists_every_problem(tmp_path):
    from monopoly.cli.main import cli

    setup = Setup(CLASSIC, players=2).give("Boardwalk", 0).build("Boardwalk", 9)
    setup.state.position[1] = 57
    path = _position_file(tmp_path, setup.state)
    result = CliRunner().invoke(cli, ["simulate", "classic", "--from", str(path), "--players", "greedy,greedy"])
    assert result.exit_code == 1
    assert "position[1] is 57" in result.output and "buildings[39] is 9" in result.output
    other = CliRunner().invoke(cli, ["simulate", "uk", "--from", str(path), "--players", "greedy,greedy"])
    assert other.exit_code == 1 and "is a position of classic" in other.output
    three = CliRunner().invoke(cli, ["simulate", "classic", "--from", str(_position_file(
        tmp_path, Setup(CLASSIC, players=2).state)), "--players", "greedy,greedy,greedy"])
    assert three.exit_code == 2 and "has 2 players, not 3" in three.output


def test_simulate_from_a_save_alone_takes_its_built_in_ruleset_and_a_greedy_bot_a_seat(tmp_path):
    from monopoly.cli.main import cli

    save = tmp_path / "game.save"
    person = CliRunner().invoke(cli, ["play", "classic", "--players", "you,trader,cautious", "--seed", "4", "--save",
                                      str(save)], input="n\n\n\n\n\n\n\n\nquit\n")
    assert person.exit_code == 0, person.output
    result = CliRunner().invoke(cli, ["simulate", "--from", str(save), "--games", "30", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["summary"]["ruleset"] == "classic" and data["summary"]["games"] == 30
    assert [seat["agent"] for seat in data["summary"]["seats"]] == ["greedy", "greedy", "greedy"]
    assert data["start"]["turn"] > 0
    named = CliRunner().invoke(cli, ["simulate", "classic", "--from", str(save), "--players", "greedy,greedy,greedy",
                                     "--games", "30", "--format", "json"])
    assert json.loads(named.output)["summary"] == data["summary"]  # the same as naming them


def test_simulate_needs_a_ruleset_or_a_position_and_a_file_ruleset_given(tmp_path):
    from monopoly.cli.main import cli

    bare = CliRunner().invoke(cli, ["simulate"])
    assert bare.exit_code == 2 and "give the ruleset to simulate" in bare.output
    mine = tmp_path / "mine.yaml"
    mine.write_text("id: mine\nname: Mine\nextends: classic\n")
    ruleset = monopoly.load_ruleset(str(mine))
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position_to_json(ruleset, Setup(ruleset, players=2).checked())))
    alone = CliRunner().invoke(cli, ["simulate", "--from", str(path), "--games", "5"])
    assert alone.exit_code == 2 and "give its ruleset as NAME_OR_PATH" in alone.output, alone.output
    given = CliRunner().invoke(cli, ["simulate", str(mine), "--from", str(path), "--games", "5"])
    assert given.exit_code == 0, given.output


def test_simulate_from_a_finished_game_says_there_is_nothing_to_play_on(tmp_path):
    from monopoly.cli.main import cli

    save = tmp_path / "done.save"
    played = CliRunner().invoke(cli, ["play", "classic", "--players", "greedy,cautious", "--seed", "3", "--max-turns",
                                      "20", "--save", str(save)])
    assert played.exit_code == 0, played.output
    result = CliRunner().invoke(cli, ["simulate", "--from", str(save), "--games", "5"])
    assert result.exit_code == 1
    assert "is over (turn_limit, after turn 20): there is nothing to play on" in result.output
