"""The Eredan iTCG catalog as data (data/eredan/cards.toml) decoded into frozen Structs.

A card's behaviour is a list of lines, each an optional key ("guild:kotoba", "class:warrior",
"race:golem", "caste:courtier", "rune:nox", "default"), a timing and a few effects from a small
vocabulary (Damage, LoseHP, Heal, Modify, Draw, Ignore, PlayFromDeck, ActivateOrder,
ActivateFury, PlaceRune, Resurrect, HandSize, DualWield). The engine implements every effect of
the vocabulary; a catalog that uses anything else is refused when it is decoded, so an
unsupported card can never be silently half-played.
"""
from __future__ import annotations

import typing
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

import msgspec

from engine.catalog import read_catalog

Guild = Literal["kotoba", "zil", "noz_dingard", "runic_legion", "nightmares"]
Affiliation = Literal["kotoba", "zil", "noz_dingard", "runic_legion", "nightmares", "mercenary"]
GUILDS: tuple[str, ...] = ("kotoba", "zil", "noz_dingard", "runic_legion", "nightmares")
MERCENARY = "mercenary"
ClassName = Literal["berserker", "warrior", "mage", "looter", "cleric", "artisan", "unknown"]
Race = Literal["dais", "demon", "unknown", "elfine", "ice_elf", "beast", "golem", "guemelite",
               "hom_chai", "human", "undead", "solarian"]
RACES: tuple[str, ...] = typing.get_args(Race)
Rune = Literal["cor", "nox", "yr"]
CardType = Literal["action", "spell", "theurgy", "item", "pet"]
ItemSubtype = Literal["weapon", "armor", "shield", "jewel", "scroll", "potion"]
ChainType = Literal["action", "spell", "theurgy", "item", "pet", "any"]
Target = Literal["user", "enemy_combatant", "chosen_enemy", "chosen_ally", "all_enemies",
                 "all_allies", "defeated_ally"]
When = Literal["play", "static", "combat", "turn", "end_of_combat", "start_of_turn"]
Key = Annotated[str, msgspec.Meta(pattern=(
    r"^(|default|rune:(cor|nox|yr)|caste:courtier|guild:[a-z_]+|"
    r"class:(berserker|warrior|mage|looter|cleric|artisan|unknown)|race:[a-z_]+)$"))]
CHOSEN: frozenset[str] = frozenset({"chosen_enemy", "chosen_ally", "defeated_ally"})
"""Targets the player names in the Play; every other target is derived (ER-7.8)."""

# Effect vocabulary ---------------------------------------------------------------------------


class _Effect(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="do"):
    pass


class Damage(_Effect, frozen=True, tag="damage"):
    """Magic damage: a Spell's or Theurgy's damage, resisted by Spirit (ER-7.4)."""

    amount: int
    target: Target = "enemy_combatant"


class LoseHP(_Effect, frozen=True, tag="lose_hp"):
    """"Loses X HP": not damage, not resisted, not scored (ER-7.7)."""

    amount: int
    target: Target = "enemy_combatant"


class Heal(_Effect, frozen=True, tag="heal"):
    amount: int
    target: Target = "user"


class Modify(_Effect, frozen=True, tag="modify"):
    """Stat changes until end of turn when played (ER-6.17), while in play on a static line."""

    attack: int = 0
    defense: int = 0
    spirit: int = 0
    target: Target = "user"


class Draw(_Effect, frozen=True, tag="draw"):
    count: int


class Ignore(_Effect, frozen=True, tag="ignore"):
    """Ignore opposing cards of these types that appeared before this effect (ER-6.10)."""

    types: tuple[CardType, ...]


class PlayFromDeck(_Effect, frozen=True, tag="play_from_deck"):
    """Take the first card of `card_type` from the owner's deck and play it at once (ER-6.8)."""

    card_type: CardType = "spell"


