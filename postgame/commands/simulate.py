"""`postgame simulate`: a season of simulated Swiss tournaments, one log per match."""
from __future__ import annotations

import argparse
import math
from datetime import date
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from engine.games import get_game, known_games
from engine.simulate import SimulationError
from engine.tournament import (
    LOG_SUFFIX,
    SeasonConfig,
    Tournament,
    matches_per_season,
    run_season,
    standings,
    summary,
)
from postgame.commands.common import (
    FOUND_PROBLEMS,
    INT64_MAX,
    MAX_WORKERS,
    OK,
    UserError,
    add_command,
    int_in,
    print_json,
)

MAX_PLAYERS = 9999
"""Players per tournament: past the 576 generated names, players are numbered in four digits."""
MAX_TOURNAMENTS = 999
"""Tournament ids number the season's tournaments in three digits (vw-2026-001...)."""

EXAMPLES = f"""\
examples:
  postgame simulate vitorian --players 16 --rounds 4 --seed 7 --out out/sim
  postgame simulate vitorian --players 32 --rounds 5 --tournaments 10 --workers 8 --seed 1 \\
      --out out/season --bots greedy,random --json > season.json

Logs go to OUT/<tournament id>/<match id>{LOG_SUFFIX} (binary framed logs; convert them with
`postgame log convert`). The same seed gives byte-identical logs whatever --workers is.
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "simulate", help="simulate Swiss tournaments between bots and write their logs",
        description="Simulate a season of Swiss tournaments: players with decks of every "
                    "archetype, paired by score, matches played by bots, one log per match.",
        examples=EXAMPLES)
    p.add_argument("game", help=f"game to simulate ({', '.join(known_games())})")
    p.add_argument("--players", type=int_in(2, MAX_PLAYERS), default=8,
                   help=f"players per tournament, 2 to {MAX_PLAYERS} (default 8)")
    p.add_argument("--rounds", type=int_in(1, MAX_PLAYERS),
                   help="Swiss rounds, at most one per opponent (default: ceil(log2(players)))")
    p.add_argument("--seed", type=int_in(0, INT64_MAX), default=1,
                   help=f"season seed, 0 to {INT64_MAX}; everything derives from it")
    p.add_argument("--out", type=Path, default=Path("out"), help="output folder (default out)")
    p.add_argument("--tournaments", type=int_in(1, MAX_TOURNAMENTS), default=1,
                   help=f"tournaments in the season, 1 to {MAX_TOURNAMENTS}")
    p.add_argument("--start", type=date.fromisoformat,
                   help="first tournament's date, YYYY-MM-DD (default: derived from the seed)")
    p.add_argument("--workers", type=int_in(1, MAX_WORKERS), default=1,
                   help=f"processes playing matches, 1 to {MAX_WORKERS}")
    p.add_argument("--bots", default="", help="comma-separated bots dealt to players in turn "
                                              "(default: the game's best bot)")
    p.add_argument("--sign-key", "--key", dest="sign_key", type=Path, metavar="KEY",
                   help="sign every log with this private key (postgame keys new), so that "
                        "verify --key and ingest --key can tell the logs are yours")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="print a JSON summary on stdout")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    cfg = _config(args)
    try:
        tours = run_season(cfg, on_result=None) if args.quiet else _with_progress(cfg)
    except SimulationError as err:
        raise UserError(f"simulate: {err}", FOUND_PROBLEMS) from err
    if args.json:
        print_json(summary(cfg, tours))
    else:
        _print_standings(tours, cfg)
    return OK


def _config(args: argparse.Namespace) -> SeasonConfig:
    get_game(args.game)
    rounds = max(1, math.ceil(math.log2(args.players))) if args.rounds is None else args.rounds
    if rounds > max_rounds(args.players):
        raise UserError(f"--rounds {rounds}: a Swiss tournament of {args.players} players has "
                        f"1 to {max_rounds(args.players)} rounds (one per opponent)")
    bots = tuple(b.strip() for b in args.bots.split(",") if b.strip())
    return SeasonConfig(game=args.game, players=args.players, rounds=rounds, seed=args.seed,
                        out=args.out, tournaments=args.tournaments, start=args.start,
                        bots=bots, workers=args.workers, sign_key=_sign_key(args.sign_key))


def _sign_key(path: Path | None) -> bytes | None:
    from events.signing import KeyFileError, load_signer

    if path is None:
        return None
    try:
        return load_signer(path).raw()
    except KeyFileError as err:
        raise UserError(str(err)) from err


def max_rounds(players: int) -> int:
    """Rounds until everyone has met everyone (an odd count adds a bye a round): past that,
    Swiss pairing can only repeat matches."""
    return players if players % 2 else players - 1


def _with_progress(cfg: SeasonConfig) -> list[Tournament]:
    console = Console(stderr=True)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeRemainingColumn())
    with Progress(*columns, console=console, disable=not console.is_terminal) as progress:
        task = progress.add_task("matches", total=matches_per_season(cfg))
        return run_season(cfg, on_result=lambda _: progress.advance(task))


def _print_standings(tours: list[Tournament], cfg: SeasonConfig) -> None:
    console = Console()
    limit = None if len(tours) == 1 else 8
    for tour in tours:
        rows = standings(tour)
        table = Table(title=f"{tour.id} ({tour.date}, {len(tour.matches)} matches)")
        for col in ("#", "player", "archetype", "bot", "pts", "W-L-D", "OMW%"):
            table.add_column(col, justify="right" if col in ("#", "pts", "OMW%") else "left")
        for row in rows[:limit]:
            table.add_row(*_row(row))
        console.print(table)
        if limit and len(rows) > limit:
            console.print(f"  ... {len(rows) - limit} more (see --json)")
    total = sum(len(t.matches) for t in tours)
    console.print(f"{total} match logs written under {cfg.out}")


def _row(row: dict[str, Any]) -> list[str]:
    record = f"{row['wins']}-{row['losses']}-{row['draws']}"
    return [str(row["rank"]), row["player"], row["archetype"], row["bot"], str(row["points"]),
            record, f"{100 * row['omw']:.1f}"]
