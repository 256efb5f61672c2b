"""Phase 4's declarations (V20-5): what a character may declare, checked whole before it is
recorded, and the record the resolution phases read.

A declaration lists the regular actions in order (the k-th of N >= 2 at +k difficulty and k
dice fewer, V20-5.2) and the Celerity extra actions activated in phase 2 (V20-5.5).
"""
from __future__ import annotations

from typing import Any

from engine.ruleset import RuleViolation
from engine.v20 import changes as ch
from engine.v20 import pools
from engine.v20.catalog import Weapon, load_catalog
from engine.v20.spends import blood_limit
from engine.v20.state import Fighter, Ready, State
from engine.v20.status import can_act, in_scene, spends_blood
from events.v20 import Act, Declare

DEFENSES = ("block", "dodge", "parry")
EXTRA_ACTIONS = ("attack", "block", "dodge", "parry", "reload")
"""V20-5.5: what a Celerity extra action may be."""
ALONE = ("full_defense", "flee")
"""V20-5.6, V20-5.9: actions that must be the only regular one."""
MAX_FEED = 3
"""V20-10.7: BP a vampire takes from a vessel in a turn."""


def multiple(index: int, count: int) -> int:
    """V20-5.2: the k of the index-th of `count` regular actions (0 for a single one)."""
    return index + 1 if count >= 2 else 0


def weapon_of(f: Fighter, weapon_id: str | None) -> Weapon:
    """The weapon an attack names, one the character carries (the unarmed ones are always
    there) and can use (claws need Protean 2)."""
    catalog = load_catalog()
    if weapon_id is None or weapon_id not in f.weapons:
        raise RuleViolation("V20-6.1", f"{f.name} attacks with {weapon_id!r}; it has "
                            f"{', '.join(f.weapons)}")
    weapon = catalog.weapons[weapon_id]
    for name in ("celerity", "potence", "fortitude", "protean", "dominate"):
        need = getattr(weapon.requires, name)
        if need and f.discipline(name) < need:
            raise RuleViolation("V20-6.1", f"{weapon.name} needs {name.title()} {need}; "
                                f"{f.name} has {f.discipline(name)}")
    return weapon


def parrying_weapon(f: Fighter, named: str | None = None) -> Weapon | None:
    """V20-7.4: a parry needs a melee weapon: the one named, else the first it carries."""
    catalog = load_catalog()
    for weapon_id in ([named] if named else list(f.weapons)):
        weapon = catalog.weapons.get(weapon_id or "")
        if weapon is not None and weapon_id in f.weapons and weapon.can_parry:
            return weapon
    return None


def check_declaration(state: State, f: Fighter, event: Declare) -> None:
    acts, extra = event.actions, event.extra
    if not acts:
        _check_nothing(state, f, extra)
        return
    if not can_act(f):
        _check_incapacitated(f, acts, extra)
    _check_conduct(f, acts, extra)
    _check_shape(f, acts, extra)
    for index, act in enumerate(acts):
        _check_act(state, f, act, multiple(index, len(acts)))
    for act in extra:
        if act.action not in EXTRA_ACTIONS:
            raise RuleViolation("V20-5.5", f"an extra action is an attack, block, dodge, "
                                f"parry or reload, not {act.action}")
        _check_act(state, f, act, 0)
    for vessel in {a.target for a in acts if a.action == "feed"}:
        drunk = f.drunk.get(vessel or "", 0) + sum(a.amount for a in acts
                                                  if a.action == "feed" and a.target == vessel)
        if drunk > MAX_FEED:
            raise RuleViolation("V20-10.7", f"{f.name} may take {MAX_FEED} BP a turn from one "
                                f"vessel, not {drunk}")
    heals = sum(1 for a in acts if a.action == "heal")
    if heals > 1 and f.blood_this_turn + heals > min(blood_limit(f), f.blood):
        raise RuleViolation("V20-10.8", f"{f.name} may spend {blood_limit(f)} BP a turn, not "
                            f"{f.blood_this_turn + heals}")
    if sum(a.willpower for a in (*acts, *extra)) + f.willpower_success > 1:
        raise RuleViolation("V20-11.1", "one Willpower point a turn for an automatic success")
    if any(a.willpower for a in (*acts, *extra)) and f.willpower < 1:
        raise RuleViolation("V20-11.5", f"{f.name} has no Willpower left to spend")


