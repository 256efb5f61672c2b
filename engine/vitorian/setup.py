"""Building the starting state from a log header: deck checks and card instances (VW-3, VW-4)."""
from __future__ import annotations

from functools import lru_cache

import msgspec

from engine.ruleset import DeckError, RuleViolation
from engine.vitorian.cards import Card, Catalog, load_catalog
from engine.vitorian.deckcheck import check_deck, resolve
from engine.vitorian.state import SOVEREIGN_SLOT, Player, State
from events.base import DeckList, Header

SLOTS = {"maneuver": 0, "convoy": 50, "defense": 60}


def initial_state(header: Header, catalog: Catalog | None = None) -> State:
    """Check both decks (VW-3.17), give every card its instance id, await the first-player
    draw (VW-4.1)."""
    catalog = catalog or load_catalog()
    if len(header.seats) != 2 or sorted(s.seat for s in header.seats) != [0, 1]:
        raise RuleViolation("VW-1.1", "a match is played by exactly two seats, 0 and 1")
    cards: dict[int, Card] = {}
    players = []
    for seat in sorted(header.seats, key=lambda s: s.seat):
        deck, problems = _checked(msgspec.msgpack.encode(seat.setup), catalog)
        if problems:
            raise DeckError([(rule, f"seat {seat.seat} ({seat.player}): {why}")
                             for rule, why in problems])
        players.append(_player(seat.seat, seat.player, deck, catalog, cards))
    return State(cards=cards, players=players, chance=[(-1, "first")], window="setup")


@lru_cache(maxsize=256)
def _checked(encoded: bytes, catalog: Catalog) -> tuple[DeckList, list[tuple[str, str]]]:
    """Resolve and check a deck once: a tournament plays each deck list many times."""
    deck = resolve(msgspec.msgpack.decode(encoded, type=DeckList), catalog)
    return deck, check_deck(deck, catalog)


def _player(seat: int, name: str, deck: DeckList, catalog: Catalog,
            cards: dict[int, Card]) -> Player:
    by_id = catalog.by_id
    sovereign = by_id[deck.section("sovereign")[0].card]
    cards[seat * 100 + SOVEREIGN_SLOT] = sovereign
    zones: dict[str, list[int]] = {}
    for section, base in SLOTS.items():
        ids: list[int] = []
        for entry in deck.section(section):
            for _ in range(entry.count):
                cid = seat * 100 + base + len(ids)
                cards[cid] = by_id[entry.card]
                ids.append(cid)
        zones[section] = ids
    return Player(seat, name, sovereign, deck=zones["maneuver"], convoy=zones["convoy"],
                  defense=zones["defense"])
