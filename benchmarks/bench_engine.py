"""Engine figures: matches simulated per second, events replayed per second.

Each figure is printed beside a baseline measured in the same run: replay (snapshots, turn index,
change lists) against a plain fold of `apply`; greedy-bot simulation against random-bot.

    .venv/bin/python benchmarks/bench_engine.py [--matches N]
"""
from __future__ import annotations

import argparse
import random
import time

from engine.bots import RandomBot
from engine.replay import Replay
from engine.ruleset import get_ruleset
from engine.simulate import play_match
from engine.vitorian.archetypes import ARCHETYPES, build_deck
from engine.vitorian.bot import GreedyBot
from events.base import Header, Seat

RULES = get_ruleset("vitorian")
"""The newest version: what new matches are played with."""


def header(seed: int) -> Header:
    rng = random.Random(seed)
    seats = [Seat(seat=i, player=f"p{i}", setup=build_deck(rng.choice(ARCHETYPES), rng))
             for i in (0, 1)]
    return Header(game="vitorian", ruleset=f"vitorian@{RULES.version}", match_id=f"b{seed}",
                  seats=seats)


def simulate(n: int, bot: type) -> tuple[float, list[tuple[Header, list]]]:
    start = time.perf_counter()
    logs = []
    for seed in range(n):
        h = header(seed)
        events, _ = play_match(RULES, h, {0: bot(), 1: bot()}, random.Random(seed))
        logs.append((h, events))
    return time.perf_counter() - start, logs


def plain_fold(logs: list[tuple[Header, list]]) -> float:
    start = time.perf_counter()
    for h, events in logs:
        state = RULES.setup(h)
        apply = RULES.apply
        for event in events:
            apply(state, event)
    return time.perf_counter() - start


def replay_all(logs: list[tuple[Header, list]]) -> float:
    start = time.perf_counter()
    for h, events in logs:
        Replay(RULES, h, events)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=300)
    n = parser.parse_args().matches
    t_greedy, logs = simulate(n, GreedyBot)
    t_random, _random_logs = simulate(n, RandomBot)
    events = sum(len(e) for _, e in logs)
    t_fold, t_replay = plain_fold(logs), replay_all(logs)
    print(f"matches: {n} greedy-vs-greedy, {events} events ({events / n:.0f} per match)")
    print(f"simulate greedy : {n / t_greedy:9.1f} matches/s")
    print(f"simulate random : {n / t_random:9.1f} matches/s  (baseline; greedy/random = "
          f"{t_random / t_greedy:.2f}x)")
    print(f"plain fold      : {events / t_fold:9.0f} events/s  (baseline)")
    print(f"replay          : {events / t_replay:9.0f} events/s  (replay/fold = "
          f"{t_fold / t_replay:.2f}x)")


if __name__ == "__main__":
    main()
