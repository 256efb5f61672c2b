"""V20 dice as exact mathematics: what a roll of d10s scores (V20-2), and the exact distribution
of a roll's outcome as fractions, for any pool, difficulty, specialty and automatic successes.

The engine scores every logged roll with `score`; the analytics (the dice-fairness audit) and
`postgame dice` read `distribution`. Both follow the same reading of the rules:

- V20-2.1 a die is 1-10 (a "0" face reads 10); V20-2.4 a difficulty is clamped to 2-10;
- V20-2.3/2.6 a die at or above the difficulty is a success (P: below 10, T: tens), each 1 (O)
  cancels one; with a specialty (V20-2.5) a ten counts twice and the 1s cancel plain successes
  first, then tens (both of a ten's successes go with it);
- V20-2.7 automatic successes are added after cancellation and never cancelled;
- V20-2.8 a botch is no success die (P + T = 0), at least one 1, and no automatic success; a
  roll whose successes are all cancelled is a plain failure;
- V20-2.10 damage and soak rolls cannot botch (their 1s still cancel).

The distribution sums the multinomial law of (P, T, O) over the pool: each die is a 1 with
probability 1/10, a ten with 1/10, a plain success with (10 - d)/10 and a plain failure with
(d - 2)/10. Outcomes are keyed by net successes, with BOTCH (-1) for a botch.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import lru_cache
from math import comb

import msgspec

from engine.ruleset import RuleViolation

BOTCH = -1
"""The outcome key of a botch in a distribution (any other key is net successes, 0 or more)."""
MIN_DIFFICULTY, MAX_DIFFICULTY = 2, 10


def clamp_difficulty(difficulty: int) -> int:
    """V20-2.4: after all modifiers a difficulty is clamped to 2-10."""
    return min(max(difficulty, MIN_DIFFICULTY), MAX_DIFFICULTY)


class Score(msgspec.Struct, frozen=True, kw_only=True):
    """What one roll scored (V20-2.6): its counts, its net successes and whether it botched."""

    plain: int
    """P: dice at or above the difficulty, tens apart."""
    tens: int
    """T: dice showing 10."""
    ones: int
    """O: dice showing 1."""
    net: int
    """Successes after cancellation, automatic ones included (never below 0)."""
    botch: bool

    @property
    def success(self) -> bool:
        """V20-2.9: one net success or more."""
        return self.net >= 1


def check_dice(dice: Sequence[int]) -> None:
    """V20-2.1: every logged value is an integer 1-10."""
    for value in dice:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10:
            raise RuleViolation("V20-2.1", f"a d10 shows 1-10 (a 0 face reads 10), not {value!r}")


def score(dice: Sequence[int], difficulty: int, *, specialty: bool = False, auto: int = 0,
          can_botch: bool = True) -> Score:
    """The roll's score at `difficulty` (clamped, V20-2.4), as V20-2.6 counts it."""
    check_dice(dice)
    d = clamp_difficulty(difficulty)
    tens = sum(1 for v in dice if v == 10)
    plain = sum(1 for v in dice if d <= v <= 9)
    ones = sum(1 for v in dice if v == 1)
    return _scored(plain, tens, ones, specialty, auto, can_botch)


def _scored(plain: int, tens: int, ones: int, specialty: bool, auto: int,
            can_botch: bool) -> Score:
    rolled = _rolled(plain, tens, ones, specialty)
    botch = can_botch and plain + tens == 0 and ones >= 1 and auto == 0
    return Score(plain=plain, tens=tens, ones=ones, net=rolled + auto, botch=botch)


def _rolled(plain: int, tens: int, ones: int, specialty: bool) -> int:
    """V20-2.6: successes left after the 1s cancel, before automatic successes."""
    if not specialty:
        return max(0, plain + tens - ones)
    on_plain = min(ones, plain)
    on_tens = min(ones - on_plain, tens)
    return (plain - on_plain) + 2 * (tens - on_tens)


Distribution = dict[int, Fraction]
"""Outcome -> exact probability: BOTCH, then 0, 1, 2, ... net successes; sums to 1."""


def distribution(pool: int, difficulty: int, *, specialty: bool = False, auto: int = 0,
                 can_botch: bool = True) -> Distribution:
    """The exact law of a roll of `pool` d10s (V20-2.6/2.8), outcomes in increasing order.

    A pool below 1 die rolls nothing (V20-2.13): its outcome is its automatic successes."""
    if auto < 0:
        raise ValueError(f"automatic successes cannot be negative ({auto})")
    return dict(_distribution(max(pool, 0), clamp_difficulty(difficulty), specialty, auto,
                              can_botch))


@lru_cache(maxsize=4096)
def _distribution(pool: int, d: int, specialty: bool, auto: int,
                  can_botch: bool) -> tuple[tuple[int, Fraction], ...]:
    """Counts the faces of 10**pool equally likely rolls by (O, T, P): a 1 and a ten are one
    face each, a plain success one of 10 - d faces, a plain failure one of d - 2."""
    plain_faces, fail_faces = 10 - d, d - 2
    ways_to: dict[int, int] = {}
    for ones in range(pool + 1):
        for tens in range(pool - ones + 1):
            rest = pool - ones - tens
            placed = comb(pool, ones) * comb(pool - ones, tens)
            for plain in range(rest + 1):
                ways = placed * comb(rest, plain) * plain_faces ** plain \
                    * fail_faces ** (rest - plain)
                if ways:
                    got = _scored(plain, tens, ones, specialty, auto, can_botch)
                    key = BOTCH if got.botch else got.net
                    ways_to[key] = ways_to.get(key, 0) + ways
    every = 10 ** pool
    return tuple((key, Fraction(ways, every)) for key, ways in sorted(ways_to.items()))


def chance_of_success(law: Distribution) -> Fraction:
    """V20-2.9: one net success or more."""
    return sum((p for k, p in law.items() if k >= 1), Fraction(0))


def chance_of_botch(law: Distribution) -> Fraction:
    return law.get(BOTCH, Fraction(0))


def expected_net(law: Distribution) -> Fraction:
    """Expected net successes, a botch counting 0 (it scores no success)."""
    return sum((k * p for k, p in law.items() if k > 0), Fraction(0))


def outcome_name(key: int) -> str:
    return "botch" if key == BOTCH else f"{key} success{'es' if key != 1 else ''}"


def outcomes(values: Iterable[int], difficulty: int, *, specialty: bool = False,
             auto: int = 0, can_botch: bool = True) -> int:
    """The distribution key of one logged roll: BOTCH or its net successes (for the audit)."""
    got = score(list(values), difficulty, specialty=specialty, auto=auto, can_botch=can_botch)
    return BOTCH if got.botch else got.net
