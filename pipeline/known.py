"""What a lake already holds, as ingest needs to know it: every content hash (matches and
quarantine) and every match id, kept where they cost a run no memory that grows with the lake.

A Python set of the hex digests and a dict of the match ids cost about 210 bytes a match in the
parent (and the set again in every worker); arrays of raw digests and id keys 24
(benchmarks/bench_known.py). Even those grow with the lake, so a run keeps them in two files
of its own instead, sorted by DuckDB as it reads the lake (on a connection closed once they are
written, which gives its buffers back) and mapped read-only: a lookup bisects them, touching a
page or two (Columns.search), and every RELEASE_EVERY lookups a process hands the pages it
touched back to the page cache. What a process holds of them is so bounded by its lookups, not
by the lake (but for 1/256 of the keys, the fences it searches them by), and forked workers map
the same files.

The digests are raw 16-byte content hashes (two 64-bit halves, searched by the first and
compared on the second); the match ids are 8-byte keys (the first half of the id's MD5,
computed by the query that reads them): a key found there is confirmed against the lake, whose
content hash for that id the DUPLICATE reason names, so a collision of keys costs a query,
never a wrong verdict. What the run itself adds lives in a set and a dict beside them: bounded
by the run, not the lake.
"""
from __future__ import annotations

import contextlib
import hashlib
import mmap
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa

READ_ROWS = 100_000
"""Rows read from the lake at a time while the files are written: the transient cost."""
FENCE = 256
"""Rows of a sorted file per key held in memory to search it by (2 KB of the file, often one
page: 1/256 of its first column held)."""
RELEASE_EVERY = 1024
"""Searches in a mapped file between two hand-backs of the pages they touched: a search touches
two or three pages (a slice of the first column, a row of the second), so a process holds at
most some 12 MB of the file, whatever its size."""
HALVES = np.dtype(">u8")
"""A 16-byte digest read as two big-endian 64-bit halves (numpy's fixed-width bytes would drop
a digest's trailing zero bytes)."""


def digest_array(hexes: Iterable[str]) -> np.ndarray:
    """Hex digests (32 characters) as an (n, 2) array of their 64-bit halves, in order."""
    raw = b"".join(bytes.fromhex(h) for h in hexes)
    return np.frombuffer(raw, dtype=HALVES).astype(np.uint64).reshape(-1, 2)


def blob_halves(blobs: pa.Array) -> np.ndarray:
    """16-byte blobs (a digest unhexed by the query that reads it) as digest_array's array,
    straight from Arrow's buffer."""
    fixed = blobs.cast(pa.binary(16))
    words = np.frombuffer(fixed.buffers()[1], dtype=HALVES, count=2 * len(fixed),
                          offset=16 * fixed.offset)
    return words.astype(np.uint64).reshape(-1, 2)


def id_key(match_id: str) -> int:
    """A match id's key: the first 8 bytes of its MD5, big-endian (ID_KEYS in SQL)."""
    return int.from_bytes(hashlib.md5(match_id.encode()).digest()[:8], "big")


ID_KEYS = "unhex(md5(match_id))"
"""id_key of every row's match id, in the lake's SQL (its MD5, of which blob_halves' first
column is the key): computed by the engine, not a Python call per match."""


