"""The binary match log: one file per match, a header record then one record per commit.

Each record is a frame ``[u32 length][u32 crc32 of payload][payload]`` (little-endian), the payload
being the msgpack encoding of ``events.base.Record``: a sequence number, the blake2b-128 hash of
the previous record's whole frame (16 zero bytes before the header), and the body. The header's
seq is 0. Every later frame holds a commit, the events of one append (a live table appends each
decision as it is made; the simulator writes a whole match at once), numbered from its seq on.
Commits are what make reading fast: checking a frame costs a fixed amount of interpreter work,
decoding its events does not (benchmarks/bench_log.py).

The CRC catches damage to one record; the hash chain catches a record rewritten with a fresh CRC,
since the next record still names the old bytes; ``LogFile.head`` seals the last one.

How damage is told from a crash (the reader never guesses a record's content):

- A torn tail is what a crash mid-append leaves: after the last whole record, an incomplete frame
  header, or a frame whose length runs past the end of the file while the bytes present are only a
  beginning of a msgpack value (msgpack is self-delimiting, so a whole record there means the
  length field itself was damaged), or only zero bytes, or a frame whose bytes are zero from
  somewhere inside it to the end of the file (ext4 and XFS may keep a crashed write's file size
  and zero the data that never reached the disk) unless one flipped bit explains its CRC. It is
  reported as ``TornTail`` and cut back by ``repair_log``, never kept.
- Anything else is ``LogCorrupt`` at that record: a CRC mismatch, an undecodable payload, a wrong
  sequence number or hash. That includes the last record: a complete frame with a bad CRC is not
  a crash pattern (appends write the frame header and payload together), so it is reported, not
  cut; cutting it would silently drop a record that may only have one flipped bit.

A single flipped bit is always caught: CRC-32 detects every single-bit error in a payload, a bad
length either fails the CRC or fails to decode (a shorter window truncates the msgpack value, a
longer one leaves trailing bytes) or runs past the end with a whole value inside.

Crash atomicity is per commit: an append lands whole or not at all. Damage is reported at its
frame, by the seq of the frame's first event: a CRC cannot tell which event of a commit it hit.
"""
from __future__ import annotations

import contextlib
import errno
import fcntl
import functools
import gc
import hashlib
import itertools
import os
import secrets
import struct
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, NamedTuple

import msgspec

from events import games, upcast
from events.base import SCHEMA_VERSION, Header, Record

FRAME = struct.Struct("<II")
HASH_SIZE = 16
GENESIS = bytes(HASH_SIZE)
"""The prev of record 0."""

Check = Callable[[Header, Sequence[Any], Sequence[Any]], None]
"""check(header, existing events, new events): raises to refuse an append before it is written."""
Sign = Callable[[Record[Any]], bytes | None]
"""sign(unsigned record) -> its stamp: a recorder's key (events.signing.Signer), or the stamps a
JSON-lines file carries; None leaves the record unsigned."""


class LogError(ValueError):
    """A match log cannot be used as asked; the message names the file."""

    def __init__(self, path: str | Path, message: str) -> None:
        super().__init__(f"{path}: {one_line(message)}")
        self.path = path


def one_line(text: str) -> str:
    """An error is one line, always: a reason may quote the user's own bytes, breaks included."""
    return text.replace("\r", "\\r").replace("\n", "\\n")


class LogCorrupt(LogError):
    """A record is damaged or out of place: the log must not be trusted past it."""

    def __init__(self, path: str | Path, seq: int, offset: int, reason: str) -> None:
        super().__init__(path, f"record {seq} at byte {offset} is corrupt: {reason}")
        self.seq, self.offset, self.reason = seq, offset, one_line(reason)


class NoHeader(LogCorrupt):
    """The file ends before its header record does: empty, or a crash while it was created."""

    def __init__(self, path: str | Path, size: int) -> None:
        super().__init__(path, 0, 0, f"no whole header record in the file's {size} bytes "
                                     "(empty or cut short); it holds no match")


class ConcurrencyError(LogError):
    """Someone else appended first: re-read the log and decide again."""

    def __init__(self, path: str | Path, expected: int, actual: int) -> None:
        super().__init__(path, f"expected to append at seq {expected}, but the log's next "
                               f"seq is {actual}")
        self.expected, self.actual = expected, actual


class TornTailError(LogError):
    """Appending after a torn tail would bury it mid-file, where it reads as corruption."""


