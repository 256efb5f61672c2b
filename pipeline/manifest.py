"""The lake's manifest: its typed shape, how it is read and written, and what it may name.

Readers see exactly the files the manifest lists, and the writer deletes the retired files it
names; yet a manifest is a file anyone can edit. So its shape is decoded into a typed Struct,
every path it names must be a part file inside the lake's own table folders (check_paths), every
committed file must be there and be Parquet (check_part_files), and a lake whose manifest fails
any of these is refused in one line, before anything is read or deleted. So is a lake of
another layout (pipeline.schema.LAYOUT): its tables have other columns, and reading them as
this layout's would give wrong numbers, not an error.
"""
from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import msgspec

from pipeline.lake_durable import replace_durably
from pipeline.lake_layout import MANIFEST, LakeError, layout_of, layout_table
from pipeline.schema import LAYOUT, tables

FORMAT = 1
PARQUET_MAGIC = b"PAR1"
"""A Parquet file starts and ends with these bytes: a cheap check that a listed file is one."""

Manifest = dict[str, Any]
Stamp = Annotated[datetime, msgspec.Meta(tz=True)]
Count = Annotated[int, msgspec.Meta(ge=0)]


class PartEntry(msgspec.Struct):
    """A committed part file as the manifest lists it."""

    path: str
    rows: Count
    bytes: Count


class RetiredEntry(msgspec.Struct):
    """A file a compaction replaced, deleted by the first commit after `since` + retain_s."""

    path: str
    since: Stamp


class ManifestFile(msgspec.Struct):
    """The shape manifest.json must have. Decoding into it checks every type at once, so a
    damaged or hand-edited manifest is refused in one line before anything acts on it."""

    format: int
    version: Count
    tables: dict[str, list[PartEntry]]
    retired: list[RetiredEntry]
    batch: str | None = None
    committed_at: Stamp | None = None
    layout: int = 1
    """The tables' layout (pipeline.schema.LAYOUT); manifests written before it had none."""


class OtherLayout(LakeError):
    """A lake whose tables are of another layout: refused, never misread; recovery too leaves
    it alone (rebuilding its manifest would list its files as this layout's)."""


def empty_manifest() -> Manifest:
    """The manifest of a lake nothing was committed to yet."""
    return {"format": FORMAT, "layout": LAYOUT, "version": 0, "batch": None,
            "committed_at": None, "tables": {table: [] for table in tables()}, "retired": []}


def committed_manifest(version: int, batch: str, now: datetime,
                       parts: dict[str, list[dict[str, Any]]],
                       retired: list[dict[str, Any]]) -> Manifest:
    """The manifest a commit (or a rebuild) writes: one place that builds what ManifestFile
    decodes, so the writer cannot drift from the shape readers check."""
    return {"format": FORMAT, "layout": LAYOUT, "version": version, "batch": batch,
            "committed_at": now.isoformat(), "tables": parts, "retired": retired}


def committed_entries(manifest: Manifest) -> Iterator[dict[str, Any]]:
    """The entries of every committed file, table after table."""
    for entries in manifest["tables"].values():
        yield from entries


def way_out(root: Path) -> str:
    """What to do about a lake whose manifest is lost or wrong, said in every such error."""
    return (f"`postgame lake recover --lake {root}` rebuilds the manifest from the part files, "
            "or ingest the logs again into a new lake")


def layout_refusal(root: Path, layout: int) -> OtherLayout:
    """The one line every command says of a lake of another layout, and the way out."""
    if layout > LAYOUT:
        return OtherLayout(f"{root}: a layout-{layout} lake, written by a newer postgame; this "
                           f"one reads layout {LAYOUT} only: upgrade postgame to read it")
    return OtherLayout(f"{root}: a layout-{layout} lake (one winner seat, decks on the seats), "
                       f"which this postgame does not read (layout {LAYOUT}: results and sides "
                       "per seat, decks apart): re-ingest its logs into a new lake "
                       "(`postgame ingest LOGS --lake NEW`)")


