"""Reading logs written under an older schema: upcasters from version N to N+1.

Logs are never rewritten in place (their hash chain is over the stored bytes), so an old log is
brought up to date on every read: the raw decoded record (msgspec builtins: dicts, lists, bytes)
goes through each upcaster in turn, and only then is converted to today's typed structs. Writing
always uses the current schema (events.base.SCHEMA_VERSION).

An upcaster is a plain function of the raw header (or of a raw event body) registered for the
version it upgrades from; it returns the dict for the next version and must set "schema" to it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from events.base import SCHEMA_VERSION

RawDict = dict[str, Any]
HeaderUpcaster = Callable[[RawDict], RawDict]
EventUpcaster = Callable[[str, RawDict], RawDict]
"""Takes the game name and one raw event body."""

_HEADER: dict[int, HeaderUpcaster] = {}
_EVENT: dict[int, EventUpcaster] = {}


class UpcastError(ValueError):
    """An old record does not have the layout its schema version promises."""


def header_upcaster(from_version: int) -> Callable[[HeaderUpcaster], HeaderUpcaster]:
    """Register fn as the header upcaster from from_version to from_version + 1."""
    def register(fn: HeaderUpcaster) -> HeaderUpcaster:
        _HEADER[from_version] = fn
        return fn
    return register


def event_upcaster(from_version: int) -> Callable[[EventUpcaster], EventUpcaster]:
    """Register fn as the event upcaster from from_version to from_version + 1."""
    def register(fn: EventUpcaster) -> EventUpcaster:
        _EVENT[from_version] = fn
        return fn
    return register


def schema_of(raw_header: Any) -> int:
    """The stored schema version, refusing versions this build cannot read."""
    if not isinstance(raw_header, dict):
        raise UpcastError(f"the header is a {type(raw_header).__name__}, not a map")
    schema = raw_header.get("schema", SCHEMA_VERSION)
    if type(schema) is not int or schema < 1:
        raise UpcastError(f"the header's schema version {schema!r} is not a positive integer")
    if schema > SCHEMA_VERSION:
        raise UpcastError(f"schema {schema} is newer than this build reads "
                          f"(up to {SCHEMA_VERSION}): upgrade postgame")
    return schema


def upcast_header(raw: RawDict) -> RawDict:
    """Bring a raw header up to SCHEMA_VERSION, one registered step at a time."""
    schema = schema_of(raw)
    while schema < SCHEMA_VERSION:
        step = _HEADER.get(schema)
        if step is None:
            raise UpcastError(f"no header upcaster from schema {schema} to {schema + 1}")
        raw = step(dict(raw))
        if raw.get("schema") != schema + 1:
            raise UpcastError(f"the upcaster from schema {schema} did not set schema {schema + 1}")
        schema += 1
    return raw


def events_change(schema: int) -> bool:
    """Whether events stored under this schema need upcasting (if not, typed decoding is direct)."""
    return any(version in _EVENT for version in range(schema, SCHEMA_VERSION))


def upcast_event(game: str, raw: RawDict, schema: int) -> RawDict:
    """Bring one raw event body from schema up to SCHEMA_VERSION."""
    for version in range(schema, SCHEMA_VERSION):
        step = _EVENT.get(version)
        if step is not None:
            raw = step(game, raw)
    return raw


@header_upcaster(1)
def upcast_v1_v2(header: RawDict) -> RawDict:
    """Schema 1 kept two parallel lists, players and decks; schema 2 has one seat per player.

    Seats are numbered from 0 in the order of the lists, as the events' `seat` fields always were.
    """
    players = header.pop("players", None)
    decks = header.pop("decks", None)
    if not isinstance(players, list) or not isinstance(decks, list):
        raise UpcastError("a schema 1 header needs the lists 'players' and 'decks'")
    if len(players) != len(decks):
        raise UpcastError(f"a schema 1 header has {len(players)} players "
                          f"but {len(decks)} decks")
    header["seats"] = [{"seat": seat, "player": player, "deck": deck}
                       for seat, (player, deck) in enumerate(zip(players, decks))]
    header["schema"] = 2
    return header


@header_upcaster(2)
def upcast_v2_v3(header: RawDict) -> RawDict:
    """The header itself is unchanged: schema 3 changed the frames after it, each of which holds
    a commit (a list of events) where schema 2 held one event (events.games.frame_decoder)."""
    header["schema"] = 3
    return header


@header_upcaster(3)
def upcast_v3_v4(header: RawDict) -> RawDict:
    """Schema 3 seats held a deck list as "deck"; schema 4 seats hold their game's setup, which
    for the card games is that same deck list."""
    seats = header.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        raise UpcastError("a schema 3 header needs a list of seats")
    header["seats"] = [{("setup" if key == "deck" else key): value for key, value in s.items()}
                       for s in seats]
    header["schema"] = 4
    return header
