"""Landing on a space: its triggers, a card drawn, a lot offered (bought, or declined and auctioned), rent
charged (who owes what, from the rows of game/rent.py), the space's own effect; and the moves of the effect
language that land (``advance to``, ``go back to``, ``move``).
"""

from __future__ import annotations

from . import apply as writes
from . import auction, cards, money, movement
from .apply import payment
from .core import MAX_CHAINED_MOVES, Core, Steps, ask_direct
from .decisions import yes
from .events import BANK
from .movement import steps_ahead_to, steps_back_to
from .question import RAISED, new_decision
from .rent import live_rent
from .tables import DRAW, NOTHING


def land(game: Core, p: int, rent_mod: tuple[str, int] | None) -> Steps:
    t = game.tables
    s = game.position[p]
    if t.has_pass_triggers and (game.bankrupt[p] or game.finished or game.jail_turns[p] >= 0):
        return  # a pass trigger ended the move first
    if t.has_land_triggers:
        replaced = False
        for run in t.land_triggers[s]:
            if (yield from run(game, p, None)):
                replaced = True  # an `instead` trigger: the space does nothing more
            if game.bankrupt[p] or game.finished or game.position[p] != s or game.jail_turns[p] >= 0:
                return
        if replaced:
            return
    kind = t.kind[s]
    if kind == NOTHING:
        pass
    elif kind == DRAW:
        yield from cards.draw_card(game, p, t.deck_of[s] or "")
    else:
        o = game.owner[s]
        if o < 0:
            yield from offer(game, p, s)
        elif o != p:
            rent = rent_owed(game, p, s, rent_mod)
            if rent and t.rent_triggers:
                if not (yield from cards.replaced(game, "rent", p, rent)):
                    yield from money.charge(game, p, o, rent, "rent")
                yield from cards.event(game, "rent", p, rent)
            elif rent:
                yield from money.charge(game, p, o, rent, "rent")
    effect = t.space_effect[s]
    if effect is not None and not game.bankrupt[p] and not game.finished and game.position[p] == s \
            and game.jail_turns[p] < 0:
        yield from effect(game, p, None)


def offer(game: Core, p: int, s: int) -> Steps:
    permit = game.tables.permit_buy
    if permit is not None and not permit(game, p):
        return  # the rules do not let this player buy yet: the lot is neither offered nor auctioned
    price = game.tables.price[s]
    if game.cash[p] < price:
        buys = False
    else:
        decision = new_decision((p, "buy", (s,)))
        direct = game._direct
        answer = RAISED if direct is None else ask_direct(game, decision, direct[p]["buy"], p, s)  # play() drives
        if answer is RAISED:
            answer = yield decision
        buys = yes(game, p, "buy", answer)
    if buys:
        payment(game, p, BANK, price, "buy")
        writes.buy(game, p, s, price)
        bought = game.tables.on_event.get("buy")
        if bought:
            yield from cards.fire(game, "buy", bought, p)
    elif game.rules.auction_on_decline:
        yield from auction.auction_lot(game, s)


def rent_owed(game: Core, p: int, s: int, rent_mod: tuple[str, int] | None) -> int:
    """What ``p`` owes for landing on ``s`` (owned by another): the one place of who collects rent (not on
    a mortgaged lot; from a jailed owner only by the rules)."""
    if not charges_rent(game, p, s):
        return 0
    o = game.owner[s]
    if rent_mod is None:
        return rent_at(game, s, o, p)
    if rent_mod[0] == "dice":  # `with rent N x dice`: a fresh roll
        return rent_mod[1] * sum(movement.roll(game))
    return rent_due(game, s, rent_mod)


def rent_at(game: Core, s: int, o: int, p: int = -1) -> int:
    """The rent of lot ``s`` owned by ``o`` as the board stands, for visitor ``p``: looked up in the rows of
    game/rent.py (rent.lookup, inline), or worked out there when the kind's rent reads more of the game."""
    t = game.tables
    rows = t.rent_rows[s]
    if rows is None:
        return live_rent(game, s, o, p)
    row = rows[game.buildings[s]]
    if row.__class__ is int:
        value: int = row
        return value
    owner = game.owner
    if row.__class__ is list:  # [not whole, whole]: the whole group, or not
        for m in t.peers[s]:
            if owner[m] != o:
                value = row[0]
                return value
        value = row[1]
        return value
    owned = 0
    for m in t.peers[s]:
        if owner[m] == o:
            owned += 1
    cell = row[owned]
    if cell.__class__ is int:
        value = cell
        return value
    last = game.last_roll
    total = last[0] + last[1] if len(last) == 2 else sum(last)
    if game.last_extra:  # the extra die's number counts in the total, as `dice` reads it
        total += sum(face for face in game.last_extra if type(face) is int)
    if total < len(cell):
        value = cell[total]
        return value
    return live_rent(game, s, o, p)


def charges_rent(game: Core, p: int, s: int) -> bool:
    """Whether ``p`` would be charged rent on ``s`` (owned by another, not mortgaged) by the rules: not when
    its owner is in jail and the rules say no rent then, nor when the ruleset's rent permission (asked as if
    ``p`` stood on ``s``) says no. What the filtered `nearest` of the speed die's Mr. Monopoly goes by."""
    o = game.owner[s]
    if o < 0 or o == p or game.mortgaged[s] or (game.jail_turns[o] >= 0 and not game._rent_in_jail):
        return False
    permit = game.tables.permit_rent
    if permit is None:
        return True
    position = game.position
    if position[p] == s:
        return bool(permit(game, p))
    here, position[p] = position[p], s  # the permission reads the owner of the space the player is on
    try:
        return bool(permit(game, p))
    finally:
        position[p] = here


def rent_due(game: Core, s: int, rent_mod: tuple[str, int] | None = None) -> int:
    """The rent a visitor owes on space ``s`` now (0 when unowned or mortgaged); ``rent_mod`` ``("x", n)``
    multiplies it. A query: it changes nothing (a card's `with rent N x dice` rolls in the turn itself)."""
    o = game.owner[s]
    if o < 0 or game.mortgaged[s]:
        return 0
    kind = game.tables.kind[s]
    if kind in (NOTHING, DRAW) or (rent_mod is not None and rent_mod[0] == "dice"):
        return 0
    amount = rent_at(game, s, o)
    if rent_mod is not None and rent_mod[0] == "x":
        amount *= rent_mod[1]
    return amount


def chain_land(game: Core, p: int, rent: tuple[str, int] | None) -> Steps:
    game._chain += 1
    if game._chain <= MAX_CHAINED_MOVES:
        yield from land(game, p, rent)


def advance_to(game: Core, p: int, targets: tuple[int, ...], rent: tuple[str, int] | None) -> Steps:
    if game.jail_turns[p] >= 0 or not targets:
        return
    yield from movement.forward(game, p, steps_ahead_to(game.position[p], targets, size=game.tables.size))
    yield from chain_land(game, p, rent)


def go_back_to(game: Core, p: int, targets: tuple[int, ...]) -> Steps:
    if game.jail_turns[p] >= 0 or not targets:
        return
    movement.backward(game, p, steps_back_to(game.position[p], targets, size=game.tables.size))
    yield from chain_land(game, p, None)


def move_by(game: Core, p: int, steps: int) -> Steps:
    if game.jail_turns[p] >= 0:
        return
    if steps > 0:
        yield from movement.forward(game, p, steps)
    else:
        movement.backward(game, p, -steps)
    yield from chain_land(game, p, None)