class ActivateOrder(_Effect, frozen=True, tag="activate_order"):
    """Every line of the target's Order, whatever the turn (ER-5.11)."""

    target: Target = "user"


class ActivateFury(_Effect, frozen=True, tag="activate_fury"):
    """The target's printed Fury, at most once at a time (ER-9.2)."""

    target: Target = "user"


class PlaceRune(_Effect, frozen=True, tag="place_rune"):
    rune: Rune
    target: Target = "user"


class Resurrect(_Effect, frozen=True, tag="resurrect"):
    """Return a defeated character to play, untapped, with `hp` HP (ER-7.12)."""

    hp: int
    target: Target = "defeated_ally"


class HandSize(_Effect, frozen=True, tag="hand_size"):
    """Raise the owner's hand target and limit while in play (ER-5.5, ER-5.19)."""

    amount: int


class DualWield(_Effect, frozen=True, tag="dual_wield"):
    """The bearer may carry two one-handed weapons (ER-8.3)."""


Effect = (Damage | LoseHP | Heal | Modify | Draw | Ignore | PlayFromDeck | ActivateOrder
          | ActivateFury | PlaceRune | Resurrect | HandSize | DualWield)
STATIC_EFFECTS = (Modify, HandSize, DualWield)
"""The effects a static line may hold (they describe a state, not an event)."""


