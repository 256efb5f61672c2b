"""V20 bots, deciding from their side's view (engine.v20.view): the tactical bot.

The tactical bot weighs every entry of the legal menu by its expected worth, computed exactly
from the dice (engine.v20.dice) and the pool arithmetic of the rules applied to what its side
sees: its own characters' sheets in full, and of each foe only the public facts (kind, weapons,
armor, health track, status, declarations). A foe's hidden ratings are guessed from its kind
(GUESSES), never read.

Worth is hitting power removed. Each character's threat is the health levels it is expected
to deal a turn (its best attack against the other side, V20-6 to V20-8), and its share is its
part of its side's threat: a side's last fighter holds all of it, so downing it is winning. A
level dealt to a foe is worth its share over the levels it has left before it goes down
(V20-9.1 to 9.6), and putting it down earns a bonus: focus fire, on the foe closest to falling
and on the one hitting hardest. Levels the bot's own characters may take cost the same way, and
mending one is worth as much. From this:

- attacks: the target, weapon and aim (V20-6.6) with the most worth, firearms against soft
  mortals coming out of their soak (V20-8.6); a Willpower success (V20-11.1) when its gain beats
  the point's price, which rises as the pool empties; Celerity's extra attacks (V20-5.5) spread
  to another foe when the first is likely to fall;
- defenses: a dodge or parry behind the attack when the dice lost (V20-5.2) buy more safety than
  damage, full defense (V20-5.6) when the blows expected outweigh the bot's own (a saved level
  counting for less than a dealt one, since parrying alone never wins); at an attack,
  the defense (with Willpower when it pays) or an abort to full defense (V20-5.7) that leaves
  the fewest levels to take, counting what an abort forfeits;
- blood: a heal (V20-5.8, V20-10.3) when the level it mends is worth more than the action it
  takes, Dexterity and Strength boosts (V20-10.5) while the scene has turns left to repay them,
  Celerity when an extra attack is worth its blood point; ignoring wounds (V20-11.3) when the
  dice they cost are worth a Willpower point; control (V20-12.8, V20-12.11) to stay in the fight;
- flight (V20-5.9) when its side is beaten (the foes' threat times levels left dwarfs its own)
  and the character would likely go down this turn.

Ties are broken with the rng it is handed, its only source of chance.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache, cached_property
from typing import Any, NamedTuple

from engine.bots import Observation, SeatView, require_observation
from engine.v20 import pools
from engine.v20.catalog import Armor, Weapon, load_catalog
from engine.v20.dice import clamp_difficulty, distribution
from engine.v20.health import NO_ACTIONS, Track, soak_pool, take
from events.v20 import (
    Abort,
    Act,
    Boost,
    Celerity,
    Commit,
    Concede,
    Control,
    Declare,
    Defend,
    IgnoreWounds,
    Spend,
)

# What the bot assumes and how it weighs: data -------------------------------------------------


@dataclass(frozen=True, slots=True)
class Guess:
    """A foe's hidden ratings as the bot guesses them from its kind (spec "Hidden
    information": kind, gear and track are public, ratings are not)."""

    strength: int
    dexterity: int
    stamina: int
    attack: int
    """Dots in the ability of its attacks."""
    defense: int
    """Dots in Athletics, Brawl and Melee for its defenses."""
    potence: int
    fortitude: int


GUESSES: Mapping[str, Guess] = {
    "vampire": Guess(strength=3, dexterity=3, stamina=3, attack=3, defense=2, potence=1,
                     fortitude=1),
    "ghoul": Guess(strength=3, dexterity=3, stamina=3, attack=3, defense=2, potence=1,
                   fortitude=1),
    "mortal": Guess(strength=2, dexterity=3, stamina=3, attack=3, defense=2, potence=0,
                    fortitude=0),
}


@dataclass(frozen=True, slots=True)
class Weights:
    """How the bot weighs: worths are in shares of a side's threat (Sight.share)."""

    kill: float = 0.6
    """The bonus, in the victim's share, for putting a character down."""
    finish: float = 0.5
    """The worth of striking a downed vampire or ghoul (it could heal back, V20-9.9)."""
    horizon: int = 3
    """Turns a scene-long boost keeps paying (V20-10.5)."""
    willpower: float = 0.12
    """A Willpower point's price, times 1 + 2 / points left."""
    blood: float = 0.015
    """A blood point's price, times 1 + 3 / points left."""
    floor: float = 0.3
    """The least threat a character counts for: even a harmless one is a body to protect."""
    reload_later: float = 0.7
    """A reload's worth: the next shot's, discounted."""
    undeclared: float = 0.4
    """The chance a foe that has not declared yet will defend (declares a defense, V20-5.4)."""
    abort: float = 0.2
    """The chance a foe that declared no defense aborts to full defense (V20-5.7)."""
    guarding: float = 0.6
    """Of the levels a defense saves, the part a declaration counts against the blows it
    forgoes: saving them only puts the fight off (a side that only parries never wins)."""
    guard_share: float = 0.5
    """Of a dodge's worth, the share a commit's plan counts (the declaration may not dodge)."""
    lost_ratio: float = 4.0
    """The side is beaten when the foes' strength is this many times its own."""
    hurt_boxes: int = 4
    """Boxes from which a frenzied character wants control to defend (V20-12.8)."""
    feed: float = 1.5
    """A fed blood point's worth, in blood prices."""
    flight: float = 0.5
    """The chance a foe in Rötschreck that has not declared yet flees (V20-12.10: unless its
    side spends Willpower or the Storyteller corners it)."""
    doomed: float = 0.6
    """The chance of going down this turn from which a hurt fighter of a beaten side flees."""


