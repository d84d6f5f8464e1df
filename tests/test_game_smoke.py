"""Whole games of every built-in ruleset end, deterministically, with money accounted for."""

from __future__ import annotations

import pytest

import monopoly
from monopoly.agents import make_agent
from monopoly.game import Game
from monopoly.game.log import replay_payments


def play(ruleset, names, seed, max_turns=400, observers=()):
    game = Game(ruleset, [make_agent(n) for n in names], seed=seed, max_turns=max_turns, observers=observers)
    return game, game.play()


@pytest.mark.parametrize("names", [["greedy"] * 4, ["random"] * 3, ["cautious", "trader", "greedy", "random"]])
def test_same_seed_same_game(names):
    ruleset = monopoly.load_ruleset("classic")
    first, second = [], []
    play(ruleset, names, 11, observers=[first.append])
    play(ruleset, names, 11, observers=[second.append])
    assert first == second and first[-1]["type"] == "game_end"


@pytest.mark.parametrize("variants", [[], ["short-game"], ["time-limit"], ["free-parking-jackpot", "tournament"],
                                      ["income-tax-2008"]])
def test_payments_replay_to_final_cash(variants):
    ruleset = monopoly.load_ruleset("classic", variants)
    for seed in range(5):
        events = []
        game, _result = play(ruleset, ["greedy", "cautious", "random", "trader"], seed, observers=[events.append])
        replayed = replay_payments(events)
        assert replayed == {"cash": game.cash, "pot": game.pot}
        end = events[-1]
        assert end["type"] == "game_end"
        assert [s["cash"] for s in sorted(end["standings"], key=lambda s: s["seat"])] == replayed["cash"]


def test_a_seats_generator_draws_what_a_random_of_its_seed_draws():
    """An agent's own generator is seeded when first used (a bot that never draws costs no seeding), and draws
    exactly what ``random.Random`` of its seed draws, by every method, after ``getstate``/``setstate``, pickled
    and copied; a random bot's games are the same whenever its generator starts."""
    import copy
    import pickle
    import random

    from monopoly.game.game import SeatRandom

    def draws(rng):
        numbers = [rng.random(), rng.randint(1, 6), rng.choice("abcdef"), rng.randrange(10**30), rng.getrandbits(70),
                   rng.uniform(1, 2), rng.gauss(0, 1), rng.sample(range(50), 5), rng.randbytes(5)]
        deck = list(range(16))
        rng.shuffle(deck)
        return numbers, deck

    for seed in (0, 7, 1_000_004, 2**40):
        assert isinstance(SeatRandom(seed), random.Random)
        assert draws(SeatRandom(seed)) == draws(random.Random(seed))
        assert SeatRandom(seed).getstate() == random.Random(seed).getstate()
        assert draws(pickle.loads(pickle.dumps(SeatRandom(seed)))) == draws(random.Random(seed))
        assert draws(copy.deepcopy(SeatRandom(seed))) == draws(random.Random(seed))
        moved = SeatRandom(seed)
        moved.setstate(random.Random(seed + 1).getstate())
        assert draws(moved) == draws(random.Random(seed + 1))
        reseeded = SeatRandom(seed)
        reseeded.seed(5)
        assert draws(reseeded) == draws(random.Random(5))
    game = Game(monopoly.load_ruleset("classic"), [make_agent("random") for _ in range(3)], seed=4, max_turns=30)
    assert all(type(agent.rng) is SeatRandom for agent in game.agents)
    first = draws(game.agents[1].rng)
    assert first == draws(random.Random(4 * 1_000_003 + 2))  # seat 1's seed, as it always was
