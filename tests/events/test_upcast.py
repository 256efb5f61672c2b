"""Logs of older schemas are still read: before seats existed (schema 1) and before commits
(schema 2, one event per frame)."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec
import pytest

from events import upcast
from events.base import SCHEMA_VERSION, Seat
from events.jsonl import JsonlError, from_jsonl, read_jsonl, to_jsonl
from events.log import GENESIS, LogCorrupt, LogError, decode_log, frame, frame_hash, read_log
from events.upcast import UpcastError, upcast_header, upcast_v1_v2
from events.vitorian import PassPriority
from tests.events.strategies import DECK, OPENING, frame_offsets


def v1_header(**changes: Any) -> dict[str, Any]:
    """A header as schema 1 stored it: two parallel lists, players and decks, and no seats."""
    header = {
        "type": "header", "schema": 1, "game": "vitorian", "ruleset": "vitorian@1",
        "match_id": "old-7", "players": ["ana", "bo"],
        "decks": [msgspec.to_builtins(DECK), msgspec.to_builtins(DECK)],
        "tournament": "Spring Open", "format": "standard", "round": 3, "table": None,
        "started_at": None, "seed": 7,
    }
    return header | changes


def v1_log(header: dict[str, Any], events: Sequence[object]) -> bytes:
    """Bytes as a schema 1 writer stored them: the same frames and chain over that header."""
    frames, prev = [], GENESIS
    for seq, body in enumerate([header, *events]):
        frames.append(frame(msgspec.msgpack.encode([seq, prev, body])))
        prev = frame_hash(frames[-1])
    return b"".join(frames)


def v2_header() -> dict[str, Any]:
    return upcast_v1_v2(v1_header()) | {"schema": 2}


def test_a_schema_1_log_reads_as_todays_header_with_seats(tmp_path: Path) -> None:
    path = tmp_path / "old-7.log"
    path.write_bytes(v1_log(v1_header(), OPENING))
    log = read_log(path)
    assert log.schema == 1 and log.header.schema == SCHEMA_VERSION == 4
    assert log.commits == (1,) * len(OPENING)
    assert log.header.seats == [Seat(seat=0, player="ana", setup=DECK),
                                Seat(seat=1, player="bo", setup=DECK)]
    assert (log.header.tournament, log.header.round, log.header.seed) == ("Spring Open", 3, 7)
    assert log.events == OPENING


def test_the_chain_of_an_old_log_is_checked_on_its_stored_bytes() -> None:
    """Upcasting changes the header read, not the stored bytes the next record's prev names."""
    data = v1_log(v1_header(), OPENING)
    ends = frame_offsets(data)
    assert decode_log(data).head == frame_hash(data[ends[-2]:])
    forged = v1_log(v1_header(match_id="old-8"), []) + data[ends[1]:]
    with pytest.raises(LogCorrupt, match="record 1 .* prev hash does not match"):
        decode_log(forged)


def test_a_schema_2_log_reads_each_event_frame_as_a_commit_of_one(tmp_path: Path) -> None:
    path = tmp_path / "old-8.log"
    path.write_bytes(v1_log(v2_header(), OPENING))
    log = read_log(path)
    assert (log.schema, log.header.schema, log.events) == (2, 4, OPENING)
    assert log.batches() == [[event] for event in OPENING]
    to_jsonl(path, tmp_path / "new.jsonl")
    new = from_jsonl(tmp_path / "new.jsonl", tmp_path / "new.log")
    assert (new.schema, new.commits) == (4, log.commits)


def test_converting_an_old_log_writes_todays_schema(tmp_path: Path) -> None:
    """Writing always uses the current schema: the JSONL, then the binary, are schema 4."""
    (tmp_path / "old.log").write_bytes(v1_log(v1_header(), OPENING))
    to_jsonl(tmp_path / "old.log", tmp_path / "new.jsonl")
    assert b'"players"' not in (tmp_path / "new.jsonl").read_bytes()
    new = from_jsonl(tmp_path / "new.jsonl", tmp_path / "new.log")
    again = read_log(tmp_path / "new.log")
    assert again.schema == new.schema == 4
    assert (again.header, again.events) == (read_log(tmp_path / "old.log").header, OPENING)


