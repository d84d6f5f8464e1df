"""Permissions as conditions (`permissions:` of a ruleset): when a lot may be bought, rent collected, a house
built, a lot mortgaged, a trade proposed. Each test sets the position up exactly and checks the exact outcome
(who is asked what, the money, the owners, the refusal and its reason); the files that get a permission wrong
get located problems.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import monopoly
from monopoly import Build, Mortgage, Trade
from monopoly.ruleset import RulesetError, check_ruleset, load_ruleset
from tests.scenario import ScriptedAgent, of_type, own, payments, setup_game, sp


def variant(tmp_path: Path, permissions: str, name: str = "perms") -> str:
    path = tmp_path / f"{name}.yaml"
    path.write_text(textwrap.dedent(f"""\
        id: {name}
        kind: variant
        name: Permissions
        description: Permissions for a test.
        permissions:
        """) + textwrap.indent(textwrap.dedent(permissions), "  "), encoding="utf-8")
    return str(path)


def game_of(ruleset: monopoly.Ruleset, *agents: ScriptedAgent, cash: list[int] | None = None):
    agents = agents or (ScriptedAgent(), ScriptedAgent())
    game = monopoly.Game(ruleset, list(agents), seed=1)
    events: list[dict] = []
    game.observe(events.append)
    game.start()
    if cash is not None:
        game.cash[:] = cash
    events.clear()
    return game, events


@pytest.mark.parametrize("edition", ["classic", "uk"])
def test_first_lap_offers_nothing_before_a_lap_and_everything_after(edition):
    game, events = setup_game(edition, ("first-lap",), agents=[ScriptedAgent(buy=True), ScriptedAgent(bid=10)])
    game.fix_dice([(1, 2)])  # GO -> 3, a lot, on the first lap: no offer, no auction
    game.play_turn()
    assert game.position[0] == 3 and game.owner[3] == -1
    assert game.agents[0].questions("buy") == [] and of_type(events, "auction") == []
    game.laps[1] = 1
    game.position[1] = 36
    game.fix_dice([(2, 5)])  # 36 -> 3 past GO: a second lap begins, the lot is offered
    game.play_turn()
    assert game.laps[1] == 2 and game.agents[1].questions("buy") == [(3,)]


def test_first_lap_auctions_only_among_players_who_have_been_round(tmp_path):
    ruleset = load_ruleset("classic", ["first-lap"])
    agents = [ScriptedAgent(buy=False, bid=[5]), ScriptedAgent(bid=[7]), ScriptedAgent(bid=[9])]
    game, events = game_of(ruleset, *agents)
    game.laps[:] = [1, 0, 1]
    game.fix_dice([(1, 2)])  # seat 0 declines; seats 0 and 2 may bid, seat 1 (no lap yet) may not
    game.play_turn()
    assert game.agents[1].questions("bid") == []
    assert [e["winner"] for e in of_type(events, "auction")] == [2]
    assert game.owner[3] == 2


def test_a_rent_permission_is_tested_for_the_visitor_with_the_lots_owner(tmp_path):
    ruleset = load_ruleset("classic", [variant(tmp_path, "rent: not owner is in jail\n")])
    game, events = game_of(ruleset)
    own(game, 1, "Boardwalk")
    game.position[1], game.jail_turns[1] = sp(game, "Jail"), 0
    game.position[0] = 36
    game.fix_dice([(1, 2)])  # onto Boardwalk, owner in jail: no rent
    game.play_turn()
    assert game.position[0] == 39 and game.cash[:2] == [1500, 1500] and payments(events) == []
    game2, events2 = game_of(ruleset)
    own(game2, 1, "Boardwalk")
    game2.position[0] = 36
    game2.fix_dice([(1, 2)])  # owner free: rent as printed
    game2.play_turn()
    assert payments(events2) == [(0, 1, 50, "rent")]


def test_build_and_mortgage_permissions_refuse_with_the_condition(tmp_path):
    ruleset = load_ruleset("classic", [variant(tmp_path, "build: laps >= 2\nmortgage: cash < 100\n")])
    game, events = game_of(ruleset)
    own(game, 0, "Park Place", "Boardwalk")
    before = game.state()
    assert not game.apply(0, Build(sp(game, "Boardwalk")))
    assert not game.apply(0, Mortgage(sp(game, "Boardwalk")))
    assert [e["reason"] for e in of_type(events, "refused")] == [
        "the rules let a player build only when laps >= 2 (permissions.build)",
        "the rules let a player mortgage a lot only when cash < 100 (permissions.mortgage)"]
    assert game.state() == before
    assert not any(type(a) in (Build, Mortgage) for a in game.legal_actions(0))
    game.laps[0], game.cash[0] = 2, 50
    assert Build(sp(game, "Boardwalk")) not in game.legal_actions(0)  # 50 cash: no house, but a mortgage
    assert Mortgage(sp(game, "Boardwalk")) in game.legal_actions(0)
    game.cash[0] = 1500
    assert Build(sp(game, "Boardwalk")) in game.legal_actions(0) and game.apply(0, Build(sp(game, "Boardwalk")))


def test_a_trade_permission_closes_the_space_of_trades(tmp_path):
    ruleset = load_ruleset("classic", [variant(tmp_path, "trade: not you are in jail\n")])
    game, events = game_of(ruleset)
    own(game, 0, "Boardwalk")
    own(game, 1, "Park Place")
    offer = Trade(0, 1, give_cash=10, get_spaces=(sp(game, "Park Place"),))
    game.position[0], game.jail_turns[0] = sp(game, "Jail"), 0
    assert not game.apply(0, offer)
    assert of_type(events, "refused")[-1]["reason"] == (
        "the rules let a player propose a trade only when not you are in jail (permissions.trade)")
    from monopoly.game.decisions import trade_spaces

    assert trade_spaces(game, 0) == ()
    game.jail_turns[0], game.position[0] = -1, 10
    assert trade_spaces(game, 0) and offer in trade_spaces(game, 0)[0]


def test_a_variant_replaces_one_permission_and_two_that_differ_conflict(tmp_path):
    first = variant(tmp_path, "buy: laps >= 2\n", name="two-laps")
    _, problems = check_ruleset("classic", ["first-lap", first])
    assert [p.code for p in problems] == ["variant-conflict"]
    assert "set permissions.buy differently" in problems[0].message
    over = load_ruleset("classic", [first])
    assert [(p.key, p.text) for p in over.permissions] == [("buy", "laps >= 2")]


def test_a_designers_file_with_a_trigger_and_permissions_gets_each_mistake_located(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(textwrap.dedent("""\
        id: house
        kind: variant
        name: House rules
        description: Expressions, a trigger and permissions, with two mistakes.
        triggers:
          - {on: turn_start, effect: "if cash < 100 then collect 5% of net worth"}
        permissions:
          buy: cash of Boardwalk > 5
          rent: not owner is in jail and lapz < 3
        """), encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset("classic", [str(path)])
    found = [(p.code, p.line, p.column, p.message, p.hint) for p in caught.value.problems]
    assert found == [
        ("effect-type-mismatch", 8, 16, '"cash of "Boardwalk"": Boardwalk is a space, a player was expected',
         'a player is "you", "owner", "richest player" or "poorest player"'),
        ("effect-unknown-quantity", 9, 34, 'unknown quantity "lapz"', 'did you mean "laps"?'),
    ]


def test_the_shipped_rulesets_show_their_permissions():
    assert load_ruleset("classic").permissions == ()
    shown = load_ruleset("classic", ["first-lap"]).to_dict()["permissions"]
    assert shown == {"buy": "laps >= 1"}
