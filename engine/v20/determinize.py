"""What a V20 side knows of the scene, and whole scenes sampled from it (for winning chances'
playouts, engine.chances, and any bot's lookahead).

`observe` masks, in a copy of the state, everything the side may not see (spec "Hidden
information", engine.v20.view): of every character of another side, its sheet (trait ratings,
specialties, Disciplines, virtues, path, Willpower rating, generation), its blood and Willpower
pools and blood maximum, path and virtue ratings, derangements (a manifesting one keeps only the
fact that one manifests), rounds loaded, blood boosts, the successes its extended virtue rolls
have gathered, and the weapons of Disciplines it has not used; that side's phase-2 commit while
the other is not in (kept as "committed, nothing in it"); its ambushes until their pair is
rolled (the pair under way keeps only that a roll is awaited); the pools of its queued virtue
rolls (computed from its hidden ratings); and the Storyteller's policy, which the organiser
alone sees (a playout's Storyteller brings it from the header, engine.v20.game's
playout_storyteller). What the view shows is kept, and so are the consequences of public
events the state holds (Storyteller triggers and their difficulties, declarations, the weapons
attacked with, feeding); the turn's flags the view keeps to the character's side are told
again from public facts where those fix them (Celerity's extra actions from the extra
declarations, the declared defenses as ready, whether it has acted, whether it fed) and are
otherwise reset as when a turn begins. The spectator (NO_SEAT) sees every side so.

`determinize` draws every masked value with the rng from a prior around the tactical bot's
guesses for the character's public kind (engine.v20.bot GUESSES) and within the catalog's legal
ranges (data/v20): see PRIOR. It keeps the side's own characters exactly and never needs the
real state, so two states that differ only where the side may not see give equal observations
and, with the same rng, equal sampled scenes.
"""
from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass
from typing import Any

import msgspec

from engine.bots import MaskedSight, SeatView
from engine.v20 import pools
from engine.v20.bot import GUESSES, Guess
from engine.v20.catalog import (
    Abilities,
    Attributes,
    Blood,
    Catalog,
    Character,
    Disciplines,
    PathRating,
    Specialties,
    Virtues,
    load_catalog,
)
from engine.v20.declare import DEFENSES, multiple, parrying_weapon
from engine.v20.state import Extended, Fighter, Ready, State, Step
from engine.v20.status import in_scene
from engine.v20.view import view_of, visible_weapons
from events.v20 import Commit

NO_SEAT = -1
"""The seat a spectator's observation is taken for (engine.chances.NO_SEAT): no side's secrets."""
HIDDEN = "hidden"
"""The id of a masked sheet, and the name of a derangement known to manifest but not named."""
AMBUSH_ROLLS = ("ambush", "notice")
VIRTUE_ROLLS = ("frenzy", "rotschreck", "conscience")
PATHS = ("kings", "flayed_hearts", "bones", "einherjar")
"""The paths other than Humanity (V20-13.7), followed with Conviction (V20-3.1)."""


@dataclass(frozen=True, slots=True)
class Prior:
    """What a hidden character is drawn from, on top of its kind's Guess (engine.v20.bot): each
    rating is its guess, one lower (1 in 4), the same (1 in 2) or one higher (1 in 4), then
    clamped to the catalog's range (V20-3.1 to 3.5); pools are drawn between the bounds."""

    generations: tuple[int, ...] = (8, 9, 10, 11, 12, 13)
    """A vampire's generation, uniform (it fixes its blood maximum and trait maximum, V20-3.3)."""
    perception: int = 3
    wits: int = 3
    """The guesses for the Attributes GUESSES leaves out."""
    other_abilities: tuple[tuple[str, int], ...] = (("alertness", 2), ("stealth", 1),
                                                    ("survival", 1), ("leadership", 1))
    """Guesses for the Abilities neither of its attacks nor of its defenses."""
    celerity: tuple[tuple[str, tuple[int, ...]], ...] = (
        ("vampire", (0, 1, 2)), ("ghoul", (0, 0, 1)), ("mortal", (0,)))
    """Celerity by kind, uniform among the values (at least the extra actions it declared)."""
    protean: float = 0.125
    """The chance a vampire has Protean 2 (and so claws it has not shown yet, V20-6.1)."""
    humanity: float = 0.5
    """The chance a vampire follows Humanity (with Conscience); else one of PATHS (Conviction)."""
    instinct: float = 0.1
    """The chance a vampire holds Instinct rather than Self-Control (never one resisting a
    frenzy: Instinct frenzies with no roll, V20-12.4)."""
    virtues: tuple[int, int] = (2, 4)
    path: tuple[int, int] = (4, 8)
    willpower: tuple[int, int] = (3, 7)
    """Virtue, path and Willpower ratings, uniform between the bounds."""
    willpower_spent: int = 2
    """The Willpower pool: the rating less 0 to this many points, uniform (at least 1 left)."""
    blood_share: float = 0.5
    """A vampire's or ghoul's blood pool: uniform from this share of its maximum to the maximum;
    a mortal's is its 10 BP less what was drunk from it this turn."""


