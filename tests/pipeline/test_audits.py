"""Audits as a data engineer relies on them: each states what must hold, none finds anything on
a lake that ingest built, and each catches the breakage it is about, with the offending rows,
loudly in the command's output (and --strict fails)."""
from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from pipeline.audits import (
    AuditError,
    all_audits,
    game_metadata,
    load_audits,
    parse_audit,
    run_audits,
)
from pipeline.lake import Lake
from pipeline.lake_layout import new_batch_id
from pipeline.schema import tables
from postgame.cli import main

WHEN = datetime(2026, 1, 31, 10, 0, tzinfo=UTC)


def test_every_audit_states_what_must_hold():
    audits = load_audits()
    assert len(audits) >= 8
    for audit in audits:
        text = audit.path.read_text()
        assert text.startswith("-- must hold: ") and "\n-- grain: " in text, audit.name
        assert len(audit.must_hold) > 30 and not audit.sql.endswith(";")


def test_an_audit_without_its_statement_is_refused(tmp_path):
    path = tmp_path / "bad.sql"
    path.write_text("SELECT 1 WHERE false\n")
    with pytest.raises(AuditError, match="bad.sql: line 1: an audit starts with"):
        parse_audit(path)


def test_no_audit_finds_anything_on_the_fixture_lake(fixture_lake):
    results = run_audits(fixture_lake)
    assert [r.name for r in results] == [a.name for a in all_audits()]  # files, then tables
    assert any(r.name == "v20_rolls_reference_matches" for r in results)
    assert all(r.ok for r in results), [r.to_json() for r in results if not r.ok]


def test_audits_run_on_an_empty_lake(tmp_path):
    assert all(r.ok for r in run_audits(Lake(tmp_path / "none")))


# ------------------------------------------------------------ broken lakes

def rows(table: str, *dicts: dict[str, Any]) -> pa.Table:
    schema = tables()[table]
    return pa.Table.from_pylist([{f.name: d.get(f.name) for f in schema} for d in dicts], schema)


def match(mid: str, **more: Any) -> dict[str, Any]:
    return {"match_id": mid, "game": "vitorian", "month": "2026-01", "started_at": WHEN,
            "first_seat": 0, "seats": 2, "is_draw": False, "turns": 5, "events": 40, **more}


def seat(mid: str, number: int, result: str, deck: str = "d1", **more: Any) -> dict[str, Any]:
    """A seat and its deck in one dict (rows() keeps each table's columns)."""
    return {"match_id": mid, "game": "vitorian", "month": "2026-01", "seat": number,
            "setup_id": deck, "deck_id": deck, "is_first": number == 0, "result": result,
            **more}


def card_line(mid: str, number: int, card: str = "ST01-002", deck: str = "d1") -> dict[str, Any]:
    return {"match_id": mid, "game": "vitorian", "month": "2026-01", "seat": number,
            "deck_id": deck, "section": "maneuver", "card": card, "copies": 4}


def event(mid: str, card: str = "ST01-002", **more: Any) -> dict[str, Any]:
    return {"match_id": mid, "game": "vitorian", "month": "2026-01", "seq": 3, "turn": 1,
            "seat": 0, "card": card, "kind": "drawn", **more}


def whole_match(mid: str, *results: str, **more: Any) -> dict[str, pa.Table]:
    """A sound match (seat 0 beats seat 1, unless `results` says otherwise), its decks and
    their cards."""
    seats = [seat(mid, n, result) for n, result in enumerate(results or ("win", "loss"))]
    return {"matches": rows("matches", match(mid, seats=len(seats), **more)),
            "seats": rows("seats", *seats), "decks": rows("decks", *seats),
            "deck_cards": rows("deck_cards", *(card_line(mid, n) for n in range(len(seats))))}


