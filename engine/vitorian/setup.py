"""Building the starting state from a log header: deck checks and card instances (VW-3, VW-4).

Card instance ids, the names events give physical cards:
- vitorian@1: seat * 100 + the card's place in the expanded deck list (Maneuver 0-49, Convoy
  50-59, Defense 60-64), so the id of a revealed card tells an opponent where it stands in the
  list: how many copies of what come before it, how many [P] the Convoy holds.
- vitorian@2, **our [decision]** (engine.ruleset.DEAL_RULE, in no spec; the spec's "Hidden
  information" keeps deck lists hidden but for the Sovereign, which those ids betray): before
  anything else each seat's cards are dealt their ids, a logged chance outcome per seat
  (events.vitorian.Deal) drawn uniformly among all bijections from the expanded list to the
  seat's label set, seat * 100 + 0 ... n - 1 (n the cards outside the Sovereign: its size is
  public, the Defense Pile being the Sovereign number). Zones then hold their ids in label
  order, so neither an id nor any order the engine keeps follows the list. Rationale: logs must
  stay replayable without a random generator, and an id must tell nothing but what the card is
  once it is revealed.
The Sovereign, public from the start, is seat * 100 + 99 in both.
"""
from __future__ import annotations

from functools import lru_cache

import msgspec

from engine.ruleset import DeckError, RuleViolation
from engine.vitorian.cards import Card, Catalog, load_catalog
from engine.vitorian.deckcheck import check_deck, resolve
from engine.vitorian.state import SOVEREIGN_SLOT, Player, State
from events.base import DeckList, Header

SLOTS = {"maneuver": 0, "convoy": 50, "defense": 60}
"""Where each section's ids start under vitorian@1, and the sections a deal labels, in order."""


def initial_state(header: Header, catalog: Catalog | None = None, *, deal: bool = False
                  ) -> State:
    """Check both decks (VW-3.17), give every card its instance id (`deal`: await a Deal per
    seat first, engine:deal), await the first-player draw (VW-4.1)."""
    catalog = catalog or load_catalog()
    if len(header.seats) != 2 or sorted(s.seat for s in header.seats) != [0, 1]:
        raise RuleViolation("VW-1.1", "a match is played by exactly two seats, 0 and 1")
    cards: dict[int, Card] = {}
    players = []
    for seat in sorted(header.seats, key=lambda s: s.seat):
        deck, problems, physical = _checked(msgspec.msgpack.encode(seat.setup), catalog)
        if problems:
            raise DeckError([(rule, f"seat {seat.seat} ({seat.player}): {why}")
                             for rule, why in problems])
        build = _undealt if deal else _player
        players.append(build(seat.seat, seat.player, deck, physical, catalog, cards))
    deals = [(seat, "deal") for seat in (0, 1)] if deal else []
    return State(cards=cards, players=players, chance=[*deals, (-1, "first")], window="setup")


Physical = tuple[tuple[str, Card], ...]
"""(section, card) for each physical card outside the Sovereign, in deck-list order."""


@lru_cache(maxsize=256)
def _checked(encoded: bytes, catalog: Catalog
             ) -> tuple[DeckList, list[tuple[str, str]], Physical]:
    """Resolve and check a deck once, and expand it if it is legal: a tournament plays each
    deck list many times."""
    deck = resolve(msgspec.msgpack.decode(encoded, type=DeckList), catalog)
    problems = check_deck(deck, catalog)
    return deck, problems, () if problems else _expanded(deck, catalog)


def _expanded(deck: DeckList, catalog: Catalog) -> Physical:
    by_id = catalog.by_id
    return tuple((section, by_id[entry.card]) for section in SLOTS
                 for entry in deck.section(section) for _ in range(entry.count))


def _sovereign(seat: int, deck: DeckList, catalog: Catalog, cards: dict[int, Card]) -> Card:
    sovereign = catalog.by_id[deck.section("sovereign")[0].card]
    cards[seat * 100 + SOVEREIGN_SLOT] = sovereign
    return sovereign


def _player(seat: int, name: str, deck: DeckList, physical: Physical, catalog: Catalog,
            cards: dict[int, Card]) -> Player:
    """vitorian@1: ids by place in the list."""
    sovereign = _sovereign(seat, deck, catalog, cards)
    zones: dict[str, list[int]] = {section: [] for section in SLOTS}
    for section, card in physical:
        ids = zones[section]
        cid = seat * 100 + SLOTS[section] + len(ids)
        cards[cid] = card
        ids.append(cid)
    return Player(seat, name, sovereign, deck=zones["maneuver"], convoy=zones["convoy"],
                  defense=zones["defense"])


def _undealt(seat: int, name: str, deck: DeckList, physical: Physical, catalog: Catalog,
             cards: dict[int, Card]) -> Player:
    """vitorian@2: the cards wait for their Deal; only the Sovereign has its id."""
    sovereign = _sovereign(seat, deck, catalog, cards)
    return Player(seat, name, sovereign, undealt=physical)


def labels_of(seat: int, count: int) -> list[int]:
    """The ids a Deal gives a seat's `count` cards (engine:deal), in increasing order."""
    return list(range(seat * 100, seat * 100 + count))


def deal(state: State, seat: int, labels: tuple[int, ...]) -> None:
    """Give the i-th card of the seat's expanded list the id labels[i] (checked by the rules
    to be a permutation of labels_of); each zone keeps its ids sorted, not in list order. The
    card table is replaced, not updated: state copies share it (State.copy), and a snapshot
    taken before the deal must stay as it was."""
    player = state.players[seat]
    cards = dict(state.cards)
    zones: dict[str, list[int]] = {section: [] for section in SLOTS}
    for (section, card), cid in zip(player.undealt, labels):
        cards[cid] = card
        zones[section].append(cid)
    state.cards = cards
    player.deck, player.convoy, player.defense = (
        sorted(zones["maneuver"]), sorted(zones["convoy"]), sorted(zones["defense"]))
    player.undealt = ()
