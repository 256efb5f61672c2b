"""Which event union each game's logs hold, and the decoders built for it once.

A log's header names its game; the reader decodes the header alone first, then looks the game up
here to get a typed decoder for the events. Decoders are costly to build and cheap to reuse, so
they are cached per game.
"""
from __future__ import annotations

import functools
import typing
from pathlib import Path
from typing import Any

import msgspec

from events import eredan, vitorian
from events.base import Header, Record

_UNIONS: dict[str, Any] = {"vitorian": vitorian.Event, "eredan": eredan.Event}

HEADER_MSGPACK = msgspec.msgpack.Decoder(Record[Header])
HEADER_JSON = msgspec.json.Decoder(Record[Header])
ENCODER = msgspec.msgpack.Encoder()
JSON_ENCODER = msgspec.json.Encoder()


class UnknownGame(ValueError):
    """A header names a game this build has no event types for: its events cannot be read."""

    def __init__(self, game: object, path: str | Path | None = None) -> None:
        where = f"{path}: " if path is not None else ""
        known = ", ".join(sorted(_UNIONS))
        super().__init__(f"{where}unknown game {game!r} in the header (known games: {known})")
        self.game = game
        self.path = path


def register_game(name: str, union: Any) -> None:
    """Add a game; registering a name twice with another union would make old logs ambiguous."""
    if _UNIONS.get(name, union) is not union:
        raise ValueError(f"game {name!r} is already registered with another event union")
    _UNIONS[name] = union


def known_games() -> tuple[str, ...]:
    return tuple(sorted(_UNIONS))


def event_union(game: str) -> Any:
    try:
        return _UNIONS[game]
    except (KeyError, TypeError):
        raise UnknownGame(game) from None


@functools.cache
def event_types(game: str) -> tuple[type, ...]:
    """The concrete event classes, for isinstance checks before anything is written."""
    union = event_union(game)
    return typing.get_args(union) or (union,)


@functools.cache
def record_type(game: str) -> Any:
    """Record[union of the game's events], the type one event record decodes to."""
    union = event_union(game)
    return Record[union]  # type: ignore[valid-type]


@functools.cache
def msgpack_decoder(game: str) -> msgspec.msgpack.Decoder[Any]:
    return msgspec.msgpack.Decoder(record_type(game))


@functools.cache
def json_decoder(game: str) -> msgspec.json.Decoder[Any]:
    return msgspec.json.Decoder(record_type(game))


def record_decoder(path: str | Path, game: str, schema: int, codec: str) -> Any:
    """Decode one event record of `codec` ("msgpack" or "json"): the cached typed decoder, or,
    for events of an older schema, decode raw, upcast the event, then convert."""
    from events import upcast

    try:
        typed = msgpack_decoder(game) if codec == "msgpack" else json_decoder(game)
    except UnknownGame:
        raise UnknownGame(game, path) from None
    if not upcast.events_change(schema):
        return typed.decode
    target = record_type(game)
    raw_decode = msgspec.msgpack.decode if codec == "msgpack" else msgspec.json.decode

    def decode(data: Any) -> Any:
        raw = raw_decode(data)
        if not (isinstance(raw, list) and len(raw) == 3 and isinstance(raw[2], dict)):
            raise msgspec.DecodeError("not a [seq, prev, event] record")
        raw[2] = upcast.upcast_event(game, raw[2], schema)
        return msgspec.convert(raw, target)
    return decode
