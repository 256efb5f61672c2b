"""How many dice each V20 roll takes and at what difficulty: the arithmetic of V20-2, 4, 5, 6, 7,
8, 9, 12 and 13, from a character as the fight has left it.

Each function returns a `Pool`: dice, difficulty (before the clamp of V20-2.4, which the dice
module applies), whether a specialty counts, and automatic successes. Wound penalties apply to
actions only: attacks, defenses, heal rolls, the ambusher's roll and initiative (V20-9.7); never
to soak, virtue or Willpower rolls.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.ruleset import RuleViolation
from engine.v20.catalog import Weapon, load_catalog
from engine.v20.health import NO_ACTIONS, damage_pool, soak_pool
from engine.v20.state import Fighter

BASE = 6
"""Attacks (V20-6.1), defenses (V20-7.1), damage (V20-8.1), soak (V20-8.6), ambush (V20-6.7)."""
DODGE_GUNFIRE = 8
"""V20-7.3: a dodge against gunfire."""
HARD = 8
"""Heal rolls (V20-5.8) and conscience rolls (V20-13.1)."""
POSITION_DICE = {"flank": 1, "rear": 2}
"""V20-6.4."""
BLIND = 2
"""V20-6.5."""
DEFENSE_ABILITY = {"block": "brawl", "dodge": "athletics", "parry": "melee"}
"""V20-7.2, 7.3, 7.4."""


@dataclass(frozen=True, slots=True)
class Pool:
    dice: int
    difficulty: int
    specialty: bool = False
    auto: int = 0


def wound_penalty(f: Fighter) -> int:
    """The dice wounds take off an action (V20-9.1), none with Willpower spent to ignore them
    (V20-11.3) or in frenzy (V20-12.5). A full track takes no actions: the callers refuse
    those before asking (V20-5.13)."""
    if f.ignore_wounds or f.frenzy:
        return 0
    penalty = f.track.penalty
    return 0 if penalty is NO_ACTIONS else int(penalty)


def celerity_dice(f: Fighter) -> int:
    """V20-5.5: each Celerity dot not spent on extra actions this turn adds a die to every
    Dexterity pool."""
    return max(0, f.discipline("celerity") - f.celerity_actions)


def armor_penalty(f: Fighter) -> int:
    """V20-6.3: the armor's penalty leaves every Dexterity pool."""
    return f.armor.dexterity_penalty if f.armor else 0


def _ability(f: Fighter, ability: str) -> tuple[int, int]:
    """The ability's dots and the difficulty it adds: without it, the Attribute alone at +1
    (V20-2.11)."""
    dots = f.sheet.ability(ability)  # type: ignore[arg-type]
    return dots, 0 if dots else 1


def specialty_applies(f: Fighter, ability: str, tags: tuple[str, ...]) -> bool:
    """V20-2.12: the character's specialty in the ability matches one of the action's tags."""
    held = f.sheet.specialty(ability)  # type: ignore[arg-type]
    return held is not None and held in tags


def _claimed(f: Fighter, ability: str, tags: tuple[str, ...], claimed: bool) -> bool:
    if claimed and not specialty_applies(f, ability, tags):
        raise RuleViolation("V20-2.12", f"{f.name}'s {ability} specialty "
                            f"({f.sheet.specialty(ability) or 'none'}) does not match "  # type: ignore[arg-type]
                            f"{' / '.join(tags) or 'this action'}")
    return claimed


def dexterity_pool(f: Fighter, ability: str, k: int, wounds: bool = True) -> tuple[int, int]:
    """Dexterity + ability + Celerity dice - armor - wounds - k (V20-5.2), and the difficulty
    the ability adds; the dice may fall below 1 (V20-5.12 refuses or forfeits such actions)."""
    dots, harder = _ability(f, ability)
    dice = (f.attribute("dexterity") + dots + celerity_dice(f) - armor_penalty(f)
            + (wound_penalty(f) if wounds else 0) - k)
    return dice, harder


def attack(f: Fighter, weapon: Weapon, *, k: int = 0, aim: str | None = None,
           position_bonus: int = 0, specialty: bool = False, auto: int = 0) -> Pool:
    """V20-6.1 to 6.6: Dexterity + the weapon's ability at its base difficulty, + k and -k dice
    for the k-th of multiple actions (V20-5.2), aiming, flank or rear dice, fighting blind."""
    dice, harder = dexterity_pool(f, weapon.ability, k)
    size = load_catalog().target_sizes[aim].difficulty if aim else 0
    difficulty = weapon.difficulty + harder + size + k + (BLIND if f.blind else 0)
    return Pool(dice + position_bonus, difficulty,
                _claimed(f, weapon.ability, weapon.specialties, specialty), auto)


