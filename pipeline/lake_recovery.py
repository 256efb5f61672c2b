"""`postgame lake recover`: rebuild a lost or broken manifest from the part files that verify.

The writer never deletes a part file merely because no manifest lists it, so a lake whose
manifest is lost or damaged still holds its rows. Recovery lists every part file on disk that
is at a part file's place, is Parquet with the table's columns, was not written by a commit a
crash interrupted, and holds rows no newer file holds (a compaction's retired inputs are left
out). Nothing is deleted: files left aside stay where they are, and a broken manifest or a crash
ledger it replaces is kept under another name.
"""
from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

import msgspec
import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.lake import Lake
from pipeline.lake_layout import (
    LEDGER,
    MANIFEST,
    LakeError,
    file_schema,
    layout_table,
    new_batch_id,
)
from pipeline.lake_ledger import read_ledger
from pipeline.manifest import (
    Count,
    OtherLayout,
    check_part_files,
    committed_entries,
    committed_manifest,
    load_manifest,
    part_file_problem,
    part_files_on_disk,
    path_problem,
    stray_parts,
    write_manifest,
)
from pipeline.schema import ROLLUPS
from pipeline.schema import tables as known_tables

ROW_KEYS: dict[str, tuple[str, ...]] = {"quarantine": ("batch", "path"),
                                        **{table: ("batch",) for table in ROLLUPS}}
"""What identifies a row of a table when a manifest is rebuilt (match_id for the facts; the
commit for a rollup, whose rows one commit writes to one file a partition): the same rows in
two files are a compaction's input and output."""
UNLISTED = "no manifest lists it (left alone)"

Entries = dict[str, list[dict[str, Any]]]
"""Manifest entries per table."""
Aside = list[tuple[str, str]]
"""(path, why) of each part file a rebuilt manifest does not list."""


@dataclass
class Recovery:
    """What recover_lake found and did. Nothing is deleted: files left aside stay where they
    are, and a broken manifest or a crash ledger it replaces is kept under another name."""

    lake: str
    rebuilt: bool
    why: str
    """Why the manifest was rebuilt (the error it gave), or that it is sound."""
    kept: list[dict[str, Any]] = field(default_factory=list)
    """The entries of the rebuilt manifest."""
    aside: Aside = field(default_factory=list)
    """(path, why) of each part file on disk the manifest does not list."""
    moved: list[tuple[str, str]] = field(default_factory=list)
    """(file, where it now is): the broken manifest and ledger, kept aside."""
    version: int = 0

    def rows(self, table: str) -> int:
        return sum(e["rows"] for e in self.kept if layout_table(e["path"]) == table)

    def to_json(self) -> dict[str, Any]:
        return {"lake": self.lake, "rebuilt": self.rebuilt, "why": self.why,
                "version": self.version, "kept": self.kept,
                "aside": [{"path": p, "why": why} for p, why in self.aside],
                "moved": [{"from": a, "to": b} for a, b in self.moved],
                "matches": self.rows("matches"), "quarantined": self.rows("quarantine")}


class _Stated(msgspec.Struct):
    version: Count = 0


def recover_lake(lake: Lake) -> Recovery:
    """Under the writer's lock: a missing or broken manifest (or one listing files that are
    gone or not Parquet) is rebuilt from the part files that verify; a sound one is kept and
    the part files it does not list are reported."""
    if not lake.root.is_dir():
        raise LakeError(f"{lake.root}: no such lake folder")
    with lake.locked():
        problem = _manifest_problem(lake.root)
        if problem is None:
            moved = _set_aside_unreadable_ledger(lake.root)
            manifest = lake.manifest()
            return Recovery(str(lake.root), False, "the manifest is sound",
                            aside=[(p, UNLISTED) for p in stray_parts(lake.root, manifest)],
                            moved=moved, version=manifest["version"])
        return _rebuild(lake.root, problem)


def _manifest_problem(root: Path) -> str | None:
    """What is wrong with the manifest (the error readers and the writer would give), or None.
    A lake of another layout is refused as every command refuses it: a manifest rebuilt from
    its files would list them as this layout's."""
    try:
        manifest = load_manifest(root)
        if manifest is not None:
            check_part_files(root, manifest)
    except OtherLayout:
        raise
    except LakeError as err:
        return str(err)
    if manifest is not None:
        return None
    if not part_files_on_disk(root):
        raise LakeError(f"{root}: no manifest and no part files: nothing to recover")
    return f"{root / MANIFEST} is missing"


def _set_aside_unreadable_ledger(root: Path) -> list[tuple[str, str]]:
    """A ledger the writer would refuse (it does not decode, or names files it must not) would
    stop every writer; beside a sound manifest it is kept aside rather than acted on."""
    try:
        read_ledger(root)
    except LakeError:
        return [_keep_aside(root / LEDGER, "ledger")]
    return []


def _rebuild(root: Path, why: str) -> Recovery:
    """A new manifest listing every verified part file, one file per row; the old manifest
    (copied aside first, so the lake always has one) and the ledger are kept under new names."""
    try:
        ledger = read_ledger(root)
    except LakeError:
        ledger = None
    tables, aside = verified_parts(root, set(ledger.parts) if ledger else set())
    old, moved = root / MANIFEST, []
    version = _stated_version(old) + 1
    if old.exists():
        moved.append(_keep_aside(old, "manifest", copy=True))
    manifest = committed_manifest(version, new_batch_id(), datetime.now(UTC), tables, [])
    write_manifest(root, manifest)
    if (root / LEDGER).exists():  # after the manifest: its parts stay set aside until then
        moved.append(_keep_aside(root / LEDGER, "ledger"))
    kept = list(committed_entries(manifest))
    return Recovery(str(root), True, why, kept, aside, moved, version)


