"""JSON lines, the form people read and other tools exchange, and the way back to binary."""
from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings

from events.base import Header
from events.jsonl import (
    JsonlError,
    detect_format,
    from_jsonl,
    load_log,
    read_jsonl,
    to_jsonl,
)
from events.log import (
    FRAME,
    LogError,
    TornTailError,
    create_log,
    encode_log,
    read_log,
    write_log,
)
from events.vitorian import PassPriority
from tests.events.strategies import OPENING, commits, headers, vitorian_header


@pytest.fixture
def binary(tmp_path: Path) -> Path:
    """Three appends: the first two events, the next two, the last one."""
    path = tmp_path / "m-001.log"
    path.write_bytes(encode_log(vitorian_header(), [OPENING[:2], OPENING[2:4], OPENING[4:]])[0])
    return path


def test_each_event_is_one_line_of_plain_json_header_first(binary: Path, tmp_path: Path) -> None:
    text = tmp_path / "m-001.jsonl"
    to_jsonl(binary, text)
    lines = [json.loads(line) for line in text.read_text().splitlines()]
    assert [seq for seq, _, _ in lines] == list(range(6))
    assert [prev is not None for _, prev, _ in lines] == [True, True, False, True, False, True], \
        "prev is given on the header and on the first event of each commit"
    assert lines[0][2]["type"] == "header" and lines[0][2]["seats"][1]["player"] == "bo"
    assert lines[4][2] == {"type": "mobilize", "seat": 1, "card": 11, "cell": [2, 3],
                           "exhaust": [20], "returns": [21]}


def test_binary_to_jsonl_and_back_gives_the_same_bytes(binary: Path, tmp_path: Path) -> None:
    to_jsonl(binary, tmp_path / "m.jsonl")
    back = from_jsonl(tmp_path / "m.jsonl", tmp_path / "back.log")
    assert (tmp_path / "back.log").read_bytes() == binary.read_bytes()
    assert back.head == read_log(binary).head and back.path == tmp_path / "back.log"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(headers, commits)
def test_any_log_survives_the_round_trip_byte_for_byte(
        tmp_path: Path, header: Header, batches: list[list[object]]) -> None:
    (tmp_path / "a.log").write_bytes(encode_log(header, batches)[0])
    to_jsonl(tmp_path / "a.log", tmp_path / "a.jsonl")
    from_jsonl(tmp_path / "a.jsonl", tmp_path / "b.log")
    assert (tmp_path / "b.log").read_bytes() == (tmp_path / "a.log").read_bytes()
    assert read_jsonl(tmp_path / "a.jsonl").batches() == batches


def test_the_simulators_one_commit_logs_round_trip_too(tmp_path: Path) -> None:
    write_log(tmp_path / "a.log", vitorian_header(), OPENING)
    to_jsonl(tmp_path / "a.log", tmp_path / "a.jsonl")
    assert from_jsonl(tmp_path / "a.jsonl", tmp_path / "b.log").commits == (5,)
    assert (tmp_path / "b.log").read_bytes() == (tmp_path / "a.log").read_bytes()


def test_both_forms_load_alike(binary: Path, tmp_path: Path) -> None:
    to_jsonl(binary, tmp_path / "m.jsonl")
    from_text, from_binary = load_log(tmp_path / "m.jsonl"), load_log(binary)
    assert (from_text.header, from_text.events, from_text.head) == \
        (from_binary.header, from_binary.events, from_binary.head)


def test_a_binary_log_starting_with_the_code_of_a_bracket_is_still_binary(tmp_path: Path) -> None:
    """The first byte of a binary log is its header's length: make that length 0x5B, '['."""
    path = tmp_path / "bracket.log"
    for pad in range(300):
        data, _ = encode_log(vitorian_header("x" * pad), [])
        if data[0] == ord("["):
            break
    create_log(path, vitorian_header("x" * pad))
    assert path.read_bytes()[:1] == b"["
    assert detect_format(path) == "binary"
    assert load_log(path).header.match_id == "x" * pad


def test_a_bad_line_is_named_by_file_and_number(binary: Path, tmp_path: Path) -> None:
    text = tmp_path / "m.jsonl"
    to_jsonl(binary, text)
    lines = text.read_bytes().splitlines()
    lines[2] = lines[2].replace(b'"shuffle"', b'"reshuffle"')
    text.write_bytes(b"\n".join(lines))
    with pytest.raises(JsonlError, match=r"m.jsonl: line 3: not a record: Invalid value 'reshuffle'"):
        read_jsonl(text)


def test_an_edited_event_breaks_the_hash_of_the_next_commit(binary: Path, tmp_path: Path) -> None:
    text = tmp_path / "m.jsonl"
    to_jsonl(binary, text)
    edited = text.read_text().replace('{"type":"first_player","seat":1}',
                                      '{"type":"first_player","seat":0}')
    text.write_text(edited)
    with pytest.raises(JsonlError, match=r"line 4: its prev hash does not match the lines above"):
        read_jsonl(text)


def test_a_renumbered_event_line_is_named(binary: Path, tmp_path: Path) -> None:
    text = tmp_path / "m.jsonl"
    to_jsonl(binary, text)
    lines = text.read_text().splitlines()
    lines[2] = lines[2].replace("[2,null,", "[7,null,")
    text.write_text("\n".join(lines))
    with pytest.raises(JsonlError, match=r"line 3: seq 7 where 2 belongs"):
        read_jsonl(text)


def test_a_hand_written_file_is_read_with_rechain(tmp_path: Path) -> None:
    """People write fixtures by hand: rechain numbers and hashes the records for them."""
    text = tmp_path / "hand.jsonl"
    header = msgspec.json.encode([0, "", vitorian_header()]).decode()
    text.write_text(f'{header}\n[9,"",{{"type":"pass","seat":0}}]\n')
    with pytest.raises(JsonlError, match="line 1: its prev hash is not all zeros"):
        read_jsonl(text)
    log = from_jsonl(text, tmp_path / "hand.log", rechain=True)
    assert log.events == [PassPriority(seat=0)]
    assert read_log(tmp_path / "hand.log").head == log.head


def test_empty_and_blank_lines_are_refused_by_number(tmp_path: Path) -> None:
    text = tmp_path / "m.jsonl"
    text.write_text("")
    with pytest.raises(JsonlError, match="line 1: the file is empty"):
        read_jsonl(text)
    line = msgspec.json.encode([0, bytes(16), vitorian_header()]).decode()
    text.write_text(f"{line}\n\n")
    with pytest.raises(JsonlError, match="line 2: blank line"):
        read_jsonl(text)


def test_a_torn_binary_log_is_not_converted(binary: Path, tmp_path: Path) -> None:
    with open(binary, "ab") as f:
        f.write(FRAME.pack(90, 0) + b"\x93\x06")
    with pytest.raises(TornTailError, match="repair_log"):
        to_jsonl(binary, tmp_path / "m.jsonl")
    assert not (tmp_path / "m.jsonl").exists()


def test_converting_the_wrong_way_round_is_refused(binary: Path, tmp_path: Path) -> None:
    with pytest.raises(LogError, match="is a binary log, not JSON lines"):
        from_jsonl(binary, tmp_path / "x.log")
    to_jsonl(binary, tmp_path / "m.jsonl")
    with pytest.raises(LogError, match="is JSON lines already"):
        to_jsonl(tmp_path / "m.jsonl", tmp_path / "x.jsonl")
