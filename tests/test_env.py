"""The learning environments (issue 29, items 1-3): the action codec computed from the ruleset, whose mask is
exactly the legal answers; the PettingZoo AEC environment (`pettingzoo.test.api_test`, `seed_test`); the
Gymnasium single-seat wrapper (`check_env`, `action_masks()`)."""

from __future__ import annotations

import random
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import monopoly
from monopoly.env import CODEC_VERSION, MonopolyEnv, MonopolySeatEnv, codec_for
from monopoly.env.codec import JAIL_OPTIONS
from monopoly.game.decisions import Bids, Trades, legal_answers

ROOT = Path(__file__).resolve().parent.parent
RULESETS = {
    "classic": ("classic", ()),
    "uk": ("uk", ()),
    "harbour-24": (str(ROOT / "tests" / "data" / "good" / "harbour-24.yaml"), ()),
    "speed-die": ("classic", ("speed-die",)),
}


def loaded(name: str) -> monopoly.Ruleset:
    source, variants = RULESETS[name]
    return monopoly.load_ruleset(source, list(variants))


def positions(ruleset: monopoly.Ruleset, seed: int, steps: int, players: int = 4):
    """Decisions of a game whose every answer is a legal code drawn at random (trades, bids and all)."""
    codec = codec_for(ruleset)
    rng = random.Random(seed)
    game = monopoly.Game(ruleset, players=players, seed=seed, max_turns=400)
    for _ in range(steps):
        decision = game.advance()
        if decision is None:
            return
        yield game, decision
        legal = np.flatnonzero(codec.mask(game, decision))
        game.answer(codec.decode(game, decision, int(rng.choice(list(legal)))))


@pytest.mark.parametrize("name", list(RULESETS))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(20, 400), players=st.integers(2, 4))
def test_the_mask_is_exactly_the_legal_answers(name, seed, steps, players):
    """At positions drawn from random play, every code is masked exactly when the game accepts its answer, and
    every legal answer of a finite kind has a masked code that stands for it."""
    ruleset = loaded(name)
    codec = codec_for(ruleset)
    last = None
    for game, decision in positions(ruleset, seed, steps, players):
        last = (game, decision)
    assert last is not None
    game, decision = last
    mask = codec.mask(game, decision)
    for code in range(codec.size):
        assert bool(mask[code]) == (codec.check(game, decision, code) is None), (decision, codec._block(code))
    answers = legal_answers(game, decision)
    if not isinstance(answers, Bids):
        for answer in answers:
            if isinstance(answer, Trades):
                continue
            code = codec.encode(game, decision, answer)
            assert code is not None and mask[code], (decision, answer)
            assert codec.decode(game, decision, code) == answer
    for code in np.flatnonzero(mask):  # and back: each masked code's answer encodes to a code of that answer
        answer = codec.decode(game, decision, int(code))
        again = codec.encode(game, decision, answer)
        assert again is not None and codec.decode(game, decision, again) == answer


def test_the_codec_follows_the_edition():
    classic, harbour = codec_for(loaded("classic")), codec_for(loaded("harbour-24"))
    assert classic.size == 1280 and CODEC_VERSION == 1
    assert classic.layout["build"][1] == 40 and harbour.layout["build"][1] == 24
    assert harbour.size < classic.size
    assert list(classic.layout)[:5] == ["no", "yes", "jail", "choose", "bid"]
    assert JAIL_OPTIONS == ("roll", "pay", "card")


def test_the_templates_decode_to_trades_with_the_owner_as_partner():
    ruleset = loaded("classic")
    codec = codec_for(ruleset)
    game = monopoly.Game(ruleset, players=3, seed=1)
    game.start()
    for s, seat in ((1, 1), (3, 0), (39, 2), (37, 2)):
        game.give(s, seat)
    game.fix_dice([(4, 6)])
    decision = game.advance()
    assert decision.kind == "act"
    mask = codec.mask(game, decision)
    buy = codec.start("buy_lot") + 3 * 1 + 1  # Mediterranean from seat 1 at 1.5 times 60
    assert mask[buy] and codec.decode(game, decision, buy) == monopoly.Trade(0, 1, give_cash=90, get_spaces=(1,))
    complete = codec.start("sell_completing") + 3 * 3 + 0  # Baltic to seat 1, who has the rest of the browns
    assert mask[complete] and codec.decode(game, decision, complete) == monopoly.Trade(0, 1, give_spaces=(3,),
                                                                                       get_cash=90)
    swap = codec.start("swap") + codec.rank[3] * len(codec.ownable) + codec.rank[39]
    assert mask[swap] and codec.decode(game, decision, swap) == monopoly.Trade(0, 2, give_spaces=(3,),
                                                                               get_spaces=(39,))
    game.answer(codec.decode(game, decision, swap))  # offered; seat 2 (a caller) answers
    assert game.pending == monopoly.Decision(2, "answer_trade", (monopoly.Trade(0, 2, give_spaces=(3,),
                                                                                get_spaces=(39,)),))


# ---------------------------------------------------------------------- PettingZoo


