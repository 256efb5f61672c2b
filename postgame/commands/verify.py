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
  postgame verify out/sim --key organiser.pub   # every log signed by the organiser's key
  postgame verify live.pglog --anchor 3f9c...   # ends exactly at the head kept elsewhere
  postgame verify match.pglog other.jsonl --json
  postgame verify out/eredan --lake lake  # Eredan decks also against the charge cap in force

Each bad log gets one line: FILE: seq N: RULE: reason. Exit status 1 when any log is bad.
Rules: LOG (damaged file), SIGNATURE (--key: unsigned, another key, or a signature that does
not check), ANCHOR (--anchor: the log does not end there), RULESET (unknown ruleset), END
(--complete: the log stops mid-match; without --complete a notice says so), ENGINE (the rules
engine failed: a bug to report), else the game's rule ID (VW-9.8, ...).

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
    signed_by: str | None = None
    """The id of the key that signed the log (events.signing); None: unsigned."""
    signature_checked: bool = False
    """Every record's signature was checked against the key given (--key)."""
    head: str | None = None
    """The hash of the log's last record: its anchor."""

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
    p.add_argument("--key", metavar="PUB",
                   help="the organiser's public key (a .pub file or 64 hex digits): refuse "
                        "every log not signed by it, naming the first bad record (SIGNATURE)")
    p.add_argument("--anchor", metavar="HEAD",
                   help="the head hash a single log must end at (printed by log start/append "
                        "and simulate --json): catches dropped or replaced commits (ANCHOR)")
    p.add_argument("--json", action="store_true", help="print all findings as JSON")
    p.set_defaults(func=run)


@dataclass(frozen=True)
class Checks:
    """What verify checks beyond integrity and rules, from its options."""

    require_end: bool = False
    charges: Any = None
    """pipeline.charges.MatchCharges (--lake); None: the charge cap is not checked."""
    key: Any = None
    """An Ed25519 public key (--key); None: signatures are not checked."""
    anchor: bytes | None = None


def run(args: argparse.Namespace) -> int:
    from pipeline.charges import ChargeError

    paths = list(log_files(args.paths))
    checks = Checks(args.complete, lake_charges(args.lake) if args.lake else None,
                    public_key(args.key), anchor(args.anchor, paths))
    try:
        findings = [verify_log(path, checks) for path in paths]
    except ChargeError as err:  # the lake cannot give its tables (not a fault of one log)
        raise UserError(f"{args.lake}: {err}") from err
    bad = [f for f in findings if not f.ok]
    notices = unchecked_notices(findings) + signature_notices(findings, checks) \
        + unfinished_notices(findings, checks)
    if args.json:
        print_json({"checked": len(findings), "bad": len(bad), "notices": notices,
                    "logs": [asdict(f) for f in findings]})
    else:
        for finding in bad:
            print(finding.line())
    for notice in notices:
        print(f"notice: {notice}", file=sys.stderr)
    if not args.json:
        plural = "s" if len(findings) != 1 else ""
        print(f"verified {len(findings)} log{plural}: {len(bad)} bad", file=sys.stderr)
    return FOUND_PROBLEMS if bad else OK


def public_key(given: str | None) -> Any:
    from events.signing import KeyFileError, load_public_key

    if given is None:
        return None
    try:
        return load_public_key(given)
    except KeyFileError as err:
        raise UserError(str(err)) from err


def anchor(given: str | None, paths: list[Path]) -> bytes | None:
    """The --anchor head as bytes; it names one log's end, so it takes exactly one log."""
    if given is None:
        return None
    if len(paths) != 1:
        raise UserError(f"--anchor checks one log, but {len(paths)} were given")
    try:
        head = bytes.fromhex(given)
    except ValueError:
        head = b""
    if len(head) != 16:
        raise UserError(f"--anchor {given!r}: a head hash is 32 hex digits")
    return head


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


def signature_notices(findings: list[Finding], checks: Checks) -> list[str]:
    """Unsigned logs still verify, and say so; signed ones say whether anyone checked. (A bad
    log has its own line already.)"""
    if checks.key is not None:
        return []
    unsigned = sum(1 for f in findings if f.ok and f.signed_by is None)
    keys = Counter(f.signed_by for f in findings if f.ok and f.signed_by)
    unsigned_notice = (f"{_logs(unsigned)} unsigned: nothing shows who recorded them (record "
                       "with --sign-key, check with --key)")
    signed = [(f"{_logs(count)} signed by key {key}; the signatures were not checked (give its "
               "public key with --key)") for key, count in sorted(keys.items())]
    return ([unsigned_notice] if unsigned else []) + signed


def _logs(count: int) -> str:
    return f"{count} log{'s are' if count != 1 else ' is'}"


def unfinished_notices(findings: list[Finding], checks: Checks) -> list[str]:
    """A log that stops before its match's result is no error (a live match goes on), but it
    is said, one line per log; --complete makes it an error (END)."""
    if checks.require_end:
        return []
    return [f"{f.path}: unfinished: the log ends after seq {f.events} before the match's result "
            "(--complete reports it as bad)" for f in findings if f.ok and not f.finished]


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


def verify_log(path: Path, checks: Checks = Checks()) -> Finding:
    """One log's verdict; never raises for a bad log, so a batch always finishes."""
    from events.signing import signer_of

    try:
        log = load_log(path)
    except BadLog as err:
        return Finding(str(path), False, seq=err.seq, rule="LOG", reason=err.reason)
    if log.torn:
        return Finding(str(path), False, len(log.events), log.torn.seq, "LOG",
                       f"torn tail: {log.torn.cut} bytes after byte {log.torn.offset} are an "
                       "incomplete record (a crash while writing?)")
    seal = sealed(log, checks)
    if not seal.ok:
        return seal
    finding = replayed(log, path, checks.require_end)
    finding = replace(finding, game=log.header.game, signed_by=signer_of(log),
                      signature_checked=checks.key is not None, head=log.head.hex())
    if not (finding.ok or finding.rule == "END"):
        return finding
    return with_cap(finding, log.header, checks.charges)


def sealed(log: Any, checks: Checks) -> Finding:
    """The log's stamps against --key and its end against --anchor (SIGNATURE, ANCHOR)."""
    from events.log import SigningError
    from events.signing import check_signatures

    path = str(log.path)
    if checks.key is not None:
        try:
            check_signatures(log, checks.key)
        except SigningError as err:
            return Finding(path, False, len(log.events), err.seq, "SIGNATURE",
                           str(err).removeprefix(f"{log.path}: "))
    if checks.anchor is not None and log.head != checks.anchor:
        return Finding(path, False, len(log.events), log.next_seq - 1, "ANCHOR",
                       anchor_mismatch(log, checks.anchor))
    return Finding(path, True, len(log.events))


def anchor_mismatch(log: Any, anchor: bytes) -> str:
    """Why a log does not end at its anchor: it goes on past it, or the anchor is nowhere in it
    (commits were dropped, or the log was replaced)."""
    from events.log import record_heads

    heads = record_heads(log)
    seqs = [seq for seq, head in heads if head == anchor]
    if seqs:
        later = len(heads) - 1 - [head for _, head in heads].index(anchor)
        return (f"the log goes on past its anchor (record {seqs[0]}): {later} more "
                f"record{'s' if later != 1 else ''} after it, head {log.head.hex()}")
    return (f"the log ends at head {log.head.hex()}, and no record of it has the anchor's hash "
            f"{anchor.hex()}: commits were dropped or the log was replaced")


def replayed(log: Any, path: Path, require_end: bool) -> Finding:
    """The log through its rules: the first illegal event, or whether the match ended."""
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
