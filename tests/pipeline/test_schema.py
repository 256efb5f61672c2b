"""The lake's tables as a game designer adds a game: the core tables every game writes, the
capability tables its metadata declares, and the tables its fact extractor declares for itself,
which the lake then lays out, lists, reads and audits like any other."""
from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa
import pytest

from pipeline import schema
from pipeline.audits import all_audits, run_audits
from pipeline.lake import Lake
from pipeline.lake_layout import layout_table, new_batch_id, part_path
from pipeline.schema import game_tables, partitioned, tables
from tests.pipeline.tally_game import GAME, SCORES, TallyFacts, tally_row

WHEN = datetime(2026, 1, 31, 10, 0, tzinfo=UTC)


def test_the_card_games_write_the_core_and_their_capability_tables():
    for game in ("vitorian", "eredan"):
        assert list(game_tables(game)) == ["matches", "seats", "decks", "deck_cards",
                                           "card_events"]
    own = {t for g in ("v20",) for t in game_tables(g)} - {"matches", "seats"}
    assert set(tables()) == {"matches", "seats", "quarantine", "decks", "deck_cards",
                             "card_events"} | own | set(schema.ROLLUPS)
    assert own == {"v20_characters", "v20_rolls", "v20_damage", "v20_statuses", "v20_spends"}
    assert "quarantine" not in partitioned() and set(partitioned()) == set(tables()) - {
        "quarantine"}


def test_every_partitioned_table_starts_with_the_match_and_its_partition():
    for name in partitioned():
        keys = ["game", "month"] if name in schema.ROLLUPS else ["match_id", "game", "month"]
        assert tables()[name].names[:len(keys)] == keys, name


def test_the_layout_two_columns():
    assert "winner_seat" not in schema.MATCHES.names
    assert {"seats", "is_draw", "winning_side", "scenario", "first_seat"} <= set(
        schema.MATCHES.names)
    assert schema.SEATS.names == ["match_id", "game", "month", "seat", "player", "side", "role",
                                  "setup_id", "setup_name", "is_first", "result"]
    assert schema.DECKS.names == ["match_id", "game", "month", "seat", "deck_id", "deck_name",
                                  "faction", "leader"]


def test_a_game_declares_its_own_table(tally):
    assert tables()["tally_scores"] == SCORES and "tally_scores" in partitioned()
    assert list(game_tables(GAME)) == ["matches", "seats", "tally_scores"]
    rel = part_path(("tally_scores", GAME, "2026-01"), "b1")
    assert rel == "tally_scores/game=tally/month=2026-01/part-b1-0.parquet"
    assert layout_table(rel) == "tally_scores"


def tally_lake(root: Path, **more: list[dict]) -> Lake:
    """One Tally match (the hunters win; no log: Tally is never played), and `more` rows,
    committed through the lake's writer."""
    rows = {
        "matches": [tally_row(started_at=WHEN, first_seat=None, seats=2, is_draw=False,
                              winning_side="hunters", turns=3, events=9, format="standard",
                              ruleset="tally", ruleset_version=1, content_hash="0" * 32,
                              log_path=str(root / "ta-1.pglog"))],
        "seats": [tally_row(seat=0, player="Vlad", side="dracula", role="Dracula",
                            is_first=False, result="loss"),
                  tally_row(seat=1, player="Mina", side="hunters", role="Mina Harker",
                            is_first=False, result="win")],
        **more,
    }
    lake = Lake(root)
    with lake.writer() as writer:
        writer.commit(new_batch_id(), {(name, GAME, "2026-01"): _table(name, found)
                                       for name, found in rows.items()})
    return lake


def test_its_rows_go_in_are_read_and_audited(tally, tmp_path):
    lake = tally_lake(tmp_path / "lake", tally_scores=[
        tally_row(seat=0, points=3), tally_row(seat=1, points=5),
        {**tally_row(seat=0, points=1), "match_id": "ghost"}])
    assert [p.parent.parent.parent.name for p in lake.files("tally_scores")] == ["tally_scores"]
    con = lake.connect()
    assert con.execute("SELECT sum(points) FROM tally_scores").fetchone() == (9,)
    failed = {r.name: r for r in run_audits(lake) if not r.ok}
    assert set(failed) == {"tally_scores_reference_matches"}
    assert failed["tally_scores_reference_matches"].rows[0][0] == "ghost"


def test_the_audits_of_a_games_own_table_are_made_for_it(tally):
    [audit] = [a for a in all_audits() if a.name == "tally_scores_reference_matches"]
    assert "tally match" in audit.must_hold


def _table(name: str, rows: list[dict]) -> pa.Table:
    from pipeline.lake_layout import file_schema

    full = tables()[name]
    data = pa.Table.from_pylist([{f.name: r.get(f.name) for f in full} for r in rows], full)
    return data.select(file_schema(name).names)


@pytest.mark.parametrize("declared, message", [
    ({"scores": pa.schema([("seat", pa.int8())])}, "must start with the columns match_id"),
    ({"Scores!": SCORES}, "lower case letters, digits and _"),
])
def test_a_table_the_lake_cannot_hold_is_refused(tally, monkeypatch, declared, message):
    monkeypatch.setattr(TallyFacts, "TABLES", declared)
    schema._tables.cache_clear()
    try:
        with pytest.raises(schema.TableError, match=message):
            tables()
    finally:
        schema._tables.cache_clear()
