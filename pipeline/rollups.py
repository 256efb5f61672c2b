"""Rollups: the sums the metric models read, made at ingest from each commit's facts, so that a
report over a million matches sums a table of match days instead of scanning every deck line.

A rollup is a model of pipeline/sql named `rollup_*` (rollup_card_usage, rollup_deck_games):
counts at the grain (format, match day, ...) whose every column is a sum of flags made within
one match. The rows of any set of matches therefore add up to the rows of their union, and a
commit's rollup rows, summed with those of every other commit, are the rollup of the lake. The
same SQL is the one definition either way:

- at ingest (`batch_rollups`), each commit runs the rollups its games' suites read over the
  commit's own facts and writes their rows beside the facts (pipeline.schema.ROLLUPS, partitioned
  by game and month like the facts), with `rollup_facts`: how many rows of each fact table they
  summarize;
- at query time (pipeline.metrics.compile_model), a model names a rollup as it names a staging
  model. Where the connection's rollup rows summarize exactly the facts it sees (`stored`: the
  fact rows counted in rollup_facts, by rollups of this build's definition, equal the fact
  tables' own counts), the reference reads the stored rows in scope; anywhere else (a lake written before rollups, a reader that narrows a
  fact view, a hand-made connection) the rollup's query is inlined over the facts, as dbt
  compiles an ephemeral model. Either way the numbers are the same; only the time differs.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from engine import registry
from pipeline.lake import Lake, view_sql
from pipeline.lake_layout import PartKey, new_batch_id, partition_of, with_partition
from pipeline.manifest import Manifest
from pipeline.schema import ROLLUPS, tables

PREFIX = "rollup_"
FACTS = "rollup_facts"
"""The rollup that counts, per commit, game, month and fact table, the fact rows summarized."""
SCOPE_FILTER = ("game = $game AND ($format IS NULL OR format = $format)"
                " AND ($date_from IS NULL OR match_date >= $date_from)"
                " AND ($date_to IS NULL OR match_date <= $date_to)")
"""A stored rollup's rows in a report's scope: stg_scope's filter, on the rollup's own keys."""


def rollup_names() -> tuple[str, ...]:
    """The rollup models (the tables of pipeline.schema.ROLLUPS but rollup_facts)."""
    return tuple(name for name in ROLLUPS if name != FACTS)


def read_by(game: str) -> tuple[str, ...]:
    """The rollups a game's commits write: those of the model folders its lake answers (core;
    cards for a game with decks; its own), which its reports and their inputs read."""
    from pipeline import metrics

    if not registry.is_registered(game):
        return ()
    folders = {"core", game} | ({"cards"} if "decks" in registry.info(game).capabilities
                                else set())
    paths = metrics.model_paths()
    return tuple(name for name in rollup_names() if paths[name].parent.name in folders)


def written_by(game: str) -> tuple[str, ...]:
    """The rollup tables the game's commits write: its rollups, and rollup_facts with them."""
    names = read_by(game)
    return (*names, FACTS) if names else ()


def definition(names: Iterable[str]) -> str:
    """A hash of these rollups' queries: rows made by another definition are not read."""
    from pipeline import metrics

    text = "\n".join(metrics.compile_model(name) for name in sorted(names))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def sources(name: str) -> tuple[str, ...]:
    """The fact tables a rollup's query reads (its staging inlined)."""
    from pipeline import metrics

    sql = metrics.compile_model(name)
    return tuple(t for t in tables() if t not in ROLLUPS and re.search(
        rf"\b(?:FROM|JOIN)\s+{t}\b", sql, re.IGNORECASE))


# At ingest -------------------------------------------------------------------------------------

def batch_rollups(batch: str, parts: Mapping[PartKey, pa.Table]) -> dict[PartKey, pa.Table]:
    """The rollup rows of one commit's facts (parts: the commit's (table, game, month) -> rows),
    keyed as the commit's parts are, with the rollup_facts rows that count what they sum."""
    games = sorted({game for (table, game, _) in parts if table == "matches" and game})
    wanted = {game: names for game in games if (names := read_by(game))}
    if not wanted:
        return {}
    counts: dict[PartKey, int] = {key: rows.num_rows for key, rows in parts.items()
                                  if key[1] in wanted and key[2] is not None}
    con = _facts_connection(parts)
    try:
        return _rollups(con, batch, wanted, counts)
    finally:
        con.close()


def _rollups(con: duckdb.DuckDBPyConnection, batch: str, wanted: Mapping[str, tuple[str, ...]],
             counts: Mapping[PartKey, int]) -> dict[PartKey, pa.Table]:
    """Each game's rollups over the facts of the connection, split by month, and rollup_facts'
    rows: per month, the `counts` of each fact table the rollups read."""
    out: dict[PartKey, list[pa.Table]] = {}
    for game, names in wanted.items():
        for name in names:
            rows = _run(con, name, game)
            rows = rows.add_column(0, "batch", pa.array([batch] * rows.num_rows, pa.string()))
            for month, part in _by_month(rows):
                out.setdefault((name, game, month), []).append(part)
        read = {table for name in names for table in sources(name)}
        made = definition(names)
        for (table, part_game, part_month), n in counts.items():
            if part_game == game and table in read and part_month is not None:
                out.setdefault((FACTS, game, part_month), []).append(pa.table(
                    {"game": [game], "month": [part_month], "batch": [batch],
                     "definition": [made], "fact_table": [table], "fact_rows": [n]},
                    schema=ROLLUPS[FACTS]))
    return {key: pa.concat_tables(rows) for key, rows in out.items()}


