"""Effect AST -> plain Python closures, once per ruleset load.

A compiled effect is ``run(game, player, card)``, a generator: it yields the
decisions its player is asked (a ``choose:``, a purchase after a move, a debt
to raise) and the game sends the answers back. It only calls the small set of
primitives below on ``game`` (the play side implements them; those marked *
are generators too); names were resolved to board indexes here, so nothing is
looked up or parsed while playing.

Primitives a game provides::

    gain(p, amount, reason)              the bank pays p
  * pay_fee(p, amount, reason)           p pays the bank (or the pot, by the rules)
  * collect_from_each(p, amount, reason) every other player pays p
  * pay_each(p, amount, reason)          p pays every other player
  * collect_pot(p)                       p takes the pot (and the triggers on taking it run)
  * advance_to(p, targets, rent)         forward to the nearest of `targets`; rent is None,
                                         ("x", n) or ("dice", n)
  * go_back_to(p, targets)               backwards to the nearest of `targets` behind p
  * move_by(p, steps)                    steps forward (or back when negative)
  * go_to_jail(p)                        p goes to jail (and the triggers on it run)
  * pay_to_pot(p, amount, reason)        p pays the pot
    keep_card(p, card)                   p holds the card being resolved
  * draw_card(p, deck)                   p draws from that deck and resolves the card
  * choose(p, options, costs, landings) -> int  p picks one of the option texts (costs: what each costs p now;
                                         landings: where each would move p's token first, None for no move)
  * pay_player(p, to, amount, reason)    p pays seat `to` (nobody, -1: the bank)
  * collect_from(p, source, amount, reason)  seat `source` pays p (nobody, -1: the bank)
    add_to_pot(amount, reason)           the bank puts money in the pot
    roll_afresh(p)                       p throws the dice afresh (a `roll` event; nobody moves)
    set_variable(index, name, value)     a variable of the game (``game.variables[index]``) takes ``value``
    houses_of(p), hotels_of(p), count_owned(p, indexes), net_worth(p), rent_due(space)
    cash, owner, position, pot, round, last_roll, last_extra, variables  read by the expressions
    event_amount                         the money of the event whose triggers run (`amount`)
    chosen                               the seat a statement's `a player you choose` names (-1: none yet)
    rent_here                            in a kind's rent: the lot being rented (``game.rent.RentHere``: its
                                         level, how many of its group its owner has, its figures)
    bankrupt, finished, jail_turns       a sequence stops when its player went bankrupt or to jail,
                                         or the game ended
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

import attrs

from . import ast
from .host import MAX_GAME_EVENTS

#: A compiled effect: called with (game, player, card), it returns the generator that carries it out.
Run = Callable[[Any, int, Any], Generator[Any, Any, None]]
AmountFn = Callable[[Any, int], int]


class Names:
    """Board facts the compiler needs: name -> indexes, kind or group -> indexes (and a kind by its plural, a
    group by its key alone, for the counts); and how the rules round a fraction (``rules.rounding``)."""

    def __init__(self, board: Any, rounding: str = "down", variables: tuple[str, ...] = (),
                 rules: dict[str, Any] | None = None, *, extra_die: bool = False,
                 doubles: tuple[int, ...] | None = None):
        if rounding not in ROUNDINGS:
            raise ValueError(f"rounding is one of {sorted(ROUNDINGS)}, not {rounding!r}")
        self.board = board
        self.rounding = rounding
        self.divide = ROUNDINGS[rounding]
        self.by_name: dict[str, tuple[int, ...]] = {}
        self.by_kind_or_group: dict[str, tuple[int, ...]] = {}
        self.by_plural: dict[str, tuple[int, ...]] = {}
        self.by_group: dict[str, tuple[int, ...]] = {}
        #: whether the ruleset throws an extra die (`dice` adds its number), and which dice make doubles (their
        #: places in the throw) when not every counted die does
        self.extra_die = extra_die
        self.doubles = doubles
        self.by_kind_or_group["lot"] = tuple(space.index for space in board if space.ownable)
        #: the game's variables by name: their place in ``game.variables``
        self.variables = {name: index for index, name in enumerate(variables)}
        #: the numbers of the rules by path (``rules.salary``: 200), read by `rules.` expressions
        self.rules = dict(rules or {})
        for space in board:
            self.by_name.setdefault(space.name, ())
            self.by_name[space.name] += (space.index,)
            for key in (space.kind, space.group):
                if key is not None:
                    self.by_kind_or_group.setdefault(key, ())
                    self.by_kind_or_group[key] += (space.index,)
            kind = ast.plural(space.kind)
            self.by_plural[kind] = self.by_plural.get(kind, ()) + (space.index,)
            if space.group is not None:
                self.by_group[space.group] = self.by_group.get(space.group, ()) + (space.index,)


def _down(a: int, b: int) -> int:
    return a // b


def _up(a: int, b: int) -> int:
    return -(-a // b)


def _nearest(a: int, b: int) -> int:
    """a / b to the nearest whole number, a half up (towards the larger number)."""
    return (2 * a + b) // (2 * b)


#: ``rules.rounding`` -> how a fraction (``a / b``, ``N% of a``) becomes a whole number; b is never 0.
ROUNDINGS: dict[str, Callable[[int, int], int]] = {"down": _down, "up": _up, "nearest": _nearest}


def compile_condition(condition: ast.Condition, names: Names) -> Callable[[Any, int], bool]:
    """The test for one condition (a permission of the ruleset, a trigger's `if:`): a function of (game, player)
    -> bool."""
    return _condition(condition, names)


def compile_number(number: ast.Amount, names: Names) -> AmountFn:
    """The function of (game, player) for a number alone (a kind's rent), kept within 0 and :data:`LIMIT`."""
    return _amount(number, names)


def compile_effect(effect: ast.Effect, names: Names, reason: str) -> Run:
    """The closure for one effect; ``reason`` labels the payments it makes (e.g. a card's text)."""
    if effect.is_choice:
        return _choice(effect.alternatives, names, reason)
    assert isinstance(effect.body, ast.Sequence)
    return _sequence(effect.body, names, reason)


def _choice(alternatives: tuple[ast.Sequence, ...], names: Names, reason: str) -> Run:
    """`choose: A | B` (a whole effect) or `(choose: A | B)` (a statement): the player picks one alternative (a
    ``choose`` decision, each priced and, where it moves the token first, placed), which then happens."""
    options = tuple(option.to_text() for option in alternatives)
    branches = tuple(_sequence(option, names, reason) for option in alternatives)
    costs = tuple(_cost(option, names) for option in alternatives)
    landings = tuple(_landing(option, names) for option in alternatives)
    if not any(landings):
        landings = ()
    worth = any(reads_worth(statement.amount) for option in alternatives for statement in option.statements
                if isinstance(statement, _MONEY))  # an alternative that pays by a worth, whatever happens

    def run_choice(game: Any, p: int, card: Any) -> Generator[Any, Any, None]:
        chosen = yield from game.choose(p, options, costs, landings, worth)
        yield from branches[chosen](game, p, card)

    return run_choice


def _sequence(sequence: ast.Sequence, names: Names, reason: str) -> Run:
    steps = tuple(_statement(statement, names, reason) for statement in sequence.statements)
    if len(steps) == 1:
        return steps[0]
    limit = MAX_GAME_EVENTS

    def run_all(game: Any, p: int, card: Any) -> Generator[Any, Any, None]:
        free = game.jail_turns[p] < 0  # a trigger on going to jail, or on a jailed player's turn, runs in jail
        for step in steps:
            if game.bankrupt[p] or game.finished or (free and game.jail_turns[p] >= 0) or \
                    (len(game.events) >= limit and game.out_of_events()):
                return  # bankrupt, game over, sent to jail, or the game's record full: the rest does not happen
            yield from step(game, p, card)

    return run_all


def _asks_nobody(do: Callable[[Any, int, Any], None]) -> Run:
    """A statement that asks nobody anything, as an effect (a generator that yields nothing)."""
    def run(game: Any, p: int, card: Any) -> Generator[Any, Any, None]:
        do(game, p, card)
        yield from ()

    return run


def _statement(statement: Any, names: Names, reason: str) -> Run:
    if isinstance(statement, ast.EveryPlayer):
        return _every_player(_sequence(statement.body, names, reason))
    if isinstance(statement, ast.ChooseStatement):
        return _choice(statement.options, names, reason)
    if not isinstance(statement, ast.If) and mentions_chosen(statement):
        return _with_chosen_player(statement, names, reason)
    return _plain_statement(statement, names, reason)


def _plain_statement(statement: Any, names: Names, reason: str) -> Run:
    if isinstance(statement, ast.Collect):
        amount = _amount(statement.amount, names)
        if statement.from_each_player:
            return lambda game, p, card: game.collect_from_each(p, amount(game, p), reason)
        return _asks_nobody(lambda game, p, card: game.gain(p, amount(game, p), reason))
    if isinstance(statement, ast.Pay):
        amount = _amount(statement.amount, names)
        if statement.to_each_player:
            return lambda game, p, card: game.pay_each(p, amount(game, p), reason)
        return lambda game, p, card: game.pay_fee(p, amount(game, p), reason)
    if isinstance(statement, ast.CollectPot):
        return lambda game, p, card: game.collect_pot(p)
    if isinstance(statement, (ast.AdvanceTo, ast.GoBackTo)) and isinstance(statement.target, ast.ChosenTarget):
        return _to_chosen_space(statement, names)
    if isinstance(statement, (ast.AdvanceTo, ast.GoBackTo)) and isinstance(statement.target, ast.NearestTarget) \
            and statement.target.dynamic:
        return _to_nearest_now(statement, names)
    if isinstance(statement, ast.AdvanceTo):
        targets = _targets(statement.target, names)
        rent = _rent(statement.rent)
        return lambda game, p, card: game.advance_to(p, targets, rent)
    if isinstance(statement, ast.GoBackTo):
        targets = _targets(statement.target, names)
        return lambda game, p, card: game.go_back_to(p, targets)
    if isinstance(statement, ast.Roll):
        return _asks_nobody(lambda game, p, card: game.roll_afresh(p))
    if isinstance(statement, ast.Move):
        steps = statement.steps
        return lambda game, p, card: game.move_by(p, steps)
    if isinstance(statement, ast.MoveBy):
        return _move_by(statement, names)
    if isinstance(statement, ast.GoToJail):
        return lambda game, p, card: game.go_to_jail(p)
    if isinstance(statement, ast.Keep):
        return _asks_nobody(lambda game, p, card: game.keep_card(p, card))
    if isinstance(statement, ast.Draw):
        deck = statement.deck
        return lambda game, p, card: game.draw_card(p, deck)
    if isinstance(statement, ast.PayTo):
        amount, to = _amount(statement.amount, names), _player(statement.to, names)
        return lambda game, p, card: game.pay_player(p, to(game, p), amount(game, p), reason)
    if isinstance(statement, ast.CollectFrom):
        amount, source = _amount(statement.amount, names), _player(statement.source, names)
        return lambda game, p, card: game.collect_from(p, source(game, p), amount(game, p), reason)
    if isinstance(statement, (ast.SetVariable, ast.AddToVariable)):
        amount, index, name = _amount(statement.amount, names), names.variables[statement.name], statement.name
        if isinstance(statement, ast.SetVariable):
            return _asks_nobody(lambda game, p, card: game.set_variable(index, name, amount(game, p)))
        return _asks_nobody(lambda game, p, card: game.set_variable(
            index, name, min(game.variables[index] + amount(game, p), LIMIT)))
    if isinstance(statement, ast.AddToPot):
        amount = _amount(statement.amount, names)
        return _asks_nobody(lambda game, p, card: game.add_to_pot(amount(game, p), reason))
    if isinstance(statement, ast.PayToPot):
        amount = _amount(statement.amount, names)
        return lambda game, p, card: game.pay_to_pot(p, amount(game, p), reason)
    if isinstance(statement, ast.If):
        test = _condition(statement.condition, names)
        then = _sequence(statement.then, names, reason)
        otherwise = _sequence(statement.otherwise, names, reason) if statement.otherwise is not None else None

        def run_if(game: Any, p: int, card: Any) -> Generator[Any, Any, None]:
            if test(game, p):
                yield from then(game, p, card)
            elif otherwise is not None:
                yield from otherwise(game, p, card)

        return run_if
    raise TypeError(f"no compiler for {type(statement).__name__}")  # the AST has no other statements


def _every_player(body: Run) -> Run:
    """`every player: S`: S for each player still in the game, in seat order from ``p``, each as `you` (a
    player bankrupt on the way is passed over; the game's end stops it)."""
    limit = MAX_GAME_EVENTS

    def run_every(game: Any, p: int, card: Any) -> Generator[Any, Any, None]:
        n = game.players
        for step in range(n):
            seat = (p + step) % n
            if game.finished or (len(game.events) >= limit and game.out_of_events()):
                return
            if not game.bankrupt[seat]:
                yield from body(game, seat, card)

    return run_every


def mentions_chosen(node: object) -> bool:
    """Whether a statement names `a player you choose` (as who pays or is paid, or inside one of its numbers);
    an `if`'s branches are statements of their own."""
    if isinstance(node, ast.Ref):
        return node.name == "chosen" and not node.space
    if isinstance(node, tuple):
        return any(mentions_chosen(part) for part in node)
    kind = type(node)
    if attrs.has(kind) and not isinstance(node, (ast.If, ast.EveryPlayer, ast.ChooseStatement)):
        return any(mentions_chosen(getattr(node, field.name)) for field in attrs.fields(kind))
    return False


def reads_worth(node: object) -> bool:
    """Whether an effect's part reads a player's net worth (`10% of net worth`, `net worth of owner`): what a
    choice between alternatives cannot be priced by without the chooser's worth (Game.option_costs)."""
    return any(isinstance(part, ast.PercentOfNetWorth) or (isinstance(part, ast.Quantity) and part.name == "net_worth")
               for part in ast.nodes(node))


def _others(game: Any, p: int) -> list[int]:
    return [seat for seat in range(game.players) if seat != p and not game.bankrupt[seat]]


def _with_chosen_player(statement: Any, names: Names, reason: str) -> Run:
    """A statement naming `a player you choose` (`pay 50 to a player you choose`, `collect 10% of cash of a
    player you choose from a player you choose`): the player picks one of the others still in the game (a
    ``choose`` decision between the statement as written with `player 2`, ... in seat order; with one other,
    no question), and every `a player you choose` of the statement is that one player (``game.chosen``
    while the statement runs)."""
    inner = _plain_statement(statement, names, reason)
    written = statement.to_text()
    cost = _money_cost(statement, names) if isinstance(statement, _MONEY) else _free
    worth = isinstance(statement, _MONEY) and reads_worth(statement.amount)

    def run_chosen(game: Any, p: int, card: Any) -> Generator[Any, Any, None]:
        others = _others(game, p)
        if not others:
            return
        chosen = 0
        if len(others) > 1:
            options = tuple(written.replace(ast.PLAYER_REFS["chosen"], f"player {seat + 1}") for seat in others)
            costs = tuple(_bound_to(cost, seat) for seat in others)
            chosen = yield from game.choose(p, options, costs, (), worth)
        saved, game.chosen = game.chosen, others[chosen]
        try:
            yield from inner(game, p, card)
        finally:
            game.chosen = saved

    return run_chosen


def _bound_to(amount: AmountFn, seat: int) -> AmountFn:
    """``amount`` worked out with ``seat`` as the chosen player."""
    def bound(game: Any, p: int) -> int:
        saved, game.chosen = game.chosen, seat
        try:
            return amount(game, p)
        finally:
            game.chosen = saved

    return bound


def _to_chosen_space(statement: ast.AdvanceTo | ast.GoBackTo, names: Names) -> Run:
    """`advance to a space you choose`, `go back to a space you choose`: the player picks a space by its name
    (a ``choose`` decision between `advance to "GO"`, ... in board order, one a name), then moves as if the
    effect named it."""
    forward = isinstance(statement, ast.AdvanceTo)
    rent = _rent(statement.rent) if isinstance(statement, ast.AdvanceTo) else None
    suffix = f" {statement.rent.to_text()}" if isinstance(statement, ast.AdvanceTo) and statement.rent else ""
    verb = "advance to" if forward else "go back to"
    spaces = tuple(names.by_name)  # board order: a dict keeps the order its names were met
    options = tuple(f'{verb} "{name}"{suffix}' for name in spaces)
    targets = tuple(names.by_name[name] for name in spaces)
    costs = (_free,) * len(spaces)
    landings = tuple(_at(indexes[0]) for indexes in targets)

    def run_chosen(game: Any, p: int, card: Any) -> Generator[Any, Any, None]:
        chosen = (yield from game.choose(p, options, costs, landings)) if len(options) > 1 else 0  # one name
        if forward:
            yield from game.advance_to(p, targets[chosen], rent)
        else:
            yield from game.go_back_to(p, targets[chosen])

    return run_chosen


def _to_nearest_now(statement: ast.AdvanceTo | ast.GoBackTo, names: Names) -> Run:
    """`advance to nearest unowned lot or nearest unmortgaged lot owned by another player`: the spaces each
    alternative means are found when it happens (owners, mortgages); the first alternative with a space is taken,
    and when none has one, nobody moves."""
    parts: list[tuple[tuple[int, ...], str | None, bool]] = []
    target: ast.NearestTarget | None = statement.target  # type: ignore[assignment]
    while target is not None:
        parts.append((names.by_kind_or_group[target.name], target.filter, target.others))
        target = target.otherwise
    forward = isinstance(statement, ast.AdvanceTo)
    rent = _rent(statement.rent) if isinstance(statement, ast.AdvanceTo) else None

    def run_nearest(game: Any, p: int, card: Any) -> Generator[Any, Any, None]:
        for spaces in (_kept(game, p, indexes, kept, others) for indexes, kept, others in parts):
            if spaces:
                if forward:
                    yield from game.advance_to(p, spaces, rent)
                else:
                    yield from game.go_back_to(p, spaces)
                return

    return run_nearest


def _kept(game: Any, p: int, indexes: tuple[int, ...], kept: str | None, others: bool) -> tuple[int, ...]:
    """The spaces of ``indexes`` a filtered `nearest` means now (a lot owned by another: a player still in the
    game other than ``p``)."""
    owner, mortgaged = game.owner, game.mortgaged
    found = tuple(s for s in indexes
                  if (kept != "unowned" or owner[s] < 0) and (kept != "unmortgaged" or not mortgaged[s])
                  and (not others or (owner[s] >= 0 and owner[s] != p)))
    if kept == "unmortgaged" and others:  # another's lot not mortgaged: one where a rent would be charged
        return tuple(s for s in found if game.charges_rent(p, s))
    return found


def _move_by(statement: ast.MoveBy, names: Names) -> Run:
    """`move forward N spaces` / `go back N spaces`: N worked out now, at most MOVE_MAX; 0 moves nothing."""
    count, sign = _amount(statement.count, names), 1 if statement.forward else -1

    def run_move(game: Any, p: int, card: Any) -> Generator[Any, Any, None]:
        steps = min(count(game, p), ast.MOVE_MAX)
        if steps:
            yield from game.move_by(p, sign * steps)

    return run_move


def _cost(sequence: ast.Sequence, names: Names) -> AmountFn:
    """What an alternative costs the player in cash now: payments less collections (moves and draws: 0; an
    `if`, the branch its condition takes now)."""
    parts: list[AmountFn] = []
    for statement in sequence.statements:
        if isinstance(statement, _MONEY):
            parts.append(_money_cost(statement, names))
        elif isinstance(statement, ast.If):
            parts.append(_if_cost(statement, names))

    if not parts:
        return _free
    if len(parts) == 1:
        return parts[0]

    def cost(game: Any, p: int) -> int:
        total = 0
        for part in parts:
            total += part(game, p)
        return total

    return cost


#: The statements that move money between the player and someone (what a choice's alternative costs).
_MONEY = (ast.Pay, ast.Collect, ast.PayTo, ast.CollectFrom, ast.PayToPot)


#: Where an alternative first moves the player's token now (a space index), or None when it does not move.
LandingFn = Callable[[Any, int], "int | None"]


def _landing(sequence: ast.Sequence, names: Names) -> LandingFn | None:
    """Where an alternative that starts with a move by a number takes the token (`move 3`, `move forward die 1
    spaces`, as a bot weighs the speed die's Bus); None for any other alternative (the game cannot say)."""
    first = sequence.statements[0]
    if isinstance(first, ast.Move):
        steps = first.steps
        return lambda game, p: None if game.jail_turns[p] >= 0 else (game.position[p] + steps) % len(game.owner)
    if isinstance(first, ast.MoveBy):
        count, sign = _raw_amount(first.count, names), 1 if first.forward else -1

        def moved(game: Any, p: int) -> int | None:
            steps = min(max(count(game, p), 0), ast.MOVE_MAX)
            if game.jail_turns[p] >= 0 or not steps:
                return None
            return int((game.position[p] + sign * steps) % len(game.owner))

        return moved
    return None


def _at(index: int) -> LandingFn:
    return lambda game, p: index


def _free(game: Any, p: int) -> int:
    return 0


def _if_cost(statement: ast.If, names: Names) -> AmountFn:
    test, then = _condition(statement.condition, names), _cost(statement.then, names)
    otherwise = _cost(statement.otherwise, names) if statement.otherwise is not None else _free
    return lambda game, p: then(game, p) if test(game, p) else otherwise(game, p)


def _money_cost(statement: Any, names: Names) -> AmountFn:
    """What a payment statement costs its player now (a collection: less than nothing). A statement naming `a
    player you choose` costs, before the choice, the most any choice would (``game.chosen`` at -1)."""
    plain = _plain_money_cost(statement, names)
    if not mentions_chosen(statement):
        return plain

    def most(game: Any, p: int) -> int:
        if game.chosen >= 0:
            return plain(game, p)
        return max((_bound_to(plain, seat)(game, p) for seat in _others(game, p)), default=0)

    return most


def _plain_money_cost(statement: Any, names: Names) -> AmountFn:
    amount = _amount(statement.amount, names)
    sign = 1 if isinstance(statement, (ast.Pay, ast.PayTo, ast.PayToPot)) else -1
    if getattr(statement, "to_each_player", False) or getattr(statement, "from_each_player", False):
        def each(game: Any, p: int) -> int:
            others = sum(1 for o in range(game.players) if o != p and not game.bankrupt[o])
            return sign * amount(game, p) * others

        return each
    if isinstance(statement, (ast.PayTo, ast.CollectFrom)):
        party = _player(statement.to if isinstance(statement, ast.PayTo) else statement.source, names)
        return lambda game, p: 0 if party(game, p) == p else sign * amount(game, p)
    return lambda game, p: sign * amount(game, p)


def _targets(target: Any, names: Names) -> tuple[int, ...]:
    if isinstance(target, ast.NearestTarget):
        return names.by_kind_or_group.get(target.name, ())  # none (the checker reports it): nobody moves
    return names.by_name[target.name]


def _rent(rent: Any) -> tuple[str, int] | None:
    if rent is None:
        return None
    if isinstance(rent, ast.RentMultiplier):
        return ("x", rent.factor)
    return ("dice", rent.multiple)


def _amount(amount: ast.Amount, names: Names) -> AmountFn:
    """The amount of money a statement moves: never below 0 (an expression that comes out below nothing
    moves nothing), never above :data:`LIMIT`."""
    constant = amount.constant
    if constant is not None:
        return lambda game, p: constant
    raw = _raw_amount(amount, names)
    return lambda game, p: min(max(raw(game, p), 0), LIMIT)


#: The largest number an expression holds (every step is kept within plus or minus this, so no effect can
#: make numbers that take long to work with).
LIMIT = 10**12


def _bounded(value: int) -> int:
    return LIMIT if value > LIMIT else -LIMIT if value < -LIMIT else value


def _number(node: Any, names: Names) -> AmountFn:
    """A number expression as a function of (game, player)."""
    if isinstance(node, ast.TERM_TYPES):
        return _term(node, names)
    if isinstance(node, ast.Quantity):
        return _quantity(node, names)
    if isinstance(node, ast.Owned):
        return _owned(node, names)
    if isinstance(node, ast.Die):
        index = node.number - 1
        return lambda game, p: _die(game, index)
    if isinstance(node, ast.Arith):
        left, right = _number(node.left, names), _number(node.right, names)
        if node.op == "+":
            return lambda game, p: _bounded(left(game, p) + right(game, p))
        if node.op == "-":
            return lambda game, p: _bounded(left(game, p) - right(game, p))
        if node.op == "x":
            return lambda game, p: _bounded(left(game, p) * right(game, p))
        if names.rounding == "down":  # the classic rule, inline
            return lambda game, p: _divided_down(left(game, p), right(game, p))
        divide = names.divide
        return lambda game, p: _divided(left(game, p), right(game, p), divide)
    if isinstance(node, ast.Extreme):
        args = tuple(_number(arg, names) for arg in node.args)
        pick = min if node.fn == "min" else max
        return lambda game, p: pick(arg(game, p) for arg in args)
    if isinstance(node, ast.PercentOf):
        percent, of, divide = node.percent, _number(node.of, names), names.divide
        if names.rounding == "down":
            return lambda game, p: of(game, p) * percent // 100
        return lambda game, p: divide(of(game, p) * percent, 100)
    if isinstance(node, ast.IfNumber):
        test = _condition(node.condition, names)
        then, otherwise = _raw_amount(node.then, names), _raw_amount(node.otherwise, names)
        return lambda game, p: then(game, p) if test(game, p) else otherwise(game, p)
    if isinstance(node, ast.Figure):
        return _figure(node, names)
    if isinstance(node, ast.RuleValue):
        value = int(names.rules.get(node.path, 0))
        return lambda game, p: value
    if isinstance(node, ast.Name) and node.name in names.variables:
        index = names.variables[node.name]
        return lambda game, p: game.variables[index]
    raise TypeError(f"no number for {node.to_text() if hasattr(node, 'to_text') else node!r}: the checker "
                    "reports an unknown quantity before anything is compiled")


def _die(game: Any, index: int) -> int:
    """The number die ``index`` (from 0: the counted dice, then the extra die) shows now; 0 for a symbol or a die
    not thrown."""
    roll = game.last_roll
    if index < len(roll):
        return int(roll[index])
    extra = game.last_extra
    index -= len(roll)
    face = extra[index] if index < len(extra) else 0
    return face if type(face) is int else 0
def _figure(node: ast.Figure, names: Names) -> AmountFn:
    """`figure N` (from 1), `last figure`: of the lot being rented (none there: 0; the checker reports a figure
    past the end of a lot's list before anything is played)."""
    if node.index is None:
        return lambda game, p: _last_figure(game.rent_here.figures)
    index = _number(node.index, names)
    return lambda game, p: _nth_figure(game.rent_here.figures, index(game, p))


def _last_figure(figures: tuple[int, ...]) -> int:
    return figures[-1] if figures else 0


def _nth_figure(figures: tuple[int, ...], n: int) -> int:
    return figures[n - 1] if 1 <= n <= len(figures) else 0


def _divided_down(left: int, right: int) -> int:
    return left // right if right else 0


def _divided(left: int, right: int, divide: Callable[[int, int], int]) -> int:
    """Division rounds as the rules say; by 0 it gives 0 (an effect never stops a game)."""
    return divide(left, right) if right else 0


def _quantity(node: ast.Quantity, names: Names) -> AmountFn:
    name = node.name
    if name == "pot":
        return lambda game, p: game.pot
    if name == "dice":
        if names.extra_die:  # the number an extra die shows adds to the total (a symbol: nothing)
            return lambda game, p: sum(game.last_roll) + sum(f for f in game.last_extra if type(f) is int)
        return lambda game, p: sum(game.last_roll)
    if name == "round":
        return lambda game, p: game.round
    if name == "players_left":
        return lambda game, p: game.bankrupt.count(False)
    if name == "salary":
        return lambda game, p: game.rules.salary
    if name == "amount":
        return lambda game, p: game.event_amount
    if name == "level":
        return lambda game, p: game.rent_here.level
    if name == "owned_in_group":
        return lambda game, p: game.rent_here.owned
    takes = ast.QUANTITIES[name][1]
    if takes == "space":
        assert node.of is not None
        space = _space(node.of, names)
        board = names.board[space]
        if name == "price":
            price = board.price or 0
            return lambda game, p: price
        if name == "mortgage_value":
            value = board.mortgage or 0
            return lambda game, p: value
        return lambda game, p: game.rent_due(space)
    who = _player(node.of, names) if node.of is not None else _you
    if name == "cash":
        return lambda game, p: _of_seat(game.cash, who(game, p))
    if name == "net_worth":
        return lambda game, p: _worth(game, who(game, p))
    if name == "houses":
        return lambda game, p: _counted(game.houses_of, who(game, p))
    if name == "hotels":
        return lambda game, p: _counted(game.hotels_of, who(game, p))
    if name == "laps":
        return lambda game, p: _of_seat(game.laps, who(game, p))
    return lambda game, p: max(_of_seat(game.jail_turns, who(game, p)), 0)  # turns in jail


def _owned(node: ast.Owned, names: Names) -> AmountFn:
    """`railroads owned by P`, `lots of group red owned by P`: how many of those spaces P owns (nobody: 0)."""
    indexes = names.by_group[node.name] if node.group else names.by_plural[node.name]
    who = _player(node.of, names)
    return lambda game, p: _count_of(game, who(game, p), indexes)


def _count_of(game: Any, seat: int, indexes: tuple[int, ...]) -> int:
    return int(game.count_owned(seat, indexes)) if seat >= 0 else 0


def _of_seat(values: Any, seat: int) -> int:
    return int(values[seat]) if seat >= 0 else 0


def _worth(game: Any, seat: int) -> int:
    return int(game.net_worth(seat)) if seat >= 0 else 0


def _counted(count: Callable[[int], int], seat: int) -> int:
    return count(seat) if seat >= 0 else 0


def _you(game: Any, p: int) -> int:
    return p


PlayerFn = Callable[[Any, int], int]


def _player(ref: ast.Ref, names: Names) -> PlayerFn:
    """A player reference as a function of (game, player) giving a seat, or -1 for nobody (the owner of a
    space nobody owns)."""
    if ref.name == "you":
        return _you
    if ref.name == "owner":
        return lambda game, p: game.owner[game.position[p]]
    if ref.name == "richest":
        return lambda game, p: _ranked(game, max)
    if ref.name == "poorest":
        return lambda game, p: _ranked(game, min)
    if ref.name == "chosen":
        return lambda game, p: game.chosen  # set while the statement that names it runs (_with_chosen_player)
    raise TypeError(f"{ref.to_text()} is a space, not a player (the checker reports it first)")


def _ranked(game: Any, pick: Any) -> int:
    """The seat still playing with the most (``max``) or least (``min``) cash; a tie goes to the first seat."""
    seats = [seat for seat in range(game.players) if not game.bankrupt[seat]]
    if not seats:
        return -1
    best = pick(game.cash[seat] for seat in seats)
    return next(seat for seat in seats if game.cash[seat] == best)


def _space(ref: ast.Ref, names: Names) -> int:
    if not ref.space or ref.name not in names.by_name:
        raise TypeError(f"{ref.to_text()} is no space of the board (the checker reports it first)")
    return names.by_name[ref.name][0]


Test = Callable[[Any, int], bool]

_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
    "=": lambda a, b: a == b, "!=": lambda a, b: a != b,
}


def _raw_amount(amount: ast.Amount, names: Names) -> AmountFn:
    """An amount as a number (a comparison sees it below 0 too)."""
    parts = tuple(_number(term, names) for term in amount.terms)
    if len(parts) == 1:
        return parts[0]
    return lambda game, p: sum(part(game, p) for part in parts)


def _condition(node: Any, names: Names) -> Test:
    if isinstance(node, ast.Compare):
        left, right, op = _raw_amount(node.left, names), _raw_amount(node.right, names), _COMPARE[node.op]
        return lambda game, p: op(left(game, p), right(game, p))
    if isinstance(node, ast.InJail):
        who = _player(node.who, names)
        return lambda game, p: _of_seat(game.jail_turns, who(game, p)) >= 0 and who(game, p) >= 0
    if isinstance(node, ast.Owns):
        who, space = _player(node.who, names), _space(node.what, names)
        return lambda game, p: who(game, p) >= 0 and game.owner[space] == who(game, p)
    if isinstance(node, ast.Doubles):
        if names.doubles is not None:  # the dice the ruleset counts for doubles
            counted = names.doubles
            return lambda game, p: _same(tuple(game.last_roll[i] for i in counted if i < len(game.last_roll)))
        # the dice just thrown (none yet, (0, 0): no doubles)
        return lambda game, p: len(game.last_roll) > 1 and game.last_roll[0] > 0 and len(set(game.last_roll)) == 1
    if isinstance(node, ast.Triples):
        return lambda game, p: bool(game.last_extra) and _same((*game.last_roll, *game.last_extra))
    if isinstance(node, ast.Rolled):
        face = node.face
        return lambda game, p: face in game.last_extra
    if isinstance(node, ast.RentTest):
        if node.name == "hotel":
            return lambda game, p: game.rent_here.level == game.rent_here.hotel_level
        return lambda game, p: game.rent_here.owned == game.rent_here.size
    if isinstance(node, ast.Not):
        part = _condition(node.part, names)
        return lambda game, p: not part(game, p)
    if isinstance(node, ast.Logic):
        left, right = _condition(node.left, names), _condition(node.right, names)
        if node.op == "and":
            return lambda game, p: left(game, p) and right(game, p)
        return lambda game, p: left(game, p) or right(game, p)
    raise TypeError(f"no condition for {type(node).__name__}")


def _same(faces: tuple[Any, ...]) -> bool:
    """Two faces or more, all the same number (none thrown yet, 0: not the same)."""
    return len(faces) > 1 and type(faces[0]) is int and faces[0] > 0 and len(set(faces)) == 1


def _term(term: Any, names: Names) -> AmountFn:
    if isinstance(term, ast.Fixed):
        value = term.value
        return lambda game, p: value
    if isinstance(term, ast.PerHouse):
        value = term.value
        return lambda game, p: value * game.houses_of(p)
    if isinstance(term, ast.PerHotel):
        value = term.value
        return lambda game, p: value * game.hotels_of(p)
    if isinstance(term, ast.PerOwned):
        value, indexes = term.value, names.by_kind_or_group[term.name]
        return lambda game, p: value * game.count_owned(p, indexes)
    if isinstance(term, ast.PercentOfNetWorth):
        percent, divide = term.percent, names.divide
        if names.rounding == "down":
            return lambda game, p: game.net_worth(p) * percent // 100
        return lambda game, p: divide(game.net_worth(p) * percent, 100)
    raise TypeError(f"no compiler for {type(term).__name__}")
