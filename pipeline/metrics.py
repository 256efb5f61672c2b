"""The metric models of pipeline/sql, run on any DuckDB connection with the fact tables.

A model is one SQL file: named CTEs, one SELECT, and a header comment with its grain, its
parameters and the declarations that keep each statistic defined once:

- `-- rate: NAME = K / N` adds NAME = K/N with its Wilson 95% interval (NAME_low, NAME_high);
- `-- difference: NAME = A - B` adds A - B with Newcombe's hybrid score interval, which is built
  from the two Wilson intervals (Newcombe 1998, method 10);
- `-- order: ...` orders the rows;
- `-- python: module:function` hands the query's rows to a Python function, whose frame is the
  model's result: for what SQL cannot say (pipeline.dice_audit's exact dice laws). The query
  stays a model like any other (its parameters, its header, its place in a suite);
- `-- input: NAME = module:function` computes a table the query reads before it runs, from the
  connection and the parameters (pipeline.archetypes clusters the deck lists of another
  model): registered as NAME for the model's run only.

Models live in folders by what they need of the lake: sql/core (every game: matches and
seats), sql/cards (the card games' capability tables: decks, deck_cards, card_events) and
sql/<game> (a game's own tables). A name is unique across folders, so a model names another by
its name alone. Each game names the models of its reports as data (GameInfo.suite, in
data/<game>/game.toml): `suite(game)`.

Models read the staging models (`stg_*.sql`: no aggregate), which are inlined as subqueries
where a model (or another staging model) names them, as dbt compiles an ephemeral ref: the
compiled text is one standalone query that also runs on Spark (sqlglot turns `$game` into
`:game`). stg_matches, stg_seats, stg_decks, stg_deck_cards and stg_card_events rename and
cast the fact tables; stg_scope holds the scope filter, stg_seat_games the seat-games in scope
with their results, stg_deck_games those seat-games with their decks and stg_seat_mirrors
their mirror flags (windows, apart so that only the models that use them pay for them), so no
model repeats them. The rollups (`rollup_*.sql`, pipeline.rollups) are referenced the same way,
read from the lake where it holds them. Filters travel as named prepared parameters ($game, $format, $date_from,
$date_to, $min_sample; card_usage's $faction), never as text: a model's parameters are those of its compiled text,
staging included.
"""
from __future__ import annotations

import importlib
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import cache
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pyarrow as pa

from engine import registry
from pipeline import rollups

SQL_DIR = Path(__file__).with_name("sql")
MODEL_FOLDERS = ("core", "cards")
"""The shared model folders; a game's own models are in sql/<game>/ (the other folders of
sql/, audits and charges, hold other modules' queries)."""
STAGING_PREFIX = "stg_"
Z95 = 1.959963984540054  # two-sided 95% quantile of the standard normal
PARAMETERS = ("game", "format", "date_from", "date_to", "min_sample", "faction")
CORE_SUITE = ("coverage", "first_player")
"""The suite of a game that names none: the models every game has."""


class ModelError(ValueError):
    """The models cannot be found as laid out: a name in two folders, an unknown suite model."""


@dataclass(frozen=True)
class Rate:
    """A proportion K/N of two count columns of a model."""

    name: str
    k: str
    n: str


@dataclass(frozen=True)
class Difference:
    """The difference of two rates of the same model, e.g. win rate when drawn minus not."""

    name: str
    a: str
    b: str


@dataclass(frozen=True)
class Model:
    name: str
    sql: str
    params: tuple[str, ...]
    rates: tuple[Rate, ...] = ()
    differences: tuple[Difference, ...] = ()
    order: str | None = None
    python: str | None = None
    """"module:function" of a Python step: (rows, parameters) -> the model's frame."""
    inputs: tuple[tuple[str, str], ...] = ()
    """(name, "module:function") of each table the query reads that Python computes first:
    (connection, parameters) -> a pyarrow table, registered under the name for the run."""


