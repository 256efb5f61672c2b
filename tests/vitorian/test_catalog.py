"""The card catalog (data/vitorian/cards.toml) against the spec's "Catalog requirements",
VW-3 (components), VW-7.12, VW-10 (keywords) and VW-11 (colours and archetypes)."""
from __future__ import annotations

import re
from collections import Counter
from statistics import mean

import pytest

from engine.vitorian.cards import (
    NATIONS,
    UTILITY,
    Card,
    Destroy,
    DrawCards,
    Modify,
    ReadyUnit,
    ReturnResources,
    load_catalog,
)

CATALOG = load_catalog()
CARDS = CATALOG.cards
MANEUVER_TYPES = ("unit", "order", "equipment", "field_condition")
SET_CODES = {"ST00": None, "ST01": "red", "ST02": "blue", "ST03": "white", "ST04": "green",
             "ST05": "gold", "ST06": "gray"}
KEYWORDS = ("light", "heavy", "brute", "ganking", "entrench", "piercing_ammo", "bayonet_charge",
            "reactive_armor", "swift", "long_range")


def of(color: str | None = None, type_: str | None = None) -> list[Card]:
    """Maneuver cards of a colour and/or type (sovereigns have `colors`, not `color`)."""
    return [c for c in CARDS if (color is None or c.color == color)
            and (type_ is None or c.type == type_)]


def units(color: str | None = None) -> list[Card]:
    return of(color, "unit")


def maneuver(color: str) -> list[Card]:
    return [c for c in of(color) if c.type in MANEUVER_TYPES]


def sovereign(color: str) -> Card:
    found = [c for c in CARDS if c.type == "sovereign" and color in c.colors]
    assert len(found) == 1, f"{color}: {found}"
    return found[0]


def display(word: str) -> str:
    """How rules text spells a keyword or unit type: piercing_ammo -> Piercing Ammo."""
    return word.replace("_", " ").title()


# VW-3.16 identity -----------------------------------------------------------------------------

def test_vw_3_16_ids_unique_in_set_code_style() -> None:
    ids = [c.id for c in CARDS]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"ST\d\d-\d{3}", i) for i in ids)


def test_vw_3_16_set_code_matches_colour() -> None:
    """The set-code map documented at the top of cards.toml holds for every card."""
    for card in CARDS:
        colour = card.colors[0] if card.type == "sovereign" else card.color
        assert SET_CODES[card.id[:4]] == colour, card.id


def test_vw_3_5_names_unique() -> None:
    """Cards with the same name are copies (VW-3.5), so each design has its own name."""
    names = Counter(c.name.casefold() for c in CARDS)
    assert [n for n, k in names.items() if k > 1] == []


# Sovereigns (VW-3.1, VW-3.2, VW-3.16, VW-8) ---------------------------------------------------

def test_vw_3_2_one_sovereign_per_nation_numbers_3_to_5_all_occur() -> None:
    sovereigns = of(type_="sovereign")
    assert all(len(s.colors) == 1 and s.colors[0] in NATIONS for s in sovereigns)
    assert {s.colors[0] for s in sovereigns} == set(NATIONS)
    numbers = [s.sovereign_number for s in sovereigns]
    assert all(n in (3, 4, 5) for n in numbers)
    assert {3, 4, 5} <= set(numbers)


def test_vw_3_16_zahir_is_st01_001_red_with_forced_march_and_motor_overload() -> None:
    zahir = CATALOG.by_id["ST01-001"]
    assert (zahir.name, zahir.type, zahir.colors) == ("Marechal Zahir", "sovereign", ("red",))
    assert set(zahir.abilities) == {"forced_march", "motor_overload"}


@pytest.mark.parametrize(("color", "abilities"), [
    ("blue", {"evasive_maneuvers", "aerial_recon"}),  # VW-8.5, VW-8.7
    ("white", {"shield"}),  # VW-8.8
    ("green", {"circular_logistics"}),  # VW-8.10
])
def test_vw_8_sovereign_abilities(color: str, abilities: set[str]) -> None:
    card = sovereign(color)
    assert set(card.abilities) == abilities and card.text


# Maneuver cards -------------------------------------------------------------------------------

@pytest.mark.parametrize(("color", "minimum"), [(c, 12) for c in NATIONS] + [(c, 6) for c in UTILITY])
def test_catalog_maneuver_cards_per_colour(color: str, minimum: int) -> None:
    assert len(maneuver(color)) >= minimum


def test_vw_3_7_every_maneuver_card_has_exactly_one_colour_and_a_name() -> None:
    for card in CARDS:
        if card.type in MANEUVER_TYPES:
            assert card.color is not None and card.colors == () and card.name, card.id


@pytest.mark.parametrize("color", NATIONS)
def test_catalog_nation_units_span_levels_1_to_4_with_an_elite(color: str) -> None:
    """VW-3.15: an Elite is Level 5 or higher."""
    levels = {u.level for u in units(color)}
    assert {1, 2, 3, 4} <= levels
    assert any(u.is_elite for u in units(color))


