"""A greedy Vitorian Wars bot: sound habits and a one-step look at each possible attack.

It keeps playable hands, pays its upkeep, fills the Vanguard with the biggest units it can pay,
equips its best unit, attacks the Sovereign through open columns and only takes fights it wins
or trades up, plays combat Orders that help its own combatant, and Barrages when it can.

It decides from its seat's observation only (engine/bots.py): the habits read `sight.known`,
where every card the seat may not see is a HIDDEN hole (spec "Hidden information"); the attack
lookahead plays combat out on a state determinized from that observation with the bot's own rng,
dealt once per decision and only when an attack on a unit needs it.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.bots import Observation, require_observation
from engine.vitorian import combat, stats
from engine.vitorian.determinize import VitorianSight, determinize
from engine.vitorian.rules import RULES
from engine.vitorian.state import State
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


class Lookahead:
    """The state an attack is tried on: determinized from the sight with the bot's rng the first
    time an attack needs it, then shared by every attack of the same decision."""

    def __init__(self, sight: VitorianSight, rng: random.Random) -> None:
        self.sight = sight
        self.rng = rng
        self._world: State | None = None

    def world(self) -> State:
        if self._world is None:
            self._world = determinize(self.sight, self.rng)
        return self._world


class GreedyBot:
    name = "greedy"

    def choose(self, seen: Observation, legal: Sequence[Any], rng: random.Random) -> Any:
        sight = require_observation(seen, VitorianSight)
        look = Lookahead(sight, rng)
        scored = [(self.score(sight, look, event), i) for i, event in enumerate(legal)]
        best = max(score for score, _ in scored)
        ties = [i for score, i in scored if score == best]
        return legal[ties[rng.randrange(len(ties))]]

    def score(self, sight: VitorianSight, look: Lookahead, event: Any) -> float:
        kind = type(event)
        fixed = FIXED_SCORES.get(kind)
        if fixed is not None:  # no need to read the sight (made on first read) for these
            return fixed
        if kind is PayUpkeep:
            return float(len(event.payments))
        state, seat = sight.known, sight.seat
        if kind is Mulligan:
            return 1.0 if _playable_units(state, seat) < 2 else -1.0
        if kind is Mobilize:
            return _mobilize_score(state, event)
        if kind is LinkEquipment:
            unit = state.units[event.unit]
            return 6.0 + stats.attack(state, unit) * 0.1
        if kind is Move:
            return _move_score(state, seat, event)
        if kind is DeclareAttack:
            return _attack_score(look, event)
        if kind is PlayOrder:
            return _order_score(state, seat, event)
        if kind is Recycle:
            return _recycle_score(state, seat, event)
        return -1.0


FIXED_SCORES: dict[type, float] = {KeepHand: 0.0, PlayFieldCondition: 6.5, Barrage: 2.0,
                                   Gank: 2.0, EndPhase: 0.0, PassPriority: 0.0}
"""Decisions the greedy bot scores the same whatever the table shows."""


def _playable_units(state: State, seat: int) -> int:
    return sum(1 for c in state.players[seat].hand
               if state.cards[c].type == "unit" and (state.cards[c].level or 9) <= 3)


def _mobilize_score(state: State, event: Mobilize) -> float:
    card = state.cards[event.card]
    score = 5.0 + (card.level or 0)
    row, col = event.cell
    vanguard = row == state.vanguard_row(event.seat)
    if vanguard:  # attacks come only from the Vanguard (VW-9.3); Brutes never move up (VW-7.9)
        score += 1.0 if "brute" in card.keywords else 0.5
    enemy = 1 - event.seat
    blocked = state.unit_at(state.vanguard_row(enemy), col) or state.unit_at(
        state.rear_row(enemy), col)
    if vanguard and blocked is None:
        score += 0.3
    if card.is_elite and sum(1 for r in state.players[event.seat].area
                             if state.resource_kind(r) == "S") < 2:
        score -= 4.0
    return score


def _move_score(state: State, seat: int, event: Move) -> float:
    unit = state.units[event.unit]
    to_front = event.to[0] == state.vanguard_row(seat)
    strong = stats.attack(state, unit) >= 2
    return 1.0 if to_front and strong and not unit.attacked else -1.0


def _attack_score(look: Lookahead, event: DeclareAttack) -> float:
    """Look one step ahead: play the combat out with every later window passed, on a state
    sampled from what the seat saw (the units are public, so only hidden cards are guessed)."""
    if event.target is None:
        return 10.0
    state = look.world()
    trial = state.copy()
    try:
        RULES.apply(trial, event)
        _pass_through_combat(trial)
    except ValueError:
        return -1.0
    lost = event.attacker not in trial.units
    killed = event.target not in trial.units
    my_level = state.units[event.attacker].card.level or 0
    their_level = state.units[event.target].card.level or 0
    if killed and not lost:
        return 8.0 + their_level
    if killed and lost:
        return 3.0 + their_level - my_level if their_level >= my_level else -1.0
    return -2.0


def _pass_through_combat(state: State) -> None:
    while state.combat is not None and not state.over:
        RULES.apply(state, PassPriority(seat=state.pending))


def _order_score(state: State, seat: int, event: PlayOrder) -> float:
    if event.target is None:
        return 1.0
    unit = state.units[event.target]
    friendly = unit.owner == seat
    in_combat = state.combat is not None and event.target in (state.combat.attacker,
                                                              state.combat.target)
    return 3.0 if in_combat else (1.5 if not friendly else 0.5)


def _recycle_score(state: State, seat: int, event: Recycle) -> float:
    if event.ability == "shield":
        return 1.0
    if event.ability == "motor_overload" and event.unit is not None:
        unit = state.units[event.unit]
        ready_attacker = state.window == "combat" and combat.can_attack(state, unit) is None
        return 1.5 if ready_attacker or (state.window == "main" and unit.new) else -1.0
    if event.ability == "circular_logistics":
        return 0.5 if state.window == "main" and state.players[seat].convoy else -1.0
    return -1.0
