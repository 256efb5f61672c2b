"""The Hunt's one registration, made when this module is imported (the tests import it).

Its lake facts are tests/games/hunt/facts.py, its own metric models tests/games/hunt/sql/ (the
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
REGISTRATION_REF = "tests.games.hunt.registration:registration"


def registration() -> Registration:
    return Registration(info=INFO, layers={
        "events": "tests.games.hunt.events:Event",
        "setup": "tests.games.hunt.events:Start",
        "ruleset": "tests.games.hunt.rules:RULES",
        "narration": "tests.games.hunt.narration:NARRATION",
        "kit": "tests.games.hunt.kit:kit",
        "facts": "tests.games.hunt.facts:HuntFacts",
        "sql": "tests.games.hunt.registration:SQL_DIR",
    })


register_game("hunt", REGISTRATION_REF)
