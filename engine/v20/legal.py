"""The V20 decisions a bot chooses among: for each step, a menu of events the rules accept.

A declaration can combine any actions, targets, weapons, aims, tags and spends, far too many to
list; the menu holds what a player weighs, each entry checked by the rules before it is offered,
so a bot never picks a refused event. The rules themselves accept any legal declaration a log
holds, listed here or not.

- Commitments (phase 2, V20-4.1): per character, every combination of its useful spends
  (Celerity 0 to its rating, V20-5.5; blood boosts to Dexterity and Strength, V20-10.5; ignoring
  wounds once they cost dice, V20-11.3; control in frenzy or Rötschreck, V20-12.8, V20-12.11;
  resisting a derangement, V20-11.2), as one commit each. The checks of a commit are made
  character by character (its blood, its per-turn limit, its Willpower: V20-10.8, V20-11.5), so
  a side may commit the union of one entry per character; the menu also lists those unions
  while there are few of them.
- Declarations (phase 4, V20-5): an attack on each foe still in the fight with each weapon
  (a kick only for the unarmed, V20-6.2), claiming the specialty when it applies (V20-2.12), alone with every aim (V20-6.6) and with or
  without a Willpower success (V20-11.1); an attack with a defense behind it, with a heal before
  or after it (V20-5.8), with a reload after it (V20-5.10); the defenses, full defense, flee,
  heals, reloads and feeding alone. Celerity's extra actions (V20-5.5) repeat the attack, or
  dodge, or go to the other foes; with no attack declared they attack any foe, or dodge. A
  typical menu holds some 40 declarations (at most about 130, for a Celerity 3 character
  against two foes), each checked by engine.v20.declare in some 8 µs.
- Defenses (V20-7.6): none, each defense allowed, each with a Willpower success, and the
  aborts to full defense (V20-5.7).

A character awaited for a declaration the rules refuse whole (Incapacitated, so only a heal,
V20-5.13, and in frenzy or cornered, so only an attack, V20-12.8) is offered the concession
(V20-14.2), the one event the rules then accept.

Targets are the foes still in the fight (V20-9.10): striking a mortal already Incapacitated or
a vampire in torpor changes nothing a player fights for, so the menu leaves it out.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from engine.ruleset import STORYTELLER, RuleViolation
from engine.v20 import combat, declare, pools, spends
from engine.v20.catalog import load_catalog
from engine.v20.state import Fighter, State, Step
from engine.v20.status import can_act, in_scene, out_of_fight, spends_blood
from events.v20 import (
    Abort,
    Act,
    Aim,
    Boost,
    Boosted,
    Celerity,
    Commit,
    Concede,
    Confirm,
    Control,
    Declare,
    Defend,
    Defense,
    Healed,
    IgnoreWounds,
    NameDerangement,
    Resist,
    Rulings,
    Spend,
)

DERANGEMENTS = ("Paranoia", "Bloodlust", "Fugue", "Megalomania")
"""Names the simulated Storyteller gives a derangement after a conscience botch (V20-13.5)."""
AIMS: tuple[Aim | None, ...] = (None, "small", "precise")
"""V20-6.6: a medium target adds difficulty and no damage, so no player aims at one."""
MAX_BOOST = 3
"""The most blood boost points one commit offers (V20-10.5): the trait maximum and the
per-turn limit (V20-10.8) usually stop it sooner."""
MAX_UNIONS = 48
"""A side's commits are listed as unions of its characters' entries up to this many."""
DEFENSES: tuple[Defense, ...] = ("dodge", "parry", "block")
"""V20-7.2 to 7.4, in the order a declaration offers them."""
KICK = "kick"
WOUNDS_BITE = 2
"""Boxes from which wounds take dice (V20-9.1: Hurt, -1), so ignoring them may pay (V20-11.3)."""


def legal_events(state: State, actor: int) -> list[Any]:
    head = state.queue[0]
    if actor == STORYTELLER:
        return _storyteller(head)
    if head.what == "commit":
        return _commits(state, actor)
    if head.what == "declare":
        return _declarations(state, head)
    if head.what == "defend":
        return _defenses(state, head)
    return []


def _storyteller(head: Step) -> list[Any]:
    if head.what == "confirm":
        return [Confirm(confirmed=True), Confirm(confirmed=False)]
    if head.what == "derangement":
        return [NameDerangement(character=head.character or "", derangement=name)
                for name in DERANGEMENTS]
    return [Rulings()]


def _accepted(check: Callable[..., object], *args: Any) -> bool:
    """The rules' own check of an entry, made before it is offered."""
    try:
        check(*args)
    except RuleViolation:
        return False
    return True


