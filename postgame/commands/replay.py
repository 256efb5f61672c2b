"""`postgame replay`: step through a log as one perspective sees it."""
from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path
from typing import Any

from engine.games import UnknownGame, get_game
from engine.narration import BoardRenderer, board_text, narration_for
from engine.replay import IllegalEvent, Replay, replay_log
from engine.ruleset import OMNISCIENT, Perspective, Ruleset, UnknownRuleset, get_ruleset
from postgame.commands.common import (
    OK,
    UserError,
    add_command,
    load_log,
    parse_perspective,
    print_json,
)
from postgame.render import StepPrinter, step_json, step_text

EXAMPLES = """\
examples:
  postgame replay out/sim/vw-2026-001/vw-2026-001-r1-t1.pglog           # interactive on a TTY
  postgame replay match.pglog --turn 3 --as 1                           # turn 3 as seat 1 sees it
  postgame replay match.pglog --step 40 --as spectator --json
  postgame replay match.pglog > transcript.txt                          # every step, as text
  postgame replay vw-2026-001-r1-t1 --lake lake --as 0                  # a match of the lake

Interactive keys: n or Enter next, p prev, g N go to step N, t N go to turn N,
a SEAT see as SEAT (a number, a player name, organiser or spectator), q quit.
"""
HELP_LINE = "n/Enter next · p prev · g N step · t N turn · a SEAT perspective · q quit"


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "replay", help="show a log step by step, as a seat, a spectator or the organiser sees it",
        description="Replay a log through its rules and show the board and what changed.",
        examples=EXAMPLES)
    p.add_argument("log", help="a .pglog or .jsonl log (with --lake: or a match id)")
    p.add_argument("--lake", type=Path, metavar="DIR",
                   help="a lake: show the match only if its log is the file that was ingested "
                        "(same content hash); LOG may then be the match id")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--step", type=int, help="show this step (0 = after setup)")
    where.add_argument("--turn", type=int, help="show the first step of this turn")
    p.add_argument("--as", dest="perspective", default=OMNISCIENT,
                   help="SEAT number, player name, organiser (default) or spectator")
    p.add_argument("--json", action="store_true", help="JSON (one object per line for all steps)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    log = ingested_log(args.lake, args.log) if args.lake else load_log(args.log)
    if log.torn:
        print(f"{log.path}: warning: ignoring a torn tail of {log.torn.cut} bytes after record "
              f"{log.torn.seq - 1}", file=sys.stderr)
    ruleset = _ruleset(log.header.ruleset, log.path)
    perspective = parse_perspective(args.perspective, log.header)
    renderer = _renderer(log.header.game)
    if args.step is None and args.turn is None and not _interactive():
        printer = StepPrinter(ruleset, narration_for(log.header.game), len(log.events),
                              perspective, renderer, args.json, sys.stdout.write)
        _checked(lambda: replay_log(ruleset, log.header, log.events, printer), log.path)
        return OK
    replay: Replay = _checked(lambda: Replay(ruleset, log.header, log.events), log.path)
    if args.step is None and args.turn is None:
        return Viewer(replay, perspective, renderer).loop()
    _go(replay, "g" if args.turn is None else "t",
        args.step if args.turn is None else args.turn)
    if args.json:
        print_json(_step_data(replay, perspective))
    else:
        print(_step_block(replay, perspective, renderer))
    return OK


def ingested_log(root: Path, given: str) -> Any:
    """The log of a lake's match (by match id, or a log file of it), refused unless its content
    is what the lake ingested: a changed file is not the match the lake's numbers count."""
    from pipeline.ingest import LogChanged, read_ingested
    from postgame.commands.charges import connect_lake

    match_id = load_log(given).header.match_id if Path(given).is_file() else given
    with contextlib.closing(connect_lake(root)) as con:
        found = con.execute("SELECT log_path, content_hash FROM matches WHERE match_id = ?",
                            [match_id]).fetchone()
    if found is None:
        raise UserError(f"{root}: the lake holds no match {match_id!r}")
    path = given if Path(given).is_file() else found[0]
    try:
        return read_ingested(path, found[1])
    except LogChanged as err:
        raise UserError(f"{err}; not showing it as match {match_id}") from err
    except ValueError as err:  # not a log any more
        raise UserError(f"{path}: {err}; the lake ingested it as match {match_id}") from err


def _ruleset(key: str, path: Any) -> Ruleset:
    try:
        return get_ruleset(key)
    except UnknownRuleset as err:
        raise UserError(f"{path}: {err}") from err


def _renderer(game: str) -> BoardRenderer | None:
    try:
        return get_game(game).render_text
    except UnknownGame:
        return None


def _checked(build: Any, path: Any) -> Any:
    try:
        return build()
    except IllegalEvent as err:
        raise UserError(f"{path}: seq {err.seq}: {err.rule}: {err.reason}") from err


def _interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _go(replay: Replay, key: str, n: int) -> None:
    """Seek by step ('g') or turn ('t'), turning range errors into user errors."""
    try:
        replay.seek(n) if key == "g" else replay.seek_turn(n)
    except IndexError as err:
        raise UserError(f"{err} (the log has {len(replay)} events)") from err
    except KeyError as err:
        raise UserError(str(err.args[0])) from err


def _step_data(replay: Replay, perspective: Perspective) -> dict[str, Any]:
    view = replay.ruleset.view(replay.state, perspective)
    return step_json(narration_for(replay.header.game), replay.header, replay.state,
                     replay.step, len(replay), replay.turn, replay.event, replay.changes, view,
                     perspective)


def _step_block(replay: Replay, perspective: Perspective, renderer: BoardRenderer | None) -> str:
    narration = narration_for(replay.header.game)
    board = board_text(replay.ruleset.view(replay.state, perspective), renderer)
    text = step_text(narration, replay.header, replay.state, replay.step, len(replay),
                     replay.turn, replay.event, replay.changes, board, perspective)
    if replay.step == len(replay):
        text += f"end: {narration.outcome_text(replay.header, replay.outcome)}\n"
    return text


class Viewer:
    """The interactive loop: one command a line, so it works in any terminal and in tests."""

    def __init__(self, replay: Replay, perspective: Perspective,
                 renderer: BoardRenderer | None) -> None:
        self.replay, self.perspective, self.renderer = replay, perspective, renderer
        replay.seek(0)

    def loop(self) -> int:
        print(HELP_LINE)
        print(_step_block(self.replay, self.perspective, self.renderer))
        while True:
            try:
                line = input(f"[{self.replay.step}/{len(self.replay)}] > ").strip()
            except EOFError:
                return OK
            if line in ("q", "quit"):
                return OK
            try:
                self.command(line)
            except UserError as err:
                print(err)
                continue
            print(_step_block(self.replay, self.perspective, self.renderer))

    def command(self, line: str) -> None:
        key, _, arg = line.partition(" ")
        if key in ("", "n"):
            _go(self.replay, "g", min(self.replay.step + 1, len(self.replay)))
        elif key == "p":
            _go(self.replay, "g", max(self.replay.step - 1, 0))
        elif key in ("g", "t"):
            if not arg.strip().lstrip("-").isdigit():
                raise UserError(f"'{key}' needs a number, e.g. '{key} 12'")
            _go(self.replay, key, int(arg))
        elif key == "a":
            self.perspective = parse_perspective(arg, self.replay.header)
        else:
            raise UserError(f"unknown key {key!r}: {HELP_LINE}")
