"""Eredan deck construction (ER-2, ER-3): name resolution, the deck's guilds and the legality
check.

A deck list has two sections: [characters] (exactly 3, in line positions 1-3) and [deck] (the
20-50 other cards). `check_deck` lists every broken rule at once as (rule ID, reason), in rule
order, so the first one is the rule the deck breaks first (ER-2.14). Problems the rules do not
number (unknown cards or sections, counts below 1) are reported under ER-2.14.
"""
from __future__ import annotations

from collections import Counter

from engine.decklist import entry_problems, in_rule_order, resolve_cards
from engine.eredan.cards import Card, Catalog, Character, Format, load_catalog
from engine.eredan.charges import ChargeTable, admits, deck_charge
from events.base import DeckEntry, DeckList

Problem = tuple[str, str]
Counted = list[tuple[Card | Character, int]]
SECTIONS: tuple[str, ...] = ("characters", "deck")
CHARACTERS = 3  # ER-2.1
DECK_MIN, DECK_MAX = 20, 50  # ER-2.1
MAX_COPIES = 3  # ER-2.11


def resolve(deck: DeckList, catalog: Catalog | None = None) -> DeckList:
    """The deck with every known name or ID replaced by its card ID, repeated lines of a card in a
    section merged (first position kept); unknown cards stay as written for check_deck."""
    return resolve_cards(deck, (catalog or load_catalog()).find)


def deck_guilds(characters: list[Character]) -> tuple[str, ...]:
    """The guilds of the non-Mercenary characters (ER-2.5, ER-2.8); () for Mercenaries only."""
    found: dict[str, None] = {}
    for card in characters:
        if not card.is_mercenary:
            found.update(dict.fromkeys(card.guilds))
    return tuple(found)


def check_deck(deck: DeckList, catalog: Catalog | None = None, fmt: str | Format = "standard",
               charges: ChargeTable | None = None) -> list[Problem]:
    """Every construction rule `deck` breaks in format `fmt`, in rule order; [] when legal.
    The charge cap is checked only when a charge table is given (ER-3.6)."""
    catalog = catalog or load_catalog()
    problems = list(entry_problems(deck, SECTIONS, catalog.find, "ER-2.14"))
    resolved = resolve(deck, catalog)
    chars = _known(resolved.section("characters"), catalog)
    cards = _known(resolved.section("deck"), catalog)
    problems += _sizes(resolved, chars, cards)
    characters = [c for c, _ in chars if isinstance(c, Character)]
    problems += _families(chars)
    problems += _guilds(characters, [c for c, _ in cards if isinstance(c, Card)])
    problems += _copies(cards)
    form = fmt if isinstance(fmt, Format) else _format(fmt, catalog, problems)
    if form is not None:
        problems += pool_problems(chars + cards, form, catalog)
        if charges is not None and form.charge_cap is not None:  # ER-3.2: no cap otherwise
            cap = form.charge_cap if charges.cap is None else charges.cap
            problems += _cap(chars + cards, charges, cap, catalog)
    return in_rule_order(problems)


def _format(name: str, catalog: Catalog, problems: list[Problem]) -> Format | None:
    form = catalog.formats.get(name)
    if form is None:
        problems.append(("ER-3.2", (f"unknown format {name!r}; known: "
                                   f"{', '.join(sorted(catalog.formats))}")))
    return form


def _known(entries: list[DeckEntry], catalog: Catalog) -> Counted:
    return [(catalog.by_id[e.card], e.count) for e in entries if e.card in catalog.by_id]


def _label(card: Card | Character) -> str:
    return f"{card.name} ({card.id})"


def _sizes(deck: DeckList, chars: Counted, cards: Counted) -> list[Problem]:
    """ER-2.1: exactly 3 characters, 20-50 other cards, each in its own section."""
    problems = [("ER-2.1", f"{_label(c)} is not a character") for c, _ in chars
                if not isinstance(c, Character)]
    problems += [("ER-2.1", f"{_label(c)} is a character; characters go in [characters]")
                 for c, _ in cards if isinstance(c, Character)]
    total = sum(e.count for e in deck.section("characters"))
    if total != CHARACTERS:
        problems.append(("ER-2.1", f"a deck needs exactly {CHARACTERS} characters, found {total}"))
    size = sum(e.count for e in deck.section("deck"))
    if not DECK_MIN <= size <= DECK_MAX:
        problems.append(("ER-2.1", (f"the deck needs {DECK_MIN} to {DECK_MAX} cards besides the "
                                   f"characters, found {size}")))
    return problems


