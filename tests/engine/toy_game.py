"""Toy Duel: a tiny 2-seat card game used only by the engine tests.

It has everything the game-independent machinery must cope with (hidden hands, a shuffle as a
chance event, alternating turns, a draw by turn cap, a concession) and nothing else, so replay,
bots, the simulator, tournaments and the CLI can be tested before any real game exists.

Rules (IDs TOY-):
- TOY-1 Setup: seats 0 and 1; each seat's deck is shuffled (chance, seat 0 first); then each seat draws 3.
- TOY-2 Turns alternate, seat 0 first; on its turn a seat plays one card from its hand, or passes
  when its hand is empty. A card scores its value if it beats the card the opponent played last,
  else 1. Then the seat draws one card if its deck is not empty.
- TOY-3 The match ends when both hands are empty, or after turn TURN_CAP; the higher score wins,
  equal scores draw. TOY-4 A seat may concede on its turn.
- TOY-5 Events out of turn, cards not in hand, shuffles that are not a permutation of the deck,
  and any event after the end are refused.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, ClassVar

import msgspec

from engine.registry import GameInfo, Registration, Side, register_game
from engine.ruleset import CHANCE, OMNISCIENT, Change, Outcome, RuleViolation
from events.base import DeckEntry, DeckList, Header

if TYPE_CHECKING:
    from engine.games import GameKit

TURN_CAP = 40
HAND = 3
DECK_SIZE = (4, 60)
MAX_COPIES = 4
VALUES = range(1, 10)


class ToyEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type",
               forbid_unknown_fields=True):
    seat: int


class Shuffle(ToyEvent, tag="shuffle"):
    by: ClassVar[str] = "chance"
    order: tuple[int, ...]


class Play(ToyEvent, tag="play"):
    card: int


class Pass(ToyEvent, tag="pass"):
    pass


class Concede(ToyEvent, tag="concede"):
    pass


Event = Shuffle | Play | Pass | Concede


# What an event changes (TOY- rules), typed like the events -----------------------------------

class Shuffled(Change, frozen=True, tag="shuffled"):
    cards: int


class Conceded(Change, frozen=True, tag="conceded"):
    pass


class Played(Change, frozen=True, tag="played"):
    card: int
    value: int


class Scored(Change, frozen=True, tag="scored"):
    points: int


class Drew(Change, frozen=True, tag="drew"):
    """A seat draws a card: which one only that seat knows."""

    card: int | None = None
    value: int | None = None
    private: ClassVar[tuple[str, ...]] = ("card", "value")


class Ended(Change, frozen=True, tag="ended"):
    """The match ends; seat is the winner, None on a draw."""


class ToyState:
    """Mutable match state; cards are instance ids (seat * 1000 + index), values in `value`."""

    __slots__ = (
        "active",
        "deck",
        "hand",
        "last",
        "result",
        "score",
        "shuffled",
        "turn",
        "value",
    )

    def __init__(self) -> None:
        self.value: dict[int, int] = {}
        self.deck: list[list[int]] = [[], []]
        self.hand: list[list[int]] = [[], []]
        self.score = [0, 0]
        self.last = [0, 0]
        self.shuffled = 0
        self.turn = 0
        self.active = 0
        self.result: Outcome | None = None


class ToyRuleset:
    name = "toy"
    game = "toy"
    version = 1
    event_type = Event

    def setup(self, header: Header) -> ToyState:
        state = ToyState()
        if sorted(s.seat for s in header.seats) != [0, 1]:
            raise RuleViolation("TOY-1", "a match needs exactly seats 0 and 1")
        for seat in header.seats:
            ids = _expand(seat.seat, seat.setup)
            state.value.update(ids)
            state.deck[seat.seat] = [i for i, _ in ids]
        return state

    def clone(self, state: ToyState) -> ToyState:
        new = ToyState()
        new.value = state.value  # never mutated after setup
        new.deck = [state.deck[0][:], state.deck[1][:]]
        new.hand = [state.hand[0][:], state.hand[1][:]]
        new.score, new.last = state.score[:], state.last[:]
        new.shuffled, new.turn, new.active = state.shuffled, state.turn, state.active
        new.result = state.result
        return new

    def to_move(self, state: ToyState) -> int | None:
        if state.result is not None:
            return None
        return CHANCE if state.shuffled < 2 else state.active

    def awaiting(self, state: ToyState) -> tuple[int, ...]:
        seat = self.to_move(state)
        return () if seat is None else (seat,)

    def legal(self, state: ToyState, actor: int | None = None) -> list[Any]:
        seat = self.to_move(state)
        if seat is None or seat == CHANCE or actor not in (None, seat):
            return []
        hand = state.hand[seat]
        return [Play(seat=seat, card=c) for c in hand] if hand else [Pass(seat=seat)]

    def sample_chance(self, state: ToyState, rng: random.Random) -> Shuffle:
        deck = state.deck[state.shuffled]
        return Shuffle(seat=state.shuffled, order=tuple(rng.sample(deck, len(deck))))

    def apply(self, state: ToyState, event: Any) -> list[Change]:
        _check(state, event, self.to_move(state))
        if type(event) is Shuffle:
            return _shuffle(state, event)
        if type(event) is Concede:
            state.result = Outcome.decided(1 - event.seat, 2, "concession", "TOY-4")
            return [Conceded(seat=event.seat)]
        changes = _play(state, event) if type(event) is Play else []
        return changes + _end_turn(state)

    def turn(self, state: ToyState) -> int:
        return state.turn

    def view(self, state: ToyState, perspective: int | str) -> dict[str, Any]:
        return {
            "turn": state.turn,
            "active": state.active,
            "seats": [_seat_view(state, s, perspective) for s in (0, 1)],
            "result": msgspec.to_builtins(state.result),
        }

    def outcome(self, state: ToyState) -> Outcome | None:
        return state.result


def _expand(seat: int, deck: DeckList) -> list[tuple[int, int]]:
    cards = [int(e.card) for e in deck.section("deck") for _ in range(e.count)]
    return [(seat * 1000 + i, v) for i, v in enumerate(cards)]


def _check(state: ToyState, event: Any, expected: int | None) -> None:
    if expected is None:
        raise RuleViolation("TOY-5", "the match is over")
    if (type(event) is Shuffle) != (expected == CHANCE):
        raise RuleViolation("TOY-5", f"expected {'a shuffle' if expected == CHANCE else 'a decision'}")
    seat = state.shuffled if expected == CHANCE else expected
    if event.seat != seat:
        raise RuleViolation("TOY-5", f"seat {event.seat} acts out of turn (seat {seat} to move)")
    if type(event) is Shuffle and sorted(event.order) != sorted(state.deck[seat]):
        raise RuleViolation("TOY-5", "the shuffle is not a permutation of the deck")
    if type(event) is Play and event.card not in state.hand[seat]:
        raise RuleViolation("TOY-5", f"card {event.card} is not in seat {seat}'s hand")
    if type(event) is Pass and state.hand[seat]:
        raise RuleViolation("TOY-2", "a seat with cards in hand must play one")


def _shuffle(state: ToyState, event: Shuffle) -> list[Change]:
    state.deck[event.seat] = list(event.order)
    state.shuffled += 1
    changes: list[Change] = [Shuffled(seat=event.seat, cards=len(event.order))]
    if state.shuffled == 2:
        state.turn = 1
        for seat in (0, 1):
            changes += [_draw(state, seat) for _ in range(HAND) if state.deck[seat]]
    return changes


def _play(state: ToyState, event: Play) -> list[Change]:
    seat, value = event.seat, state.value[event.card]
    state.hand[seat].remove(event.card)
    points = value if value > state.last[1 - seat] else 1
    state.score[seat] += points
    state.last[seat] = value
    changes: list[Change] = [Played(seat=seat, card=event.card, value=value),
                             Scored(seat=seat, points=points)]
    if state.deck[seat]:
        changes.append(_draw(state, seat))
    return changes


def _draw(state: ToyState, seat: int) -> Change:
    card = state.deck[seat].pop(0)
    state.hand[seat].append(card)
    return Drew(seat=seat, card=card, value=state.value[card], secret_to=seat)


def _end_turn(state: ToyState) -> list[Change]:
    if not state.hand[0] and not state.hand[1] or state.turn >= TURN_CAP:
        a, b = state.score
        winner = None if a == b else (0 if a > b else 1)
        state.result = Outcome.decided(winner, 2, "higher score" if winner is not None
                                       else "equal scores", "TOY-3")
        return [Ended(seat=winner)]
    state.turn += 1
    state.active = 1 - state.active
    return []


def _seat_view(state: ToyState, seat: int, perspective: int | str) -> dict[str, Any]:
    sees = perspective == OMNISCIENT or perspective == seat
    hand = state.hand[seat]
    return {
        "score": state.score[seat],
        "deck": len(state.deck[seat]),
        "hand": [state.value[c] for c in hand] if sees else len(hand),
    }


RULESET = ToyRuleset()


# The game kit: archetypes, deck building and checking -----------------------------------

ARCHETYPES = ("low", "high", "mixed")
_RANGES = {"low": (1, 5), "high": (5, 9), "mixed": (1, 9)}


def build_deck(archetype: str, rng: random.Random, name: str) -> DeckList:
    """A legal deck of 8 to 12 cards drawn from the archetype's value range."""
    low, high = _RANGES[archetype]
    counts: dict[int, int] = {}
    while sum(counts.values()) < rng.randint(8, 12):
        value = rng.randint(low, high)
        if counts.get(value, 0) < MAX_COPIES:
            counts[value] = counts.get(value, 0) + 1
    entries = [DeckEntry(card=str(v), count=n) for v, n in sorted(counts.items())]
    return DeckList(name=name, sections={"deck": entries})