class SigningError(LogError):
    """A log's stamps do not hold: unsigned where a key is required, another key, a signature
    that does not check, or an append that would mix signed and unsigned records."""

    def __init__(self, path: str | Path, message: str, seq: int | None = None) -> None:
        super().__init__(path, message)
        self.seq = seq


@dataclass(frozen=True)
class TornTail:
    """The bytes a crash left after the last whole record; offset is where that record ends."""

    offset: int
    cut: int
    seq: int
    """The seq the torn record would have had."""


@dataclass(frozen=True, slots=True)
class LogFile:
    """A match log as read: header (in today's schema) and events, up to the last whole record."""

    path: Path
    header: Header
    events: list[Any]
    head: bytes
    """Hash of the last whole record's frame: store it elsewhere to seal the log."""
    torn: TornTail | None = None
    schema: int = SCHEMA_VERSION
    """The schema the file was written with (the header has been upcast from it)."""
    commits: tuple[int, ...] = ()
    """How many events each frame holds, in order (the appends that wrote them)."""
    stamps: tuple[bytes | None, ...] = ()
    """Each record's stamp, header first (events.signing); all None on an unsigned log."""

    @property
    def next_seq(self) -> int:
        return len(self.events) + 1

    @property
    def signed(self) -> bool:
        return any(stamp is not None for stamp in self.stamps)

    def stored_stamps(self) -> Sign:
        """A `sign` for encode_records that gives each record it rebuilds, in order, the stamp
        the log stored for it."""
        stamps = iter(self.stamps)
        return lambda record: next(stamps, None)

    def batches(self) -> list[list[Any]]:
        """The events grouped as they were committed: encode_log(header, batches()) gives
        back the same frames."""
        starts = list(itertools.accumulate(self.commits, initial=0))
        return [self.events[start:stop] for start, stop in itertools.pairwise(starts)]


# Encoding ------------------------------------------------------------------------------------

def frame(payload: bytes) -> bytes:
    return FRAME.pack(len(payload), zlib.crc32(payload)) + payload


def frame_hash(data: bytes | memoryview) -> bytes:
    return hashlib.blake2b(data, digest_size=HASH_SIZE).digest()


def _header_frame(header: Header, path: str | Path, sign: Sign | None = None) -> bytes:
    """Encode the header, refusing one that could not be read back."""
    if not isinstance(header, Header):
        raise LogError(path, f"the header must be an events.base.Header, not {type(header)}")
    try:
        games.event_union(header.game)
    except games.UnknownGame:
        raise games.UnknownGame(header.game, path) from None
    if header.schema != SCHEMA_VERSION:
        header = msgspec.structs.replace(header, schema=SCHEMA_VERSION)
    _, payload = sealed(Record(seq=0, prev=GENESIS, body=header), sign)
    try:
        games.typed_header(games.HEADER_MSGPACK.decode(payload).body)
    except (msgspec.DecodeError, games.SetupError) as e:
        raise LogError(path, f"the header cannot be written: {e}") from None
    return frame(payload)


def sealed(record: Record[Any], sign: Sign | None) -> tuple[Record[Any], bytes]:
    """The record with its stamp (if sign gives one) and the payload a frame stores."""
    if sign is not None:
        record = msgspec.structs.replace(record, sig=sign(record))
    return record, games.ENCODER.encode(record.fields())


def _event_records(path: str | Path, game: str, commits: Iterable[Sequence[Any]], seq: int,
                   prev: bytes, sign: Sign | None = None, checked: bool = True
                   ) -> Iterator[tuple[Record[Any], bytes]]:
    """(record, frame) for each commit from seq on, refusing an empty commit or any event not of
    this game or (unless checked is False: events just decoded from a log) not decodable."""
    kinds = frozenset(games.event_types(game))  # exact types: isinstance over a tuple is slow
    decode = games.frame_decoder(path, game, SCHEMA_VERSION)
    for commit in commits:
        events = list(commit)
        if not events:
            raise LogError(path, f"record {seq}: a commit must hold at least one event")
        for number, event in enumerate(events, start=seq):
            if type(event) not in kinds:
                raise LogError(path, f"record {number}: {type(event).__name__} is not a {game} "
                                     "event")
        record, payload = sealed(Record(seq=seq, prev=prev, body=events), sign)
        try:
            if checked:
                decode(payload)
        except msgspec.DecodeError:
            raise _unwritable(path, game, events, seq) from None
        data = frame(payload)
        yield record, data
        prev, seq = frame_hash(data), seq + len(events)


