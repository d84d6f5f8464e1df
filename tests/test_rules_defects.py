"""Rule scenarios for defects found against the printed rules: hotels sold in a housing shortage, the
engine's fund raising, bankruptcy when nothing could cover the debt, the short game's last bankruptcy,
the income-tax choice, the shortage auction's opening price, the tournament rule on hotels and the
valuation of mortgaged lots.

Each position is set up exactly with :class:`~monopoly.game.state.Setup` and played from with
``Game.from_state``; every answer of a player comes from a :class:`~tests.scenario.ScriptedAgent`.
"""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

import monopoly
from monopoly import Build, SellBuilding
from monopoly.game import Game
from monopoly.game.events import BANK
from monopoly.game.state import Setup
from tests.scenario import ScriptedAgent, of_type, payments, refusals, ruleset, snapshot

GREENS = ("Pacific Avenue", "North Carolina Avenue", "Pennsylvania Avenue")
YELLOWS = ("Atlantic Avenue", "Ventnor Avenue", "Marvin Gardens")
REDS = ("Kentucky Avenue", "Indiana Avenue", "Illinois Avenue")
ORANGES = ("St. James Place", "Tennessee Avenue", "New York Avenue")
DARK_BLUE = ("Park Place", "Boardwalk")
BROWNS = ("Mediterranean Avenue", "Baltic Avenue")


def position(players: int = 2, variants: tuple[str, ...] = (), *, rs: Any = None) -> Setup:
    """An empty board (a variant's deal of the deeds left out) with ``players`` at 1500 each."""
    return Setup(rs if rs is not None else ruleset("classic", variants), players=players, deal=False)


def give(setup: Setup, seat: int, *names: str) -> Setup:
    for name in names:
        setup.give(name, seat)
    return setup


def take_houses(setup: Setup, seat: int, count: int) -> Setup:
    """``seat`` gets the greens, yellows, reds and oranges and builds ``count`` houses on them, evenly."""
    groups = (GREENS, YELLOWS, REDS, ORANGES)
    for group in groups:
        give(setup, seat, *group)
    levels = {name: 0 for group in groups for name in group}
    for level in range(1, 5):
        for group in groups:
            for name in group:
                if count:
                    levels[name] = level
                    count -= 1
    assert count == 0, "more houses than four groups hold"
    for name, level in levels.items():
        setup.build(name, level)
    return setup


def play_from(setup: Setup, agents: list[ScriptedAgent] | None = None) -> tuple[Game, list[dict[str, Any]],
                                                                                list[ScriptedAgent]]:
    """A game going on from the (checked) position, observed from now."""
    if agents is None:
        agents = [ScriptedAgent() for _ in setup.state.cash]
    game = Game.from_state(setup.ruleset, agents, setup.checked(), seed=1)
    events: list[dict[str, Any]] = []
    game.observe(events.append)
    return game, events, agents


def at(game: Game, *names: str) -> list[int]:
    return [game.buildings[game.ruleset.space(name).index] for name in names]


def idx(game: Game, name: str) -> int:
    return game.ruleset.space(name).index


def land(game: Game, seat: int, start: str | int, dice: tuple[int, int]) -> None:
    """``seat`` plays a turn from ``start`` (a name or an index) with ``dice``."""
    game.current = seat
    game.position[seat] = start if isinstance(start, int) else idx(game, start)
    game.fix_dice([dice])
    game.play_turn()


def sells(events: list[dict[str, Any]]) -> list[tuple[int, int, int]]:
    return [(e["space"], e["level"], e["sold"]) for e in of_type(events, "sell")]


# ---------------------------------------------------------------- 1. hotels sold in a housing shortage


