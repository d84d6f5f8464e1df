"""The turn: the game as one generator (turns until it is over), a roll with dice of their own, and the
game set out (decks shuffled, starting cash, deeds dealt).

The common turn is inline in :func:`run`: two dice thrown, the token moved and the landing on a plain lot or a
quiet space handled without a call, the mover's first ``act`` asked of play()'s agent directly. It is the hot
loop of every simulation (docs/performance.md): each line saved there is a line saved every turn of every
game, which is why it repeats, inline, what ``movement.roll``, ``movement.step`` and ``landing.land`` do in
full; everything else it calls.
"""

from __future__ import annotations

from typing import Any

from ..effects.host import MAX_GAME_EVENTS
from . import apply as writes
from . import cards, movement
from .acting import between_turns
from .apply import payment
from .core import Core, Steps, set_owner
from .decisions import agent_name
from .dice import Dice
from .end import check_end, out_of_events
from .events import BANK, LOG_VERSION, RULES_VERSION
from .jail import free, jail_start, jailed
from .landing import land, rent_owed
from .tables import OWNABLE, QUIET


def run(game: Core) -> Steps:
    """The game as one generator: turns until it is over. Each turn: a jailed player's way out, rolls
    (doubles roll again, the rules' number of them sends to jail), moves and landings, then the actions
    after the turn. Between turns it pauses (yields None) when ``play_turn`` drives it, and takes the mark
    copies replay from. The common turn is inline: this is the hot loop of every simulation."""
    if not game.started:
        set_out(game)
    doubles_limit = game._doubles_limit
    two = game._two_dice
    passing = game.tables.has_pass_triggers
    act_of = game._act
    record_turn, record_to_move, next_turn, roll_and_move = (writes.turn, writes.to_move, writes.next_turn,
                                                             writes.roll_and_move)
    n = game.players
    t = game.tables
    size, go, salary = t.size, t.go, game.rules.salary
    fixed, rnd, sides = game._fixed_dice, game._random, game._sides
    on_roll, on_turn_start, on_turn_end = t.on_roll, t.on_turn_start, t.on_turn_end
    jailing = t.jail_triggers
    special = t.dice  # dice with an extra die or their own doubles (game/dice.py): not the inline path
    # the common board: two dice, which never take a token past the go space twice
    plain_dice = two and not passing and not on_roll and special is None and 2 * sides <= size
    landing_of = t.landing
    # The state's lists, changed in place by the writers (GameState.put, which replaces them, starts a new
    # loop).
    position, owner, cash = game.position, game.owner, game.cash
    bankrupt, jail_turns = game.bankrupt, game.jail_turns
    begun = False  # the turn's event already recorded with the seat to move (writes.next_turn)
    events, event_limit = game.events, MAX_GAME_EVENTS
    between, others, between_of, answers = game._between_all, game._others, game._between, game._answers
    quiet_answers = (None,) * (n - 1)  # the others' answers when every one is quiet and still in the game
    # a game of the time-limit rules ends when a round limit is reached: no chance to act before that
    round_limit = game.rules.end.rounds if game.rules.end.when == "time" else 0
    while not game.finished:
        if begun:
            begun = False
        else:
            if game._pause_between_turns:
                yield None
            if game._mark_each_turn:
                game.take_mark()
            record_turn(game, game.turn + 1, game.round, game.current)
        p = game.current
        if on_turn_start:
            yield from cards.fire(game, "turn_start", on_turn_start, p)
        if on_turn_start and (bankrupt[p] or game.finished):
            pass  # the turn's trigger ended the player or the game
        elif jail_turns[p] < 0 or (yield from jail_start(game, p)):
            doubles = 0
            while True:
                dice: tuple[int, ...]
                if plain_dice and not fixed:
                    # _roll and _step inline, the roll and the move one call: the hottest lines of a
                    # simulation (the same dice formula as _roll, the same test as movement.passes_go)
                    d1 = int(rnd() * sides) + 1
                    d2 = int(rnd() * sides) + 1
                    dice = (d1, d2)
                    old = position[p]
                    s = (old + d1 + d2) % size
                    passed = go >= 0 and (go - old - 1) % size < d1 + d2
                    is_double = d1 == d2
                    if is_double:
                        doubles += 1
                        if doubles == doubles_limit:
                            writes.roll(game, p, dice)
                            if jailing:
                                yield from jailed(game, p, "doubles")
                            else:
                                movement.send_to_jail(game, p, "doubles")
                            break
                    game._chain = 0
                    roll_and_move(game, p, dice, old, s, passed)
                    if passed and salary:
                        payment(game, BANK, p, salary, "salary")
                elif special is not None:
                    doubles = yield from special_roll(game, p, doubles, special)
                    if doubles < 0:
                        break
                    continue
                else:
                    dice = movement.roll(game)
                    if on_roll:  # the roll's triggers, before the move
                        yield from cards.fire(game, "roll", on_roll, p)
                        if game.finished or bankrupt[p] or jail_turns[p] >= 0:
                            break
                    is_double = dice[0] == dice[1] if two else movement.all_same(dice)
                    if is_double:
                        doubles += 1
                        if doubles == doubles_limit:
                            if jailing:
                                yield from jailed(game, p, "doubles")
                            else:
                                movement.send_to_jail(game, p, "doubles")
                            break
                    game._chain = 0
                    if passing:
                        yield from movement.forward(game, p, dice[0] + dice[1] if two else sum(dice))
                    else:
                        movement.step(game, p, dice[0] + dice[1] if two else sum(dice))
                    s = position[p]
                # the landing: nothing to do, one's own lot and a rent in hand without a call to landing.land
                landing = landing_of[s]
                if landing == OWNABLE:
                    o = owner[s]
                    if o != p:
                        rent = rent_owed(game, p, s, None) if o >= 0 else -1
                        if rent < 0 or rent > cash[p]:  # to buy, or a rent to raise
                            yield from land(game, p, None)
                        elif rent:
                            payment(game, p, o, rent, "rent")
                elif landing != QUIET:
                    yield from land(game, p, None)
                if not is_double or jail_turns[p] >= 0 or bankrupt[p] or game.finished:
                    break
        if not bankrupt[p] and not game.finished:
            direct = game._direct
            if direct is None:
                action = yield act_of[p]
            else:  # play() drives: its agent is asked here (what _ask_direct does, inline: once every turn)
                decision = game._waiting = act_of[p]
                try:
                    action = direct[p]["act"](game, p)
                except BaseException as exc:
                    game._raised = exc
                    action = yield decision
                else:
                    game._answers.append(action)
            if action is not None:
                yield from between_turns(game, p, action)
            if on_turn_end and not bankrupt[p] and not game.finished:
                yield from cards.fire(game, "turn_end", on_turn_end, p)
        if not game.finished:
            # The next seat still playing; a new round when every seat still playing has had its turn. The
            # round is counted first, so that a round limit ends the game right after it.
            seat = p + 1 if p + 1 < n else 0
            while bankrupt[seat]:
                seat = (seat + 1) % n
            if between and game.turn < game.turn_cap and not game.clock_out and not (
                    round_limit and game.round + (seat <= p) >= round_limit):
                # Every other player still in the game may build, sell, mortgage, lift mortgages and offer
                # trades before the next turn (the rules' "at any time"), in turn order from the next to
                # move: the decision `between` (none when the game ends here). A seat whose agent never
                # acts out of turn (decisions.QUIET) is answered None without a call while play() drives.
                if game._direct is not None and game._quiet_all and not game.bankrupt_order:
                    answers.extend(quiet_answers)  # nobody acts out of turn: all in one
                else:
                    for q in others[p]:
                        if bankrupt[q]:
                            continue
                        decision = between_of[q][seat]
                        direct = game._direct  # play() may stop (an agent raised) or start within the phase
                        if direct is None:
                            action = yield decision
                        else:
                            ask = game._between_asks[q]
                            if ask is None:
                                answers.append(None)
                                continue
                            game._waiting = decision
                            try:
                                action = ask(game, q, seat)
                            except BaseException as exc:
                                game._raised = exc
                                action = yield decision
                            else:
                                answers.append(action)
                        if action is not None:
                            yield from between_turns(game, q, action, decision)
                            if game.finished or game.clock_out:
                                break
                            while bankrupt[seat]:  # an action's trigger may have ended the next to move
                                seat = (seat + 1) % n
                    if game.finished:
                        break
            if seat > p:
                round_ = game.round
            else:  # a new round; the record's size is looked at here, once a round (effects look at each step)
                round_ = game.round + 1
                if len(events) >= event_limit and out_of_events(game):
                    break
            # A last-standing game ends at a bankruptcy (money.bankrupt checks) or at the turn cap: between
            # turns only the cap and the other ends (a number of bankruptcies, the time) are checked.
            if game._end_each_turn or game.turn >= game.turn_cap:
                record_to_move(game, seat, round_)
                check_end(game)
            elif game._pause_between_turns or game._mark_each_turn:
                record_to_move(game, seat, round_)
            else:  # nothing between the two turns: the seat to move and its turn, in one call
                next_turn(game, seat, round_, game.turn + 1)
                begun = True


