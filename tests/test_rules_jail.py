"""Rule scenarios: getting out of jail (doubles, the fine, the forced fine, the card)."""

from __future__ import annotations

from tests.scenario import ScriptedAgent, hold_card, of_type, payments, rolls, setup_game, sp


def jailed(agent0=None, cash=None):
    agents = [agent0 or ScriptedAgent(), ScriptedAgent()]
    game, events = setup_game(agents=agents, cash=cash)
    game.position[0] = sp(game, "Jail")
    game.jail_turns[0] = 0
    return game, events


def test_doubles_free_the_player_who_moves_by_that_roll_and_does_not_roll_again():
    game, events = jailed()
    game.fix_dice([(2, 2), (1, 2)])
    game.play_turn()
    assert rolls(events) == [(2, 2)]
    assert game.position[0] == sp(game, "Virginia Avenue")  # 10 + 4
    assert game.jail_turns[0] == -1
    assert game.cash[0] == 1500 and payments(events) == []
    assert [(e["action"], e["how"]) for e in of_type(events, "jail")] == [("leave", "doubles")]
    assert game.current == 1


def test_doubles_on_the_third_attempt_free_without_the_fine():
    game, _events = jailed()
    game.jail_turns[0] = 2
    game.fix_dice([(3, 3)])
    game.play_turn()
    assert game.position[0] == sp(game, "St. James Place") and game.jail_turns[0] == -1
    assert game.cash[0] == 1500


def test_a_failed_roll_stays_in_jail():
    game, events = jailed()
    game.fix_dice([(1, 2)])
    game.play_turn()
    assert game.position[0] == sp(game, "Jail")
    assert game.jail_turns[0] == 1
    assert game.cash[0] == 1500 and payments(events) == []
    assert game.agents[0].questions("jail") == [(("roll", "pay"),)]


def test_paying_the_fine_before_rolling_then_a_normal_turn_with_doubles():
    game, events = jailed(ScriptedAgent(jail="pay"))
    game.jail_turns[0] = 1
    game.fix_dice([(3, 3), (1, 2)])  # out, 10 -> 16, doubles again -> 19
    game.play_turn()
    assert payments(events)[0] == (0, "bank", 50, "jail fine")
    assert rolls(events) == [(3, 3), (1, 2)]
    assert game.position[0] == sp(game, "New York Avenue")
    assert game.jail_turns[0] == -1
    assert game.cash[0] == 1450
    assert [(e["action"], e["how"]) for e in of_type(events, "jail")] == [("leave", "paid")]


def test_the_fine_is_not_offered_without_the_cash():
    game, _events = jailed(cash=[40, 1500])
    game.fix_dice([(1, 2)])
    game.play_turn()
    assert game.agents[0].questions("jail") == []  # only "roll" was possible
    assert game.jail_turns[0] == 1 and game.cash[0] == 40


def test_third_failed_roll_forces_the_fine_then_moves_by_that_roll():
    game, events = jailed()
    game.jail_turns[0] = 2
    game.fix_dice([(1, 2), (5, 5)])
    game.play_turn()
    assert rolls(events) == [(1, 2)]
    assert payments(events) == [(0, "bank", 50, "jail fine")]
    assert game.position[0] == sp(game, "States Avenue")  # 10 + 3
    assert game.jail_turns[0] == -1
    assert game.cash[0] == 1450


def test_third_failed_roll_without_the_cash_raises_it():
    game, _events = jailed(cash=[20, 1500])
    game.give(sp(game, "Reading Railroad"), 0)
    game.jail_turns[0] = 2
    game.fix_dice([(1, 2)])
    game.play_turn()
    assert game.mortgaged[sp(game, "Reading Railroad")]
    assert game.cash[0] == 20 + 100 - 50
    assert game.position[0] == sp(game, "States Avenue") and game.jail_turns[0] == -1
    assert not game.bankrupt[0]


def test_get_out_of_jail_free_card_is_used_and_returns_to_the_bottom_of_its_deck():
    game, events = jailed(ScriptedAgent(jail="card"))
    card = hold_card(game, 0, "chance", "Get out of Jail Free")
    chance_before = list(game.decks["chance"])
    chest_before = list(game.decks["community_chest"])
    game.fix_dice([(1, 2)])  # the card frees; then a normal roll: 10 -> 13
    game.play_turn()
    assert game.agents[0].questions("jail") == [(("roll", "pay", "card"),)]
    assert game.held_cards[0] == []
    slots = game.tables.decks["chance"]
    assert list(game.decks["chance"]) == chance_before + [next(i for i, s in enumerate(slots)
                                                               if s.index == card[1])]
    assert list(game.decks["community_chest"]) == chest_before
    assert game.position[0] == sp(game, "States Avenue")
    assert game.jail_turns[0] == -1
    assert game.cash[0] == 1500 and payments(events) == []
    assert [(e["action"], e["how"]) for e in of_type(events, "jail")] == [("leave", "card")]


def test_an_illegal_jail_choice_is_refused_and_counts_as_rolling():
    game, events = jailed(ScriptedAgent(jail="card"))  # holds no card
    game.fix_dice([(1, 2)])
    game.play_turn()
    assert len(of_type(events, "refused")) == 1
    assert game.jail_turns[0] == 1 and game.cash[0] == 1500