@pytest.mark.parametrize("color", NATIONS)
def test_catalog_nation_has_two_orders_and_an_equipment(color: str) -> None:
    assert len(of(color, "order")) >= 2
    assert len(of(color, "equipment")) >= 1


def test_vw_11_6_gold_elite_finishers_with_high_printed_costs() -> None:
    """At least 3 Gold Elites, each costing more than any nation's Elite, and a Gold Field
    Condition."""
    elites = [u for u in units("gold") if u.is_elite]
    nation_top = max(u.cost_p + u.cost_s for c in NATIONS for u in units(c) if u.is_elite)
    assert len(elites) >= 3
    assert all(u.cost_p + u.cost_s > nation_top for u in elites)
    assert of("gold", "field_condition")


def test_vw_11_7_gray_militia_workers_scrap_and_accelerated_logistics() -> None:
    gray = units("gray")
    assert any("militia" in u.unit_types for u in gray)
    assert sum("workers" in u.unit_types for u in gray) >= 2
    for name in ("Scrap", "Accelerated Logistics"):
        card = CATALOG.find(name)
        assert card is not None and card.color == "gray"
        assert isinstance(card.effect, ReturnResources) and card.effect.count >= 1
    assert of("gray", "field_condition")


def test_vw_3_6_field_conditions_only_gold_or_gray() -> None:
    assert {c.color for c in of(type_="field_condition")} <= set(UTILITY)


# Keywords and archetypes (VW-10, VW-11) -------------------------------------------------------

@pytest.mark.parametrize("keyword", KEYWORDS)
def test_vw_10_every_keyword_on_at_least_two_cards(keyword: str) -> None:
    assert sum(keyword in u.keywords for u in units()) >= 2


def _with(color: str, keyword: str) -> list[Card]:
    return [u for u in units(color) if keyword in u.keywords]


def test_vw_11_2_red_bayonet_piercing_and_three_armored() -> None:
    assert _with("red", "bayonet_charge") and _with("red", "piercing_ammo")
    assert sum("armored" in u.unit_types for u in units("red")) >= 3


def test_vw_11_3_blue_light_swift_and_two_long_range_aerial_observers() -> None:
    assert _with("blue", "light") and _with("blue", "swift")
    observers = [u for u in _with("blue", "long_range") if "aerial_observer" in u.unit_types]
    assert len(observers) >= 2


def test_vw_11_4_white_entrench_and_reactive_armor() -> None:
    assert _with("white", "entrench") and _with("white", "reactive_armor")


def test_vw_11_5_green_heavy_and_brute_with_high_defense() -> None:
    assert _with("green", "heavy") and _with("green", "brute")
    for unit in _with("green", "heavy") + _with("green", "brute"):
        assert (unit.defense or 0) >= (unit.attack or 0), unit.name
    assert all((u.defense or 0) > (u.attack or 0) for u in _with("green", "brute"))


def test_vw_10_13_two_armored_units_outside_red() -> None:
    assert sum("armored" in u.unit_types for u in units() if u.color != "red") >= 2


def test_vw_10_12_long_range_only_on_aerial_observers() -> None:
    assert all("aerial_observer" in u.unit_types for u in units() if "long_range" in u.keywords)


def test_vw_7_12_at_most_one_of_light_heavy_brute() -> None:
    for unit in units():
        assert len({"light", "heavy", "brute"} & set(unit.keywords)) <= 1, unit.name


# Card fields (VW-3.13, VW-3.14) ---------------------------------------------------------------

def test_vw_3_14_levels_1_to_6_and_printed_cost_within_level() -> None:
    for card in CARDS:
        cost = card.cost_p + card.cost_s
        assert card.cost_p >= 0 and card.cost_s >= 0, card.id
        if card.type in ("unit", "equipment", "field_condition"):
            assert card.level is not None and 1 <= card.level <= 6, card.id
            assert 1 <= cost <= card.level, card.id
        elif card.type == "order":
            assert card.level is None and cost >= 1, card.id
        else:
            assert card.level is None and cost == 0, card.id


def test_vw_3_13_units_have_stats_and_types_others_do_not() -> None:
    for card in CARDS:
        if card.type == "unit":
            assert card.attack is not None and card.defense is not None, card.id
            assert card.attack >= 0 and card.defense >= 1 and card.unit_types, card.id
        else:
            assert card.attack is None and card.defense is None, card.id
            assert card.keywords == () and card.unit_types == (), card.id


def test_vw_3_8_vw_3_10_resource_cards_p_s_and_protection() -> None:
    resources = of(type_="resource")
    kinds = {(c.resource, c.value) for c in resources}
    assert {("P", 1), ("S", 1), ("protection", 2)} <= kinds
    assert all(c.color is None and c.colors == () and c.effect is None for c in resources)


# Effects and their texts ----------------------------------------------------------------------