def test_selling_a_hotel_with_three_houses_in_the_bank_leaves_two_and_one_houses():
    """Bank: 3 houses. Park Place and Boardwalk each have a hotel; the owner sells Boardwalk's hotel.

    The printed rule: hotels are sold back at half price, "one house at a time (one hotel equals five
    houses), evenly, in reverse of how they were erected". Breaking Boardwalk's hotel into 4 houses needs
    4 houses from the bank, which has 3. Selling evenly, Park Place may keep its hotel only while
    Boardwalk keeps 4 houses, so both hotels go back; the group then keeps as many houses as the bank can
    supply, evenly: 3 houses, 2 on Park Place and 1 on Boardwalk (the lot sold from comes down first).
    10 buildings' worth becomes 3: 7 sold at half of 200 = 700. Not the whole group.
    """
    setup = give(position(), 0, *DARK_BLUE).build("Park Place", 5).build("Boardwalk", 5)
    take_houses(setup, 1, 29)
    assert (setup.state.houses_left, setup.state.hotels_left) == (3, 10)
    game, events, _ = play_from(setup)
    assert game.apply(0, SellBuilding(idx(game, "Boardwalk")))
    assert at(game, *DARK_BLUE) == [2, 1]
    assert (game.houses_left, game.hotels_left) == (0, 12)
    assert game.cash == [1500 + 700, 1500]
    assert sells(events) == [(idx(game, "Park Place"), 2, 3), (idx(game, "Boardwalk"), 1, 4)]
    assert payments(events) == [("bank", 0, 300, "sell building"), ("bank", 0, 400, "sell building")]


def test_selling_a_hotel_beside_four_houses_breaks_down_only_as_far_as_the_bank_allows():
    """Bank: 3 houses. Park Place has 4 houses, Boardwalk a hotel; the owner sells the hotel.

    Boardwalk's hotel would need 4 houses; the bank has 3. Boardwalk takes the bank's 3 and Park Place
    keeps its 4: 4 and 3 is even. Two buildings' worth sold (the hotel and one house): 200."""
    setup = give(position(), 0, *DARK_BLUE).build("Park Place", 4).build("Boardwalk", 5)
    take_houses(setup, 1, 25)
    assert (setup.state.houses_left, setup.state.hotels_left) == (3, 11)
    game, events, _ = play_from(setup)
    assert game.apply(0, SellBuilding(idx(game, "Boardwalk")))
    assert at(game, *DARK_BLUE) == [4, 3]
    assert (game.houses_left, game.hotels_left) == (0, 12)
    assert game.cash == [1700, 1500]
    assert sells(events) == [(idx(game, "Boardwalk"), 3, 2)]


def test_a_hotel_beside_two_rows_of_houses_keeps_the_groups_houses_when_the_bank_has_none():
    """Bank: no houses. The yellows have a hotel on Atlantic and 4 houses on Ventnor and Marvin. The hotel goes
    back; evenly, the group keeps the 8 houses it has: Atlantic 2, Ventnor and Marvin 3 (a house from each
    of them goes to Atlantic). 13 buildings' worth (a hotel counting as 5) becomes 8: 5 sold at 75 = 375."""
    setup = give(position(), 0, *YELLOWS)
    setup.build(YELLOWS[0], 5).build(YELLOWS[1], 4).build(YELLOWS[2], 4)
    for name in (*GREENS, *REDS):  # the other 24 houses
        give(setup, 1, name).build(name, 4)
    assert (setup.state.houses_left, setup.state.hotels_left) == (0, 11)
    game, events, _ = play_from(setup)
    assert game.apply(0, SellBuilding(idx(game, YELLOWS[0])))
    assert at(game, *YELLOWS) == [2, 3, 3]
    assert (game.houses_left, game.hotels_left) == (0, 12)
    assert game.cash[0] == 1500 + 375
    # the houses that go to Atlantic are given back first: the bank never has fewer than none, between sales too
    assert sells(events) == [(idx(game, YELLOWS[1]), 3, 1), (idx(game, YELLOWS[2]), 3, 1),
                             (idx(game, YELLOWS[0]), 2, 3)]


def test_a_hotel_sold_when_the_bank_has_no_houses_takes_the_group_down_to_nothing():
    """Bank: no houses. Without houses no lot of the group can stay built once a hotel goes (evenly), so
    every building of the group is sold: 10 buildings' worth at 100 = 1000."""
    setup = give(position(), 0, *DARK_BLUE).build("Park Place", 5).build("Boardwalk", 5)
    take_houses(setup, 1, 32)
    game, _events, _ = play_from(setup)
    assert game.apply(0, SellBuilding(idx(game, "Park Place")))
    assert at(game, *DARK_BLUE) == [0, 0]
    assert (game.houses_left, game.hotels_left) == (0, 12)
    assert game.cash == [2500, 1500]


