"""Usage reports: the metrics suite of one scope, written for people who do not run postgame.

One report, four forms: CSV files and Parquet files (one per table, with an about.json sidecar),
one Excel workbook (an "about" sheet, then one sheet per table) and one HTML page that needs no
network (charts inlined as base64 PNG, styles inline). Every form states the filters, the days
the data covers, the match count, the ruleset versions and when it was made, so a file passed
around out of context still says what it is.

Charges (pipeline.charges, another module) join the report when that module is present; when
it is absent or refuses a format, the report says so in its notes instead of failing.
"""
from __future__ import annotations

import base64
import html
import io
import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from pipeline import glossary, metrics
from pipeline.metrics import Scope

FORMATS = ("csv", "parquet", "xlsx", "html")
ABOUT_FILE = "about.json"
WORKBOOK = "report.xlsx"
PAGE = "report.html"
TITLES = {"coverage": "Coverage", "card_usage": "Card usage", "matchups": "Matchups",
          "matchup_matrix": "Matchup matrix (row against column)",
          "first_player": "First-player advantage", "faction_win_rates": "Faction win rates",
          "deck_archetypes": "Deck archetypes", "charges": "Charges"}
DEFINITIONS = " ".join(glossary.conventions()[topic] for topic in
                       ("deck", "draws", "mirrors", "intervals"))
"""What every table of a report shares, in the words of data/glossary.toml."""


@dataclass(frozen=True)
class Col:
    """One column as a person reads it: model column, header, and kind (text, int, num, pct,
    rate, diff); rates and differences print with their interval."""

    name: str
    header: str
    kind: str = "int"


def named(name: str, kind: str = "int") -> Col:
    """A column under its glossary name (data/glossary.toml)."""
    return Col(name, glossary.label(name), kind)


SHOWN: dict[str, tuple[Col, ...]] = {
    "card_usage": (
        Col("card", "id", "text"), named("card_name", "text"), named("included"),
        named("inclusion_rate", "rate"), named("inclusion_in_faction", "rate"),
        named("avg_copies", "num"),
        named("mirror_matches"), named("games"), named("deck_win_rate", "rate"),
        named("played_rate", "rate"), named("win_rate_when_played", "rate"),
        named("drawn_games"), named("win_rate_when_drawn", "rate"),
        named("win_rate_in_opening_hand", "rate"), named("win_rate_when_drawn_later", "rate"),
        named("win_rate_when_not_drawn", "rate"), named("improvement_when_drawn", "diff"),
        named("avg_turn_first_played", "num")),
    "matchups": (
        Col("faction", "faction", "text"), Col("opponent_faction", "opponent", "text"),
        Col("n", "n"), Col("wins", "W"), Col("losses", "L"), Col("draws", "D"),
        Col("win_rate", "win rate", "rate")),
    "faction_win_rates": (
        Col("faction", "faction", "text"), Col("seat_games", "decks"),
        Col("meta_share", "share", "rate"), Col("games", "n"), Col("wins", "W"),
        Col("losses", "L"), Col("draws", "D"), Col("win_rate", "win rate", "rate"),
        Col("mirror_matches", "mirrors"), Col("first_win_rate", "win first", "rate"),
        Col("second_win_rate", "win second", "rate")),
    "deck_archetypes": (
        Col("deck_name", "archetype", "text"), Col("faction", "faction", "text"),
        Col("seat_games", "decks"), Col("meta_share", "share", "rate"), Col("games", "n"),
        Col("win_rate", "win rate", "rate"), Col("mirror_matches", "mirrors")),
    "first_player": (
        Col("format", "format", "text"), Col("matches", "matches"), Col("first_wins", "W"),
        Col("first_losses", "L"), Col("draws", "D"),
        Col("first_player_win_rate", "first seat wins", "rate"),
        Col("decided_first_player_win_rate", "of decided", "rate")),
    "coverage": (
        Col("format", "format", "text"), Col("ruleset", "ruleset", "text"),
        Col("ruleset_version", "version"), Col("matches", "matches"),
        Col("first_day", "from", "text"), Col("last_day", "to", "text"),
        Col("draw_rate", "draws", "rate"), Col("avg_turns", "turns", "num")),
}


