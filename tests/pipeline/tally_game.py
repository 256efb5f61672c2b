"""Tally: a made-up game of the pipeline tests, registered only while a test asks for it
(the `tally` fixture of tests/pipeline/conftest.py). One Dracula seat against one to three hunter seats, who win as a team; no
decks, no cards; its fact extractor declares a table of its own (`tally_scores`). Nothing here
plays it: the tests hand its extractor headers and outcomes, or write its rows directly."""
from __future__ import annotations

from typing import Any, ClassVar

import pyarrow as pa

from engine import registry
from engine.registry import GameInfo, Registration, Side
from pipeline.facts import FactVisitor
from tests import registry_tools

GAME = "tally"
REF = "tests.pipeline.tally_game:registration"
SCORES = pa.schema([("match_id", pa.string()), ("game", pa.string()), ("month", pa.string()),
                    ("seat", pa.int8()), ("points", pa.int32())])
INFO = GameInfo(name=GAME, title="Tally", rulesets=("tally@1",), prefix="ta", min_seats=2,
                max_seats=4, sides=(Side("dracula", 1, ("Dracula",)),
                                    Side("hunters", 3, ("Lord Godalming", "Mina Harker",
                                                        "Van Helsing"))),
                symmetric=False, chance=True, storyteller=False, information="hidden")


class TallyFacts(FactVisitor):
    """Its own table: each seat's points (matches and seats come from the base)."""

    TABLES: ClassVar[dict[str, pa.Schema]] = {"scores": SCORES}

    def points(self, seat: int, points: int) -> None:
        self.own("scores").append((self.match_id, self.game, self.month, seat, points))


def registration() -> Registration:
    return Registration(info=INFO, layers={"facts": "tests.pipeline.tally_game:TallyFacts"})


def register() -> None:
    registry.register_game(GAME, REF)


def unregister() -> None:
    registry_tools.unregister(GAME)


def tally_row(**values: Any) -> dict[str, Any]:
    """A row of a Tally match, January 2026."""
    return {"match_id": "ta-1", "game": GAME, "month": "2026-01", **values}
