"""Driving a game decision by decision gives the same game as letting the agents play."""

from __future__ import annotations

import monopoly
from monopoly.stepper import Stepper


def test_stepping_with_the_agents_own_answers_is_the_same_game():
    ruleset = monopoly.load_ruleset("classic")
    names = ["trader", "cautious", "random"]
    straight = []
    monopoly.Game(ruleset, [monopoly.make_agent(n) for n in names], seed=9, max_turns=150,
                  observers=[straight.append]).play()
    stepped = []
    game = monopoly.Game(ruleset, [monopoly.make_agent(n) for n in names], seed=9, max_turns=150,
                         observers=[stepped.append])
    stepper = Stepper(game, seats=[0, 2])
    kinds = set()
    decision = stepper.next()
    while decision is not None:
        assert decision.seat in (0, 2)
        kinds.add(decision.kind)
        decision = stepper.next(stepper.default(decision))
    assert stepped == straight
    assert {"act", "buy"} <= kinds


def test_illegal_answers_from_outside_are_refused_not_fatal():
    ruleset = monopoly.load_ruleset("classic")
    game = monopoly.Game(ruleset, [monopoly.Agent(), monopoly.make_agent("greedy")], seed=2, max_turns=40)
    refused = []
    game.observe(lambda e: refused.append(e) if e["type"] == "refused" else None)
    stepper = Stepper(game, seats=[0])
    decision = stepper.next()
    while decision is not None:
        answer = stepper.default(decision)
        if decision.kind == "act":
            answer = monopoly.Build(39)  # not ours: refused with a reason
        decision = stepper.next(answer)
    assert game.finished and refused and "is not yours" in refused[0]["reason"]
