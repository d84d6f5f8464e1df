"""Kept cards: what a kept card does is the card's own `use`, not an assumption that every kept card gets a
player out of jail. Each test sets the position up exactly (a card in hand, a token in jail) and checks the
exact outcome: the options offered, the money, the jail state, the decks, the events; and the files that
misuse `use` get located problems.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import monopoly
from monopoly.game.actions import IllegalAction
from monopoly.game.answers import decode_answer, encode_answer
from monopoly.game.apply import apply as apply_event
from monopoly.game.events import from_dict, to_dict
from monopoly.game.log import event_problem
from monopoly.ruleset import RulesetError, find_ruleset, load_ruleset
from tests.scenario import ScriptedAgent, hold_card, of_type, payments, sp

GOOJF = "Get out of Jail Free. This card may be kept until needed or sold."
BONUS = "Keep this card. On your turn, use it to collect $100 from the bank."
BAIL = "Bail bond. Keep this card: use it to leave jail, and the bank pays you $25."

VARIANT = f"""\
id: kept-uses
kind: variant
name: Kept uses
description: A card used on the turn, and one used in jail that pays too.
decks:
  chance:
    change:
      "{GOOJF}": {{use: {{when: turn, effect: collect 100}}, text: "{BONUS}"}}
    add:
      - text: "{BAIL}"
        effect: keep
        use: {{when: in_jail, effect: collect 25}}
