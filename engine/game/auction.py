"""Auctions: of a lot (declined, or a bankrupt's lots returned to the bank) and of the last buildings.

An English auction: bidders are asked in turn to beat the highest bid or drop
out, until one bidder is left. Everyone still in the game may bid, the player
who declined to buy too, from any opening price the rules allow. A bid may not
exceed the bidder's cash (there are no loans).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from . import actions as act
from . import apply as writes
from . import cards
from .apply import payment
from .core import Core, Steps, ask_direct, refuse, safe_repr
from .decisions import check_answer
from .events import BANK
from .question import RAISED, Decision, new_decision

#: Rounds of asking after which an auction stops (every round raises the bid, so this is a guard).
MAX_ROUNDS = 10_000


def run_auction(game: Core, bidders: list[int], item: tuple[str, Any],
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
            direct = game._direct  # play() drives: the agent is asked here (core.ask_direct)
            bid = RAISED if direct is None else \
                ask_direct(game, decision, direct[seat]["bid"], seat, item, high, leader)
            if bid is RAISED:
                bid = yield decision
            if type(bid) is not int or bid <= high or bid > game.cash[seat]:
                # The type first (True, 10.0 or "10" is no bid). 0 or None is a plain pass; anything else
                # was a mistake, told to the agent.
                reason = check_answer(game, decision, bid)
                if reason is not None:
                    refuse(game, seat, f"bid {safe_repr(bid)}", f"{reason}; you are out of the auction")
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


def whole_groups(game: Core) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    """(owner, lots, house cost) of every group to build on that one player owns whole, at the game's ownership
    version (found again only when a lot changes hands); empty when fewer than two players own one. Sets
    ``game.whole_cheapest`` beside it: (seat, the least a building costs on its whole groups) of each of those
    players, empty when one costs nothing."""
    if game.whole_version == game.owner_version:
        return game.whole
    t = game.tables
    owner = game.owner
    found: list[tuple[int, tuple[int, ...], int]] = []
    cheapest: dict[int, int] = {}  # by seat: the least a building costs on its whole groups
    for group, members in t.buildable_groups:
        o = owner[members[0]]
        if o < 0:
            continue
        for s in members:
            if owner[s] != o:
                break
        else:
            cost = t.house_cost[group]
            found.append((o, members, cost))
            if o not in cheapest or cost < cheapest[o]:
                cheapest[o] = cost
    two = len(cheapest) >= 2
    game.whole = tuple(found) if two else ()
    # with no free building, the most the players could pay for is their cash over their cheapest building each
    game.whole_cheapest = tuple(cheapest.items()) if two and min(cheapest.values()) > 0 else ()
    game.whole_version = game.owner_version
    return game.whole


def shortage_possible(game: Core, space: int) -> bool:
    """Could a building on ``space`` be short: the rules auction the last buildings, two players or more own
    whole groups to build on, and the bank has fewer of the kind (a house, or a hotel on a full row) than
    those players could pay for on them? (A quick bound, read on every build, from the owners, the buildings
    and the cash alone: :func:`shortage_auction` counts what each player could build. Without a shortage
    whoever wants one builds it.)"""
    if not game.rules.building.shortage_auction:
        return False
    wholes = whole_groups(game)
    if not wholes:  # fewer than two players own a whole group to build on
        return False
    t = game.tables
    buildings, hph = game.buildings, t.hph
    hotel = buildings[space] == hph
    left = game.hotels_left if hotel else game.houses_left
    if game.whole_cheapest:  # a first bound, from the cash alone: the bank has more than they could pay for
        cash = game.cash
        most = 0
        for o, cost in game.whole_cheapest:
            if cash[o] > 0:
                most += cash[o] // cost
        if left >= most:
            return False
    room: dict[int, int] = {}  # by seat: what its whole groups could take
    cheapest: dict[int, int] = {}  # by seat: the least a building costs on them
    for o, members, cost in wholes:
        free = act.group_room(buildings, members, hph, hotel)
        if free:
            room[o] = room.get(o, 0) + free
            if o not in cheapest or cost < cheapest[o]:
                cheapest[o] = cost
    if len(room) < 2:
        return False
    wanted = 0  # an upper bound of what they could build: their room, as far as their cash goes
    for o, free in room.items():
        cost = cheapest[o]
        wanted += free if cost <= 0 else min(free, game.cash[o] // cost)
    return left < wanted


def shortage_auction(game: Core, seat: int, space: int) -> Generator[Decision | None, Any, bool]:
    """When two players or more want more houses (or hotels) than the bank has, the next one is auctioned (the
    printed rules: "two or more players wish to buy more than the Bank has").

    What each player wants is what it could build now, one after another (:func:`~monopoly.game.actions.demand`:
    its groups' room, as far as its cash goes). Returns True when an auction took place (whoever won it has placed the
    building and paid the winning bid). Every player who could build one now may bid, and bidding opens at
    the lowest printed cost of a building any of them could buy, so that nobody wanting one is priced out
    before the first bid (a rival whose houses cost 50 may bid 60 for the last house a dark blue owner asked
    for at 200).
    """
    if not shortage_possible(game, space):
        return False
    t = game.tables
    hotel = game.buildings[space] == t.hph
    left = game.hotels_left if hotel else game.houses_left
    order = [(seat + i) % game.players for i in range(game.players)]
    wanting: list[int] = []
    opening = t.house_cost[t.group_of[space]]
    wanted = 0
    for q in order:
        if game.bankrupt[q]:
            continue
        count, cheapest = act.demand(game, q, hotel)
        if q == seat:  # its build was verified: it wants this one at least, at its own cost or a cheaper one
            count = max(count, 1)
        if count:
            wanting.append(q)
            wanted += count
            if cheapest and cheapest < opening:
                opening = cheapest
    if len(wanting) < 2 or left >= wanted:
        return False
    winner, price = yield from run_auction(game, wanting, ("hotel" if hotel else "house", None), opening)
    if winner is None:
        return True
    if winner == seat:
        target = space
    else:
        target = next(s for s in t.ownable if game.owner[s] == winner and (game.buildings[s] == t.hph) == hotel
                      and act.can(game, winner, act.space_actions(t)[s][0]))
    writes.payment(game, winner, BANK, price, "building auction")
    writes.build(game, winner, target, game.buildings[target] + 1)
    if t.action_triggers:
        yield from cards.event(game, "build", winner, price)
    return True


def auction_lot(game: Core, s: int) -> Steps:
    """Auction a lot among every player still in the game (the one who declined too) whom the rules let buy it
    (``permissions.buy``)."""
    bidders = [(game.current + i) % game.players for i in range(game.players)]
    permit = game.tables.permit_buy
    bidders = [b for b in bidders if not game.bankrupt[b] and (permit is None or permit(game, b))]
    winner, price = yield from run_auction(game, bidders, ("space", s), game.rules.auction_min_bid)
    if winner is not None:  # the lot is the winner's (the auction event), who pays for it
        payment(game, winner, BANK, price, "auction")