def _families(chars: Counted) -> list[Problem]:
    """ER-2.2: the 3 characters belong to three different card families, counting every copy
    of a character line and every evolution level of a family (ER-12.3)."""
    members: dict[str, list[tuple[Character, int]]] = {}
    for card, count in chars:
        if isinstance(card, Character):
            members.setdefault(card.family_id, []).append((card, count))
    problems: list[Problem] = []
    for family, cards in members.items():
        total = sum(count for _, count in cards)
        if total > 1:
            names = " and ".join(f"{count} {_label(card)}" for card, count in cards)
            problems.append(("ER-2.2", (f"{names}: {total} characters of the family {family!r}; "
                                       "the 3 characters must be of three different families")))
    return problems


def _guilds(characters: list[Character], cards: list[Card]) -> list[Problem]:
    """ER-2.4 to ER-2.10: a shared guild, then which cards the deck's guilds admit."""
    guilded = [c for c in characters if not c.is_mercenary]
    problems: list[Problem] = []
    if guilded and not set.intersection(*(set(c.guilds) for c in guilded)):
        names = ", ".join(f"{c.name} ({'/'.join(c.guilds)})" for c in guilded)
        problems.append(("ER-2.4", f"characters of different guilds: {names}"))
    guilds = deck_guilds(characters)
    golem = any(c.race == "golem" for c in characters)
    mercenary = any(c.is_mercenary for c in characters)
    for card in {c.id: c for c in cards}.values():
        problems += guild_refusal(card, guilds, golem, mercenary)
    return problems


def guild_refusal(card: Card, guilds: tuple[str, ...], golem: bool,
                mercenary: bool) -> list[Problem]:
    if card.is_mercenary and not mercenary:
        return [("ER-2.10", (f"{_label(card)} is a Mercenary card; the deck has no Mercenary "
                            "character"))]
    if not card.guilds or set(card.guilds) & set(guilds):
        return []
    if golem and card.type == "item":
        return []  # ER-2.9
    if not guilds:
        return [("ER-2.6", (f"{_label(card)} is of {'/'.join(card.guilds)}; a Mercenaries-only "
                           "deck holds no guild card"))]
    return [("ER-2.7", (f"{_label(card)} is of {'/'.join(card.guilds)}; the deck is of "
                       f"{'/'.join(guilds)}"))]


def _copies(cards: Counted) -> list[Problem]:
    """ER-2.11: at most 3 copies of a family; ER-2.12: one only if any level is Unique."""
    counts: Counter[str] = Counter()
    unique: set[str] = set()
    for card, count in cards:
        counts[card.family_id] += count
        if card.unique:
            unique.add(card.family_id)
    problems = []
    for family, count in counts.items():
        if family in unique and count > 1:
            problems.append(("ER-2.12", (f"{count} cards of the family {family!r}, which has a "
                                        "Unique level: at most 1")))
        elif count > MAX_COPIES:
            problems.append(("ER-2.11", (f"{count} copies of the family {family!r}; at most "
                                        f"{MAX_COPIES}")))
    return problems


def pool_problems(counted: Counted, form: Format, catalog: Catalog) -> list[Problem]:
    """ER-3.4: only the format's acts and basic-format cards."""
    return [("ER-3.4", (f"{_label(card)} is of act {card.act}, not admitted in the {form.name} "
                       "format"))
            for card, _ in counted if not admits(form, card, catalog)]


def _cap(counted: Counted, table: ChargeTable, cap: int, catalog: Catalog) -> list[Problem]:
    """ER-2.13, ER-3.3: the deck's charge at most the cap, naming the top contributors."""
    total, parts = deck_charge(counted, table, catalog)
    if total <= cap:
        return []
    top = ", ".join(f"{catalog.by_id[cid].name} {amount}" for cid, amount in parts[:3])
    return [("ER-3.3", f"deck charge {total} exceeds {cap} in table {table.version} (top: {top})")]
