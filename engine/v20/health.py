"""V20 health as pure arithmetic: the seven-box track, soak pools, damage pools and levels, the
statuses a track leads to, and who is out of the fight (V20-8, V20-9, V20-10.3/10.4).

Everything here takes plain ints and strings (a kind, a damage type) and returns immutable
values, so the rules, the narration and the analytics all read one arithmetic, and none of it
needs a catalog. The words are the game's:

- kinds: "vampire", "ghoul", "mortal" (V20-1.5, V20-3.4, V20-3.5);
- damage types: "bashing" ("/"), "lethal" ("X"), "aggravated" ("*") (Glossary);
- statuses: "active", "incapacitated", "torpor" and "final_death" for a vampire (V20-9.4),
  "active", "incapacitated" and "dead" for a ghoul or a mortal (V20-9.6).

A status is read from the track after each level, and torpor and death are sticky: no later
level or heal brings a character back from them within the match (V20-9.4 [decision]), so the
functions that read a status take the status the character already had.
"""
from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Final, Literal, TypeAlias

import msgspec
from msgspec.structs import replace

from engine.ruleset import RuleViolation

Kind = Literal["vampire", "ghoul", "mortal"]
DamageType = Literal["bashing", "lethal", "aggravated"]
Status = Literal["active", "incapacitated", "torpor", "final_death", "dead"]
Effect = Literal["filled", "upgraded", "fatal", "none"]
"""What one level did: filled an empty box, turned a bashing box to lethal (V20-9.3, V20-9.6),
killed or destroyed the character, or nothing at all."""

KINDS: Final[tuple[Kind, ...]] = ("vampire", "ghoul", "mortal")
DAMAGE_TYPES: Final[tuple[DamageType, ...]] = ("aggravated", "lethal", "bashing")
"""The damage types in track order (V20-9.2): aggravated boxes first, bashing last."""
HEALTH_LEVELS: Final = 7
SYMBOLS: Final[dict[DamageType, str]] = {"aggravated": "*", "lethal": "X", "bashing": "/"}

_STATUSES: Final[dict[Kind, tuple[Status, ...]]] = {
    "vampire": ("active", "incapacitated", "torpor", "final_death"),
    "ghoul": ("active", "incapacitated", "dead"),
    "mortal": ("active", "incapacitated", "dead"),
}
_SEVERITY: Final[dict[Status, int]] = {
    "active": 0, "incapacitated": 1, "torpor": 2, "final_death": 3, "dead": 3,
}
_STICKY: Final = frozenset({"torpor", "final_death", "dead"})
_FINISHED: Final = frozenset({"final_death", "dead"})


class NoActions(enum.Enum):
    """The penalty of a full track (V20-9.1: "Incapacitated: no actions"). It is not a number of
    dice, so no pool arithmetic can mistake it for a large malus."""

    NO_ACTIONS = "no actions"


NO_ACTIONS: Final = NoActions.NO_ACTIONS
Penalty: TypeAlias = int | Literal[NoActions.NO_ACTIONS]
"""A wound penalty: dice taken off action pools (0, -1, -2 or -5), or NO_ACTIONS."""

_LEVELS: Final[tuple[tuple[str, Penalty], ...]] = (
    ("none", 0), ("Bruised", 0), ("Hurt", -1), ("Injured", -1), ("Wounded", -2),
    ("Mauled", -2), ("Crippled", -5), ("Incapacitated", NO_ACTIONS),
)
"""V20-9.1: the level name and the penalty with k boxes filled, k = 0..7."""


def as_kind(kind: str) -> Kind:
    """A character kind checked against the three the spec knows (V20-1.5, V20-3.4, V20-3.5);
    for callers holding a plain string from a catalog or an event."""
    for known in KINDS:
        if kind == known:
            return known
    raise ValueError(f"unknown kind {kind!r}: expected one of {', '.join(KINDS)}")


def as_damage_type(damage_type: str) -> DamageType:
    """A damage type checked against the three of the game (Glossary, V20-6.10)."""
    for known in DAMAGE_TYPES:
        if damage_type == known:
            return known
    raise ValueError(f"unknown damage type {damage_type!r}: expected one of "
                     f"{', '.join(DAMAGE_TYPES)}")


