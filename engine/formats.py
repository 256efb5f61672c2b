"""How an event seats its tables round after round, and how it ranks what was played.

The game's kit names its format (engine.games.GameKit.format):

- Swiss, for two-seat symmetric games: players of equal score meet, never twice if avoidable
  (engine.swiss); standings by match points, then opponents' strength.
- Role rotation, for games of roles (one fox against hounds): players sit at tables of the game's
  size in groups drawn anew every cycle of `size` rounds; within a cycle each player takes each
  seat of the table's layout once, so over whole cycles every player plays every role equally
  often. Standings overall and per role.
- Scenario sweep, for games played from scenarios: every assignment of the kit's builds to the
  sides (each pairing both ways round, mirrors included) is one table of every round, so N
  rounds play each pairing N times with each build on each side. Standings per build, overall
  and per side, and the record of every pairing.

A format's tables depend only on its seed and on the results it was given in table order, so a
season is the same whatever the worker count. Setups built per match (a hound's start, a build)
draw from a seed derived from the tournament's, the round, the table and the seat.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any, Protocol

from engine.games import ROLES, SWEEP, SWISS, GameKit, Place
from engine.ruleset import DRAW, WIN
from engine.simulate import derive_seed
from engine.swiss import Swiss
from events.base import DeckList

POINTS = {WIN: 3, DRAW: 1}
"""Match points of a seat's result (a loss scores none), as in the Swiss standings."""


@dataclass(frozen=True)
class Entrant:
    name: str
    archetype: str
    bot: str
    deck: DeckList | None = None
    """The deck a Swiss entrant brings to every match; None where setups are built per match."""


@dataclass(frozen=True)
class Sitting:
    """One seat of a planned match: who sits there, in which place, bringing what."""

    player: str
    place: Place
    setup: Any
    bot: str
    archetype: str = ""
    """The deck archetype or the build the seat plays, for its result ("" if none)."""


@dataclass(frozen=True)
class RoundPlan:
    tables: list[tuple[Sitting, ...]]
    """Table 1 first, each seat 0 first."""
    byes: tuple[str, ...] = ()


@dataclass(frozen=True)
class SeatResult:
    seat: int
    player: str
    result: str
    """"win", "loss" or "draw" (engine.ruleset.Outcome.results)."""
    side: str | None = None
    role: str | None = None
    archetype: str = ""


@dataclass(frozen=True)
class MatchResult:
    match_id: str
    tournament: str
    round: int
    table: int
    seats: tuple[SeatResult, ...]
    reason: str
    rule: str
    events: int
    path: str
    head: str = ""
    """The hash of the log's last record, its anchor (verify --anchor)."""
    side: str | None = None
    """The winning side, for games of sides (None: a draw, or seats playing for themselves)."""

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(s.player for s in self.seats)

    @property
    def winner(self) -> str | None:
        """The one player who won, when exactly one did (None: a draw, or a side of several)."""
        won = [s.player for s in self.seats if s.result == WIN]
        return won[0] if len(won) == 1 else None


@dataclass
class Tally:
    """A record of results: a player's, a role's, a build's on one side."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    def add(self, result: str) -> None:
        if result == WIN:
            self.wins += 1
        elif result == DRAW:
            self.draws += 1
        else:
            self.losses += 1

    @property
    def played(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def points(self) -> int:
        return POINTS[WIN] * self.wins + POINTS[DRAW] * self.draws

    def row(self) -> dict[str, Any]:
        rate = round(self.wins / self.played, 4) if self.played else 0.0
        return {"points": self.points, "played": self.played, "wins": self.wins,
                "losses": self.losses, "draws": self.draws, "win_rate": rate}


def ranked(tallies: Mapping[str, Tally], key: str, order: Sequence[str],
           extra: Mapping[str, dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Rows ranked by points, then wins, then `order` (the seeding, or the kit's build order)."""
    place = {name: i for i, name in enumerate(order)}
    names = sorted(tallies, key=lambda n: (-tallies[n].points, -tallies[n].wins, place[n]))
    return [{"rank": rank, key: name, **(extra or {}).get(name, {}), **tallies[name].row()}
            for rank, name in enumerate(names, 1)]


class Format(Protocol):
    name: str

    def plan(self, rnd: int) -> RoundPlan:
        """Seat round `rnd` (rounds are planned in order, each after the last one's results)."""
        ...

    def record(self, result: MatchResult) -> None: ...

    def standings(self) -> list[dict[str, Any]]:
        """The ranking, one row per player (or per build), rank 1 first."""
        ...

    def breakdown(self) -> dict[str, Any]:
        """What the ranking hides where seats differ: per role, per side, per pairing."""
        ...