# Commitments (phase 2) ---------------------------------------------------------------------------

def _commits(state: State, seat: int) -> list[Commit]:
    """No spend, each character's accepted spend sets alone, and their unions while few."""
    per_character = [[spent for spent in _spend_sets(f)
                      if _accepted(spends.check_commit, state, Commit(seat=seat, spends=spent))]
                     for f in state.of_side(seat)]
    per_character = [sets for sets in per_character if sets]
    menu = [Commit(seat=seat)]
    menu += [Commit(seat=seat, spends=s) for sets in per_character for s in sets]
    unions = 1
    for sets in per_character:
        unions *= len(sets) + 1
    if len(per_character) > 1 and unions <= MAX_UNIONS:
        for chosen in itertools.product(*[[(), *sets] for sets in per_character]):
            if sum(1 for s in chosen if s) > 1:
                menu.append(Commit(seat=seat, spends=tuple(itertools.chain(*chosen))))
    return menu


def _spend_sets(f: Fighter) -> Iterator[tuple[Spend, ...]]:
    """Every non-empty combination of one choice per facet (the checks drop the unaffordable)."""
    facets = [_celerity_choices(f), _boost_choices(f), _willpower_choices(f)]
    for chosen in itertools.product(*facets):
        spent = tuple(itertools.chain(*chosen))
        if spent:
            yield spent


def _celerity_choices(f: Fighter) -> list[tuple[Spend, ...]]:
    """V20-5.5: 0 to the rating extra actions, for a vampire or ghoul able to act."""
    rating = f.discipline("celerity")
    if not rating or not spends_blood(f) or not can_act(f):
        return [()]
    return [(), *[(Celerity(character=f.id, actions=n),) for n in range(1, rating + 1)]]


def _boost_choices(f: Fighter) -> list[tuple[Spend, ...]]:
    """V20-10.5: Dexterity and Strength raised by 1 BP a point, up to MAX_BOOST points."""
    if not spends_blood(f) or not can_act(f):
        return [()]
    room = min(MAX_BOOST, spends.blood_limit(f) - f.blood_this_turn, f.blood)
    choices: list[tuple[Spend, ...]] = [()]
    for dex, strength in itertools.product(range(room + 1), repeat=2):
        if 1 <= dex + strength <= room:
            raised: tuple[tuple[Boosted, int], ...] = (("dexterity", dex), ("strength", strength))
            choices.append(tuple(Boost(character=f.id, attribute=attribute, points=points)
                                 for attribute, points in raised if points))
    return choices


def _willpower_choices(f: Fighter) -> list[tuple[Spend, ...]]:
    """V20-11.3 ignoring wounds once they bite; V20-12.8, 12.11 control; V20-11.2 resisting."""
    uses: list[Spend] = []
    if f.track.boxes_filled >= WOUNDS_BITE and can_act(f) and not f.frenzy:
        uses.append(IgnoreWounds(character=f.id))
    if f.frenzy or f.rotschreck:
        uses.append(Control(character=f.id))
    if f.manifest:
        uses.append(Resist(character=f.id))
    return [tuple(chosen) for n in range(len(uses) + 1)
            for chosen in itertools.combinations(uses, n)]


# Declarations (phase 4) --------------------------------------------------------------------------

