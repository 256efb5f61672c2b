"""The binary match log, told as what happens to one match's file."""
from __future__ import annotations

import itertools
import os
import threading
import time
import zlib
from collections.abc import Sequence
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events import log as match_log
from events.base import Header, Record
from events.games import UnknownGame
from events.log import (
    FRAME,
    GENESIS,
    ConcurrencyError,
    LogCorrupt,
    LogError,
    NoHeader,
    TornTail,
    TornTailError,
    append_events,
    create_log,
    decode_log,
    encode_log,
    frame,
    frame_hash,
    read_log,
    repair_log,
    write_log,
)
from events.vitorian import EndPhase, Mobilize, Move, PassPriority
from tests.events.strategies import (
    OPENING,
    commits,
    events,
    frame_offsets,
    one_each,
    vitorian_header,
)


class IllegalMove(ValueError):
    """What a ruleset raises; the log only has to let it through before writing anything."""


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "m-001.log"


# Creating and appending ------------------------------------------------------------------------

def test_a_new_log_holds_only_its_header(path: Path) -> None:
    head = create_log(path, vitorian_header())
    log = read_log(path)
    assert log.header == vitorian_header()
    assert log.events == [] and log.next_seq == 1 and log.torn is None
    assert log.head == head == frame_hash(path.read_bytes())


def test_creating_a_log_never_replaces_one(path: Path) -> None:
    create_log(path, vitorian_header())
    before = path.read_bytes()
    with pytest.raises(FileExistsError, match="already there"):
        create_log(path, vitorian_header("another match"))
    assert path.read_bytes() == before
    assert [p.name for p in path.parent.iterdir()] == [path.name]


def test_a_header_for_an_unknown_game_is_refused(path: Path) -> None:
    header = Header(game="go", ruleset="go@1", match_id="e-1", seats=[])
    with pytest.raises(UnknownGame, match=r"m-001.log: unknown game 'go'.*vitorian"):
        create_log(path, header)
    assert not path.exists()


def test_appending_at_the_expected_seq_extends_the_log(path: Path) -> None:
    first_head = create_log(path, vitorian_header())
    assert append_events(path, OPENING[:2], expected_seq=1).next_seq == 3
    assert append_events(path, OPENING[2:], expected_seq=3).next_seq == 6
    log = read_log(path)
    assert log.events == OPENING and log.next_seq == 6
    assert log.commits == (2, 3) and len(frame_offsets(path.read_bytes())) == 4
    assert log.batches() == [OPENING[:2], OPENING[2:]]
    assert log.head != first_head
    assert log.head == frame_hash(path.read_bytes()[frame_offsets(path.read_bytes())[-2]:])


def test_appending_at_a_stale_seq_is_refused_and_writes_nothing(path: Path) -> None:
    create_log(path, vitorian_header())
    append_events(path, OPENING[:2], expected_seq=1)
    before = path.read_bytes()
    with pytest.raises(ConcurrencyError, match=r"expected to append at seq 1.*next seq is 3") as e:
        append_events(path, [PassPriority(seat=0)], expected_seq=1)
    assert (e.value.expected, e.value.actual) == (1, 3)
    assert path.read_bytes() == before


def test_a_check_that_refuses_leaves_the_file_unchanged_byte_for_byte(path: Path) -> None:
    create_log(path, vitorian_header())
    append_events(path, OPENING[:3], expected_seq=1)
    before, seen = path.read_bytes(), []

    def ruleset_check(header: Header, existing: Sequence[object], new: Sequence[object]) -> None:
        seen.append((header.match_id, list(existing), list(new)))
        raise IllegalMove("VW-7.3: the cell is occupied")

    with pytest.raises(IllegalMove, match="VW-7.3"):
        append_events(path, OPENING[3:], expected_seq=4, check=ruleset_check)
    assert path.read_bytes() == before
    assert seen == [("m-001", OPENING[:3], OPENING[3:])]


def test_a_batch_with_one_bad_event_writes_none_of_it(path: Path) -> None:
    create_log(path, vitorian_header())
    before = path.read_bytes()
    not_an_int = Mobilize(seat=0, card="Line Trooper", cell=(1, 1), exhaust=(), returns=())  # type: ignore[arg-type]
    with pytest.raises(LogError, match=r"record 2 cannot be written: Expected `int`"):
        append_events(path, [PassPriority(seat=0), not_an_int], expected_seq=1)
    with pytest.raises(LogError, match="record 1: Header is not a vitorian event"):
        append_events(path, [vitorian_header()], expected_seq=1)
    assert path.read_bytes() == before


