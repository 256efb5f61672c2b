"""Audits: queries over the lake that must return no rows (dbt / SQLMesh style).

One query per file in pipeline/sql/audits/, headed by a comment stating what must hold, plus
one made here per table a game declares for itself (its rows belong to matches of that game).
Each returns the offending rows, so a failure shows exactly what is wrong; ingest runs them all
after every run. The SQL keeps to a portable subset (no FILTER, no QUALIFY) so it also runs on
Spark.

What a match may be depends on its game (how many seats, which sides and roles, whether it has
decks), so the audits join the games' metadata (engine.registry.GameInfo) as four small tables
registered on the connection before they run (game_metadata): game_info (game, min_seats,
max_seats, one_seat_sides), game_sides (game, side), game_roles (game, side, role) and
game_capabilities (game, capability).
"""
from __future__ import annotations

import contextlib
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from engine import registry
from pipeline.lake import Lake
from pipeline.schema import declared_tables

AUDIT_DIR = Path(__file__).resolve().parent / "sql" / "audits"
SHOWN_ROWS = 20


class AuditError(ValueError):
    """An audit file that cannot run (no statement of what must hold, or bad SQL)."""


@dataclass(frozen=True)
class Audit:
    name: str
    must_hold: str
    sql: str
    path: Path


@dataclass(frozen=True)
class AuditResult:
    """An audit's verdict: how many offending rows, and the first few of them."""

    name: str
    must_hold: str
    count: int
    columns: list[str]
    rows: list[tuple[Any, ...]]

    @property
    def ok(self) -> bool:
        return self.count == 0

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "must_hold": self.must_hold,
                "offending": self.count, "columns": self.columns,
                "rows": [[_plain(v) for v in row] for row in self.rows]}


def load_audits(folder: Path = AUDIT_DIR) -> list[Audit]:
    """Every audit of the folder, by file name."""
    return [parse_audit(path) for path in sorted(folder.glob("*.sql"))]


def all_audits() -> list[Audit]:
    """The audit files, then one audit per table a registered game declares for itself."""
    own = [own_table_audit(game, table) for game in registry.games_with("facts")
           for table in declared_tables(game)]
    return load_audits() + own


def own_table_audit(game: str, table: str) -> Audit:
    """A game's own table holds rows of that game's matches only, each in its match's
    partition: facts_reference_matches for a table no audit file can name."""
    name = game.replace("'", "''")
    sql = (f"SELECT f.match_id, f.game, f.month, count(*) AS fact_rows FROM {table} AS f "
           "LEFT JOIN matches AS m ON m.match_id = f.match_id "
           f"WHERE m.match_id IS NULL OR m.game <> f.game OR m.month <> f.month "
           f"OR f.game <> '{name}' GROUP BY f.match_id, f.game, f.month")
    return Audit(f"{table}_reference_matches",
                 f"every row of {table} belongs to a {game} match in matches, in that match's "
                 "partition (game, month).", sql, Path(__file__))


def game_metadata() -> dict[str, pa.Table]:
    """The registered games' metadata as the tables the audits join (module docstring)."""
    infos = [registry.info(game) for game in registry.known_games()]
    sides = [(i.name, side) for i in infos for side in i.sides]
    return {
        "game_info": pa.table({
            "game": [i.name for i in infos],
            "min_seats": pa.array([i.min_seats for i in infos], pa.int32()),
            "max_seats": pa.array([i.max_seats for i in infos], pa.int32()),
            "one_seat_sides": pa.array([all(s.seats == 1 for s in i.sides) for i in infos],
                                       pa.bool_())}),
        "game_sides": pa.table({"game": pa.array([g for g, _ in sides], pa.string()),
                                "side": pa.array([s.name for _, s in sides], pa.string())}),
        "game_roles": _roles(sides),
        "game_capabilities": pa.table({
            "game": pa.array([i.name for i in infos for _ in i.capabilities], pa.string()),
            "capability": pa.array([c for i in infos for c in i.capabilities], pa.string())}),
    }


def _roles(sides: list[tuple[str, registry.Side]]) -> pa.Table:
    roles = [(game, side.name, role) for game, side in sides for role in side.roles]
    return pa.table({name: pa.array([r[i] for r in roles], pa.string())
                     for i, name in enumerate(("game", "side", "role"))})


def register_metadata(con: duckdb.DuckDBPyConnection) -> None:
    """Put the games' metadata tables on the connection, for the audits to join."""
    for name, table in game_metadata().items():
        con.register(name, table)


def parse_audit(path: Path) -> Audit:
    """The leading comment up to a "grain:" line says what must hold; the rest is the query."""
    text = path.read_text(encoding="utf-8")
    comments = []
    for line in text.splitlines():
        if not line.startswith("--"):
            break
        comments.append(line.removeprefix("--").strip())
    statement = " ".join(c for c in _until_grain(comments)).removeprefix("must hold:").strip()
    if not statement:
        raise AuditError(f"{path}: line 1: an audit starts with '-- must hold: ...'")
    return Audit(path.stem, statement, text.strip().rstrip(";"), path)


def _until_grain(comments: list[str]) -> list[str]:
    lines = []
    for comment in comments:
        if comment.startswith("grain:"):
            break
        lines.append(comment)
    return lines


def run_audits(source: Lake | duckdb.DuckDBPyConnection, limit: int = SHOWN_ROWS,
               audits: list[Audit] | None = None) -> list[AuditResult]:
    """Run every audit on a lake (or on a connection with the lake's views), the games'
    metadata registered on the connection first."""
    audits = all_audits() if audits is None else audits
    if isinstance(source, Lake):
        with contextlib.closing(source.connect()) as con:
            return _run(con, audits, limit)
    return _run(source, audits, limit)


def _run(con: duckdb.DuckDBPyConnection, audits: list[Audit], limit: int
         ) -> list[AuditResult]:
    register_metadata(con)
    return [run_audit(con, audit, limit) for audit in audits]


def run_audit(con: duckdb.DuckDBPyConnection, audit: Audit, limit: int = SHOWN_ROWS
              ) -> AuditResult:
    try:
        cursor = con.execute(audit.sql)
        columns = [d[0] for d in cursor.description or []]
        rows = cursor.fetchmany(limit)
        count = len(rows)
        if count == limit:
            found = con.execute(f"SELECT count(*) FROM ({audit.sql}) AS offending").fetchone()
            count = found[0] if found else count
    except duckdb.Error as err:
        raise AuditError(f"{audit.path}: {err}") from err
    return AuditResult(audit.name, audit.must_hold, count, columns, rows)


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, (date, datetime)) else value
