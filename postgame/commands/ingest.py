"""`postgame ingest`: verify logs and commit their facts to the Parquet lake."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from pipeline.audits import AuditResult
from pipeline.ingest import DEFAULT_BATCH, IngestReport, ingest
from pipeline.lake import Lake
from pipeline.spark import SparkError
from postgame.commands.common import (
    FOUND_PROBLEMS,
    MAX_WORKERS,
    OK,
    UserError,
    add_command,
    add_log_paths,
    int_in,
    print_json,
)

SHOWN_QUARANTINE = 20
EXAMPLES = """\
examples:
  postgame ingest out/sim --lake lake
  postgame ingest out/season more/match.jsonl --lake lake --workers 2 --json
  postgame ingest out/sim --lake lake --strict    # exit 1 if any log is quarantined
  postgame ingest out/sim --lake lake --key organiser.pub   # only logs signed by this key
  postgame ingest out/sim --lake lake --engine spark --master local[2]
  postgame ingest /shared/season --lake lake --engine spark --master spark://head:7077

Logs (.pglog, .jsonl; folders are searched recursively) are verified (integrity, then every event
through the ruleset the header names) and replayed into the lake's fact tables. A log already in
the lake is skipped, so ingesting again is safe; a bad log is quarantined with its reason (see the
quarantine table), the others go in. An Eredan deck over the charge cap of the table in force at
its match date (ER-3.3, ER-3.6; computed from the lake and the logs ingested with it, as
`postgame charges` shows) is quarantined as ER-3.3. Audits run after every ingest.
A lake whose manifest is lost, damaged or names files outside the lake is refused before anything
is changed (`postgame lake recover --lake LAKE` rebuilds it; docs/lake.md, "Trust").

--engine spark replays the logs as Apache Spark tasks instead of this machine's processes: for
logs on shared storage that every executor of a cluster reaches under the same path (each with
postgame installed), or --master local[2] to try it on two cores here. The rules and facts are
the same code either way, and this process alone writes the lake, through the same manifest:
what goes in, what is skipped and why a log is quarantined do not depend on the engine.
Exit status: 0, or 1 with --strict when a log was quarantined or an audit failed; 2 when the
request cannot be done (a missing path; Spark cannot start, naming what to install).
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "ingest", help="verify logs and add their facts to the Parquet lake",
        description="Verify match logs, replay them and commit their facts (matches, seats, "
                    "and the tables of the game's capabilities and its own: decks, "
                    "deck_cards, card_events for the card games) to a Parquet lake, "
                    "atomically and idempotently.",
        examples=EXAMPLES)
    add_log_paths(p)
    p.add_argument("--lake", type=Path, required=True, help="the lake folder (created if new)")
    p.add_argument("--workers", type=int_in(1, MAX_WORKERS), default=1,
                   help=f"processes replaying logs, 1 to {MAX_WORKERS} (default 1; with "
                        "--engine spark the master sets how many tasks run at once)")
    p.add_argument("--engine", choices=("duckdb", "spark"), default="duckdb",
                   help="what replays the logs: duckdb, this machine's --workers processes (the "
                        "default), or spark, Spark tasks on --master (needs Java and pyspark)")
    p.add_argument("--master", metavar="URL",
                   help="where Spark runs the tasks, with --engine spark: local[2] (two cores of "
                        "this machine), spark://HOST:7077 (a cluster whose executors see the "
                        "logs at the same paths); default $POSTGAME_SPARK_MASTER, else local[*] "
                        "(every core here)")
    p.add_argument("--batch-size", type=int_in(1, 10_000_000), default=DEFAULT_BATCH,
                   help=f"logs per commit; bounds memory (default {DEFAULT_BATCH})")
    p.add_argument("--key", metavar="PUB",
                   help="the organiser's public key (a .pub file or 64 hex digits): quarantine "
                        "every log not signed by it (rule SIGNATURE)")
    p.add_argument("--strict", action="store_true",
                   help="exit 1 when a log is quarantined or an audit fails")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    args.raw_key = raw_public_key(args.key)
    try:
        report = ingest(args.paths, Lake(args.lake), **_options(args)) if args.quiet \
            else _with_progress(args)
    except SparkError as err:
        raise UserError(str(err)) from err
    if args.json:
        print_json({**report.to_json(), "engine": args.engine})
    else:
        _print_report(report, args.engine)
    _print_failed_audits(report.audits_failed)
    failed = report.quarantined or report.audits_failed
    return FOUND_PROBLEMS if args.strict and failed else OK


def raw_public_key(given: str | None) -> bytes | None:
    """--key as the raw bytes the worker processes receive."""
    from events.signing import KeyFileError, load_public_key, raw_public

    if given is None:
        return None
    try:
        return raw_public(load_public_key(given))
    except KeyFileError as err:
        raise UserError(str(err)) from err


def _with_progress(args: argparse.Namespace) -> IngestReport:
    console = Console(stderr=True)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeRemainingColumn())
    with Progress(*columns, console=console, disable=not console.is_terminal) as progress:
        task = progress.add_task("logs", total=None)
        return ingest(args.paths, Lake(args.lake), **_options(args),
                      progress=lambda done, total: progress.update(task, completed=done,
                                                                   total=total))


def _options(args: argparse.Namespace) -> dict[str, Any]:
    return {"workers": args.workers, "batch_size": args.batch_size, "key": args.raw_key,
            "engine": args.engine, "master": args.master}


def _print_report(report: IngestReport, engine: str = "duckdb") -> None:
    out = Console(highlight=False, soft_wrap=True)
    out.print(f"{report.lake}: {report.seen} logs seen, {report.ingested} ingested, "
              f"{report.skipped} already there, {len(report.quarantined)} quarantined")
    out.print(f"{report.events} events in {report.seconds:.2f} s: "
              f"{report.matches_per_s:.1f} matches/s, {report.events_per_s:.0f} events/s "
              f"({_ran_on(report, engine)}, "
              f"{report.batches} batch{'es' if report.batches != 1 else ''}, "
              f"{report.compactions} partition{'s' if report.compactions != 1 else ''} compacted)")
    for outcome in report.quarantined[:SHOWN_QUARANTINE]:
        out.print(f"quarantined {outcome.line()}", markup=False)
    if len(report.quarantined) > SHOWN_QUARANTINE:
        out.print(f"... {len(report.quarantined) - SHOWN_QUARANTINE} more (see the quarantine "
                  "table, or --json)")
    for notice in report.notices:
        out.print(f"notice: {notice}", markup=False)
    passed = sum(a.ok for a in report.audits)
    out.print(f"audits: {passed} of {len(report.audits)} hold")


def _ran_on(report: IngestReport, engine: str) -> str:
    if engine == "spark":
        return f"Spark, {report.workers} task{'s' if report.workers > 1 else ''} at a time"
    return f"{report.workers} worker{'s' if report.workers > 1 else ''}"


def _print_failed_audits(failed: list[AuditResult]) -> None:
    """On stderr, in red, with the offending rows: a failed audit means the lake is wrong."""
    err = Console(stderr=True, highlight=False)
    for audit in failed:
        err.print(f"[bold red]AUDIT FAILED[/] {audit.name}: {audit.count} offending row(s); "
                  f"must hold: {audit.must_hold}")
        table = Table(*audit.columns)
        for row in audit.rows:
            table.add_row(*("" if v is None else str(v) for v in row))
        err.print(table)