# Reading and writing it ---------------------------------------------------------------------

def load_manifest(root: Path) -> Manifest | None:
    """The manifest, its shape and paths checked; None when there is none."""
    path = root / MANIFEST
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as err:
        raise LakeError(f"{path}: cannot read the manifest: {err.strerror or err}") from err
    manifest = decode_manifest(path, data)
    check_paths(root, manifest)
    return manifest


def decode_manifest(path: Path, data: bytes) -> Manifest:
    """The manifest's contents as builtins, every table present, once its JSON has the shape
    of ManifestFile, its format is this one and it names only known tables."""
    try:
        shape = msgspec.json.decode(data, type=ManifestFile)
    except msgspec.ValidationError as err:
        raise LakeError(f"{path}: not a lake manifest: {err}; {way_out(path.parent)}") from None
    except msgspec.DecodeError as err:
        raise LakeError(f"{path}: cannot read the manifest: {err}; {way_out(path.parent)}"
                        ) from None
    if shape.format != FORMAT:
        raise LakeError(f"{path}: not a format {FORMAT} lake manifest (format {shape.format})")
    if shape.layout != LAYOUT:
        raise layout_refusal(path.parent, shape.layout)
    known = tables()
    unknown = sorted(set(shape.tables) - set(known))
    if unknown:
        raise LakeError(f"{path}: tables.{unknown[0]}: no such table (tables: "
                        f"{', '.join(known)}); {way_out(path.parent)}")
    manifest: Manifest = msgspec.to_builtins(shape)
    for table in known:
        manifest["tables"].setdefault(table, [])
    return manifest


def write_manifest(root: Path, manifest: Manifest, crash: str | None = None) -> None:
    """Temp file, fsync, rename over the old one, fsync the folder: the commit itself."""
    data = json.dumps(manifest, indent=1, sort_keys=True).encode() + b"\n"
    replace_durably(root, MANIFEST, data, ".manifest", crash)


def refuse_orphans(root: Path) -> None:
    """A lake with no manifest yet has no files; a folder of part files without one lost its
    manifest, and treating it as new would hide (and let ingest bury) what it holds."""
    parts = part_files_on_disk(root)
    if parts:
        raise LakeError(f"{root / MANIFEST}: missing, yet {root} holds "
                        f"{len(parts)} part file{'s' if len(parts) != 1 else ''} "
                        f"(e.g. {parts[0]}); nothing was changed: {way_out(root)}")


# What it may name ---------------------------------------------------------------------------

def path_problem(base: Path, rel: str, table: str | None = None,
                 folders: RealFolders | None = None) -> str | None:
    """Why `rel` is not a part file of the lake whose real path is `base` (of `table`, if
    given), or None: it must follow the layout and, symlinks followed, stay in a table folder.
    `folders` resolves each folder once for a caller checking many paths."""
    folders = folders or RealFolders(base)
    found = layout_table(rel, folders.tables)
    if found is None:
        return f"is not a part file of the lake (expected {layout_of(table)})"
    if table is not None and found != table:
        return f"is a {found} file, listed under {table}"
    real = folders.real_path(rel)
    top = folders.top_folder(real)
    if top is None or top not in folders.tables:
        return f"leads outside the lake's table folders (to {real})"
    return None


class RealFolders:
    """Real paths of part files under `base` (a real path), every symlink followed, each folder
    resolved once: a file that is no symlink lies where its folder's real path says (a
    manifest lists thousands of files in a few hundred partition folders)."""

    def __init__(self, base: Path) -> None:
        self.base, self.prefix = str(base), os.path.join(str(base), "")
        self.folders: dict[str, str] = {}
        self.tables = frozenset(tables())

    def real_path(self, rel: str) -> str:
        path = os.path.join(self.base, rel)
        if os.path.islink(path):
            return os.path.realpath(path)
        folder, _, name = rel.rpartition("/")
        if folder not in self.folders:
            self.folders[folder] = os.path.realpath(os.path.join(self.base, folder))
        return os.path.join(self.folders[folder], name)

    def top_folder(self, real: str) -> str | None:
        """The folder right under base that a real path lies in, or None if outside."""
        if not real.startswith(self.prefix):
            return None
        return real[len(self.prefix):].split(os.sep, 1)[0] or None


