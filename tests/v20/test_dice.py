"""V20 dice (engine.v20.dice, V20-2): the spec's worked rolls scored as it says, and the exact
distributions checked against two computations of their own: every roll enumerated for small
pools, and a die-by-die convolution for pools 1-20 at every difficulty."""
from __future__ import annotations

import argparse
import itertools
import json
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.ruleset import RuleViolation
from engine.v20.dice import (
    BOTCH,
    chance_of_botch,
    chance_of_success,
    clamp_difficulty,
    distribution,
    expected_net,
    score,
)
from postgame.commands import dice as dice_command
from postgame.commands.common import UserError

# The spec's rolls ------------------------------------------------------------------------------


@pytest.mark.parametrize("dice, difficulty, specialty, net", [
    ([2, 6, 7, 10, 1], 6, False, 2),  # D1
    ([2, 6, 7, 10, 1], 6, True, 3),  # D2: the 1 cancels the 7, the 10 counts twice
    ([10, 10, 1, 1, 1, 3], 6, True, 0),  # D4
    ([10, 10, 6, 1], 6, True, 4),
    ([10, 8, 1, 1], 6, True, 0),
    ([10, 10, 9, 1], 10, True, 2),
    ([10, 10, 9, 1], 10, False, 1),
    ([8, 9, 3, 2, 1, 10], 8, False, 2),  # S1: P=2, T=1, O=1
])
def test_the_worked_rolls_score_as_the_spec_says(dice, difficulty, specialty, net):
    """D1, D2, D4, S1 (V20-2.3, V20-2.5, V20-2.6)."""
    got = score(dice, difficulty, specialty=specialty)
    assert got.net == net and not got.botch


def test_s1_counts_plain_successes_tens_and_ones_apart():
    got = score([8, 9, 3, 2, 1, 10], 8)
    assert (got.plain, got.tens, got.ones, got.net) == (2, 1, 1, 2)


def test_d3_all_cancelled_is_a_failure_not_a_botch():
    """V20-2.8: a roll whose successes are all cancelled is a plain failure."""
    got = score([10, 1, 5, 3], 7, specialty=True)
    assert got.net == 0 and not got.botch and not got.success


def test_d5_a_botch_and_the_willpower_success_that_saves_it():
    """V20-2.7, V20-2.8: no success die and a 1 is a botch, unless an automatic success."""
    assert score([1, 4, 5], 6).botch
    saved = score([1, 4, 5], 6, auto=1)
    assert saved.net == 1 and not saved.botch


@pytest.mark.parametrize("dice, net, botch", [([8, 2, 5], 1, False), ([7, 5, 2], 0, False),
                                              ([1, 4, 6], 0, True)])
def test_s6_conscience_rolls(dice, net, botch):
    """S6: Conscience 3 at difficulty 8 (V20-13.3 to 13.5 read these scores)."""
    got = score(dice, 8)
    assert (got.net, got.botch) == (net, botch)


def test_damage_and_soak_rolls_cannot_botch_but_their_ones_cancel():
    """V20-2.10."""
    got = score([1, 3, 2], 6, can_botch=False)
    assert got.net == 0 and not got.botch
    assert score([1, 7, 7], 6, can_botch=False).net == 1
    assert BOTCH not in distribution(5, 6, can_botch=False)


@pytest.mark.parametrize("value", [0, 11, -1, True, 2.5])
def test_a_die_outside_1_to_10_is_refused(value):
    """V20-2.1."""
    with pytest.raises(RuleViolation) as refused:
        score([5, value], 6)
    assert refused.value.rule == "V20-2.1"


@pytest.mark.parametrize("asked, used", [(1, 2), (-3, 2), (11, 10), (14, 10), (7, 7)])
def test_difficulties_are_clamped_to_2_to_10(asked, used):
    """V20-2.4."""
    assert clamp_difficulty(asked) == used
    assert distribution(3, asked) == distribution(3, used)


# The exact law, checked two other ways ----------------------------------------------------------

def _key(dice: tuple[int, ...], d: int, specialty: bool) -> int:
    """A roll scored from the spec's own words, written apart from the engine."""
    plain = sum(d <= v < 10 for v in dice)
    tens, ones = dice.count(10), dice.count(1)
    if plain + tens == 0 and ones:
        return BOTCH
    if not specialty:
        return max(0, plain + tens - ones)
    cancel_plain = min(ones, plain)
    cancel_tens = min(ones - cancel_plain, tens)
    return plain - cancel_plain + 2 * (tens - cancel_tens)


@pytest.mark.parametrize("pool", [1, 2, 3, 4])
def test_small_pools_agree_with_every_roll_enumerated(pool):
    for d, specialty in itertools.product(range(2, 11), (False, True)):
        counts = Counter(_key(roll, d, specialty)
                         for roll in itertools.product(range(1, 11), repeat=pool))
        want = {k: Fraction(n, 10 ** pool) for k, n in sorted(counts.items())}
        assert distribution(pool, d, specialty=specialty) == want, (pool, d, specialty)


