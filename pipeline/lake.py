"""The Parquet lake: its layout, its manifest, the DuckDB views readers query, and its one writer.

Layout (docs/lake.md): LAKE/manifest.json, LAKE/<table>/game=<g>/month=<m>/part-<batch>-<n>.parquet
for the partitioned tables (the partition columns live in the path, not in the files, as hive
readers expect), LAKE/quarantine/part-<batch>.parquet.

Readers see exactly the files the manifest lists, never a folder listing, so they need no lock
and work on a read-only copy. The writer changes the lake in commits: new part files are written
into LAKE/_staging/<batch>/, fsynced, renamed into place, and only then is the manifest replaced
(temp file, fsync, rename, fsync of the folder), last. A crash before that rename leaves files no
manifest names, which the next writer deletes; after it, the lake is fully updated. Files that a
compaction replaced stay on disk, listed as retired, for `retain_s` seconds, so a reader that
opened the previous manifest can finish its query; a later commit deletes them.
"""
from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import secrets
import shutil
import signal
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.schema import PARTITIONED, TABLES

MANIFEST = "manifest.json"
STAGING = "_staging"
LOCK = ".lock"
FORMAT = 1
PARTITION_KEYS = ("game", "month")
RETAIN_S = 900.0
"""How long files replaced by a compaction outlive the manifest that dropped them."""
MAX_SMALL_FILES = 4
"""A partition with more small files than this is compacted into one file."""
SMALL_ROWS = 1_000_000
"""A file with fewer rows is small: it will be merged again. Bounds what a compaction rewrites."""
ROW_GROUP_ROWS = 1 << 20
STAGING_THREADS = 4
CRASH_ENV = "POSTGAME_LAKE_CRASH"
"""Test hook: a commit point (staged, moving, moved, manifest-written, committed), optionally
"#n" for its n-th passage, at which the writer kills itself with SIGKILL."""
_HIVE_VALUE = re.compile(r"[A-Za-z0-9_.-]+\Z")

PartKey = tuple[str, str | None, str | None]
"""(table, game, month); game and month are None for quarantine, which is not partitioned."""
Manifest = dict[str, Any]

_DUCK_TYPES = {
    pa.string(): "VARCHAR", pa.int8(): "TINYINT", pa.int16(): "SMALLINT",
    pa.int32(): "INTEGER", pa.int64(): "BIGINT", pa.bool_(): "BOOLEAN",
    pa.timestamp("us", tz="UTC"): "TIMESTAMPTZ", pa.float64(): "DOUBLE",
}


class LakeError(ValueError):
    """The lake cannot be read or written as asked; the message names the path."""


def empty_manifest() -> Manifest:
    return {"format": FORMAT, "version": 0, "batch": None, "committed_at": None,
            "tables": {table: [] for table in TABLES}, "retired": []}


def file_schema(table: str) -> pa.Schema:
    """The columns a part file stores: the table's, less the partition keys its path holds."""
    schema = TABLES[table]
    if table not in PARTITIONED:
        return schema
    return pa.schema([f for f in schema if f.name not in PARTITION_KEYS])


def new_batch_id() -> str:
    """Sortable by time, unique across concurrent machines: 20261130T115411123456-1a2b3c."""
    return f"{datetime.now(UTC):%Y%m%dT%H%M%S%f}-{secrets.token_hex(3)}"


def part_path(key: PartKey, batch: str, n: int = 0) -> str:
    """The path of a part file relative to the lake root (posix separators, as in the manifest)."""
    table, game, month = key
    if table not in PARTITIONED:
        return f"{table}/part-{batch}.parquet"
    for name, value in (("game", game), ("month", month)):
        if value is None or not _HIVE_VALUE.match(value):
            raise LakeError(f"{table}: {name} {value!r} cannot name a partition folder")
    return f"{table}/game={game}/month={month}/part-{batch}-{n}.parquet"


def partition_of(rel: str) -> PartKey:
    """The (table, game, month) a manifest path belongs to."""
    parts = rel.split("/")
    if len(parts) == 4:
        return parts[0], parts[1].partition("=")[2], parts[2].partition("=")[2]
    return parts[0], None, None


def duck_type(arrow_type: pa.DataType) -> str:
    try:
        return _DUCK_TYPES[arrow_type]
    except KeyError:
        raise LakeError(f"no DuckDB type for the Arrow type {arrow_type}") from None


def view_sql(table: str, paths: Sequence[Path]) -> str:
    """SELECT of the table's columns, typed as pipeline.schema says, over exactly these files."""
    schema = TABLES[table]
    if not paths:
        cols = ", ".join(f'CAST(NULL AS {duck_type(f.type)}) AS "{f.name}"' for f in schema)
        return f"SELECT {cols} WHERE false"
    cols = ", ".join(f'CAST("{f.name}" AS {duck_type(f.type)}) AS "{f.name}"' for f in schema)
    files = ", ".join("'" + str(p).replace("'", "''") + "'" for p in paths)
    hive = table in PARTITIONED
    options = ", hive_types = {'game': VARCHAR, 'month': VARCHAR}" if hive else ""
    return (f"SELECT {cols} FROM read_parquet([{files}], hive_partitioning = {str(hive).lower()}, "
            f"union_by_name = true{options})")