def check_paths(root: Path, manifest: Manifest) -> None:
    """Every path the manifest names is a part file in the lake's own table folders, listed
    once, and no committed file is also retired (retiring it would delete committed rows)."""
    source, base = root / MANIFEST, Path(os.path.realpath(root))
    listed: set[str] = set()
    folders = RealFolders(base)

    def check(rel: str, table: str | None, where: str) -> None:
        problem = path_problem(base, rel, table, folders)
        if problem is None and table is not None and rel in listed:
            problem = "is listed twice"
        if problem is None and table is None and rel in listed:
            problem = "is listed both as committed and as retired"
        if problem:
            raise LakeError(f"{source}: {where}.path {rel!r} {problem}; {way_out(root)}")

    for table, entries in manifest["tables"].items():
        for i, entry in enumerate(entries):
            check(entry["path"], table, f"tables.{table}[{i}]")
            listed.add(entry["path"])
    for i, entry in enumerate(manifest["retired"]):
        check(entry["path"], None, f"retired[{i}]")


def part_file_problem(path: Path) -> str | None:
    """Why the file is not a Parquet file (missing, not a regular file, no PAR1 magic at both
    ends), or None; reads 8 bytes, so the writer checks every listed file when it opens."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            return "is not a regular file"
        with open(path, "rb") as f:
            head = f.read(4)
            f.seek(max(info.st_size - 4, 0))
            tail = f.read(4)
    except FileNotFoundError:
        return "is missing"
    except OSError as err:
        return f"cannot be read ({err.strerror or err})"
    if info.st_size < 12 or head != PARQUET_MAGIC or tail != PARQUET_MAGIC:
        return "is not a Parquet file"
    return None


def bad_part_file(root: Path, rels: Iterable[str]) -> LakeError | None:
    """The error for the first listed file that is not a Parquet file, or None: the same words
    whether the writer's check finds it or a reader's failed query."""
    for rel in rels:
        problem = part_file_problem(root / rel)
        if problem:
            return LakeError(f"{root / MANIFEST}: lists {rel}, which {problem}; {way_out(root)}")
    return None


def check_part_files(root: Path, manifest: Manifest) -> None:
    """Every committed file the manifest lists is there and is Parquet (retired ones may be
    gone: they are only ever deleted)."""
    error = bad_part_file(root, (entry["path"] for entry in committed_entries(manifest)))
    if error:
        raise error


def listed_paths(manifest: Manifest) -> set[str]:
    """The files a manifest names: committed and retired."""
    listed = {entry["path"] for entry in committed_entries(manifest)}
    return listed | {r["path"] for r in manifest["retired"]}


# What the disk holds beyond it --------------------------------------------------------------

def part_files_on_disk(root: Path) -> list[str]:
    """Every .parquet file under the lake's table folders, relative and sorted: what a folder
    listing finds (not what the manifest lists). Symlinked folders are not followed."""
    found: list[str] = []
    for table in tables():
        if (root / table).is_symlink():
            continue
        for folder, _, names in os.walk(root / table):
            found += [(Path(folder) / name).relative_to(root).as_posix() for name in names
                      if name.endswith(".parquet")]
    return sorted(found)


def stray_parts(root: Path, manifest: Manifest) -> list[str]:
    """Part files on disk that the manifest does not name: never deleted, only reported."""
    listed = listed_paths(manifest)
    return [rel for rel in part_files_on_disk(root) if rel not in listed]