PRIOR = Prior()


class V20Sight(MaskedSight, SeatView):
    """A side's observation: its view, and `known`, the state with the holes `observe` made
    (engine.bots.MaskedSight: made when first read). It is also a SeatView, the observation V20
    bots decide from (engine.v20.bot, whose view() is the same), so the simulator may hand it
    to them."""

    known: State
    unseen: tuple[()]
    __setattr__ = object.__setattr__  # type: ignore[assignment]  # SeatView is frozen
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, seat: int, mask: Any) -> None:
        MaskedSight.__init__(self, seat, mask)

    def view(self) -> dict[str, Any]:
        """The side's view, told from `known` (it only shows what the side may see)."""
        return view_of(self.known, self.seat)

    @property  # type: ignore[override]
    def shown(self) -> dict[str, Any]:
        return self.view()


def observe(state: State, seat: int) -> V20Sight:
    """What side `seat` (NO_SEAT: the spectator) may see now, and nothing more."""
    return V20Sight(seat, functools.partial(_masked, state, seat))


def _masked(state: State, seat: int) -> tuple[State, tuple[()]]:
    known = state.copy()
    known.queue = [_masked_step(known, step, seat, head=i == 0)
                   for i, step in enumerate(known.queue)]
    for f in known.fighters.values():
        if f.seat != seat:
            _mask_fighter(known, f, seat)
    known.committed = {side: commit if side == seat else Commit(seat=side)
                       for side, commit in known.committed.items()}
    known.ambushes = [a for a in known.ambushes if state.fighter(a.ambusher).seat == seat]
    known.policy = None
    return known, ()


def _mask_fighter(known: State, f: Fighter, seat: int) -> None:
    """Hide in place what `seat` may not see of another side's `f` (its copy in `known`)."""
    f.weapons = tuple(visible_weapons(f, seat))
    f.sheet = Character(id=HIDDEN, name=f.name, kind=f.sheet.kind, attributes=_ONES,
                        virtues=Virtues(courage=1), path=PathRating(id="humanity", rating=0),
                        willpower=1, blood=Blood(start=0, max=0),
                        weapons=tuple(w for w in f.weapons if w not in load_catalog().unarmed),
                        armor=f.armor.id if f.armor else None)
    f.blood = f.max_blood = f.willpower = f.path = f.path_virtue = 0
    f.rounds = {weapon: 0 for weapon in f.rounds if weapon in f.weapons}
    f.derangements, f.boosts = [], {}
    f.manifest = None if f.manifest is None else HIDDEN
    f.tests = [Extended(t.kind, t.cause, t.difficulty) for t in f.tests]
    # the turn's flags the view keeps to f's side: from public facts, else as a turn begins
    f.celerity_actions = len(f.extra)
    f.defenses = [Ready(a, multiple(i, len(f.actions)), False)
                  for i, a in enumerate(f.actions) if a.action in DEFENSES]
    f.defenses += [Ready(a, 0, True) for a in f.extra if a.action in DEFENSES]
    f.acted = _acted(known, f)
    f.fed = bool(f.drunk) or any(f.id in other.drunk for other in known.fighters.values())
    f.ignore_wounds = f.controlled = f.resisted = f.willpower_success = False
    f.blood_this_turn = f.defended = 0


