"""Ingest on Spark as an organiser relies on it: on logs of every registered game, bad ones among
them, a Spark ingest makes the lake a default ingest makes, table by table and quarantine
reason by reason; running it again changes nothing; a Spark ingest killed half way leaves the
lake as it was (or at its last commit) and a later one completes it; and the command runs it,
or says in one line why Spark cannot run here."""
from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine import registry
from events.log import read_log, write_log
from pipeline.ingest import ChunkTask, IngestReport, find_logs, ingest
from pipeline.lake import Lake
from pipeline.lake_durable import CRASH_ENV
from pipeline.lake_layout import MANIFEST
from pipeline.schema import tables
from pipeline.spark import SparkError
from postgame.cli import main
from tests.pipeline.test_ingest import assert_clean

ROOT = Path(__file__).resolve().parents[2]
SEASONS: dict[str, list[str]] = {
    "vitorian": ["--players", "8", "--rounds", "2", "--tournaments", "2"],
    "eredan": ["--players", "8", "--rounds", "2", "--tournaments", "2"],
    "v20": ["--matches", "1"],
}
"""`postgame simulate GAME ... --seed 5` of each registered game: 16 matches each."""
BATCH = 20
"""Logs per commit: the 57 logs make three batches, each several Spark jobs of chunks."""
PER_RUN = ("batch", "ingested_at", "quarantined_at")
"""The columns that say which run wrote a row, so differ between any two runs."""
MASTER = "local[2]"


@dataclass(frozen=True)
class Logs:
    folder: Path
    paths: list[Path]
    """Every log, in the order ingest takes them (find_logs)."""


def bad_logs(good: Path, folder: Path) -> None:
    """A log cut short, one with a byte changed, and another content under its match id."""
    data = good.read_bytes()
    (folder / f"{good.stem}-truncated.pglog").write_bytes(data[:-5])
    tampered = bytearray(data)
    tampered[len(data) // 2] ^= 0x40
    (folder / f"{good.stem}-tampered.pglog").write_bytes(bytes(tampered))
    log = read_log(good)
    write_log(folder / f"{good.stem}-other.pglog",
              msgspec.structs.replace(log.header, seed=(log.header.seed or 0) + 1), log.events)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Logs:
    """Each game's season, then (found last) three bad logs made from each game's first."""
    folder = tmp_path_factory.mktemp("spark-ingest") / "logs"
    for game, argv in SEASONS.items():
        assert main(["simulate", game, *argv, "--seed", "5", "--out", str(folder / game),
                     "--workers", "1", "--quiet"]) == 0
    bad = folder / "zz-bad"
    bad.mkdir()
    for game in SEASONS:
        bad_logs(find_logs([folder / game])[0], bad)
    return Logs(folder, find_logs([folder]))


@pytest.fixture(scope="module")
def default_lake(logs: Logs, tmp_path_factory: pytest.TempPathFactory) -> tuple[Lake,
                                                                                  IngestReport]:
    lake = Lake(tmp_path_factory.mktemp("default") / "lake")
    return lake, ingest([logs.folder], lake, batch_size=BATCH)


@dataclass
class SparkRun:
    lake: Lake
    report: IngestReport
    progress: list[tuple[int, int]]


@pytest.fixture(scope="module")
def spark_run(spark: Any, logs: Logs, tmp_path_factory: pytest.TempPathFactory) -> SparkRun:
    lake = Lake(tmp_path_factory.mktemp("spark") / "lake")
    calls: list[tuple[int, int]] = []
    report = ingest([logs.folder], lake, batch_size=BATCH, engine="spark", master=MASTER,
                    progress=lambda done, total: calls.append((done, total)))
    return SparkRun(lake, report, calls)


def table_rows(lake: Lake) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows as a reader sees them, sorted, without the per-run columns."""
    con = lake.connect()
    try:
        found = {}
        for table, schema in tables().items():
            per_run = [c for c in PER_RUN if c in schema.names]
            columns = f"* EXCLUDE ({', '.join(per_run)})" if per_run else "*"
            found[table] = con.execute(f"SELECT {columns} FROM {table} ORDER BY ALL").fetchall()
        return found
    finally:
        con.close()


def assert_same_tables(lake: Lake, expected: Lake) -> None:
    got, wanted = table_rows(lake), table_rows(expected)
    for table in tables():
        assert got[table] == wanted[table], table


# ------------------------------------------------------------ the same lake as a default ingest

def test_every_game_postgame_ships_has_a_season_here():
    assert sorted(SEASONS) == sorted(registry.BUILTIN)  # the games postgame ships


def test_a_spark_ingest_makes_the_lake_a_default_ingest_makes(default_lake, spark_run, logs):
    lake, report = default_lake
    assert_same_tables(spark_run.lake, lake)
    spark = spark_run.report
    assert (spark.ingested, spark.skipped, spark.events) == (report.ingested, report.skipped,
                                                             report.events)
    assert [(q.path, q.rule, q.seq, q.reason) for q in spark.quarantined] == \
        [(q.path, q.rule, q.seq, q.reason) for q in report.quarantined]
    assert spark.cap_unchecked == report.cap_unchecked
    assert not spark.audits_failed and not report.audits_failed
    assert spark.workers == 2, "local[2]: two tasks at a time"
    assert spark.batches == report.batches == 3


def test_the_bad_logs_are_quarantined_for_their_reasons(spark_run):
    found = Counter((Path(q.path).stem.rpartition("-")[2], q.rule)
                    for q in spark_run.report.quarantined)
    games = len(SEASONS)
    assert found == {("truncated", "LOG"): games, ("tampered", "LOG"): games,
                     ("other", "DUPLICATE"): games}


def test_progress_counts_every_log(spark_run, logs):
    calls = spark_run.progress
    assert calls[0] == (0, len(logs.paths)) and calls[-1] == (len(logs.paths),) * 2
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


# ------------------------------------------------------------ idempotent

def test_a_spark_ingest_again_changes_nothing(spark_run, logs):
    manifest = (spark_run.lake.root / MANIFEST).read_bytes()
    rows = table_rows(spark_run.lake)
    again = ingest([logs.folder], spark_run.lake, batch_size=BATCH, engine="spark")
    assert (again.ingested, again.skipped, again.quarantined) == (0, len(logs.paths), [])
    assert (spark_run.lake.root / MANIFEST).read_bytes() == manifest
    assert table_rows(spark_run.lake) == rows


# ------------------------------------------------------------ crashes

def spark_ingest_in_subprocess(folder: Path, lake: Lake, crash: str) -> int:
    """`postgame ingest --engine spark` killed at the crash point; waits until the whole process
    group (the driver, its JVM, Spark's Python workers) is gone."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), CRASH_ENV: crash}
    command = [sys.executable, "-m", "postgame.cli", "ingest", str(folder), "--lake",
               str(lake.root), "--quiet", "--engine", "spark", "--master", MASTER,
               "--batch-size", str(BATCH)]
    process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        code = process.wait(timeout=120)
        assert group_ends(process.pid), "a killed driver's JVM or workers left running"
        return code
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)


def group_ends(group: int, within_s: float = 30.0) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.2)
    return False


