"""Hunt's rules, every refusal naming its rule (IDs HUNT-).

- HUNT-0 The field is board.toml's: places joined by paths, the rounds, sightings and kennels.
- HUNT-1 The table: 2 to 5 seats numbered from 0; exactly one seat plays role "fox" on side
  "fox", every other seat role "hound" on side "hounds". HUNT-1.2 A hound's setup names the
  kennel it starts from. HUNT-1.3 The fox's setup names no place (its den is secret).
- HUNT-2 Before round 1 the fox chooses its den in secret: a place at least 2 steps from every
  hound.
- HUNT-3 Each round opens with a public roll of the die (1 to 6): every hound may run up to
  the field's reach for that face (1, 1, 1, 2, 2, 3 steps) this round.
- HUNT-4 Then the fox runs in secret to a neighbouring place with no hound on it; it must run.
- HUNT-5 Then each hound in seat order runs to a place at most that many steps away, or stays.
- HUNT-6 A hound ending its run on the fox's place catches it: the hounds win, all together.
  HUNT-6.2 A fox that cannot run when its run comes (a hound on every neighbouring place) is
  cornered: caught where it stands.
- HUNT-7 After its run on a sighting round the fox is sighted: its place is shown to all.
- HUNT-8 A fox not caught when the last round ends escapes: the fox wins.
- HUNT-9 A catch in the last round, the fox having run its last run, is a draw: both sides
  reached their aim in the same round.
- HUNT-10 An event of an actor not awaited, of a kind not taken now, or after the end, is
  refused.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import msgspec

from engine.ruleset import CHANCE, DRAW, LOSS, OMNISCIENT, WIN, Change, Outcome, RuleViolation
from events.base import Header, Seat
from tests.games.hunt.board import FIELD
from tests.games.hunt.events import (
    Caught,
    Chase,
    Chased,
    Den,
    Escaped,
    Event,
    HuntOver,
    Ran,
    Roll,
    Rolled,
    RoundBegan,
    Run,
    Sighted,
    Start,
    WentToGround,
)

FOX, HOUND = "fox", "hound"
SIDE_OF = {FOX: "fox", HOUND: "hounds"}
FOX_SIDE = "side:fox"
DEN, ROLL, RUN, CHASE, OVER = "den", "roll", "run", "chase", "over"
AWAITED = {DEN: Den, ROLL: Roll, RUN: Run, CHASE: Chase}


class HuntState:
    """Mutable match state: every seat's place (the fox's None before its den), the round, the
    moment of the round, the die's reach, the last sighting and whether the fox's place is
    public right now (sighted since its last run, or caught)."""

    __slots__ = ("at", "fox", "hounds", "next_hound", "phase", "reach", "result", "round",
                 "seen", "shown", "sides")

    def __init__(self, fox: int, hounds: tuple[int, ...], at: list[str | None],
                 sides: tuple[str, ...]) -> None:
        self.fox, self.hounds, self.at, self.sides = fox, hounds, at, sides
        self.round, self.phase, self.reach, self.next_hound = 0, DEN, 0, 0
        self.seen: tuple[str, int] | None = None
        self.shown = False
        self.result: Outcome | None = None

    def copy(self) -> HuntState:
        new = HuntState(self.fox, self.hounds, list(self.at), self.sides)
        new.round, new.phase, new.reach, new.next_hound = (self.round, self.phase, self.reach,
                                                          self.next_hound)
        new.seen, new.shown, new.result = self.seen, self.shown, self.result
        return new

    @property
    def fox_at(self) -> str:
        place = self.at[self.fox]
        assert place is not None, "the fox has no den yet"
        return place

    def escapes(self) -> list[str]:
        """HUNT-4: where the fox may run now."""
        taken = {self.at[h] for h in self.hounds}
        return [p for p in FIELD.neighbours[self.fox_at] if p not in taken]


class HuntRules:
    name = "hunt"
    game = "hunt"
    version = 1
    event_type = Event

    def setup(self, header: Header) -> HuntState:
        seats = sorted(header.seats, key=lambda s: s.seat)
        if [s.seat for s in seats] != list(range(len(seats))) or not 2 <= len(seats) <= 5:
            raise RuleViolation("HUNT-1", "a hunt needs 2 to 5 seats numbered from 0")
        for seat in seats:
            _check_seat(seat)
        foxes = [s.seat for s in seats if s.role == FOX]
        if len(foxes) != 1:
            raise RuleViolation("HUNT-1", f"a hunt has exactly one fox, not {len(foxes)}")
        at = [s.setup.place for s in seats]
        hounds = tuple(s.seat for s in seats if s.role == HOUND)
        return HuntState(foxes[0], hounds, at, tuple(SIDE_OF[str(s.role)] for s in seats))

    def clone(self, state: HuntState) -> HuntState:
        return state.copy()

    def awaiting(self, state: HuntState) -> tuple[int, ...]:
        if state.phase == OVER:
            return ()
        if state.phase == ROLL:
            return (CHANCE,)
        return (state.hounds[state.next_hound],) if state.phase == CHASE else (state.fox,)

    def legal(self, state: HuntState, actor: int) -> list[Any]:
        if actor not in self.awaiting(state):
            return []
        if state.phase == DEN:
            return [Den(seat=actor, place=p) for p in den_places(state)]
        if state.phase == ROLL:
            return [Roll(value=v) for v in range(1, FIELD.die + 1)]
        if state.phase == RUN:
            return [Run(seat=actor, to=p) for p in state.escapes()]
        here = state.at[actor]
        assert here is not None
        return [Chase(seat=actor, to=p) for p in FIELD.within(here, state.reach)]

    def sample_chance(self, state: HuntState, rng: random.Random) -> Roll:
        return Roll(value=rng.randint(1, FIELD.die))

    def apply(self, state: HuntState, event: Any) -> list[Change]:
        self._check_turn(state, event)
        return _STEPS[type(event)](state, event)

    def _check_turn(self, state: HuntState, event: Any) -> None:
        if state.phase == OVER:
            raise RuleViolation("HUNT-10", "the hunt is over")
        wanted = AWAITED[state.phase]
        if type(event) is not wanted:
            raise RuleViolation("HUNT-10", f"the hunt awaits a {wanted.__name__.lower()}, "
                                           f"not a {type(event).__name__.lower()}")
        actor = CHANCE if type(event) is Roll else event.seat
        (awaited,) = self.awaiting(state)
        if actor != awaited:
            raise RuleViolation("HUNT-10", f"seat {actor} acts out of turn (seat {awaited} "
                                           "to act)")

    def turn(self, state: HuntState) -> int:
        return state.round

    def view(self, state: HuntState, perspective: int | str) -> dict[str, Any]:
        """What `perspective` sees: the fox's place only for the fox, its side, the organiser,
        or everyone once it is sighted or caught."""
        sees_fox = perspective in (OMNISCIENT, state.fox, FOX_SIDE) or state.shown
        seen = None if state.seen is None else {"place": state.seen[0], "round": state.seen[1]}
        return {
            "round": state.round, "rounds": FIELD.data.rounds, "phase": state.phase,
            "reach": state.reach, "to_act": list(self.awaiting(state)),
            "fox": {"seat": state.fox, "place": state.at[state.fox] if sees_fox else None,
                    "seen": seen},
            "hounds": [{"seat": h, "place": state.at[h]} for h in state.hounds],
            "result": msgspec.to_builtins(state.result),
        }

    def outcome(self, state: HuntState) -> Outcome | None:
        return state.result


def _check_seat(seat: Seat) -> None:
    if seat.role not in SIDE_OF or seat.side != SIDE_OF[seat.role]:
        raise RuleViolation("HUNT-1", f"seat {seat.seat} plays role {seat.role!r} on side "
                                      f"{seat.side!r}; a seat is a fox (side fox) or a hound "
                                      "(side hounds)")
    if not isinstance(seat.setup, Start):
        raise RuleViolation("HUNT-1", f"seat {seat.seat}'s setup is not a Hunt start")
    if seat.role == HOUND and seat.setup.place not in FIELD.data.kennels:
        raise RuleViolation("HUNT-1.2", f"hound seat {seat.seat} starts at "
                                        f"{seat.setup.place!r}, not a kennel "
                                        f"({', '.join(FIELD.data.kennels)})")
    if seat.role == FOX and seat.setup.place is not None:
        raise RuleViolation("HUNT-1.3", "the fox's den is chosen in secret, not in the header")


def den_places(state: HuntState) -> list[str]:
    """HUNT-2: where the fox may go to ground."""
    hounds = [state.at[h] for h in state.hounds]
    return [p for p in FIELD.places if all(FIELD.distance[p, h] >= 2 for h in hounds if h)]


def _den(state: HuntState, event: Den) -> list[Change]:
    if event.place not in den_places(state):
        raise RuleViolation("HUNT-2", f"{event.place!r} is not a place at least 2 steps "
                                      "from every hound")
    state.at[state.fox] = event.place
    state.round, state.phase = 1, ROLL
    return [WentToGround(seat=state.fox, place=event.place, secret_to=state.fox),
            RoundBegan(round=1)]


def _roll(state: HuntState, event: Roll) -> list[Change]:
    if not 1 <= event.value <= FIELD.die:
        raise RuleViolation("HUNT-3", f"the die shows 1 to {FIELD.die}, not {event.value}")
    state.reach = FIELD.reach(event.value)
    changes: list[Change] = [Rolled(value=event.value, reach=state.reach)]
    if state.escapes():
        state.phase = RUN
        return changes
    state.shown = True
    caught = Caught(place=state.fox_at, cornered=True)
    return changes + [caught, _end(state, "hounds", "the fox was cornered", "HUNT-6.2")]


def _run(state: HuntState, event: Run) -> list[Change]:
    if event.to not in FIELD.neighbours[state.fox_at]:
        raise RuleViolation("HUNT-4", f"{event.to!r} is not next to the fox's place")
    if event.to not in state.escapes():
        raise RuleViolation("HUNT-4", "the fox cannot run onto a hound")
    fox = state.fox
    state.at[fox], state.phase, state.next_hound, state.shown = event.to, CHASE, 0, False
    changes: list[Change] = [Ran(seat=fox, place=event.to, secret_to=fox)]
    if state.round in FIELD.data.sightings:
        state.seen, state.shown = (event.to, state.round), True
        changes.append(Sighted(seat=fox, place=event.to, round=state.round))
    return changes


def _chase(state: HuntState, event: Chase) -> list[Change]:
    origin = state.at[event.seat]
    assert origin is not None
    if event.to not in FIELD.within(origin, state.reach):
        raise RuleViolation("HUNT-5", f"{event.to!r} is not within {state.reach} steps of "
                                      f"{origin!r}")
    state.at[event.seat] = event.to
    changes: list[Change] = [Chased(seat=event.seat, origin=origin, to=event.to)]
    if event.to == state.fox_at:
        state.shown = True
        changes.append(Caught(seat=event.seat, place=event.to))
        if state.round == FIELD.data.rounds:
            return changes + [_end(state, None, "caught in the last round", "HUNT-9")]
        return changes + [_end(state, "hounds", "the hounds caught the fox", "HUNT-6")]
    state.next_hound += 1
    return changes + (_end_round(state) if state.next_hound == len(state.hounds) else [])


def _end_round(state: HuntState) -> list[Change]:
    if state.round == FIELD.data.rounds:
        escaped = Escaped(seat=state.fox, rounds=state.round)
        return [escaped, _end(state, "fox", "the fox escaped", "HUNT-8")]
    state.round, state.phase = state.round + 1, ROLL
    return [RoundBegan(round=state.round)]


def _end(state: HuntState, side: str | None, reason: str, rule: str) -> Change:
    results = tuple(DRAW if side is None else WIN if s == side else LOSS for s in state.sides)
    state.result = Outcome(results=results, reason=reason, rule=rule, side=side)
    state.phase = OVER
    return HuntOver(side=side, rule=rule)


_STEPS: dict[type, Callable[[HuntState, Any], list[Change]]] = {
    Den: _den, Roll: _roll, Run: _run, Chase: _chase}

RULES = HuntRules()
