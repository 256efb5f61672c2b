"""Deck archetypes for simulated Eredan matches, one per guild plus Mercenaries, and the
hand-written starter decks.

Balance analytics needs many different but always legal decks per guild: `build_deck` draws one
from an archetype with a seeded rng (same rng state, same deck) and refuses to return a deck that
check_deck rejects. Every archetype is built the same way, so no guild is favoured by its
generator: three characters (the guild's, sometimes with one Mercenary), then 30-40 cards of the
standard format that at least one of them can play, 1-3 copies each, kept under the charge cap
of the catalog's latest charge table.
"""
from __future__ import annotations

import random

from engine.charges import ChargeTable as NeutralTable
from engine.decklist import load_decklist
from engine.eredan.cards import DATA_DIR, GUILDS, Card, Catalog, Character, load_catalog
from engine.eredan.charges import ChargeTable, admits, catalog_table, deck_charge
from engine.eredan.deckcheck import (
    DECK_MAX,
    DECK_MIN,
    MAX_COPIES,
    check_deck,
    deck_guilds,
    guild_refusal,
    resolve,
)
from engine.eredan.plays import refusal
from engine.ruleset import DeckError
from events.base import DeckEntry, DeckList

ARCHETYPES: tuple[str, ...] = (*GUILDS, "mercenary")
DECKS_DIR = DATA_DIR / "decks"
FORMAT = "standard"


def build_deck(archetype: str, rng: random.Random, name: str = "", *,
               catalog: Catalog | None = None, charges: NeutralTable | None = None) -> DeckList:
    """A legal standard-format deck of `archetype`, varied by `rng`, deterministic for a given
    rng state.

    charges: the table in force (a season's epoch, CH-2.2, its cap in `cap`; a game-neutral
    engine.charges.ChargeTable, as the simulator's SeasonCharges gives it): copies of the
    dearest cards are swapped for cheaper ones of the pool until the deck fits (ER-3.3), so the
    meta follows the charges. None: the catalog's latest table, copies only dropped."""
    if archetype not in ARCHETYPES:
        raise ValueError(f"unknown archetype {archetype!r}; known: {', '.join(ARCHETYPES)}")
    catalog = catalog or load_catalog()
    characters = _characters(archetype, catalog, rng)
    pool = _card_pool(characters, catalog)
    copies = _copies(pool, rng, rng.randint(30, 40))
    if charges is None:
        table = catalog_table(catalog.charge_versions[-1], catalog)
        _under_cap(characters, copies, table, catalog)
    else:
        table = ChargeTable.of(charges)
        _swap_under_cap(characters, pool, copies, table, catalog, rng)
    deck = DeckList(name=name or archetype, sections={
        "characters": [DeckEntry(card=c.id, count=1) for c in characters],
        "deck": [DeckEntry(card=c.id, count=copies[c.id]) for c in pool if copies.get(c.id)],
    })
    problems = check_deck(deck, catalog, FORMAT, table)
    if problems:  # a bug in the generator or the catalog, never the caller's fault
        raise DeckError(problems)
    return deck


def starter_deck(archetype: str) -> DeckList:
    """The hand-written starter deck of an archetype (data/eredan/decks/<archetype>.txt), card
    IDs resolved so it can go straight into a match header."""
    if archetype not in ARCHETYPES:
        raise ValueError(f"no starter deck for {archetype!r}; archetypes: {', '.join(ARCHETYPES)}")
    return resolve(load_decklist(DECKS_DIR / f"{archetype}.txt"))


def _standard(cards: list[Character], catalog: Catalog) -> list[Character]:
    form = catalog.formats[FORMAT]
    return [c for c in cards if admits(form, c, catalog)]


def _characters(archetype: str, catalog: Catalog, rng: random.Random) -> list[Character]:
    """Three characters of different families: the guild's (one Mercenary in half the decks),
    or three Mercenaries; Courtiers count for each of their guilds (ER-2.4, ER-2.8)."""
    mercs = _standard([c for c in catalog.characters if c.is_mercenary], catalog)
    guild = _standard([c for c in catalog.characters if archetype in c.guilds], catalog)
    wanted = 3 if archetype == "mercenary" else rng.choice((0, 1))
    chosen: list[Character] = []
    for pool, count in ((mercs, wanted), (guild, 3 - wanted)):
        options = list(pool)
        rng.shuffle(options)
        for card in options:
            if count and card.family_id not in {x.family_id for x in chosen}:
                chosen.append(card)
                count -= 1
    return chosen