"""


@pytest.fixture(scope="module")
def kept_uses(tmp_path_factory: pytest.TempPathFactory) -> monopoly.Ruleset:
    path = tmp_path_factory.mktemp("kept") / "kept-uses.yaml"
    path.write_text(VARIANT, encoding="utf-8")
    return load_ruleset("classic", [str(path)])


def _game(ruleset: monopoly.Ruleset, *agents: ScriptedAgent) -> tuple[monopoly.Game, list[dict]]:
    game = monopoly.Game(ruleset, list(agents) or [ScriptedAgent(), ScriptedAgent()], seed=3)
    events: list[dict] = []
    game.observe(events.append)
    game.start()
    events.clear()
    return game, events


def test_the_shipped_editions_say_their_jail_cards_are_used_in_jail():
    for name in ("classic", "uk"):
        ruleset = load_ruleset(name)
        kept = [(deck.key, card) for deck in ruleset.decks for card in deck.cards if card.use_when is not None]
        assert len(kept) == 2 and all(card.use_when == "in_jail" and card.use_effect is None for _, card in kept)


def test_a_bare_keep_is_still_a_get_out_of_jail_free_card(tmp_path: Path):
    text = Path(find_ruleset("classic")).read_text(encoding="utf-8")
    bare = tmp_path / "bare.yaml"
    bare.write_text(text.replace("id: classic", "id: bare").replace("        use: {when: in_jail}\n", ""),
                    encoding="utf-8")
    assert "use:" not in bare.read_text(encoding="utf-8")
    ruleset = load_ruleset(str(bare))
    uses = [card.use_when for deck in ruleset.decks for card in deck.cards if card.use_when is not None]
    assert uses == ["in_jail", "in_jail"]


def test_a_card_used_on_the_turn_is_not_a_way_out_of_jail(kept_uses):
    game, events = _game(kept_uses, ScriptedAgent(jail="card"), ScriptedAgent())
    bonus = hold_card(game, 0, "chance", BONUS)
    game.position[0], game.jail_turns[0] = sp(game, "Jail"), 0
    game.fix_dice([(1, 2)])
    game.play_turn()
    assert game.agents[0].questions("jail") == [(("roll", "pay"),)]  # no "card": this one is not for jail
    assert game.jail_turns[0] == 1 and game.held_cards[0] == [bonus]
    assert [e["reason"] for e in of_type(events, "refused")] == ["choose one of roll, pay (a str); taken as roll"]


def test_using_a_card_on_the_turn_does_its_effect_and_puts_it_under_its_deck(kept_uses):
    game, events = _game(kept_uses)
    bonus = hold_card(game, 0, "chance", BONUS)
    action = monopoly.UseCard(*bonus)
    assert action in game.legal_actions(0)
    assert action not in game.legal_actions(0, raising=True)
    chance_before = list(game.decks["chance"])
    assert game.apply(0, action)
    assert game.cash[0] == 1600 and game.held_cards[0] == []
    slot = next(i for i, s in enumerate(game.tables.decks["chance"]) if s.index == bonus[1])
    assert list(game.decks["chance"]) == chance_before + [slot]
    assert [e["type"] for e in events] == ["use_card", "payment"]
    assert events[0] == {"type": "use_card", "seat": 0, "deck": "chance", "card": bonus[1]}
    assert payments(events) == [("bank", 0, 100, BONUS)]
    assert action not in game.legal_actions(0)  # used: gone from the hand


def test_a_card_used_on_the_turn_is_an_answer_to_act_that_agents_can_give(kept_uses):
    game, events = _game(kept_uses, ScriptedAgent(act=[None]), ScriptedAgent())
    bonus = hold_card(game, 1, "chance", BONUS)
    game.agents[1].script("act", [monopoly.UseCard(*bonus)])
    game.fix_dice([(1, 2), (2, 3)])
    game.play_turn()
    game.play_turn()
    assert [e["seat"] for e in of_type(events, "use_card")] == [1]
    assert [p for p in payments(events) if p[3] == BONUS] == [("bank", 1, 100, BONUS)]
    assert game.held_cards[1] == []


def test_a_card_used_in_jail_lets_the_player_out_then_does_its_effect(kept_uses):
    game, events = _game(kept_uses, ScriptedAgent(jail="card"), ScriptedAgent())
    bail = hold_card(game, 0, "chance", BAIL)
    game.position[0], game.jail_turns[0] = sp(game, "Jail"), 0
    game.fix_dice([(1, 2)])  # out by the card, then a normal roll: 10 -> 13
    game.play_turn()
    assert game.agents[0].questions("jail") == [(("roll", "pay", "card"),)]
    jail = of_type(events, "jail")
    assert [(e["action"], e["how"], e["card"]) for e in jail] == [("leave", "card", list(bail))]
    assert payments(events)[0] == ("bank", 0, 25, BAIL)
    assert game.jail_turns[0] == -1 and game.position[0] == sp(game, "States Avenue")
    assert game.held_cards[0] == []


def test_the_jail_card_is_the_first_held_that_is_used_in_jail(kept_uses):
    game, events = _game(kept_uses, ScriptedAgent(jail="card"), ScriptedAgent())
    bonus = hold_card(game, 0, "chance", BONUS)
    bail = hold_card(game, 0, "chance", BAIL)
    game.position[0], game.jail_turns[0] = sp(game, "Jail"), 0
    game.fix_dice([(1, 2)])
    game.play_turn()
    assert [e["card"] for e in of_type(events, "jail")] == [list(bail)]
    assert game.held_cards[0] == [bonus]


def test_a_use_that_is_not_legal_is_refused_and_changes_nothing(kept_uses):
    game, _events = _game(kept_uses)
    bail = hold_card(game, 0, "chance", BAIL)
    bonus = ("chance", game.tables.decks["chance"][next(i for i, s in enumerate(game.tables.decks["chance"])
                                                          if s.text == BONUS)].index)
    cases = [
        (monopoly.UseCard(*bonus), "you hold no card"),  # not held
        (monopoly.UseCard(*bail), "used in jail"),  # a jail card
        (monopoly.UseCard("chance", "6"), "a card is a deck's key (str) and its index in the deck (int)"),
        (monopoly.UseCard(7, 0), "a card is a deck's key"),
    ]
    for action, reason in cases:
        with pytest.raises(IllegalAction, match=reason.replace("(", r"\(").replace(")", r"\)")):
            monopoly.game.actions.verify(game, 0, action)
        before = game.state()
        assert game.apply(0, action) is False
        assert game.state() == before
    hold_card(game, 0, "chance", BONUS)
    with pytest.raises(IllegalAction, match="not to raise money"):
        monopoly.game.actions.verify(game, 0, monopoly.UseCard(*bonus), raising=True)


def test_a_use_card_event_replays_and_the_answer_saves(kept_uses):
    game, _events = _game(kept_uses)
    bonus = hold_card(game, 0, "chance", BONUS)
    before = game.state()
    record = (monopoly.game.events.USE_CARD, 0, *bonus)
    assert from_dict(to_dict(record)) == record
    assert event_problem(to_dict(record)) is None
    assert event_problem({**to_dict(record), "card": -1}) is not None
    copy = monopoly.Game.from_state(kept_uses, [ScriptedAgent(), ScriptedAgent()], before)
    apply_event(copy, record)
    assert copy.held_cards[0] == [] and list(copy.decks["chance"])[-1] == next(
        i for i, s in enumerate(copy.tables.decks["chance"]) if s.index == bonus[1])
    answer = monopoly.UseCard(*bonus)
    assert encode_answer(answer) == {"action": "use_card", "deck": "chance", "card": bonus[1]}
    assert decode_answer(encode_answer(answer)) == answer


def _problems(tmp_path: Path, cards: str) -> list[tuple[str, int, str]]:
    path = tmp_path / "bad.yaml"
    path.write_text(textwrap.dedent("""\
        id: bad-uses
        kind: variant
        name: Bad uses
        description: Uses that cannot be.
        decks:
          chance:
            add:
        """) + textwrap.indent(textwrap.dedent(cards), "      "), encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset("classic", [str(path)])
    return [(p.code, p.line, p.message) for p in caught.value.problems]


def test_a_use_on_a_card_that_is_not_kept_is_a_located_problem(tmp_path: Path):
    found = _problems(tmp_path, """\
        - text: A use on a card nobody keeps.
          effect: collect 10
          use: {when: turn, effect: collect 5}
        """)
    assert [(code, line) for code, line, _ in found] == [("use-without-keep", 10)]
    assert "does not keep it" in found[0][2]


def test_a_turn_use_needs_an_effect(tmp_path: Path):
    found = _problems(tmp_path, """\
        - text: Used on the turn, doing nothing.
          effect: keep
          use: {when: turn}
        """)
    assert found == [("missing-key", 10, "missing required key 'effect' in decks.chance.add[0].use")]


def test_a_use_cannot_keep_the_card_again(tmp_path: Path):
    found = _problems(tmp_path, """\
        - text: A use that keeps.
          effect: keep
          use: {when: in_jail, effect: keep}
        """)
    assert [(code, line) for code, line, _ in found] == [("effect-keep-outside-card", 10)]
    assert found[0][2] == '"keep" only works on a card (it keeps the card), not in a card use effect'


def test_the_landing_odds_say_a_moving_card_use_makes_them_approximate(tmp_path: Path):
    path = tmp_path / "jump.yaml"
    path.write_text(VARIANT.replace("id: kept-uses", "id: jump").replace("collect 100", "advance to GO"),
                    encoding="utf-8")
    from monopoly.analysis.markov import landing_odds

    moving = landing_odds(load_ruleset("classic", [str(path)]))
    assert [reason for reason in moving.approximate if "moves its holder" in reason] == [
        f'the kept card "{BONUS}" moves its holder when used, at a time the player chooses, which the odds do '
        "not follow"]
    assert not [r for r in landing_odds(load_ruleset("classic")).approximate if "moves its holder" in r]


@pytest.mark.parametrize("bot", ["greedy", "trader"])
def test_the_bots_use_a_card_of_the_turn_at_once(kept_uses, bot):
    game, events = _game(kept_uses, monopoly.make_agent(bot), monopoly.make_agent(bot))
    bonus = hold_card(game, 0, "chance", BONUS)
    game.fix_dice([(1, 2)])
    game.play_turn()
    assert [(e["seat"], e["deck"], e["card"]) for e in of_type(events, "use_card")] == [(0, *bonus)]
    assert ("bank", 0, 100, BONUS) in payments(events) and game.held_cards[0] == []


def test_the_terminal_names_a_card_to_use_and_a_lot_to_sell_by_what_they_are(kept_uses, tmp_path: Path):
    from monopoly.cli.human import HumanAgent, menu_order
    from monopoly.cli.render_text import Narrator, holdings_lines

    lines: list[str] = []
    narrator = Narrator(kept_uses, echo=lines.append)
    game, _ = _game(kept_uses)
    narrator.start_from(game, ["Ann", "Bob"])
    game.observe(narrator)
    person = HumanAgent("Ann", narrator)
    bonus = hold_card(game, 0, "chance", BONUS)
    legal = menu_order(game.legal_actions(0))
    assert person.describe_action(game, monopoly.UseCard(*bonus)) == f'use the card "{BONUS}"'
    assert any(line.strip().startswith("use a card:") and BONUS in line for line in person._menu(game, legal))
    words = narrator.words
    assert "the \"Keep this card\" card" in holdings_lines(game.state(), words, 0)[0]
    game.apply(0, monopoly.UseCard(*bonus))
    assert any('uses the "Keep this card" card.' in line for line in lines), lines
    sell = load_ruleset("classic", ["sell-lots-to-bank"])
    game2, _ = _game(sell)
    game2.give(39, 0)
    assert person.describe_action(game2, monopoly.SellLot(39)) == "sell Boardwalk to the bank (get $200)"