EFFECT_TYPES = ("order", "equipment", "field_condition")


def test_effect_cards_have_a_structured_effect_and_text() -> None:
    for card in CARDS:
        if card.type in EFFECT_TYPES:
            assert card.effect is not None and card.text, card.id
        elif card.type in ("unit", "resource"):
            assert card.effect is None, card.id


def test_vw_7_16_equipment_modifies_the_linked_unit_permanently() -> None:
    for card in of(type_="equipment"):
        assert isinstance(card.effect, Modify), card.id
        assert (card.effect.target, card.effect.until) == ("linked", "permanent"), card.id


def test_vw_7_14_field_conditions_modify_the_field_permanently() -> None:
    for card in of(type_="field_condition"):
        assert isinstance(card.effect, Modify), card.id
        assert (card.effect.target, card.effect.until) == ("field", "permanent"), card.id


def test_vw_9_12_orders_last_a_combat_or_a_turn() -> None:
    for card in of(type_="order"):
        if isinstance(card.effect, Modify):
            assert card.effect.target not in ("linked", "field"), card.id
            assert card.effect.until in ("combat", "turn"), card.id


def test_no_effect_grants_a_movement_keyword() -> None:
    """VW-7.12: granting Light/Heavy/Brute could give a unit two of them."""
    for card in CARDS:
        if isinstance(card.effect, Modify):
            assert not {"light", "heavy", "brute"} & set(card.effect.keywords), card.id


TIMING = {"combat": "until end of combat", "turn": "until end of turn"}
TARGETS = {"own_combatant": "Your combatant unit", "own_unit": "Target unit you control",
           "enemy_combatant": "The enemy combatant unit", "enemy_unit": "Target enemy unit",
           "linked": "The linked unit", "field": "Each "}
AFFECTS = {"own": "you control", "opponent": "your opponent controls",
           "both": "each player controls"}


def _modify_phrases(card: Card, effect: Modify) -> list[str]:
    phrases = [TARGETS[effect.target]] + [display(k) for k in effect.keywords]
    if effect.attack or effect.defense:
        phrases.append(f"{effect.attack:+d}/{effect.defense:+d}")
    if effect.target == "linked":
        phrases.append("while this Equipment stays linked")
    elif effect.target == "field":
        phrases += ["while this Field Condition is in play", AFFECTS[effect.affects]]
        phrases += [display(effect.unit_type)] if effect.unit_type else []
    else:
        phrases.append(TIMING[effect.until])
    return phrases


def _phrases(card: Card) -> list[str]:
    """What a card's text must say for its effect, timing and scope."""
    effect = card.effect
    if isinstance(effect, Modify):
        return _modify_phrases(card, effect)
    if isinstance(effect, Destroy):
        target = "target enemy unit" if effect.target == "enemy_unit" else "the enemy combatant unit"
        return [f"Destroy {target}", f"Level {effect.max_level} or lower"]
    if isinstance(effect, DrawCards):
        return [f"Draw {effect.count} card"]
    if isinstance(effect, ReturnResources):
        return [f"up to {effect.count} exhausted resources", "bottom of your Convoy",
                "not a recycle"]
    if isinstance(effect, ReadyUnit):
        return ["Ready target unit you control"]
    return []


@pytest.mark.parametrize("card", [c for c in CARDS if c.effect is not None], ids=lambda c: c.id)
def test_effect_text_says_what_the_effect_does(card: Card) -> None:
    for phrase in _phrases(card):
        assert phrase in card.text, f"{card.id}: {phrase!r} not in {card.text!r}"


# Balance -------------------------------------------------------------------------------------

KEYWORD_VALUE = {"light": .5, "heavy": -.5, "brute": -1, "ganking": .5, "entrench": 1,
                 "piercing_ammo": 1, "bayonet_charge": 1, "reactive_armor": 1.5, "swift": 1,
                 "long_range": 1}


def surplus(unit: Card) -> float:
    """Stats above the curve documented in cards.toml: L + 2, half a point per printed cost
    above 1, a point more for Elites; keywords valued as listed."""
    level, cost = unit.level or 0, unit.cost_p + unit.cost_s
    expected = level + 2 + 0.5 * (cost - 1) + (1 if unit.is_elite else 0)
    value = (unit.attack or 0) + (unit.defense or 0) + sum(KEYWORD_VALUE[k] for k in unit.keywords)
    return value - expected


def test_units_follow_the_curve() -> None:
    for unit in units():
        assert -1 <= surplus(unit) <= 1, (unit.name, surplus(unit))


def test_nations_are_roughly_even() -> None:
    """Same unit curve in every nation and mean surplus within half a point."""
    curves = {c: sorted(u.level or 0 for u in units(c)) for c in NATIONS}
    assert len({tuple(v) for v in curves.values()}) == 1, curves
    means = [mean(surplus(u) for u in units(c)) for c in NATIONS]
    assert max(means) - min(means) <= 0.5, means
