"""The Vitorian Wars card catalog as data (data/vitorian/cards.toml) decoded into frozen Structs.

Card effects are a small vocabulary of data (Modify, Destroy, DrawCards, ReturnResources,
ReadyUnit); the engine implements each one and refuses cards whose effect it does not know.
"""
from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

import msgspec

from engine.catalog import read_catalog

Color = Literal["red", "blue", "white", "green", "gold", "gray"]
NATIONS: tuple[Color, ...] = ("red", "blue", "white", "green")
UTILITY: tuple[Color, ...] = ("gold", "gray")
Keyword = Literal[
    "light", "heavy", "brute", "ganking", "entrench", "piercing_ammo", "bayonet_charge",
    "reactive_armor", "swift", "long_range",
]
UnitType = Literal["infantry", "armored", "aerial_observer", "militia", "workers"]
Ability = Literal[
    "forced_march", "motor_overload", "evasive_maneuvers", "aerial_recon", "shield",
    "circular_logistics",
]
Duration = Literal["combat", "turn", "permanent"]


class Modify(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="modify"):
    """+attack/+defense and keywords for the units selected.

    Orders select their target ("own_combatant", "enemy_combatant", "own_unit", "enemy_unit");
    Equipment always modifies the linked unit ("linked"); a Field Condition modifies every unit
    of `affects` ("own", "opponent", "both"), optionally only those of `unit_type`.
    """

    target: Literal["own_combatant", "enemy_combatant", "own_unit", "enemy_unit", "linked",
                    "field"]
    attack: int = 0
    defense: int = 0
    keywords: tuple[Keyword, ...] = ()
    until: Duration = "combat"
    affects: Literal["own", "opponent", "both"] = "own"
    unit_type: UnitType | None = None


class Destroy(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="destroy"):
    """Destroy an enemy unit of Level at most max_level (a Shield marker saves it, VW-8.9)."""

    max_level: int
    target: Literal["enemy_unit", "enemy_combatant"] = "enemy_unit"


class DrawCards(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="draw"):
    count: int


class ReturnResources(msgspec.Struct, frozen=True, forbid_unknown_fields=True,
                      tag="return_resources"):
    """Put up to `count` exhausted resources of your Resource Area on the bottom of your Convoy,
    in the order chosen. Not a recycle: no Sovereign ability triggers (VW-6.19)."""

    count: int


class ReadyUnit(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="ready"):
    """Ready (unexhaust) a unit you control."""


Effect = Modify | Destroy | DrawCards | ReturnResources | ReadyUnit


class Card(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    id: str
    name: str
    type: Literal["sovereign", "unit", "order", "equipment", "field_condition", "resource"]
    original_name: str = ""
    color: Color | None = None
    colors: tuple[Color, ...] = ()
    sovereign_number: int | None = None
    abilities: tuple[Ability, ...] = ()
    level: int | None = None
    cost_p: int = 0
    cost_s: int = 0
    attack: int | None = None
    defense: int | None = None
    unit_types: tuple[UnitType, ...] = ()
    keywords: tuple[Keyword, ...] = ()
    resource: Literal["P", "S", "protection"] | None = None
    value: int | None = None
    effect: Effect | None = None
    text: str = ""

    @property
    def is_elite(self) -> bool:
        return self.type == "unit" and (self.level or 0) >= 5  # VW-3.15


class CatalogFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The catalog file as written: a list of [[cards]] tables."""

    cards: tuple[Card, ...]


class Catalog:
    """The cards with their lookups built once (matches look cards up thousands of times)."""

    def __init__(self, cards: tuple[Card, ...]) -> None:
        self.cards = cards
        self.by_id: dict[str, Card] = {card.id: card for card in cards}
        self._by_name = {card.name.casefold(): card for card in cards}
        if len(self.by_id) != len(cards) or len(self._by_name) != len(cards):
            raise ValueError("card IDs and names must be unique in a catalog")

    def find(self, key: str) -> Card | None:
        """A card by ID (ST01-001) or by name, case-insensitive."""
        return self.by_id.get(key.upper()) or self._by_name.get(key.casefold())


DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "vitorian"


@cache
def load_catalog(path: Path | None = None) -> Catalog:
    """Decode the catalog; unknown fields or wrong types are refused naming the file."""
    return read_catalog(path or DATA_DIR / "cards.toml", CatalogFile,
                        lambda data: Catalog(data.cards))