class SwissFormat:
    """Swiss pairing of two-seat matches; each entrant brings its one deck to every round."""

    name = SWISS

    def __init__(self, entrants: Mapping[str, Entrant], seeding: Sequence[str]) -> None:
        self.entrants = entrants
        self.swiss = Swiss(seeding)

    def plan(self, rnd: int) -> RoundPlan:
        pairing = self.swiss.start_round()
        tables = [tuple(self._sitting(name) for name in pair) for pair in pairing.tables]
        return RoundPlan(tables, () if pairing.bye is None else (pairing.bye,))

    def _sitting(self, name: str) -> Sitting:
        entrant = self.entrants[name]
        return Sitting(name, Place(), entrant.deck, entrant.bot, entrant.archetype)

    def record(self, result: MatchResult) -> None:
        home, away = result.players
        self.swiss.record(home, away, result.winner)

    def standings(self) -> list[dict[str, Any]]:
        rows = []
        for rank, rec in enumerate(self.swiss.standings(), 1):
            entrant = self.entrants[rec.name]
            rows.append({"rank": rank, "player": rec.name, "archetype": entrant.archetype,
                         "bot": entrant.bot, "points": rec.points, "wins": rec.wins,
                         "losses": rec.losses, "draws": rec.draws, "byes": rec.byes,
                         "omw": round(self.swiss.omw(rec.name), 4)})
        return rows

    def breakdown(self) -> dict[str, Any]:
        return {}


@dataclass
class RoleRotation:
    """Tables of the game's size, each player taking each seat of the layout in turn."""

    kit: GameKit
    entrants: Mapping[str, Entrant]
    seeding: Sequence[str]
    layout: tuple[Place, ...]
    seed: int
    name: str = field(default=ROLES, init=False)
    overall: dict[str, Tally] = field(default_factory=dict, init=False)
    by_role: dict[str, dict[str, Tally]] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        size, players = len(self.layout), len(self.seeding)
        if players % size:
            raise ValueError(f"role rotation seats {players} players at tables of {size}: "
                             f"choose a multiple of {size} players")
        self.overall = {name: Tally() for name in self.seeding}

    def plan(self, rnd: int) -> RoundPlan:
        size = len(self.layout)
        cycle, turn = divmod(rnd - 1, size)
        tables = []
        for table, group in enumerate(self._groups(cycle), 1):
            tables.append(tuple(self._sitting(group[(seat + turn) % size], place, rnd, table,
                                              seat) for seat, place in enumerate(self.layout)))
        return RoundPlan(tables)

    def _groups(self, cycle: int) -> list[list[str]]:
        """The tables' players for one cycle of rounds, drawn anew each cycle."""
        order = list(self.seeding)
        random.Random(derive_seed(self.seed, "groups", cycle)).shuffle(order)
        size = len(self.layout)
        return [order[i:i + size] for i in range(0, len(order), size)]

    def _sitting(self, name: str, place: Place, rnd: int, table: int, seat: int) -> Sitting:
        entrant = self.entrants[name]
        rng = random.Random(derive_seed(self.seed, "setup", rnd, table, seat))
        return Sitting(name, place, self.kit.setup(entrant.archetype, place, rng), entrant.bot,
                       entrant.archetype)

    def record(self, result: MatchResult) -> None:
        for seat in result.seats:
            self.overall[seat.player].add(seat.result)
            role = seat.role or seat.side or ""
            self.by_role.setdefault(role, {}).setdefault(seat.player, Tally()).add(seat.result)

    def standings(self) -> list[dict[str, Any]]:
        extra = {n: ({"archetype": e.archetype} if e.archetype else {}) | {"bot": e.bot}
                 for n, e in self.entrants.items()}
        return ranked(self.overall, "player", self.seeding, extra)

    def breakdown(self) -> dict[str, Any]:
        roles = [r for r in dict.fromkeys(p.role or p.side or "" for p in self.layout)
                 if r in self.by_role]
        return {"roles": {role: ranked(self.by_role[role], "player", self.seeding)
                          for role in roles}}


