"""Fuzzing the decoders of events/: whatever the bytes, the only errors are the project's own.

A bad file must be that file's error, one line naming it and the place in it, never an
OverflowError, RecursionError or UnicodeDecodeError that stops a whole batch (verify, ingest).
Readers of events/ raise events.log.LogError (LogCorrupt with seq and offset, JsonlError with
the line, HeaderError) or events.games.UnknownGame, each naming the file first.

The inputs start from a real simulated match (its header with real decks, its events as one
commit): mutated raw values put back with a valid CRC and hash chain, so that the typed
decoding and the checks behind the CRC get to see them, and plain byte damage too.
"""
from __future__ import annotations

import json
import zlib
from collections.abc import Callable
from copy import deepcopy
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from events.games import UnknownGame
from events.jsonl import (
    BOM,
    INT_MAX,
    INT_MIN,
    HeaderError,
    JsonlError,
    decode_events,
    decode_header,
    read_jsonl,
    to_jsonl,
)
from events.log import FRAME, LogCorrupt, LogError, decode_log, encode_log, frame_hash
from tests.events.strategies import replaced

FUZZ = settings(max_examples=250, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
OWN = (LogError, UnknownGame)
"""What a reader of events/ may raise."""

EDGES = [0, -1, 1, 2**31, 2**63 - 1, 2**63, INT_MAX, INT_MAX + 1, INT_MIN, INT_MIN - 1,
         2**70, 10**30, -(10**30)]
scalars = (st.none() | st.booleans() | st.integers() | st.sampled_from(EDGES)
           | st.floats(allow_nan=False) | st.text(max_size=8))
json_values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)
"""Any JSON value, with the integers at the edges of what a log holds."""
msgpack_values = st.recursive(
    scalars | st.binary(max_size=20)
    | st.datetimes(timezones=st.none() | st.just(UTC), min_value=datetime(1, 1, 2))
    | st.builds(msgspec.msgpack.Ext, st.integers(-128, 127), st.binary(max_size=12)),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)
paths = st.lists(st.integers(0, 200), max_size=7)
"""Where to mutate a decoded value: an index choice at each level."""
for_ints = st.sampled_from(EDGES) | st.integers() | scalars
"""What to put where an integer was: mostly other integers, so the rest stays valid."""


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, list[bytes]]:
    """A simulated Vitorian Wars match: its binary log and its JSON lines."""
    from engine.tournament import SeasonConfig, run_season

    out = tmp_path_factory.mktemp("real")
    run_season(SeasonConfig(game="vitorian", players=2, rounds=1, seed=5, out=out))
    binary = min(out.rglob("*.pglog"))
    to_jsonl(binary, out / "real.jsonl")
    return binary.read_bytes(), (out / "real.jsonl").read_bytes().splitlines()


def refused_well(read: Callable[[], Any], path: str | Path) -> Any:
    """Read; an error must be one of ours, naming the file first; returns what was read."""
    try:
        return read()
    except OWN as err:
        assert str(err).startswith(f"{path}: "), err
        assert "\n" not in str(err), err
        if isinstance(err, LogCorrupt):
            assert err.seq >= 0 and err.offset >= 0
        if isinstance(err, JsonlError):
            assert err.line >= 1
        return None


def int_replaced(value: Any, choice: int, new: Any) -> Any:
    """value with one of its integers (the choice-th, modulo their count) replaced by new."""
    found = int_paths(value)
    return set_at(value, found[choice % len(found)], new) if found else value


def frames(data: bytes) -> list[bytes]:
    """The payloads of a whole log's frames."""
    found, pos = [], 0
    while pos < len(data):
        length, _ = FRAME.unpack_from(data, pos)
        found.append(data[pos + FRAME.size:pos + FRAME.size + length])
        pos += FRAME.size + length
    return found


def framed(payloads: list[bytes], chain: bool) -> bytes:
    """Frames with valid CRCs; with chain, each raw record's prev is set to the hash of the
    frame before it, so that the reader checks what lies behind the hash too."""
    out, prev = [], bytes(16)
    for payload in payloads:
        if chain:
            try:
                raw = msgspec.msgpack.decode(payload)
            except msgspec.DecodeError:  # e.g. a timestamp extension of the wrong length
                raw = None
            if isinstance(raw, list) and len(raw) == 3:
                payload = msgspec.msgpack.encode([raw[0], prev, raw[2]])
        data = FRAME.pack(len(payload), zlib.crc32(payload)) + payload
        out.append(data)
        prev = frame_hash(data)
    return b"".join(out)


