"""`postgame log ...`: convert binary <-> JSON lines, start and append to a live match log
(every append checked by the rules first), repair a torn tail."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.tournament import LOG_SUFFIX
from postgame.commands.common import FOUND_PROBLEMS, OK, UserError, add_command

FORMATS = {LOG_SUFFIX: "pglog", ".jsonl": "jsonl"}
EXAMPLES = f"""\
examples:
  postgame log convert match{LOG_SUFFIX} match.jsonl       # binary -> JSON lines
  postgame log convert match.jsonl match{LOG_SUFFIX}       # JSON lines -> binary, chain checked
  postgame log convert match.txt out.bin --to pglog       # when extensions do not say
  postgame log start live.pglog header.json                # a new match from its header (JSON)
  postgame log append live.pglog moves.jsonl --expect-seq 1 # one event per line, rules-checked
  postgame log repair live.pglog                           # cut a torn tail after a crash
"""


def register(sub: argparse._SubParsersAction) -> None:
    log = sub.add_parser("log", help="log file tools (convert, start, append, repair)",
                         description="Tools for log files.")
    tools = log.add_subparsers(dest="log_command", metavar="TOOL", required=True)
    p = add_command(
        tools, "convert", help="convert between binary (.pglog) and JSON lines (.jsonl)",
        description="Convert a log between the binary framed form and JSON lines.",
        examples=EXAMPLES)
    p.add_argument("src", type=Path, help="log to read")
    p.add_argument("dst", type=Path, help="file to write (replaced atomically)")
    p.add_argument("--to", choices=sorted(FORMATS.values()),
                   help="output format (default: from DST's extension)")
    p.set_defaults(func=run)
    _register_live(tools)


def _register_live(tools: argparse._SubParsersAction) -> None:
    p = add_command(tools, "start", help="create the log of a new match from a header (JSON)",
                    description="Check a match header (ruleset, seats, decks) and create its "
                                "log; refuses to overwrite an existing file.",
                    examples=EXAMPLES)
    p.add_argument("log", type=Path)
    p.add_argument("header", type=Path, help="the header as JSON (events.base.Header)")
    p.set_defaults(func=run_start)
    p = add_command(tools, "append", help="append events (JSON lines) after a rules check",
                    description="Append events, one JSON object per line, to a live log. The "
                                "whole batch is checked against the rules first and written all "
                                "or nothing, under an exclusive lock.",
                    examples=EXAMPLES)
    p.add_argument("log", type=Path)
    p.add_argument("events", type=Path, help="JSON lines, one event each ('-' for stdin)")
    p.add_argument("--expect-seq", type=int, required=True,
                   help="the sequence number the first new event must get (refused if another "
                        "writer got there first)")
    p.set_defaults(func=run_append)
    p = tools.add_parser("repair", help="cut a torn tail left by a crash",
                         description="Cut a partial record at the end of a log back to the last "
                                     "whole record; a corrupt log is refused, never changed.")
    p.add_argument("log", type=Path)
    p.set_defaults(func=run_repair)


def run(args: argparse.Namespace) -> int:
    from events.jsonl import from_jsonl, to_jsonl
    from events.log import LogError

    target = args.to or FORMATS.get(args.dst.suffix.lower())
    if target is None:
        raise UserError(f"{args.dst}: cannot tell the format from the extension; "
                        f"use {LOG_SUFFIX}, .jsonl or --to")
    if not args.src.is_file():
        raise UserError(f"{args.src}: no such log file")
    if args.src.resolve() == args.dst.resolve():
        raise UserError(f"{args.src}: source and destination are the same file")
    try:
        (to_jsonl if target == "jsonl" else from_jsonl)(args.src, args.dst)
    except LogError as err:
        raise UserError(str(err)) from err
    print(f"{args.src} -> {args.dst} ({target})", file=sys.stderr)
    return OK


def run_start(args: argparse.Namespace) -> int:
    import msgspec

    from engine.recorder import start_match
    from events.base import Header

    try:
        header = msgspec.json.decode(args.header.read_bytes(), type=Header)
    except msgspec.ValidationError as err:
        raise UserError(f"{args.header}: not a match header: {err}") from err
    head = start_match(args.log, header)
    print(f"{args.log}: match {header.match_id} started ({header.ruleset}), head "
          f"{head.hex()}", file=sys.stderr)
    return OK


def run_append(args: argparse.Namespace) -> int:
    from engine.recorder import record
    from events.log import read_log

    game = read_log(args.log, verify_chain=False).header.game
    from engine.replay import IllegalEvent

    events = _read_events(args.events, game)
    try:
        next_seq = record(args.log, events, args.expect_seq)
    except IllegalEvent as err:
        raise UserError(f"{args.log}: refused, nothing written: event seq {err.seq}: "
                        f"{err.rule}: {err.reason}", FOUND_PROBLEMS) from err
    print(f"{args.log}: appended {len(events)} event(s); next seq {next_seq}", file=sys.stderr)
    return OK


def _read_events(path: Path, game: str) -> list:
    import msgspec

    from events.games import event_union

    decoder = msgspec.json.Decoder(event_union(game))
    text = sys.stdin.read() if str(path) == "-" else path.read_text(encoding="utf-8")
    events = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            events.append(decoder.decode(line))
        except msgspec.DecodeError as err:
            raise UserError(f"{path}:{number}: not a {game} event: {err}") from err
    return events


def run_repair(args: argparse.Namespace) -> int:
    from events.log import repair_log

    torn = repair_log(args.log)
    if torn is None:
        print(f"{args.log}: no torn tail; nothing changed", file=sys.stderr)
    else:
        print(f"{args.log}: cut {torn.cut} byte(s) after byte {torn.offset} (a partial record "
              f"{torn.seq})", file=sys.stderr)
    return OK
