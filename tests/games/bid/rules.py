"""Bid's rules, every refusal naming its rule (IDs BID-).

- BID-1 The table: 2 to 4 seats numbered from 0, each on side "red" or "blue", each side 1 or 2
  seats; no roles. BID-1.2 Each seat brings a build: a purse of 1 to 30 coins and a guard of 0
  to 3. BID-1.3 The header holds the scenario: each side's strength (1 to 50) and the number of
  rounds (1 to 20).
- BID-2 Each round opens with the Storyteller's public ruling: it favours red or blue with a
  bonus of 1 or 2, or calls a calm round (no side, bonus 0).
- BID-3 Then every seat bids at the same time, in secret: 0 to the coins left in its purse, once
  a round. The bids are logged one after the other in any order.
- BID-4 Once the last bid is in, all are revealed and paid from the purses.
- BID-5 Each side loses strength: the other side's bids, plus the bonus if the ruling favours
  the other side, less its own seats' guards (never below 0); strength stops at 0.
- BID-6 A side at 0 strength loses; both at 0 after the same round is a draw.
- BID-7 After the scenario's last round the side with more strength wins; equal is a draw.
- BID-8 An event of an actor not awaited, of a kind not taken now, or after the end, is refused.
"""
from __future__ import annotations

import random
from typing import Any

import msgspec

from engine.ruleset import (
    DRAW,
    LOSS,
    OMNISCIENT,
    STORYTELLER,
    WIN,
    Change,
    Outcome,
    RuleViolation,
)
from events.base import Header, Seat
from tests.games.bid.events import (
    Bid,
    BidOver,
    Build,
    Event,
    Revealed,
    RoundBegan,
    Ruled,
    Ruling,
    Scenario,
    Sealed,
    Struck,
)

SIDES = ("red", "blue")
RULING, BIDDING, OVER = "ruling", "bidding", "over"
PURSE, GUARD, STRENGTH, ROUNDS = range(1, 31), range(4), range(1, 51), range(1, 21)


class BidState:
    """Mutable match state: each seat's side, purse and guard, each side's strength, the round,
    its ruling, and the bids sealed so far this round (secret until the last is in)."""

    __slots__ = ("bonus", "favours", "guard", "last", "phase", "purse", "result", "round",
                 "scenario", "sealed", "sides", "strength")

    def __init__(self, sides: tuple[str, ...], purse: list[int], guard: tuple[int, ...],
                 scenario: Scenario) -> None:
        self.sides, self.purse, self.guard, self.scenario = sides, purse, guard, scenario
        self.strength = dict.fromkeys(SIDES, scenario.strength)
        self.round, self.phase = 1, RULING
        self.favours: str | None = None
        self.bonus = 0
        self.sealed: dict[int, int] = {}
        self.last: tuple[int, ...] | None = None
        self.result: Outcome | None = None

    def copy(self) -> BidState:
        new = BidState(self.sides, list(self.purse), self.guard, self.scenario)
        new.strength, new.sealed = dict(self.strength), dict(self.sealed)
        new.round, new.phase, new.favours, new.bonus = (self.round, self.phase, self.favours,
                                                        self.bonus)
        new.last, new.result = self.last, self.result
        return new

    def seats_of(self, side: str) -> list[int]:
        return [seat for seat, s in enumerate(self.sides) if s == side]


class BidRules:
    name = "bid"
    game = "bid"
    version = 1
    event_type = Event

    def setup(self, header: Header) -> BidState:
        seats = sorted(header.seats, key=lambda s: s.seat)
        if [s.seat for s in seats] != list(range(len(seats))) or not 2 <= len(seats) <= 4:
            raise RuleViolation("BID-1", "a match needs 2 to 4 seats numbered from 0")
        for seat in seats:
            _check_seat(seat)
        for side in SIDES:
            count = sum(s.side == side for s in seats)
            if not 1 <= count <= 2:
                raise RuleViolation("BID-1", f"side {side} has {count} seats, not 1 or 2")
        scenario = _check_scenario(header.scenario)
        return BidState(tuple(str(s.side) for s in seats), [s.setup.purse for s in seats],
                        tuple(s.setup.guard for s in seats), scenario)

    def clone(self, state: BidState) -> BidState:
        return state.copy()

    def awaiting(self, state: BidState) -> tuple[int, ...]:
        if state.phase == RULING:
            return (STORYTELLER,)
        if state.phase == BIDDING:
            return tuple(s for s in range(len(state.sides)) if s not in state.sealed)
        return ()

    def legal(self, state: BidState, actor: int) -> list[Any]:
        if actor not in self.awaiting(state):
            return []
        if actor == STORYTELLER:
            return [Ruling()] + [Ruling(favours=side, bonus=b) for side in SIDES for b in (1, 2)]
        return [Bid(seat=actor, amount=a) for a in range(state.purse[actor] + 1)]

    def sample_chance(self, state: BidState, rng: random.Random) -> Any:
        raise RuleViolation("BID-8", "Bid has no chance outcomes")

    def apply(self, state: BidState, event: Any) -> list[Change]:
        self._check_turn(state, event)
        if type(event) is Ruling:
            return _rule(state, event)
        return _bid(state, event)

    def _check_turn(self, state: BidState, event: Any) -> None:
        if state.phase == OVER:
            raise RuleViolation("BID-8", "the match is over")
        if type(event) is Ruling and state.phase != RULING:
            raise RuleViolation("BID-8", "the round awaits bids, not a ruling")
        if type(event) is Bid and state.phase != BIDDING:
            raise RuleViolation("BID-8", "the Storyteller rules before anyone bids")
        if type(event) is Bid and not 0 <= event.seat < len(state.sides):
            raise RuleViolation("BID-8", f"there is no seat {event.seat} at this table")
        if type(event) is Bid and event.seat in state.sealed:
            raise RuleViolation("BID-3", f"seat {event.seat} has bid already this round")

    def turn(self, state: BidState) -> int:
        return state.round

    def view(self, state: BidState, perspective: int | str) -> dict[str, Any]:
        """What `perspective` sees: a sealed bid only for its own seat and the organiser, every
        other seat (teammates and whole sides included) seeing only that it is in."""
        seats = [{"seat": s, "side": side, "purse": state.purse[s], "guard": state.guard[s],
                  "sealed": s in state.sealed,
                  "bid": state.sealed.get(s) if perspective in (OMNISCIENT, s) else None}
                 for s, side in enumerate(state.sides)]
        ruling = None if state.phase == RULING else {"favours": state.favours,
                                                     "bonus": state.bonus}
        return {"round": state.round, "rounds": state.scenario.rounds,
                "scenario": state.scenario.name, "phase": state.phase, "ruling": ruling,
                "strength": dict(state.strength), "to_act": list(self.awaiting(state)),
                "seats": seats, "last_bids": None if state.last is None else list(state.last),
                "result": msgspec.to_builtins(state.result)}

    def outcome(self, state: BidState) -> Outcome | None:
        return state.result


