"""Save files from strangers: every damage refused with a message naming it, in bounded time, never a crash.

Each case starts from a healthy save (one that loads) and damages one thing;
the refusal must name that thing. The property tests play real games with the
built-in bots and check that every save the engine writes passes all the
checks and loads back to the identical JSON.
"""

from __future__ import annotations

import copy
import functools
import json
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import monopoly
from monopoly import Build, SaveError, game_from_json, game_to_json
from monopoly.game.save import MAX_SAVE_BYTES, MAX_SHOWN, check_state, read_save_file

from .strategies import EDITIONS, agent_lineups, rulesets, seeds, variant_combos

CLASSIC = monopoly.load_ruleset("classic")
NAMES = ["greedy", "greedy"]
LIGHT_BLUE = (6, 8, 9)  # Oriental, Vermont and Connecticut Avenue
CHANCE_KEEP = 6  # Get Out of Jail Free, the one chance card a player keeps (its slot is 7)
DEEP = 100_000


def agents(names: list[str] = NAMES) -> list[monopoly.Agent]:
    return [monopoly.make_agent(name) for name in names]


@pytest.fixture(scope="module")
def healthy() -> dict[str, Any]:
    """A save with something everywhere: seat 0 built a house on each light blue lot, seat 1 owns a lot,
    and both have moved."""
    game = monopoly.Game(CLASSIC, agents(), seed=11)
    game.start()
    for space in LIGHT_BLUE:
        game.give(space, 0)
    for space in LIGHT_BLUE:
        assert game.apply(0, Build(space))
    game.give(1, 1)
    game.position = [5, 12]
    data = json.loads(json.dumps(game_to_json(game)))
    game_from_json(copy.deepcopy(data), CLASSIC, agents())  # it loads as it is
    return data


@pytest.fixture
def save(healthy) -> dict[str, Any]:
    return copy.deepcopy(healthy)


def refused(data: Any, *words: str, names: list[str] = NAMES) -> SaveError:
    with pytest.raises(SaveError) as caught:
        game_from_json(data, CLASSIC, agents(names))
    message = str(caught.value)
    for word in words:
        assert word in message
    assert isinstance(caught.value, ValueError)
    assert len(message) < 4000 and message.isprintable()
    return caught.value


def write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


# ---------------------------------------------------------------------- the generator's state


def _set_rng_word(index: int, value: Any):
    return lambda s: s["state"]["rng"][1].__setitem__(index, value)


@pytest.mark.parametrize(("damage", "words"), [
    (_set_rng_word(0, 2**64), ["state.rng[1] has 1 numbers", "0 to 4294967295", "[0] is 18446744073709551616"]),
    (_set_rng_word(5, -1), ["state.rng[1] has 1 numbers", "[5] is -1"]),
    (_set_rng_word(7, 2**32), ["[7] is 4294967296"]),
    (_set_rng_word(9, "x"), ["[9] is 'x'"]),
    (_set_rng_word(624, 625), ["state.rng[1][624] is 625, not an index from 0 to 624"]),
    (lambda s: s["state"]["rng"][1].pop(), ["state.rng[1] is a list of 624 items, not a list of 625 numbers"]),
    (lambda s: s["state"]["rng"][1].append(0), ["state.rng[1] is a list of 626 items"]),
    (lambda s: s["state"]["rng"].__setitem__(0, 2), ["state.rng[0] is 2, not 3"]),
    (lambda s: s["state"]["rng"].__setitem__(2, "x"), ["state.rng[2] is 'x'"]),
    (lambda s: s["state"]["rng"].pop(), ["state.rng is a list of 2 items, not a generator state"]),
    (lambda s: s["state"]["rng"][1].__setitem__(slice(0, 624), [0] * 624), ["state.rng[1] is all zeros"]),
    (lambda s: s["agent_states"][1]["rng"][1].__setitem__(3, 2**64), ["agent_states[1].rng[1] has 1 numbers"]),
], ids=["2**64", "-1", "2**32", "string", "index 625", "short", "long", "version", "gauss", "two parts",
        "all zero", "agent rng"])
def test_a_damaged_generator_state_is_refused(save, damage, words):
    damage(save)
    refused(save, "the save file is damaged", *words)


# ---------------------------------------------------------------------- outside the state


