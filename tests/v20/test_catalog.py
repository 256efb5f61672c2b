"""The V20 catalog (data/v20) against the spec's "Catalog requirements" and rule tables, and the
one-line refusals of broken copies (file, entry and field, V20- rule)."""
from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine.v20.catalog import DATA_DIR, Catalog, CatalogError, Character, load_catalog


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def test_catalog_loads_once_per_directory(catalog: Catalog) -> None:
    assert len(catalog.characters) >= 10
    assert load_catalog() is catalog
    assert load_catalog(DATA_DIR / ".." / "v20") is catalog


# Coverage (Catalog requirements) ----------------------------------------------------------------

def _vampires(catalog: Catalog) -> list[Character]:
    return [c for c in catalog.characters.values() if c.is_vampire]


COVERAGE: dict[str, Callable[[Catalog], bool]] = {
    "each kind of character (V20-3.1)": lambda cat: {
        c.kind for c in cat.characters.values()} == {"vampire", "ghoul", "mortal"},
    "generations from 13th to 6th (V20-3.3)": lambda cat: {
        c.generation for c in _vampires(cat)} >= set(range(6, 14)),
    "Celerity": lambda cat: any(c.disciplines.celerity for c in cat.characters.values()),
    "Potence": lambda cat: any(c.disciplines.potence for c in cat.characters.values()),
    "Fortitude": lambda cat: any(c.disciplines.fortitude for c in cat.characters.values()),
    "Protean claws": lambda cat: any(
        c.disciplines.protean >= 2 and "claws" in c.weapons for c in cat.characters.values()),
    "Dominate": lambda cat: any(c.disciplines.dominate for c in cat.characters.values()),
    "Conscience": lambda cat: any(c.virtues.conscience for c in cat.characters.values()),
    "Conviction": lambda cat: any(c.has_conviction for c in cat.characters.values()),
    "Self-Control": lambda cat: any(c.virtues.self_control for c in cat.characters.values()),
    "Instinct (V20-12.4)": lambda cat: any(c.has_instinct for c in cat.characters.values()),
    "the five seed paths (V20-13.7)": lambda cat: {
        c.path.id for c in cat.characters.values()} == set(cat.paths),
    "Brawl specialty": lambda cat: any(c.specialties.brawl for c in cat.characters.values()),
    "Melee specialty": lambda cat: any(c.specialties.melee for c in cat.characters.values()),
    "Firearms specialty": lambda cat: any(
        c.specialties.firearms for c in cat.characters.values()),
    "Stealth specialty": lambda cat: any(c.specialties.stealth for c in cat.characters.values()),
    "Firearms 0 with a firearm (V20-2.11, D13)": lambda cat: any(
        c.abilities.firearms == 0 and any(cat.weapons[w].gunfire for w in c.weapons)
        for c in cat.characters.values()),
    "a low blood pool, below Self-Control, for the frenzy cap (V20-12.3)": lambda cat: any(
        c.blood.start < c.virtue("self_control") for c in _vampires(cat)),
}


@pytest.mark.parametrize("item", COVERAGE)
def test_coverage(catalog: Catalog, item: str) -> None:
    assert COVERAGE[item](catalog), item


# The characters (Catalog requirements table) ----------------------------------------------------

