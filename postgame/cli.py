"""The `postgame` command line: one entry point, one subcommand per job, --json for scripts.

Exit status: 0 fine, 1 problems found (a bad log, an illegal deck, a failed simulation),
2 the request itself cannot be done (missing file, damaged log, unknown game or ruleset).
Errors are one line on stderr naming the file and position; POSTGAME_TRACEBACK=1 shows the
traceback instead, for bug reports.
"""
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from engine import registry
from postgame.commands import (
    app,
    chances,
    charges,
    deck,
    export,
    ingest,
    keys,
    lake,
    logs,
    replay,
    rulesets,
    simulate,
    stats,
    verify,
)
from postgame.commands.common import OK, USER_ERROR, UserError

COMMANDS = (simulate, verify, replay, chances, logs, keys, deck, rulesets, charges, ingest, lake,
            stats, export, app)
EXAMPLES = """\
examples:
  postgame simulate vitorian --players 16 --rounds 4 --seed 7 --out out/sim
  postgame verify out/sim
  postgame replay out/sim/vw-2026-001/vw-2026-001-r1-t1.pglog --turn 3 --as 0
  postgame log convert match.pglog match.jsonl
  postgame deck check vitorian my-deck.txt
  postgame rulesets

Run `postgame COMMAND --help` for each command's options.
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="postgame",
        description="Match replay and balance analytics for card and board game designers.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"postgame {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        command.register(sub)
    for game in registry.games_with("commands"):  # a game's own tools (`postgame dice`)
        registry.layer(game, "commands")(sub)
    return parser


def _version() -> str:
    """The installed distribution's version (pyproject.toml), "unknown" when run from a tree
    that was never installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("postgame")
    except PackageNotFoundError:
        return "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except UserError as err:
        return _fail(args, str(err), err.code)
    except BrokenPipeError:  # `postgame replay LOG | head`: the reader has all it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return OK
    except (OSError, ValueError, KeyError) as err:
        if os.environ.get("POSTGAME_TRACEBACK"):
            raise
        return _fail(args, _describe(err), USER_ERROR)
    except KeyboardInterrupt:
        return 130


def _fail(args: argparse.Namespace, message: str, code: int) -> int:
    print(f"postgame {args.command}: {message}", file=sys.stderr)
    return code


def _describe(err: BaseException) -> str:
    if isinstance(err, OSError) and err.filename:
        return f"{err.filename}: {err.strerror or err}"
    if isinstance(err, KeyError):
        return str(err.args[0]) if err.args else "not found"
    return str(err)


if __name__ == "__main__":
    sys.exit(main())
