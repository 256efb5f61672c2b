"""What each perspective sees of a V20 scene (spec "Hidden information").

The Storyteller (the organiser) sees everything. A side sees all of its own characters (sheets,
pools, statuses, derangements, ambush plans); of the other side's it sees identity, kind,
weapons and armor, health track and statuses, every declaration, die, pool and difficulty, and
every spend with its effect, but not trait ratings, virtues, path, specialties, Willpower and
blood, derangements or Disciplines. A spectator sees what both sides see alike. An ambush stays
hidden from the target's side until its rolls are logged, and a side's phase-2 commitments from
the other until both are in.
"""
from __future__ import annotations

from typing import Any

import msgspec

from engine.ruleset import OMNISCIENT, Perspective
from engine.v20.catalog import load_catalog
from engine.v20.health import NO_ACTIONS
from engine.v20.state import SIDE_NAMES, Fighter, State
from events.v20 import Act


def knows_sheet(perspective: Perspective, f: Fighter) -> bool:
    return perspective == OMNISCIENT or perspective == f.seat


def view_of(state: State, perspective: Perspective) -> dict[str, Any]:
    return {
        "turn": state.turn,
        "turn_limit": state.turn_limit,
        "phase": phase_now(state),
        "awaiting": _awaiting(state, perspective),
        "initiative": [{"character": fid, "initiative": state.fighter(fid).initiative}
                       for fid in state.order],
        "sides": [{"side": SIDE_NAMES[seat], "party": state.parties[seat],
                   "characters": [character(f, perspective) for f in state.of_side(seat)]}
                  for seat in (0, 1)],
        "ambushes": [{"ambusher": a.ambusher, "target": a.target} for a in state.ambushes
                     if perspective == OMNISCIENT
                     or perspective == state.fighter(a.ambusher).seat],
        "committed": [SIDE_NAMES[seat] for seat in sorted(state.committed)],
        "over": state.over,
        "result": None if state.results is None else {
            "results": list(state.results), "reason": state.reason, "rule": state.rule},
        **({"policy": _policy(state)} if perspective == OMNISCIENT else {}),
    }


OPENING = ("frenzy", "rotschreck", "conscience")
"""Phase 1's rolls (V20-4.1): the virtue rolls after the Storyteller's rulings."""


def phase_now(state: State) -> str:
    """The phase of the step awaited now, in V20-4.1's words: "ambush" (before turn 1),
    "opening", "commitments", "initiative", "declarations", "resolve", "extra", or "over"."""
    if state.over or not state.queue:
        return "over"
    head = state.queue[0]
    if state.phase == "ambush":
        return "ambush"
    if head.what in ("rulings", "derangement") or head.purpose in OPENING:
        return "opening"
    if head.what == "commit":
        return "commitments"
    if head.purpose == "initiative":
        return "initiative"
    if head.what == "declare":
        return "ambush" if "ambush" in head.data else "declarations"
    return "extra" if state.phase == "extra" else "resolve"


def _awaiting(state: State, perspective: Perspective) -> dict[str, Any] | None:
    """The step at the head of the queue, as public as it is: a roll's purpose, pool and
    difficulty are public (every die, pool size and difficulty is)."""
    if not state.queue or state.over:
        return None
    head = state.queue[0]
    shown: dict[str, Any] = {"step": head.what, "character": head.character}
    if _unrevealed_ambush(state, head, perspective):  # V20-6.7: hidden until its pair is rolled
        return {"step": head.what, "character": None}
    if head.what == "roll":
        shown |= {"purpose": head.purpose, "pool": head.pool, "difficulty": head.difficulty}
    if head.attack is not None:
        shown |= {"attacker": head.attack.attacker, "target": head.attack.target,
                  "weapon": head.attack.act.weapon, "successes": head.attack.successes}
    return shown


