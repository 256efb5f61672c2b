"""What an Eredan event changes, as typed records (engine.ruleset.Change): the consequences the
engine derives and never logs (spec, "What a match log must record").

Tags are the kinds the lake has always counted (pipeline/facts/eredan.py): "draw", "revealed",
"physical"... Cards and characters are named by instance id (engine.eredan.state); `seat` is the
seat a change concerns: the owner of a character, the seat whose card or effect it is, the seat
dealing an HP change. Only a draw is secret: its card is its drawer's (Hidden information);
everything else happens in the open.
"""
from __future__ import annotations

from typing import ClassVar

from engine.ruleset import Change

Ids = tuple[int, ...]


# Setup and the turn --------------------------------------------------------------------------

class Dealt(Change, frozen=True, tag="dealt"):
    """eredan@2: the seat's deck cards got their instance ids (events.eredan.Deal)."""

    deck_size: int


class Shuffled(Change, frozen=True, tag="shuffled"):
    """The seat's deck was shuffled (ER-4.2); its order stays the organiser's."""

    deck_size: int


class InitiativeDrawn(Change, frozen=True, tag="initiative"):
    """The drawn ticket, public (Hidden information); `seat` owns it and is Player 1 (ER-4.6)."""

    ticket: int


class TurnStarted(Change, frozen=True, tag="turn"):
    """Turn `turn` begins with `seat` active (ER-5.1, ER-5.2)."""

    turn: int


class Untapped(Change, frozen=True, tag="untapped"):
    """Every living character of the seat's line untaps (ER-5.4)."""

    rule: ClassVar[str] = "ER-5.4"


class DeckOut(Change, frozen=True, tag="deck_out"):
    """The seat's deck is `missing` cards short of the refill: it enters deck-out (ER-1.6)."""

    missing: int
    rule: ClassVar[str] = "ER-1.6"


class Drawn(Change, frozen=True, tag="draw"):
    """The seat draws a card; which one only it knows (Hidden information)."""

    card: int | None = None
    private: ClassVar[tuple[str, ...]] = ("card",)


class Combatants(Change, frozen=True, tag="combatants"):
    """Phase 1: the active seat's attacker and the defender it chose (ER-5.8)."""

    attacker: int
    defender: int


class TurnBonus(Change, frozen=True, tag="turn_bonus"):
    """A combatant's Order line for this turn applies until its end (ER-5.10)."""

    character: int
    turn: int
    attack: int = 0
    defense: int = 0
    spirit: int = 0


class Tapped(Change, frozen=True, tag="tapped"):
    """Phase 4: both combatants are tapped (ER-5.17); `seat` is the active seat."""

    characters: Ids


class ToDiscard(Change, frozen=True, tag="to_discard"):
    """A card goes to its owner's discard pile (public: Hidden information)."""

    card: int


class MatchOver(Change, frozen=True, tag="match_over"):
    """The match ends (ER-1.9): `winner` (also its `seat`) None is a draw; `reason` is the
    state's word for why ("elimination", "score", "deck_out"...)."""

    winner: int | None
    reason: str
    rule: str


# Phase 2: cards ------------------------------------------------------------------------------

class Revealed(Change, frozen=True, tag="revealed"):
    """A submitted card, revealed once both seats submitted (ER-5.15), with its user (the seat's
    combatant, ER-6.1), chosen target (ER-7.8) and Artisan receiver (ER-9.8)."""

    card: int
    user: int
    target: int | None = None
    receiver: int | None = None


class Pulled(Change, frozen=True, tag="pulled"):
    """`source` put `card` into play from the seat's deck; it is public from now on (ER-6.8)."""

    card: int
    source: int


class NothingFound(Change, frozen=True, tag="nothing_found"):
    """`source` looked for a card of `card_type` in the seat's deck and found none (ER-6.8)."""

    card_type: str
    source: int


class Activated(Change, frozen=True, tag="activated"):
    """A played card activates, in the N order (ER-5.16)."""

    card: int


class Ignored(Change, frozen=True, tag="ignored"):
    """`source` ignores the seat's `card` (ER-6.10 to ER-6.12)."""

    card: int
    source: int


class Fizzled(Change, frozen=True, tag="fizzled"):
    """An Item that no longer fits `character` does nothing (ER-8.4)."""

    card: int
    character: int
    rule: ClassVar[str] = "ER-8.4"