def decoded_or_refused(data: bytes) -> None:
    """decode_log raises only our errors; a log it accepts can be written again."""
    log = refused_well(lambda: decode_log(data, "fuzz.pglog"), "fuzz.pglog")
    if log is not None:
        refused_well(lambda: encode_log(log.header, log.batches(), "fuzz.pglog"), "fuzz.pglog")


# The binary log ------------------------------------------------------------------------------

@FUZZ
@given(data=st.binary(max_size=400))
def test_arbitrary_bytes_are_a_log_or_our_error(data: bytes) -> None:
    decoded_or_refused(data)


@FUZZ
@given(payloads=st.lists(st.binary(max_size=60), min_size=1, max_size=3))
def test_arbitrary_payloads_with_valid_crcs_are_a_log_or_our_error(payloads: list[bytes]
                                                                    ) -> None:
    decoded_or_refused(framed(payloads, chain=False))


@FUZZ
@given(record=st.integers(0, 1), where=paths, new=msgpack_values, chain=st.booleans())
def test_any_value_anywhere_in_a_real_log_is_read_or_our_error(
        real: tuple[bytes, list[bytes]], record: int, where: list[int], new: Any,
        chain: bool) -> None:
    payloads = frames(real[0])
    raw = msgspec.msgpack.decode(payloads[record])
    try:
        payloads[record] = msgspec.msgpack.encode(replaced(raw, where, new))
    except (OverflowError, TypeError):  # msgpack cannot hold it: no binary log can either
        assume(False)
    decoded_or_refused(framed(payloads, chain))


@FUZZ
@given(record=st.integers(0, 1), choice=st.integers(0, 10**6), new=for_ints | msgpack_values,
       chain=st.booleans())
def test_any_integer_of_a_real_log_changed_is_read_or_our_error(
        real: tuple[bytes, list[bytes]], record: int, choice: int, new: Any, chain: bool
        ) -> None:
    payloads = frames(real[0])
    raw = msgspec.msgpack.decode(payloads[record])
    try:
        payloads[record] = msgspec.msgpack.encode(int_replaced(raw, choice, new))
    except (OverflowError, TypeError):
        assume(False)
    decoded_or_refused(framed(payloads, chain))


@FUZZ
@given(at=st.integers(0, 10**9), how=st.sampled_from(["flip", "cut", "insert", "delete"]),
       byte=st.integers(0, 255))
def test_byte_damage_to_a_real_log_is_our_error(real: tuple[bytes, list[bytes]], at: int,
                                                 how: str, byte: int) -> None:
    data = bytearray(real[0])
    at %= len(data)
    if how == "flip":
        data[at] ^= byte or 1
    elif how == "cut":
        del data[at:]
    elif how == "insert":
        data.insert(at, byte)
    else:
        del data[at]
    decoded_or_refused(bytes(data))


def test_a_deeply_nested_header_is_corruption_not_a_recursion_error() -> None:
    payload = msgspec.msgpack.encode([0, bytes(16), 0])[:-1] + b"\x91" * 5000 + b"\x00"
    with pytest.raises(LogCorrupt, match="^deep.pglog: record 0"):
        decode_log(framed([payload], chain=False), "deep.pglog")


def test_a_deeply_nested_event_frame_is_corruption(real: tuple[bytes, list[bytes]]) -> None:
    header = framed(frames(real[0])[:1], chain=False)
    deep = msgspec.msgpack.encode([1, frame_hash(header), 0])[:-1] + b"\x91" * 5000 + b"\x00"
    with pytest.raises(LogCorrupt, match="^deep.pglog: record 1 at byte"):
        decode_log(header + framed([deep], chain=False), "deep.pglog")


# JSON lines ----------------------------------------------------------------------------------

def read_lines(folder: Path, data: bytes, rechain: bool = False) -> Any:
    path = folder / "fuzz.jsonl"
    path.write_bytes(data)
    return refused_well(lambda: read_jsonl(path, rechain=rechain), path)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@FUZZ
@given(line=st.integers(0, 10**6), where=paths, new=json_values, rechain=st.booleans())
def test_any_value_anywhere_in_real_json_lines_is_read_or_our_error(
        real: tuple[bytes, list[bytes]], folder: Path, line: int, where: list[int], new: Any,
        rechain: bool) -> None:
    lines = list(real[1])
    line %= len(lines)
    lines[line] = json.dumps(replaced(json.loads(lines[line]), where, new)).encode()
    read_lines(folder, b"\n".join(lines) + b"\n", rechain)


@FUZZ
@given(line=st.integers(0, 10**6), choice=st.integers(0, 10**6), new=for_ints,
       rechain=st.booleans())
