"""Deck construction (VW-3.1-3.11, VW-3.17): check_deck, resolve, the starter decks and the
archetype deck builder."""
from __future__ import annotations

import random

import msgspec
import pytest

from engine.vitorian.archetypes import ARCHETYPES, build_deck, starter_deck
from engine.vitorian.cards import NATIONS, Catalog, load_catalog
from engine.vitorian.deckcheck import check_deck, resolve
from events.base import DeckEntry, DeckList

CATALOG = load_catalog()


def red_deck(**sections: list[tuple[str, int]]) -> DeckList:
    """The legal red starter with some sections replaced by (card, count) pairs."""
    deck = starter_deck("red")
    replaced = {key: [DeckEntry(card=c, count=n) for c, n in entries]
                for key, entries in sections.items()}
    return DeckList(name=deck.name, sections={**deck.sections, **replaced})


def maneuver_of(deck: DeckList) -> list[tuple[str, int]]:
    return [(e.card, e.count) for e in deck.section("maneuver")]


def rules(problems: list[tuple[str, str]]) -> list[str]:
    return [rule for rule, _ in problems]


def with_first_count(entries: list[tuple[str, int]], delta: int) -> list[tuple[str, int]]:
    (card, count), *rest = entries
    return [(card, count + delta), *rest]


# Starter decks -------------------------------------------------------------------------------

@pytest.mark.parametrize("color", NATIONS)
def test_vw_3_17_starter_decks_are_legal(color: str) -> None:
    deck = starter_deck(color)
    assert check_deck(deck, CATALOG) == []
    sovereign = CATALOG.by_id[deck.section("sovereign")[0].card]
    assert sovereign.colors == (color,)


@pytest.mark.parametrize("color", NATIONS)
def test_starter_decks_are_resolved_to_ids(color: str) -> None:
    deck = starter_deck(color)
    assert all(e.card in CATALOG.by_id for entries in deck.sections.values() for e in entries)


def test_red_starter_is_st01() -> None:
    assert starter_deck("red").section("sovereign") == [DeckEntry(card="ST01-001", count=1)]


def test_starter_deck_unknown_colour() -> None:
    with pytest.raises(ValueError, match="gold"):
        starter_deck("gold")


# One broken rule at a time -------------------------------------------------------------------

def test_vw_3_1_no_sovereign() -> None:
    assert rules(check_deck(red_deck(sovereign=[]))) == ["VW-3.1"]


def test_vw_3_1_two_sovereigns() -> None:
    deck = red_deck(sovereign=[("ST01-001", 1), ("ST02-001", 1)])
    assert rules(check_deck(deck)) == ["VW-3.1"]


def test_vw_3_1_non_sovereign_in_sovereign_section() -> None:
    problems = check_deck(red_deck(sovereign=[("Foundry Conscripts", 1)]))
    assert "VW-3.1" in rules(problems) and "not a Sovereign" in problems[0][1]


def test_vw_3_3_forty_nine_maneuver_cards() -> None:
    deck = red_deck(maneuver=with_first_count(maneuver_of(starter_deck("red")), -1))
    problems = check_deck(deck)
    assert rules(problems) == ["VW-3.3"] and "found 49" in problems[0][1]


def test_vw_3_3_fifty_one_maneuver_cards() -> None:
    deck = red_deck(maneuver=maneuver_of(starter_deck("red")) + [("Town Militia", 1)])
    assert rules(check_deck(deck)) == ["VW-3.3"]


def test_vw_3_4_resource_and_sovereign_are_not_maneuver_cards() -> None:
    entries = with_first_count(maneuver_of(starter_deck("red")), -2)
    deck = red_deck(maneuver=entries + [("Diesel Supplies", 1), ("ST02-001", 1)])
    problems = check_deck(deck)
    assert rules(problems) == ["VW-3.4", "VW-3.4"]
    assert "Diesel Supplies (ST00-002) is a resource" in problems[0][1]


def test_vw_3_5_five_copies() -> None:
    """Shell Barrage 2 -> 5 and Foundry Conscripts 4 -> 1: still 50 cards, one rule broken."""
    counts = dict(maneuver_of(starter_deck("red")))
    counts.update({"ST01-014": 5, "ST01-002": 1})
    problems = check_deck(red_deck(maneuver=list(counts.items())))
    assert problems == [("VW-3.5", "5 copies of Shell Barrage; at most 4")]