# Row: kind, generation, attributes (Str Dex Sta Per Wits), abilities, specialties, disciplines,
# virtues, (path, rating), Willpower, (start BP, max BP), weapons, armor.
ROWS: dict[str, tuple[Any, ...]] = {
    "marcus": ("vampire", 13, (3, 3, 3, 2, 2), {"brawl": 3, "melee": 2}, {"brawl": "Punches"},
               {"celerity": 1, "potence": 2}, {"conscience": 2, "self_control": 2, "courage": 3},
               ("humanity", 6), 4, (10, 10), ("club",), None),
    "ilse": ("vampire", 10, (2, 4, 2, 3, 3), {"melee": 4, "athletics": 3, "firearms": 0},
             {"melee": "Swords"}, {"celerity": 3},
             {"conscience": 3, "self_control": 3, "courage": 2}, ("humanity", 7), 5, (12, 13),
             ("sword",), "reinforced_clothing"),
    "hakon": ("vampire", 8, (4, 3, 4, 3, 3), {"brawl": 4, "survival": 3}, {"brawl": "Claws"},
              {"fortitude": 2, "protean": 2, "celerity": 1},
              {"conviction": 3, "instinct": 3, "courage": 4}, ("einherjar", 6), 6, (15, 15),
              ("claws",), None),
    "silas": ("vampire", 9, (3, 4, 3, 3, 3), {"stealth": 4, "brawl": 3, "melee": 2},
              {"stealth": "Ambush"}, {"potence": 1, "fortitude": 1},
              {"conviction": 3, "self_control": 2, "courage": 3}, ("bones", 9), 5, (14, 14),
              ("knife",), None),
    "aurelian": ("vampire", 6, (3, 3, 3, 3, 4), {"firearms": 3, "melee": 3, "leadership": 4},
                 {"firearms": "Pistols"}, {"fortitude": 3, "dominate": 3, "potence": 1},
                 {"conviction": 3, "self_control": 4, "courage": 3}, ("kings", 8), 7, (25, 30),
                 ("heavy_pistol",), "armor_tshirt"),
    # Starting BP 2 instead of the table's 6: the frenzy cap must bind (V20-12.3).
    "vesna": ("vampire", 11, (3, 3, 2, 2, 3), {"brawl": 3, "melee": 3}, {},
              {"celerity": 2, "potence": 1}, {"conviction": 2, "self_control": 3, "courage": 2},
              ("flayed_hearts", 2), 3, (2, 12), ("axe",), None),
    "gideon": ("vampire", 7, (5, 3, 4, 3, 3), {"melee": 4, "brawl": 3}, {"melee": "Axes"},
               {"fortitude": 3, "potence": 3, "celerity": 2},
               {"conscience": 2, "self_control": 3, "courage": 4}, ("humanity", 4), 7, (20, 20),
               ("axe",), "armor_tshirt"),
    "dale": ("ghoul", None, (3, 3, 3, 2, 2), {"firearms": 3, "brawl": 2, "melee": 2},
             {"firearms": "Shotguns"}, {"potence": 1, "fortitude": 1},
             {"conscience": 3, "self_control": 3, "courage": 3}, ("humanity", 6), 4, (5, 10),
             ("shotgun",), "kevlar_vest"),
    "margarethe": ("mortal", None, (2, 3, 3, 3, 3), {"firearms": 3, "melee": 2, "alertness": 3},
                   {"melee": "Stakes"}, {}, {"conscience": 4, "self_control": 3, "courage": 4},
                   ("humanity", 7), 6, (10, 10), ("crossbow", "stake"), "kevlar_vest"),
    "nicky": ("mortal", None, (3, 2, 2, 2, 2), {"brawl": 2, "melee": 2, "firearms": 0}, {}, {},
              {"conscience": 2, "self_control": 2, "courage": 2}, ("humanity", 5), 3, (10, 10),
              ("knife", "light_revolver"), None),
}


@pytest.mark.parametrize("character_id", ROWS)
def test_character_has_its_rows_features(catalog: Catalog, character_id: str) -> None:
    """Each row of the Catalog requirements table, feature by feature (V20-3.1)."""
    (kind, generation, attributes, abilities, specialties, disciplines, virtues, path,
     willpower, blood, weapons, armor) = ROWS[character_id]
    sheet = catalog.characters[character_id]
    assert (sheet.kind, sheet.generation) == (kind, generation)
    assert tuple(sheet.attribute(name) for name in (
        "strength", "dexterity", "stamina", "perception", "wits")) == attributes
    assert {name: sheet.ability(name) for name in abilities} == abilities
    assert {name: sheet.specialty(name) for name in specialties} == specialties
    assert {name: sheet.discipline(name) for name in (
        "celerity", "potence", "fortitude", "protean", "dominate")
        if sheet.discipline(name)} == disciplines
    assert {name: sheet.virtue(name) for name in (
        "conscience", "conviction", "self_control", "instinct", "courage")
        if sheet.virtue(name)} == virtues
    assert (sheet.path.id, sheet.path.rating) == path
    assert sheet.willpower == willpower
    assert (sheet.blood.start, sheet.blood.max) == blood
    assert (sheet.weapons, sheet.armor) == (weapons, armor)