def _unwritable(path: str | Path, game: str, events: list[Any], seq: int) -> LogError:
    """Name the first event of a commit that would not read back, and why."""
    decode = games.frame_decoder(path, game, SCHEMA_VERSION)
    for number, event in enumerate(events, start=seq):
        try:
            decode(games.ENCODER.encode((number, GENESIS, [event])))
        except msgspec.DecodeError as e:
            return LogError(path, f"record {number} cannot be written: {e}")
    return LogError(path, f"records {seq}-{seq + len(events) - 1} cannot be written together")


def encode_records(header: Header, commits: Iterable[Sequence[Any]], path: str | Path = "<log>",
                   sign: Sign | None = None) -> Iterator[tuple[Record[Any], bytes]]:
    """Each record of a log with its frame, header first, exactly as write_log stores them;
    commits are the lists of events appended together, one frame each; sign stamps each."""
    first = _header_frame(header, path, sign)
    yield games.HEADER_MSGPACK.decode(first[FRAME.size:]), first
    yield from _event_records(path, header.game, commits, 1, frame_hash(first), sign)


def rebuilt_records(log: LogFile) -> Iterator[tuple[Record[Any], bytes]]:
    """The records of a log read back, re-encoded with their stored stamps: the stored frames,
    for a log of today's schema. Its events were just decoded, so they are not decoded again."""
    stamps = log.stored_stamps()
    first = _header_frame(log.header, log.path, stamps)
    yield games.HEADER_MSGPACK.decode(first[FRAME.size:]), first
    yield from _event_records(log.path, log.header.game, log.batches(), 1, frame_hash(first),
                              stamps, checked=False)


def encode_log(header: Header, commits: Iterable[Sequence[Any]], path: str | Path = "<log>",
               sign: Sign | None = None) -> tuple[bytes, bytes]:
    """The bytes of a whole log and its head hash."""
    frames = [data for _, data in encode_records(header, commits, path, sign)]
    return b"".join(frames), frame_hash(frames[-1])


def record_heads(log: LogFile) -> list[tuple[int, bytes]]:
    """(seq, hash of its frame) of each record of a log in today's schema, header first: every
    place the log could have been anchored."""
    return [(record.seq, frame_hash(data)) for record, data in rebuilt_records(log)]


# Reading -------------------------------------------------------------------------------------

def read_log(path: str | Path, *, verify_chain: bool = True) -> LogFile:
    """Read and check a whole log under a shared lock (so a concurrent append is not a torn tail).

    verify_chain=False is the fast path for bulk analytics: CRC, typed decoding and sequence
    numbers are still checked, the hash chain is not (it costs about as much as decoding).
    """
    with _locked(path, "rb", fcntl.LOCK_SH) as f:
        data = f.read()
    return decode_log(data, path, verify_chain=verify_chain)


def decode_log(data: bytes, path: str | Path = "<bytes>", *, verify_chain: bool = True
               ) -> LogFile:
    """Check and decode the bytes of a log; path only names it in errors."""
    first, schema, pos = _decode_header(path, data)
    decode = games.frame_decoder(path, first.body.game, schema)
    stamps = [first.sig]
    with gc_paused():
        events, commits, pos, last, head = _events(
            path, data, pos, frame_hash(memoryview(data)[:pos]), decode, verify_chain, stamps)
    if not verify_chain and commits:
        head = frame_hash(memoryview(data)[last:pos])
    torn = _tail(path, data, pos, len(events) + 1) if pos < len(data) else None
    return LogFile(path if isinstance(path, Path) else Path(path), first.body, events, head, torn,
                   schema, tuple(commits), tuple(stamps))