def _declarations(state: State, head: Step) -> list[Any]:
    f = state.fighter(head.character or "")
    if "ambush" in head.data:
        return _ambush_declarations(state, head, f)
    foes = _foes(state, f)
    vessels = [v for v in state.fighters.values() if v is not f and in_scene(v)]
    menu: list[Any] = []
    for acts, extras in _plans(f, foes, vessels):
        for extra in extras:
            event = Declare(seat=f.seat, character=f.id, actions=acts, extra=extra)
            if _accepted(declare.check_declaration, state, f, event):
                menu.append(event)
    return menu or [Concede(seat=f.seat)]


def _foes(state: State, f: Fighter) -> list[Fighter]:
    """The legal targets (V20-6.12) still in the fight (V20-9.10)."""
    return [t for t in state.fighters.values()
            if t.seat != f.seat and in_scene(t) and not out_of_fight(t)]


def _ambush_declarations(state: State, head: Step, f: Fighter) -> list[Declare]:
    """V20-6.9: the free attack on the ambushed, with every weapon, aim and Willpower."""
    target = state.fighter(head.data["ambush"])
    menu = []
    for attack in _attacks(f, [target], AIMS, (False, True)):
        event = Declare(seat=f.seat, character=f.id, actions=(attack,))
        if _usable(f, attack) and _accepted(combat.check_ambush_attack, state, head,
                                            event.actions, event.extra):
            menu.append(event)
    return menu


def _usable(f: Fighter, attack: Act) -> bool:
    """The free attack is checked for its weapon only (V20-6.9); a gun must be loaded too
    (V20-5.10) or the attack would be forfeited."""
    weapon = load_catalog().weapons[attack.weapon or ""]
    return not weapon.needs_rounds or f.rounds.get(weapon.id, 0) >= 1


Plan = tuple[tuple[Act, ...], list[tuple[Act, ...]]]
"""Regular actions, and the extra-action sets each may come with."""


def _plans(f: Fighter, foes: list[Fighter], vessels: list[Fighter]) -> Iterator[Plan]:
    plain = _attacks(f, foes, (None,), (False,))
    for attack in _attacks(f, foes, AIMS, (False, True)):
        spread = attack.aim is None and not attack.willpower
        yield (attack,), _attack_extras(f, attack, foes, spread=spread)
    for attack in _attacks(f, foes, (None,), (False, True)):
        for kind in DEFENSES if not attack.willpower else ("dodge",):
            yield (attack, Act(action=kind)), _attack_extras(f, attack, foes, spread=False)
    for attack, healed in itertools.product(plain, _healable(f)):
        heal = Act(action="heal", heal=healed)
        for acts in ((attack, heal), (heal, attack)):
            yield acts, _attack_extras(f, attack, foes, spread=False)
    for attack, gun in itertools.product(plain, _guns(f)):
        reload = Act(action="reload", weapon=gun)
        yield (attack, reload), _attack_extras(f, attack, foes, spread=False)
    for alone in _other_actions(f, vessels):
        yield alone, _free_extras(f, alone, foes)


def _other_actions(f: Fighter, vessels: list[Fighter]) -> Iterator[tuple[Act, ...]]:
    """Declarations without an attack: defenses, full defense, flight, heals, reloads, and
    feeding on each vessel the rules allow (V20-5.11)."""
    for kind in DEFENSES:
        yield (Act(action=kind),)
    yield Act(action="dodge"), Act(action="dodge")
    yield (Act(action="full_defense"),)
    yield (Act(action="flee"),)
    for healed in _healable(f):
        yield (Act(action="heal", heal=healed),)
        yield Act(action="heal", heal=healed), Act(action="dodge")
    for first, second in itertools.combinations_with_replacement(_healable(f), 2):
        yield Act(action="heal", heal=first), Act(action="heal", heal=second)
    for gun in _guns(f):
        yield (Act(action="reload", weapon=gun),)
    if f.sheet.is_vampire:
        for vessel in vessels:
            yield (Act(action="feed", target=vessel.id, amount=declare.MAX_FEED),)


