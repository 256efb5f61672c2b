"""What a Vitorian Wars event changes, as typed data: every consequence the engine derives.

Each kind is a tagged engine.ruleset.Change (the tag, `kind`, is the word the lake counts by:
"draw", "mobilized", "sovereign_hit"...), with fields in the game's own words. `seat` is the
seat the change concerns (whose card, whose turn, whose Sovereign); cards are instance ids
(engine.vitorian.state), cells (row, column) in the first player's frame (VW-2.3). Names ride
along so a reader of a change (the app's board, --json) needs no card table.

Secrets: a drawn card is its seat's alone (`secret_to`, its `private` fields masked for everyone
else by engine.narration.mask_change); so are the Convoy cards an Aerial Recon looked at, whose
counts stay public. Everything else here is public (spec "Hidden information").
"""
from __future__ import annotations

from typing import ClassVar, Literal

from engine.ruleset import Change

Cell = tuple[int, int]
Ids = tuple[int, ...]
Zone = Literal["maneuver", "convoy"]


class VitorianChange(Change, frozen=True, gc=False):
    """The base of the game's changes (never made itself). gc=False: changes hold no reference
    cycles, and a season makes millions of them."""


# Setup and chance outcomes -------------------------------------------------------------------

class Dealt(VitorianChange, frozen=True, kw_only=True, tag="dealt"):
    """The seat's cards got their match ids at random (vitorian@2, engine:deal): how many."""

    cards: int


class FirstPlayerChosen(VitorianChange, frozen=True, kw_only=True, tag="first_player"):
    """`seat` plays first (VW-4.1)."""


class Shuffled(VitorianChange, frozen=True, kw_only=True, tag="shuffled"):
    """The seat's Maneuver Deck or Supply Convoy was shuffled (VW-4.2, VW-4.6, VW-6.26)."""

    zone: Zone
    cards: int


class MulliganTaken(VitorianChange, frozen=True, kw_only=True, tag="mulligan"):
    """The hand went back into the Maneuver Deck (VW-4.6); `mulligans` taken so far."""

    mulligans: int


class HandKept(VitorianChange, frozen=True, kw_only=True, tag="kept"):
    """The seat kept `hand` cards after bottoming `bottomed` of them (VW-4.7): the count is
    public, the cards are not."""

    hand: int
    bottomed: int


# The turn ------------------------------------------------------------------------------------

class TurnBegan(VitorianChange, frozen=True, kw_only=True, tag="turn"):
    """Turn `turn` begins; `seat` is the active player (VW-4.10)."""

    turn: int


class PhaseBegan(VitorianChange, frozen=True, kw_only=True, tag="phase"):
    """A marker: the active player's Main, Combat or End Phase begins (VW-5.1)."""

    phase: Literal["main", "combat", "end"]


class TurnSkipped(VitorianChange, frozen=True, kw_only=True, tag="turn_skipped"):
    """The seat's turn is lost to an earlier Burn-out and has no phases (VW-6.25, VW-6.27)."""


class BurnOut(VitorianChange, frozen=True, kw_only=True, tag="burn_out"):
    """No Convoy card to channel: `reshuffled` Resource Area cards become the new Convoy
    (VW-6.24 to VW-6.26)."""

    reshuffled: int


class MatchOver(VitorianChange, frozen=True, kw_only=True, tag="match_over"):
    """The match ended; `seat` is the winner (None: a draw). `reason` is the outcome's word
    ("sovereign_fell", "deck_out", "concede", "turn_cap"), `rule` the rule that ended it."""

    reason: str
    rule: str


# Zones ---------------------------------------------------------------------------------------

class Drew(VitorianChange, frozen=True, kw_only=True, tag="draw"):
    """The seat drew a card from its Maneuver Deck (VW-4.5, VW-6.7): which one only it knows."""

    card: int | None = None
    name: str | None = None
    private: ClassVar[tuple[str, ...]] = ("card", "name")


class Channeled(VitorianChange, frozen=True, kw_only=True, tag="channel"):
    """A Convoy card revealed into the Resource Area, ready (VW-4.4, VW-6.4)."""

    card: int
    resource: str


class ToConvoy(VitorianChange, frozen=True, kw_only=True, tag="to_convoy"):
    """Resources from the Resource Area put into the Convoy, top card first: a payment's
    printed cost or an effect (VW-6.13, VW-8.10; not a recycle, VW-6.19). They stay public."""

    resources: Ids
    place: Literal["top", "bottom"]


class ShieldUsed(VitorianChange, frozen=True, kw_only=True, tag="shield_used"):
    """A Shield marker was removed instead of the unit being destroyed (VW-8.9)."""

    card: int
    name: str
    cell: Cell


class Destroyed(VitorianChange, frozen=True, kw_only=True, tag="destroyed"):
    """The unit left the battlefield for its owner's Discard Pile (VW-2.8), from `cell`."""

    card: int
    name: str
    cell: Cell


class SovereignHit(VitorianChange, frozen=True, kw_only=True, tag="sovereign_hit"):
    """The seat's Sovereign was hit: the top Defense card is removed (VW-9.24, VW-9.25)."""

    defense_lost: int = 1
    defense_left: int