def test_any_integer_of_real_json_lines_changed_is_read_or_our_error(
        real: tuple[bytes, list[bytes]], folder: Path, line: int, choice: int, new: Any,
        rechain: bool) -> None:
    lines = list(real[1])
    line %= len(lines)
    lines[line] = json.dumps(int_replaced(json.loads(lines[line]), choice, new)).encode()
    read_lines(folder, b"\n".join(lines) + b"\n", rechain)


@FUZZ
@given(line=st.integers(0, 10**6), at=st.integers(0, 10**6),
       junk=st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", BOM, b"\r", b"\n", b"\x00",
                             b"[", b"}", b",", b"\"", b"\\u", b"9" * 30]) | st.binary(max_size=5),
       drop=st.booleans())
def test_byte_damage_to_real_json_lines_is_our_error(
        real: tuple[bytes, list[bytes]], folder: Path, line: int, at: int, junk: bytes,
        drop: bool) -> None:
    lines = list(real[1])
    line %= len(lines)
    if drop:
        del lines[line]
    else:
        text = lines[line]
        at %= len(text) + 1
        lines[line] = text[:at] + junk + text[at:]
    read_lines(folder, b"\n".join(lines) + b"\n")


@FUZZ
@given(data=st.binary(max_size=300) | st.text(max_size=100).map(str.encode))
def test_arbitrary_bytes_as_json_lines_are_our_error(folder: Path, data: bytes) -> None:
    read_lines(folder, data)


def test_every_integer_of_a_real_log_out_of_range_is_named_by_line_and_field(
        real: tuple[bytes, list[bytes]], folder: Path) -> None:
    """OverflowError used to escape for `"seat": 2**70` or `"seed": 10**30`, stopping a batch."""
    lines = list(real[1])
    checked = 0
    for number in (1, 2, 3, len(lines)):
        raw = json.loads(lines[number - 1])
        for where in int_paths(raw):
            if where in ((0,), (2, "schema")):  # renumbered by rechain; checked as a version
                continue
            for big in (INT_MAX + 1, INT_MIN - 1, 10**30):
                edited = list(lines)
                edited[number - 1] = json.dumps(set_at(raw, where, big)).encode()
                with pytest.raises(JsonlError) as err:
                    read_jsonl(write(folder, b"\n".join(edited)), rechain=True)
                assert err.value.line == number
                assert err.value.reason.startswith(f"{path_text(where)}: an integer outside")
                checked += 1
    assert checked > 100


def test_integers_at_the_edges_of_the_range_are_kept(real: tuple[bytes, list[bytes]],
                                                     folder: Path) -> None:
    lines = list(real[1])
    raw = json.loads(lines[0])
    for edge in (INT_MIN, INT_MAX):
        raw[2]["seed"] = edge
        path = write(folder, b"\n".join([json.dumps(raw).encode(), *lines[1:]]))
        assert read_jsonl(path, rechain=True).header.seed == edge


def test_a_byte_order_mark_is_skipped(real: tuple[bytes, list[bytes]], folder: Path) -> None:
    plain = read_jsonl(write(folder, b"\n".join(real[1])))
    marked = read_jsonl(write(folder, BOM + b"\n".join(real[1])))
    assert (marked.header, marked.events, marked.head) == (plain.header, plain.events,
                                                           plain.head)


def test_bytes_that_are_not_utf8_are_named_by_line_and_column(
        real: tuple[bytes, list[bytes]], folder: Path) -> None:
    lines = list(real[1])
    lines[2] = lines[2][:5] + b"\xff" + lines[2][5:]
    with pytest.raises(JsonlError, match=r"fuzz\.jsonl: line 3: not UTF-8 text: byte 0xff at "
                                         r"column 6$"):
        read_jsonl(write(folder, b"\n".join(lines)))


def test_a_deeply_nested_line_is_our_error(real: tuple[bytes, list[bytes]], folder: Path
                                           ) -> None:
    deep = b"[" * 5000 + b"]" * 5000
    for lines in ([deep, *real[1][1:]], [real[1][0], deep]):
        with pytest.raises(JsonlError):
            read_jsonl(write(folder, b"\n".join(lines)))


def write(folder: Path, data: bytes) -> Path:
    path = folder / "fuzz.jsonl"
    path.write_bytes(data)
    return path


