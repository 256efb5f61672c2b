"""The Vampire V20 combat catalog: character sheets, weapons, armor and rule tables, as data.

The combat rules (rule IDs V20-) leave these to the catalog, and data/v20 holds them in four
TOML files decoded into frozen Structs:

- characters.toml: the sheets of V20-3.1 (kind, generation, traits, virtues, path, Willpower,
  blood, weapons and armor);
- weapons.toml: ability, damage and type, base difficulty, parry, rounds and gunfire (V20-6.1,
  V20-6.2, V20-6.10, V20-7.3, V20-7.4, V20-8.2, V20-5.10);
- armor.toml: rating and Dexterity penalty (V20-6.3, V20-8.6);
- tables.toml: generation (V20-3.3), ghoul (V20-3.4) and mortal (V20-3.5) limits, frenzy and
  Rötschreck difficulties (V20-12.12), paths and bearing (V20-13.7), wound penalties (V20-9.1)
  and target sizes (V20-6.6).

The files are checked against the rules and one another when loaded (a 10th-generation vampire
holds 13 BP, traits stay under the trait maximum, weapons named exist), so a replay never meets a
sheet the rules forbid. A refused file raises CatalogError: one line naming the file, the entry
and field, and the rule broken. engine.catalog.read_catalog reads one file and names only it, so
this module reads the same way (tomllib, then msgspec.convert) and adds entry, field and rule.
"""
from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal, NamedTuple, TypeVar, get_args

import msgspec

REPO = Path(__file__).resolve().parents[2]
DATA_DIR = REPO / "data" / "v20"

Kind = Literal["vampire", "ghoul", "mortal"]
AttributeName = Literal["strength", "dexterity", "stamina", "perception", "wits"]
AbilityName = Literal["brawl", "melee", "firearms", "athletics", "stealth", "alertness",
                      "survival", "leadership"]
AttackAbility = Literal["brawl", "melee", "firearms", "athletics"]
DisciplineName = Literal["celerity", "potence", "fortitude", "protean", "dominate"]
VirtueName = Literal["conscience", "conviction", "self_control", "instinct", "courage"]
PathName = Literal["humanity", "kings", "flayed_hearts", "bones", "einherjar"]
DamageType = Literal["bashing", "lethal", "aggravated"]
BearingRolls = Literal["social", "leadership", "self_control", "avoid_notice", "courage"]
TargetSizeName = Literal["medium", "small", "precise"]

Dots = Annotated[int, msgspec.Meta(ge=0)]
Attribute = Annotated[int, msgspec.Meta(ge=1)]
AbilityRating = Annotated[int, msgspec.Meta(ge=0, le=5)]
VirtueRating = Annotated[int, msgspec.Meta(ge=1, le=5)]
PathRatingValue = Annotated[int, msgspec.Meta(ge=0, le=10)]
WillpowerRating = Annotated[int, msgspec.Meta(ge=1, le=10)]
Difficulty = Annotated[int, msgspec.Meta(ge=2, le=10)]


class CatalogError(ValueError):
    """A catalog file the engine refuses, in one line: file, entry and field, rule broken, so a
    designer can fix the TOML without reading the engine."""


