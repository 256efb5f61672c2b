"""The Storyteller's rulings and the virtue rolls of phase 1 (V20-1.1, V20-12, V20-13): frenzy
and Rötschreck as extended rolls, conscience or conviction after a path conflict.

A trigger logged in phase 1 is rolled in that same phase, then once in each later phase 1 until
five successes are gathered (the threat is over) or a roll scores none (V20-12.1, 12.2). A
path conflict is logged at the first phase 1 after the act and rolled in that phase (our reading
of V20-13.1's "the next phase 1": the Storyteller logs only in phase 1).
"""
from __future__ import annotations

from typing import Any

from engine.ruleset import STORYTELLER, RuleViolation
from engine.v20 import changes as ch
from engine.v20 import pools
from engine.v20.dice import Score
from engine.v20.state import Extended, Fighter, State, Step
from engine.v20.status import in_scene
from engine.v20.steps import roll_step
from events.v20 import (
    Award,
    Blind,
    Cornered,
    FrenzyEnds,
    Manifests,
    PathConflict,
    Ruling,
    ThreatOver,
    Trigger,
)

MASTERED = 5
"""V20-12.2: five successes master the urge."""


def check_rulings(state: State, rulings: tuple[Ruling, ...]) -> None:
    """Every ruling names a character still in the scene, and fits it (before any applies)."""
    for ruling in rulings:
        f = state.fighters.get(ruling.character)
        if f is None or not in_scene(f):
            raise RuleViolation("V20-1.1", f"the Storyteller rules on {ruling.character!r}, "
                                "who is not in the scene")
        _check(f, ruling)


def _check(f: Fighter, ruling: Ruling) -> None:
    if isinstance(ruling, Trigger):
        if not f.sheet.is_vampire:
            raise RuleViolation("V20-1.5", f"{f.name} is a {f.kind}: frenzy and Rötschreck are "
                                "a Cainite's (V20-12.1)")
        if ruling.kind not in ("frenzy", "rotschreck") or not 2 <= ruling.difficulty <= 10:
            raise RuleViolation("V20-12.1", f"a trigger is frenzy or rotschreck at difficulty "
                                f"2-10, not {ruling.kind} at {ruling.difficulty}")
    elif isinstance(ruling, Award) and ruling.points < 1:
        raise RuleViolation("V20-11.4", f"an award is 1 Willpower point or more, not "
                            f"{ruling.points}")
    elif isinstance(ruling, Cornered) and not f.rotschreck:
        raise RuleViolation("V20-12.10", f"{f.name} is not in Rötschreck: nothing corners it")
    elif isinstance(ruling, ThreatOver) and not f.tests:
        raise RuleViolation("V20-12.2", f"{f.name} is resisting no frenzy or Rötschreck")
    elif isinstance(ruling, FrenzyEnds) and not (f.frenzy or f.rotschreck):
        raise RuleViolation("V20-12.8", f"{f.name} is in no frenzy or Rötschreck")
    elif isinstance(ruling, Manifests) and ruling.derangement not in f.derangements:
        raise RuleViolation("V20-11.2", f"{f.name} has no derangement "
                            f"{ruling.derangement!r} ({', '.join(f.derangements) or 'none'})")


def apply_rulings(state: State, rulings: tuple[Ruling, ...], out: list[Any]) -> None:
    for ruling in rulings:
        f = state.fighter(ruling.character)
        if isinstance(ruling, Trigger):
            _trigger(f, ruling, out)
        elif isinstance(ruling, PathConflict):
            f.conflicts += 1
            out.append(ch.Ruled(character=f.id, ruling="path_conflict"))
        elif isinstance(ruling, Blind):
            f.blind = ruling.blind
            out.append(ch.Ruled(character=f.id, ruling="blind", detail=str(ruling.blind)))
        elif isinstance(ruling, Award):
            gained = min(ruling.points, f.sheet.willpower - f.willpower)
            f.willpower += gained
            out.append(ch.Ruled(character=f.id, ruling="award", detail=str(gained)))
        else:
            _state_ruling(f, ruling, out)


