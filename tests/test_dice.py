"""Dice as data (issue 10, item 4): which dice make doubles, an extra die with numbers and symbols (the
speed die, rulesets/variants/speed-die.yaml), the effect language's `die N`, `rolled`, `triples`, the
filtered `nearest`, and the `roll` statement; each set up exactly and asserted exactly."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

import monopoly
from monopoly.analysis.markov import dice_outcomes, landing_odds
from monopoly.cli.main import cli
from monopoly.effects import EffectNames, parse_and_check, parse_and_check_condition, parse_effect
from monopoly.effects.compile import Names, compile_condition
from monopoly.game.events import PAYMENT, ROLL, from_dict, to_dict, typed
from monopoly.game.replay import Replay
from monopoly.game.state import GameState, StateError
from tests.scenario import ScriptedAgent, setup_game, sp

EDITIONS = ("classic", "uk")


def speed(edition: str = "classic", *, laps: int = 1, seats: int = 2, **scripts: Any) -> Any:
    """A speed-die game, seat 0 to move from GO, having passed GO ``laps`` times (the die is thrown from 1); each
    seat holds 1,500 (the scenarios count from it: the variant's starting cash has a test of its own)."""
    agents = [ScriptedAgent(**scripts)] + [ScriptedAgent() for _ in range(seats - 1)]
    scenario = setup_game(edition, ("speed-die",), seats, agents=agents, cash=1500)
    scenario.game.laps[0] = laps
    return scenario


def rolls(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "roll"]


def choose_text(text: str) -> Any:
    return lambda game, seat, options: options.index(text)


# ------------------------------------------------------------------ the speed die's faces


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize(("face", "to"), [(1, 5), (2, 6), (3, 7)])
def test_a_number_adds_to_the_white_dice(edition: str, face: int, to: int) -> None:
    game, events = speed(edition)
    game.fix_dice([(1, 3, face)])
    game.play_turn()
    assert game.position[0] == to
    assert rolls(events) == [{"type": "roll", "seat": 0, "dice": [1, 3], "extra": [face]}]
    assert game.last_extra == (face,)


@pytest.mark.parametrize(("start", "roll", "rent"), [
    (3, (3, 4, 2), 4 * 9),     # onto Electric Company: a total the rows worked out ahead hold (up to 12)
    (14, (5, 6, 3), 4 * 14),   # onto Water Works: a total past them, worked out live
])
def test_a_utilitys_rent_counts_the_speed_dies_number_as_dice_does(start: int, roll: tuple[int, ...],
                                                                   rent: int) -> None:
    """The utility's rent reads `dice` (its kind's rent in rulesets/base/defaults.yaml), and `dice` adds the
    extra die's number; seat 1 owns one utility."""
    from tests.scenario import own

    game, _ = speed()
    own(game, 1, "Electric Company" if start == 3 else "Water Works")
    game.position[0] = start
    game.fix_dice([roll])
    game.play_turn()
    assert game.position[0] == start + sum(roll) and game.cash[:2] == [1500 - rent, 1500 + rent]


def test_the_first_lap_throws_the_white_dice_alone() -> None:
    game, events = speed(laps=0)
    game.fix_dice([(1, 2, 3)])  # the fixed face is not used: the die is not thrown before passing GO
    game.play_turn()
    assert game.position[0] == 3
    assert rolls(events) == [{"type": "roll", "seat": 0, "dice": [1, 2]}]


def test_the_first_lap_draws_what_the_classic_game_draws() -> None:
    """The extra die is drawn only when thrown: before anyone passes GO, the dice are classic's."""
    for seed in range(5):
        games = [monopoly.Game(monopoly.load_ruleset("classic", variants),
                               [monopoly.make_agent("greedy") for _ in "ab"], seed=seed)
                 for variants in ((), ("speed-die",))]
        for game in games:
            game.start()
            game.play_turn()
        assert [e for e in games[0].events if e[0] == ROLL][:1] == [e for e in games[1].events if e[0] == ROLL][:1]


def test_a_roll_out_of_jail_is_the_white_dice_alone() -> None:
    game, events = speed()
    game.jail_turns[0], game.position[0] = 0, 10
    game.fix_dice([(3, 3, "bus"), (1, 2, 3)])  # doubles: out, moves 6, and no roll again
    game.play_turn()
    assert game.position[0] == 16 and game.jail_turns[0] == -1
    assert rolls(events) == [{"type": "roll", "seat": 0, "dice": [3, 3]}]
    assert game._fixed_dice  # the second roll was not made


@pytest.mark.parametrize(("pick", "to", "cash"), [(0, 1, 1500), (1, 4, 1350), (2, 5, 1500)])
def test_the_bus_moves_by_either_white_die_or_their_sum(pick: int, to: int, cash: int) -> None:
    game, _ = speed(choose=pick)
    game.fix_dice([(1, 4, "bus")])
    game.play_turn()
    (options,) = game.agents[0].questions("choose")[0]  # (Income Tax asks again)
    assert options == ("move forward die 1 spaces", "move forward die 2 spaces", "move forward dice spaces")
    assert (game.position[0], game.cash[0]) == (to, cash)  # Income Tax: answered 1 too, 10% of 1500


def test_the_bus_on_doubles_rolls_again() -> None:
    game, _ = speed(choose=2)
    game.fix_dice([(2, 2, "bus"), (1, 2, 1)])  # 4 (Income Tax, 200), then 1 + 2 + 1 more: 8
    game.play_turn()
    assert (game.position[0], game.cash[0]) == (8, 1300)


def test_mr_monopoly_moves_on_to_the_next_unowned_lot_after_the_landing() -> None:
    game, events = speed(buy=True)
    game.fix_dice([(1, 2, "mr_monopoly")])  # Baltic Avenue (bought), then on to Reading Railroad (bought)
    game.play_turn()
    baltic, reading = sp(game, "Baltic Avenue"), sp(game, "Reading Railroad")
    assert (game.owner[baltic], game.owner[reading], game.position[0]) == (0, 0, reading)
    assert game.cash[0] == 1500 - 60 - 200
    assert [e["space"] for e in events if e["type"] == "buy"] == [baltic, reading]


def test_mr_monopoly_skips_owned_lots_to_the_next_unowned_one_past_go() -> None:
    game, _ = speed(buy=True)
    game.position[0] = 35
    for s in game.tables.ownable:
        if s > 35 or s < 3:
            game.give(s, 1)
    game.fix_dice([(1, 2, "mr_monopoly")])  # 35 + 3: Luxury Tax (100), then past GO to Baltic Avenue
    game.play_turn()
    assert game.position[0] == 3 and game.owner[3] == 0
    assert game.cash[0] == 1500 - 100 + 200 - 60


def test_mr_monopoly_with_every_lot_owned_pays_the_next_rent_of_an_unmortgaged_lot() -> None:
    game, events = speed()
    for s in game.tables.ownable:
        game.give(s, 1)
    game.mortgaged[sp(game, "Reading Railroad")] = True
    game.fix_dice([(1, 2, "mr_monopoly")])  # Baltic (brown whole: 8), then past Reading (mortgaged) to Oriental
    game.play_turn()
    assert game.position[0] == sp(game, "Oriental Avenue")
    assert (game.cash[0], game.cash[1]) == (1500 - 8 - 12, 1500 + 20)
    assert [e["amount"] for e in events if e["type"] == "payment" and e["reason"] == "rent"] == [8, 12]


@pytest.mark.parametrize("exempt", ["rules", "permission"])
def test_mr_monopoly_passes_the_lots_of_an_owner_who_collects_no_rent(tmp_path: Path, exempt: str) -> None:
    """Found by a review: the next lot "where you pay rent" is not one whose owner, in jail, collects none (by
    `rent_in_jail: false`, or by a rent permission); Mr. Monopoly goes on to seat 2's Boardwalk."""
    from tests.scenario import ScriptedAgent as Scripted

    if exempt == "rules":
        ruleset = monopoly.load_ruleset("classic", ["speed-die", "no-rent-in-jail"])
    else:
        path = tmp_path / "jailed.yaml"
        path.write_text("id: jailed\nkind: variant\nname: Jailed\ndescription: No rent from a jailed owner.\n"
                        "permissions: {rent: not owner is in jail}\n", encoding="utf-8")
        ruleset = monopoly.load_ruleset("classic", ["speed-die", str(path)])
    game = monopoly.Game(ruleset, [Scripted(), Scripted(), Scripted()], seed=1)
    game.start()
    game.laps[0] = 1
    boardwalk = sp(game, "Boardwalk")
    for s in game.tables.ownable:
        game.give(s, 2 if s == boardwalk else 1)
    game.send_to_jail(1)
    game.fix_dice([(1, 2, "mr_monopoly")])  # Baltic (seat 1's, in jail: no rent), then on to Boardwalk
    game.play_turn()
    assert game.position[0] == boardwalk
    start = ruleset.starting_cash  # the speed die's 2,500
    assert game.cash == [start - 50, start, start + 50]


@pytest.mark.parametrize("holder", [0, 1])
def test_mr_monopoly_with_no_lot_to_go_to_does_nothing(holder: int) -> None:
    """Every lot owned and mortgaged (by the other player), or every lot the mover's own."""
    game, _ = speed()
    for s in game.tables.ownable:
        game.give(s, holder)
        game.mortgaged[s] = holder == 1
    game.fix_dice([(1, 2, "mr_monopoly")])
    game.play_turn()
    assert (game.position[0], game.cash[0], game.cash[1]) == (3, 1500, 1500)


def test_a_triple_moves_to_any_space_passing_go_pays_and_the_rolls_end() -> None:
    game, events = speed(choose=choose_text('advance to "St. Charles Place"'))
    game.position[0] = 35
    game.fix_dice([(2, 2, 2), (1, 2, 3)])
    game.play_turn()
    assert game.position[0] == sp(game, "St. Charles Place") and game.cash[0] == 1700
    assert len(rolls(events)) == 1 and game._fixed_dice  # no roll again after the triple (doubles on white)
    [(options,)] = game.agents[0].questions("choose")
    assert len(options) == len({s.name for s in game.ruleset.board}) and options[0] == 'advance to "GO"'


def test_a_triple_after_two_doubles_is_no_third_double() -> None:
    game, _ = speed(choose=choose_text('advance to "Boardwalk"'))
    game.fix_dice([(1, 1, 3), (2, 2, 1), (3, 3, 3)])  # 5, then 10 (visiting), then the triple: Boardwalk
    game.play_turn()
    assert game.position[0] == sp(game, "Boardwalk") and game.jail_turns[0] == -1
    game, _ = speed()
    game.fix_dice([(1, 1, 3), (2, 2, 1), (4, 4, 2)])  # three doubles of the white dice: jail
    game.play_turn()
    assert game.position[0] == 10 and game.jail_turns[0] == 0


def test_the_bots_take_the_bus_to_a_lot_they_can_buy() -> None:
    game = monopoly.Game(monopoly.load_ruleset("classic", ["speed-die"]),
                         [monopoly.make_agent("greedy") for _ in range(2)], seed=1)
    game.start()
    game.laps[0] = 1
    game.give(sp(game, "Reading Railroad"), 1)
    game.fix_dice([(1, 5, "bus")])  # die 1: Mediterranean (60), die 2: Reading (owned), sum: Oriental (100)
    game.play_turn()
    assert game.owner[sp(game, "Oriental Avenue")] == 0 and game.position[0] == 6


# ------------------------------------------------------------------ the record: logs, saves, copies


def test_the_roll_event_keeps_the_extra_die_and_reads_old_rolls() -> None:
    record = (ROLL, 1, (2, 5), ("bus",))
    assert to_dict(record) == {"type": "roll", "seat": 1, "dice": [2, 5], "extra": ["bus"]}
    assert from_dict(to_dict(record)) == record
    old = {"type": "roll", "seat": 1, "dice": [2, 5]}
    assert from_dict(old) == (ROLL, 1, (2, 5)) and to_dict(from_dict(old)) == old
    assert typed(record).extra == ("bus",) and typed((ROLL, 1, (2, 5))).extra == ()


def test_speed_die_games_replay_save_and_copy_identically(tmp_path: Path) -> None:
    ruleset = monopoly.load_ruleset("classic", ["speed-die"])
    for seed in range(6):
        game = monopoly.Game(ruleset, [monopoly.make_agent(b) for b in ("greedy", "trader", "random")], seed=seed,
                             max_turns=150)
        copies = []
        while game.advance() is not None:
            decision = game.pending
            if decision.kind == "choose" and len(copies) < 3:
                copies.append((game.copy(), len(game.events), GameState.of(game).to_json()))
            game.respond(game._ask(decision))
        replayed = Replay.of_records(game.events, ruleset)
        assert (replayed.cash, replayed.position, replayed.owner) == (game.cash, game.position, game.owner)
        for copy, count, saved in copies:
            assert copy.events[-1][0] == game.events[count - 1][0]
            state = GameState.from_json(json.loads(json.dumps(saved)), ruleset, players=3, max_turns=150)
            assert state.to_json() == saved
    assert any(len(e) > 3 for e in game.events if e[0] == ROLL)


def test_replay_verify_passes_on_speed_die_logs(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    runner = CliRunner()
    result = runner.invoke(cli, ["simulate", "classic", "--variant", "speed-die", "--games", "2", "--seed", "3",
                                 "--players", "greedy,random,trader", "--max-turns", "200", "--log", str(folder)])
    assert result.exit_code == 0, result.output
    logs = sorted(folder.glob("game-*.jsonl"))
    assert any('"extra"' in log.read_text() for log in logs)
    for log in logs:
        result = runner.invoke(cli, ["replay", str(log), "--verify"])
        assert result.exit_code == 0 and "replay identically" in result.output, result.output
    told = runner.invoke(cli, ["replay", str(logs[0])]).output
    assert ", the extra die " in told  # the narration names the face: "rolls 4 and 3, the extra die bus (7)."


def test_a_position_keeps_the_extra_face_and_refuses_a_wrong_one() -> None:
    game, _ = speed()
    game.fix_dice([(1, 3, "bus")])
    game.play_turn()
    data = game.state().to_json()
    assert data["last_extra"] == ["bus"]
    ruleset = game.ruleset
    assert GameState.from_json(data, ruleset, players=2).last_extra == ("bus",)
    with pytest.raises(StateError, match="last_extra"):
        GameState.from_json({**data, "last_extra": ["taxi"]}, ruleset, players=2)
    classic = monopoly.load_ruleset("classic")
    assert "last_extra" not in monopoly.Game(classic, players=2).state().to_json()


def test_fixed_dice_take_one_face_of_the_extra_die() -> None:
    game, _ = speed()
    with pytest.raises(ValueError, match="at most one face of the extra die"):
        game.fix_dice([(1, 2, "taxi")])
    classic, _ = setup_game("classic")
    with pytest.raises(ValueError, match="not a roll of 2 dice"):
        classic.fix_dice([(1, 2, 3)])


# ------------------------------------------------------------------ the language


def names(**extra: Any) -> EffectNames:
    ruleset = monopoly.load_ruleset("classic")
    return EffectNames(spaces=tuple(s.name for s in ruleset.board), kinds={s.kind for s in ruleset.board},
                       groups={g.key for g in ruleset.groups}, decks={d.key for d in ruleset.decks}, **extra)


def test_die_rolled_and_triples_read_the_throw() -> None:
    ruleset = monopoly.load_ruleset("classic", ["speed-die"])
    compiled = Names(ruleset.board, extra_die=True)

    def holds(text: str, roll: tuple[int, ...], extra: tuple[Any, ...]) -> bool:
        condition, problems = parse_and_check_condition(text, names(dice=3, faces={"bus", "mr_monopoly"}))
        assert not problems
        state = SimpleNamespace(last_roll=roll, last_extra=extra)
        return bool(compile_condition(condition, compiled)(state, 0))

    assert holds("die 1 = 2 and die 2 = 5 and die 3 = 3", (2, 5), (3,))
    assert holds("die 3 = 0 and rolled bus", (2, 5), ("bus",))
    assert not holds("rolled mr_monopoly", (2, 5), ("bus",))
    assert holds("dice = 10 and not triples", (2, 5), (3,))
    assert holds("triples and doubles", (4, 4), (4,)) and not holds("triples", (4, 4), ())


def test_triples_without_an_extra_die_is_a_located_error_with_a_hint() -> None:
    """`triples` reads the extra die: on a ruleset that throws none it never holds, which the checker says, at the
    word, and not on one that throws it."""
    _, problems = parse_and_check("collect 1; if triples then collect 100", names(extra_die=False), "card")
    [problem] = problems
    assert (problem.code, problem.line, problem.column) == ("no-extra-die", 1, 15)
    assert '"triples" never holds' in problem.message and '"doubles"' in (problem.hint or "")
    _, problems = parse_and_check("if triples then collect 100", names(dice=3, extra_die=True), "card")
    assert problems == []


def test_the_language_pieces_print_back_as_they_parse() -> None:
    for text in ("roll; pay 10 x dice to owner",
                 "advance to nearest unowned lot or nearest unmortgaged lot owned by another player",
                 "go back to nearest unowned railroad", "if rolled bus or triples then collect die 3 x 10"):
        effect = parse_effect(text)
        assert effect.to_text() == text and parse_effect(effect.to_text()) == effect


@pytest.mark.parametrize(("text", "code"), [
    ("collect die 4", "unknown-die"),
    ("if rolled taxi then collect 5", "unknown-face"),
    ("advance to nearest unowned lot owned by another player", "nearest-never"),
    ("advance to nearest unowned lots", "unknown-kind-or-group"),
])
def test_language_mistakes_are_named(text: str, code: str) -> None:
    _, problems = parse_and_check(text, names(dice=3, faces={"bus"}), "trigger")
    assert [p.code for p in problems] == [code]


def test_the_dice_section_of_the_language_reference_reads_and_checks_clean() -> None:
    import re

    text = (Path(__file__).resolve().parents[1] / "docs" / "effects.md").read_text(encoding="utf-8")
    start = text.index("## Dice: the throw")
    section = text[start:text.index("\n## ", start)]  # to the next section
    examples = [m for m in re.findall(r"`([^`\n]+)`", section)
                if m.split()[0] in ("pay", "collect", "if", "move", "advance", "roll")]
    assert len(examples) >= 6
    speed_names = names(dice=3, faces={"bus", "mr_monopoly"})
    for example in examples:
        effect, problems = parse_and_check(example, speed_names, "trigger")
        assert effect is not None and problems == [] and effect.to_text() == example, (example, problems)
    ruleset = monopoly.load_ruleset("classic", ["speed-die"])
    assert ruleset.extra_die is not None
    block = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    for symbol in ruleset.extra_die.symbols:
        assert symbol.text in block
    assert ruleset.extra_die.triples_text in block and ruleset.extra_die.when_text in block


def write(tmp_path: Path, text: str, name: str = "mine.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_roll_statement_throws_afresh_and_moves_nobody(tmp_path: Path) -> None:
    variant = write(tmp_path, "id: parking-roll\nkind: variant\nname: Roll at Free Parking\n"
                              "description: Landing on Free Parking, roll the dice and collect ten times them.\n"
                              'spaces:\n  Free Parking: {effect: "roll; collect 10 x dice"}\n')
    ruleset = monopoly.load_ruleset("classic", [str(variant)])
    game = monopoly.Game(ruleset, [ScriptedAgent(), ScriptedAgent()], seed=0)
    events: list[dict[str, Any]] = []
    game.observe(events.append)
    game.start()
    game.position[0] = 10
    game.fix_dice([(4, 6), (2, 3)])
    game.play_turn()
    assert game.position[0] == 20 and game.cash[0] == 1550
    assert rolls(events) == [{"type": "roll", "seat": 0, "dice": [4, 6]}, {"type": "roll", "seat": 0, "dice": [2, 3]}]
    assert [e for e in events if e["type"] == "move"] == [{"type": "move", "seat": 0, "from": 10, "to": 20,
                                                         "passed_go": False}]


# ------------------------------------------------------------------ doubles of some dice


def test_doubles_count_the_dice_the_ruleset_names(tmp_path: Path) -> None:
    edition = write(tmp_path, "id: three-dice\nname: Three dice\nextends: classic\n"
                              "dice: {count: 3, doubles: [1, 2]}\n")
    ruleset = monopoly.load_ruleset(str(edition))
    game = monopoly.Game(ruleset, [ScriptedAgent(), ScriptedAgent()], seed=0)
    game.start()
    game.fix_dice([(2, 2, 1), (1, 2, 2)])  # 5 (doubles of dice 1 and 2: again), then 5 more
    game.play_turn()
    assert game.position[0] == 10
    game.jail_turns[1], game.position[1] = 0, 10
    game.fix_dice([(3, 3, 1)])  # out of jail on the doubles of dice 1 and 2
    game.play_turn()
    assert game.jail_turns[1] == -1 and game.position[1] == 17
    outcomes = dice_outcomes(3, 6, (1, 2))
    assert abs(sum(p for _, double, p in outcomes if double) - 1 / 6) < 1e-12


# ------------------------------------------------------------------ bad declarations


@pytest.mark.parametrize(("dice", "code", "where"), [
    ("{doubles: [1, 3]}", "unknown-die", "6:23"),
    ("{extra: {faces: [1, 2, taxi]}}", "symbol-without-effect", "6:32"),
    ("{extra: {faces: [1, bus], symbols: {buss: {instead: move 1}, bus: {after: move 2}}}}", "unknown-face", "6:45"),
    ('{extra: {faces: [1, bus], symbols: {bus: {instead: "cash > 5"}}}}', "effect-syntax", "6:"),
    ('{extra: {faces: [1, 2], when: "pay 5"}}', "effect-syntax", "6:"),
    ("{extra: {faces: [1, 2], triples: collect die 5}}", "effect-unknown-die", "6:"),
    ("{extra: {faces: [1, 2, Bus]}}", "bad-format", "6:32"),
    ("{extra: {faces: [1, 0, bus]}}", "out-of-range", "6:29"),
])
def test_malformed_dice_are_located_with_hints(tmp_path: Path, dice: str, code: str, where: str) -> None:
    path = write(tmp_path, "# a house rule\nid: bad-dice\nkind: variant\nname: Bad dice\n"
                           "description: Dice declared wrongly, for the checks.\n"
                           f"dice:   {dice}\n")
    ruleset, problems = monopoly.check_ruleset("classic", [str(path)])
    assert ruleset is None
    assert problems and all(p.severity == "error" for p in problems)
    first = problems[0]
    assert f"{first.line}:{first.column}".startswith(where), [str(p) for p in problems]
    if code:
        assert first.code == code, [str(p) for p in problems]
        assert first.hint or code == "out-of-range", str(first)


def test_a_face_of_the_wrong_form_is_told_how_a_face_is_written(tmp_path: Path) -> None:
    """Found by a review: a capitalised symbol was told "expected a whole number", and a 0 to quote it as text
    (the schema's first branch); each is told of the branch of its own type."""
    path = write(tmp_path, "id: bad-faces\nkind: variant\nname: Bad faces\ndescription: Faces.\n"
                           "dice: {extra: {faces: [1, Bus, 0, bus], symbols: {bus: {instead: move 1}}}}\n")
    _, problems = monopoly.check_ruleset("classic", [str(path)])
    assert [(p.code, p.message) for p in problems] == [
        ("bad-format", "'Bus' is not valid in dice.extra.faces[1]"),
        ("out-of-range", "0 is out of range in dice.extra.faces[2]: it must be at least 1")]
    assert problems[0].hint is not None and problems[0].hint.endswith("Write 'bus'.")


# ------------------------------------------------------------------ analysis


def test_the_landing_odds_say_the_extra_die_makes_them_approximate() -> None:
    odds = landing_odds(monopoly.load_ruleset("classic", ["speed-die"]))
    assert any("extra die" in reason for reason in odds.approximate)
    assert not landing_odds(monopoly.load_ruleset("classic")).approximate


def test_a_trigger_on_the_roll_reads_the_extra_die(tmp_path: Path) -> None:
    variant = write(tmp_path, "id: bus-fare\nkind: variant\nname: Bus fare\n"
                              "description: A Bus on the speed die costs a fare of ten times the third die's face.\n"
                              "triggers:\n  - {on: roll, if: rolled bus and not doubles, effect: pay 15}\n"
                              "  - {on: roll, if: die 3 = 3, effect: collect die 3 x 10}\n")
    ruleset = monopoly.load_ruleset("classic", ["speed-die", str(variant)])
    game = monopoly.Game(ruleset, [ScriptedAgent(choose=2), ScriptedAgent()], seed=0)
    game.start()
    game.laps[0] = 1
    game.fix_dice([(1, 2, "bus")])  # the fare, then the Bus: 3 spaces (Baltic, declined)
    game.play_turn()
    start = ruleset.starting_cash  # the speed die's 2,500
    assert (game.position[0], game.cash[0]) == (3, start - 15)
    game.laps[1] = 1
    game.fix_dice([(1, 3, 3)])  # 30 collected, then 7 spaces: Chance
    game.current = 1
    game.play_turn()
    [rolled] = [i for i, r in enumerate(game.events) if r[0] == ROLL and r[1] == 1]
    assert game.events[rolled + 1][:4] == (PAYMENT, monopoly.BANK, 1, 30)  # before the move (then a Chance card)
    assert [r[3] for r in game.events if r[0] == ROLL and len(r) > 3] == [("bus",), (3,)]


@pytest.mark.parametrize("edition", EDITIONS)
def test_each_player_starts_with_an_extra_1000(edition: str) -> None:
    """The printed Speed Die rules (Parker Brothers, 2007) begin: "When starting the game, hand out an extra $1,000
    to each player": the edition's 1,500 and 1,000 more, paid as the starting cash."""
    plain = monopoly.load_ruleset(edition)
    speedy = monopoly.load_ruleset(edition, ["speed-die"])
    assert plain.starting_cash == 1500 and speedy.starting_cash == 2500
    game = monopoly.Game(speedy, players=3, seed=1)
    events: list[dict[str, Any]] = []
    game.observe(events.append)
    game.start()
    assert game.cash == [2500, 2500, 2500]
    assert [(e["to"], e["amount"], e["reason"]) for e in events if e["type"] == "payment"] == \
        [(seat, 2500, "starting cash") for seat in range(3)]
