"""What the subcommands share: exit codes, the user-error type, log loading, JSON output and
the argparse plumbing (a subcommand with examples, the log paths argument, the engine that runs
a lake's SQL and the lake's connection on it)."""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from engine.ruleset import OMNISCIENT, SPECTATOR, Perspective
from events.base import Header

OK, FOUND_PROBLEMS, USER_ERROR = 0, 1, 2
INT64_MAX = 2**63 - 1
"""The largest number an option takes: what a log's 64-bit fields and DuckDB's BIGINT hold."""


def add_command(sub: argparse._SubParsersAction, name: str, *, help: str, description: str,
                examples: str) -> argparse.ArgumentParser:
    """A subcommand whose --help ends with its examples, laid out as written."""
    parser: argparse.ArgumentParser = sub.add_parser(
        name, help=help, description=description, epilog=examples,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    return parser


ENGINE_HELP = ("what runs the lake's SQL: duckdb, embedded (the default), or spark, the same "
               "models on Apache Spark (needs Java and pyspark; docs/spark.md)")
MASTER_HELP = ("where Spark runs: local[2] (two cores of this machine), spark://HOST:7077 (a "
               "cluster); default local[*] or $POSTGAME_SPARK_MASTER")


def add_engine_arguments(p: argparse.ArgumentParser) -> None:
    """--engine and --master, as every command that reads or writes a lake takes them."""
    p.add_argument("--engine", choices=("duckdb", "spark"), default="duckdb", help=ENGINE_HELP)
    p.add_argument("--master", metavar="URL", help=MASTER_HELP)


def lake_connection(root: Path, args: argparse.Namespace) -> Any:
    """The lake's connection on the engine the command asked for (--engine, --master); a
    missing folder is a user error."""
    from pipeline.engines import connect
    from pipeline.lake import Lake

    if not root.is_dir():
        raise UserError(f"{root}: no such lake folder (make one: postgame ingest LOGS "
                        f"--lake {root})")
    return connect(Lake(root), getattr(args, "engine", "duckdb"), getattr(args, "master", None))


MAX_WORKERS = max(8, 4 * (os.cpu_count() or 1))
"""More processes than this only contend for the cores (and each holds the engine in memory)."""


def int_in(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from low to high, refused naming the range. A bare
    `int` lets 0, -5 or 10**40 through, to fail later with a traceback or to run for ever."""
    def whole_number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            if text.strip().lstrip("+-").isdigit():  # too many digits for int() to convert
                raise argparse.ArgumentTypeError(f"{shown(text)} is out of range: choose "
                                                 f"{low} to {high}") from None
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is out of range: choose {low} to {high}")
        return value
    return whole_number


def shown(text: str, width: int = 24) -> str:
    """A value as given, cut short if long (a 5000-digit number would fill the screen)."""
    return text if len(text) <= width else f"{text[:width - 3]}..."


def add_log_paths(p: argparse.ArgumentParser) -> None:
    """The logs a command reads: files, or folders searched for logs."""
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="log files or folders")


class UserError(Exception):
    """Something the person asked for cannot be done as asked: one line, no traceback."""

    def __init__(self, message: str, code: int = USER_ERROR) -> None:
        super().__init__(message)
        self.code = code


class BadLog(UserError):
    """A log that cannot be read: damaged, cut short, or of a game this build does not know."""

    def __init__(self, path: Path, reason: str, seq: int | None = None) -> None:
        where = f"record {seq}: " if seq is not None else ""
        super().__init__(f"{path}: {where}{reason}")
        self.path, self.reason, self.seq = path, reason, seq


def load_log(path: str | Path) -> Any:
    """Read a log, binary or JSON lines (events.log.LogFile: header, events, torn); damage raises
    BadLog naming the file and the record."""
    path = Path(path)
    if not path.is_file():
        raise UserError(f"{path}: no such log file")
    from events.jsonl import load_log as read_either
    from events.log import LogCorrupt, LogError

    try:
        return read_either(path)
    except LogCorrupt as err:
        raise BadLog(path, f"corrupt at byte {err.offset}: {err.reason}", err.seq) from err
    except LogError as err:
        raise BadLog(path, str(err).removeprefix(f"{path}: ")) from err
    except ValueError as err:  # unknown game, schema too new, undecodable header
        raise BadLog(path, str(err).removeprefix(f"{path}: ")) from err


def parse_perspective(text: str, header: Header | None = None) -> Perspective:
    """A seat number, a player's name from the header, 'organiser', 'spectator', or another
    perspective the game's narration lists for the match (a side's: 'side:hounds')."""
    lowered = text.strip().lower()
    if lowered in (OMNISCIENT, "organizer", "all"):
        return OMNISCIENT
    if lowered == SPECTATOR:
        return SPECTATOR
    seats = header.seats if header else []
    if lowered.isdigit() and (not seats or int(lowered) in {s.seat for s in seats}):
        return int(lowered)
    for seat in seats:
        if seat.player.lower() == lowered:
            return seat.seat
    listed = _listed_perspectives(header)
    for perspective, _ in listed:
        if isinstance(perspective, str) and perspective.lower() == lowered:
            return perspective
    known = ", ".join([OMNISCIENT, SPECTATOR] + [f"{s.seat} ({s.player})" for s in seats] +
                      [p for p, _ in listed if isinstance(p, str)
                       and p not in (OMNISCIENT, SPECTATOR)])
    raise UserError(f"unknown perspective {text!r}; choose one of: {known}")


def _listed_perspectives(header: Header | None) -> list[tuple[Perspective, str]]:
    """The perspectives the header's game lists (none for a game this build does not know)."""
    from engine import registry
    from engine.narration import narration_for

    if header is None or not registry.is_registered(header.game):
        return []
    return narration_for(header.game).perspectives(header)


def print_json(data: Any) -> None:
    """JSON on stdout for scripts: builtins via msgspec (structs, datetimes), stable key order."""
    print(json.dumps(msgspec.to_builtins(data), indent=2, ensure_ascii=False))


def print_json_line(data: Any) -> None:
    sys.stdout.write(msgspec.json.encode(data).decode() + "\n")

