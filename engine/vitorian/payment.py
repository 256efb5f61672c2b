"""Paying costs with the Diesel Economy (VW-6.12 to VW-6.17, VW-8.10).

Level cards exhaust `level` ready resources; the printed cost, chosen among those, goes back to
the Convoy (bottom, or top under Circular Logistics). Orders pay only their printed cost.
"""
from __future__ import annotations

from engine.ruleset import Change, RuleViolation
from engine.vitorian import zones
from engine.vitorian.cards import Card
from engine.vitorian.state import State
from engine.vitorian.zones import require


def _kinds(state: State, ids: tuple[int, ...]) -> dict[str, int]:
    """How many of the resources are Personnel [P] and how many Supplies [S]."""
    kinds = {"P": 0, "S": 0}
    for rid in ids:
        kind = state.resource_kind(rid)
        kinds[kind] = kinds.get(kind, 0) + 1
    return kinds


def check_ready(state: State, seat: int, ids: tuple[int, ...], rule: str) -> None:
    area = state.players[seat].area
    require(len(set(ids)) == len(ids), rule, "a resource is named twice")
    for rid in ids:
        tired = area.get(rid)
        if tired is None:
            raise RuleViolation(rule, f"resource {rid} is not in your Resource Area")
        if tired:
            raise RuleViolation(rule, f"resource {rid} is exhausted; only ready resources pay")


def check_level_payment(state: State, seat: int, card: Card, exhaust: tuple[int, ...],
                        returns: tuple[int, ...]) -> None:
    """Exhaust exactly Level ready resources holding the printed cost (VW-6.12, VW-6.15)."""
    check_ready(state, seat, exhaust, "VW-6.15")
    level = card.level or 0
    if len(exhaust) != level:
        raise RuleViolation("VW-6.12", f"{card.name} has Level {level}: exhaust {level} "
                                       f"resources, not {len(exhaust)}")
    require(len(set(returns)) == len(returns) and set(returns) <= set(exhaust), "VW-6.13",
            "the returned resources must be chosen among those just exhausted")
    _check_printed(state, card, returns, "VW-6.13")


def check_order_payment(state: State, seat: int, card: Card, returns: tuple[int, ...]) -> None:
    """Orders pay only their printed cost from ready resources (VW-6.16, VW-9.12)."""
    check_ready(state, seat, returns, "VW-6.16")
    _check_printed(state, card, returns, "VW-6.16")


def _check_printed(state: State, card: Card, returns: tuple[int, ...], rule: str) -> None:
    kinds = _kinds(state, returns)
    if kinds["P"] != card.cost_p or kinds["S"] != card.cost_s or \
            len(returns) != card.cost_p + card.cost_s:
        raise RuleViolation(rule, f"{card.name} returns exactly [P]{card.cost_p} "
                                  f"[S]{card.cost_s}, got [P]{kinds['P']} [S]{kinds['S']}")


def pay(state: State, seat: int, exhaust: tuple[int, ...], returns: tuple[int, ...],
        out: list[Change]) -> None:
    """Exhaust, then send the printed cost to the Convoy (VW-6.13, VW-6.14, VW-8.10)."""
    zones.exhaust(state, seat, exhaust)
    zones.exhaust(state, seat, returns)
    player = state.players[seat]
    zones.to_convoy(state, seat, returns, player.circular_turn == state.turn, out)


def ready_ids(state: State, seat: int, kind: str) -> list[int]:
    area = state.players[seat].area
    return [rid for rid, tired in area.items() if not tired and state.resource_kind(rid) == kind]


def level_options(state: State, seat: int, card: Card) -> list[tuple[tuple[int, ...],
                                                                     tuple[int, ...]]]:
    """Canonical payments (exhaust, returns): the most-[P] and the most-[S] mix that work."""
    ps, ss = ready_ids(state, seat, "P"), ready_ids(state, seat, "S")
    level = card.level or 0
    low = max(card.cost_p, level - len(ss))
    high = min(len(ps), level - card.cost_s)
    options = []
    for n_p in sorted({low, high}):
        if low > high or n_p < 0:
            continue
        exhaust = tuple(ps[:n_p] + ss[:level - n_p])
        returns = tuple(ps[:card.cost_p] + ss[:card.cost_s])
        options.append((exhaust, returns))
    return options


def order_option(state: State, seat: int, card: Card) -> tuple[int, ...] | None:
    ps, ss = ready_ids(state, seat, "P"), ready_ids(state, seat, "S")
    if len(ps) < card.cost_p or len(ss) < card.cost_s:
        return None
    return tuple(ps[:card.cost_p] + ss[:card.cost_s])
