"""The card catalog (data/eredan/cards.toml) against the spec's "Catalog requirements" and the
class, race and rune rules it must make playable (ER-9, ER-10, ER-11)."""
from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path

import msgspec
import pytest

from engine.eredan.cards import (
    GUILDS,
    MULTICLASSES,
    ActivateFury,
    ActivateOrder,
    Card,
    CatalogFile,
    Character,
    Damage,
    DualWield,
    HandSize,
    Heal,
    Ignore,
    LoseHP,
    PlaceRune,
    PlayFromDeck,
    Resurrect,
    load_catalog,
)

CATALOG = load_catalog()
CHARACTERS = CATALOG.characters
CARDS = CATALOG.cards
RACES = ("dais", "demon", "unknown", "elfine", "ice_elf", "beast", "golem", "guemelite",
         "hom_chai", "human", "undead", "solarian")  # ER-10.1
CLASSES = ("berserker", "warrior", "mage", "looter", "cleric", "artisan", "unknown")


def find(name: str) -> Card | Character:
    found = CATALOG.find(name)
    assert found is not None, name
    return found


def effects(card: Card | Character) -> list[object]:
    lines = card.lines if isinstance(card, Card) else card.ability + card.fury
    return [e for line in lines for e in line.effects]


def with_effect(kind: type) -> list[Card]:
    return [c for c in CARDS if any(isinstance(e, kind) for e in effects(c))]


# Characters ------------------------------------------------------------------------------------

def test_at_least_24_characters_over_5_guilds_and_mercenaries():
    assert len(CHARACTERS) >= 24
    guilds = Counter(g for c in CHARACTERS for g in c.guilds)
    assert set(guilds) == set(GUILDS) and all(n >= 3 for n in guilds.values())
    assert sum(c.is_mercenary for c in CHARACTERS) >= 3


@pytest.mark.parametrize(("name", "affiliation"), [
    ("Telendar", ("zil",)), ("Iro", ("kotoba",)), ("Amaya", ("kotoba",)),
    ("Aez", ("mercenary",)), ("Hares the Runic", ("mercenary",)), ("Zahal", ("noz_dingard",)),
])
def test_named_characters_have_the_seeds_affiliations(name, affiliation):
    assert find(name).affiliation == affiliation


def test_the_seeds_numbers():
    """Aez: Defense 3, Spirit 1 (ER-7.5); Aku a Mage, not multiclass (ER-7.6); Flaming Arrow 5."""
    aez, aku = find("Aez"), find("Aku")
    assert isinstance(aez, Character) and (aez.defense, aez.spirit) == (3, 1)
    assert isinstance(aku, Character) and aku.classes == ("mage",)
    arrow = find("Flaming Arrow")
    assert isinstance(arrow, Card) and arrow.type == "spell" and not arrow.area
    assert [e.amount for e in effects(arrow) if isinstance(e, Damage)] == [5]


def test_guemelites_the_shadow_and_kounok():
    """ER-10.4."""
    shadow, kounok = find("The Shadow"), find("Kounok")
    assert isinstance(shadow, Character) and isinstance(kounok, Character)
    assert (shadow.race, shadow.spell_type) == ("guemelite", "shadow")
    assert (kounok.race, kounok.spell_type) == ("guemelite", "draconic")
    for guemelite in (shadow, kounok):
        assert any(c.type == "spell" and c.spell_type == guemelite.spell_type
                   and set(c.guilds) <= set(guemelite.guilds) for c in CARDS)


def test_every_class_multiclass_pair_caste_and_race():
    """ER-9.1 to ER-9.18, ER-10.1."""
    single = {c.classes[0] for c in CHARACTERS if len(c.classes) == 1}
    assert set(CLASSES) <= single
    pairs = {frozenset(c.classes) for c in CHARACTERS if len(c.classes) == 2}
    assert pairs == set(MULTICLASSES)
    assert any(c.caste == "courtier" and len(c.guilds) >= 2 for c in CHARACTERS)
    assert set(RACES) <= {c.race for c in CHARACTERS}
    assert sum(c.race == "guemelite" for c in CHARACTERS) >= 2
    assert any(c.race == "golem" for c in CHARACTERS)


