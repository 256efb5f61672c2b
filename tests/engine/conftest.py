"""Fixtures shared by the engine tests: the toy game registered everywhere it needs to be."""
from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engine import games
from engine.bots import RandomBot
from engine.simulate import play_match
from events.base import Header, Seat
from tests.engine import toy_game


@pytest.fixture(autouse=True, scope="session")
def toy_registered() -> Iterator[None]:
    games.register_game("toy", toy_game.REGISTRATION_REF)
    yield


def toy_header(seed: int = 7, match_id: str = "toy-m1") -> Header:
    """A match between a low and a high deck, built from the seed."""
    rng = random.Random(seed)
    decks = [toy_game.build_deck(a, rng, a) for a in ("low", "high")]
    return Header(game="toy", ruleset="toy@1", match_id=match_id, seed=seed,
                  seats=[Seat(seat=i, player=f"p{i}", setup=d) for i, d in enumerate(decks)])


def toy_match(seed: int = 7) -> tuple[Header, list]:
    header = toy_header(seed)
    bots = {0: RandomBot(), 1: RandomBot()}
    events, _ = play_match(toy_game.RULESET, header, bots, random.Random(seed))
    return header, events
