"""The V20 turn as a machine (V20-4.1): the ambushes before turn 1, then each turn's seven
phases, each phase queueing the steps it awaits (engine.v20.state.Step) and handing over to the
next when they are done.

`advance` runs the machine while nothing is awaited: after every event the rules call it, and
it stops at the next step that needs an actor, or at the end of the match.
"""
from __future__ import annotations

from collections.abc import Callable

from engine.ruleset import CHANCE, STORYTELLER, Change
from engine.v20 import changes as ch
from engine.v20 import pools
from engine.v20.combat import start_action
from engine.v20.state import Fighter, State, Step
from engine.v20.status import can_act, end_check, may_declare, out_of_fight, thirst
from engine.v20.steps import roll_step
from engine.v20.virtues import queue_virtue_rolls

Changes = list[Change]
BOTH = -10
"""The actor of the commit step: both sides at once (engine.v20.rules awaits each)."""


def advance(state: State, out: Changes) -> None:
    while not state.over and not state.queue:
        PHASES[state.phase](state, out)


def _ambush(state: State, out: Changes) -> None:
    """V20-6.7: each ambusher-target pair in the setup's order, then the end check
    (V20-14.1 is made after the ambush)."""
    if state.ambushes:
        pair = state.ambushes.pop(0)
        ambusher, target = state.fighter(pair.ambusher), state.fighter(pair.target)
        if out_of_fight(ambusher) or out_of_fight(target):
            return
        willpower = pair.willpower and ambusher.willpower > 0
        pool = pools.ambusher(ambusher, pair.specialty, 1 if willpower else 0)
        state.queue += [
            roll_step(ambusher, "ambush", pool, data={"target": target.id}),
            roll_step(target, "notice", pools.noticing(target),
                      data={"ambusher": ambusher.id, "willpower": willpower})]
        return
    if not end_check(state, out):
        state.phase = "opening"


def _opening(state: State, out: Changes) -> None:
    """Phase 1: a new turn, the Storyteller's rulings (then the virtue rolls, V20-12, V20-13)."""
    state.turn += 1
    for f in state.fighters.values():
        _new_turn(f)
    state.queue.append(Step(what="rulings", actor=STORYTELLER))
    state.phase = "virtues"


def _new_turn(f: Fighter) -> None:
    f.celerity_actions = 0
    f.ignore_wounds = f.controlled = f.resisted = f.willpower_success = False
    f.full_defense = f.acted = False
    f.blood_this_turn = f.defended = 0
    f.initiative = None
    f.actions, f.extra, f.defenses = [], [], []
    f.drunk = {}
    f.manifest = None


def _virtues(state: State, out: Changes) -> None:
    for f in state.fighters.values():
        f.fed = False  # the rulings just read it: it fed last turn
    queue_virtue_rolls(state, out)
    state.phase = "commit"


def _commit(state: State, out: Changes) -> None:
    """Phase 2: both sides' reflexive commitments, in secret until both are in."""
    out.append(ch.Phase(name="commit"))
    state.queue.append(Step(what="commit", actor=BOTH))
    state.phase = "initiative"


def _initiative(state: State, out: Changes) -> None:
    """Phase 3 (V20-4.2, V20-4.3): a d10 for every character that can act."""
    rolling = [f.id for f in state.fighters.values() if can_act(f)]
    state.phase = "declare"
    if rolling:
        state.queue.append(Step(what="roll", actor=CHANCE, purpose="initiative",
                                pool=len(rolling), can_botch=False,
                                data={"characters": rolling}))


def _declare(state: State, out: Changes) -> None:
    """Phase 4 (V20-4.1): from the lowest initiative to the highest; an Incapacitated vampire
    or ghoul, which rolls none, declares its heal first (V20-5.13)."""
    out.append(ch.Phase(name="declare"))
    waiting = [f for f in state.fighters.values() if f.initiative is None and may_declare(f)]
    ranked = [state.fighter(i) for i in reversed(state.order)]
    for f in [*waiting, *ranked]:
        state.queue.append(Step(what="declare", actor=f.seat, character=f.id))
    state.phase = "resolve"


def _resolve(state: State, out: Changes) -> None:
    """Phase 5: regular actions from the highest initiative to the lowest, in declared order;
    the Incapacitated heal last."""
    out.append(ch.Phase(name="resolve"))
    waiting = [f.id for f in state.fighters.values() if f.initiative is None and f.actions]
    state.agenda = [(fid, i, "regular") for fid in [*state.order, *waiting]
                    for i in range(len(state.fighter(fid).actions))]
    state.phase = "resolving"


def _resolving(state: State, out: Changes) -> None:
    if state.agenda:
        start_action(state, *state.agenda.pop(0), out)
        return
    out.append(ch.Phase(name="extra"))
    state.agenda = [(fid, i, "extra") for fid in state.order
                    for i in range(len(state.fighter(fid).extra))]
    state.phase = "extra"


def _extra(state: State, out: Changes) -> None:
    """Phase 6 (V20-5.5): Celerity extra actions, highest initiative first."""
    if state.agenda:
        start_action(state, *state.agenda.pop(0), out)
        return
    state.phase = "end"


def _end(state: State, out: Changes) -> None:
    """Phase 7: state checks (V20-9.5), the end-of-match check (V20-14.1), the turn limit
    (V20-14.2)."""
    out.append(ch.Phase(name="end"))
    for f in state.fighters.values():
        thirst(f, out)
    if end_check(state, out):
        return
    if state.turn_limit is not None and state.turn >= state.turn_limit:
        state.finish(("draw", "draw"), f"the turn limit ({state.turn_limit}) is reached",
                     "V20-14.2", out)
        return
    state.phase = "opening"


PHASES: dict[str, Callable[[State, Changes], None]] = {
    "ambush": _ambush, "opening": _opening, "virtues": _virtues, "commit": _commit,
    "initiative": _initiative, "declare": _declare, "resolve": _resolve,
    "resolving": _resolving, "extra": _extra, "end": _end,
}
