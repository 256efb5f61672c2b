"""Who is still in a V20 scene and who may do what: out of the fight (V20-9.10), able to act
(V20-4.3, V20-5.13), sinking into torpor from thirst (V20-9.5), and the end of the match
(V20-14.1)."""
from __future__ import annotations

from typing import Any

from engine.v20 import changes as ch
from engine.v20 import health
from engine.v20.state import SIDE_NAMES, Fighter, State

SPENDS_BLOOD = ("vampire", "ghoul")
"""Mortals hold blood but cannot spend it (V20-3.5)."""


def spends_blood(f: Fighter) -> bool:
    return f.kind in SPENDS_BLOOD


def out_of_fight(f: Fighter) -> bool:
    """V20-9.10: destroyed, dead, in torpor, gone or an NPC; a mortal or ghoul Incapacitated
    with no blood it can spend."""
    return health.out_of_fight(f.kind, f.status, spends_blood(f) and f.blood > 0,  # type: ignore[arg-type]
                               gone=f.gone, npc=f.npc)


def in_scene(f: Fighter) -> bool:
    """Still there to be targeted (V20-6.12): not destroyed, dead or gone."""
    return not f.gone and f.status not in ("final_death", "dead")


def can_act(f: Fighter) -> bool:
    """Rolls initiative and takes actions (V20-4.3): not Incapacitated, in torpor, destroyed,
    dead, gone or an NPC."""
    return f.status == "active" and not f.gone and not f.npc


def may_declare(f: Fighter) -> bool:
    """V20-5.13: an Incapacitated vampire or ghoul may still declare an unrolled heal."""
    return can_act(f) or (f.status == "incapacitated" and not f.gone and not f.npc
                          and spends_blood(f) and f.blood > 0)


def can_defend(f: Fighter) -> bool:
    """V20-7.6: the Incapacitated, torpid, destroyed, dead or gone cannot defend."""
    return can_act(f)


def thirst(f: Fighter, out: list[Any]) -> None:
    """V20-9.5: an Incapacitated vampire at 0 BP sinks into torpor at once."""
    now = health.thirst_torpor(f.kind, f.status, f.blood)
    if now != f.status:
        f.status = now
        out.append(ch.Became(character=f.id, status=now))


def end_check(state: State, out: list[Any]) -> bool:
    """V20-14.1: a side all out of the fight loses; both sides out at once is a draw."""
    out_sides = [all(out_of_fight(f) for f in state.of_side(seat)) for seat in (0, 1)]
    if all(out_sides):
        state.finish(("draw", "draw"), "both sides are out of the fight", "V20-14.1", out)
    elif any(out_sides):
        loser = out_sides.index(True)
        results = ("loss", "win") if loser == 0 else ("win", "loss")
        state.finish(results, f"side {SIDE_NAMES[loser]} is out of the fight", "V20-14.1",
                     out)
    return state.over