# ---------------------------------------------------------------- 1. the engine's fund raising


def luxury_tax(game: Game, seat: int = 0) -> None:
    land(game, seat, "Short Line", (1, 2))  # 35 -> 38 Luxury Tax: 100


def test_a_100_debt_mortgages_a_railroad_rather_than_break_hotels_in_a_shortage():
    """Owes 100 with no cash; has hotels on the dark blues (bank: 3 houses) and Reading Railroad.
    Mortgaging Reading raises 100 and gives up only the 10% interest of lifting it (10); any sale of a
    dark blue building would break both hotels (7 buildings, 700 given up). The bank mortgages Reading."""
    setup = give(position(), 0, *DARK_BLUE, "Reading Railroad").build("Park Place", 5).build("Boardwalk", 5)
    take_houses(setup, 1, 29).set_cash(0, 0)
    game, events, _ = play_from(setup)
    luxury_tax(game)
    assert at(game, *DARK_BLUE) == [5, 5] and game.mortgaged[idx(game, "Reading Railroad")]
    assert payments(events) == [("bank", 0, 100, "mortgage"), (0, "bank", 100, "Luxury Tax")]
    assert game.cash == [0, 1500] and not game.bankrupt[0]


def test_a_100_debt_with_only_hotels_breaks_one_hotel_when_the_bank_has_four_houses():
    setup = give(position(), 0, *DARK_BLUE).build("Park Place", 5).build("Boardwalk", 5)
    take_houses(setup, 1, 28).set_cash(0, 0)
    game, events, _ = play_from(setup)
    luxury_tax(game)
    assert at(game, *DARK_BLUE) == [4, 5]
    assert (game.houses_left, game.hotels_left) == (0, 11)
    assert payments(events) == [("bank", 0, 100, "sell building"), (0, "bank", 100, "Luxury Tax")]
    assert game.cash == [0, 1500]


def test_a_100_debt_with_only_hotels_and_three_bank_houses_sells_what_the_rules_force():
    """Nothing else to sell or mortgage: the least the rules allow is breaking both hotels down to 1 and 2
    houses (the lot sold from, Park Place, first): 700 raised, 600 left after the tax."""
    setup = give(position(), 0, *DARK_BLUE).build("Park Place", 5).build("Boardwalk", 5)
    take_houses(setup, 1, 29).set_cash(0, 0)
    game, _events, _ = play_from(setup)
    luxury_tax(game)
    assert at(game, *DARK_BLUE) == [1, 2]
    assert (game.houses_left, game.hotels_left) == (0, 12)
    assert game.cash == [600, 1500]


def test_the_engine_sells_the_cheapest_houses_first_evenly_and_stops_when_enough():
    """Owes 100: a brown house gives up 25, a dark blue one 100. Four brown houses, evenly (Mediterranean,
    Baltic, Mediterranean, Baltic), raise exactly 100; the dark blues keep theirs."""
    setup = give(position(), 0, *BROWNS, *DARK_BLUE).set_cash(0, 0)
    for name, level in zip((*BROWNS, *DARK_BLUE), (3, 3, 2, 2), strict=True):
        setup.build(name, level)
    game, events, _ = play_from(setup)
    luxury_tax(game)
    assert at(game, *BROWNS, *DARK_BLUE) == [1, 1, 2, 2]
    med, baltic = idx(game, BROWNS[0]), idx(game, BROWNS[1])
    assert sells(events) == [(med, 2, 1), (baltic, 2, 1), (med, 1, 1), (baltic, 1, 1)]
    assert game.cash == [0, 1500] and game.houses_left == 32 - 6
    assert not any(game.mortgaged)


