"""The test games Hunt and Bid, registered only while a test needs them: with their fact
extractors they add tables of their own to the lake (pipeline.schema.tables), which other tests
(and a subprocess that does not register them) do not expect. Importing a registration module
registers its game; importing this one takes them out again until `games_registered()` is entered. The
registry has no unregister: they are taken out by hand, as tests/pipeline's Tally is."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from engine import games, registry
from tests.games.bid import registration as bid
from tests.games.hunt import registration as hunt

NAMES = ("hunt", "bid")


def unregister() -> None:
    for name in NAMES:
        registry._REFS.pop(name, None)
        registry._LOADED.pop(name, None)


unregister()


@contextmanager
def games_registered() -> Iterator[None]:
    """Hunt and Bid registered (for worker processes too: they load each game from its
    registration's reference), and taken out again on the way out."""
    games.register_game("hunt", hunt.REGISTRATION_REF)
    games.register_game("bid", bid.REGISTRATION_REF)
    try:
        yield
    finally:
        unregister()
