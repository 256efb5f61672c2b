"""What each perspective may see (the spec's "Hidden information" section).

Public: both lines with current stats, HP, tapped state, attachments, runes and Fury; format
and charge-table version; tickets and the drawn ticket; turn and combatants; deck and hand
sizes; discard piles; deck-out flags; scores; the cards played this turn once revealed; the
per-card statistics (ER-12.2). A seat also sees its own hand, its own deck's total charge (the
opponent's would hint at a list they may not see) and its own secret submission or discard
choice, not even how many cards the other's holds. Nobody sees a deck's order except the
organiser. Hidden cards appear as counts, never as instance ids: under eredan@1 an id is a
deck-list position, and even a dealt one (eredan@2) would let a seat follow a card it may not
see.
"""
from __future__ import annotations

from typing import Any

from engine.eredan.state import Fighter, Player, State
from engine.eredan.stats import hand_target, stats
from engine.ruleset import OMNISCIENT, Perspective, sees_seat

STATISTICS = ("played", "combats", "damage", "healing", "hp_lost", "defeats")


def view_of(state: State, perspective: Perspective) -> dict[str, Any]:
    return {
        "game": "eredan",
        "perspective": perspective,
        "turn": state.turn,
        "active": state.active,
        "first": state.first,
        "window": state.window,
        "to_act": state.pending if not (state.chance or state.over) else None,
        "over": state.over,
        "winner": state.winner,
        "reason": state.reason,
        "rule": state.rule,
        "format": state.format.name,
        "charge_table": state.charge_version,
        "ticket": state.ticket,
        "combatants": {"attacker": state.attacker, "defender": state.defender},
        "seats": [_seat(state, p, perspective) for p in state.players],
        "characters": [_fighter(state, f) for f in state.fighters.values()],
        "played": [_slot(state, s) for s in state.slots],
        "pending": [{"source": p.source, "seat": p.seat, "target": p.target, "amount": p.amount,
                     "kind": p.kind} for p in state.pendings],
        "statistics": statistics(state),
    }


def _card(state: State, cid: int) -> dict[str, Any]:
    card = state.cards[cid]
    return {"id": cid, "card": card.id, "name": card.name}


def _seat(state: State, player: Player, perspective: Perspective) -> dict[str, Any]:
    owner = sees_seat(perspective, player.seat)
    return {
        "seat": player.seat,
        "player": player.name,
        "tickets": player.tickets,
        "deck_charge": player.charge if owner else None,  # the sum would hint at the list
        "hand_count": len(player.hand),
        "hand": [_card(state, c) for c in player.hand] if owner else None,
        "hand_target": hand_target(state, player.seat),
        "deck_count": len(player.deck) + player.undealt,
        "deck": ([_card(state, c) for c in player.deck] if perspective == OMNISCIENT
                 else None),
        "discard": [_card(state, c) for c in player.discard],
        "deck_out": player.deck_out,
        "score": {"damage": player.damage, "healed": player.healed,
                  "total": player.damage + player.healed},
        "submitted": player.submission is not None,
        "submission": _submission(state, player) if owner else None,
        "discard_chosen": player.discarding is not None,
        "discarding": (list(player.discarding) if owner and player.discarding is not None
                       else None),
    }


def _submission(state: State, player: Player) -> list[dict[str, Any]] | None:
    if player.submission is None:
        return None
    return [_card(state, p.card) | {"target": p.target, "receiver": p.receiver}
            for p in player.submission]


def _fighter(state: State, fighter: Fighter) -> dict[str, Any]:
    card = fighter.card
    attack, defense, spirit = stats(state, fighter)
    return {
        "id": fighter.id, "card": card.id, "name": card.name, "owner": fighter.owner,
        "position": fighter.position, "hp": fighter.hp, "max_hp": card.hp,
        "attack": attack, "defense": defense, "spirit": spirit,
        "classes": list(card.classes), "caste": card.caste, "race": card.race,
        "tapped": fighter.tapped, "defeated": fighter.defeated,
        "attachments": [_card(state, c) for c in fighter.attachments],
        "runes": list(fighter.runes), "fury": fighter.fury_turn == state.turn > 0,
    }


def _slot(state: State, slot: Any) -> dict[str, Any]:
    return _card(state, slot.card) | {
        "seat": slot.seat, "user": slot.user, "target": slot.target, "receiver": slot.receiver,
        "pulled": slot.pulled, "activated": slot.activated, "ignored": slot.ignored,
    }


def statistics(state: State) -> list[dict[str, Any]]:
    """Per-card statistics of the match, from which experience is computed outside the rules
    (ER-12.1, ER-12.2). Only played cards and characters appear, so nothing hidden leaks."""
    ids = sorted({cid for cid, _ in state.stats})
    return [_card(state, cid) | {"seat": cid // 100} | {
        stat: state.stats.get((cid, stat), 0) for stat in STATISTICS} for cid in ids]
