"""The house-rule catalogue (rulesets/variants/, issue 10 item 6): each rule validates on classic and uk, and a
scenario sets the exact position up and shows it firing (the money, the movement, the refusal), next to the
same position without it."""

from __future__ import annotations

from typing import Any

import pytest

import monopoly
from monopoly import Build
from monopoly.game.events import to_dict
from tests.scenario import ScriptedAgent, of_type, own, setup_game, sp

CATALOGUE = ("go-landing-bonus", "auto-income-tax", "no-rent-in-jail", "no-auctions", "free-build",
             "no-full-set-bonus", "unlimited-buildings", "snake-eyes-bonus", "jackpot-seeded", "deal-all-deeds",
             "no-mortgages", "shuffle-every-draw", "sell-lots-to-bank", "first-lap", "taxes-to-pot", "speed-die")
EDITIONS = ("classic", "uk")
SHIPPED = ("short-game", "time-limit", "income-tax-2008", "free-parking-jackpot", "tournament")


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("variant", CATALOGUE)
def test_each_house_rule_validates_on_both_editions(edition: str, variant: str) -> None:
    ruleset, problems = monopoly.check_ruleset(edition, [variant])
    assert ruleset is not None, problems
    assert ruleset.variants == (variant,)


@pytest.mark.parametrize("variant", CATALOGUE)
def test_each_house_rule_is_a_small_built_in_file_that_says_what_it_does(variant: str) -> None:
    from monopoly.ruleset.compose import builtin_rulesets
    from monopoly.ruleset.load import load_file

    [builtin] = [b for b in builtin_rulesets() if b.id == variant]
    assert builtin.kind == "variant" and builtin.path.stat().st_size < 1200
    data = load_file(builtin.path).data
    assert data["kind"] == "variant" and len(data["description"]) > 40


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_house_rules_combine_with_each_other_and_the_shipped_variants(edition: str) -> None:
    """All of them compose, as many at once as a game applies (MAX_VARIANTS: the first and the last that many,
    which between them hold every one); Income Tax's two rules (auto-income-tax, income-tax-2008) are reported
    as a conflict naming both files."""
    from monopoly.ruleset.compose import MAX_VARIANTS

    everything = [v for v in CATALOGUE] + [v for v in SHIPPED if v not in ("short-game", "time-limit",
                                                                            "income-tax-2008")]
    for chosen in (everything[:MAX_VARIANTS], everything[-MAX_VARIANTS:]):
        ruleset, problems = monopoly.check_ruleset(edition, chosen)
        assert ruleset is not None, problems
    ruleset, problems = monopoly.check_ruleset(edition, ["auto-income-tax", "income-tax-2008"])
    assert ruleset is None
    text = " ".join(str(problem) for problem in problems)
    assert "auto-income-tax" in text and "income-tax-2008" in text


@pytest.mark.parametrize("edition", EDITIONS)
def test_go_landing_bonus_pays_the_salary_twice_on_landing_exactly(edition: str) -> None:
    for variants, paid in (((), 200), (("go-landing-bonus",), 400)):
        game, _ = setup_game(edition, variants)
        game.position[0] = 35
        game.fix_dice([(2, 3)])  # 35 + 5: onto GO
        game.play_turn()
        assert (game.position[0], game.cash[0]) == (0, 1500 + paid)
    game, _ = setup_game(edition, ("go-landing-bonus",))
    game.position[0] = 35
    game.fix_dice([(2, 4)])  # past GO onto 1 (declined, nobody bids): the salary once
    game.play_turn()
    assert game.cash[0] == 1500 + 200


@pytest.mark.parametrize(("edition", "cash", "tax"), [("classic", 1500, 150), ("classic", 2500, 200),
                                                      ("uk", 1500, 150), ("uk", 900, 90)])