def test_vw_3_5_copies_counted_by_name_across_lines() -> None:
    """A name and an ID written on two lines are the same card: 3 + 2 = 5 copies."""
    entries = [(c, n) for c, n in maneuver_of(starter_deck("red")) if c != "ST01-002"]
    deck = red_deck(maneuver=entries + [("Foundry Conscripts", 3), ("st01-002", 2)])
    problems = check_deck(deck)
    assert rules(problems) == ["VW-3.3", "VW-3.5"]  # 46 + 5 = 51 cards


def test_vw_3_6_two_field_conditions() -> None:
    entries = with_first_count(maneuver_of(starter_deck("red")), -1) + [("Mud Season", 1)]
    problems = check_deck(red_deck(maneuver=entries))
    assert rules(problems) == ["VW-3.6"] and "2 Field Conditions" in problems[0][1]


def test_vw_3_6_nation_field_condition_refused() -> None:
    """No nation Field Condition exists in the catalog, so the check is shown on a test catalog."""
    gold = CATALOG.by_id["ST05-006"]
    red_field = msgspec.structs.replace(gold, id="ST01-099", name="Red Flag Day", color="red")
    catalog = Catalog(cards=(*CATALOG.cards, red_field))
    entries = [("ST01-099", 1) if c == "ST05-006" else (c, n)
               for c, n in maneuver_of(starter_deck("red"))]
    problems = check_deck(red_deck(maneuver=entries), catalog)
    assert rules(problems) == ["VW-3.6"] and "only Gold or Gray" in problems[0][1]


def test_vw_3_7_off_colour_card() -> None:
    entries = with_first_count(maneuver_of(starter_deck("red")), -1) + [("Cloud Cadets", 1)]
    problems = check_deck(red_deck(maneuver=entries))
    assert rules(problems) == ["VW-3.7"] and "Cloud Cadets" in problems[0][1]


ZAHIR = CATALOG.by_id["ST01-001"].sovereign_number or 0


@pytest.mark.parametrize("delta", [-1, 1])
def test_vw_3_8_defense_pile_size_is_the_sovereign_number(delta: int) -> None:
    problems = check_deck(red_deck(defense=[("Protection of the Crown", ZAHIR + delta)]))
    assert rules(problems) == ["VW-3.8"] and f"needs {ZAHIR}" in problems[0][1]


def test_vw_3_8_defense_pile_needs_value_2_cards() -> None:
    deck = red_deck(defense=[("Protection of the Crown", ZAHIR - 1), ("Diesel Supplies", 1)])
    problems = check_deck(deck)
    assert problems == [("VW-3.8", "Diesel Supplies (ST00-002) is not a value-2 Protection card")]


def test_vw_3_10_convoy_of_nine() -> None:
    problems = check_deck(red_deck(convoy=[("Diesel Supplies", 5), ("Conscripted Personnel", 4)]))
    assert rules(problems) == ["VW-3.10"] and "found 9" in problems[0][1]


def test_vw_3_10_vw_3_11_protection_card_in_convoy() -> None:
    deck = red_deck(convoy=[("Diesel Supplies", 9), ("Protection of the Crown", 1)])
    assert rules(check_deck(deck)) == ["VW-3.10", "VW-3.11"]


def test_vw_3_11_convoy_card_must_be_p_or_s() -> None:
    """A value-1 resource that is neither [P] nor [S] (test catalog) breaks only VW-3.11."""
    odd = msgspec.structs.replace(CATALOG.by_id["ST00-003"], id="ST00-099", name="Odd", value=1)
    catalog = Catalog(cards=(*CATALOG.cards, odd))
    deck = red_deck(convoy=[("Diesel Supplies", 9), ("ST00-099", 1)])
    assert rules(check_deck(deck, catalog)) == ["VW-3.11"]


def test_vw_3_11_resources_ignore_copy_limit() -> None:
    deck = red_deck(convoy=[("Diesel Supplies", 10)])
    assert check_deck(deck) == []


def test_vw_3_17_unknown_card_named_with_its_entry() -> None:
    entries = maneuver_of(starter_deck("red"))
    entries[2] = ("Imaginary Zeppelin", entries[2][1])
    problems = check_deck(red_deck(maneuver=entries))
    assert problems == [("VW-3.17", "[maneuver] entry 3: unknown card 'Imaginary Zeppelin'")]


