"""The V20 combat ruleset, "v20@1": the glue from the log's events to the scene's steps.

Every event answers the step at the head of the queue (engine.v20.state): its actor must be the
one awaited and its kind the one the step names, or it is refused naming the rule; a side may
concede whenever it is awaited (V20-14.2). Both sides commit at once in phase 2, each in secret
until both are in. After each event the turn machine (engine.v20.flow) runs on to the next step
anyone must take.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.ruleset import Actor, Change, Outcome, Perspective, RuleViolation
from engine.v20 import changes as ch
from engine.v20 import combat, declare, pools, spends, virtues
from engine.v20.determinize import V20Sight, observe
from engine.v20.dice import Score, check_dice, score
from engine.v20.flow import BOTH, advance
from engine.v20.legal import legal_events
from engine.v20.setup import initial_state
from engine.v20.state import SIDE_NAMES, State, Step
from engine.v20.view import view_of
from events.base import Header
from events.v20 import (
    Abort,
    Commit,
    Concede,
    Confirm,
    Declare,
    Defend,
    Event,
    NameDerangement,
    Roll,
    Rulings,
    Scenario,
)

Changes = list[Change]
EXPECTED = {"roll": Roll, "rulings": Rulings, "confirm": Confirm, "derangement": NameDerangement,
            "commit": Commit, "declare": Declare}
"""The event each kind of step awaits ("defend" takes a Defend or an Abort)."""


class V20Rules:
    name = "v20"
    game = "v20"
    version = 1
    event_type = Event

    def setup(self, header: Header) -> State:
        state = initial_state(header)
        scenario = header.scenario if isinstance(header.scenario, Scenario) else None
        state.ambushes = list(scenario.ambushes) if scenario else []
        state.policy = scenario.storyteller if scenario else None
        advance(state, [])
        return state

    def clone(self, state: State) -> State:
        return state.copy()

    def awaiting(self, state: State) -> tuple[Actor, ...]:
        if state.over or not state.queue:
            return ()
        head = state.queue[0]
        if head.actor == BOTH:
            return tuple(seat for seat in (0, 1) if seat not in state.committed)
        return (head.actor,)

    def legal(self, state: State, actor: Actor) -> list[Any]:
        if actor not in self.awaiting(state):
            return []
        return legal_events(state, actor)

    def sample_chance(self, state: State, rng: random.Random) -> Roll:
        head = state.queue[0]
        if head.what != "roll":
            raise RuleViolation("V20-2.1", "no roll is awaited")
        return Roll(dice=tuple(rng.randint(1, 10) for _ in range(head.pool)))

    def turn(self, state: State) -> int:
        return state.turn

    def view(self, state: State, perspective: Perspective) -> dict[str, Any]:
        return view_of(state, perspective)

    def observe(self, state: State, seat: int) -> V20Sight:
        """What side `seat` (NO_SEAT -1: the spectator) may see: engine.v20.determinize."""
        return observe(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        if not state.over or state.results is None:
            return None
        won = [SIDE_NAMES[seat] for seat, r in enumerate(state.results) if r == "win"]
        return Outcome(results=state.results, reason=state.reason, rule=state.rule,
                       side=won[0] if won else None)

    def apply(self, state: State, event: Any) -> Changes:
        if state.over:
            raise RuleViolation("V20-14.1", "the match is over")
        out: Changes = []
        if isinstance(event, Concede):
            _concede(self, state, event, out)
            return out
        head = state.queue[0]
        _check_actor(self, state, head, event)
        HANDLERS[head.what](state, head, event, out)
        advance(state, out)
        return out


def _check_actor(rules: V20Rules, state: State, head: Step, event: Any) -> None:
    wanted = EXPECTED.get(head.what, (Defend, Abort) if head.what == "defend" else ())
    if not isinstance(event, wanted):
        raise RuleViolation("V20-4.1", f"the scene awaits {_awaited(state, head)}, not a "
                            f"{type(event).__struct_config__.tag}")
    seat = getattr(event, "seat", None)
    if seat is not None and seat not in rules.awaiting(state):
        raise RuleViolation("V20-4.1", f"side {SIDE_NAMES[seat] if seat in (0, 1) else seat} "
                            f"is not awaited: the scene awaits {_awaited(state, head)}")
    character = getattr(event, "character", None)
    if head.character is not None and character is not None and character != head.character \
            and head.what != "derangement":
        raise RuleViolation("V20-4.1", f"the scene awaits {head.character}'s "
                            f"{head.what}, not {character}'s")


def _awaited(state: State, head: Step) -> str:
    who = f" of {state.fighter(head.character).name}" if head.character else ""
    if head.what == "roll":
        return f"the {head.purpose} roll{who} ({head.pool} dice)"
    return f"the {head.what}{who}"


def _concede(rules: V20Rules, state: State, event: Concede, out: Changes) -> None:
    if event.seat not in (0, 1):
        raise RuleViolation("V20-14.2", f"no side {event.seat} to concede: side A is seat 0, "
                            "side B seat 1")
    results = ("loss", "win") if event.seat == 0 else ("win", "loss")
    state.finish(results, f"side {SIDE_NAMES[event.seat]} concedes", "V20-14.2", out)


# Handlers: each checks its event whole, then pops its step and applies it --------------------

def _rolled(state: State, head: Step, event: Roll, out: Changes) -> None:
    if len(event.dice) != head.pool:
        raise RuleViolation("V20-2.2", f"the {head.purpose} roll takes {head.pool} dice, not "
                            f"{len(event.dice)}")
    if head.purpose == "initiative":
        check_dice(event.dice)
        state.queue.pop(0)
        _initiative(state, head, event.dice, out)
        return
    got = score(event.dice, head.difficulty, specialty=head.specialty, auto=head.auto,
                can_botch=head.can_botch)
    state.queue.pop(0)
    attack = head.attack
    opponent = None if attack is None else (
        attack.target if head.character == attack.attacker else attack.attacker)
    out.append(ch.Rolled(character=head.character or "", purpose=head.purpose, pool=head.pool,
                         difficulty=min(max(head.difficulty, 2), 10), dice=event.dice,
                         successes=got.net, botch=got.botch, specialty=head.specialty,
                         auto=head.auto, can_botch=head.can_botch,
                         weapon=None if attack is None else attack.act.weapon,
                         opponent=opponent))
    ROLLED[head.purpose](state, head, got, out)


def _initiative(state: State, head: Step, dice: tuple[int, ...], out: Changes) -> None:
    """V20-4.2, 4.4: 1d10 + the bonus; ties to higher Dexterity + Wits, then Wits, then the
    earlier place in the listing."""
    ids = list(head.data["characters"])
    for fid, die in zip(ids, dice):
        f = state.fighter(fid)
        f.initiative = die + pools.initiative_bonus(f)

    def rank(fid: str) -> tuple[int, int, int, int]:
        f = state.fighter(fid)
        dex, wits = f.attribute("dexterity"), f.attribute("wits")
        return (-(f.initiative or 0), -(dex + wits), -wits, f.order)

    state.order = sorted(ids, key=rank)
    out.append(ch.Initiative(order=tuple(state.order),
                             totals=tuple(state.fighter(i).initiative or 0 for i in state.order),
                             rolled=tuple(ids), dice=tuple(dice)))


def _rulings(state: State, head: Step, event: Rulings, out: Changes) -> None:
    virtues.check_rulings(state, event.rulings)
    state.queue.pop(0)
    out.append(ch.TurnBegan(turn=state.turn))  # the turn opens with the Storyteller's word
    virtues.apply_rulings(state, event.rulings, out)


def _confirm(state: State, head: Step, event: Confirm, out: Changes) -> None:
    state.queue.pop(0)
    combat.confirmed(state, head, event.confirmed, out)


def _derangement(state: State, head: Step, event: NameDerangement, out: Changes) -> None:
    if event.character != head.character or not event.derangement.strip():
        raise RuleViolation("V20-13.5", f"the Storyteller names {head.character}'s new "
                            "derangement")
    state.queue.pop(0)
    f = state.fighter(event.character)
    f.derangements.append(event.derangement)
    out.append(ch.Ruled(character=f.id, ruling="derangement", detail=event.derangement))


def _commit(state: State, head: Step, event: Commit, out: Changes) -> None:
    spends.check_commit(state, event)
    state.committed[event.seat] = event
    if len(state.committed) < 2:
        out.append(ch.Ruled(character="", ruling="committed", detail=SIDE_NAMES[event.seat]))
        return
    state.queue.pop(0)
    for seat in (0, 1):
        spends.apply_commit(state, state.committed[seat], out)
    state.committed = {}
    out.append(ch.Phase(name="initiative"))


def _declare(state: State, head: Step, event: Declare, out: Changes) -> None:
    f = state.fighter(head.character or "")
    if "ambush" in head.data:
        act = combat.check_ambush_attack(state, head, event.actions, event.extra)
        state.queue.pop(0)
        out.append(ch.Declared(character=f.id, actions=("attack",)))
        combat.ambush_attack(state, head, act, out)
        return
    declare.check_declaration(state, f, event)
    state.queue.pop(0)
    declare.record(f, event, out)


def _defend(state: State, head: Step, event: Defend | Abort, out: Changes) -> None:
    if isinstance(event, Abort):
        combat.check_abort(state, head, event)
        state.queue.pop(0)
        combat.aborting(state, head, event, out)
        return
    combat.check_defend(state, head, event)
    state.queue.pop(0)
    combat.defended(state, head, event, out)


HANDLERS: dict[str, Callable[[State, Step, Any, Changes], None]] = {
    "roll": _rolled, "rulings": _rulings, "confirm": _confirm, "derangement": _derangement,
    "commit": _commit, "declare": _declare, "defend": _defend,
}
ROLLED: dict[str, Callable[[State, Step, Score, Changes], None]] = {
    **combat.ROLLED, "frenzy": virtues.extended_rolled, "rotschreck": virtues.extended_rolled,
    "conscience": virtues.conscience_rolled,
}

RULES = V20Rules()
RULESETS = (RULES,)
