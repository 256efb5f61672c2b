"""What a V20 event leads to, as typed changes (engine.ruleset.Change): rolls scored, hits and
misses, damage soaked and taken, statuses, blood and Willpower spent, frenzy, the end.

Every die is public (spec "Hidden information"), and so is every spend with its effect. A few
changes carry what only the character's side may know (a path rating after a conscience roll, a
boosted rating, a derangement's name, the Willpower an award restored, who rolls an ambush
before its pair is rolled): the game's narration (engine.v20.narrate, HIDDEN_FIELDS) is the one
place that masks them for every other perspective; the lake's facts store none of them."""
from __future__ import annotations

from engine.ruleset import Change


class TurnBegan(Change, frozen=True, tag="turn_began"):
    turn: int


class Phase(Change, frozen=True, tag="phase"):
    """The turn moved on to a phase (V20-4.1): "commit", "initiative", "declare", "resolve",
    "extra", "end"."""

    name: str


class Rolled(Change, frozen=True, tag="rolled"):
    """A roll scored (V20-2.6): what it was for, by whom, its pool and difficulty, the dice, the
    net successes and whether it botched."""

    character: str
    purpose: str
    pool: int
    difficulty: int
    dice: tuple[int, ...]
    successes: int
    botch: bool = False
    specialty: bool = False
    auto: int = 0
    can_botch: bool = True
    """False for damage and soak rolls (V20-2.10): what the dice audit compares with."""
    weapon: str | None = None
    """The weapon of the attack the roll belongs to (its attack, defense, damage or soak)."""
    opponent: str | None = None
    """The other character of that attack (the target of an attack roll, the attacker of a
    defense or soak)."""


class Initiative(Change, frozen=True, tag="initiative"):
    """The turn's order, highest first (V20-4.2, V20-4.4): ids and their totals; and the roll
    as logged, a die per character in listing order (`rolled`, `dice`). Totals are public, as
    the order of declarations shows them (what they tell of traits, a side may deduce)."""

    order: tuple[str, ...]
    totals: tuple[int, ...]
    rolled: tuple[str, ...] = ()
    dice: tuple[int, ...] = ()


class Declared(Change, frozen=True, tag="declared"):
    character: str
    actions: tuple[str, ...]
    extra: tuple[str, ...] = ()


class Spent(Change, frozen=True, tag="spent"):
    """Blood or Willpower spent and what for (V20-10, V20-11): "celerity", "heal", "boost",
    "appear_human", "ignore_wounds", "control", "resist", "success", "abort"."""

    character: str
    pool: str
    """"blood" or "willpower"."""
    points: int
    purpose: str


class Boosted(Change, frozen=True, tag="boosted"):
    character: str
    attribute: str
    points: int


class Hit(Change, frozen=True, tag="hit"):
    """An attack landed with `successes` left after the defense (V20-7.1)."""

    attacker: str
    target: str
    weapon: str
    successes: int


class Missed(Change, frozen=True, tag="missed"):
    attacker: str
    target: str
    weapon: str
    why: str
    """"no successes", "defended", "botch"."""


class Forfeited(Change, frozen=True, tag="forfeited"):
    """An action lost before its dice: its pool fell below 1 die (V20-5.12), its target left
    the fight, its weapon has no rounds (V20-5.10), or a full defense replaced it (V20-5.6)."""

    character: str
    action: str
    why: str


class Counter(Change, frozen=True, tag="counter"):
    """A parry beat an unarmed attack: the counter-blow, undefendable (V20-7.5)."""

    parrier: str
    attacker: str
    successes: int


class Damaged(Change, frozen=True, tag="damaged"):
    """Damage taken after soak (V20-8.7, V20-9.2): levels of a type, the track and status."""

    character: str
    damage_type: str
    damage: int
    soaked: int
    levels: int
    track: str
    status: str
    attacker: str | None = None
    weapon: str | None = None
    stage: str | None = None
    """"regular", "extra", "ambush" or "counter" (a parry's counter-blow, V20-7.5)."""


class Became(Change, frozen=True, tag="became"):
    """A status reached without damage: torpor from thirst (V20-9.5), death of a drained
    mortal (V20-5.11), an NPC at path 0 (V20-13.6), gone (V20-5.9), active again (healed)."""

    character: str
    status: str


class Healed(Change, frozen=True, tag="healed"):
    character: str
    damage_type: str
    track: str


class Fed(Change, frozen=True, tag="fed"):
    character: str
    vessel: str
    points: int


class Reloaded(Change, frozen=True, tag="reloaded"):
    character: str
    weapon: str
    rounds: int


class FullDefense(Change, frozen=True, tag="full_defense"):
    """The character defends against every attack this turn (V20-5.6, V20-5.7)."""

    character: str


class Mastery(Change, frozen=True, tag="mastery"):
    """An extended virtue roll ended (V20-12.2, V20-12.4, V20-12.9): "frenzy" or "rotschreck"
    began, or "resisted", or "over" (ended by the Storyteller)."""

    character: str
    test: str
    result: str
    successes: int = 0


class Triggered(Change, frozen=True, tag="triggered"):
    character: str
    test: str
    cause: str
    difficulty: int
    ignored: bool = False
    """A frenzied character ignores further triggers (V20-12.7)."""


class Ruled(Change, frozen=True, tag="ruled"):
    """A Storyteller ruling in effect (V20-1.1): its kind and, in words, what it says."""

    character: str
    ruling: str
    detail: str = ""


class Conscience(Change, frozen=True, tag="conscience"):
    """A conscience or conviction roll's result (V20-13.3 to 13.5)."""

    character: str
    path: int
    virtue: int
    lost: int


class Ambushed(Change, frozen=True, tag="ambushed"):
    """An ambush pair's rolls compared (V20-6.8): "free_attack" (with its bonus), "first" (a
    tie) or "noticed"."""

    ambusher: str
    target: str
    result: str
    bonus: int = 0


class Ended(Change, frozen=True, tag="ended"):
    reason: str
    rule: str