@dataclass(frozen=True)
class Scope:
    """Which matches a report covers: one game, optionally one format and a day range (UTC,
    both ends inclusive, None = unbounded)."""

    game: str
    format: str | None = None
    date_from: date | None = None
    date_to: date | None = None
    min_sample: int = 0

    def params(self) -> dict[str, Any]:
        return {"game": self.game, "format": self.format, "date_from": self.date_from,
                "date_to": self.date_to, "min_sample": self.min_sample}

    def describe(self) -> dict[str, str]:
        """The filters in words, for report headers: nothing left implicit."""
        return {"game": self.game, "format": self.format or "all formats",
                "from": self.date_from.isoformat() if self.date_from else "the first match",
                "to": self.date_to.isoformat() if self.date_to else "the last match",
                "min_sample": str(self.min_sample)}


def model_folders() -> list[Path]:
    """sql/core, sql/cards, then sql/<game> of each registered game that has one, then the
    folder each game registers as its "sql" layer (a game outside pipeline/, its own models)."""
    games = [SQL_DIR / game for game in registry.known_games() if (SQL_DIR / game).is_dir()]
    own = [Path(registry.layer(game, "sql")) for game in registry.games_with("sql")]
    return [SQL_DIR / name for name in MODEL_FOLDERS] + games + [
        folder for folder in own if folder.is_dir() and folder not in games]


def model_paths() -> dict[str, Path]:
    """Every model (staging included) by name; a name found in two folders is refused."""
    found: dict[str, Path] = {}
    for folder in model_folders():
        for path in sorted(folder.glob("*.sql")):
            if path.stem in found:
                raise ModelError(f"model {path.stem!r} is both {found[path.stem]} and {path}: "
                                 "a model's name is unique across pipeline/sql's folders")
            found[path.stem] = path
    return found


def model_names() -> list[str]:
    """The metric models of every folder (staging models and rollups are building blocks, not
    results)."""
    return [name for name in model_paths()
            if not name.startswith((STAGING_PREFIX, rollups.PREFIX))]


def staging_names() -> list[str]:
    return sorted(name for name in model_paths() if name.startswith(STAGING_PREFIX))


def suite(game: str) -> tuple[str, ...]:
    """The models a report of the game runs, in its order (GameInfo.suite; CORE_SUITE for a game
    that names none, or that this build does not know)."""
    named = registry.info(game).suite if registry.is_registered(game) else ()
    known = set(model_names())
    unknown = [name for name in named if name not in known]
    if unknown:
        raise ModelError(f"game {game!r} names the unknown model(s) {', '.join(unknown)} in its "
                         f"suite (data/{game}/game.toml); models: {', '.join(sorted(known))}")
    return named or CORE_SUITE


def model_doc(name: str) -> str:
    """The model's header comment as prose: what a report prints under the table's title."""
    text = model_paths()[load_model(name).name].read_text(encoding="utf-8")
    lines = []
    for line in text.splitlines():
        if not line.startswith("--"):
            break
        lines.append(line[2:].strip())
    return "\n".join(lines)


def _strip_comments(sql: str) -> str:
    return re.sub(r"--[^\n]*", "", sql)


@cache
def load_model(name: str) -> Model:
    """Read a model file and its header declarations; an unknown name is a KeyError."""
    paths = model_paths()
    if name not in paths:
        raise KeyError(f"unknown metric model {name!r}; known: {', '.join(model_names())}")
    text = paths[name].read_text(encoding="utf-8")
    body = _strip_comments(text)
    params = tuple(dict.fromkeys(re.findall(r"\$([a-z_]+)", _inline_staging(body))))
    rates = tuple(Rate(*m) for m in re.findall(r"^-- rate: (\w+) = (\w+) / (\w+)\s*$", text, re.MULTILINE))
    diffs = tuple(Difference(*m) for m in
                  re.findall(r"^-- difference: (\w+) = (\w+) - (\w+)\s*$", text, re.MULTILINE))
    order = re.search(r"^-- order: (.+?)\s*$", text, re.MULTILINE)
    python = re.search(r"^-- python: ([\w.]+:\w+)\s*$", text, re.MULTILINE)
    inputs = tuple(re.findall(r"^-- input: (\w+) = ([\w.]+:\w+)\s*$", text, re.MULTILINE))
    return Model(name, body.strip(), params, rates, diffs, order.group(1) if order else None,
                 python.group(1) if python else None, inputs)


