"""Auctions: of a lot (declined, or a bankrupt's lots returned to the bank) and of the last buildings.

An English auction: bidders are asked in turn to beat the highest bid or drop
out, until one bidder is left. Everyone still in the game may bid, the player
who declined to buy too, from any opening price the rules allow. A bid may not
exceed the bidder's cash (there are no loans).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from . import actions as act
from . import apply as writes
from .decisions import RAISED, Decision, check_answer, new_decision
from .events import BANK

if TYPE_CHECKING:
    from .game import Game

#: Rounds of asking after which an auction stops (every round raises the bid, so this is a guard).
MAX_ROUNDS = 10_000


def run_auction(game: Game, bidders: list[int], item: tuple[str, Any],
                min_bid: int) -> Generator[Decision, Any, tuple[int | None, int]]:
    """(winner, price) of an auction of ``item`` among ``bidders``; (None, 0) when nobody bids."""
    high, leader = min_bid - 1, None
    active = list(bidders)
    bids = 0
    for _ in range(MAX_ROUNDS):
        raised = False
        for seat in list(active):
            if seat == leader:
                continue
            if leader is not None and len(active) == 1:
                break
            decision = new_decision((seat, "bid", (item, high, leader)))
            direct = game._direct  # play() drives: the agent is asked here (Game._ask_direct)
            bid = RAISED if direct is None else \
                game._ask_direct(decision, direct[seat]["bid"], seat, item, high, leader)
            if bid is RAISED:
                bid = yield decision
            if type(bid) is not int or bid <= high or bid > game.cash[seat]:
                # The type first (True, 10.0 or "10" is no bid). 0 or None is a plain pass; anything else
                # was a mistake, told to the agent.
                reason = check_answer(game, decision, bid)
                if reason is not None:
                    game._refuse(seat, f"bid {act.safe_repr(bid)}", f"{reason}; you are out of the auction")
                active.remove(seat)
                continue
            high, leader = bid, seat
            bids += 1
            raised = True
        if not raised or len(active) <= 1:
            break
    # a lot is the winner's from here (the winner pays next); a building is placed by the caller
    writes.auction(game, item[0], item[1], leader, high if leader is not None else 0, bids)
    return (leader, high) if leader is not None else (None, 0)


def _cheapest_build(game: Game, seat: int, hotel: bool) -> int | None:
    """The lowest printed cost of a house (or hotel) ``seat`` could build now; None when it could build none."""
    t = game.tables
    cheapest: int | None = None
    for s in t.ownable:
        if game.owner[s] == seat and (game.buildings[s] == t.hph) == hotel and \
                act.can(game, seat, act.Build(s)):
            cost = t.house_cost[t.group_of[s]]
            if cheapest is None or cost < cheapest:
                cheapest = cost
    return cheapest


def shortage_possible(game: Game, space: int) -> bool:
    """Could a building on ``space`` be short: the rules auction the last buildings and the bank has fewer of
    the kind (a house, or a hotel on a full row) than there are players still playing? (Without a shortage
    whoever wants one builds it.)"""
    if not game.rules.building.shortage_auction:
        return False
    left = game.hotels_left if game.buildings[space] == game.tables.hph else game.houses_left
    return left < game.players - len(game.bankrupt_order)


def shortage_auction(game: Game, seat: int, space: int) -> Generator[Decision | None, Any, bool]:
    """When several players could take the last houses (or hotels), the next one is auctioned.

    Returns True when an auction took place (whoever won it has placed the
    building and paid the winning bid). Every player who could build one now
    may bid, and bidding opens at the lowest printed cost of a building any of
    them could buy, so that nobody wanting one is priced out before the first
    bid (a rival whose houses cost 50 may bid 60 for the last house a dark blue
    owner asked for at 200).
    """
    if not shortage_possible(game, space):
        return False
    t = game.tables
    hotel = game.buildings[space] == t.hph
    left = game.hotels_left if hotel else game.houses_left
    order = [(seat + i) % game.players for i in range(game.players)]
    wanting: list[int] = []
    opening = t.house_cost[t.group_of[space]]
    for q in order:
        if game.bankrupt[q]:
            continue
        cheapest = _cheapest_build(game, q, hotel)  # the asker's too: it may have cheaper lots to build on
        if q == seat or cheapest is not None:
            wanting.append(q)
            if cheapest is not None and cheapest < opening:
                opening = cheapest
    if len(wanting) < 2 or left >= len(wanting):
        return False
    winner, price = yield from run_auction(game, wanting, ("hotel" if hotel else "house", None), opening)
    if winner is None:
        return True
    if winner == seat:
        target = space
    else:
        target = next(s for s in t.ownable if game.owner[s] == winner and (game.buildings[s] == t.hph) == hotel
                      and act.can(game, winner, act.Build(s)))
    writes.payment(game, winner, BANK, price, "building auction")
    writes.build(game, winner, target, game.buildings[target] + 1)
    if t.action_triggers:
        yield from game._event("build", winner, price)
    return True
