"""The game-independent parts of a match log: the header, deck lists and the record envelope."""
from __future__ import annotations

from datetime import datetime
from typing import Generic, TypeVar

import msgspec

SCHEMA_VERSION = 2
"""Version of the log schema written today; older logs are upcast on read (events.upcast)."""


class DeckEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    card: str
    count: int


class DeckList(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A deck list as sections of entries, named in the game's own words.

    Vitorian Wars: sovereign, maneuver, defense, convoy. Eredan: characters, deck.
    """

    name: str = ""
    sections: dict[str, list[DeckEntry]]

    def section(self, name: str) -> list[DeckEntry]:
        return self.sections.get(name, [])


class Seat(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    seat: int
    player: str
    deck: DeckList


class Header(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True, tag="header"):
    schema: int = SCHEMA_VERSION
    game: str
    ruleset: str
    match_id: str
    seats: list[Seat]
    tournament: str | None = None
    format: str = "standard"
    round: int | None = None
    table: int | None = None
    started_at: datetime | None = None
    seed: int | None = None


E = TypeVar("E")


class Record(msgspec.Struct, Generic[E], frozen=True, array_like=True, gc=False):
    """One framed record of a log: its sequence number, the hash of the record before it, a body.

    Record 0 holds the Header; records 1.. hold one event each.
    """

    seq: int
    prev: bytes
    body: E
