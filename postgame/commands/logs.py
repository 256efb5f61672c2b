"""`postgame log convert`: binary log <-> JSON lines, without loss."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.tournament import LOG_SUFFIX
from postgame.commands.common import OK, UserError

FORMATS = {LOG_SUFFIX: "pglog", ".jsonl": "jsonl"}
EXAMPLES = f"""\
examples:
  postgame log convert match{LOG_SUFFIX} match.jsonl       # binary -> JSON lines
  postgame log convert match.jsonl match{LOG_SUFFIX}       # JSON lines -> binary, chain checked
  postgame log convert match.txt out.bin --to pglog       # when extensions do not say
"""


def register(sub: argparse._SubParsersAction) -> None:
    log = sub.add_parser("log", help="log file tools (convert)",
                         description="Tools for log files.")
    tools = log.add_subparsers(dest="log_command", metavar="TOOL", required=True)
    p = tools.add_parser(
        "convert", help="convert between binary (.pglog) and JSON lines (.jsonl)",
        description="Convert a log between the binary framed form and JSON lines.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("src", type=Path, help="log to read")
    p.add_argument("dst", type=Path, help="file to write (replaced atomically)")
    p.add_argument("--to", choices=sorted(FORMATS.values()),
                   help="output format (default: from DST's extension)")
    p.set_defaults(func=run)


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
