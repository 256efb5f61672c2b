"""Deck construction (ER-2, ER-3): the seed's deck-building examples, every construction rule,
charge tables, the starter decks and the archetype deck builder."""
from __future__ import annotations

import random

import pytest

from engine.eredan.archetypes import ARCHETYPES, build_deck, starter_deck
from engine.eredan.cards import load_catalog
from engine.eredan.charges import ChargeTable, card_base, catalog_table, deck_charge, in_format
from engine.eredan.deckcheck import check_deck, deck_guilds, resolve
from events.base import DeckEntry, DeckList

CATALOG = load_catalog()
FILLER = [("Parry", 3), ("Quick Strike", 3), ("Healing Potion", 3), ("Iron Sword", 3),
          ("Leather Armor", 3), ("Wooden Shield", 3), ("Focus", 2)]
"""20 neutral cards any line may hold."""


def deck(characters: list[str], cards: list[tuple[str, int]] | None = None) -> DeckList:
    entries = [(name, n) for name, n in (cards or [])] + FILLER
    return DeckList(name="test", sections={
        "characters": [DeckEntry(card=c, count=1) for c in characters],
        "deck": [DeckEntry(card=c, count=n) for c, n in entries]})


def rules(problems: list[tuple[str, str]]) -> list[str]:
    return [rule for rule, _ in problems]


def guilds_of(names: list[str]) -> tuple[str, ...]:
    return deck_guilds([CATALOG.find(n) for n in names])  # type: ignore[misc]


# The seed's examples ---------------------------------------------------------------------------

def test_ex_1_telendar_with_iro_and_amaya_is_refused_aez_with_them_is_kotoba():
    """ER-2.4."""
    assert rules(check_deck(deck(["Telendar", "Iro", "Amaya"]))) == ["ER-2.4"]
    assert check_deck(deck(["Aez", "Iro", "Amaya"])) == []
    assert guilds_of(["Aez", "Iro", "Amaya"]) == ("kotoba",)


def test_ex_2_two_mercenaries_and_zahal_make_a_noz_dingard_deck():
    """ER-2.5."""
    assert check_deck(deck(["Aez", "Hares the Runic", "Zahal"])) == []
    assert guilds_of(["Aez", "Hares the Runic", "Zahal"]) == ("noz_dingard",)


@pytest.mark.parametrize("blade", ["Katana", "Wakisashi"])
def test_ex_3_kotoba_blades_are_refused_in_a_noz_dingard_deck(blade):
    """ER-2.7."""
    problems = check_deck(deck(["Aez", "Hares the Runic", "Zahal"], [(blade, 1)]))
    assert rules(problems) == ["ER-2.7"]
    assert check_deck(deck(["Aez", "Iro", "Amaya"], [(blade, 3)])) == []


@pytest.mark.parametrize(("lightning", "verdict"), [
    ([("Lightning L3", 1)], []),
    ([("Lightning L3", 1), ("Lightning L1", 1)], ["ER-2.12"]),
    ([("Lightning L1", 2), ("Lightning L2", 1)], []),
    ([("Lightning L1", 2), ("Lightning L2", 2)], ["ER-2.11"]),
])
def test_ex_4_lightning_level_3_is_unique_for_the_whole_family(lightning, verdict):
    """ER-2.11, ER-2.12: evolutions are copies of one card; a Unique level limits all to 1."""
    assert rules(check_deck(deck(["Aez", "Hares the Runic", "Aku"], lightning))) == verdict


def test_ex_11_the_charge_cap_counts_every_copy_and_the_characters():
    """ER-2.13, ER-3.3: 500 is legal, 501 is not; without a table the cap is not checked."""
    legal = deck(["Aez", "Iro", "Amaya"])
    table = {"ER-C25": 100, "ER-003": 0}  # Aez
    parry = CATALOG.find("Parry").id  # type: ignore[union-attr]
    for parry_charge, verdict in ((133, []), (134, ["ER-3.3"])):
        charges = ChargeTable(version="t", charges=table | {parry: parry_charge})
        total, _ = deck_charge([(CATALOG.find(e.card), e.count)  # type: ignore[misc]
                                for s in resolve(legal).sections.values() for e in s],
                               charges, CATALOG)
        assert total == 100 + 3 * parry_charge
        assert rules(check_deck(legal, charges=charges)) == verdict
    assert check_deck(legal) == []