def _events(path: str | Path, data: bytes, pos: int, prev: bytes,
            decode: Callable[[memoryview], Any], chain: bool, stamps: list[bytes | None]
            ) -> tuple[list[Any], list[int], int, int, bytes]:
    """Events from pos, checked; stops at the first frame that is not whole (see _tail).

    Returns (events, events per frame, where whole frames end, where the last one starts, the
    last frame's hash if the chain was checked), adding each frame's stamp to stamps. Hot loop:
    one slice per frame, names bound locally.
    """
    view, end, seq, last = memoryview(data), len(data), 1, 0
    events: list[Any] = []
    commits: list[int] = []
    add, count, unpack, crc32 = events.extend, commits.append, FRAME.unpack_from, zlib.crc32
    stamp = stamps.append
    fresh_hash = hashlib.blake2b(digest_size=HASH_SIZE).copy  # a copy skips parsing the options
    while pos + 8 <= end:
        length, crc = unpack(data, pos)
        stop = pos + 8 + length
        if stop > end or not length:
            break
        payload = view[pos + 8:stop]
        if crc32(payload) != crc:
            if _zero_filled(data, pos, stop, payload, crc):
                break
            raise LogCorrupt(path, seq, pos, "CRC mismatch")
        try:
            record = decode(payload)
        except (msgspec.DecodeError, upcast.UpcastError) as e:
            raise LogCorrupt(path, seq, pos, f"undecodable payload: {e}") from None
        body = record.body
        if record.seq != seq or (chain and record.prev != prev) or not body:
            raise _misplaced(path, seq, pos, record.seq, len(body))
        if chain:
            hashed = fresh_hash()
            hashed.update(view[pos:stop])
            prev = hashed.digest()
        add(body)
        count(len(body))
        stamp(record.sig)
        last, pos, seq = pos, stop, seq + len(body)
    return events, commits, pos, last, prev


def _misplaced(path: str | Path, seq: int, pos: int, says: int, events: int) -> LogCorrupt:
    if not events:
        return LogCorrupt(path, seq, pos, "it holds no events")
    if says != seq:
        return LogCorrupt(path, seq, pos, f"it says it is record {says}")
    return LogCorrupt(path, seq, pos, "its prev hash does not match the record before it")


def _decode_header(path: str | Path, data: bytes) -> tuple[Record[Header], int, int]:
    """Record 0, upcast to today's schema: (the record, stored schema, where it ends)."""
    length, crc = FRAME.unpack_from(data) if len(data) >= FRAME.size else (0, 0)
    stop = FRAME.size + length
    if not length or stop > len(data):
        _tail(path, data, 0, 0)  # raises if these bytes are damage rather than a cut
        raise NoHeader(path, len(data))
    payload = memoryview(data)[FRAME.size:stop]
    if zlib.crc32(payload) != crc:
        if _zero_filled(data, 0, stop, payload, crc):
            raise NoHeader(path, len(data))
        raise LogCorrupt(path, 0, 0, "CRC mismatch")
    try:
        record, schema = _header_record(path, payload)
    except (msgspec.DecodeError, RecursionError) as e:
        raise LogCorrupt(path, 0, 0, f"undecodable payload: {e}") from None
    if record.seq != 0:
        raise LogCorrupt(path, 0, 0, f"it says it is record {record.seq}")
    if record.prev != GENESIS:
        raise LogCorrupt(path, 0, 0, "the header's prev hash is not all zeros")
    return record, schema, stop


def _header_record(path: str | Path, payload: memoryview) -> tuple[Record[Header], int]:
    """Decode the header record and its stored schema, upcasting an old layout from raw form,
    with the seats' setups and the scenario as their game's types (events.games.typed_header)."""
    record, schema = _stored_header(path, payload)
    try:
        return msgspec.structs.replace(record, body=games.typed_header(record.body)), schema
    except games.SetupError as e:
        raise LogError(path, f"record 0 (the header): {e}") from None


def _stored_header(path: str | Path, payload: memoryview) -> tuple[Record[Header], int]:
    with contextlib.suppress(msgspec.DecodeError):
        record = games.HEADER_MSGPACK.decode(payload)
        if record.body.schema == SCHEMA_VERSION:
            return record, SCHEMA_VERSION
    raw = msgspec.msgpack.decode(payload)
    if not (isinstance(raw, list) and len(raw) == 3):
        raise msgspec.DecodeError("the header record is not a [seq, prev, body] array")
    try:
        schema = upcast.schema_of(raw[2])
        if schema == SCHEMA_VERSION:
            return games.HEADER_MSGPACK.decode(payload), schema
        raw[2] = upcast.upcast_header(raw[2])
    except upcast.UpcastError as e:
        raise LogError(path, f"cannot read the header: {e}") from None
    return msgspec.convert(raw, Record[Header]), schema


