"""Vitorian Wars events: the decisions of each seat and the chance outcomes (VW-4, log section).

Consequences (channels, draws, destructions, hits, victory) are derived by the engine, never logged.
Cards are referred to by their instance id inside the match (see engine.vitorian.setup), cells by
(row, column) in the first player's frame (VW-2.3).
"""
from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

Cell = tuple[int, int]
Ids = tuple[int, ...]


class VitorianEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type",
                    forbid_unknown_fields=True, gc=False):
    """gc=False: events hold no reference cycles, and skipping the collector's tracking makes
    decoding long logs markedly faster."""

    seat: int


# Chance outcomes ---------------------------------------------------------------------------

class Deal(VitorianEvent, frozen=True, tag="deal"):
    """The ids the seat's cards are dealt (vitorian@2, engine:deal): labels[i] is the id of the
    i-th card of its expanded deck list (Maneuver, Convoy, then Defense sections, each entry's copies
    in a row; the Sovereign excluded), a random permutation of seat * 100 + 0 ... n - 1."""
    by: ClassVar[str] = "chance"

    labels: Ids


class FirstPlayer(VitorianEvent, frozen=True, tag="first_player"):
    """The draw for who plays first (VW-4.1); seat is the first player."""
    by: ClassVar[str] = "chance"


class Shuffle(VitorianEvent, frozen=True, tag="shuffle"):
    """The order a shuffle produced, top card first (VW-4.2, VW-4.6, VW-6.26)."""
    by: ClassVar[str] = "chance"

    zone: Literal["maneuver", "convoy"]
    order: Ids


# Setup decisions ---------------------------------------------------------------------------

class Mulligan(VitorianEvent, frozen=True, tag="mulligan"):
    """Shuffle the hand back and draw 6 again (London Mulligan, VW-4.6)."""


class KeepHand(VitorianEvent, frozen=True, tag="keep"):
    """Keep the hand, bottoming one card per mulligan taken, in this order (VW-4.7)."""

    bottom: Ids = ()
    private: ClassVar[tuple[str, ...]] = ("bottom",)


# Turn decisions ----------------------------------------------------------------------------

RecycleAbility = Literal[
    "forced_march", "motor_overload", "evasive_maneuvers", "aerial_recon", "shield",
    "circular_logistics",
]


class Recycle(VitorianEvent, frozen=True, tag="recycle"):
    """Put one resource on the Convoy bottom to use a Sovereign ability (VW-6.18, VW-8)."""

    resource: int
    ability: RecycleAbility | None = None
    unit: int | None = None
    to: Cell | None = None
    exhaust: Ids = ()
    top: Ids = ()
    bottom: Ids = ()
    private: ClassVar[tuple[str, ...]] = ("top", "bottom")  # Aerial Recon: counts are public


class PayUpkeep(VitorianEvent, frozen=True, tag="upkeep"):
    """Elite Upkeep: (unit, [S] resource) pairs; unpaid Elites are destroyed (VW-6.9, VW-6.10)."""

    payments: tuple[tuple[int, int], ...] = ()


class Mobilize(VitorianEvent, frozen=True, tag="mobilize"):
    """Play a unit from hand to an empty cell of your rows (VW-7.2, VW-7.3, VW-6.12)."""

    card: int
    cell: Cell
    exhaust: Ids
    returns: Ids


class Move(VitorianEvent, frozen=True, tag="move"):
    """A standard move between your rows in the same column (VW-7.5 to VW-7.10)."""

    unit: int
    to: Cell
    exhaust: Ids = ()


class LinkEquipment(VitorianEvent, frozen=True, tag="link"):
    """Install Equipment on a unit you control (VW-7.15, VW-7.16)."""

    card: int
    unit: int
    exhaust: Ids
    returns: Ids


class PlayFieldCondition(VitorianEvent, frozen=True, tag="field_condition"):
    """Put your Field Condition in the Command Area (VW-7.13, VW-7.14)."""

    card: int
    exhaust: Ids
    returns: Ids


class EndPhase(VitorianEvent, frozen=True, tag="end_phase"):
    """The active player ends the Main or the Combat Phase (VW-5.8)."""


class DeclareAttack(VitorianEvent, frozen=True, tag="attack"):
    """Step 1: a Vanguard unit attacks; target is a unit id, or None for the Sovereign (VW-9.3)."""

    attacker: int
    target: int | None


class PlayOrder(VitorianEvent, frozen=True, tag="order"):
    """Play an Order in the Order Window; returns are its printed cost, top card first (VW-9.12)."""

    card: int
    returns: Ids
    target: int | None = None
    choice: Ids = ()


class Gank(VitorianEvent, frozen=True, tag="gank"):
    """Step 3: a ready Ganking unit moves one column sideways to reinforce (VW-10.4)."""

    unit: int
    to: Cell


class Barrage(VitorianEvent, frozen=True, tag="barrage"):
    """Step 3: a Rear Guard unit adds its Attack for 1 exhausted [S] (VW-9.16 to VW-9.19)."""

    supporter: int
    resource: int


class PassPriority(VitorianEvent, frozen=True, tag="pass"):
    """Done with the current window: the Channel step, an Order Window, Ganking or Barrage."""


class Concede(VitorianEvent, frozen=True, tag="concede"):
    """The seat concedes; the opponent wins (VW-12.4)."""


Event = (
    Deal | FirstPlayer | Shuffle | Mulligan | KeepHand | Recycle | PayUpkeep | Mobilize | Move
    | LinkEquipment | PlayFieldCondition | EndPhase | DeclareAttack | PlayOrder | Gank | Barrage
    | PassPriority | Concede
)