class SovereignFell(VitorianChange, frozen=True, kw_only=True, tag="sovereign_fell"):
    """Hit with an empty Defense Pile, the seat's Sovereign falls (VW-9.26)."""

    sovereign: str


# Main Phase ----------------------------------------------------------------------------------

class Mobilized(VitorianChange, frozen=True, kw_only=True, tag="mobilized"):
    """A unit entered the battlefield at `cell` (VW-7.2, VW-7.3)."""

    card: int
    name: str
    cell: Cell


Way = Literal["move", "ganking", "forced_march", "evasive_maneuvers"]


class Moved(VitorianChange, frozen=True, kw_only=True, tag="moved"):
    """A unit went from `origin` to `to`: a standard move (VW-7.5), a Ganking move (VW-10.4) or
    a Sovereign ability (VW-8.3, VW-8.6)."""

    card: int
    name: str
    origin: Cell
    to: Cell
    via: Way = "move"


class Linked(VitorianChange, frozen=True, kw_only=True, tag="linked"):
    """Equipment `card` installed on `unit`, standing at `cell` (VW-7.15, VW-7.16)."""

    card: int
    name: str
    unit: int
    unit_name: str
    cell: Cell


class FieldConditionPlayed(VitorianChange, frozen=True, kw_only=True, tag="field_condition"):
    """The seat's Field Condition is now in its Command Area (VW-7.13)."""

    card: int
    name: str


# Orders and effects --------------------------------------------------------------------------

class OrderPlayed(VitorianChange, frozen=True, kw_only=True, tag="order_played"):
    """An Order went on the stack (VW-9.12), aimed at `target` (None: no target)."""

    card: int
    name: str
    target: int | None = None


class OrderFizzled(VitorianChange, frozen=True, kw_only=True, tag="order_fizzled"):
    """An Order resolved with no effect: its target was no longer legal (VW-9.14)."""

    card: int
    name: str


class Modified(VitorianChange, frozen=True, kw_only=True, tag="modified"):
    """The unit got +attack/+defense and keywords from `source` (an Order's name, or Motor
    Overload), lasting `until` the end of the combat or the turn, or for good."""

    card: int
    name: str
    source: str
    attack: int = 0
    defense: int = 0
    keywords: tuple[str, ...] = ()
    until: Literal["combat", "turn", "permanent"] = "combat"


class Readied(VitorianChange, frozen=True, kw_only=True, tag="readied"):
    """The unit was readied (unexhausted) by an effect."""

    card: int
    name: str


# Recycling and Sovereign abilities ------------------------------------------------------------

class Recycled(VitorianChange, frozen=True, kw_only=True, tag="recycled"):
    """A resource went from the Resource Area to the Convoy bottom, activating `ability` (None:
    none chosen) (VW-6.18)."""

    card: int
    resource: str
    ability: str | None = None


class AerialRecon(VitorianChange, frozen=True, kw_only=True, tag="aerial_recon"):
    """The seat looked at the top Convoy cards and put `on_top` of them on top, `on_bottom` on
    the bottom (VW-8.7): the counts are public, which cards went where (`top`, `bottom`, top
    card first) only the seat's."""

    on_top: int
    on_bottom: int
    top: Ids | None = None
    bottom: Ids | None = None
    private: ClassVar[tuple[str, ...]] = ("top", "bottom")


class ShieldGranted(VitorianChange, frozen=True, kw_only=True, tag="shield"):
    """The unit got a Shield marker (VW-8.8)."""

    card: int
    name: str


class CircularLogistics(VitorianChange, frozen=True, kw_only=True, tag="circular_logistics"):
    """Until end of turn, the seat's printed costs go to the Convoy top (VW-8.10)."""


# Combat --------------------------------------------------------------------------------------

class AttackDeclared(VitorianChange, frozen=True, kw_only=True, tag="attack"):
    """The unit `card` attacks `target` (None: the Sovereign, `target_name` its name)
    (VW-9.3 to VW-9.8)."""

    card: int
    name: str
    target: int | None
    target_name: str


class Barraged(VitorianChange, frozen=True, kw_only=True, tag="barrage"):
    """The Rear Guard unit `card` adds `attack` to its side's combatant (VW-9.16, VW-9.18)."""

    card: int
    name: str
    attack: int


class CombatValues(VitorianChange, frozen=True, kw_only=True, tag="damage"):
    """Step 4's values, Barrage, Flanking and Reactive Armor included (VW-9.20 to VW-9.22);
    `seat` is the attacking seat."""

    attacker: int
    attacker_name: str
    attack: int
    defense: int
    target: int
    target_name: str
    target_attack: int
    target_defense: int


class CombatVoid(VitorianChange, frozen=True, kw_only=True, tag="combat_void"):
    """A combatant left the battlefield before step 4: no damage, no hit (VW-9.10)."""


class Entrenched(VitorianChange, frozen=True, kw_only=True, tag="entrenched"):
    """The seat's Entrench unit stops the hit on its Sovereign (VW-9.27)."""