def test_ex_23_a_courtier_needs_a_guild_shared_by_all_and_opens_both_guilds():
    """ER-2.4, ER-2.8, ER-9.9."""
    assert rules(check_deck(deck(["Lady Mei", "Iro", "Zahal"]))) == ["ER-2.4"]
    assert guilds_of(["Lady Mei", "Iro", "Aez"]) == ("kotoba", "noz_dingard")
    both = deck(["Lady Mei", "Iro", "Aez"], [("Katana", 1), ("Draconic Breath", 1),
                                              ("Court Intrigue", 1)])
    assert check_deck(both) == []


# Other construction rules ----------------------------------------------------------------------

def test_er_2_1_three_characters_and_twenty_to_fifty_cards():
    assert "ER-2.1" in rules(check_deck(deck(["Aez", "Iro"])))
    short = DeckList(sections={"characters": deck(["Aez", "Iro", "Amaya"]).section("characters"),
                               "deck": [DeckEntry(card="Parry", count=3)]})
    assert rules(check_deck(short)) == ["ER-2.1"]
    long = deck(["Aez", "Iro", "Amaya"], [(name, 3) for name in (
        "Flaming Arrow", "Fireball", "Magic Shield", "Divine Smite", "Study", "Disrupt",
        "Bandage", "War Hound", "Owl Familiar", "Scroll of Wisdom")] + [("Arcane Bolt", 1)])
    assert rules(check_deck(long)) == ["ER-2.1"]
    misplaced = deck(["Aez", "Iro", "Amaya"], [("Zahal", 1)])
    assert "ER-2.1" in rules(check_deck(misplaced))


def test_er_2_2_three_different_characters_evolutions_included():
    assert rules(check_deck(deck(["Ingrid Runeseer", "Ingrid Runeseer L2", "Yorunn"]))) == [
        "ER-2.2"]


def counted(characters: list[tuple[str, int]]) -> DeckList:
    """A legal [deck] section under character lines that may repeat a character."""
    return DeckList(name="test", sections={
        "characters": [DeckEntry(card=c, count=n) for c, n in characters],
        "deck": deck([]).section("deck")})


@pytest.mark.parametrize(("characters", "verdict", "named"), [
    ([("Aez", 3)], ["ER-2.2"], ["Aez"]),
    ([("Aez", 2), ("Hares the Runic", 1)], ["ER-2.2"], ["Aez"]),
    ([("Aez", 1), ("Hares the Runic", 1), ("Aez", 1)], ["ER-2.2"], ["Aez"]),
    ([("Aez", 2), ("Hares the Runic", 1), ("Zahal", 1)], ["ER-2.1", "ER-2.2"], ["Aez"]),
    ([("Ingrid Runeseer", 1), ("Ingrid Runeseer L2", 1), ("Yorunn", 1)], ["ER-2.2"],
     ["Ingrid Runeseer", "Ingrid Runeseer L2"]),
    ([("Aez", 1), ("Hares the Runic", 1), ("Zahal", 1)], [], []),
])
def test_er_2_2_a_repeated_character_or_family_is_refused_by_name(characters, verdict, named):
    """ER-2.1, ER-2.2: three characters of three different families, every copy counted."""
    problems = check_deck(counted(characters))
    assert rules(problems) == verdict
    family = " ".join(why for rule, why in problems if rule == "ER-2.2")
    assert all(name in family for name in named)


def test_er_2_6_mercenaries_only_hold_no_guild_card():
    mercs = ["Aez", "Hares the Runic", "Kael the Wanderer"]
    assert guilds_of(mercs) == ()
    assert rules(check_deck(deck(mercs, [("Shuriken", 1)]))) == ["ER-2.6"]


def test_er_2_9_a_golem_admits_items_of_any_guild_and_only_items():
    golem = ["Stonebound", "Aez", "Zahal"]
    assert check_deck(deck(golem, [("Katana", 2), ("Zil Longbow", 1), ("Bone Armor", 1)])) == []
    assert rules(check_deck(deck(golem, [("Shuriken", 1)]))) == ["ER-2.7"]


def test_er_2_10_mercenary_cards_need_a_mercenary_character():
    assert check_deck(deck(["Aez", "Iro", "Amaya"], [("Mercenary Contract", 3)])) == []
    assert rules(check_deck(deck(["Kenzo", "Iro", "Amaya"], [("Mercenary Contract", 1)]))) == [
        "ER-2.10"]