class Track(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The seven-box health track (V20-9.1) as counts of each damage type.

    The spec keeps the boxes sorted, aggravated then lethal then bashing, and re-sorts after
    every level (V20-9.2). Counts are that sorted track with the order built in: adding a level
    "into the first empty box, then re-sorting" is adding one to its count, and `boxes` gives
    the sorted boxes back."""

    aggravated: int = 0
    lethal: int = 0
    bashing: int = 0

    def __post_init__(self) -> None:
        counts = (self.aggravated, self.lethal, self.bashing)
        if min(counts) < 0 or sum(counts) > HEALTH_LEVELS:
            raise RuleViolation("V20-9.1", f"a health track holds 0 to {HEALTH_LEVELS} boxes, "
                                f"not {counts[0]}* {counts[1]}X {counts[2]}/")

    @classmethod
    def from_boxes(cls, boxes: Iterable[str]) -> Track:
        """A track from boxes in any order (a setup's existing damage, V20-3.6), sorted as
        V20-9.2 keeps it."""
        checked = [as_damage_type(box) for box in boxes]
        return cls(aggravated=checked.count("aggravated"), lethal=checked.count("lethal"),
                   bashing=checked.count("bashing"))

    def count(self, damage_type: str) -> int:
        """How many boxes hold `damage_type`."""
        checked = as_damage_type(damage_type)
        counts = {"aggravated": self.aggravated, "lethal": self.lethal, "bashing": self.bashing}
        return counts[checked]

    @property
    def boxes(self) -> tuple[DamageType, ...]:
        """The filled boxes in track order (V20-9.2): aggravated, then lethal, then bashing."""
        return tuple(t for t in DAMAGE_TYPES for _ in range(self.count(t)))

    @property
    def boxes_filled(self) -> int:
        return self.aggravated + self.lethal + self.bashing

    @property
    def full(self) -> bool:
        """All seven boxes filled: the point where overflow rules take over (V20-9.3, V20-9.6)."""
        return self.boxes_filled == HEALTH_LEVELS

    @property
    def level_name(self) -> str:
        """The health level reached (V20-9.1): "none", "Bruised" ... "Incapacitated"."""
        return _LEVELS[self.boxes_filled][0]

    @property
    def penalty(self) -> Penalty:
        """The wound penalty (V20-9.1), NO_ACTIONS on a full track. It applies to actions only,
        never to soak, virtue or Willpower rolls (V20-9.7)."""
        return _LEVELS[self.boxes_filled][1]

    @property
    def drawing(self) -> str:
        """The track in the game's notation (S4, D11): "1X + 6/", "7*", "none" when empty."""
        parts = [f"{self.count(t)}{SYMBOLS[t]}" for t in DAMAGE_TYPES if self.count(t)]
        return " + ".join(parts) or "none"

    def added(self, damage_type: DamageType) -> Track:
        """One more box of `damage_type` on a track that is not full (V20-9.2)."""
        return replace(self, **{damage_type: self.count(damage_type) + 1})

    def upgraded(self) -> Track:
        """One bashing box turned to lethal (V20-9.3, V20-9.6)."""
        return replace(self, lethal=self.lethal + 1, bashing=self.bashing - 1)


class Taken(msgspec.Struct, frozen=True, kw_only=True):
    """What `take` did, enough to narrate it: the new track, the status reached and what each
    level did, in order."""

    track: Track
    status: Status
    effects: tuple[Effect, ...]
    """One per level taken, in order: "filled", "upgraded", "fatal" or "none"."""

    @property
    def applied(self) -> int:
        """The levels that changed the track or the status (the others had no effect)."""
        return sum(1 for effect in self.effects if effect != "none")


def _check_status(kind: Kind, status: str) -> Status:
    for known in _STATUSES[kind]:
        if status == known:
            return known
    raise ValueError(f"a {kind}'s status is one of {', '.join(_STATUSES[kind])}, not {status!r}")


def _worst(a: Status, b: Status) -> Status:
    return a if _SEVERITY[a] >= _SEVERITY[b] else b


def _reading(track: Track, kind: Kind) -> Status:
    """The status the track alone shows: V20-9.4 for a vampire, V20-9.6 for the others (a full
    track that has not killed means Incapacitated; death comes only from an overflow)."""
    if not track.full:
        return "active"
    if kind != "vampire":
        return "incapacitated"
    if track.aggravated == HEALTH_LEVELS:
        return "final_death"
    return "torpor" if track.bashing == 0 else "incapacitated"


def status_of(track: Track, kind: str, prior: str = "active") -> Status:
    """The status read from the track (V20-9.4, V20-9.6), never better than a sticky `prior`.

    Torpor, Final Death and death last to the end of the match (V20-9.4 [decision]): a vampire
    put into torpor by "7 bashing + 1 lethal" shows "1X + 6/", which alone would read
    Incapacitated, so the status it already had must be carried. Incapacitated is not sticky:
    healing a box (V20-9.9, V20-10.3) makes the character active again."""
    checked = as_kind(kind)
    before = _check_status(checked, prior)
    now = _reading(track, checked)
    return _worst(before, now) if before in _STICKY else now


def _vampire_overflow(track: Track, damage_type: DamageType,
                      status: Status) -> tuple[Track, Status, Effect]:
    """V20-9.3: a level arriving on a vampire's full track. Aggravated destroys it; bashing or
    lethal turns one bashing box to lethal and sends it into torpor, or, with no bashing box
    left, does nothing (the track then reads torpor already, V20-9.4)."""
    if damage_type == "aggravated":
        return track, "final_death", "fatal"
    if track.bashing == 0:
        return track, _worst(status, "torpor"), "none"
    return track.upgraded(), "torpor", "upgraded"


def _mortal_overflow(track: Track, damage_type: DamageType,
                     status: Status) -> tuple[Track, Status, Effect]:
    """V20-9.6: a level arriving on a ghoul's or mortal's full track. A bashing level turns one
    bashing box to lethal; with no bashing box left, or a lethal or aggravated level, it dies."""
    if damage_type != "bashing" or track.bashing == 0:
        return track, "dead", "fatal"
    return track.upgraded(), _worst(status, "incapacitated"), "upgraded"


def _one_level(track: Track, kind: Kind, damage_type: DamageType,
               status: Status) -> tuple[Track, Status, Effect]:
    """One level, V20-9.2: into the first empty box (the track stays sorted), or by the overflow
    rules on a full track; nothing more happens to the destroyed or the dead."""
    if status in _FINISHED:
        return track, status, "none"
    if not track.full:
        filled = track.added(damage_type)
        return filled, status_of(filled, kind, status), "filled"
    if kind == "vampire":
        return _vampire_overflow(track, damage_type, status)
    return _mortal_overflow(track, damage_type, status)


def take(track: Track, kind: str, damage_type: str, levels: int, *,
         status: str = "active") -> Taken:
    """Apply `levels` health levels of `damage_type` one at a time (V20-9.2), with the overflow
    rules of a full track (V20-9.3 vampires, V20-9.6 ghouls and mortals) and the status read
    after each level (V20-9.4). `status` is the one the character had before, so torpor and
    death stay sticky (V20-9.4 [decision])."""
    checked_kind, checked_type = as_kind(kind), as_damage_type(damage_type)
    if levels < 0:
        raise ValueError(f"levels of damage are 0 or more, not {levels}")
    current = status_of(track, checked_kind, status)
    effects: list[Effect] = []
    for _ in range(levels):
        track, current, effect = _one_level(track, checked_kind, checked_type, current)
        effects.append(effect)
    return Taken(track=track, status=current, effects=tuple(effects))


def heal(track: Track, damage_type: str) -> Track:
    """Remove one bashing or lethal box, the one the player names (V20-10.3). An aggravated box
    needs a day of rest and 5 BP, outside the match (V20-10.4), so it is refused. The cost in
    blood, the roll and who may heal are the caller's (V20-5.8, V20-5.13, V20-10.8)."""
    checked = as_damage_type(damage_type)
    if checked == "aggravated":
        raise RuleViolation("V20-10.4", "an aggravated level heals only with a day of rest and "
                            "5 BP, outside the match")
    if track.count(checked) == 0:
        raise RuleViolation("V20-10.3", f"no {checked} box to heal on {track.drawing}")
    return replace(track, **{checked: track.count(checked) - 1})


def thirst_torpor(kind: str, status: str, blood: int) -> Status:
    """V20-9.5: an Incapacitated vampire with 0 BP sinks into torpor at once (it cannot heal
    itself, V20-9.9); any other character keeps its status."""
    checked = as_kind(kind)
    before = _check_status(checked, status)
    if checked == "vampire" and before == "incapacitated" and blood <= 0:
        return "torpor"
    return before


def _non_negative(**traits: int) -> None:
    for name, value in traits.items():
        if value < 0:
            raise ValueError(f"{name} is 0 or more, not {value}")


def soak_pool(kind: str, damage_type: str, stamina: int, fortitude: int, armor: int) -> int:
    """The soak dice (V20-8.6). Stamina soaks bashing for everyone and lethal for vampires only;
    Fortitude and armor soak every type. A pool of 0 is not rolled and scores 0 (V20-2.13), and
    wound penalties never apply to soak (V20-8.6, V20-9.7)."""
    checked_kind, checked_type = as_kind(kind), as_damage_type(damage_type)
    _non_negative(stamina=stamina, fortitude=fortitude, armor=armor)
    if checked_kind == "mortal" and fortitude:
        raise RuleViolation("V20-3.5", f"a mortal has no Disciplines, so no Fortitude {fortitude}")
    stamina_soaks = checked_type == "bashing" or (
        checked_kind == "vampire" and checked_type == "lethal")
    return (stamina if stamina_soaks else 0) + fortitude + armor


def levels_taken(kind: str, damage_type: str, damage_successes: int,
                 soak_successes: int) -> int:
    """Health levels from one damage roll (V20-8.7): damage successes minus soak successes,
    never below 0; only a vampire halves bashing, rounded down (V20-8.7 [decision]). S3: five
    bashing successes and one soak success give floor(4 / 2) = 2 levels."""
    checked_kind, checked_type = as_kind(kind), as_damage_type(damage_type)
    _non_negative(damage_successes=damage_successes, soak_successes=soak_successes)
    net = max(0, damage_successes - soak_successes)
    halved = checked_kind == "vampire" and checked_type == "bashing"
    return net // 2 if halved else net


def extra_damage_dice(attack_successes: int) -> int:
    """One damage die per attack success after the first (V20-8.1), counting the successes
    left after the defense, automatic ones included. An attack with none left missed (V20-7.1)
    and rolls no damage."""
    if attack_successes < 1:
        raise RuleViolation("V20-7.1", "an attack with no success left misses: no damage roll")
    return attack_successes - 1


def damage_pool(weapon_damage: int, strength_based: bool, strength: int,
                extra_successes: int, aim_bonus: int, wound_penalty: int) -> int:
    """The damage dice (V20-8.1, 8.2, 8.3, 9.8). `weapon_damage` is the weapon's bonus for a
    Strength-based attack (punch 0, sword 2), its fixed rating for a mechanical one (heavy pistol
    5); `extra_successes` counts the attack successes after the first (`extra_damage_dice`);
    `aim_bonus` is 0, 1 or 2 (V20-6.6); `wound_penalty` is the V20-9.1 value (0, -1, -2, -5),
    or 0 when wounds are ignored (V20-11.3, V20-12.5).

    Wounds weaken a blow struck with the body's Strength but not a gun's mechanism (V20-9.8),
    and a damage roll always has a die to roll (V20-8.3). S10: at Hurt, a Strength 3 punch
    rolls 2 dice plus extras, a heavy pistol still 5."""
    _non_negative(weapon_damage=weapon_damage, strength=strength,
                  extra_successes=extra_successes, aim_bonus=aim_bonus)
    if wound_penalty > 0:
        raise ValueError(f"a wound penalty is 0 or negative (V20-9.1), not {wound_penalty}")
    base = weapon_damage + (strength + wound_penalty if strength_based else 0)
    return max(1, base + extra_successes + aim_bonus)


def out_of_fight(kind: str, status: str, can_spend_blood: bool, *, gone: bool = False,
                 npc: bool = False) -> bool:
    """V20-9.10: destroyed (Final Death), dead, in torpor, gone (fled, V20-5.9) or an NPC
    (path 0, V20-13.6) is out of the fight. Incapacitated, a character can only heal itself with
    blood (V20-9.9): a mortal never can (V20-3.5), a ghoul without blood it can spend is out,
    and a vampire without blood sinks into torpor (V20-9.5)."""
    checked = as_kind(kind)
    now = _check_status(checked, status)
    if gone or npc or now in _STICKY:
        return True
    if now == "incapacitated":
        return checked == "mortal" or not can_spend_blood
    return False
