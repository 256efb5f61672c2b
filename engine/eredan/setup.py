"""Building the starting state from a log header: deck checks, card instances, the line
(ER-2.14, ER-4.1, ER-4.4, ER-4.5). Shuffles, hands and initiative follow as chance outcomes."""
from __future__ import annotations

from functools import lru_cache

import msgspec

from engine.eredan.cards import Card, Catalog, Character, Format, load_catalog
from engine.eredan.charges import ChargeTable, deck_charge
from engine.eredan.deckcheck import check_deck, resolve
from engine.eredan.state import CHARACTER_BASE, Fighter, Player, State
from engine.ruleset import DeckError, RuleViolation, UnsupportedRule
from events.base import DeckList, Header

BASE_TICKETS = 5  # ER-4.5


def initial_state(header: Header, charges: ChargeTable | None = None,
                  catalog: Catalog | None = None) -> State:
    """Check both decks in the header's format (ER-2.14, with the charge cap when a table is
    given, ER-3.6), place the lines, then await the shuffles (ER-4.2)."""
    catalog = catalog or load_catalog()
    if len(header.seats) != 2 or sorted(s.seat for s in header.seats) != [0, 1]:
        raise RuleViolation("ER-1.1", "a match is played by exactly two seats, 0 and 1")
    form = catalog.formats.get(header.format)
    if form is None:
        raise UnsupportedRule("ER-3.2", f"format {header.format!r} is not supported; known: "
                                        f"{', '.join(sorted(catalog.formats))}")
    cards: dict[int, Card | Character] = {}
    fighters: dict[int, Fighter] = {}
    players = []
    for seat in sorted(header.seats, key=lambda s: s.seat):
        deck, problems = _checked(msgspec.msgpack.encode(seat.setup), catalog, form)
        if charges is not None and not problems:
            problems = check_deck(deck, catalog, form, charges)
        if problems:
            raise DeckError([(rule, f"seat {seat.seat} ({seat.player}): {why}")
                             for rule, why in problems])
        player = _player(seat.seat, seat.player, deck, catalog, cards, fighters)
        if charges is not None:  # public in the standard format (ER-3.7)
            player.charge = deck_charge(_counted(deck, catalog), charges, catalog)[0]
        players.append(player)
    return State(cards=cards, players=players, fighters=fighters, format=form,
                 charge_version=charges.version if charges else None,
                 chance=[(0, "deck"), (1, "deck")])


def _counted(deck: DeckList, catalog: Catalog) -> list[tuple[Card | Character, int]]:
    return [(catalog.by_id[e.card], e.count) for entries in deck.sections.values()
            for e in entries]


@lru_cache(maxsize=4096)
def _checked(encoded: bytes, catalog: Catalog,
             form: Format) -> tuple[DeckList, list[tuple[str, str]]]:
    """Resolve and check a deck once: a tournament plays each deck list many times. (The charge
    cap is checked apart: tables are not hashable, and come only with verified matches.)"""
    deck = resolve(msgspec.msgpack.decode(encoded, type=DeckList), catalog)
    return deck, check_deck(deck, catalog, form)


def _player(seat: int, name: str, deck: DeckList, catalog: Catalog,
            cards: dict[int, Card | Character], fighters: dict[int, Fighter]) -> Player:
    """Instance ids, the line at full HP with starting runes, and the tickets (ER-4.5: own
    characters' printed initiative bonuses)."""
    tickets = BASE_TICKETS
    for position, entry in enumerate(deck.section("characters"), start=1):
        card = catalog.by_id[entry.card]
        assert isinstance(card, Character)
        fid = seat * 100 + CHARACTER_BASE + position
        cards[fid] = card
        fighters[fid] = Fighter(fid, card, seat, position, card.hp,
                                runes=list(card.starting_runes))
        tickets += card.initiative_bonus
    ids: list[int] = []
    for entry in deck.section("deck"):
        for _ in range(entry.count):
            cid = seat * 100 + len(ids)
            cards[cid] = catalog.by_id[entry.card]
            ids.append(cid)
    return Player(seat, name, deck=ids, tickets=tickets)
