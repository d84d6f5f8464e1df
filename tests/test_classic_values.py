"""`monopoly show classic --format json` carries the exact published values."""

from __future__ import annotations

import json

import pytest

# The printed title deeds of the US classic edition: price, rent with 0-4 houses and a hotel,
# mortgage value, and the group's house cost.
STREETS = {
    "Mediterranean Avenue": (60, [2, 10, 30, 90, 160, 250], 30, 50),
    "Baltic Avenue": (60, [4, 20, 60, 180, 320, 450], 30, 50),
    "Oriental Avenue": (100, [6, 30, 90, 270, 400, 550], 50, 50),
    "Vermont Avenue": (100, [6, 30, 90, 270, 400, 550], 50, 50),
    "Connecticut Avenue": (120, [8, 40, 100, 300, 450, 600], 60, 50),
    "St. Charles Place": (140, [10, 50, 150, 450, 625, 750], 70, 100),
    "States Avenue": (140, [10, 50, 150, 450, 625, 750], 70, 100),
    "Virginia Avenue": (160, [12, 60, 180, 500, 700, 900], 80, 100),
    "St. James Place": (180, [14, 70, 200, 550, 750, 950], 90, 100),
    "Tennessee Avenue": (180, [14, 70, 200, 550, 750, 950], 90, 100),
    "New York Avenue": (200, [16, 80, 220, 600, 800, 1000], 100, 100),
    "Kentucky Avenue": (220, [18, 90, 250, 700, 875, 1050], 110, 150),
    "Indiana Avenue": (220, [18, 90, 250, 700, 875, 1050], 110, 150),
    "Illinois Avenue": (240, [20, 100, 300, 750, 925, 1100], 120, 150),
    "Atlantic Avenue": (260, [22, 110, 330, 800, 975, 1150], 130, 150),
    "Ventnor Avenue": (260, [22, 110, 330, 800, 975, 1150], 130, 150),
    "Marvin Gardens": (280, [24, 120, 360, 850, 1025, 1200], 140, 150),
    "Pacific Avenue": (300, [26, 130, 390, 900, 1100, 1275], 150, 200),
    "North Carolina Avenue": (300, [26, 130, 390, 900, 1100, 1275], 150, 200),
    "Pennsylvania Avenue": (320, [28, 150, 450, 1000, 1200, 1400], 160, 200),
    "Park Place": (350, [35, 175, 500, 1100, 1300, 1500], 175, 200),
    "Boardwalk": (400, [50, 200, 600, 1400, 1700, 2000], 200, 200),
}
ORDER = [
    "GO", "Mediterranean Avenue", "Community Chest", "Baltic Avenue", "Income Tax", "Reading Railroad",
    "Oriental Avenue", "Chance", "Vermont Avenue", "Connecticut Avenue", "Jail", "St. Charles Place",
    "Electric Company", "States Avenue", "Virginia Avenue", "Pennsylvania Railroad", "St. James Place",
    "Community Chest", "Tennessee Avenue", "New York Avenue", "Free Parking", "Kentucky Avenue", "Chance",
    "Indiana Avenue", "Illinois Avenue", "B. & O. Railroad", "Atlantic Avenue", "Ventnor Avenue", "Water Works",
    "Marvin Gardens", "Go To Jail", "Pacific Avenue", "North Carolina Avenue", "Community Chest",
    "Pennsylvania Avenue", "Short Line", "Chance", "Park Place", "Luxury Tax", "Boardwalk",
]


@pytest.fixture(scope="module")
def shown():
    from click.testing import CliRunner

    from monopoly.cli.main import cli

    result = CliRunner().invoke(cli, ["show", "classic", "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_board_order_and_kinds(shown):
    assert [s["name"] for s in shown["board"]] == ORDER
    kinds = {s["name"]: s["kind"] for s in shown["board"]}
    assert kinds["GO"] == "go" and kinds["Jail"] == "jail" and kinds["Free Parking"] == "plain"
    assert kinds["Go To Jail"] == "action" and kinds["Income Tax"] == kinds["Luxury Tax"] == "tax"


def test_every_street_has_its_printed_deed(shown):
    by_name = {s["name"]: s for s in shown["board"]}
    for name, (price, rent, mortgage, house_cost) in STREETS.items():
        space = by_name[name]
        assert (space["kind"], space["price"], space["rent"], space["mortgage"]) == ("street", price, rent, mortgage)
        assert shown["groups"][space["group"]]["house_cost"] == house_cost
    assert sum(s["kind"] == "street" for s in shown["board"]) == 22


def test_railroads_and_utilities(shown):
    rails = [s for s in shown["board"] if s["kind"] == "railroad"]
    assert [s["name"] for s in rails] == ["Reading Railroad", "Pennsylvania Railroad", "B. & O. Railroad", "Short Line"]
    assert all((s["price"], s["mortgage"], s["rent"]) == (200, 100, [25, 50, 100, 200]) for s in rails)
    utilities = [s for s in shown["board"] if s["kind"] == "utility"]
    assert [s["name"] for s in utilities] == ["Electric Company", "Water Works"]
    assert all((s["price"], s["mortgage"], s["rent"]) == (150, 75, [4, 10]) for s in utilities)


def test_taxes_bank_and_rules(shown):
    by_name = {s["name"]: s for s in shown["board"]}
    assert by_name["Income Tax"]["effect"] == "choose: pay 200 | pay 10% of net worth"
    assert by_name["Luxury Tax"]["effect"] == "pay 100"
    assert by_name["Go To Jail"]["effect"] == "go to jail"
    assert shown["bank"] == {"houses": 32, "hotels": 12, "starting_cash": 1500}
    assert shown["rules"]["salary"] == 200 and shown["rules"]["jail"]["fine"] == 50
    assert shown["rules"]["building"]["houses_per_hotel"] == 4
    assert shown["rules"]["mortgage"]["interest"] == 0.1
    assert shown["currency"] == "$" and shown["players"] == {"min": 2, "max": 8}


def test_decks_have_sixteen_cards_each(shown):
    for key in ("chance", "community_chest"):
        cards = shown["decks"][key]["cards"]
        assert sum(card.get("count", 1) for card in cards) == 16
    chance = shown["decks"]["chance"]["cards"]
    effects = [c["effect"] for c in chance for _ in range(c.get("count", 1))]
    assert effects.count("advance to nearest railroad with rent x2") == 2
    assert "advance to nearest utility with rent 10 x dice" in effects
    assert "move -3" in effects and "keep" in effects


def test_yaml_format_is_the_same_data(runner, cli, shown):
    import yaml

    result = runner.invoke(cli, ["show", "classic"])
    assert result.exit_code == 0
    assert yaml.safe_load(result.output) == shown
