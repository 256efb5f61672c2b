"""Tables that fit a terminal or a pipe honestly: --columns picks them, Screen prints them,
leaving columns out whole (never a cell cut short) and saying under the table which it left
out and how to get them."""
from __future__ import annotations

import argparse
import difflib
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from postgame.commands.common import UserError, shown

COLUMNS_HELP = ("print exactly these columns, in this order, in the table, --json and --csv "
                "(e.g. --columns {example}); names as in --json and --csv (a wrong name lists "
                "them all)")


def add_columns_argument(p: argparse.ArgumentParser, example: str, also: str = "") -> None:
    """--columns A,B,...: what the table, --json and --csv print, for every command that prints
    a table; `example` is a list of the command's columns, `also` says more (one sentence)."""
    p.add_argument("--columns", type=column_names, metavar="A,B,...",
                   help=COLUMNS_HELP.format(example=example) + (f"; {also}" if also else ""))


def column_names(text: str) -> tuple[str, ...]:
    """An argparse type: comma-separated column names, each at most once (blanks between two
    commas are skipped)."""
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    if not names:
        raise argparse.ArgumentTypeError("name at least one column, e.g. --columns card,name")
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise argparse.ArgumentTypeError(f"{', '.join(shown(n) for n in twice)} named twice")
    return names


def pick_columns(asked: Sequence[str] | None, known: Sequence[str], what: str) -> list[str]:
    """The columns --columns asked for, in its order (every known one without it); a name that
    is not one of `known` is a user error listing them (`what`: "card_usage", "the history")."""
    if not asked:
        return list(known)
    unknown = [name for name in asked if name not in known]
    if unknown:
        near = [close for name in unknown
                for close in difflib.get_close_matches(name, known, n=1, cutoff=0.75)]
        guess = f" (did you mean {', '.join(near)}?)" if near else ""
        named = ", ".join(repr(shown(name, 60)) for name in unknown)
        raise UserError(f"--columns: {what} has no column {named}{guess}; its columns: "
                        f"{', '.join(known)}")
    return list(asked)


@dataclass(frozen=True)
class TableColumn:
    """One column of a printed table: `name` is what --columns and --json call it, `header` what
    the table prints over it, `cells` its rows as rich markup (escape any text)."""

    name: str
    header: str
    cells: Sequence[str]
    justify: str = "left"


PIPE_WIDTH = 1_000_000
"""A pipe has no width: tables print at their natural width, lines unwrapped."""
MAX_NAMED = 8
"""Columns missing from a table are named up to this many; more are counted."""


def table_width() -> int | None:
    """The width tables fit: COLUMNS when set (on a terminal or a pipe), the terminal's own
    width on a terminal, None on a pipe (every column at its full width, nothing wrapped).
    rich alone would take COLUMNS, else the width of whichever of stdin, stdout and stderr is
    a terminal, else 80, and cut cells to it even on a pipe."""
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    if sys.stdout.isatty():
        return Console().width
    return None


