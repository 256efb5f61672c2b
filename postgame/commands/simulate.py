"""`postgame simulate`: a season of simulated tournaments in the game's event format, one log
per match: Swiss for two-seat symmetric games, role rotation for games of roles, scenario sweeps
for games played from scenarios (engine.formats)."""
from __future__ import annotations

import argparse
import math
from datetime import date
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from engine.games import ROLES, SWEEP, SWISS, GameKit, get_game, known_games
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
MAX_SEATS = 99
DEFAULT_PLAYERS = 8

EXAMPLES = f"""\
examples:
  postgame simulate vitorian --players 16 --rounds 4 --seed 7 --out out/sim
  postgame simulate vitorian --players 32 --rounds 5 --tournaments 10 --workers 8 --seed 1 \\
      --out out/season --bots greedy,random --json > season.json
  postgame simulate hunt --seats 3 --players 9 --rounds 6 --out out/hunt
  postgame simulate bid --seats 4 --scenario siege --matches 10 --out out/bid
  postgame simulate bid --scenario my-scenario.toml --matches 5 --json > sweep.json

The game's kit chooses the format (`postgame games` lists each game):
  swiss   two-seat symmetric games: players of equal score meet, standings by points.
  roles   games of roles (hunt: 1 fox against hounds): tables of --seats (the game's range);
          each player takes each seat in turn, so every SEATS rounds everyone has played every
          role once. --players must be a multiple of --seats; default rounds: one rotation.
          Standings overall and per role.
  sweep   games played from scenarios (bid): every pairing of the game's builds, both ways
          round, mirrors included, --matches times each (default 1), from --scenario (a name
          or a TOML file; default: the game's). Standings per build, overall and per side, and
          the record of every pairing. No --players or --rounds: a sweep seats builds.
(hunt and bid are the test games of tests/games: this build lists them once they are
registered, as the test suite does.)

Logs go to OUT/<tournament id>/<match id>{LOG_SUFFIX} (binary framed logs; convert them with
`postgame log convert`). The same seed gives byte-identical logs whatever --workers is.
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "simulate", help="simulate tournaments between bots and write their logs",
        description="Simulate a season of tournaments in the game's format (Swiss, role "
                    "rotation or scenario sweep): entrants seated by the format, matches "
                    "played by bots, one log per match.",
        examples=EXAMPLES)
    p.add_argument("game", type=str.lower,
                   help=f"game to simulate ({', '.join(known_games())})")
    p.add_argument("--players", type=int_in(2, MAX_PLAYERS),
                   help=f"players per tournament, 2 to {MAX_PLAYERS} (default {DEFAULT_PLAYERS}; "
                        "role rotation: twice --seats; not for sweeps)")
    p.add_argument("--rounds", type=int_in(1, MAX_PLAYERS),
                   help="rounds (Swiss: at most one per opponent, default ceil(log2(players)); "
                        "role rotation: default --seats, one full rotation; not for sweeps)")
    p.add_argument("--seats", type=int_in(2, MAX_SEATS),
                   help="seats per table, for games played at tables of several sizes "
                        "(default: the game's)")
    p.add_argument("--scenario", metavar="NAME|FILE",
                   help="the scenario every match is played from, for games played from "
                        "scenarios: one of the game's by name, or a TOML file")
    p.add_argument("--matches", type=int_in(1, MAX_PLAYERS),
                   help="sweeps: matches of every pairing of builds (default 1)")
    p.add_argument("--seed", type=int_in(0, INT64_MAX), default=1,
                   help=f"season seed, 0 to {INT64_MAX}; everything derives from it")
    p.add_argument("--out", type=Path, default=Path("out"), help="output folder (default out)")
    p.add_argument("--tournaments", type=int_in(1, MAX_TOURNAMENTS), default=1,
                   help=f"tournaments in the season, 1 to {MAX_TOURNAMENTS}")
    p.add_argument("--start", type=date.fromisoformat,
                   help="first tournament's date, YYYY-MM-DD (default: derived from the seed)")
    p.add_argument("--workers", type=int_in(1, MAX_WORKERS), default=1,
                   help=f"processes playing matches, 1 to {MAX_WORKERS}")
    p.add_argument("--bots", default="", help="comma-separated bots dealt to players (sweeps: "
                                              "to seats) in turn (default: the game's best bot)")
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
    kit = get_game(args.game)
    seats = _seats(kit, args.seats)
    players, rounds = _players_and_rounds(kit, args, seats)
    bots = tuple(b.strip() for b in args.bots.split(",") if b.strip())
    return SeasonConfig(game=args.game, players=players, rounds=rounds, seed=args.seed,
                        out=args.out, tournaments=args.tournaments, start=args.start,
                        bots=bots, workers=args.workers, sign_key=_sign_key(args.sign_key),
                        seats=None if args.seats is None else seats,
                        scenario=_scenario(kit, args.scenario))


def _seats(kit: GameKit, asked: int | None) -> int:
    if asked is not None and len(kit.table_sizes) == 1:
        raise UserError(f"--seats: {kit.name} is played at tables of {kit.table_sizes[0]} "
                        "seats only")
    try:
        return kit.table_size(asked)
    except ValueError as err:
        raise UserError(f"--seats: {err}") from err


def _players_and_rounds(kit: GameKit, args: argparse.Namespace, seats: int) -> tuple[int, int]:
    """--players and --rounds as the format takes them (a sweep: its seats, --matches)."""
    if kit.format == SWEEP:
        for given, name in ((args.players, "--players"), (args.rounds, "--rounds")):
            if given is not None:
                raise UserError(f"{name}: a sweep seats the game's builds, not players, and "
                                "plays --matches of every pairing")
        return seats, args.matches or 1
    if args.matches is not None:
        raise UserError(f"--matches: {kit.name} is played in {kit.format} rounds, not sweeps "
                        "(use --rounds)")
    if kit.format == ROLES:
        return _rotation(args, seats)
    players = args.players or DEFAULT_PLAYERS
    rounds = max(1, math.ceil(math.log2(players))) if args.rounds is None else args.rounds
    if kit.format == SWISS and rounds > max_rounds(players):
        raise UserError(f"--rounds {rounds}: a Swiss tournament of {players} players has "
                        f"1 to {max_rounds(players)} rounds (one per opponent)")
    return players, rounds


def _rotation(args: argparse.Namespace, seats: int) -> tuple[int, int]:
    players = args.players or 2 * seats
    if players % seats:
        raise UserError(f"--players {players}: role rotation seats everyone at tables of "
                        f"{seats}; choose a multiple of {seats}")
    return players, args.rounds or seats


def _scenario(kit: GameKit, asked: str | None) -> Any:
    if asked is None:
        return None
    try:
        return kit.scenario(asked)
    except ValueError as err:
        raise UserError(f"--scenario: {err}") from err


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


COLUMNS = {"rank": "#", "player": "player", "build": "build", "archetype": "archetype",
           "bot": "bot", "points": "pts", "played": "played", "record": "W-L-D",
           "omw": "OMW%", "win_rate": "win%"}
RIGHT = ("#", "pts", "played", "OMW%", "win%")


def _print_standings(tours: list[Tournament], cfg: SeasonConfig) -> None:
    console = Console()
    limit = None if len(tours) == 1 else 8
    for tour in tours:
        title = f"{tour.id} ({tour.date}, {tour.format.name}, {len(tour.matches)} matches)"
        _print_rows(console, title, standings(tour), limit)
        breakdown = tour.format.breakdown()
        for role, rows in breakdown.get("roles", {}).items():
            _print_rows(console, f"{tour.id} as {role}", rows, limit)
        for side, rows in breakdown.get("sides", {}).items():
            _print_rows(console, f"{tour.id} on side {side}", rows, limit)
        if breakdown.get("pairings"):
            _print_pairings(console, tour.id, breakdown["pairings"])
    total = sum(len(t.matches) for t in tours)
    console.print(f"{total} match logs written under {cfg.out}")


def _print_rows(console: Console, title: str, rows: list[dict[str, Any]],
                limit: int | None) -> None:
    keys = [k for k in COLUMNS if k in rows[0] or k == "record"] if rows else []
    table = Table(title=title)
    for key in keys:
        table.add_column(COLUMNS[key], justify="right" if COLUMNS[key] in RIGHT else "left")
    for row in rows[:limit]:
        table.add_row(*(_cell(row, key) for key in keys))
    console.print(table)
    if limit and len(rows) > limit:
        console.print(f"  ... {len(rows) - limit} more (see --json)")


def _cell(row: dict[str, Any], key: str) -> str:
    if key == "record":
        return f"{row['wins']}-{row['losses']}-{row['draws']}"
    if key in ("omw", "win_rate"):
        return f"{100 * row[key]:.1f}"
    return str(row[key])


def _print_pairings(console: Console, tid: str, pairings: list[dict[str, Any]]) -> None:
    sides = list(pairings[0]["wins"])
    table = Table(title=f"{tid} pairings")
    for name in [*sides, "played", *(f"{side} wins" for side in sides), "draws"]:
        table.add_column(name, justify="left" if name in sides else "right")
    for row in pairings:
        table.add_row(*(row[side] for side in sides), str(row["played"]),
                      *(str(row["wins"][side]) for side in sides), str(row["draws"]))
    console.print(table)
