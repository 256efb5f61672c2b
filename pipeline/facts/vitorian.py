"""Vitorian Wars facts: one replayed log -> matches, seats, deck_cards and card_events rows.

Card events are read from the engine's derived changes, never re-derived here, so the lake
counts exactly what the rules did: "draw" (after the opening hand: turn >= 1), "kept" (the hand
kept), "mobilized" / "linked" / "field_condition" / "order_played" (played), "destroyed", and
"sovereign_hit" / "sovereign_fell" (a hit by the attacker the last "attack" change declared).
Events and changes name card instances (engine.vitorian.setup); the lake names catalog cards.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import msgspec

from engine.ruleset import Change, Outcome, Ruleset
from engine.vitorian.cards import Card, load_catalog
from engine.vitorian.changes import (
    AttackDeclared,
    Destroyed,
    Drew,
    HandKept,
    Linked,
    TurnBegan,
    VitorianChange,
)
from engine.vitorian.deckcheck import SECTIONS, resolve
from engine.vitorian.state import State
from events.base import DeckList, Header
from pipeline.facts import DeckLines, FactVisitor, LogMeta, deck_lines

DeckFacts = tuple[str, DeckLines]
"""(deck_id, deck lines)."""
PLAYED = ("mobilized", "linked", "field_condition", "order_played")


@lru_cache(maxsize=1024)
def deck_facts(encoded: bytes) -> DeckFacts:
    """The deck's id and card lines (pipeline.facts.deck_lines), computed once per list: a
    season replays each list often."""
    catalog = load_catalog()
    deck = resolve(msgspec.msgpack.decode(encoded, type=DeckList), catalog)
    return deck_lines(deck, SECTIONS, lambda card: catalog.by_id[card].name)


def faction(sovereign: Card) -> str | None:
    """The Sovereign's colour (its colours "+"-joined, should one ever have two)."""
    return "+".join(sovereign.colors) or sovereign.color


class VitorianFacts(FactVisitor):
    """Replay visitor collecting the rows of one Vitorian match (begin, step..., end)."""

    def __init__(self, header: Header, ruleset: Ruleset, meta: LogMeta) -> None:
        super().__init__(header, ruleset, meta)
        self.attacker: tuple[int, int] | None = None
        self.decks: dict[int, str] = {}

    def begin(self, header: Header, state: State) -> None:
        """Deck lines now: setup has already checked the lists (VW-3.17)."""
        for seat in header.seats:
            deck_id, lines = deck_facts(msgspec.msgpack.encode(seat.setup))
            self.decks[seat.seat] = deck_id
            self.deck_rows(seat.seat, deck_id, lines)

    def step(self, seq: int, event: Any, changes: list[Change], state: State) -> None:
        self.events = seq
        handlers = _BY_CLASS
        for change in changes:
            handler = handlers.get(type(change))
            if handler is not None:
                handler(self, seq, event, change, changes, state)

    def end(self, state: State, outcome: Outcome | None) -> None:
        """matches and seats (setup_id: the deck_id), then decks: faction is the Sovereign's
        colour, leader the Sovereign's card id."""
        self.finish(outcome, state.first, state.turn, self.decks)
        for seat in self.header.seats:
            sovereign = state.players[seat.seat].sovereign
            self.deck_row(seat.seat, self.decks[seat.seat], seat.setup.name, faction(sovereign),
                          sovereign.id)

    # Change handlers: (self, seq, event, the change, all the event's changes, state) --------

    def _turn(self, seq: int, event: Any, change: TurnBegan, changes: list[Change],
              state: State) -> None:
        self.turn = change.turn

    def _kept(self, seq: int, event: Any, change: HandKept, changes: list[Change],
              state: State) -> None:
        """The hand now, less what the same event drew after the keep (a turn may start)."""
        seat = change.seat
        assert seat is not None
        after = changes[changes.index(change) + 1:]
        later = {c.card for c in after if isinstance(c, Drew) and c.seat == seat}
        for cid in state.players[seat].hand:
            if cid not in later:
                self.card_event(seq, seat, state.cards[cid].id, "opening_hand")

    def _draw(self, seq: int, event: Any, change: Drew, changes: list[Change],
              state: State) -> None:
        if self.turn >= 1 and change.card is not None:
            self.card_event(seq, change.seat, state.cards[change.card].id, "drawn")

    def _played(self, seq: int, event: Any, change: Any, changes: list[Change],
                state: State) -> None:
        """Target: the unit an Equipment went on, or an Order's target unit. `change` is
        Mobilized, Linked, FieldConditionPlayed or OrderPlayed: each names its `card`."""
        aim = event.unit if type(change) is Linked else getattr(event, "target", None)
        target = state.cards[aim].id if aim is not None else None
        self.card_event(seq, change.seat, state.cards[change.card].id, "played", target)

    def _destroyed(self, seq: int, event: Any, change: Destroyed, changes: list[Change],
                   state: State) -> None:
        self.card_event(seq, change.seat, state.cards[change.card].id, "destroyed")

    def _attack(self, seq: int, event: Any, change: AttackDeclared, changes: list[Change],
                state: State) -> None:
        assert change.seat is not None
        self.attacker = (change.seat, change.card)

    def _hit(self, seq: int, event: Any, change: Change, changes: list[Change],
             state: State) -> None:
        """Each hit removes one Defense card (or fells the Sovereign): amount 1, target the
        Sovereign hit."""
        hit_seat = change.seat
        if self.attacker is None or hit_seat is None:
            raise ValueError(f"event {seq}: a Sovereign hit with no declared attacker")
        seat, attacker = self.attacker
        self.card_event(seq, seat, state.cards[attacker].id, "hit",
                        state.players[hit_seat].sovereign.id, 1)


Handler = Callable[[VitorianFacts, int, Any, Any, list[Change], State], None]
"""A handler takes the change kind it is registered for (engine.vitorian.changes)."""
_HANDLERS: dict[str, Handler] = {
    "turn": VitorianFacts._turn, "kept": VitorianFacts._kept, "draw": VitorianFacts._draw,
    "destroyed": VitorianFacts._destroyed, "attack": VitorianFacts._attack,
    "sovereign_hit": VitorianFacts._hit, "sovereign_fell": VitorianFacts._hit,
    **{kind: VitorianFacts._played for kind in PLAYED},
}


def _by_class(handlers: dict[str, Handler]) -> dict[type, Handler]:
    """The handlers keyed by change class (a step looks each change up by its type)."""
    classes = {cls.__struct_config__.tag: cls for cls in VitorianChange.__subclasses__()}
    unknown = sorted(set(handlers) - set(classes))
    if unknown:
        raise ValueError(f"no Vitorian change of kind {', '.join(unknown)}")
    return {classes[kind]: handler for kind, handler in handlers.items()}


_BY_CLASS = _by_class(_HANDLERS)