def plain(value: Any) -> Any:
    """A cell as a JSON-able Python value: NULL and NaN as None, numpy numbers unwrapped."""
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return [{k: plain(v) for k, v in row.items()} for row in frame.to_dict("records")]


def cell(row: Mapping[str, Any], col: Col) -> str:
    """One value as printed: rates 61.2% (55.1-67.0), differences +4.3 (-1.0..+9.6), "-" blank."""
    value = plain(row.get(col.name))
    if value is None:
        return "-"
    if col.kind in ("rate", "diff"):
        low, high = plain(row.get(f"{col.name}_low")), plain(row.get(f"{col.name}_high"))
        if col.kind == "rate":
            return f"{100 * value:.1f}% ({100 * low:.1f}-{100 * high:.1f})"
        return f"{100 * value:+.1f} ({100 * low:+.1f}..{100 * high:+.1f})"
    if col.kind == "pct":
        return f"{100 * value:.1f}%"
    if col.kind == "num":
        return f"{value:.2f}"
    return str(value)


@dataclass
class Report:
    """The tables of one scope and what they rest on (`about`), ready to be written."""

    scope: Scope
    tables: dict[str, pd.DataFrame]
    about: dict[str, Any]
    notes: list[str] = field(default_factory=list)


def build_report(con: duckdb.DuckDBPyConnection, scope: Scope,
                 source: Mapping[str, Any] | None = None,
                 made_at: datetime | None = None) -> Report:
    """Run the game's suite (and its charges, for a game with charges) and describe the
    result; a game's report holds only the tables its suite names."""
    tables = metrics.run_all(con, **scope.params())
    if "matchups" in tables:
        tables["matchup_matrix"] = metrics.matchup_matrix(tables["matchups"]).reset_index()
    charges: pd.DataFrame | None = None
    notes: list[str] = []
    if has_charges(scope.game):
        charges, notes = charge_tables(con, scope, tables["coverage"])
    if charges is not None:
        tables["charges"] = charges
    about = describe(scope, tables, source or {}, made_at or datetime.now(UTC), notes)
    return Report(scope, tables, about, notes)


def has_charges(game: str) -> bool:
    """Whether the game's metadata declares charges (engine.registry GameInfo.capabilities)."""
    from engine import registry

    return registry.is_registered(game) and "charges" in registry.info(game).capabilities


def charge_tables(con: duckdb.DuckDBPyConnection, scope: Scope,
                  coverage: pd.DataFrame) -> tuple[pd.DataFrame | None, list[str]]:
    """The charge table in force for each format of the scope; notes say what was skipped."""
    try:
        from pipeline.charges import charge_table
    except ImportError:
        return None, ["charges: skipped, pipeline.charges is not part of this build"]
    formats = [scope.format] if scope.format else sorted(coverage["format"].dropna().unique())
    frames, notes = [], []
    for fmt in formats:
        try:
            frames.append(charge_table(con, scope.game, fmt).assign(format=fmt))
        except ValueError as err:  # a format without charges, too few tournaments...
            notes.append(f"charges for {scope.game} {fmt}: skipped, {err}")
    if not frames:
        return None, notes
    notes.append("charges follow their format's epochs of tournaments (rules/charges.md), "
                 "not the day filter")
    frame = pd.concat(frames, ignore_index=True)
    return frame[["format", *[c for c in frame.columns if c != "format"]]], notes


def describe(scope: Scope, tables: Mapping[str, pd.DataFrame], source: Mapping[str, Any],
             made_at: datetime, notes: Sequence[str]) -> dict[str, Any]:
    """What a report must say about itself: filters, days covered, matches, rules, when."""
    cov = tables["coverage"]
    versions = sorted({f"{r}@{v}" for r, v in zip(cov["ruleset"], cov["ruleset_version"])})
    return {
        "title": f"{_game_title(scope.game)} usage report",
        "filters": scope.describe(),
        "matches": int(cov["matches"].sum()),
        "first_day": min(cov["first_day"]).isoformat() if len(cov) else None,
        "last_day": max(cov["last_day"]).isoformat() if len(cov) else None,
        "formats": sorted(str(f) for f in cov["format"].dropna().unique()),
        "ruleset_versions": versions,
        "made_at": made_at.astimezone(UTC).isoformat(timespec="seconds"),
        "made_by": f"postgame {_version()}",
        "source": dict(source),
        "definitions": DEFINITIONS,
        "tables": {name: len(frame) for name, frame in tables.items()},
        "notes": list(notes),
    }