def _check_seat(seat: Seat) -> None:
    if seat.side not in SIDES or seat.role is not None:
        raise RuleViolation("BID-1", f"seat {seat.seat} is on side {seat.side!r} with role "
                                     f"{seat.role!r}; seats are red or blue, without roles")
    build = seat.setup
    if not isinstance(build, Build):
        raise RuleViolation("BID-1.2", f"seat {seat.seat}'s setup is not a build")
    if build.purse not in PURSE or build.guard not in GUARD:
        raise RuleViolation("BID-1.2", f"seat {seat.seat}'s build {build.name!r} has purse "
                                       f"{build.purse} and guard {build.guard}; a purse holds "
                                       "1 to 30 coins, a guard is 0 to 3")


def _check_scenario(block: Any) -> Scenario:
    if not isinstance(block, Scenario):
        raise RuleViolation("BID-1.3", "the header holds no Bid scenario")
    if block.strength not in STRENGTH or block.rounds not in ROUNDS:
        raise RuleViolation("BID-1.3", f"scenario {block.name!r}: strength {block.strength} "
                                       f"and {block.rounds} rounds; strength is 1 to 50, "
                                       "rounds 1 to 20")
    return block


def _rule(state: BidState, event: Ruling) -> list[Change]:
    fair = (event.favours is None and event.bonus == 0) or (
        event.favours in SIDES and event.bonus in (1, 2))
    if not fair:
        raise RuleViolation("BID-2", f"a ruling favours red or blue by 1 or 2, or no side by "
                                     f"0; not {event.favours!r} by {event.bonus}")
    state.favours, state.bonus, state.phase = event.favours, event.bonus, BIDDING
    return [Ruled(favours=event.favours, bonus=event.bonus)]


def _bid(state: BidState, event: Bid) -> list[Change]:
    purse = state.purse[event.seat]
    if not 0 <= event.amount <= purse:
        raise RuleViolation("BID-3", f"seat {event.seat} bids {event.amount} with {purse} "
                                     "coins left")
    state.sealed[event.seat] = event.amount
    changes: list[Change] = [Sealed(seat=event.seat, amount=event.amount,
                                    secret_to=event.seat)]
    if len(state.sealed) == len(state.sides):
        changes += _reveal(state)
    return changes


def _reveal(state: BidState) -> list[Change]:
    bids = tuple(state.sealed[s] for s in range(len(state.sides)))
    for seat, amount in enumerate(bids):
        state.purse[seat] -= amount
    state.sealed, state.last = {}, bids
    changes: list[Change] = [Revealed(bids=bids)]
    for side, other in zip(SIDES, SIDES[::-1]):
        attack = sum(bids[s] for s in state.seats_of(other))
        attack += state.bonus if state.favours == other else 0
        damage = max(0, attack - sum(state.guard[s] for s in state.seats_of(side)))
        state.strength[side] = max(0, state.strength[side] - damage)
        changes.append(Struck(side=side, damage=damage, strength=state.strength[side]))
    return changes + _end_of_round(state)


def _end_of_round(state: BidState) -> list[Change]:
    fallen = [side for side in SIDES if state.strength[side] == 0]
    if fallen:
        winner = None if len(fallen) == 2 else next(s for s in SIDES if s not in fallen)
        why = "both sides fell in the same round" if winner is None else f"{fallen[0]} fell"
        return [_end(state, winner, why, "BID-6")]
    if state.round == state.scenario.rounds:
        red, blue = (state.strength[side] for side in SIDES)
        winner = None if red == blue else SIDES[0] if red > blue else SIDES[1]
        return [_end(state, winner, "more strength after the last round" if winner
                     else "equal strength after the last round", "BID-7")]
    state.round, state.phase = state.round + 1, RULING
    return [RoundBegan(round=state.round)]


def _end(state: BidState, side: str | None, reason: str, rule: str) -> Change:
    results = tuple(DRAW if side is None else WIN if s == side else LOSS for s in state.sides)
    state.result = Outcome(results=results, reason=reason, rule=rule, side=side)
    state.phase = OVER
    return BidOver(side=side, rule=rule)


RULES = BidRules()