def test_names_are_evocative_and_ids_are_slugs(catalog: Catalog) -> None:
    for character_id, sheet in catalog.characters.items():
        assert character_id.isidentifier() and character_id.islower()
        assert len(sheet.name.split()) >= 2, sheet.name


def test_blood_agrees_with_generation_and_kind(catalog: Catalog) -> None:
    """Maximum blood: the generation's (V20-3.3), 10 for ghouls (V20-3.4) and mortals
    (V20-3.5); traits within the trait maximum."""
    for sheet in catalog.characters.values():
        limits = catalog.limits(sheet)
        expected = GENERATIONS[sheet.generation][1] if sheet.generation else 10
        assert sheet.blood.max == limits.max_blood == expected, sheet.id
        assert 0 <= sheet.blood.start <= sheet.blood.max, sheet.id
        traits = {**msgspec.structs.asdict(sheet.attributes),
                  **msgspec.structs.asdict(sheet.disciplines)}
        assert max(traits.values()) <= limits.trait_maximum, sheet.id


def test_specialty_tags_match_a_weapon_the_character_can_use(catalog: Catalog) -> None:
    """A Brawl, Melee or Firearms specialty names the tag of one of the character's attacks,
    so it can ever apply (V20-2.12)."""
    for sheet in catalog.characters.values():
        tags = {tag for weapon in catalog.attacks(sheet) for tag in weapon.specialties}
        for ability in ("brawl", "melee", "firearms"):
            tag = sheet.specialty(ability)
            assert tag is None or tag in tags, (sheet.id, tag)


def test_character_helpers(catalog: Catalog) -> None:
    """Conscience or Conviction (V20-13.1), Instinct frenzies (V20-12.4), mortals cannot spend
    blood (V20-3.5)."""
    hakon, marcus, nicky = (catalog.characters[i] for i in ("hakon", "marcus", "nicky"))
    assert hakon.has_instinct and hakon.virtue("self_control") == 0
    assert hakon.path_virtue == "conviction" and marcus.path_virtue == "conscience"
    assert marcus.virtue("conscience") == 2 and not marcus.has_instinct
    assert not nicky.can_spend_blood and not nicky.is_vampire and marcus.can_spend_blood
    assert [w.id for w in catalog.attacks(nicky)] == ["punch", "kick", "knife", "light_revolver"]
    assert catalog.armor_of(nicky) is None
    assert catalog.armor_of(catalog.characters["dale"]) == catalog.armor["kevlar_vest"]


# Tables -----------------------------------------------------------------------------------------

GENERATIONS = {  # generation: (trait maximum, maximum blood pool, BP per turn), V20-3.3
    4: (9, 50, 10), 5: (8, 40, 8), 6: (7, 30, 6), 7: (6, 20, 4), 8: (5, 15, 3), 9: (5, 14, 2),
    10: (5, 13, 1), 11: (5, 12, 1), 12: (5, 11, 1), 13: (5, 10, 1),
}


def test_generation_table_matches_V20_3_3(catalog: Catalog) -> None:
    assert {gen: (row.trait_maximum, row.max_blood, row.blood_per_turn)
            for gen, row in catalog.generations.items()} == GENERATIONS
    assert all(catalog.generation(gen).generation == gen for gen in GENERATIONS)
    with pytest.raises(KeyError):
        catalog.generation(3)


def test_ghoul_and_mortal_limits_V20_3_4_V20_3_5(catalog: Catalog) -> None:
    """Ghouls: 10 BP, 1 per turn, boosts up to 5 (V20-10.5), Celerity Potence Fortitude only;
    mortals: 10 BP none spendable, no Disciplines."""
    ghoul, mortal = catalog.ghoul, catalog.mortal
    assert (ghoul.max_blood, ghoul.blood_per_turn, ghoul.trait_maximum) == (10, 1, 5)
    assert set(ghoul.disciplines) == {"celerity", "potence", "fortitude"}
    assert (mortal.max_blood, mortal.blood_per_turn, mortal.disciplines) == (10, 0, ())


def test_frenzy_and_rotschreck_difficulties_V20_12_12(catalog: Catalog) -> None:
    assert {t.id: t.difficulty for t in catalog.frenzy_triggers.values()} == {
        "smell_of_blood": 3, "harassment": 4, "life_threatening_danger": 4,
        "physical_provocation": 6, "taste_of_blood": 6, "loved_one_in_danger": 7}
    assert {t.id: t.difficulty for t in catalog.rotschreck_triggers.values()} == {
        "lit_cigarette": 3, "torch": 5, "bonfire": 6, "obscured_sunlight": 7,
        "being_burned": 7, "direct_sunlight": 8, "burning_building": 9}
    assert catalog.rotschreck_triggers["burning_building"].name == "Trapped in a burning building"