@pytest.mark.parametrize(("seed", "words"), [
    (float("inf"), "seed is Infinity, not a whole number"),
    ("x", "seed is 'x', not a whole number"),
    (True, "seed is true, not a whole number"),
    (1.5, "seed is 1.5, not a whole number"),
    (None, "seed is null, not a whole number"),
])
def test_a_seed_that_is_not_a_whole_number_is_refused(save, seed, words):
    save["seed"] = seed
    refused(save, words)


def test_a_seed_of_1e400_in_a_file_is_refused_by_the_reader(tmp_path, healthy):
    path = tmp_path / "game.save"
    path.write_text(json.dumps(healthy).replace('"seed": 11', '"seed": 1e400'), encoding="utf-8")
    with pytest.raises(SaveError, match=r"game\.save:1:\d+: the number at seed is too large \('1e400'"):
        read_save_file(path)


@pytest.mark.parametrize(("max_turns", "words"), [(-5, "max_turns is -5"), ("lots", "max_turns is 'lots'"),
                                                  (False, "max_turns is false")])
def test_a_bad_max_turns_is_refused(save, max_turns, words):
    save["max_turns"] = max_turns
    refused(save, words, "not null (no limit) or a whole number")


def test_agents_given_as_a_string_are_refused(save):
    save["agents"] = "greedy,greedy"
    refused(save, "agents is 'greedy,greedy', not a list of the players' names")


def test_an_unknown_bot_name_is_a_save_of_other_players(save):
    save["agents"] = ["greedy", "zzz-no-such-bot"]
    refused(save, "the save was played by greedy, zzz-no-such-bot, not greedy, greedy")


def test_players_is_not_a_key_of_the_engine_save(save):
    save["players"] = "greedy"
    refused(save, "the save has an unknown key 'players'")


def test_agent_states_of_the_wrong_shape_are_refused(save):
    save["agent_states"] = "none"
    refused(save, "agent_states is 'none', not a list of one state a player")
    save["agent_states"] = [None, None]
    refused(save, "agent_states[0] (of greedy) is null, but this agent saves a state")


# ---------------------------------------------------------------------- the state, field by field


@pytest.mark.parametrize(("field", "index", "value", "words"), [
    ("cash", 0, -500, "state.cash[0] is -500, not a whole number from 0 to 10**30 - 1 (cash is never negative"),
    ("position", 1, 40, "state.position[1] is 40, past the board (its spaces are 0 to 39)"),
    ("position", 0, -1, "state.position[0] is -1, past the board"),
    ("jail_turns", 0, 3, "state.jail_turns[0] is 3, not -1 (free) or the failed tries in jail so far, 0 to 2"),
    ("owner", 4, 2, "state.owner[4] is 2, not -1 (the bank) or a seat from 0 to 1"),
    ("buildings", 6, 6, "state.buildings[6] is 6, not a number of buildings from 0 to 5"),
    ("bankrupt", 0, "no", "state.bankrupt[0] is 'no', not true or false"),
    ("mortgaged", 1, 0, "state.mortgaged[1] is 0, not true or false"),
])
def test_a_list_entry_out_of_range_is_refused(save, field, index, value, words):
    save["state"][field][index] = value
    refused(save, words)


@pytest.mark.parametrize(("field", "value", "words"), [
    ("finished", "no", "state.finished is 'no', not true or false"),
    ("started", 1, "state.started is 1, not true or false"),
    ("winner", 99, "state.winner is 99, not null or a seat from 0 to 1"),
    ("houses_left", -1, "state.houses_left is -1, not a number of houses from 0 to 32 (the box)"),
    ("hotels_left", -1, "state.hotels_left is -1, not a number of hotels from 0 to 12"),
    ("pot", -10, "state.pot is -10, not a whole number from 0 to 10**30 - 1"),
    ("current", 2, "state.current is 2, not a seat from 0 to 1"),
    ("turn", "3", "state.turn is '3', not a whole number"),
    ("end_reason", "boredom", "state.end_reason is 'boredom', not null or one of last_standing"),
    ("cash", [1500], "'cash' has 1 entries, expected 2"),
    ("owner", "all mine", "state.owner is 'all mine', not a list"),
    ("bankrupt_order", [0, 0], "state.bankrupt_order is not a list of different seats"),
])
def test_a_state_field_of_the_wrong_type_or_range_is_refused(save, field, value, words):
    save["state"][field] = value
    refused(save, words)


