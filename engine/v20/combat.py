"""Resolving V20 actions (phases 5 and 6, and the ambush's free attack): attacks from the
Storyteller's word on a flank to the last soak (V20-6, 7, 8, 9), and the other actions (heal,
feed, reload, flee, V20-5).

An attack runs as steps: the Storyteller confirms a flank or rear tag (V20-6.4), the attack is
rolled, the target picks its defense or none after seeing the dice (V20-7.6) or aborts to full
defense (V20-5.7), the defense is rolled, then damage and soak (V20-8). Each roll's continuation
is named by its step's purpose (ROLLED).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.ruleset import STORYTELLER, RuleViolation
from engine.v20 import changes as ch
from engine.v20 import declare, health, pools
from engine.v20.catalog import Weapon, load_catalog
from engine.v20.declare import parrying_weapon, weapon_of
from engine.v20.dice import Score
from engine.v20.state import Attack, Fighter, Ready, State, Step
from engine.v20.status import can_act, can_defend, in_scene, thirst
from engine.v20.steps import roll_step
from events.v20 import Abort, Act, Defend

Out = list[Any]


def start_action(state: State, fid: str, index: int, stage: str, out: Out) -> None:
    """The index-th regular or extra action of `fid` comes up (V20-4.1 phases 5 and 6)."""
    f = state.fighter(fid)
    act = (f.actions if stage == "regular" else f.extra)[index]
    if stage == "regular":
        f.acted = True
    if not _still_able(f, act):
        why = "it has fled" if f.gone else "it is an NPC" if f.npc else f"it is {f.status}"
        out.append(ch.Forfeited(character=f.id, action=act.action, why=why))
        return
    k = index + 1 if stage == "regular" and len(f.actions) >= 2 else 0
    if act.action == "attack":
        start_attack(state, Attack(attacker=f.id, target=act.target or "", act=act,
                                   stage=stage, k=k), out)
    elif act.action == "heal":
        _heal(state, f, act, k, out)
    elif act.action == "feed":
        _feed(state, f, act, out)
    elif act.action == "reload":
        weapon = load_catalog().weapons[act.weapon or ""]
        f.rounds[weapon.id] = weapon.rounds
        out.append(ch.Reloaded(character=f.id, weapon=weapon.id, rounds=weapon.rounds))
    elif act.action == "flee":
        f.gone = True
        out.append(ch.Became(character=f.id, status="gone"))


def _still_able(f: Fighter, act: Act) -> bool:
    if act.action == "heal":
        return not f.gone and f.status in ("active", "incapacitated")
    return can_act(f)


# Attacks -------------------------------------------------------------------------------------

def start_attack(state: State, attack: Attack, out: Out) -> None:
    attacker, target = state.fighter(attack.attacker), state.fighters.get(attack.target)
    if target is None or not in_scene(target):
        out.append(ch.Forfeited(character=attacker.id, action="attack", why="no target"))
        return
    if attacker.full_defense and attack.stage != "ambush":
        out.append(ch.Forfeited(character=attacker.id, action="attack", why="full defense"))
        return
    if attack.act.position:
        state.queue.insert(0, Step(what="confirm", actor=STORYTELLER, character=attacker.id,
                                   attack=attack))
        return
    roll_attack(state, attack, out)


def confirmed(state: State, step: Step, yes: bool, out: Out) -> None:
    attack = step.attack
    assert attack is not None
    if yes:
        attack.position_bonus = pools.POSITION_DICE[attack.act.position or ""]
    out.append(ch.Ruled(character=attack.attacker, ruling="position",
                        detail=f"{attack.act.position} {'confirmed' if yes else 'denied'}"))
    roll_attack(state, attack, out)


def roll_attack(state: State, attack: Attack, out: Out) -> None:
    f = state.fighter(attack.attacker)
    weapon = load_catalog().weapons[attack.act.weapon or ""]
    if weapon.needs_rounds and f.rounds.get(weapon.id, 0) < 1:
        out.append(ch.Forfeited(character=f.id, action="attack", why="no rounds"))
        return
    if attack.act.willpower:  # spent when declared (engine.v20.declare.record)
        attack.auto += 1
    pool = pools.attack(f, weapon, k=attack.k, aim=attack.act.aim,
                        position_bonus=attack.position_bonus, specialty=attack.act.specialty,
                        auto=attack.auto)
    if pool.dice < 1:  # V20-5.12: wounds since the declaration
        out.append(ch.Forfeited(character=f.id, action="attack", why="no dice left"))
        return
    if weapon.needs_rounds:
        f.rounds[weapon.id] -= 1
    state.queue.insert(0, roll_step(f, "attack", pool, attack=attack,
                                    data={"weapon": weapon.id, "target": attack.target}))


def _attack_rolled(state: State, step: Step, score: Score, out: Out) -> None:
    attack = step.attack
    assert attack is not None
    weapon = load_catalog().weapons[attack.act.weapon or ""]
    if score.net < 1:
        out.append(ch.Missed(attacker=attack.attacker, target=attack.target, weapon=weapon.id,
                             why="botch" if score.botch else "no successes"))
        return
    attack.successes = score.net
    target = state.fighter(attack.target)
    if defense_options(state, attack) or may_abort(state, attack):
        state.queue.insert(0, Step(what="defend", actor=target.seat, character=target.id,
                                   attack=attack))
        return
    _hit(state, attack, attack.successes, out)


def close_combat(weapon: Weapon) -> bool:
    return weapon.ability in ("brawl", "melee")


def defense_options(state: State, attack: Attack) -> list[str]:
    """The defenses the target may use against this attack now (V20-5.4, 5.6, 6.9, 7.2 to
    7.6): none if it cannot defend or the attack is undefendable (an ambush won, V20-6.9; a
    helpless target, V20-6.11); a declared one of the attack's phase; every kind under full
    defense or after an ambush tie."""
    target = state.fighter(attack.target)
    if not attack.defendable or not can_defend(target) or driven(target):
        return []
    weapon = load_catalog().weapons[attack.act.weapon or ""]
    if attack.tie_defense or target.full_defense:
        kinds = ["block", "dodge", "parry"]
    else:
        extra = attack.stage == "extra"
        kinds = list(dict.fromkeys(ready.kind for ready in target.defenses
                                   if ready.extra == extra))
    return [kind for kind in kinds if _stops(target, kind, weapon)
            and _defense_pool(state, target, kind, attack, False).dice >= 1]


def _stops(target: Fighter, kind: str, weapon: Weapon) -> bool:
    """V20-7.2: block and parry stop Brawl and Melee only; a block of lethal or aggravated
    needs Fortitude or armor; V20-7.4: a parry needs a melee weapon."""
    if kind == "dodge":
        return True
    if not close_combat(weapon):
        return False
    if kind == "block":
        return weapon.type == "bashing" or target.discipline("fortitude") > 0 or bool(
            target.armor)
    return parrying_weapon(target) is not None


def _defense_pool(state: State, target: Fighter, kind: str, attack: Attack,
                  willpower: bool) -> pools.Pool:
    weapon = load_catalog().weapons[attack.act.weapon or ""]
    ready = _declared(target, kind, attack)
    fewer = target.defended if target.full_defense else 0
    parry = parrying_weapon(target, ready.act.weapon if ready else None) \
        if kind == "parry" else None
    return pools.defense(target, kind, k=ready.k if ready else 0, gunfire=weapon.gunfire,
                         fewer=fewer, auto=1 if willpower else 0,
                         specialty=bool(ready and ready.act.specialty),
                         tags=parry.specialties if parry else ())


def _declared(target: Fighter, kind: str, attack: Attack) -> Ready | None:
    """The declared defense this attack meets (None under full defense or after an ambush
    tie, whose defenses are full-pool and declared by none)."""
    if target.full_defense or attack.tie_defense:
        return None
    extra = attack.stage == "extra"
    return next((r for r in target.defenses if r.kind == kind and r.extra == extra), None)


def may_abort(state: State, attack: Attack) -> bool:
    """V20-5.7: a target that has not yet resolved a regular action this turn, and is not in
    full defense, may abort to it when attacked (never against an ambush, before turn 1)."""
    target = state.fighter(attack.target)
    return (attack.defendable and attack.stage != "ambush" and can_defend(target)
            and not target.full_defense and not target.acted and not driven(target)
            and not (target.rotschreck and not target.controlled))


def driven(f: Fighter) -> bool:
    """In frenzy, or cornered in Rötschreck, and not held by Willpower: it may not defend
    (V20-12.8, V20-12.10)."""
    return not f.controlled and (f.frenzy or (f.rotschreck and f.cornered))


def check_defend(state: State, step: Step, event: Defend) -> None:
    attack = step.attack
    assert attack is not None
    if event.defense is not None and event.defense not in defense_options(state, attack):
        raise RuleViolation(_why_not(state, attack, event.defense), f"{event.defense} is not a "
                            "defense "
                            f"{state.fighter(attack.target).name} may use against this attack "
                            f"({', '.join(defense_options(state, attack)) or 'none'})")
    target = state.fighter(attack.target)
    if event.willpower and (target.willpower_success or target.willpower < 1
                            or event.defense is None):
        raise RuleViolation("V20-11.1", "one Willpower point a turn for an automatic success, "
                            "on a roll made, from a pool not empty")


def _why_not(state: State, attack: Attack, kind: str) -> str:
    """The rule a refused defense breaks: what block and parry can stop (V20-7.2, 7.4), else
    the choice of a defense one may use (V20-7.6)."""
    weapon = load_catalog().weapons[attack.act.weapon or ""]
    target = state.fighter(attack.target)
    if kind in ("block", "parry") and not _stops(target, kind, weapon):
        return "V20-7.2" if kind == "block" else "V20-7.4"
    return "V20-7.6"


def defended(state: State, step: Step, event: Defend, out: Out) -> None:
    attack = step.attack
    assert attack is not None
    target = state.fighter(attack.target)
    if event.defense is None:
        _hit(state, attack, attack.successes, out)
        return
    if event.willpower:
        target.willpower -= 1
        target.willpower_success = True
        out.append(ch.Spent(character=target.id, pool="willpower", points=1,
                            purpose="success"))
    pool = _defense_pool(state, target, event.defense, attack, event.willpower)
    _use_defense(target, event.defense, attack)
    attack.defense = event.defense
    state.queue.insert(0, roll_step(target, event.defense, pool, attack=attack,
                                    data={"attacker": attack.attacker}))


def _use_defense(target: Fighter, kind: str, attack: Attack) -> None:
    if target.full_defense:
        target.defended += 1
    else:
        ready = _declared(target, kind, attack)
        if ready is not None:
            target.defenses.remove(ready)
            attack.parry_weapon = ready.act.weapon


def check_abort(state: State, step: Step, event: Abort) -> None:
    attack = step.attack
    assert attack is not None
    if step.data.get("aborted") or not may_abort(state, attack):
        raise RuleViolation("V20-5.7", f"{state.fighter(attack.target).name} may not abort now")
    if event.willpower and state.fighter(attack.target).willpower < 1:
        raise RuleViolation("V20-11.5", "no Willpower left to spend")


def aborting(state: State, step: Step, event: Abort, out: Out) -> None:
    attack = step.attack
    assert attack is not None
    target = state.fighter(attack.target)
    again = Step(what="defend", actor=target.seat, character=target.id, attack=attack,
                 data={"aborted": True})
    state.queue.insert(0, again)
    if event.willpower:
        target.willpower -= 1
        out.append(ch.Spent(character=target.id, pool="willpower", points=1, purpose="abort"))
        go_full_defense(state, target, out)
    else:
        state.queue.insert(0, roll_step(target, "abort", pools.willpower(target), attack=attack))


def _abort_rolled(state: State, step: Step, score: Score, out: Out) -> None:
    if score.success:
        go_full_defense(state, state.fighter(step.character or ""), out)


def go_full_defense(state: State, f: Fighter, out: Out) -> None:
    """V20-5.6, 5.7: full defense replaces the declaration; extra actions are forfeited and
    their blood stays spent."""
    f.full_defense = True
    f.actions = [Act(action="full_defense")]
    f.extra, f.defenses = [], []
    state.agenda = [(fid, i, stage) for fid, i, stage in state.agenda if fid != f.id]
    out.append(ch.FullDefense(character=f.id))


def _defense_rolled(state: State, step: Step, score: Score, out: Out) -> None:
    """V20-7.1: the defense's successes come off the attack's; V20-7.5: a parry that beats an
    unarmed attack strikes back, undefendable."""
    attack = step.attack
    assert attack is not None
    attack.defense_successes = score.net
    left = attack.successes - score.net
    weapon = load_catalog().weapons[attack.act.weapon or ""]
    if left >= 1:
        _hit(state, attack, left, out)
        return
    out.append(ch.Missed(attacker=attack.attacker, target=attack.target, weapon=weapon.id,
                         why="defended"))
    parry = parrying_weapon(state.fighter(attack.target), attack.parry_weapon)
    if attack.defense == "parry" and weapon.is_unarmed and left < 0 and parry is not None:
        out.append(ch.Counter(parrier=attack.target, attacker=attack.attacker,
                              successes=-left))
        counter = Attack(attacker=attack.target, target=attack.attacker,
                         act=Act(action="attack", target=attack.attacker, weapon=parry.id),
                         stage="counter", defendable=False)
        _roll_damage(state, counter, -left, out)


def _hit(state: State, attack: Attack, successes: int, out: Out) -> None:
    out.append(ch.Hit(attacker=attack.attacker, target=attack.target,
                      weapon=attack.act.weapon or "", successes=successes))
    _roll_damage(state, attack, successes, out)


def _roll_damage(state: State, attack: Attack, successes: int, out: Out) -> None:
    """V20-8.1: the damage roll, which cannot botch (V20-2.10)."""
    f = state.fighter(attack.attacker)
    weapon = load_catalog().weapons[attack.act.weapon or ""]
    pool = pools.damage(f, weapon, successes, attack.act.aim)
    state.queue.insert(0, roll_step(f, "damage", pool, can_botch=False, attack=attack,
                                    data={"type": weapon.type, "target": attack.target}))


def _damage_rolled(state: State, step: Step, score: Score, out: Out) -> None:
    attack = step.attack
    assert attack is not None
    target = state.fighter(attack.target)
    kind = step.data["type"]
    pool = pools.soak(target, kind)
    if pool.dice < 1 or score.net < 1:  # V20-2.13: a pool below 1 die scores 0; no damage,
        take_damage(target, kind, score.net, 0, out, attack)  # nothing to soak
        return
    state.queue.insert(0, roll_step(target, "soak", pool, can_botch=False, attack=attack,
                                    data={"type": kind, "damage": score.net}))


def _soak_rolled(state: State, step: Step, score: Score, out: Out) -> None:
    take_damage(state.fighter(step.character or ""), step.data["type"], step.data["damage"],
                score.net, out, step.attack)


def take_damage(f: Fighter, kind: str, damage: int, soaked: int, out: Out,
                attack: Attack | None = None) -> None:
    """V20-8.7, V20-9.2 to 9.6: the levels left after soak go on the track."""
    levels = health.levels_taken(f.kind, kind, damage, soaked)
    taken = health.take(f.track, f.kind, kind, levels, status=f.status)
    f.track, f.status = taken.track, taken.status
    out.append(ch.Damaged(character=f.id, damage_type=kind, damage=damage, soaked=soaked,
                          levels=levels, track=f.track.drawing, status=f.status,
                          attacker=None if attack is None else attack.attacker,
                          weapon=None if attack is None else attack.act.weapon,
                          stage=None if attack is None else attack.stage))
    thirst(f, out)


# Other actions ---------------------------------------------------------------------------------

def _heal(state: State, f: Fighter, act: Act, k: int, out: Out) -> None:
    """V20-5.8, V20-10.3: a lone heal needs no roll; one of several needs Stamina + Survival at
    difficulty 8, and costs its BP only on a success."""
    if len(f.actions) == 1:
        heal_box(f, act.heal or "", out)
        return
    pool = pools.heal(f, k, 1 if act.willpower else 0)
    if pool.dice < 1:
        out.append(ch.Forfeited(character=f.id, action="heal", why="no dice left"))
        return
    state.queue.insert(0, roll_step(f, "heal", pool, data={"heal": act.heal}))


def heal_box(f: Fighter, kind: str, out: Out) -> None:
    if f.blood < 1 or f.track.count(kind) == 0:
        out.append(ch.Forfeited(character=f.id, action="heal", why=f"no {kind} box or no BP"))
        return
    f.blood -= 1
    f.blood_this_turn += 1
    f.track = health.heal(f.track, kind)
    out.append(ch.Spent(character=f.id, pool="blood", points=1, purpose="heal"))
    was = f.status
    f.status = health.status_of(f.track, f.kind, f.status)
    out.append(ch.Healed(character=f.id, damage_type=kind, track=f.track.drawing))
    if f.status != was:
        out.append(ch.Became(character=f.id, status=f.status))
    thirst(f, out)


def _heal_rolled(state: State, step: Step, score: Score, out: Out) -> None:
    f = state.fighter(step.character or "")
    if score.success:
        heal_box(f, step.data["heal"], out)
    else:
        out.append(ch.Forfeited(character=f.id, action="heal", why="the roll failed"))


def _feed(state: State, f: Fighter, act: Act, out: Out) -> None:
    """V20-5.11, V20-10.7: up to the amount declared, what the vessel holds and the feeder's
    room; a mortal drained to 0 BP dies."""
    vessel = state.fighter(act.target or "")
    if not in_scene(vessel):
        out.append(ch.Forfeited(character=f.id, action="feed", why="the vessel is gone"))
        return
    points = min(act.amount, declare.MAX_FEED - f.drunk.get(vessel.id, 0), vessel.blood,
                 f.max_blood - f.blood)
    f.drunk[vessel.id] = f.drunk.get(vessel.id, 0) + points
    vessel.blood -= points
    f.blood += points
    f.fed = vessel.fed = True
    out.append(ch.Fed(character=f.id, vessel=vessel.id, points=points))
    if vessel.kind == "mortal" and vessel.blood == 0:
        vessel.status = "dead"
        out.append(ch.Became(character=vessel.id, status="dead"))


# Ambushes (V20-6.7 to 6.9) ---------------------------------------------------------------------

def _ambush_rolled(state: State, step: Step, score: Score, out: Out) -> None:
    """A botch counts as 0 successes (V20-6.7); the target's roll follows."""
    state.ambush_scores.append(0 if score.botch else score.net)


