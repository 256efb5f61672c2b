"""`postgame stats` and `postgame matchups`: the metric models of a lake, as a designer reads them
(a table with intervals) or as a script reads them (--json, --csv).

Rates print as "61.2% (55.1-67.0)": the value and its Wilson 95% interval; sample sizes sit in
their own columns. A draw counts as not a win everywhere (pipeline/sql/*/*.sql headers). Each
game's tables are those of its suite (pipeline.metrics.suite, data/<game>/game.toml).
"""
from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator, Sequence
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
from rich import box
from rich.markup import escape

from pipeline import metrics
from pipeline.export import SHOWN, Col, cell, plain, records
from pipeline.metrics import Scope
from postgame.commands.common import (
    INT64_MAX,
    OK,
    UserError,
    add_command,
    add_engine_arguments,
    lake_connection,
    print_json,
    shown,
)
from postgame.commands.screen import Screen, TableColumn, add_columns_argument, pick_columns

TABLES = {"cards": "card_usage", "factions": "faction_win_rates",
          "archetypes": "deck_archetypes", "first-player": "first_player", "coverage": "coverage"}
NARROW = {"card_usage": ("card_name", "included", "inclusion_rate", "deck_win_rate",
                         "win_rate_when_played", "win_rate_when_drawn", "improvement_when_drawn"),
          "faction_win_rates": ("faction", "seat_games", "meta_share", "games", "win_rate",
                                "mirror_matches", "first_win_rate", "second_win_rate"),
          "matchups": ("faction", "opponent_faction", "n", "win_rate")}