def test_pettingzoo_api_and_seed_tests_pass():
    from pettingzoo.test import api_test, seed_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the dict observation's advice, which the API allows
        api_test(MonopolyEnv(max_turns=150), num_cycles=400, verbose_progress=False)
        seed_test(lambda: MonopolyEnv(max_turns=150), num_cycles=300)
        api_test(MonopolyEnv(RULESETS["harbour-24"][0], players=3, max_turns=100, reward="worth"), num_cycles=200,
                 verbose_progress=False)


def play_out(env: MonopolyEnv, seed: int) -> tuple[list[float], Any]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_iter=100_000):
        observation, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        assert (info["action_mask"] == observation["action_mask"]).all()
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return [totals[a] for a in env.possible_agents], env.game


def test_a_game_played_out_gives_the_winner_one_and_the_others_minus_one():
    scores, game = play_out(MonopolyEnv(players=2, max_turns=2000), seed=4)
    assert game.finished
    if game.winner is None:
        assert scores == [0.0, 0.0]
    else:
        assert scores[game.winner] == 1.0 and sum(scores) == 0.0


def test_the_worth_reward_adds_up_to_each_seats_change_of_worth():
    env = MonopolyEnv(players=3, max_turns=60, reward="worth")
    scores, game = play_out(env, seed=2)
    start = env.ruleset.starting_cash
    for seat, score in enumerate(scores):
        worth = 0 if game.bankrupt[seat] else game.net_worth(seat)
        assert score == pytest.approx((worth - start) / start)


# ---------------------------------------------------------------------- Gymnasium


def test_gymnasium_check_env_passes():
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the unbounded Box's advice: cash has no upper bound
        check_env(MonopolySeatEnv(max_turns=150), skip_render_check=True)
        check_env(MonopolySeatEnv(opponents=("random", "trader"), seat=1, hybrid=True, max_turns=100),
                  skip_render_check=True)


def run_seat(env: MonopolySeatEnv, seed: int) -> tuple[list[str], float, Any]:
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    kinds, total = [], 0.0
    done = False
    while not done:
        kinds.append(info["decision"])
        assert (env.action_masks() == info["action_mask"]).all() and env.observation_space.contains(observation)
        observation, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(
            env.action_masks()))))
        total += reward
        done = terminated or truncated
    return kinds, total, env.game


def test_the_single_seat_game_is_the_seed_s_and_the_hybrid_learner_keeps_buying_building_trading():
    first = run_seat(MonopolySeatEnv(max_turns=200), seed=7)
    second = run_seat(MonopolySeatEnv(max_turns=200), seed=7)
    assert first[0] == second[0] and first[2].events == second[2].events
    kinds, _, _ = run_seat(MonopolySeatEnv(max_turns=200, hybrid=True), seed=7)
    assert set(kinds) <= {"buy", "act", "between"} and {"act", "between"} <= set(kinds)


def test_an_action_outside_the_mask_is_refused_and_the_safe_answer_taken():
    env = MonopolySeatEnv(max_turns=50)
    _, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    _, _, _, _, after = env.step(illegal)
    assert after["illegal"] is True
    assert any(event[0] == monopoly.game.events.REFUSED for event in env.game.events)
    with pytest.raises(ValueError, match="whole number from 0"):
        env.step(env.action_space.n)


def test_opponents_are_checked_up_front():
    with pytest.raises(ValueError, match="greedyy"):
        MonopolySeatEnv(opponents=("greedyy",))
    with pytest.raises(ValueError, match="2 to 8 players"):
        MonopolySeatEnv(opponents=())


def test_opponents_may_be_classes_by_module_and_name():
    env = MonopolySeatEnv(opponents=("monopoly.agents.bots:TraderAgent", monopoly.agents.CautiousAgent), seat=2,
                          max_turns=40)
    env.reset(seed=5)
    assert [type(agent).__name__ for agent in env.game.agents[:2]] == ["TraderAgent", "CautiousAgent"]
    with pytest.raises(ValueError, match="no agent class"):
        MonopolySeatEnv(opponents=("monopoly.agents.bots:Nope",))


def test_the_pettingzoo_env_says_when_an_action_was_outside_the_mask():
    env = MonopolyEnv(players=2, max_turns=30)
    env.reset(seed=3)
    agent = env.agent_selection
    observation, *_ = env.last()
    env.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))
    assert env.infos[agent].get("illegal") is True


@pytest.mark.parametrize("action", [3.7, "5", True, -1, 10**6])
def test_an_action_that_is_no_code_is_refused_with_the_reason(action):
    env = MonopolyEnv(players=2, max_turns=30)
    env.reset(seed=3)
    with pytest.raises(ValueError, match="whole number from 0"):
        env.step(action)


def test_numpy_codes_decode_to_answers_the_game_takes():
    ruleset = loaded("classic")
    codec = codec_for(ruleset)
    for game, decision in positions(ruleset, 4, 120):
        for code in np.flatnonzero(codec.mask(game, decision)):  # numpy integers, as a policy gives them
            assert codec.check(game, decision, code) is None