def special_roll(game: Core, p: int, doubles: int, d: Dice) -> Steps:
    """One roll to move with dice of their own (game/dice.py): the counted dice and, when its condition
    holds, the extra die. A triple does its effect in place of the move, is no doubles and ends the rolls; a
    number adds to the move; a symbol's effect replaces the move (``instead``) or follows its landing
    (``after``). Returns the doubles in a row so far, or -1 when the player rolls no more this turn."""
    fixed: tuple[Any, ...] = game._fixed_dice[0] if game._fixed_dice else ()  # numbers and symbols
    dice = movement.counted_dice(game)
    extra: tuple[int | str, ...] = ()
    if d.thrown(game, p):
        extra = (fixed[len(dice)],) if len(fixed) > len(dice) else (d.face(game._random),)
    writes.roll(game, p, dice, extra)
    on_roll = game.tables.on_roll
    if on_roll:  # the roll's triggers, before the move
        yield from cards.fire(game, "roll", on_roll, p)
        if game.finished or game.bankrupt[p] or game.jail_turns[p] >= 0:
            return -1
    face = extra[0] if extra else None
    if d.triples is not None and type(face) is int and all(die == face for die in dice):
        game._chain = 0
        yield from d.triples(game, p, None)
        return -1
    is_double = d.doubles(dice)
    if is_double:
        doubles += 1
        if doubles == game._doubles_limit:
            if game.tables.jail_triggers:
                yield from jailed(game, p, "doubles")
            else:
                movement.send_to_jail(game, p, "doubles")
            return -1
    game._chain = 0
    instead = d.instead.get(face) if type(face) is str else None
    if instead is not None:
        yield from instead(game, p, None)
    else:
        yield from movement.forward(game, p, sum(dice) + (face if type(face) is int else 0))
        if game.tables.landing[game.position[p]] != QUIET:
            yield from land(game, p, None)
    after = d.after.get(face) if type(face) is str else None
    if after is not None and free(game, p):
        yield from after(game, p, None)
    return doubles if is_double and free(game, p) else -1