def _state_ruling(f: Fighter, ruling: Ruling, out: list[Any]) -> None:
    if isinstance(ruling, Cornered):
        f.cornered = True
        out.append(ch.Ruled(character=f.id, ruling="cornered"))
    elif isinstance(ruling, ThreatOver):
        for test in f.tests:
            out.append(ch.Mastery(character=f.id, test=test.kind, result="over",
                                  successes=test.successes))
        f.tests = []
    elif isinstance(ruling, FrenzyEnds):
        f.frenzy = f.rotschreck = f.cornered = False
        out.append(ch.Ruled(character=f.id, ruling="frenzy_ends"))
    elif isinstance(ruling, Manifests):
        f.manifest = ruling.derangement
        out.append(ch.Ruled(character=f.id, ruling="manifests", detail=ruling.derangement))


def _trigger(f: Fighter, ruling: Trigger, out: list[Any]) -> None:
    """V20-12.7: a frenzied character ignores further triggers; one of each kind at a time."""
    ignored = f.frenzy or any(t.kind == ruling.kind for t in f.tests) or (
        ruling.kind == "rotschreck" and f.rotschreck)
    f.triggered.append(ruling.cause)
    out.append(ch.Triggered(character=f.id, test=ruling.kind, cause=ruling.cause,
                            difficulty=ruling.difficulty, ignored=ignored))
    if not ignored:
        f.tests.append(Extended(ruling.kind, ruling.cause, ruling.difficulty))


def queue_virtue_rolls(state: State, out: list[Any]) -> None:
    """Phase 1 after the rulings: each extended test and path conflict, in listing order. An
    Instinct holder frenzies with no roll (V20-12.4); a pool below 1 die fails (V20-2.13,
    V20-12.3: at 0 BP a vampire frenzies)."""
    for f in state.fighters.values():
        if f.status in ("torpor", "final_death", "dead") or f.gone or f.npc:
            continue  # out of the fight: nothing left to master (V20-9.10)
        for test in list(f.tests):
            pool = (pools.frenzy if test.kind == "frenzy" else pools.rotschreck)(
                f, test.difficulty)
            if test.kind == "frenzy" and f.sheet.has_instinct or pool.dice < 1:
                _succumb(f, test, out)
            else:
                state.queue.append(roll_step(f, test.kind, pool, data={"kind": test.kind}))
        for _ in range(f.conflicts):
            state.queue.append(roll_step(f, "conscience", pools.conscience(f)))
        f.conflicts = 0


def _succumb(f: Fighter, test: Extended, out: list[Any]) -> None:
    f.tests.remove(test)
    if test.kind == "frenzy":
        f.frenzy, f.rotschreck = True, False
    elif not f.frenzy:  # a frenzied character is immune to Rötschreck (V20-12.7)
        f.rotschreck = True
    out.append(ch.Mastery(character=f.id, test=test.kind, result=test.kind,
                          successes=test.successes))


def extended_rolled(state: State, step: Step, score: Score, out: list[Any]) -> None:
    """V20-12.2: 0 net successes, a failure or a botch, and the character succumbs; five
    gathered and the threat is over."""
    f = state.fighter(step.character or "")
    test = next((t for t in f.tests if t.kind == step.data["kind"]), None)
    if test is None:  # the Storyteller ended the threat in this same phase
        return
    if score.net < 1:
        _succumb(f, test, out)
        return
    test.successes += score.net
    if test.successes >= MASTERED:
        f.tests.remove(test)
        out.append(ch.Mastery(character=f.id, test=test.kind, result="resisted",
                              successes=test.successes))


def conscience_rolled(state: State, step: Step, score: Score, out: list[Any]) -> None:
    """V20-13.3 to 13.6: a success keeps the path; a failure costs a path point; a botch a
    path point, a point of the virtue and a derangement the Storyteller names. A vampire at
    path 0 becomes an NPC, out of the fight."""
    f = state.fighter(step.character or "")
    lost = 0 if score.success else 1
    f.path = max(0, f.path - lost)
    if score.botch:
        f.path_virtue = max(0, f.path_virtue - 1)
        state.queue.insert(0, Step(what="derangement", actor=STORYTELLER, character=f.id))
    out.append(ch.Conscience(character=f.id, path=f.path, virtue=f.path_virtue, lost=lost))
    if f.path == 0 and f.sheet.is_vampire and not f.npc:
        f.npc = True
        out.append(ch.Became(character=f.id, status="npc"))
