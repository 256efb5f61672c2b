"""JSON lines: the human and interchange form of a match log, header first, then one event a line.

The header line is the msgspec JSON of the header ``events.base.Record`` the binary log stores;
each event line is an ``events.base.Line``: its seq, the prev hash (base64) on the first event of
each commit and null on the others, and the event. So a JSONL file keeps the log's commits and
its own tamper evidence: converting it back rebuilds each binary frame and checks that every
prev names the frame before it. binary -> JSONL -> binary gives the same bytes. Hand-edited
files, whose hashes no longer match, are read with ``rechain=True``, which renumbers and rehashes
them instead.
"""
from __future__ import annotations

import dataclasses
import itertools
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import msgspec

from events import games, upcast
from events.base import SCHEMA_VERSION, Header, Line, Record
from events.log import (
    FRAME,
    GENESIS,
    LogError,
    LogFile,
    TornTailError,
    encode_records,
    frame_hash,
    read_log,
    write_file_atomically,
)

Format = Literal["binary", "jsonl"]


class JsonlError(LogError):
    """A line of a JSONL log is not the record it must be; line numbers start at 1."""

    def __init__(self, path: str | Path, line: int, reason: str) -> None:
        super().__init__(path, f"line {line}: {reason}")
        self.line, self.reason = line, reason


def detect_format(path: str | Path) -> Format:
    """Binary if the file starts with a whole frame whose CRC holds, JSONL if it starts with [ or {.

    The CRC comes first because a binary log's first byte is its header's length, which may
    happen to be the code of '[' or '{'. Anything else is left to the binary reader to explain.
    """
    with open(path, "rb") as f:
        start = f.read(FRAME.size)
        if len(start) == FRAME.size:
            length, crc = FRAME.unpack(start)
            payload = f.read(length)
            if length and len(payload) == length and zlib.crc32(payload) == crc:
                return "binary"
    return "jsonl" if start.lstrip()[:1] in (b"[", b"{") else "binary"


def load_log(path: str | Path, *, rechain: bool = False) -> LogFile:
    """Read a log in either form."""
    if detect_format(path) == "jsonl":
        return read_jsonl(path, rechain=rechain)
    return read_log(path)


def to_jsonl(src: str | Path, dst: str | Path) -> LogFile:
    """Write the JSONL form of a binary log (atomically); returns the log as read.

    Refuses a torn tail (repair it first: it is no part of the log). An older-schema log is
    written in today's schema, with the hashes its records have once written today.
    """
    if detect_format(src) != "binary":
        raise LogError(src, "is JSON lines already")
    log = read_log(src)
    if log.torn is not None:
        raise TornTailError(src, f"has a torn tail of {log.torn.cut} bytes at byte "
                                 f"{log.torn.offset}; cut it first (repair_log)")
    lines, head = [], b""
    for record, data in encode_records(log.header, log.batches(), src):
        lines.extend(_lines(record))
        head = frame_hash(data)
    if log.schema == SCHEMA_VERSION and head != log.head:
        raise LogError(src, "re-encoding its records does not give back its bytes (another "
                            "encoder wrote it?); not converting, the JSONL would not be lossless")
    write_file_atomically(dst, b"\n".join(lines) + b"\n", replace=True)
    return log


def from_jsonl(src: str | Path, dst: str | Path, *, rechain: bool = False) -> LogFile:
    """Write the binary log of a JSONL file (atomically, replacing dst); returns it as written."""
    if detect_format(src) != "jsonl":
        raise LogError(src, "is a binary log, not JSON lines")
    log, data = _parse(src, rechain)
    write_file_atomically(dst, data, replace=True)
    return dataclasses.replace(log, path=Path(dst))


def read_jsonl(path: str | Path, *, rechain: bool = False) -> LogFile:
    """Read and check a JSONL log: every line a record, seqs in order, the hash chain whole."""
    return _parse(path, rechain)[0]


