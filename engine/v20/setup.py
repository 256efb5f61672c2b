"""A V20 scene from its log header: each side's party checked against the catalog and the rules,
and every character put in the scene with its per-match values (V20-3.6).

A bad party is refused with one RuleViolation naming the character, the field and the rule:
an unknown sheet or weapon, blood above the maximum (V20-3.3 to 3.5), a Willpower pool above
the rating (V20-11.4), more damage than seven boxes (V20-9.1), two characters with one id.
"""
from __future__ import annotations

from engine.ruleset import RuleViolation
from engine.v20.catalog import Armor, Catalog, Character, load_catalog
from engine.v20.health import Track, status_of, thirst_torpor
from engine.v20.state import Fighter, State
from events.base import Header
from events.v20 import Ambush, Party, Scenario
from events.v20 import Fighter as Listed

NO_ARMOR = "none"


def initial_state(header: Header) -> State:
    """The scene before the ambushes: every character of side A's party, then side B's."""
    if len(header.seats) != 2:
        raise RuleViolation("V20-1.1", f"a scene is fought by two sides, not "
                            f"{len(header.seats)}")
    catalog = load_catalog()
    fighters: dict[str, Fighter] = {}
    for seat in header.seats:
        party = seat.setup
        if not isinstance(party, Party) or not party.fighters:
            raise RuleViolation("V20-1.1", f"seat {seat.seat} brings no party of characters")
        for listed in party.fighters:
            if listed.id in fighters:
                raise RuleViolation("V20-1.1", f"two characters are called {listed.id!r}: "
                                    "each needs an id of its own")
            fighters[listed.id] = _fighter(catalog, listed, seat.seat, len(fighters))
    scenario = header.scenario if isinstance(header.scenario, Scenario) else Scenario(
        name="scene")
    for ambush in scenario.ambushes:
        _check_ambush(fighters, ambush)
    if scenario.turn_limit is not None and scenario.turn_limit < 1:
        raise RuleViolation("V20-14.2", f"a turn limit is 1 or more, not {scenario.turn_limit}")
    return State(fighters=fighters, turn_limit=scenario.turn_limit,
                 parties=tuple(seat.setup.name for seat in header.seats))


def _fighter(catalog: Catalog, listed: Listed, seat: int, order: int) -> Fighter:
    sheet = catalog.characters.get(listed.character)
    where = f"character {listed.id!r}"
    if sheet is None:
        raise RuleViolation("V20-3.1", f"{where}: no sheet {listed.character!r} in the catalog")
    limits = catalog.limits(sheet)
    blood = sheet.blood.start if listed.blood is None else listed.blood
    if not 0 <= blood <= limits.max_blood:
        raise RuleViolation("V20-3.3", f"{where}: blood {blood} is outside 0-"
                            f"{limits.max_blood}, the most {sheet.name} holds")
    willpower = sheet.willpower if listed.willpower is None else listed.willpower
    if not 0 <= willpower <= sheet.willpower:
        raise RuleViolation("V20-11.4", f"{where}: a Willpower pool of {willpower} is outside "
                            f"0-{sheet.willpower}, its permanent rating")
    track = _track(where, listed.damage)
    return Fighter(
        id=listed.id, seat=seat, order=order, sheet=sheet, name=listed.name or sheet.name,
        track=track, status=thirst_torpor(sheet.kind, status_of(track, sheet.kind), blood),
        blood=blood,
        max_blood=limits.max_blood, willpower=willpower, path=sheet.path.rating,
        path_virtue=sheet.virtue(sheet.path_virtue), rounds=_rounds(catalog, sheet, listed),
        weapons=_weapons(catalog, sheet, listed), armor=_armor(catalog, sheet, listed),
        derangements=list(sheet.derangements))


def _track(where: str, damage: tuple[str, ...]) -> Track:
    try:
        return Track.from_boxes(damage)
    except ValueError as err:
        raise RuleViolation("V20-9.1", f"{where}: damage {list(damage)}: {err}") from err


def _carried(catalog: Catalog, sheet: Character, listed: Listed) -> dict[str, int | None]:
    if listed.weapons is None:
        return dict.fromkeys(sheet.weapons)
    carried: dict[str, int | None] = {}
    for gear in listed.weapons:
        if gear.weapon not in catalog.weapons:
            raise RuleViolation("V20-3.1", f"character {listed.id!r}: no weapon "
                                f"{gear.weapon!r} in the catalog")
        carried[gear.weapon] = gear.rounds
    return carried


def _weapons(catalog: Catalog, sheet: Character, listed: Listed) -> tuple[str, ...]:
    return tuple(dict.fromkeys((*catalog.unarmed, *_carried(catalog, sheet, listed))))


def _rounds(catalog: Catalog, sheet: Character, listed: Listed) -> dict[str, int]:
    rounds = {}
    for weapon_id, loaded in _carried(catalog, sheet, listed).items():
        weapon = catalog.weapons[weapon_id]
        if not weapon.needs_rounds:
            continue
        count = weapon.rounds if loaded is None else loaded
        if not 0 <= count <= weapon.rounds:
            raise RuleViolation("V20-5.10", f"character {listed.id!r}: {weapon.name} holds "
                                f"0-{weapon.rounds} rounds, not {count}")
        rounds[weapon_id] = count
    return rounds


def _armor(catalog: Catalog, sheet: Character, listed: Listed) -> Armor | None:
    chosen = sheet.armor if listed.armor is None else listed.armor
    if chosen in (None, NO_ARMOR):
        return None
    if chosen not in catalog.armor:
        raise RuleViolation("V20-3.1", f"character {listed.id!r}: no armor {chosen!r} in the "
                            "catalog")
    return catalog.armor[chosen]


def _check_ambush(fighters: dict[str, Fighter], ambush: Ambush) -> None:
    for role, who in (("ambusher", ambush.ambusher), ("target", ambush.target)):
        if who not in fighters:
            raise RuleViolation("V20-6.7", f"ambush: no character {who!r} ({role})")
    if fighters[ambush.ambusher].seat == fighters[ambush.target].seat:
        raise RuleViolation("V20-6.7", f"ambush: {ambush.ambusher} and {ambush.target} are on "
                            "the same side")