BREAKAGES: dict[str, tuple[dict[str, pa.Table], set[str]]] = {
    "a card event of no match": (
        {"card_events": rows("card_events", event("ghost"))},
        {"facts_reference_matches", "card_events_in_deck"}),
    "a third seat": (
        {"seats": rows("seats", seat("vw-2026-001-r1-t1", 2, "win"))},
        {"seats_per_match", "results_consistent", "win_counts_add_up", "decks_one_per_seat"}),
    "three seats where Vitorian plays two": (
        whole_match("x6", "win", "loss", "loss"), {"seats_per_match"}),
    "seats numbered from 1": (
        {**whole_match("x7"), "seats": rows("seats", seat("x7", 1, "win"), seat("x7", 2, "loss"))},
        {"seats_per_match", "first_seat_marked", "decks_one_per_seat"}),
    "two winners of a game of one-seat sides": (
        whole_match("x1", "win", "win"), {"results_consistent"}),
    "a draw with a winner": (
        whole_match("x8", "win", "draw", is_draw=True),
        {"results_consistent", "win_counts_add_up"}),
    "a decided match with a draw in it": (
        whole_match("x9", "win", "draw"), {"results_consistent", "win_counts_add_up"}),
    "a winning side no winner sits on": (
        {**whole_match("x10", winning_side="seat 1"),
         "seats": rows("seats", seat("x10", 0, "win", side="seat 0"),
                       seat("x10", 1, "loss", side="seat 1"))},
        {"results_consistent"}),
    "a side the game does not have": (
        {**whole_match("x11"), "seats": rows("seats", seat("x11", 0, "win", side="hunters"),
                                             seat("x11", 1, "loss"))},
        {"seat_sides_known"}),
    "a role on a side without roles": (
        {**whole_match("x12"), "seats": rows("seats", seat("x12", 0, "win", side="seat 0",
                                                            role="Dracula"),
                                             seat("x12", 1, "loss"))},
        {"seat_sides_known"}),
    "a first seat no seat is marked for": (
        {**whole_match("x13"), "seats": rows("seats", seat("x13", 0, "win", is_first=False),
                                             seat("x13", 1, "loss"))},
        {"first_seat_marked"}),
    "a seat marked first in a match without a first seat": (
        whole_match("x14", first_seat=None), {"first_seat_marked"}),
    "a seat with no deck": (
        {**whole_match("x2"), "deck_cards": rows("deck_cards", card_line("x2", 0))},
        {"decks_have_cards"}),
    "a seat without its decks row": (
        {**whole_match("x15"), "decks": rows("decks", seat("x15", 0, "win"))},
        {"decks_one_per_seat"}),
    "a deck that is not the seat's setup": (
        {**whole_match("x16"), "decks": rows("decks", seat("x16", 0, "win"),
                                             seat("x16", 1, "loss", deck_id="other"))},
        {"decks_one_per_seat", "decks_have_cards"}),
    "a card in two sections of a deck": (
        {**whole_match("x5"), "deck_cards": rows(
            "deck_cards", card_line("x5", 0), {**card_line("x5", 0), "section": "convoy"},
            card_line("x5", 1))},
        {"decks_have_cards"}),
    "a match twice": (
        {"matches": rows("matches", match("vw-2026-001-r1-t1"))},
        {"matches_unique", "seats_per_match", "first_seat_marked", "win_counts_add_up",
         "card_events_in_bounds"}),
    "a card credited to the wrong deck": (
        {**whole_match("x3"), "card_events": rows("card_events", event("x3", "ST02-002"))},
        {"card_events_in_deck"}),
    "a drawn card before turn 1 and past the log": (
        {**whole_match("x4"), "card_events": rows("card_events", event("x4", turn=0, seq=99))},
        {"card_events_in_bounds"}),
    "a card event of a seat the match does not have": (
        {**whole_match("x17"), "card_events": rows("card_events", event("x17", seat=2))},
        {"card_events_in_bounds", "card_events_in_deck"}),
    "a quarantined log without a reason": (
        {"quarantine": rows("quarantine", {"path": "/x.pglog", "rule": "LOG", "reason": ""})},
        {"quarantine_explained"}),
}


