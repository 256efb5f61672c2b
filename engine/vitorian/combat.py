"""The five-step combat protocol (VW-9) and the keywords that act in it (VW-10)."""
from __future__ import annotations

from engine.ruleset import Change
from engine.vitorian import flow, orders, zones
from engine.vitorian.changes import (
    AttackDeclared,
    Barraged,
    CombatValues,
    CombatVoid,
    Entrenched,
    Moved,
)
from engine.vitorian.main_phase import own_unit
from engine.vitorian.state import Combat, State, Unit
from engine.vitorian.stats import attack, defense, has
from engine.vitorian.zones import require
from events.vitorian import Barrage, DeclareAttack, Gank

Changes = list[Change]
STEP3 = (("gank", "attacker"), ("gank", "defender"), ("barrage", "attacker"),
         ("barrage", "defender"))
STEP3_NAMES = tuple(f"{window}:{side}" for window, side in STEP3)
"""Combat.step's values, in order."""


def legal_targets(state: State, attacker: Unit) -> list[int | None]:
    """The VW-9.5 target, Entrench redirections, or the Sovereign (VW-9.5 to 9.8, VW-10.12)."""
    default = _column_target(state, attacker)
    entrench: list[int | None] = [*_entrenched(state, 1 - attacker.owner)]
    if default is not None:
        return [default.id] + [uid for uid in entrench if uid != default.id]
    return entrench if entrench else [None]


def _column_target(state: State, attacker: Unit) -> Unit | None:
    """The VW-9.5 target: the enemy Vanguard unit of the attacker's column, otherwise its Rear
    Guard unit; a Long Range attacker skips the Vanguard unit (VW-10.12)."""
    enemy = 1 - attacker.owner
    rear = state.unit_at(state.rear_row(enemy), attacker.col)
    if has(state, attacker, "long_range"):
        return rear
    return state.unit_at(state.vanguard_row(enemy), attacker.col) or rear


def _entrenched(state: State, seat: int) -> list[int]:
    """The Entrench units `seat` controls (VW-9.7, VW-9.8, VW-10.6)."""
    return [u.id for u in state.units_of(seat) if has(state, u, "entrench")]


def _target_refusal(state: State, attacker: Unit, target: int | None) -> str:
    """The rule an illegal attack target breaks: VW-10.12 for the enemy Vanguard unit a Long
    Range attacker skips; VW-9.5 while the column holds an enemy unit (it is the target, only
    Entrench units may replace it, VW-9.7); with the column empty, VW-9.8 when the defender's
    Entrench units are the only targets, otherwise VW-9.6 (the attack hits the Sovereign)."""
    enemy = 1 - attacker.owner
    skipped = state.unit_at(state.vanguard_row(enemy), attacker.col)
    if (target is not None and skipped is not None and target == skipped.id
            and has(state, attacker, "long_range")):
        return "VW-10.12"
    if _column_target(state, attacker) is not None:
        return "VW-9.5"
    return "VW-9.8" if _entrenched(state, enemy) else "VW-9.6"


def can_attack(state: State, unit: Unit) -> str | None:
    """Why the unit may not be declared as an attacker now, or None (VW-9.3, VW-9.4)."""
    if unit.row != state.vanguard_row(unit.owner):
        return "VW-9.3: only a unit in your Vanguard attacks"
    if unit.exhausted:
        return "VW-9.3: the attacker must be ready"
    if unit.attacked:
        return "VW-9.4: each unit attacks at most once per turn"
    if unit.new and not has(state, unit, "bayonet_charge"):
        return "VW-7.4: a newly mobilized unit cannot attack (except Bayonet Charge, VW-10.9)"
    return None


def declare_attack(state: State, ev: DeclareAttack, out: Changes) -> None:
    unit = own_unit(state, ev.seat, ev.attacker, "VW-9.3")
    why = can_attack(state, unit)
    if why:
        rule, _, reason = why.partition(": ")
        require(False, rule, f"{unit.card.name}: {reason}")
    targets = legal_targets(state, unit)
    if ev.target not in targets:
        require(False, _target_refusal(state, unit, ev.target),
                f"{unit.card.name} may target only {_names(state, targets)}")
    unit.attacked = True
    if not has(state, unit, "swift"):
        unit.exhausted = True  # VW-9.9, VW-10.11
    state.combat = Combat(unit.id, ev.target, ev.seat)
    target = (state.name(ev.target) if ev.target is not None
              else state.players[1 - ev.seat].sovereign.name)
    out.append(AttackDeclared(seat=ev.seat, card=unit.id, name=unit.card.name, target=ev.target,
                              target_name=target))
    state.window, state.pending = "orders", 1 - ev.seat  # VW-9.11: the defender opens