_ONES = Attributes(strength=1, dexterity=1, stamina=1, perception=1, wits=1)


def _acted(state: State, f: Fighter) -> bool:
    """Whether `f` has begun a regular action this turn (V20-5.7): its declared actions are no
    longer all in the phase's agenda."""
    if not f.actions:
        return False
    if state.phase in ("extra", "end"):
        return True
    if state.phase != "resolving":
        return False
    left = sum(1 for fid, _, stage in state.agenda if fid == f.id and stage == "regular")
    return left < len(f.actions)


def _masked_step(known: State, step: Step, seat: int, head: bool) -> Step:
    """An ambush pair under way of another side shows only that a roll is awaited (V20-6.7):
    its characters are stand-ins (the first listed of each side) and its pools blank; another
    side's queued virtue rolls (not yet at the head, whose pool and difficulty are public) have
    their pools blank."""
    if step.what != "roll":
        return step
    if _unrevealed(known, step, seat):
        ambusher, target = _stand_ins(known, seat)
        step.character = ambusher if step.purpose == "ambush" else target
        step.data = ({"target": target} if step.purpose == "ambush"
                     else {"ambusher": ambusher, "willpower": False})
        _blank(step)
    elif not head and step.purpose in VIRTUE_ROLLS and step.character is not None \
            and known.fighter(step.character).seat != seat:
        _blank(step)
    return step


def _unrevealed(state: State, step: Step, seat: int) -> bool:
    """A roll of an ambush pair not yet rolled whose ambusher is of another side (V20-6.7)."""
    if step.what != "roll" or step.purpose not in AMBUSH_ROLLS:
        return False
    ambusher = step.character if step.purpose == "ambush" else step.data.get("ambusher")
    return state.fighter(ambusher or "").seat != seat


def _stand_ins(known: State, seat: int) -> tuple[str, str]:
    """The ambusher and target a masked pair names: the first listed character of another side
    and the first of the side it would strike."""
    sides = [1 - seat] if seat in (0, 1) else [0]
    ambusher = known.of_side(sides[0])[0]
    return ambusher.id, known.of_side(1 - ambusher.seat)[0].id


def _blank(step: Step) -> None:
    step.pool, step.difficulty, step.specialty, step.auto = 0, pools.BASE, False, 0


# Sampling ------------------------------------------------------------------------------------

def determinize(sight: V20Sight, rng: random.Random, prior: Prior = PRIOR) -> State:
    """A whole scene consistent with what the side saw: its own characters as they are, every
    other side's hidden values drawn from `prior` with `rng`, an unrevealed ambush pair's
    characters drawn among those it could be, and the pools of the masked rolls computed from
    the characters drawn (as the rules would have queued them)."""
    state = sight.known.copy()
    seat, catalog = sight.seat, load_catalog()
    ambush = [step for step in state.queue if _unrevealed(state, step, seat)]
    virtue = [step for step in state.queue[1:] if step.what == "roll"
              and step.purpose in VIRTUE_ROLLS and state.fighter(step.character or "").seat
              != seat]
    rolling = {step.character for step in state.queue
               if step.what == "roll" and step.purpose == "frenzy"}
    for f in state.fighters.values():
        if f.seat != seat:
            _draw_fighter(state, f, catalog, rng, prior, f.id in rolling)
    _draw_ambush(state, ambush, seat, rng)
    for step in (*ambush, *virtue):
        _pool_again(state, step)
    return state


