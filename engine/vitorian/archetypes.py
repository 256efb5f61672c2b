"""Deck archetypes for simulated Vitorian Wars matches, and the hand-written starter decks.

Balance analytics needs many different but always legal decks per nation: `build_deck` draws one
from an archetype with a seeded rng (same rng state, same deck), and refuses to return a deck that
check_deck rejects. Every nation gets the same two styles, so no nation is favoured by its deck
generator:

- "<colour>"       midrange: the whole nation card pool, 2-4 copies each, a few Gold/Gray splashes;
- "<colour>-rush"  low curve: no Elites, more copies of cheap units and Orders.

Either may add one Gold or Gray Field Condition (VW-3.6) and picks its own Convoy [P]/[S] mix.
Given the charge table in force (the simulator's SeasonCharges), a deck over the cap swaps its
most-charged Maneuver cards for cheaper ones of its nation until it fits (CH-2.8).
"""
from __future__ import annotations

import random
from collections import Counter

from engine.charges import ChargeTable
from engine.decklist import load_decklist
from engine.ruleset import DeckError
from engine.vitorian.cards import DATA_DIR, NATIONS, UTILITY, Card, Catalog, load_catalog
from engine.vitorian.charges import deck_charge, over_cap
from engine.vitorian.deckcheck import MANEUVER_SIZE, MANEUVER_TYPES, MAX_COPIES, check_deck, resolve
from events.base import DeckEntry, DeckList

STYLES: tuple[str, ...] = ("", "rush")
ARCHETYPES: tuple[str, ...] = tuple(
    f"{color}-{style}" if style else color for style in STYLES for color in NATIONS)
CONVOY_SIZE = 10
DECKS_DIR = DATA_DIR / "decks"


def build_deck(archetype: str, rng: random.Random, name: str = "", *,
               catalog: Catalog | None = None, charges: ChargeTable | None = None) -> DeckList:
    """A legal deck of `archetype`, varied by `rng` and deterministic for a given rng state.

    charges: the table in force (a season's epoch, CH-2.2, its cap included): while the deck is
    over the cap, a copy of its most-charged Maneuver card is swapped for a cheaper card of its
    nation (else of a utility colour), so it stays within the cap (CH-2.8) and the meta follows
    the charges. A deck within the cap is the one built without a table, card for card."""
    color, style = _parse(archetype)
    catalog = catalog or load_catalog()
    sovereign = _sovereign(color, catalog)
    field = _field_condition(catalog, rng)
    copies = _maneuver_copies(color, style, catalog, rng, MANEUVER_SIZE - len(field))
    for card in field:
        copies[card.id] = 1
    defense = _resources(catalog, "protection", sovereign.sovereign_number or 0, rng)
    convoy = _convoy(catalog, rng)
    if charges is not None:
        fixed = DeckList(name="", sections={"sovereign": [DeckEntry(card=sovereign.id, count=1)],
                                            "defense": defense, "convoy": convoy})
        _swap_under_cap(copies, _swap_pools(color, style, catalog), fixed, charges, catalog,
                        rng)
    deck = DeckList(name=name or archetype, sections={
        "sovereign": [DeckEntry(card=sovereign.id, count=1)],
        "maneuver": _entries(copies, catalog),
        "defense": defense,
        "convoy": convoy,
    })
    problems = check_deck(deck, catalog)
    if charges is not None:
        problems += over_cap(deck, charges, catalog)
    if problems:  # a bug in the generator or the catalog, never the caller's fault
        raise DeckError(problems)
    return deck


def starter_deck(color: str) -> DeckList:
    """The hand-written starter deck of a nation (data/vitorian/decks/<colour>.txt), card IDs
    resolved so it can go straight into a match header."""
    if color not in NATIONS:
        raise ValueError(f"no starter deck for {color!r}; nations: {', '.join(NATIONS)}")
    return resolve(load_decklist(DECKS_DIR / f"{color}.txt"))


def _parse(archetype: str) -> tuple[str, str]:
    if archetype not in ARCHETYPES:
        raise ValueError(f"unknown archetype {archetype!r}; known: {', '.join(ARCHETYPES)}")
    color, _, style = archetype.partition("-")
    return color, style


def _sovereign(color: str, catalog: Catalog) -> Card:
    """The first Sovereign (by ID) whose only colour is `color`."""
    return next(c for c in catalog.cards if c.type == "sovereign" and c.colors == (color,))


def _maneuver_pool(cards: list[Card], style: str) -> list[Card]:
    """Maneuver cards other than Field Conditions; the rush style leaves Elites out."""
    return [c for c in cards if c.type in MANEUVER_TYPES and c.type != "field_condition"
            and not (style == "rush" and c.is_elite)]


def _field_condition(catalog: Catalog, rng: random.Random) -> list[Card]:
    """Half of the decks get one Gold or Gray Field Condition (VW-3.6)."""
    fields = [c for c in catalog.cards if c.type == "field_condition" and c.color in UTILITY]
    return [rng.choice(fields)] if fields and rng.random() < 0.5 else []