def _stated_version(path: Path) -> int:
    """The version a broken manifest still states (readers key caches by version, so the
    rebuilt one comes after it); 0 if it states none."""
    try:
        return msgspec.json.decode(path.read_bytes(), type=_Stated).version
    except (OSError, msgspec.DecodeError):
        return 0


def _keep_aside(path: Path, what: str, copy: bool = False) -> tuple[str, str]:
    """Move (or copy) a file out of the way under a stamped name: recovery never deletes."""
    stamp = f"{datetime.now(UTC):%Y%m%dT%H%M%S%f}"
    target = path.with_name(f"{what}.{stamp}.set-aside.json")
    if copy:
        shutil.copy2(path, target)
    else:
        os.replace(path, target)
    return str(path), str(target)


# Which part files a rebuilt manifest lists --------------------------------------------------

def verified_parts(root: Path, pending: set[str]) -> tuple[Entries, Aside]:
    """The part files on disk a manifest may list, per table, and (path, why) of the others."""
    base = Path(os.path.realpath(root))
    candidates: dict[str, list[str]] = {table: [] for table in known_tables()}
    aside: Aside = []
    for rel in part_files_on_disk(root):
        table, why = _verify_part(root, base, rel, pending)
        if why is None:
            candidates[table].append(rel)
        else:
            aside.append((rel, why))
    tables: Entries = {}
    for table, rels in candidates.items():
        tables[table], dropped = _one_file_per_row(root, table, rels)
        aside += dropped
    return tables, sorted(aside)


def _verify_part(root: Path, base: Path, rel: str, pending: set[str]) -> tuple[str, str | None]:
    """(table, why the file cannot be listed) from its place, its magic and its schema."""
    if rel in pending:
        return "", "written by a commit a crash interrupted (the crash ledger names it)"
    table = layout_table(rel)
    if table is None:
        return "", "not at a part file's place (<table>/game=<g>/month=<m>/part-*.parquet)"
    problem = path_problem(base, rel, table) or part_file_problem(root / rel)
    return table, problem or schema_problem(root / rel, table)


def schema_problem(path: Path, table: str) -> str | None:
    """Why the file's columns are not the table's: each must be one of file_schema(table) with
    its type (older files may lack later columns: they read as nulls), the row key present."""
    try:
        schema = pq.read_schema(path)
    except (pa.ArrowException, OSError) as err:
        return _unreadable(err)
    expected = file_schema(table)
    for column in schema:
        if column.name not in expected.names:
            return f"its column {column.name!r} is not a {table} column"
        if column.type != expected.field(column.name).type:
            return (f"its column {column.name!r} is {column.type}, not "
                    f"{expected.field(column.name).type}")
    missing = [k for k in _row_key(table) if k not in schema.names]
    return f"it has no {missing[0]} column" if missing else None


def _one_file_per_row(root: Path, table: str, rels: list[str]
                      ) -> tuple[list[dict[str, Any]], Aside]:
    """Newest file first (batch ids sort by time), each kept unless its rows are already in a
    kept one: a compaction's merged file is newer than the retired files it replaced."""
    owner: dict[tuple[Any, ...], str] = {}
    kept, aside = [], []
    for rel in sorted(rels, key=lambda r: PurePosixPath(r).name, reverse=True):
        try:
            keys, rows = _row_keys(root / rel, _row_key(table))
        except (pa.ArrowException, OSError) as err:
            aside.append((rel, _unreadable(err)))
            continue
        clash = keys & owner.keys()
        if clash:
            other = owner[min(clash, key=repr)]
            aside.append((rel, f"its rows are in the newer {other} (a compaction's leftover)"
                          if clash == keys else f"shares some rows with {other}, not all"))
            continue
        owner.update(dict.fromkeys(keys, rel))
        kept.append({"path": rel, "rows": rows, "bytes": (root / rel).stat().st_size})
    return sorted(kept, key=lambda e: e["path"]), aside


def _row_key(table: str) -> tuple[str, ...]:
    """The columns that identify a row of the table (ROW_KEYS, else match_id)."""
    return ROW_KEYS.get(table, ("match_id",))


def _unreadable(err: Exception) -> str:
    """Why a file is left aside when Arrow cannot read it: the first line of its error."""
    return f"not a readable Parquet file ({str(err).splitlines()[0]})"


def _row_keys(path: Path, keys: tuple[str, ...]) -> tuple[set[tuple[Any, ...]], int]:
    """The distinct row keys of a file and its row count, reading every row group whole (so
    a file that does not decode is found now, not by a reader later)."""
    found: set[tuple[Any, ...]] = set()
    parquet = pq.ParquetFile(path)
    for group in range(parquet.num_row_groups):
        data = parquet.read_row_group(group)
        distinct = data.select(list(keys)).group_by(list(keys)).aggregate([])
        found.update(zip(*(distinct.column(k).to_pylist() for k in keys)))
    return found, parquet.metadata.num_rows
