"""The bank's stock of houses and hotels: the one home of what a building level stands for in pieces, and of
how the stock follows when a lot's level changes, for the engine's writers (:mod:`.apply`), the set-ups
(:class:`~.state.Setup`), the position check (:meth:`~.state.GameState.problems`), the rules of selling in a
shortage (:mod:`.actions`) and the counts of an effect (`N per house`).

A lot's building level is 0 (none), 1 to ``hotel_level - 1`` houses, or ``hotel_level`` (a hotel: the houses
it replaced went back to the bank).

>>> pieces(3, hotel_level=5), pieces(5, hotel_level=5)
((3, 0), (0, 1))
>>> stock_change(4, 5, hotel_level=5)   # a hotel built: 4 houses back to the bank, one hotel out
(4, -1)
>>> stock_change(5, 2, hotel_level=5)   # a hotel broken down to 2 houses
(-2, 1)
>>> on_board([0, 3, 5, 5, 1], hotel_level=5)
(4, 2)
"""

from __future__ import annotations

from collections.abc import Iterable


def pieces(level: int, *, hotel_level: int) -> tuple[int, int]:
    """The houses and hotels standing on a lot at building ``level``."""
    return (0, 1) if level == hotel_level else (level, 0)


def stock_change(before: int, after: int, *, hotel_level: int) -> tuple[int, int]:
    """What the bank's stock of (houses, hotels) gains when a lot goes from level ``before`` to ``after``
    (negative: what it gives out)."""
    houses_before, hotels_before = (0, 1) if before == hotel_level else (before, 0)
    houses_after, hotels_after = (0, 1) if after == hotel_level else (after, 0)
    return houses_before - houses_after, hotels_before - hotels_after


def on_board(levels: Iterable[int], *, hotel_level: int) -> tuple[int, int]:
    """The (houses, hotels) standing on lots at ``levels``."""
    houses = hotels = 0
    for level in levels:
        if level == hotel_level:
            hotels += 1
        else:
            houses += level
    return houses, hotels
