"""Recycling and the Sovereign abilities it activates (VW-6.18 to VW-6.23, VW-8)."""
from __future__ import annotations

from engine.ruleset import Change, RuleViolation
from engine.vitorian import payment, zones
from engine.vitorian.changes import (
    AerialRecon,
    CircularLogistics,
    Modified,
    Moved,
    Recycled,
    ShieldGranted,
    Way,
)
from engine.vitorian.main_phase import own_unit
from engine.vitorian.state import Mod, State
from engine.vitorian.stats import has, is_type
from engine.vitorian.zones import require
from events.vitorian import Recycle

Changes = list[Change]
RECYCLE_WINDOWS = ("channel", "main", "combat", "orders", "gank", "barrage")


def recycle(state: State, ev: Recycle, out: Changes) -> None:
    player = state.players[ev.seat]
    if state.window not in RECYCLE_WINDOWS:
        raise RuleViolation("VW-6.20", f"no recycling during {state.window}: only at your "
                                       "decision points of a turn")
    require(player.recycled_turn != state.turn, "VW-6.21", "you already recycled this turn")
    if ev.resource not in player.area:
        raise RuleViolation("VW-6.18", f"resource {ev.resource} is not in your Resource Area")
    if ev.ability is not None and ev.ability not in player.sovereign.abilities:
        raise RuleViolation("VW-8.1", f"{player.sovereign.name} has no {ev.ability} ability")
    kind = state.resource_kind(ev.resource)
    check = CHECKS[ev.ability] if ev.ability is not None else _check_no_choice
    check(state, ev, kind)
    del player.area[ev.resource]
    player.convoy.append(ev.resource)
    player.convoy_public.add(ev.resource)
    player.recycled_turn = state.turn
    out.append(Recycled(seat=ev.seat, card=ev.resource, resource=kind, ability=ev.ability))
    if ev.ability is not None:
        EFFECTS[ev.ability](state, ev, out)


def _check_no_choice(state: State, ev: Recycle, kind: str) -> None:
    require(ev.unit is None and ev.to is None and not (ev.exhaust or ev.top or ev.bottom),
            "VW-6.18", "a recycle without an ability takes no further choices")


def _adjacent_columns_move(state: State, ev: Recycle) -> None:
    unit = own_unit(state, ev.seat, ev.unit, "VW-8.3")
    require(ev.to is not None and ev.to[0] == unit.row and abs(ev.to[1] - unit.col) == 1
            and 1 <= ev.to[1] <= 5, "VW-8.3", "Forced March moves to an adjacent column, same row")
    require(ev.to not in state.grid, "VW-2.4", f"cell {ev.to} is occupied")


def _check_forced_march(state: State, ev: Recycle, kind: str) -> None:
    require(kind == "P", "VW-8.2", "Forced March needs a recycled Personnel [P]")
    require(not (ev.exhaust or ev.top or ev.bottom), "VW-8.3", "Forced March costs nothing")
    _adjacent_columns_move(state, ev)


def _check_motor_overload(state: State, ev: Recycle, kind: str) -> None:
    require(kind == "S", "VW-8.4", "Motor Overload needs a recycled Supplies [S]")
    unit = own_unit(state, ev.seat, ev.unit, "VW-8.4")
    require(is_type(unit.card, "armored"), "VW-8.4", f"{unit.card.name} is not Armored")
    require(ev.to is None and not (ev.exhaust or ev.top or ev.bottom), "VW-8.4",
            "Motor Overload takes only a unit")


def _check_evasive(state: State, ev: Recycle, kind: str) -> None:
    unit = own_unit(state, ev.seat, ev.unit, "VW-8.6")
    to = ev.to
    require(to is not None and max(abs(to[0] - unit.row), abs(to[1] - unit.col)) == 1
            and to[0] in state.rows(ev.seat) and 1 <= to[1] <= 5, "VW-8.6",
            "Evasive Maneuvers moves to an adjacent cell of your rows")
    require(to not in state.grid, "VW-2.4", f"cell {to} is occupied")
    if has(state, unit, "brute"):
        require(to is not None and to[0] == unit.row, "VW-8.6", "a Brute keeps its row")
    need_s = has(state, unit, "heavy")
    require(ev.resource not in ev.exhaust, "VW-8.6", "the recycled resource cannot also pay")
    payment.check_ready(state, ev.seat, ev.exhaust, "VW-8.6")
    kinds = [state.resource_kind(r) for r in ev.exhaust]
    require(kinds == (["S"] if need_s else []), "VW-8.6",
            "a Heavy unit exhausts 1 [S]; other units pay nothing")