@pytest.fixture
def partial_lake(tmp_path: Path, logs: Logs) -> Iterator[tuple[Lake, Lake]]:
    """(a lake holding the first batch's logs, and a default ingest of those same logs)."""
    first = logs.paths[:BATCH]
    lake, expected = Lake(tmp_path / "lake"), Lake(tmp_path / "expected")
    ingest(first, lake)
    ingest(first, expected)
    yield lake, expected


def test_a_spark_ingest_killed_before_its_manifest_leaves_the_lake_as_it_was(
        spark, partial_lake, logs, default_lake):
    lake, _ = partial_lake
    manifest, rows = (lake.root / MANIFEST).read_bytes(), table_rows(lake)
    assert spark_ingest_in_subprocess(logs.folder, lake, "staged") == -signal.SIGKILL
    assert (lake.root / MANIFEST).read_bytes() == manifest
    assert table_rows(lake) == rows
    rerun = ingest([logs.folder], lake, batch_size=BATCH, engine="spark")
    assert rerun.skipped == BATCH and not rerun.audits_failed
    assert_same_tables(lake, default_lake[0])
    assert_clean(lake)


def test_a_spark_ingest_killed_in_its_second_commit_keeps_the_first(
        spark, tmp_path, partial_lake, logs, default_lake):
    lake = Lake(tmp_path / "crashed")
    assert spark_ingest_in_subprocess(logs.folder, lake, "moved#2") == -signal.SIGKILL
    assert_same_tables(lake, partial_lake[1])
    rerun = ingest([logs.folder], lake, batch_size=BATCH, engine="spark")
    assert rerun.skipped == BATCH and not rerun.audits_failed
    assert_same_tables(lake, default_lake[0])
    assert_clean(lake)


# ------------------------------------------------------------ the command

def test_the_command_ingests_on_spark_with_json(spark, logs, tmp_path, capsys):
    season = logs.folder / "v20"
    lake = tmp_path / "lake"
    code = main(["ingest", str(season), "--lake", str(lake), "--engine", "spark", "--json"])
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert code == 0, err
    assert (report["engine"], report["workers"]) == ("spark", 2)
    assert (report["ingested"], report["quarantined"]) == (len(find_logs([season])), 0)
    assert all(a["ok"] for a in report["audits"])


def test_spark_that_cannot_start_is_a_one_line_error(logs, tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspark.sql", None)  # as if pyspark were not installed
    lake = tmp_path / "lake"
    code = main(["ingest", str(logs.folder / "v20"), "--lake", str(lake), "--engine", "spark"])
    _, err = capsys.readouterr()
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("postgame ingest: Spark is not installed")
    assert not lake.exists(), "Spark is started before the lake is touched"


def test_master_without_spark_is_a_one_line_error(logs, tmp_path, capsys):
    code = main(["ingest", str(logs.folder / "v20"), "--lake", str(tmp_path / "lake"),
                 "--master", MASTER])
    _, err = capsys.readouterr()
    assert code == 2 and err == ("postgame ingest: --master chooses where Spark runs: it needs "
                                 "--engine spark\n")


def test_a_failing_task_is_a_one_line_spark_error(spark):
    from pipeline.spark_ingest import run_job

    task = ChunkTask(("nowhere.pglog",), "a-batch", datetime.now(UTC))
    with pytest.raises(SparkError) as raised:
        run_job(spark.sparkContext, "a-run", lambda task: 1 / 0, [task])
    message = str(raised.value)
    assert "\n" not in message
    assert message.startswith("Spark's tasks failed: ZeroDivisionError: division by zero")
