"""Where things are in a lake folder (docs/lake.md), and the error every lake module raises.

LAKE/manifest.json, LAKE/<table>/game=<g>/month=<m>/part-<batch>-<n>.parquet for the
partitioned tables (the partition columns live in the path, not in the files, as hive readers
expect), LAKE/quarantine/part-<batch>.parquet. The writer puts files at part_path, the manifest
checks accept only paths of this shape (layout_table), readers map a path back to its partition
(partition_of). These names sit in a module of their own, below the others, so that the
manifest, the reader, the writer and recovery can all use them without importing each other.
"""
from __future__ import annotations

import re
import secrets
from collections.abc import Collection
from datetime import UTC, datetime

import pyarrow as pa

from pipeline.schema import UNPARTITIONED, tables

MANIFEST = "manifest.json"
STAGING = "_staging"
LOCK = ".lock"
LEDGER = ".ledger.json"
"""The write-ahead record of the commit under way (pipeline.lake_ledger); absent between
commits."""
PARTITION_KEYS = ("game", "month")
_HIVE_VALUE = re.compile(r"[A-Za-z0-9_.-]+\Z")
_LAYOUT = re.compile(r"(?P<table>[a-z][a-z0-9_]*)/(?:game=[A-Za-z0-9_.-]+/month=[A-Za-z0-9_.-]+/)?"
                     r"part-[A-Za-z0-9_.-]+\.parquet\Z")

PartKey = tuple[str, str | None, str | None]
"""(table, game, month); game and month are None for quarantine, which is not partitioned."""


class LakeError(ValueError):
    """The lake cannot be read or written as asked; the message names the path."""


def file_schema(table: str) -> pa.Schema:
    """The columns a part file stores: the table's, less the partition keys its path holds."""
    schema = tables()[table]
    if table in UNPARTITIONED:
        return schema
    return pa.schema([f for f in schema if f.name not in PARTITION_KEYS])


def with_partition(rows: pa.Table, key: PartKey) -> pa.Table:
    """A part's rows in its table's full schema: the partition keys of `key` (table, game,
    month) put back as columns (a column the rows lack otherwise reads as nulls)."""
    table, game, month = key
    schema, values = tables()[table], {"game": game, "month": month}
    n = rows.num_rows
    return pa.Table.from_arrays(
        [rows.column(f.name) if f.name in rows.column_names
         else pa.repeat(pa.scalar(values.get(f.name), f.type), n) for f in schema],
        schema=schema)


def new_batch_id() -> str:
    """Sortable by time, unique across concurrent machines: 20261130T115411123456-1a2b3c."""
    return f"{datetime.now(UTC):%Y%m%dT%H%M%S%f}-{secrets.token_hex(3)}"


def part_path(key: PartKey, batch: str, n: int = 0) -> str:
    """The path of a part file relative to the lake root (posix separators, as in the manifest)."""
    table, game, month = key
    if table in UNPARTITIONED:
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


def layout_table(rel: str, known: Collection[str] | None = None) -> str | None:
    """The table a path belongs to if it follows part_path's layout exactly (partition folders
    for a partitioned table, none for quarantine), else None: no '..', no absolute path.
    `known`: the lake's tables, for a caller that has them."""
    match = _LAYOUT.match(rel)
    if match is None or match["table"] not in (tables() if known is None else known):
        return None
    partitioned = rel.count("/") == 3
    return match["table"] if partitioned != (match["table"] in UNPARTITIONED) else None


def layout_of(table: str | None) -> str:
    """The layout a table's part files follow (any table's, for None), as error messages say it."""
    if table is None:
        return "<table>/game=<g>/month=<m>/part-*.parquet or quarantine/part-*.parquet"
    if table not in UNPARTITIONED:
        return f"{table}/game=<g>/month=<m>/part-*.parquet"
    return f"{table}/part-*.parquet"