@pytest.mark.parametrize(("roll", "words"), [
    ([1, 2, 3], "state.last_roll is a list of 3 items, not 2 dice from 1 to 6"),
    ([0, 7], "state.last_roll is a list of 2 items"),
    ([7, 1], "state.last_roll is a list of 2 items"),
    ("snake eyes", "state.last_roll is 'snake eyes'"),
])
def test_a_last_roll_of_the_wrong_length_or_values_is_refused(save, roll, words):
    save["state"]["last_roll"] = roll
    refused(save, words)


def test_an_unknown_or_missing_state_key_is_refused(save):
    save["state"]["debt"] = 5
    del save["state"]["pot"]
    error = refused(save, "state has an unknown key 'debt'", "state has no 'pot'")
    assert len(error.problems) == 2


# ---------------------------------------------------------------------- the state against the rules


def _houses(save: dict[str, Any], levels: dict[int, int]) -> None:
    """Set buildings and take the houses from the bank, so that only what is tested is wrong."""
    state = save["state"]
    for space, level in levels.items():
        state["houses_left"] -= level - state["buildings"][space]
        state["buildings"][space] = level


def test_uneven_buildings_are_refused_when_the_rules_build_evenly(save):
    assert CLASSIC.rules.building.even
    _houses(save, {6: 4, 8: 2, 9: 2})
    error = refused(save, "the buildings of the light_blue group are uneven (4/2/2), but the rules build and "
                          "sell evenly")
    assert len(error.problems) == 1
    _houses(save, {6: 3, 8: 2, 9: 2})
    game_from_json(save, CLASSIC, agents())  # a difference of one is even


def test_buildings_in_a_group_of_two_owners_are_refused(save):
    save["state"]["owner"][9] = 1
    refused(save, "the light_blue group has buildings, but its lots do not all have one owner")


def test_buildings_on_a_mortgaged_lot_are_refused(save):
    save["state"]["mortgaged"][8] = True
    refused(save, "the light_blue group has buildings, but Vermont Avenue is mortgaged")


def test_buildings_in_a_group_with_a_mortgaged_lot_are_refused(save):
    _houses(save, {9: 0})
    save["state"]["mortgaged"][9] = True
    error = refused(save, "the light_blue group has buildings, but Connecticut Avenue is mortgaged")
    assert len(error.problems) == 1


def test_buildings_on_a_railroad_or_an_unowned_street_are_refused(save):
    _houses(save, {5: 1, 11: 1})
    refused(save, "Reading Railroad has buildings, but nothing can be built on it",
            "St. Charles Place has buildings but no owner")


def test_jail_turns_for_a_player_not_in_jail_are_refused(save):
    save["state"]["jail_turns"][1] = 0
    refused(save, "state.jail_turns[1] is 0, but seat 1 is not in jail (it is on Electric Company)")
    save["state"]["position"][1] = 10
    game_from_json(save, CLASSIC, agents())  # in jail, on the jail


def test_held_cards_that_are_not_keepable_are_refused(save):
    save["state"]["held_cards"][0] = [["chance", 0]]
    save["state"]["decks"]["chance"].remove(0)
    refused(save, "state.held_cards[0][0] is card 0 of chance, not a card a player keeps")


def test_a_held_keepable_card_loads(save):
    save["state"]["held_cards"][0] = [["chance", CHANCE_KEEP]]
    save["state"]["decks"]["chance"].remove(7)  # its slot
    game = game_from_json(save, CLASSIC, agents())
    assert game.held_cards == [[("chance", CHANCE_KEEP)], []]


@pytest.mark.parametrize(("card", "words"), [
    (["chance", 99], "state.held_cards[0][0] is card 99 of chance, which has cards 0 to 14"),
    (["tarot", 0], "a card of 'tarot', a deck the ruleset does not have"),
    ("chance", "state.held_cards[0][0] is 'chance', not a [deck, card number] pair"),
])
def test_held_cards_that_do_not_exist_are_refused(save, card, words):
    save["state"]["held_cards"][0] = [card]
    refused(save, words)


def test_a_card_held_and_in_its_deck_is_refused(save):
    save["state"]["held_cards"][0] = [["chance", CHANCE_KEEP]]
    refused(save, "the cards of deck chance are not all in it or held once")


def test_a_bank_stock_beyond_the_box_is_refused(save):
    save["state"]["houses_left"] = 32
    refused(save, "the houses and hotels in the bank and on the board come to more than the box holds: 3 houses "
                  "and 0 hotels built, 32 and 12 in the bank")


