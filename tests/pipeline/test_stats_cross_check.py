"""The pandas suite (pipeline.stats_cross_check) as the scale benchmark runs it: read from the
lake's Parquet files with pandas alone (read_lake, SUITE_COLUMNS), every model of the game's
suite gives the numbers of the DuckDB suite (metrics.run_all) on the fixture lake, to 1e-9, in
every scope; and the suite cannot grow a model that has no reference. (Each model against
DuckDB's own reading of the facts, on hand-told and random seasons: tests/pipeline/test_metrics.py.)
"""
from __future__ import annotations

from datetime import date

import pytest

from pipeline import metrics
from pipeline import stats_cross_check as ref
from pipeline.archetypes import _CLUSTERED
from tests.pipeline.test_metrics import FACT_TABLES, SCOPES, assert_same

GAME = "vitorian"


@pytest.fixture(scope="module")
def lake_files(fixture_lake):
    """The fixture lake's tables as pandas reads its files, beside a DuckDB connection."""
    con = fixture_lake.connect()
    yield con, ref.read_lake(fixture_lake, ref.SUITE_COLUMNS)
    con.close()


def test_the_files_hold_every_row_duckdb_reads(lake_files):
    con, facts = lake_files
    for table in FACT_TABLES:
        (rows,) = con.execute(f"SELECT count(*) FROM {table}").fetchone()
        assert len(facts[table]) == rows > 0, table
        assert set(facts[table]["game"]) == {GAME}


@pytest.mark.parametrize("scope", SCOPES + [{"date_to": date(2026, 1, 31)}],
                         ids=lambda s: ",".join(s) or "all")
def test_the_pandas_suite_is_the_duckdb_suite(lake_files, scope):
    con, facts = lake_files
    _CLUSTERED.clear()  # each side clusters its own deck lists
    sql = metrics.run_all(con, GAME, **scope)
    _CLUSTERED.clear()
    pandas = ref.run_all(facts, GAME, **scope)
    assert list(pandas) == list(sql) == list(metrics.suite(GAME))
    for model, frame in sql.items():
        assert_same(frame, pandas[model], model)
    if not scope:
        assert all(not frame.empty for frame in pandas.values())


@pytest.mark.parametrize("game", ["vitorian", "eredan", "not-a-game"])
def test_every_suite_model_has_its_reference(game):
    assert list(ref.suite(game)) == list(metrics.suite(game))


def test_a_suite_model_without_a_reference_is_refused_by_name(monkeypatch):
    monkeypatch.setattr(metrics, "suite", lambda game: ("coverage", "sovereign_rates"))
    with pytest.raises(KeyError, match="sovereign_rates of vitorian's suite"):
        ref.run_all({}, GAME)