def _draw_fighter(state: State, f: Fighter, catalog: Catalog, rng: random.Random,
                  prior: Prior, rolls_self_control: bool) -> None:
    guess = GUESSES[f.kind]
    sheet = _draw_sheet(f, guess, catalog, rng, prior, rolls_self_control)
    limits = catalog.limits(sheet)
    f.sheet = sheet
    f.weapons = _with_discipline_weapons(f.weapons, sheet, catalog)
    f.path = 0 if f.npc and sheet.is_vampire else sheet.path.rating
    f.path_virtue = sheet.virtue(sheet.path_virtue)
    spent = rng.randint(0, min(prior.willpower_spent, sheet.willpower - 1))
    f.willpower = sheet.willpower - spent
    f.max_blood = limits.max_blood
    if f.kind == "mortal":
        drunk = sum(other.drunk.get(f.id, 0) for other in state.fighters.values())
        f.blood = max(1, limits.max_blood - drunk)
    else:
        f.blood = rng.randint(max(1, math.ceil(limits.max_blood * prior.blood_share)),
                              limits.max_blood)
    f.rounds = {weapon: rng.randint(1, catalog.weapons[weapon].rounds) for weapon in f.rounds}
    f.derangements = [HIDDEN] if f.manifest is not None else []


def _draw_sheet(f: Fighter, guess: Guess, catalog: Catalog, rng: random.Random,
                prior: Prior, rolls_self_control: bool) -> Character:
    kind = f.sheet.kind
    generation = rng.choice(prior.generations) if kind == "vampire" else None
    limits = catalog.generation(generation) if generation else (
        catalog.ghoul if kind == "ghoul" else catalog.mortal)
    cap = limits.trait_maximum

    def near(base: int, low: int, high: int) -> int:
        return min(high, max(low, base + rng.choice((-1, 0, 0, 1))))

    attributes = Attributes(strength=near(guess.strength, 1, cap),
                            dexterity=near(guess.dexterity, 1, cap),
                            stamina=near(guess.stamina, 1, cap),
                            perception=near(prior.perception, 1, cap),
                            wits=near(prior.wits, 1, cap))
    abilities = _draw_abilities(f, guess, catalog, prior, near)
    specialties = _used_specialties(f, catalog)
    for ability in specialties:  # a specialty applies to an Ability of 1 or more (V20-2.12)
        abilities[ability] = max(1, abilities[ability])
    disciplines = _draw_disciplines(f, guess, catalog, rng, prior, near, cap)
    vampire = kind == "vampire"
    humane = not vampire or rng.random() < prior.humanity
    path = "humanity" if humane else rng.choice(PATHS)
    instinct = vampire and not rolls_self_control and not any(
        t.kind == "frenzy" for t in f.tests) and rng.random() < prior.instinct
    low, high = prior.virtues
    first, second, courage = (rng.randint(low, high) for _ in range(3))
    virtues = Virtues(**{"conscience" if humane else "conviction": first,
                         "instinct" if instinct else "self_control": second,
                         "courage": courage})
    blood_max = limits.max_blood
    return Character(
        id=HIDDEN, name=f.name, kind=kind, generation=generation, attributes=attributes,
        abilities=Abilities(**abilities), specialties=Specialties(**specialties),
        disciplines=Disciplines(**disciplines), virtues=virtues,
        path=PathRating(id=path, rating=rng.randint(*prior.path)),  # type: ignore[arg-type]
        willpower=rng.randint(*prior.willpower), blood=Blood(start=blood_max, max=blood_max),
        weapons=f.sheet.weapons, armor=f.sheet.armor)


def _draw_abilities(f: Fighter, guess: Guess, catalog: Catalog, prior: Prior,
                    near: Any) -> dict[str, int]:
    """The Ability of its attacks near guess.attack (Brawl for one with no weapon), Athletics,
    Brawl and Melee near guess.defense, the others near the prior's guesses (Firearms 0 with no
    firearm)."""
    attacks = {catalog.weapons[w].ability for w in f.weapons if w not in catalog.unarmed}
    attacks = attacks or {"brawl"}
    bases = {name: 0 for name in Abilities.__struct_fields__} | dict(prior.other_abilities)
    for name in ("athletics", "brawl", "melee"):
        bases[name] = guess.defense
    for name in attacks:
        bases[name] = max(bases[name], guess.attack)
    return {name: near(base, 0, 5) if base else 0 for name, base in bases.items()}


