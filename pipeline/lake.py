"""The Parquet lake as readers see it (the committed manifest, DuckDB views over its files), and
the door to its one writer.

Readers see exactly the files the manifest lists, never a folder listing, so they need no lock
and work on a read-only copy. The rest of the lake lives beside this module, one concern each:
pipeline.lake_layout (where files go, LakeError), pipeline.manifest (its shape and what it may
name), pipeline.lake_writer (commits and compaction), pipeline.lake_ledger (settling a crashed
commit), pipeline.lake_durable (fsynced writes) and pipeline.lake_recovery (`postgame lake
recover`, which rebuilds a lost manifest).
"""
from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Collection, Iterator, Sequence
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from pipeline.lake_layout import LOCK, MANIFEST, LakeError
from pipeline.lake_writer import RETAIN_S, LakeWriter
from pipeline.manifest import (
    Manifest,
    bad_part_file,
    check_part_files,
    empty_manifest,
    load_manifest,
    refuse_orphans,
    write_manifest,
)
from pipeline.schema import UNPARTITIONED, tables

_DUCK_TYPES = {
    pa.string(): "VARCHAR", pa.int8(): "TINYINT", pa.int16(): "SMALLINT",
    pa.int32(): "INTEGER", pa.int64(): "BIGINT", pa.bool_(): "BOOLEAN",
    pa.timestamp("us", tz="UTC"): "TIMESTAMPTZ", pa.float64(): "DOUBLE", pa.date32(): "DATE",
}


def duck_type(arrow_type: pa.DataType) -> str:
    """The DuckDB type views cast an Arrow column to, so every file reads as pipeline.schema
    says, whatever type its writer chose."""
    try:
        return _DUCK_TYPES[arrow_type]
    except KeyError:
        raise LakeError(f"no DuckDB type for the Arrow type {arrow_type}") from None


def view_sql(table: str, paths: Sequence[Path], absent: Collection[str] = ()) -> str:
    """SELECT of the table's columns, typed as pipeline.schema says, over exactly these files
    (the `absent` columns, which none of them has, as nulls)."""
    schema = tables()[table]
    absent = absent if paths else schema.names
    cols = ", ".join(f'CAST({"NULL" if f.name in absent else _quoted(f.name)} AS '
                     f'{duck_type(f.type)}) AS {_quoted(f.name)}' for f in schema)
    return f"SELECT {cols} FROM {_read(table, paths)}" if paths else f"SELECT {cols} WHERE false"


def _quoted(name: str) -> str:
    return f'"{name}"'


def _read(table: str, paths: Sequence[Path]) -> str:
    files = ", ".join("'" + str(p).replace("'", "''") + "'" for p in paths)
    hive = table not in UNPARTITIONED
    options = ", hive_types = {'game': VARCHAR, 'month': VARCHAR}" if hive else ""
    return (f"read_parquet([{files}], hive_partitioning = {str(hive).lower()}, "
            f"union_by_name = true{options})")


def create_view(con: duckdb.DuckDBPyConnection, table: str, paths: Sequence[Path]) -> None:
    """The table's view over these files. A column older files lack reads as nulls; so does one
    that none of them has yet (all written before it was added: a rollup's new column)."""
    try:
        con.execute(f"CREATE VIEW {table} AS {view_sql(table, paths)}")
    except duckdb.BinderException:
        if not paths:
            raise
        held = {row[0] for row in con.execute(f"DESCRIBE SELECT * FROM {_read(table, paths)}")
                .fetchall()}
        absent = [name for name in tables()[table].names if name not in held]
        con.execute(f"CREATE VIEW {table} AS {view_sql(table, paths, absent)}")