def _double(value: float) -> str:
    return f"CAST({value!r} AS DOUBLE)"


def wilson_sql(k: str, n: str) -> tuple[str, str, str]:
    """SQL for k/n and its Wilson 95% score interval, NULL when n is 0 or NULL.

    Written as (k + z²/2 ± z·sqrt(k(n-k)/n + z²/4)) / (n + z²): the textbook p-form multiplied
    through by n, so it needs no p column and stays one portable expression."""
    kd, nd = f"CAST({k} AS DOUBLE)", f"CAST({n} AS DOUBLE)"
    z2 = Z95 * Z95
    centre = f"{kd} + {_double(z2 / 2)}"
    spread = f"{_double(Z95)} * SQRT({kd} * ({nd} - {kd}) / {nd} + {_double(z2 / 4)})"
    denominator = f"{nd} + {_double(z2)}"

    def guarded(expr: str) -> str:
        return f"CASE WHEN {n} > 0 THEN {expr} END"

    return (guarded(f"{kd} / {nd}"), guarded(f"({centre} - {spread}) / ({denominator})"),
            guarded(f"({centre} + {spread}) / ({denominator})"))


def newcombe_sql(a: str, b: str) -> tuple[str, str, str]:
    """SQL for a - b of two rates with Newcombe's interval from their Wilson bounds (columns
    a, a_low, a_high, b, b_low, b_high); NULL when either rate is."""
    diff = f"{a} - {b}"
    low = f"{diff} - SQRT(({a} - {a}_low) * ({a} - {a}_low) + ({b}_high - {b}) * ({b}_high - {b}))"
    high = f"{diff} + SQRT(({a}_high - {a}) * ({a}_high - {a}) + ({b} - {b}_low) * ({b} - {b}_low))"
    return diff, low, high


def _inline_staging(sql: str, stored: frozenset[str] = frozenset()) -> str:
    """Each reference to a staging model becomes its query as a subquery, as dbt compiles an
    ephemeral ref; a staging model's own references are inlined in turn. A subquery, not a
    shared CTE: an engine then reads only the columns each reference needs, where DuckDB would
    materialize a CTE named twice (a second of 3 on card_usage over 100,000 matches).

    A rollup (pipeline.rollups) is inlined the same way, unless it is `stored`: then the
    reference reads the stored rows in the scope (rollups.SCOPE_FILTER)."""
    def subquery(found: re.Match[str]) -> str:
        name, alias = found.group(1), found.group(2) or f" AS {found.group(1)}"
        if name in stored:
            return f"(\nSELECT * FROM {name} WHERE {rollups.SCOPE_FILTER}\n){alias}"
        return f"(\n{_inline_staging(load_model(name).sql, stored)}\n){alias}"

    return re.sub(rf"{_REFERENCE}(\s+AS\s+\w+)?", subquery, sql, flags=re.IGNORECASE)


_REFERENCE = rf"\b((?:{STAGING_PREFIX}|{rollups.PREFIX})\w+)\b"
"""A reference to a staging model or a rollup in a model's query."""


def rollups_read(sql: str) -> list[str]:
    """The rollups a model's query reads, by name or through the staging models it names, in
    order (whatever alias a reference takes)."""
    found: list[str] = []
    for name in re.findall(_REFERENCE, sql, flags=re.IGNORECASE):
        if not name.lower().startswith(rollups.PREFIX):
            found += rollups_read(load_model(name).sql)
        elif name != rollups.FACTS:
            found.append(name)
    return list(dict.fromkeys(found))


def _columns(name: str, exprs: tuple[str, str, str]) -> str:
    names = (name, f"{name}_low", f"{name}_high")
    return ",\n    ".join(f"{e} AS {c}" for e, c in zip(exprs, names))


