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
    take_pot(p)                          p takes the pot
  * advance_to(p, targets, rent)         forward to the nearest of `targets`; rent is None,
                                         ("x", n) or ("dice", n)
  * go_back_to(p, targets)               backwards to the nearest of `targets` behind p
  * move_by(p, steps)                    steps forward (or back when negative)
    send_to_jail(p)
    keep_card(p, card)                   p holds the card being resolved
  * draw_card(p, deck)                   p draws from that deck and resolves the card
  * choose(p, options, costs) -> int     p picks one of the option texts (costs: what each costs p now)
    houses_of(p), hotels_of(p), count_owned(p, indexes), net_worth(p)
    bankrupt, finished, jail_turns       a sequence stops when its player went bankrupt or to jail,
                                         or the game ended
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from . import ast

#: A compiled effect: called with (game, player, card), it returns the generator that carries it out.
Run = Callable[[Any, int, Any], Generator[Any, Any, None]]
AmountFn = Callable[[Any, int], int]


class Names:
    """Board facts the compiler needs: name -> indexes, kind or group -> indexes."""

    def __init__(self, board: Any):
        self.by_name: dict[str, tuple[int, ...]] = {}
        self.by_kind_or_group: dict[str, tuple[int, ...]] = {}
        for space in board:
            self.by_name.setdefault(space.name, ())
            self.by_name[space.name] += (space.index,)
            for key in (space.kind, space.group):
                if key is not None:
                    self.by_kind_or_group.setdefault(key, ())
                    self.by_kind_or_group[key] += (space.index,)


def compile_effect(effect: ast.Effect, names: Names, reason: str) -> Run:
    """The closure for one effect; ``reason`` labels the payments it makes (e.g. a card's text)."""
    if effect.is_choice:
        options = tuple(option.to_text() for option in effect.alternatives)
        branches = tuple(_sequence(option, names, reason) for option in effect.alternatives)
        costs = tuple(_cost(option, names) for option in effect.alternatives)

        def run_choice(game: Any, p: int, card: Any) -> Generator[Any, Any, None]:
            chosen = yield from game.choose(p, options, costs)
            yield from branches[chosen](game, p, card)

        return run_choice
    assert isinstance(effect.body, ast.Sequence)
    return _sequence(effect.body, names, reason)


def _sequence(sequence: ast.Sequence, names: Names, reason: str) -> Run:
    steps = tuple(_statement(statement, names, reason) for statement in sequence.statements)
    if len(steps) == 1:
        return steps[0]

    def run_all(game: Any, p: int, card: Any) -> Generator[Any, Any, None]:
        for step in steps:
            if game.bankrupt[p] or game.finished or game.jail_turns[p] >= 0:
                return  # bankrupt, game over, or sent to jail: the rest of the effect does not happen
            yield from step(game, p, card)

    return run_all


def _asks_nobody(do: Callable[[Any, int, Any], None]) -> Run:
    """A statement that asks nobody anything, as an effect (a generator that yields nothing)."""
    def run(game: Any, p: int, card: Any) -> Generator[Any, Any, None]:
        do(game, p, card)
        yield from ()

    return run


def _statement(statement: Any, names: Names, reason: str) -> Run:
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
        return _asks_nobody(lambda game, p, card: game.take_pot(p))
    if isinstance(statement, ast.AdvanceTo):
        targets = _targets(statement.target, names)
        rent = _rent(statement.rent)
        return lambda game, p, card: game.advance_to(p, targets, rent)
    if isinstance(statement, ast.GoBackTo):
        targets = _targets(statement.target, names)
        return lambda game, p, card: game.go_back_to(p, targets)
    if isinstance(statement, ast.Move):
        steps = statement.steps
        return lambda game, p, card: game.move_by(p, steps)
    if isinstance(statement, ast.GoToJail):
        return _asks_nobody(lambda game, p, card: game.send_to_jail(p))
    if isinstance(statement, ast.Keep):
        return _asks_nobody(lambda game, p, card: game.keep_card(p, card))
    if isinstance(statement, ast.Draw):
        deck = statement.deck
        return lambda game, p, card: game.draw_card(p, deck)
    raise TypeError(f"no compiler for {type(statement).__name__}")  # the AST has no other statements


def _cost(sequence: ast.Sequence, names: Names) -> AmountFn:
    """What an alternative costs the player in cash now: payments less collections (moves and draws: 0)."""
    parts: list[tuple[int, bool, AmountFn]] = []  # (sign, to or from each other player, amount)
    for statement in sequence.statements:
        if isinstance(statement, ast.Pay):
            parts.append((1, statement.to_each_player, _amount(statement.amount, names)))
        elif isinstance(statement, ast.Collect):
            parts.append((-1, statement.from_each_player, _amount(statement.amount, names)))

    def cost(game: Any, p: int) -> int:
        others = sum(1 for o in range(game.players) if o != p and not game.bankrupt[o])
        return sum(sign * amount(game, p) * (others if each else 1) for sign, each, amount in parts)

    return cost


def _targets(target: Any, names: Names) -> tuple[int, ...]:
    if isinstance(target, ast.NearestTarget):
        return names.by_kind_or_group[target.name]
    return names.by_name[target.name]


def _rent(rent: Any) -> tuple[str, int] | None:
    if rent is None:
        return None
    if isinstance(rent, ast.RentMultiplier):
        return ("x", rent.factor)
    return ("dice", rent.multiple)


def _amount(amount: ast.Amount, names: Names) -> AmountFn:
    constant = amount.constant
    if constant is not None:
        return lambda game, p: constant
    parts = tuple(_term(term, names) for term in amount.terms)
    return lambda game, p: sum(part(game, p) for part in parts)


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
        percent = term.percent
        return lambda game, p: game.net_worth(p) * percent // 100
    raise TypeError(f"no compiler for {type(term).__name__}")
