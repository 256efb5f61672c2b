"""The decisions open to the seat awaited, in canonical form.

Payments are many-to-one (which of several ready [P] to exhaust changes nothing but ids), so
each distinct choice is offered once with canonical resources; `apply` accepts any legal form.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any

from engine.vitorian import combat, payment
from engine.vitorian.cards import DrawCards, ReturnResources
from engine.vitorian.main_phase import move_cost
from engine.vitorian.orders import target_ok
from engine.vitorian.recycle import RECYCLE_WINDOWS
from engine.vitorian.state import State
from engine.vitorian.stats import has, is_type
from events.vitorian import (
    Barrage,
    DeclareAttack,
    EndPhase,
    Gank,
    KeepHand,
    LinkEquipment,
    Mobilize,
    Move,
    Mulligan,
    PassPriority,
    PayUpkeep,
    PlayFieldCondition,
    PlayOrder,
    Recycle,
)


def legal_events(state: State) -> list[Any]:
    if state.over or state.chance:
        return []
    seat = state.pending
    found = list(BY_WINDOW[state.window](state, seat))
    if state.window in RECYCLE_WINDOWS:
        found.extend(recycles(state, seat))
    return found


def _mulligan(state: State, seat: int) -> list[Any]:
    player = state.players[seat]
    by_level = sorted(player.hand, key=lambda c: (-(state.cards[c].level or 0), c))
    keep = KeepHand(seat=seat, bottom=tuple(by_level[:player.mulligans]))
    return [keep] + ([Mulligan(seat=seat)] if player.mulligans < 6 else [])


def _upkeep(state: State, seat: int) -> list[Any]:
    elites = sorted(u.id for u in state.units_of(seat) if u.card.is_elite)
    supplies = payment.ready_ids(state, seat, "S")
    options = []
    for n in range(min(len(elites), len(supplies)), -1, -1):
        for paid in combinations(elites, n):
            options.append(PayUpkeep(seat=seat, payments=tuple(zip(paid, supplies))))
    return options


def _channel(state: State, seat: int) -> list[Any]:
    return [PassPriority(seat=seat)]


def _main(state: State, seat: int) -> list[Any]:
    player = state.players[seat]
    found: list[Any] = [EndPhase(seat=seat)]
    empty = [(r, c) for r in state.rows(seat) for c in range(1, 6) if (r, c) not in state.grid]
    own = state.units_of(seat)
    for cid in dict.fromkeys(player.hand):
        card = state.cards[cid]
        for exhaust, returns in _level_options(state, seat, cid):
            if card.type == "unit":
                found += [Mobilize(seat=seat, card=cid, cell=cell, exhaust=exhaust,
                                   returns=returns) for cell in empty]
            elif card.type == "equipment":
                found += [LinkEquipment(seat=seat, card=cid, unit=u.id, exhaust=exhaust,
                                        returns=returns) for u in own if u.equipment is None]
            elif card.type == "field_condition" and player.field_condition is None:
                found.append(PlayFieldCondition(seat=seat, card=cid, exhaust=exhaust,
                                                returns=returns))
    found += _moves(state, seat)
    return found


def _level_options(state: State, seat: int, cid: int) -> list[tuple[tuple[int, ...],
                                                                     tuple[int, ...]]]:
    card = state.cards[cid]
    if card.type in ("unit", "equipment", "field_condition"):
        return payment.level_options(state, seat, card)
    return []


def _moves(state: State, seat: int) -> list[Any]:
    found = []
    ps, ss = payment.ready_ids(state, seat, "P"), payment.ready_ids(state, seat, "S")
    for unit in state.units_of(seat):
        if unit.moved or has(state, unit, "brute"):
            continue
        to = (sum(state.rows(seat)) - unit.row, unit.col)
        want_p, want_s = move_cost(state, unit)
        if to in state.grid or len(ps) < want_p or len(ss) < want_s:
            continue
        found.append(Move(seat=seat, unit=unit.id, to=to,
                          exhaust=tuple(ps[:want_p] + ss[:want_s])))
    return found


def _combat(state: State, seat: int) -> list[Any]:
    found: list[Any] = [EndPhase(seat=seat)]
    for unit in state.units_of(seat):
        if combat.can_attack(state, unit) is None:
            found += [DeclareAttack(seat=seat, attacker=unit.id, target=t)
                      for t in combat.legal_targets(state, unit)]
    return found


def _orders(state: State, seat: int) -> list[Any]:
    found: list[Any] = [PassPriority(seat=seat)]
    player = state.players[seat]
    for cid in dict.fromkeys(player.hand):
        card = state.cards[cid]
        if card.type != "order" or card.effect is None:
            continue
        returns = payment.order_option(state, seat, card)
        if returns is None:
            continue
        if isinstance(card.effect, (DrawCards, ReturnResources)):
            targets: list[int | None] = [None]
        else:
            targets = [u for u in state.units if target_ok(state, seat, card, u)]
        choice = _return_choice(state, seat, card, returns)
        found += [PlayOrder(seat=seat, card=cid, returns=returns, target=t, choice=choice)
                  for t in targets]
    return found


def _return_choice(state: State, seat: int, card: Any, paid: tuple[int, ...]) -> tuple[int, ...]:
    if not isinstance(card.effect, ReturnResources):
        return ()
    tired = [r for r, t in state.players[seat].area.items() if t and r not in paid]
    return tuple(tired[:card.effect.count])


def _gank(state: State, seat: int) -> list[Any]:
    found: list[Any] = [PassPriority(seat=seat)]
    for unit in state.units_of(seat):
        for dc in (-1, 1):
            event = Gank(seat=seat, unit=unit.id, to=(unit.row, unit.col + dc))
            try:
                combat.check_gank(state, event)
            except ValueError:
                continue
            found.append(event)
    return found


def _barrage(state: State, seat: int) -> list[Any]:
    found: list[Any] = [PassPriority(seat=seat)]
    supporter = combat.barrage_supporter(state, seat)
    supplies = payment.ready_ids(state, seat, "S")
    if supporter is not None and supplies:
        found.append(Barrage(seat=seat, supporter=supporter.id, resource=supplies[0]))
    return found


def recycles(state: State, seat: int) -> list[Any]:
    """One recycle per resource type, with each ability choice (VW-6.18, VW-8)."""
    player = state.players[seat]
    if player.recycled_turn == state.turn or not player.area:
        return []
    found: list[Any] = []
    for kind in ("P", "S"):
        ids = [r for r, tired in player.area.items() if state.resource_kind(r) == kind]
        ids.sort(key=lambda r: not player.area[r])  # prefer an exhausted one
        if ids:
            found.append(Recycle(seat=seat, resource=ids[0]))
            found += _ability_choices(state, seat, ids[0], kind)
    return found


def _ability_choices(state: State, seat: int, rid: int, kind: str) -> list[Any]:
    abilities = state.players[seat].sovereign.abilities
    found: list[Any] = []
    own = state.units_of(seat)
    if "forced_march" in abilities and kind == "P":
        found += [Recycle(seat=seat, resource=rid, ability="forced_march", unit=u.id, to=to)
                  for u in own for to in _sideways(state, u.row, u.col)]
    if "motor_overload" in abilities and kind == "S":
        found += [Recycle(seat=seat, resource=rid, ability="motor_overload", unit=u.id)
                  for u in own if is_type(u.card, "armored")]
    if "evasive_maneuvers" in abilities:
        found += _evasive(state, seat, rid)
    if "aerial_recon" in abilities:
        found += _recon(state, seat, rid)
    if "shield" in abilities and state.window == "channel":
        found += [Recycle(seat=seat, resource=rid, ability="shield", unit=u.id)
                  for u in own if not u.shield]
    if "circular_logistics" in abilities:
        found.append(Recycle(seat=seat, resource=rid, ability="circular_logistics"))
    return found


def _sideways(state: State, row: int, col: int) -> list[tuple[int, int]]:
    return [(row, c) for c in (col - 1, col + 1) if 1 <= c <= 5 and (row, c) not in state.grid]


def _evasive(state: State, seat: int, rid: int) -> list[Any]:
    found: list[Any] = []
    supplies = [s for s in payment.ready_ids(state, seat, "S") if s != rid]
    for unit in state.units_of(seat):
        heavy = has(state, unit, "heavy")
        if heavy and not supplies:
            continue
        rows = (unit.row,) if has(state, unit, "brute") else state.rows(seat)
        for row in rows:
            for col in (unit.col - 1, unit.col, unit.col + 1):
                if 1 <= col <= 5 and (row, col) != (unit.row, unit.col) and \
                        abs(row - unit.row) <= 1 and (row, col) not in state.grid:
                    found.append(Recycle(seat=seat, resource=rid, ability="evasive_maneuvers",
                                         unit=unit.id, to=(row, col),
                                         exhaust=(supplies[0],) if heavy else ()))
    return found


def _recon(state: State, seat: int, rid: int) -> list[Any]:
    looked = (state.players[seat].convoy + [rid])[:2]
    keep_order = Recycle(seat=seat, resource=rid, ability="aerial_recon", top=tuple(looked))
    to_bottom = Recycle(seat=seat, resource=rid, ability="aerial_recon", bottom=tuple(looked))
    return [keep_order, to_bottom]


BY_WINDOW = {
    "mulligan": _mulligan, "upkeep": _upkeep, "channel": _channel, "main": _main,
    "combat": _combat, "orders": _orders, "gank": _gank, "barrage": _barrage,
}
