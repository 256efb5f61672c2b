"""Test scenarios: a real match set up through the ruleset, then a board arranged by hand.

Arranging the board directly (units with exact stats, chosen resources) lets each worked example
of the spec be checked on the numbers it states, through the same `apply` that replays logs.
"""
from __future__ import annotations

from itertools import count

from engine.ruleset import get_ruleset
from engine.vitorian.archetypes import starter_deck
from engine.vitorian.cards import Card
from engine.vitorian.state import State, Unit
from events.base import Header, Seat
from events.vitorian import FirstPlayer, KeepHand, Shuffle

RULES = get_ruleset("vitorian@1")
P1, P2 = 0, 1
_ids = count(1000)


def header(colors: tuple[str, str] = ("red", "blue")) -> Header:
    seats = [Seat(seat=i, player=f"player-{i}", setup=starter_deck(c)) for i, c in
             enumerate(colors)]
    return Header(game="vitorian", ruleset="vitorian@1", match_id="scenario", seats=seats)


def started(colors: tuple[str, str] = ("red", "blue"), first: int = 0) -> State:
    """A match after setup (identity shuffles, hands kept): turn 1, the first player to act."""
    state = RULES.setup(header(colors))
    RULES.apply(state, FirstPlayer(seat=first))
    while state.chance:
        seat, zone = state.chance[0]
        cards = state.players[seat].deck if zone == "maneuver" else state.players[seat].convoy
        RULES.apply(state, Shuffle(seat=seat, zone=zone, order=tuple(cards)))
    RULES.apply(state, KeepHand(seat=first))
    RULES.apply(state, KeepHand(seat=1 - first))
    return state


def unit_card(attack: int, defense: int, *, level: int = 1, keywords: tuple[str, ...] = (),
              types: tuple[str, ...] = ("infantry",), cost_p: int = 0, cost_s: int = 0) -> Card:
    return Card(id=f"TEST-{next(_ids)}", name=f"Test {attack}/{defense}", type="unit",
                color="gray", level=level, attack=attack, defense=defense,
                keywords=keywords, unit_types=types, cost_p=cost_p, cost_s=cost_s)  # type: ignore[arg-type]


def put(state: State, seat: int, cell: tuple[int, int], card: Card, *, new: bool = False,
        exhausted: bool = False) -> int:
    """Place a unit on the battlefield directly."""
    uid = next(_ids)
    state.cards[uid] = card
    state.units[uid] = Unit(uid, card, seat, *cell, exhausted=exhausted, new=new)
    state.grid[cell] = uid
    return uid


def in_hand(state: State, seat: int, card: Card) -> int:
    cid = next(_ids)
    state.cards[cid] = card
    state.players[seat].hand.append(cid)
    return cid


def resources(state: State, seat: int, ready: str = "", exhausted: str = "") -> list[int]:
    """Replace the Resource Area with fresh cards, e.g. ready="PPSS": ids in that order."""
    kinds = {"P": "RES-P", "S": "RES-S"}
    proto = {k: next(c for c in state.cards.values() if c.resource == k) for k in kinds}
    area: dict[int, bool] = {}
    for letters, tired in ((ready, False), (exhausted, True)):
        for letter in letters:
            rid = next(_ids)
            state.cards[rid] = proto[letter]
            area[rid] = tired
    state.players[seat].area = area
    return list(area)


def clear_board(state: State) -> None:
    state.units.clear()
    state.grid.clear()


def at(state: State, window: str, seat: int) -> State:
    state.window, state.pending, state.active = window, seat, seat
    return state
