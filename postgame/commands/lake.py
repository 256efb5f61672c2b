"""`postgame lake recover`: rebuild a lake's lost or broken manifest from the part files it can
verify, deleting nothing (pipeline.lake_recovery.recover_lake), then run the audits on the result.
`postgame lake rollup`: write the lake's rollups again from its facts (pipeline.rollups.rebuild)."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from postgame.commands.common import FOUND_PROBLEMS, OK, UserError, add_command, print_json

EXAMPLES = """\
examples:
  postgame lake recover --lake lake          # after `manifest.json` was lost or damaged
  postgame lake recover --lake lake --json

A part file is listed again when it verifies: it sits where the writer puts it
(<table>/game=<g>/month=<m>/part-*.parquet, quarantine/part-*.parquet), it is readable Parquet
with the table's columns, and its rows are in no newer file (a compaction leaves the files it
merged on disk for a while). Every other file is left where it is and reported; a damaged
manifest is kept beside the new one. Nothing is deleted. A sound manifest is left as it is,
and the part files it does not list are reported. If the rebuilt lake is not what you had,
ingest the logs again into a new lake. Exit status: 0, or 1 when an audit fails afterwards.
"""


def register(sub: argparse._SubParsersAction) -> None:
    lake = sub.add_parser("lake", help="lake tools (recover a lost manifest, write rollups)",
                          description="Tools for a lake folder.")
    tools = lake.add_subparsers(dest="lake_command", metavar="TOOL", required=True)
    p = add_command(
        tools, "recover", help="rebuild a lost or broken manifest from the part files",
        description="Rebuild LAKE/manifest.json from the part files that verify, under the "
                    "writer's lock; report what was kept and what was left aside.",
        examples=EXAMPLES)
    p.add_argument("--lake", type=Path, required=True, help="the lake folder")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=run_recover)
    r = add_command(
        tools, "rollup", help="write the rollups the reports sum again from the facts",
        description="Compute the lake's rollups (the per-day sums the card and faction reports "
                    "read) from its facts, month by month, and commit them in place of the ones "
                    "it had. Ingest writes them with every commit; a lake written before "
                    "rollups gives the same numbers without them, only slower.",
        examples=ROLLUP_EXAMPLES)
    r.add_argument("--lake", type=Path, required=True, help="the lake folder")
    r.add_argument("--json", action="store_true", help="print the rows written as JSON")
    r.set_defaults(func=run_rollup)


ROLLUP_EXAMPLES = """\
examples:
  postgame lake rollup --lake lake          # a lake written by an older postgame
  postgame lake rollup --lake lake --json

One commit under the writer's lock: readers see the old rollups or the new ones, never a mix.
"""


def run_rollup(args: argparse.Namespace) -> int:
    from pipeline.lake import Lake
    from pipeline.lake_layout import LakeError
    from pipeline.rollups import rebuild

    try:
        written = rebuild(Lake(args.lake))
    except LakeError as err:
        raise UserError(str(err)) from err
    if args.json:
        print_json({"lake": str(args.lake), "rows": written})
    else:
        rows = ", ".join(f"{table} {n:,}" for table, n in sorted(written.items())) or "none"
        print(f"{args.lake}: rollups written from the facts: {rows}")
    return OK


def run_recover(args: argparse.Namespace) -> int:
    from pipeline.audits import run_audits
    from pipeline.lake import Lake
    from pipeline.lake_layout import LakeError
    from pipeline.lake_recovery import recover_lake

    lake = Lake(args.lake)
    try:
        recovery = recover_lake(lake)
    except LakeError as err:
        raise UserError(str(err)) from err
    audits = run_audits(lake) if recovery.rebuilt else []
    failed = [a for a in audits if not a.ok]
    if args.json:
        print_json({**recovery.to_json(), "audits": [a.to_json() for a in audits]})
    else:
        _print(recovery, len(audits) - len(failed), len(audits))
    return FOUND_PROBLEMS if failed else OK


def _print(recovery: Any, passed: int, audits: int) -> None:
    if not recovery.rebuilt:
        print(f"{recovery.lake}: {recovery.why} (version {recovery.version}); nothing rebuilt")
    else:
        print(f"{recovery.lake}: rebuilt the manifest (version {recovery.version}) from "
              f"{len(recovery.kept)} part files: {recovery.rows('matches')} matches, "
              f"{recovery.rows('quarantine')} quarantined logs")
        print(f"  because: {recovery.why}")
    for path, why in recovery.aside:
        print(f"  left aside {path}: {why}")
    for old, new in recovery.moved:
        print(f"  kept {old} as {new}")
    if recovery.rebuilt:
        print(f"audits: {passed} of {audits} hold")
        print("Nothing was deleted. If the lake does not hold what you expect, ingest the logs "
              "again into a new lake: postgame ingest LOGS --lake NEW")
