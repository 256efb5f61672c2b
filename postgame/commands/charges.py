"""`postgame charges`: a lake's usage-based charge tables (CH-3) and a deck's charge check."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import pandas as pd
from rich.markup import escape

from postgame.commands.common import (
    FOUND_PROBLEMS,
    INT64_MAX,
    OK,
    UserError,
    add_command,
    add_engine_arguments,
    int_in,
    lake_connection,
    print_json,
)
from postgame.commands.deck import iso_date
from postgame.commands.screen import Screen, TableColumn, add_columns_argument, pick_columns

EXAMPLES = """\
examples:
  postgame charges --lake lake --game vitorian                  # the table in force now
  postgame charges --lake lake --game vitorian --epoch 2
  postgame charges --lake lake --game vitorian --history --csv > charges.csv
  postgame charges --lake lake --game vitorian --movers 10
  postgame charges --lake lake --game vitorian --deck my-deck.txt --date 2026-03-01
  postgame charges --lake lake --game vitorian --deck my-deck.txt --tournament vw-2026-004 --json
  postgame charges --lake lake --game vitorian --columns card,name,charge,delta
  postgame charges --lake lake --game vitorian --history --columns name,e0,e3
  postgame charges --lake lake --game vitorian --engine spark

Tables are recomputed every `window` tournaments from the decks registered in the previous
window (settings: data/charges/formats.toml; rules: charges.md). Without --epoch, --date or
--tournament, the table in force now: the one the next tournament plays under.
With --deck, one verdict over every rule (as `postgame deck check --lake` gives it): the game's
construction rules, the cap (CH-2.8) and the format's pool (CH-2.9). Exit status 1 when the deck
is not legal.
--columns picks the columns of the table, --json and --csv (names as in --csv's first line;
--history's table has card, name and e0, e1... one column an epoch, its --json and --csv one row
a card and epoch). A terminal too narrow for a table leaves columns out and says which under it
(--history: the oldest epochs first); piped, tables have every column at full width.
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "charges", help="usage-based card charges per epoch, and deck charge checks",
        description="Charge tables computed from a lake's tournament decks (charges.md, CH-).",
        examples=EXAMPLES)
    p.add_argument("--lake", type=Path, required=True, help="the lake folder (postgame ingest)")
    p.add_argument("--game", type=str.lower,
                   help="the game, as the lake names it (default: the lake's only game)")
    p.add_argument("--format", dest="format_name", default="standard", metavar="FORMAT",
                   help="the format (default: standard)")
    p.add_argument("--epoch", type=int_in(0, INT64_MAX), metavar="K",
                   help="show epoch K's table (epochs count from 0)")
    view = p.add_mutually_exclusive_group()
    view.add_argument("--history", action="store_true", help="each card's charge over epochs")
    view.add_argument("--movers", type=int_in(1, INT64_MAX), metavar="N",
                      help="the N cards whose charge moved most into the epoch")
    view.add_argument("--deck", type=Path, metavar="FILE",
                      help="a deck list's charge against the format's cap")
    when = p.add_mutually_exclusive_group()
    when.add_argument("--date", type=iso_date, metavar="YYYY-MM-DD",
                      help="use the table in force on this day")
    when.add_argument("--tournament", metavar="ID", help="use the table in force at this tournament")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print JSON")
    out.add_argument("--csv", action="store_true", help="print CSV")
    add_columns_argument(p, "card,name,charge,delta",
                         also="not with --deck, whose verdict has its own shape")
    add_engine_arguments(p)
    p.set_defaults(func=run)


def connect_lake(root: Path, args: argparse.Namespace | None = None
                 ) -> duckdb.DuckDBPyConnection:
    """The lake's connection (one view per fact table), on the engine of --engine if `args`
    has one; a missing folder is a user error."""
    return lake_connection(root, args or argparse.Namespace())


