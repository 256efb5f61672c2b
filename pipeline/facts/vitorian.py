"""Vitorian Wars facts: one replayed log -> matches, seats, deck_cards and card_events rows.

Card events are read from the engine's derived changes, never re-derived here, so the lake
counts exactly what the rules did: "draw" (after the opening hand: turn >= 1), "kept" (the hand
kept), "mobilized" / "linked" / "field_condition" / "order_played" (played), "destroyed", and
"sovereign_hit" / "sovereign_fell" (a hit by the attacker the last "attack" change declared).
Events name card instances (seat * 100 + slot); the lake names catalog cards.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import msgspec

from engine.ruleset import Change, Outcome, Ruleset
from engine.vitorian.cards import Card, load_catalog
from engine.vitorian.deckcheck import SECTIONS, resolve
from engine.vitorian.state import State
from events.base import DeckList, Header
from pipeline.facts import FactVisitor, LogMeta, Unfinished

DeckFacts = tuple[str, tuple[tuple[str, str, str, int], ...]]
"""(deck_id, ((section, card id, card name, copies), ...))."""
PLAYED = ("mobilized", "linked", "field_condition", "order_played")


@lru_cache(maxsize=1024)
def deck_facts(encoded: bytes) -> DeckFacts:
    """The deck's id and card lines, computed once per list: a season replays each list often.

    deck_id hashes the resolved list (catalog ids, sections, copies; not its name, nor the order
    of its lines), so the same list gets the same id whoever wrote it and however.
    """
    catalog = load_catalog()
    deck = resolve(msgspec.msgpack.decode(encoded, type=DeckList), catalog)
    lines = tuple((section, entry.card, catalog.by_id[entry.card].name, entry.count)
                  for section in SECTIONS for entry in deck.section(section))
    canonical = "\n".join(f"{s}\t{card}\t{n}" for s, card, _, n in sorted(lines))
    return hashlib.blake2b(canonical.encode(), digest_size=8).hexdigest(), lines


def faction(sovereign: Card) -> str | None:
    """The Sovereign's colour (its colours "+"-joined, should one ever have two)."""
    return "+".join(sovereign.colors) or sovereign.color


class VitorianFacts(FactVisitor):
    """Replay visitor collecting the rows of one Vitorian match (begin, step..., end)."""

    def __init__(self, header: Header, ruleset: Ruleset, meta: LogMeta) -> None:
        super().__init__(header, ruleset, meta)
        self.turn = 0
        self.events = 0
        self.attacker: tuple[int, int] | None = None
        self.decks: dict[int, str] = {}
        self.card_events = self.rows["card_events"]

    def begin(self, header: Header, state: State) -> None:
        """Deck lines now: setup has already checked the lists (VW-3.17)."""
        for seat in header.seats:
            deck_id, lines = deck_facts(msgspec.msgpack.encode(seat.deck))
            self.decks[seat.seat] = deck_id
            self.rows["deck_cards"].extend(
                (self.match_id, self.game, self.month, seat.seat, deck_id, section, card, name,
                 copies) for section, card, name, copies in lines)

    def step(self, seq: int, event: Any, changes: list[Change], state: State) -> None:
        self.events = seq
        handlers = _HANDLERS
        for change in changes:
            handler = handlers.get(change.kind)
            if handler is not None:
                handler(self, seq, event, change, changes, state)

    def end(self, state: State, outcome: Outcome | None) -> None:
        if outcome is None:
            raise Unfinished(f"the log stops before the match ends (after event {self.events}, "
                             f"turn {state.turn})")
        first = state.first if state.first >= 0 else None
        self.rows["matches"].append(self.match_row(first, outcome.winner, outcome.reason,
                                                   outcome.rule, state.turn, self.events))
        for seat in self.header.seats:
            player = state.players[seat.seat]
            result = "draw" if outcome.winner is None else \
                "win" if outcome.winner == seat.seat else "loss"
            self.rows["seats"].append(
                (self.match_id, self.game, self.month, seat.seat, seat.player,
                 self.decks[seat.seat], seat.deck.name, faction(player.sovereign),
                 player.sovereign.id, seat.seat == first, result))

    def card_event(self, seq: int, seat: int | None, card: str, kind: str,
                   target: str | None = None, amount: int | None = None) -> None:
        self.card_events.append((self.match_id, self.game, self.month, seq, self.turn, seat,
                                 card, kind, target, amount))

    # Change handlers: (self, seq, event, the change, all the event's changes, state) --------

    def _turn(self, seq: int, event: Any, change: Change, changes: list[Change],
              state: State) -> None:
        self.turn = change.amount or 0

    def _kept(self, seq: int, event: Any, change: Change, changes: list[Change],
              state: State) -> None:
        """The hand now, less what the same event drew after the keep (a turn may start)."""
        seat = change.seat
        assert seat is not None
        after = changes[changes.index(change) + 1:]
        later = {c.card for c in after if c.kind == "draw" and c.seat == seat}
        for cid in state.players[seat].hand:
            if cid not in later:
                self.card_event(seq, seat, state.cards[cid].id, "opening_hand")

    def _draw(self, seq: int, event: Any, change: Change, changes: list[Change],
              state: State) -> None:
        if self.turn >= 1 and change.card is not None:
            self.card_event(seq, change.seat, state.cards[change.card].id, "drawn")

    def _played(self, seq: int, event: Any, change: Change, changes: list[Change],
                state: State) -> None:
        """Target: the unit an Equipment went on, or an Order's target unit."""
        assert change.card is not None
        aim = event.unit if change.kind == "linked" else getattr(event, "target", None)
        target = state.cards[aim].id if aim is not None else None
        self.card_event(seq, change.seat, state.cards[change.card].id, "played", target)

    def _destroyed(self, seq: int, event: Any, change: Change, changes: list[Change],
                   state: State) -> None:
        assert change.card is not None
        self.card_event(seq, change.seat, state.cards[change.card].id, "destroyed")

    def _attack(self, seq: int, event: Any, change: Change, changes: list[Change],
                state: State) -> None:
        assert change.seat is not None and change.card is not None
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


Handler = Callable[[VitorianFacts, int, Any, Change, list[Change], State], None]
_HANDLERS: dict[str, Handler] = {
    "turn": VitorianFacts._turn, "kept": VitorianFacts._kept, "draw": VitorianFacts._draw,
    "destroyed": VitorianFacts._destroyed, "attack": VitorianFacts._attack,
    "sovereign_hit": VitorianFacts._hit, "sovereign_fell": VitorianFacts._hit,
    **{kind: VitorianFacts._played for kind in PLAYED},
}
