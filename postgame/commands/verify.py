"""`postgame verify`: integrity and legality of logs, one line per bad log."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from engine.replay import IllegalEvent, ReplayVisitor, replay_log
from engine.ruleset import UnknownRuleset, get_ruleset
from engine.tournament import LOG_SUFFIX
from postgame.commands.common import FOUND_PROBLEMS, OK, BadLog, UserError, load_log, print_json

LOG_SUFFIXES = (LOG_SUFFIX, ".jsonl")
"""What a folder search picks up; a file named on the command line is read whatever its name."""
EXAMPLES = """\
examples:
  postgame verify out/sim                 # every .pglog and .jsonl below out/sim
  postgame verify match.pglog other.jsonl --json

Each bad log gets one line: FILE: seq N: RULE: reason. Exit status 1 when any log is bad.
Rules: LOG (damaged file), RULESET (unknown ruleset), END (--complete: log stops mid-match),
ENGINE (the rules engine failed: a bug to report), else the game's rule ID (VW-9.8, ...).
"""


@dataclass(frozen=True)
class Finding:
    path: str
    ok: bool
    events: int = 0
    seq: int | None = None
    rule: str = ""
    reason: str = ""
    finished: bool = False

    def line(self) -> str:
        where = f"seq {self.seq}: " if self.seq is not None else ""
        return f"{self.path}: {where}{self.rule}: {self.reason}"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "verify", help="check logs' integrity and replay them through their rules",
        description="Check each log's framing, checksums and hash chain, then replay every "
                    "event through the ruleset its header names.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="log files or folders")
    p.add_argument("--complete", action="store_true",
                   help="also report logs that stop before the match ends")
    p.add_argument("--json", action="store_true", help="print all findings as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    findings = [verify_log(path, args.complete) for path in log_files(args.paths)]
    bad = [f for f in findings if not f.ok]
    if args.json:
        print_json({"checked": len(findings), "bad": len(bad),
                    "logs": [asdict(f) for f in findings]})
    else:
        for finding in bad:
            print(finding.line())
        print(f"verified {len(findings)} logs: {len(bad)} bad", file=sys.stderr)
    return FOUND_PROBLEMS if bad else OK


def log_files(paths: list[Path]) -> Iterator[Path]:
    """Named files as given; folders searched recursively for logs, in sorted order."""
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.suffix in LOG_SUFFIXES
                              and p.is_file())
        elif path.is_file():
            yield path
        else:
            raise UserError(f"{path}: no such file or folder")


def verify_log(path: Path, require_end: bool = False) -> Finding:
    """One log's verdict; never raises for a bad log, so a batch always finishes."""
    try:
        log = load_log(path)
    except BadLog as err:
        return Finding(str(path), False, seq=err.seq, rule="LOG", reason=err.reason)
    if log.torn:
        return Finding(str(path), False, len(log.events), log.torn.seq, "LOG",
                       f"torn tail: {log.torn.cut} bytes after byte {log.torn.offset} are an "
                       "incomplete record (a crash while writing?)")
    try:
        ruleset = get_ruleset(log.header.ruleset)
        state = replay_log(ruleset, log.header, log.events, ReplayVisitor())
    except UnknownRuleset as err:
        return Finding(str(path), False, len(log.events), rule="RULESET", reason=str(err))
    except IllegalEvent as err:
        return Finding(str(path), False, len(log.events), err.seq, err.rule, err.reason)
    except Exception as err:  # noqa: BLE001 - a crashing engine must not stop the batch
        return Finding(str(path), False, len(log.events), rule="ENGINE",
                       reason=f"{type(err).__name__}: {err}")
    finished = ruleset.outcome(state) is not None
    if require_end and not finished:
        return Finding(str(path), False, len(log.events), rule="END",
                       reason="the log stops before the match ends")
    return Finding(str(path), True, len(log.events), finished=finished)
