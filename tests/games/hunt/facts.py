"""The Hunt's lake facts (its "facts" layer): matches and seats from the base, and one table of
its own, `hunt_chases`: one row per round played, with the die, the reach it gave the hounds and
whether the fox was sighted or caught that round. All of it is public once the match is over
(the die is rolled in public, sightings and catches are shown to all); the fox's secret runs
are not in the lake."""
from __future__ import annotations

from typing import Any, ClassVar

import pyarrow as pa

from engine.ruleset import Change, Outcome
from events.base import Header
from pipeline.facts import FactVisitor
from tests.games.hunt.events import Caught, Rolled, RoundBegan, Sighted
from tests.games.hunt.rules import HuntState

CHASES = pa.schema([("match_id", pa.string()), ("game", pa.string()), ("month", pa.string()),
                    ("round", pa.int16()), ("die", pa.int8()), ("reach", pa.int8()),
                    ("sighted", pa.bool_()), ("caught", pa.bool_()),
                    ("cornered", pa.bool_())])


class HuntFacts(FactVisitor):
    """Replay visitor collecting the rows of one hunt (begin, step..., end)."""

    TABLES: ClassVar[dict[str, pa.Schema]] = {"chases": CHASES}

    def begin(self, header: Header, state: HuntState) -> None:
        self.rounds: dict[int, list[Any]] = {}

    def step(self, seq: int, event: Any, changes: list[Change], state: HuntState) -> None:
        self.events = seq
        for change in changes:
            if isinstance(change, RoundBegan):
                self.turn = change.round
            elif isinstance(change, Rolled):
                self.rounds[self.turn] = [change.value, change.reach, False, False, False]
            elif isinstance(change, Sighted):
                self.rounds[self.turn][2] = True
            elif isinstance(change, Caught):
                self.rounds[self.turn][3] = True
                self.rounds[self.turn][4] = change.cornered

    def end(self, state: HuntState, outcome: Outcome | None) -> None:
        """No seat plays first (first_seat null); turns are the rounds begun."""
        self.finish(outcome, -1, state.round)
        self.own("chases").extend((self.match_id, self.game, self.month, rnd, *facts)
                                  for rnd, facts in sorted(self.rounds.items()))
