"""Signed logs: what a key-holding recorder writes, and what a forger without the key cannot."""
from __future__ import annotations

import itertools
from pathlib import Path

import msgspec
import pytest

from events.base import Record
from events.jsonl import from_jsonl, read_jsonl, to_jsonl
from events.log import (
    FRAME,
    SigningError,
    append_events,
    create_log,
    decode_log,
    encode_log,
    frame,
    read_log,
    record_heads,
    write_log,
)
from events.signing import (
    KeyFileError,
    Signer,
    check_signatures,
    load_public_key,
    load_signer,
    new_key_pair,
    raw_public,
    signer_of,
    write_key_pair,
)
from events.vitorian import PassPriority
from tests.events.strategies import OPENING, frame_offsets, vitorian_header


@pytest.fixture(scope="module")
def organiser(tmp_path_factory: pytest.TempPathFactory) -> tuple[Signer, Path]:
    private, public = write_key_pair(tmp_path_factory.mktemp("keys") / "organiser",
                                     new_key_pair())
    return load_signer(private), public


@pytest.fixture(scope="module")
def forger() -> Signer:
    return Signer.from_raw(Signer.from_raw(bytes(32)).raw())


def test_a_signed_log_checks_against_its_public_key(organiser, tmp_path: Path) -> None:
    signer, public = organiser
    write_log(tmp_path / "m.pglog", vitorian_header(), OPENING, signer)
    log = read_log(tmp_path / "m.pglog")
    assert log.signed and signer_of(log) == signer.key_id.hex()
    assert check_signatures(log, load_public_key(str(public))) == 2  # header + one commit
    assert check_signatures(log, load_public_key(raw_public(signer.private.public_key()).hex()))


def test_an_unsigned_log_reads_as_before_and_is_refused_when_a_key_is_required(
        organiser) -> None:
    _, public = organiser
    data, _ = encode_log(vitorian_header(), [OPENING])
    log = decode_log(data, "m.pglog")
    assert not log.signed and signer_of(log) is None
    with pytest.raises(SigningError, match="m.pglog: the header is not signed") as err:
        check_signatures(log, load_public_key(str(public)))
    assert err.value.seq == 0


def test_unsigned_records_keep_the_three_element_layout_logs_always_had() -> None:
    data, _ = encode_log(vitorian_header(), [OPENING])
    ends = frame_offsets(data)
    for start, _ in itertools.pairwise(ends):
        assert data[start + FRAME.size] == 0x93  # a msgpack array of three


def test_a_log_signed_by_another_key_is_refused_naming_both_keys(organiser, forger) -> None:
    _, public = organiser
    log = decode_log(encode_log(vitorian_header(), [OPENING], "m.pglog", forger)[0], "m.pglog")
    with pytest.raises(SigningError, match=f"signed by key {forger.key_id.hex()}, not by the key "
                                           "given"):
        check_signatures(log, load_public_key(str(public)))


def test_a_forged_commit_rechained_without_the_key_is_caught(organiser, tmp_path: Path) -> None:
    """The forger edits a signed log's JSON lines and rebuilds every CRC and hash, as
    from_jsonl(rechain=True) does; the old signature no longer covers the record."""
    signer, public = organiser
    write_log(tmp_path / "m.pglog", vitorian_header(), OPENING, signer)
    to_jsonl(tmp_path / "m.pglog", tmp_path / "m.jsonl")
    lines = (tmp_path / "m.jsonl").read_text().splitlines()
    lines[-1] = lines[-1].replace('"seat":0', '"seat":1')
    (tmp_path / "m.jsonl").write_text("\n".join(lines) + "\n")
    forged = from_jsonl(tmp_path / "m.jsonl", tmp_path / "forged.pglog", rechain=True)
    assert forged.events[-1] == PassPriority(seat=1)
    with pytest.raises(SigningError, match="signature of the commit at seq 1 does not check"):
        check_signatures(read_log(tmp_path / "forged.pglog"), load_public_key(str(public)))


def test_a_forged_commit_re_signed_with_another_key_is_caught(organiser, forger) -> None:
    signer, public = organiser
    data, _ = encode_log(vitorian_header(), [OPENING[:2], OPENING[2:]], sign=signer)
    ends = frame_offsets(data)
    old = msgspec.msgpack.decode(data[ends[2] + FRAME.size:ends[3]])
    record = Record(seq=old[0], prev=old[1], body=[PassPriority(seat=1)])
    forged = frame(msgspec.msgpack.encode(record.fields() + (forger(record),)))
    log = decode_log(data[:ends[2]] + forged)
    with pytest.raises(SigningError, match="commit at seq 3 is signed by key") as err:
        check_signatures(log, load_public_key(str(public)))
    assert err.value.seq == 3


def test_the_stamps_survive_json_lines_both_ways(organiser, tmp_path: Path) -> None:
    signer, public = organiser
    create_log(tmp_path / "m.pglog", vitorian_header(), signer)
    append_events(tmp_path / "m.pglog", OPENING[:2], expected_seq=1, sign=signer)
    append_events(tmp_path / "m.pglog", OPENING[2:], expected_seq=3, sign=signer)
    to_jsonl(tmp_path / "m.pglog", tmp_path / "m.jsonl")
    check_signatures(read_jsonl(tmp_path / "m.jsonl"), load_public_key(str(public)))
    from_jsonl(tmp_path / "m.jsonl", tmp_path / "back.pglog")
    assert (tmp_path / "back.pglog").read_bytes() == (tmp_path / "m.pglog").read_bytes()


def test_appends_keep_a_log_signed_by_one_key_or_unsigned(organiser, forger, tmp_path: Path
                                                          ) -> None:
    signer, _ = organiser
    signed, unsigned = tmp_path / "signed.pglog", tmp_path / "unsigned.pglog"
    create_log(signed, vitorian_header(), signer)
    create_log(unsigned, vitorian_header())
    before = signed.read_bytes(), unsigned.read_bytes()
    with pytest.raises(SigningError, match="is signed by key .* appends must be signed"):
        append_events(signed, OPENING, expected_seq=1)
    with pytest.raises(SigningError, match="not by the key given"):
        append_events(signed, OPENING, expected_seq=1, sign=forger)
    with pytest.raises(SigningError, match="started unsigned"):
        append_events(unsigned, OPENING, expected_seq=1, sign=signer)
    assert (signed.read_bytes(), unsigned.read_bytes()) == before


def test_each_append_returns_the_head_an_anchor_keeps(organiser, tmp_path: Path) -> None:
    signer, _ = organiser
    path = tmp_path / "m.pglog"
    first = create_log(path, vitorian_header(), signer)
    appended = append_events(path, OPENING[:2], expected_seq=1, sign=signer)
    assert appended.next_seq == 3 and appended.head == read_log(path).head != first
    assert [seq for seq, _ in record_heads(read_log(path))] == [0, 1]
    assert record_heads(read_log(path))[-1][1] == appended.head


def test_key_files_are_refused_with_a_line_naming_them(tmp_path: Path) -> None:
    (tmp_path / "junk.key").write_text("not a key")
    with pytest.raises(KeyFileError, match=r"junk.key: not a PEM private key \(unencrypted\)"):
        load_signer(tmp_path / "junk.key")
    with pytest.raises(KeyFileError, match="missing.pub: cannot read the public key"):
        load_public_key(str(tmp_path / "missing.pub"))
    stem = tmp_path / "k"
    write_key_pair(stem, new_key_pair())
    assert (tmp_path / "k.key").stat().st_mode & 0o077 == 0
    with pytest.raises(KeyFileError, match="k.key: already exists"):
        write_key_pair(stem, new_key_pair())