def _check_nothing(state: State, f: Fighter, extra: tuple[Act, ...]) -> None:
    """A character may let its turn go by, declaring nothing (its activated Celerity lapses,
    the blood spent); one in frenzy must attack if any attack is open to it (V20-12.8)."""
    if extra:
        raise RuleViolation("V20-5.5", "extra actions come with a declaration of regular ones")
    forced = not f.controlled and (f.frenzy or (f.rotschreck and f.cornered))
    if forced and can_act(f) and any(_accepted(state, f, (attack,)) for attack in
                                     _open_attacks(state, f)):
        raise RuleViolation("V20-12.8", f"{f.name} is in frenzy: it must attack")
    if not forced and f.rotschreck and not f.controlled and can_act(f):
        raise RuleViolation("V20-12.10", f"{f.name} is in Rötschreck: it must flee")


def _open_attacks(state: State, f: Fighter) -> list[Act]:
    return [Act(action="attack", target=t.id, weapon=w) for t in state.fighters.values()
            if t.seat != f.seat and in_scene(t) for w in f.weapons]


def _accepted(state: State, f: Fighter, acts: tuple[Act, ...]) -> bool:
    try:
        _check_conduct(f, acts, ())
        for index, act in enumerate(acts):
            _check_act(state, f, act, multiple(index, len(acts)))
    except RuleViolation:
        return False
    return True


def _check_incapacitated(f: Fighter, acts: tuple[Act, ...], extra: tuple[Act, ...]) -> None:
    """V20-5.13: Incapacitated, only an unrolled heal (a lone heal)."""
    if len(acts) != 1 or acts[0].action != "heal" or extra:
        raise RuleViolation("V20-5.13", f"{f.name} is {f.status}: it may declare only a heal")


def _check_conduct(f: Fighter, acts: tuple[Act, ...], extra: tuple[Act, ...]) -> None:
    """V20-12.8: in frenzy (or cornered in Rötschreck), exactly one attack and Celerity attacks
    only; V20-12.10: in Rötschreck, flee. Willpower spent on control frees the declaration."""
    if f.controlled or not can_act(f):  # an Incapacitated one may only heal (V20-5.13)
        return
    if f.frenzy or (f.rotschreck and f.cornered):
        if [a.action for a in acts] != ["attack"] or any(a.action != "attack" for a in extra):
            raise RuleViolation("V20-12.8", f"{f.name} is in frenzy: one attack, and Celerity "
                                "attacks only")
    elif f.rotschreck and [a.action for a in acts] != ["flee"]:
        raise RuleViolation("V20-12.10", f"{f.name} is in Rötschreck: it must flee")


def _check_shape(f: Fighter, acts: tuple[Act, ...], extra: tuple[Act, ...]) -> None:
    kinds = [a.action for a in acts]
    if kinds.count("attack") > 1:
        raise RuleViolation("V20-5.3", "one attack a turn among the regular actions; more "
                            "need Celerity")
    for alone in ALONE:
        if alone in kinds and len(kinds) > 1:
            rule = "V20-5.6" if alone == "full_defense" else "V20-5.9"
            raise RuleViolation(rule, f"{alone.replace('_', ' ')} must be the only action")
    if "full_defense" in kinds and extra:
        raise RuleViolation("V20-5.6", "full defense forfeits the extra actions")
    if "full_defense" not in kinds and len(extra) != f.celerity_actions:
        raise RuleViolation("V20-5.5", f"{f.name} activated {f.celerity_actions} extra "
                            f"action(s) and declares {len(extra)}")


def _check_act(state: State, f: Fighter, act: Act, k: int) -> None:
    if act.action == "attack":
        _check_attack(state, f, act, k)
    elif act.action in DEFENSES:
        _check_defense(f, act, k)
    elif act.action == "heal":
        _check_heal(f, act)
    elif act.action == "feed":
        _check_feed(state, f, act)
    elif act.action == "reload":
        weapon = weapon_of(f, act.weapon)
        if not weapon.needs_rounds:
            raise RuleViolation("V20-5.10", f"{weapon.name} takes no rounds to reload")


