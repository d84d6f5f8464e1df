"""Rules at the edges of what a ruleset may say: dice rent on any space, one die, problems caused elsewhere."""

from __future__ import annotations

import textwrap

import pytest

import monopoly
from monopoly.analysis.markov import dice_outcomes, landing_odds

from .scenario import ScriptedAgent, setup_game, sp


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return str(path)


def test_rent_from_dice_applies_to_any_owned_space(tmp_path):
    edition = write(tmp_path, "dice-rail.yaml", """\
        id: dice-rail
        name: Dice rail
        extends: classic
        decks:
          chance:
            cards:
              - {text: "Nearest railroad, ten times the dice.", effect: advance to nearest railroad with rent 10 x dice}
        """)
    ruleset = monopoly.load_ruleset(edition)
    game, events = setup_game(ruleset_name=edition, agents=[ScriptedAgent(), ScriptedAgent()])
    game.give(sp(game, "Pennsylvania Railroad"), 1)
    game.fix_dice([(3, 4), (2, 3)])  # GO -> Chance (7) -> Pennsylvania Railroad, then a fresh roll of 5
    game.play_turn()
    rents = [(e["from"], e["to"], e["amount"]) for e in events if e["type"] == "payment" and e["reason"] == "rent"]
    assert rents == [(0, 1, 50)]
    assert ruleset.board[15].name == "Pennsylvania Railroad"


def test_one_die_never_throws_doubles(tmp_path):
    edition = write(tmp_path, "one-die.yaml", """\
        id: one-die
        name: One die
        extends: classic
        dice: {count: 1, sides: 6}
        """)
    ruleset = monopoly.load_ruleset(edition)
    assert all(not double for _, double, _ in dice_outcomes(1, 6))
    assert landing_odds(ruleset).rolls_per_turn == 1.0
    jailed = []
    game = monopoly.Game(ruleset, [monopoly.make_agent("greedy"), monopoly.make_agent("greedy")], seed=3,
                         max_turns=60, observers=[lambda e: jailed.append(e) if e["type"] == "jail" else None])
    game.play()
    assert not [e for e in jailed if e["how"] == "doubles"]


def test_a_problem_caused_by_a_variant_names_it(tmp_path):
    variant = write(tmp_path, "five.yaml", """\
        id: five-houses
        kind: variant
        name: Five houses
        description: Hotels after five houses.
        rules:
          building: {houses_per_hotel: 5}
        """)
    ruleset, problems = monopoly.check_ruleset("classic", [variant])
    assert ruleset is None
    assert problems[0].code == "rent-length" and problems[0].file.endswith("classic.yaml")
    assert problems[0].hint == f"houses_per_hotel is 5, set at {problems[0].hint.split('set at ')[1]}"
    assert "five.yaml:6:" in problems[0].hint


def test_a_kind_changed_by_an_extension_is_named_in_the_hint(tmp_path):
    edition = write(tmp_path, "bw.yaml", """\
        id: bw
        name: BW
        extends: classic
        spaces:
          Boardwalk: {kind: plain}
        """)
    ruleset, problems = monopoly.check_ruleset(edition)
    assert ruleset is None
    not_ownable = [p for p in problems if p.code == "not-ownable"]
    assert not_ownable and all("bw.yaml:5:" in p.hint for p in not_ownable)


def test_option_costs_price_each_alternative_while_choosing():
    seen = []

    class Chooser(monopoly.Agent):
        def choose(self, game, seat, options):
            seen.append((options, game.option_costs(seat)))
            return 1

    game, events = setup_game(agents=[Chooser(), ScriptedAgent()])
    game.cash[0] = 1000
    game.fix_dice([(1, 3)])  # GO -> Income Tax
    game.play_turn()
    assert seen == [(("pay 200", "pay 10% of net worth"), [])]  # chosen before the worth is added up
    assert game.cash[0] == 900
    assert game.option_costs(0) == []  # only while choosing
    assert [e["chosen"] for e in events if e["type"] == "choice"] == [1]


@pytest.mark.parametrize(("effect", "costs"), [
    ("choose: pay 50 | if cash > 100000 then pay 10% of net worth else pay 100", [50, 100]),  # the worth not read
    ("choose: pay 75 | pay 20; if cash > 100000 then collect 10% of net worth", [75, 20]),
    ("choose: pay 75 | pay 10% of net worth", []),  # the worth would be added up: the player chooses first
])
def test_option_costs_are_told_unless_telling_them_adds_up_the_worth(effect, costs):
    """Found by a review: costs are withheld only where an alternative pays by the worth whatever happens (the
    classic Income Tax), not wherever an alternative mentions it."""
    from monopoly.effects import parse_effect
    from monopoly.effects.compile import Names, compile_effect

    seen = []

    class Chooser(monopoly.Agent):
        def choose(self, game, seat, options):
            seen.append(game.option_costs(seat))
            return 0

    game, _ = setup_game(agents=[Chooser(), ScriptedAgent()])
    game.carry_out(compile_effect(parse_effect(effect), Names(game.ruleset.board), effect)(game, 0, None))
    assert seen == [costs]


def test_legal_actions_lists_exactly_the_actions_verify_allows():
    """legal_actions picks candidates from the state for speed; trying every action must agree."""
    from monopoly.game import actions as act

    ruleset = monopoly.load_ruleset("classic", ["tournament"])
    checked = 0
    for seed in range(6):
        game = monopoly.Game(ruleset, [monopoly.make_agent(n) for n in ("random", "greedy", "trader", "cautious")],
                             seed=seed, max_turns=250)
        while not game.finished:
            game.play_turn()
            for seat in range(4):
                for raising in (False, True):
                    every = [] if game.bankrupt[seat] else [
                        action for s in game.tables.ownable if game.owner[s] == seat
                        for action in (act.Build(s), act.SellBuilding(s), act.Mortgage(s), act.Unmortgage(s))
                        if act.can(game, seat, action, raising=raising)]
                    assert act.legal_actions(game, seat, raising=raising) == every
                    checked += 1
    assert checked > 1000
