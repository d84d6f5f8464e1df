"""The game: state, the turn loop, movement, landing, money, bankruptcy, auctions.

One ``Game`` plays any valid ruleset. Rules come from the ruleset's compiled
tables and closures (``tables.py``, ``effects/compile.py``); no code here names
a space, a card or a variant. All randomness comes from one
``random.Random(seed)``; agents get their own generators derived from the seed,
so the same ruleset, seed and agents give the same game, bit for bit.

Events are built only when somebody observes the game (``observe``).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from ..ruleset.model import Ruleset
from . import actions as act
from .end import Result, check_end, result_of
from .events import BANK, POT, RULES_VERSION, party
from .money import MAX_REFUSALS, Money
from .state import GameState, StateError
from .tables import DRAW, NOTHING, RAILROAD, STREET, UTILITY, tables_for

Event = dict[str, Any]
Observer = Callable[[Event], None]

#: Actions one seat may take in one between-turns phase.
MAX_ACTIONS_PER_PHASE = 200
#: Moves caused by one landing (cards that move, which land on cards that move...).
MAX_CHAINED_MOVES = 16


class _WorthNeeded(Exception):
    """An alternative's cost needs the player's worth added up (see :meth:`Game.option_costs`)."""


class GameOver(RuntimeError):
    """Raised when a finished game is asked to play on."""


class SetupError(ValueError):
    """A game cannot start as asked (wrong number of players, for example)."""


class Game(Money):
    """A game of a ruleset between agents, from a seed.

    >>> import monopoly
    >>> from monopoly.agents import GreedyAgent
    >>> game = Game(monopoly.load_ruleset("classic"), [GreedyAgent(), GreedyAgent()], seed=7, max_turns=50)
    >>> result = game.play()
    >>> result.turns <= 50
    True
    """

    def __init__(self, ruleset: Ruleset, agents: Sequence[Any], seed: int = 0, *,
                 max_turns: int | None = None, observers: Sequence[Observer] = ()):
        n = len(agents)
        if not ruleset.min_players <= n <= ruleset.max_players:
            raise SetupError(f"{ruleset.name} is played by {ruleset.min_players} to {ruleset.max_players} "
                             f"players, not {n}")
        self.ruleset = ruleset
        self.rules = ruleset.rules
        self.tables = t = tables_for(ruleset)
        self.players = n
        self.agents = list(agents)
        self.seed = seed
        self.max_turns = max_turns
        self.rng = random.Random(seed)
        # --- state: flat lists by seat and by space
        self.cash = [0] * n
        self.position = [0] * n
        self.jail_turns = [-1] * n  # -1: free; otherwise failed attempts so far
        self.held_cards: list[list[tuple[str, int]]] = [[] for _ in range(n)]
        self.bankrupt = [False] * n
        self.bankrupt_order: list[int] = []
        self.owner = [-1] * t.size
        self.buildings = [0] * t.size
        self.mortgaged = [False] * t.size
        self.houses_left = ruleset.houses
        self.hotels_left = ruleset.hotels
        self.pot = 0
        self.decks: dict[str, deque[int]] = {key: deque(range(len(slots))) for key, slots in t.decks.items()}
        self.turn = 0
        self.round = 0
        self.current = 0
        self.started = False
        self.finished = False
        self.end_reason: str | None = None
        self.winner: int | None = None
        self.last_roll: tuple[int, ...] = (0, 0)
        self.debt_depth = 0
        self.deadline: float | None = None  # time.monotonic() at which a time-limit game stops
        self._chain = 0  # moves and draws caused by effects since the last roll
        self._option_costs: tuple[Any, ...] = ()  # cost functions of the choice being made
        self._pricing = False  # option_costs is pricing the alternatives (net_worth is not to be added up)
        self._priced_worth: int | None = None  # the worth an agent gave option_costs to price them with
        self.owner_version = 0  # changes whenever a lot changes hands (agents cache on it)
        self._fixed_dice: deque[tuple[int, ...]] = deque()
        self._doubles_limit = self.rules.jail.doubles_to_jail
        # Only a last-standing game can skip the end check on a turn nobody went bankrupt.
        self._end_each_turn = self.rules.end.when != "last_standing"
        self._two_dice = ruleset.dice_count == 2
        self._sides = ruleset.dice_sides
        self._random = self.rng.random
        self._observers: list[Observer] = list(observers)
        self._emit: Observer | None = self._dispatch if self._observers else None
        for seat, agent in enumerate(self.agents):
            setup = getattr(agent, "setup", None)
            if setup is not None:
                setup(self, seat, random.Random(seed * 1_000_003 + seat + 1))

    # ------------------------------------------------------------------ positions

    def state(self) -> GameState:
        """The position now, as plain data (a copy: :class:`~monopoly.game.state.GameState`)."""
        return GameState.of(self)

    @classmethod
    def from_state(cls, ruleset: Ruleset, agents: Sequence[Any], state: GameState, *, seed: int = 0,
                   max_turns: int | None = None, observers: Sequence[Observer] = (),
                   keep_dice: bool = True) -> Game:
        """A game going on from ``state`` (checked first: :class:`~monopoly.game.state.StateError` lists every
        rule it breaks). ``keep_dice``: the dice and shuffles go on as the state's random generator would;
        without it they come from ``seed`` (a new future from the same position, as ``simulate --from`` plays).
        Agents start fresh, seeded from ``seed``.

        >>> import monopoly
        >>> from monopoly.game.state import Setup
        >>> classic = monopoly.load_ruleset("classic")
        >>> position = Setup(classic, players=2).give("Boardwalk", 1).give("Park Place", 1).build("Boardwalk", 5)
        >>> position.problems()
        ['the buildings of the dark_blue group are uneven (0/5), but the rules build and sell evenly']
        >>> position.build("Park Place", 4).problems()
        []
        >>> game = Game.from_state(classic, [monopoly.make_agent("greedy") for _ in "ab"], position.state, seed=1)
        >>> game.owner[39], game.buildings[39], game.hotels_left
        (1, 5, 11)
        """
        problems = state.problems(ruleset, max_turns=max_turns)
        if problems:
            raise StateError(problems)
        game = cls(ruleset, agents, seed, max_turns=max_turns, observers=observers)
        state.put(game)
        if not keep_dice:
            game.rng.seed(seed)
        return game

    # ------------------------------------------------------------------ events

    def observe(self, observer: Observer) -> None:
        """Call ``observer(event)`` for every event from now on."""
        self._observers.append(observer)
        self._emit = self._dispatch

    def _dispatch(self, event: Event) -> None:
        for observer in self._observers:
            observer(event)

    def emit(self, event: Event) -> None:
        """Send an event of one's own (an agent's recorded decision, say) to the observers, if any."""
        if self._emit:
            self._emit(event)

    # ------------------------------------------------------------------ running

    def play(self) -> Result:
        """Play to the end and return the :class:`~monopoly.game.end.Result`."""
        while not self.finished:
            self.play_turn()
        return self.result()

    def play_turn(self) -> None:
        """Play one player's turn (doubles re-rolls included) and the actions after it."""
        if self.finished:
            raise GameOver("the game is over")
        if not self.started:
            self.start()
            if self.finished:
                return
        p = self.current
        self.turn += 1
        emit = self._emit
        if emit:
            emit({"type": "turn", "turn": self.turn, "round": self.round, "seat": p})
        self._turn(p)
        if not self.finished and not self.bankrupt[p]:
            action = self.agents[p].act(self, p)
            if action is not None:
                self._between_turns(p, action)
        if not self.finished:
            self._next_seat()  # counts the round first, so a round limit ends the game right after it
            if self.bankrupt_order or self._end_each_turn or (self.max_turns is not None and
                                                               self.turn >= self.max_turns):
                check_end(self)

    def start(self) -> None:
        """Shuffle the decks, pay the starting cash and deal deeds (once; play_turn does it by itself).

        Set-ups for a lesson or a test change the state after ``start()``.
        """
        if self.started:
            return
        self.started = True
        rng = self.rng
        for deck in self.decks.values():
            order = list(deck)
            rng.shuffle(order)
            deck.clear()
            deck.extend(order)
        if self._emit:
            self._emit({"type": "game_start", "ruleset": self.ruleset.id, "variants": list(self.ruleset.variants),
                        "seed": self.seed, "max_turns": self.max_turns,
                        "players": [agent_name(a) for a in self.agents], "rules": RULES_VERSION})
        start = self.ruleset.starting_cash
        for seat in range(self.players):
            self._transfer(BANK, seat, start, "starting cash")
        self.position = [max(self.tables.go, 0)] * self.players
        deal = self.rules.deal_deeds
        if deal:
            deeds = list(self.tables.ownable)
            rng.shuffle(deeds)
            for _ in range(deal):
                for seat in range(self.players):
                    if not deeds:
                        break
                    space = deeds.pop()
                    if self.cash[seat] < self.tables.price[space]:
                        deeds.insert(0, space)  # this seat cannot pay for it: it stays with the bank
                        continue
                    self._transfer(seat, BANK, self.tables.price[space], "deed")
                    self._set_owner(space, seat, "deal")

    def _next_seat(self) -> None:
        n = self.players
        seat = (self.current + 1) % n
        while self.bankrupt[seat]:
            seat = (seat + 1) % n
        if seat <= self.current:  # every seat still playing has had its turn
            self.round += 1
        self.current = seat

    # ------------------------------------------------------------------ a turn

    def fix_dice(self, rolls: Sequence[Sequence[int]]) -> None:
        """Make the next rolls these (for lessons and scenario tests); the RNG takes over after them."""
        for roll in rolls:
            if len(roll) != self.ruleset.dice_count or not all(1 <= d <= self.ruleset.dice_sides for d in roll):
                raise ValueError(f"{roll!r} is not a roll of {self.ruleset.dice_count} dice with "
                                 f"{self.ruleset.dice_sides} sides")
            self._fixed_dice.append(tuple(roll))

    def give(self, space: int, seat: int) -> None:
        """Hand a lot to a seat (or back to the bank with -1) without payment: for set-ups."""
        self._set_owner(space, seat, "setup")

    def _roll(self) -> tuple[int, ...]:
        dice: tuple[int, ...]
        if self._fixed_dice:
            dice = self._fixed_dice.popleft()
            self.last_roll = dice
            if self._emit:
                self._emit({"type": "roll", "seat": self.current, "dice": list(dice)})
            return dice
        rnd = self._random
        sides = self._sides
        if self._two_dice:
            dice = (int(rnd() * sides) + 1, int(rnd() * sides) + 1)
        else:
            dice = tuple(int(rnd() * sides) + 1 for _ in range(self.ruleset.dice_count))
        self.last_roll = dice
        if self._emit:
            self._emit({"type": "roll", "seat": self.current, "dice": list(dice)})
        return dice

    def _turn(self, p: int) -> None:
        if self.jail_turns[p] >= 0 and not self._jail_start(p):
            return
        doubles_limit = self._doubles_limit
        two = self._two_dice
        doubles = 0
        while True:
            dice = self._roll()
            is_double = dice[0] == dice[1] if two else _all_same(dice)
            if is_double:
                doubles += 1
                if doubles == doubles_limit:
                    self.send_to_jail(p, "doubles")
                    return
            self._chain = 0
            self._forward(p, dice[0] + dice[1] if two else sum(dice))
            self._land(p, None)
            if self.finished or self.bankrupt[p] or self.jail_turns[p] >= 0 or not is_double:
                return

    def _jail_start(self, p: int) -> bool:
        """A jailed player's turn begins. True when they are out and roll normally."""
        jail = self.rules.jail
        options = ["roll"]
        if self.cash[p] >= jail.fine:
            options.append("pay")
        if self.held_cards[p]:
            options.append("card")
        choice = options[0] if len(options) == 1 else self.agents[p].jail(self, p, tuple(options))
        if type(choice) is not str or choice not in options:  # the type first: `in` would call its __eq__
            self._refuse(p, f"jail choice {act.safe_repr(choice)}",
                         f"choose one of {', '.join(options)} (a str); taken as roll")
            choice = "roll"
        if choice == "pay":
            self.charge(p, self._fees_to(), jail.fine, "jail fine")
            if self.bankrupt[p]:
                return False
            self._leave_jail(p, "paid")
            return True
        if choice == "card":
            deck, index = self.held_cards[p].pop(0)
            self._return_card(deck, index)
            self._leave_jail(p, "card", [deck, index])
            return True
        dice = self._roll()
        if _all_same(dice):
            self._leave_jail(p, "doubles")
        else:
            self.jail_turns[p] += 1
            if self.jail_turns[p] < jail.max_turns:
                return False
            self.charge(p, self._fees_to(), jail.fine, "jail fine")
            if self.bankrupt[p]:
                return False
            self._leave_jail(p, "forced")
        # Out by the roll: move by it, and no further roll this turn.
        self._chain = 0
        self._forward(p, sum(dice))
        self._land(p, None)
        return False

    def _leave_jail(self, p: int, how: str, card: list[Any] | None = None) -> None:
        self.jail_turns[p] = -1
        if self._emit:
            self._emit({"type": "jail", "seat": p, "action": "leave", "how": how, "card": card})

    def _between_turns(self, p: int, action: act.Action) -> None:
        """The seat's actions after its turn, starting with ``action``, until it answers None."""
        agent = self.agents[p]
        refusals = trades = 0
        for _ in range(MAX_ACTIONS_PER_PHASE):
            if type(action) is act.Trade:
                trades += 1
                if trades > self.rules.trades_per_phase:
                    return
            if not self.apply(p, action):
                refusals += 1
                if refusals >= MAX_REFUSALS:
                    return
            if self.finished or self.bankrupt[p]:
                return
            action = agent.act(self, p)
            if action is None:
                return

    # ------------------------------------------------------------------ movement

    def _forward(self, p: int, steps: int) -> None:
        t = self.tables
        old = self.position[p]
        new = (old + steps) % t.size
        passed = t.go >= 0 and (t.go - old - 1) % t.size < steps
        self.position[p] = new
        if self._emit:
            self._emit({"type": "move", "seat": p, "from": old, "to": new, "passed_go": passed})
        if t.has_pass_triggers:
            self._pass_along(p, old, steps, new, passed)
        elif passed and self.rules.salary:
            self._transfer(BANK, p, self.rules.salary, "salary")

    def _pass_along(self, p: int, old: int, steps: int, new: int, passed: bool) -> None:
        """Walk the path of a move that passes spaces with triggers: each passed space's triggers
        and the salary at the go space, in path order, once the token is on its new space.

        The walk stops when a trigger moves the token, sends it to jail, ends the player or
        the game, or when effects have already caused too many moves since the roll.
        """
        t = self.tables
        go_step = (t.go - old - 1) % t.size + 1 if passed else -1
        for i in range(1, steps + 1):
            if i == go_step and self.rules.salary:
                self._transfer(BANK, p, self.rules.salary, "salary")
            if i == steps:
                return
            for run in t.pass_triggers[(old + i) % t.size]:
                self._chain += 1
                if self._chain > MAX_CHAINED_MOVES:
                    return
                run(self, p, None)
                if self.bankrupt[p] or self.finished or self.position[p] != new or self.jail_turns[p] >= 0:
                    return

    def _backward(self, p: int, steps: int) -> None:
        old = self.position[p]
        self.position[p] = (old - steps) % self.tables.size
        if self._emit:
            self._emit({"type": "move", "seat": p, "from": old, "to": self.position[p], "passed_go": False})

    def _land(self, p: int, rent_mod: tuple[str, int] | None) -> None:
        t = self.tables
        s = self.position[p]
        if t.has_pass_triggers and (self.bankrupt[p] or self.finished or self.jail_turns[p] >= 0):
            return  # a pass trigger ended the move first
        if t.has_land_triggers:
            for run in t.land_triggers[s]:
                run(self, p, None)
                if self.bankrupt[p] or self.finished or self.position[p] != s or self.jail_turns[p] >= 0:
                    return
        kind = t.kind[s]
        if kind == NOTHING:
            pass
        elif kind == DRAW:
            self.draw_card(p, t.deck_of[s] or "")
        else:
            o = self.owner[s]
            if o < 0:
                self._offer(p, s)
            elif o != p and not self.mortgaged[s] and (self.jail_turns[o] < 0 or self.rules.jail.rent_in_jail):
                rent = self.rent_due(s, rent_mod)
                if rent:
                    self.charge(p, o, rent, "rent")
        effect = t.space_effect[s]
        if effect is not None and not self.bankrupt[p] and not self.finished and self.position[p] == s \
                and self.jail_turns[p] < 0:
            effect(self, p, None)

    def rent_due(self, s: int, rent_mod: tuple[str, int] | None = None) -> int:
        """The rent a visitor owes on space ``s`` now (0 when unowned or mortgaged)."""
        t = self.tables
        o = self.owner[s]
        if o < 0 or self.mortgaged[s]:
            return 0
        kind = t.kind[s]
        if kind in (NOTHING, DRAW):
            return 0
        if rent_mod is not None and rent_mod[0] == "dice":  # `with rent N x dice`: a fresh roll, whatever is owned
            return rent_mod[1] * sum(self._roll())
        rent = t.rent[s]
        group = t.group_of[s]
        if kind == STREET:
            level = self.buildings[s]
            if level == 0:
                amount = rent[0]
                owner = self.owner
                if all(owner[m] == o for m in t.members[group]):
                    amount *= self.rules.full_group_multiplier
            elif level == t.hotel_level:
                amount = rent[-1]
            else:
                amount = rent[level]
        elif kind in (RAILROAD, UTILITY):
            owner = self.owner
            count = sum(1 for m in t.members[group] if owner[m] == o)
            if kind == RAILROAD:
                amount = rent[count - 1]
            else:
                amount = rent[count - 1] * sum(self.last_roll)
        if rent_mod is not None and rent_mod[0] == "x":
            amount *= rent_mod[1]
        return amount

    def _offer(self, p: int, s: int) -> None:
        price = self.tables.price[s]
        if self.cash[p] >= price and self._yes(p, "buy", self.agents[p].buy(self, p, s)):
            self._transfer(p, BANK, price, "buy")
            self._set_owner(s, p, None)
            if self._emit:
                self._emit({"type": "buy", "seat": p, "space": s, "price": price})
        elif self.rules.auction_on_decline:
            self.auction(s)

    # ------------------------------------------------------------------ effect primitives

    def gain(self, p: int, amount: int, reason: str) -> None:
        if amount > 0:
            self._transfer(BANK, p, amount, reason)

    def pay_fee(self, p: int, amount: int, reason: str) -> None:
        self.charge(p, self._fees_to(), amount, reason)

    def collect_from_each(self, p: int, amount: int, reason: str) -> None:
        for other in range(self.players):
            if self.bankrupt[p] or self.finished:
                return  # the collector went bankrupt (e.g. on the interest of a lot handed over)
            if other != p and not self.bankrupt[other]:
                self.charge(other, p, amount, reason)

    def pay_each(self, p: int, amount: int, reason: str) -> None:
        """``p`` pays ``amount`` to every other player, raising the whole sum first. When even selling and
        mortgaging everything could not raise it, nothing is sold or mortgaged: the players are paid in turn
        from the cash there is, and the first who cannot be is the creditor of the bankruptcy."""
        others = [o for o in range(self.players) if o != p and not self.bankrupt[o]]
        total = amount * len(others)
        hopeless = False
        if self.cash[p] < total:
            hopeless = not self._can_raise(p, total)
            if not hopeless:
                self._raise_funds(p, total)
        for other in others:
            if self.bankrupt[p] or self.finished:
                return
            if hopeless and self.cash[p] < amount:
                self._bankrupt(p, other, amount, reason)
                return
            self.charge(p, other, amount, reason)

    def take_pot(self, p: int) -> None:
        if self.pot > 0:
            self._transfer(POT, p, self.pot, "pot")

    def advance_to(self, p: int, targets: tuple[int, ...], rent: tuple[str, int] | None) -> None:
        size = self.tables.size
        here = self.position[p]
        steps = min((target - here - 1) % size + 1 for target in targets)
        self._forward(p, steps)
        self._chain_land(p, rent)

    def go_back_to(self, p: int, targets: tuple[int, ...]) -> None:
        size = self.tables.size
        here = self.position[p]
        steps = min((here - target - 1) % size + 1 for target in targets)
        self._backward(p, steps)
        self._chain_land(p, None)

    def move_by(self, p: int, steps: int) -> None:
        if steps > 0:
            self._forward(p, steps)
        else:
            self._backward(p, -steps)
        self._chain_land(p, None)

    def _chain_land(self, p: int, rent: tuple[str, int] | None) -> None:
        self._chain += 1
        if self._chain <= MAX_CHAINED_MOVES:
            self._land(p, rent)

    def send_to_jail(self, p: int, why: str = "sent") -> None:
        old = self.position[p]
        self.position[p] = self.tables.jail
        self.jail_turns[p] = 0
        if self._emit:
            self._emit({"type": "move", "seat": p, "from": old, "to": self.tables.jail, "passed_go": False})
            self._emit({"type": "jail", "seat": p, "action": "enter", "how": why, "card": None})

    def keep_card(self, p: int, card: Any) -> None:
        """``p`` keeps the card being resolved: it leaves the bottom of its deck for the player's hand."""
        if card is None:
            return
        deck = self.decks[card.deck]
        if card.slot in deck:  # not when a second `keep` in the same effect comes along
            deck.remove(card.slot)
            self.held_cards[p].append((card.deck, card.index))

    def draw_card(self, p: int, deck_key: str) -> None:
        deck = self.decks[deck_key]
        if not deck:
            return  # every card of the deck is held by players
        self._chain += 1
        if self._chain > MAX_CHAINED_MOVES:
            return  # a card drawing from its own deck, over and over
        slot_index = deck.popleft()
        slot = self.tables.decks[deck_key][slot_index]
        # To the bottom at once, so the decks are whole whatever the card does (a card that is
        # kept leaves the bottom again in keep_card).
        deck.append(slot_index)
        if self._emit:
            self._emit({"type": "card", "seat": p, "deck": deck_key, "card": slot.index, "text": slot.text,
                        "kept": slot.keeps})
        slot.run(self, p, slot)

    def _return_card(self, deck_key: str, card_index: int) -> None:
        slots = self.tables.decks[deck_key]
        held_slots = set(range(len(slots))) - set(self.decks[deck_key])
        for slot_index in sorted(held_slots):
            if slots[slot_index].index == card_index:
                self.decks[deck_key].append(slot_index)
                return

    def choose(self, p: int, options: tuple[str, ...], costs: tuple[Any, ...] = ()) -> int:
        self._option_costs = costs
        try:
            choice = self.agents[p].choose(self, p, options)
        finally:
            self._option_costs = ()
        if type(choice) is not int or not 0 <= choice < len(options):
            self._refuse(p, f"choice {act.safe_repr(choice)}",
                         f"choose a number (an int) from 0 to {len(options) - 1}; taken as 0")
            choice = 0
        if self._emit:
            self._emit({"type": "choice", "seat": p, "options": list(options), "chosen": choice})
        return choice

    def option_costs(self, seat: int, *, worth: int | None = None) -> list[int]:
        """While ``seat`` is choosing between an effect's alternatives: what each would cost it in
        cash now (payments less collections; moves and draws count 0). Empty at other times.

        Empty too when an alternative's cost needs the player's worth added up (``N% of net worth``,
        the classic Income Tax): the printed rule is to choose "before you add up your total worth",
        so the game does not add it up for the player. An agent may work out what it knows itself and
        give it as ``worth``: the alternatives are then priced with that figure instead (so
        ``worth=game.net_worth(seat)`` is the agent adding up for itself). An agent that takes the
        costs as its guide and gets none falls back on its own default, as when the game cannot say
        (the built-in bots take the first alternative, the classic flat 200).
        """
        if not self._option_costs:
            return []
        self._pricing = True
        self._priced_worth = worth
        try:
            return [cost(self, seat) for cost in self._option_costs]
        except _WorthNeeded:
            return []
        finally:
            self._pricing = False

    def houses_of(self, p: int) -> int:
        hotel = self.tables.hotel_level
        return sum(b for s, b in enumerate(self.buildings) if self.owner[s] == p and b < hotel)

    def hotels_of(self, p: int) -> int:
        hotel = self.tables.hotel_level
        return sum(1 for s, b in enumerate(self.buildings) if self.owner[s] == p and b == hotel)

    def count_owned(self, p: int, indexes: tuple[int, ...]) -> int:
        return sum(1 for s in indexes if self.owner[s] == p)

    def net_worth(self, p: int) -> int:
        """Cash, printed prices of all lots (mortgaged or not) and buildings at cost (the income-tax worth)."""
        if self._pricing:  # option_costs: the player chooses before the worth is added up
            if self._priced_worth is None:
                raise _WorthNeeded
            return self._priced_worth
        t = self.tables
        total = self.cash[p]
        for s in t.ownable:
            if self.owner[s] == p:
                total += t.price[s] + self._building_cost(s)
        return total

    def valuation(self, p: int) -> int:
        """The rulebook's worth for ending a game: cash, printed price of unmortgaged lots,
        the mortgage value of mortgaged ones, houses at cost, a hotel at cost with its houses."""
        t = self.tables
        total = self.cash[p]
        for s in t.ownable:
            if self.owner[s] == p:
                total += t.mortgage[s] if self.mortgaged[s] else t.price[s]
                total += self._building_cost(s)
        return total

    def _building_cost(self, s: int) -> int:
        level = self.buildings[s]
        return level * self.tables.house_cost[self.tables.group_of[s]] if level else 0

    def _set_owner(self, s: int, seat: int, how: str | None) -> None:
        previous = self.owner[s]
        self.owner[s] = seat
        self.owner_version += 1
        if how is not None and self._emit:
            self._emit({"type": "property", "space": s, "from": party(previous if previous >= 0 else BANK),
                        "to": party(seat if seat >= 0 else BANK), "how": how})

    # ------------------------------------------------------------------ auctions

    def auction(self, s: int) -> None:
        """Auction a lot among every player still in the game (the one who declined too)."""
        from .auction import run_auction

        bidders = [(self.current + i) % self.players for i in range(self.players)]
        bidders = [b for b in bidders if not self.bankrupt[b]]
        winner, price = run_auction(self, bidders, ("space", s), self.rules.auction_min_bid)
        if winner is not None:
            self._transfer(winner, BANK, price, "auction")
            self._set_owner(s, winner, None)

    # ------------------------------------------------------------------ actions

    def legal_actions(self, seat: int, *, raising: bool = False) -> list[act.Action]:
        """What ``seat`` may build, sell, mortgage or unmortgage now."""
        return act.legal_actions(self, seat, raising=raising)

    def apply(self, seat: int, action: act.Action, *, raising: bool = False) -> bool:
        """Take an agent's action if the rules allow it; refuse it with a reason otherwise."""
        try:
            act.verify(self, seat, action, raising=raising or self.debt_depth > 0)
        except act.IllegalAction as exc:
            self._refuse(seat, action, str(exc))
            return False
        if type(action) is act.Trade:
            return self._trade(action)
        if type(action) is act.Build:
            from .auction import shortage_auction

            if shortage_auction(self, seat, action.space):
                return True
        self._do(seat, action)
        return True

    def _do(self, seat: int, action: act.Action) -> None:
        """Carry out a verified build, sell, mortgage or unmortgage."""
        t = self.tables
        s = action.space  # type: ignore[union-attr]
        kind = type(action)
        if kind is act.Build:
            group = t.group_of[s]
            self._transfer(seat, BANK, t.house_cost[group], "build")
            self._place_building(seat, s)
        elif kind is act.SellBuilding:
            group = t.group_of[s]
            level = self.buildings[s]
            if level == t.hotel_level and self.houses_left < t.hph:  # a hotel in a housing shortage
                self._sell_down(seat, act.shortage_sale(t, self.buildings, self.houses_left, s,
                                                        self.rules.building.even))
                return
            if level == t.hotel_level:
                self.hotels_left += 1
                self.houses_left -= t.hph
            else:
                self.houses_left += 1
            self.buildings[s] = level - 1
            self._transfer(BANK, seat, self.sell_value(group), "sell building")
            if self._emit:
                self._emit({"type": "sell", "seat": seat, "space": s, "level": level - 1, "sold": 1})
        elif kind is act.Mortgage:
            self.mortgaged[s] = True
            self._transfer(BANK, seat, t.mortgage[s], "mortgage")
            if self._emit:
                self._emit({"type": "mortgage", "seat": seat, "space": s})
        else:
            self._transfer(seat, BANK, self.unmortgage_cost(s), "unmortgage")
            self.mortgaged[s] = False
            if self._emit:
                self._emit({"type": "unmortgage", "seat": seat, "space": s})

    def _place_building(self, seat: int, s: int) -> None:
        t = self.tables
        level = self.buildings[s]
        if level == t.hph:
            self.hotels_left -= 1
            self.houses_left += t.hph
        else:
            self.houses_left -= 1
        self.buildings[s] = level + 1
        if self._emit:
            self._emit({"type": "build", "seat": seat, "space": s, "level": level + 1})

    def _trade(self, trade: act.Trade) -> bool:
        trade = act.clean_trade(trade)  # the partner is shown plain tuples, whatever the proposer sent
        partner = trade.partner
        if not self._yes(partner, "answer_trade", self.agents[partner].answer_trade(self, partner, trade)):
            if self._emit:
                self._emit({"type": "trade", "accepted": False, **_trade_fields(trade)})
            return True
        if self._emit:
            self._emit({"type": "trade", "accepted": True, **_trade_fields(trade)})
        a, b = trade.proposer, partner
        if trade.give_cash:
            self._transfer(a, b, trade.give_cash, "trade")
        if trade.get_cash:
            self._transfer(b, a, trade.get_cash, "trade")
        for deck, index in trade.give_cards:
            self.held_cards[a].remove((deck, index))
            self.held_cards[b].append((deck, index))
        for deck, index in trade.get_cards:
            self.held_cards[b].remove((deck, index))
            self.held_cards[a].append((deck, index))
        for s in trade.give_spaces:
            self._set_owner(s, b, "trade")
        for s in trade.get_spaces:
            self._set_owner(s, a, "trade")
        for s in trade.give_spaces:
            if self.mortgaged[s] and not self.bankrupt[b]:
                self._receive_mortgaged(b, s)
        for s in trade.get_spaces:
            if self.mortgaged[s] and not self.bankrupt[a]:
                self._receive_mortgaged(a, s)
        return True

    def _refuse(self, seat: int, action: Any, reason: str) -> None:
        if type(seat) is not int or not 0 <= seat < self.players:
            return  # `apply` called for no seat of this game: nobody to tell
        if self._emit:
            self._emit({"type": "refused", "seat": seat, "action": act.safe_repr(action), "reason": reason})
        notify = getattr(self.agents[seat], "refused", None)
        if notify is not None:
            notify(self, seat, action, reason)

    # ------------------------------------------------------------------ the end

    def _check_end(self) -> None:
        if not self.finished:
            check_end(self)

    def result(self) -> Result:
        """The outcome so far (``end`` is "unfinished" until the game is over)."""
        return result_of(self)


def _all_same(dice: tuple[int, ...]) -> bool:
    """Doubles: every die shows the same face (one die alone never throws doubles)."""
    return len(dice) > 1 and len(set(dice)) == 1


def agent_name(agent: Any) -> str:
    return getattr(agent, "name", type(agent).__name__)


def _trade_fields(trade: act.Trade) -> dict[str, Any]:
    return {
        "proposer": trade.proposer, "partner": trade.partner,
        "give_spaces": list(trade.give_spaces), "give_cash": trade.give_cash,
        "give_cards": [list(c) for c in trade.give_cards],
        "get_spaces": list(trade.get_spaces), "get_cash": trade.get_cash,
        "get_cards": [list(c) for c in trade.get_cards],
    }