def test_class_features_are_printed():
    """Berserkers have a Fury, Warriors an Item subtype, Looters a target class."""
    for c in CHARACTERS:
        if "berserker" in c.classes:
            assert c.fury
        if c.classes == ("warrior",):
            assert c.warrior_item is not None
        if "looter" in c.classes:
            assert c.looter_target in CLASSES


def test_warriors_have_more_hp_than_the_other_classes_of_their_guild():
    """ER-9.7: a catalog fact."""
    for guild in GUILDS:
        members = [c for c in CHARACTERS if guild in c.guilds and c.caste is None]
        warriors = [c.hp for c in members if c.classes == ("warrior",)]
        others = [c.hp for c in members if "warrior" not in c.classes]
        if warriors and others:
            assert min(warriors) > max(others), guild


def test_runes_evolutions_and_initiative_bonus():
    """ER-4.5, ER-11.2, ER-11.3, ER-12.3."""
    assert any(c.starting_runes for c in CHARACTERS)
    assert all(c.rune_capacity <= 3 for c in CHARACTERS)
    assert any(c.initiative_bonus for c in CHARACTERS)
    ingrid = CATALOG.family("ingrid")
    assert [c.level for c in ingrid] == [1, 2]
    assert ingrid[1].rune_capacity > ingrid[0].rune_capacity  # type: ignore[union-attr]


# Other cards -----------------------------------------------------------------------------------

def test_at_least_80_cards_of_every_type_and_item_subtype():
    assert len(CARDS) >= 80
    assert {"action", "spell", "theurgy", "item", "pet"} <= {c.type for c in CARDS}
    assert {"weapon", "armor", "shield", "jewel", "scroll", "potion"} <= {
        c.subtype for c in CARDS}
    assert {1, 2} <= {c.hands for c in CARDS if c.subtype == "weapon"}


def test_named_cards():
    katana, waki = find("Katana"), find("Wakisashi")
    for blade in (katana, waki):
        assert isinstance(blade, Card)
        assert (blade.subtype, blade.hands, blade.affiliation) == ("weapon", 1, ("kotoba",))
    lightning = CATALOG.family("lightning")
    assert [c.level for c in lightning] == [1, 2, 3]
    assert [c.unique for c in lightning] == [False, False, True]
    assert all(isinstance(c, Card) and c.type == "spell" and c.deals_magic_damage
               for c in lightning)
    fireball = find("Fireball")
    assert isinstance(fireball, Card) and fireball.deals_magic_damage
    shield = find("Magic Shield")
    assert isinstance(shield, Card) and shield.type == "spell"
    assert [e.types for e in effects(shield) if isinstance(e, Ignore)] == [("spell",)]
    void = find("Hungry Void")
    assert isinstance(void, Card) and void.type == "action"
    assert [e.card_type for e in effects(void) if isinstance(e, PlayFromDeck)] == ["spell"]


def test_every_keyword_has_a_card():
    assert {c.chain for c in CARDS} >= {"any", "action", "spell", "item"}
    assert any(c.unique for c in CARDS if c.family_id != "lightning")
    assert len([f for f in {c.family_id for c in CARDS} if len(CATALOG.family(f)) > 1]) >= 2
    for kind in (DualWield, ActivateOrder, Ignore, ActivateFury, Heal, Resurrect, HandSize,
                 LoseHP):
        assert with_effect(kind), kind.__name__
    assert any(c.area for c in CARDS)
    lines = [line for c in CARDS for line in c.lines]
    assert {"combat", "turn", "end_of_combat", "static", "start_of_turn"} <= {
        line.when for line in lines}
    assert {"rune:cor", "rune:nox", "rune:yr"} <= {line.key for line in lines}
    assert with_effect(PlaceRune)
    assert any(c.artisan for c in CARDS) and any(c.requires_caste == "courtier" for c in CARDS)
    assert any(c.is_mercenary for c in CARDS)


