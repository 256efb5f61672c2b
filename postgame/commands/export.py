"""`postgame export`: a usage report of a lake as files to hand around (pipeline/export.py)."""
from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console

from pipeline.export import FORMATS, export
from postgame.commands.common import OK, UserError, add_command, print_json
from postgame.commands.stats import add_scope_arguments, open_scope, scope_of

EXAMPLES = """\
examples:
  postgame export --lake lake --game vitorian --out reports/all
  postgame export --lake lake --game vitorian --format standard --from 2026-03-01 \\
      --to 2026-03-31 --out reports/march --as html,xlsx
  postgame export --lake lake --game vitorian --out reports/all --engine spark

Writes under OUT: one CSV and one Parquet file per table with about.json beside them,
report.xlsx (an "about" sheet, then one sheet per table) and report.html (charts and tables in
one file that opens offline). Each form states its filters, the days and matches it covers, the
ruleset versions and when it was made. Charges join the report when the charges module can
compute them for the format; the report notes it when not.
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "export", help="write a usage report of a lake: CSV, Parquet, Excel, HTML",
        description="Write the card usage, matchup, first-player, faction and archetype tables "
                    "(and charges) of a lake's matches as CSV, Parquet, Excel and HTML.",
        examples=EXAMPLES)
    add_scope_arguments(p)
    p.add_argument("--out", type=Path, required=True, metavar="DIR",
                   help="folder for the report files (created if needed)")
    p.add_argument("--as", dest="forms", default=",".join(FORMATS), metavar="FORMS",
                   help=f"comma-separated forms among {','.join(FORMATS)} (default: all)")
    p.add_argument("--json", action="store_true", help="list the files written as JSON")
    p.set_defaults(func=run)


def forms_of(text: str) -> list[str]:
    forms = [f.strip().lower() for f in text.split(",") if f.strip()]
    unknown = [f for f in forms if f not in FORMATS]
    if unknown or not forms:
        raise UserError(f"--as: {', '.join(unknown) or 'nothing'} is not a report form; "
                        f"choose among {', '.join(FORMATS)}")
    return forms


def run(args: argparse.Namespace) -> int:
    scope, forms, out = scope_of(args), forms_of(args.forms), args.out
    if out.exists() and not out.is_dir():
        raise UserError(f"{out}: exists and is not a folder")
    with open_scope(args.lake, scope, args) as (con, _):
        source = {"lake": str(args.lake.resolve()), "lake version": str(_lake_version(args.lake)),
                  "engine": args.engine}
        report, paths = export(con, scope, out, forms, source=source)
    if args.json:
        print_json({"about": report.about, "files": [str(p) for p in paths]})
        return OK
    console = Console()
    console.print(f"{report.about['title']}: {report.about['matches']} matches, "
                  f"{report.about['first_day']} to {report.about['last_day']}")
    for note in report.notes:
        console.print(f"  note: {note}")
    for path in paths:
        console.print(f"  wrote {path}")
    return OK


def _lake_version(folder: Path) -> int:
    from pipeline.lake import Lake

    return int(Lake(folder).manifest()["version"])
