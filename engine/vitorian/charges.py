"""The Vitorian Wars charge cap (charges.md CH-2.8): a deck's charge under the table in force,
and the check of a logged match's decks against it.

The Vitorian rules (vitorian-wars.md) know nothing of charges: charges.md extends Eredan's to
Vitorian Wars, with a cap of 500 on a 25-point scale (CH-2.6). A deck's charge is every copy of
every card of the charged sections (data/charges/formats.toml `sections`: the Sovereign, a card
too, CH-2.3, and the Maneuver Deck), each at its charge in the table (0 when not listed, CH-2.2).
The Convoy and the Defense Pile are left out there because their resource cards are generic and
mandatory in every deck (VW-3.8 - VW-3.11). There are no evolutions: each card is its own base.

The table is the game-neutral engine.charges.ChargeTable, handed in by whoever knows the epoch
(the engine never reads the lake): the lake's pipeline.charges.MatchCharges checks logged matches
after the fact (`postgame ingest`, `postgame verify --lake`), and the simulator's deck builder
(engine.vitorian.archetypes, charges=) keeps its decks within the cap before they are played.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from engine.charges import ChargeTable
from engine.vitorian.cards import Catalog, load_catalog
from engine.vitorian.deckcheck import resolve
from events.base import DeckList, Header

RULE = "CH-2.8"
TOP = 3
"""The contributors a problem names."""
Problem = tuple[str, str]


@dataclass(frozen=True)
class Contribution:
    """One card's part of a deck's charge (CH-3.2)."""

    card: str
    name: str
    copies: int
    charge: int

    @property
    def amount(self) -> int:
        return self.copies * self.charge

    def __str__(self) -> str:
        return f"{self.name} {self.copies}x{self.charge}={self.amount}"


def charged_copies(deck: DeckList, table: ChargeTable, catalog: Catalog) -> dict[str, int]:
    """Copies of each card of the charged sections (CH-2.3), names resolved to card ids (only
    those sections are resolved: the check runs on every logged match). A list played again
    (a player's every round of a tournament) is resolved once: the last CACHED lists are kept,
    by their encoded entries, for this catalog."""
    return dict(_copies(_charged_key(deck, table), catalog))


def _charged_key(deck: DeckList, table: ChargeTable) -> bytes:
    """The deck's charged sections, encoded: what its charge under `table` depends on."""
    return msgspec.msgpack.encode(DeckList(sections={
        section: entries for section, entries in deck.sections.items()
        if table.charges_section(section)}))


def _copies(key: bytes, catalog: Catalog) -> dict[str, int]:
    """charged_copies of an encoded list (_charged_key), cached; the caller must not change it."""
    found = _RESOLVED.get(key)
    if found is not None and found[0] is catalog:
        return found[1]
    copies: dict[str, int] = {}
    for entries in resolve(msgspec.msgpack.decode(key, type=DeckList), catalog).sections.values():
        for entry in entries:
            copies[entry.card] = copies.get(entry.card, 0) + max(entry.count, 0)
    _remember(_RESOLVED, key, (catalog, copies))
    return copies


def _remember(cache: dict[Any, Any], key: Any, value: Any) -> None:
    """Keep `value`, forgetting the oldest entry past CACHED."""
    if len(cache) >= CACHED:
        cache.pop(next(iter(cache)))
    cache[key] = value


CACHED = 4096
_RESOLVED: dict[bytes, tuple[Catalog, dict[str, int]]] = {}
_VERDICTS: dict[tuple[bytes, int], tuple[ChargeTable, Catalog, list[Problem]]] = {}
"""over_cap's answers by (charged list, id of the table), kept with the table and catalog they
hold for (an id is only trusted while its object is the one kept)."""


def _contributions(copies: dict[str, int], table: ChargeTable, catalog: Catalog
                   ) -> list[Contribution]:
    """Each card's part of the charge, largest first (ties by card id)."""
    parts = [Contribution(card, _name(card, catalog), count, table.charges.get(card, 0))
             for card, count in copies.items() if count]
    return sorted(parts, key=lambda part: (-part.amount, -part.charge, part.card))


def deck_charge(deck: DeckList, table: ChargeTable, catalog: Catalog | None = None
                ) -> tuple[int, list[Contribution]]:
    """CH-2.8: the deck's charge (every copy of every card of the charged sections, the
    Sovereign included) and each card's contribution, largest first (ties by card id)."""
    catalog = catalog or load_catalog()
    parts = _contributions(charged_copies(deck, table, catalog), table, catalog)
    return sum(part.amount for part in parts), parts


def over_cap(deck: DeckList, table: ChargeTable, catalog: Catalog | None = None
             ) -> list[Problem]:
    """CH-2.8 for one deck: [] within the cap (or a table without one), else the deck charge,
    the cap and the table, naming the top contributors so the designer knows what to cut. The
    sum comes first: the contributions are worded only for a deck over the cap. A list checked
    again against the same table (every round a player plays it) is answered from a cache."""
    if table.cap is None:
        return []
    catalog = catalog or load_catalog()
    key = _charged_key(deck, table)
    found = _VERDICTS.get((key, id(table)))
    if found is not None and found[0] is table and found[1] is catalog:
        return list(found[2])
    copies = _copies(key, catalog)
    total = sum(count * table.charges.get(card, 0) for card, count in copies.items())
    problems: list[Problem] = []
    if total > table.cap:
        top = ", ".join(str(part) for part in _contributions(copies, table, catalog)[:TOP]
                        if part.amount)
        why = f"deck charge {total} exceeds {table.cap} in table {table.version} (top: {top})"
        problems.append((RULE, why))
    _remember(_VERDICTS, (key, id(table)), (table, catalog, problems))
    return list(problems)


def cap_problems(header: Header, table: ChargeTable, catalog: Catalog | None = None
                 ) -> list[Problem]:
    """CH-2.8: each seat's deck over the cap of `table`, the table in force when the match
    starts, worded per seat ("seat 0 (Ada): deck charge 520 exceeds 500 in table epoch-3 (top:
    ...)"). Only the cap: the other deck rules are setup's (VW-3.17)."""
    catalog = catalog or load_catalog()
    return [(rule, f"seat {seat.seat} ({seat.player}): {why}")
            for seat in sorted(header.seats, key=lambda s: s.seat)
            if isinstance(seat.setup, DeckList)
            for rule, why in over_cap(seat.setup, table, catalog)]


def _name(card: str, catalog: Catalog) -> str:
    found = catalog.by_id.get(card)
    return found.name if found else card
