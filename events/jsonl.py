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
import re
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
    Sign,
    TornTailError,
    encode_records,
    frame_hash,
    one_line,
    read_log,
    rebuilt_records,
    write_file_atomically,
)

Format = Literal["binary", "jsonl"]
BOM = b"\xef\xbb\xbf"
"""The UTF-8 byte-order mark some editors put first in a text file; a reader skips it."""
INT_MIN, INT_MAX = -(2**63), 2**64 - 1
"""The integers a binary log can hold (msgpack's: int64's least to uint64's greatest); JSON
has no bound, so a JSON form with a bigger one has no binary form and is refused as read."""
_BYTE = re.compile(r"\(byte (\d+)\)")
OUT_OF_RANGE = f"an integer outside the range a log can hold ({INT_MIN} to {INT_MAX})"


class JsonlError(LogError):
    """A line of a JSONL log is not the record it must be; line numbers start at 1."""

    def __init__(self, path: str | Path, line: int, reason: str) -> None:
        super().__init__(path, f"line {line}: {reason}")
        self.line, self.reason = line, one_line(reason)


class HeaderError(LogError):
    """A match header given as JSON (what `postgame log start` reads) is not one; the reason
    names where: a line and column, or the JSON path of the field (`$.seats[0].seat`)."""

    def __init__(self, path: str | Path, reason: str) -> None:
        super().__init__(path, f"not a match header: {reason}")
        self.reason = reason


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
    return "jsonl" if start.removeprefix(BOM).lstrip()[:1] in (b"[", b"{") else "binary"


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
    for record, data in rebuilt_records(log):
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


def decode_jsonl(data: bytes, path: str | Path = "<jsonl>") -> tuple[LogFile, bytes]:
    """A JSONL log from bytes already read, and the exact bytes of its binary form; path only
    names it in errors."""
    return _parse(path, False, data)


def _parse(path: str | Path, rechain: bool, data: bytes | None = None
           ) -> tuple[LogFile, bytes]:
    """The log and the exact bytes of its binary form (from data, else the file)."""
    if data is None:
        with open(path, "rb") as f:
            data = f.read()
    lines = _split(path, utf8_text(path, data))
    header, schema, first = _header(path, lines[0])
    if schema < SCHEMA_VERSION and not rechain:
        raise JsonlError(path, 1, f"schema {schema} records hash their old binary form, which "
                                  "cannot be rebuilt; read with rechain=True to rehash them")
    decode = games.line_decoder(path, header.game, schema)
    given = [_decoded(path, number, line, decode)
             for number, line in enumerate(lines[1:], start=2)]
    starts = _commit_starts(path, given, rechain)
    commits = [[line.body for line in given[a:b]] for a, b in itertools.pairwise(starts)]
    opening: list[Record[Any] | Line[Any]] = [first, *(given[i] for i in starts[:-1])]
    stamps = {line.seq: line.sig for line in opening}
    made = _encoded(path, lines, header, commits, lambda record: stamps.get(record.seq))
    if not rechain:
        places = [(first, 1)] + [(given[i], i + 2) for i in starts[:-1]]
        for (line, number), (record, _) in zip(places, made):
            _same_place(path, line, record, number)
        _numbered(path, given)
    frames = [data for _, data in made]
    events = [line.body for line in given]
    log = LogFile(Path(path), header, events, frame_hash(frames[-1]), None, schema,
                  tuple(b - a for a, b in itertools.pairwise(starts)),
                  tuple(record.sig for record, _ in made))
    return log, b"".join(frames)


def decode_header(data: bytes, path: str | Path = "<header>") -> Header:
    """A match header from its JSON (events.base.Header), as a person or a client sends it to
    start a live log: a leading byte-order mark skipped, and every integer one the log can hold,
    so that the only errors are HeaderError (or JsonlError for bytes that are not UTF-8)."""
    text = utf8_text(path, data)
    try:
        header = msgspec.json.decode(text, type=Header)
    except (msgspec.DecodeError, RecursionError) as e:
        raise HeaderError(path, _located(text, e)) from None
    try:
        header = games.typed_header(header)
    except games.SetupError as e:
        raise HeaderError(path, str(e)) from None
    try:
        games.ENCODER.encode(header)
    except OverflowError:
        raise HeaderError(path, f"{big_int_at(msgspec.json.decode(text))}: {OUT_OF_RANGE}"
                          ) from None
    return header


