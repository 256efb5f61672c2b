"""Charge tables as data for the deck charge cap (ER-2.13, ER-3.3, ER-3.6, CH-2.8).

The engine never reads the lake: whoever starts or verifies a match hands it the table in force
at the match's start (the lake's pipeline.charges computes them per epoch, CH-2.2), either to
`setup(header, charges=table)` or once to `EredanRules(charge_tables=provider)`. Without a table
the cap is not checked. The catalog also carries per-version charges, used by tests and as the
initial tables (`catalog_table`). ChargeTable is the game-neutral engine.charges.ChargeTable with
Eredan's evolutions (CH-2.10); `ChargeTable.of` reads a neutral one (the simulator's
SeasonCharges hands the deck builder those).

Wiring, on the lake's side (engine code never imports the pipeline): the game's registration
(engine/eredan/game.py) names pipeline.charges.eredan_cards as its "cards" layer, which builds
GameCards(card_base=card_base, resolve=resolve, in_pool=in_format, ...); then

    table = season.in_force(header.started_at)            # the epoch in force (CH-2.2)
    rules = EredanRules(charge_tables=lambda header: ChargeTable(
        version=f"epoch-{epoch}", charges=dict(zip(table.card, table.charge)), cap=settings.cap))

A logged match is checked after the fact with `cap_problems(header, table)` (what `postgame verify
--lake` and `postgame ingest` do through pipeline.charges.MatchCharges).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from engine import charges
from engine.eredan.cards import Card, Catalog, Character, Format, load_catalog
from events.base import Header


class ChargeTable(charges.ChargeTable, frozen=True, forbid_unknown_fields=True):
    """The charge of each card in one table version (an epoch of the format, CH-3.1), the
    game-neutral engine.charges.ChargeTable read in Eredan's words.

    `charges` maps card IDs to charges; an evolution without an entry of its own takes the
    charge of another level of its family (CH-2.10); a card in neither counts 0 (CH-2.2). `cap`
    None: the format's own (data/eredan/cards.toml [[formats]]). Every section is charged
    (ER-3.3: every card, the characters included)."""

    @classmethod
    def of(cls, table: charges.ChargeTable) -> ChargeTable:
        """A game-neutral table (the simulator's SeasonCharges, the lake's) as Eredan's."""
        if isinstance(table, cls):
            return table
        return cls(version=table.version, charges=dict(table.charges), cap=table.cap,
                   sections=table.sections)

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


def card_base(card_id: str, catalog: Catalog | None = None) -> str:
    """The card whose charge an evolution shares: its family's lowest level (CH-2.10). Unknown
    cards are their own base. For pipeline.charges.GameCards.card_base."""
    catalog = catalog or load_catalog()
    card = catalog.by_id.get(card_id)
    return catalog.family(card.family_id)[0].id if card is not None else card_id


def in_format(fmt: str, card_id: str, catalog: Catalog | None = None) -> bool:
    """Whether a card is in a format's card pool (ER-3.4, CH-2.9). For
    pipeline.charges.GameCards.in_pool."""
    catalog = catalog or load_catalog()
    card, form = catalog.by_id.get(card_id), catalog.formats.get(fmt)
    return card is not None and form is not None and admits(form, card, catalog)


def admits(form: Format, card: Card | Character, catalog: Catalog) -> bool:
    """The last `recent_acts` acts of the catalog, plus basic-format cards (ER-3.4)."""
    if form.recent_acts is None:
        return True
    return card.act > catalog.latest_act - form.recent_acts or (form.basic and card.basic)


def catalog_table(version: str, catalog: Catalog) -> ChargeTable:
    """The table of `version` as the catalog prints it."""
    if version not in catalog.charge_versions:
        raise KeyError(f"no charge table {version!r} in the catalog; versions: "
                       f"{', '.join(catalog.charge_versions)}")
    every: Iterable[Card | Character] = (*catalog.characters, *catalog.cards)
    return ChargeTable(version=version, charges={c.id: c.charges[version] for c in every
                                                 if version in c.charges})


def cap_problems(header: Header, table: ChargeTable, catalog: Catalog | None = None
                 ) -> list[tuple[str, str]]:
    """ER-2.13, ER-3.3, ER-3.6: each seat's deck over the cap of `table`, the table in force when
    the match starts, worded as setup words it ("seat 0 (Ada): deck charge 575 exceeds 500 in
    table epoch-3 (top: ...)"). Only the cap: the other deck rules are setup's (ER-2.14). A
    format without a cap (ER-3.2) or unknown to the catalog has no problem here."""
    from engine.eredan.deckcheck import check_deck  # deckcheck imports this module

    catalog = catalog or load_catalog()
    form = catalog.formats.get(header.format)
    if form is None or form.charge_cap is None:
        return []
    return [(rule, f"seat {seat.seat} ({seat.player}): {why}")
            for seat in sorted(header.seats, key=lambda s: s.seat)
            for rule, why in check_deck(seat.setup, catalog, form, table) if rule == "ER-3.3"]


def deck_charge(counts: Iterable[tuple[Card | Character, int]], table: ChargeTable,
                catalog: Catalog) -> tuple[int, list[tuple[str, int]]]:
    """The deck's charge (every copy, characters included, ER-3.3) and each card's contribution,
    largest first (CH-3.2)."""
    parts = [(card.id, count * table.charge(card, catalog)) for card, count in counts]
    parts.sort(key=lambda part: -part[1])
    return sum(amount for _, amount in parts), parts