def _notice_rolled(state: State, step: Step, score: Score, out: Out) -> None:
    ambusher_id = step.data["ambusher"]
    attacker = state.ambush_scores.pop()
    target = 0 if score.botch else score.net
    pair = step.data
    if pair.get("willpower"):  # spent on the ambusher's roll, told once the pair is rolled
        f = state.fighter(ambusher_id)
        f.willpower -= 1
        out.append(ch.Spent(character=f.id, pool="willpower", points=1, purpose="success"))
    if attacker < target:
        out.append(ch.Ambushed(ambusher=ambusher_id, target=step.character or "",
                               result="noticed"))
        return
    won = attacker > target
    out.append(ch.Ambushed(ambusher=ambusher_id, target=step.character or "",
                           result="free_attack" if won else "first",
                           bonus=attacker - target))
    ambusher = state.fighter(ambusher_id)
    state.queue.insert(0, Step(what="declare", actor=ambusher.seat, character=ambusher.id,
                               data={"ambush": step.character, "bonus": attacker - target,
                                     "won": won, **{k: v for k, v in pair.items()
                                                    if k != "ambusher"}}))


def ambush_attack(state: State, step: Step, act: Act, out: Out) -> None:
    """V20-6.9: the free attack, with the extra successes automatic and no defense on a win;
    on a tie, no bonus and one full-pool defense."""
    won = bool(step.data["won"])
    attack = Attack(attacker=step.character or "", target=act.target or "", act=act,
                    stage="ambush", auto=int(step.data["bonus"]) if won else 0,
                    defendable=not won, tie_defense=not won)
    start_attack(state, attack, out)


def check_ambush_attack(state: State, step: Step, acts: tuple[Act, ...],
                        extra: tuple[Act, ...]) -> Act:
    f = state.fighter(step.character or "")
    if len(acts) != 1 or acts[0].action != "attack" or extra \
            or acts[0].target != step.data["ambush"]:
        raise RuleViolation("V20-6.9", f"{f.name}'s free attack is one attack on "
                            f"{state.fighter(step.data['ambush']).name}")
    weapon_of(f, acts[0].weapon)
    return acts[0]


ROLLED: dict[str, Callable[[State, Step, Score, Out], None]] = {
    "attack": _attack_rolled, "block": _defense_rolled, "dodge": _defense_rolled,
    "parry": _defense_rolled, "damage": _damage_rolled, "soak": _soak_rolled,
    "abort": _abort_rolled, "heal": _heal_rolled, "ambush": _ambush_rolled,
    "notice": _notice_rolled,
}
