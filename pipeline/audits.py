"""Audits: queries over the lake that must return no rows (dbt / SQLMesh style).

One query per file in pipeline/sql/audits/, headed by a comment stating what must hold. Each
returns the offending rows, so a failure shows exactly what is wrong; ingest runs them all after
every run. The SQL keeps to a portable subset (no FILTER, no QUALIFY) so it also runs on Spark.
"""
from __future__ import annotations

import contextlib
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

import duckdb

from pipeline.lake import Lake

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
    """Run every audit on a lake (or on a connection with the lake's views)."""
    audits = load_audits() if audits is None else audits
    if isinstance(source, Lake):
        with contextlib.closing(source.connect()) as con:
            return [run_audit(con, audit, limit) for audit in audits]
    return [run_audit(source, audit, limit) for audit in audits]


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
