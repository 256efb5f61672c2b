"""`postgame log ...`: convert binary <-> JSON lines, start and append to a live match log
(every append checked by the rules first), repair a torn tail."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from engine.tournament import LOG_SUFFIX
from postgame.commands.common import (
    FOUND_PROBLEMS,
    OK,
    UserError,
    add_command,
    load_log,
    print_json,
)

FORMATS = {LOG_SUFFIX: "pglog", ".jsonl": "jsonl"}
EXAMPLES = f"""\
examples:
  postgame log convert match{LOG_SUFFIX} match.jsonl       # binary -> JSON lines
  postgame log convert match.jsonl match{LOG_SUFFIX}       # JSON lines -> binary, chain checked
  postgame log convert match.txt out.bin --to pglog       # when extensions do not say
  postgame log start live.pglog header.json                # a new match from its header (JSON)
  postgame log append live.pglog moves.jsonl --expect-seq 1 # one event per line, rules-checked
  postgame log repair live.pglog                           # cut a torn tail after a crash
  postgame log start live.pglog header.json --sign-key organiser.key   # a signed live log
  postgame log append live.pglog moves.jsonl --expect-seq 6 --sign-key organiser.key --json

start and append print the log's new head hash: keep it (postgame verify --anchor HEAD checks
that a log still ends exactly there, so dropped commits are caught).
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
    _add_recording_options(p)
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
    _add_recording_options(p)
    p.set_defaults(func=run_append)
    p = tools.add_parser("repair", help="cut a torn tail left by a crash",
                         description="Cut a partial record at the end of a log back to the last "
                                     "whole record; a corrupt log is refused, never changed.")
    p.add_argument("log", type=Path)
    p.set_defaults(func=run_repair)


def _add_recording_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--sign-key", "--key", dest="sign_key", type=Path, metavar="KEY",
                   help="sign each record with this private key (postgame keys new); a log "
                        "started signed takes only appends signed with the same key")
    p.add_argument("--json", action="store_true",
                   help="print {log, next_seq, head} as JSON on stdout")


def _signer(args: argparse.Namespace) -> Any:
    from events.signing import KeyFileError, load_signer

    if args.sign_key is None:
        return None
    try:
        return load_signer(args.sign_key)
    except KeyFileError as err:
        raise UserError(str(err)) from err


def _report_head(args: argparse.Namespace, message: str, next_seq: int, head: bytes) -> None:
    """The new head hash: keep it elsewhere (verify --anchor) to catch dropped commits."""
    print(f"{args.log}: {message}; next seq {next_seq}, head {head.hex()}", file=sys.stderr)
    if args.json:
        print_json({"log": str(args.log), "next_seq": next_seq, "head": head.hex()})


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
    from engine.recorder import start_match
    from engine.replay import IllegalEvent
    from engine.ruleset import DeckError, UnknownRuleset
    from events.games import UnknownGame
    from events.jsonl import decode_header
    from events.log import LogError

    try:
        header = decode_header(args.header.read_bytes(), args.header)
    except LogError as err:
        raise UserError(str(err)) from err
    try:
        head = start_match(args.log, header, _signer(args))
    except (UnknownRuleset, UnknownGame) as err:  # named by the header, not by the new log
        raise UserError(f"{args.header}: {str(err).removeprefix(f'{args.log}: ')}") from err
    except (IllegalEvent, DeckError) as err:  # the header's seats or decks break a rule
        broken = err.problems if isinstance(err, DeckError) else [(err.rule, err.reason)]
        raise UserError(f"{args.header}: refused, {args.log} not created: "
                        + "; ".join(f"{rule}: {why}" for rule, why in broken),
                        FOUND_PROBLEMS) from err
    _report_head(args, f"match {header.match_id} started ({header.ruleset})", 1, head)
    return OK


def run_append(args: argparse.Namespace) -> int:
    from engine.recorder import record
    from engine.replay import IllegalEvent
    from events.log import LogError

    log = load_log(args.log)
    events = _read_events(args.events, log.header.game)
    if not events:
        raise UserError(f"{args.events}: no events to append (the file holds no event line); "
                        "nothing written")
    try:
        appended = record(args.log, events, args.expect_seq, _signer(args))
    except IllegalEvent as err:
        raise UserError(f"{args.log}: refused, nothing written: event seq {err.seq}: "
                        f"{err.rule}: {err.reason}", FOUND_PROBLEMS) from err
    except LogError as err:  # another writer first, a torn tail, the wrong key
        raise UserError(f"{err}; nothing written") from err
    _report_head(args, f"appended {len(events)} event(s)", appended.next_seq, appended.head)
    return OK


def _read_events(path: Path, game: str) -> list:
    """The batch to append, decoded by events.jsonl: an error is one line naming the line."""
    from events.jsonl import decode_events
    from events.log import LogError

    stdin = str(path) == "-"
    data = sys.stdin.buffer.read() if stdin else path.read_bytes()
    try:
        return decode_events(data, game, "<stdin>" if stdin else path)
    except LogError as err:
        raise UserError(str(err)) from err


def run_repair(args: argparse.Namespace) -> int:
    from events.log import repair_log

    torn = repair_log(args.log)
    if torn is None:
        print(f"{args.log}: no torn tail; nothing changed", file=sys.stderr)
    else:
        print(f"{args.log}: cut {torn.cut} byte(s) after byte {torn.offset} (a partial record "
              f"{torn.seq})", file=sys.stderr)
    return OK