def test_vw_3_17_unknown_section_and_bad_count() -> None:
    deck = red_deck(sideboard=[("Town Militia", 2)], convoy=[("Diesel Supplies", 10),
                                                             ("Fuel Drums", 0)])
    problems = check_deck(deck)
    assert rules(problems) == ["VW-3.17", "VW-3.17"]
    reasons = " | ".join(why for _, why in problems)
    assert "unknown section [sideboard]" in reasons and "count 0 for 'Fuel Drums'" in reasons


# All problems at once ------------------------------------------------------------------------

def test_vw_3_17_every_broken_rule_listed_at_once_in_rule_order() -> None:
    entries = maneuver_of(starter_deck("red"))[1:]  # drop 4 Foundry Conscripts: 46 + 5 = 51 cards
    entries += [("Chimney Raiders", 1), ("Cloud Cadets", 2), ("Mud Season", 1), ("Nope", 1)]
    deck = red_deck(maneuver=entries, defense=[("Sandbag Redoubt", 6)],
                    convoy=[("Fuel Drums", 9)], sovereign=[("Marechal Zahir", 1)])
    assert rules(check_deck(deck)) == [
        "VW-3.3", "VW-3.5", "VW-3.6", "VW-3.7", "VW-3.8", "VW-3.10", "VW-3.17"]


# Name resolution -----------------------------------------------------------------------------

def test_resolve_maps_names_and_ids_case_insensitively_and_merges() -> None:
    deck = DeckList(sections={"maneuver": [DeckEntry(card="steel grenadiers", count=2),
                                           DeckEntry(card="Nope", count=1),
                                           DeckEntry(card="st01-004", count=1)]})
    assert resolve(deck, CATALOG).section("maneuver") == [
        DeckEntry(card="ST01-004", count=3), DeckEntry(card="Nope", count=1)]


def test_check_deck_accepts_names() -> None:
    deck = starter_deck("green")
    named = DeckList(name=deck.name, sections={
        key: [DeckEntry(card=CATALOG.by_id[e.card].name, count=e.count) for e in entries]
        for key, entries in deck.sections.items()})
    assert check_deck(named, CATALOG) == []


# Archetype decks -----------------------------------------------------------------------------

def test_archetypes_cover_every_nation() -> None:
    assert {a.partition("-")[0] for a in ARCHETYPES} == set(NATIONS)
    assert set(NATIONS) <= set(ARCHETYPES)


@pytest.mark.parametrize("archetype", ARCHETYPES)
def test_vw_3_17_build_deck_legal_for_200_seeds(archetype: str) -> None:
    color = archetype.partition("-")[0]
    for seed in range(200):
        deck = build_deck(archetype, random.Random(seed))
        assert check_deck(deck, CATALOG) == [], (archetype, seed)
        assert CATALOG.by_id[deck.section("sovereign")[0].card].colors == (color,)


@pytest.mark.parametrize("archetype", ARCHETYPES)
def test_build_deck_deterministic_and_varied(archetype: str) -> None:
    decks = [build_deck(archetype, random.Random(seed), "x") for seed in range(20)]
    assert decks == [build_deck(archetype, random.Random(seed), "x") for seed in range(20)]
    assert len({msgspec.json.encode(d) for d in decks}) > 10


def test_build_deck_sometimes_has_a_field_condition() -> None:
    fields = [any(CATALOG.by_id[e.card].type == "field_condition" for e in d.section("maneuver"))
              for d in (build_deck("blue", random.Random(s)) for s in range(50))]
    assert any(fields) and not all(fields)


def test_rush_decks_have_no_elites() -> None:
    for seed in range(50):
        deck = build_deck("white-rush", random.Random(seed))
        assert not any(CATALOG.by_id[e.card].is_elite for e in deck.section("maneuver"))


def test_build_deck_name_and_unknown_archetype() -> None:
    assert build_deck("red", random.Random(1), "mine").name == "mine"
    assert build_deck("red", random.Random(1)).name == "red"
    with pytest.raises(ValueError, match="unknown archetype 'purple'"):
        build_deck("purple", random.Random(1))