def test_keyed_lines_with_a_default_and_items_of_several_guilds():
    """ER-6.15, ER-10.2: Golem items read their keyed lines."""
    keyed = [c for c in CARDS if c.type == "item" and any(line.key == "default"
                                                          for line in c.lines)]
    assert keyed and any({"guild", "class"} <= {line.key.split(":")[0] for line in c.lines}
                         for c in keyed)
    item_guilds = {g for c in CARDS if c.type == "item" for g in c.guilds}
    assert len(item_guilds) >= 2


def test_every_card_has_type_affiliation_act_and_a_charge_per_version():
    for c in (*CHARACTERS, *CARDS):
        assert set(c.charges) == set(CATALOG.charge_versions), c.id
        assert 1 <= c.act <= CATALOG.latest_act
    assert len(CATALOG.charge_versions) >= 2
    assert any(not c.basic and c.act <= CATALOG.latest_act - 3 for c in CARDS)


def test_evolutions_share_their_charge():
    """CH-2.10."""
    for family in {c.family_id for c in (*CHARACTERS, *CARDS)}:
        members = CATALOG.family(family)
        assert len({tuple(sorted(m.charges.items())) for m in members}) == 1, family


# Decoding refuses what the engine cannot play -------------------------------------------------

def _decode(text: str) -> CatalogFile:
    return msgspec.convert(tomllib.loads(text), CatalogFile)


BASE = """
formats = []
characters = []
[[cards]]
id = "X-1"
name = "X"
type = "action"
act = 1
"""


@pytest.mark.parametrize(("extra", "why"), [
    ('colour = "red"', "unknown field"),
    ('lines = [{ effects = [{ do = "teleport" }] }]', "Invalid value 'teleport'"),
    ('lines = [{ effects = [{ do = "damage", amount = 2 }] }]', "ER-7.4"),
    ('lines = [{ when = "combat", effects = [{ do = "heal", amount = 1 }] }]', "ER-6.13"),
    ('lines = [{ key = "planet:mars", effects = [] }]', "matching regex"),
    ('lines = [{ key = "guild:pirates", effects = [] }]', "unknown key"),
    ('lines = [{ when = "end_of_combat", effects = [{ do = "ignore", types = ["spell"] }] }]',
     "ER-6.10"),
])
def test_unknown_fields_effects_and_misplaced_effects_are_refused(extra, why):
    with pytest.raises(msgspec.ValidationError, match=why):
        _decode(BASE + extra)


def test_a_character_outside_the_class_rules_is_refused():
    """ER-9.18: only the six multiclass pairs."""
    text = BASE + """
[[characters]]
id = "X-C1"
name = "Y"
act = 1
attack = 1
defense = 1
spirit = 1
hp = 10
race = "human"
affiliation = ["kotoba"]
classes = ["berserker", "artisan"]
"""
    with pytest.raises(msgspec.ValidationError, match="ER-9.18"):
        _decode(text.replace("characters = []\n", ""))
    played = text.replace('"berserker", "artisan"', '"artisan"') + (
        'ability = [{ effects = [{ do = "heal", amount = 1 }] }]\n')
    with pytest.raises(msgspec.ValidationError, match="ER-6.13"):
        _decode(played.replace("characters = []\n", ""))


def test_load_catalog_names_the_file_it_refuses(tmp_path: Path):
    bad = tmp_path / "cards.toml"
    bad.write_text(BASE + 'colour = "red"\n')
    with pytest.raises(ValueError, match="cards.toml: invalid card catalog"):
        load_catalog(bad)
