"""`--engine spark` on the commands that read a lake: stats, matchups, charges and export print
exactly what they print on DuckDB (the default), and a --master without Spark, or a Spark that
cannot start, is a one-line error with exit status 2."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from postgame.cli import main


@pytest.fixture(scope="module")
def lake(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("commands-on-spark")
    assert main(["simulate", "eredan", "--players", "8", "--rounds", "3", "--tournaments", "4",
                 "--seed", "3", "--out", str(root / "logs"), "--workers", "1", "--quiet"]) == 0
    assert main(["ingest", str(root / "logs"), "--lake", str(root / "lake"), "--quiet"]) == 0
    return root / "lake"


def output(capsys: Any, *argv: str) -> str:
    capsys.readouterr()
    assert main(list(argv)) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return captured.out


@pytest.mark.parametrize("argv", [
    ["stats", "--json"],
    ["stats", "--table", "factions", "--csv"],
    ["stats", "--format", "standard", "--min-sample", "5", "--sort", "deck_win_rate", "--csv"],
    ["matchups", "--json"],
    ["charges", "--json"],
    ["charges", "--history", "--csv"],
    ["charges", "--movers", "5", "--json"],
], ids=lambda argv: " ".join(argv))
def test_a_report_on_spark_is_the_report_on_duckdb(spark, capsys, lake, argv):
    on_duckdb = output(capsys, *argv, "--lake", str(lake))
    on_spark = output(capsys, *argv, "--lake", str(lake), "--engine", "spark")
    assert on_spark == on_duckdb and len(on_duckdb) > 200


def test_an_export_on_spark_writes_the_same_tables_and_says_so(spark, capsys, lake, tmp_path):
    for engine in ("duckdb", "spark"):
        output(capsys, "export", "--lake", str(lake), "--out", str(tmp_path / engine),
               "--as", "csv", "--engine", engine)
    tables = sorted(p.name for p in (tmp_path / "duckdb").glob("*.csv"))
    assert len(tables) >= 8 and "charges.csv" in tables
    for name in tables:
        assert (tmp_path / "spark" / name).read_bytes() == (tmp_path / "duckdb" / name).read_bytes()
    about = json.loads((tmp_path / "spark" / "about.json").read_text())
    assert about["source"]["engine"] == "spark"


def test_a_master_without_spark_is_refused(capsys, lake):
    assert main(["stats", "--lake", str(lake), "--master", "local[2]"]) == 2
    err = capsys.readouterr().err
    assert err == "postgame stats: --master chooses where Spark runs: it needs --engine spark\n"


def test_a_spark_that_cannot_start_is_one_line(capsys, lake, monkeypatch):
    from pyspark.sql import SparkSession

    import pipeline.spark as spark_module

    monkeypatch.setattr(SparkSession, "getActiveSession", staticmethod(lambda: None))
    monkeypatch.setattr(spark_module.shutil, "which", lambda name: None)
    monkeypatch.delenv("JAVA_HOME", raising=False)
    assert main(["matchups", "--lake", str(lake), "--engine", "spark"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("postgame matchups: Spark needs a Java runtime") and err.count("\n") == 1