@pytest.mark.parametrize(("path", "rating", "modifier"), [
    ("kings", 10, -2), ("flayed_hearts", 8, -1), ("bones", 3, 1), ("einherjar", 1, 2),
    ("humanity", 5, 0), ("humanity", 9, -1), ("humanity", 7, 0), ("humanity", 4, 0),
    ("kings", 2, 1),
])
def test_bearing_V20_13_7(catalog: Catalog, path: Any, rating: int, modifier: int) -> None:
    """Example S7 and the bands 10 / 9-8 / 7-4 / 3-2 / 1."""
    assert catalog.bearing(path, rating) == modifier


def test_bearing_paths_affect_their_rolls_V20_13_7(catalog: Catalog) -> None:
    assert {p.id: p.affects for p in catalog.paths.values()} == {
        "humanity": "social", "kings": "leadership", "flayed_hearts": "self_control",
        "bones": "avoid_notice", "einherjar": "courage"}
    with pytest.raises(KeyError):
        catalog.bearing("humanity", 0)


def test_wound_penalties_V20_9_1(catalog: Catalog) -> None:
    assert [catalog.wound(k) for k in range(8)] == [
        ("none", 0), ("Bruised", 0), ("Hurt", -1), ("Injured", -1), ("Wounded", -2),
        ("Mauled", -2), ("Crippled", -5), ("Incapacitated", None)]
    with pytest.raises(KeyError):
        catalog.wound(8)


def test_target_sizes_V20_6_6(catalog: Catalog) -> None:
    """Example S1: a heavy pistol at the head (small) rolls 5 + 1 + 1 extra = 7 dice."""
    assert {s.id: (s.difficulty, s.damage) for s in catalog.target_sizes.values()} == {
        "medium": (1, 0), "small": (2, 1), "precise": (3, 2)}
    pistol = catalog.weapons["heavy_pistol"]
    assert pistol.damage_rating(3) + catalog.target_sizes["small"].damage + 1 == 7


# Weapons and armor ------------------------------------------------------------------------------

# id: ability, damage, strength_based, type, difficulty, can_parry, rounds, gunfire, requires
WEAPONS: dict[str, tuple[Any, ...]] = {
    "punch": ("brawl", 0, True, "bashing", 6, False, 0, False, {}),
    "kick": ("brawl", 1, True, "bashing", 7, False, 0, False, {}),
    "claws": ("brawl", 1, True, "aggravated", 6, False, 0, False, {"protean": 2}),
    "sap": ("melee", 1, True, "bashing", 6, True, 0, False, {}),
    "club": ("melee", 2, True, "bashing", 6, True, 0, False, {}),
    "knife": ("melee", 1, True, "lethal", 6, True, 0, False, {}),
    "sword": ("melee", 2, True, "lethal", 6, True, 0, False, {}),
    "axe": ("melee", 3, True, "lethal", 6, True, 0, False, {}),
    "stake": ("melee", 1, True, "lethal", 6, True, 0, False, {}),
    "throwing_knife": ("athletics", 0, True, "lethal", 6, False, 0, False, {}),
    "light_revolver": ("firearms", 4, False, "lethal", 6, False, 6, True, {}),
    "heavy_revolver": ("firearms", 6, False, "lethal", 6, False, 6, True, {}),
    "light_pistol": ("firearms", 4, False, "lethal", 6, False, 18, True, {}),
    "heavy_pistol": ("firearms", 5, False, "lethal", 6, False, 8, True, {}),
    "rifle": ("firearms", 8, False, "lethal", 6, False, 6, True, {}),
    "small_smg": ("firearms", 4, False, "lethal", 6, False, 31, True, {}),
    "large_smg": ("firearms", 4, False, "lethal", 6, False, 31, True, {}),
    "assault_rifle": ("firearms", 7, False, "lethal", 6, False, 43, True, {}),
    "shotgun": ("firearms", 8, False, "lethal", 6, False, 6, True, {}),
    "crossbow": ("firearms", 5, False, "lethal", 6, False, 1, True, {}),
}