def _check_attack(state: State, f: Fighter, act: Act, k: int) -> None:
    target = state.fighters.get(act.target or "")
    if target is None or target.seat == f.seat or not in_scene(target):
        raise RuleViolation("V20-6.12", f"{act.target!r} is no legal target: a character of "
                            "the other side still in the scene")
    weapon = weapon_of(f, act.weapon)
    if weapon.needs_rounds and f.rounds.get(weapon.id, 0) < 1:
        raise RuleViolation("V20-5.10", f"{f.name}'s {weapon.name} has no rounds left")
    if act.aim is not None and act.aim not in load_catalog().target_sizes:
        raise RuleViolation("V20-6.6", f"aim at medium, small or precise, not {act.aim!r}")
    pool = pools.attack(f, weapon, k=k, aim=act.aim, specialty=act.specialty)
    if pool.dice < 1:
        raise RuleViolation("V20-5.12", f"{f.name}'s attack would roll {pool.dice} dice")


def _check_defense(f: Fighter, act: Act, k: int) -> None:
    if act.action == "parry" and parrying_weapon(f, act.weapon) is None:
        raise RuleViolation("V20-7.4", f"{f.name} has no melee weapon to parry with")
    weapon = parrying_weapon(f, act.weapon) if act.action == "parry" else None
    pool = pools.defense(f, act.action, k=k, specialty=act.specialty,
                         tags=weapon.specialties if weapon else ())
    if pool.dice < 1:
        raise RuleViolation("V20-5.12", f"{f.name}'s {act.action} would roll {pool.dice} dice")


def _check_heal(f: Fighter, act: Act) -> None:
    """V20-5.8, V20-10.3, V20-10.8: 1 BP within the turn's limit, a box of that type."""
    if not spends_blood(f):
        raise RuleViolation("V20-3.5", f"{f.name} is a mortal: it cannot heal with blood")
    if act.heal not in ("bashing", "lethal") or f.track.count(act.heal) == 0:
        raise RuleViolation("V20-10.3", f"{f.name} has no {act.heal or 'named'} box to heal "
                            "(aggravated heals only outside the match, V20-10.4)")
    if f.blood < 1 or f.blood_this_turn + 1 > blood_limit(f):
        raise RuleViolation("V20-10.8", f"{f.name} may spend {blood_limit(f)} BP a turn and "
                            f"has spent {f.blood_this_turn} (of {f.blood} BP)")


def _check_feed(state: State, f: Fighter, act: Act) -> None:
    """V20-5.11: a vampire feeds on a willing character of its side, or an Incapacitated
    mortal or ghoul, up to 3 BP a turn (V20-10.7)."""
    vessel = state.fighters.get(act.target or "")
    if not f.sheet.is_vampire:
        raise RuleViolation("V20-5.11", f"{f.name} is a {f.kind}: only a vampire feeds")
    if vessel is None or vessel is f or not in_scene(vessel):
        raise RuleViolation("V20-5.11", f"no vessel {act.target!r} in the scene")
    willing = vessel.seat == f.seat
    helpless = vessel.kind in ("mortal", "ghoul") and vessel.status == "incapacitated"
    if not (willing or helpless):
        raise RuleViolation("V20-5.11", f"{vessel.name} is neither of {f.name}'s side nor an "
                            "Incapacitated mortal or ghoul")
    if not 1 <= act.amount <= MAX_FEED:
        raise RuleViolation("V20-10.7", f"a vampire takes 1 to {MAX_FEED} BP a turn, not "
                            f"{act.amount}")


def record(f: Fighter, event: Declare, out: list[Any]) -> None:
    f.actions, f.extra = list(event.actions), list(event.extra)
    f.shown |= {a.weapon for a in (*event.actions, *event.extra) if a.weapon}
    count = len(event.actions)
    f.defenses = [Ready(a, multiple(i, count), False) for i, a in enumerate(event.actions)
                  if a.action in DEFENSES]
    f.defenses += [Ready(a, 0, True) for a in event.extra if a.action in DEFENSES]
    if any(a.willpower for a in (*event.actions, *event.extra)):  # spent as declared (V20-11.1)
        f.willpower -= 1
        f.willpower_success = True
        out.append(ch.Spent(character=f.id, pool="willpower", points=1, purpose="success"))
    f.full_defense = any(a.action == "full_defense" for a in event.actions)
    out.append(ch.Declared(character=f.id, actions=tuple(a.action for a in event.actions),
                           extra=tuple(a.action for a in event.extra)))
