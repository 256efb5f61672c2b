"""Bid's one registration, made when this module is imported (the tests import it).

No "facts" layer: the lake is being reworked and no fact extractor for games of sides exists
yet; the registry tolerates it (engine.registry.missing_layers would name it)."""
from __future__ import annotations

import tomllib
from pathlib import Path

import msgspec

from engine.registry import GameInfo, Registration, register_game

INFO = msgspec.convert(tomllib.loads(Path(__file__).with_name("game.toml").read_text("utf-8")),
                       GameInfo)
REGISTRATION_REF = "tests.games.bid.registration:registration"


def registration() -> Registration:
    return Registration(info=INFO, layers={
        "events": "tests.games.bid.events:Event",
        "setup": "tests.games.bid.events:Build",
        "scenario": "tests.games.bid.events:Scenario",
        "ruleset": "tests.games.bid.rules:RULES",
        "narration": "tests.games.bid.narration:NARRATION",
        "kit": "tests.games.bid.kit:kit",
    })


register_game("bid", REGISTRATION_REF)