def test_a_schema_1_jsonl_file_must_be_rehashed(tmp_path: Path) -> None:
    text = tmp_path / "old.jsonl"
    lines = [msgspec.json.encode([0, GENESIS, v1_header()]),
             msgspec.json.encode([1, GENESIS, PassPriority(seat=0)])]
    text.write_bytes(b"\n".join(lines))
    with pytest.raises(JsonlError, match="line 1: schema 1 .* rechain=True"):
        read_jsonl(text)
    log = read_jsonl(text, rechain=True)
    assert log.schema == 1 and log.header.seats[1].player == "bo"


def test_an_old_header_that_breaks_its_own_layout_is_named(tmp_path: Path) -> None:
    path = tmp_path / "old-7.log"
    path.write_bytes(v1_log(v1_header(decks=[msgspec.to_builtins(DECK)]), []))
    with pytest.raises(LogError, match=r"old-7.log: cannot read the header: .*2 players but 1 decks"):
        read_log(path)


def test_a_log_from_a_newer_build_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.log"
    path.write_bytes(v1_log(v1_header(schema=5), []))
    with pytest.raises(LogError, match="schema 5 is newer than this build reads .*upgrade"):
        read_log(path)


def test_upcast_v1_v2_pairs_players_with_their_decks_from_seat_0() -> None:
    seats = upcast_v1_v2(v1_header())["seats"]
    assert [(s["seat"], s["player"]) for s in seats] == [(0, "ana"), (1, "bo")]
    assert "players" not in upcast_header(v1_header()) and "decks" not in upcast_header(v1_header())
    with pytest.raises(UpcastError, match="needs the lists 'players' and 'decks'"):
        upcast_v1_v2(v1_header(players=None))


def test_events_of_an_old_schema_go_through_their_upcasters(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Say schema 1 called passing "pass_priority": an event upcaster renames it on read."""
    def rename_pass(game: str, event: dict[str, Any]) -> dict[str, Any]:
        return event | {"type": "pass"} if event["type"] == "pass_priority" else event

    monkeypatch.setitem(upcast._EVENT, 1, rename_pass)
    old_pass = {"type": "pass_priority", "seat": 1}
    log = decode_log(v1_log(v1_header(), [OPENING[0], old_pass]))
    assert log.events == [OPENING[0], PassPriority(seat=1)]
    with pytest.raises(LogCorrupt, match="record 1 .* undecodable payload"):
        decode_log(v1_log(v1_header(), [{"type": "retreat", "seat": 0}]))


def v3_header() -> dict[str, Any]:
    """A schema 3 header: one seat per player, each with its deck list as "deck"."""
    return v2_header() | {"schema": 3}


def test_a_schema_3_log_reads_each_deck_as_its_seat_setup(tmp_path: Path) -> None:
    """Schema 4 moved a seat's deck list into its game's setup: an old log reads the same."""
    path = tmp_path / "old-9.log"
    path.write_bytes(v1_log(v3_header(), [[event] for event in OPENING]))
    log = read_log(path)
    assert (log.schema, log.header.schema) == (3, SCHEMA_VERSION)
    assert [seat.setup for seat in log.header.seats] == [DECK, DECK]
    assert log.events == OPENING


def test_a_seat_setup_its_game_cannot_read_names_the_seat_and_the_field(tmp_path: Path) -> None:
    header = upcast_header(v3_header())
    header["seats"][1]["setup"]["sections"] = {"maneuver": [{"card": "ST01-002", "count": "3"}]}
    path = tmp_path / "bad.log"
    path.write_bytes(v1_log(header, []))
    with pytest.raises(LogError, match=r"bad.log: record 0 \(the header\): "
                                       r"\$\.seats\[1\]\.setup\.sections\[\.\.\.\]\[0\]\.count: "
                                       r"Expected `int`, got `str`"):
        read_log(path)


def test_a_scenario_block_in_a_game_without_scenarios_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "scenario.log"
    path.write_bytes(v1_log(upcast_header(v3_header()) | {"scenario": {"name": "ambush"}}, []))
    with pytest.raises(LogError, match=r"\$\.scenario: game 'vitorian' is not played from "
                                       "scenarios"):
        read_log(path)