"""The columns a terminal too narrow for the whole table keeps longest: the others are left out
first (from the right), then these (from the right); the line under the table names them all."""
TABLE_STYLE = {"box": box.SIMPLE_HEAD}
STATS_EXAMPLES = """\
examples:
  postgame stats --lake lake --game vitorian
  postgame stats --lake lake --game vitorian --format standard --from 2026-03-01 --to 2026-03-31
  postgame stats --lake lake --game vitorian --min-sample 50 --sort improvement_when_drawn --limit 20
  postgame stats --lake lake --game vitorian --table factions
  postgame stats --lake lake --game vitorian --columns card_name,included,win_rate_when_drawn
  postgame stats --lake lake --game vitorian --csv > cards.csv
  postgame stats --lake lake --game vitorian --csv --columns card,card_name,drawn,drawn_wins
  postgame stats --lake lake --game vitorian --engine spark --master local[2]

A deck is a seat-game (one seat's deck in one match); "drawn" means ever in hand (opening hand
or drawn); a draw counts as not a win. Rates show the Wilson 95% interval in brackets.
--sort takes any column of --json/--csv, highest first for numbers; COLUMN:asc reverses it.
The table shows the main columns of the model; --json and --csv have every one, and --columns
picks any (a rate shows its interval under it; in --json and --csv the interval is the rate's
own NAME_low and NAME_high columns). A terminal too narrow for the table leaves columns out and
says which under it; cells wrap, never cut. Piped, the table has every column at full width
(as wide as COLUMNS says, if set).
"""
MATCHUP_EXAMPLES = """\
examples:
  postgame matchups --lake lake --game vitorian
  postgame matchups --lake lake --game vitorian --format standard --min-sample 20 --json
  postgame matchups --lake lake --game vitorian --columns faction,opponent_faction,n,win_rate

The matrix reads row against column: the row faction's win rate against the column faction.
Mirror matches (the diagonal) are counted per match and carry no win rate.
--columns chooses the columns of the list of pairs (the table, --json's "matchups", --csv) and
prints the list alone, without the matrix.
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "stats", help="card usage and win rates of a lake, with confidence intervals",
        description="Card usage statistics of the matches in a lake: inclusion, copies, deck "
                    "win rate, played rate, win rates when played, drawn and not drawn.",
        examples=STATS_EXAMPLES)
    add_scope_arguments(p)
    p.add_argument("--table", choices=list(TABLES),
                   help="what to show, among the game's suite (default: cards for a card "
                        "game, else coverage)")
    p.add_argument("--sort", metavar="COLUMN[:asc]", help="order rows by this column")
    p.add_argument("--limit", type=_positive, metavar="N", help="show the first N rows")
    add_output_arguments(p)
    add_columns_argument(p, "card_name,included,win_rate_when_drawn")
    p.set_defaults(func=run_stats)
    m = add_command(
        sub, "matchups", help="faction against faction win rates of a lake",
        description="Win rate of each faction (Vitorian: the Sovereign's colour; Eredan: the "
                    "guild) against each other faction, as a matrix and as a list.",
        examples=MATCHUP_EXAMPLES)
    add_scope_arguments(m)
    add_output_arguments(m)
    add_columns_argument(m, "faction,opponent_faction,n,win_rate",
                         also="on a terminal, the list of pairs alone, without the matrix")
    m.set_defaults(func=run_matchups)


def add_scope_arguments(p: argparse.ArgumentParser) -> None:
    """The filters every lake report takes (stats, matchups, export)."""
    p.add_argument("--lake", type=Path, required=True, help="the lake folder (postgame ingest)")
    p.add_argument("--game", type=str.lower,
                   help="the game, e.g. vitorian (default: the lake's only game)")
    p.add_argument("--format", help="only matches of this format (default: every format)")
    p.add_argument("--from", dest="date_from", type=_day, metavar="YYYY-MM-DD",
                   help="first match day, UTC, inclusive (default: unbounded)")
    p.add_argument("--to", dest="date_to", type=_day, metavar="YYYY-MM-DD",
                   help="last match day, UTC, inclusive (default: unbounded)")
    p.add_argument("--min-sample", type=_count, default=0, metavar="N",
                   help="leave out rows resting on fewer than N decks/matches (default 0)")
    add_engine_arguments(p)


def add_output_arguments(p: argparse.ArgumentParser) -> None:
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="JSON on stdout, for scripts")
    out.add_argument("--csv", action="store_true",
                     help="CSV on stdout, every column (or those of --columns)")


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a day (YYYY-MM-DD): {text!r}") from None


def _count(text: str) -> int:
    """0 to INT64_MAX: the SQL models compare it with BIGINT counts (a bigger one fails there)."""
    if not text.isascii() or not text.isdigit():
        raise argparse.ArgumentTypeError(f"not a count (0, 1, 2...): {text!r}")
    if len(text.lstrip("0")) > len(str(INT64_MAX)) or int(text) > INT64_MAX:
        raise argparse.ArgumentTypeError(f"{shown(text)} is out of range: choose 0 to "
                                         f"{INT64_MAX}")
    return int(text)


def _positive(text: str) -> int:
    value = _count(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be from 1 to {INT64_MAX}")
    return value


def scope_of(args: argparse.Namespace) -> Scope:
    if args.date_from and args.date_to and args.date_from > args.date_to:
        raise UserError(f"--from {args.date_from} is after --to {args.date_to}")
    game = args.game or only_game(args.lake)
    return Scope(game, args.format, args.date_from, args.date_to, args.min_sample)


def only_game(folder: Path) -> str:
    """The game of a lake that holds one; a lake of several asks for --game, naming them."""
    if not folder.is_dir():
        raise UserError(f"{folder}: no such lake folder (make one: postgame ingest LOGS "
                        f"--lake {folder})")
    from pipeline.lake import Lake

    con = Lake(folder).connect()
    try:
        games = [row[0] for row in con.execute(
            "SELECT DISTINCT game FROM matches ORDER BY game").fetchall()]
    finally:
        con.close()
    if len(games) == 1:
        return str(games[0])
    if not games:
        raise UserError(f"{folder}: the lake holds no matches (add some: postgame ingest LOGS "
                        f"--lake {folder})")
    raise UserError(f"{folder} holds {', '.join(games)}: choose one with --game")


@contextlib.contextmanager
def open_scope(folder: Path, scope: Scope, args: argparse.Namespace | None = None
               ) -> Iterator[tuple[duckdb.DuckDBPyConnection, pd.DataFrame]]:
    """The lake's connection (on the engine of --engine) and the coverage of the scope; refuses
    (exit 2) a folder that is no lake, a lake with no matches, or filters that leave none, saying
    what is there."""
    con = lake_connection(folder, args or argparse.Namespace())
    try:
        coverage = metrics.run_model(con, "coverage", **scope.params())
        if coverage.empty:
            raise UserError(_nothing_there(con, folder, scope))
        yield con, coverage
    finally:
        con.close()


def _nothing_there(con: duckdb.DuckDBPyConnection, folder: Path, scope: Scope) -> str:
    games = [row[0] for row in con.execute(
        "SELECT DISTINCT game FROM matches ORDER BY game").fetchall()]
    if not games:
        return f"{folder}: the lake holds no matches (add some: postgame ingest LOGS --lake {folder})"
    if scope.game not in games:
        return f"{folder}: no {scope.game} matches; the lake holds {', '.join(games)}"
    said = scope.describe()
    return (f"{folder}: no {scope.game} matches in {said['format']} from {said['from']} "
            f"to {said['to']}")


def sort_rows(frame: pd.DataFrame, spec: str | None) -> pd.DataFrame:
    """Numbers highest first, text A to Z; COLUMN:asc or COLUMN:desc to choose; blanks last."""
    if not spec:
        return frame
    column, _, way = spec.partition(":")
    if column not in frame.columns:
        raise UserError(f"--sort: no column {column!r}; columns: {', '.join(frame.columns)}")
    if way not in ("", "asc", "desc"):
        raise UserError(f"--sort: {spec!r}: the order is asc or desc")
    numeric = pd.api.types.is_numeric_dtype(frame[column])
    ascending = way == "asc" or (not way and not numeric)
    return frame.sort_values(column, ascending=ascending, kind="stable", na_position="last",
                             ignore_index=True)


def suite_model(game: str, table: str | None) -> str:
    """The model --table names, if the game's suite has it (pipeline.metrics.suite); without
    --table, card usage for a game that has it, else the suite's first model."""
    suite = metrics.suite(game)
    if table is None:
        return TABLES["cards"] if TABLES["cards"] in suite else suite[0]
    model = TABLES[table]
    if model not in suite:
        named = [alias for alias, name in TABLES.items() if name in suite]
        raise UserError(f"--table {table}: {game} has no {model.replace('_', ' ')} table; its "
                        f"tables: {', '.join(named) or ', '.join(suite)}")
    return model