def _parse(path: str | Path, rechain: bool) -> tuple[LogFile, bytes]:
    """The log and the exact bytes of its binary form."""
    with open(path, "rb") as f:
        lines = _split(path, f.read())
    header, schema, first = _header(path, lines[0])
    if schema < SCHEMA_VERSION and not rechain:
        raise JsonlError(path, 1, f"schema {schema} records hash their old binary form, which "
                                  "cannot be rebuilt; read with rechain=True to rehash them")
    decode = games.line_decoder(path, header.game, schema)
    given = [_decoded(path, number, line, decode)
             for number, line in enumerate(lines[1:], start=2)]
    starts = _commit_starts(path, given, rechain)
    commits = [[line.body for line in given[a:b]] for a, b in itertools.pairwise(starts)]
    made = list(encode_records(header, commits, path))
    if not rechain:
        places = [(first, 1)] + [(given[i], i + 2) for i in starts[:-1]]
        for (line, number), (record, _) in zip(places, made):
            _same_place(path, line, record, number)
        _numbered(path, given)
    frames = [data for _, data in made]
    events = [line.body for line in given]
    log = LogFile(Path(path), header, events, frame_hash(frames[-1]), None, schema,
                  tuple(b - a for a, b in itertools.pairwise(starts)))
    return log, b"".join(frames)


def _lines(record: Record[Any]) -> list[bytes]:
    """The JSONL lines of one binary record: the header's own, or one per event of a commit."""
    if record.seq == 0:
        return [games.JSON_ENCODER.encode(record)]
    return [games.JSON_ENCODER.encode(Line(seq=record.seq + i, prev=None if i else record.prev,
                                           body=event)) for i, event in enumerate(record.body)]


def _commit_starts(path: str | Path, lines: list[Line[Any]], rechain: bool) -> list[int]:
    """Where each commit starts among the event lines (a line with a prev), then the end."""
    if lines and lines[0].prev is None and not rechain:
        raise JsonlError(path, 2, "the first event line must give its prev hash (it starts "
                                  "a commit)")
    return [i for i, line in enumerate(lines) if i == 0 or line.prev is not None] + [len(lines)]


def _split(path: str | Path, data: bytes) -> list[bytes]:
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    if not lines:
        raise JsonlError(path, 1, "the file is empty: no header line")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            raise JsonlError(path, number, "blank line")
    return lines


def _header(path: str | Path, line: bytes) -> tuple[Header, int, Record[Header]]:
    """The header record, upcast from the raw JSON if it is of an older schema."""
    try:
        raw = msgspec.json.decode(line)
        if not (isinstance(raw, list) and len(raw) == 3):
            raise msgspec.DecodeError("not a [seq, prev, header] array")
        schema = upcast.schema_of(raw[2])
        if schema == SCHEMA_VERSION:
            record = games.HEADER_JSON.decode(line)
        else:
            raw[2] = upcast.upcast_header(raw[2])
            record = msgspec.convert(raw, Record[Header])
    except (msgspec.DecodeError, upcast.UpcastError) as e:
        raise JsonlError(path, 1, f"not a header record: {e}") from None
    return record.body, schema, record


def _decoded(path: str | Path, number: int, line: bytes,
             decode: Callable[[bytes], Any]) -> Line[Any]:
    try:
        return decode(line)  # type: ignore[no-any-return]
    except (msgspec.DecodeError, upcast.UpcastError) as e:
        raise JsonlError(path, number, f"not a record: {e}") from None


def _same_place(path: str | Path, given: Record[Any] | Line[Any], made: Record[Any],
                number: int) -> None:
    """A commit's first line must have the seq and prev of the binary record it becomes."""
    if given.seq != made.seq:
        raise JsonlError(path, number, f"seq {given.seq} where {made.seq} belongs "
                                       "(renumber with rechain=True)")
    if given.prev != made.prev:
        what = "is not all zeros" if made.prev == GENESIS else "does not match the lines above"
        raise JsonlError(path, number, f"its prev hash {what} (edited? rehash with rechain=True)")


def _numbered(path: str | Path, lines: list[Line[Any]]) -> None:
    """Every event line's seq must be its place in the log (events are numbered from 1)."""
    for seq, line in enumerate(lines, start=1):
        if line.seq != seq:
            raise JsonlError(path, seq + 1, f"seq {line.seq} where {seq} belongs "
                                            "(renumber with rechain=True)")