def test_the_engine_mortgages_an_unbuilt_lot_before_selling_houses():
    """Owes 100: mortgaging Reading gives up 10 (its interest), selling the brown houses 25 each."""
    setup = give(position(), 0, *BROWNS, "Reading Railroad").build(BROWNS[0], 1).build(BROWNS[1], 1)
    game, events, _ = play_from(setup.set_cash(0, 0))
    luxury_tax(game)
    assert at(game, *BROWNS) == [1, 1] and game.mortgaged[idx(game, "Reading Railroad")]
    assert payments(events) == [("bank", 0, 100, "mortgage"), (0, "bank", 100, "Luxury Tax")]
    assert game.cash == [0, 1500]


def test_the_engine_mortgages_the_cheapest_lots_first_and_stops_when_enough():
    """Owes 40: Mediterranean and Baltic (30 each, 3 interest each) give up less than Boardwalk (200, 20)."""
    setup = give(position(), 0, *BROWNS, "Boardwalk").set_cash(0, 60)
    game, _events, _ = play_from(setup)
    luxury_tax(game)  # owes 100 with 60: 40 short
    assert [game.mortgaged[idx(game, n)] for n in (*BROWNS, "Boardwalk")] == [True, True, False]
    assert game.cash == [20, 1500]


# ---------------------------------------------------------------- 3. bankruptcy when nothing covers the debt


def test_a_hopeless_debt_to_a_player_is_bankruptcy_without_mortgaging_first():
    """Owes 2000 rent with 50 in hand; selling the two houses (50) and mortgaging every lot (30 + 30 + 100)
    would make 260 at most: bankrupt at once. The houses go back to the bank at half, that cash and the
    rest to the creditor (100); the lots pass as they are: the unmortgaged ones with no interest to pay,
    Oriental (already mortgaged) with the 10% interest (5), which the creditor pays."""
    setup = give(position(3), 0, *BROWNS, "Reading Railroad", "Oriental Avenue").mortgage("Oriental Avenue")
    setup.build(BROWNS[0], 1).build(BROWNS[1], 1).set_cash(0, 50)
    give(setup, 1, *DARK_BLUE).build("Park Place", 5).build("Boardwalk", 5)
    game, events, agents = play_from(setup)
    land(game, 0, "Short Line", (1, 3))  # -> 39 Boardwalk with a hotel: 2000
    assert game.bankrupt == [True, False, False]
    assert agents[0].questions("raise_funds") == []
    lots = [idx(game, n) for n in (*BROWNS, "Reading Railroad", "Oriental Avenue")]
    assert [game.owner[s] for s in lots] == [1, 1, 1, 1]
    assert [game.mortgaged[s] for s in lots] == [False, False, False, True]
    assert at(game, *BROWNS) == [0, 0] and (game.houses_left, game.hotels_left) == (32, 10)
    assert payments(events) == [("bank", 0, 25, "sell building"), ("bank", 0, 25, "sell building"),
                                (0, 1, 100, "bankruptcy"), (1, "bank", 5, "mortgage interest")]
    assert game.cash == [0, 1595, 1500]
    assert of_type(events, "mortgage") == []


def test_a_hopeless_debt_to_the_bank_auctions_the_lots_unmortgaged_without_mortgaging_them_first():
    setup = give(position(3), 0, "Mediterranean Avenue").set_cash(0, 0)
    game, events, agents = play_from(setup, [ScriptedAgent(), ScriptedAgent(bid=[40]), ScriptedAgent()])
    luxury_tax(game)  # owes 100; Mediterranean would raise 30
    assert game.bankrupt == [True, False, False]
    assert payments(events) == [(1, "bank", 40, "auction")]
    assert game.owner[idx(game, "Mediterranean Avenue")] == 1
    assert not game.mortgaged[idx(game, "Mediterranean Avenue")]
    assert agents[0].questions("raise_funds") == []


def test_a_debt_that_everything_just_covers_is_paid():
    setup = give(position(), 0, *BROWNS).set_cash(0, 40)
    game, _events, agents = play_from(setup)
    luxury_tax(game)  # 40 + 30 + 30 = 100
    assert not game.bankrupt[0] and game.cash == [0, 1500]
    assert game.mortgaged[idx(game, BROWNS[0])] and game.mortgaged[idx(game, BROWNS[1])]
    assert agents[0].questions("raise_funds") == [(100,)]