def _unrevealed_ambush(state: State, head: Any, perspective: Perspective) -> bool:
    """An ambush pair's rolls not all in yet, seen by neither the Storyteller nor the
    ambusher's side."""
    if head.purpose not in ("ambush", "notice"):
        return False
    ambusher = head.character if head.purpose == "ambush" else head.data.get("ambusher")
    return not knows_sheet(perspective, state.fighter(ambusher or ""))


def character(f: Fighter, perspective: Perspective) -> dict[str, Any]:
    public: dict[str, Any] = {
        "id": f.id, "name": f.name, "kind": f.kind, "side": f.side,
        "weapons": visible_weapons(f, perspective), "armor": f.armor.name if f.armor else None,
        "track": f.track.drawing, "boxes": list(f.track.boxes), "level": f.track.level_name,
        "penalty": _penalty(f),
        "status": f.status, "gone": f.gone, "npc": f.npc, "frenzy": f.frenzy,
        "rotschreck": f.rotschreck, "blind": f.blind, "full_defense": f.full_defense,
        "initiative": f.initiative,
        "declared": [a.action for a in f.actions], "extra": [a.action for a in f.extra],
        "declarations": [_act(a) for a in f.actions], "extra_declarations": [
            _act(a) for a in f.extra],
        "cornered": f.cornered,
    }
    if not knows_sheet(perspective, f):
        return public
    sheet = f.sheet
    return public | {
        "attributes": {name: f.attribute(name) for name in (
            "strength", "dexterity", "stamina", "perception", "wits")},
        "abilities": {name: sheet.ability(name) for name in (
            "brawl", "melee", "firearms", "athletics", "stealth", "alertness", "survival",
            "leadership")},
        "specialties": {k: v for k, v in _fields(sheet.specialties).items() if v},
        "disciplines": {k: v for k, v in _fields(sheet.disciplines).items() if v},
        "virtues": {k: v for k, v in _fields(sheet.virtues).items() if v},
        "path": {"id": sheet.path.id, "rating": f.path},
        "willpower": {"pool": f.willpower, "rating": sheet.willpower},
        "blood": {"pool": f.blood, "max": f.max_blood, "spent_this_turn": f.blood_this_turn},
        "rounds": dict(f.rounds), "derangements": list(f.derangements),
        "celerity_actions": f.celerity_actions, "ignore_wounds": f.ignore_wounds,
        "tests": [{"kind": t.kind, "cause": t.cause, "difficulty": t.difficulty,
                   "successes": t.successes} for t in f.tests],
        "defenses": [ready.kind for ready in f.defenses],
        "acted": f.acted, "fed": f.fed, "triggered": list(f.triggered),
        "manifest": f.manifest, "controlled": f.controlled,
        "willpower_success": f.willpower_success, "defended": f.defended,
    }


def _penalty(f: Fighter) -> int | None:
    """The wound penalty (V20-9.1) its track shows, None when it takes no actions; what it pays
    this turn (Willpower, frenzy) is pools.wound_penalty's."""
    penalty = f.track.penalty
    return None if penalty is NO_ACTIONS else int(penalty)


def visible_weapons(f: Fighter, perspective: Perspective) -> list[str]:
    """What the other side sees it carry: its weapons, but not claws and other weapons of a
    Discipline (Protean) until it has attacked with them (unused Disciplines are hidden)."""
    if knows_sheet(perspective, f):
        return list(f.weapons)
    catalog = load_catalog()
    return [w for w in f.weapons if w in f.shown or not any(
        getattr(catalog.weapons[w].requires, name) for name in catalog.weapons[w].requires
        .__struct_fields__)]


def _act(act: Act) -> dict[str, Any]:
    """A declared action as everyone hears it (V20-4.5): what, at whom, with what, how."""
    shown: dict[str, Any] = msgspec.to_builtins(act)
    return shown


def _fields(record: Any) -> dict[str, Any]:
    return {name: getattr(record, name) for name in record.__struct_fields__}


def _policy(state: State) -> dict[str, Any] | None:
    return None if state.policy is None else msgspec.to_builtins(state.policy)