def test_two_players_answering_the_same_prompt_only_one_is_written(path: Path) -> None:
    """The lock spans read, check and write: the second writer sees the first one's record."""
    create_log(path, vitorian_header())
    in_check = threading.Event()

    def slow_check(header: Header, existing: Sequence[object], new: Sequence[object]) -> None:
        in_check.set()
        time.sleep(0.2)

    first = threading.Thread(target=append_events, args=(path, [PassPriority(seat=0)]),
                             kwargs={"expected_seq": 1, "check": slow_check})
    first.start()
    in_check.wait()
    with pytest.raises(ConcurrencyError):
        append_events(path, [PassPriority(seat=1)], expected_seq=1)
    first.join()
    assert read_log(path).events == [PassPriority(seat=0)]


def test_the_simulator_writes_a_whole_log_at_once_replacing_the_old_one(path: Path) -> None:
    write_log(path, vitorian_header(), [EndPhase(seat=0)])
    head = write_log(path, vitorian_header(), OPENING)
    log = read_log(path)
    assert log.events == OPENING and log.head == head
    assert path.read_bytes() == encode_log(vitorian_header(), [OPENING])[0]
    assert log.commits == (5,), "the whole match is one commit, one frame"
    assert [p.name for p in path.parent.iterdir()] == [path.name]


def test_an_unknown_game_in_a_stored_header_is_a_clear_error(path: Path) -> None:
    body = msgspec.structs.replace(vitorian_header(), game="go")
    path.write_bytes(frame(msgspec.msgpack.encode(Record(seq=0, prev=GENESIS, body=body))))
    with pytest.raises(UnknownGame, match=r"m-001.log: unknown game 'go'"):
        read_log(path)


# A crash mid-append: the torn tail ------------------------------------------------------------

@settings(max_examples=20, deadline=None)
@given(st.lists(events, max_size=5))
def test_a_log_cut_anywhere_reads_as_its_longest_whole_prefix(batch: list[object]) -> None:
    data, _ = encode_log(vitorian_header(), one_each(batch))
    ends = frame_offsets(data)
    for cut in range(ends[1], len(data) + 1):
        whole = max(i for i, end in enumerate(ends) if end <= cut)
        log = decode_log(data[:cut])
        assert log.events == batch[:whole - 1]
        assert log.head == frame_hash(data[ends[whole - 1]:ends[whole]])
        expected = None if cut == ends[whole] else TornTail(ends[whole], cut - ends[whole], whole)
        assert log.torn == expected


@settings(max_examples=20, deadline=None)
@given(commits)
def test_a_log_of_commits_cut_anywhere_keeps_its_whole_commits_only(batches: list[list[object]]
                                                                    ) -> None:
    """A crash mid-append loses that append, all of it: a commit is never read in part."""
    data, _ = encode_log(vitorian_header(), batches)
    ends = frame_offsets(data)
    for cut in range(ends[1], len(data) + 1):
        whole = max(i for i, end in enumerate(ends) if end <= cut)
        log = decode_log(data[:cut])
        assert log.batches() == batches[:whole - 1]
        kept = sum(len(batch) for batch in batches[:whole - 1])
        assert log.torn == (None if cut == ends[whole] else
                            TornTail(ends[whole], cut - ends[whole], kept + 1))


def test_a_log_cut_inside_its_header_has_no_match_in_it() -> None:
    data, _ = encode_log(vitorian_header(), one_each(OPENING))
    for cut in range(frame_offsets(data)[1]):
        with pytest.raises(NoHeader, match=r"record 0 at byte 0 is corrupt: no whole header"):
            decode_log(data[:cut])


def test_a_torn_tail_is_reported_refused_by_append_and_cut_by_repair(path: Path) -> None:
    create_log(path, vitorian_header())
    append_events(path, OPENING[:2], expected_seq=1)
    whole = path.read_bytes()
    with open(path, "ab") as f:
        f.write(encode_log(vitorian_header(), [OPENING[:2], OPENING[2:]])[0][len(whole):][:30])
    assert read_log(path).torn == TornTail(offset=len(whole), cut=30, seq=3)
    assert read_log(path).events == OPENING[:2]
    with pytest.raises(TornTailError, match=f"torn tail of 30 bytes at byte {len(whole)}"):
        append_events(path, OPENING[2:], expected_seq=3)
    assert repair_log(path) == TornTail(offset=len(whole), cut=30, seq=3)
    assert path.read_bytes() == whole
    assert repair_log(path) is None
    append_events(path, OPENING[2:], expected_seq=3)
    assert read_log(path).events == OPENING


def test_a_zero_filled_tail_is_a_torn_tail() -> None:
    """Some file systems extend a file with zeros when a crash comes before its data."""
    data, _ = encode_log(vitorian_header(), one_each(OPENING))
    log = decode_log(data + bytes(40))
    assert log.events == OPENING and log.torn == TornTail(len(data), 40, 6)


