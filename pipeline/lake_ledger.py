"""The crash ledger: what a commit records before its first file moves, and how the next writer
settles a commit that a crash interrupted.

A commit writes the ledger (LAKE/.ledger.json) durably, naming the part files it is about to
move into place and the retired files it will delete; only then does it move them, and it
replaces the manifest last. A crash before that rename leaves files the ledger names and no
manifest lists: the next writer deletes those, and only those. The writer never deletes a part
file merely because no manifest lists it (a lost manifest would lose the lake): such strays are
left alone and reported, and pipeline.lake_recovery rebuilds a lost manifest from them.
"""
from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path, PurePosixPath

import msgspec

from pipeline.lake_durable import replace_durably
from pipeline.lake_layout import LEDGER, STAGING, LakeError
from pipeline.manifest import Count, Manifest, listed_paths, path_problem, way_out


class Ledger(msgspec.Struct):
    """The write-ahead record of one commit, durable before its first file moves into place:
    the only part files crash recovery ever deletes are the ones named here."""

    batch: str
    base: Count
    """The manifest version the commit builds on: still in force means it did not land."""
    parts: list[str]
    """The part files it moves into place (deleted if the commit did not land)."""
    expire: list[str]
    """The retired files it deletes once committed (deleted if it did land)."""


def read_ledger(root: Path) -> Ledger | None:
    """The ledger of an unfinished commit, its paths checked like a manifest's (and its parts
    named after its batch); None when the last commit finished."""
    path = root / LEDGER
    try:
        ledger = msgspec.json.decode(path.read_bytes(), type=Ledger)
    except FileNotFoundError:
        return None
    except (OSError, msgspec.DecodeError) as err:
        raise LakeError(f"{path}: not a lake ledger: {err}; {way_out(root)}") from None
    base = Path(os.path.realpath(root))
    for rel in [*ledger.parts, *ledger.expire]:
        problem = path_problem(base, rel)
        if problem is None and rel in ledger.parts and \
                not PurePosixPath(rel).name.startswith(f"part-{ledger.batch}"):
            problem = f"is not a file of batch {ledger.batch}"
        if problem:
            raise LakeError(f"{path}: {rel!r} {problem}; {way_out(root)}")
    return ledger


def write_ledger(root: Path, ledger: Ledger) -> None:
    """Atomically and durably, as the manifest is: a torn ledger would stop the next writer."""
    replace_durably(root, LEDGER, msgspec.json.encode(ledger) + b"\n", ".ledger")


def clean_up_crash(root: Path, manifest: Manifest) -> list[str]:
    """Delete what a crashed writer left, and only what the lake itself wrote: its staging
    folder, its temp files and the files its ledger names; returns what it removed."""
    ledger = read_ledger(root)  # checked before anything is deleted
    removed = _clear_scratch(root)
    if ledger is not None:
        removed += _settle(root, manifest, ledger)
    return removed


def _clear_scratch(root: Path) -> list[str]:
    """The staging folder (no manifest ever lists a file in it) and unfinished temp files
    of a manifest or ledger write."""
    removed = []
    staging = root / STAGING
    if staging.is_symlink() or (staging.exists() and not staging.is_dir()):
        raise LakeError(f"{staging}: not the writer's staging folder (a symlink or a file); "
                        "move it away")
    if staging.exists():
        shutil.rmtree(staging)  # does not follow symlinks inside
        removed.append(STAGING)
    for temp in [*root.glob(".manifest.*.tmp"), *root.glob(".ledger.*.tmp")]:
        temp.unlink()
        removed.append(temp.name)
    return removed


def _settle(root: Path, manifest: Manifest, ledger: Ledger) -> list[str]:
    """A commit that did not land (the manifest it built on is still in force) loses the
    files it moved; one that did, the retired files it was about to delete. A ledger that
    matches neither (the manifest was replaced by hand) deletes nothing."""
    version, batch = manifest["version"], manifest["batch"]
    if version == ledger.base:
        doomed = ledger.parts
    elif version == ledger.base + 1 and batch == ledger.batch:
        doomed = ledger.expire
    else:
        return []
    listed, removed = listed_paths(manifest), []
    for rel in doomed:
        if rel not in listed:
            with contextlib.suppress(FileNotFoundError):
                (root / rel).unlink()
                removed.append(rel)
    (root / LEDGER).unlink()
    return removed
