"""`postgame verify`: integrity and legality of logs, one line per bad log.

The charge cap (Eredan ER-2.13, ER-3.3) depends on the charge table in force when the match
started (ER-3.6), which only a lake's history of tournaments gives (CH-2.2): with --lake each
log that replays is also checked against it; without, verify says how many logs it could not
check, never passing them silently."""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from engine.replay import IllegalEvent, ReplayVisitor, replay_log
from engine.ruleset import UnknownRuleset, get_ruleset
from engine.tournament import LOG_SUFFIX
from events.base import Header
from postgame.commands.common import (
    FOUND_PROBLEMS,
    OK,
    BadLog,
    UserError,
    add_command,
    add_log_paths,
    load_log,
    print_json,
)

LOG_SUFFIXES = (LOG_SUFFIX, ".jsonl")
"""What a folder search picks up; a file named on the command line is read whatever its name."""
EXAMPLES = """\
examples:
  postgame verify out/sim                 # every .pglog and .jsonl below out/sim
  postgame verify match.pglog other.jsonl --json
  postgame verify out/eredan --lake lake  # Eredan decks also against the charge cap in force

Each bad log gets one line: FILE: seq N: RULE: reason. Exit status 1 when any log is bad.
Rules: LOG (damaged file), RULESET (unknown ruleset), END (--complete: log stops mid-match),
ENGINE (the rules engine failed: a bug to report), else the game's rule ID (VW-9.8, ...).

The Eredan charge cap (ER-3.3: a deck's charge at most 500) depends on the charge table in force
at the match date (ER-3.6), computed from a lake's tournaments (`postgame charges`): with --lake
each deck is checked against it (a breach is reported at seq 0, the header); without --lake the
cap is not checked, and a notice says for how many logs. The Vitorian Wars cap (CH-2.8) is not
checked by its rules yet: a notice says so too.
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
    charge_table: str | None = None
    """The charge table the decks were checked against (ER-3.6), as "epoch-3"; None: unchecked."""
    cap_unchecked: bool = False
    """The match's decks are held to a charge cap, but no charge tables were given (--lake)."""
    game: str | None = None

    def line(self) -> str:
        where = f"seq {self.seq}: " if self.seq is not None else ""
        return f"{self.path}: {where}{self.rule}: {self.reason}"


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "verify", help="check logs' integrity and replay them through their rules",
        description="Check each log's framing, checksums and hash chain, then replay every "
                    "event through the ruleset its header names.",
        examples=EXAMPLES)
    add_log_paths(p)
    p.add_argument("--complete", action="store_true",
                   help="also report logs that stop before the match ends")
    p.add_argument("--lake", type=Path, metavar="DIR",
                   help="a lake (postgame ingest): check each Eredan deck against the charge "
                        "cap of the table in force at its match date (ER-3.3, ER-3.6)")
    p.add_argument("--json", action="store_true", help="print all findings as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pipeline.charges import ChargeError

    charges = lake_charges(args.lake) if args.lake else None
    try:
        findings = [verify_log(path, args.complete, charges) for path in log_files(args.paths)]
    except ChargeError as err:  # the lake cannot give its tables (not a fault of one log)
        raise UserError(f"{args.lake}: {err}") from err
    bad = [f for f in findings if not f.ok]
    notices = unchecked_notices(findings)
    if args.json:
        print_json({"checked": len(findings), "bad": len(bad), "notices": notices,
                    "logs": [asdict(f) for f in findings]})
    else:
        for finding in bad:
            print(finding.line())
    for notice in notices:
        print(f"notice: {notice}", file=sys.stderr)
    if not args.json:
        print(f"verified {len(findings)} logs: {len(bad)} bad", file=sys.stderr)
    return FOUND_PROBLEMS if bad else OK


def lake_charges(root: Path) -> Any:
    """The lake's charge tables, per game and format (pipeline.charges.MatchCharges); a missing
    lake folder is a user error."""
    from pipeline.charges import MatchCharges
    from postgame.commands.charges import connect_lake

    return MatchCharges(connect_lake(root))


def unchecked_notices(findings: list[Finding]) -> list[str]:
    """One notice per game whose logs' charge cap went unchecked: never silent."""
    from pipeline.charges import cap_rule, checks_cap

    games = Counter(f.game for f in findings if f.cap_unchecked and f.game)
    return [f"{cap_rule(game)} (charge cap) was not checked for {count} {game} "
            f"log{'s' if count != 1 else ''}: " + (
                "no charge tables were given; add --lake DIR to check each deck against the "
                "lake's table in force at its match date (ER-3.6)" if checks_cap(game) else
                f"the {game} rules do not check it yet (postgame charges --deck checks one deck)")
            for game, count in sorted(games.items())]


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


def verify_log(path: Path, require_end: bool = False, charges: Any = None) -> Finding:
    """One log's verdict; never raises for a bad log, so a batch always finishes. `charges`
    (pipeline.charges.MatchCharges) gives the charge tables in force; None: the cap is not
    checked and the finding says so."""
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
        finding = Finding(str(path), False, len(log.events), rule="END",
                          reason="the log stops before the match ends")
    else:
        finding = Finding(str(path), True, len(log.events), finished=finished)
    return with_cap(replace(finding, game=log.header.game), log.header, charges)


def with_cap(finding: Finding, header: Header, charges: Any) -> Finding:
    """The charge cap of a log that replays (ER-3.3), against the table in force at its start
    (ER-3.6): a breach is reported at seq 0, the header, before anything later (END)."""
    from pipeline.charges import charged, checks_cap

    if not charged(header):
        return finding
    if charges is None or not checks_cap(header.game):
        return replace(finding, cap_unchecked=True)
    verdict = charges.check(header)
    version = verdict.table.version
    if verdict.within_cap:
        return replace(finding, charge_table=version)
    return replace(finding, ok=False, seq=0, rule=verdict.problems[0][0],
                   reason="; ".join(why for _, why in verdict.problems), charge_table=version)