def test_paying_each_player_with_too_little_is_bankruptcy_without_mortgaging():
    """"Pay each player 50" to three others (150) with 60 and Mediterranean (30): hopeless. Seat 1 is paid
    from cash; seat 2 cannot be, and gets the rest (10 and Mediterranean, unmortgaged)."""
    setup = give(position(4), 0, "Mediterranean Avenue").set_cash(0, 60)
    setup.stack("chance", ["You have been elected Chairman"])
    game, events, _ = play_from(setup)
    land(game, 0, "Income Tax", (1, 2))  # 4 -> 7 Chance
    assert game.bankrupt == [True, False, False, False]
    [bankrupt] = of_type(events, "bankrupt")
    assert bankrupt["creditor"] == 2
    assert payments(events) == [(0, 1, 50, "You have been elected Chairman of the Board. Pay each player $50."),
                                (0, 2, 10, "bankruptcy")]
    assert game.owner[idx(game, "Mediterranean Avenue")] == 2
    assert not game.mortgaged[idx(game, "Mediterranean Avenue")]
    assert game.cash == [0, 1550, 1510, 1500]


# ---------------------------------------------------------------- 2. the short game's last bankruptcy


def short_game_position(rs: Any = None) -> Setup:
    """Short game, four seats, seat 3 already bankrupt (the first bankruptcy)."""
    setup = position(4, ("short-game",), rs=rs)
    state = setup.state
    state.bankrupt[3] = True
    state.bankrupt_order = [3]
    state.cash[3] = 0
    return setup


def test_short_game_second_bankruptcy_hands_the_creditor_everything_buildings_included():
    """Short game (hotels after 3 houses). Seat 2 has hotels on the browns and no cash, and lands on seat 1's
    Boardwalk hotel (2000). The printed rule: at a second bankruptcy "play ceases at once, and the bankrupt
    player turns over to his creditor all that he has of value, including buildings"; then each player
    values cash, lots at their price (mortgaged ones at the mortgage), houses and hotels at cost.

    Seat 1: 100 + Park Place 350 + Boardwalk 400 + their hotels 4 x 200 x 2 + the browns 60 + 60 with their
    hotels 4 x 50 x 2 = 2970; seat 0: 2800 in cash. Seat 1 wins. (Selling the browns' hotels at half and
    mortgaging the browns first gave seat 1 only 2764, and the game to seat 0.)"""
    setup = short_game_position()
    give(setup, 2, *BROWNS).build(BROWNS[0], 4).build(BROWNS[1], 4).set_cash(2, 0)
    give(setup, 1, *DARK_BLUE).build("Park Place", 4).build("Boardwalk", 4).set_cash(1, 100)
    setup.set_cash(0, 2800)
    game, events, agents = play_from(setup)
    houses, hotels = game.houses_left, game.hotels_left
    land(game, 2, "Short Line", (1, 3))  # -> Boardwalk with a hotel: 2000
    assert game.finished and game.end_reason == "bankruptcies" and game.winner == 1
    assert [game.owner[idx(game, n)] for n in BROWNS] == [1, 1]
    assert at(game, *BROWNS) == [4, 4] and not any(game.mortgaged)
    assert (game.houses_left, game.hotels_left) == (houses, hotels)
    assert game.cash == [2800, 100, 0, 0]
    assert payments(events) == []
    assert agents[2].questions("raise_funds") == [] and agents[1].questions("lift_mortgage") == []
    standings = game.result().standings
    assert [(s.seat, s.net_worth) for s in standings] == [(1, 2970), (0, 2800), (2, 0), (3, 0)]


