"""Eredan figures: the greedy bot's win rate against random, and engine speed (matches simulated
and events replayed per second, in CPU time, beside a plain fold of `apply`).

    .venv/bin/python benchmarks/eredan_bench.py [--matches 500] [--seed 1] [--speed 200]
"""
from __future__ import annotations

import argparse
import gc
import math
import random
import time

from engine.bots import RandomBot
from engine.eredan.archetypes import ARCHETYPES, build_deck
from engine.eredan.bot import GreedyBot
from engine.replay import Replay
from engine.ruleset import get_ruleset
from engine.simulate import derive_seed, play_match
from events.base import Header, Seat

RULES = get_ruleset("eredan@1")


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    centre = (wins + z * z / 2) / (n + z * z)
    half = z * math.sqrt(wins * (n - wins) / n + z * z / 4) / (n + z * z)
    return centre - half, centre + half


def header(seed: int) -> Header:
    rng = random.Random(seed)
    seats = [Seat(seat=i, player=f"p{i}", setup=build_deck(rng.choice(ARCHETYPES), rng))
             for i in (0, 1)]
    return Header(game="eredan", ruleset="eredan@1", match_id=f"duel-{seed}", seats=seats,
                  seed=seed)


def duel(seed: int, greedy_seat: int) -> int | None:
    """1 greedy won, 0 lost, None draw."""
    bots = {greedy_seat: GreedyBot(), 1 - greedy_seat: RandomBot()}
    _, outcome = play_match(RULES, header(seed), bots, random.Random(seed))
    return None if outcome.winner is None else int(outcome.winner == greedy_seat)


def strength(matches: int, seed: int) -> None:
    start = time.perf_counter()
    results = [duel(derive_seed(seed, i), i % 2) for i in range(matches)]
    wins, draws = results.count(1), results.count(None)
    low, high = wilson(wins, matches)
    print(f"greedy vs random, {matches} matches (seats alternating): {wins} wins, {draws} draws, "
          f"{matches - wins - draws} losses")
    print(f"greedy win rate {wins / matches:.1%} (95% Wilson {low:.1%}-{high:.1%}); "
          f"{time.perf_counter() - start:.1f} s")


def speed(matches: int) -> None:
    logs = []
    start = time.process_time()
    for i in range(matches):
        h = header(i)
        events, _ = play_match(RULES, h, {0: GreedyBot(), 1: GreedyBot()}, random.Random(i))
        logs.append((h, events))
    simulated = time.process_time() - start
    events = sum(len(e) for _, e in logs)
    gc.collect()
    start = time.process_time()
    for h, evs in logs:
        state = RULES.setup(h)
        for event in evs:
            RULES.apply(state, event)
    fold = time.process_time() - start
    start = time.process_time()
    for h, evs in logs:
        Replay(RULES, h, evs)
    replay = time.process_time() - start
    print(f"{matches} greedy-vs-greedy matches, {events} events ({events / matches:.0f} per match)")
    print(f"simulate greedy : {matches / simulated:9.1f} matches/s (CPU)")
    print(f"plain fold      : {events / fold:9.0f} events/s (CPU, baseline)")
    print(f"replay          : {events / replay:9.0f} events/s (CPU, replay/fold = "
          f"{fold / replay:.2f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--speed", type=int, default=200, help="matches for the speed figures")
    args = parser.parse_args()
    if args.matches:
        strength(args.matches, args.seed)
    if args.speed:
        speed(args.speed)


if __name__ == "__main__":
    main()
