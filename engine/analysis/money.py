"""Money tables: what each property and group earns per opponent turn, and how fast it pays back.

Rent per opponent turn = landings per turn on the space (from the exact odds,
doubles included) x the rent at that level. Cost = what it takes to get to that
level (the price, plus houses at the group's house cost). Payback = cost / rent
per opponent turn, in opponent turns.

Levels: a street alone (``site``), the whole group unimproved (``group``),
``1 house`` ... and ``hotel``; railroads and utilities by how many of their
group the owner has (``1 owned`` ...). Utility rent uses the dice's mean total.
"""

from __future__ import annotations

from typing import Any

from ..game.rent import railroad_rent, street_rent, utility_rent
from ..ruleset.model import Ruleset
from .markov import LandingOdds


def _levels(ruleset: Ruleset, index: int) -> list[tuple[str, int, int]]:
    """(level name, rent, cost to reach it) for one space, its group owned as the level says."""
    space = ruleset.board[index]
    rules = ruleset.rules
    rent = space.rent
    price = space.price or 0
    group = ruleset.group(space.group) if space.group else None
    if space.kind == "street" and group is not None:
        hph = rules.building.houses_per_hotel
        house = group.house_cost or 0
        multiplier, hotel = rules.full_group_multiplier, hph + 1

        def at(level: int, whole_group: bool = True) -> int:
            return street_rent(rent, level, whole_group=whole_group, multiplier=multiplier, hotel_level=hotel)

        levels = [("site", at(0, False), price), ("group", at(0), price)]
        for houses in range(1, hph + 1):
            levels.append((f"{houses} house{'s' * (houses > 1)}", at(houses), price + houses * house))
        levels.append(("hotel", at(hotel), price + hotel * house))
        return levels
    if space.kind == "railroad":
        return [(f"{k} owned", railroad_rent(rent, owned=k), price) for k in range(1, len(rent) + 1)]
    if space.kind == "utility":  # at the mean throw (the rent's factor is the same for every throw)
        mean = ruleset.dice_count * (ruleset.dice_sides + 1) / 2
        return [(f"{k} owned", round(utility_rent(rent, owned=k, dice=1) * mean), price)
                for k in range(1, len(rent) + 1)]
    return []


def money_tables(ruleset: Ruleset, odds: LandingOdds) -> dict[str, Any]:
    """``{"spaces": [...], "groups": [...]}``: rows per space and level, and per group and level."""
    spaces: list[dict[str, Any]] = []
    for space in ruleset.board:
        if not space.ownable:
            continue
        per_turn = odds.per_turn(space.index)
        for level, rent, cost in _levels(ruleset, space.index):
            earned = per_turn * rent
            spaces.append({
                "index": space.index, "name": space.name, "group": space.group, "level": level,
                "rent": rent, "rent_per_turn": earned, "cost": cost,
                "payback_turns": cost / earned if earned else None,
            })
    groups: list[dict[str, Any]] = []
    for group in ruleset.groups:
        if not group.members:
            continue
        first = ruleset.board[group.members[0]]
        for level, _, _ in _levels(ruleset, first.index):
            if level == "site":
                continue  # a group is owned whole
            if first.kind != "street" and level != f"{len(group.members)} owned":
                continue  # railroads and utilities: the whole group
            rows = [r for r in spaces if r["group"] == group.key and r["level"] == level]
            earned = sum(r["rent_per_turn"] for r in rows)
            cost = sum(r["cost"] for r in rows)
            groups.append({"group": group.key, "name": group.name, "level": level, "rent_per_turn": earned,
                           "cost": cost, "payback_turns": cost / earned if earned else None})
    return {"spaces": spaces, "groups": groups}