def compile_model(name: str, stored: frozenset[str] = frozenset(), ordered: bool = True) -> str:
    """The standalone query of a model: staging inlined (and the rollups not `stored`), rates
    and intervals added, ordered (unless not `ordered`: rows a reader takes as a set)."""
    model = load_model(name)
    sql = _inline_staging(model.sql, stored)
    if model.rates:
        rates = ",\n    ".join(_columns(r.name, wilson_sql(r.k, r.n)) for r in model.rates)
        sql = f"SELECT model.*,\n    {rates}\nFROM (\n{sql}\n) AS model"
    if model.differences:
        diffs = ",\n    ".join(_columns(d.name, newcombe_sql(d.a, d.b))
                               for d in model.differences)
        sql = f"SELECT rated.*,\n    {diffs}\nFROM (\n{sql}\n) AS rated"
    return f"{sql}\nORDER BY {model.order}" if model.order and ordered else sql


def _as_date(name: str, value: Any) -> date | None:
    if value is None or (isinstance(value, date) and not isinstance(value, datetime)):
        return value
    if isinstance(value, datetime):
        return value.date()
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise ValueError(f"{name} must be a day, YYYY-MM-DD, not {value!r}") from None


def bind(model: Model, params: Mapping[str, Any]) -> dict[str, Any]:
    """The model's parameters as typed values; unused known ones are dropped, unknown refused."""
    unknown = sorted(set(params) - set(PARAMETERS))
    if unknown:
        raise TypeError(f"unknown metric parameter(s): {', '.join(unknown)}")
    if not params.get("game"):
        raise ValueError(f"model {model.name} needs a game")
    values = {name: params.get(name) for name in model.params}
    for name in ("date_from", "date_to"):
        if name in values:
            values[name] = _as_date(name, values[name])
    sample = values.get("min_sample")
    if sample is not None:
        values["min_sample"] = max(0, int(sample))
    return values


def _utc(con: duckdb.DuckDBPyConnection) -> None:
    """Match days are UTC days, whatever the machine's time zone (see stg_matches.sql)."""
    try:
        con.execute("SET TimeZone = 'UTC'")
    except duckdb.Error:  # no ICU extension: timestamps with time zone are UTC already
        pass


@dataclass
class SuiteRun:
    """What the models of one suite run (one connection, one scope) share: the `-- input:`
    tables computed (by the function that makes them) and which rollups the connection holds."""

    inputs: dict[str, Any] = field(default_factory=dict)
    stored: frozenset[str] | None = None


def run_model(con: duckdb.DuckDBPyConnection, name: str, *, run: SuiteRun | None = None,
              **params: Any) -> pd.DataFrame:
    """Run one model with its parameters bound; counts come back as integers, rates as floats
    beside their counts. The rollups it reads come from the lake where the connection holds
    them whole (pipeline.rollups.stored), else from the facts. `run` shares what the models of
    a suite have in common."""
    model = load_model(name)
    values = bind(model, params)
    _utc(con)
    run = run or SuiteRun()
    if run.stored is None:
        run.stored = rollups.stored(con, values["game"], rollups.read_by(values["game"]))
    stored = run.stored & set(rollups_read(model.sql))
    with _inputs(con, model, params, run.inputs):
        cursor = con.execute(compile_model(name, stored), values)
        types = {d[0]: str(d[1]) for d in cursor.description or ()}
        frame = cursor.df()
    for column, kind in types.items():
        if kind == "HUGEINT":  # SUM of integers: pandas would see floats
            frame[column] = frame[column].astype("Int64")
        elif kind == "DATE":  # days, not midnights: a report shows 2026-02-01
            frame[column] = [None if pd.isna(v) else v.date() for v in frame[column]]
    return finish_model(model, frame, params)


def model_rows(con: duckdb.DuckDBPyConnection, name: str, **params: Any) -> pa.Table:
    """A model's rows as Arrow, in no particular order, for Python that reads many of them as a
    set (archetype_lists: some 5 million rows over a million matches, which a frame would make
    slow and its ORDER BY a second slower); a model with rates or a Python step runs through
    run_model instead."""
    model = load_model(name)
    if model.rates or model.differences or model.python:
        raise ModelError(f"model {name} has rates or a Python step: run_model runs it")
    values = bind(model, params)
    _utc(con)
    stored = rollups.stored(con, values["game"], rollups_read(model.sql))
    with _inputs(con, model, params, {}):
        return con.sql(compile_model(name, stored, ordered=False),
                       params=values).to_arrow_table()