def check_deck(deck: DeckList) -> list[tuple[str, str]]:
    problems = []
    entries = deck.section("deck")
    size = sum(e.count for e in entries)
    if not DECK_SIZE[0] <= size <= DECK_SIZE[1]:
        needs = f"{DECK_SIZE[0]} to {DECK_SIZE[1]}"
        problems.append(("TOY-D1", f"the deck has {size} cards; it needs {needs}"))
    for e in entries:
        if not e.card.isdigit() or int(e.card) not in VALUES:
            problems.append(("TOY-D2", f"unknown card {e.card!r}; cards are 1 to 9"))
        if e.count > MAX_COPIES:
            problems.append(("TOY-D3", f"{e.count} copies of {e.card}; at most {MAX_COPIES}"))
    return problems


def render_text(view: dict[str, Any]) -> str:
    lines = [f"turn {view['turn']}, seat {view['active']} to play"]
    for seat, s in enumerate(view["seats"]):
        lines.append(f"  seat {seat}: score {s['score']:>3}  deck {s['deck']:>2}  hand {s['hand']}")
    return "\n".join(lines)


def kit() -> GameKit:
    from engine.games import GameKit

    return GameKit(name="toy", ruleset="toy@1", prefix="toy", archetypes=ARCHETYPES,
                   build_deck=build_deck, check_deck=check_deck, render_text=render_text)


INFO = GameInfo(name="toy", title="Toy Duel", rulesets=("toy@1",), prefix="toy", min_seats=2,
                max_seats=2, sides=(Side("seat 0"), Side("seat 1")), symmetric=True,
                chance=True, storyteller=False, information="hidden", capabilities=("decks",))


def registration() -> Registration:
    """The toy's one registration: no lake facts, no picture (a test game, never ingested)."""
    return Registration(info=INFO, layers={"events": "tests.engine.toy_game:Event",
                                           "setup": "events.base:DeckList",
                                           "ruleset": "tests.engine.toy_game:RULESET",
                                           "narration": "engine.narration:GENERIC",
                                           "kit": "tests.engine.toy_game:kit"})


REGISTRATION_REF = "tests.engine.toy_game:registration"
"""What the tests register; a worker process loads the whole game from it."""
register_game("toy", REGISTRATION_REF)