def _tail(path: str | Path, data: bytes, pos: int, seq: int) -> TornTail:
    """Tell a crash's torn tail from damage, for the bytes from pos that hold no whole record."""
    rest = len(data) - pos
    if data.count(0, pos) == rest or rest < 8:
        return TornTail(pos, rest, seq)
    length, _ = FRAME.unpack_from(data, pos)
    if not length:
        raise LogCorrupt(path, seq, pos, "its frame has length 0")
    stop = pos + 8 + length
    if stop <= len(data):  # whole, so its CRC failed: _events let it through as zero-filled
        return TornTail(pos, rest, seq)
    if _msgpack_end(data, pos + 8) is None:
        return TornTail(pos, rest, seq)
    raise LogCorrupt(path, seq, pos, f"its frame claims {length} bytes, past the end of the "
                                     "file, but a whole record is there: the length is damaged")


def _zero_filled(data: bytes, pos: int, stop: int, payload: memoryview, crc: int) -> bool:
    """Whether a whole frame that fails its CRC is a crash's zero fill rather than damage.

    ext4 and XFS may keep a crashed append's file size and zero the bytes that never reached
    the disk: from some byte of the frame on, the rest of the file is zero. Damage looks alike
    only when one bit flipped in a frame that already ended in zeros, and the CRC tells that
    apart: a mismatch that one flipped bit before the zeros explains is damage, reported, never
    cut. (A flip that zeroes the file's last non-zero byte gives the very bytes of a zero fill;
    it reads as one.)
    """
    zeros = len(data.rstrip(b"\0"))
    return zeros < stop and _zero_fill_fits(payload, crc, stop - zeros) \
        and not _one_flip_explains(data, pos, payload, crc, zeros)


CRC32_POLY = 0xEDB88320
"""zlib's CRC-32 polynomial, bit-reflected."""


def _single_bit_syndromes(count: int) -> Iterator[int]:
    """How flipping each of the payload's last `count` bits changes its CRC, last bit first."""
    register = CRC32_POLY
    for _ in range(count):
        yield register
        register = (register >> 1) ^ (CRC32_POLY if register & 1 else 0)


def _zero_fill_fits(payload: memoryview, crc: int, zeroed: int) -> bool:
    """Whether some bytes in place of the payload's last `zeroed` ones (the zeros) give its CRC.

    Any four bytes can (CRC-32 maps 32 consecutive bits one to one); fewer must be solved for,
    over GF(2): is the CRC's change in the span of what flipping those bits can change?
    """
    if zeroed >= 4:
        return True
    basis: dict[int, int] = {}
    for vector in _single_bit_syndromes(8 * zeroed):
        while vector and vector.bit_length() in basis:
            vector ^= basis[vector.bit_length()]
        if vector:
            basis[vector.bit_length()] = vector
    syndrome = zlib.crc32(payload) ^ crc
    while syndrome and syndrome.bit_length() in basis:
        syndrome ^= basis[syndrome.bit_length()]
    return not syndrome


def _one_flip_explains(data: bytes, pos: int, payload: memoryview, crc: int, before: int
                       ) -> bool:
    """Whether flipping one bit of the frame before byte `before` (in its length, its CRC or its
    payload) makes the CRC hold."""
    syndrome = zlib.crc32(payload) ^ crc
    if syndrome.bit_count() == 1:
        return pos + 4 + (syndrome.bit_length() - 1) // 8 < before
    length = len(payload)
    for bit in range(32):
        other = length ^ (1 << bit)
        if pos + bit // 8 < before and pos + 8 + other <= len(data) \
                and zlib.crc32(data[pos + 8:pos + 8 + other]) == crc:
            return True
    back = _payload_flip_at(syndrome, length)
    return back >= 0 and back >= length - (before - pos - 8)


@functools.cache
def _crc_table() -> tuple[list[int], dict[int, int], frozenset[int]]:
    """CRC-32's byte table, the byte whose entry has each top byte, and the entries of the
    one-bit bytes (how a flip in the payload's last byte changes its CRC)."""
    table = [zlib.crc32(bytes([i])) ^ zlib.crc32(b"\0") for i in range(256)]
    return table, {entry >> 24: i for i, entry in enumerate(table)}, \
        frozenset(table[1 << bit] for bit in range(8))


