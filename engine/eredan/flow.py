"""The match's own progress between decisions: opening hands, the start of each turn, the
phases after each decision, and the end of the turn (ER-4, ER-5, ER-1.6, ER-1.11)."""
from __future__ import annotations

from engine.eredan import zones
from engine.eredan.changes import Combatants, Tapped, TurnBonus, TurnStarted, Untapped
from engine.eredan.combat import apply_batch, combat_result, defeat_check, end_match
from engine.eredan.effects import Context, run_lines
from engine.eredan.phase2 import resolve_cards
from engine.eredan.state import HAND_SIZE, Mod, State
from engine.eredan.stats import hand_target, holders, timed
from engine.ruleset import Change

Changes = list[Change]
TURN_CAP = 200
"""Not in the spec: a safety stop for the rare match where neither side can hurt the other (two
characters healing more than they take, both hands kept full so nobody decks out). The result
is a draw, reason "turn_cap", and its rule names no ER- rule because none applies."""
TURN_CAP_RULE = "engine:turn_cap"


def deal_opening(state: State, out: Changes) -> None:
    """Both decks shuffled: 5 cards each (ER-4.3), then the initiative draw (ER-4.6)."""
    for seat in (0, 1):
        zones.draw(state, seat, HAND_SIZE, out)
    state.chance = [(-1, "initiative")]


def start_turn(state: State, out: Changes) -> None:
    """Untap full-tapped lines, refill hands from turn 2, start-of-turn effects, a defeat check
    (ER-5.1 to ER-5.7)."""
    state.turn += 1
    state.active = state.first if state.turn % 2 else 1 - state.first
    out.append(TurnStarted(seat=state.active, turn=state.turn))
    for seat in (state.active, state.passive):
        _untap(state, seat, out)
    if state.turn > 1:
        for seat in (state.active, state.passive):
            zones.refill(state, seat, hand_target(state, seat), out)
    _start_of_turn_effects(state, out)
    if not state.over:
        state.window, state.pending = "choose", state.active


def _untap(state: State, seat: int, out: Changes) -> None:
    living = state.living(seat)
    if living and all(f.tapped for f in living):
        for fighter in living:
            fighter.tapped = False
        out.append(Untapped(seat=seat))


def _start_of_turn_effects(state: State, out: Changes) -> None:
    """After refilling, active player's first; HP changes land at once (ER-5.7)."""
    found = holders(state, "start_of_turn")
    for fighter in found:
        for source, lines in timed(state, fighter, "start_of_turn"):
            run_lines(state, Context(fighter.owner, source, fighter), lines, "start_of_turn", out)
    if found:
        pendings, state.pendings = state.pendings, []
        apply_batch(state, sorted(pendings, key=lambda p: p.kind != "heal"), out)
        defeat_check(state, out)
        for seat in (state.active, state.passive):  # ER-5.4 again if one fell just now
            _untap(state, seat, out)


def choose(state: State, attacker: int, defender: int, out: Changes) -> None:
    """Phase 1: the combatants, and the Order bonus of the turn (ER-5.8, ER-5.10)."""
    state.attacker, state.defender = attacker, defender
    out.append(Combatants(seat=state.active, attacker=attacker, defender=defender))
    for fid in (attacker, defender):
        fighter = state.fighters[fid]
        state.count(fid, "combats")
        for line in fighter.card.order:
            if line.turn == state.turn:
                fighter.mods.append(Mod(line.attack, line.defense, line.spirit, -1))
                out.append(TurnBonus(seat=fighter.owner, character=fid, turn=line.turn,
                                     attack=line.attack, defense=line.defense,
                                     spirit=line.spirit))
    state.window, state.pending = "cards", state.active


def after_submission(state: State, seat: int, out: Changes) -> None:
    """The active player submits first; the passive player's submission reveals both and the
    turn runs through Phases 2 to 4 (ER-5.15, ER-5.17)."""
    if seat == state.active:
        state.pending = state.passive
        return
    resolve_cards(state, out)
    combat_result(state, out)
    if state.over:
        return
    fought = tuple(fid for fid in (state.attacker, state.defender) if fid is not None)
    for fid in fought:
        state.fighters[fid].tapped = True
    out.append(Tapped(seat=state.active, characters=fought))
    state.window, state.pending = "discard", state.active


def after_discard(state: State, seat: int, out: Changes) -> None:
    """Both discards are revealed together (Hidden information), then the turn ends."""
    if seat == state.active:
        state.pending = state.passive
        return
    for player in state.players:
        for cid in player.discarding or ():
            player.hand.remove(cid)
            zones.to_discard(state, cid, out)
        player.discarding = None
    end_turn(state, out)


def end_turn(state: State, out: Changes) -> None:
    """Turn effects expire, played cards leave play, a defeat check, then elimination or score
    before deck-out (ER-5.21, ER-1.11, ER-1.6, ER-1.7)."""
    for fighter in state.fighters.values():
        if fighter.mods:
            fighter.mods = []
    for slot in state.slots:
        if not slot.attached:
            zones.to_discard(state, slot.card, out)
    state.slots, state.pendings, state.no_attack = [], [], set()
    state.attacker = state.defender = None
    defeat_check(state, out)
    if state.over:
        return
    decked = [p.seat for p in state.players if p.deck_out]
    if len(decked) == 2:
        end_match(state, None, "deck_out_both", "ER-1.7", out)
    elif decked:
        end_match(state, 1 - decked[0], "deck_out", "ER-1.6", out)
    elif state.turn >= TURN_CAP:
        end_match(state, None, "turn_cap", TURN_CAP_RULE, out)
    else:
        start_turn(state, out)