@pytest.mark.parametrize(("change", "words"), [
    ({"winner": 0}, "state.winner is 0, but the game is not finished"),
    ({"end_reason": "time"}, "state.end_reason is time, but the game is not finished"),
    ({"finished": True}, "the game is finished but state.end_reason does not say why"),
    ({"finished": True, "end_reason": "last_standing", "winner": 0},
     "the game ended with one player standing, but 2 are not bankrupt"),
    ({"finished": True, "end_reason": "turn_limit", "winner": 1},
     "a game stopped by its turn limit has no winner, but state.winner is 1"),
    ({"finished": True, "end_reason": "bankruptcies", "winner": 0},
     "the game is said to have ended by bankruptcies, which is not how this ruleset ends"),
    ({"started": False}, "the game is finished but was never started"),
])
def test_a_winner_or_end_inconsistent_with_finished_is_refused(save, change, words):
    if change == {"started": False}:
        change = {"started": False, "finished": True, "end_reason": "turn_limit"}
    save["state"].update(change)
    refused(save, words)


def test_a_bankrupt_seat_that_still_plays_or_owns_is_refused(save):
    state = save["state"]
    state["bankrupt"][1] = True
    state["bankrupt_order"] = [1]
    error = refused(save, "Mediterranean Avenue is owned by seat 1, who is bankrupt",
                    "seat 1 is bankrupt but still has cash")
    state["current"] = 1
    assert len(refused(save, "the seat to play (state.current, 1) is bankrupt").problems) > len(error.problems)


def test_turn_counters_that_no_game_reaches_are_refused(save):
    save["state"]["round"] = 5
    refused(save, "state.round (5) is more than state.turn (0)")
    save["state"]["round"] = 0
    save["max_turns"] = 10
    save["state"]["turn"] = 12
    refused(save, "state.turn (12) is past max_turns (10)")


# ---------------------------------------------------------------------- all the problems, one message


def test_every_problem_is_listed_not_only_the_first(save):
    save["seed"] = "x"
    save["state"]["cash"][0] = -5
    save["state"]["finished"] = "no"
    save["state"]["winner"] = 99
    save["state"]["position"][1] = 40
    error = refused(save, "seed is 'x'", "state.cash[0] is -5", "state.finished is 'no'", "state.winner is 99",
                    "state.position[1] is 40")
    assert len(error.problems) == 5
    assert str(error).startswith("the save file is damaged: ")


def test_a_long_list_of_problems_is_capped_in_the_message(save):
    save["state"]["mortgaged"] = ["x"] * 40
    error = refused(save, f"and {40 - MAX_SHOWN} more")
    assert len(error.problems) == 40
    assert str(error).count("not true or false") == MAX_SHOWN


def test_messages_quote_only_a_short_escaped_excerpt(save):
    save["agents"] = ["\x1b[2J" + "x" * 100_000, "greedy"]
    error = refused(save, "the save was played by '\\x1b[2Jxxx")
    assert len(str(error)) < 200 and "\x1b" not in str(error)
    save["agents"] = NAMES
    save["seed"] = "y" * 1_000_000
    assert len(str(refused(save, "seed is 'yyy"))) < 200


def test_check_state_refuses_a_game_changed_by_hand():
    game = monopoly.Game(CLASSIC, agents(), seed=3)
    game.play_turn()
    check_state(game)
    game.cash[0] = -5
    game.position[1] = 99
    with pytest.raises(SaveError) as caught:
        check_state(game)
    assert len(caught.value.problems) == 2 and "state.cash[0] is -5" in str(caught.value)


# ---------------------------------------------------------------------- bounded time