def set_out(game: Core) -> None:
    """Set the game out: the decks shuffled (the ``game_start`` event), the starting cash paid, the deeds dealt
    by the rules, then the triggers on the game's start, answered at once (once: ``Game.start``)."""
    rng = game.rng
    orders = []
    for key, deck in game.decks.items():
        order = list(deck)
        rng.shuffle(order)
        orders.append((key, tuple(order)))
    writes.game_start(game, game.ruleset.id, tuple(game.ruleset.variants), game.seed, game.max_turns,
                      tuple(agent_name(a) for a in game.agents), RULES_VERSION, LOG_VERSION, tuple(orders))
    start = game.ruleset.starting_cash
    for seat in range(game.players):
        payment(game, BANK, seat, start, "starting cash")
    deal = game.rules.deal_deeds
    if deal:
        deeds = list(game.tables.ownable)
        rng.shuffle(deeds)
        free = game.rules.deeds_free
        every = deal == "all"  # round after round until every deed is dealt, or none left can be paid for
        misses = 0
        for _ in range(len(deeds) if every else int(deal)):
            for seat in range(game.players):
                if not deeds:
                    break
                space = deeds.pop()
                if not free and game.cash[seat] < game.tables.price[space]:
                    deeds.insert(0, space)  # this seat cannot pay for it: it stays with the bank
                    misses += 1
                    continue
                if not free:
                    payment(game, seat, BANK, game.tables.price[space], "deed")
                set_owner(game, space, seat, "deal")
                misses = 0
            if every and (not deeds or misses >= len(deeds) * game.players):
                break
    started = game.tables.on_event.get("game_start")
    if started:  # once the game is set out (what it asks, if anything, the seated agents answer at once)
        game.carry_out(cards.fire(game, "game_start", started, game.current))