def _payload_flip_at(syndrome: int, length: int) -> int:
    """How many bytes before the payload's end (0: in its last byte) one flipped bit changes
    its CRC by `syndrome`; -1 if no single flip does.

    CRC-32 is linear: a flip k bytes before the end changes the CRC by a one-bit byte's table
    entry carried through k zero bytes, a step that can be undone (its table's top bytes
    differ), so undoing it from the syndrome finds k in one pass.
    """
    table, by_top, one_bit = _crc_table()
    register = syndrome
    for back in range(length):
        if register in one_bit:
            return back
        low = by_top[register >> 24]
        register = ((register ^ table[low]) << 8 | low) & 0xFFFFFFFF
    return -1


# msgpack: (bytes of fixed content) for scalars; (width of a length field, extra bytes) for
# str/bin/ext; (width of a count field, values per count) for arrays and maps.
_FIXED = {0xc0: 0, 0xc2: 0, 0xc3: 0, 0xca: 4, 0xcb: 8, 0xcc: 1, 0xcd: 2, 0xce: 4, 0xcf: 8,
          0xd0: 1, 0xd1: 2, 0xd2: 4, 0xd3: 8, 0xd4: 2, 0xd5: 3, 0xd6: 5, 0xd7: 9, 0xd8: 17}
_SIZED = {0xc4: (1, 0), 0xc5: (2, 0), 0xc6: (4, 0), 0xc7: (1, 1), 0xc8: (2, 1), 0xc9: (4, 1),
          0xd9: (1, 0), 0xda: (2, 0), 0xdb: (4, 0)}
_COUNTED = {0xdc: (2, 1), 0xdd: (4, 1), 0xde: (2, 2), 0xdf: (4, 2)}


def _msgpack_end(data: bytes, pos: int) -> int | None:
    """Where the msgpack value at pos ends; None if data stops first (a prefix of a value).

    An invalid type byte answers its own position: such bytes are no prefix of any record.
    """
    pending = 1
    while pending:
        if pos >= len(data):
            return None
        kind, pos, pending = data[pos], pos + 1, pending - 1
        if kind <= 0x7f or kind >= 0xe0:
            continue
        if kind <= 0x9f:
            pending += (kind & 0x0f) * (2 if kind <= 0x8f else 1)
        elif kind <= 0xbf:
            pos += kind & 0x1f
        elif kind in _FIXED:
            pos += _FIXED[kind]
        elif kind in _SIZED or kind in _COUNTED:
            width, times = _SIZED.get(kind) or _COUNTED[kind]
            if pos + width > len(data):
                return None
            size, pos = int.from_bytes(data[pos:pos + width], "big"), pos + width
            pos, pending = (pos + size + times, pending) if kind in _SIZED \
                else (pos, pending + size * times)
        else:
            return pos - 1
    return pos if pos <= len(data) else None


# Writing -------------------------------------------------------------------------------------

def create_log(path: str | Path, header: Header, sign: Sign | None = None) -> bytes:
    """Start a match log holding only its header; refuses to replace an existing file.

    The file appears whole or not at all (written aside, then hard-linked into place), so a crash
    never leaves a log without a header. Returns the head hash. A log started with `sign` is a
    signed log: every append must be signed with the same key.
    """
    data = _header_frame(header, path, sign)
    write_file_atomically(path, data, replace=False)
    return frame_hash(data)


def write_log(path: str | Path, header: Header, events: Iterable[Any],
              sign: Sign | None = None) -> bytes:
    """Write a whole log at once (the simulator's way), replacing any file there atomically.

    The events are one commit, in one frame: a match is stored whole or not at all."""
    batch = list(events)
    data, head = encode_log(header, [batch] if batch else [], path, sign)
    write_file_atomically(path, data, replace=True)
    return head


class Appended(NamedTuple):
    next_seq: int
    head: bytes
    """The hash of the frame just written: the log's new anchor."""