def _deep_list(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


def test_a_100000_deep_array_in_a_save_file_is_answered_fast(tmp_path, healthy):
    path = tmp_path / "deep.save"
    text = json.dumps(healthy).replace('"seed": 11', '"seed": ' + "[" * DEEP + "]" * DEEP)
    path.write_text(text, encoding="utf-8")
    start = time.perf_counter()
    with pytest.raises(SaveError, match=r"deep\.save:1:\d+: nested deeper than 64 levels \(at seed\[0\]"):
        read_save_file(path)
    unterminated = tmp_path / "open.save"
    unterminated.write_text("[" * DEEP, encoding="utf-8")
    with pytest.raises(SaveError, match="nested deeper than 64 levels"):
        read_save_file(unterminated)
    assert time.perf_counter() - start < 2.0


def test_a_100000_deep_value_given_to_game_from_json_is_answered_fast(save):
    start = time.perf_counter()
    save["seed"] = _deep_list(DEEP)
    save["state"]["cash"] = _deep_list(DEEP)
    save["agent_states"][0]["rng"] = _deep_list(DEEP)
    refused(save, "seed is a list of 1 item", "'cash' has 1 entries", "agent_states[0].rng is a list of 1 item")
    # Under a second on an idle machine; a reading that went quadratic in the depth (or recursed) would take
    # minutes. The bound is that far above what a loaded, shared machine takes, so that only such a fault fails.
    assert time.perf_counter() - start < 30.0


def test_a_save_file_too_large_is_refused_without_reading_it_all(tmp_path):
    path = tmp_path / "big.save"
    path.write_bytes(b" " * (MAX_SAVE_BYTES + 1))
    with pytest.raises(SaveError, match=r"big\.save: the file is larger than 4 MiB, more than a save file can be"):
        read_save_file(path)
    if Path("/dev/zero").exists():  # an endless device: refused before anything is read
        start = time.perf_counter()
        with pytest.raises(SaveError, match="not a regular file"):
            read_save_file("/dev/zero")
        assert time.perf_counter() - start < 2.0


# ---------------------------------------------------------------------- the file


def test_a_key_written_twice_is_refused(tmp_path, healthy):
    path = tmp_path / "twice.save"
    path.write_text(json.dumps(healthy).replace('"seed": 11', '"seed": 11, "seed": 12'), encoding="utf-8")
    with pytest.raises(SaveError, match=r"twice\.save:1:\d+: the key 'seed' is written twice in the object at "
                                        "the top level"):
        read_save_file(path)


@pytest.mark.parametrize(("content", "words"), [
    (b"", "1:1: not valid JSON: Expecting value"),
    (b'{"format": "monopoly-save",\n "version": 1,,}', "2:15: not valid JSON: Expecting property name"),
    (b'{"format": "monopoly-save", "seed": NaN}', "NaN at seed is not a JSON number"),
    (b'{"format": "monopoly-save", "seed": -Infinity}', "-Infinity at seed is not a JSON number"),
    (b'{"format": "monopoly-save", "seed": ' + b"9" * 5000 + b"}", "the number at seed has 5000 digits"),
    (b'{"format": "monopoly-save", "seed": ' + b"9" * 31 + b"}", "the number at seed has 31 digits"),
    (b'{"format": "monopoly-save",\n"agents": ["\\u001b[2J"]}', "2:12: the string at agents[0] holds the control "
                                                               "character U+001B (ESC)"),
    (b'{"agents": ["a\\u0000"]}', "U+0000 (NUL)"),
    (b'{"agents": ["\xc2\x9b"]}', "U+009B (CSI)"),
    (b'{"agents": ["\\ud800"]}', "U+D800 (a lone surrogate)"),
    (b'{"format": "\xff"}', "1:13: not UTF-8 text (byte 13 of the file is 0xff)"),
    (b"[1, 2]", "is not a monopoly save file (it holds a list of 2 items, not an object)"),
    (b'{"format": "jpeg"}', "is not a monopoly save file (its format is 'jpeg')"),
    (b'{"format": "monopoly-save", "version": 99}', "save version 99 is not supported (this program reads version 1)"),
    (b'{"format": "monopoly-save", "version": true}', "save version true is not supported"),
])
def test_a_file_that_is_not_a_save_is_refused_with_where(tmp_path, content, words):
    path = tmp_path / "bad.save"
    path.write_bytes(content)
    with pytest.raises(SaveError) as caught:
        read_save_file(path)
    assert str(caught.value).startswith(str(path))
    assert words in str(caught.value)


def test_a_missing_file_or_a_folder_is_refused(tmp_path):
    with pytest.raises(SaveError, match="cannot read the file"):
        read_save_file(tmp_path / "nothing.save")
    with pytest.raises(SaveError, match="not a regular file"):
        read_save_file(tmp_path)


def test_a_save_file_reads_back_and_loads(tmp_path, healthy):
    path = write(tmp_path / "game.save", healthy)
    data = read_save_file(path)
    assert data == healthy
    game = game_from_json(data, CLASSIC, agents())
    assert game_to_json(game) == healthy
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(healthy, indent=2).encode())  # a byte-order mark, pretty-printed
    assert read_save_file(path) == healthy


