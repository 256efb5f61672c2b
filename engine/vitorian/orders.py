"""Orders: played in the Order Window onto a LIFO stack, resolved after both pass
(VW-9.11 to VW-9.14), with the effect vocabulary of the catalog."""
from __future__ import annotations

from engine.ruleset import Change, RuleViolation, UnsupportedRule
from engine.vitorian import payment, zones
from engine.vitorian.cards import Card, Destroy, DrawCards, Modify, ReadyUnit, ReturnResources
from engine.vitorian.changes import Modified, OrderFizzled, OrderPlayed, Readied
from engine.vitorian.main_phase import card_in_hand
from engine.vitorian.state import Mod, OrderOnStack, State
from events.vitorian import PlayOrder

Changes = list[Change]


def combatant_id(state: State, seat: int) -> int | None:
    combat = state.combat
    if combat is None:
        return None
    return combat.attacker if seat == combat.attacking_seat else combat.target


def target_ok(state: State, seat: int, card: Card, target: int | None) -> bool:
    """Whether `target` is a legal target for the card's effect, for the seat playing it."""
    effect = card.effect
    if isinstance(effect, (DrawCards, ReturnResources)):
        return target is None
    unit = state.units.get(target) if target is not None else None
    if unit is None or not isinstance(effect, (Modify, Destroy, ReadyUnit)):
        return False
    role = "own_unit" if isinstance(effect, ReadyUnit) else effect.target
    if role == "own_combatant":
        return target == combatant_id(state, seat)
    if role == "enemy_combatant":
        ok = target == combatant_id(state, 1 - seat)
    elif role == "own_unit":
        return unit.owner == seat
    elif role == "enemy_unit":
        ok = unit.owner != seat
    else:
        return False
    if isinstance(effect, Destroy):
        ok = ok and (unit.card.level or 0) <= effect.max_level
    return ok


def choice_ok(state: State, seat: int, card: Card, choice: tuple[int, ...]) -> bool:
    effect = card.effect
    if not isinstance(effect, ReturnResources):
        return not choice
    area = state.players[seat].area
    return (len(choice) <= effect.count and len(set(choice)) == len(choice)
            and all(area.get(rid) is True for rid in choice))


def play_order(state: State, ev: PlayOrder, out: Changes) -> None:
    card = card_in_hand(state, ev.seat, ev.card, "order", "VW-9.12")
    if card.effect is None:
        raise UnsupportedRule("VW-1.3", f"{card.name} has no effect the engine knows")
    payment.check_order_payment(state, ev.seat, card, ev.returns)
    if not target_ok(state, ev.seat, card, ev.target):
        raise RuleViolation("VW-9.14", f"{ev.target} is not a legal target for {card.name}")
    if not choice_ok(state, ev.seat, card, ev.choice):
        raise RuleViolation("VW-9.14", f"{card.name}: choose up to the allowed number of your "
                                       "exhausted resources")
    state.players[ev.seat].hand.remove(ev.card)
    payment.pay(state, ev.seat, (), ev.returns, out)
    assert state.combat is not None
    state.combat.stack.append(OrderOnStack(ev.seat, ev.card, ev.target, ev.choice))
    out.append(OrderPlayed(seat=ev.seat, card=ev.card, name=card.name, target=ev.target))


def resolve_stack(state: State, out: Changes) -> None:
    """Top to bottom; an Order whose target is gone does nothing; then the discard pile."""
    combat = state.combat
    assert combat is not None
    while combat.stack and not state.over:
        entry = combat.stack.pop()
        card = state.cards[entry.card]
        if target_ok(state, entry.seat, card, entry.target):
            RESOLVE[type(card.effect)](state, entry, card, out)  # type: ignore[index]
        else:
            out.append(OrderFizzled(seat=entry.seat, card=entry.card, name=card.name))
        state.players[entry.seat].discard.append(entry.card)


def _modify(state: State, entry: OrderOnStack, card: Card, out: Changes) -> None:
    effect = card.effect
    assert isinstance(effect, Modify) and entry.target is not None
    unit = state.units[entry.target]
    unit.mods.append(Mod(effect.attack, effect.defense, tuple(effect.keywords), effect.until))
    out.append(Modified(seat=unit.owner, card=unit.id, name=unit.card.name, source=card.name,
                        attack=effect.attack, defense=effect.defense,
                        keywords=tuple(effect.keywords), until=effect.until))


def _destroy(state: State, entry: OrderOnStack, card: Card, out: Changes) -> None:
    assert entry.target is not None
    zones.destroy(state, state.units[entry.target], out)


def _draw(state: State, entry: OrderOnStack, card: Card, out: Changes) -> None:
    assert isinstance(card.effect, DrawCards)
    zones.draw(state, entry.seat, card.effect.count, out)


def _return(state: State, entry: OrderOnStack, card: Card, out: Changes) -> None:
    """Not a recycle: no Sovereign ability (VW-6.19)."""
    area = state.players[entry.seat].area
    still = tuple(rid for rid in entry.choice if area.get(rid) is True)
    zones.to_convoy(state, entry.seat, still, False, out)


def _ready(state: State, entry: OrderOnStack, card: Card, out: Changes) -> None:
    assert entry.target is not None
    unit = state.units[entry.target]
    unit.exhausted = False
    out.append(Readied(seat=unit.owner, card=unit.id, name=unit.card.name))


RESOLVE = {Modify: _modify, Destroy: _destroy, DrawCards: _draw, ReturnResources: _return,
           ReadyUnit: _ready}