def _names(state: State, targets: list[int | None]) -> str:
    return ", ".join(state.name(t) if t is not None else "the Sovereign" for t in targets)


def pass_priority(state: State, seat: int, out: Changes) -> None:
    combat = state.combat
    assert combat is not None
    if state.window == "orders":
        if seat == combat.defending_seat:
            state.pending = combat.attacking_seat
            return
        orders.resolve_stack(state, out)
        if not state.over:
            begin_step3(state, out)
        return
    next_step3(state, out)


def begin_step3(state: State, out: Changes) -> None:
    """Ganking, then Support Barrage; skipped when the Sovereign is the target (VW-9.15,
    VW-9.18, VW-10.4)."""
    combat = state.combat
    assert combat is not None
    if combat.target is None or not _combatants_present(state, combat):
        resolve_damage(state, out)
        return
    combat.step = "gank:attacker"
    _open(state, combat)


def _open(state: State, combat: Combat) -> None:
    window, side = combat.step.split(":")
    state.window = window
    state.pending = combat.attacking_seat if side == "attacker" else combat.defending_seat


def next_step3(state: State, out: Changes) -> None:
    combat = state.combat
    assert combat is not None
    index = STEP3_NAMES.index(combat.step) + 1
    if index == len(STEP3_NAMES):
        resolve_damage(state, out)
        return
    combat.step = STEP3_NAMES[index]
    _open(state, combat)


def _combatants_present(state: State, combat: Combat) -> bool:
    """Attacker and target unit still on the battlefield (VW-9.10)."""
    return combat.attacker in state.units and (combat.target is None or
                                               combat.target in state.units)


def _combatants(state: State, combat: Combat) -> tuple[Unit, Unit]:
    """Attacker and target unit of a unit-targeted combat still on the battlefield."""
    assert combat.target is not None
    return state.units[combat.attacker], state.units[combat.target]


def combatant_of(state: State, seat: int) -> Unit | None:
    combat = state.combat
    if combat is None:
        return None
    uid = combat.attacker if seat == combat.attacking_seat else combat.target
    return state.units.get(uid) if uid is not None else None


def check_gank(state: State, ev: Gank) -> Unit:
    combat = state.combat
    assert combat is not None
    unit = own_unit(state, ev.seat, ev.unit, "VW-10.4")
    require(combat.target is not None and _combatants_present(state, combat), "VW-10.4",
            "Ganking reinforces a combat between two units still on the battlefield")
    require(has(state, unit, "ganking"), "VW-10.4", f"{unit.card.name} lacks Ganking")
    require(not unit.exhausted, "VW-10.4", f"{unit.card.name} must be ready to Gank")
    require(unit.id not in (combat.attacker, combat.target), "VW-10.4",
            "a combatant cannot Gank")
    require(ev.to[0] == unit.row and abs(ev.to[1] - unit.col) == 1 and 1 <= ev.to[1] <= 5,
            "VW-10.4", "Ganking moves one column sideways within the row")
    require(ev.to not in state.grid, "VW-2.4", f"cell {ev.to} is occupied")
    require(_gank_reinforces(state, combat, ev.seat, ev.to), "VW-10.4",
            "after a Ganking move the unit must enable Barrage or Flanking")
    return unit


def _gank_reinforces(state: State, combat: Combat, seat: int, to: tuple[int, int]) -> bool:
    attacker, target = _combatants(state, combat)
    if seat == combat.attacking_seat:
        behind = to == (state.rear_row(seat), attacker.col)
        return behind or abs(to[1] - target.col) == 1
    return (target.row == state.vanguard_row(seat)
            and to == (state.rear_row(seat), target.col))


def gank(state: State, ev: Gank, out: Changes) -> None:
    unit = check_gank(state, ev)
    origin = (unit.row, unit.col)
    zones.place(state, unit, *ev.to)
    unit.exhausted = True
    out.append(Moved(seat=ev.seat, card=unit.id, name=unit.card.name, origin=origin, to=ev.to,
                     via="ganking"))


