"""The mutable state of an Eredan match and its cheap copy for replay snapshots.

Every physical card of a match gets an instance id: seat * 100 + 0..49 for deck cards (under
eredan@1 its position in the expanded deck list; under eredan@2 dealt at random, see
events.eredan.Deal), seat * 100 + 90 + position (91-93) for characters. Events name cards and
characters by these ids.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.eredan.cards import Card, Character, Format

CHARACTER_BASE = 90
HAND_SIZE = 5  # ER-4.3, ER-5.5
HAND_CAP = 8  # ER-5.20


def owner_of(cid: int) -> int:
    return cid // 100


@dataclass(slots=True)
class Mod:
    """A stat change until the end of the turn (ER-6.17); `source` is the card whose ignoring
    cancels it (ER-6.12), -1 for the turn's Order bonus."""

    attack: int
    defense: int
    spirit: int
    source: int


@dataclass(slots=True, frozen=True)
class Carried:
    """What a character's own ability and attachments add while in play (static lines, and
    which timings they have), computed once per change of attachments: stats are read far more
    often than attachments change."""

    attack: int
    defense: int
    spirit: int
    hand: int
    dual_wield: bool
    timed: dict[str, tuple[tuple[int, tuple], ...]]
    """Per timing other than static: the (source id, lines) that have a line of it."""


@dataclass(slots=True)
class Fighter:
    """A character on a line. Change `attachments` only through attach/detach/clear, which
    forget the Carried summary."""

    id: int
    card: Character
    owner: int
    position: int
    hp: int
    tapped: bool = False
    defeated: bool = False
    attachments: list[int] = field(default_factory=list)
    runes: list[str] = field(default_factory=list)
    mods: list[Mod] = field(default_factory=list)
    fury_turn: int = 0
    carried: Carried | None = None

    def copy(self) -> Fighter:
        return Fighter(self.id, self.card, self.owner, self.position, self.hp, self.tapped,
                       self.defeated, list(self.attachments), list(self.runes), list(self.mods),
                       self.fury_turn, self.carried)

    def attach(self, cid: int) -> None:
        self.attachments.append(cid)
        self.carried = None

    def detach(self, cid: int) -> None:
        self.attachments.remove(cid)
        self.carried = None

    def clear_attachments(self) -> list[int]:
        gone, self.attachments, self.carried = self.attachments, [], None
        return gone


@dataclass(slots=True)
class Player:
    seat: int
    name: str
    deck: list[int] = field(default_factory=list)
    hand: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    tickets: int = 5
    submission: tuple | None = None  # tuple[Play, ...], secret until both submitted (ER-5.15)
    discarding: tuple[int, ...] | None = None  # secret until both chose (Hidden information)
    deck_out: bool = False
    damage: int = 0
    healed: int = 0
    charge: int | None = None
    undealt: int = 0
    """eredan@2, before the Deal: how many deck cards still await their ids (part of the deck's
    public size)."""

    def copy(self) -> Player:
        return Player(self.seat, self.name, list(self.deck), list(self.hand), list(self.discard),
                      self.tickets, self.submission, self.discarding, self.deck_out,
                      self.damage, self.healed, self.charge, self.undealt)


@dataclass(slots=True)
class Slot:
    """One card in play this turn, in activation order (ER-5.16); pulled cards sit right after
    the card that introduced them (ER-6.8). `appeared` orders it against ignore effects."""

    seat: int
    card: int
    user: int
    target: int | None
    receiver: int | None
    appeared: int
    pulled: bool = False
    activated: bool = False
    ignored: bool = False
    attached: bool = False


@dataclass(slots=True)
class Pending:
    """An HP change waiting for Phase 3 (ER-6.9): kind "magic", "lose" or "heal"."""

    source: int
    seat: int
    target: int
    amount: int
    kind: str


@dataclass(slots=True)
class State:
    """Where the match stands. `window` names the decision awaited from `pending`."""

    cards: dict[int, Card | Character]
    players: list[Player]
    fighters: dict[int, Fighter]
    format: Format
    charge_version: str | None = None
    turn: int = 0
    first: int = -1
    active: int = -1
    window: str = "setup"
    pending: int = -1
    chance: list[tuple[int, str]] = field(default_factory=list)
    ticket: int | None = None
    attacker: int | None = None
    defender: int | None = None
    slots: list[Slot] = field(default_factory=list)
    pendings: list[Pending] = field(default_factory=list)
    clock: int = 0
    no_attack: set[int] = field(default_factory=set)
    stats: dict[tuple[int, str], int] = field(default_factory=dict)
    winner: int | None = None
    over: bool = False
    reason: str = ""
    rule: str = ""
    steps: int = 0
    deck_lists: tuple[tuple[Card, ...], ...] = ()
    """eredan@2: each seat's deck cards in the order of its expanded list, which the Deal gives
    their ids; never changed once set, so copies share it."""

    def copy(self) -> State:
        """Slots and pendings are only mutated inside the apply that creates them, so their
        lists are copied shallowly."""
        return State(self.cards, [p.copy() for p in self.players],
                     {k: f.copy() for k, f in self.fighters.items()}, self.format,
                     self.charge_version, self.turn, self.first, self.active, self.window,
                     self.pending, list(self.chance), self.ticket, self.attacker, self.defender,
                     list(self.slots), list(self.pendings), self.clock, set(self.no_attack),
                     dict(self.stats), self.winner, self.over, self.reason, self.rule,
                     self.steps, self.deck_lists)

    @property
    def passive(self) -> int:
        return 1 - self.active

    def line(self, seat: int) -> list[Fighter]:
        """A seat's characters by position."""
        return [f for f in self.fighters.values() if f.owner == seat]

    def living(self, seat: int) -> list[Fighter]:
        return [f for f in self.fighters.values() if f.owner == seat and not f.defeated]

    def combatant(self, seat: int) -> int | None:
        return self.attacker if seat == self.active else self.defender

    def name(self, cid: int) -> str:
        return self.cards[cid].name

    def count(self, cid: int, stat: str, amount: int = 1) -> None:
        """Add to a per-card statistic (ER-12.2)."""
        key = (cid, stat)
        self.stats[key] = self.stats.get(key, 0) + amount