@dataclass
class ScenarioSweep:
    """Every pairing of builds, one table each per round, each build on each side."""

    kit: GameKit
    entrants: Mapping[str, Entrant]
    layout: tuple[Place, ...]
    seed: int
    fixed: tuple[str, ...] | None = None
    """A scenario that seats its own builds, one per side (GameKit.scenario_builds): the only
    pairing played."""
    name: str = field(default=SWEEP, init=False)
    overall: dict[str, Tally] = field(default_factory=dict, init=False)
    by_side: dict[str, dict[str, Tally]] = field(default_factory=dict, init=False)
    pairings: dict[tuple[str, ...], dict[str, Any]] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        if not self.builds:
            raise ValueError(f"{self.kit.name} has no builds to sweep")
        if len(self.entrants) != len(self.layout):
            raise ValueError("a sweep seats one entrant per seat of its table")
        self.overall = {build: Tally() for build in self.builds}
        self.by_side = {side: {b: Tally() for b in self.builds} for side in self.sides}
        self.pairings = {builds: {"played": 0, "wins": dict.fromkeys(self.sides, 0), "draws": 0}
                         for builds in self.assignments()}

    @property
    def sides(self) -> list[str]:
        return [s for s in dict.fromkeys(p.side for p in self.layout) if s is not None]

    @property
    def builds(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.fixed)) if self.fixed else self.kit.archetypes

    def assignments(self) -> list[tuple[str, ...]]:
        """One build per side, sides in layout order: every pairing, both ways, mirrors too
        (or the scenario's own pairing alone)."""
        if self.fixed:
            return [self.fixed]
        return list(product(self.kit.archetypes, repeat=len(self.sides)))

    def plan(self, rnd: int) -> RoundPlan:
        names = list(self.entrants)
        tables = []
        for table, builds in enumerate(self.assignments(), 1):
            chosen = dict(zip(self.sides, builds))
            tables.append(tuple(self._sitting(names[seat], place, chosen[place.side or ""],
                                              rnd, table, seat)
                                for seat, place in enumerate(self.layout)))
        return RoundPlan(tables)

    def _sitting(self, name: str, place: Place, build: str, rnd: int, table: int,
                 seat: int) -> Sitting:
        rng = random.Random(derive_seed(self.seed, "setup", rnd, table, seat))
        return Sitting(name, place, self.kit.setup(build, place, rng), self.entrants[name].bot,
                       build)

    def record(self, result: MatchResult) -> None:
        """One result per side and match (a side's seats share it), by the side's build: a
        mirror counts once for each side."""
        first = {s.side: s for s in reversed(result.seats) if s.side is not None}
        pairing = self.pairings[tuple(first[side].archetype for side in self.sides)]
        pairing["played"] += 1
        for side in self.sides:
            seat = first[side]
            self.overall[seat.archetype].add(seat.result)
            self.by_side[side][seat.archetype].add(seat.result)
            pairing["wins"][side] += seat.result == WIN
        pairing["draws"] += all(first[side].result == DRAW for side in self.sides)

    def standings(self) -> list[dict[str, Any]]:
        return ranked(self.overall, "build", self.builds)

    def breakdown(self) -> dict[str, Any]:
        sides = {side: ranked(self.by_side[side], "build", self.builds)
                 for side in self.sides}
        pairings = [{**dict(zip(self.sides, builds)), **record}
                    for builds, record in self.pairings.items()]
        return {"sides": sides, "pairings": pairings}


def make_format(kit: GameKit, entrants: Mapping[str, Entrant], seeding: Sequence[str],
                layout: tuple[Place, ...], seed: int, scenario: Any = None) -> Format:
    """The format the kit names, over these entrants at tables laid out as `layout` (a sweep
    plays the scenario's own builds alone when it seats some)."""
    if kit.format == SWISS:
        if len(layout) != 2:
            raise ValueError(f"Swiss pairs two-seat tables; {kit.name} has {len(layout)} seats")
        return SwissFormat(entrants, seeding)
    if kit.format == ROLES:
        return RoleRotation(kit, entrants, seeding, layout, seed)
    if kit.format == SWEEP:
        return ScenarioSweep(kit, entrants, layout, seed, kit.fixed_builds(scenario))
    raise ValueError(f"{kit.name}: unknown event format {kit.format!r}")


def tables_per_round(kit: GameKit, players: int, size: int, scenario: Any = None) -> int:
    """How many matches a round of the kit's format plays."""
    if kit.format == SWEEP and kit.fixed_builds(scenario):
        return 1
    if kit.format == SWEEP:
        sides = {p.side for p in kit.layout(size)} - {None}
        return len(kit.archetypes) ** len(sides)
    return players // size