def _card_pool(characters: list[Character], catalog: Catalog) -> list[Card]:
    """Cards the deck's guilds admit (ER-2.6 to ER-2.10), legal in the standard format, that at
    least one of the characters may play (ER-6)."""
    guilds = deck_guilds(characters)
    golem = any(c.race == "golem" for c in characters)
    mercenary = any(c.is_mercenary for c in characters)
    form = catalog.formats[FORMAT]
    return [card for card in catalog.cards
            if not guild_refusal(card, guilds, golem, mercenary)
            and admits(form, card, catalog)
            and any(refusal(c, card) is None for c in characters)]


def _copies(pool: list[Card], rng: random.Random, size: int) -> dict[str, int]:
    """1-3 copies per card, one per family with a Unique level (ER-2.11, ER-2.12)."""
    room = _family_room(pool)
    copies: dict[str, int] = {}
    while sum(copies.values()) < min(size, sum(room.values())):
        card = rng.choice(pool)
        if room[card.family_id] > 0:
            room[card.family_id] -= 1
            copies[card.id] = copies.get(card.id, 0) + 1
    if not DECK_MIN <= sum(copies.values()) <= DECK_MAX:
        raise DeckError([("ER-2.1", f"the card pool allows only {sum(copies.values())} cards")])
    return copies


def _family_room(pool: list[Card]) -> dict[str, int]:
    room: dict[str, int] = {}
    for card in pool:
        limit = 1 if card.unique else MAX_COPIES
        room[card.family_id] = min(room.get(card.family_id, limit), limit)
    return room


def _under_cap(characters: list[Character], copies: dict[str, int], table: ChargeTable,
               catalog: Catalog) -> None:
    """Drop copies of the dearest cards until the deck's charge fits the standard cap
    (ER-3.3)."""
    cap = catalog.formats[FORMAT].charge_cap or 0
    while True:
        counted = [(catalog.by_id[i], n) for i, n in copies.items()] + [(c, 1) for c in characters]
        total, _ = deck_charge(counted, table, catalog)
        if total <= cap:
            return
        dear = max(copies, key=lambda i: (table.charge(catalog.by_id[i], catalog), i))
        copies[dear] -= 1
        if not copies[dear]:
            del copies[dear]
        if sum(copies.values()) < DECK_MIN:
            raise DeckError([("ER-3.3", f"no deck of these characters fits the cap {cap}")])


def _swap_under_cap(characters: list[Character], pool: list[Card], copies: dict[str, int],
                    table: ChargeTable, catalog: Catalog, rng: random.Random) -> None:
    """While over the cap: one copy of the dearest card out, one of a cheaper card of the pool
    with room in (one of the cheapest, chosen by `rng`); no cheaper card: the copy is dropped
    (ER-2.1, ER-2.11, ER-2.12, ER-3.3)."""
    cap = table.cap if table.cap is not None else catalog.formats[FORMAT].charge_cap or 0
    price = {card.id: table.charge(card, catalog) for card in pool}
    total = sum(table.charge(c, catalog) for c in characters) + \
        sum(price[i] * n for i, n in copies.items())
    limit = _family_room(pool)
    while total > cap:
        dear = max(copies, key=lambda i: (price[i], i))
        copies[dear] -= 1
        total -= price[dear]
        if not copies[dear]:
            del copies[dear]
        used: dict[str, int] = {}
        for i, n in copies.items():
            family = catalog.by_id[i].family_id
            used[family] = used.get(family, 0) + n
        cheaper = [c for c in pool if price[c.id] < price[dear]
                   and used.get(c.family_id, 0) < limit[c.family_id]]
        if cheaper:
            low = min(price[c.id] for c in cheaper)
            pick = rng.choice([c for c in cheaper if price[c.id] == low])
            copies[pick.id] = copies.get(pick.id, 0) + 1
            total += price[pick.id]
        elif sum(copies.values()) < DECK_MIN:
            raise DeckError([("ER-3.3", f"no deck of these characters fits the cap {cap}")])