def _check_aerial_recon(state: State, ev: Recycle, kind: str) -> None:
    convoy = state.players[ev.seat].convoy + [ev.resource]
    looked = sorted(convoy[:2])
    require(ev.unit is None and ev.to is None and not ev.exhaust, "VW-8.7",
            "Aerial Recon takes only the top/bottom arrangement")
    require(sorted(ev.top + ev.bottom) == looked, "VW-8.7",
            "Aerial Recon puts each of the top 2 Convoy cards on the top or the bottom")


def _check_shield(state: State, ev: Recycle, kind: str) -> None:
    require(state.window == "channel" and state.active == ev.seat, "VW-8.8",
            "Shield markers are granted only at the end of your own Channel step")
    unit = own_unit(state, ev.seat, ev.unit, "VW-8.8")
    require(not unit.shield, "VW-8.8", f"{unit.card.name} already has a Shield marker")
    require(ev.to is None and not (ev.exhaust or ev.top or ev.bottom), "VW-8.8",
            "the Shield takes only a unit")


def _check_circular(state: State, ev: Recycle, kind: str) -> None:
    _check_no_choice(state, ev, kind)


def _do_move(state: State, ev: Recycle, out: Changes) -> None:
    assert ev.unit is not None and ev.to is not None
    unit = state.units[ev.unit]
    origin = (unit.row, unit.col)
    zones.exhaust(state, ev.seat, ev.exhaust)
    zones.place(state, unit, *ev.to)
    via: Way = "forced_march" if ev.ability == "forced_march" else "evasive_maneuvers"
    out.append(Moved(seat=ev.seat, card=unit.id, name=unit.card.name, origin=origin, to=ev.to,
                     via=via))


def _do_motor_overload(state: State, ev: Recycle, out: Changes) -> None:
    assert ev.unit is not None
    unit = state.units[ev.unit]
    unit.mods.append(Mod(attack=2, keywords=("bayonet_charge",), until="turn"))
    out.append(Modified(seat=ev.seat, card=unit.id, name=unit.card.name, source="Motor Overload",
                        attack=2, keywords=("bayonet_charge",), until="turn"))


def _do_aerial_recon(state: State, ev: Recycle, out: Changes) -> None:
    player = state.players[ev.seat]
    rest = [c for c in player.convoy if c not in ev.top and c not in ev.bottom]
    player.convoy = list(ev.top) + rest + list(ev.bottom)
    player.convoy_seen.update(ev.top + ev.bottom)
    player.convoy_public.difference_update(ev.top + ev.bottom)
    out.append(AerialRecon(seat=ev.seat, on_top=len(ev.top), on_bottom=len(ev.bottom),
                           top=ev.top, bottom=ev.bottom, secret_to=ev.seat))


def _do_shield(state: State, ev: Recycle, out: Changes) -> None:
    assert ev.unit is not None
    unit = state.units[ev.unit]
    unit.shield = True
    out.append(ShieldGranted(seat=ev.seat, card=unit.id, name=unit.card.name))


def _do_circular(state: State, ev: Recycle, out: Changes) -> None:
    state.players[ev.seat].circular_turn = state.turn
    out.append(CircularLogistics(seat=ev.seat))


CHECKS = {
    "forced_march": _check_forced_march, "motor_overload": _check_motor_overload,
    "evasive_maneuvers": _check_evasive, "aerial_recon": _check_aerial_recon,
    "shield": _check_shield, "circular_logistics": _check_circular,
}
EFFECTS = {
    "forced_march": _do_move, "motor_overload": _do_motor_overload,
    "evasive_maneuvers": _do_move, "aerial_recon": _do_aerial_recon, "shield": _do_shield,
    "circular_logistics": _do_circular,
}
