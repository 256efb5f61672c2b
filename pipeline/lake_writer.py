"""The lake's one writer: it stages part files, commits them and compacts small ones.

It changes the lake in commits: new part files are written into LAKE/_staging/<batch>/,
fsynced; the ledger (pipeline.lake_ledger) then records, durably, the paths they are about to
take and the retired files the commit will delete; the files are renamed into place, and only
then is the manifest replaced (temp file, fsync, rename, fsync of the folder), last. A crash at
any step leaves the previous manifest in force and a ledger that says what to undo.
Files that a compaction replaced stay on disk, listed as retired, for `retain_s` seconds, so a
reader that opened the previous manifest can finish its query; a later commit deletes them.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.parquet as pq

from events.log import fsync_dir
from pipeline.lake_durable import crash_point, make_dirs, synced_file
from pipeline.lake_layout import (
    LEDGER,
    STAGING,
    LakeError,
    PartKey,
    file_schema,
    new_batch_id,
    part_path,
    partition_of,
)
from pipeline.lake_ledger import Ledger, clean_up_crash, write_ledger
from pipeline.manifest import (
    Manifest,
    committed_entries,
    committed_manifest,
    path_problem,
    stray_parts,
    write_manifest,
)

if TYPE_CHECKING:  # the reader opens the writer: importing it here would be a cycle
    from pipeline.lake import Lake

RETAIN_S = 900.0
"""How long files replaced by a compaction outlive the manifest that dropped them."""
MAX_SMALL_FILES = 4
"""A partition with more small files than this is compacted into one file."""
SMALL_ROWS = 1_000_000
"""A file with fewer rows is small: it will be merged again. Bounds what a compaction rewrites."""
ROW_GROUP_ROWS = 1 << 20
STAGING_THREADS = 4


class LakeWriter:
    """Stages, commits and compacts part files; exists only while its Lake's lock is held."""

    def __init__(self, lake: Lake, retain_s: float, manifest: Manifest) -> None:
        self.lake, self.root, self.retain_s = lake, lake.root, retain_s
        self.manifest = manifest
        self.strays: list[str] = []
        """Part files no manifest lists and no ledger names: left alone, reported."""

    def recover(self) -> list[str]:
        """Delete what a crashed writer left, and only what the lake itself wrote (see
        pipeline.lake_ledger), then note the strays; returns what it removed."""
        removed = clean_up_crash(self.root, self.manifest)
        self.strays = stray_parts(self.root, self.manifest)
        return removed

    def commit(self, batch: str, parts: Mapping[PartKey, pa.Table],
               retire: Sequence[str] = ()) -> None:
        """Add one file per partition and drop `retire` from the listing, atomically."""
        keys = sorted((key for key, data in parts.items() if data.num_rows),
                      key=lambda key: tuple(v or "" for v in key))
        self._check_targets([part_path(key, batch) for key in keys])
        with ThreadPoolExecutor(STAGING_THREADS) as pool:  # fsyncs wait on the disk, in parallel
            staged = list(pool.map(lambda n, key: self._stage(batch, n, key, parts[key]),
                                   range(len(keys)), keys))
        crash_point("staged")
        manifest, expired = self._next_manifest(batch, staged, retire)
        write_ledger(self.root, Ledger(batch, self.manifest["version"],
                                       [entry["path"] for entry in staged], expired))
        self._move_into_place(batch, staged)
        crash_point("moved")
        write_manifest(self.root, manifest, crash="manifest-written")
        crash_point("committed")
        self.manifest = manifest
        self._finish(expired)

    def _check_targets(self, targets: list[str]) -> None:
        """A partition folder symlinked out of the lake would take new files outside it."""
        base = Path(os.path.realpath(self.root))
        for rel in targets:
            problem = path_problem(base, rel)
            if problem:
                raise LakeError(f"{self.root / rel}: cannot write it: it {problem}")

    def _finish(self, expired: list[str]) -> None:
        """After the commit: staging, the expired retired files, then the ledger (a crash in
        between leaves a ledger that says the commit landed: the next writer finishes)."""
        shutil.rmtree(self.root / STAGING, ignore_errors=True)
        for rel in expired:
            with contextlib.suppress(FileNotFoundError):
                (self.root / rel).unlink()
        (self.root / LEDGER).unlink(missing_ok=True)

    def compact(self) -> int:
        """Merge the small files of every partition holding more than MAX_SMALL_FILES of them
        into one file (one commit); returns the number of partitions compacted."""
        groups: dict[PartKey, list[dict[str, Any]]] = {}
        for entry in committed_entries(self.manifest):
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
        with synced_file(path) as f:
            pq.write_table(data, f, row_group_size=ROW_GROUP_ROWS, compression="zstd")
        return {"path": part_path(key, batch), "rows": data.num_rows,
                "bytes": path.stat().st_size}

    def _staged_path(self, batch: str, n: int) -> Path:
        return self.root / STAGING / batch / f"{n}.parquet"

    def _move_into_place(self, batch: str, staged: list[dict[str, Any]]) -> None:
        """Rename every staged file to its place, then fsync each folder that changed, once."""
        changed: set[Path] = set()
        for n, entry in enumerate(staged):
            target = self.root / entry["path"]
            changed.update(folder.parent for folder in make_dirs(target.parent, self.root))
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
        gone_now = set(expired)
        retired = [r for r in retired if r["path"] not in gone_now]
        return committed_manifest(old["version"] + 1, batch, now, tables, retired), expired


def conform(data: pa.Table, schema: pa.Schema) -> pa.Table:
    """The table with exactly the schema's columns, in order and type (missing ones as nulls):
    files written before a column was added merge with newer ones."""
    columns = [data.column(f.name).cast(f.type) if f.name in data.column_names
               else pa.nulls(data.num_rows, f.type) for f in schema]
    return pa.Table.from_arrays(columns, schema=schema)