def append_events(path: str | Path, events: Iterable[Any], *, expected_seq: int,
                  check: Check | None = None, sign: Sign | None = None) -> Appended:
    """Append events as records expected_seq, expected_seq + 1, ...: one commit, in one frame,
    so a crash keeps all of them or none.

    Under an exclusive lock for the whole call: the log is read and verified, expected_seq is
    compared with its next seq (ConcurrencyError), then check may refuse the batch by raising,
    and only then is the frame written and fsynced. A signed log takes only appends signed with
    its key, an unsigned one only unsigned appends (SigningError). Returns the next seq and
    the new head.
    """
    batch = list(events)
    with _locked(path, "r+b", fcntl.LOCK_EX) as f:
        log = decode_log(f.read(), path)
        if log.torn is not None:
            raise TornTailError(path, f"a torn tail of {log.torn.cut} bytes at byte "
                                      f"{log.torn.offset} must be cut first (repair_log)")
        if log.next_seq != expected_seq:
            raise ConcurrencyError(path, expected_seq, log.next_seq)
        records = list(_event_records(path, log.header.game, [batch] if batch else [],
                                      log.next_seq, log.head, sign))
        if records:
            _same_signer(path, log.stamps[-1], records[0][0].sig)
        if check is not None:
            check(log.header, log.events, batch)
        _write_at(f.fileno(), b"".join(framed for _, framed in records),
                  f.seek(0, os.SEEK_END))
    return Appended(log.next_seq + len(batch), frame_hash(records[-1][1]) if records else log.head)


KEY_ID_SIZE = 8
"""A stamp starts with the id of the key that made it (events.signing)."""


def _same_signer(path: str | Path, last: bytes | None, new: bytes | None) -> None:
    """A log is signed from its header on by one key, or not at all: anything else would leave
    records that `verify --key` must refuse."""
    if last is None and new is not None:
        raise SigningError(path, "the log was started unsigned; a signed append would leave "
                                 "it partly signed (start a new log with the key)")
    if last is not None and new is None:
        raise SigningError(path, f"the log is signed by key {last[:KEY_ID_SIZE].hex()}; "
                                 "appends must be signed with it too (--sign-key)")
    if last is not None and new is not None and last[:KEY_ID_SIZE] != new[:KEY_ID_SIZE]:
        raise SigningError(path, f"the log is signed by key {last[:KEY_ID_SIZE].hex()}, not by "
                                 f"the key given ({new[:KEY_ID_SIZE].hex()})")


def repair_log(path: str | Path) -> TornTail | None:
    """Cut a torn tail back to the last whole record, under the lock; returns what was cut.

    Corruption is not repaired: it raises LogCorrupt, since cutting there would drop whole records.
    """
    with _locked(path, "r+b", fcntl.LOCK_EX) as f:
        torn = decode_log(f.read(), path).torn
        if torn is not None:
            os.ftruncate(f.fileno(), torn.offset)
            os.fsync(f.fileno())
    return torn


def write_file_atomically(path: str | Path, data: bytes, *, replace: bool) -> None:
    """Write aside in the same directory, fsync, then rename (or link, to refuse overwriting).

    A failure is an OSError naming path, the file the caller asked for: the temporary file's
    name would only puzzle the person who never asked for it."""
    path = Path(path)
    temp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            _write_at(fd, data, 0)
            os.close(fd)
            fd = -1
            if replace:
                os.replace(temp, path)
            else:
                _link_new(temp, path)
        finally:
            if fd >= 0:
                os.close(fd)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temp)
        fsync_dir(path.parent)
    except OSError as err:
        if err.filename == str(path) and err.filename2 is None:
            raise
        raise OSError(err.errno, err.strerror or str(err), str(path)) from err


def _link_new(temp: Path, path: Path) -> None:
    try:
        os.link(temp, path)
    except FileExistsError:
        raise FileExistsError(errno.EEXIST, "a match log is already there; not replacing it",
                              str(path)) from None


def _write_at(fd: int, data: bytes, offset: int) -> None:
    """Write all of data at offset and fsync; on any failure, cut the file back to offset."""
    view, done = memoryview(data), 0
    try:
        while done < len(data):
            done += os.pwrite(fd, view[done:], offset + done)
        os.fsync(fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, offset)
        raise


def fsync_dir(directory: Path) -> None:
    """Make a new or renamed entry durable: the rename itself lives in the directory."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextlib.contextmanager
def _locked(path: str | Path, mode: str, how: int) -> Iterator[IO[bytes]]:
    """Open and flock path; if it was replaced while we waited, lock the new file instead."""
    while True:
        with open(path, mode) as f:
            fcntl.flock(f.fileno(), how)
            mine, now = os.fstat(f.fileno()), _stat_or_none(path)
            if now is not None and (mine.st_ino, mine.st_dev) == (now.st_ino, now.st_dev):
                yield f
                return


def _stat_or_none(path: str | Path) -> os.stat_result | None:
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic GC off meanwhile: decoding (and a chunk's replays, pipeline.ingest) creates
    many objects and no cycles worth finding on the way; the GC would only rescan them (2x)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