def broken_lake(fixture_lake: Lake, folder: Path, tables: dict[str, pa.Table]) -> Lake:
    lake = Lake(folder / "broken")
    shutil.copytree(fixture_lake.root, lake.root)
    with lake.writer() as writer:
        parts = {(name, None, None) if name == "quarantine" else (name, "vitorian", "2026-01"):
                 table for name, table in tables.items()}
        writer.commit(new_batch_id(), parts)
    return lake


@pytest.mark.parametrize("breakage", list(BREAKAGES))
def test_each_breakage_is_caught_by_its_audit_with_the_offending_rows(fixture_lake, tmp_path,
                                                                      breakage):
    tables, expected = BREAKAGES[breakage]
    lake = broken_lake(fixture_lake, tmp_path, tables)
    failed = {r.name: r for r in run_audits(lake) if not r.ok}
    assert set(failed) == expected
    for result in failed.values():
        assert result.rows and result.count == len(result.rows)


def test_a_failed_audit_is_loud_and_fails_strict(fixture_lake, tmp_path, capsys):
    lake = broken_lake(fixture_lake, tmp_path, BREAKAGES["a card event of no match"][0])
    empty = tmp_path / "no-logs"
    empty.mkdir()
    assert main(["ingest", str(empty), "--lake", str(lake.root), "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert f"audits: {len(all_audits()) - 2} of {len(all_audits())} hold" in out
    assert "AUDIT FAILED facts_reference_matches: 1 offending row(s)" in err
    assert "ghost" in err
    assert main(["ingest", str(empty), "--lake", str(lake.root), "--quiet", "--strict"]) == 1


def test_many_offending_rows_are_counted_and_a_few_shown(fixture_lake, tmp_path):
    ghosts = rows("card_events", *(event(f"ghost-{i}") for i in range(30)))
    lake = broken_lake(fixture_lake, tmp_path, {"card_events": ghosts})
    [result] = [r for r in run_audits(lake, limit=5)
                if r.name == "facts_reference_matches"]
    assert (result.count, len(result.rows)) == (30, 5)


def test_the_games_metadata_is_what_the_audits_join():
    meta = {name: table.to_pylist() for name, table in game_metadata().items()}
    assert {"game": "vitorian", "min_seats": 2, "max_seats": 2, "one_seat_sides": True} in \
        meta["game_info"]
    assert {"game": "eredan", "side": "seat 1"} in meta["game_sides"]
    assert {"game": "vitorian", "capability": "decks"} in meta["game_capabilities"]


def test_the_audits_that_bound_a_match_read_the_games_metadata():
    """No audit hard-codes two seats or one winner: they take them from game_info."""
    for audit in load_audits():
        body = audit.sql.upper()
        assert "IN (0, 1)" not in body and "= 2" not in body, audit.name
    joined = {a.name for a in load_audits() if "game_" in a.sql}
    assert {"seats_per_match", "results_consistent", "seat_sides_known", "decks_one_per_seat",
            "card_events_in_deck"} <= joined


def test_each_audit_finds_the_same_rows_on_spark(spark):
    """The portable-SQL promise of the audits: run by Spark (pipeline.spark, the SQL transpiled
    by sqlglot) over the same broken tables and the same metadata tables, each finds what
    DuckDB finds."""
    import duckdb

    from pipeline.spark import SparkConnection

    facts = {**{name: rows(name) for name in tables()}, **whole_match("s1", "win", "win")}
    facts["card_events"] = rows("card_events", event("s1", seat=3), event("ghost"))
    facts.update(game_metadata())
    con, on_spark = duckdb.connect(), SparkConnection(spark.newSession())
    for name, table in facts.items():
        con.register(name, table)
        on_spark.register(name, table)
    found = []
    for audit in load_audits():
        count = f"SELECT count(*) FROM ({audit.sql}) AS offending"
        want = con.execute(count).fetchone()
        assert on_spark.execute(count).fetchone() == want, audit.name
        found.append(want[0])
    assert any(found) and con.execute("SELECT count(*) FROM matches").fetchone() == (1,)

