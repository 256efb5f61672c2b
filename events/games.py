"""Which event union each game's logs hold, and the decoders built for it once.

A log's header names its game; the reader decodes the header alone first, then looks the game
up in the game registry (engine.registry, the game's "events" layer) to get a typed decoder for
the events. This module imports no game: only the games a build actually reads are imported.
Decoders are costly to build and cheap to reuse, so they are cached per game.
"""
from __future__ import annotations

import functools
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from engine import registry
from events.base import Header, Line, Record, Seat

HEADER_MSGPACK = msgspec.msgpack.Decoder(Record[Header])
HEADER_JSON = msgspec.json.Decoder(Record[Header])
ENCODER = msgspec.msgpack.Encoder()
JSON_ENCODER = msgspec.json.Encoder()


class UnknownGame(ValueError):
    """A header names a game this build has no event types for: its events cannot be read."""

    def __init__(self, game: object, path: str | Path | None = None) -> None:
        where = f"{path}: " if path is not None else ""
        known = ", ".join(known_games())
        super().__init__(f"{where}unknown game {game!r} in the header (known games: {known})")
        self.game = game
        self.path = path


def known_games() -> tuple[str, ...]:
    return tuple(registry.known_games())


def event_union(game: str) -> Any:
    """The union of a game's event Structs: its registration's "events" layer."""
    if not registry.is_registered(game):
        raise UnknownGame(game)
    return registry.layer(game, "events")


@functools.cache
def event_types(game: str) -> tuple[type, ...]:
    """The concrete event classes, for isinstance checks before anything is written."""
    union = event_union(game)
    return typing.get_args(union) or (union,)


class SetupError(ValueError):
    """A seat's setup or the scenario block is not what its game's types describe."""


@functools.cache
def setup_types(game: str) -> tuple[Any, Any]:
    """A game's seat setup type and scenario type (None: the game has no scenarios)."""
    scenario = registry.layer(game, "scenario") if registry.has_layer(game, "scenario") else None
    return registry.layer(game, "setup"), scenario


def typed_header(header: Header) -> Header:
    """The header with each seat's setup and its scenario converted to its game's own types
    (a header decodes them as plain data first, since its game is known only once it is read).
    A game this build does not know is left as read: reading its events refuses it."""
    if not registry.is_registered(header.game):
        return header
    setup, scenario = setup_types(header.game)
    seats = [_typed_seat(seat, setup) for seat in header.seats]
    if header.scenario is not None and scenario is None:
        raise SetupError(f"$.scenario: game {header.game!r} is not played from scenarios")
    block = header.scenario
    if scenario is not None and block is not None and not isinstance(block, scenario):
        block = _converted(block, scenario, "$.scenario")
    return msgspec.structs.replace(header, seats=seats, scenario=block)


def _typed_seat(seat: Seat, setup: Any) -> Seat:
    if isinstance(setup, type) and isinstance(seat.setup, setup):
        return seat
    at = f"$.seats[{seat.seat}].setup"
    return msgspec.structs.replace(seat, setup=_converted(seat.setup, setup, at))


def _converted(data: Any, kind: Any, at: str) -> Any:
    try:
        return msgspec.convert(data, kind)
    except msgspec.ValidationError as e:
        text = str(e)
        where = text.rpartition(" - at `$")
        reason, inner = (where[0], where[2].rstrip("`")) if where[1] else (text, "")
        raise SetupError(f"{at}{inner}: {reason}") from None


COMMITS_SINCE = 3
"""The schema from which an event frame holds a commit (a list of events), not one event."""


@functools.cache
def commit_type(game: str) -> Any:
    """Record[list[union of the game's events]]: one event frame, a commit of one or more."""
    return Record[list[event_union(game)]]  # type: ignore[misc]


@functools.cache
def line_type(game: str) -> Any:
    """Line[union of the game's events]: one event line of the JSON-lines form."""
    return Line[event_union(game)]  # type: ignore[misc]


@functools.cache
def _single_type(game: str) -> Any:
    """Record[union]: an event frame of schema 1 or 2, which held one event."""
    return Record[event_union(game)]  # type: ignore[misc]


@functools.cache
def _msgpack(kind: Any) -> msgspec.msgpack.Decoder[Any]:
    return msgspec.msgpack.Decoder(kind)


@functools.cache
def _json(kind: Any) -> msgspec.json.Decoder[Any]:
    return msgspec.json.Decoder(kind)


def frame_decoder(path: str | Path, game: str, schema: int) -> Callable[[Any], Any]:
    """Decode one event frame's payload into a commit, Record[list[event]], whatever the schema
    it was written with: the cached typed decoder for today's frames; a one-event commit for a
    frame of schema 1 or 2; raw decoding, event upcasters, then conversion for events of an older
    layout."""
    from events import upcast

    try:
        return _frame_decoder(game, schema < COMMITS_SINCE,
                              schema if upcast.events_change(schema) else None)
    except UnknownGame:
        raise UnknownGame(game, path) from None


@functools.cache
def _frame_decoder(game: str, single: bool, upcast_from: int | None) -> Callable[[Any], Any]:
    """Cached by what shapes the decoding: commits or single events, and the schema to upcast
    events from (None: no upcaster applies)."""
    from events import upcast

    if upcast_from is not None:
        def decode_old(data: Any) -> Any:
            seq, prev, body = _raw_record(_untyped(msgspec.msgpack.decode, data))
            bodies = [body] if single else body
            if not (isinstance(bodies, list) and all(isinstance(b, dict) for b in bodies)):
                raise msgspec.DecodeError("the body is not a list of events")
            return msgspec.convert([seq, prev, [upcast.upcast_event(game, raw, upcast_from)
                                                for raw in bodies]], commit_type(game))
        return decode_old
    if not single:
        return _msgpack(commit_type(game)).decode
    decode = _msgpack(_single_type(game)).decode

    def decode_single(data: Any) -> Any:
        record = decode(data)
        return Record(seq=record.seq, prev=record.prev, body=[record.body])
    return decode_single


def line_decoder(path: str | Path, game: str, schema: int) -> Callable[[bytes], Any]:
    """Decode one event line of the JSON-lines form into Line[event], upcasting older events."""
    from events import upcast

    try:
        kind = line_type(game)
    except UnknownGame:
        raise UnknownGame(game, path) from None
    if not upcast.events_change(schema):
        return _json(kind).decode

    def decode_old(data: bytes) -> Any:
        seq, prev, body = _raw_record(_untyped(msgspec.json.decode, data))
        if not isinstance(body, dict):
            raise msgspec.DecodeError("the body is not an event")
        return msgspec.convert([seq, prev, upcast.upcast_event(game, body, schema)], kind)
    return decode_old


def _untyped(decode: Callable[[Any], Any], data: Any) -> Any:
    """Decode without a type, so into any depth: msgspec raises RecursionError for deep
    nesting, which is a bad record (a DecodeError, what every reader catches), not a crash."""
    try:
        return decode(data)
    except RecursionError:
        raise msgspec.DecodeError("the record is nested too deeply") from None


def _raw_record(raw: Any) -> tuple[Any, Any, Any]:
    if not (isinstance(raw, list) and len(raw) == 3):
        raise msgspec.DecodeError("not a [seq, prev, body] record")
    return raw[0], raw[1], raw[2]