WEIGHTS = Weights()
FOE_KEYS = ("id", "kind", "weapons", "armor", "boxes", "status", "gone", "npc", "frenzy",
            "rotschreck", "full_defense", "declared", "extra")
"""All the bot reads of a foe: public facts of the view (engine.v20.view)."""
DOWN = ("torpor", "final_death", "dead")
"""Statuses after which a character is out for good (V20-9.10)."""
LAST_RESORT = -100.0
"""A concession's worth: the menu offers it alone when no declaration is possible."""


# Exact laws of the dice -----------------------------------------------------------------------

Law = tuple[float, ...]
"""P(value = index): net successes, or health levels."""


class Roll(NamedTuple):
    dice: int
    difficulty: int
    specialty: bool = False
    auto: int = 0


class Strike(NamedTuple):
    """A hit's damage: the pool at one success left, before the 1-die floor (V20-8.1 to 8.3),
    Potence's automatic successes (V20-8.4), the target's soak pool and whether it halves
    bashing (V20-8.6, 8.7)."""

    base: int
    auto: int
    soak: int
    halved: bool


@cache
def roll_law(roll: Roll, can_botch: bool = True) -> Law:
    """V20-2.6 to 2.8: the law of a roll's net successes, a botch scoring none."""
    law = distribution(roll.dice, roll.difficulty, specialty=roll.specialty, auto=roll.auto,
                       can_botch=can_botch)
    out = [0.0] * (max(law) + 1)
    for key, p in law.items():
        out[max(key, 0)] += float(p)
    return tuple(out)