def test_er_3_4_standard_admits_the_last_three_acts_and_the_basic_format():
    old = deck(["Aez", "Iro", "Amaya"], [("Ancient Tome", 1), ("Rusty Halberd", 1)])
    assert rules(check_deck(old)) == ["ER-3.4", "ER-3.4"]
    assert check_deck(old, fmt="open") == []
    assert not in_format("standard", "ER-042") and in_format("open", "ER-042")
    assert in_format("standard", CATALOG.find("Katana").id)  # type: ignore[union-attr]
    recent = deck(["Aez", "Iro", "Kenzo"], [("Study", 1)])
    assert check_deck(recent) == []
    assert rules(check_deck(recent, fmt="basic")) == ["ER-3.4"] * 2


def test_er_3_2_an_unknown_format_is_reported():
    assert rules(check_deck(deck(["Aez", "Iro", "Amaya"]), fmt="vintage")) == ["ER-3.2"]


def test_er_2_14_unknown_cards_and_sections_are_reported_first_rule_first():
    bad = DeckList(sections={**deck(["Aez", "Iro", "Amaya"]).sections,
                             "sideboard": [DeckEntry(card="Nothing", count=1)]})
    problems = check_deck(bad)
    assert rules(problems) == ["ER-2.14", "ER-2.14"]
    assert "sideboard" in problems[0][1] and "Nothing" in problems[1][1]
    order = check_deck(deck(["Telendar", "Iro", "Amaya"], [("Lightning L3", 2)]))
    assert rules(order) == ["ER-2.4", "ER-2.12"]


def test_resolve_maps_names_to_ids_and_merges_repeated_lines():
    resolved = resolve(deck(["aez", "ER-C01", "Amaya"], [("Parry", 1)]))
    assert [e.card for e in resolved.section("characters")] == ["ER-C25", "ER-C01", "ER-C02"]
    parry = [e for e in resolved.section("deck") if e.card == "ER-019"]
    assert parry == [DeckEntry(card="ER-019", count=4)]


# Charge tables ---------------------------------------------------------------------------------

def test_catalog_tables_and_evolutions_share_their_base_charge():
    """ER-3.5, CH-2.10: two table versions in the catalog; an evolution without its own entry
    takes its family's."""
    assert CATALOG.charge_versions == ("2026-01", "2026-02")
    table = catalog_table("2026-02", CATALOG)
    assert table.charges["ER-001"] == 27
    l1, l2 = CATALOG.find("Lightning L1"), CATALOG.find("Lightning L2")
    only_base = ChargeTable(version="x", charges={l1.id: 9})  # type: ignore[union-attr]
    assert only_base.charge(l2, CATALOG) == 9  # type: ignore[arg-type]
    assert card_base(l2.id) == l1.id and card_base("nope") == "nope"  # type: ignore[union-attr]
    with pytest.raises(KeyError):
        catalog_table("1999-01", CATALOG)


# Starter decks and the archetype builder ----------------------------------------------------

@pytest.mark.parametrize("archetype", ARCHETYPES)
def test_starter_decks_are_legal_under_every_charge_table(archetype):
    starter = starter_deck(archetype)
    for version in CATALOG.charge_versions:
        assert check_deck(starter, charges=catalog_table(version, CATALOG)) == []


@pytest.mark.parametrize("archetype", ARCHETYPES)
def test_build_deck_is_legal_varied_and_reproducible(archetype):
    decks = [build_deck(archetype, random.Random(seed), f"d{seed}") for seed in range(12)]
    table = catalog_table(CATALOG.charge_versions[-1], CATALOG)
    for built in decks:
        assert check_deck(built, charges=table) == []
    assert build_deck(archetype, random.Random(3), "d3") == decks[3]
    assert len({str(d.sections) for d in decks}) > 6
    if archetype != "mercenary":
        assert all(archetype in guilds_of([e.card for e in d.section("characters")])
                   for d in decks)


def test_unknown_archetype_is_refused():
    with pytest.raises(ValueError, match="unknown archetype"):
        build_deck("pirates", random.Random(0))
    with pytest.raises(ValueError, match="no starter deck"):
        starter_deck("pirates")


def test_formats_without_charges_have_no_cap_whatever_the_table():
    """ER-3.2: a table (even with its own cap) caps only a format that has charges."""
    legal = deck(["Aez", "Iro", "Amaya"])
    heavy = ChargeTable(version="t", charges={"ER-C25": 900}, cap=500)
    assert rules(check_deck(legal, charges=heavy)) == ["ER-3.3"]
    assert check_deck(legal, fmt="open", charges=heavy) == []
    generous = ChargeTable(version="t", charges={"ER-C25": 900}, cap=1000)
    assert check_deck(legal, charges=generous) == []