def int_paths(value: Any, where: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Where each integer (not bool) is in a decoded JSON value."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [where]
    items = value.items() if isinstance(value, dict) else \
        enumerate(value) if isinstance(value, list) else ()
    return [found for key, item in items for found in int_paths(item, (*where, key))]


def set_at(value: Any, where: tuple[Any, ...], new: Any) -> Any:
    copy = deepcopy(value)
    target = copy
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = new
    return copy


def path_text(where: tuple[Any, ...]) -> str:
    return "$" + "".join(f"[{key}]" if isinstance(key, int) else f".{key}" for key in where)


# The header of `postgame log start`, and the events of `postgame log append` -----------------

def header_json(real: tuple[bytes, list[bytes]]) -> Any:
    return json.loads(real[1][0])[2]


def decoded_header_or_refused(data: bytes) -> None:
    """decode_header raises only our errors; a header it accepts can be written."""
    header = refused_well(lambda: decode_header(data, "header.json"), "header.json")
    if header is not None:
        refused_well(lambda: encode_log(header, [], "header.json"), "header.json")


@FUZZ
@given(where=paths, new=json_values)
def test_any_value_anywhere_in_a_real_header_is_read_or_our_error(
        real: tuple[bytes, list[bytes]], where: list[int], new: Any) -> None:
    decoded_header_or_refused(json.dumps(replaced(header_json(real), where, new),
                                         indent=1).encode())


@FUZZ
@given(choice=st.integers(0, 10**6), new=for_ints)
def test_any_integer_of_a_real_header_changed_is_read_or_our_error(
        real: tuple[bytes, list[bytes]], choice: int, new: Any) -> None:
    decoded_header_or_refused(json.dumps(int_replaced(header_json(real), choice, new)).encode())


@FUZZ
@given(at=st.integers(0, 10**6), junk=st.binary(max_size=4) | st.sampled_from(
    [b"\xff", BOM, b"\xed\xa0\x80", b"9" * 30, b"[" * 3000]))
def test_byte_damage_to_a_real_header_is_our_error(real: tuple[bytes, list[bytes]], at: int,
                                                   junk: bytes) -> None:
    text = json.dumps(header_json(real), indent=1).encode()
    at %= len(text) + 1
    decoded_header_or_refused(text[:at] + junk + text[at:])


@FUZZ
@given(data=st.binary(max_size=200))
def test_arbitrary_bytes_as_a_header_are_our_error(data: bytes) -> None:
    decoded_header_or_refused(data)


def test_header_errors_name_the_file_and_the_place(real: tuple[bytes, list[bytes]]) -> None:
    raw = header_json(real)
    text = json.dumps(raw, indent=1).encode()
    with pytest.raises(HeaderError, match=r"^h\.json: not a match header: .*truncated"):
        decode_header(text[:40], "h.json")
    with pytest.raises(HeaderError, match=r"^h\.json: not a match header: .*\(line 3, column"):
        decode_header(b'{\n "game": "vitorian",\n x}', "h.json")
    with pytest.raises(HeaderError, match=r"^h\.json: not a match header: .*`\$\.round`"):
        decode_header(json.dumps(raw | {"round": "one"}).encode(), "h.json")
    with pytest.raises(HeaderError, match=r"^h\.json: not a match header: \$\.seed: an integer "
                                          r"outside the range a log can hold"):
        decode_header(json.dumps(raw | {"seed": 10**30}).encode(), "h.json")
    with pytest.raises(JsonlError, match=r"^h\.json: line 1: not UTF-8 text: byte 0xff"):
        decode_header(b"\xff" + text, "h.json")
    assert decode_header(BOM + text, "h.json") == decode_header(text, "h.json")


@FUZZ
@given(line=st.integers(2, 10**6), where=paths | st.integers(0, 10**6), new=json_values
       | for_ints)
def test_any_value_in_events_to_append_is_decoded_or_our_error(
        real: tuple[bytes, list[bytes]], line: int, where: list[int] | int, new: Any) -> None:
    bodies = [json.loads(text)[2] for text in real[1][1:]]
    line %= len(bodies)
    bodies[line] = int_replaced(bodies[line], where, new) if isinstance(where, int) else \
        replaced(bodies[line], where, new)
    data = b"\n".join(json.dumps(body).encode() for body in bodies)
    events = refused_well(lambda: decode_events(data, "vitorian", "moves.jsonl"), "moves.jsonl")
    if events:
        header = decode_header(json.dumps(header_json(real)).encode())
        refused_well(lambda: encode_log(header, [events], "moves.jsonl"), "moves.jsonl")


def test_events_to_append_name_the_line_of_an_integer_out_of_range() -> None:
    data = BOM + b'{"type": "pass", "seat": 0}\n\n{"type": "concede", "seat": ' + \
        str(2**70).encode() + b"}\n"
    with pytest.raises(JsonlError, match=r"^m\.jsonl: line 3: \$\.seat: an integer outside"):
        decode_events(data, "vitorian", "m.jsonl")
    assert len(decode_events(data.split(b"\n\n")[0], "vitorian", "m.jsonl")) == 1
