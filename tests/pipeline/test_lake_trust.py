"""The lake trusts nothing it reads (issue 9, "Trust"), one story per defect fault testing found:

- a hostile manifest (or ledger) deletes and reads nothing outside the lake;
- a lost manifest loses nothing: the lake is refused with the way out, `postgame lake recover`
  rebuilds the manifest from the part files, and crash recovery deletes only what its ledger
  says the writer wrote;
- a manifest of the wrong shape is one line from every command that opens the lake, and ingest
  deletes nothing before it has checked it;
- two ingests at once: one waits, both land, neither corrupts the other.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pipeline.audits import all_audits, run_audits
from pipeline.ingest import ingest
from pipeline.lake import Lake
from pipeline.lake_layout import LEDGER, MANIFEST, STAGING, LakeError
from pipeline.lake_recovery import recover_lake
from pipeline.manifest import OtherLayout, listed_paths
from pipeline.rollups import written_by
from pipeline.schema import game_tables, tables
from postgame.cli import main
from tests.pipeline.conftest import table_counts, write_layout_one_lake
from tests.pipeline.test_ingest import ROOT, ingest_in_subprocess

WRITTEN = [*game_tables("vitorian"), *written_by("vitorian")]
"""The tables a Vitorian commit writes: its facts and their rollups."""
"""The tables a lake of Vitorian logs writes part files to (every registered game declares
its own, which such a lake leaves empty)."""

LONG_AGO = "2000-01-01T00:00:00+00:00"
JAN = "game=vitorian/month=2026-01"


def cli(capsys: pytest.CaptureFixture, *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def snapshot(root: Path) -> dict[str, Any]:
    """Every entry under root: a symlink's target, a file's size and modification time."""
    found: dict[str, Any] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        found[rel] = ("link", os.readlink(path)) if path.is_symlink() else (
            "dir" if path.is_dir() else (path.stat().st_size, path.stat().st_mtime_ns))
    return found


def edit_manifest(root: Path, change: Callable[[dict[str, Any]], object]) -> None:
    manifest = json.loads((root / MANIFEST).read_text())
    change(manifest)
    (root / MANIFEST).write_text(json.dumps(manifest))


def rows(lake: Lake, table: str) -> list[tuple[Any, ...]]:
    with lake.connect() as con:
        return sorted(con.execute(f"SELECT * FROM {table}").fetchall(), key=repr)


@pytest.fixture(scope="module")
def retired_lake(tmp_path_factory: pytest.TempPathFactory, fixture_logs: list[Path]) -> Path:
    """Five logs committed one by one, so a compaction left retired files; their time is set to
    long ago, so the next commit would delete them. Copy it before changing it."""
    root = tmp_path_factory.mktemp("retired") / "lake"
    ingest(fixture_logs[:5], Lake(root), batch_size=1, audit=False)
    edit_manifest(root, lambda m: [r.update(since=LONG_AGO) for r in m["retired"]])
    assert len(json.loads((root / MANIFEST).read_text())["retired"]) == 5 * len(WRITTEN)
    return root


@pytest.fixture
def lake_copy(retired_lake: Path, tmp_path: Path) -> Path:
    root = tmp_path / "lake"
    shutil.copytree(retired_lake, root, symlinks=True)
    leftover = root / STAGING / "20000101T000000000000-abcdef" / "0.parquet"
    leftover.parent.mkdir(parents=True)
    leftover.write_bytes(b"a crashed writer's staged file")
    return root


@pytest.fixture
def new_log(fixture_logs: list[Path]) -> Path:
    return fixture_logs[5]


# ------------------------------------------------------------ 1. hostile paths

def _retire(path: str) -> Callable[[dict[str, Any]], object]:
    return lambda m: m["retired"].append({"path": path, "since": LONG_AGO})


def _list_as(table: str, path: str) -> Callable[[dict[str, Any]], object]:
    return lambda m: m["tables"][table].append({"path": path, "rows": 1, "bytes": 10})


def _first(root: Path, table: str) -> str:
    return str(json.loads((root / MANIFEST).read_text())["tables"][table][0]["path"])


Hostile = Callable[[Path, Path, Path], tuple[Callable[[dict[str, Any]], object], str]]
"""(lake, victim file outside it, a real part file outside it) -> (manifest edit, the error)."""
HOSTILE: dict[str, Hostile] = {
    "an absolute retired path": lambda root, victim, outside: (
        _retire(str(victim)), "is not a part file of the lake"),
    "a retired path climbing out": lambda root, victim, outside: (
        _retire("../victim.txt"), "is not a part file of the lake"),
    "a retired part path climbing out": lambda root, victim, outside: (
        _retire(f"matches/{JAN}/../../../../victim.txt"), "is not a part file of the lake"),
    "a retired symlink out of the lake": lambda root, victim, outside: (
        _retire(_link(root, f"matches/{JAN}/part-evil-0.parquet", victim)),
        "leads outside the lake's table folders"),
    "a retired file that is also committed": lambda root, victim, outside: (
        _retire(_first(root, "matches")), "is listed both as committed and as retired"),
    "an absolute table file": lambda root, victim, outside: (
        _list_as("matches", str(outside)), "is not a part file of the lake"),
    "a table file through a symlinked folder": lambda root, victim, outside: (
        _list_as("matches", _link(root, "matches/game=evil", outside.parents[1]) +
                 "/month=2026-01/part-x-0.parquet"), "leads outside the lake's table folders"),
    "a file of another table": lambda root, victim, outside: (
        _list_as("matches", _first(root, "seats")), "is a seats file, listed under matches"),
    "an unknown table": lambda root, victim, outside: (
        lambda m: m["tables"].update(sovereigns=[]), "tables.sovereigns: no such table"),
    "a file listed twice": lambda root, victim, outside: (
        lambda m: m["tables"]["seats"].append(m["tables"]["seats"][0]), "is listed twice"),
}


def _link(root: Path, rel: str, target: Path) -> str:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).symlink_to(target)
    return rel


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_manifest_deletes_and_reads_nothing_outside_the_lake(
        lake_copy, new_log, tmp_path, capsys, case):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    outside = tmp_path / "month=2026-01" / "part-x-0.parquet"  # a real part file: never read
    outside.parent.mkdir()
    shutil.copy(lake_copy / _first(lake_copy, "matches"), outside)
    change, why = HOSTILE[case](lake_copy, victim, outside)
    edit_manifest(lake_copy, change)
    before = snapshot(lake_copy)
    code, _, err = cli(capsys, "ingest", new_log, "--lake", lake_copy, "--quiet")
    line = one_line(err)
    assert code == 2 and line.startswith(f"postgame ingest: {lake_copy / MANIFEST}: "), line
    assert why in line and "postgame lake recover" in line
    assert victim.read_text() == "precious"
    assert snapshot(lake_copy) == before, "nothing in the lake was deleted either"
    code, _, err = cli(capsys, "stats", "--lake", lake_copy, "--game", "vitorian")
    assert code == 2 and why in one_line(err), "readers refuse it too, before DuckDB reads"


def test_a_hostile_ledger_deletes_nothing_outside_the_lake(lake_copy, new_log, tmp_path,
                                                           capsys):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    version = json.loads((lake_copy / MANIFEST).read_text())["version"]
    link = _link(lake_copy, f"matches/{JAN}/part-b-0.parquet", victim)
    for parts in ([str(victim)], ["matches/../../victim.txt"], [link]):
        (lake_copy / LEDGER).write_text(json.dumps(
            {"batch": "b", "base": version, "parts": parts, "expire": []}))
        code, _, err = cli(capsys, "ingest", new_log, "--lake", lake_copy, "--quiet")
        assert code == 2 and f"{lake_copy / LEDGER}: " in one_line(err)
        assert victim.read_text() == "precious" and (lake_copy / link).is_symlink()


def test_new_files_are_never_written_through_a_symlink_out_of_the_lake(lake_copy,
                                                                      fixture_logs, tmp_path,
                                                                      capsys):
    outside = tmp_path / "outside"
    outside.mkdir()
    february = fixture_logs[-1]  # the lake holds January only: a new partition folder
    _link(lake_copy, "matches/game=vitorian/month=2026-02", outside)
    code, _, err = cli(capsys, "ingest", february, "--lake", lake_copy, "--quiet")
    assert code == 2 and "leads outside the lake's table folders" in one_line(err)
    assert list(outside.iterdir()) == []


# ------------------------------------------------------------ 2. a lost manifest

def test_a_lost_manifest_is_refused_with_the_way_out_and_recover_rebuilds_it(
        copy_logs, small_lake, capsys):
    logs = copy_logs(7)
    ingest(logs[:6], small_lake, batch_size=1)  # a compaction: merged files and leftovers
    root = small_lake.root
    before = {table: rows(small_lake, table) for table in tables()}
    (root / MANIFEST).unlink()
    on_disk = snapshot(root)
    assert_refused_without_manifest(capsys, root, logs[6], on_disk)
    code, out, _ = cli(capsys, "lake", "recover", "--lake", root)
    assert code == 0, out
    tabled, audits = len(WRITTEN), len(all_audits())
    assert f"rebuilt the manifest (version 1) from {2 * tabled} part files: 6 matches" in out
    assert out.count("a compaction's leftover") == 5 * tabled
    assert f"audits: {audits} of {audits} hold" in out
    assert "Nothing was deleted" in out and "into a new lake" in out
    assert {table: rows(small_lake, table) for table in tables()} == before
    assert all((root / rel).exists() for rel in on_disk), "recover deletes nothing"

    report = ingest([logs[6]], small_lake)
    assert report.ingested == 1 and not report.audits_failed
    assert any(f"{5 * tabled} part files that no manifest lists were left alone" in notice
               for notice in report.notices)
    code, out, _ = cli(capsys, "lake", "recover", "--lake", root, "--json")
    recovery = json.loads(out)
    assert (code, recovery["rebuilt"], recovery["why"]) == (0, False, "the manifest is sound")
    assert len(recovery["aside"]) == 5 * tabled


def assert_refused_without_manifest(capsys: pytest.CaptureFixture, root: Path, log: Path,
                                    on_disk: dict[str, Any]) -> None:
    for argv in (("ingest", log, "--lake", root, "--quiet"),
                 ("stats", "--lake", root, "--game", "vitorian")):
        code, _, err = cli(capsys, *argv)
        line = one_line(err)
        held = 7 * len(WRITTEN)
        assert code == 2 and f"{root / MANIFEST}: missing, yet {root} holds {held} part files" in line
        assert f"`postgame lake recover --lake {root}`" in line and "new lake" in line
        assert snapshot(root) == on_disk, "nothing deleted, nothing written"


def test_recover_keeps_a_broken_manifest_and_leaves_unverifiable_files_aside(
        lake_copy, capsys):
    (lake_copy / MANIFEST).write_text('{"format": 1, "tables": "matches"}')
    junk = lake_copy / "card_events" / JAN / "part-junk-0.parquet"
    junk.write_bytes(b"PAR1 not really PAR1")
    wrong = lake_copy / "seats" / JAN / "part-zzz-0.parquet"  # newest name, matches' columns
    shutil.copy(lake_copy / _first_on_disk(lake_copy, "matches"), wrong)
    code, out, _ = cli(capsys, "lake", "recover", "--lake", lake_copy, "--json")
    recovery = json.loads(out)
    assert code == 0 and recovery["rebuilt"] and "not a lake manifest" in recovery["why"]
    aside = {a["path"]: a["why"] for a in recovery["aside"]}
    assert "not a readable Parquet file" in aside[junk.relative_to(lake_copy).as_posix()]
    assert "is not a seats column" in aside[wrong.relative_to(lake_copy).as_posix()]
    [(old, kept)] = [(m["from"], m["to"]) for m in recovery["moved"]]
    assert old == str(lake_copy / MANIFEST) and "tables" in Path(kept).read_text()
    assert recovery["matches"] == 5 and all(a["ok"] for a in recovery["audits"])
    assert table_counts(Lake(lake_copy))["matches"] == 5


def _first_on_disk(root: Path, table: str) -> str:
    return min(p.relative_to(root).as_posix() for p in (root / table).rglob("*.parquet"))


def test_crash_recovery_removes_only_what_its_ledger_names(copy_logs, small_lake):
    logs = copy_logs(6)
    crashed = ingest_in_subprocess(logs, small_lake, "moving#2")  # a new lake's first commit
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    root = small_lake.root
    ledger = json.loads((root / LEDGER).read_text())
    assert ledger["base"] == 0 and len(ledger["parts"]) == len(WRITTEN)
    assert small_lake.manifest()["version"] == 0 and table_counts(small_lake)["matches"] == 0
    stray = root / "card_events" / "game=vitorian" / "month=2026-03" / "part-stray-0.parquet"
    stray.parent.mkdir(parents=True)
    shutil.copy(root / ledger["parts"][0], stray)
    rerun = ingest_in_subprocess(logs, small_lake, None, "--json")
    assert rerun.returncode == 0, rerun.stderr
    report = json.loads(rerun.stdout)
    assert report["ingested"] == 6 and all(a["ok"] for a in report["audits"])
    assert any("1 part file that no manifest lists was left alone" in n
               for n in report["notices"])
    assert stray.exists() and not (root / LEDGER).exists() and not (root / STAGING).exists()
    on_disk = {p.relative_to(root).as_posix() for p in root.rglob("*.parquet")}
    assert on_disk == listed_paths(small_lake.manifest()) | {stray.relative_to(root).as_posix()}


# ------------------------------------------------------------ 3. the wrong shape

def _not_parquet(root: Path) -> str:
    rel = _first(root, "matches")
    (root / rel).write_bytes(b"these bytes are not Parquet")
    return f"lists {rel}, which is not a Parquet file"


def _missing(root: Path) -> str:
    rel = _first(root, "seats")
    (root / rel).unlink()
    return f"lists {rel}, which is missing"


def _change(change: Callable[[dict[str, Any]], object], why: str) -> Callable[[Path], str]:
    def apply(root: Path) -> str:
        edit_manifest(root, change)
        return why
    return apply


SHAPES: dict[str, Callable[[Path], str]] = {
    "tables is a string": _change(lambda m: m.update(tables="matches"),
                                  "Expected `object`, got `str` - at `$.tables`"),
    "retired is null": _change(lambda m: m.update(retired=None),
                               "Expected `array`, got `null` - at `$.retired`"),
    "an entry without a path": _change(lambda m: m["tables"]["matches"][0].pop("path"),
                                       "Object missing required field `path`"),
    "version is not an int": _change(lambda m: m.update(version="3"),
                                     "Expected `int`, got `str` - at `$.version`"),
    "a listed file is not Parquet": _not_parquet,
    "a listed file is missing": _missing,
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_a_manifest_of_the_wrong_shape_is_one_line_from_every_command_and_deletes_nothing(
        lake_copy, new_log, tmp_path, capsys, shape):
    why = SHAPES[shape](lake_copy)
    before = snapshot(lake_copy)
    commands = {
        "ingest": ("ingest", new_log, "--lake", lake_copy, "--quiet"),
        "stats": ("stats", "--lake", lake_copy, "--game", "vitorian"),
        "matchups": ("matchups", "--lake", lake_copy, "--game", "vitorian"),
        "charges": ("charges", "--lake", lake_copy, "--game", "vitorian"),
        "export": ("export", "--lake", lake_copy, "--game", "vitorian", "--out",
                   tmp_path / "report"),
        "verify": ("verify", new_log, "--lake", lake_copy),
    }
    for name, argv in commands.items():
        code, _, err = cli(capsys, *argv)
        line = one_line(err)
        assert code == 2 and line.startswith(f"postgame {name}: {lake_copy / MANIFEST}: "), line
        assert why in line, line
    assert snapshot(lake_copy) == before, "the expired retired files and staging are still there"
    if not shape.startswith("a listed file"):
        with pytest.raises(LakeError, match=re.escape(why)):
            Lake(lake_copy).manifest()  # what the app shows (dashboards.data.current_lake)


# ------------------------------------------------------------ 4. a lake of layout 1

def test_a_layout_one_lake_is_refused_by_every_command_and_never_misread(
        tmp_path, new_log, capsys):
    """Its seats hold the decks and its matches one winner seat: read as layout 2 the numbers
    would be wrong, not missing. Every command says so in one line and changes nothing."""
    root = write_layout_one_lake(tmp_path / "old")
    before = snapshot(root)
    commands = {
        "ingest": ("ingest", new_log, "--lake", root, "--quiet"),
        "stats": ("stats", "--lake", root, "--game", "vitorian"),
        "matchups": ("matchups", "--lake", root, "--game", "vitorian"),
        "charges": ("charges", "--lake", root, "--game", "vitorian"),
        "export": ("export", "--lake", root, "--game", "vitorian", "--out", tmp_path / "out"),
        "verify": ("verify", new_log, "--lake", root),
        "lake": ("lake", "recover", "--lake", root),
        "app": ("app", "--lake", root),
    }
    for name, argv in commands.items():
        code, out, err = cli(capsys, *argv)
        line = one_line(err)
        assert code == 2 and line.startswith(f"postgame {name}: {root}: a layout-1 lake"), line
        assert "re-ingest its logs into a new lake (`postgame ingest LOGS --lake NEW`)" in line
        assert out == ""
    for read in (Lake(root).manifest, Lake(root).connect, lambda: recover_lake(Lake(root)),
                 lambda: run_audits(Lake(root))):
        with pytest.raises(OtherLayout, match="a layout-1 lake"):
            read()
    with pytest.raises(OtherLayout), Lake(root).writer():
        pass
    after = {rel: entry for rel, entry in snapshot(root).items() if rel != ".lock"}
    assert after == before and not (tmp_path / "out").exists(), "only the writer's lock file"


def test_a_new_lake_says_its_layout_and_a_newer_one_is_refused_too(copy_logs, small_lake):
    ingest(copy_logs(1), small_lake)
    assert json.loads((small_lake.root / MANIFEST).read_text())["layout"] == 2
    edit_manifest(small_lake.root, lambda m: m.update(layout=3))
    with pytest.raises(OtherLayout, match="a layout-3 lake, written by a newer postgame"):
        small_lake.connect()


# ------------------------------------------------------------ 5. two ingests at once

def waiting_on(lock: Path) -> int:
    """How many processes wait for the lock (POSIX locks blocked on its inode, /proc/locks)."""
    inode = f":{lock.stat().st_ino} "
    with open("/proc/locks") as locks:
        return sum("->" in line and inode in line for line in locks)


def ingest_process(paths: list[Path], lake: Lake) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("POSTGAME_LAKE_CRASH", None)
    command = [sys.executable, "-m", "postgame.cli", "ingest", *map(str, paths), "--lake",
               str(lake.root), "--quiet", "--json"]
    return subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


@pytest.mark.skipif(not Path("/proc/locks").exists(), reason="needs /proc/locks (Linux)")
def test_two_ingests_at_once_both_land_and_decide_under_the_lock(copy_logs, small_lake):
    logs = copy_logs(12)
    with small_lake.locked():  # both start, do all they do before the lock, and wait
        first = ingest_process(logs[:7], small_lake)
        second = ingest_process(logs[5:], small_lake)  # two logs in common
        deadline = time.monotonic() + 120
        while waiting_on(small_lake.root / ".lock") < 2 and time.monotonic() < deadline:
            assert first.poll() is None and second.poll() is None
            time.sleep(0.05)
        assert waiting_on(small_lake.root / ".lock") == 2
    reports = []
    for process in (first, second):
        out, err = process.communicate(timeout=300)
        assert process.returncode == 0, err
        reports.append(json.loads(out))
    assert sum(r["ingested"] for r in reports) == 12 and sum(r["skipped"] for r in reports) == 2
    assert all(a["ok"] for r in reports for a in r["audits"])
    assert table_counts(small_lake)["matches"] == 12 and table_counts(small_lake)["seats"] == 24
    on_disk = {p.relative_to(small_lake.root).as_posix()
               for p in small_lake.root.rglob("*.parquet")}
    assert on_disk == listed_paths(small_lake.manifest())
