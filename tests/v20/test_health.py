"""V20 health, soak and damage (engine.v20.health) against the spec's worked examples (S3, S4,
S10, D7, D8, D11) and the properties V20-9.1 to V20-9.4 imply for any track."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.ruleset import RuleViolation
from engine.v20.health import (
    DAMAGE_TYPES,
    KINDS,
    NO_ACTIONS,
    Penalty,
    Status,
    Track,
    damage_pool,
    extra_damage_dice,
    heal,
    levels_taken,
    out_of_fight,
    soak_pool,
    status_of,
    take,
    thirst_torpor,
)

SEVERITY = {"active": 0, "incapacitated": 1, "torpor": 2, "final_death": 3, "dead": 3}


@st.composite
def tracks(draw: st.DrawFn) -> Track:
    aggravated = draw(st.integers(0, 7))
    lethal = draw(st.integers(0, 7 - aggravated))
    bashing = draw(st.integers(0, 7 - aggravated - lethal))
    return Track(aggravated=aggravated, lethal=lethal, bashing=bashing)


kinds = st.sampled_from(KINDS)
damage_types = st.sampled_from(DAMAGE_TYPES)
hits = st.lists(st.tuples(damage_types, st.integers(0, 5)), max_size=8)


def dice_left(penalty: Penalty) -> float:
    """A penalty as a number to compare, NO_ACTIONS below every malus."""
    return float("-inf") if penalty is NO_ACTIONS else penalty


# --- S3: soak and levels for the three damage types (V20-8.6, V20-8.7) ---------------------

def test_s3_vampire_halves_bashing_after_soak() -> None:
    """S3, V20-8.7: Stamina 2 soaks bashing; 5 successes - 1 soak = 4, halved to 2 levels."""
    assert soak_pool("vampire", "bashing", stamina=2, fortitude=0, armor=0) == 2
    assert levels_taken("vampire", "bashing", 5, 1) == 2


def test_s3_vampire_takes_lethal_unhalved() -> None:
    """S3, V20-8.7: lethal is soaked by Stamina but not halved: 5 - 1 = 4 levels."""
    assert soak_pool("vampire", "lethal", stamina=2, fortitude=0, armor=0) == 2
    assert levels_taken("vampire", "lethal", 5, 1) == 4


def test_s3_aggravated_soak_pool_is_empty_without_fortitude() -> None:
    """S3, V20-8.6, V20-2.13: aggravated is soaked by Fortitude + armor only, so the pool is 0,
    nothing is rolled and all 5 successes become levels."""
    assert soak_pool("vampire", "aggravated", stamina=2, fortitude=0, armor=0) == 0
    assert levels_taken("vampire", "aggravated", 5, 0) == 5


# --- S4: a vampire's full track (V20-9.3, V20-9.4) -----------------------------------------

def test_s4_full_bashing_plus_lethal_is_torpor() -> None:
    """S4, V20-9.3: 7 bashing then 1 lethal turns one bashing box to lethal: 1X + 6/, torpor."""
    before = take(Track(), "vampire", "bashing", 7)
    assert before.status == "incapacitated"
    after = take(before.track, "vampire", "lethal", 1, status=before.status)
    assert after.track.drawing == "1X + 6/"
    assert after.status == "torpor"
    assert after.effects == ("upgraded",)


def test_s4_full_lethal_is_torpor_then_aggravated_is_final_death() -> None:
    """S4, V20-9.3, V20-9.4: 7 lethal is torpor; one aggravated on that track is Final Death."""
    lethal = take(Track(), "vampire", "lethal", 7)
    assert (lethal.track.drawing, lethal.status) == ("7X", "torpor")
    assert status_of(Track(lethal=7), "vampire") == "torpor"
    final = take(lethal.track, "vampire", "aggravated", 1, status=lethal.status)
    assert final.status == "final_death"
    assert final.effects == ("fatal",)


def test_s4_seven_aggravated_is_final_death() -> None:
    """S4, V20-9.4: a track of 7 aggravated boxes is Final Death, however it was reached."""
    assert status_of(Track(aggravated=7), "vampire") == "final_death"
    assert take(Track(aggravated=6), "vampire", "aggravated", 1).status == "final_death"


def test_full_vampire_track_with_bashing_reads_incapacitated() -> None:
    """V20-9.4: all 7 boxes full with at least one bashing box is Incapacitated."""
    assert status_of(Track(lethal=6, bashing=1), "vampire") == "incapacitated"
    assert Track(lethal=6, bashing=1).penalty is NO_ACTIONS


def test_vampire_bashing_overflow_acts_as_lethal() -> None:
    """V20-9.3 [supplement]: a bashing level on a full track turns one bashing box to lethal
    and the vampire enters torpor, like a lethal one."""
    taken = take(Track(bashing=7), "vampire", "bashing", 1)
    assert (taken.track.drawing, taken.status) == ("1X + 6/", "torpor")


def test_vampire_overflow_without_bashing_box_has_no_effect() -> None:
    """V20-9.3 [decision]: once no bashing box is left, bashing or lethal levels do nothing."""
    taken = take(Track(aggravated=2, lethal=5), "vampire", "lethal", 3)
    assert taken.track == Track(aggravated=2, lethal=5)
    assert taken.status == "torpor"
    assert (taken.effects, taken.applied) == (("none", "none", "none"), 0)


def test_aggravated_on_any_full_vampire_track_is_final_death() -> None:
    """V20-9.3: an aggravated level arriving on a full track is Final Death, bashing boxes or
    not (the spec's reading; the seed names only a track full of lethal)."""
    assert take(Track(bashing=7), "vampire", "aggravated", 1).status == "final_death"


def test_torpor_is_sticky_through_healing() -> None:
    """V20-9.4 [decision]: 1X + 6/ alone reads Incapacitated, but torpor lasts to the end: a
    healed box or further levels never bring it back."""
    torpid = take(Track(bashing=7), "vampire", "lethal", 1)
    healed = heal(torpid.track, "bashing")
    assert status_of(torpid.track, "vampire") == "incapacitated"
    assert status_of(healed, "vampire", prior=torpid.status) == "torpor"
    assert take(healed, "vampire", "bashing", 1, status="torpor").status == "torpor"


def test_nothing_happens_after_final_death() -> None:
    """V20-9.4: a destroyed vampire takes no further levels."""
    taken = take(Track(aggravated=7), "vampire", "lethal", 2, status="final_death")
    assert (taken.status, taken.applied) == ("final_death", 0)


# --- S10, D7, D8: damage pools and levels (V20-8.1 to 8.3, V20-9.8) ------------------------

def test_s10_wounds_weaken_a_punch_but_not_a_pistol() -> None:
    """S10, V20-8.2, V20-9.8: at Hurt (-1) a Strength 3 punch rolls 2 dice plus extras, a
    heavy pistol (5) still 5 plus extras."""
    hurt = Track(bashing=2)
    assert hurt.level_name == "Hurt" and hurt.penalty == -1
    penalty = hurt.penalty
    assert penalty is not NO_ACTIONS
    assert damage_pool(0, True, 3, extra_successes=0, aim_bonus=0, wound_penalty=penalty) == 2
    assert damage_pool(0, True, 3, extra_successes=2, aim_bonus=0, wound_penalty=penalty) == 4
    assert damage_pool(5, False, 3, extra_successes=0, aim_bonus=0, wound_penalty=penalty) == 5
    assert damage_pool(5, False, 3, extra_successes=2, aim_bonus=0, wound_penalty=penalty) == 7


def test_s10_soak_takes_no_wound_penalty() -> None:
    """S10, V20-8.6, V20-9.7: at Hurt the soak pool is still the full Stamina."""
    assert soak_pool("mortal", "bashing", stamina=3, fortitude=0, armor=0) == 3


def test_s1_aimed_pistol_damage_pool() -> None:
    """S1, V20-8.1, V20-6.6: 2 net successes and a head shot: 5 + 1 + 1 = 7 dice."""
    assert damage_pool(5, False, 3, extra_damage_dice(2), aim_bonus=1, wound_penalty=0) == 7


def test_d7_sword_hit_after_dodge_leaves_one_lethal_level() -> None:
    """D7: 2 attack successes - 1 dodge = 1 left, no extra die: Strength 3 + sword 2 = 5 dice;
    [10,7,6,5,1] scores 2; soak Stamina 2 + Fortitude 1 = 3 dice, [6,2,3] scores 1; 1 lethal
    level, Bruised (V20-8.1, V20-8.6, V20-8.7, V20-9.1)."""
    extra = extra_damage_dice(2 - 1)
    assert extra == 0
    assert damage_pool(2, True, 3, extra, aim_bonus=0, wound_penalty=0) == 5
    assert soak_pool("vampire", "lethal", stamina=2, fortitude=1, armor=0) == 3
    levels = levels_taken("vampire", "lethal", 2, 1)
    taken = take(Track(), "vampire", "lethal", levels)
    assert (levels, taken.track.drawing, taken.track.level_name) == (1, "1X", "Bruised")
    assert (taken.status, taken.track.penalty) == ("active", 0)


def test_d8_potence_punch_halved_for_a_vampire_not_a_mortal() -> None:
    """D8: a Strength 3 punch with 1 net success rolls 3 dice; [6,1,4] scores 0, + 2 Potence
    automatic = 2; soak Stamina 2 ([3,5] scores 0): a vampire takes floor(2/2) = 1 bashing
    level, a mortal 2 (V20-8.4, V20-8.7 [decision])."""
    assert damage_pool(0, True, 3, extra_damage_dice(1), aim_bonus=0, wound_penalty=0) == 3
    assert soak_pool("vampire", "bashing", stamina=2, fortitude=0, armor=0) == 2
    assert soak_pool("mortal", "bashing", stamina=2, fortitude=0, armor=0) == 2
    assert levels_taken("vampire", "bashing", 2, 0) == 1
    assert levels_taken("mortal", "bashing", 2, 0) == 2


def test_damage_pool_never_below_one_die() -> None:
    """V20-8.3: a Strength 1 punch at Crippled (-5) still rolls 1 die."""
    assert damage_pool(0, True, 1, extra_successes=0, aim_bonus=0, wound_penalty=-5) == 1


def test_a_missed_attack_rolls_no_damage() -> None:
    """V20-7.1, V20-8.1: with no success left after the defense there is no damage roll."""
    with pytest.raises(RuleViolation) as caught:
        extra_damage_dice(0)
    assert caught.value.rule == "V20-7.1"


def test_soak_pools_by_kind_and_type() -> None:
    """V20-8.6 table, with Stamina 3, Fortitude 2 and armor 1 (a mortal has no Fortitude)."""
    expected = {
        ("vampire", "bashing"): 6, ("vampire", "lethal"): 6, ("vampire", "aggravated"): 3,
        ("ghoul", "bashing"): 6, ("ghoul", "lethal"): 3, ("ghoul", "aggravated"): 3,
    }
    for (kind, damage_type), pool in expected.items():
        assert soak_pool(kind, damage_type, stamina=3, fortitude=2, armor=1) == pool
    assert [soak_pool("mortal", t, 3, 0, 1) for t in ("bashing", "lethal", "aggravated")] == [
        4, 1, 1]


def test_a_mortal_with_fortitude_is_refused() -> None:
    """V20-3.5: a mortal has no Disciplines."""
    with pytest.raises(RuleViolation) as caught:
        soak_pool("mortal", "lethal", stamina=2, fortitude=1, armor=0)
    assert caught.value.rule == "V20-3.5"


# --- D11: a mortal's full track (V20-9.6) --------------------------------------------------

def test_d11_mortal_bashing_overflow_then_lethal_kills() -> None:
    """D11, V20-9.6: 6 bashing + 3 bashing fills the track then turns two bashing boxes to
    lethal: 2X + 5/, Incapacitated; one more lethal level kills."""
    taken = take(Track(bashing=6), "mortal", "bashing", 3)
    assert taken.track.drawing == "2X + 5/"
    assert taken.status == "incapacitated"
    assert taken.effects == ("filled", "upgraded", "upgraded")
    dead = take(taken.track, "mortal", "lethal", 1, status=taken.status)
    assert (dead.status, dead.effects) == ("dead", ("fatal",))


def test_ghoul_dies_like_a_mortal() -> None:
    """V20-3.4, V20-9.6: a ghoul's full track with no bashing box left dies to bashing."""
    taken = take(Track(lethal=6), "ghoul", "bashing", 4)
    assert taken.status == "dead"
    assert taken.track == Track(lethal=7)
    assert taken.effects == ("filled", "upgraded", "fatal", "none")


def test_mortal_full_of_lethal_is_incapacitated_not_dead() -> None:
    """V20-9.6: a full track that has not killed means Incapacitated; death needs a level
    arriving on a full track."""
    assert take(Track(lethal=6), "mortal", "lethal", 1).status == "incapacitated"


# --- the track itself (V20-9.1, V20-9.2) and healing (V20-10.3, V20-10.4) ------------------

def test_penalty_table() -> None:
    """V20-9.1: names and penalties for 0 to 7 boxes; 7 is "no actions", not a number."""
    rows = [(Track(bashing=k).level_name, Track(bashing=k).penalty) for k in range(8)]
    assert rows == [("none", 0), ("Bruised", 0), ("Hurt", -1), ("Injured", -1),
                    ("Wounded", -2), ("Mauled", -2), ("Crippled", -5),
                    ("Incapacitated", NO_ACTIONS)]


def test_boxes_are_sorted_aggravated_lethal_bashing() -> None:
    """V20-9.2: boxes given in any order come back sorted, and the drawing follows that order."""
    track = Track.from_boxes(["bashing", "aggravated", "lethal", "bashing"])
    assert track.boxes == ("aggravated", "lethal", "bashing", "bashing")
    assert track.drawing == "1* + 1X + 2/"
    assert Track().drawing == "none"


def test_a_track_holds_at_most_seven_boxes() -> None:
    """V20-9.1: seven health levels."""
    with pytest.raises(RuleViolation) as caught:
        Track(lethal=5, bashing=3)
    assert caught.value.rule == "V20-9.1"


def test_aggravated_cannot_heal_in_a_match() -> None:
    """V20-10.4: an aggravated box needs a day of rest and 5 BP."""
    with pytest.raises(RuleViolation) as caught:
        heal(Track(aggravated=1), "aggravated")
    assert caught.value.rule == "V20-10.4"


def test_healing_removes_the_named_box() -> None:
    """V20-10.3: the player names the type healed; a missing box is refused."""
    assert heal(Track(lethal=1, bashing=2), "lethal") == Track(bashing=2)
    with pytest.raises(RuleViolation) as caught:
        heal(Track(bashing=2), "lethal")
    assert caught.value.rule == "V20-10.3"


def test_healing_ends_incapacitation() -> None:
    """V20-9.9, V20-10.3: Incapacitated is not sticky; one healed box makes a vampire active."""
    assert status_of(heal(Track(bashing=7), "bashing"), "vampire", "incapacitated") == "active"


# --- thirst and out of the fight (V20-9.5, V20-9.10) ---------------------------------------

def test_incapacitated_vampire_without_blood_sinks_into_torpor() -> None:
    """V20-9.5."""
    assert thirst_torpor("vampire", "incapacitated", blood=0) == "torpor"
    assert thirst_torpor("vampire", "incapacitated", blood=1) == "incapacitated"
    assert thirst_torpor("ghoul", "incapacitated", blood=0) == "incapacitated"


def test_out_of_fight() -> None:
    """V20-9.10: torpor, Final Death, death, gone and NPC are out; Incapacitated is out for a
    mortal, and for a ghoul without blood it can spend."""
    assert out_of_fight("vampire", "torpor", True)
    assert out_of_fight("vampire", "final_death", True)
    assert out_of_fight("ghoul", "dead", True)
    assert out_of_fight("vampire", "active", True, gone=True)
    assert out_of_fight("vampire", "active", True, npc=True)
    assert not out_of_fight("vampire", "incapacitated", True)
    assert not out_of_fight("ghoul", "incapacitated", True)
    assert out_of_fight("ghoul", "incapacitated", False)
    assert out_of_fight("mortal", "incapacitated", True)
    assert not out_of_fight("mortal", "active", False)


def test_unknown_words_are_refused() -> None:
    with pytest.raises(ValueError):
        take(Track(), "werewolf", "lethal", 1)
    with pytest.raises(ValueError):
        take(Track(), "mortal", "fire", 1)
    with pytest.raises(ValueError):
        take(Track(), "mortal", "lethal", 1, status="torpor")


# --- properties -----------------------------------------------------------------------------

@given(start=tracks(), kind=kinds, damage=hits)
def test_track_stays_within_seven_boxes_and_sorted(start: Track, kind: str,
                                                   damage: list[tuple[str, int]]) -> None:
    """V20-9.1, V20-9.2: whatever is taken, 0-7 boxes, aggravated before lethal before bashing,
    and boxes are never removed by damage."""
    track, status = start, status_of(start, kind)
    order = {t: i for i, t in enumerate(DAMAGE_TYPES)}
    for damage_type, levels in damage:
        taken = take(track, kind, damage_type, levels, status=status)
        assert 0 <= taken.track.boxes_filled <= 7
        ranks = [order[box] for box in taken.track.boxes]
        assert ranks == sorted(ranks)
        assert taken.track.boxes_filled >= track.boxes_filled
        track, status = taken.track, taken.status


@given(start=tracks(), kind=kinds, damage_type=damage_types, first=st.integers(0, 9),
       second=st.integers(0, 9))
def test_levels_one_by_one_equal_levels_together(start: Track, kind: str, damage_type: str,
                                                 first: int, second: int) -> None:
    """V20-9.2: damage is applied one level at a time, so splitting a hit changes nothing."""
    together = take(start, kind, damage_type, first + second)
    split = take(start, kind, damage_type, first)
    split = take(split.track, kind, damage_type, second, status=split.status)
    assert (split.track, split.status) == (together.track, together.status)
    track, status = start, status_of(start, kind)
    for _ in range(first + second):
        one = take(track, kind, damage_type, 1, status=status)
        track, status = one.track, one.status
    assert (track, status) == (together.track, together.status)


@given(start=tracks(), kind=kinds, damage=hits)
def test_status_never_improves_as_damage_is_taken(start: Track, kind: str,
                                                  damage: list[tuple[str, int]]) -> None:
    """V20-9.4 [decision], V20-9.6: taking damage never improves a status, and torpor and
    death, once reached, stay."""
    status: Status = status_of(start, kind)
    track = start
    for damage_type, levels in damage:
        taken = take(track, kind, damage_type, levels, status=status)
        assert SEVERITY[taken.status] >= SEVERITY[status]
        if status in ("torpor", "final_death", "dead"):
            assert taken.status in (status, "final_death")
        track, status = taken.track, taken.status


@given(a=tracks(), b=tracks())
def test_penalty_is_monotone_in_boxes_filled(a: Track, b: Track) -> None:
    """V20-9.1: more boxes filled never means a smaller penalty."""
    if a.boxes_filled <= b.boxes_filled:
        assert dice_left(a.penalty) >= dice_left(b.penalty)


@given(start=tracks(), damage_type=st.sampled_from(["bashing", "lethal"]))
def test_healing_never_adds_boxes(start: Track, damage_type: str) -> None:
    """V20-10.3: healing removes exactly one box of the named type, or is refused."""
    if start.count(damage_type) == 0:
        with pytest.raises(RuleViolation):
            heal(start, damage_type)
        return
    healed = heal(start, damage_type)
    assert healed.boxes_filled == start.boxes_filled - 1
    assert healed.aggravated == start.aggravated


@given(kind=kinds, damage_type=damage_types, damage=st.integers(0, 15), soak=st.integers(0, 15))
def test_levels_never_negative_nor_above_damage(kind: str, damage_type: str, damage: int,
                                                soak: int) -> None:
    """V20-8.7: levels are max(0, damage - soak), halved for a vampire's bashing."""
    levels = levels_taken(kind, damage_type, damage, soak)
    assert 0 <= levels <= max(0, damage - soak)