def test_short_game_second_bankruptcy_to_the_bank_ends_at_once_without_auctions():
    """The creditor is the bank: its buildings go back to the bank (sold at half, that cash to the bank with
    the rest: nobody else gains or loses by it), the lots go back unmortgaged, and play ceases at once: no
    auction. The richer of the two left wins."""
    setup = short_game_position()
    give(setup, 2, *BROWNS, "Reading Railroad").build(BROWNS[0], 4).build(BROWNS[1], 4).set_cash(2, 0)
    setup.mortgage("Reading Railroad").set_cash(0, 1000).set_cash(1, 900)
    game, events, agents = play_from(setup)
    # 200 for the hotels and 60 for the browns at most
    game.carry_out(game.charge(2, BANK, 5000, "a debt nothing covers"))
    assert game.finished and game.end_reason == "bankruptcies" and game.winner == 0
    assert [game.owner[idx(game, n)] for n in (*BROWNS, "Reading Railroad")] == [-1, -1, -1]
    assert at(game, *BROWNS) == [0, 0] and not any(game.mortgaged)
    assert (game.houses_left, game.hotels_left) == (game.ruleset.houses, game.ruleset.hotels)
    assert payments(events) == [("bank", 2, 100, "sell building"), ("bank", 2, 100, "sell building"),
                                (2, "bank", 200, "bankruptcy")]
    assert of_type(events, "auction") == [] and agents[0].questions("bid") == []
    assert agents[2].questions("raise_funds") == []
    assert game.cash == [1000, 900, 0, 0]


def test_the_end_valuation_counts_a_mortgaged_lot_at_its_mortgage_value(tmp_path):
    """A ruleset whose Boardwalk mortgages for 150 (not half its price, 200): seat 0 has 100 and a mortgaged
    Boardwalk, worth 250; seat 1 has 260 and wins the short game at the second bankruptcy."""
    variant = tmp_path / "cheap-mortgage.yaml"
    variant.write_text(textwrap.dedent("""\
        id: cheap-mortgage
        kind: variant
        name: Cheap Boardwalk mortgage
        description: Boardwalk mortgages for 150.
        spaces:
          Boardwalk: {mortgage: 150}
        """), encoding="utf-8")
    rs = monopoly.load_ruleset("classic", ["short-game", str(variant)])
    setup = short_game_position(rs)
    give(setup, 0, "Boardwalk").mortgage("Boardwalk").set_cash(0, 100).set_cash(1, 260).set_cash(2, 0)
    game, _events, _ = play_from(setup)
    assert game.valuation(0) == 250
    luxury_tax(game, 2)
    assert game.finished and game.winner == 1
    assert [(s.seat, s.net_worth) for s in game.result().standings][:2] == [(1, 260), (0, 250)]


# ---------------------------------------------------------------- 4. the income-tax choice


class Chooser(monopoly.Agent):
    """Chooses ``answer``; records what option_costs said and what it worked out itself."""

    def __init__(self, answer: int):
        self.answer = answer
        self.seen: list[tuple[tuple[str, ...], list[int], int]] = []
        self.estimated: list[int] = []

    def choose(self, game, seat, options):
        self.seen.append((options, game.option_costs(seat), game.net_worth(seat)))
        self.estimated = game.option_costs(seat, worth=1000)  # its own guess of its worth
        return self.answer


def test_income_tax_is_chosen_before_the_worth_is_added_up():
    """The printed rule: "you must decide which option you will take before you add up your total worth".
    While choosing, option_costs tells nothing (the 10% figure would need the adding up); the player may
    add up what it knows itself, and have the alternatives priced with its own figure (``worth=``). The 10%
    is worked out once chosen: cash 1000 and Boardwalk 400, 140."""
    chooser = Chooser(1)
    setup = give(position(), 0, "Boardwalk").set_cash(0, 1000)
    game, events, _ = play_from(setup, [chooser, ScriptedAgent()])
    land(game, 0, 0, (1, 3))
    assert chooser.seen == [(("pay 200", "pay 10% of net worth"), [], 1400)]
    assert chooser.estimated == [200, 100]  # priced with the worth the player gave
    assert payments(events) == [(0, "bank", 140, "Income Tax")]
    assert game.option_costs(0) == []


def test_choices_that_need_no_adding_up_are_still_priced():
    chooser = Chooser(0)
    setup = position(rs=ruleset("uk")).stack("community_chest", ["Pay a £10 fine"])
    game, events, _ = play_from(setup, [chooser, ScriptedAgent()])
    land(game, 0, 10, (3, 4))  # Just Visiting -> 17 Community Chest
    assert [(options, costs) for options, costs, _worth in chooser.seen] == [(("pay 10", "draw chance"), [10, 0])]
    assert payments(events)[0][2] == 10


