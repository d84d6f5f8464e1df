"""Triggers on the events of the game (issue 10 item 2): build, mortgage, unmortgage, rent, fee, go_to_jail,
leave_jail, bankrupt, land and pass on a kind of space; conditions (`if:`) and `instead`. Each scenario sets the
position up exactly, plays the step and checks the money, the place and the jail exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

import monopoly
from monopoly import Build, Mortgage, Unmortgage
from tests.scenario import ScriptedAgent, own, payments


def _game(tmp_path: Path, triggers: str, *agents: ScriptedAgent, extra: str = "") -> monopoly.Game:
    """A started classic game with these triggers (YAML list lines), two scripted seats by default."""
    path = tmp_path / "triggers.yaml"
    path.write_text(f"id: triggers\nname: Triggers\nextends: classic\n{extra}triggers:\n{triggers}", encoding="utf-8")
    ruleset = monopoly.load_ruleset(str(path))
    game = monopoly.Game(ruleset, list(agents) or [ScriptedAgent(), ScriptedAgent()], seed=1)
    game.start()
    return game


def _events(game: monopoly.Game) -> list[dict]:
    return [monopoly.game.events.to_dict(e) for e in game.events]


def test_build_fires_after_the_house_with_its_cost_as_amount(tmp_path: Path) -> None:
    game = _game(tmp_path, "  - {on: build, effect: collect 10% of amount}\n")
    own(game, 0, "Mediterranean Avenue", "Baltic Avenue")
    assert game.apply(0, Build(3))
    assert (game.buildings[3], game.cash[0]) == (1, 1500 - 50 + 5)


def test_mortgage_and_unmortgage_fire_with_the_money_they_moved(tmp_path: Path) -> None:
    game = _game(tmp_path, "  - {on: mortgage, effect: pay 10% of amount}\n"
                           "  - {on: unmortgage, effect: collect amount}\n")
    own(game, 0, "Baltic Avenue")
    assert game.apply(0, Mortgage(3))
    assert (game.mortgaged[3], game.cash[0]) == (True, 1500 + 30 - 3)
    assert game.apply(0, Unmortgage(3))  # 33 to lift it, all of it back
    assert (game.mortgaged[3], game.cash[0]) == (False, 1527)


def test_the_engines_own_mortgages_when_raising_a_debt_fire_too(tmp_path: Path) -> None:
    game = _game(tmp_path, "  - {on: mortgage, effect: collect 1}\n")
    own(game, 0, "Baltic Avenue")
    own(game, 1, "Boardwalk")
    game.cash[0] = 40
    game.position[0] = 35
    game.fix_dice([(1, 3)])  # onto Boardwalk: rent 50; Baltic mortgaged (30) by the engine, then 1 back
    game.play_turn()
    assert game.mortgaged[3] and game.cash == [40 + 30 + 1 - 50, 1550]


@pytest.mark.parametrize("effect", ["pay 1000", "advance to \"Luxury Tax\""])
def test_a_mortgage_trigger_that_ends_the_game_during_a_debt_ends_the_debt_too(tmp_path: Path, effect: str) -> None:
    """Raising a rent, the engine mortgages; the mortgage's trigger costs the player more than they have (a fee,
    or a move onto a tax), so they go bankrupt to the bank and the game is over: the rent they were raising is
    not owed again (found by the random rulesets: a second bankrupt event after game_end)."""
    game = _game(tmp_path, f"  - {{on: mortgage, effect: '{effect}'}}\n",
                 extra="spaces:\n  Luxury Tax: {effect: pay 1000}\n")
    own(game, 0, "Baltic Avenue")
    own(game, 1, "Boardwalk")
    game.cash[0] = 40
    game.position[0] = 35
    game.fix_dice([(1, 3)])  # onto Boardwalk: rent 50; Baltic mortgaged (30), then the trigger's 1000
    game.play_turn()
    kinds = [event["type"] for event in _events(game)]
    assert game.finished and game.winner == 1 and kinds[-1] == "game_end"
    assert kinds.count("bankrupt") == 1 and _events(game)[kinds.index("bankrupt")]["creditor"] == "bank"
    assert game.bankrupt == [True, False] and game.cash == [0, 1500]
    assert monopoly.GameState.of(game).problems(game.ruleset) == []


def test_rent_instead_on_a_condition_and_the_plain_trigger_after(tmp_path: Path) -> None:
    game = _game(tmp_path, "  - {on: rent, if: owner is in jail, instead: true, effect: pay 50% of amount to owner}\n"
                           "  - {on: rent, effect: collect 1}\n")
    own(game, 1, "Boardwalk")
    game.position[0] = 35
    game.fix_dice([(1, 3)])  # Boardwalk, rent 50: paid whole, then 1 from the bank
    game.play_turn()
    assert game.cash == [1500 - 50 + 1, 1550]
    game.send_to_jail(1)
    game.current = 0
    game.position[0] = 35
    game.fix_dice([(1, 3)])  # the owner in jail: half the rent instead, and the plain trigger still
    game.play_turn()
    assert game.cash == [1451 - 25 + 1, 1575]


def test_a_fee_paid_into_the_pot_instead_and_the_jail_fine_is_a_fee(tmp_path: Path) -> None:
    game = _game(tmp_path, "  - {on: fee, instead: true, effect: pay amount to pot}\n",
                 ScriptedAgent(jail="pay"), ScriptedAgent())
    game.fix_dice([(1, 3)])  # GO -> Income Tax: 200 (the first alternative) into the pot, not to the bank
    game.play_turn()
    assert (game.cash[0], game.pot) == (1300, 200)
    assert [p for p in payments(_events(game)) if p[2] == 200] == [(0, "pot", 200, "trigger on fee")]
    game.send_to_jail(0)
    game.current = 0
    game.fix_dice([(2, 3)])  # pays the fine (50) to leave: into the pot; then 10 + 5 = Pennsylvania Railroad
    game.play_turn()
    assert (game.cash[0], game.pot, game.jail_turns[0], game.position[0]) == (1250, 250, -1, 15)


def test_a_trigger_does_not_set_off_the_triggers_of_its_own_event(tmp_path: Path) -> None:
    game = _game(tmp_path, "  - {on: fee, effect: pay 1}\n  - {on: take_pot, effect: collect pot}\n",
                 extra="rules: {fees_to: pot}\nspaces:\n  Free Parking: {effect: collect pot}\n")
    game.fix_dice([(1, 3)])  # Income Tax 200, then the trigger's fee of 1, which sets nothing off
    game.play_turn()
    assert (game.cash[0], game.pot) == (1299, 201)
    game.position[1] = 10
    game.fix_dice([(4, 6)])  # Free Parking: seat 1 takes 201; the trigger's `collect pot` takes nothing more
    game.play_turn()
    assert (game.cash[1], game.pot) == (1701, 0)


@pytest.mark.parametrize(("cash", "jailed", "after"), [(1500, False, 1400), (900, True, 910)])
def test_go_to_jail_instead_on_a_condition(tmp_path: Path, cash: int, jailed: bool, after: int) -> None:
    game = _game(tmp_path, "  - {on: go_to_jail, if: cash >= 1000, instead: true, effect: pay 100}\n"
                           "  - {on: go_to_jail, effect: if you are in jail then collect 10}\n")
    game.cash[0] = cash
    game.position[0] = 25
    game.fix_dice([(2, 3)])  # onto Go To Jail
    game.play_turn()
    assert (game.jail_turns[0] >= 0, game.position[0], game.cash[0]) == (jailed, 10 if jailed else 30, after)


def test_three_doubles_go_to_jail_through_the_triggers_too(tmp_path: Path) -> None:
    game = _game(tmp_path, "  - {on: go_to_jail, effect: collect 10}\n")
    game.fix_dice([(3, 3), (2, 2), (1, 1)])  # 6 (Oriental Avenue, declined), 10 (visiting), the third doubles: jail
    game.play_turn()
    assert (game.jail_turns[0], game.position[0], game.cash[0]) == (0, 10, 1510)


def test_leave_jail_fires_before_the_move(tmp_path: Path) -> None:
    game = _game(tmp_path, "  - {on: leave_jail, effect: collect 25}\n", ScriptedAgent(jail="roll"), ScriptedAgent())
    game.send_to_jail(0)
    game.fix_dice([(3, 3)])  # doubles: out, 25, then the move of 6 (no further roll)
    game.play_turn()
    assert (game.jail_turns[0], game.position[0], game.cash[0]) == (-1, 16, 1525)


def test_bankrupt_fires_before_the_handover_with_the_debt_as_amount(tmp_path: Path) -> None:
    game = _game(tmp_path, "  - {on: bankrupt, effect: collect amount}\n")
    own(game, 1, "Boardwalk")
    game.cash[0] = 10
    game.position[0] = 35
    game.fix_dice([(1, 3)])  # rent 50, 10 in hand, nothing to sell: bankrupt; 50 from the bank first
    game.play_turn()
    assert game.bankrupt[0] and game.cash[1] == 1500 + 60


def test_land_and_pass_on_a_kind_of_space(tmp_path: Path) -> None:
    game = _game(tmp_path, "  - {on: pass, kind: railroad, effect: collect 1}\n"
                           "  - {on: land, kind: railroad, effect: collect 7}\n")
    game.fix_dice([(2, 3)])  # GO -> Reading Railroad: landed on (7), not passed
    game.play_turn()
    assert game.cash[0] == 1507
    game.current = 0
    game.fix_dice([(4, 6)])  # 5 -> 15 Pennsylvania Railroad, landed on
    game.play_turn()
    assert game.cash[0] == 1514
    game.current = 0
    game.fix_dice([(5, 6)])  # 15 -> 26, past B. & O. Railroad (25)
    game.play_turn()
    assert game.cash[0] == 1515


def test_land_instead_leaves_the_space_s_own_effect_out(tmp_path: Path) -> None:
    game = _game(tmp_path, "  - {on: land, kind: tax, if: cash > 1000, instead: true, effect: pay 10}\n")
    game.fix_dice([(1, 3)])  # Income Tax: 10 instead of the tax
    game.play_turn()
    assert game.cash[0] == 1490 and not game.agents[0].questions("choose")
    game.cash[1] = 900
    game.fix_dice([(1, 3)])  # seat 1 with 900: the tax (the first alternative, 200)
    game.play_turn()
    assert game.cash[1] == 700


@pytest.mark.parametrize(("dice", "bonus"), [((3, 4), 70), ((2, 4), 0)])
def test_a_condition_on_a_roll(tmp_path: Path, dice: tuple[int, int], bonus: int) -> None:
    game = _game(tmp_path, "  - {on: roll, if: dice = 7, effect: collect 70}\n")
    game.position[0] = 20
    game.fix_dice([dice])  # Free Parking -> Ventnor or Atlantic Avenue (declined, nobody bids)
    game.play_turn()
    assert (game.position[0], game.cash[0]) == (20 + sum(dice), 1500 + bonus)


@pytest.mark.parametrize(("trigger", "column", "message"), [
    ("{on: roll, instead: true, effect: collect 1}", 25, "a trigger on roll cannot replace anything"),
    ("{on: pass, space: GO, instead: true, effect: collect 1}", 36, "a trigger on pass cannot replace anything"),
    ("{on: turn_start, effect: collect amount}", 38, '"amount" is the money of the event'),
    ("{on: land, space: GO, if: amount > 1, effect: collect 1}", 31, '"amount" is the money of the event'),
    ("{on: rent, if: dice total is 7, effect: collect 1}", 25, 'expected a comparison'),
    ("{on: rent, if: cash <, effect: collect 1}", 26, "found the end of the condition"),
    ("{on: land, space: GO, kind: tax, effect: collect 1}", 33, "names one space or one kind, not both"),
    ("{on: buy, kind: tax, effect: collect 1}", 21, 'it takes no "kind"'),
    ("{on: land, kind: go, effect: pay amount to pot}", 38, '"amount" is the money of the event'),
])
def test_trigger_problems_are_located(tmp_path: Path, trigger: str, column: int, message: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(f"id: bad\nname: Bad\nextends: classic\ntriggers:\n  - {trigger}\n", encoding="utf-8")
    ruleset, problems = monopoly.check_ruleset(str(path))
    assert ruleset is None
    [problem] = problems
    assert f"bad.yaml:5:{column}:" in problem.format() and message in problem.format(), problem.format()


def test_amount_is_a_number_in_the_triggers_that_have_one(tmp_path: Path) -> None:
    for event in ("rent", "fee", "build", "mortgage", "unmortgage", "bankrupt"):
        path = tmp_path / "good.yaml"
        path.write_text(f"id: good\nname: Good\nextends: classic\ntriggers:\n"
                        f"  - {{on: {event}, if: amount >= 2 x dice, effect: pay 5% of amount}}\n", encoding="utf-8")
        ruleset, problems = monopoly.check_ruleset(str(path))
        assert ruleset is not None, problems


def test_the_model_keeps_the_name_kind_condition_and_instead_and_show_prints_them(tmp_path: Path) -> None:
    game = _game(tmp_path, "  - {name: cheap_tax, on: land, kind: tax, if: doubles, instead: true, effect: pay 1}\n")
    [trigger] = game.ruleset.triggers
    assert (trigger.name, trigger.kind, trigger.condition_text, trigger.instead) == ("cheap_tax", "tax", "doubles",
                                                                                     True)
    assert trigger.spaces == (4, 38) and trigger.condition.to_text() == "doubles"
    assert game.ruleset.to_dict()["triggers"] == [{"name": "cheap_tax", "on": "land", "kind": "tax", "if": "doubles",
                                                   "instead": True, "effect": "pay 1"}]
    from click.testing import CliRunner

    from monopoly.cli.main import cli
    out = CliRunner().invoke(cli, ["show", str(tmp_path / "triggers.yaml")]).output
    assert "name: cheap_tax" in out and "instead: true" in out


def test_the_exact_odds_follow_land_triggers_with_instead_and_say_when_a_trigger_makes_them_approximate(
        tmp_path: Path) -> None:
    from monopoly.analysis.markov import landing_odds

    classic = landing_odds(monopoly.load_ruleset("classic"))
    # Landing on a Chance square pays 10 instead of drawing: followed exactly, nobody leaves Chance any more.
    game = _game(tmp_path, "  - {on: land, space: Chance, instead: true, effect: collect 10}\n")
    odds = landing_odds(game.ruleset)
    assert odds.approximate == () and abs(sum(odds.landing) + odds.in_jail - 1) < 1e-9
    assert odds.landing[7] > classic.landing[7] * 2  # the first Chance square keeps everyone who lands there
    # A condition the chain cannot know on a trigger that moves: half the time, and said so.
    game = _game(tmp_path, "  - {on: land, kind: tax, if: doubles, effect: move 1}\n")
    [reason] = landing_odds(game.ruleset).approximate
    assert 'land of a tax if "doubles"' in reason
    # A trigger on another event that may move the player, or keep them out of jail, is not followed.
    for trigger in ("{on: rent, effect: advance to GO}", "{on: go_to_jail, instead: true, effect: pay 50}"):
        game = _game(tmp_path, f"  - {trigger}\n")
        [reason] = landing_odds(game.ruleset).approximate
        assert "at a moment the odds do not follow" in reason
    # Money alone changes no odds.
    game = _game(tmp_path, "  - {on: fee, instead: true, effect: pay amount to pot}\n"
                           "  - {on: go_to_jail, effect: collect 10}\n")
    odds = landing_odds(game.ruleset)
    assert odds.approximate == () and odds.landing == classic.landing


def test_a_variant_changes_a_named_trigger_s_kind_condition_and_instead(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text("id: tbase\nname: TBase\nextends: classic\ntriggers:\n"
                                        "  - {name: toll, on: land, kind: railroad, effect: pay 5}\n", encoding="utf-8")
    (tmp_path / "var.yaml").write_text("id: tvar\nkind: variant\nname: TVar\ndescription: The toll on utilities, "
                                       "on doubles, instead of the landing.\ntriggers:\n  change:\n"
                                       "    toll: {kind: utility, if: doubles, instead: true}\n", encoding="utf-8")
    ruleset = monopoly.load_ruleset(str(tmp_path / "base.yaml"), [str(tmp_path / "var.yaml")])
    [trigger] = ruleset.triggers
    assert (trigger.name, trigger.kind, trigger.spaces, trigger.condition_text, trigger.instead) == (
        "toll", "utility", (12, 28), "doubles", True)
    game = monopoly.Game(ruleset, [ScriptedAgent(buy=True), ScriptedAgent()], seed=1)
    game.start()
    game.position[0] = 10
    game.fix_dice([(1, 1), (2, 3)])  # Electric Company on doubles: 5 instead of the offer; then 17 (a card, stacked)
    game.decks["community_chest"].rotate(-game.decks["community_chest"].index(
        next(slot.slot for slot in game.tables.decks["community_chest"] if slot.text.startswith("Bank error"))))
    game.play_turn()
    assert game.owner[12] == -1 and game.agents[0].questions("buy") == []
    assert (game.position[0], game.cash[0]) == (17, 1500 - 5 + 200)
