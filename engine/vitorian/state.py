"""The mutable state of a Vitorian Wars match and its cheap copy for replay snapshots.

Every physical card of a match has an instance id, seat * 100 + a number below 100 (the
Sovereign 99); events name cards by these ids. How the others are given (by place in the deck
list under vitorian@1, dealt at random under vitorian@2) is engine.vitorian.setup's.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.vitorian.cards import Card

Undealt = tuple[tuple[str, Card], ...]
"""(section, card) per physical card awaiting its id, in deck-list order (vitorian@2)."""
Cell = tuple[int, int]
SOVEREIGN_SLOT = 99


@dataclass(slots=True)
class Mod:
    """A temporary or lasting change to a unit's stats (Orders, Motor Overload)."""

    attack: int = 0
    defense: int = 0
    keywords: tuple[str, ...] = ()
    until: str = "turn"


@dataclass(slots=True)
class Unit:
    id: int
    card: Card
    owner: int
    row: int
    col: int
    exhausted: bool = False
    new: bool = True
    moved: bool = False
    attacked: bool = False
    shield: bool = False
    equipment: int | None = None
    mods: list[Mod] = field(default_factory=list)

    def copy(self) -> Unit:
        return Unit(self.id, self.card, self.owner, self.row, self.col, self.exhausted, self.new,
                    self.moved, self.attacked, self.shield, self.equipment, list(self.mods))


@dataclass(slots=True)
class Player:
    seat: int
    name: str
    sovereign: Card
    deck: list[int] = field(default_factory=list)
    hand: list[int] = field(default_factory=list)
    convoy: list[int] = field(default_factory=list)
    area: dict[int, bool] = field(default_factory=dict)
    defense: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    field_condition: int | None = None
    mulligans: int = 0
    kept: bool = False
    bottomed: list[int] = field(default_factory=list)
    convoy_public: set[int] = field(default_factory=set)
    convoy_seen: set[int] = field(default_factory=set)
    recycled_turn: int = -1
    circular_turn: int = -1
    skip_next: bool = False
    turns_taken: int = 0
    undealt: Undealt = ()

    def copy(self) -> Player:
        return Player(self.seat, self.name, self.sovereign, list(self.deck), list(self.hand),
                      list(self.convoy), dict(self.area), list(self.defense), list(self.discard),
                      list(self.removed), self.field_condition, self.mulligans, self.kept,
                      list(self.bottomed), set(self.convoy_public), set(self.convoy_seen),
                      self.recycled_turn, self.circular_turn, self.skip_next, self.turns_taken,
                      self.undealt)


@dataclass(slots=True)
class OrderOnStack:
    seat: int
    card: int
    target: int | None
    choice: tuple[int, ...]


@dataclass(slots=True)
class Combat:
    attacker: int
    target: int | None
    attacking_seat: int
    step: str = "orders"
    stack: list[OrderOnStack] = field(default_factory=list)
    barrage: dict[int, int] = field(default_factory=dict)

    @property
    def defending_seat(self) -> int:
        return 1 - self.attacking_seat

    def copy(self) -> Combat:
        return Combat(self.attacker, self.target, self.attacking_seat, self.step,
                      list(self.stack), dict(self.barrage))


@dataclass(slots=True)
class State:
    """Where the match stands. `window` names the decision awaited from `pending`."""

    cards: dict[int, Card]
    players: list[Player]
    units: dict[int, Unit] = field(default_factory=dict)
    grid: dict[Cell, int] = field(default_factory=dict)
    turn: int = 0
    first: int = -1
    active: int = -1
    window: str = "first_player"
    pending: int = -1
    chance: list[tuple[int, str]] = field(default_factory=list)
    combat: Combat | None = None
    winner: int | None = None
    over: bool = False
    reason: str = ""
    rule: str = ""
    steps: int = 0

    def copy(self) -> State:
        return State(self.cards, [p.copy() for p in self.players],
                     {k: u.copy() for k, u in self.units.items()}, dict(self.grid), self.turn,
                     self.first, self.active, self.window, self.pending, list(self.chance),
                     self.combat.copy() if self.combat else None, self.winner, self.over,
                     self.reason, self.rule, self.steps)

    # Geometry in the first player's frame (VW-2.3) -------------------------------------

    def rear_row(self, seat: int) -> int:
        return 1 if seat == self.first else 4

    def vanguard_row(self, seat: int) -> int:
        return 2 if seat == self.first else 3

    def rows(self, seat: int) -> tuple[int, int]:
        return (self.rear_row(seat), self.vanguard_row(seat))

    def unit_at(self, row: int, col: int) -> Unit | None:
        uid = self.grid.get((row, col))
        return self.units[uid] if uid is not None else None

    def units_of(self, seat: int) -> list[Unit]:
        return [u for u in self.units.values() if u.owner == seat]

    def resource_kind(self, rid: int) -> str:
        return self.cards[rid].resource or "?"

    def name(self, cid: int) -> str:
        return self.cards[cid].name