def test_weapon_list_is_the_specs(catalog: Catalog) -> None:
    assert set(catalog.weapons) == set(WEAPONS)
    assert catalog.unarmed == ("punch", "kick")


@pytest.mark.parametrize("weapon_id", WEAPONS)
def test_weapon_fields(catalog: Catalog, weapon_id: str) -> None:
    """Catalog requirements' weapon list; gunfire is every Firearms attack (V20-7.3), rounds
    "[17+1]" hold 18 (V20-5.10), Strength-based damage is a bonus (V20-8.2)."""
    weapon = catalog.weapons[weapon_id]
    requires = {name: need for name, need in (
        ("protean", weapon.requires.protean), ("celerity", weapon.requires.celerity)) if need}
    assert (weapon.ability, weapon.damage, weapon.strength_based, weapon.type,
            weapon.difficulty, weapon.can_parry, weapon.rounds, weapon.gunfire,
            requires) == WEAPONS[weapon_id]
    assert weapon.is_mechanical == (weapon.ability == "firearms") == weapon.needs_rounds
    assert weapon.name


def test_weapon_damage_with_wounds_S10(catalog: Catalog) -> None:
    """At Hurt, a punch with Strength 3 rolls 2 dice, a pistol keeps 5 (V20-8.2, V20-9.8)."""
    _, hurt = catalog.wound(2)
    punch, pistol = catalog.weapons["punch"], catalog.weapons["heavy_pistol"]
    assert punch.damage_rating(3) + (hurt or 0) == 2
    assert pistol.damage_rating(3) == 5 and pistol.is_mechanical
    assert punch.is_unarmed and catalog.weapons["claws"].is_unarmed
    assert catalog.weapons["knife"].is_close_combat and not pistol.is_close_combat


@pytest.mark.parametrize(("armor_id", "armor_class", "rating", "penalty"), [
    ("reinforced_clothing", 1, 1, 0), ("armor_tshirt", 2, 2, 1), ("kevlar_vest", 3, 3, 1),
    ("flak_jacket", 4, 4, 2), ("riot_gear", 5, 5, 3),
])
def test_armor(catalog: Catalog, armor_id: str, armor_class: int, rating: int,
               penalty: int) -> None:
    """Rating joins soak (V20-8.6), the penalty leaves Dexterity pools (V20-6.3)."""
    armor = catalog.armor[armor_id]
    assert (armor.armor_class, armor.rating, armor.dexterity_penalty) == (
        armor_class, rating, penalty)
    assert armor.name


# Broken copies ----------------------------------------------------------------------------------

def _broken(tmp_path: Path, file: str, entry: str, old: str, new: str) -> Path:
    """A copy of data/v20 whose `file` has `old` replaced by `new` within the entry whose id is
    `entry` (the whole file when empty)."""
    root = tmp_path / "v20"
    shutil.copytree(DATA_DIR, root)
    path = root / file
    text = path.read_text(encoding="utf-8")
    start = text.index(f'id = "{entry}"') if entry else 0
    end = text.find("\n[[", start)
    end = len(text) if end == -1 or not entry else end
    block = text[start:end]
    assert old in block, (file, entry, old)
    path.write_text(text[:start] + block.replace(old, new, 1) + text[end:], encoding="utf-8")
    return root


def _index(catalog: Catalog, table: str, entry: str) -> int:
    return list(getattr(catalog, table)).index(entry)


