"""Eredan iTCG events: the decisions of each seat and the chance outcomes ("What a match log must
record" in the spec).

Consequences (draws, deck-out, untapping, Order bonuses, chains, activation order, ignores,
damage, healing, defeats, scores, the result) are derived by the engine, never logged. Cards and
characters are named by their instance id inside the match (see engine.eredan.state): deck cards
seat * 100 + 0..49, characters seat * 100 + 91..93 (position 1-3). Under eredan@1 a deck card's
id is its position in the expanded deck list; under eredan@2 a Deal gives the ids at random.
"""
from __future__ import annotations

from typing import ClassVar

import msgspec

Ids = tuple[int, ...]


class EredanEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type",
                  forbid_unknown_fields=True, gc=False):
    """gc=False: events hold no reference cycles, and skipping the collector's tracking makes
    decoding long logs markedly faster."""

    seat: int


# Chance outcomes ---------------------------------------------------------------------------

class Deal(EredanEvent, frozen=True, tag="deal"):
    """eredan@2: the instance id each card of the seat's deck gets, in the order of the expanded
    deck list. Characters are not dealt: the lines are public from the start (Hidden
    information) and keep seat * 100 + 90 + position.

    [decision] A uniformly random bijection onto seat * 100 + 0..n-1, dealt before the shuffle:
    under eredan@1 ids follow the list, so an opponent who sees ids 7 and 9 revealed as Fire Bolt
    knows id 8 is one too, and counts the copies of a list it may not see. Hidden from all but
    the organiser."""
    by: ClassVar[str] = "chance"

    labels: Ids


class Shuffle(EredanEvent, frozen=True, tag="shuffle"):
    """The order a deck shuffle produced, top card first (ER-4.2)."""
    by: ClassVar[str] = "chance"

    order: Ids


class Initiative(EredanEvent, frozen=True, tag="initiative"):
    """The initiative ticket drawn (ER-4.6); seat is its owner, who becomes Player 1.

    Tickets are numbered over both seats: seat 0's first, then seat 1's (ER-4.5)."""
    by: ClassVar[str] = "chance"

    ticket: int


# Decisions ---------------------------------------------------------------------------------

class ChooseCombatants(EredanEvent, frozen=True, tag="choose"):
    """Phase 1: the active player's combatant and the opposing one (ER-5.8)."""

    attacker: int
    defender: int


class Play(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False,
           omit_defaults=True):
    """One card of a Phase 2 submission with every choice it needs.

    target: the character a card with a chosen target acts on (ER-7.8: none means the default).
    receiver: the character an Artisan attaches an Artisan card to (ER-9.8)."""

    card: int
    target: int | None = None
    receiver: int | None = None


class PlayCards(EredanEvent, frozen=True, tag="play"):
    """Phase 2: the seat's secret submission, in its own activation order (ER-5.12 to ER-5.16).

    Empty means the seat plays no card this turn."""

    plays: tuple[Play, ...] = ()
    private: ClassVar[tuple[str, ...]] = ("plays",)  # revealed through the view, not the log
    count_public: ClassVar[bool] = False
    """How many cards a seat submits (0 to 2) is part of its hidden submission (spec, Hidden
    information: Phase 2)."""


class Discard(EredanEvent, frozen=True, tag="discard"):
    """Phase 5: the cards the seat discards from its hand, secret until both chose (ER-5.18)."""

    cards: Ids = ()
    private: ClassVar[tuple[str, ...]] = ("cards",)
    count_public: ClassVar[bool] = False
    """Discards are decided without seeing the other's (spec, Hidden information: Phase 5)."""


class Leave(EredanEvent, frozen=True, tag="leave"):
    """The seat leaves the battle and loses at once (ER-1.8)."""


Event = Deal | Shuffle | Initiative | ChooseCombatants | PlayCards | Discard | Leave