def zeroed_from(data: bytes, offset: int) -> bytes:
    """What ext4 or XFS may leave after a crash: the file's size kept, its bytes from offset on
    never written."""
    return data[:offset] + bytes(len(data) - offset)


def test_a_last_commit_zero_filled_from_any_byte_is_a_torn_tail_that_repair_cuts(
        path: Path) -> None:
    create_log(path, vitorian_header())
    append_events(path, OPENING[:2], expected_seq=1)
    kept = path.read_bytes()
    append_events(path, OPENING[2:], expected_seq=3)
    whole = path.read_bytes()
    for offset in range(len(kept), len(whole)):
        torn = zeroed_from(whole, offset)
        if torn == whole:
            continue  # the commit ends in zeros already
        assert decode_log(torn).torn == TornTail(len(kept), len(whole) - len(kept), 3), offset
        path.write_bytes(torn)
        assert repair_log(path) == TornTail(len(kept), len(whole) - len(kept), 3)
        assert path.read_bytes() == kept
        append_events(path, OPENING[2:], expected_seq=3)
        assert path.read_bytes() == whole


def test_zeros_from_inside_an_earlier_commit_cut_back_to_the_last_whole_one() -> None:
    data, _ = encode_log(vitorian_header(), one_each(OPENING))
    ends = frame_offsets(data)
    for record in range(1, len(ends) - 1):
        for offset in (ends[record] + 1, ends[record] + 5, ends[record + 1] - 2):
            log = decode_log(zeroed_from(data, offset))
            assert log.events == OPENING[:record - 1]
            assert log.torn == TornTail(ends[record], len(data) - ends[record], record)


def test_a_header_zero_filled_from_any_byte_holds_no_match() -> None:
    data, _ = encode_log(vitorian_header(), one_each(OPENING))
    for offset in range(frame_offsets(data)[1]):
        with pytest.raises(NoHeader):
            decode_log(zeroed_from(data, offset))


def test_a_flipped_bit_in_a_commit_that_ends_in_zeros_is_still_corruption() -> None:
    """The CRC tells one flipped bit before the zeros from a zero fill."""
    ends_in_zeros = [*OPENING[:4], Move(seat=0, unit=0, to=(0, 0), exhaust=(0,))]
    data, _ = encode_log(vitorian_header(), [ends_in_zeros])
    assert data.endswith(b"seat\x00")
    assert_flips_are_caught(data, range(frame_offsets(data)[1] * 8, len(data) * 8))


# Damage: flipped bits and rewritten records -----------------------------------------------------