BROKEN = {
    "unknown field (V20-3.1)": (
        "characters.toml", "marcus", 'name = "Marcus Vell"',
        'name = "Marcus Vell"\ncolour = "crimson"',
        ["characters[{marcus}] (marcus)", "unknown field `colour`", "(V20-3.1)"]),
    "blood above the generation's maximum (V20-3.3)": (
        "characters.toml", "ilse", "max = 13", "max = 14",
        ["characters[{ilse}] (ilse) .blood.max = 14",
         "a 10th-generation vampire holds at most 13 BP", "(V20-3.3)"]),
    "a trait above the trait maximum (V20-3.3)": (
        "characters.toml", "marcus", "strength = 3", "strength = 6",
        ["characters[{marcus}] (marcus) .attributes.strength = 6",
         "a 13th-generation vampire's traits are at most 5", "(V20-3.3)"]),
    "a weapon with an unknown ability (V20-6.1)": (
        "weapons.toml", "sword", 'ability = "melee"', 'ability = "fencing"',
        ['weapons[{sword}] (sword) .ability = "fencing"', "(V20-6.1)"]),
    "a character naming an unknown weapon (V20-3.1)": (
        "characters.toml", "marcus", '["club"]', '["katana"]',
        ['characters[{marcus}] (marcus) .weapons[0] = "katana"', "weapons.toml", "(V20-3.1)"]),
    "a ghoul with Dominate (V20-3.4)": (
        "characters.toml", "dale", "potence = 1", "dominate = 1",
        ["characters[{dale}] (dale) .disciplines.dominate = 1", "a ghoul", "(V20-3.4)"]),
    "a mortal's blood pool (V20-3.5)": (
        "characters.toml", "nicky", "max = 10", "max = 12",
        ["characters[{nicky}] (nicky) .blood.max = 12", "at most 10 BP", "(V20-3.5)"]),
    "both Self-Control and Instinct (V20-3.1)": (
        "characters.toml", "hakon", "instinct = 3", "instinct = 3, self_control = 2",
        ["characters[{hakon}] (hakon) .virtues", "self_control and instinct", "(V20-3.1)"]),
    "claws without Protean 2 (V20-6.1)": (
        "characters.toml", "hakon", "protean = 2", "protean = 1",
        ['characters[{hakon}] (hakon) .weapons[0] = "claws"', "Protean 2", "(V20-6.1)"]),
    "a generation outside the table (V20-3.3)": (
        "characters.toml", "theo", "generation = 12", "generation = 14",
        ["characters[{theo}] (theo) .generation = 14", "(V20-3.3)"]),
    "an Ability above 5 (V20-3.1)": (
        "characters.toml", "silas", "stealth = 4", "stealth = 6",
        ["characters[{silas}] (silas) .abilities.stealth = 6", "<= 5", "(V20-3.1)"]),
    "a melee weapon holding rounds (V20-5.10)": (
        "weapons.toml", "axe", "can_parry = true", "can_parry = true\nrounds = 2",
        ["weapons[{axe}] (axe) .rounds = 2", "(V20-5.10)"]),
    "a firearm not gunfire (V20-7.3)": (
        "weapons.toml", "crossbow", "gunfire = true", "gunfire = false",
        ["weapons[{crossbow}] (crossbow) .gunfire = false", "(V20-7.3)"]),
    "a generation row outside 4th-13th (V20-3.3)": (
        "tables.toml", "", "generation = 4,", "generation = 14,",
        ["generations .generation", "4th to 13th", "(V20-3.3)"]),
    "a wound level with a positive penalty (V20-9.1)": (
        "tables.toml", "", 'name = "Hurt", penalty = -1', 'name = "Hurt", penalty = 1',
        ["wound_levels[2] .penalty", "(V20-9.1)"]),
    "a frenzy difficulty above 10 (V20-12.12)": (
        "tables.toml", "", 'name = "Smell of blood", difficulty = 3',
        'name = "Smell of blood", difficulty = 11',
        ["frenzy_triggers[0] (smell_of_blood) .difficulty = 11", "(V20-12.12)"]),
    "armor with an unknown field (V20-8.6)": (
        "armor.toml", "riot_gear", "rating = 5", "rating = 5\nweight = 9",
        ["armor[4] (riot_gear)", "unknown field `weight`", "(V20-8.6)"]),
}


@pytest.mark.parametrize("case", BROKEN)
def test_broken_file_is_refused_in_one_line(catalog: Catalog, tmp_path: Path, case: str) -> None:
    file, entry, old, new, fragments = BROKEN[case]
    root = _broken(tmp_path, file, entry, old, new)
    with pytest.raises(CatalogError) as refused:
        load_catalog(root)
    message = str(refused.value)
    positions = {name: _index(catalog, "characters", name) for name in catalog.characters}
    positions |= {name: _index(catalog, "weapons", name) for name in catalog.weapons}
    assert "\n" not in message
    assert message.startswith(f"{root / file}: "), message
    for fragment in fragments:
        assert fragment.format(**positions) in message, message
    assert isinstance(refused.value, ValueError)
