"""How much better each game's own bot plays than the random one: N seeded matches, seats
alternating; prints the win rate with a 95% Wilson interval.

    .venv/bin/python benchmarks/bot_strength.py [--game vitorian|eredan|v20|all]
                                                [--matches 500] [--seed 1] [--scenario NAME]

Vitorian and Eredan pit the greedy bot against random with random archetype decks. V20 pits the
tactical bot against random over the sweep's build pairings (every build against every build,
mirrors too, as `postgame simulate v20` pairs them), in the kit's default scenario unless
--scenario names another, the tactical bot taking each side in turn; it also prints the win
rate by the tactical bot's build and the fights per second.

The bots decide from their seat's observation only (engine/bots.py), so these figures measure
play without peeking at hidden cards.
"""
from __future__ import annotations

import argparse
import importlib
import math
import random
import time
from collections import Counter
from collections.abc import Callable
from itertools import product
from typing import Any

from engine.bots import Bot, RandomBot
from engine.games import Place, get_game
from engine.simulate import derive_seed, play_match
from events.base import Header, Seat

GAMES = ("vitorian", "eredan", "v20")
BOT_CLASS = {"vitorian": "GreedyBot", "eredan": "GreedyBot", "v20": "TacticalBot"}
"""Each game's own bot, in engine/<game>/bot.py."""


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    centre = (wins + z * z / 2) / (n + z * z)
    half = z * math.sqrt(wins * (n - wins) / n + z * z / 4) / (n + z * z)
    return centre - half, centre + half


def greedy_factory(game: str) -> Callable[[], Bot]:
    """The game's own bot class (each game keeps its own in engine/<game>/bot.py)."""
    return getattr(  # type: ignore[no-any-return]
        importlib.import_module(f"engine.{game}.bot"), BOT_CLASS[game])


def duel(game: str, seed: int, greedy_seat: int) -> int | None:
    """The winner's seat relative to the greedy bot: 1 greedy won, 0 lost, None draw.

    Decks and the match draw from one rng seeded by `seed` (as the Vitorian figures always did);
    Eredan reseeds the match rng as benchmarks/eredan_bench.py does, so both stay comparable."""
    archetypes = importlib.import_module(f"engine.{game}.archetypes")
    rng = random.Random(seed)
    seats = [Seat(seat=i, player=f"p{i}", setup=archetypes.build_deck(
        rng.choice(archetypes.ARCHETYPES), rng)) for i in (0, 1)]
    header = Header(game=game, ruleset=f"{game}@1", match_id=f"duel-{seed}", seats=seats,
                    seed=seed)
    bots = {greedy_seat: greedy_factory(game)(), 1 - greedy_seat: RandomBot()}
    match_rng = random.Random(seed) if game == "eredan" else rng
    rules = importlib.import_module(f"engine.{game}.rules").RULES
    _, outcome = play_match(rules, header, bots, match_rng)
    return None if outcome.winner is None else int(outcome.winner == greedy_seat)


def report(label: str, results: list[int | None], seconds: float) -> float:
    matches = len(results)
    wins, draws = results.count(1), results.count(None)
    low, high = wilson(wins, matches)
    print(f"{label} vs random, {matches} matches: {wins} wins, {draws} draws, "
          f"{matches - wins - draws} losses")
    print(f"{label} win rate {wins / matches:.1%} (95% Wilson {low:.1%}-{high:.1%}); "
          f"{seconds:.1f} s")
    return wins / matches


def strength(game: str, matches: int, seed: int, scenario: str | None = None) -> float:
    """Print and return the game's own bot's win rate in `game`."""
    if game == "v20":
        return v20_strength(matches, seed, scenario)
    start = time.perf_counter()
    results = [duel(game, derive_seed(seed, i), i % 2) for i in range(matches)]
    return report(f"{game}: greedy", results, time.perf_counter() - start)


# V20: the tactical bot over the sweep's pairings -----------------------------------------------

def v20_header(kit: Any, builds: tuple[str, ...], scenario: Any, seed: int) -> Header:
    """A sweep's match: side A's build against side B's, in the scenario (engine.formats)."""
    rng = random.Random(derive_seed(seed, "setup"))
    seats = [Seat(seat=i, player=f"p{i}", side=side,
                  setup=kit.setup(build, Place(side=side), rng))
             for i, (side, build) in enumerate(zip(("A", "B"), builds))]
    return Header(game="v20", ruleset=kit.ruleset, match_id=f"duel-{seed}", seats=seats,
                  seed=seed, scenario=scenario)


def v20_fight(kit: Any, builds: tuple[str, ...], scenario: Any, seed: int, seat: int,
              bot: Callable[[], Bot]) -> int | None:
    """1 if `bot` on `seat` beat the random bot, 0 if it lost, None for a draw."""
    bots = {seat: bot(), 1 - seat: RandomBot()}
    rules = importlib.import_module("engine.v20.rules").RULES
    _, outcome = play_match(rules, v20_header(kit, builds, scenario, seed), bots,
                            random.Random(seed), storyteller=kit.storyteller())
    return None if outcome.winner is None else int(outcome.winner == seat)


def v20_strength(matches: int, seed: int, scenario_name: str | None) -> float:
    """N fights: fight i plays the i-th pairing of the sweep (cycling), the tactical bot on
    side A in even cycles and on side B in odd ones, so each pairing is played from both
    sides alike."""
    kit = get_game("v20")
    scenario = kit.scenario(scenario_name)
    seated = kit.fixed_builds(scenario)
    pairings: list[tuple[str, ...]] = [seated] if seated else list(
        product(kit.archetypes, repeat=2))
    tactical = greedy_factory("v20")
    start = time.perf_counter()
    results, by_build = [], {b: Counter[Any]() for b in kit.archetypes}
    for i in range(matches):
        builds = pairings[i % len(pairings)]
        seat = (i // len(pairings)) % 2
        result = v20_fight(kit, builds, scenario, derive_seed(seed, i), seat, tactical)
        results.append(result)
        by_build.setdefault(builds[seat], Counter())[result] += 1
    seconds = time.perf_counter() - start
    rate = report(f"v20 ({scenario.name}): tactical", results, seconds)
    for build, tally in by_build.items():
        played = sum(tally.values())
        if played:
            low, high = wilson(tally[1], played)
            print(f"  as {build}: {tally[1]}/{played} wins, {tally[None]} draws "
                  f"({low:.0%}-{high:.0%})")
    print(f"v20: {matches / seconds:.1f} fights/s tactical vs random")
    random_speed(kit, pairings, scenario, seed, min(matches, 64))
    return rate


def random_speed(kit: Any, pairings: list[Any], scenario: Any, seed: int, n: int) -> None:
    """The same fights between random bots, for the speed the tactical bot costs."""
    start = time.perf_counter()
    for i in range(n):
        v20_fight(kit, pairings[i % len(pairings)], scenario, derive_seed(seed, i), 0,
                  RandomBot)
    print(f"v20: {n / (time.perf_counter() - start):.1f} fights/s random vs random")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=(*GAMES, "all"), default="vitorian")
    parser.add_argument("--matches", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scenario", default=None,
                        help="v20: the scenario fought in (default: the kit's)")
    args = parser.parse_args()
    for game in GAMES if args.game == "all" else (args.game,):
        strength(game, args.matches, args.seed, args.scenario)


if __name__ == "__main__":
    main()
