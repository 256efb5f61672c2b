"""Where a V20 combat scene stands: each character as the fight has left it, the turn and its
phase, and the queue of what the scene awaits next.

The scene runs as a queue of steps (`Step`), each awaiting one event from one actor: a roll
from chance, a ruling from the Storyteller, a decision from a side. Applying an event consumes
the step at the head and may put new steps in front (an attack roll is followed by the target's
defense, its roll, the damage, the soak). Steps are plain data, so a state copies and compares
like any value and a replay never holds a closure.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.v20.catalog import Armor, Character
from engine.v20.health import Status, Track
from events.v20 import Act

SIDE_NAMES = ("A", "B")
"""Seat 0 plays side A, seat 1 side B (V20-1.1)."""


@dataclass(slots=True)
class Extended:
    """An extended virtue roll under way (V20-12.1, 12.2, 12.9): the trigger, its difficulty and
    the successes gathered so far."""

    kind: str
    """"frenzy" or "rotschreck"."""
    cause: str
    difficulty: int
    successes: int = 0


@dataclass(frozen=True, slots=True)
class Ready:
    """A declared block, dodge or parry not yet used (V20-5.4): its declaration, and the k of
    its place among multiple actions (V20-5.2), 0 for a Celerity extra action (V20-5.5)."""

    act: Act
    k: int
    extra: bool

    @property
    def kind(self) -> str:
        return self.act.action


@dataclass(slots=True)
class Fighter:
    """One character in the scene: its sheet and what the fight has made of it."""

    id: str
    seat: int
    order: int
    """Its place in the setup listing, side A's first (V20-4.4 breaks ties with it)."""
    sheet: Character
    name: str
    track: Track
    status: Status
    blood: int
    max_blood: int
    willpower: int
    """The pool (V20-3.2); the permanent rating is the sheet's."""
    path: int
    path_virtue: int
    """Conscience or Conviction now (a botch lowers it, V20-13.5)."""
    rounds: dict[str, int]
    """Weapon id -> rounds loaded, for the weapons that use rounds (V20-5.10)."""
    weapons: tuple[str, ...]
    """Every attack it may make: the unarmed ones, then the weapons it carries."""
    armor: Armor | None
    derangements: list[str] = field(default_factory=list)
    boosts: dict[str, int] = field(default_factory=dict)
    """Attribute -> points raised with blood, for the scene (V20-10.5)."""
    shown: set[str] = field(default_factory=set)
    """Weapons it has attacked with: public from then on (claws show Protean)."""
    gone: bool = False
    npc: bool = False
    blind: bool = False
    appears_human: bool = False
    frenzy: bool = False
    rotschreck: bool = False
    cornered: bool = False
    tests: list[Extended] = field(default_factory=list)
    triggered: list[str] = field(default_factory=list)
    """The causes of the frenzy and Rötschreck triggers logged on it (V20-12.12)."""
    conflicts: int = 0
    """Path conflicts logged and not yet rolled (V20-13.1)."""
    manifest: str | None = None
    """The derangement manifesting this turn (V20-11.2)."""
    # This turn's commitments and actions (reset in phase 1) -------------------------------
    celerity_actions: int = 0
    ignore_wounds: bool = False
    controlled: bool = False
    resisted: bool = False
    blood_this_turn: int = 0
    """BP spent this turn toward the per-turn limit (V20-10.8; Celerity does not count)."""
    willpower_success: bool = False
    """The one automatic-success Willpower point of the turn is used (V20-11.1)."""
    initiative: int | None = None
    actions: list[Act] = field(default_factory=list)
    extra: list[Act] = field(default_factory=list)
    defenses: list[Ready] = field(default_factory=list)
    full_defense: bool = False
    defended: int = 0
    """Defenses made under full defense this turn (each one die fewer, V20-5.6)."""
    acted: bool = False
    """It resolved a regular action this turn (no abort after that, V20-5.7)."""
    fed: bool = False
    """It fed or was fed on this turn (a Storyteller policy's "tastes blood")."""
    drunk: dict[str, int] = field(default_factory=dict)
    """Vessel -> BP taken from it this turn (V20-10.7)."""

    @property
    def side(self) -> str:
        return SIDE_NAMES[self.seat]

    @property
    def kind(self) -> str:
        return self.sheet.kind

    def copy(self) -> Fighter:
        new: Fighter = _shallow(self)
        new.rounds, new.boosts, new.drunk = dict(self.rounds), dict(self.boosts), dict(
            self.drunk)
        new.derangements, new.triggered = list(self.derangements), list(self.triggered)
        new.shown = set(self.shown)
        new.tests = [Extended(t.kind, t.cause, t.difficulty, t.successes) for t in self.tests]
        new.actions, new.extra, new.defenses = list(self.actions), list(self.extra), list(
            self.defenses)
        return new

    def attribute(self, name: str) -> int:
        """The rating with blood boosts (V20-10.5)."""
        return self.sheet.attribute(name) + self.boosts.get(name, 0)  # type: ignore[arg-type]

    def discipline(self, name: str) -> int:
        return self.sheet.discipline(name)  # type: ignore[arg-type]


