"""Vitorian Wars deck construction (VW-3.1-3.11): name resolution and the legality check.

A deck list names cards as a person wrote them (engine.decklist). `resolve` maps names to card IDs
with the catalog; `check_deck` lists every broken rule at once as (rule ID, reason), so a designer
fixes a deck in one pass instead of one error at a time. An empty list means the deck is legal.

Sections (DeckList keys): sovereign, maneuver, defense, convoy. Problems the rules do not number
(unknown cards, unknown sections, counts below 1) are reported under VW-3.17, the rule that rejects
malformed decks at setup.
"""
from __future__ import annotations

from collections import Counter

from engine.decklist import entry_problems, in_rule_order, resolve_cards
from engine.vitorian.cards import UTILITY, Card, Catalog, load_catalog
from events.base import DeckEntry, DeckList

Problem = tuple[str, str]
SECTIONS: tuple[str, ...] = ("sovereign", "maneuver", "defense", "convoy")
MANEUVER_SIZE = 50  # VW-3.3
MAX_COPIES = 4  # VW-3.5
CONVOY_SIZE = 10  # VW-3.10
MANEUVER_TYPES = frozenset({"unit", "order", "equipment", "field_condition"})  # VW-3.4, VW-3.6


def resolve(deck: DeckList, catalog: Catalog | None = None) -> DeckList:
    """The deck with every known name or ID replaced by its card ID, repeated lines of a card in a
    section merged (first position kept); unknown cards stay as written for check_deck to report."""
    return resolve_cards(deck, (catalog or load_catalog()).find)


def check_deck(deck: DeckList, catalog: Catalog | None = None) -> list[Problem]:
    """Every construction rule `deck` breaks, in rule order; [] when the deck is legal."""
    catalog = catalog or load_catalog()
    problems = list(entry_problems(deck, SECTIONS, catalog.find, "VW-3.17"))
    resolved = resolve(deck, catalog)
    cards = {key: _known(entries, catalog) for key, entries in resolved.sections.items()}
    sovereign = _sovereign(cards.get("sovereign", []), problems)
    maneuver = cards.get("maneuver", [])
    problems += _maneuver_size(resolved)
    problems += _maneuver_types(maneuver)
    problems += _copies(cards.get("sovereign", []) + maneuver)
    problems += _field_conditions(maneuver)
    if sovereign:
        problems += _color_identity(sovereign, maneuver)
        problems += _defense(sovereign, resolved, cards.get("defense", []))
    problems += _convoy(resolved, cards.get("convoy", []))
    return in_rule_order(problems)


def _known(entries: list[DeckEntry], catalog: Catalog) -> list[tuple[Card, int]]:
    """(card, count) for the entries the catalog knows (unknown ones are reported already)."""
    return [(catalog.by_id[e.card], e.count) for e in entries if e.card in catalog.by_id]


def _total(deck: DeckList, section: str) -> int:
    return sum(entry.count for entry in deck.section(section))


def _label(card: Card) -> str:
    return f"{card.name} ({card.id})"


def _sovereign(cards: list[tuple[Card, int]], problems: list[Problem]) -> Card | None:
    """VW-3.1: exactly one Sovereign card; returns it when there is exactly one, else None
    (colour identity and Defense Pile size then cannot be judged)."""
    total = sum(count for _, count in cards)
    not_sovereigns = [_label(card) for card, _ in cards if card.type != "sovereign"]
    if not_sovereigns:
        problems.append(("VW-3.1", f"not a Sovereign in [sovereign]: {', '.join(not_sovereigns)}"))
    if total != 1:
        problems.append(("VW-3.1", f"the army needs exactly 1 Sovereign, found {total}"))
    if total == 1 and not not_sovereigns and len(cards) == 1:
        return cards[0][0]
    return None


def _maneuver_size(deck: DeckList) -> list[Problem]:
    total = _total(deck, "maneuver")
    if total == MANEUVER_SIZE:
        return []
    return [("VW-3.3", f"the Maneuver Deck needs exactly {MANEUVER_SIZE} cards, found {total}")]


def _maneuver_types(cards: list[tuple[Card, int]]) -> list[Problem]:
    return [("VW-3.4", (f"{_label(card)} is a {card.type}, not a Unit, Order, Equipment or "
                       "Field Condition")) for card, _ in cards if card.type not in MANEUVER_TYPES]


def _copies(cards: list[tuple[Card, int]]) -> list[Problem]:
    """VW-3.5: at most 4 copies per name (cards with the same name are copies); resource cards
    ignore the limit (VW-3.11)."""
    counts: Counter[str] = Counter()
    for card, count in cards:
        if card.type != "resource":
            counts[card.name] += count
    return [("VW-3.5", f"{count} copies of {name}; at most {MAX_COPIES}")
            for name, count in counts.items() if count > MAX_COPIES]


def _field_conditions(cards: list[tuple[Card, int]]) -> list[Problem]:
    """VW-3.6: at most one Field Condition, and only a Gold or Gray one."""
    fields = [(card, count) for card, count in cards if card.type == "field_condition"]
    problems = [("VW-3.6", f"{_label(card)} is a {card.color} Field Condition; only Gold or Gray")
                for card, _ in fields if card.color not in UTILITY]
    total = sum(count for _, count in fields)
    if total > 1:
        problems.append(("VW-3.6", f"{total} Field Conditions; at most one per deck"))
    return problems


def _color_identity(sovereign: Card, cards: list[tuple[Card, int]]) -> list[Problem]:
    """VW-3.7: every maneuver card is of a Sovereign colour or a utility colour (Gold, Gray)."""
    allowed = (*sovereign.colors, *UTILITY)
    return [("VW-3.7", (f"{_label(card)} is {card.color}; {_label(sovereign)} allows "
                       f"{', '.join(allowed)}"))
            for card, _ in cards if card.color is not None and card.color not in allowed]


def _defense(sovereign: Card, deck: DeckList, cards: list[tuple[Card, int]]) -> list[Problem]:
    """VW-3.8: as many value-2 Protection cards as the Sovereign number."""
    total, wanted = _total(deck, "defense"), sovereign.sovereign_number
    problems = [("VW-3.8", f"{_label(card)} is not a value-2 Protection card")
                for card, _ in cards if card.type != "resource" or card.value != 2]
    if total != wanted:
        problems.append(("VW-3.8", (f"the Defense Pile needs {wanted} cards "
                                   f"({_label(sovereign)}'s number), found {total}")))
    return problems


def _convoy(deck: DeckList, cards: list[tuple[Card, int]]) -> list[Problem]:
    """VW-3.10: exactly 10 value-1 resource cards; VW-3.11: each one [P] or [S]."""
    total = _total(deck, "convoy")
    problems = [("VW-3.10", f"{_label(card)} is not a value-1 resource card")
                for card, _ in cards if card.type != "resource" or card.value != 1]
    problems += [("VW-3.11", f"{_label(card)} is neither Personnel [P] nor Supplies [S]")
                 for card, _ in cards if card.resource not in ("P", "S")]
    if total != CONVOY_SIZE:
        problems.append(("VW-3.10", (f"the Supply Convoy needs exactly {CONVOY_SIZE} cards, "
                                    f"found {total}")))
    return problems