def decode_events(data: bytes, game: str, path: str | Path = "<events>") -> list[Any]:
    """Events of `game`, one JSON object a line (blank lines skipped), as `postgame log append`
    reads them: each one a log can hold, so appending cannot fail on encoding."""
    try:
        decode = msgspec.json.Decoder(games.event_union(game)).decode
    except games.UnknownGame:
        raise games.UnknownGame(game, path) from None
    events = []
    for number, line in enumerate(utf8_text(path, data).split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            event = decode(line)
            games.ENCODER.encode(event)
        except (msgspec.DecodeError, RecursionError) as e:
            raise JsonlError(path, number, f"not a {game} event: {e}") from None
        except OverflowError:
            raise JsonlError(path, number, f"{big_int_at(msgspec.json.decode(line))}: "
                                           f"{OUT_OF_RANGE}") from None
        events.append(event)
    return events


def utf8_text(path: str | Path, data: bytes) -> bytes:
    """The bytes of a text file without a leading byte-order mark, refused unless UTF-8 (JSON
    must be): the error names the line and column of the first bad byte."""
    data = data.removeprefix(BOM)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        line, column = _line_column(data, e.start)
        raise JsonlError(path, line, f"not UTF-8 text: byte 0x{data[e.start]:02x} at column "
                                     f"{column}") from None
    return data


def big_int_at(value: Any, where: str = "$") -> str:
    """The JSON path of the first integer a log cannot hold in a decoded JSON value (a path the
    way msgspec names fields, `$[2].seat`), or `where` itself if there is none below it."""
    if isinstance(value, dict):
        items = [(f"{where}.{key}", item) for key, item in value.items()]
    elif isinstance(value, list):
        items = [(f"{where}[{i}]", item) for i, item in enumerate(value)]
    else:
        items = []
    for place, item in items:
        if isinstance(item, int) and not isinstance(item, bool) and \
                not INT_MIN <= item <= INT_MAX:
            return place
        if isinstance(item, (dict, list)) and (found := big_int_at(item, place)) != place:
            return found
    return where


def _line_column(data: bytes, offset: int) -> tuple[int, int]:
    """Line and column (both from 1) of a byte offset."""
    return data.count(b"\n", 0, offset) + 1, offset - (data.rfind(b"\n", 0, offset) + 1) + 1


def _located(text: bytes, error: Exception) -> str:
    """msgspec's reason, its "(byte N)" told as a line and column a person can go to."""
    if isinstance(error, RecursionError):
        return "the JSON is nested too deeply"
    return _BYTE.sub(lambda found: "(line {}, column {})".format(
        *_line_column(text, int(found.group(1)))), str(error))


def _encoded(path: str | Path, lines: list[bytes], header: Header,
             commits: list[list[Any]], sign: Sign | None = None
             ) -> list[tuple[Record[Any], bytes]]:
    """The binary records of the log. JSON decoding takes integers of any size, msgpack does
    not: such an integer is the error of the line that holds it, not an OverflowError."""
    try:
        return list(encode_records(header, commits, path, sign))
    except OverflowError:
        pass
    for number, line in enumerate(lines, start=1):
        where = big_int_at(msgspec.json.decode(line))
        if where != "$":
            raise JsonlError(path, number, f"{where}: {OUT_OF_RANGE}")
    raise JsonlError(path, 1, OUT_OF_RANGE)


def _lines(record: Record[Any]) -> list[bytes]:
    """The JSONL lines of one binary record: the header's own, or one per event of a commit."""
    if record.seq == 0:
        return [games.JSON_ENCODER.encode(record.fields())]
    return [games.JSON_ENCODER.encode(
        Line(seq=record.seq + i, prev=None if i else record.prev, body=event,
             sig=None if i else record.sig).fields()) for i, event in enumerate(record.body)]


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
        if not (isinstance(raw, list) and len(raw) in (3, 4)):
            raise msgspec.DecodeError("not a [seq, prev, header] array")
        schema = upcast.schema_of(raw[2])
        if schema == SCHEMA_VERSION:
            record = games.HEADER_JSON.decode(line)
        else:
            raw[2] = upcast.upcast_header(raw[2])
            record = msgspec.convert(raw, Record[Header])
        header = games.typed_header(record.body)
    except (msgspec.DecodeError, upcast.UpcastError, RecursionError, games.SetupError) as e:
        raise JsonlError(path, 1, f"not a header record: {e}") from None
    return header, schema, msgspec.structs.replace(record, body=header)


def _decoded(path: str | Path, number: int, line: bytes,
             decode: Callable[[bytes], Any]) -> Line[Any]:
    try:
        return decode(line)  # type: ignore[no-any-return]
    except (msgspec.DecodeError, upcast.UpcastError, RecursionError) as e:
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
