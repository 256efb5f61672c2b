"""The app's one data module: filters travel as bound parameters, a faction scopes the card
metrics to that faction's decks, and the report downloads are pipeline.export's own files."""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

import duckdb
import pytest

from dashboards import data
from dashboards.replaying import ReplayUnavailable
from pipeline import metrics
from pipeline.lake import Lake


@pytest.fixture
def lake(fixture_lake: Lake, monkeypatch: pytest.MonkeyPatch) -> data.LakeRef:
    monkeypatch.setenv(data.LAKE_ENV, str(fixture_lake.root))
    return data.current_lake()


def test_the_lake_is_keyed_by_its_manifest_version(lake: data.LakeRef,
                                                   fixture_lake: Lake) -> None:
    assert lake == data.LakeRef(str(Path(fixture_lake.root).resolve()),
                                fixture_lake.manifest()["version"])


@pytest.mark.parametrize("hostile", ["O'Brien", "x' OR '1'='1", "'); DROP VIEW matches; --"])
def test_filters_are_bound_never_spliced_into_sql(lake: data.LakeRef, hostile: str) -> None:
    assert data.find_matches(lake, "vitorian", tournament=hostile).empty
    assert data.find_matches(lake, "vitorian", player=hostile).empty
    assert data.find_matches(lake, "vitorian", card=hostile).empty
    assert data.match_log_path(lake, hostile) is None
    assert len(data.find_matches(lake, hostile)) == 0
    assert len(data.find_matches(lake, "vitorian")) > 0  # the views are all still there


def test_matches_found_by_card_all_played_it(lake: data.LakeRef,
                                             lake_con: duckdb.DuckDBPyConnection) -> None:
    card = data.played_cards(lake, "vitorian")["card"].iloc[0]
    found = data.find_matches(lake, "vitorian", card=card)
    with_card = {row[0] for row in lake_con.execute(
        "SELECT DISTINCT match_id FROM card_events WHERE kind = 'played' AND card = ?",
        [card]).fetchall()}
    assert set(found["match_id"]) == with_card


def test_a_faction_scopes_card_stats_to_its_decks(lake: data.LakeRef,
                                                  lake_con: duckdb.DuckDBPyConnection) -> None:
    faction = data.factions(lake, "vitorian")[0]
    scoped = data.card_stats(lake, "vitorian", None, None, None, faction, 0)
    everyone = data.card_stats(lake, "vitorian", None, None, None, None, 0)
    found = lake_con.execute("SELECT count(*) FROM decks WHERE faction = ?",
                             [faction]).fetchone()
    assert found is not None
    decks = found[0]
    assert set(scoped["decks"]) == {decks}
    assert everyone.equals(metrics.card_usage(lake_con, "vitorian"))
    again = data.card_stats(lake, "vitorian", None, None, None, None, 0)
    assert again.equals(everyone)  # the faction's cursor did not leak into the others


def test_replays_open_only_matches_the_lake_lists(lake: data.LakeRef) -> None:
    with pytest.raises(ReplayUnavailable, match="no match"):
        data.replay_cursor(lake, "../../etc/passwd")
    match_id = data.find_matches(lake, "vitorian")["match_id"].iloc[0]
    cursor = data.replay_cursor(lake, match_id)
    assert data.replay_frame(lake, match_id, 0, "organiser").total == cursor.total


@pytest.mark.parametrize("form", sorted(data.REPORT_FORMS))
def test_each_report_form_downloads_as_one_file(lake: data.LakeRef, form: str) -> None:
    body = data.report_file(lake, form, "vitorian", None, None, None, 0)
    name, _ = data.REPORT_FORMS[form]
    if form == "html":
        assert body.lstrip().lower().startswith((b"<!doctype html", b"<html"))
    else:
        assert body[:2] == b"PK"  # xlsx and the zips are zip archives
    if name.endswith(".zip"):
        names = zipfile.ZipFile(io.BytesIO(body)).namelist()
        assert "about.json" in names and f"card_usage.{form}" in names
