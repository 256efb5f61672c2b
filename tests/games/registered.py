"""The test games Hunt and Bid, registered only while a test needs them: with their fact
extractors they add tables of their own to the lake (pipeline.schema.tables), which other tests
(and a subprocess that does not register them) do not expect. Importing a registration module
registers its game; importing this one takes them out again until `games_registered()` is
entered."""
from __future__ import annotations

from contextlib import AbstractContextManager

from tests.games.bid import registration as bid
from tests.games.hunt import registration as hunt
from tests.registry_tools import registered, unregister

REFS = {"hunt": hunt.REGISTRATION_REF, "bid": bid.REGISTRATION_REF}
unregister(*REFS)


def games_registered() -> AbstractContextManager[None]:
    """Hunt and Bid registered (for worker processes too: they load each game from its
    registration's reference), and taken out again on the way out."""
    return registered(REFS)