def test_a_game_that_ends_during_the_forced_fine_ends_there_and_its_last_position_loads(tmp_path):
    """A fee trigger that bankrupts the last rival while a jailed player pays the fine after the last try: the game
    ends at that moment (no jail event after game_end), and the final position, the player at the last try, is
    one that loads."""
    import json

    import monopoly
    from monopoly.game.state import GameState

    variant = tmp_path / "fee-collects.yaml"
    variant.write_text("id: fee-collects\nkind: variant\nname: Fee collects\ndescription: a fee collects instead.\n"
                       "rules: {jail: {max_turns: 1}}\n"
                       "triggers:\n  - {on: fee, instead: true, effect: collect 10 from each player}\n",
                       encoding="utf-8")
    ruleset = monopoly.load_ruleset("classic", [str(variant)])
    game = monopoly.Game(ruleset, [ScriptedAgent(), ScriptedAgent()], seed=1)
    events: list[dict] = []
    game.observe(events.append)
    game.start()
    game.cash[1] = 5
    game.position[0], game.jail_turns[0] = sp(game, "Jail"), 0
    game.fix_dice([(1, 2)])  # the last try fails: the fine is due, and its trigger bankrupts seat 1
    game.play_turn()
    assert game.finished and game.winner == 0 and game.bankrupt[1]
    assert events[-1]["type"] == "game_end"
    assert game.jail_turns[0] == 1 and game.state().problems(ruleset) == []
    data = json.loads(json.dumps(game.state().to_json()))
    assert GameState.from_json(data, ruleset, players=2).jail_turns == [1, -1]


# The printed rules (Parker Brothers), on getting out of jail: "(1) throwing doubles on any of your next three
# turns [...] (2) using the 'Get Out of Jail Free' card [...] (3) purchasing the 'Get Out of Jail Free' card from
# another player [...] (4) paying a fine of $50 before you roll the dice on either of your next two turns. If
# you do not throw doubles by your third turn, you must pay the $50 fine. You then get out of Jail and
# immediately move forward the number of spaces shown by your throw."


def test_on_the_third_turn_paying_first_is_not_offered_and_a_double_frees_without_another_throw():
    """"paying a fine of $50 before you roll the dice on either of your next two turns": on the third the player
    throws; a double frees (no fine) and is no licence to throw again."""
    game, events = jailed(ScriptedAgent(jail="pay"))  # would pay first if asked
    game.jail_turns[0] = 2  # two failed tries behind: the third turn in jail
    game.fix_dice([(3, 3), (1, 2)])
    game.play_turn()
    assert game.agents[0].questions("jail") == []  # only the throw: nothing to choose
    assert rolls(events) == [(3, 3)]  # the double moves the player, and the turn ends there
    assert game.position[0] == sp(game, "St. James Place")  # 10 + 6
    assert game.jail_turns[0] == -1 and game.cash[0] == 1500 and payments(events) == []
    assert [(e["action"], e["how"]) for e in of_type(events, "jail")] == [("leave", "doubles")]


def test_on_the_third_turn_the_card_is_still_offered_beside_the_throw():
    """The card is one of the ways out on any turn in jail; only paying first is limited to the first two."""
    game, events = jailed(ScriptedAgent(jail="card"))
    hold_card(game, 0, "chance", "Get out of Jail Free")
    game.jail_turns[0] = 2
    game.fix_dice([(1, 2)])
    game.play_turn()
    assert game.agents[0].questions("jail") == [(("roll", "card"),)]
    assert [(e["action"], e["how"]) for e in of_type(events, "jail")] == [("leave", "card")]
    assert game.position[0] == sp(game, "States Avenue") and game.cash[0] == 1500


def test_on_the_second_turn_paying_first_is_still_offered():
    game, events = jailed(ScriptedAgent(jail="pay"))
    game.jail_turns[0] = 1  # the second turn in jail
    game.fix_dice([(1, 2)])
    game.play_turn()
    assert game.agents[0].questions("jail") == [(("roll", "pay"),)]
    assert payments(events) == [(0, "bank", 50, "jail fine")] and game.position[0] == sp(game, "States Avenue")


def test_a_ruleset_may_let_the_fine_be_paid_first_on_the_last_turn_too(tmp_path):
    """rules.jail.pay_on_last_turn: the knob for a ruleset that wants otherwise; the player who pays first then
    throws as on any turn, a double throwing again."""
    variant = tmp_path / "pay-any-turn.yaml"
    variant.write_text("id: pay-any-turn\nkind: variant\nname: Pay any turn\ndescription: pay on any turn.\n"
                       "rules: {jail: {pay_on_last_turn: true}}\n", encoding="utf-8")
    game, events = setup_game(variants=[str(variant)], agents=[ScriptedAgent(jail="pay"), ScriptedAgent()])
    game.position[0], game.jail_turns[0] = sp(game, "Jail"), 2
    game.fix_dice([(3, 3), (1, 2)])  # out, 10 -> 16, the double throws again -> 19
    game.play_turn()
    assert game.agents[0].questions("jail") == [(("roll", "pay"),)]
    assert payments(events)[0] == (0, "bank", 50, "jail fine")
    assert rolls(events) == [(3, 3), (1, 2)] and game.position[0] == sp(game, "New York Avenue")
