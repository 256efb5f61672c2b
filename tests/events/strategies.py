"""Hand-made matches and hypothesis strategies for random headers and Vitorian events."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any, get_args

from hypothesis import strategies as st

from events.base import DeckEntry, DeckList, Header, Seat
from events.log import FRAME
from events.vitorian import (
    Concede,
    DeclareAttack,
    EndPhase,
    FirstPlayer,
    KeepHand,
    Mobilize,
    Move,
    PassPriority,
    PayUpkeep,
    PlayOrder,
    Recycle,
    RecycleAbility,
    Shuffle,
)

DECK = DeckList(name="Iron Vanguard", sections={
    "sovereign": [DeckEntry(card="Marshal Ardent", count=1)],
    "maneuver": [DeckEntry(card="Line Trooper", count=3), DeckEntry(card="Rail Gun", count=2)],
})


def vitorian_header(match_id: str = "m-001") -> Header:
    return Header(game="vitorian", ruleset="vitorian@1", match_id=match_id, seed=42,
                  seats=[Seat(seat=0, player="ana", setup=DECK), Seat(seat=1, player="bo", setup=DECK)])


OPENING = [
    FirstPlayer(seat=1),
    Shuffle(seat=0, zone="maneuver", order=(4, 2, 7, 1)),
    KeepHand(seat=0),
    Mobilize(seat=1, card=11, cell=(2, 3), exhaust=(20,), returns=(21,)),
    PassPriority(seat=0),
]
"""A few decisions and chance outcomes of a match's first turn, no engine needed."""

ints = st.integers(min_value=-(2**63), max_value=2**64 - 1)
small = st.integers(min_value=0, max_value=300)
ids = st.lists(small, max_size=6).map(tuple)
cells = st.tuples(small, small)

events = st.one_of(
    st.builds(PassPriority, seat=ints),
    st.builds(EndPhase, seat=small),
    st.builds(Concede, seat=small),
    st.builds(KeepHand, seat=small, bottom=ids),
    st.builds(Shuffle, seat=small, zone=st.sampled_from(["maneuver", "convoy"]), order=ids),
    st.builds(Mobilize, seat=small, card=ints, cell=cells, exhaust=ids, returns=ids),
    st.builds(Move, seat=small, unit=small, to=cells, exhaust=ids),
    st.builds(DeclareAttack, seat=small, attacker=small, target=st.none() | small),
    st.builds(PayUpkeep, seat=small, payments=st.lists(st.tuples(small, small)).map(tuple)),
    st.builds(PlayOrder, seat=small, card=small, returns=ids, target=st.none() | small),
    st.builds(Recycle, seat=small, resource=small,
              ability=st.none() | st.sampled_from(get_args(RecycleAbility)),
              unit=st.none() | small, to=st.none() | cells, top=ids),
)

text = st.text(max_size=12)
decks = st.builds(DeckList, name=text, sections=st.dictionaries(
    text, st.lists(st.builds(DeckEntry, card=text, count=small), max_size=3), max_size=3))
moments = st.datetimes(min_value=datetime(1970, 1, 1), max_value=datetime(2200, 1, 1),
                       timezones=st.sampled_from(
                           [None, UTC, timezone(timedelta(hours=5, minutes=30))]))

headers = st.builds(
    Header, game=st.just("vitorian"), ruleset=text, match_id=text,
    seats=st.lists(st.builds(Seat, seat=small, player=text, setup=decks), max_size=3),
    tournament=st.none() | text, format=text, round=st.none() | small,
    table=st.none() | small, started_at=st.none() | moments, seed=st.none() | ints,
)


commits = st.lists(st.lists(events, min_size=1, max_size=4), max_size=5)
"""Events as appended: a list of commits, each one or more events."""


def one_each(batch: list[object]) -> list[list[object]]:
    """Each event its own commit, as a live table appends them: one frame per event."""
    return [[event] for event in batch]


def frame_offsets(data: bytes) -> list[int]:
    """Where each record of a log's bytes starts, then where the last one ends."""
    offsets = [0]
    while offsets[-1] < len(data):
        offsets.append(offsets[-1] + FRAME.size + FRAME.unpack_from(data, offsets[-1])[0])
    return offsets


def replaced(value: Any, path: list[int], new: Any) -> Any:
    """value with the item that path picks (index choices, modulo each container's size)
    replaced by new; a path running out at a container replaces that container. Fuzzers use it
    to change one value anywhere in a decoded record."""
    if not path or not isinstance(value, (list, dict)) or not value:
        return new
    keys = list(value) if isinstance(value, dict) else list(range(len(value)))
    key = keys[path[0] % len(keys)]
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[key] = replaced(value[key], path[1:], new)
    return copy
