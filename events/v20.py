"""Vampire V20 combat logs: what a side brings (its party of characters), the scenario block, and
the events ("What a match log must record" in the spec): the Storyteller's inputs, each side's
decisions and every d10 rolled.

Pools, difficulties, successes, botches, damage, health tracks, statuses, blood and Willpower
are derived by the engine (engine.v20), never logged. Characters are named by the `id` their
party gives them (unique in the match); seat 0 is side A, seat 1 side B.

A Roll carries the dice of the roll the engine awaits: the engine knows what it is for (an
attack, a soak, the turn's initiative...) and how many dice it needs (V20-2.2), so the log holds
only the values, and the narration and the lake say what each roll was.
"""
from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

Action = Literal["attack", "block", "dodge", "parry", "full_defense", "heal", "feed", "reload",
                 "flee"]
Defense = Literal["block", "dodge", "parry"]
Aim = Literal["medium", "small", "precise"]
Position = Literal["flank", "rear"]
Boosted = Literal["strength", "dexterity", "stamina"]
Healed = Literal["bashing", "lethal"]


# What a side brings, and the scenario ------------------------------------------------------------

class Carried(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A weapon a character carries into the match, with the rounds loaded (None: full, as the
    catalog's capacity; V20-5.10)."""

    weapon: str
    rounds: int | None = None


class Fighter(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
              omit_defaults=True):
    """One character of a party: its catalog sheet and its per-match values (V20-3.6). What is
    None comes from the sheet: starting blood and a full Willpower pool, its weapons loaded, its
    armor. `damage` is damage already taken, as boxes ("lethal", "bashing"...)."""

    id: str
    character: str
    name: str | None = None
    blood: int | None = None
    willpower: int | None = None
    damage: tuple[str, ...] = ()
    weapons: tuple[Carried, ...] | None = None
    armor: str | None = None
    """An armor id; None: the sheet's. "none" takes it off."""


class Party(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A side's setup (the "setup" layer): its characters, in their listing order (V20-4.4)."""

    name: str
    fighters: tuple[Fighter, ...]


class Ambush(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
             omit_defaults=True):
    """An ambusher-target pair the setup declares (V20-6.7), resolved before turn 1; hidden from
    the target's side until rolled. `willpower`: the ambusher spends 1 Willpower point on its
    roll (V20-11.1)."""

    ambusher: str
    target: str
    willpower: bool = False
    specialty: bool = False
    """The ambusher's Stealth specialty is "Ambush" (V20-2.12)."""


class FrenzyRule(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
                 omit_defaults=True):
    """When the simulated Storyteller logs a frenzy or Rötschreck trigger (V20-12.1, 12.9): on
    `when` ("tastes_blood": the vampire fed or was fed on this turn; "low_blood": its pool below
    `below`; "hurt": its track at `boxes` or more filled; "start": turn 1), with the trigger's
    reference difficulty (V20-12.12) unless `difficulty` is given."""

    kind: Literal["frenzy", "rotschreck"] = "frenzy"
    cause: str
    when: Literal["tastes_blood", "low_blood", "hurt", "start"]
    below: int = 1
    boxes: int = 4
    difficulty: int | None = None


class StorytellerPolicy(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
                       omit_defaults=True):
    """The Storyteller a simulation plays, as data: its triggers, whether it confirms flank and
    rear attacks (V20-6.4), and whether a Rötschreck victim with no way out is cornered
    (V20-12.10)."""

    triggers: tuple[FrenzyRule, ...] = ()
    confirm_positions: bool = True
    corner_fleeing: bool = False


class Scenario(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
               omit_defaults=True):
    """The header's scenario block (the "scenario" layer): the frame of the scene. The sides'
    characters are the seats' parties."""

    name: str
    title: str = ""
    turn_limit: int | None = None
    """Reaching it makes the match a draw (V20-14.2)."""
    ambushes: tuple[Ambush, ...] = ()
    storyteller: StorytellerPolicy = StorytellerPolicy()


# Events ----------------------------------------------------------------------------------------

class V20Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type",
               forbid_unknown_fields=True, omit_defaults=True, gc=False):
    pass


class Roll(V20Event, frozen=True, tag="roll"):
    """The d10 values of the roll the engine awaits, in order (V20-2.1, V20-2.2). The turn's
    initiative is one roll: a die per character that rolls it, in listing order."""

    by: ClassVar[str] = "chance"
    dice: tuple[int, ...]


# The Storyteller's inputs (V20-1.1) ---------------------------------------------------------------

class Trigger(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
              tag_field="ruling", tag="trigger"):
    """A frenzy or Rötschreck trigger and its difficulty (V20-12.1, V20-12.9, V20-12.12)."""

    character: str
    kind: Literal["frenzy", "rotschreck"]
    cause: str
    difficulty: int


class PathConflict(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
                   tag_field="ruling", tag="path_conflict"):
    """The character acted against its path: it rolls Conscience or Conviction (V20-13.1)."""

    character: str


class Blind(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
            tag_field="ruling", tag="blind"):
    """The character fights blind from now on, or no longer (V20-6.5)."""

    character: str
    blind: bool = True


class Award(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
            tag_field="ruling", tag="award"):
    """Willpower points granted (V20-11.4); the pool never exceeds the permanent rating."""

    character: str
    points: int = 1


class Cornered(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
               tag_field="ruling", tag="cornered"):
    """A character in Rötschreck cannot flee: it acts as in frenzy (V20-12.10)."""

    character: str


class ThreatOver(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
                 tag_field="ruling", tag="threat_over"):
    """The danger passed before five successes: the extended roll stops (V20-12.2)."""

    character: str


class FrenzyEnds(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
                 tag_field="ruling", tag="frenzy_ends"):
    """The character comes back to itself (V20-12.8, and Rötschreck, V20-12.10)."""

    character: str


class Manifests(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
                tag_field="ruling", tag="manifests"):
    """A derangement of the character manifests; 1 Willpower point stops it (V20-11.2)."""

    character: str
    derangement: str


Ruling = Trigger | PathConflict | Blind | Award | Cornered | ThreatOver | FrenzyEnds | Manifests


class Rulings(V20Event, frozen=True, tag="rulings"):
    """The Storyteller's inputs opening a turn (phase 1, V20-4.1), possibly none."""

    by: ClassVar[str] = "storyteller"
    rulings: tuple[Ruling, ...] = ()


class Confirm(V20Event, frozen=True, tag="confirm"):
    """The Storyteller's word on the flank or rear tag of the attack about to be rolled: the
    bonus dice apply only if confirmed (V20-6.4)."""

    by: ClassVar[str] = "storyteller"
    confirmed: bool


class NameDerangement(V20Event, frozen=True, tag="name_derangement"):
    """The derangement a conscience or conviction botch gave the character (V20-13.5)."""

    by: ClassVar[str] = "storyteller"
    character: str
    derangement: str


# A side's decisions ------------------------------------------------------------------------------

class Celerity(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
               tag_field="spend", tag="celerity"):
    """Activate `actions` extra actions, up to the Celerity rating, 1 BP each (V20-5.5)."""

    character: str
    actions: int


class IgnoreWounds(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
                   tag_field="spend", tag="ignore_wounds"):
    """1 Willpower point: no wound penalties this turn (V20-11.3)."""

    character: str


class Boost(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
            tag_field="spend", tag="boost"):
    """1 BP per point: a Physical Attribute +`points` for the scene (V20-10.5)."""

    character: str
    attribute: Boosted
    points: int = 1


class Control(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
              tag_field="spend", tag="control"):
    """1 Willpower point: a frenzied character's player controls it this turn (V20-12.8), or a
    character in Rötschreck keeps control (V20-12.11)."""

    character: str


class AppearHuman(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
                  tag_field="spend", tag="appear_human"):
    """8 - Humanity BP, at least 1: the vampire looks human for the scene (V20-10.6)."""

    character: str


class Resist(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
             tag_field="spend", tag="resist"):
    """1 Willpower point: the derangement that manifested this turn does not (V20-11.2)."""

    character: str


Spend = Celerity | IgnoreWounds | Boost | Control | AppearHuman | Resist


class Commit(V20Event, frozen=True, tag="commit"):
    """A side's reflexive commitments of phase 2 (V20-4.1): both sides commit at the same time,
    each in secret until both are in (our decision: neither side answers the other's)."""

    seat: int
    spends: tuple[Spend, ...] = ()
    private: ClassVar[tuple[str, ...]] = ("spends",)
    count_public: ClassVar[bool] = False


class Act(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
          omit_defaults=True):
    """One declared action (V20-5.1) with what it needs: the target and weapon of an attack
    (its ability follows the weapon, V20-6.1), the aim (V20-6.6), the flank or rear tag
    (V20-6.4), the specialty claimed (V20-2.12), 1 Willpower point for an automatic success
    (V20-11.1), the box a heal mends (V20-10.3), the vessel and BP of a feed (V20-5.11)."""

    action: Action
    target: str | None = None
    weapon: str | None = None
    aim: Aim | None = None
    position: Position | None = None
    specialty: bool = False
    willpower: bool = False
    heal: Healed | None = None
    amount: int = 0


class Declare(V20Event, frozen=True, tag="declare"):
    """A character's declaration (phase 4, from the lowest initiative up, V20-4.1): its regular
    actions in order (V20-5.2) and its Celerity extra actions (V20-5.5). Public once made
    (V20-4.5). The ambusher of a won or tied ambush declares its free attack the same way."""

    seat: int
    character: str
    actions: tuple[Act, ...] = ()
    extra: tuple[Act, ...] = ()


class Defend(V20Event, frozen=True, tag="defend"):
    """The target's answer to an attack whose dice are logged (V20-7.6): a defense it may use,
    or none, with 1 Willpower point for an automatic success (V20-11.1)."""

    seat: int
    character: str
    defense: Defense | None = None
    willpower: bool = False


class Abort(V20Event, frozen=True, tag="abort"):
    """Abort to full defense when attacked (V20-5.7): by a Willpower roll, or by spending 1
    Willpower point for certain."""

    seat: int
    character: str
    willpower: bool = False


class Concede(V20Event, frozen=True, tag="concede"):
    """The side concedes, and loses (V20-14.2)."""

    seat: int


Event = Roll | Rulings | Confirm | NameDerangement | Commit | Declare | Defend | Abort | Concede
