"""Rent: the one home of what a lot's rent is, for the engine (``Game.rent_due``), the analysis (the money
tables of ``monopoly analyze``) and the bots (what a house adds).

The functions take the lot's printed rent list and what decides the rent (buildings, whether the owner has
the whole group, how many of the kind the owner has, the dice), not a game: the analysis asks about levels
no game is at.

>>> baltic = (4, 20, 60, 180, 320, 450)
>>> street_rent(baltic, 0, whole_group=False, multiplier=2, hotel_level=5)
4
>>> street_rent(baltic, 0, whole_group=True, multiplier=2, hotel_level=5)
8
>>> street_rent(baltic, 5, whole_group=True, multiplier=2, hotel_level=5)   # a hotel (houses_per_hotel + 1)
450
>>> street_rent(baltic, 4, whole_group=True, multiplier=2, hotel_level=4)   # three houses to a hotel
450
>>> railroad_rent((25, 50, 100, 200), owned=3), utility_rent((4, 10), owned=2, dice=7)
(100, 70)
"""

from __future__ import annotations


def street_rent(rent: tuple[int, ...], level: int, *, whole_group: bool, multiplier: int, hotel_level: int) -> int:
    """A street's rent at building ``level`` (0: none, 1 to ``hotel_level - 1`` houses, ``hotel_level`` a hotel):
    the site's rent, times ``multiplier`` (the rules' ``full_group_multiplier``) when the owner has the whole
    group unimproved; the hotel's is the last of the list, whatever number of houses a hotel takes."""
    if level == 0:
        return rent[0] * multiplier if whole_group else rent[0]
    return rent[-1] if level == hotel_level else rent[level]


def railroad_rent(rent: tuple[int, ...], *, owned: int) -> int:
    """A railroad's rent when its owner has ``owned`` of the group."""
    return rent[owned - 1]


def utility_rent(rent: tuple[int, ...], *, owned: int, dice: int) -> int:
    """A utility's rent when its owner has ``owned`` of the group: the factor times the ``dice`` thrown."""
    return rent[owned - 1] * dice
