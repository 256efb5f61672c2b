"""The test games, registered for every test of this folder (and for worker processes, which
load each game from its registration's reference)."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.register_assert_rewrite("tests.games.checks")

from tests.games.registered import games_registered


@pytest.fixture(autouse=True, scope="package")
def test_games_registered() -> Iterator[None]:
    """Registered for this folder's tests only (tests.games.registered says why)."""
    with games_registered():
        yield