def barrage_supporter(state: State, seat: int) -> Unit | None:
    """The Rear Guard unit behind the seat's Vanguard combatant, if any (VW-9.16, VW-9.17)."""
    unit = combatant_of(state, seat)
    if unit is None or unit.row != state.vanguard_row(seat):
        return None
    supporter = state.unit_at(state.rear_row(seat), unit.col)
    return supporter if supporter is not None and supporter.owner == seat else None


def barrage(state: State, ev: Barrage, out: Changes) -> None:
    combat = state.combat
    assert combat is not None
    supporter = barrage_supporter(state, ev.seat)
    require(supporter is not None and supporter.id == ev.supporter, "VW-9.17",
            "the supporter must be your Rear Guard unit behind your Vanguard combatant")
    assert supporter is not None
    area = state.players[ev.seat].area
    require(area.get(ev.resource) is False and state.resource_kind(ev.resource) == "S",
            "VW-9.16", "Barrage exhausts 1 ready [S] from your Resource Area")
    area[ev.resource] = True  # VW-9.19
    combat.barrage[ev.seat] = attack(state, supporter)  # VW-9.18
    out.append(Barraged(seat=ev.seat, card=supporter.id, name=supporter.card.name,
                        attack=combat.barrage[ev.seat]))
    next_step3(state, out)


def resolve_damage(state: State, out: Changes) -> None:
    """Steps 4 and 5 (VW-9.20 to VW-9.27), then back to the Combat Phase."""
    combat = state.combat
    assert combat is not None
    hits = 0
    if not _combatants_present(state, combat):
        out.append(CombatVoid(seat=combat.attacking_seat))
    elif combat.target is None:
        hits = 1
    else:
        hits = _unit_combat(state, combat, out)
    if hits and any(has(state, u, "entrench") for u in state.units_of(combat.defending_seat)):
        out.append(Entrenched(seat=combat.defending_seat))
        hits = 0
    if hits:
        zones.hit_sovereign(state, combat.defending_seat, out)
    end_combat(state, out)


def combat_values(state: State, combat: Combat) -> tuple[int, int, int, int]:
    """(attacker Attack, attacker Defense, target Attack, target Defense) at step 4 (VW-9.22)."""
    att, tgt = _combatants(state, combat)
    flank = 1 if is_flanked(state, att, tgt) else 0
    a_att = attack(state, att) + combat.barrage.get(combat.attacking_seat, 0)
    a_def = max(0, defense(state, att)) * (2 if has(state, att, "reactive_armor") else 1)
    t_att = attack(state, tgt) + combat.barrage.get(combat.defending_seat, 0) - flank
    t_def = max(0, defense(state, tgt) - flank) * (2 if has(state, tgt, "reactive_armor") else 1)
    return max(0, a_att), a_def, max(0, t_att), t_def


def is_flanked(state: State, attacker: Unit, target: Unit) -> bool:
    """Another attacker unit in a column adjacent to the target's (VW-10.1, VW-10.2)."""
    return any(u.id != attacker.id and abs(u.col - target.col) == 1
               for u in state.units_of(attacker.owner))


def _unit_combat(state: State, combat: Combat, out: Changes) -> int:
    a_att, a_def, t_att, t_def = combat_values(state, combat)
    att, tgt = _combatants(state, combat)
    out.append(CombatValues(seat=combat.attacking_seat, attacker=att.id,
                            attacker_name=att.card.name, attack=a_att, defense=a_def,
                            target=tgt.id, target_name=tgt.card.name, target_attack=t_att,
                            target_defense=t_def))
    piercing = has(state, att, "piercing_ammo") and a_att > t_def  # VW-10.8
    target_dies = a_att > 0 and a_att >= t_def  # VW-9.20, VW-9.23
    attacker_dies = t_att > 0 and t_att >= a_def  # VW-9.21
    destroyed = zones.destroy(state, tgt, out) if target_dies else False
    if attacker_dies:
        zones.destroy(state, att, out)
    return 1 if piercing and destroyed else 0


def end_combat(state: State, out: Changes) -> None:
    for unit in state.units.values():
        unit.mods = [m for m in unit.mods if m.until != "combat"]
    state.combat = None
    if not state.over:
        flow.begin_combat_phase(state, out)