@dataclass(slots=True)
class Step:
    """One thing the scene awaits: `what` names it ("rulings", "commit", "initiative",
    "declare", "roll", "defend", "confirm", "derangement"), `actor` who logs it, and the rest
    says what it is about. A roll step holds its pool and difficulty, computed when the step
    is queued, so what the log must hold is known before the dice arrive (V20-2.2)."""

    what: str
    actor: int
    character: str | None = None
    purpose: str = ""
    """For a roll: "initiative", "attack", "dodge", "soak"... (what the lake calls it)."""
    pool: int = 0
    difficulty: int = 6
    specialty: bool = False
    auto: int = 0
    can_botch: bool = True
    attack: Attack | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def copy(self, attacks: dict[int, Attack]) -> Step:
        """A copy; `attacks` maps the attacks copied so far, so that steps sharing an attack
        (a defense and the abort roll before it) still share it."""
        new: Step = _shallow(self)
        new.data = dict(self.data)
        if self.attack is not None:
            new.attack = attacks.setdefault(id(self.attack), _shallow(self.attack))
        return new


@dataclass(slots=True)
class Attack:
    """An attack being resolved, from its declaration to the last soak (V20-6 to V20-8)."""

    attacker: str
    target: str
    act: Act
    stage: str
    """"regular" (phase 5), "extra" (phase 6) or "ambush" (before turn 1)."""
    k: int = 0
    """Its place among multiple actions (V20-5.2): +k difficulty and k dice fewer."""
    auto: int = 0
    """Automatic successes: Willpower (V20-11.1), ambush (V20-6.9)."""
    defendable: bool = True
    tie_defense: bool = False
    """An ambush tie: the target gets one full-pool defense (V20-6.9)."""
    position_bonus: int = 0
    successes: int = 0
    defense: str | None = None
    defense_successes: int = 0
    parry_weapon: str | None = None
    """The weapon the parry that met it named (its counter-blow's, V20-7.5)."""


@dataclass(slots=True)
class State:
    fighters: dict[str, Fighter]
    """By id, in listing order: side A's party, then side B's."""
    turn_limit: int | None
    parties: tuple[str, ...] = ()
    """Each side's party name, side A's first (public: the setup lists them)."""
    turn: int = 0
    """0 while the ambushes resolve; turns are numbered from 1 (V20-1.2)."""
    phase: str = "ambush"
    queue: list[Step] = field(default_factory=list)
    order: list[str] = field(default_factory=list)
    """This turn's initiative order, highest first (V20-4.4)."""
    committed: dict[int, Any] = field(default_factory=dict)
    """Phase 2: each side's Commit, kept until both are in (then applied together)."""
    ambushes: list[Any] = field(default_factory=list)
    """The setup's ambush pairs not yet rolled (V20-6.7)."""
    ambush_scores: list[int] = field(default_factory=list)
    """The ambusher's net successes, until the target's roll is in (V20-6.8)."""
    policy: Any = None
    """The scenario's Storyteller policy (events.v20.StorytellerPolicy), for simulation: the
    simulated Storyteller reads it from the organiser's view."""
    agenda: list[tuple[str, int, str]] = field(default_factory=list)
    """Actions still to resolve this phase: (character, index, "regular" or "extra")."""
    over: bool = False
    results: tuple[str, str] | None = None
    reason: str = ""
    rule: str = ""

    def finish(self, results: tuple[str, str], reason: str, rule: str,
               out: list[Any]) -> None:
        from engine.v20.changes import Ended

        self.over, self.results, self.reason, self.rule = True, results, reason, rule
        self.queue.clear()
        out.append(Ended(reason=reason, rule=rule))

    def fighter(self, fighter_id: str) -> Fighter:
        return self.fighters[fighter_id]

    def of_side(self, seat: int) -> list[Fighter]:
        return [f for f in self.fighters.values() if f.seat == seat]

    def copy(self) -> State:
        """A state to change freely: every mutable part copied, the catalog's frozen sheets and
        the log's frozen events shared."""
        new = _shallow(self)
        new.fighters = {fid: f.copy() for fid, f in self.fighters.items()}
        attacks: dict[int, Attack] = {}
        new.queue = [step.copy(attacks) for step in self.queue]
        new.order, new.committed = list(self.order), dict(self.committed)
        new.ambushes, new.ambush_scores = list(self.ambushes), list(self.ambush_scores)
        new.agenda = list(self.agenda)
        return new


def _shallow(obj: Any) -> Any:
    """A copy of a slotted dataclass sharing every field (the caller copies the mutable ones):
    several times faster than copy.deepcopy, which replays copy at every snapshot."""
    new = object.__new__(type(obj))
    for name in type(obj).__slots__:
        object.__setattr__(new, name, getattr(obj, name))
    return new