@pytest.mark.parametrize("bot", ["greedy", "cautious", "trader", "random"])
def test_the_bots_still_choose_at_the_income_tax(bot):
    setup = position()
    game = Game.from_state(setup.ruleset, [monopoly.make_agent(bot), ScriptedAgent()], setup.checked(), seed=3)
    events: list[dict[str, Any]] = []
    game.observe(events.append)
    land(game, 0, 0, (1, 3))
    [choice] = of_type(events, "choice")
    assert choice["chosen"] in (0, 1) and of_type(events, "refused") == []
    assert game.cash[0] in (1300, 1350)


# ---------------------------------------------------------------- 5. the shortage auction


def test_a_shortage_auction_opens_at_the_lowest_price_any_bidder_could_pay():
    """One house left; seat 0 (dark blues, 200 a house) asks for it, seat 1 (browns, 50 a house, 120 in
    hand) wants one too. Bidding opens at 50, the cheapest house either could buy, so seat 1 can bid
    (it could not pay 200) and wins at 60; its house goes on a brown lot."""
    setup = give(position(), 0, *DARK_BLUE)
    give(setup, 1, *BROWNS).set_cash(1, 120)
    take_houses(setup, 0, 31).set_cash(0, 3000)  # seat 0 also holds the four groups it built on
    agents = [ScriptedAgent(bid=[0]), ScriptedAgent(bid=[60])]
    game, events, _ = play_from(setup, agents)
    assert game.houses_left == 1
    assert game.apply(0, Build(idx(game, "Boardwalk")))
    assert agents[0].questions("bid") == [(("house", None), 49, None)]
    assert agents[1].questions("bid") == [(("house", None), 49, None)]
    [auction] = of_type(events, "auction")
    assert (auction["item"], auction["winner"], auction["price"]) == ("house", 1, 60)
    assert at(game, *BROWNS, *DARK_BLUE) == [1, 0, 0, 0]
    assert game.cash == [3000, 60] and game.houses_left == 0
    assert payments(events) == [(1, "bank", 60, "building auction")]


# ---------------------------------------------------------------- 6. the tournament rule


def browns_with_hotels(houses_in_bank: int, variants: tuple[str, ...] = ("tournament",)) -> Setup:
    setup = give(position(variants=variants), 0, *BROWNS).build(BROWNS[0], 5).build(BROWNS[1], 5)
    return take_houses(setup, 1, 32 - houses_in_bank)


def test_tournament_allows_a_hotel_sale_that_causes_no_shortage():
    """The tournament rule forbids breaking hotels into houses to create a housing shortage. With 32 houses
    in the bank, breaking Mediterranean's hotel takes 4 and leaves 28: no shortage, so it is allowed."""
    game, _events, _ = play_from(browns_with_hotels(32))
    assert game.apply(0, SellBuilding(idx(game, BROWNS[0])))
    assert at(game, *BROWNS) == [4, 5] and game.houses_left == 28 and game.cash[0] == 1525


def test_tournament_refuses_breaking_a_hotel_down_into_the_banks_last_houses():
    """Four houses in the bank: breaking the hotel would take all four (the bank would have none: the
    printed rules' housing shortage). Refused outside a debt, and nothing changes."""
    game, events, _ = play_from(browns_with_hotels(4))
    before = snapshot(game)
    assert not game.apply(0, SellBuilding(idx(game, BROWNS[0])))
    assert snapshot(game) == before
    assert refusals(events) == ["breaking the hotel on Mediterranean Avenue down into houses would leave the bank "
                                "with fewer houses than the other players could build: hotels may not be broken "
                                "down to create a housing shortage, only to raise money for a debt"]


def test_tournament_refuses_a_partial_breakdown_that_empties_the_bank():
    game, _events, _ = play_from(browns_with_hotels(3))
    assert not game.apply(0, SellBuilding(idx(game, BROWNS[0])))
    assert at(game, *BROWNS) == [5, 5]


def test_tournament_allows_selling_hotels_when_the_bank_has_no_houses_to_give():
    """No houses in the bank: the hotels go back whole (the group to nothing), taking no house from the
    bank: no shortage is created."""
    game, _events, _ = play_from(browns_with_hotels(0))
    assert game.apply(0, SellBuilding(idx(game, BROWNS[0])))
    assert at(game, *BROWNS) == [0, 0] and (game.houses_left, game.hotels_left) == (0, 12)
    assert game.cash[0] == 1500 + 250