@cache
def damage_levels(pool: int, auto: int, soak: int, halved: bool) -> Law:
    """V20-8.1 to 8.7: levels left after soak, bashing halved on a vampire."""
    damage = roll_law(Roll(max(pool, 1), pools.BASE, auto=auto), can_botch=False)
    soaked = roll_law(Roll(soak, pools.BASE), can_botch=False) if soak > 0 else (1.0,)
    out = [0.0] * len(damage)
    for d, pd in enumerate(damage):
        for s, ps in enumerate(soaked):
            left = max(0, d - s)
            out[left // 2 if halved else left] += pd * ps
    return tuple(out)


@cache
def left_after(successes: int, defense: Roll | None) -> Law:
    """V20-7.1: the attack's successes left after the defense's."""
    if defense is None:
        return tuple(1.0 if s == successes else 0.0 for s in range(successes + 1))
    out = [0.0] * (successes + 1)
    for d, p in enumerate(roll_law(defense)):
        out[max(successes - d, 0)] += p
    return tuple(out)


@cache
def levels_after(successes: int, defense: Roll | None, strike: Strike) -> Law:
    """Levels an attack of known successes deals, after the defense (V20-7.6: it is chosen once
    the attack dice are seen)."""
    return _levels(left_after(successes, defense), strike)


@cache
def hit_levels(attack: Roll, defense: Roll | None, strike: Strike) -> Law:
    """Levels an attack deals, from its roll to the soak."""
    left = roll_law(attack)
    if defense is not None:
        out = [0.0] * len(left)
        for a, pa in enumerate(left):
            for d, pd in enumerate(roll_law(defense)):
                out[max(a - d, 0)] += pa * pd
        left = tuple(out)
    return _levels(left, strike)


def _levels(left: Law, strike: Strike) -> Law:
    out = [left[0]]
    for s, p in enumerate(left[1:], 1):
        law = damage_levels(strike.base + s - 1, strike.auto, strike.soak, strike.halved)
        out += [0.0] * (len(law) - len(out))
        for level, q in enumerate(law):
            out[level] += p * q
    return tuple(out)


def mean(law: Law) -> float:
    return sum(i * p for i, p in enumerate(law))


def at_least(law: Law, n: int) -> float:
    return sum(law[n:])


@cache
def reach(kind: str, boxes: tuple[str, ...], status: str, damage_type: str) -> int | None:
    """Levels of `damage_type` that put the character down (V20-9.2 to 9.6): an active one out
    of action, an Incapacitated vampire or ghoul out for good; None if nothing more counts."""
    if status in DOWN or status == "incapacitated" and kind == "mortal":
        return None
    track = Track.from_boxes(boxes)
    for levels in range(1, 9):
        after = take(track, kind, damage_type, levels, status=status).status
        if after != status and (status == "active" or after in DOWN):
            return levels
    return None


class Toll(NamedTuple):
    """What levels of a law do to a character with some left before it goes down: the share
    of those it takes on average, and the chance it takes them all."""

    shares: float
    falls: float

    def blend(self, other: Toll, p: float) -> Toll:
        """This toll with probability p, else `other`."""
        return Toll(p * self.shares + (1 - p) * other.shares,
                    p * self.falls + (1 - p) * other.falls)


NO_TOLL = Toll(0.0, 0.0)


@cache
def toll(law: Law, levels_left: int | None) -> Toll:
    if levels_left is None:
        return NO_TOLL
    shares = sum(p * min(level, levels_left) for level, p in enumerate(law)) / levels_left
    return Toll(shares, at_least(law, levels_left))


@cache
def hit_toll(attack: Roll, defense: Roll | None, strike: Strike, levels_left: int | None
             ) -> Toll:
    return toll(hit_levels(attack, defense, strike), levels_left)


# Bodies: the numbers of a character as the bot knows them -------------------------------------

@dataclass(frozen=True, slots=True)
class Body:
    """Exact for the bot's own characters, guessed from public facts for the foes."""

    id: str
    kind: str
    strength: int
    dexterity: int
    stamina: int
    abilities: Mapping[str, int]
    specialties: Mapping[str, str]
    potence: int
    fortitude: int
    celerity: int
    """Dice from Celerity dots not spent on extra actions (V20-5.5)."""
    armor: Armor | None
    penalty: int
    """Wound dice (V20-9.1), 0 when ignored (V20-11.3) or in frenzy (V20-12.5)."""
    blind: bool
    weapons: tuple[str, ...]

    @property
    def key(self) -> tuple[str, int, int, int, int]:
        """What a commit's plan may change (engine.v20.bot.Plan), to memoize worths by."""
        return self.id, self.dexterity, self.strength, self.celerity, self.penalty

    @property
    def armor_rating(self) -> int:
        return self.armor.rating if self.armor else 0

    @property
    def armor_penalty(self) -> int:
        return self.armor.dexterity_penalty if self.armor else 0


@cache
def armor_named(name: str | None) -> Armor | None:
    """The view names armor by its name (engine.v20.view): the catalog entry of that name."""
    return next((a for a in load_catalog().armor.values() if a.name == name), None)


def wound_dice(boxes: Sequence[str], frenzy: bool) -> int:
    """V20-9.1 and V20-12.5; a full track counts as Crippled (for the worth of its recovery)."""
    penalty = Track.from_boxes(boxes).penalty
    if frenzy:
        return 0
    return -5 if penalty is NO_ACTIONS else int(penalty)


def own_body(c: Mapping[str, Any]) -> Body:
    disciplines = c["disciplines"]
    return Body(
        id=c["id"], kind=c["kind"], strength=c["attributes"]["strength"],
        dexterity=c["attributes"]["dexterity"], stamina=c["attributes"]["stamina"],
        abilities=c["abilities"], specialties=c["specialties"],
        potence=disciplines.get("potence", 0), fortitude=disciplines.get("fortitude", 0),
        celerity=max(0, disciplines.get("celerity", 0) - c["celerity_actions"]),
        armor=armor_named(c["armor"]), penalty=wound_dice(c["boxes"], c["frenzy"]),
        blind=c["blind"], weapons=tuple(c["weapons"]))


def foe_body(c: Mapping[str, Any]) -> Body:
    guess = GUESSES[c["kind"]]
    ability = guess.attack
    return Body(
        id=c["id"], kind=c["kind"], strength=guess.strength, dexterity=guess.dexterity,
        stamina=guess.stamina,
        abilities={"brawl": ability, "melee": ability, "firearms": ability,
                   "athletics": guess.defense},
        specialties={}, potence=guess.potence, fortitude=guess.fortitude, celerity=0,
        armor=armor_named(c["armor"]), penalty=wound_dice(c["boxes"], c["frenzy"]),
        blind=False, weapons=tuple(c["weapons"]))


@cache
def weapon(weapon_id: str | None) -> Weapon:
    return load_catalog().weapons[weapon_id or ""]


@cache
def aimed(aim: str | None) -> tuple[int, int]:
    """V20-6.6: the difficulty and damage dice aiming at a target size adds."""
    if aim is None:
        return 0, 0
    size = load_catalog().target_sizes[aim]
    return size.difficulty, size.damage


def attack_roll(b: Body, w: Weapon, k: int = 0, aim: str | None = None, auto: int = 0) -> Roll:
    """V20-6.1 to 6.6, V20-5.2, V20-2.11, V20-2.12 as engine.v20.pools.attack counts them."""
    dots = b.abilities.get(w.ability, 0)
    dice = b.dexterity + dots + b.celerity - b.armor_penalty + b.penalty - k
    difficulty = (w.difficulty + (0 if dots else 1) + aimed(aim)[0] + k
                  + (pools.BLIND if b.blind else 0))
    return Roll(max(dice, 0), clamp_difficulty(difficulty),
                b.specialties.get(w.ability) in w.specialties, auto)


def defense_roll(b: Body, kind: str, gunfire: bool, k: int = 0, fewer: int = 0,
                 auto: int = 0) -> Roll:
    """V20-7.1 to 7.4 as engine.v20.pools.defense counts them."""
    dots = b.abilities.get(pools.DEFENSE_ABILITY[kind], 0)
    dice = b.dexterity + dots + b.celerity - b.armor_penalty + b.penalty - k - fewer
    base = pools.DODGE_GUNFIRE if kind == "dodge" and gunfire else pools.BASE
    difficulty = base + (0 if dots else 1) + k + (pools.BLIND if b.blind else 0)
    return Roll(max(dice, 0), clamp_difficulty(difficulty), False, auto)


def strike(b: Body, w: Weapon, aim: str | None, target: Body) -> Strike:
    """V20-8.1 to 8.4, V20-9.8 (wounds weaken Strength blows only), V20-8.6 (the soak)."""
    base = w.damage + aimed(aim)[1] + (b.strength + b.penalty if w.strength_based else 0)
    soak = soak_pool(target.kind, w.type, target.stamina, target.fortitude, target.armor_rating)
    return Strike(base, b.potence if w.strength_based else 0, soak,
                  target.kind == "vampire" and w.type == "bashing")


def stops(defender: Body, kind: str, w: Weapon) -> bool:
    """V20-7.2 to 7.4: a dodge stops anything; block and parry close combat only, a block of
    lethal or aggravated needing Fortitude or armor (a foe's Fortitude is guessed by kind), a
    parry a melee weapon."""
    if kind == "dodge":
        return True
    if not w.is_close_combat:
        return False
    if kind == "block":
        return w.type == "bashing" or defender.fortitude > 0 or defender.armor is not None
    return any(weapon(x).can_parry for x in defender.weapons)


# What the side sees ----------------------------------------------------------------------------

def active(c: Mapping[str, Any]) -> bool:
    return c["status"] == "active" and not c["gone"] and not c["npc"]


class Sight:
    """One decision's reading of the view, with the worths it needs computed once."""

    def __init__(self, view: Mapping[str, Any], seat: int) -> None:
        self.view = view
        self.mine = {c["id"]: c for c in view["sides"][seat]["characters"]}
        self.foes = {c["id"]: {k: c.get(k) for k in FOE_KEYS}
                     for c in view["sides"][1 - seat]["characters"]}
        self.bodies = {i: own_body(c) for i, c in self.mine.items()}
        self.bodies |= {i: foe_body(c) for i, c in self.foes.items()}
        self._memo: dict[tuple[Any, ...], Any] = {}
        self._left: dict[tuple[str, str], int | None] = {}

    def memo(self, key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]

    def fighting(self, side: Mapping[str, Mapping[str, Any]]) -> list[str]:
        return [i for i, c in side.items() if active(c)]

    @cached_property
    def threats(self) -> dict[str, float]:
        """Expected levels a turn each character deals the other side, scaled so the mean is 1
        (prices are then in the same unit whatever the builds)."""
        raw = {i: self._raw_threat(i, self.fighting(self.foes)) for i in self.mine}
        raw |= {i: self._raw_threat(i, self.fighting(self.mine)) for i in self.foes}
        shown = [t for t in raw.values() if t > 0]
        scale = sum(shown) / len(shown) if shown else 1.0
        return {i: max(t / scale, WEIGHTS.floor) for i, t in raw.items()}

    def _raw_threat(self, who: str, victims: list[str]) -> float:
        if not victims:
            return 0.0
        body = self.bodies[who]
        best = [max((mean(hit_levels(attack_roll(body, weapon(w)), None, strike(
            body, weapon(w), None, self.bodies[v]))) for w in body.weapons), default=0.0)
            for v in victims]
        return self.attacks(who) * sum(best) / len(best)

    def attacks(self, who: str) -> int:
        """Attacks a turn: its own Celerity's (known) or a foe's declared extras (public)."""
        c = self.mine.get(who) or self.foes[who]
        extra = c["celerity_actions"] if who in self.mine else len(c["extra"] or ())
        return 1 + extra

    def levels_left(self, who: str, damage_type: str) -> int | None:
        key = (who, damage_type)
        if key not in self._left:
            c = self.mine.get(who) or self.foes[who]
            self._left[key] = reach(c["kind"], tuple(c["boxes"]), c["status"], damage_type)
        return self._left[key]

    def kill_bonus(self, who: str) -> float:
        c = self.mine.get(who) or self.foes[who]
        return WEIGHTS.kill if c["status"] == "active" else WEIGHTS.finish

    def strength(self, side: Mapping[str, Any]) -> float:
        """A side's strength: its characters' threat times the levels they have left (a
        downed vampire or ghoul counting for a part, as it may heal back)."""
        return sum(self.threats[i] * (self.levels_left(i, "lethal") or 0)
                   * (1.0 if active(c) else WEIGHTS.finish) for i, c in side.items()
                   if not c["gone"] and not c["npc"])

    def share(self, who: str) -> float:
        """The character's part of its side's threat (a downed vampire or ghoul counting for a
        part, as it may heal back): what its side loses of its hitting power when it falls.
        A side's last fighter holds it all, so downing it is winning the fight."""
        return float(self.memo(("share", who), lambda: self._share(who)))

    def _share(self, who: str) -> float:
        side = self.mine if who in self.mine else self.foes
        total = sum(self.presence(i, c) for i, c in side.items())
        return self.presence(who, side[who]) / total if total > 0 else 0.0

    def presence(self, who: str, c: Mapping[str, Any]) -> float:
        if c["gone"] or c["npc"] or self.levels_left(who, "lethal") is None:
            return 0.0
        return self.threats[who] * (1.0 if active(c) else WEIGHTS.finish)

    def loss(self, who: str, taken: Toll) -> float:
        """What a toll on one of the bot's characters costs its side."""
        return self.share(who) * (taken.shares + self.kill_bonus(who) * taken.falls)

    def gain(self, foe: str, dealt: Toll) -> float:
        """What a toll on a foe is worth: its side's strength removed, none from one leaving
        anyway."""
        return self.staying(foe) * self.share(foe) * (
            dealt.shares + self.kill_bonus(foe) * dealt.falls)

    def staying(self, foe: str) -> float:
        """The chance a foe is still in the fight after this turn's actions: not gone, not
        declared fleeing (V20-5.9), maybe fleeing in Rötschreck (V20-12.10)."""
        c = self.foes[foe]
        declared = list(c["declared"] or ())
        if c["gone"] or c["npc"] or declared == ["flee"]:
            return 0.0
        return 1 - WEIGHTS.flight if c["rotschreck"] and not declared else 1.0


# Prices ----------------------------------------------------------------------------------------

def willpower_price(c: Mapping[str, Any]) -> float:
    return WEIGHTS.willpower * (1 + 2 / max(c["willpower"]["pool"], 1))


def blood_price(c: Mapping[str, Any]) -> float:
    return WEIGHTS.blood * (1 + 3 / max(c["blood"]["pool"], 1))


@cache
def _blood_per_turn(kind: str, max_blood: int) -> int:
    """V20-3.3, V20-3.4: the view gives no generation, but the maximum pool tells it."""
    catalog = load_catalog()
    if kind != "vampire":
        return catalog.ghoul.blood_per_turn
    return next((g.blood_per_turn for g in catalog.generations.values()
                 if g.max_blood == max_blood), 1)


def blood_room(c: Mapping[str, Any]) -> int:
    """BP the turn still allows toward heals and boosts (V20-10.8)."""
    blood = c["blood"]
    return min(blood["pool"], _blood_per_turn(c["kind"], blood["max"]) - blood[
        "spent_this_turn"])


# Attacks ---------------------------------------------------------------------------------------

class Turn:
    """Worth gathered over one declaration: foes likely down already, rounds used."""

    def __init__(self, sight: Sight, me: str, body: Body) -> None:
        self.sight, self.me, self.body = sight, me, body
        self.downed: dict[str, float] = {}
        self.rounds = dict(sight.mine[me]["rounds"])

    def attack(self, act: Act, k: int, stage: str) -> float:
        sight, foe = self.sight, act.target or ""
        w = weapon(act.weapon)
        if foe not in sight.foes or not self._loaded(w):
            return 0.0
        key = ("attack", self.body.key, foe, w.id, k, act.aim, act.willpower, stage)
        dealt: Toll = sight.memo(key, lambda: self.toll(act, w, k, stage))
        before = self.downed.get(foe, 0.0)
        self.downed[foe] = before + (1 - before) * dealt.falls
        return (1 - before) * sight.gain(foe, dealt)

    def _loaded(self, w: Weapon) -> bool:
        if not w.needs_rounds:
            return True
        if self.rounds.get(w.id, 0) < 1:
            return False
        self.rounds[w.id] -= 1
        return True

    def toll(self, act: Act, w: Weapon, k: int, stage: str) -> Toll:
        """The attack's toll on its target, defended as the foe is likely to (foe_guard)."""
        sight, foe = self.sight, act.target or ""
        target = sight.bodies[foe]
        roll = attack_roll(self.body, w, k, act.aim, 1 if act.willpower else 0)
        hit = strike(self.body, w, act.aim, target)
        chance, guard = sight.memo(("guard", foe, w.id, stage),
                                   lambda: foe_guard(sight.foes[foe], target, w, stage))
        left = sight.levels_left(foe, w.type)
        bare = hit_toll(roll, None, hit, left)
        return bare if guard is None else hit_toll(roll, guard, hit, left).blend(bare, chance)


def foe_guard(c: Mapping[str, Any], b: Body, w: Weapon, stage: str) -> tuple[float, Roll | None]:
    """The chance a foe defends this attack, and with what (V20-5.4 to 5.7, V20-6.11): a
    declared defense of the attack's phase or full defense for sure; else maybe an abort (a
    regular attack only), or a defense not declared yet."""
    if not active(c) or b.penalty <= -5 and not c["full_defense"]:
        return 0.0, None
    declared = list(c["declared"] or ())
    kinds = [k for k in ("dodge", "parry", "block") if stops(b, k, w)]
    if c["full_defense"]:
        return 1.0, _best_guard(b, kinds, w, 0)
    listed = list(c["extra"] or ()) if stage == "extra" else declared
    ready = [k for k in listed if k in kinds]
    if ready:
        k = declared.index(ready[0]) + 1 if stage != "extra" and len(declared) >= 2 else 0
        return 1.0, _best_guard(b, ready, w, k)
    if stage == "extra":
        return 0.0, None
    return (WEIGHTS.abort if declared else WEIGHTS.undeclared), _best_guard(b, kinds, w, 0)


def _best_guard(b: Body, kinds: Iterable[str], w: Weapon, k: int) -> Roll | None:
    rolls = [defense_roll(b, kind, w.gunfire, k) for kind in kinds]
    return max(rolls, key=lambda r: mean(roll_law(r)), default=None)


# Incoming blows --------------------------------------------------------------------------------

class Blow(NamedTuple):
    """An attack the bot expects on one of its characters: its weight (expected count), the
    foe's guessed roll and damage, the weapon, and whether it comes in phase 6."""

    weight: float
    roll: Roll
    strike: Strike
    weapon: Weapon
    extra: bool


def blows(sight: Sight, me: str, body: Body) -> list[Blow]:
    """The foes' expected attacks on `me`, spread evenly over the bot's fighters, each with
    the foe's most damaging weapon; most dangerous first."""
    mine = max(len(sight.fighting(sight.mine)), 1)
    out = []
    for foe, c in sight.foes.items():
        declared = c["declared"] or ()
        if not active(c) or c["full_defense"] or declared and "attack" not in declared:
            continue
        b = sight.bodies[foe]
        w = max((weapon(x) for x in b.weapons), key=lambda x: mean(
            hit_levels(attack_roll(b, x), None, strike(b, x, None, body))))
        roll, hit = attack_roll(b, w), strike(b, w, None, body)
        share = sight.staying(foe) / mine
        out.append(Blow(share, roll, hit, w, False))
        extras = sum(1 for a in c["extra"] or () if a == "attack")
        out += [Blow(share, roll, hit, w, True)] * extras
    return sorted(out, key=lambda x: -mean(hit_levels(x.roll, None, x.strike)))


def harm(sight: Sight, me: str, body: Body, guards: Sequence[tuple[str, int, bool]],
         full: bool = False) -> float:
    """Expected cost of the blows on `me` this turn, with its declared defenses (kind, k,
    extra) each taking the most dangerous blow it can stop (V20-5.4), or full defense taking
    every one with a die fewer each time (V20-5.6)."""
    left = list(guards)
    total, used = 0.0, 0
    incoming: list[Blow] = sight.memo(("blows", body.key), lambda: blows(sight, me, body))
    for blow in incoming:
        guard = None
        if full:
            kind = _full_kind(body, blow.weapon)
            guard = defense_roll(body, kind, blow.weapon.gunfire, fewer=used)
            used += 1
        else:
            pick = next((g for g in left if g[2] == blow.extra
                         and stops(body, g[0], blow.weapon)), None)
            if pick is not None:
                left.remove(pick)
                guard = defense_roll(body, pick[0], blow.weapon.gunfire, pick[1])
        taken = hit_toll(blow.roll, guard, blow.strike, sight.levels_left(me, blow.weapon.type))
        total += blow.weight * sight.loss(me, taken)
    return total


def _full_kind(body: Body, w: Weapon) -> str:
    kinds = [k for k in ("dodge", "parry", "block") if stops(body, k, w)]
    return max(kinds, key=lambda k: mean(roll_law(defense_roll(body, k, w.gunfire))))


# Declarations ----------------------------------------------------------------------------------

def declaration_worth(sight: Sight, event: Declare) -> float:
    me = event.character
    c, body = sight.mine[me], sight.bodies[me]
    kinds = [a.action for a in event.actions]
    if kinds == ["flee"]:
        return flee_worth(sight, me)
    turn = Turn(sight, me, body)
    guards: list[tuple[str, int, bool]] = []
    value = 0.0
    for index, act in enumerate(event.actions):
        k = index + 1 if len(kinds) >= 2 else 0
        value += act_worth(turn, act, k, "regular", len(kinds), guards)
    for act in event.extra:
        value += act_worth(turn, act, 0, "extra", len(kinds), guards)
    if any(a.willpower for a in (*event.actions, *event.extra)):
        value -= willpower_price(c)
    return value - expected_harm(sight, me, body, guards, kinds == ["full_defense"])


def expected_harm(sight: Sight, me: str, body: Body, guards: Sequence[tuple[str, int, bool]],
                  full: bool) -> float:
    """The blows' cost with the declared defenses, their saving discounted (WEIGHTS.guarding):
    a blow parried only puts the fight off, a blow struck brings it nearer its end."""
    bare = sight.memo(("harm", me, body.key), lambda: harm(sight, me, body, []))
    if not guards and not full:
        return float(bare)
    met = sight.memo(("harm", me, body.key, tuple(guards), full),
                     lambda: harm(sight, me, body, guards, full))
    return float(bare - WEIGHTS.guarding * (bare - met))


def act_worth(turn: Turn, act: Act, k: int, stage: str, count: int,
              guards: list[tuple[str, int, bool]]) -> float:
    if act.action == "attack":
        return turn.attack(act, k, stage)
    if act.action in pools.DEFENSE_ABILITY:
        guards.append((act.action, k, stage == "extra"))
        return 0.0
    if act.action == "heal":
        return heal_worth(turn.sight, turn.me, act, k, count == 1)
    if act.action == "reload":
        return reload_worth(turn.sight, turn.me, act.weapon or "")
    if act.action == "feed":
        return feed_worth(turn.sight, turn.me, act)
    return 0.0


def heal_worth(sight: Sight, me: str, act: Act, k: int, lone: bool) -> float:
    """V20-5.8, V20-10.3: a lone heal mends a box for sure; among other actions it needs
    Stamina + Survival at difficulty 8 + k, and costs its BP only on a success."""
    c = sight.mine[me]
    chance = 1.0 if lone else at_least(roll_law(heal_roll(sight.bodies[me], c, k)), 1)
    return chance * (mend_worth(sight, me, act.heal or "lethal") - blood_price(c))


def heal_roll(b: Body, c: Mapping[str, Any], k: int) -> Roll:
    dots = c["abilities"].get("survival", 0)
    dice = b.stamina + dots + b.penalty - k
    return Roll(max(dice, 0), clamp_difficulty(pools.HARD + (0 if dots else 1) + k))


def mend_worth(sight: Sight, me: str, kind: str) -> float:
    """A box mended: the worth of the level it gives back, more when few are left."""
    left = sight.levels_left(me, "lethal")
    if left is None:
        return 0.0
    scale = 1.0 if kind == "lethal" else 0.8
    return scale * sight.share(me) / left * (1 + WEIGHTS.kill * (left <= 2))


def reload_worth(sight: Sight, me: str, gun: str) -> float:
    """V20-5.10: worth the next shot of the refilled gun."""
    c, body = sight.mine[me], sight.bodies[me]
    turn = Turn(sight, me, body)
    turn.rounds[gun] = weapon(gun).rounds
    shots = [turn.attack(Act(action="attack", target=foe, weapon=gun), 0, "regular")
             for foe in sight.fighting(sight.foes)]
    empty = c["rounds"].get(gun, 0) == 0
    return WEIGHTS.reload_later * max(shots, default=0.0) * (1.0 if empty else 0.2)


def feed_worth(sight: Sight, me: str, act: Act) -> float:
    """V20-5.11: blood taken, worth more the emptier the pool; an ally's is its loss."""
    c = sight.mine[me]
    room = c["blood"]["max"] - c["blood"]["pool"]
    vessel = sight.mine.get(act.target or "")
    held = vessel["blood"]["pool"] if vessel else act.amount
    taken = min(act.amount, room, held)
    cost = taken * blood_price(vessel) if vessel else 0.0
    return taken * WEIGHTS.feed * blood_price(c) - cost


def flee_worth(sight: Sight, me: str) -> float:
    """V20-5.9: flight saves a character of a beaten side that would likely go down this
    turn; else it throws a fighter away."""
    doomed = sight.memo(("doomed", me), lambda: going_down(sight, me))
    return 1.0 if doomed >= WEIGHTS.doomed and side_beaten(sight) else -10.0


def going_down(sight: Sight, me: str) -> float:
    """The chance the foes' blows this turn put `me` down, undefended."""
    body, standing = sight.bodies[me], 1.0
    for blow in blows(sight, me, body):
        left = sight.levels_left(me, blow.weapon.type)
        falls = hit_toll(blow.roll, None, blow.strike, left).falls
        standing *= 1 - min(1.0, blow.weight) * falls
    return 1 - standing


def side_beaten(sight: Sight) -> bool:
    """The foes' strength (Sight.strength) dwarfs the side's."""
    return sight.strength(sight.foes) > WEIGHTS.lost_ratio * sight.strength(sight.mine)


# Commitments -----------------------------------------------------------------------------------

class Plan(NamedTuple):
    """What a commit changes in a character's turn: extra actions, blood boosts, wounds."""

    celerity: int = 0
    dexterity: int = 0
    strength: int = 0
    ignore: bool = False


def plan_of(spends: Iterable[Spend]) -> Plan:
    plan = Plan()
    for s in spends:
        if isinstance(s, Celerity):
            plan = plan._replace(celerity=s.actions)
        elif isinstance(s, Boost) and s.attribute in ("dexterity", "strength"):
            plan = plan._replace(**{s.attribute: getattr(plan, s.attribute) + s.points})
        elif isinstance(s, IgnoreWounds):
            plan = plan._replace(ignore=True)
    return plan


def planned_body(sight: Sight, me: str, plan: Plan) -> Body:
    body, c = sight.bodies[me], sight.mine[me]
    cel = max(0, c["disciplines"].get("celerity", 0) - plan.celerity)
    return replace(body, celerity=cel, dexterity=body.dexterity + plan.dexterity,
                   strength=body.strength + plan.strength,
                   penalty=0 if plan.ignore else body.penalty)


def turn_worth(sight: Sight, me: str, plan: Plan) -> float:
    """The turn a plan gives: the best attack, with its extra attacks, and part of a dodge."""
    def make() -> float:
        body = planned_body(sight, me, plan)
        best = best_attack(sight, me, body)
        dodge = harm(sight, me, body, []) - harm(sight, me, body, [("dodge", 0, False)])
        return best * (1 + plan.celerity) + WEIGHTS.guard_share * max(dodge, 0.0)
    return float(sight.memo(("turn", me, plan), make))


def best_attack(sight: Sight, me: str, body: Body) -> float:
    """The worth of its best plain attack (aiming is weighed when it declares)."""
    options = [Act(action="attack", target=foe, weapon=w)
               for foe in sight.fighting(sight.foes) for w in body.weapons]
    return max((Turn(sight, me, body).attack(a, 0, "regular") for a in options), default=0.0)


def commit_worth(sight: Sight, me: str, spends: tuple[Spend, ...]) -> float:
    """A character's spends: what they add to this turn (Celerity, ignoring wounds) and, for
    boosts, to the turns ahead, less their blood and Willpower."""
    c = sight.mine[me]
    plan, control = plan_of(spends), any(isinstance(s, Control) for s in spends)
    boosts = plan.dexterity + plan.strength
    willpower = sum(1 for s in spends if not isinstance(s, (Celerity, Boost)))
    cost = (plan.celerity + boosts) * blood_price(c) + willpower * willpower_price(c)
    if c["rotschreck"] and not c["cornered"] and not control:
        return -cost  # V20-12.10: it flees, whatever it spends
    base = turn_worth(sight, me, Plan())
    now = turn_worth(sight, me, plan._replace(dexterity=0, strength=0)) - base
    later = turn_worth(sight, me, Plan(dexterity=plan.dexterity, strength=plan.strength)) - base
    value = now + WEIGHTS.horizon * later + control_worth(sight, me, control) - cost
    if boosts and boosts >= blood_room(c) and c["boxes"]:
        value -= mend_worth(sight, me, "lethal") / 2  # the boosts leave no BP to heal with
    return value


def control_worth(sight: Sight, me: str, control: bool) -> float:
    """V20-12.11: control keeps a character in Rötschreck fighting; V20-12.8: in frenzy, or
    cornered, it frees an Incapacitated one to heal and a badly hurt one to defend."""
    c = sight.mine[me]
    if not control:
        return 0.0
    if c["rotschreck"] and not c["cornered"]:
        return 0.0 if side_beaten(sight) else sight.share(me) * (1 + WEIGHTS.kill)
    if c["status"] == "incapacitated":
        return mend_worth(sight, me, "lethal") + 1.0
    return 0.5 * sight.share(me) if len(c["boxes"]) >= WEIGHTS.hurt_boxes else 0.0


def choose_commit(sight: Sight, seat: int, menu: Sequence[Commit]) -> Commit:
    """The best entry of each character (a commit is checked character by character), joined
    in listing order; the menu's own union when it lists it."""
    chosen: list[Spend] = []
    for me in sight.mine:
        options: list[tuple[Spend, ...]] = [()]
        options += [m.spends for m in menu
                    if m.spends and all(s.character == me for s in m.spends)]
        scored = [(commit_worth(sight, me, option), -i) for i, option in enumerate(options)]
        chosen += options[-max(scored)[1]]  # ties: the first, the cheapest
    spends = tuple(chosen)
    return next((m for m in menu if m.spends == spends), Commit(seat=seat, spends=spends))


# Defenses --------------------------------------------------------------------------------------

def defense_worth(sight: Sight, event: Defend | Abort, menu: Sequence[Any]) -> float:
    awaiting = sight.view["awaiting"]
    me = awaiting["target"]
    c = sight.mine[me]
    if isinstance(event, Abort):
        return abort_worth(sight, event, menu)
    value = -blow_loss(sight, me, event.defense, 1 if event.willpower else 0)
    return value - (willpower_price(c) if event.willpower else 0.0)


def blow_loss(sight: Sight, me: str, kind: str | None, auto: int, full: bool = False) -> float:
    """The cost of the attack awaiting an answer, met with `kind` (or none): its successes are
    public (V20-7.6), the foe's damage guessed; a parry that beats an unarmed blow strikes back
    (V20-7.5)."""
    awaiting = sight.view["awaiting"]
    c, body = sight.mine[me], sight.bodies[me]
    w, foe = weapon(awaiting["weapon"]), awaiting["attacker"]
    hit = strike(sight.bodies[foe], w, None, body)
    guard = None if kind is None else defense_roll(body, kind, w.gunfire,
                                                   0 if full else own_k(sight, c, kind))
    if guard is not None:
        guard = guard._replace(auto=auto)
    law = levels_after(awaiting["successes"], guard, hit)
    cost = sight.loss(me, toll(law, sight.levels_left(me, w.type)))
    if kind == "parry" and w.is_unarmed and guard is not None and foe in sight.foes:
        cost -= counter_worth(sight, me, foe, awaiting["successes"], guard)
    return cost


def own_k(sight: Sight, c: Mapping[str, Any], kind: str) -> int:
    """The k of a declared defense (V20-5.2): its place among the regular actions; an extra
    action's is 0 (phase 6, V20-5.5) and so is full defense's (V20-5.6)."""
    declared = c["declared"]
    if c["full_defense"] or sight.view["phase"] == "extra" or len(declared) < 2:
        return 0
    return declared.index(kind) + 1 if kind in declared else 0


def counter_worth(sight: Sight, me: str, foe: str, successes: int, guard: Roll) -> float:
    """V20-7.5: the parry's successes beyond the attack's strike back with the parrying
    weapon, undefended."""
    body = sight.bodies[me]
    parry = next(weapon(w) for w in body.weapons if weapon(w).can_parry)
    hit = strike(body, parry, None, sight.bodies[foe])
    law = roll_law(guard)
    value = 0.0
    for d, p in enumerate(law[successes + 1:], successes + 1):
        law = levels_after(d - successes, None, hit)
        value += p * sight.gain(foe, toll(law, sight.levels_left(foe, parry.type)))
    return value


def abort_worth(sight: Sight, event: Abort, menu: Sequence[Any]) -> float:
    """V20-5.7: full defense for this blow and the turn's others, at the price of the actions
    still to come; if the Willpower roll fails, the best plain answer."""
    awaiting = sight.view["awaiting"]
    me = awaiting["target"]
    c, body = sight.mine[me], sight.bodies[me]
    w = weapon(awaiting["weapon"])
    chance = 1.0 if event.willpower else at_least(
        roll_law(Roll(c["willpower"]["rating"], pools.BASE)), 1)
    fallback = max(defense_worth(sight, e, menu) for e in menu if isinstance(e, Defend))
    now = -blow_loss(sight, me, _full_kind(body, w), 0, full=True)
    later = max(0.0, harm(sight, me, body, []) - harm(sight, me, body, [], full=True)) / 2
    forfeit = 0.0
    if not c["acted"] and "attack" in c["declared"]:
        forfeit = best_attack(sight, me, body) * (1 + len(c["extra"]))
    saved = WEIGHTS.guarding * (max(now - fallback, 0.0) + later)
    value = chance * (fallback + saved - forfeit) + (1 - chance) * fallback
    return value - (willpower_price(c) if event.willpower else 0.0)


# The bot ---------------------------------------------------------------------------------------

class TacticalBot:
    name = "tactical"

    def choose(self, seen: Observation, legal: Sequence[Any], rng: random.Random) -> Any:
        view = require_observation(seen, SeatView).view()
        sight = Sight(view, seen.seat)
        commits = [e for e in legal if isinstance(e, Commit)]
        if commits:
            return choose_commit(sight, seen.seat, commits)
        scored = [(self.score(sight, event, legal), i) for i, event in enumerate(legal)]
        best = max(s for s, _ in scored)
        ties = [i for s, i in scored if s == best]
        return legal[ties[rng.randrange(len(ties))]]

    def score(self, sight: Sight, event: Any, legal: Sequence[Any]) -> float:
        if isinstance(event, Declare):
            return declaration_worth(sight, event)
        if isinstance(event, (Defend, Abort)):
            return defense_worth(sight, event, legal)
        if isinstance(event, Concede):
            return LAST_RESORT
        return 0.0

