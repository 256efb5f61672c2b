"""How much better the greedy Vitorian bot plays than the random one: N seeded matches, seats
alternating, random archetype decks; prints the win rate with a 95% Wilson interval.

    .venv/bin/python benchmarks/bot_strength.py [--matches 500] [--seed 1]
"""
from __future__ import annotations

import argparse
import math
import random
import time

from engine.bots import RandomBot
from engine.ruleset import get_ruleset
from engine.simulate import derive_seed, play_match
from engine.vitorian.archetypes import ARCHETYPES, build_deck
from engine.vitorian.bot import GreedyBot
from events.base import Header, Seat

RULES = get_ruleset("vitorian@1")


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    centre = (wins + z * z / 2) / (n + z * z)
    half = z * math.sqrt(wins * (n - wins) / n + z * z / 4) / (n + z * z)
    return centre - half, centre + half


def duel(seed: int, greedy_seat: int) -> int | None:
    """The winner's seat relative to the greedy bot: 1 greedy won, 0 lost, None draw."""
    rng = random.Random(seed)
    seats = [Seat(seat=i, player=f"p{i}", deck=build_deck(rng.choice(ARCHETYPES), rng))
             for i in (0, 1)]
    header = Header(game="vitorian", ruleset="vitorian@1", match_id=f"duel-{seed}",
                    seats=seats, seed=seed)
    bots = {greedy_seat: GreedyBot(), 1 - greedy_seat: RandomBot()}
    _, outcome = play_match(RULES, header, bots, rng)
    return None if outcome.winner is None else int(outcome.winner == greedy_seat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    results = [duel(derive_seed(args.seed, i), i % 2) for i in range(args.matches)]
    wins, draws = results.count(1), results.count(None)
    low, high = wilson(wins, args.matches)
    print(f"greedy vs random, {args.matches} matches: {wins} wins, {draws} draws, "
          f"{args.matches - wins - draws} losses")
    print(f"greedy win rate {wins / args.matches:.1%} (95% Wilson {low:.1%}-{high:.1%}); "
          f"{time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
