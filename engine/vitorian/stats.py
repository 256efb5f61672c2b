"""A unit's current Attack, Defense and keywords: printed values, its Equipment, Field Conditions
and active modifiers (VW-7.14, VW-7.16, VW-9.22, VW-10.14)."""
from __future__ import annotations

from engine.vitorian.cards import Card, Modify
from engine.vitorian.state import State, Unit


def _field_mods(state: State, unit: Unit) -> list[Modify]:
    mods = []
    for player in state.players:
        fid = player.field_condition
        if fid is None:
            continue
        effect = state.cards[fid].effect
        if isinstance(effect, Modify) and _field_affects(effect, player.seat, unit):
            mods.append(effect)
    return mods


def _field_affects(effect: Modify, controller: int, unit: Unit) -> bool:
    side_ok = (effect.affects == "both"
               or (effect.affects == "own") == (unit.owner == controller))
    return side_ok and (effect.unit_type is None or effect.unit_type in unit.card.unit_types)


def _equipment(state: State, unit: Unit) -> Modify | None:
    if unit.equipment is None:
        return None
    effect = state.cards[unit.equipment].effect
    return effect if isinstance(effect, Modify) else None


def _static_mods(state: State, unit: Unit) -> list[Modify]:
    eq = _equipment(state, unit)
    return ([eq] if eq else []) + _field_mods(state, unit)


def attack(state: State, unit: Unit) -> int:
    base = (unit.card.attack or 0) + sum(m.attack for m in _static_mods(state, unit))
    return base + sum(m.attack for m in unit.mods)


def defense(state: State, unit: Unit) -> int:
    base = (unit.card.defense or 0) + sum(m.defense for m in _static_mods(state, unit))
    return base + sum(m.defense for m in unit.mods)


def keywords(state: State, unit: Unit) -> frozenset[str]:
    """Every keyword the unit has now; a keyword gained twice counts once (VW-10.14)."""
    found: set[str] = set(unit.card.keywords)
    for m in _static_mods(state, unit):
        found.update(m.keywords)
    for mod in unit.mods:
        found.update(mod.keywords)
    return frozenset(found)


def has(state: State, unit: Unit, keyword: str) -> bool:
    """Whether `keyword` is among keywords(state, unit), without building them all."""
    if keyword in unit.card.keywords:
        return True
    for mod in unit.mods:
        if keyword in mod.keywords:
            return True
    for static in _static_mods(state, unit):  # plain loops: this runs on most events
        if keyword in static.keywords:
            return True
    return False


def is_type(card: Card, unit_type: str) -> bool:
    return unit_type in card.unit_types
