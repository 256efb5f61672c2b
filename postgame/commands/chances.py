"""`postgame chances`: each seat's winning chances after every step of a match, as one
perspective may estimate them (engine.chances), and the match's turning points."""
from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path
from typing import Any

from engine.bots import make_bot
from engine.chances import ChanceLine, ChancesUnavailable, winning_chances
from engine.games import UnknownGame, get_game
from engine.narration import narration_for
from postgame.commands.common import (
    OK,
    UserError,
    add_command,
    int_in,
    load_log,
    parse_perspective,
    print_json,
)
from postgame.commands.replay import _checked, _ruleset, ingested_log

EXAMPLES = """\
examples:
  postgame chances match.pglog --as 0                      # seat 0's line, every step
  postgame chances match.pglog --as spectator --every 5 --playouts 64
  postgame chances vw-2026-001-r1-t1 --lake lake --as organiser --json

Each step's chance is the share of --playouts bot playouts won from that position, each started
from a whole state sampled from what the perspective may see (a seat's own unseen cards
shuffled, the opponent's hidden cards guessed from the catalog; the organiser's from the real
state). The same --seed gives the same line. Turning points are the steps whose chance moved
most from the step before.
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "chances", help="each seat's winning chances after every step of a match",
                    description="Estimate the winning chances after each step of a logged "
                                "match by seeded bot playouts, as one perspective may.",
                    examples=EXAMPLES)
    p.add_argument("log", help="a .pglog or .jsonl log (with --lake: or a match id)")
    p.add_argument("--lake", type=Path, metavar="DIR",
                   help="a lake: the match only if its log is the file that was ingested")
    p.add_argument("--as", dest="perspective", default="spectator",
                   help="SEAT number, player name, spectator (default) or organiser")
    p.add_argument("--playouts", type=int_in(1, 10_000), default=24,
                   help="playouts per step (default 24; the interval narrows as 1/sqrt)")
    p.add_argument("--every", type=int_in(1, 10_000), default=1,
                   help="estimate every Nth step (and the last), default every step")
    p.add_argument("--seed", type=int, default=0, help="the playouts' seed (default 0)")
    p.add_argument("--bot", default="random",
                   help="the bot playing the playouts out: random (default) or the game's own "
                        "(e.g. greedy)")
    p.add_argument("--json", action="store_true", help="the line as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    log = ingested_log(args.lake, args.log) if args.lake else load_log(args.log)
    ruleset = _ruleset(log.header.ruleset, log.path)
    perspective = parse_perspective(args.perspective, log.header)
    try:
        kit = get_game(log.header.game)
    except UnknownGame as err:
        raise UserError(f"{log.path}: {err}") from err
    make_bot(args.bot, dict(kit.bots))  # an unknown bot is refused before any playout
    seats = len(log.header.seats)
    total = len(log.events)
    steps = sorted(set(range(0, total + 1, args.every)) | {total})
    progress = _progress(len(steps)) if sys.stderr.isatty() and not args.json else None
    try:
        line = _checked(lambda: winning_chances(
            ruleset, log.header, log.events, perspective, determinize=kit.determinize,
            bots=lambda: {seat: make_bot(args.bot, dict(kit.bots)) for seat in range(seats)},
            playouts=args.playouts, seed=args.seed, steps=steps, progress=progress,
            storyteller=_storyteller(kit, log.header)), log.path)
    except ChancesUnavailable as err:
        raise UserError(f"{log.path}: {err}") from err
    finally:
        if progress is not None:
            progress(len(steps), len(steps))
            print(file=sys.stderr)
    players = [seat.player for seat in log.header.seats]
    if args.json:
        print_json(line_json(line, players))
    else:
        labels = dict(narration_for(log.header.game).perspectives(log.header))
        print(line_text(line, players, labels.get(perspective, str(perspective))))
    return OK


def _storyteller(kit: Any, header: Any) -> Any:
    """The game's simulated Storyteller for the playouts of a logged match (None: no
    Storyteller)."""
    build = kit.playout_storyteller
    return None if build is None else functools.partial(build, header)


def _progress(total: int) -> Any:
    def tell(done: int, _: int) -> None:
        print(f"\rplayouts: step {done} of {total}", end="", file=sys.stderr, flush=True)
    return tell


def line_json(line: ChanceLine, players: list[str]) -> dict[str, Any]:
    return {"perspective": line.perspective, "seed": line.seed, "playouts": line.playouts,
            "players": players,
            "steps": [{"step": s.step, "turn": s.turn, "playouts": s.playouts,
                       "chance": list(s.chance), "low": list(s.low), "high": list(s.high)}
                      for s in line.steps],
            "turning_points": [{"step": step, "swing": swing}
                               for step, swing in line.turning_points()]}


def line_text(line: ChanceLine, players: list[str], seen_as: str) -> str:
    heads = "  ".join(f"{name[:22]:>22}" for name in players)
    title = (f"winning chances seen as {seen_as}, {line.playouts} playouts a step "
             f"(seed {line.seed}); 95% intervals in brackets")
    rows = [title, f"{'step':>5} {'turn':>4}  {heads}"]
    for s in line.steps:
        cells = "  ".join(f"{f'{c:.0%} [{lo:.0%}-{hi:.0%}]':>22}"
                          for c, lo, hi in zip(s.chance, s.low, s.high))
        rows.append(f"{s.step:>5} {s.turn:>4}  {cells}" + ("  (the result)" if not s.playouts
                                                            else ""))
    points = line.turning_points()
    if points:
        rows.append("turning points for " + players[0] + ": " + ", ".join(
            f"step {step} ({swing:+.0%})" for step, swing in points))
    return "\n".join(rows)
