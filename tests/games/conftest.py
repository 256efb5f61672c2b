"""The test games, registered for every test of this folder (and for worker processes, which
load each game from its registration's reference)."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.register_assert_rewrite("tests.games.checks")

from engine import games
from tests.games.bid import registration as bid
from tests.games.hunt import registration as hunt


@pytest.fixture(autouse=True, scope="session")
def test_games_registered() -> Iterator[None]:
    games.register_game("hunt", hunt.REGISTRATION_REF)
    games.register_game("bid", bid.REGISTRATION_REF)
    yield