def _convolved(d: int, pools: int) -> dict[int, Counter[tuple[int, int, int]]]:
    """Die by die, how many rolls give each (plain, tens, ones) count, for every pool size."""
    faces = Counter({(0, 0, 1): 1, (0, 1, 0): 1, (1, 0, 0): 10 - d, (0, 0, 0): d - 2})
    counts: Counter[tuple[int, int, int]] = Counter({(0, 0, 0): 1})
    by_pool = {}
    for pool in range(1, pools + 1):
        grown: Counter[tuple[int, int, int]] = Counter()
        for (p, t, o), ways in counts.items():
            for (dp, dt, do), n in faces.items():
                if n:
                    grown[p + dp, t + dt, o + do] += ways * n
        counts = by_pool[pool] = grown
    return by_pool


def _law(counts: Counter[tuple[int, int, int]], pool: int, specialty: bool) -> dict:
    law: Counter[int] = Counter()
    for (p, t, o), ways in counts.items():
        law[_key_counts(p, t, o, specialty)] += ways
    return {k: Fraction(n, 10 ** pool) for k, n in sorted(law.items())}


def _key_counts(p: int, t: int, o: int, specialty: bool) -> int:
    if p + t == 0 and o:
        return BOTCH
    if not specialty:
        return max(0, p + t - o)
    c1 = min(o, p)
    return p - c1 + 2 * (t - min(o - c1, t))


@pytest.mark.parametrize("d", range(2, 11))
def test_pools_1_to_20_agree_with_a_die_by_die_convolution(d):
    """The command's promise: exact agreement for pools 1-20, difficulties 2-10, with and
    without a specialty."""
    for pool, counts in _convolved(d, 20).items():
        for specialty in (False, True):
            assert distribution(pool, d, specialty=specialty) == _law(counts, pool, specialty), \
                (pool, d, specialty)


@given(pool=st.integers(1, 15), d=st.integers(2, 10), specialty=st.booleans(),
       auto=st.integers(0, 3))
def test_a_law_sums_to_one_and_its_figures_hold(pool, d, specialty, auto):
    law = distribution(pool, d, specialty=specialty, auto=auto)
    assert sum(law.values()) == 1 and all(p > 0 for p in law.values())
    assert (BOTCH in law) == (auto == 0)
    assert chance_of_success(law) + law.get(0, 0) + chance_of_botch(law) == 1
    assert 0 <= expected_net(law) <= 2 * pool + auto
    if auto:
        assert min(law) == auto  # automatic successes are never cancelled (V20-2.7)


@given(pool=st.integers(1, 12), d=st.integers(2, 10))
def test_a_specialty_or_an_easier_roll_never_hurt(pool, d):
    """(More dice can: at difficulty 2 one die succeeds 9 times in 10, two only 81 in 100,
    since a 1 cancels the other's success.)"""
    base = chance_of_success(distribution(pool, d))
    assert chance_of_success(distribution(pool, d, specialty=True)) >= base
    if d > 2:
        assert chance_of_success(distribution(pool, d - 1)) >= base


@given(dice=st.lists(st.integers(1, 10), min_size=1, max_size=12), d=st.integers(2, 10),
       specialty=st.booleans())
def test_the_engines_score_is_the_spec_reading(dice, d, specialty):
    got = score(dice, d, specialty=specialty)
    key = _key(tuple(dice), d, specialty)
    assert (BOTCH if got.botch else got.net) == key


# postgame dice ------------------------------------------------------------------------------

def run(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    dice_command.register(parser.add_subparsers())
    return parser.parse_args(["dice", *argv])


def test_the_command_prints_each_outcome_and_the_chances(capsys):
    assert dice_command.run(run("3", "6")) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 dice at difficulty 6\n")
    assert "botch" in out and "61/1000" in out and "6.100%" in out
    assert "success (1+)   74.000%  (37/50)" in out
    assert "expected net" in out


def test_the_command_speaks_json_for_scripts(capsys):
    assert dice_command.run(run("6", "12", "--specialty", "--auto", "1", "--json")) == 0
    odds = json.loads(capsys.readouterr().out)
    assert odds["difficulty"] == 10 and odds["asked_difficulty"] == 12
    law = distribution(6, 10, specialty=True, auto=1)
    assert [o["fraction"] for o in odds["outcomes"]] == [
        f"{p.numerator}/{p.denominator}" for p in law.values()]
    assert odds["botch"]["decimal"] == 0 and odds["outcomes"][0]["net_successes"] == 1
    assert odds["success"]["fraction"] == "1/1"


def test_the_command_says_why_a_clamped_difficulty_or_an_empty_pool(capsys):
    dice_command.run(run("2", "1"))
    assert "(asked 1, clamped to 2-10 by V20-2.4)" in capsys.readouterr().out
    with pytest.raises(UserError, match="V20-2.13"):
        dice_command.run(run("0", "6"))
    with pytest.raises(SystemExit):
        run("61", "6")
