"""Bid's one registration, made when this module is imported (the tests import it).

Its lake facts are tests/games/bid/facts.py, its own metric models tests/games/bid/sql/ (the
"sql" layer), which its suite (game.toml) names."""
from __future__ import annotations

import tomllib
from pathlib import Path

import msgspec

from engine.registry import GameInfo, Registration, register_game

INFO = msgspec.convert(tomllib.loads(Path(__file__).with_name("game.toml").read_text("utf-8")),
                       GameInfo)
SQL_DIR = Path(__file__).with_name("sql")
"""The game's own metric models (its "sql" layer)."""
REGISTRATION_REF = "tests.games.bid.registration:registration"


def registration() -> Registration:
    return Registration(info=INFO, layers={
        "events": "tests.games.bid.events:Event",
        "setup": "tests.games.bid.events:Build",
        "scenario": "tests.games.bid.events:Scenario",
        "ruleset": "tests.games.bid.rules:RULES",
        "narration": "tests.games.bid.narration:NARRATION",
        "kit": "tests.games.bid.kit:kit",
        "facts": "tests.games.bid.facts:BidFacts",
        "sql": "tests.games.bid.registration:SQL_DIR",
    })


register_game("bid", REGISTRATION_REF)