def test_the_save_of_monopoly_play_reads_with_both_formats(runner, cli, tmp_path):
    from monopoly.cli.play_command import FORMAT, VERSION

    path = tmp_path / "game.save"
    result = runner.invoke(cli, ["play", "classic", "--players", "greedy,trader", "--seed", "2", "--max-turns", "6",
                                 "--save", str(path)])
    assert result.exit_code == 0, result.output
    with pytest.raises(SaveError, match="is not a monopoly save file"):
        read_save_file(path)
    data = read_save_file(path, formats={FORMAT: VERSION, "monopoly-save": 1})
    game = game_from_json(data["game"], CLASSIC, agents(["greedy", "trader"]))
    assert game.finished and game_to_json(game) == data["game"]


# ---------------------------------------------------------------------- every save the engine writes passes


def _round_trips(ruleset: monopoly.Ruleset, names: list[str], seed: int, turns: int, max_turns: int | None) -> int:
    """Play, save after every turn, and load each save: the same JSON again. The number of saves checked."""
    game = monopoly.Game(ruleset, agents(names), seed=seed, max_turns=max_turns)
    checked = 0
    while not game.finished and game.turn < turns:
        game.play_turn()
        data = json.loads(json.dumps(game_to_json(game)))
        try:
            again = game_from_json(data, ruleset, agents(names))
        except SaveError as exc:
            raise AssertionError(f"turn {game.turn}: the engine's own save is refused: {exc.problems}") from None
        assert json.loads(json.dumps(game_to_json(again))) == data
        checked += 1
    return checked


@functools.cache
def _ruleset(edition: str, variants: tuple[str, ...]) -> monopoly.Ruleset:
    return monopoly.load_ruleset(edition, list(variants))


SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}


@settings(max_examples=10, **SETTINGS)  # type: ignore[arg-type]
@given(st.sampled_from(EDITIONS), variant_combos(), agent_lineups(), seeds(), st.sampled_from([None, 60, 200]))
def test_every_save_of_a_real_game_loads_back_identically(edition, combo, names, seed, max_turns):
    ruleset = _ruleset(edition, combo)
    assert _round_trips(ruleset, names, seed, 120, max_turns) > 0


@settings(max_examples=5, **SETTINGS)  # type: ignore[arg-type]
@given(rulesets(), st.data(), seeds())
def test_every_save_of_a_game_of_a_generated_ruleset_loads_back_identically(ruleset, data, seed):
    names = data.draw(agent_lineups(ruleset.min_players, min(ruleset.max_players, 6)))
    assert _round_trips(ruleset, names, seed, 120, 120) > 0


@pytest.mark.parametrize(("edition", "variants", "seed"), [("classic", [], 2), ("uk", ["short-game", "tournament"], 7)])
def test_a_whole_game_round_trips_to_its_end(edition, variants, seed):
    """Games to their end through jail, held cards, the trader's offers (in its state), mortgages, hotels
    and bankruptcies: every save between turns loads back identically."""
    ruleset = monopoly.load_ruleset(edition, variants)
    assert _round_trips(ruleset, ["greedy", "cautious", "trader", "random"], seed, 1000, None) > 150


def test_cash_past_what_the_banks_effects_pay_loads_and_saves_again(save):
    """The bank's effects stop at MAX_CASH (10**12), but rents, salaries and trades do not: a save the program
    wrote with a seat richer than that loads, plays a turn and is written again in a form that loads."""
    from monopoly.game.state import MAX_CASH

    save["state"]["cash"] = [MAX_CASH + 200, MAX_CASH * 3]
    save["state"]["pot"] = 0
    game = game_from_json(copy.deepcopy(save), CLASSIC, agents())
    assert game.cash == [MAX_CASH + 200, MAX_CASH * 3]
    game.play_turn()
    again = json.loads(json.dumps(game_to_json(game)))
    assert game_from_json(again, CLASSIC, agents()).cash == game.cash


def test_cash_of_31_digits_is_refused(save):
    save["state"]["cash"][1] = 10**30
    refused(save, "state.cash[1] is a number of about 31 digits, not a whole number from 0 to 10**30 - 1")