def _game_title(game: str) -> str:
    """The game's own name ("Vitorian Wars"); the id of a game this build does not know."""
    from engine import registry

    return registry.info(game).title if registry.is_registered(game) else game


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("postgame")
    except PackageNotFoundError:
        return "(not installed)"


def about_rows(about: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The about block as (what, value) lines, for the Excel sheet and the HTML header."""
    said = about["filters"]
    rows = [("report", about["title"]), ("game", said["game"]), ("format", said["format"]),
            ("from", said["from"]), ("to", said["to"]), ("min sample", said["min_sample"]),
            ("matches", about["matches"]),
            ("data covers", f"{about['first_day']} to {about['last_day']} (UTC days)"),
            ("ruleset versions", ", ".join(about["ruleset_versions"])),
            ("made at", about["made_at"]), ("made by", about["made_by"])]
    rows += [(key, str(value)) for key, value in about["source"].items()]
    rows += [("note", note) for note in about["notes"]]
    return rows + [("definitions", about["definitions"])]


def write_about(report: Report, out: Path) -> Path:
    """The sidecar that travels with the CSV and Parquet files."""
    path = out / ABOUT_FILE
    path.write_text(json.dumps(report.about, indent=2, ensure_ascii=False) + "\n",
                    encoding="utf-8")
    return path


def write_csv(report: Report, out: Path) -> list[Path]:
    paths = []
    for name, frame in report.tables.items():
        path = out / f"{name}.csv"
        frame.to_csv(path, index=False)
        paths.append(path)
    return paths


def write_parquet(report: Report, out: Path) -> list[Path]:
    """One file per table; the about block also rides in each file's schema metadata."""
    about = json.dumps(report.about, ensure_ascii=False).encode()
    paths = []
    for name, frame in report.tables.items():
        table = pa.Table.from_pandas(frame, preserve_index=False)
        table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                               b"postgame.about": about})
        path = out / f"{name}.parquet"
        pq.write_table(table, path)
        paths.append(path)
    return paths


def write_xlsx(report: Report, out: Path) -> list[Path]:
    """One workbook: the "about" sheet first, then a sheet per table, rates as percentages."""
    path = out / WORKBOOK
    with pd.ExcelWriter(path, engine="openpyxl") as writer:
        about = pd.DataFrame(about_rows(report.about), columns=["what", "value"])
        about.to_excel(writer, sheet_name="about", index=False)
        _shape_sheet(writer.sheets["about"], about, widths={"value": 100})
        for name, frame in report.tables.items():
            frame.to_excel(writer, sheet_name=name[:31], index=False)
            _shape_sheet(writer.sheets[name[:31]], frame)
    return [path]


def _shape_sheet(sheet: Any, frame: pd.DataFrame, widths: Mapping[str, int] | None = None
                 ) -> None:
    """Header frozen and filterable, columns wide enough, rates shown as 61.2%."""
    from openpyxl.utils import get_column_letter

    sheet.freeze_panes = "A2"
    if len(frame.columns):
        sheet.auto_filter.ref = sheet.dimensions
    for i, column in enumerate(frame.columns, start=1):
        letter = get_column_letter(i)
        sheet.column_dimensions[letter].width = (widths or {}).get(column, max(10, len(column) + 2))
        if _is_rate(frame, column):
            for (cell_,) in sheet.iter_rows(min_row=2, min_col=i, max_col=i):
                cell_.number_format = "0.0%"


def _is_rate(frame: pd.DataFrame, column: str) -> bool:
    base = column.removesuffix("_low").removesuffix("_high")
    rate_words = ("rate", "share", "improvement")
    return pd.api.types.is_float_dtype(frame[column]) and any(w in base for w in rate_words)


WRITERS: dict[str, Callable[[Report, Path], list[Path]]] = {
    "csv": write_csv, "parquet": write_parquet, "xlsx": write_xlsx,
}