def rebuild(lake: Lake) -> dict[str, int]:
    """Write every rollup of the lake again from its facts, in one commit that replaces the
    rollup files it had (a lake written before rollups, or by a build that defined them
    otherwise). The facts are read a month at a time; the rollup rows are held until the
    commit (a million-match Vitorian lake: 6.5M rows, 1.3 GB peak, about two minutes). Returns
    the rows written per rollup table."""
    with lake.writer() as writer:
        manifest = writer.manifest
        batch = new_batch_id()
        parts: dict[PartKey, list[pa.Table]] = {}
        for game, month in sorted({partition_of(e["path"])[1:]
                                   for e in manifest["tables"]["matches"]}):
            names = read_by(game) if game else ()
            if game and month and names:
                for key, rows in _month_rollups(lake, manifest, batch, game, month,
                                                names).items():
                    parts.setdefault(key, []).append(rows)
        merged = {key: pa.concat_tables(rows) for key, rows in parts.items()}
        writer.commit(batch, merged, [e["path"] for table in ROLLUPS
                                      for e in manifest["tables"][table]])
    written: dict[str, int] = {}
    for (table, _, _), rows in merged.items():
        written[table] = written.get(table, 0) + rows.num_rows
    return written


def _month_rollups(lake: Lake, manifest: Manifest, batch: str, game: str, month: str,
                   names: tuple[str, ...]) -> dict[PartKey, pa.Table]:
    """The game's rollups of one month's facts, read from the files the manifest lists."""
    entries = {table: [e for e in manifest["tables"][table]
                       if partition_of(e["path"])[1:] == (game, month)]
               for table in tables() if table not in ROLLUPS}
    counts: dict[PartKey, int] = {(table, game, month): sum(e["rows"] for e in listed)
                                  for table, listed in entries.items()}
    con = duckdb.connect(":memory:")
    try:
        con.execute("SET TimeZone = 'UTC'")
        for table, listed in entries.items():
            paths = [lake.root / e["path"] for e in listed]
            con.execute(f"CREATE VIEW {table} AS {view_sql(table, paths)}")
        return _rollups(con, batch, {game: names}, counts)
    finally:
        con.close()


def _facts_connection(parts: Mapping[PartKey, pa.Table]) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB with one table per fact table: the commit's rows (or none), their
    partition keys put back as columns. One thread: ingest's workers have the other cores."""
    con = duckdb.connect(":memory:", config={"threads": 1})
    con.execute("SET TimeZone = 'UTC'")
    for table, schema in tables().items():
        if table in ROLLUPS:
            continue
        rows = [with_partition(t, key) for key, t in parts.items() if key[0] == table]
        con.register(table, pa.concat_tables(rows) if rows else schema.empty_table())
    return con


def _run(con: duckdb.DuckDBPyConnection, name: str, game: str) -> pa.Table:
    """The rollup over every fact the connection holds of the game (no scope filter)."""
    from pipeline import metrics

    values = {param: None for param in metrics.load_model(name).params} | {"game": game}
    return con.sql(metrics.compile_model(name), params=values).to_arrow_table()


def _by_month(rows: pa.Table) -> Iterable[tuple[str, pa.Table]]:
    """The rollup's rows split by the month of their match day (the lake's partition)."""
    months = pc.strftime(rows["match_date"], format="%Y-%m")
    for month in pc.unique(months).to_pylist():
        yield month, rows.filter(pc.equal(months, month))


# At query time ---------------------------------------------------------------------------------

def stored(con: object, game: str, names: Iterable[str]) -> frozenset[str]:
    """Which of these rollups the connection holds for the game, summarizing exactly the fact
    rows its fact tables hold, made by this build's definition of the game's rollups (any
    engine's connection: DuckDB's or pipeline.spark's)."""
    names = list(names)
    if not names:
        return frozenset()
    read = sorted({table for name in names for table in sources(name)})
    checks = " UNION ALL ".join(
        f"SELECT '{t}' AS fact_table, COUNT(*) AS fact_rows FROM {t} WHERE game = $game"
        for t in read)
    sql = (f"WITH seen AS ({checks}), summed AS (SELECT fact_table, SUM(fact_rows) AS fact_rows"
           f" FROM {FACTS} WHERE game = $game AND definition = $definition GROUP BY fact_table)"
           " SELECT COUNT(*) FROM seen LEFT JOIN summed ON summed.fact_table = seen.fact_table"
           " WHERE summed.fact_rows IS NULL OR summed.fact_rows <> seen.fact_rows")
    values = {"game": game, "definition": definition(read_by(game))}
    try:
        rows = con.execute(sql, values).fetchall()  # type: ignore[attr-defined]
    except duckdb.CatalogException:  # a connection without the lake's tables: no rollups
        return frozenset()
    return frozenset(names) if rows == [(0,)] else frozenset()