class Lake:
    """A lake folder as readers see it: the committed manifest and DuckDB views over it."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    def __repr__(self) -> str:
        return f"Lake({str(self.root)!r})"

    def manifest(self) -> Manifest:
        """The committed manifest; an empty lake (no manifest yet) has no files."""
        path = self.root / MANIFEST
        try:
            data = json.loads(path.read_bytes())
        except FileNotFoundError:
            return empty_manifest()
        except (OSError, ValueError) as err:
            raise LakeError(f"{path}: cannot read the manifest: {err}") from err
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise LakeError(f"{path}: not a format {FORMAT} lake manifest")
        for table in TABLES:
            data["tables"].setdefault(table, [])
        return data

    def files(self, table: str, manifest: Manifest | None = None) -> list[Path]:
        """The committed part files of a table, absolute."""
        if table not in TABLES:
            raise LakeError(f"unknown table {table!r}; tables: {', '.join(TABLES)}")
        entries = (manifest or self.manifest())["tables"][table]
        return [self.root / entry["path"] for entry in entries]

    def connect(self) -> duckdb.DuckDBPyConnection:
        """An in-memory DuckDB connection with one view per table over the committed files.

        Nothing is written to the lake. The views are bound to the manifest read now: reopen
        when manifest()["version"] changes to see later ingests.
        """
        manifest = self.manifest()
        con = duckdb.connect(":memory:")
        con.execute("SET TimeZone = 'UTC'")
        for table in TABLES:
            con.execute(f"CREATE VIEW {table} AS {view_sql(table, self.files(table, manifest))}")
        return con

    def summary(self) -> dict[str, Any]:
        """What the lake holds, per game: matches, events, first and last match start."""
        with contextlib.closing(self.connect()) as con:
            rows = con.execute(
                "SELECT game, count(*), coalesce(sum(events), 0), min(started_at), "
                "max(started_at) FROM matches GROUP BY game ORDER BY game").fetchall()
            quarantined = con.execute("SELECT count(*) FROM quarantine").fetchone()
        manifest = self.manifest()
        games = {game: {"matches": n, "events": int(events), "first": first, "last": last}
                 for game, n, events, first, last in rows}
        return {"lake": str(self.root), "version": manifest["version"],
                "batch": manifest["batch"], "games": games,
                "quarantined": quarantined[0] if quarantined else 0}

    @contextlib.contextmanager
    def writer(self, retain_s: float = RETAIN_S) -> Iterator[LakeWriter]:
        """The lake's only writer: takes the lock (waiting for another writer), cleans up what a
        crashed writer left, and yields."""
        self.root.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.root / LOCK, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX)  # a POSIX lock: worker processes do not inherit it
            writer = LakeWriter(self, retain_s)
            writer.recover()
            yield writer
        finally:
            os.close(fd)


class LakeWriter:
    """Stages, commits and compacts part files; exists only while its Lake's lock is held."""

    def __init__(self, lake: Lake, retain_s: float) -> None:
        self.lake, self.root, self.retain_s = lake, lake.root, retain_s
        self.manifest = lake.manifest()

    def recover(self) -> list[str]:
        """Delete what a crashed writer left: staging, temp manifests, files no manifest lists."""
        removed = []
        if (self.root / STAGING).exists():
            shutil.rmtree(self.root / STAGING)
            removed.append(STAGING)
        for temp in self.root.glob(".manifest.*.tmp"):
            temp.unlink()
            removed.append(temp.name)
        kept = {e["path"] for entries in self.manifest["tables"].values() for e in entries}
        kept |= {r["path"] for r in self.manifest["retired"]}
        for table in TABLES:
            for path in sorted((self.root / table).rglob("*.parquet")):
                rel = path.relative_to(self.root).as_posix()
                if rel not in kept:
                    path.unlink()
                    removed.append(rel)
        return removed

    def commit(self, batch: str, parts: Mapping[PartKey, pa.Table],
               retire: Sequence[str] = ()) -> None:
        """Add one file per partition and drop `retire` from the listing, atomically."""
        keys = sorted((key for key, data in parts.items() if data.num_rows),
                      key=lambda key: tuple(v or "" for v in key))
        with ThreadPoolExecutor(STAGING_THREADS) as pool:  # fsyncs wait on the disk, in parallel
            staged = list(pool.map(lambda n, key: self._stage(batch, n, key, parts[key]),
                                   range(len(keys)), keys))
        crash_point("staged")
        self._move_into_place(batch, staged)
        crash_point("moved")
        manifest, expired = self._next_manifest(batch, staged, retire)
        self._write_manifest(manifest)
        crash_point("committed")
        self.manifest = manifest
        shutil.rmtree(self.root / STAGING, ignore_errors=True)
        for rel in expired:
            with contextlib.suppress(FileNotFoundError):
                (self.root / rel).unlink()

    def compact(self) -> int:
        """Merge the small files of every partition holding more than MAX_SMALL_FILES of them
        into one file (one commit); returns the number of partitions compacted."""
        groups: dict[PartKey, list[dict[str, Any]]] = {}
        for entries in self.manifest["tables"].values():
            for entry in entries:
                if entry["rows"] < SMALL_ROWS:
                    groups.setdefault(partition_of(entry["path"]), []).append(entry)
        crowded = {key: entries for key, entries in groups.items()
                   if len(entries) > MAX_SMALL_FILES}
        if not crowded:
            return 0
        parts = {key: self._merged(key[0], entries) for key, entries in crowded.items()}
        retire = [entry["path"] for entries in crowded.values() for entry in entries]
        self.commit(new_batch_id(), parts, retire)
        return len(crowded)

    def _merged(self, table: str, entries: list[dict[str, Any]]) -> pa.Table:
        schema = file_schema(table)
        tables = [conform(pq.ParquetFile(self.root / e["path"]).read(), schema) for e in entries]
        return pa.concat_tables(tables)

    def _stage(self, batch: str, n: int, key: PartKey, data: pa.Table) -> dict[str, Any]:
        """Write one part file into staging (flat: LAKE/_staging/<batch>/<n>.parquet), durably;
        returns its manifest entry."""
        path = self._staged_path(batch, n)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = conform(data, file_schema(key[0]))
        with open(path, "wb") as f:
            pq.write_table(data, f, row_group_size=ROW_GROUP_ROWS, compression="zstd")
            f.flush()
            os.fsync(f.fileno())
        return {"path": part_path(key, batch), "rows": data.num_rows,
                "bytes": path.stat().st_size}

    def _staged_path(self, batch: str, n: int) -> Path:
        return self.root / STAGING / batch / f"{n}.parquet"

    def _move_into_place(self, batch: str, staged: list[dict[str, Any]]) -> None:
        """Rename every staged file to its place, then fsync each folder that changed, once."""
        changed: set[Path] = set()
        for n, entry in enumerate(staged):
            target = self.root / entry["path"]
            changed.update(folder.parent for folder in _make_dirs(target.parent, self.root))
            os.rename(self._staged_path(batch, n), target)
            changed.add(target.parent)
            crash_point("moving")
        for folder in sorted(changed, key=lambda p: len(p.parts), reverse=True):
            fsync_dir(folder)

    def _next_manifest(self, batch: str, staged: list[dict[str, Any]], retire: Sequence[str]
                       ) -> tuple[Manifest, list[str]]:
        """The manifest after this commit, and the retired files whose time is up."""
        now = datetime.now(UTC)
        old = self.manifest
        gone = set(retire)
        tables = {t: [e for e in entries if e["path"] not in gone]
                  for t, entries in old["tables"].items()}
        for entry in staged:
            tables[partition_of(entry["path"])[0]].append(entry)
        retired = old["retired"] + [{"path": p, "since": now.isoformat()} for p in retire]
        cutoff = time.time() - self.retain_s
        expired = [r["path"] for r in retired
                   if datetime.fromisoformat(r["since"]).timestamp() <= cutoff]
        retired = [r for r in retired if r["path"] not in set(expired)]
        return ({"format": FORMAT, "version": old["version"] + 1, "batch": batch,
                 "committed_at": now.isoformat(), "tables": tables, "retired": retired},
                expired)

    def _write_manifest(self, manifest: Manifest) -> None:
        """Temp file, fsync, rename over the old one, fsync the folder: the commit itself."""
        data = json.dumps(manifest, indent=1, sort_keys=True).encode() + b"\n"
        temp = self.root / f".manifest.{secrets.token_hex(6)}.tmp"
        with open(temp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        crash_point("manifest-written")
        os.replace(temp, self.root / MANIFEST)
        fsync_dir(self.root)


def conform(data: pa.Table, schema: pa.Schema) -> pa.Table:
    """The table with exactly the schema's columns, in order and type (missing ones as nulls):
    files written before a column was added merge with newer ones."""
    columns = [data.column(f.name).cast(f.type) if f.name in data.column_names
               else pa.nulls(data.num_rows, f.type) for f in schema]
    return pa.Table.from_arrays(columns, schema=schema)


def fsync_dir(folder: Path) -> None:
    """A rename or a new entry is durable only once its folder is."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _make_dirs(folder: Path, root: Path) -> list[Path]:
    """mkdir -p below root; returns the folders created, deepest last."""
    missing = []
    while not folder.exists() and folder != root:
        missing.append(folder)
        folder = folder.parent
    for path in reversed(missing):
        path.mkdir(exist_ok=True)
    return list(reversed(missing))


_CRASH_COUNTS: dict[str, int] = {}


def crash_point(name: str) -> None:
    """Die here, like kill -9, when the crash-test hook names this point ("moved"), or its n-th
    passage ("moved#2": the second commit of the run)."""
    wanted = os.environ.get(CRASH_ENV)
    if not wanted:
        return
    point, _, nth = wanted.partition("#")
    if point == name:
        _CRASH_COUNTS[name] = _CRASH_COUNTS.get(name, 0) + 1
        if _CRASH_COUNTS[name] >= int(nth or 1):
            os.kill(os.getpid(), signal.SIGKILL)
