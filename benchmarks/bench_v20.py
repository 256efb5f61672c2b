"""V20 combat figures: fights simulated per second, events replayed per second, exact dice
distributions computed per second, each beside a baseline measured in the same run.

    .venv/bin/python benchmarks/bench_v20.py [--fights 200]

- simulation: the tactical bot on both sides against random bots on both sides (baseline), the
  builds of data/v20/builds.toml paired in turn, the simulated Storyteller ruling from the
  "bonfire" scenario;
- replay (engine.replay.Replay: snapshots, turn index, change lists) against a plain fold of
  `apply` over the same events (baseline);
- dice: `distribution` for every pool 1-20, difficulty 2-10, with and without a specialty, its
  cache cleared, against scoring the same number of single rolls (baseline).
"""
from __future__ import annotations

import argparse
import itertools
import random
import time
from typing import Any

from engine.bots import RandomBot
from engine.games import get_game
from engine.replay import Replay
from engine.ruleset import get_ruleset
from engine.simulate import play_match
from engine.v20 import dice
from events.base import Header, Seat

RULES = get_ruleset("v20")


def headers(n: int) -> list[Header]:
    kit = get_game("v20")
    scenario = kit.scenario("bonfire")
    pairs = list(itertools.product(kit.archetypes, repeat=2))
    found = []
    for i in range(n):
        builds = pairs[i % len(pairs)]
        rng = random.Random(i)
        seats = [Seat(seat=s, player=f"p{s}", setup=kit.setup(b, place, rng))
                 for s, (b, place) in enumerate(zip(builds, kit.layout(2)))]
        found.append(Header(game="v20", ruleset="v20@1", match_id=f"b{i}", seats=seats,
                            scenario=scenario, seed=i))
    return found


def simulate(found: list[Header], bot: type) -> tuple[float, list[tuple[Header, list[Any]]]]:
    storyteller = get_game("v20").storyteller
    assert storyteller is not None
    start = time.perf_counter()
    logs = []
    for h in found:
        events, _ = play_match(RULES, h, {0: bot(), 1: bot()}, random.Random(h.seed),
                               storyteller=storyteller())
        logs.append((h, events))
    return time.perf_counter() - start, logs


def fold(logs: list[tuple[Header, list[Any]]]) -> float:
    start = time.perf_counter()
    for h, events in logs:
        state = RULES.setup(h)
        for event in events:
            RULES.apply(state, event)
    return time.perf_counter() - start


def replay(logs: list[tuple[Header, list[Any]]]) -> float:
    start = time.perf_counter()
    for h, events in logs:
        Replay(RULES, h, events)
    return time.perf_counter() - start


def distributions() -> tuple[int, float, float]:
    cells = list(itertools.product(range(1, 21), range(2, 11), (False, True)))
    dice._distribution.cache_clear()
    start = time.perf_counter()
    for pool, d, specialty in cells:
        dice.distribution(pool, d, specialty=specialty)
    exact = time.perf_counter() - start
    rng = random.Random(1)
    rolls = [tuple(rng.randint(1, 10) for _ in range(pool)) for pool, _, _ in cells]
    start = time.perf_counter()
    for roll, (_, d, specialty) in zip(rolls, cells):
        dice.score(roll, d, specialty=specialty)
    return len(cells), exact, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fights", type=int, default=200)
    args = parser.parse_args()
    from engine.v20.bot import TacticalBot

    found = headers(args.fights)
    tactical, logs = simulate(found, TacticalBot)
    randomly, _ = simulate(found, RandomBot)
    events = sum(len(e) for _, e in logs)
    print(f"fights: {len(logs)} tactical-vs-tactical, {events} events "
          f"({events // len(logs)} per fight)")
    print(f"simulate tactical : {len(logs) / tactical:9.1f} fights/s")
    print(f"simulate random   : {len(logs) / randomly:9.1f} fights/s  (baseline; "
          f"tactical/random = {randomly / tactical:.2f}x)")
    folded, replayed = fold(logs), replay(logs)
    print(f"plain fold        : {events / folded:9.0f} events/s  (baseline)")
    print(f"replay            : {events / replayed:9.0f} events/s  (replay/fold = "
          f"{folded / replayed:.2f}x)")
    cells, exact, scored = distributions()
    print(f"distributions     : {cells / exact:9.0f} exact laws/s (pools 1-20, difficulties "
          f"2-10, with and without a specialty)")
    print(f"single rolls      : {cells / scored:9.0f} rolls scored/s  (baseline; law/roll = "
          f"{scored / exact:.3f}x)")


if __name__ == "__main__":
    main()
