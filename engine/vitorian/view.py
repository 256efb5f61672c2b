"""What each perspective may see (the spec's "Hidden information" section).

A seat sees its own hand and the cards it bottomed or looked at; never the opponent's hand, any
deck order, the Defense Piles or unknown Convoy cards. A spectator sees only public information;
the organiser sees everything. Hidden cards appear as counts or None, never as instance ids,
because ids would reveal deck-list positions (vitorian@1) and which card is where. What each
perspective may see of the events and changes of a step is the narration's
(engine.vitorian.narrate).
"""
from __future__ import annotations

from typing import Any

from engine.ruleset import OMNISCIENT, Perspective, sees_seat
from engine.vitorian import stats
from engine.vitorian.state import Player, State, Unit


def view_of(state: State, perspective: Perspective) -> dict[str, Any]:
    combat = state.combat
    return {
        "game": "vitorian",
        "perspective": perspective,
        "turn": state.turn,
        "active": state.active,
        "first": state.first,
        "window": state.window,
        "to_act": state.pending if not state.chance else None,
        "over": state.over,
        "winner": state.winner,
        "reason": state.reason,
        "seats": [_seat(state, p, perspective) for p in state.players],
        "units": [_unit(state, u) for u in sorted(state.units.values(), key=lambda u: u.id)],
        "combat": None if combat is None else {
            "attacker": combat.attacker, "target": combat.target, "step": combat.step,
            "attacking_seat": combat.attacking_seat, "barrage": dict(combat.barrage),
            "stack": [_card(state, o.card) | {"seat": o.seat, "target": o.target}
                      for o in combat.stack],
        },
    }


def _card(state: State, cid: int) -> dict[str, Any]:
    card = state.cards[cid]
    return {"id": cid, "card": card.id, "name": card.name}


def _seat(state: State, player: Player, perspective: Perspective) -> dict[str, Any]:
    owner = sees_seat(perspective, player.seat)
    return {
        "seat": player.seat,
        "player": player.name,
        "sovereign": {"card": player.sovereign.id, "name": player.sovereign.name,
                      "number": player.sovereign.sovereign_number},
        "hand_count": len(player.hand),
        "hand": [_card(state, c) for c in player.hand] if owner else None,
        "deck_count": len(player.deck),
        "deck": _deck(state, player, perspective),
        "convoy_count": len(player.convoy),
        "convoy": [_convoy_card(state, player, c, perspective) for c in player.convoy],
        "defense_count": len(player.defense),
        "resources": [{"id": r, "kind": state.resource_kind(r), "exhausted": tired}
                      for r, tired in player.area.items()],
        "discard": [_card(state, c) for c in player.discard],
        "field_condition": (_card(state, player.field_condition)
                            if player.field_condition is not None else None),
        "mulligans": player.mulligans,
        "recycled_this_turn": player.recycled_turn == state.turn,
        "skips_next_turn": player.skip_next,
    }


def _deck(state: State, player: Player, perspective: Perspective) -> list[Any] | None:
    """Deck order is hidden from both seats; the owner knows what they bottomed (VW-4.7)."""
    if perspective == OMNISCIENT:
        return [_card(state, c) for c in player.deck]
    if perspective == player.seat:
        known = set(player.bottomed)
        return [_card(state, c) if c in known else None for c in player.deck]
    return None


def _convoy_card(state: State, player: Player, cid: int,
                 perspective: Perspective) -> str | None:
    public = cid in player.convoy_public
    seen = cid in player.convoy_seen and perspective == player.seat
    if perspective == OMNISCIENT or public or seen:
        return state.resource_kind(cid)
    return None


def _unit(state: State, unit: Unit) -> dict[str, Any]:
    eq = unit.equipment
    return {
        "id": unit.id, "card": unit.card.id, "name": unit.card.name, "owner": unit.owner,
        "row": unit.row, "col": unit.col, "level": unit.card.level,
        "attack": stats.attack(state, unit), "defense": stats.defense(state, unit),
        "keywords": sorted(stats.keywords(state, unit)),
        "unit_types": list(unit.card.unit_types), "elite": unit.card.is_elite,
        "exhausted": unit.exhausted, "new": unit.new, "moved": unit.moved,
        "attacked": unit.attacked, "shield": unit.shield,
        "equipment": _card(state, eq) if eq is not None else None,
    }

