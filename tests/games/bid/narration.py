"""Bid in words, and who may know a bid before the reveal.

A sealed bid is told to its own seat and the organiser only: a teammate, a side's perspective
and a spectator hear that a bid is in, never how much, until the last bid of the round reveals
them all (BID-4). The Storyteller's rulings are public (BID-2)."""
from __future__ import annotations

from typing import Any

from engine.ruleset import Change, Perspective
from events.base import Header
from tests.games.bid.events import Bid, Revealed, RoundBegan, Ruling, Struck
from tests.games.sides import SidesNarration


class BidNarration(SidesNarration):
    def event_text(self, header: Header, state: Any, event: Any,
                   perspective: Perspective) -> str:
        if type(event) is Ruling:
            if event.favours is None:
                return "the Storyteller calls a calm round"
            return f"the Storyteller favours {event.favours} (+{event.bonus}) this round"
        assert type(event) is Bid
        who = self.seat_names(header)[event.seat]
        if self.knows(header, perspective, event.seat):
            return f"{who} bids {event.amount} in secret"
        return f"{who} seals a bid"

    def change_text(self, header: Header, state: Any, change: Change,
                    perspective: Perspective) -> str | None:
        if isinstance(change, RoundBegan):
            return f"round {change.round} of {header.scenario.rounds} begins"
        if isinstance(change, Revealed):
            names = self.seat_names(header)
            told = ", ".join(f"{names[seat]} {bid}" for seat, bid in enumerate(change.bids))
            return f"the bids are revealed: {told}"
        if isinstance(change, Struck):
            return f"{change.side} loses {change.damage} strength ({change.strength} left)"
        return None


NARRATION = BidNarration()
