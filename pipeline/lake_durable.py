"""Durable file writes for the lake, and the crash-test hook that interrupts them.

The commit protocol (pipeline.lake_writer) is safe only if each step is on disk before the next
one starts: a file's bytes before it is renamed, a rename before the manifest that relies on
it. Written data is durable once the file is fsynced, a rename or a new entry once its folder
is. The crash hook lets tests kill a writer at each of those steps, as a power cut would.
"""
from __future__ import annotations

import contextlib
import os
import secrets
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from events.log import fsync_dir

CRASH_ENV = "POSTGAME_LAKE_CRASH"
"""Test hook: a commit point (staged, moving, moved, manifest-written, committed), optionally
"#n" for its n-th passage, at which the writer kills itself with SIGKILL."""
_CRASH_COUNTS: dict[str, int] = {}


@contextlib.contextmanager
def synced_file(path: Path) -> Iterator[BinaryIO]:
    """Open `path` for writing; what was written is fsynced before the file is closed."""
    with open(path, "wb") as f:
        yield f
        f.flush()
        os.fsync(f.fileno())


def replace_durably(root: Path, name: str, data: bytes, temp_prefix: str,
                    crash: str | None = None) -> None:
    """Write `data` as root/name atomically and durably (a reader sees old or new, whole)."""
    temp = root / f"{temp_prefix}.{secrets.token_hex(6)}.tmp"
    with synced_file(temp) as f:
        f.write(data)
    if crash:
        crash_point(crash)
    os.replace(temp, root / name)
    fsync_dir(root)


def make_dirs(folder: Path, root: Path) -> list[Path]:
    """mkdir -p below root; returns the folders created, deepest last (each one's parent must
    be fsynced for the new folder to last)."""
    missing = []
    while not folder.exists() and folder != root:
        missing.append(folder)
        folder = folder.parent
    for path in reversed(missing):
        path.mkdir(exist_ok=True)
    return list(reversed(missing))


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