def assert_flips_are_caught(data: bytes, bits: range | list[int]) -> None:
    ends = frame_offsets(data)
    for bit in bits:
        damaged = bytearray(data)
        damaged[bit // 8] ^= 1 << bit % 8
        record = max(i for i, start in enumerate(ends[:-1]) if start <= bit // 8)
        if record and bytes(damaged) == zeroed_from(data, bit // 8):
            # The flip zeroed the last non-zero byte: the very bytes a zero-filling crash leaves.
            assert decode_log(bytes(damaged)).torn == TornTail(
                ends[record], len(data) - ends[record], record)
            continue
        with pytest.raises(LogCorrupt) as caught:
            decode_log(bytes(damaged), "m-001.log")
        assert (caught.value.seq, caught.value.offset) == (record, ends[record]), bit
        assert f"m-001.log: record {record} at byte {ends[record]} is corrupt" in str(caught.value)


def test_any_flipped_bit_is_corruption_at_its_record_never_a_different_log() -> None:
    data, _ = encode_log(vitorian_header(), one_each(OPENING))
    assert_flips_are_caught(data, range(len(data) * 8))


@settings(max_examples=30, deadline=None)
@given(st.lists(events, min_size=1, max_size=8))
def test_flipped_bits_in_random_logs_are_caught(batch: list[object]) -> None:
    data, _ = encode_log(vitorian_header(), one_each(batch))
    assert_flips_are_caught(data, range(len(data) * 8))


@settings(max_examples=20, deadline=None)
@given(commits)
def test_a_flipped_bit_in_a_commit_is_corruption_at_its_first_record(
        batches: list[list[object]]) -> None:
    data, _ = encode_log(vitorian_header(), batches)
    ends = frame_offsets(data)
    firsts = [0, *itertools.accumulate((len(b) for b in batches), initial=1)]
    for bit in range(0, len(data) * 8, 7):
        damaged = bytearray(data)
        damaged[bit // 8] ^= 1 << bit % 8
        frame_no = max(i for i, start in enumerate(ends[:-1]) if start <= bit // 8)
        if frame_no and bytes(damaged) == zeroed_from(data, bit // 8):
            continue  # the very bytes of a zero fill: see assert_flips_are_caught
        with pytest.raises(LogCorrupt) as caught:
            decode_log(bytes(damaged))
        assert (caught.value.seq, caught.value.offset) == (firsts[frame_no], ends[frame_no])


def test_an_empty_commit_is_refused_when_written_and_corruption_when_read() -> None:
    with pytest.raises(LogError, match="record 1: a commit must hold at least one event"):
        encode_log(vitorian_header(), [[]])
    data, _ = encode_log(vitorian_header(), [])
    empty = frame(msgspec.msgpack.encode(Record(seq=1, prev=frame_hash(data), body=[])))
    with pytest.raises(LogCorrupt, match="record 1 at .* it holds no events"):
        decode_log(data + empty)


def test_a_damaged_length_that_runs_past_the_end_is_not_mistaken_for_a_crash() -> None:
    """Cutting there would drop a whole record, so a whole record inside proves it is damage."""
    data, _ = encode_log(vitorian_header(), one_each(OPENING))
    last = frame_offsets(data)[-2]
    damaged = bytearray(data)
    damaged[last + 1] ^= 0x01  # length += 256
    with pytest.raises(LogCorrupt, match="past the end of the file, but a whole record"):
        decode_log(bytes(damaged))


def rewrite(data: bytes, seq: int, body: object) -> bytes:
    """Replace record seq with another body under a fresh CRC, as a forger would."""
    ends = frame_offsets(data)
    old = msgspec.msgpack.decode(data[ends[seq] + FRAME.size:ends[seq + 1]])
    forged = frame(msgspec.msgpack.encode(Record(seq=seq, prev=old[1], body=[body])))
    return data[:ends[seq]] + forged + data[ends[seq + 1]:]


def test_a_rewritten_record_with_a_fresh_crc_breaks_the_next_records_hash() -> None:
    data, _ = encode_log(vitorian_header(), one_each(OPENING))
    forged = rewrite(data, 2, PassPriority(seat=1))
    with pytest.raises(LogCorrupt, match="record 3 .* prev hash does not match"):
        decode_log(forged)


def test_a_rewritten_last_record_shows_in_the_head_only() -> None:
    """Nothing follows the last record: keep the head elsewhere to seal the log."""
    data, head = encode_log(vitorian_header(), one_each(OPENING))
    forged = decode_log(rewrite(data, 5, PassPriority(seat=1)))
    assert forged.events[-1] == PassPriority(seat=1)
    assert forged.head != head


def test_records_out_of_order_are_corruption() -> None:
    data, _ = encode_log(vitorian_header(), one_each(OPENING))
    ends = frame_offsets(data)
    swapped = data[:ends[1]] + data[ends[2]:ends[3]] + data[ends[1]:ends[2]] + data[ends[3]:]
    with pytest.raises(LogCorrupt, match="record 1 at .* it says it is record 2"):
        decode_log(swapped)


def test_a_complete_last_frame_with_a_bad_crc_is_corruption_not_a_torn_tail() -> None:
    data, _ = encode_log(vitorian_header(), one_each(OPENING))
    last = frame_offsets(data)[-2]
    bad = data[:last + 4] + (zlib.crc32(b"x")).to_bytes(4, "little") + data[last + 8:]
    with pytest.raises(LogCorrupt, match="record 5 .* CRC mismatch"):
        decode_log(bad)


# The fast path -----------------------------------------------------------------------------------

def test_the_fast_read_gives_the_same_log_without_checking_the_chain(path: Path) -> None:
    path.write_bytes(encode_log(vitorian_header(), one_each(OPENING))[0])
    assert read_log(path, verify_chain=False) == read_log(path)
    forged = rewrite(path.read_bytes(), 2, PassPriority(seat=1))
    assert decode_log(forged, verify_chain=False).events[1] == PassPriority(seat=1)
    with pytest.raises(LogCorrupt, match="CRC mismatch"):
        decode_log(forged[:-3] + bytes([forged[-3] ^ 4]) + forged[-2:], verify_chain=False)


def test_reads_do_not_leave_the_garbage_collector_off(path: Path) -> None:
    import gc
    write_log(path, vitorian_header(), OPENING)
    read_log(path)
    assert gc.isenabled()
    os.truncate(path, 5)
    with pytest.raises(NoHeader):
        read_log(path)
    assert gc.isenabled()


def test_module_errors_are_value_errors() -> None:
    assert issubclass(match_log.LogCorrupt, ValueError)
    assert issubclass(match_log.ConcurrencyError, ValueError)
