"""Bid's lake facts (its "facts" layer): matches and seats from the base, and one table of its
own, `bid_rounds`: one row per round and seat, with the seat's bid (revealed to all once the
round's last bid is in, BID-4) and the Storyteller's public ruling of that round. A bid still
sealed when the match ended cannot be: the match ends only at a reveal."""
from __future__ import annotations

from typing import Any, ClassVar

import pyarrow as pa

from engine.ruleset import Change, Outcome
from events.base import Header
from pipeline.facts import FactVisitor
from tests.games.bid.events import Revealed, RoundBegan, Ruled
from tests.games.bid.rules import BidState

ROUNDS = pa.schema([("match_id", pa.string()), ("game", pa.string()), ("month", pa.string()),
                    ("round", pa.int16()), ("seat", pa.int8()), ("side", pa.string()),
                    ("bid", pa.int16()), ("favours", pa.string()), ("bonus", pa.int8())])


class BidFacts(FactVisitor):
    """Replay visitor collecting the rows of one Bid match (begin, step..., end)."""

    TABLES: ClassVar[dict[str, pa.Schema]] = {"rounds": ROUNDS}

    def begin(self, header: Header, state: BidState) -> None:
        self.turn = 1
        self.sides = {s.seat: s.side for s in header.seats}
        self.ruling: tuple[str | None, int] = (None, 0)

    def step(self, seq: int, event: Any, changes: list[Change], state: BidState) -> None:
        self.events = seq
        for change in changes:
            if isinstance(change, RoundBegan):
                self.turn = change.round
            elif isinstance(change, Ruled):
                self.ruling = (change.favours, change.bonus)
            elif isinstance(change, Revealed):
                self.own("rounds").extend(
                    (self.match_id, self.game, self.month, self.turn, seat, self.sides[seat],
                     amount, *self.ruling) for seat, amount in enumerate(change.bids))

    def end(self, state: BidState, outcome: Outcome | None) -> None:
        """Every seat bids at once, so none plays first (first_seat null); turns: rounds."""
        self.finish(outcome, -1, state.round)
