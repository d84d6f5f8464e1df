"""Money tables: what each property and group earns per opponent turn, and how fast it pays back.

Rent per opponent turn = landings per turn on the space (from the exact odds,
doubles included) x the rent at that level. Cost = what it takes to get to that
level (the price, plus houses at the group's house cost). Payback = cost / rent
per opponent turn, in opponent turns.

Levels: a street alone (``site``), the whole group unimproved (``group``),
``1 house`` ... and ``hotel``; railroads and utilities by how many of their
group the owner has (``1 owned`` ...): a kind that is built on has the first, any other the second. A rent
that reads the dice is the mean over the throws; the rents come from game/rent.py (the lots' kinds), and a lot
whose rent reads more of the game than its level, its group and the dice has no rows.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..game.rent import rent_at
from ..game.tables import tables_for
from ..ruleset.model import Ruleset
from .markov import LandingOdds


def _throws(ruleset: Ruleset) -> dict[int, int]:
    """How many of the equally likely throws of the dice give each total."""
    counts = {0: 1}
    for _ in range(ruleset.dice_count):
        after: dict[int, int] = {}
        for total, ways in counts.items():
            for face in range(1, ruleset.dice_sides + 1):
                after[total + face] = after.get(total + face, 0) + ways
        counts = after
    return counts


def _levels(ruleset: Ruleset, index: int) -> list[tuple[str, int, int]]:
    """(level name, rent, cost to reach it) for one space, its group owned as the level says."""
    space = ruleset.board[index]
    t = tables_for(ruleset)
    if t.rent_rows[index] is None:
        return []
    price = space.price or 0
    size = len(t.peers[index])
    throws = _throws(ruleset)
    ways = sum(throws.values())

    def at(level: int, owned: int) -> int:
        total = sum(count * rent_at(t, index, level, owned, total) for total, count in throws.items())
        return round(Fraction(total, ways))

    group = ruleset.group(space.group) if space.group else None
    if space.buildable and group is not None:
        hph = ruleset.rules.building.houses_per_hotel
        house = group.house_cost or 0
        hotel = hph + 1
        levels = [("site", at(0, 1), price), ("group", at(0, size), price)]
        for houses in range(1, hph + 1):
            levels.append((f"{houses} house{'s' * (houses > 1)}", at(houses, size), price + houses * house))
        levels.append(("hotel", at(hotel, size), price + hotel * house))
        return levels
    return [(f"{k} owned", at(0, k), price) for k in range(1, size + 1)]


def money_tables(ruleset: Ruleset, odds: LandingOdds) -> dict[str, Any]:
    """``{"spaces": [...], "groups": [...], "left_out": [...]}``: rows per space and level, and per group and
    level; ``left_out`` names the lots whose rent reads more of the game than the lot and the dice (worked out
    in play only), which have no rows."""
    t = tables_for(ruleset)
    left_out = [space.name for space in ruleset.board if space.ownable and t.rent_rows[space.index] is None]
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
            if not first.buildable and level != f"{len(group.members)} owned":
                continue  # railroads and utilities: the whole group
            rows = [r for r in spaces if r["group"] == group.key and r["level"] == level]
            earned = sum(r["rent_per_turn"] for r in rows)
            cost = sum(r["cost"] for r in rows)
            groups.append({"group": group.key, "name": group.name, "level": level, "rent_per_turn": earned,
                           "cost": cost, "payback_turns": cost / earned if earned else None})
    return {"spaces": spaces, "groups": groups, "left_out": left_out}
