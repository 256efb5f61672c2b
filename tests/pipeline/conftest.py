"""Fixtures of the pipeline tests: a small simulated season and the lake it ingests into.

`fixture_logs` (the season's log paths) and `fixture_lake` (a pipeline.lake.Lake holding all of
them, audits clean) are session-scoped and shared by every pipeline test: treat both as
read-only; a test that changes a lake copies logs into its own (see `small_lake`). `tally`
registers a made-up team game for the test (tests/pipeline/tally_game.py), and
write_layout_one_lake writes a lake as layout 1 did. (`spark`, the run's Spark session, is in
tests/conftest.py.)
"""
from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from engine.tournament import SeasonConfig, run_season
from pipeline.ingest import IngestReport, find_logs, ingest
from pipeline.lake import Lake
from pipeline.schema import tables

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
def tally() -> Iterator[str]:
    """The made-up team game Tally (tests/pipeline/tally_game.py) registered for the test."""
    from tests.pipeline import tally_game

    tally_game.register()
    try:
        yield tally_game.GAME
    finally:
        tally_game.unregister()


@pytest.fixture
def small_lake(tmp_path: Path) -> Lake:
    """An empty lake of this test's own."""
    return Lake(tmp_path / "lake")


def table_counts(lake: Lake) -> dict[str, int]:
    """Rows per table as a reader sees them."""
    con = lake.connect()
    try:
        counts = {}
        for table in tables():
            (counts[table],) = con.execute(f"SELECT count(*) FROM {table}").fetchall()[0]
        return counts
    finally:
        con.close()



LAYOUT_ONE_TABLES = ("matches", "seats", "deck_cards", "card_events", "quarantine")
"""The tables of a layout-1 lake (before decks left the seats and results went per seat)."""


def write_layout_one_lake(root: Path) -> Path:
    """A lake as layout 1 wrote it: a match with one winner seat, seats carrying their decks,
    and a manifest of that shape (no `layout` field), for the tests of its refusal."""
    import json

    import pyarrow as pa
    import pyarrow.parquet as pq

    files = {
        "matches": pa.table({"match_id": ["vw-2026-001-r1-t1"], "ruleset": ["vitorian"],
                             "first_seat": pa.array([0], pa.int8()),
                             "winner_seat": pa.array([1], pa.int8()),
                             "turns": pa.array([7], pa.int32())}),
        "seats": pa.table({"match_id": ["vw-2026-001-r1-t1"] * 2,
                           "seat": pa.array([0, 1], pa.int8()), "deck_id": ["d0", "d1"],
                           "deck_name": ["red", "blue"], "faction": ["red", "blue"],
                           "leader": ["ST01-001", "ST02-001"], "is_first": [True, False],
                           "result": ["loss", "win"]}),
    }
    listed: dict[str, list[dict[str, object]]] = {table: [] for table in LAYOUT_ONE_TABLES}
    for table, data in files.items():
        rel = f"{table}/game=vitorian/month=2026-01/part-20260131T100000000000-abcdef-0.parquet"
        (root / rel).parent.mkdir(parents=True)
        pq.write_table(data, root / rel)
        listed[table].append({"path": rel, "rows": data.num_rows,
                              "bytes": (root / rel).stat().st_size})
    manifest = {"format": 1, "version": 1, "batch": "20260131T100000000000-abcdef",
                "committed_at": "2026-01-31T10:00:00+00:00", "tables": listed, "retired": []}
    (root / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return root
