"""The test games, registered for every test of this folder (and for worker processes, which
load each game from its registration's reference)."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.register_assert_rewrite("tests.games.checks")

from engine import games, registry
from tests.games.bid import registration as bid
from tests.games.hunt import registration as hunt


def _unregister() -> None:
    for name in ("hunt", "bid"):
        registry._REFS.pop(name, None)
        registry._LOADED.pop(name, None)


_unregister()  # importing the registrations registered them, for the whole session


@pytest.fixture(autouse=True, scope="package")
def test_games_registered() -> Iterator[None]:
    """Registered for this folder's tests only: with their fact extractors they add tables of
    their own to the lake (pipeline.schema.tables), which the other suites do not expect. The
    registry has no unregister: they are taken out by hand, as tests/pipeline's Tally is."""
    games.register_game("hunt", hunt.REGISTRATION_REF)
    games.register_game("bid", bid.REGISTRATION_REF)
    yield
    _unregister()