def run(args: argparse.Namespace) -> int:
    from pipeline.charges import ChargeError, compute_charges

    if args.game is None:
        from postgame.commands.stats import only_game

        args.game = only_game(args.lake)
    when = args.date or args.tournament
    if args.epoch is not None and when is not None:
        raise UserError("--epoch and --date/--tournament both choose the table: give one")
    if args.history and (args.epoch is not None or when is not None):
        raise UserError("--history shows every epoch: drop --epoch, --date and --tournament")
    if args.deck is not None:
        if args.columns:
            raise UserError("--columns chooses the columns of the charge tables (the table in "
                            "force, --epoch, --history, --movers): drop it with --deck")
        return _show_deck(args, when)
    try:
        season = compute_charges(connect_lake(args.lake, args), args.game, args.format_name)
        if args.history:
            return _show_history(season, args)
        epoch = season.epoch(args.epoch) if when is None else season.epoch_in_force(when)
        if args.movers is not None:
            return _show_movers(season, epoch, args.movers, args)
        return _show_table(season, epoch, args)
    except ChargeError as err:
        raise UserError(str(err)) from err


# --- views -----------------------------------------------------------------------------------

def _show_table(season: Any, epoch: int, args: argparse.Namespace) -> int:
    return _show_epoch_rows(season, epoch, "cards", season.table(epoch), CARD_COLUMNS,
                            "every card is at charge 0 (the initial table)", args)


def _show_epoch_rows(season: Any, epoch: int, key: str, rows: pd.DataFrame,
                     columns: list[tuple[str, str]], none: str, args: argparse.Namespace) -> int:
    """Rows of one epoch (its table, its movers): JSON under `key` beside the table's info, CSV,
    or a rich table under the epoch's description (`none` when there are no rows)."""
    chosen = pick_columns(args.columns, list(rows.columns), f"the {key} table")
    if args.json or args.csv:
        rows = rows[chosen]
    if args.json:
        print_json({"game": season.game, "format": season.format, "table": season.info(epoch),
                    key: records(rows)})
    elif args.csv:
        rows.to_csv(sys.stdout, index=False)
    else:
        screen = Screen()
        screen.line(describe_epoch(season, epoch))
        if rows.empty:
            screen.line(none)
        else:
            _print_table(screen, rows, columns, args.columns, f"the {key} table")
    return OK


def _show_history(season: Any, args: argparse.Namespace) -> int:
    history = season.history()
    if args.json or args.csv:
        history = history[pick_columns(args.columns, list(history.columns), "the history in "
                                       "--json and --csv (one row a card and epoch)")]
    if args.json:
        print_json({"game": season.game, "format": season.format,
                    "epochs": [season.info(int(e)) for e in season.epochs["epoch"]],
                    "history": records(history)})
    elif args.csv:
        history.to_csv(sys.stdout, index=False)
    elif history.empty:
        print(f"{season.game} {season.format}: no card has had a charge yet")
    else:
        wide = history.pivot(index=["card", "name"], columns="epoch", values="charge")
        wide.columns = [f"e{epoch}" for epoch in wide.columns]
        wide = wide.reset_index().sort_values([wide.columns[-1], "card"], ascending=[False, True])
        columns = [("card", "Card"), ("name", "Name")] + [(c, c) for c in wide.columns[2:]]
        epochs = list(wide.columns[2:])  # too narrow a terminal loses the oldest first
        _print_table(Screen(), wide, columns, args.columns, "the history table",
                     drop_order=[*epochs[:-1], "name", *epochs[-1:]],
                     more=[c for c in history.columns if c not in ("card", "name", "epoch",
                                                                    "charge")],
                     how=f"--columns card,name,{','.join(epochs[-2:])} picks epochs; --json "
                         "and --csv have every column, one row a card and epoch")
    return OK


def _show_movers(season: Any, epoch: int, top: int, args: argparse.Namespace) -> int:
    return _show_epoch_rows(season, epoch, "movers", season.movers(epoch, top), MOVER_COLUMNS,
                            "no charge moved in this epoch", args)


def _show_deck(args: argparse.Namespace, when: date | str | None) -> int:
    """The deck's one verdict (pipeline.deck_verdict, as `postgame deck check --lake` gives it), then
    the table it was charged under and what each card adds; CSV: the contributions, with the
    verdict's problems on stderr."""
    from engine.games import get_game
    from postgame.commands.deck import judge_file, season_of, show_verdict

    get_game(args.game)  # the lake's game key must be a game this build knows
    charges = season_of(connect_lake(args.lake, args), args.game, args.format_name)
    seasons: list[Any] = []

    def season() -> Any:
        seasons.append(charges())
        return seasons[-1]

    if not args.csv:
        return show_verdict(args.game, args.deck, season, when, args.json,
                            extra=lambda verdict: _print_deck(seasons, verdict))
    verdict = judge_file(args.game, args.deck, season, when)
    contributions = verdict.charge.contributions if verdict.charge is not None else []
    rows = pd.DataFrame([msgspec.to_builtins(c) for c in contributions],
                        columns=["card", "name", "copies", "charge", "contribution", "base_card"])
    rows.to_csv(sys.stdout, index=False)
    for problem in verdict.problems:
        print(f"{problem.rule}: {problem.reason}", file=sys.stderr)
    if not verdict.cap_checked:
        print(verdict.charge_line(), file=sys.stderr)
    return OK if verdict.legal else FOUND_PROBLEMS