class Attached(Change, frozen=True, tag="attached"):
    """An Item or Pet attaches to `character`; `seat` is the character's owner (ER-8.5)."""

    card: int
    character: int


class Detached(Change, frozen=True, tag="detached"):
    """An ignored attachment leaves `character` (ER-6.12)."""

    card: int
    character: int


# Effects on characters -----------------------------------------------------------------------

class Modified(Change, frozen=True, tag="modify"):
    """`source` changes a character's stats until the end of the turn (ER-6.17)."""

    character: int
    source: int
    attack: int = 0
    defense: int = 0
    spirit: int = 0


class OrderActivated(Change, frozen=True, tag="order_activated"):
    """`source` activates every line of a character's Order (ER-5.11)."""

    character: int
    source: int


class FuryActivated(Change, frozen=True, tag="fury"):
    """`source` sets off a Berserker's Fury, once a turn (ER-9.2)."""

    character: int
    source: int


class RunePlaced(Change, frozen=True, tag="rune_placed"):
    """A rune joins a character's runes, the oldest leaving a full character (ER-11.3)."""

    character: int
    rune: str
    source: int


class RuneConsumed(Change, frozen=True, tag="rune_consumed"):
    """A rune line used a character's oldest rune of that name (ER-11.4)."""

    character: int
    rune: str


class Returned(Change, frozen=True, tag="returned"):
    """`source` returns a defeated character to play with `hp` HP (ER-7.12)."""

    character: int
    hp: int
    source: int


class Defeated(Change, frozen=True, tag="defeated"):
    """A character at 0 HP is defeated, its attachments and runes lost (ER-7.11, ER-7.12)."""

    character: int


class HPChange(Change, frozen=True):
    """An HP change to `character` from `source` (a card, or the attacking character); `seat`
    is the seat whose card or character it is, which scores it (ER-7.13)."""

    character: int
    hp: int
    source: int


class PendingDamage(HPChange, frozen=True, tag="pending_magic"):
    """Magic damage waiting for Phase 3 (ER-6.9); `hp` is before Spirit (ER-7.4)."""


class PendingLoss(HPChange, frozen=True, tag="pending_lose"):
    """An HP loss waiting for Phase 3 (ER-6.9, ER-7.7)."""


class PendingHeal(HPChange, frozen=True, tag="pending_heal"):
    """Healing waiting for Phase 3 (ER-6.9)."""


class PhysicalDamage(HPChange, frozen=True, tag="physical"):
    """A combatant's attack: `hp` is the HP it really removed (ER-7.2, ER-7.9)."""


class MagicDamage(HPChange, frozen=True, tag="magic"):
    """A Spell's or Theurgy's damage after Spirit: `hp` really removed (ER-7.4, ER-7.9)."""


class LostHP(HPChange, frozen=True, tag="lose"):
    """"Loses X HP": not damage, not scored (ER-7.7); `hp` really lost."""


class Healed(HPChange, frozen=True, tag="heal"):
    """Healing: `hp` really restored, up to the maximum (ER-7.9)."""


PENDING: dict[str, type[HPChange]] = {
    "magic": PendingDamage, "lose": PendingLoss, "heal": PendingHeal,
}
"""engine.eredan.state.Pending kinds -> the change announcing them in Phase 2."""
APPLIED: dict[str, type[HPChange]] = {
    "physical": PhysicalDamage, "magic": MagicDamage, "lose": LostHP, "heal": Healed,
}
"""Pending kinds -> the change of the HP really changed when they land (ER-7.1)."""

EredanChange = (
    Dealt | Shuffled | InitiativeDrawn | TurnStarted | Untapped | DeckOut | Drawn | Combatants
    | TurnBonus | Tapped | ToDiscard | MatchOver | Revealed | Pulled | NothingFound | Activated
    | Ignored | Fizzled | Attached | Detached | Modified | OrderActivated | FuryActivated
    | RunePlaced | RuneConsumed | Returned | Defeated | PendingDamage | PendingLoss | PendingHeal
    | PhysicalDamage | MagicDamage | LostHP | Healed
)
"""Every change an Eredan event can make, for decoding change data (msgspec, tag "kind")."""
