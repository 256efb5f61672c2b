"""What a lake already holds, as ingest needs to know it: every content hash (matches and
quarantine) and every match id, kept compact, since a run holds them for its whole length.

A Python set of the hex digests and a dict of the match ids cost about 210 bytes a match in the
parent (and the set again in every worker); the arrays here 24 (benchmarks/bench_known.py, a
million matches: 203 MB against 23). The lake's digests are one sorted array of raw 16-byte
digests (searched by bisection, shipped to workers as two buffers) and its match ids one sorted
array of 8-byte keys (the first half of the id's MD5, computed by the query that reads them): a
key found there is confirmed against the lake, whose content hash for that id the DUPLICATE
reason names, so a collision of keys costs a query, never a wrong verdict. What the run itself
adds lives in a set and a dict beside them: bounded by the run, not the lake.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import duckdb
import numpy as np
import pyarrow as pa

READ_ROWS = 100_000
"""Rows read from the lake at a time while the arrays are built: the transient cost."""
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


def _sorted_member(array: np.ndarray, value: int) -> bool:
    at = int(np.searchsorted(array, np.uint64(value)))
    return at < len(array) and int(array[at]) == value


class Digests:
    """A set of content hashes (hex) over sorted raw digests: `digest in digests`. The first
    halves are searched by bisection, the second compared where the first is equal."""

    def __init__(self, halves: np.ndarray) -> None:
        order = np.argsort(halves[:, 0], kind="stable")
        self.first = np.ascontiguousarray(halves[order, 0])
        self.second = np.ascontiguousarray(halves[order, 1])

    def __contains__(self, digest: object) -> bool:
        try:
            raw = bytes.fromhex(digest) if isinstance(digest, str) else b""
        except ValueError:
            return False
        if len(raw) != 16:
            return False
        first, second = int.from_bytes(raw[:8], "big"), int.from_bytes(raw[8:], "big")
        at, count = int(self.first.searchsorted(np.uint64(first))), len(self.first)
        while at < count and int(self.first[at]) == first:  # one entry, but for a twin half
            if int(self.second[at]) == second:
                return True
            at += 1
        return False

    def __len__(self) -> int:
        return len(self.first)


def _filled(con: duckdb.DuckDBPyConnection, empty: np.ndarray,
            convert: Callable[[pa.Array], np.ndarray], sql: str) -> np.ndarray:
    """The query's one column converted READ_ROWS rows at a time into one array sized up front
    (no list of pieces to concatenate: the peak is the array and one piece)."""
    ((rows,),) = con.execute(f"SELECT count(*) FROM ({sql})").fetchall()
    out = np.empty((int(rows), *empty.shape[1:]), empty.dtype)
    at = 0
    for batch in con.sql(sql).to_arrow_reader(READ_ROWS):
        piece = convert(batch.column(0))
        out[at:at + len(piece)] = piece
        at += len(piece)
    return out[:at]


class _HeldConnection:
    """One connection to the lake for a whole run: opening one costs a view per table over every
    file the manifest lists (some 0.4 s at a million matches), too much to pay per match id a
    log shares with the lake. Reopened if a file it reads is gone (compaction retires files, and
    deletes them once they are old enough): the lake as it then stands."""

    def __init__(self, connect: Callable[[], duckdb.DuckDBPyConnection]) -> None:
        self.connect = connect
        self.con = connect()

    def hash_of(self, match_id: str) -> str | None:
        """The content hash the lake holds for the match id, or None."""
        sql = "SELECT content_hash FROM matches WHERE match_id = ?"
        try:
            row = self.con.execute(sql, [match_id]).fetchone()
        except duckdb.IOException:
            self.close()
            self.con = self.connect()
            row = self.con.execute(sql, [match_id]).fetchone()
        return None if row is None else str(row[0])

    def close(self) -> None:
        self.con.close()


@dataclass
class Seen:
    """What the lake held when the run began (compact) and what the run has added since."""

    lake_digests: Digests
    lake_ids: np.ndarray
    """Sorted uint64 keys (id_key) of the lake's match ids."""
    lake_hash_of: Callable[[str], str | None]
    """The content hash the lake holds for a match id, or None (asked on a key hit only)."""
    lake_close: Callable[[], None] = lambda: None
    run_digests: set[str] = field(default_factory=set)
    run_ids: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, connect: Callable[[], duckdb.DuckDBPyConnection]) -> Seen:
        """Read from a connection to the lake (its matches and quarantine views), opened by
        `connect`; the same connection answers each match id key found until close()."""
        lake = _HeldConnection(connect)
        try:
            halves = _filled(lake.con, np.empty((0, 2), np.uint64), blob_halves, (
                "SELECT unhex(content_hash) FROM matches UNION ALL"
                " SELECT unhex(content_hash) FROM quarantine WHERE content_hash IS NOT NULL"))
            keys = _filled(lake.con, np.empty(0, np.uint64),
                           lambda md5s: blob_halves(md5s)[:, 0], f"SELECT {ID_KEYS} FROM matches")
        except BaseException:
            lake.close()
            raise
        keys.sort()
        return cls(Digests(halves), keys, lake.hash_of, lake.close)

    def close(self) -> None:
        """Close the connection the lake's match ids are confirmed on."""
        self.lake_close()

    def known(self, digest: str) -> bool:
        """Whether a log of this content is in the lake (ingested or quarantined) or this run."""
        return digest in self.run_digests or digest in self.lake_digests

    def holder(self, match_id: str) -> str | None:
        """The content hash of the match already ingested under this id, or None."""
        if match_id in self.run_ids:
            return self.run_ids[match_id]
        if not _sorted_member(self.lake_ids, id_key(match_id)):
            return None
        return self.lake_hash_of(match_id)

    def saw(self, digest: str) -> None:
        self.run_digests.add(digest)

    def ingested(self, match_id: str, digest: str) -> None:
        self.run_ids[match_id] = digest

    def withdrawn(self, match_id: str) -> None:
        """A match of this run taken back out (quarantined over the charge cap)."""
        self.run_ids.pop(match_id, None)