def _print_deck(seasons: list[Any], verdict: Any) -> None:
    """Below the verdict: which table charged the deck and each card's contribution."""
    result = verdict.charge
    if result is None or not seasons:
        return
    screen = Screen()
    screen.line(describe_epoch(seasons[-1], result.table.epoch))
    rows = pd.DataFrame([msgspec.to_builtins(c) for c in result.contributions],
                        columns=["card", "name", "copies", "charge", "contribution"])
    if not rows.empty:
        _print_table(screen, rows, DECK_COLUMNS, None, "the deck's contributions", how="--csv "
                     "shows every column")


CARD_COLUMNS = [("card", "Card"), ("name", "Name"), ("n_c", "Decks"), ("share", "Share"),
                ("smoothed_share", "Smoothed"), ("charge", "Charge"),
                ("previous_charge", "Before"), ("delta", "Change")]
MOVER_COLUMNS = [("card", "Card"), ("name", "Name"), ("previous_charge", "Before"),
                 ("charge", "Charge"), ("delta", "Change"), ("n_c", "Decks"), ("N", "of")]
DECK_COLUMNS = [("card", "Card"), ("name", "Name"), ("copies", "Copies"), ("charge", "Charge"),
                ("contribution", "Contribution")]


def describe_epoch(season: Any, epoch: int) -> str:
    """One line saying which table this is and why it holds the values it holds."""
    info = season.info(epoch)
    head = f"{season.game} {season.format}, epoch {epoch}"
    if info.upcoming:
        where = "no tournament yet: in force for the next tournament"
    else:
        where = (f"tournaments {info.first_tournament} to {info.last_tournament}, "
                 f"{info.start_date} to {info.end_date}")
    if epoch == 0:
        how = "the initial table"
    elif info.carried_over:
        how = (f"carried over: epoch {epoch - 1} had {info.decks} decks, fewer than "
               f"{season.settings.min_decks}")
    else:
        how = f"computed from the {info.decks} decks of epoch {epoch - 1}"
    return f"{head} ({where}); {how}"


TABLE_STYLE = {"show_edge": False, "header_style": "bold"}


def _print_table(screen: Screen, frame: pd.DataFrame, columns: list[tuple[str, str]],
                 asked: Sequence[str] | None, what: str, *,
                 drop_order: Sequence[str] | None = None, more: Sequence[str] | None = None,
                 how: str | None = None) -> list[str]:
    """The columns (key, header) of the frame, or exactly those --columns asked for (headed by
    their names); the line under the table names what it leaves out (by default the frame's
    other columns: `more`)."""
    if asked:
        names = pick_columns(asked, list(frame.columns), what)
        return screen.table([_column(frame, key, key) for key in names], fixed=True,
                            style=TABLE_STYLE)
    keys = [key for key, _ in columns]
    if more is None:
        more = [c for c in frame.columns if c not in keys]
    return screen.table([_column(frame, key, title) for key, title in columns],
                        drop_order=drop_order, more=more, what=what, how=how, style=TABLE_STYLE)


def _column(frame: pd.DataFrame, key: str, title: str) -> TableColumn:
    numeric = pd.api.types.is_numeric_dtype(frame[key]) and not pd.api.types.is_bool_dtype(
        frame[key])
    return TableColumn(key, escape(title), [escape(_cell(value)) for value in frame[key]],
                       "right" if numeric else "left")


def _cell(value: Any) -> str:
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """Rows as builtins for JSON: missing values (NaN, NA) become null."""
    clean = frame.astype(object).where(frame.notna(), None)
    return [{key: _builtin(value) for key, value in row.items()}
            for row in clean.to_dict("records")]


def _builtin(value: Any) -> Any:
    return value.item() if hasattr(value, "item") else value
