"""The game-independent parts of a match log: the header, deck lists and the record envelope."""
from __future__ import annotations

from datetime import datetime
from typing import Any, Generic, Literal, TypeVar

import msgspec

SCHEMA_VERSION = 4
"""Version of the log schema written today; older logs are upcast on read (events.upcast).

2 -> 3: an event record holds the list of events appended together (a commit), not one event.
3 -> 4: a seat holds its game's own setup (a deck list, a character sheet...), its side and its
role, and the header an optional scenario block, each decoded through its game's types."""


class DeckEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
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


class Seat(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True,
           omit_defaults=True):
    """One seat at the table: who plays it, on which side and in which role (games whose seats
    are all alike leave both out), and what it brings to the match, in its game's own terms.

    `setup` is the game's setup type (its registration's "setup" layer: a DeckList for the card
    games); a header read from bytes gets it through events.games.typed_header."""

    seat: int
    player: str
    setup: Any
    side: str | None = None
    role: str | None = None


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
    scenario: Any = None
    """The scenario block of a game played from scenarios (its "scenario" layer's type)."""


E = TypeVar("E")


class Record(msgspec.Struct, Generic[E], frozen=True, array_like=True, gc=False):
    """One framed record of a log: a sequence number, the hash of the frame before it, a body.

    The first frame holds the Header with seq 0. Each later frame holds one commit: the list of
    events appended together, the first of them numbered seq and the others seq + 1, seq + 2...
    (events are numbered from 1 in log order, whatever the commits).
    """

    seq: int
    prev: bytes
    body: E
    sig: bytes | None = None
    """The recorder's stamp on a signed log (events.signing); stored only when there is one."""

    def fields(self) -> tuple[Any, ...]:
        """What the record's encoding holds: [seq, prev, body], and sig on a signed log (so an
        unsigned record is the three-element array it has always been)."""
        if self.sig is None:
            return (self.seq, self.prev, self.body)
        return (self.seq, self.prev, self.body, self.sig)


class Line(msgspec.Struct, Generic[E], frozen=True, array_like=True, gc=False):
    """One line of the JSON-lines form: one event with its seq; prev (the hash of the frame
    before) is given on the first event of each commit and null on the others."""

    seq: int
    prev: bytes | None
    body: E
    sig: bytes | None = None
    """The commit's stamp on a signed log, on its first line like prev."""

    def fields(self) -> tuple[Any, ...]:
        if self.sig is None:
            return (self.seq, self.prev, self.body)
        return (self.seq, self.prev, self.body, self.sig)


def private_fields(event: Any) -> tuple[str, ...]:
    """Fields of an event that only its own seat (and the organiser) may read: cards it looked
    at or chose in secret. Event classes declare them as a `private` ClassVar."""
    return tuple(getattr(type(event), "private", ()))


def count_is_public(event: Any) -> bool:
    """Whether another seat may know how many cards a private field holds (a Vitorian kept
    hand's bottomed cards: yes). An event whose count is secret too (an Eredan submission, which
    may hold 0 to 2 cards) declares `count_public = False`."""
    return bool(getattr(type(event), "count_public", True))


def redacted(event: Any) -> dict[str, Any]:
    """The event as another seat may read it: each private card becomes None, so the count of
    cards stays public (unless the event keeps it secret too: then the field is None) and
    their identities do not."""
    data = msgspec.to_builtins(event)
    counted = count_is_public(event)
    for name in private_fields(event):
        value = data.get(name)
        data[name] = [None] * len(value) if counted and isinstance(value, (list, tuple)) \
            else None
    return data


ActorKind = Literal["seat", "chance", "storyteller"]


def actor_kind(event: Any) -> ActorKind:
    """Who logs an event of this type: a seat's decision (the default), a chance outcome (a
    shuffle, a die roll: the dealer's, hidden from all but the organiser unless the game shows
    it) or a Storyteller's ruling. Event classes other than decisions declare a `by` ClassVar."""
    by = getattr(type(event), "by", "seat")
    if by == "chance":
        return "chance"
    return "storyteller" if by == "storyteller" else "seat"
