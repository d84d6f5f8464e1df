"""Train a MaskablePPO policy (sb3-contrib) for one seat of a Monopoly edition against bots, then measure its win
rate against `random` and against `greedy` (docs/env.md, "A trained policy").

Install (the CPU build of PyTorch: a plain `pip install torch` on Linux takes a CUDA build of several GB):

    pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu
    pip install 'monopoly-engine[rl]' sb3-contrib

Run:

    python examples/train_maskable_ppo.py --steps 200000 --opponents random --players 2 --eval-games 200
    python examples/train_maskable_ppo.py --steps 200000 --opponents greedy --hybrid --save greedy-ppo.zip

The learner trains against ``--opponents`` bots with a dense reward (its change of net worth, `reward="worth"`),
one decision a step, only legal actions (the environment's `action_masks()`). It is then evaluated on fresh
seeds, its seat rotating, against `random` and against `greedy`, beside a policy that picks a legal action at
random; each line gives wins, games, and the win rate with its 95% interval.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

import numpy as np
from sb3_contrib import MaskablePPO

from monopoly.env import MonopolySeatEnv


def make_env(args: argparse.Namespace, opponent: str, seat: int = 0, reward: str = "worth") -> MonopolySeatEnv:
    return MonopolySeatEnv(args.ruleset, tuple(args.variant), (opponent,) * (args.players - 1), seat=seat,
                           max_turns=args.max_turns, reward=reward, hybrid=args.hybrid)


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def evaluate(args: argparse.Namespace, opponent: str, policy: Any) -> dict[str, Any]:
    """Wins of ``policy`` (a MaskablePPO model, or None: a legal action at random) in ``args.eval_games`` games."""
    wins = draws = 0
    rng = np.random.default_rng(args.seed)
    for game in range(args.eval_games):
        seat = game % args.players
        env = make_env(args, opponent, seat=seat, reward="win")
        observation, _ = env.reset(seed=1_000_000 + game)
        done = False
        reward = 0.0
        while not done:
            masks = env.action_masks()
            if policy is None:
                legal = np.flatnonzero(masks)
                action = int(legal[rng.integers(len(legal))])
            else:
                action, _ = policy.predict(observation, action_masks=masks, deterministic=args.deterministic)
            observation, reward, terminated, truncated, _ = env.step(int(action))
            done = terminated or truncated
        wins += reward > 0
        draws += reward == 0
    low, high = wilson(wins, args.eval_games)
    return {"opponent": opponent, "games": args.eval_games, "wins": int(wins), "no_winner": int(draws),
            "win_rate": wins / args.eval_games, "interval": [round(low, 3), round(high, 3)]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="classic")
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--players", type=int, default=2, help="seats, the learner's included (default 2)")
    parser.add_argument("--opponents", default="random", help="the bot the learner trains against")
    parser.add_argument("--steps", type=int, default=200_000, help="environment steps of training")
    parser.add_argument("--max-turns", type=int, default=300, help="turn cap of a game")
    parser.add_argument("--hybrid", action="store_true", help="a greedy helper answers the learner's rare decisions")
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--deterministic", action="store_true",
                        help="evaluate the policy's likeliest action (by default an action drawn from the policy)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", default=None, help="save the trained model to this file")
    parser.add_argument("--load", default=None, help="evaluate a saved model instead of training one")
    parser.add_argument("--format", choices=["text", "json"], default="text")
    args = parser.parse_args()

    env = make_env(args, args.opponents)
    start = time.perf_counter()
    if args.load:
        model = MaskablePPO.load(args.load, env=env, device="cpu")
    else:
        model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0, n_steps=2048, batch_size=256,
                            learning_rate=3e-4, gamma=0.999, ent_coef=0.01, device="cpu")
        model.learn(total_timesteps=args.steps)
    trained = time.perf_counter() - start
    if args.save:
        model.save(args.save)
    results = {"ruleset": args.ruleset, "variants": args.variant, "players": args.players,
               "trained_against": args.opponents, "steps": args.steps, "hybrid": args.hybrid,
               "training_seconds": round(trained, 1), "trained": [], "random_policy": []}
    for opponent in ("random", "greedy"):
        results["trained"].append(evaluate(args, opponent, model))
        results["random_policy"].append(evaluate(args, opponent, None))
    if args.format == "json":
        print(json.dumps(results, indent=2))
        return
    print(f"MaskablePPO, {args.steps:,} steps against {args.opponents} ({args.players} players, "
          f"{'hybrid, ' if args.hybrid else ''}{trained:.0f} s of training); evaluated on {args.eval_games} games "
          "each, its seat rotating:")
    for label, rows in (("trained policy", results["trained"]), ("random legal actions", results["random_policy"])):
        for row in rows:
            low, high = row["interval"]
            print(f"  {label:21} vs {row['opponent']:7}: {row['wins']:4} of {row['games']} won "
                  f"({100 * row['win_rate']:.1f}%, 95% CI {100 * low:.1f}-{100 * high:.1f}%; no winner in "
                  f"{row['no_winner']})")


if __name__ == "__main__":
    main()