def defense(f: Fighter, kind: str, *, k: int = 0, gunfire: bool = False, fewer: int = 0,
            specialty: bool = False, auto: int = 0, tags: tuple[str, ...] = ()) -> Pool:
    """V20-7.1 to 7.4: block (Dexterity + Brawl), dodge (+ Athletics, difficulty 8 against
    gunfire) or parry (+ Melee) at difficulty 6; -k dice and +k difficulty for its place among
    multiple actions (V20-5.2), `fewer` dice under full defense (V20-5.6)."""
    ability = DEFENSE_ABILITY[kind]
    dice, harder = dexterity_pool(f, ability, k)
    base = DODGE_GUNFIRE if kind == "dodge" and gunfire else BASE
    difficulty = base + harder + k + (BLIND if f.blind else 0)
    return Pool(dice - fewer, difficulty, _claimed(f, ability, tags, specialty), auto)


def damage(f: Fighter, weapon: Weapon, successes: int, aim: str | None) -> Pool:
    """V20-8.1 to 8.4: the weapon's damage + a die per success after the first + the aiming
    dice; wounds weaken Strength-based blows only (V20-9.8); Potence adds automatic successes
    to them (V20-8.4). Never below 1 die (V20-8.3)."""
    bonus = load_catalog().target_sizes[aim].damage if aim else 0
    dice = damage_pool(weapon.damage, weapon.strength_based, f.attribute("strength"),
                       successes - 1, bonus, wound_penalty(f))
    auto = f.discipline("potence") if weapon.strength_based else 0
    return Pool(dice, BASE, False, auto)


def soak(f: Fighter, damage_type: str) -> Pool:
    """V20-8.6: the soak pool of the character's kind against the type, no wound penalty."""
    armor = f.armor.rating if f.armor else 0
    dice = soak_pool(f.kind, damage_type, f.attribute("stamina"), f.discipline("fortitude"),
                     armor)
    return Pool(dice, BASE)


def initiative_bonus(f: Fighter) -> int:
    """V20-4.2: Dexterity + Wits + Celerity dots not spent on extra actions - wounds, added to
    1d10; armor does not count (V20-4.3)."""
    return (f.attribute("dexterity") + f.attribute("wits") + celerity_dice(f)
            + wound_penalty(f))


def ambusher(f: Fighter, specialty: bool, auto: int) -> Pool:
    """V20-6.7: Dexterity + Stealth at difficulty 6, with Celerity dice (V20-5.5), armor and
    wounds (V20-9.7), and the bearing of the Path of Bones (V20-13.7)."""
    dice, harder = dexterity_pool(f, "stealth", 0)
    difficulty = BASE + harder + bearing(f, "avoid_notice")
    return Pool(dice, difficulty, _claimed(f, "stealth", ("Ambush",), specialty), auto)


def noticing(f: Fighter) -> Pool:
    """V20-6.7: the target's Perception + Alertness at difficulty 6, reflexive: no wounds."""
    dots, harder = _ability(f, "alertness")
    return Pool(f.attribute("perception") + dots, BASE + harder)


def bearing(f: Fighter, rolls: str) -> int:
    """V20-13.7: the path's bearing on the rolls it affects, 0 on others (and at path 0)."""
    catalog = load_catalog()
    path = catalog.paths[f.sheet.path.id]
    if path.affects != rolls or f.path < 1:
        return 0
    return catalog.bearing(f.sheet.path.id, f.path)


def frenzy(f: Fighter, difficulty: int) -> Pool:
    """V20-12.1, 12.3: Self-Control, never more dice than BP, at the trigger's difficulty and
    the bearing of the Path of Flayed Hearts."""
    return Pool(min(f.sheet.virtue("self_control"), f.blood),
                difficulty + bearing(f, "self_control"))


def rotschreck(f: Fighter, difficulty: int) -> Pool:
    """V20-12.9: Courage, with no blood cap, and the bearing of the Path of the Einherjar."""
    return Pool(f.sheet.virtue("courage"), difficulty + bearing(f, "courage"))


def conscience(f: Fighter) -> Pool:
    """V20-13.1: Conscience or Conviction at difficulty 8; no Willpower (V20-13.2)."""
    return Pool(f.path_virtue, HARD)


def willpower(f: Fighter) -> Pool:
    """V20-5.7: the Willpower rating at difficulty 6 to abort, no wound penalty."""
    return Pool(f.sheet.willpower, BASE)


def heal(f: Fighter, k: int, auto: int = 0) -> Pool:
    """V20-5.8: Stamina + Survival at difficulty 8, with the multiple-action modifiers."""
    dots, harder = _ability(f, "survival")
    dice = f.attribute("stamina") + dots + wound_penalty(f) - k
    return Pool(dice, HARD + harder + k, False, auto)