def run_stats(args: argparse.Namespace) -> int:
    scope = scope_of(args)
    with open_scope(args.lake, scope, args) as (con, coverage):
        model = suite_model(scope.game, args.table)
        frame = metrics.run_model(con, model, **scope.params())
    frame = sort_rows(frame, args.sort)
    if args.limit:
        frame = frame.head(args.limit)
    columns = pick_columns(args.columns, list(frame.columns), model)
    if args.json:
        print_json({**header(scope, coverage), "table": model,
                    "rows": records(frame[columns])})
    elif args.csv:
        frame[columns].to_csv(sys.stdout, index=False)
    else:
        print_model(Screen(), frame, model, title(model, scope, coverage), args.columns)
    return OK


def header(scope: Scope, coverage: pd.DataFrame) -> dict[str, Any]:
    """What every JSON answer starts with: the filters and the matches they found."""
    return {"filters": scope.describe(), "matches": int(coverage["matches"].sum()),
            "first_day": min(coverage["first_day"]).isoformat(),
            "last_day": max(coverage["last_day"]).isoformat()}


def title(model: str, scope: Scope, coverage: pd.DataFrame) -> str:
    said, about = scope.describe(), header(scope, coverage)
    return (f"{model.replace('_', ' ')}: {scope.game}, {said['format']}, "
            f"{about['first_day']} to {about['last_day']}, {about['matches']} matches")


def print_model(screen: Screen, frame: pd.DataFrame, model: str, caption: str,
                asked: Sequence[str] | None = None) -> list[str]:
    """A model's rows as a table: its main columns (pipeline.export.SHOWN), or exactly those
    asked for; a rate's interval goes under it, dim. Returns the columns left out to fit."""
    if asked:
        cols = [_asked_col(frame, model, name) for name in asked]
        return screen.table([_column(frame, c, c.name) for c in cols], title=caption,
                            fixed=True, style=TABLE_STYLE)
    cols = list(SHOWN.get(model) or [_asked_col(frame, model, name) for name in frame.columns])
    shown_here = {c.name for c in cols} | {f"{c.name}{end}" for c in cols
                                           if c.kind in ("rate", "diff")
                                           for end in ("_low", "_high")}
    more = [name for name in frame.columns if name not in shown_here]
    keep = NARROW.get(model, ())
    names = [c.name for c in cols]
    drop = [n for n in reversed(names) if n not in keep] + [n for n in reversed(names[1:])
                                                             if n in keep]
    return screen.table([_column(frame, c, c.header) for c in cols], title=caption,
                        drop_order=drop, more=more, what=model, style=TABLE_STYLE)