def write_report(report: Report, out: Path, formats: Iterable[str] = FORMATS) -> list[Path]:
    """Write the report in each form asked for under `out` (created); returns the files."""
    wanted = list(dict.fromkeys(formats))
    unknown = [f for f in wanted if f not in FORMATS]
    if unknown:
        raise ValueError(f"unknown report format(s) {', '.join(unknown)}; choose from "
                         f"{', '.join(FORMATS)}")
    out.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    for form in wanted:
        paths += write_html(report, out) if form == "html" else WRITERS[form](report, out)
    if {"csv", "parquet"} & set(wanted):
        paths.append(write_about(report, out))
    return paths


def export(con: duckdb.DuckDBPyConnection, scope: Scope, out: Path,
           formats: Iterable[str] = FORMATS, source: Mapping[str, Any] | None = None,
           made_at: datetime | None = None) -> tuple[Report, list[Path]]:
    """Build the report of `scope` and write it: what `postgame export` does."""
    report = build_report(con, scope, source, made_at)
    return report, write_report(report, out, formats)


# ---------------------------------------------------------------- the HTML page

STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:80rem;
color:#1d1d1f;padding:0 1rem}
h1{margin-bottom:.2rem}h2{margin-top:2.5rem;border-bottom:2px solid #ccc}
dl.about{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;font-size:14px}
dl.about dt{font-weight:600;color:#555}dl.about dd{margin:0}
.charts{display:flex;flex-wrap:wrap;gap:1.5rem}figure{margin:0}
figure img{max-width:100%;height:auto}figcaption{font-size:13px;color:#555}
table{border-collapse:collapse;font-size:13px;font-variant-numeric:tabular-nums}
th,td{padding:2px 8px;border-bottom:1px solid #e3e3e3;text-align:right;white-space:nowrap}
th{background:#f4f4f4;position:sticky;top:0}.t{text-align:left}
details{margin:.5rem 0;font-size:13px}pre{white-space:pre-wrap;background:#f8f8f8;padding:.5rem}
.notes{color:#8a4b00}.scroll{overflow-x:auto;max-height:40rem}
"""


def write_html(report: Report, out: Path) -> list[Path]:
    path = out / PAGE
    path.write_text(render_html(report), encoding="utf-8")
    return [path]


def render_html(report: Report) -> str:
    """One page that opens anywhere offline: header, charts, then every table."""
    title = html.escape(report.about["title"])
    parts = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{title}</title><style>{STYLE}</style></head><body><main>",
             f"<h1>{title}</h1>", _html_about(report.about), _html_charts(report)]
    parts += [_html_table(name, frame) for name, frame in report.tables.items()]
    parts.append(_html_glossary(report))
    return "\n".join(parts) + "\n</main></body></html>\n"


def _html_glossary(report: Report) -> str:
    """The conventions, then every column the report's tables hold that the glossary
    describes, under its display name."""
    present = {c for frame in report.tables.values() for c in frame.columns}
    said = "".join(f"<li><strong>{html.escape(topic.capitalize())}.</strong> {html.escape(text)}</li>"
                   for topic, text in glossary.conventions().items())
    rows = "".join(
        f"<tr><td class=\"t\">{html.escape(t.label)}</td><td class=\"t\"><code>"
        f"{html.escape(t.column)}</code></td><td class=\"t\">{html.escape(t.tooltip)}</td></tr>"
        for t in glossary.terms().values() if t.column in present)
    return ('<section id="glossary"><h2>Glossary</h2>'
            f"<ul>{said}</ul><div class=\"scroll\"><table><thead><tr><th class=\"t\">name"
            "</th><th class=\"t\">column</th><th class=\"t\">meaning</th></tr></thead>"
            f"<tbody>{rows}</tbody></table></div></section>")


def _html_about(about: Mapping[str, Any]) -> str:
    rows = [(k, v) for k, v in about_rows(about) if k not in ("note", "definitions")]
    items = "".join(f"<dt>{html.escape(k)}</dt><dd>{html.escape(str(v))}</dd>" for k, v in rows)
    notes = "".join(f"<li>{html.escape(n)}</li>" for n in about["notes"])
    return (f'<dl class="about">{items}</dl>'
            + (f'<ul class="notes">{notes}</ul>' if notes else "")
            + f"<p>{html.escape(about['definitions'])}</p>")


def _html_table(name: str, frame: pd.DataFrame) -> str:
    cols = SHOWN.get(name) or tuple(_generic_col(name, frame, c) for c in frame.columns)
    head = "".join(f'<th class="{_align(c)}" title="{html.escape(glossary.tooltip(c.name) or "")}"'
                   f">{html.escape(c.header)}</th>" for c in cols)
    body = "".join(
        "<tr>" + "".join(f'<td class="{_align(c)}">{html.escape(cell(row, c))}</td>'
                         for c in cols) + "</tr>"
        for row in frame.to_dict("records"))
    doc = metrics.model_doc(name) if name in metrics.model_names() else ""
    how = (f"<details><summary>How this is computed</summary><pre>{html.escape(doc)}</pre>"
           "</details>") if doc else ""
    return (f'<section id="{html.escape(name)}"><h2>{html.escape(TITLES.get(name, name))}</h2>'
            f"{how}<p>{len(frame)} rows; every column is in the CSV, Parquet and Excel forms.</p>"
            f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody>'
            "</table></div></section>")


def _generic_col(name: str, frame: pd.DataFrame, column: str) -> Col:
    """How to print a table that has no SHOWN entry (the matrix, the charges)."""
    kind = frame[column].dtype.kind
    header = column if name == "matchup_matrix" else glossary.label(column)
    if (name == "matchup_matrix" and column != "faction") or _is_rate(frame, column):
        return Col(column, header, "pct")
    return Col(column, header, "num" if kind == "f" else "int" if kind in "iu" else "text")


def _align(col: Col) -> str:
    return "t" if col.kind == "text" else "n"


# ---------------------------------------------------------------- charts (inline PNG)

def _html_charts(report: Report) -> str:
    t = {name: _named_factions(frame, report.scope.game) for name, frame in report.tables.items()}
    charts = [(caption, draw(t[table])) for caption, table, draw in CHARTS if table in t]
    figures = [f'<figure><img alt="{html.escape(caption)}" src="data:image/png;base64,{png}">'
               f"<figcaption>{html.escape(caption)}</figcaption></figure>"
               for caption, png in charts if png]
    return f'<section class="charts">{"".join(figures)}</section>' if figures else ""


def _named_factions(frame: pd.DataFrame, game: str) -> pd.DataFrame:
    """The frame with its faction columns in the game's names, for chart labels (the tables
    keep the ids the data holds)."""
    from pipeline.factions import faction_name, faction_names

    names = faction_names(game)
    columns = [c for c in ("faction", "opponent_faction") if c in frame.columns]
    if not names or not columns:
        return frame
    return frame.assign(**{c: [faction_name(names, v) if isinstance(v, str) else v
                               for v in frame[c]] for c in columns})


def _figure(width: float = 7.0, height: float = 4.5) -> tuple[Any, Any]:
    """A figure outside pyplot: no global state, no display needed."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    return fig, fig.add_subplot()


def _png(fig: Any) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, metadata={"Software": None})
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _percent_axis(axis: Any) -> None:
    from matplotlib.ticker import PercentFormatter

    axis.set_major_formatter(PercentFormatter(1.0))


def _chart_cards(usage: pd.DataFrame) -> str | None:
    data = usage[usage["played"].fillna(0) > 0].dropna(subset=["win_rate_when_played"])
    if data.empty:
        return None
    fig, ax = _figure()
    y = data["win_rate_when_played"].astype(float)
    spread = [y - data["win_rate_when_played_low"], data["win_rate_when_played_high"] - y]
    ax.errorbar(data["inclusion_rate"], y, yerr=spread, fmt="o", ms=4, alpha=0.7,
                elinewidth=0.7, capsize=2)
    baseline = data["baseline_win_rate"].iloc[0] if "baseline_win_rate" in data else 0.5
    ax.axhline(baseline, color="grey", lw=0.8, ls="--", label="baseline win rate")
    for _, row in _outliers(data, "win_rate_when_played", "played").iterrows():
        ax.annotate(str(row["card_name"] or row["card"]), (row["inclusion_rate"],
                    row["win_rate_when_played"]), xytext=(4, 0), textcoords="offset points",
                    fontsize=7, va="center")
    ax.set_xlabel("Inclusion: share of all decks holding the card")
    ax.set_ylabel("Played WR: win rate of decks that played it")
    ax.legend(loc="lower right", fontsize=7)
    _percent_axis(ax.xaxis)
    _percent_axis(ax.yaxis)
    return _png(fig)


def _outliers(data: pd.DataFrame, rate: str, n: str, each: int = 4) -> pd.DataFrame:
    """The cards a designer looks at first: the best and the worst by `rate`, among those seen
    at least as often as the median card."""
    seen = data[data[n] >= data[n].median()].sort_values(rate)
    return pd.concat([seen.head(each), seen.tail(each)]).drop_duplicates("card")


def _chart_matchups(long: pd.DataFrame) -> str | None:
    rates, counts = metrics.matchup_matrix(long), metrics.matchup_matrix(long, "n")
    if rates.empty:
        return None
    from matplotlib import colormaps

    size = 1.2 + 0.9 * len(rates)
    fig, ax = _figure(size + 1.5, size)
    shown = ax.imshow(rates.to_numpy(dtype=float), vmin=0, vmax=1,
                      cmap=colormaps["RdBu"].with_extremes(bad="#dddddd"))
    for i, faction in enumerate(rates.index):
        for j, opponent in enumerate(rates.columns):
            ax.text(j, i, _matrix_label(rates.loc[faction, opponent], counts.loc[faction, opponent],
                                        faction == opponent), ha="center", va="center", fontsize=8)
    ax.set_xticks(range(len(rates.columns)), [str(c) for c in rates.columns], rotation=30)
    ax.set_yticks(range(len(rates.index)), [str(r) for r in rates.index])
    ax.set_xlabel("opponent")
    fig.colorbar(shown, ax=ax, format="{x:.0%}", shrink=0.8)
    return _png(fig)


def _matrix_label(rate: Any, n: Any, mirror: bool) -> str:
    if plain(n) is None:
        return ""
    if mirror:
        return f"mirror\nn={int(n)}"
    return f"{100 * rate:.0f}%\nn={int(n)}"


def _chart_factions(factions: pd.DataFrame) -> str | None:
    data = factions.dropna(subset=["win_rate"]).sort_values("win_rate")
    if data.empty:
        return None
    fig, ax = _figure(7, 1.2 + 0.45 * len(data))
    x = data["win_rate"].astype(float)
    ax.errorbar(x, range(len(data)), xerr=[x - data["win_rate_low"], data["win_rate_high"] - x],
                fmt="o", capsize=3)
    ax.set_yticks(range(len(data)), [str(f) for f in data["faction"]])
    ax.axvline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("win rate (mirrors left out)")
    _percent_axis(ax.xaxis)
    return _png(fig)


def _chart_improvement(usage: pd.DataFrame, each: int = 10) -> str | None:
    data = usage.dropna(subset=["improvement_when_drawn"]).sort_values("improvement_when_drawn")
    if data.empty:
        return None
    if len(data) > 2 * each:
        data = pd.concat([data.head(each), data.tail(each)])
    fig, ax = _figure(7, 1.2 + 0.3 * len(data))
    x = data["improvement_when_drawn"].astype(float)
    ax.errorbar(x, range(len(data)), fmt="o", capsize=2, xerr=[
        x - data["improvement_when_drawn_low"], data["improvement_when_drawn_high"] - x])
    ax.set_yticks(range(len(data)), [str(n or c) for n, c in zip(data["card_name"], data["card"])],
                  fontsize=7)
    ax.axvline(0, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("IWD: GIH win rate minus GNS win rate (percentage points)")
    _percent_axis(ax.xaxis)
    return _png(fig)


CHARTS: tuple[tuple[str, str, Callable[[pd.DataFrame], str | None]], ...] = (
    ("Win rate when played against inclusion (Wilson 95% intervals)", "card_usage",
     _chart_cards),
    ("Matchups: row faction's win rate against the column faction", "matchups",
     _chart_matchups),
    ("Faction win rates outside mirrors (Wilson 95% intervals)", "faction_win_rates",
     _chart_factions),
    ("Improvement when drawn: the cards that gain and lose most (Newcombe 95%)", "card_usage",
     _chart_improvement),
)
"""(caption, the table it draws, how): a chart appears when the report holds its table."""
