"""Charge tables as data for the deck charge cap (ER-2.13, ER-3.3, ER-3.6, CH-2.8).

The engine never reads the lake: whoever starts or verifies a match hands it the table in force
at the match's start (the lake's pipeline.charges computes them per epoch, CH-2.2), either to
`setup(header, charges=table)` or once to `EredanRules(charge_tables=provider)`. Without a table
the cap is not checked. The catalog also carries per-version charges, used by tests and as the
initial tables (`catalog_table`).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

import msgspec

from engine.eredan.cards import Card, Catalog, Character
from events.base import Header


class ChargeTable(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The charge of each card in one table version (an epoch of the format, CH-3.1).

    `charges` maps card IDs to charges; an evolution without an entry of its own takes the
    charge of another level of its family (CH-2.10); a card in neither counts 0 (CH-2.2)."""

    version: str
    charges: dict[str, int]

    def charge(self, card: Card | Character, catalog: Catalog) -> int:
        found = self.charges.get(card.id)
        if found is not None:
            return found
        for member in catalog.family(card.family_id):
            if member.id in self.charges:
                return self.charges[member.id]
        return 0


ChargeProvider = Callable[[Header], "ChargeTable | None"]
"""The table in force when a match starts (ER-3.6); None when none applies."""


def catalog_table(version: str, catalog: Catalog) -> ChargeTable:
    """The table of `version` as the catalog prints it."""
    if version not in catalog.charge_versions:
        raise KeyError(f"no charge table {version!r} in the catalog; versions: "
                       f"{', '.join(catalog.charge_versions)}")
    every: Iterable[Card | Character] = (*catalog.characters, *catalog.cards)
    return ChargeTable(version=version, charges={c.id: c.charges[version] for c in every
                                                 if version in c.charges})


def deck_charge(counts: Iterable[tuple[Card | Character, int]], table: ChargeTable,
                catalog: Catalog) -> tuple[int, list[tuple[str, int]]]:
    """The deck's charge (every copy, characters included, ER-3.3) and each card's contribution,
    largest first (CH-3.2)."""
    parts = [(card.id, count * table.charge(card, catalog)) for card, count in counts]
    parts.sort(key=lambda part: -part[1])
    return sum(amount for _, amount in parts), parts
