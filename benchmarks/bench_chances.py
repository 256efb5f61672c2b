"""Winning chances (engine.chances): how long a match's line takes, and whether the chances are
calibrated, on a simulated season.

    .venv/bin/python benchmarks/bench_chances.py [--game vitorian] [--matches 60]
        [--playouts 24] [--bots random] [--points 5] [--seed 1]

A season of --matches matches is played by --bots (random, or the game's own, e.g. greedy).
Timing: the whole line (every step) of the first match, as seat 0 sees it, with --playouts.
Calibration: at --points random steps of every match, seat 0's chance as --as estimates it
(random-bot playouts from states sampled from its view) against whether seat 0 went on to win;
predictions bucketed by tenths, each bucket's mean prediction beside the share won, and the
Brier score beside that of always saying the season's base rate. Playouts by random bots
estimate a random bot's chances: against a season of stronger bots the gap is what a better
playout policy would close.
"""
from __future__ import annotations

import argparse
import random
import time

from engine.bots import RandomBot, make_bot
from engine.chances import _estimate, winning_chances
from engine.games import get_game
from engine.replay import Replay
from engine.ruleset import WIN, get_ruleset
from engine.simulate import derive_seed, play_match
from events.base import Header, Seat


def season(game: str, matches: int, bots: str, seed: int) -> list[tuple[Header, list, tuple]]:
    kit = get_game(game)
    ruleset = get_ruleset(kit.ruleset)
    played = []
    for m in range(matches):
        rng = random.Random(derive_seed(seed, m))
        seats = [Seat(seat=i, player=f"p{i}",
                      setup=kit.build_deck(rng.choice(kit.archetypes), rng)) for i in (0, 1)]
        header = Header(game=game, ruleset=kit.ruleset, match_id=f"cal-{m}", seats=seats,
                        seed=derive_seed(seed, m, "match"))
        chosen = {i: make_bot(bots, dict(kit.bots)) for i in (0, 1)}
        events, outcome = play_match(ruleset, header, chosen, random.Random(header.seed))
        played.append((header, events, outcome.results))
    return played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="vitorian")
    parser.add_argument("--matches", type=int, default=60)
    parser.add_argument("--playouts", type=int, default=24)
    parser.add_argument("--bots", default="random", help="who plays the season")
    parser.add_argument("--points", type=int, default=5, help="steps sampled per match")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--as", dest="perspective", default="0",
                        help="whose estimate: 0 (seat 0, default), spectator or organiser")
    args = parser.parse_args()
    kit = get_game(args.game)
    ruleset = get_ruleset(kit.ruleset)
    seen = int(args.perspective) if args.perspective.isdigit() else args.perspective
    started = time.perf_counter()
    played = season(args.game, args.matches, args.bots, args.seed)
    print(f"{args.game}: {len(played)} matches by {args.bots} bots in "
          f"{time.perf_counter() - started:.1f} s")

    header, events, _ = played[0]
    started = time.perf_counter()
    line = winning_chances(ruleset, header, events, 0, determinize=kit.determinize,
                           playouts=args.playouts, seed=args.seed)
    spent = time.perf_counter() - started
    print(f"one match's line: {len(line.steps)} steps x {args.playouts} playouts in {spent:.1f} s "
          f"({spent / len(line.steps) * 1000:.0f} ms a step)")

    rng = random.Random(args.seed)
    predictions: list[tuple[float, int]] = []
    started = time.perf_counter()
    for header, events, results in played:
        replay = Replay(ruleset, header, events)
        for step in sorted(rng.sample(range(len(events)), min(args.points, len(events)))):
            state = replay.seek(step)
            estimate = _estimate(ruleset, header, state, step, 0, seen, kit.determinize,
                                 lambda: {0: RandomBot(), 1: RandomBot()}, args.playouts,
                                 args.seed, 5_000, 2)
            predictions.append((estimate.chance[0], int(results[0] == WIN)))
    print(f"{len(predictions)} predictions in {time.perf_counter() - started:.1f} s")
    report(predictions)


def report(predictions: list[tuple[float, int]]) -> None:
    base = sum(won for _, won in predictions) / len(predictions)
    print(f"{'predicted':>12} {'n':>5} {'mean predicted':>15} {'share won':>10}")
    for tenth in range(10):
        low, high = tenth / 10, (tenth + 1) / 10
        bucket = [(p, w) for p, w in predictions
                  if low <= p < high or (tenth == 9 and p == 1.0)]
        if not bucket:
            continue
        mean = sum(p for p, _ in bucket) / len(bucket)
        won = sum(w for _, w in bucket) / len(bucket)
        print(f"{f'{low:.0%}-{high:.0%}':>12} {len(bucket):>5} {mean:>15.1%} {won:>10.1%}")
    brier = sum((p - w) ** 2 for p, w in predictions) / len(predictions)
    naive = sum((base - w) ** 2 for _, w in predictions) / len(predictions)
    print(f"Brier score {brier:.3f} (always {base:.0%}: {naive:.3f}; skill "
          f"{1 - brier / naive:+.2f})")


if __name__ == "__main__":
    main()