def _used_specialties(f: Fighter, catalog: Catalog) -> dict[str, str]:
    """The specialties its public declarations claim (V20-2.12): held, since the rules accepted
    them; every other specialty is hidden and guessed absent."""
    held: dict[str, str] = {}
    for act in (*f.actions, *f.extra):
        if not act.specialty:
            continue
        if act.action == "attack" and act.weapon in catalog.weapons:
            weapon = catalog.weapons[act.weapon or ""]
            if weapon.specialties:
                held[weapon.ability] = weapon.specialties[0]
        elif act.action == "parry":
            parry = parrying_weapon(f, act.weapon)
            if parry is not None and parry.specialties:
                held["melee"] = parry.specialties[0]
    return held


def _draw_disciplines(f: Fighter, guess: Guess, catalog: Catalog, rng: random.Random,
                      prior: Prior, near: Any, cap: int) -> dict[str, int]:
    """Potence and Fortitude near the guess, Celerity from the prior (at least the extra
    actions declared), Protean 2 by chance for a vampire; at least what the weapons it has
    shown require; only the Disciplines its kind may hold (V20-3.4, V20-3.5)."""
    kind = f.kind
    allowed = (Disciplines.__struct_fields__ if kind == "vampire" else
               (catalog.ghoul if kind == "ghoul" else catalog.mortal).disciplines)
    celerity_choices = dict(prior.celerity).get(kind, (0,))
    drawn = {"potence": near(guess.potence, 0, cap) if guess.potence else 0,
             "fortitude": near(guess.fortitude, 0, cap) if guess.fortitude else 0,
             "celerity": max(f.celerity_actions, rng.choice(celerity_choices)),
             "protean": 2 if kind == "vampire" and rng.random() < prior.protean else 0,
             "dominate": 0}
    for weapon in f.weapons:
        for name, need in msgspec.structs.asdict(catalog.weapons[weapon].requires).items():
            drawn[name] = max(drawn[name], need)
    return {name: min(value, cap) if name in allowed else 0 for name, value in drawn.items()}


def _with_discipline_weapons(weapons: tuple[str, ...], sheet: Character,
                             catalog: Catalog) -> tuple[str, ...]:
    """Its weapons and those of the Disciplines drawn (claws with Protean 2), unshown so far."""
    extra = [weapon.id for weapon in catalog.weapons.values()
             if weapon.id not in weapons and weapon.requires != Disciplines()
             and all(sheet.discipline(name) >= need  # type: ignore[arg-type]
                     for name, need in msgspec.structs.asdict(weapon.requires).items())]
    return (*weapons, *extra)


def _draw_ambush(state: State, masked: list[Step], seat: int, rng: random.Random) -> None:
    """The rolls of an ambush pair under way that the side may not see: its ambusher drawn
    among the characters still in the scene of a side it may be from (another side; for the
    spectator, either), its target among those of the other side."""
    if not masked:
        return
    sides = [side for side in (0, 1) if side != seat]
    side = rng.choice(sides)
    ambusher = rng.choice(_standing(state, side))
    target = rng.choice(_standing(state, 1 - side))
    for step in masked:
        if step.purpose == "ambush":
            step.character, step.data = ambusher.id, {"target": target.id}
        else:
            step.character, step.data = target.id, {"ambusher": ambusher.id,
                                                    "willpower": False}


def _standing(state: State, side: int) -> list[Fighter]:
    found = [f for f in state.of_side(side) if in_scene(f)]
    return found or state.of_side(side)


def _pool_again(state: State, step: Step) -> None:
    """A masked roll's pool as the rules would have queued it from the characters drawn
    (engine.v20.flow, engine.v20.virtues)."""
    f = state.fighter(step.character or "")
    if step.purpose == "ambush":
        pool = pools.ambusher(f, False, 0)
    elif step.purpose == "notice":
        pool = pools.noticing(f)
    elif step.purpose == "conscience":
        pool = pools.conscience(f)
    elif step.purpose in ("frenzy", "rotschreck"):
        test = next((t for t in f.tests if t.kind == step.data.get("kind")), None)
        difficulty = test.difficulty if test else pools.BASE
        pool = (pools.frenzy if step.purpose == "frenzy" else pools.rotschreck)(f, difficulty)
    else:
        return
    step.pool, step.difficulty = max(pool.dice, 0), pool.difficulty
    step.specialty, step.auto = pool.specialty, pool.auto