def _asked_col(frame: pd.DataFrame, model: str, name: str) -> Col:
    """How to print a column asked for by name: as the main table prints it, or by its type (a
    column with _low and _high beside it is a rate, shown with its interval)."""
    for col in SHOWN.get(model, ()):
        if col.name == name:
            return col
    values, base = frame[name], name.removesuffix("_low").removesuffix("_high")
    if base != name and base in frame.columns and _asked_col(frame, model, base).kind == "rate":
        return Col(name, name, "pct")  # a rate's bound, as the rate prints
    if pd.api.types.is_bool_dtype(values) or not pd.api.types.is_numeric_dtype(values):
        return Col(name, name, "text")
    if {f"{name}_low", f"{name}_high"} <= set(frame.columns):
        return Col(name, name, "diff" if "improvement" in name else "rate")
    return Col(name, name, "float" if pd.api.types.is_float_dtype(values) else "int")


def _column(frame: pd.DataFrame, col: Col, header: str) -> TableColumn:
    return TableColumn(col.name, escape(header),
                       [_terminal_cell(row, col) for row in frame.to_dict("records")],
                       "left" if col.kind == "text" else "right")


def _terminal_cell(row: dict[str, Any], col: Col) -> str:
    """Like the report's cell, the interval in whole points on a second, dim line."""
    if col.kind == "float" and plain(row.get(col.name)) is not None:
        return f"{row[col.name]:.4g}"  # a column of no known kind: its value, as it is
    if col.kind not in ("rate", "diff") or plain(row.get(col.name)) is None:
        return escape(cell(row, col))
    value, low, high = (100 * row[f"{col.name}{s}"] for s in ("", "_low", "_high"))
    if col.kind == "rate":
        return f"{value:.1f}%\n[dim]{low:.0f}-{high:.0f}[/dim]"
    return f"{value:+.1f}\n[dim]{low:+.0f}..{high:+.0f}[/dim]"


def run_matchups(args: argparse.Namespace) -> int:
    scope = scope_of(args)
    with open_scope(args.lake, scope, args) as (con, coverage):
        if "matchups" not in metrics.suite(scope.game):
            raise UserError(f"{scope.game} has no matchups: its seats play no factions "
                            f"(its tables: {', '.join(metrics.suite(scope.game))})")
        long = metrics.matchups(con, scope.game, scope.format, scope.date_from, scope.date_to,
                                scope.min_sample)
    columns = pick_columns(args.columns, list(long.columns), "the list of matchups")
    if args.json:
        grid = metrics.matchup_matrix(long)
        matrix = {f: {o: plain(v) for o, v in grid.loc[f].items()} for f in grid.index}
        print_json({**header(scope, coverage), "matrix": matrix,
                    "matchups": records(long[columns])})
    elif args.csv:
        long[columns].to_csv(sys.stdout, index=False)
    else:
        screen = Screen()
        caption = title("matchups", scope, coverage)
        if not args.columns:
            print_matrix(screen, long, caption)
            caption = "every pair, from the row faction's side"
        print_model(screen, long, "matchups", caption, args.columns)
    return OK


def print_matrix(screen: Screen, long: pd.DataFrame, caption: str) -> list[str]:
    """Row against column: win rate and games; the mirror diagonal shows its match count."""
    rates, counts = metrics.matchup_matrix(long), metrics.matchup_matrix(long, "n")
    columns = [TableColumn("vs", "vs", [escape(str(f)) for f in rates.index])]
    columns += [TableColumn(str(o), escape(str(o)),
                            [_grid_cell(f, o, rates, counts) for f in rates.index], "right")
                for o in rates.columns]
    return screen.table(columns, title=caption, how="the list below has every pair, and "
                        "--json the whole matrix", style=TABLE_STYLE)


def _grid_cell(faction: str, opponent: str, rates: pd.DataFrame, counts: pd.DataFrame) -> str:
    n = plain(counts.loc[faction, opponent])
    if n is None:
        return "-"
    if faction == opponent:
        return f"mirror n={int(n)}"
    return f"{100 * rates.loc[faction, opponent]:.1f}% n={int(n)}"
