"""What a Bid log holds: the seats' builds, the header's scenario block, the events (the
Storyteller's rulings and the seats' bids) and the changes the rules derive from them.

A bid is its seat's secret until every seat has bid: the event declares its amount `private`
and the change that carries it names the bidder as the only seat that may see it."""
from __future__ import annotations

from typing import ClassVar

import msgspec

from engine.ruleset import Change


class Build(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """What a seat brings (the setup layer): its coins and its guard (BID-1.2)."""

    name: str
    purse: int
    guard: int


class Scenario(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The header's scenario block (the scenario layer): each side's strength, the rounds."""

    name: str
    title: str = ""
    strength: int
    rounds: int


class BidEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type",
               forbid_unknown_fields=True, omit_defaults=True):
    pass


class Ruling(BidEvent, frozen=True, tag="ruling"):
    """BID-2: the Storyteller favours a side this round, or calls it calm (no side, bonus 0)."""

    by: ClassVar[str] = "storyteller"
    favours: str | None = None
    bonus: int = 0


class Bid(BidEvent, frozen=True, tag="bid"):
    """BID-3: a seat's secret bid for the round."""

    seat: int
    amount: int
    private: ClassVar[tuple[str, ...]] = ("amount",)


Event = Ruling | Bid


class RoundBegan(Change, frozen=True, tag="round_began"):
    round: int


class Ruled(Change, frozen=True, tag="ruled"):
    favours: str | None = None
    bonus: int = 0


class Sealed(Change, frozen=True, tag="sealed"):
    """A seat's bid is in: how much, only that seat knows."""

    amount: int | None = None
    private: ClassVar[tuple[str, ...]] = ("amount",)


class Revealed(Change, frozen=True, tag="revealed"):
    """BID-4: every bid of the round, seat 0 first, shown to all once the last is in."""

    bids: tuple[int, ...]


class Struck(Change, frozen=True, tag="struck"):
    """BID-5: a side loses strength."""

    side: str
    damage: int
    strength: int


class BidOver(Change, frozen=True, tag="bid_over"):
    side: str | None = None
    rule: str = ""