def test_auto_income_tax_takes_the_lesser_without_asking(edition: str, cash: int, tax: int) -> None:
    game, _ = setup_game(edition, ("auto-income-tax",), cash=cash)
    game.fix_dice([(1, 3)])  # GO -> Income Tax
    game.play_turn()
    assert game.cash[0] == cash - tax
    assert not [question for question, _ in game.agents[0].asked if question == "choose"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_rent_in_jail_spares_the_visitor_of_a_jailed_owner(edition: str) -> None:
    for variants, rent in (((), 4), (("no-rent-in-jail",), 0)):
        game, _ = setup_game(edition, variants)
        own(game, 1, "Baltic Avenue" if edition == "classic" else "Whitechapel Road")
        game.send_to_jail(1)
        game.fix_dice([(1, 2)])  # seat 0: GO -> 3
        game.play_turn()
        assert game.cash == [1500 - rent, 1500 + rent]


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_auctions_leaves_a_declined_lot_with_the_bank(edition: str) -> None:
    agents = [ScriptedAgent(buy=False, bid=[10]), ScriptedAgent(bid=[20])]
    game, events = setup_game(edition, ("no-auctions",), agents=agents)
    game.fix_dice([(1, 2)])
    game.play_turn()
    assert game.owner[3] == -1 and game.cash == [1500, 1500]
    assert not of_type(events, "auction") and not [q for a in agents for q, _ in a.asked if q == "bid"]
    game, events = setup_game(edition, (), agents=[ScriptedAgent(buy=False, bid=[10]), ScriptedAgent(bid=[20])])
    game.fix_dice([(1, 2)])
    game.play_turn()
    assert game.owner[3] == 1  # without the rule, it goes to auction


@pytest.mark.parametrize("edition", EDITIONS)
def test_free_build_lets_one_lot_take_a_second_house_first(edition: str) -> None:
    names = ("Mediterranean Avenue", "Baltic Avenue") if edition == "classic" else ("Old Kent Road",
                                                                                    "Whitechapel Road")
    for variants, allowed in (((), False), (("free-build",), True)):
        game, _ = setup_game(edition, variants)
        own(game, 0, *names)
        assert game.apply(0, Build(sp(game, names[0])))
        assert game.apply(0, Build(sp(game, names[0]))) is allowed  # a second house before the other lot's first
        assert [game.buildings[sp(game, name)] for name in names] == [2 if allowed else 1, 0]


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_full_set_bonus_charges_the_printed_rent_on_a_whole_group(edition: str) -> None:
    names = ("Park Place", "Boardwalk") if edition == "classic" else ("Park Lane", "Mayfair")
    for variants, rent in (((), 100), (("no-full-set-bonus",), 50)):
        game, _ = setup_game(edition, variants)
        own(game, 1, *names)
        game.position[0] = 36
        game.fix_dice([(1, 2)])  # 36 + 3 = 39
        game.play_turn()
        assert game.cash == [1500 - rent, 1500 + rent]


@pytest.mark.parametrize("edition", EDITIONS)
def test_unlimited_buildings_never_run_short(edition: str) -> None:
    game, _ = setup_game(edition, ("unlimited-buildings",), cash=100_000)
    assert (game.houses_left, game.hotels_left) == (1000, 1000)
    streets = [s for s in game.tables.ownable if game.tables.build_on[s]]
    for s in streets:
        game.give(s, 0)
    built = 0
    for _house in range(4):
        for s in streets:
            assert game.apply(0, Build(s)), game.tables.names[s]
            built += 1
    assert built == 88 > 32 and game.houses_left == 1000 - 88  # classic's box holds 32


@pytest.mark.parametrize("edition", EDITIONS)
def test_snake_eyes_pays_500_before_the_move_and_other_doubles_nothing(edition: str) -> None:
    for variants, bonus in (((), 0), (("snake-eyes-bonus",), 500)):
        game, _ = setup_game(edition, variants)
        game.position[0] = 10  # just visiting
        game.fix_dice([(1, 1), (2, 4)])  # 12 (a utility, declined, nobody bids), doubles again: 18 (the same)
        game.play_turn()
        assert (game.position[0], game.cash[0]) == (18, 1500 + bonus)
    game, _ = setup_game(edition, ("snake-eyes-bonus",))
    game.position[0] = 10
    game.fix_dice([(4, 4), (2, 6)])  # other doubles: 18, then 26
    game.play_turn()
    assert (game.position[0], game.cash[0]) == (26, 1500)


@pytest.mark.parametrize(("roll", "bonus"), [((1, 1, 2), 500), ((1, 1, "bus"), 500), ((1, 2, 1), 0)])
def test_snake_eyes_with_the_speed_die_reads_the_two_white_dice(roll: tuple[Any, ...], bonus: int) -> None:
    """Two 1s on the white dice pay, whatever the speed die shows (its number is in `dice`, not in `die 1`,
    `die 2`); a 1 on the speed die beside one white 1 is no snake eyes."""
    game, _ = setup_game("classic", ("speed-die", "snake-eyes-bonus"))
    game.laps[0] = 1  # past GO: the speed die is thrown
    game.position[0] = 10
    game.fix_dice([roll, (2, 4, 3)])
    game.play_turn()
    assert game.cash[0] - game.ruleset.starting_cash == bonus


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_seeded_jackpot_starts_at_500_and_is_seeded_again_when_taken(edition: str) -> None:
    game, _ = setup_game(edition, ("jackpot-seeded",))
    assert game.pot == 500 and game.cash == [1500, 1500]
    game.fix_dice([(1, 3)])  # GO -> Income Tax: 200 into the pot (the scripted agent takes the first option)
    game.play_turn()
    assert (game.pot, game.cash[0]) == (700, 1300)
    game.position[1] = 10
    game.fix_dice([(4, 6)])  # seat 1 onto Free Parking: takes 700, the bank puts 500 back
    game.play_turn()
    assert (game.pot, game.cash[1]) == (500, 2200)


def test_triggers_on_the_turn_and_on_buying_fire_for_the_player_it_happens_to(tmp_path) -> None:
    path = tmp_path / "events.yaml"
    path.write_text("id: events\nname: Events\nextends: classic\ntriggers:\n"
                    "  - {on: turn_start, effect: collect 1}\n"
                    "  - {on: buy, effect: collect 10% of price of \"Baltic Avenue\"}\n"
                    "  - {on: turn_end, effect: if cash > 1500 then pay 2 to poorest player}\n", encoding="utf-8")
    ruleset = monopoly.load_ruleset(str(path))
    game = monopoly.Game(ruleset, [ScriptedAgent(buy=True), ScriptedAgent()], seed=1)
    game.start()
    game.fix_dice([(1, 2)])  # onto Baltic Avenue: bought (60), 6 back
    game.play_turn()
    # +1 at the start, -60 +6 for Baltic, then 1447 > 1500 is false: nothing at the end
    assert game.cash == [1447, 1500] and game.owner[3] == 0
    game.position[1] = 10
    game.fix_dice([(4, 6)])  # seat 1: +1, Free Parking; 1501 > 1500: pays 2 to the poorest (seat 0)
    game.play_turn()
    assert game.cash == [1449, 1499]


@pytest.mark.parametrize(("trigger", "line", "message"), [
    ("{on: roll, space: GO, effect: collect 1}", 5, 'a trigger on roll happens to a player, not on a space: it '
     'takes no "space"'),
    ("{on: land, effect: collect 1}", 5, "missing required key 'space'"),
])
def test_a_trigger_on_an_event_takes_no_space_and_one_on_a_space_needs_it(tmp_path, trigger, line, message) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(f"id: bad\nname: Bad\nextends: classic\ntriggers:\n  - {trigger}\n", encoding="utf-8")
    ruleset, problems = monopoly.check_ruleset(str(path))
    assert ruleset is None
    [problem] = problems
    assert f"bad.yaml:{line}:" in problem.format() and message in problem.format()


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize(("seats", "shares"), [(4, [7, 7, 7, 7]), (3, [10, 9, 9]), (5, [6, 6, 6, 5, 5])])
def test_deal_all_deeds_deals_every_deed_evenly_and_free(edition: str, seats: int, shares: list[int]) -> None:
    game, _ = setup_game(edition, ("deal-all-deeds",), seats=seats, seed=3)
    owned = [sum(1 for s in game.tables.ownable if game.owner[s] == seat) for seat in range(seats)]
    assert owned == shares and all(game.owner[s] >= 0 for s in game.tables.ownable)
    assert game.cash == [1500] * seats  # free
    other, _ = setup_game(edition, ("deal-all-deeds",), seats=seats, seed=4)
    assert other.owner != game.owner  # at random, by the seed


def test_deal_all_deeds_conflicts_with_the_variants_that_deal_two() -> None:
    for other in ("short-game", "time-limit"):
        ruleset, problems = monopoly.check_ruleset("classic", ["deal-all-deeds", other])
        assert ruleset is None and "deal-all-deeds" in problems[0].format() and other in problems[0].format()


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_mortgages_refuses_a_mortgage_and_a_debt_it_cannot_cover_bankrupts(edition: str) -> None:
    from monopoly import Mortgage

    names = ("Park Place", "Boardwalk") if edition == "classic" else ("Park Lane", "Mayfair")
    game, events = setup_game(edition, ("no-mortgages",), cash=[100, 1500])
    own(game, 0, names[0])
    assert not game.apply(0, Mortgage(sp(game, names[0])))
    assert any("the rules allow no mortgages" in e.get("reason", "") for e in of_type(events, "refused"))
    assert all(type(a) is not Mortgage for a in game.legal_actions(0, raising=True))
    own(game, 1, names[1])
    game.position[0] = 36
    game.fix_dice([(1, 2)])  # onto seat 1's lot: 50 rent on 100 cash
    game.play_turn()
    assert game.cash[0] == 50 and not any(game.mortgaged)
    game, _ = setup_game(edition, ("no-mortgages",), cash=[40, 1500])
    own(game, 0, names[0])
    own(game, 1, names[1])
    game.position[0] = 36
    game.fix_dice([(1, 2)])  # 50 rent on 40 cash and nothing to sell: bankrupt, the lot to the creditor
    game.play_turn()
    assert game.bankrupt[0] and game.owner[sp(game, names[0])] == 1 and not game.mortgaged[sp(game, names[0])]


@pytest.mark.parametrize("edition", EDITIONS)
def test_sell_lots_to_bank_pays_half_the_price_and_the_lot_goes_back_to_the_bank(edition: str) -> None:
    from monopoly import SellLot

    names = ("Park Place", "Boardwalk") if edition == "classic" else ("Park Lane", "Mayfair")
    game, events = setup_game(edition, ("sell-lots-to-bank",), cash=[100, 1500])
    park, walk = own(game, 0, *names)
    events.clear()
    assert SellLot(park) in game.legal_actions(0) and SellLot(park) in game.legal_actions(0, raising=True)
    assert game.apply(0, SellLot(park))
    assert game.cash[0] == 100 + 350 // 2 and game.owner[park] == -1  # both editions price it 350
    assert [(e["type"], e.get("reason") or e.get("how")) for e in events] == [("payment", "sell lot"),
                                                                             ("property", "sold")]
    game.mortgaged[walk] = True  # a mortgaged lot is not sold to the bank
    assert not game.apply(0, SellLot(walk))
    assert "lift the mortgage" in of_type(events, "refused")[-1]["reason"]
    plain, _ = setup_game(edition, cash=[100, 1500])
    own(plain, 0, names[0])
    assert not plain.apply(0, SellLot(park)) and SellLot(park) not in plain.legal_actions(0)


@pytest.mark.parametrize("edition", EDITIONS)
def test_sell_lots_to_bank_raises_a_debt_and_keeps_built_groups_whole(edition: str) -> None:
    from monopoly import SellLot

    names = ("Park Place", "Boardwalk") if edition == "classic" else ("Park Lane", "Mayfair")
    sold: list[int] = []

    def raise_by_selling(game, seat, owed):
        lots = [a for a in game.legal_actions(seat, raising=True) if type(a) is SellLot]
        if lots:
            sold.append(lots[0].space)
        return lots[0] if lots else None

    agents = [ScriptedAgent(raise_funds=raise_by_selling), ScriptedAgent()]
    game, _events = setup_game(edition, ("sell-lots-to-bank",), agents=agents, cash=[10, 1500])
    own(game, 0, names[0])
    own(game, 1, names[1])
    game.position[0] = 36
    game.fix_dice([(1, 2)])  # onto seat 1's lot: 50 rent on 10 cash; selling the 350 lot raises 175
    game.play_turn()
    assert sold == [sp(game, names[0])] and game.cash[0] == 10 + 175 - 50 and not game.bankrupt[0]
    built, _ = setup_game(edition, ("sell-lots-to-bank",), cash=[1500, 1500])
    lots = own(built, 0, *names)
    built.buildings[lots[1]] = 1
    built.houses_left -= 1
    assert SellLot(lots[0]) not in built.legal_actions(0)
    assert not built.apply(0, SellLot(lots[0]))  # a lot of a group with buildings stays


def test_the_designer_guides_house_rules_chapter_builds_the_catalogues_rules(tmp_path) -> None:
    """Each YAML example of "Writing house rules", under the chapter's four opening lines, is a variant that
    loads on classic and uk and means what the catalogue's file means."""
    import re
    from pathlib import Path

    guide = (Path(__file__).resolve().parents[1] / "docs" / "designer-guide.md").read_text(encoding="utf-8")
    chapter = guide[guide.index("## Writing house rules"):guide.index("## Checking your file")]
    blocks = re.findall(r"```yaml\n(.*?)```", chapter, flags=re.S)
    header, examples = blocks[0], blocks[1:]
    assert "kind: variant" in header and len(examples) == 7
    for number, (example, rule) in enumerate(zip(examples, ("no-rent-in-jail", "auto-income-tax", "go-landing-bonus",
                                                            "snake-eyes-bonus", "jackpot-seeded", "first-lap",
                                                            "speed-die"),
                                                 strict=True)):
        path = tmp_path / f"rule{number}.yaml"
        path.write_text(header.replace("my-rule", f"rule{number}") + example, encoding="utf-8")
        for edition in EDITIONS:
            mine = monopoly.load_ruleset(edition, [str(path)])
            shipped = monopoly.load_ruleset(edition, [rule])
            assert (mine.rules, mine.board, mine.triggers, mine.permissions, mine.extra_die) == (
                shipped.rules, shipped.board, shipped.triggers, shipped.permissions, shipped.extra_die), rule


@pytest.mark.parametrize("edition", EDITIONS)
def test_shuffle_every_draw_shuffles_the_deck_before_each_draw_as_an_event(edition: str) -> None:
    """Without the rule a drawn card goes under its deck and the next draw takes the card after it; with it,
    a `shuffle` event gives the deck's new order before each draw, the top of that order is the card drawn,
    and a replay of the log ends with the same decks."""
    from monopoly import Replay

    game, events = setup_game(edition, ("shuffle-every-draw",), seed=5)
    before = list(game.decks["chance"])
    game.position[0] = 5
    game.fix_dice([(1, 1), (3, 4)])  # 7 Chance, doubles; then 14: no card
    game.play_turn()
    [shuffled] = of_type(events, "shuffle")
    [card] = of_type(events, "card")
    assert shuffled["deck"] == "chance" and sorted(shuffled["order"]) == sorted(before)
    assert shuffled["order"] != before
    assert game.tables.decks["chance"][shuffled["order"][0]].index == card["card"]
    plain, plain_events = setup_game(edition, (), seed=5)
    plain.position[0] = 5
    plain.fix_dice([(1, 1), (3, 4)])
    plain.play_turn()
    assert not of_type(plain_events, "shuffle")
    replay = Replay.of_records(game.events, game.ruleset)  # the game from its first event: the decks agree
    assert {key: list(deck) for key, deck in replay.decks.items()} == {key: list(deck) for key, deck in
                                                                       game.decks.items()}


@pytest.mark.parametrize("edition", EDITIONS)
def test_taxes_to_pot_sends_the_tax_and_the_fine_to_the_pot_that_free_parking_pays_out(edition: str) -> None:
    game, events = setup_game(edition, ("taxes-to-pot",), agents=[ScriptedAgent(), ScriptedAgent(jail="pay")])
    game.fix_dice([(1, 3)])  # GO -> Income Tax: 200 (the first alternative) into the pot instead of the bank
    game.play_turn()
    assert (game.cash[0], game.pot) == (1300, 200)
    game.send_to_jail(1)
    game.fix_dice([(4, 6)])  # seat 1 pays the fine (50) into the pot, then 10 + 10: Free Parking takes 250
    game.play_turn()
    assert (game.cash[1], game.pot, game.position[1]) == (1500 - 50 + 250, 0, 20)
    assert [(e["from"], e["to"], e["amount"]) for e in of_type(events, "payment")] == [
        (0, "pot", 200), (1, "pot", 50), ("pot", 1, 250)]


@pytest.mark.parametrize("edition", EDITIONS)
def test_taxes_to_pot_by_a_trigger_plays_as_the_jackpot_rule_does_by_fees_to(edition: str) -> None:
    """The same payments, seed for seed, as free-parking-jackpot (rules.fees_to: pot)."""
    def payments(variant: str, seed: int) -> list[tuple[object, ...]]:
        ruleset = monopoly.load_ruleset(edition, [variant])
        game = monopoly.Game(ruleset, [monopoly.make_agent(n) for n in ("greedy", "trader", "cautious")], seed=seed,
                             max_turns=150)
        game.play()
        return [(e["from"], e["to"], e["amount"]) for e in map(to_dict, game.events) if e["type"] == "payment"]

    for seed in range(3):
        paid = payments("taxes-to-pot", seed)
        assert any(to == "pot" for _, to, _ in paid) and paid == payments("free-parking-jackpot", seed)


@pytest.mark.parametrize("edition", EDITIONS)
def test_speed_die_adds_its_number_once_past_go_and_mr_monopoly_moves_on(edition: str) -> None:
    """The whole rule, face by face, is in tests/test_dice.py; here it fires beside the same position without it."""
    for variants, to in (((), 4 + 3), (("speed-die",), 4 + 3 + 2)):
        game, _ = setup_game(edition, variants)
        game.laps[0] = 1
        game.position[0] = 4
        game.fix_dice([(1, 2, 2)] if variants else [(1, 2)])
        game.play_turn()
        assert game.position[0] == to
    game, _ = setup_game(edition, ("speed-die",), agents=[ScriptedAgent(buy=True), ScriptedAgent()])
    game.laps[0] = 1
    game.fix_dice([(1, 2, "mr_monopoly")])  # the third space (bought), then on to the next lot nobody owns
    game.play_turn()
    assert game.owner[3] == 0 and game.owner[5] == 0 and game.position[0] == 5
