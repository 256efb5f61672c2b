"""How much better each game's greedy bot plays than the random one: N seeded matches, seats
alternating, random archetype decks; prints the win rate with a 95% Wilson interval.

    .venv/bin/python benchmarks/bot_strength.py [--game vitorian|eredan|all] [--matches 500]
                                                [--seed 1]

The bots decide from their seat's observation only (engine/bots.py), so these figures measure
play without peeking at hidden cards.
"""
from __future__ import annotations

import argparse
import importlib
import math
import random
import time
from collections.abc import Callable

from engine.bots import Bot, RandomBot
from engine.simulate import derive_seed, play_match
from events.base import Header, Seat

GAMES = ("vitorian", "eredan")


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    centre = (wins + z * z / 2) / (n + z * z)
    half = z * math.sqrt(wins * (n - wins) / n + z * z / 4) / (n + z * z)
    return centre - half, centre + half


def greedy_factory(game: str) -> Callable[[], Bot]:
    """The game's greedy bot class (each game keeps its own in engine/<game>/bot.py)."""
    return importlib.import_module(f"engine.{game}.bot").GreedyBot  # type: ignore[no-any-return]


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


def strength(game: str, matches: int, seed: int) -> float:
    """Print and return the greedy bot's win rate in `game`."""
    start = time.perf_counter()
    results = [duel(game, derive_seed(seed, i), i % 2) for i in range(matches)]
    wins, draws = results.count(1), results.count(None)
    low, high = wilson(wins, matches)
    print(f"{game}: greedy vs random, {matches} matches: {wins} wins, {draws} draws, "
          f"{matches - wins - draws} losses")
    print(f"{game}: greedy win rate {wins / matches:.1%} (95% Wilson {low:.1%}-{high:.1%}); "
          f"{time.perf_counter() - start:.1f} s")
    return wins / matches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=(*GAMES, "all"), default="vitorian")
    parser.add_argument("--matches", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for game in GAMES if args.game == "all" else (args.game,):
        strength(game, args.matches, args.seed)


if __name__ == "__main__":
    main()