class Record(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of every catalog Struct: frozen, since one catalog is shared by every match, and
    refusing unknown fields, since a misspelt field would otherwise be a silent default."""


# Characters (V20-3.1) --------------------------------------------------------------------------

class Attributes(Record, frozen=True, kw_only=True, forbid_unknown_fields=True):
    strength: Attribute
    dexterity: Attribute
    stamina: Attribute
    perception: Attribute
    wits: Attribute


class Abilities(Record, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Abilities 0-5; an absent one is 0, which V20-2.11 lets a roll replace by the Attribute
    alone at difficulty +1."""

    brawl: AbilityRating = 0
    melee: AbilityRating = 0
    firearms: AbilityRating = 0
    athletics: AbilityRating = 0
    stealth: AbilityRating = 0
    alertness: AbilityRating = 0
    survival: AbilityRating = 0
    leadership: AbilityRating = 0


class Specialties(Record, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Ability -> tag. A roll of Attribute + that Ability counts 10s twice when the action's tag
    matches (V20-2.5, V20-2.12)."""

    brawl: str | None = None
    melee: str | None = None
    firearms: str | None = None
    athletics: str | None = None
    stealth: str | None = None
    alertness: str | None = None
    survival: str | None = None
    leadership: str | None = None


class Disciplines(Record, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Discipline ratings; also what a weapon requires of its wielder (claws: Protean 2)."""

    celerity: Dots = 0
    potence: Dots = 0
    fortitude: Dots = 0
    protean: Dots = 0
    dominate: Dots = 0


class Virtues(Record, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Conscience or Conviction, Self-Control or Instinct, and Courage (V20-3.1)."""

    conscience: VirtueRating | None = None
    conviction: VirtueRating | None = None
    self_control: VirtueRating | None = None
    instinct: VirtueRating | None = None
    courage: VirtueRating


class PathRating(Record, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The path followed and its rating 0-10; at 0 a vampire becomes an NPC (V20-13.6)."""

    id: PathName
    rating: PathRatingValue


class Blood(Record, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Blood points: the sheet's starting pool (a setup may override it, V20-3.6) and the
    maximum, fixed by generation or kind (V20-3.3, V20-3.4, V20-3.5)."""

    start: Dots
    max: Dots


class Character(Record, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A character sheet (V20-3.1). `willpower` is the permanent rating used for rolls
    (V20-3.2); `weapons` are weapons.toml ids carried besides the unarmed attacks."""

    id: str
    name: str
    kind: Kind
    generation: int | None = None
    attributes: Attributes
    abilities: Abilities = Abilities()
    specialties: Specialties = Specialties()
    disciplines: Disciplines = Disciplines()
    virtues: Virtues
    path: PathRating
    willpower: WillpowerRating
    blood: Blood
    weapons: tuple[str, ...] = ()
    armor: str | None = None
    derangements: tuple[str, ...] = ()

    def attribute(self, name: AttributeName) -> int:
        return int(getattr(self.attributes, name))

    def ability(self, name: AbilityName) -> int:
        return int(getattr(self.abilities, name))

    def specialty(self, ability: AbilityName) -> str | None:
        tag: str | None = getattr(self.specialties, ability)
        return tag

    def discipline(self, name: DisciplineName) -> int:
        return int(getattr(self.disciplines, name))

    def virtue(self, name: VirtueName) -> int:
        """The virtue's rating, 0 for the unheld one of a pair: a virtue pool below 1 die is an
        automatic failure (V20-2.13), so 0 is the pool a rule engine should see."""
        rating: int | None = getattr(self.virtues, name)
        return rating or 0

    @property
    def has_instinct(self) -> bool:
        """Holders of Instinct frenzy with no roll (V20-12.4)."""
        return self.virtues.instinct is not None

    @property
    def has_conviction(self) -> bool:
        return self.virtues.conviction is not None

    @property
    def path_virtue(self) -> Literal["conscience", "conviction"]:
        """The virtue rolled when acting against the path (V20-13.1)."""
        return "conviction" if self.has_conviction else "conscience"

    @property
    def is_vampire(self) -> bool:
        """Rules naming a vampire or Cainite apply to vampires only (V20-1.5)."""
        return self.kind == "vampire"

    @property
    def can_spend_blood(self) -> bool:
        """Mortals hold blood but cannot spend it (V20-3.5)."""
        return self.kind != "mortal"


# Weapons and armor ------------------------------------------------------------------------------

class Weapon(Record, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A weapon or unarmed attack. `damage` is the bonus added to Strength when strength_based,
    else the fixed rating (V20-8.2); `rounds` is the capacity a reload refills (V20-5.10);
    `specialties` are the tags its rolls match (V20-2.12)."""

    id: str
    name: str
    ability: AttackAbility
    damage: Dots
    strength_based: bool
    type: DamageType
    difficulty: Difficulty = 6
    can_parry: bool = False
    rounds: Dots = 0
    gunfire: bool = False
    requires: Disciplines = Disciplines()
    specialties: tuple[str, ...] = ()

    @property
    def is_mechanical(self) -> bool:
        """Firearms and crossbows: fixed damage, no wound penalty on it (V20-8.2, V20-9.8)."""
        return not self.strength_based

    @property
    def is_unarmed(self) -> bool:
        """A Brawl attack, claws included: a parry against it earns a counter-blow (V20-7.5)."""
        return self.ability == "brawl"

    @property
    def is_close_combat(self) -> bool:
        """Brawl and Melee attacks, the only ones a block or parry can stop (V20-7.2, V20-7.4)."""
        return self.ability in ("brawl", "melee")

    @property
    def needs_rounds(self) -> bool:
        """Each attack uses a round, and with none left the weapon cannot attack (V20-5.10)."""
        return self.rounds > 0

    def damage_rating(self, strength: int) -> int:
        """The damage pool before extra successes, aiming and penalties (V20-8.1, V20-8.2)."""
        return strength + self.damage if self.strength_based else self.damage


class Armor(Record, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Body armor: `rating` joins every soak pool (V20-8.6) and allows blocking lethal and
    aggravated attacks (V20-7.2); `dexterity_penalty` leaves every Dexterity pool (V20-6.3)."""

    id: str
    name: str
    armor_class: Annotated[int, msgspec.Meta(ge=1)] = msgspec.field(name="class")
    rating: Dots
    dexterity_penalty: Dots


# Tables -----------------------------------------------------------------------------------------

class Limits(Record, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What blood and traits a character may reach: the trait maximum (also the cap of blood
    boosts, V20-10.5), the maximum blood pool, the BP spendable per turn (V20-10.8)."""

    trait_maximum: Annotated[int, msgspec.Meta(ge=1)]
    max_blood: Dots
    blood_per_turn: Dots


class Generation(Limits, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A row of the generation table (V20-3.3)."""

    generation: Annotated[int, msgspec.Meta(ge=1)]


class KindLimits(Limits, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The limits of ghouls (V20-3.4) or mortals (V20-3.5), who have no generation, with the
    Disciplines they may hold."""

    disciplines: tuple[DisciplineName, ...]


class Trigger(Record, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A frenzy or Rötschreck trigger and its reference difficulty (V20-12.12)."""

    id: str
    name: str
    difficulty: Difficulty


class PathEntry(Record, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A path and the rolls its bearing modifies (V20-13.7)."""

    id: PathName
    name: str
    affects: BearingRolls
    affects_text: str


class BearingBand(Record, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Path ratings sharing one bearing difficulty modifier (V20-13.7)."""

    ratings: tuple[Annotated[int, msgspec.Meta(ge=1, le=10)], ...]
    modifier: int


class WoundLevel(Record, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A health level: boxes filled, its name and the penalty added to action pools (V20-9.1,
    V20-9.7); no penalty means no actions (Incapacitated)."""

    boxes: Annotated[int, msgspec.Meta(ge=0, le=7)]
    name: str
    penalty: Annotated[int, msgspec.Meta(le=0)] | None = None


class TargetSize(Record, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Aiming at a target size: difficulty and damage dice added (V20-6.6)."""

    id: TargetSizeName
    name: str
    examples: str
    difficulty: Annotated[int, msgspec.Meta(ge=1)]
    damage: Dots


# The files as written ---------------------------------------------------------------------------

class CharactersFile(Record, frozen=True, kw_only=True, forbid_unknown_fields=True):
    characters: tuple[Character, ...]


class WeaponsFile(Record, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """`unarmed` lists the Brawl attacks every character has without carrying them."""

    unarmed: tuple[str, ...]
    weapons: tuple[Weapon, ...]


class ArmorFile(Record, frozen=True, kw_only=True, forbid_unknown_fields=True):
    armor: tuple[Armor, ...]


class TablesFile(Record, frozen=True, kw_only=True, forbid_unknown_fields=True):
    generations: tuple[Generation, ...]
    ghoul: KindLimits
    mortal: KindLimits
    frenzy_triggers: tuple[Trigger, ...]
    rotschreck_triggers: tuple[Trigger, ...]
    paths: tuple[PathEntry, ...]
    bearing: tuple[BearingBand, ...]
    wound_levels: tuple[WoundLevel, ...]
    target_sizes: tuple[TargetSize, ...]


# The catalog ------------------------------------------------------------------------------------

class Catalog(Record, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Everything of data/v20 with its lookups built once, since a replay looks up thousands of
    times. Mappings are keyed by id and keep the files' order."""

    characters: Mapping[str, Character]
    weapons: Mapping[str, Weapon]
    armor: Mapping[str, Armor]
    unarmed: tuple[str, ...]
    generations: Mapping[int, Generation]
    ghoul: KindLimits
    mortal: KindLimits
    frenzy_triggers: Mapping[str, Trigger]
    rotschreck_triggers: Mapping[str, Trigger]
    paths: Mapping[str, PathEntry]
    bearing_bands: tuple[BearingBand, ...]
    wound_levels: tuple[WoundLevel, ...]
    target_sizes: Mapping[str, TargetSize]

    def generation(self, generation: int) -> Generation:
        """The generation table's row (V20-3.3); KeyError outside 4th-13th."""
        return self.generations[generation]

    def limits(self, character: Character) -> Limits:
        """Trait maximum, maximum blood and BP per turn of the character's generation or kind."""
        if character.kind == "vampire":
            return self.generation(character.generation or 0)
        return self.ghoul if character.kind == "ghoul" else self.mortal

    def bearing(self, path: PathName, rating: int) -> int:
        """The difficulty modifier on the rolls `paths[path].affects` (V20-13.7); KeyError for
        an unknown path or a rating outside 1-10."""
        if path not in self.paths:
            raise KeyError(path)
        for band in self.bearing_bands:
            if rating in band.ratings:
                return band.modifier
        raise KeyError(rating)

    def wound(self, boxes: int) -> tuple[str, int | None]:
        """Health level name and pool penalty with `boxes` filled; None: no actions (V20-9.1)."""
        if not 0 <= boxes < len(self.wound_levels):
            raise KeyError(boxes)
        level = self.wound_levels[boxes]
        return level.name, level.penalty

    def attacks(self, character: Character) -> tuple[Weapon, ...]:
        """The unarmed attacks every character has, then the weapons it carries."""
        ids = dict.fromkeys((*self.unarmed, *character.weapons))
        return tuple(self.weapons[weapon] for weapon in ids)

    def armor_of(self, character: Character) -> Armor | None:
        return self.armor[character.armor] if character.armor else None


@cache
def _load(root: Path) -> Catalog:
    tables = _checked(root / "tables.toml", TablesFile, _table_problems)
    weapons = _checked(root / "weapons.toml", WeaponsFile, _weapon_problems)
    armor = _checked(root / "armor.toml", ArmorFile, _armor_problems)
    sheets = _read(root / "characters.toml", CharactersFile)
    catalog = _assemble(tables, weapons, armor, sheets)
    _refuse(root / "characters.toml", _character_problems(catalog, sheets.characters))
    return catalog


def load_catalog(root: Path = DATA_DIR) -> Catalog:
    """The catalog of the four files under `root`, read once per directory (the rules look it
    up at every step, so the path is resolved once per path given, not per call)."""
    return _load(_resolved(root))


@cache
def _resolved(root: Path) -> Path:
    return root.resolve()


def _assemble(tables: TablesFile, weapons: WeaponsFile, armor: ArmorFile,
              sheets: CharactersFile) -> Catalog:
    return Catalog(
        characters=_by_id(sheets.characters), weapons=_by_id(weapons.weapons),
        armor=_by_id(armor.armor), unarmed=weapons.unarmed,
        generations={row.generation: row for row in tables.generations},
        ghoul=tables.ghoul, mortal=tables.mortal,
        frenzy_triggers=_by_id(tables.frenzy_triggers),
        rotschreck_triggers=_by_id(tables.rotschreck_triggers), paths=_by_id(tables.paths),
        bearing_bands=tables.bearing, wound_levels=tables.wound_levels,
        target_sizes=_by_id(tables.target_sizes))


# Reading and refusing ---------------------------------------------------------------------------

FileT = TypeVar("FileT", bound=Record)
EntryT = TypeVar("EntryT", Character, Weapon, Armor, Trigger, PathEntry, TargetSize)


class Problem(NamedTuple):
    """One thing a file breaks: where (entry, field and value), why, and the rule."""

    where: str
    reason: str
    rule: str


# The rule a decoding error breaks, by the innermost field (or table) named in its location.
_RULES: dict[str, dict[str, str]] = {
    "characters.toml": {"": "V20-3.1", "generation": "V20-3.3", "blood": "V20-3.3"},
    "weapons.toml": {"": "V20-6.1", "damage": "V20-8.2", "strength_based": "V20-8.2",
                     "type": "V20-6.10", "difficulty": "V20-6.2", "can_parry": "V20-7.4",
                     "rounds": "V20-5.10", "gunfire": "V20-7.3"},
    "armor.toml": {"": "V20-8.6", "dexterity_penalty": "V20-6.3"},
    "tables.toml": {"": "V20-3.3", "ghoul": "V20-3.4", "mortal": "V20-3.5",
                    "frenzy_triggers": "V20-12.12", "rotschreck_triggers": "V20-12.12",
                    "paths": "V20-13.7", "bearing": "V20-13.7", "wound_levels": "V20-9.1",
                    "target_sizes": "V20-6.6"},
}
_LOCATION = re.compile(r"\$(?:\.(?P<table>\w+)(?:\[(?P<index>\d+)\])?)?(?P<field>.*)")


def _checked(path: Path, file_type: type[FileT],
             problems: Callable[[FileT], Iterable[Problem]]) -> FileT:
    data = _read(path, file_type)
    _refuse(path, problems(data))
    return data


def _read(path: Path, file_type: type[FileT]) -> FileT:
    """The file decoded, or CatalogError naming the entry and field msgspec could not decode."""
    rules = _RULES[path.name]
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise CatalogError(f"{_shown(path)}: unreadable: {err} ({rules['']})") from err
    try:
        return msgspec.convert(raw, file_type)
    except msgspec.ValidationError as err:
        message, _, location = str(err).partition(" - at `")
        where, rule = _locate(raw, location.rstrip("`") or "$", rules)
        raise CatalogError(f"{_shown(path)}: {where}: {_lower(message)} ({rule})") from err


def _locate(raw: dict[str, Any], location: str, rules: Mapping[str, str]) -> tuple[str, str]:
    """Entry and field of a msgspec location such as `$.characters[3].blood.max`, and the rule
    of its innermost field that has one."""
    found = _LOCATION.fullmatch(location)
    table, index, field = found.group("table", "index", "field") if found else (
        None, None, location)
    names = [*re.findall(r"[a-z_]+", field)[::-1], table or ""]
    rule = next((rules[name] for name in names if name in rules), rules[""])
    if table is None:
        return "file" + (f" {field}" if field else ""), rule
    item = raw[table] if index is None else raw[table][int(index)]
    entry = table if index is None else _entry(table, int(index), _raw_field(item, ".id"))
    value = _raw_field(item, field) if field else None
    shown = "" if value is None or isinstance(value, dict | list) else f" = {_toml(value)}"
    return f"{entry}{' ' + field if field else ''}{shown}", rule


def _raw_field(item: object, field: str) -> object:
    """The raw value at `field` (".blood.max", ".weapons[1]") of a decoded TOML entry."""
    for key, index in re.findall(r"\.(\w+)|\[(\d+)\]", field):
        if key and isinstance(item, dict):
            item = item.get(key)
        elif index and isinstance(item, list) and int(index) < len(item):
            item = item[int(index)]
        else:
            return None
    return item


def _refuse(path: Path, problems: Iterable[Problem]) -> None:
    """Raise the first problem: one line is what a designer fixes next."""
    for problem in problems:
        raise CatalogError(f"{_shown(path)}: {problem.where}: {problem.reason} ({problem.rule})")


def _shown(path: Path) -> str:
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def _lower(message: str) -> str:
    return message[:1].lower() + message[1:]


def _entry(table: str, index: int, entry_id: object) -> str:
    return f"{table}[{index}]" + (f" ({entry_id})" if entry_id else "")


def _toml(value: object) -> str:
    """A value as the TOML that wrote it (true, "club", [1, 2])."""
    return json.dumps(value, ensure_ascii=False)


def _by_id(entries: tuple[EntryT, ...]) -> dict[str, EntryT]:
    return {entry.id: entry for entry in entries}


def _duplicates(table: str, entries: Iterable[Character | Weapon | Armor | Trigger],
                rule: str) -> Iterator[Problem]:
    seen: set[str] = set()
    for index, entry in enumerate(entries):
        if entry.id in seen:
            yield Problem(f"{_entry(table, index, entry.id)} .id", "ids are unique", rule)
        seen.add(entry.id)


# Table checks -----------------------------------------------------------------------------------

def _table_problems(tables: TablesFile) -> Iterator[Problem]:
    generations = [row.generation for row in tables.generations]
    if sorted(generations) != list(range(4, 14)):
        yield Problem(f"generations .generation = {_toml(generations)}",
                      "the table has one row per generation, 4th to 13th", "V20-3.3")
    if tables.mortal.blood_per_turn or tables.mortal.disciplines:
        yield Problem("mortal", "a mortal cannot spend blood and has no Disciplines", "V20-3.5")
    yield from _duplicates("frenzy_triggers", tables.frenzy_triggers, "V20-12.12")
    yield from _duplicates("rotschreck_triggers", tables.rotschreck_triggers, "V20-12.12")
    yield from _covers("paths .id", [path.id for path in tables.paths], get_args(PathName),
                       "V20-13.7")
    yield from _covers("bearing .ratings", [r for band in tables.bearing for r in band.ratings],
                       range(1, 11), "V20-13.7")
    yield from _covers("target_sizes .id", [size.id for size in tables.target_sizes],
                       get_args(TargetSizeName), "V20-6.6")
    yield from _wound_problems(tables.wound_levels)


def _covers(where: str, found: list[Any], expected: Iterable[Any], rule: str
            ) -> Iterator[Problem]:
    wanted = sorted(expected)
    if sorted(found) != wanted:
        yield Problem(f"{where} = {_toml(found)}", f"each of {_toml(wanted)} exactly once", rule)


def _wound_problems(levels: tuple[WoundLevel, ...]) -> Iterator[Problem]:
    boxes = [level.boxes for level in levels]
    if boxes != list(range(8)):
        yield Problem(f"wound_levels .boxes = {_toml(boxes)}",
                      "one level per count of filled boxes, 0 to 7 in order", "V20-9.1")
    for index, level in enumerate(levels):
        if (level.penalty is None) != (level.boxes == 7):
            yield Problem(f"wound_levels[{index}] ({level.name}) .penalty",
                          "only Incapacitated (7 boxes) has no penalty and no actions", "V20-9.1")


# Weapon and armor checks ------------------------------------------------------------------------

def _weapon_problems(weapons: WeaponsFile) -> Iterator[Problem]:
    yield from _duplicates("weapons", weapons.weapons, "V20-6.1")
    for index, weapon in enumerate(weapons.weapons):
        yield from _one_weapon(_entry("weapons", index, weapon.id), weapon)
    by_id = _by_id(weapons.weapons)
    for index, weapon_id in enumerate(weapons.unarmed):
        attack = by_id.get(weapon_id)
        if attack is None or attack.ability != "brawl" or attack.requires != Disciplines():
            yield Problem(f"unarmed[{index}] = {_toml(weapon_id)}",
                          "an unarmed attack is a Brawl weapon of this file needing no "
                          "Discipline", "V20-6.1")


def _one_weapon(where: str, weapon: Weapon) -> Iterator[Problem]:
    firearm = weapon.ability == "firearms"
    if weapon.strength_based == firearm:
        yield Problem(f"{where} .strength_based = {_toml(weapon.strength_based)}",
                      "Brawl, Melee and thrown weapons add Strength; firearms and crossbows "
                      "have a fixed rating", "V20-8.2")
    if weapon.gunfire != firearm:
        yield Problem(f"{where} .gunfire = {_toml(weapon.gunfire)}",
                      "gunfire is exactly the Firearms attacks, crossbows included", "V20-7.3")
    if weapon.needs_rounds != firearm:
        yield Problem(f"{where} .rounds = {weapon.rounds}",
                      "firearms and crossbows hold rounds, other weapons none", "V20-5.10")
    if weapon.can_parry and weapon.ability != "melee":
        yield Problem(f"{where} .can_parry = true", "a parry needs a melee weapon", "V20-7.4")


def _armor_problems(armor: ArmorFile) -> Iterator[Problem]:
    return _duplicates("armor", armor.armor, "V20-8.6")


# Character checks -------------------------------------------------------------------------------

_KIND_RULE: dict[str, str] = {"vampire": "V20-3.3", "ghoul": "V20-3.4", "mortal": "V20-3.5"}


def _character_problems(catalog: Catalog, characters: tuple[Character, ...]
                        ) -> Iterator[Problem]:
    """Checked in order, each only once those before it hold (limits need a known generation),
    which the first raised problem guarantees."""
    yield from _duplicates("characters", characters, "V20-3.1")
    for index, character in enumerate(characters):
        where = _entry("characters", index, character.id)
        yield from _generation_problems(where, character, catalog)
        limits = catalog.limits(character)
        yield from _blood_problems(where, character, limits)
        yield from _trait_problems(where, character, limits)
        yield from _discipline_problems(where, character, catalog)
        yield from _virtue_problems(where, character)
        yield from _specialty_problems(where, character)
        yield from _gear_problems(where, character, catalog)


def _described(character: Character) -> str:
    if character.kind == "vampire":
        return f"a {character.generation}th-generation vampire"
    return f"a {character.kind}"


def _generation_problems(where: str, character: Character, catalog: Catalog
                         ) -> Iterator[Problem]:
    if character.is_vampire and character.generation not in catalog.generations:
        yield Problem(f"{where} .generation = {_toml(character.generation)}",
                      "a vampire has a generation of the table, 4th to 13th", "V20-3.3")
    if not character.is_vampire and character.generation is not None:
        yield Problem(f"{where} .generation = {character.generation}",
                      f"only vampires have a generation, not {_described(character)}",
                      _KIND_RULE[character.kind])


def _blood_problems(where: str, character: Character, limits: Limits) -> Iterator[Problem]:
    blood = character.blood
    if blood.max != limits.max_blood:
        bound = "at most" if blood.max > limits.max_blood else "a maximum of"
        yield Problem(f"{where} .blood.max = {blood.max}",
                      f"{_described(character)} holds {bound} {limits.max_blood} BP",
                      _KIND_RULE[character.kind])
    if blood.start > blood.max:
        yield Problem(f"{where} .blood.start = {blood.start}",
                      f"above the maximum of {blood.max} BP", "V20-10.7")


def _trait_problems(where: str, character: Character, limits: Limits) -> Iterator[Problem]:
    for group in ("attributes", "disciplines"):
        for name, rating in msgspec.structs.asdict(getattr(character, group)).items():
            if rating > limits.trait_maximum:
                yield Problem(f"{where} .{group}.{name} = {rating}",
                              f"{_described(character)}'s traits are at most "
                              f"{limits.trait_maximum}", _KIND_RULE[character.kind])


def _discipline_problems(where: str, character: Character, catalog: Catalog
                         ) -> Iterator[Problem]:
    if character.is_vampire:
        return
    allowed = (catalog.ghoul if character.kind == "ghoul" else catalog.mortal).disciplines
    for name, rating in msgspec.structs.asdict(character.disciplines).items():
        if rating and name not in allowed:
            names = ", ".join(d.capitalize() for d in allowed) or "none"
            yield Problem(f"{where} .disciplines.{name} = {rating}",
                          f"{_described(character)}'s Disciplines: {names}",
                          _KIND_RULE[character.kind])


def _virtue_problems(where: str, character: Character) -> Iterator[Problem]:
    virtues = character.virtues
    for first, second in (("conscience", "conviction"), ("self_control", "instinct")):
        if (getattr(virtues, first) is None) == (getattr(virtues, second) is None):
            yield Problem(f"{where} .virtues", f"holds exactly one of {first} and {second}",
                          "V20-3.1")


def _specialty_problems(where: str, character: Character) -> Iterator[Problem]:
    for ability, tag in msgspec.structs.asdict(character.specialties).items():
        if tag is not None and getattr(character.abilities, ability) == 0:
            yield Problem(f"{where} .specialties.{ability} = {_toml(tag)}",
                          f"a specialty applies to Attribute + {ability}, which is 0",
                          "V20-2.12")


def _gear_problems(where: str, character: Character, catalog: Catalog) -> Iterator[Problem]:
    for index, weapon_id in enumerate(character.weapons):
        weapon = catalog.weapons.get(weapon_id)
        field = f"{where} .weapons[{index}] = {_toml(weapon_id)}"
        if weapon is None:
            yield Problem(field, "no such weapon in weapons.toml", "V20-3.1")
            continue
        for name, need in msgspec.structs.asdict(weapon.requires).items():
            if getattr(character.disciplines, name) < need:
                yield Problem(field, f"wielding {weapon.name.lower()} needs {name.capitalize()} {need}",
                              "V20-6.1")
    if character.armor is not None and character.armor not in catalog.armor:
        yield Problem(f"{where} .armor = {_toml(character.armor)}",
                      "no such armor in armor.toml", "V20-3.1")