def _maneuver_copies(color: str, style: str, catalog: Catalog, rng: random.Random,
                     size: int) -> dict[str, int]:
    """Copies per card ID summing to `size`: the nation pool plus 0-4 utility splashes."""
    nation = _maneuver_pool([c for c in catalog.cards if c.color == color], style)
    utility = _maneuver_pool([c for c in catalog.cards if c.color in UTILITY], style)
    splash = rng.sample(utility, k=min(len(utility), rng.randint(0, 4)))
    copies = {c.id: _initial_copies(c, style, rng) for c in nation}
    copies.update({c.id: rng.randint(1, 3) for c in splash})
    floor = {c.id: 1 for c in nation} | {c.id: 0 for c in splash}
    _adjust(copies, floor, size, rng)
    return {card_id: n for card_id, n in copies.items() if n > 0}


def _initial_copies(card: Card, style: str, rng: random.Random) -> int:
    """Rush leans on cheap units and Orders; midrange spreads 2-4 copies evenly."""
    if style != "rush":
        return rng.randint(2, 4)
    cheap = card.type == "order" or (card.type == "unit" and (card.level or 0) <= 2)
    return rng.randint(3, 4) if cheap else rng.randint(1, 3)


def _adjust(copies: dict[str, int], floor: dict[str, int], size: int, rng: random.Random) -> None:
    """Add or remove single random copies until the total is `size`, within floor..MAX_COPIES."""
    while (total := sum(copies.values())) != size:
        if total > size:
            ids = [i for i, n in copies.items() if n > floor[i]]
            copies[rng.choice(ids)] -= 1
        else:
            ids = [i for i, n in copies.items() if n < MAX_COPIES]
            copies[rng.choice(ids)] += 1


def _entries(copies: dict[str, int], catalog: Catalog) -> list[DeckEntry]:
    """Entries in catalog order, so a deck reads like a list a person would write."""
    return [DeckEntry(card=c.id, count=copies[c.id]) for c in catalog.cards if c.id in copies]


def _swap_pools(color: str, style: str, catalog: Catalog) -> tuple[list[Card], list[Card]]:
    """The cards a swap may bring in, the nation's first, then the utility colours' (VW-3.7):
    the style's Maneuver pool, Field Conditions left out (at most one, VW-3.6)."""
    return (_maneuver_pool([c for c in catalog.cards if c.color == color], style),
            _maneuver_pool([c for c in catalog.cards if c.color in UTILITY], style))


def _swap_under_cap(copies: dict[str, int], pools: tuple[list[Card], list[Card]],
                    fixed: DeckList, table: ChargeTable, catalog: Catalog,
                    rng: random.Random) -> None:
    """CH-2.8: while the deck's charge is over the cap, one copy of the dearest Maneuver card
    (ties: the highest id) out, one copy of a cheaper card with room under VW-3.5 in, one of the
    cheapest of the first pool that has any, chosen by `rng`; the Maneuver Deck keeps its 50
    cards (VW-3.3). Every swap lowers the charge, so it ends; with no cheaper card left the deck
    cannot fit, and says so."""
    if table.cap is None or not table.charges_section("maneuver"):
        return
    price = table.charges.get
    total = deck_charge(fixed, table, catalog)[0] + sum(price(i, 0) * n for i, n in copies.items())
    while total > table.cap:
        dear = max(copies, key=lambda i: (price(i, 0), i))
        pick = _cheaper(copies, pools, price(dear, 0), table, rng)
        if pick is None:
            why = (f"no deck of this archetype fits the cap {table.cap} of table "
                   f"{table.version}: its charge stays at {total}")
            raise DeckError([("CH-2.8", why)])
        copies[dear] -= 1
        if not copies[dear]:
            del copies[dear]
        copies[pick] = copies.get(pick, 0) + 1
        total += price(pick, 0) - price(dear, 0)


def _cheaper(copies: dict[str, int], pools: tuple[list[Card], list[Card]], below: int,
             table: ChargeTable, rng: random.Random) -> str | None:
    """One of the cheapest cards charged under `below` with a copy to spare (VW-3.5), from the
    first pool that has one; None when neither has."""
    for pool in pools:
        room = [c.id for c in pool if table.charges.get(c.id, 0) < below
                and copies.get(c.id, 0) < MAX_COPIES]
        if room:
            low = min(table.charges.get(i, 0) for i in room)
            return rng.choice([i for i in room if table.charges.get(i, 0) == low])
    return None


def _resources(catalog: Catalog, kind: str, count: int, rng: random.Random) -> list[DeckEntry]:
    """`count` resource cards of `kind`, each art drawn at random (repetitions allowed)."""
    arts = [c.id for c in catalog.cards if c.type == "resource" and c.resource == kind]
    drawn = Counter(rng.choice(arts) for _ in range(count))
    return [DeckEntry(card=art, count=drawn[art]) for art in arts if drawn[art]]


def _convoy(catalog: Catalog, rng: random.Random) -> list[DeckEntry]:
    """10 value-1 cards, 4-6 of them Personnel and the rest Supplies (VW-3.10, VW-3.11)."""
    personnel = rng.randint(4, 6)
    return (_resources(catalog, "P", personnel, rng)
            + _resources(catalog, "S", CONVOY_SIZE - personnel, rng))