class Columns:
    """Equal-length uint64 columns sorted by the first: in memory, or mapped read-only from a
    file that holds them one after another (write_columns). `search` bisects a small array of
    every FENCE-th key first (8 bytes per FENCE rows, held), then one slice of the file, so a
    lookup touches a page or two of it; the pages touched go back to the page cache every
    RELEASE_EVERY searches. It pickles as its path, for processes of this machine (`in_memory`
    for any other), and is mapped once per process (mapped_once)."""

    def __init__(self, columns: list[np.ndarray], path: Path | None = None,
                 mapping: mmap.mmap | None = None) -> None:
        self.columns, self.path, self.mapping, self.searches = columns, path, mapping, 0
        self.fence = FENCE
        self.fences = np.array(columns[0][::FENCE])
        self.release()  # taking the fences touched every page of the first column

    @classmethod
    def mapped(cls, path: Path, width: int) -> Columns:
        rows = os.path.getsize(path) // (8 * width)
        if rows == 0:  # an empty file cannot be mapped
            return cls([np.empty(0, np.uint64) for _ in range(width)], path)
        with open(path, "rb") as f:
            mapping = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        return cls([np.frombuffer(mapping, np.uint64, rows, 8 * rows * i) for i in range(width)],
                   path, mapping)

    def search(self, value: int) -> int:
        """Where `value` is, or would be, in the first column (its first row not below it)."""
        key = np.uint64(value)
        block = int(self.fences.searchsorted(key))
        low = max(0, block - 1) * self.fence  # every key before it is below value's fence
        keys = self.columns[0][low:block * self.fence + 1]
        self.searches += 1
        if self.searches % RELEASE_EVERY == 0:
            self.release()
        return low + int(keys.searchsorted(key))

    def release(self) -> None:
        """Hand the mapped pages this process touched back to the page cache."""
        if self.mapping is not None:
            self.mapping.madvise(mmap.MADV_DONTNEED)

    def in_memory(self) -> Columns:
        return Columns([np.array(c) for c in self.columns])

    def __reduce__(self) -> tuple[Any, ...]:
        if self.path is None:
            return Columns, (self.columns,)
        return mapped_once, (self.path, len(self.columns))

    def __len__(self) -> int:
        return len(self.columns[0])


def mapped_once(path: Path, width: int) -> Columns:
    """Columns.mapped, once per process and file: a pool worker is sent the run's file with
    every chunk of logs (its path, pickled), and maps it at the first. The last MAPPED_FILES
    files are kept mapped (a file is named by a run's own temporary folder)."""
    key = (str(path), width)
    found = _MAPPED.get(key)
    if found is None:
        if len(_MAPPED) >= MAPPED_FILES:
            _MAPPED.pop(next(iter(_MAPPED)))
        found = _MAPPED[key] = Columns.mapped(path, width)
    return found


MAPPED_FILES = 2
_MAPPED: dict[tuple[str, int], Columns] = {}


def write_columns(path: Path, rows: int, pieces: Iterable[np.ndarray]) -> None:
    """Write `rows` rows arriving as (n, width) uint64 pieces, column after column, each piece
    written where it belongs: memory for one piece, not the whole."""
    at = 0
    with open(path, "wb") as f:
        for piece in pieces:
            if at + len(piece) > rows:
                raise RuntimeError(f"{path}: more rows than the {rows:,} counted")
            for column in range(piece.shape[1]):
                os.pwrite(f.fileno(), np.ascontiguousarray(piece[:, column]).tobytes(),
                          8 * (column * rows + at))
            at += len(piece)
    if at != rows:
        raise RuntimeError(f"{path}: {at:,} rows read of the {rows:,} counted")


def _sorted_member(keys: Columns, value: int) -> bool:
    at = keys.search(value)
    return at < len(keys) and int(keys.columns[0][at]) == value


class Digests:
    """A set of content hashes (hex) over sorted raw digests: `digest in digests`. The first
    halves are searched by bisection, the second compared where the first is equal."""

    def __init__(self, halves: np.ndarray) -> None:
        order = np.lexsort((halves[:, 1], halves[:, 0]))
        self.sorted = Columns([np.ascontiguousarray(halves[order, 0]),
                               np.ascontiguousarray(halves[order, 1])])

    @classmethod
    def of(cls, columns: Columns) -> Digests:
        """Over columns already sorted (first halves, then second halves)."""
        digests = cls.__new__(cls)
        digests.sorted = columns
        return digests

    def in_memory(self) -> Digests:
        """A copy held in memory, to ship to another machine (a Spark broadcast)."""
        return Digests.of(self.sorted.in_memory())

    def __reduce__(self) -> tuple[Any, ...]:
        return Digests.of, (self.sorted,)

    def __contains__(self, digest: object) -> bool:
        try:
            raw = bytes.fromhex(digest) if isinstance(digest, str) else b""
        except ValueError:
            return False
        if len(raw) != 16:
            return False
        first, second = int.from_bytes(raw[:8], "big"), int.from_bytes(raw[8:], "big")
        firsts, seconds = self.sorted.columns
        at, count = self.sorted.search(first), len(firsts)
        while at < count and int(firsts[at]) == first:  # one entry, but for a twin half
            if int(seconds[at]) == second:
                return True
            at += 1
        return False

    def __len__(self) -> int:
        return len(self.sorted)


