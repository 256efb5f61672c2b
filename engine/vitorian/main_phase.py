"""Main Phase decisions: mobilize, standard moves, Equipment and Field Conditions (VW-7)."""
from __future__ import annotations

from engine.ruleset import Change, RuleViolation
from engine.vitorian import payment, zones
from engine.vitorian.cards import Card
from engine.vitorian.changes import FieldConditionPlayed, Linked, Mobilized, Moved
from engine.vitorian.state import State, Unit
from engine.vitorian.stats import has
from engine.vitorian.zones import require
from events.vitorian import LinkEquipment, Mobilize, Move, PlayFieldCondition

Changes = list[Change]


def card_in_hand(state: State, seat: int, cid: int, kind: str, rule: str) -> Card:
    if cid not in state.players[seat].hand:
        raise RuleViolation(rule, f"card {cid} is not in your hand")
    card = state.cards[cid]
    if card.type != kind:
        raise RuleViolation(rule, f"{card.name} is a {card.type}, not a {kind}")
    return card


def own_unit(state: State, seat: int, uid: int | None, rule: str) -> Unit:
    unit = state.units.get(uid) if uid is not None else None
    if unit is None or unit.owner != seat:
        raise RuleViolation(rule, f"unit {uid} is not a unit you control on the battlefield")
    return unit


def check_empty_own_cell(state: State, seat: int, cell: tuple[int, int], rule: str) -> None:
    row, col = cell
    if row not in state.rows(seat) or not 1 <= col <= 5:
        raise RuleViolation(rule, f"cell {cell} is not in your rows {state.rows(seat)} (VW-2.3)")
    if cell in state.grid:
        raise RuleViolation("VW-2.4", f"cell {cell} is occupied")


def mobilize(state: State, ev: Mobilize, out: Changes) -> None:
    card = card_in_hand(state, ev.seat, ev.card, "unit", "VW-7.2")
    check_empty_own_cell(state, ev.seat, ev.cell, "VW-7.3")
    payment.check_level_payment(state, ev.seat, card, ev.exhaust, ev.returns)
    state.players[ev.seat].hand.remove(ev.card)
    payment.pay(state, ev.seat, ev.exhaust, ev.returns, out)
    unit = Unit(ev.card, card, ev.seat, *ev.cell)
    state.units[unit.id] = unit
    state.grid[ev.cell] = unit.id
    out.append(Mobilized(seat=ev.seat, card=ev.card, name=card.name, cell=ev.cell))


def move_cost(state: State, unit: Unit) -> tuple[int, int]:
    """([P], [S]) to exhaust for a standard move: Light free, Heavy [P]+[S], else [P]."""
    if has(state, unit, "light"):
        return (0, 0)  # VW-7.7
    if has(state, unit, "heavy"):
        return (1, 1)  # VW-7.8
    return (1, 0)  # VW-7.6


def move(state: State, ev: Move, out: Changes) -> None:
    unit = own_unit(state, ev.seat, ev.unit, "VW-7.5")
    require(not unit.moved, "VW-7.10", f"{unit.card.name} already moved this turn")
    require(not has(state, unit, "brute"), "VW-7.9", f"{unit.card.name} is Brute")
    other = sum(state.rows(ev.seat)) - unit.row
    require(ev.to == (other, unit.col), "VW-7.5",
            f"a standard move keeps the column: {unit.card.name} may only go to "
            f"{(other, unit.col)}")
    require(ev.to not in state.grid, "VW-2.4", f"cell {ev.to} is occupied")
    payment.check_ready(state, ev.seat, ev.exhaust, "VW-7.6")
    want_p, want_s = move_cost(state, unit)
    kinds = [state.resource_kind(r) for r in ev.exhaust]
    require(kinds.count("P") == want_p and kinds.count("S") == want_s and
            len(kinds) == want_p + want_s, "VW-7.8" if want_s else "VW-7.6" if want_p else "VW-7.7",
            f"moving {unit.card.name} exhausts [P]{want_p} [S]{want_s}")
    origin = (unit.row, unit.col)
    zones.exhaust(state, ev.seat, ev.exhaust)
    zones.place(state, unit, *ev.to)
    unit.moved = True
    out.append(Moved(seat=ev.seat, card=unit.id, name=unit.card.name, origin=origin, to=ev.to))


def link_equipment(state: State, ev: LinkEquipment, out: Changes) -> None:
    card = card_in_hand(state, ev.seat, ev.card, "equipment", "VW-7.15")
    unit = own_unit(state, ev.seat, ev.unit, "VW-7.15")
    if unit.equipment is not None:
        raise RuleViolation("VW-7.16", f"{unit.card.name} already holds Equipment")
    payment.check_level_payment(state, ev.seat, card, ev.exhaust, ev.returns)
    state.players[ev.seat].hand.remove(ev.card)
    payment.pay(state, ev.seat, ev.exhaust, ev.returns, out)
    unit.equipment = ev.card
    out.append(Linked(seat=ev.seat, card=ev.card, name=card.name, unit=unit.id,
                      unit_name=unit.card.name, cell=(unit.row, unit.col)))


def play_field_condition(state: State, ev: PlayFieldCondition, out: Changes) -> None:
    card = card_in_hand(state, ev.seat, ev.card, "field_condition", "VW-7.13")
    require(state.players[ev.seat].field_condition is None, "VW-2.7",
            "you already have a Field Condition in play")
    payment.check_level_payment(state, ev.seat, card, ev.exhaust, ev.returns)
    state.players[ev.seat].hand.remove(ev.card)
    payment.pay(state, ev.seat, ev.exhaust, ev.returns, out)
    state.players[ev.seat].field_condition = ev.card
    out.append(FieldConditionPlayed(seat=ev.seat, card=ev.card, name=card.name))