class Lake:
    """A lake folder as readers see it: the committed manifest and DuckDB views over it."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    def __repr__(self) -> str:
        return f"Lake({str(self.root)!r})"

    def manifest(self) -> Manifest:
        """The committed manifest, checked; a lake with no manifest yet has no files, but a
        folder of part files without one is refused: it lost its manifest."""
        manifest = self._load()
        return empty_manifest() if manifest is None else manifest

    def _load(self) -> Manifest | None:
        """The manifest, checked; None for a new lake (no manifest and no part files)."""
        manifest = load_manifest(self.root)
        if manifest is None:
            refuse_orphans(self.root)
        return manifest

    def files(self, table: str, manifest: Manifest | None = None) -> list[Path]:
        """The committed part files of a table, absolute."""
        known = tables()
        if table not in known:
            raise LakeError(f"unknown table {table!r}; tables: {', '.join(known)}")
        entries = (manifest or self.manifest())["tables"][table]
        return [self.root / entry["path"] for entry in entries]

    def connect(self, manifest: Manifest | None = None) -> duckdb.DuckDBPyConnection:
        """An in-memory DuckDB connection with one view per table over the committed files.

        Nothing is written to the lake. The views are bound to the manifest read now (or the
        one given): reopen when manifest()["version"] changes to see later ingests. A listed
        file DuckDB cannot read is a LakeError naming the manifest and the file.
        """
        manifest = manifest or self.manifest()
        con = duckdb.connect(":memory:")
        con.execute("SET TimeZone = 'UTC'")
        # a part file is never rewritten in place: its footer, once read, holds for every query
        # (a report's models scan the same thousands of files again and again)
        con.execute("SET parquet_metadata_cache = true")
        for table in tables():
            files = self.files(table, manifest)
            try:
                create_view(con, table, files)
            except duckdb.Error as err:
                con.close()
                raise self._unreadable(table, files, err) from None
        return con

    def _unreadable(self, table: str, files: list[Path], err: duckdb.Error) -> LakeError:
        """DuckDB's error as one line: the file at fault if a cheap check finds it."""
        found = bad_part_file(self.root, (p.relative_to(self.root).as_posix() for p in files))
        if found:
            return found
        first = (str(err).strip().splitlines() or [type(err).__name__])[0]
        return LakeError(f"{self.root / MANIFEST}: the {table} files cannot be read: {first}")

    def summary(self) -> dict[str, Any]:
        """What the lake holds, per game: matches, events, first and last match start."""
        manifest = self.manifest()
        with contextlib.closing(self.connect(manifest)) as con:
            rows = con.execute(
                "SELECT game, count(*), coalesce(sum(events), 0), min(started_at), "
                "max(started_at) FROM matches GROUP BY game ORDER BY game").fetchall()
            quarantined = con.execute("SELECT count(*) FROM quarantine").fetchone()
        games = {game: {"matches": n, "events": int(events), "first": first, "last": last}
                 for game, n, events, first, last in rows}
        return {"lake": str(self.root), "version": manifest["version"],
                "batch": manifest["batch"], "games": games,
                "quarantined": quarantined[0] if quarantined else 0}

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold LAKE/.lock (waiting for another writer); creates the lake folder."""
        self.root.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(self.root / LOCK, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o666)
        except OSError as err:
            raise LakeError(f"{self.root / LOCK}: cannot take the lake's lock: "
                            f"{err.strerror or err}") from None
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX)  # a POSIX lock: worker processes do not inherit it
            yield
        finally:
            os.close(fd)

    @contextlib.contextmanager
    def writer(self, retain_s: float = RETAIN_S) -> Iterator[LakeWriter]:
        """The lake's only writer: takes the lock (waiting for another writer), checks the
        manifest and every file it lists, cleans up what a crashed writer left, and yields."""
        with self.locked():
            yield self._open_writer(retain_s)

    def _open_writer(self, retain_s: float) -> LakeWriter:
        """Nothing is deleted before the manifest is checked whole. A new lake gets an empty
        manifest first, so that to recovery a missing manifest never means a new lake."""
        manifest = self._load()
        if manifest is None:
            manifest = empty_manifest()
            write_manifest(self.root, manifest)
        check_part_files(self.root, manifest)
        writer = LakeWriter(self, retain_s, manifest)
        writer.recover()
        return writer