def _healable(f: Fighter) -> list[Healed]:
    """The box types a heal may mend now (V20-10.3): lethal first, as it is the worse."""
    if not spends_blood(f) or f.blood < 1:
        return []
    kinds: tuple[Healed, ...] = ("lethal", "bashing")
    return [kind for kind in kinds if f.track.count(kind)]


def _guns(f: Fighter) -> list[str]:
    """Weapons a reload fills (V20-5.10), when not full."""
    weapons = load_catalog().weapons
    return [w for w, rounds in f.rounds.items() if rounds < weapons[w].rounds]


def _attacks(f: Fighter, foes: Iterable[Fighter], aims: Iterable[Aim | None],
             willpower: Iterable[bool]) -> list[Act]:
    """Attacks on each foe with each weapon it may use now, claiming the specialty when it
    applies (V20-2.12: a specialty only adds successes)."""
    weapons = load_catalog().weapons
    acts = []
    for target, weapon_id, aim, will in itertools.product(foes, _weapons(f), aims, willpower):
        weapon = weapons[weapon_id]
        if will and f.willpower < 1 or weapon.needs_rounds and f.rounds.get(weapon_id, 0) < 1:
            continue
        acts.append(Act(action="attack", target=target.id, weapon=weapon_id, aim=aim,
                        willpower=will, specialty=pools.specialty_applies(
                            f, weapon.ability, weapon.specialties)))
    return acts


def _weapons(f: Fighter) -> tuple[str, ...]:
    """The attacks offered: a kick (V20-6.2, a harder punch) only to a character who carries no
    weapon of its own."""
    if len(f.weapons) > len(load_catalog().unarmed):
        return tuple(w for w in f.weapons if w != KICK)
    return f.weapons


def _attack_extras(f: Fighter, attack: Act, foes: list[Fighter],
                   spread: bool) -> list[tuple[Act, ...]]:
    """Celerity's extra actions behind an attack (V20-5.5): the same attack again (no second
    Willpower point, V20-11.1); with `spread`, also dodges, or attacks on each other foe."""
    n = f.celerity_actions
    if not n:
        return [()]
    again = Act(action="attack", target=attack.target, weapon=attack.weapon, aim=attack.aim,
                specialty=attack.specialty)
    sets = [(again,) * n]
    if spread:
        sets.append((Act(action="dodge"),) * n)
        sets += [(Act(action="attack", target=t.id, weapon=attack.weapon,
                      specialty=attack.specialty),) * n
                 for t in foes if t.id != attack.target]
    return sets


def _free_extras(f: Fighter, acts: tuple[Act, ...], foes: list[Fighter]
                 ) -> list[tuple[Act, ...]]:
    """The extra actions of a declaration without an attack: attacks with each weapon on each
    foe, or dodges (a flight too may have them: the blood is spent); none under full defense
    (V20-5.6)."""
    n = f.celerity_actions
    if not n or acts[0].action == "full_defense":
        return [()]
    attacks = _attacks(f, foes, (None,), (False,))
    return [(Act(action="dodge"),) * n, *[(a,) * n for a in attacks]]


# Defenses ----------------------------------------------------------------------------------------

def _defenses(state: State, head: Step) -> list[Any]:
    attack = head.attack
    assert attack is not None
    target = state.fighter(attack.target)
    seat, who = target.seat, target.id
    menu: list[Any] = [Defend(seat=seat, character=who)]
    for kind in combat.defense_options(state, attack):
        menu.append(Defend(seat=seat, character=who, defense=kind))  # type: ignore[arg-type]
        with_will = Defend(seat=seat, character=who, defense=kind,  # type: ignore[arg-type]
                           willpower=True)
        if _accepted(combat.check_defend, state, head, with_will):
            menu.append(with_will)
    if not head.data.get("aborted") and combat.may_abort(state, attack):
        menu.append(Abort(seat=seat, character=who))
        if target.willpower:
            menu.append(Abort(seat=seat, character=who, willpower=True))
    return menu
