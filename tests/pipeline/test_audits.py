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

from pipeline.audits import AUDIT_DIR, AuditError, load_audits, parse_audit, run_audits
from pipeline.lake import Lake
from pipeline.lake_layout import new_batch_id
from pipeline.schema import TABLES
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
    assert [r.name for r in results] == sorted(p.stem for p in AUDIT_DIR.glob("*.sql"))
    assert all(r.ok for r in results), [r.to_json() for r in results if not r.ok]


def test_audits_run_on_an_empty_lake(tmp_path):
    assert all(r.ok for r in run_audits(Lake(tmp_path / "none")))


# ------------------------------------------------------------ broken lakes

def rows(table: str, *dicts: dict[str, Any]) -> pa.Table:
    return pa.Table.from_pylist([{f.name: d.get(f.name) for f in TABLES[table]} for d in dicts],
                                TABLES[table])


def match(mid: str, winner: int | None = 0) -> dict[str, Any]:
    return {"match_id": mid, "game": "vitorian", "month": "2026-01", "started_at": WHEN,
            "first_seat": 0, "winner_seat": winner, "turns": 5, "events": 40}


def seat(mid: str, number: int, result: str, deck: str = "d1") -> dict[str, Any]:
    return {"match_id": mid, "game": "vitorian", "month": "2026-01", "seat": number,
            "deck_id": deck, "is_first": number == 0, "result": result}


def card_line(mid: str, number: int, card: str = "ST01-002", deck: str = "d1") -> dict[str, Any]:
    return {"match_id": mid, "game": "vitorian", "month": "2026-01", "seat": number,
            "deck_id": deck, "section": "maneuver", "card": card, "copies": 4}


def event(mid: str, card: str = "ST01-002", **more: Any) -> dict[str, Any]:
    return {"match_id": mid, "game": "vitorian", "month": "2026-01", "seq": 3, "turn": 1,
            "seat": 0, "card": card, "kind": "drawn", **more}


def whole_match(mid: str) -> dict[str, pa.Table]:
    return {"matches": rows("matches", match(mid)),
            "seats": rows("seats", seat(mid, 0, "win"), seat(mid, 1, "loss")),
            "deck_cards": rows("deck_cards", card_line(mid, 0), card_line(mid, 1))}


BREAKAGES: dict[str, tuple[dict[str, pa.Table], set[str]]] = {
    "a card event of no match": (
        {"card_events": rows("card_events", event("ghost"))},
        {"facts_reference_matches", "card_events_in_deck"}),
    "a third seat": (
        {"seats": rows("seats", seat("vw-2026-001-r1-t1", 2, "win"))},
        {"seats_two_per_match", "results_match_winner", "win_counts_add_up",
         "decks_have_cards"}),
    "two winners": (
        {**whole_match("x1"), "seats": rows("seats", seat("x1", 0, "win"), seat("x1", 1, "win"))},
        {"results_match_winner", "win_counts_add_up"}),
    "a seat with no deck": (
        {**whole_match("x2"), "deck_cards": rows("deck_cards", card_line("x2", 0))},
        {"decks_have_cards"}),
    "a card in two sections of a deck": (
        {**whole_match("x5"), "deck_cards": rows(
            "deck_cards", card_line("x5", 0), {**card_line("x5", 0), "section": "convoy"},
            card_line("x5", 1))},
        {"decks_have_cards"}),
    "a match twice": (
        {"matches": rows("matches", match("vw-2026-001-r1-t1"))},
        {"matches_unique", "seats_two_per_match", "win_counts_add_up", "results_match_winner",
         "card_events_in_bounds"}),
    "a card credited to the wrong deck": (
        {**whole_match("x3"), "card_events": rows("card_events", event("x3", "ST02-002"))},
        {"card_events_in_deck"}),
    "a drawn card before turn 1 and past the log": (
        {**whole_match("x4"), "card_events": rows("card_events", event("x4", turn=0, seq=99))},
        {"card_events_in_bounds"}),
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
    assert "audits: 7 of 9 hold" in out
    assert "AUDIT FAILED facts_reference_matches: 1 offending row(s)" in err
    assert "ghost" in err
    assert main(["ingest", str(empty), "--lake", str(lake.root), "--quiet", "--strict"]) == 1


def test_many_offending_rows_are_counted_and_a_few_shown(fixture_lake, tmp_path):
    ghosts = rows("card_events", *(event(f"ghost-{i}") for i in range(30)))
    lake = broken_lake(fixture_lake, tmp_path, {"card_events": ghosts})
    [result] = [r for r in run_audits(lake, limit=5)
                if r.name == "facts_reference_matches"]
    assert (result.count, len(result.rows)) == (30, 5)