class Line(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One line of card text: "Key: effects", resolved at its timing (ER-6.13, ER-6.15)."""

    key: Key = ""
    when: When = "play"
    effects: tuple[Effect, ...] = ()


class OrderLine(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """"Turn N: bonus" (ER-5.10)."""

    turn: int
    attack: int = 0
    defense: int = 0
    spirit: int = 0


class _Printed(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """What every card prints, characters included."""

    id: str
    name: str
    original_name: str = ""
    affiliation: tuple[Affiliation, ...] = ()
    family: str = ""
    level: int = 1
    unique: bool = False
    act: int
    basic: bool = False
    charges: dict[str, int] = {}
    text: str = ""

    @property
    def family_id(self) -> str:
        """All evolution levels of a card share a family (ER-2.11, ER-12.3)."""
        return self.family or self.id

    @property
    def is_mercenary(self) -> bool:
        return MERCENARY in self.affiliation

    @property
    def guilds(self) -> tuple[str, ...]:
        return tuple(a for a in self.affiliation if a != MERCENARY)


class Character(_Printed, frozen=True, kw_only=True):
    """A character card (Personagem): placed on the line at setup, never in the deck."""

    attack: int
    defense: int
    spirit: int
    hp: int
    classes: tuple[ClassName, ...] = ()
    caste: Literal["courtier"] | None = None
    race: Race
    order: tuple[OrderLine, ...] = ()
    rune_capacity: int = 0
    starting_runes: tuple[Rune, ...] = ()
    initiative_bonus: int = 0
    warrior_item: ItemSubtype | None = None
    looter_target: ClassName | None = None
    spell_type: str | None = None
    ability: tuple[Line, ...] = ()
    fury: tuple[Line, ...] = ()

    def __post_init__(self) -> None:
        problem = character_problem(self)
        if problem:
            raise ValueError(f"{self.id} {self.name}: {problem}")

    @property
    def is_pure_mage(self) -> bool:
        """A Mage that is not multiclass: Spell chains and spell damage replacing its attack
        (ER-7.6, ER-9.4)."""
        return self.classes == ("mage",)


class Card(_Printed, frozen=True, kw_only=True):
    """A non-character card: Action, Spell, Theurgy, Item (with subtype) or Pet."""

    type: CardType
    subtype: ItemSubtype | None = None
    hands: Literal[1, 2] | None = None
    spell_type: str | None = None
    area: bool = False
    requires_classes: tuple[ClassName, ...] = ()
    requires_races: tuple[Race, ...] = ()
    requires_caste: Literal["courtier"] | None = None
    artisan: bool = False
    chain: ChainType | None = None
    lines: tuple[Line, ...] = ()

    def __post_init__(self) -> None:
        problem = card_problem(self)
        if problem:
            raise ValueError(f"{self.id} {self.name}: {problem}")

    @property
    def stays(self) -> bool:
        """Items other than Potions and Scrolls, and Pets, stay attached (ER-6.16)."""
        return self.type == "pet" or (self.type == "item"
                                      and self.subtype not in ("potion", "scroll"))

    @property
    def deals_magic_damage(self) -> bool:
        return any(isinstance(e, Damage) for line in self.lines for e in line.effects)


MULTICLASSES: frozenset[frozenset[str]] = frozenset(frozenset(pair) for pair in (
    ("mage", "warrior"), ("mage", "looter"), ("looter", "warrior"), ("warrior", "cleric"),
    ("cleric", "looter"), ("mage", "cleric")))
"""The only multiclass pairs with rules (ER-9.11 to ER-9.16, ER-9.18)."""


def character_problem(c: Character) -> str:
    """Why a character card breaks the catalog conventions of ER-2.3, ER-9 and ER-10, or ''."""
    checks = (
        (not c.affiliation, "needs guilds or the Mercenary affiliation (ER-2.3)"),
        (c.is_mercenary and len(c.affiliation) > 1, "a Mercenary has no guild (ER-2.3)"),
        (c.caste == "courtier" and (len(c.guilds) < 2 or c.classes),
         "a Courtier shows its caste in the class slot and has several guilds (ER-9.9)"),
        (c.caste is None and len(c.guilds) > 1, "only Courtiers are multi-guild (ER-9.9)"),
        (c.caste is None and not 1 <= len(c.classes) <= 2, "one class or two (ER-9.1)"),
        (len(c.classes) == 2 and frozenset(c.classes) not in MULTICLASSES,
         "not one of the six multiclass pairs (ER-9.18)"),
        (c.classes == ("warrior",) and c.warrior_item is None,
         "a Warrior names an Item subtype (ER-9.3)"),
        ("mage" in c.classes and c.warrior_item is not None,
         "Mage/Warrior has no Warrior second card (ER-9.11)"),
        (("looter" in c.classes) != (c.looter_target is not None),
         "a Looter, and only a Looter, names a class (ER-9.5)"),
        (("berserker" in c.classes) != bool(c.fury), "a Berserker, and only one, has a Fury"),
        ((c.race == "guemelite") != (c.spell_type is not None),
         "a Guemelite, and only one, has a spell type (ER-10.4)"),
        (len(c.starting_runes) > c.rune_capacity, "more starting runes than capacity (ER-11.3)"),
        (any(line.when == "play" for line in c.ability),
         ("a character is never played: its ability lines are static, combat, turn, "
         "end_of_combat or start_of_turn (ER-6.13)")),
        (any(line.when != "play" for line in c.fury), "a Fury resolves when activated (ER-9.2)"),
    )
    return next((why for bad, why in checks if bad), "") or _lines_problem(
        c.ability + c.fury, in_play=True, magic=False)


def card_problem(c: Card) -> str:
    """Why a non-character card breaks the vocabulary's conventions, or ''."""
    checks = (
        ((c.type == "item") != (c.subtype is not None), "Items, and only Items, have a subtype"),
        ((c.subtype == "weapon") != (c.hands is not None), "Weapons say one- or two-handed"),
        ((c.type == "spell") != (c.spell_type is not None), "Spells have a spell type"),
        (c.area and not _affects_many(c), "an Area of Effect spell affects all_* targets"),
        (c.artisan and c.type != "item", "Artisan cards are Items attached by Artisans"),
        (c.is_mercenary and c.guilds, "a card is of guilds or Mercenary, not both (ER-2.3)"),
        (len({getattr(e, "target", "") for line in c.lines for e in line.effects} & CHOSEN) > 1,
         "one Play names one target: a card has one kind of chosen target (ER-7.8)"),
    )
    return next((why for bad, why in checks if bad), "") or _lines_problem(
        c.lines, in_play=c.stays, magic=c.type in ("spell", "theurgy"))


def _affects_many(c: Card) -> bool:
    return c.type == "spell" and any(
        getattr(e, "target", "").startswith("all_") for line in c.lines for e in line.effects)


def _lines_problem(lines: tuple[Line, ...], in_play: bool, magic: bool) -> str:
    for line in lines:
        kind, _, value = line.key.partition(":")
        if (kind == "guild" and value not in GUILDS) or (kind == "race" and value not in RACES):
            return f"unknown key {line.key!r} (ER-6.15)"
        if line.when != "play" and line.when != "end_of_combat" and not in_play:
            return f"a {line.when} line needs a card that stays in play (ER-6.13)"
        if line.when == "static" and not all(isinstance(e, STATIC_EFFECTS) for e in line.effects):
            return "a static line holds only modify, hand_size or dual_wield"
        if line.when != "static" and any(isinstance(e, (HandSize, DualWield))
                                         for e in line.effects):
            return "hand_size and dual_wield belong on static lines"
        if line.when != "play" and any(isinstance(e, (Ignore, PlayFromDeck))
                                       for e in line.effects):
            return "ignore and play_from_deck act from a card played in Phase 2 (ER-6.8, ER-6.10)"
        if line.key.startswith("rune:") and line.when != "play":
            return "rune lines are abilities of a played card (ER-11.4)"
        if not magic and any(isinstance(e, Damage) for e in line.effects):
            return "only Spells and Theurgies deal (magic) damage (ER-7.4); use lose_hp"
    return ""


class Format(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A tournament format: which acts it admits and its charge cap (ER-3)."""

    name: str
    recent_acts: int | None = None
    """Cards of the last N acts are admitted (None: every act)."""
    basic: bool = True
    """Cards of the basic format are admitted whatever their act."""
    charge_cap: int | None = None
    """The deck charge cap (ER-2.13, ER-3.3); None: no cap (ER-3.2)."""


class CatalogFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The catalog file as written: [[formats]], [[characters]] and [[cards]] tables."""

    formats: tuple[Format, ...]
    characters: tuple[Character, ...]
    cards: tuple[Card, ...]


class Catalog:
    """The cards with their lookups built once (matches look cards up thousands of times)."""

    def __init__(self, data: CatalogFile) -> None:
        self.characters = data.characters
        self.cards = data.cards
        self.formats = {f.name: f for f in data.formats}
        every: tuple[Character | Card, ...] = data.characters + data.cards
        self.by_id: dict[str, Character | Card] = {c.id: c for c in every}
        self._by_name = {c.name.casefold(): c for c in every}
        if len(self.by_id) != len(every) or len(self._by_name) != len(every):
            raise ValueError("card IDs and names must be unique in a catalog")
        self.latest_act = max(c.act for c in every)
        self.charge_versions = tuple(sorted({v for c in every for v in c.charges}))
        self._families: dict[str, list[Character | Card]] = {}
        for c in every:
            self._families.setdefault(c.family_id, []).append(c)
        for members in self._families.values():
            members.sort(key=lambda c: c.level)

    def family(self, family_id: str) -> list[Character | Card]:
        """Every evolution level of a card family, lowest level first (ER-2.11)."""
        return self._families.get(family_id, [])

    def find(self, key: str) -> Character | Card | None:
        """A card by ID (ER-C01) or by name, case-insensitive."""
        return self.by_id.get(key.upper()) or self._by_name.get(key.casefold())


DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "eredan"


@cache
def load_catalog(path: Path | None = None) -> Catalog:
    """Decode the catalog; unknown fields, effects or wrong types are refused naming the file."""
    return read_catalog(path or DATA_DIR / "cards.toml", CatalogFile, Catalog)
