"""Building the starting state from a log header: deck checks, card instances, the line
(ER-2.14, ER-4.1, ER-4.4, ER-4.5). Shuffles, hands and initiative follow as chance outcomes,
under eredan@2 after the deal of each deck's instance ids (events.eredan.Deal)."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
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
                  catalog: Catalog | None = None, deal: bool = False) -> State:
    """Check both decks in the header's format (ER-2.14, with the charge cap when a table is
    given, ER-3.6), place the lines, then await the shuffles (ER-4.2). Under eredan@1 a deck
    card's id is its place in the expanded list; with `deal` (eredan@2) the deck cards wait
    for a Deal per seat to give them theirs."""
    catalog = catalog or load_catalog()
    if len(header.seats) != 2 or sorted(s.seat for s in header.seats) != [0, 1]:
        raise RuleViolation("ER-1.1", "a match is played by exactly two seats, 0 and 1")
    form = catalog.formats.get(header.format)
    if form is None:
        raise UnsupportedRule("ER-3.2", f"format {header.format!r} is not supported; known: "
                                        f"{', '.join(sorted(catalog.formats))}")
    cards: dict[int, Card | Character] = {}
    fighters: dict[int, Fighter] = {}
    players, lists = [], []
    for seat in sorted(header.seats, key=lambda s: s.seat):
        deck = _legal_deck(seat.seat, seat.player, seat.setup, catalog, form, charges)
        player, listed = _player(seat.seat, seat.player, deck, catalog, cards, fighters)
        if charges is not None:  # public in the standard format (ER-3.7)
            player.charge = deck_charge(_counted(deck, catalog), charges, catalog)[0]
        if deal:
            player.undealt = len(listed)
        else:
            _give_ids(player, cards, listed, range(seat.seat * 100, seat.seat * 100 + len(listed)))
        players.append(player)
        lists.append(listed)
    shuffles = [(0, "deck"), (1, "deck")]
    return State(cards=cards, players=players, fighters=fighters, format=form,
                 charge_version=charges.version if charges else None,
                 chance=[(0, "deal"), (1, "deal"), *shuffles] if deal else shuffles,
                 deck_lists=tuple(lists) if deal else ())


def deal(state: State, seat: int, labels: Sequence[int]) -> None:
    """Give the i-th card of the seat's expanded deck list the id labels[i] (eredan@2); the deck
    then holds them in id order, for the shuffle to order."""
    player = state.players[seat]
    _give_ids(player, state.cards, state.deck_lists[seat], labels)
    player.deck.sort()
    player.undealt = 0


def deal_ids(state: State, seat: int) -> list[int]:
    """The ids a seat's Deal gives out: seat * 100 + 0..n-1, one per deck card."""
    return [seat * 100 + i for i in range(len(state.deck_lists[seat]))]


def _give_ids(player: Player, cards: dict[int, Card | Character], listed: Sequence[Card],
              ids: Iterable[int]) -> None:
    for cid, card in zip(ids, listed):
        cards[cid] = card
        player.deck.append(cid)


def _legal_deck(seat: int, name: str, setup: DeckList, catalog: Catalog, form: Format,
                charges: ChargeTable | None) -> DeckList:
    deck, problems = _checked(msgspec.msgpack.encode(setup), catalog, form)
    if charges is not None and not problems:
        problems = check_deck(deck, catalog, form, charges)
    if problems:
        raise DeckError([(rule, f"seat {seat} ({name}): {why}") for rule, why in problems])
    return deck


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
            cards: dict[int, Card | Character], fighters: dict[int, Fighter]
            ) -> tuple[Player, tuple[Card, ...]]:
    """The line at full HP with starting runes, and the tickets (ER-4.5: own characters'
    printed initiative bonuses); with the deck's cards in the order of its expanded list."""
    tickets = BASE_TICKETS
    for position, entry in enumerate(deck.section("characters"), start=1):
        char = catalog.by_id[entry.card]
        assert isinstance(char, Character)
        fid = seat * 100 + CHARACTER_BASE + position
        cards[fid] = char
        fighters[fid] = Fighter(fid, char, seat, position, char.hp,
                                runes=list(char.starting_runes))
        tickets += char.initiative_bonus
    listed = []
    for entry in deck.section("deck"):
        card = catalog.by_id[entry.card]
        assert isinstance(card, Card)
        listed += [card] * entry.count
    return Player(seat, name, tickets=tickets), tuple(listed)