def test_tournament_allows_the_shortage_breakdown_to_raise_money_for_a_debt():
    """Owes 100 with four houses in the bank. Mediterranean's hotel breaks into 4 houses (25) and takes the
    bank's last four; Baltic's hotel then finds no house in the bank: evenly, the group keeps the 4 houses
    it has, 2 and 2 (Baltic sells 5 buildings' worth, 125). 150 raised, 50 left."""
    setup = browns_with_hotels(4).set_cash(0, 0)
    game, _events, _ = play_from(setup)
    luxury_tax(game)
    assert at(game, *BROWNS) == [2, 2] and (game.houses_left, game.hotels_left) == (0, 12)
    assert game.cash[0] == 50 and not game.bankrupt[0]


# ---------------------------------------------------------------- 7. the shortage: what each player wants


LIGHT_BLUES = ("Oriental Avenue", "Vermont Avenue", "Connecticut Avenue")


def two_builders(houses_in_bank: int, cash: tuple[int, int] = (1500, 1500)) -> Setup:
    """Seat 0 has the browns, seat 1 the light blues, neither built on; seat 1 holds the houses out of the bank
    on four more groups (room for 48)."""
    setup = give(position(), 0, *BROWNS)
    give(setup, 1, *LIGHT_BLUES)
    take_houses(setup, 1, 32 - houses_in_bank)
    return setup.set_cash(0, cash[0]).set_cash(1, cash[1])


def test_a_shortage_auction_when_two_players_want_more_houses_than_the_bank_has():
    """The printed rule: "two or more players wish to buy more than the Bank has". Two houses are left, and
    each player could build several (seat 0 eight on the browns, seat 1 twelve on the light blues): the house
    seat 0 asks for is auctioned, although there are as many houses as players wanting them."""
    agents = [ScriptedAgent(bid=[60]), ScriptedAgent(bid=[0])]
    game, events, _ = play_from(two_builders(2), agents)
    assert game.houses_left == 2
    assert game.apply(0, Build(idx(game, "Mediterranean Avenue")))
    [auction] = of_type(events, "auction")
    assert (auction["item"], auction["winner"], auction["price"]) == ("house", 0, 60)
    assert agents[1].questions("bid") == [(("house", None), 60, 0)]
    assert at(game, *BROWNS, *LIGHT_BLUES) == [1, 0, 0, 0, 0]
    assert game.cash == [1440, 1500] and game.houses_left == 1
    assert payments(events) == [(0, "bank", 60, "building auction")]


def test_no_shortage_auction_when_the_bank_has_every_house_the_players_could_buy():
    """Three houses left; seat 0 can pay for two brown houses (100 in hand), seat 1 for one light blue house
    (50 in hand; its other groups' houses cost more): they want three, the bank has three, so seat 0 builds
    at the printed price."""
    game, events, _ = play_from(two_builders(3, cash=(100, 50)))
    assert game.apply(0, Build(idx(game, "Mediterranean Avenue")))
    assert of_type(events, "auction") == []
    assert at(game, *BROWNS) == [1, 0] and game.cash == [50, 50] and game.houses_left == 2
    assert payments(events) == [(0, "bank", 50, "build")]


def test_a_shortage_auction_when_a_rival_wants_more_than_is_left_after_the_builder():
    """The same three houses, seat 1 now with cash for three light blue houses: four wanted, three in the
    bank, and the house is auctioned."""
    agents = [ScriptedAgent(bid=[0]), ScriptedAgent(bid=[51])]
    game, events, _ = play_from(two_builders(3, cash=(100, 150)), agents)
    assert game.apply(0, Build(idx(game, "Mediterranean Avenue")))
    [auction] = of_type(events, "auction")
    assert (auction["item"], auction["winner"], auction["price"]) == ("house", 1, 51)
    assert at(game, *BROWNS) == [0, 0] and sum(at(game, *LIGHT_BLUES)) == 1
    assert game.cash == [100, 99] and game.houses_left == 2