def _written(con: duckdb.DuckDBPyConnection, path: Path, width: int,
             convert: Callable[[pa.Array], np.ndarray], sql: str) -> Columns:
    """The query's one column, sorted by DuckDB, converted READ_ROWS rows at a time into
    (n, width) pieces and written to `path`, then mapped."""
    ((rows,),) = con.execute(f"SELECT count(*) FROM ({sql})").fetchall()
    reader = con.sql(f"SELECT * FROM ({sql}) ORDER BY 1").to_arrow_reader(READ_ROWS)
    write_columns(path, int(rows), (convert(batch.column(0)) for batch in reader))
    return Columns.mapped(path, width)


class _HeldConnection:
    """One connection to the lake for a whole run: opening one costs a view per table over every
    file the manifest lists (some 0.4 s at a million matches), too much to pay per match id a
    log shares with the lake; opened at the first (most runs share none). Reopened if a file it
    reads is gone (compaction retires files, and deletes them once they are old enough): the lake
    as it then stands."""

    def __init__(self, connect: Callable[[], duckdb.DuckDBPyConnection]) -> None:
        self.connect = connect
        self.con: duckdb.DuckDBPyConnection | None = None

    def hash_of(self, match_id: str) -> str | None:
        """The content hash the lake holds for the match id, or None."""
        sql = "SELECT content_hash FROM matches WHERE match_id = ?"
        if self.con is None:
            self.con = self.connect()
        try:
            row = self.con.execute(sql, [match_id]).fetchone()
        except duckdb.IOException:
            self.close()
            self.con = self.connect()
            row = self.con.execute(sql, [match_id]).fetchone()
        return None if row is None else str(row[0])

    def close(self) -> None:
        if self.con is not None:
            self.con.close()
            self.con = None


@dataclass
class Seen:
    """What the lake held when the run began (in files of the run's own, mapped) and what the
    run has added since."""

    lake_digests: Digests
    lake_keys: Columns
    """Sorted uint64 keys (id_key) of the lake's match ids."""
    lake_hash_of: Callable[[str], str | None]
    """The content hash the lake holds for a match id, or None (asked on a key hit only)."""
    lake_close: Callable[[], None] = lambda: None
    run_digests: set[str] = field(default_factory=set)
    run_ids: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, connect: Callable[[], duckdb.DuckDBPyConnection]) -> Seen:
        """Read the lake (its matches and quarantine views) on a connection opened by `connect`
        and closed once read, into files in a folder of the run's own (removed by close()). A
        match id key found there is confirmed on a second connection, opened at the first and
        held until close()."""
        lake = _HeldConnection(connect)
        folder = Path(tempfile.mkdtemp(prefix="postgame-known-"))

        def close() -> None:
            lake.close()
            shutil.rmtree(folder, ignore_errors=True)

        try:
            with contextlib.closing(connect()) as con:
                digests = _written(con, folder / "digests", 2, blob_halves, (
                    "SELECT unhex(content_hash) FROM matches UNION ALL"
                    " SELECT unhex(content_hash) FROM quarantine"
                    " WHERE content_hash IS NOT NULL"))
                keys = _written(con, folder / "ids", 1, lambda md5s: blob_halves(md5s)[:, :1],
                                f"SELECT {ID_KEYS} FROM matches")
        except BaseException:
            close()
            raise
        return cls(Digests.of(digests), keys, lake.hash_of, close)

    @property
    def lake_ids(self) -> np.ndarray:
        (keys,) = self.lake_keys.columns
        return keys

    def close(self) -> None:
        """Close the connection the lake's match ids are confirmed on; remove the files."""
        self.lake_close()

    def known(self, digest: str) -> bool:
        """Whether a log of this content is in the lake (ingested or quarantined) or this run."""
        return digest in self.run_digests or digest in self.lake_digests

    def holder(self, match_id: str) -> str | None:
        """The content hash of the match already ingested under this id, or None."""
        if match_id in self.run_ids:
            return self.run_ids[match_id]
        if not _sorted_member(self.lake_keys, id_key(match_id)):
            return None
        return self.lake_hash_of(match_id)

    def saw(self, digest: str) -> None:
        self.run_digests.add(digest)

    def ingested(self, match_id: str, digest: str) -> None:
        self.run_ids[match_id] = digest

    def withdrawn(self, match_id: str) -> None:
        """A match of this run taken back out (quarantined over the charge cap)."""
        self.run_ids.pop(match_id, None)