def finish_model(model: Model, frame: pd.DataFrame, params: Mapping[str, Any]) -> pd.DataFrame:
    """The compiled query's rows as the model's result, whichever engine ran the query: columns
    arranged, then the model's Python step if it declares one."""
    frame = frame[_arranged(list(frame.columns), model)]
    return _python_step(model.python)(frame, params) if model.python else frame


@contextmanager
def _inputs(con: duckdb.DuckDBPyConnection, model: Model, params: Mapping[str, Any],
            computed: dict[str, Any]) -> Iterator[None]:
    """The model's `-- input:` tables computed (or taken from `computed`, by the function
    that makes them) and registered for its run only."""
    names = []
    try:
        for name, ref in model.inputs:
            if ref not in computed:
                computed[ref] = _python_step(ref)(con, params)
            con.register(name, computed[ref])
            names.append(name)
        yield
    finally:
        for name in names:
            con.unregister(name)


def _python_step(ref: str) -> Any:
    """The function a `-- python:` declaration names, imported on first use."""
    module, function = ref.split(":")
    return getattr(importlib.import_module(module), function)


def _arranged(columns: list[str], model: Model) -> list[str]:
    """Each rate's trio right after the later of its counts; each difference after its rates."""
    groups = [((r.k, r.n), r.name) for r in model.rates]
    groups += [((f"{d.a}_high", f"{d.b}_high"), d.name) for d in model.differences]
    for anchors, name in groups:
        trio = [name, f"{name}_low", f"{name}_high"]
        rest = [c for c in columns if c not in trio]
        at = max(rest.index(a) for a in anchors) + 1
        columns = rest[:at] + trio + rest[at:]
    return columns


def card_usage(con: duckdb.DuckDBPyConnection, game: str, format: str | None = None,
               date_from: date | str | None = None, date_to: date | str | None = None,
               min_sample: int = 0, faction: str | None = None) -> pd.DataFrame:
    """Per card: inclusion, copies, deck win rate, played rate and the win rates when played,
    drawn and not drawn, each beside its sample size and Wilson interval (card_usage.sql);
    with a faction, among that faction's decks."""
    return run_model(con, "card_usage", game=game, format=format, date_from=date_from,
                     date_to=date_to, min_sample=min_sample, faction=faction)


def matchups(con: duckdb.DuckDBPyConnection, game: str, format: str | None = None,
             date_from: date | str | None = None, date_to: date | str | None = None,
             min_sample: int = 0) -> pd.DataFrame:
    """Faction against faction, long form: one row per ordered pair (matchups.sql)."""
    return run_model(con, "matchups", game=game, format=format, date_from=date_from,
                     date_to=date_to, min_sample=min_sample)


def first_player(con: duckdb.DuckDBPyConnection, game: str, format: str | None = None,
                 date_from: date | str | None = None,
                 date_to: date | str | None = None) -> pd.DataFrame:
    """The first seat's win rate per format: the size of the tempo advantage (first_player.sql)."""
    return run_model(con, "first_player", game=game, format=format, date_from=date_from,
                     date_to=date_to)


def matchup_matrix(long: pd.DataFrame, value: str = "win_rate") -> pd.DataFrame:
    """The long matchups as a faction x opponent grid of `value` (rows play against columns);
    a pair never met is NaN, and so is the mirror's win rate (it carries no information)."""
    if long.empty:
        return pd.DataFrame()
    grid = long.pivot(index="faction", columns="opponent_faction", values=value)
    factions = sorted(set(grid.index) | set(grid.columns), key=str)
    grid = grid.reindex(index=factions, columns=factions)
    grid.index.name, grid.columns.name = "faction", "opponent"
    return grid


def run_all(con: duckdb.DuckDBPyConnection, game: str, format: str | None = None,
            date_from: date | str | None = None, date_to: date | str | None = None,
            min_sample: int = 0) -> dict[str, pd.DataFrame]:
    """The game's metrics suite for one scope, in its order: what reports and the app show. An
    input two models read (archetype_of) is computed once."""
    params = {"game": game, "format": format, "date_from": date_from, "date_to": date_to,
              "min_sample": min_sample}
    run = SuiteRun()
    return {name: run_model(con, name, run=run, **params) for name in suite(game)}
