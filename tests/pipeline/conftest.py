"""Fixtures of the pipeline tests: a small simulated season and the lake it ingests into.

`fixture_logs` (the season's log paths) and `fixture_lake` (a pipeline.lake.Lake holding all of
them, audits clean) are session-scoped and shared by every pipeline test: treat both as
read-only; a test that changes a lake copies logs into its own (see `small_lake`).
"""
from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.tournament import SeasonConfig, run_season
from pipeline.ingest import IngestReport, find_logs, ingest
from pipeline.lake import Lake

SEASON = SeasonConfig(game="vitorian", players=8, rounds=3, seed=11, out=Path("unused"),
                      tournaments=4)
"""4 tournaments x 3 rounds x 4 tables: 48 matches over two months (January and February)."""


@pytest.fixture(scope="session")
def fixture_logs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """`postgame simulate vitorian --players 8 --rounds 3 --tournaments 4 --seed 11`."""
    out = tmp_path_factory.mktemp("season")
    run_season(SeasonConfig(**{**SEASON.__dict__, "out": out}))
    logs = find_logs([out])
    assert len(logs) == 48
    return logs


@pytest.fixture(scope="session")
def fixture_report(tmp_path_factory: pytest.TempPathFactory,
                   fixture_logs: list[Path]) -> IngestReport:
    """The season ingested by two workers in batches of 16 (so the lake has several files)."""
    lake = Lake(tmp_path_factory.mktemp("fixture-lake") / "lake")
    report = ingest(fixture_logs, lake, workers=2, batch_size=16)
    assert report.ingested == len(fixture_logs) and not report.quarantined
    assert not report.audits_failed, [a.to_json() for a in report.audits_failed]
    return report


@pytest.fixture(scope="session")
def fixture_lake(fixture_report: IngestReport) -> Lake:
    return Lake(fixture_report.lake)


@pytest.fixture
def copy_logs(tmp_path: Path, fixture_logs: list[Path]) -> Callable[[int], list[Path]]:
    """copy_logs(n): the first n season logs copied into this test's folder (free to damage)."""
    def copy(n: int) -> list[Path]:
        folder = tmp_path / "logs"
        folder.mkdir(exist_ok=True)
        return [Path(shutil.copy(src, folder / src.name)) for src in fixture_logs[:n]]
    return copy


@pytest.fixture
def small_lake(tmp_path: Path) -> Lake:
    """An empty lake of this test's own."""
    return Lake(tmp_path / "lake")


def table_counts(lake: Lake) -> dict[str, int]:
    """Rows per table as a reader sees them."""
    con = lake.connect()
    try:
        counts = {}
        for table in ("matches", "seats", "deck_cards", "card_events", "quarantine"):
            (counts[table],) = con.execute(f"SELECT count(*) FROM {table}").fetchall()[0]
        return counts
    finally:
        con.close()