class Screen:
    """Where a command's lines and tables go (stdout), at the width of table_width() or the
    given one. A table that does not fit leaves columns out whole, never a cell cut short: the
    rest wrap (between words; a word longer than its column folds), and one line under the table
    says which columns it left out and how to get them."""

    def __init__(self, width: int | None | Literal["auto"] = "auto") -> None:
        """`width`: None prints as to a pipe, a number fits it; "auto" asks table_width()."""
        self.width = table_width() if isinstance(width, str) else width
        self.console = Console(width=self.width or PIPE_WIDTH, highlight=False)

    def line(self, text: str | Text, *, style: str | None = None) -> None:
        """A line of text, wrapped at the width on a terminal; printed as is (no markup)."""
        self._print(text if isinstance(text, Text) else Text(text, style=style or ""))

    def table(self, columns: Sequence[TableColumn], *, title: str | None = None,
              drop_order: Sequence[str] | None = None, fixed: bool = False,
              more: Sequence[str] = (), what: str = "this table", how: str | None = None,
              style: Mapping[str, Any] | None = None) -> list[str]:
        """Print the columns as a rich Table (`style`: its keyword arguments) under an optional
        title line; return the names of the columns left out to fit the width. `drop_order`
        names the columns to leave out first (default: from the right, never the first one);
        `fixed` (--columns) leaves none out, wrapping them all instead. `more` names the
        model's columns that this table does not show at all (the line under it says so);
        `how` replaces that line's advice on getting them."""
        if title:
            self.line(title, style="italic")
        style = dict(style or {})
        kept, widths = self._fit(columns, drop_order, fixed, style)
        table = Table(**style)
        for i in kept:
            col = columns[i]
            table.add_column(col.header, justify=col.justify,  # type: ignore[arg-type]
                             width=widths[i] if widths else None, overflow="fold")
        for r in range(len(columns[0].cells) if columns else 0):
            table.add_row(*(columns[i].cells[r] for i in kept))
        self._print(table)
        left = [columns[i].name for i in range(len(columns)) if i not in kept]
        note = left_out_line(left, len(columns), self.width, list(more), what, how,
                             [columns[i].name for i in kept][:1])
        if note:
            self.line(note)
        return left

    def _print(self, renderable: Any) -> None:
        if self.width is not None:
            self.console.print(renderable)
            return
        with self.console.capture() as captured:  # a pipe: no padding spaces at line ends
            self.console.print(renderable)
        sys.stdout.write("".join(line.rstrip() + "\n" for line in captured.get().splitlines()))

    def _fit(self, columns: Sequence[TableColumn], drop_order: Sequence[str] | None,
             fixed: bool, style: dict[str, Any]) -> tuple[list[int], list[int] | None]:
        """The columns kept (indexes, in order) and each column's width (by index; None: let
        rich share out a width too small for every column's longest word)."""
        measured = [self._measure(col) for col in columns]
        if self.width is None:
            return list(range(len(columns))), [high for _, high in measured]
        kept = list(range(len(columns)))
        names = [col.name for col in columns]
        order = ([names.index(n) for n in dict.fromkeys(drop_order) if n in names]
                 if drop_order is not None else list(range(len(columns) - 1, 0, -1)))
        overhead: dict[int, int] = {}

        def room(k: int) -> int:
            if k not in overhead:
                overhead[k] = self._overhead(k, style)
            return self.width - overhead[k]  # type: ignore[operator]

        def fits() -> bool:
            return sum(measured[i][0] for i in kept) <= room(len(kept))

        for i in order:
            if fixed or len(kept) == 1 or fits():
                break
            kept.remove(i)
        spare = room(len(kept)) - sum(measured[i][0] for i in kept)
        if spare < 0:
            return kept, None
        widths = [low for low, _ in measured]
        while spare > 0:  # widen the column that wraps most, until none wraps or room runs out
            i = max(kept, key=lambda j: measured[j][1] - widths[j])
            if measured[i][1] <= widths[i]:
                break
            widths[i] += 1
            spare -= 1
        return kept, widths

    def _measure(self, col: TableColumn) -> tuple[int, int]:
        """A column's content width: its longest word (less would fold a word), its longest
        line (more is never needed)."""
        options = self.console.options.update_width(PIPE_WIDTH)
        low, high = 1, 1
        for markup in (col.header, *col.cells):
            m = Measurement.get(self.console, options, Text.from_markup(markup))
            low, high = max(low, m.minimum), max(high, m.maximum)
        return low, high

    def _overhead(self, count: int, style: dict[str, Any]) -> int:
        """What a table of `count` columns takes beside their content: padding and rules."""
        table = Table(**style)
        for _ in range(count):
            table.add_column("", width=1)
        return self.console.measure(table, options=self.console.options.update_width(
            PIPE_WIDTH)).maximum - count


def left_out_line(left: Sequence[str], total: int, width: int | None, more: Sequence[str],
                  what: str, how: str | None, first: Sequence[str]) -> str | None:
    """The line under a table missing columns: which it left out to fit `width`, which of the
    model's (`more`) it never shows, and how to get them (`how`, else --columns and --json)."""
    if not left and not more:
        return None
    others = (", ".join(more) if len(more) <= MAX_NAMED
              else f"{len(more)} more columns of {what}")
    if left:
        said = (f"Left out to fit {width} characters: {len(left)} of {total} columns "
                f"({', '.join(left)})")
        if more:
            said += (f" and {others}" if len(more) > MAX_NAMED
                     else f", and not in this table: {others}")
    else:
        said = f"Not in this table: {others}"
    if how is None:
        wanted = [*first, *(left or more)]
        example = ",".join(wanted[:3]) + (",..." if len(wanted) > 3 else "")
        how = f"get any with --columns {example}, every one with --json or --csv"
    return f"{said}; {how}."
