"""The worked examples of the V20 combat spec (S1-S10, D6-D14) and the engine-level rules around
them, replayed through RULES.apply as the log's events (tests.v20.scene).

Unless a test says otherwise its characters have no Celerity, no armor, no wounds and no
specialty, and spend no Willpower, as the examples assume. A refusal is checked for its rule ID
and for a scene left unchanged (scene.refused).
"""
from __future__ import annotations

import pytest

from engine.ruleset import CHANCE, STORYTELLER
from engine.v20 import changes as ch
from engine.v20.state import State
from events.v20 import (
    Abort,
    Ambush,
    AppearHuman,
    Boost,
    Celerity,
    Commit,
    Concede,
    Control,
    Cornered,
    Defend,
    IgnoreWounds,
    PathConflict,
    Roll,
    Spend,
    Trigger,
)
from tests.v20.scene import (
    RULES,
    abort,
    act,
    attack,
    awaited,
    commits,
    confirm,
    declaration,
    declare,
    defend,
    defense,
    fighter,
    head,
    initiative,
    name_derangement,
    only,
    refused,
    retrait,
    roll,
    rulings,
    start,
    until,
)


def rolls(shown: dict[str, object]) -> tuple[object, object, object]:
    """An awaited roll as (purpose, pool, difficulty)."""
    return shown.get("purpose"), shown.get("pool"), shown.get("difficulty")


def frenzy_trigger(character: str, difficulty: int = 6, kind: str = "frenzy") -> Trigger:
    return Trigger(character=character, kind=kind, cause="physical_provocation",  # type: ignore[arg-type]
                   difficulty=difficulty)


# S1: an aimed pistol -----------------------------------------------------------------------------

@pytest.mark.parametrize(("aim", "difficulty", "dice", "successes", "damage"), [
    ("small", 8, (8, 9, 3, 2, 1, 10), 2, 7),
    ("medium", 7, (8, 9, 3, 2, 1, 10), 2, 6),
    ("precise", 9, (9, 9, 3, 2, 1, 10), 2, 8),
])
def test_s1_aimed_heavy_pistol(aim: str, difficulty: int, dice: tuple[int, ...],
                               successes: int, damage: int) -> None:
    """S1, V20-6.1, V20-6.6, V20-8.1: Dexterity 3 + Firearms 3 with a heavy pistol (5) aimed at
    the head is 6 dice at difficulty 8; [8,9,3,2,1,10] nets 2 and, undefended, rolls 5 + 1 + 1 =
    7 damage dice. At a limb: difficulty 7, no damage bonus; at the heart: 9 and +2 dice."""
    state = start(["aurelian"], ["nicky"])
    until(state, "declare")
    declare(state, "nicky", act("dodge"))
    declare(state, "aurelian", attack("nicky", "heavy_pistol", aim=aim))
    assert rolls(awaited(state)) == ("attack", 6, difficulty)
    [rolled] = only(roll(state, *dice), ch.Rolled)
    assert rolled.successes == successes
    defend(state, "nicky")
    shown = awaited(state)
    assert rolls(shown) == ("damage", damage, 6)
    assert head(state).auto == 0


# S2: the three ambush outcomes -------------------------------------------------------------------

def ambush_scene() -> State:
    """Silas (Dexterity 4 + Stealth 4, Path of Bones 9: difficulty 5, V20-13.7) ambushes
    Margarethe (Perception 3 + Alertness 3)."""
    state = start(["silas"], ["margarethe"],
                  ambushes=[Ambush(ambusher="silas", target="margarethe")])
    assert state.turn == 0
    assert rolls(awaited(state)) == ("ambush", 8, 5)
    return state


def test_s2_ambush_won_free_attack_with_automatic_successes_and_no_defense() -> None:
    """S2, V20-6.7 to V20-6.9: 4 vs 1 is a free attack before turn 1 with the 3 extra successes
    automatic, and the target cannot defend (the damage roll follows the attack at once)."""
    state = ambush_scene()
    roll(state, 9, 9, 9, 9, 2, 2, 2, 2)
    assert rolls(awaited(state)) == ("notice", 6, 6)
    [ambushed] = only(roll(state, 7, 2, 2, 2, 2, 2), ch.Ambushed)
    assert (ambushed.result, ambushed.bonus) == ("free_attack", 3)
    assert awaited(state) == {"step": "declare", "character": "silas"}
    declare(state, "silas", attack("margarethe", "knife"))
    assert rolls(awaited(state)) == ("attack", 6, 6)
    assert head(state).auto == 3
    [rolled] = only(roll(state, 2, 2, 2, 2, 2, 2), ch.Rolled)
    assert rolled.successes == 3
    # Strength 3 + knife 1 + 2 successes after the first; Potence 1 automatic (V20-8.4).
    assert rolls(awaited(state)) == ("damage", 6, 6)
    assert state.turn == 0


def test_s2_ambush_tie_attacker_first_target_one_full_pool_defense() -> None:
    """S2, V20-6.8, V20-6.9: 2 vs 2, the attacker strikes first with no bonus, and the target
    gets one full-pool defense that is not a turn-1 action (no abort before turn 1)."""
    state = ambush_scene()
    roll(state, 9, 9, 2, 2, 2, 2, 2, 2)
    [ambushed] = only(roll(state, 7, 7, 2, 2, 2, 2), ch.Ambushed)
    assert (ambushed.result, ambushed.bonus) == ("first", 0)
    declare(state, "silas", attack("margarethe", "knife"))
    assert head(state).auto == 0
    roll(state, 7, 7, 2, 2, 2, 2)
    assert awaited(state)["step"] == "defend"
    options = {e.defense for e in RULES.legal(state, 1)}
    assert options == {None, "dodge", "parry"}
    assert not any(isinstance(e, Abort) for e in RULES.legal(state, 1))
    defend(state, "margarethe", "dodge")
    assert rolls(awaited(state)) == ("dodge", 5, 6)
    roll(state, 7, 7, 2, 2, 2)
    until(state, "declare", character="margarethe", turn=1)
    declare(state, "margarethe", act("dodge"))


def test_s2_ambush_lost_normal_initiative() -> None:
    """S2, V20-6.8: 1 vs 3 is noticed: no free attack, turn 1 opens with normal initiative."""
    state = ambush_scene()
    roll(state, 9, 2, 2, 2, 2, 2, 2, 2)
    [ambushed] = only(roll(state, 7, 7, 7, 2, 2, 2), ch.Ambushed)
    assert ambushed.result == "noticed"
    assert (state.turn, awaited(state)["step"]) == (1, "rulings")
    step = until(state, "roll", purpose="initiative")
    assert step.data["characters"] == ["silas", "margarethe"]


# S5: attack then dodge ---------------------------------------------------------------------------

@pytest.mark.parametrize(("weapon", "dice", "difficulty"), [
    ("knife", (7, 2, 2, 2), 8),
    ("light_revolver", (8, 2), 10),
])
def test_s5_attack_then_dodge(weapon: str, dice: tuple[int, ...], difficulty: int) -> None:
    """S5, V20-5.2, V20-5.4, V20-7.3: Dexterity 3 + Melee 3 and Dexterity 3 + Athletics 2,
    declared as attack then dodge: the attack rolls 5 dice at 7; the dodge 3 dice at 8 against
    melee, at 10 against gunfire."""
    state = start([fighter("aurelian", weapons=["knife"])], ["nicky"])
    until(state, "declare")
    declare(state, "nicky", attack("aurelian", weapon))
    declare(state, "aurelian", attack("nicky", "knife"), act("dodge"))
    assert rolls(awaited(state)) == ("attack", 5, 7)
    assert only(roll(state, 2, 2, 2, 2, 2), ch.Missed)
    roll(state, *dice)
    assert {e.defense for e in RULES.legal(state, 0)} == {None, "dodge"}
    defend(state, "aurelian", "dodge")
    assert rolls(awaited(state)) == ("dodge", 3, difficulty)


def test_s5_second_attack_in_a_declaration_refused() -> None:
    """S5, V20-5.3: a declaration of regular actions holds at most one attack."""
    state = start([fighter("aurelian", weapons=["knife"])], ["nicky"])
    until(state, "declare", character="aurelian")
    err = refused(state, declaration(state, "aurelian", attack("nicky", "knife"),
                                     attack("nicky", "punch")))
    assert err.rule == "V20-5.3"


# S6: a path conflict and the conscience roll -----------------------------------------------------

def conflict_scene() -> State:
    """Ilse (Conscience 3, Humanity 7) acted against her path: the Storyteller logs it in
    phase 1 and the roll is made in that same phase 1 (the engine's reading of V20-13.1)."""
    state = start(["ilse"], ["nicky"])
    rulings(state, PathConflict(character="ilse"))
    assert rolls(awaited(state)) == ("conscience", 3, 8)
    assert head(state).auto == 0
    return state


@pytest.mark.parametrize(("dice", "path", "virtue", "lost"), [
    ((8, 2, 5), 7, 3, 0),
    ((7, 5, 2), 6, 3, 1),
])
def test_s6_conscience_roll(dice: tuple[int, ...], path: int, virtue: int, lost: int) -> None:
    """S6, V20-13.1, V20-13.3, V20-13.4: Conscience 3 at difficulty 8: [8,2,5] loses nothing,
    [7,5,2] costs a path point."""
    state = conflict_scene()
    [result] = only(roll(state, *dice), ch.Conscience)
    assert (result.path, result.virtue, result.lost) == (path, virtue, lost)
    ilse = state.fighter("ilse")
    assert (ilse.path, ilse.path_virtue, ilse.npc) == (path, virtue, False)
    assert awaited(state)["step"] == "commit"


def test_s6_conscience_botch_costs_path_virtue_and_a_named_derangement() -> None:
    """S6, V20-13.5: [1,4,6] botches: path -1, Conscience -1, and the Storyteller names a
    derangement before the turn goes on."""
    state = conflict_scene()
    [result] = only(roll(state, 1, 4, 6), ch.Conscience)
    assert (result.path, result.virtue, result.lost) == (6, 2, 1)
    assert awaited(state) == {"step": "derangement", "character": "ilse"}
    assert RULES.awaiting(state) == (STORYTELLER,)
    name_derangement(state, "ilse", "Paranoia")
    assert state.fighter("ilse").derangements == ["Paranoia"]
    assert awaited(state)["step"] == "commit"


def test_s6_path_zero_makes_an_npc_out_of_the_fight() -> None:
    """S6, V20-13.6, V20-9.10, V20-14.1: a failed roll at path 1 leaves path 0: Ilse becomes
    an NPC, rolls no initiative and is out, so side B wins at the end of the turn."""
    state = start(["ilse"], ["nicky"])
    state.fighter("ilse").path = 1  # six failed rolls through events would reach it too
    rulings(state, PathConflict(character="ilse"))
    out = roll(state, 2, 2, 2)
    assert ch.Became(character="ilse", status="npc") in out
    assert state.fighter("ilse").npc
    step = until(state, "roll", purpose="initiative")
    assert step.data["characters"] == ["nicky"]
    initiative(state)
    declare(state, "nicky", act("dodge"))
    assert RULES.outcome(state) is not None
    assert RULES.outcome(state).results == ("loss", "win")
    assert RULES.outcome(state).rule == "V20-14.1"


def test_s6_willpower_on_the_conscience_roll_cannot_be_logged() -> None:
    """S6, V20-13.2: no event carries a Willpower success onto a conscience roll. The roll step
    holds no automatic success, only chance is awaited, and every side's event is refused while
    it is (the seat is not awaited, V20-4.1); no phase-2 spend buys a success on a roll."""
    state = conflict_scene()
    assert RULES.awaiting(state) == (CHANCE,)
    assert refused(state, Commit(seat=0, spends=(IgnoreWounds(character="ilse"),))).rule \
        == "V20-4.1"
    assert refused(state, Defend(seat=0, character="ilse", defense="dodge",
                                 willpower=True)).rule == "V20-4.1"
    kinds = {str(t.__struct_config__.tag) for t in Spend.__args__}  # type: ignore[attr-defined]
    assert kinds == {"celerity", "ignore_wounds", "boost", "control", "appear_human", "resist"}


# S7: bearing ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("path", "difficulty"), [(2, 7), (8, 5)])
def test_s7_flayed_hearts_bears_on_self_control_frenzy_rolls(path: int, difficulty: int) -> None:
    """S7, V20-13.7, V20-12.3: the Path of Flayed Hearts modifies Self-Control rolls: at 8 a
    frenzy roll at 6 is made at 5, at the catalog's 2 at 7. Vesna's pool is min(SC 3, 2 BP)."""
    state = start(["vesna"], ["nicky"])
    state.fighter("vesna").path = path  # the example's rating (the catalog's is 2)
    rulings(state, frenzy_trigger("vesna"))
    assert rolls(awaited(state)) == ("frenzy", 2, difficulty)


@pytest.mark.parametrize(("path", "difficulty"), [(9, 5), (3, 7)])
def test_s7_bones_bears_on_the_ambushers_roll(path: int, difficulty: int) -> None:
    """S7, V20-13.7, V20-6.7: the Path of Bones modifies rolls to avoid being noticed, the
    ambusher's roll included: Bones 3 is +1 (difficulty 7), the catalog's 9 is -1; the target's
    roll is not touched."""

    def rated(state: State) -> None:
        state.fighter("silas").path = path  # set before the ambush roll's pool is fixed

    state = start(["silas"], ["margarethe"], ambushes=[
        Ambush(ambusher="silas", target="margarethe")], arrange=rated)
    assert rolls(awaited(state)) == ("ambush", 8, difficulty)
    roll(state, *[2] * 8)
    assert rolls(awaited(state)) == ("notice", 6, 6)


@pytest.mark.parametrize(("path", "difficulty"), [(6, 6), (1, 8)])
def test_s7_einherjar_bears_on_courage_rolls(path: int, difficulty: int) -> None:
    """S7, V20-13.7, V20-12.9: the Path of the Einherjar modifies Courage rolls: at 1 a
    Rötschreck roll at 6 is made at 8; at the catalog's 6, unchanged. Courage 4, no blood cap."""
    state = start([fighter("hakon", blood=2)], ["nicky"])
    state.fighter("hakon").path = path  # the example's rating (the catalog's is 6)
    rulings(state, frenzy_trigger("hakon", kind="rotschreck"))
    assert rolls(awaited(state)) == ("rotschreck", 4, difficulty)


def test_s7_kings_and_humanity_bear_on_no_combat_roll() -> None:
    """S7, V20-13.7: Kings (Leadership) and Humanity (social rolls) modify none of the rolls of
    a fight: at Kings 10 and Humanity 10, frenzy, Rötschreck and attack rolls keep their
    difficulties."""
    state = start(["aurelian"], ["marcus"])
    state.fighter("aurelian").path = 10  # the example's Kings 10 (the catalog's is 8)
    state.fighter("marcus").path = 10  # the top of Humanity (the catalog's is 6)
    rulings(state, frenzy_trigger("aurelian"), frenzy_trigger("marcus", kind="rotschreck"))
    assert rolls(awaited(state)) == ("frenzy", 4, 6)
    roll(state, 7, 7, 7, 2)
    assert rolls(awaited(state)) == ("rotschreck", 3, 6)
    roll(state, 7, 7, 2)
    until(state, "declare", character="marcus")
    declare(state, "marcus", attack("aurelian", "club"))
    declare(state, "aurelian", attack("marcus", "heavy_pistol"))
    assert rolls(awaited(state)) == ("attack", 6, 6)


# S8: blood and Willpower ------------------------------------------------------------------------

def test_s8_appearing_human_costs_8_minus_humanity() -> None:
    """S8, V20-10.6, V20-10.8: appearing human costs 2 BP at Humanity 6 and 1 BP at Humanity 8
    (within each generation's per-turn limit: Gideon, 7th, spends 4 a turn; Theo, 12th, 1)."""
    state = start(["gideon"], ["theo"])
    state.fighter("gideon").path = 6  # the example's Humanity 6 (the catalog's is 4)
    until(state, "commit")
    out = commits(state, AppearHuman(character="gideon"), AppearHuman(character="theo"))
    spent = {(s.character, s.points) for s in only(out, ch.Spent)}
    assert spent == {("gideon", 2), ("theo", 1)}
    gideon, theo = state.fighter("gideon"), state.fighter("theo")
    assert (gideon.blood, gideon.blood_this_turn, gideon.appears_human) == (18, 2, True)
    assert (theo.blood, theo.blood_this_turn, theo.appears_human) == (6, 1, True)


def test_s8_appearing_human_beyond_the_turns_blood_limit_refused() -> None:
    """V20-10.6, V20-10.8: Marcus (13th generation, 1 BP a turn) at Humanity 6 would spend 2 BP
    in one turn to appear human: refused."""
    state = start(["marcus"], ["nicky"])
    until(state, "commit")
    assert refused(state, Commit(seat=0, spends=(AppearHuman(character="marcus"),))).rule \
        == "V20-10.8"


def test_s8_two_willpower_successes_in_one_declaration_refused() -> None:
    """S8, V20-11.1: one automatic-success Willpower point a turn: an attack and a dodge both
    with Willpower are refused."""
    state = start([fighter("aurelian", weapons=["knife"])], ["nicky"])
    until(state, "declare", character="aurelian")
    err = refused(state, declaration(state, "aurelian",
                                     attack("nicky", "knife", willpower=True),
                                     act("dodge", willpower=True)))
    assert err.rule == "V20-11.1"


def test_s8_second_willpower_success_on_a_defense_refused() -> None:
    """S8, V20-11.1, V20-7.6: Aurelian's attack used the turn's Willpower success; a dodge with
    Willpower later that turn is refused, the dodge without it accepted."""
    state = start([fighter("aurelian", weapons=["knife"])], ["nicky"])
    until(state, "declare")
    declare(state, "nicky", attack("aurelian", "knife"))
    declare(state, "aurelian", attack("nicky", "knife", willpower=True), act("dodge"))
    assert head(state).auto == 1
    assert state.fighter("aurelian").willpower == 6
    roll(state, 2, 2, 2, 2, 2)
    defend(state, "nicky")
    roll(state, 2, 2, 2, 2)  # damage: Strength 3 + knife 1, Potence 1 automatic
    roll(state, 7, 2, 2, 2)  # Nicky's knife
    assert refused(state, defense(state, "aurelian", "dodge", willpower=True)).rule \
        == "V20-11.1"
    defend(state, "aurelian", "dodge")
    assert rolls(awaited(state)) == ("dodge", 3, 8)


def test_s8_willpower_declared_on_the_attack_bars_a_second_on_an_earlier_defense() -> None:
    """S8, V20-11.1: Aurelian declared Willpower on his attack; attacked before it resolves,
    a dodge with Willpower would be the turn's second automatic-success point: refused."""
    state = start([fighter("aurelian", weapons=["knife"])], ["nicky"])
    until(state, "roll", purpose="initiative")
    initiative(state, aurelian=1, nicky=10)
    declare(state, "aurelian", attack("nicky", "knife", willpower=True), act("dodge"))
    declare(state, "nicky", attack("aurelian", "knife"))
    roll(state, 7, 2, 2, 2)
    assert refused(state, defense(state, "aurelian", "dodge", willpower=True)).rule \
        == "V20-11.1"


def test_s8_incapacitated_cannot_spend_willpower_to_ignore_wounds() -> None:
    """S8, V20-11.3: Marcus, Incapacitated (7 bashing, BP left), may not spend Willpower to
    ignore his wounds."""
    state = start([fighter("marcus", damage=["bashing"] * 7)], ["nicky"])
    assert state.fighter("marcus").status == "incapacitated"
    until(state, "commit")
    err = refused(state, Commit(seat=0, spends=(IgnoreWounds(character="marcus"),)))
    assert err.rule == "V20-11.3"


def test_s8_ignoring_wounds_while_active_lifts_the_penalty() -> None:
    """V20-11.3: Hurt (-1), Aurelian spends 1 Willpower: his pistol attack rolls all 6 dice."""
    state = start([fighter("aurelian", damage=["bashing"] * 2)], ["nicky"])
    until(state, "commit")
    commits(state, IgnoreWounds(character="aurelian"))
    assert state.fighter("aurelian").willpower == 6
    until(state, "declare", character="aurelian")
    declare(state, "aurelian", attack("nicky", "heavy_pistol"))
    assert rolls(awaited(state)) == ("attack", 6, 6)


def feeding_scene() -> State:
    """Vesna (2 of 12 BP) and her willing ally Nicky (10 BP), against Margarethe."""
    state = start(["vesna", "nicky"], ["margarethe"])
    until(state, "declare", character="vesna")
    return state


def test_s8_feeding_takes_at_most_three_bp_a_turn() -> None:
    """S8, V20-5.11, V20-10.7: 4 BP from one vessel in a turn is refused; 3 are taken, and the
    vessel loses as many."""
    state = feeding_scene()
    err = refused(state, declaration(state, "vesna", act("feed", target="nicky", amount=4)))
    assert err.rule == "V20-10.7"
    declare(state, "vesna", act("feed", target="nicky", amount=3))
    until(state, "rulings", turn=2)
    assert (state.fighter("vesna").blood, state.fighter("nicky").blood) == (5, 7)


def test_s8_two_feeds_on_one_vessel_take_at_most_three_bp() -> None:
    """S8, V20-10.7: feed declared twice on Nicky in one turn: refused, or at most 3 BP taken
    (either reading keeps the per-vessel limit)."""
    state = feeding_scene()
    feeds = declaration(state, "vesna", act("feed", target="nicky", amount=3),
                        act("feed", target="nicky", amount=3))
    try:
        RULES.apply(state, feeds)
    except ValueError as err:
        assert getattr(err, "rule", None) == "V20-10.7"
        return
    until(state, "rulings", turn=2)
    assert state.fighter("vesna").blood - 2 <= 3
    assert state.fighter("nicky").blood >= 7


# S9: frenzy -------------------------------------------------------------------------------------

def test_s9_frenzy_pool_is_self_control_capped_by_blood() -> None:
    """S9, V20-12.1, V20-12.3: Self-Control 4 with 2 BP rolls 2 dice, at the trigger's
    difficulty."""
    state = start([fighter("aurelian", blood=2)], ["nicky"])
    rulings(state, frenzy_trigger("aurelian", 6))
    assert rolls(awaited(state)) == ("frenzy", 2, 6)


def test_s9_frenzy_at_zero_blood_is_automatic() -> None:
    """S9, V20-12.3, V20-2.13: at 0 BP the pool is 0 dice: the vampire frenzies, no roll."""
    state = start([fighter("aurelian", blood=0)], ["nicky"])
    out = rulings(state, frenzy_trigger("aurelian"))
    assert [m.result for m in only(out, ch.Mastery)] == ["frenzy"]
    assert state.fighter("aurelian").frenzy
    assert awaited(state)["step"] == "commit"


@pytest.mark.parametrize(("second", "frenzy", "result"), [
    ((7, 7, 2, 2), False, "resisted"),
    ((2, 2, 2, 2), True, "frenzy"),
])
def test_s9_extended_frenzy_roll_over_two_turns(second: tuple[int, ...], frenzy: bool,
                                                result: str) -> None:
    """S9, V20-12.1, V20-12.2: 3 successes in turn 1, then 2 in turn 2's phase 1 make 5: the
    urge is mastered; 3 then 0: the vampire frenzies."""
    state = start(["aurelian"], ["nicky"])
    rulings(state, frenzy_trigger("aurelian"))
    assert not only(roll(state, 7, 7, 7, 2), ch.Mastery)
    assert state.fighter("aurelian").tests[0].successes == 3
    until(state, "rulings", turn=2)
    rulings(state)
    assert rolls(awaited(state)) == ("frenzy", 4, 6)
    [mastery] = only(roll(state, *second), ch.Mastery)
    assert mastery.result == result
    aurelian = state.fighter("aurelian")
    assert (aurelian.frenzy, aurelian.tests) == (frenzy, [])


def test_s9_instinct_frenzies_with_no_roll() -> None:
    """S9, V20-12.4: Hakon holds Instinct: a frenzy trigger makes him frenzy with no roll."""
    state = start(["hakon"], ["nicky"])
    out = rulings(state, frenzy_trigger("hakon"))
    assert [m.result for m in only(out, ch.Mastery)] == ["frenzy"]
    assert state.fighter("hakon").frenzy
    assert awaited(state)["step"] == "commit"


# S10: a character at Hurt ------------------------------------------------------------------------

def test_s10_hurt_weakens_strength_damage_not_guns_nor_soak() -> None:
    """S10, V20-8.2, V20-9.7, V20-9.8: at Hurt (-1), a Strength 3 punch rolls 2 + extra damage
    dice, a heavy pistol 5 + extra, and soak takes the full Stamina."""
    hurt = ["bashing", "bashing"]
    state = start([fighter("nicky", damage=hurt)],
                  [fighter("margarethe", damage=hurt, weapons=["heavy_pistol"])])
    until(state, "declare")
    declare(state, "nicky", attack("margarethe", "punch"))
    declare(state, "margarethe", attack("nicky", "heavy_pistol"))
    assert rolls(awaited(state)) == ("attack", 5, 6)  # Dexterity 3 + Firearms 3 - 1
    roll(state, 7, 7, 2, 2, 2)
    defend(state, "nicky")
    assert rolls(awaited(state)) == ("damage", 6, 6)  # 5 + 1, no wound penalty
    roll(state, *[2] * 6)
    assert rolls(awaited(state)) == ("attack", 3, 6)  # Dexterity 2 + Brawl 2 - 1
    roll(state, 7, 7, 2)
    assert rolls(awaited(state)) == ("damage", 3, 6)  # Strength 3 - 1 + 1
    roll(state, 7, 2, 2)
    assert rolls(awaited(state)) == ("soak", 3, 6)  # Stamina 3, no wound penalty


# D6: Celerity and initiative ---------------------------------------------------------------------

def test_d6_celerity_initiative_and_melee_pool() -> None:
    """D6, V20-4.2, V20-5.5: Dexterity 3, Wits 2, Celerity 3 with 2 extra actions (2 BP),
    Injured, initiative die 7: 7 + 3 + 2 + 1 - 1 = 12. A Melee 2 attack that turn rolls
    3 + 2 + 1 - 1 = 5 dice, and each extra attack a full 5 too."""
    state = start([fighter("marcus", damage=["bashing"] * 3)], ["nicky"])
    retrait(state, "marcus", celerity=3)  # the example's Celerity 3 (the catalog's is 1)
    until(state, "commit")
    commits(state, Celerity(character="marcus", actions=2))
    marcus = state.fighter("marcus")
    assert (marcus.blood, marcus.blood_this_turn, marcus.celerity_actions) == (8, 0, 2)
    [order] = only(initiative(state, marcus=7), ch.Initiative)
    assert dict(zip(order.order, order.totals))["marcus"] == 12
    declare(state, "nicky", act("dodge"))
    club = attack("nicky", "club")
    declare(state, "marcus", club, extra=[club, club])
    assert rolls(awaited(state)) == ("attack", 5, 6)
    roll(state, 2, 2, 2, 2, 2)
    assert rolls(awaited(state)) == ("attack", 5, 6)


# D7: sword, dodge, damage, soak ------------------------------------------------------------------

def test_d7_sword_dodged_to_one_lethal_level() -> None:
    """D7, V20-7.1, V20-8.1, V20-8.7: Dexterity 3 + Melee 3 [9,8,6,3,2,1] nets 2; the dodge
    (Dexterity 2 + Athletics 2) [7,4,3,2] nets 1, so 1 success is left; 5 damage dice
    [10,7,6,5,1] net 2; Stamina 2 + Fortitude 1 soak [6,2,3] nets 1: 1 lethal level, Bruised."""
    state = start([fighter("aurelian", weapons=["sword"])], ["theo"])
    retrait(state, "aurelian", potence=0)  # the example's damage has no Potence success
    retrait(state, "theo", dexterity=2, celerity=0)  # the example's dodger
    until(state, "declare")
    declare(state, "theo", act("dodge"))
    declare(state, "aurelian", attack("theo", "sword"))
    assert rolls(awaited(state)) == ("attack", 6, 6)
    assert only(roll(state, 9, 8, 6, 3, 2, 1), ch.Rolled)[0].successes == 2
    defend(state, "theo", "dodge")
    assert rolls(awaited(state)) == ("dodge", 4, 6)
    [hit] = only(roll(state, 7, 4, 3, 2), ch.Hit)
    assert hit.successes == 1
    assert rolls(awaited(state)) == ("damage", 5, 6)
    roll(state, 10, 7, 6, 5, 1)
    assert rolls(awaited(state)) == ("soak", 3, 6)
    [damaged] = only(roll(state, 6, 2, 3), ch.Damaged)
    assert (damaged.damage, damaged.soaked, damaged.levels) == (2, 1, 1)
    theo = state.fighter("theo")
    assert (theo.track.drawing, theo.track.level_name) == ("1X", "Bruised")


# D8: Potence -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("target", "levels"), [("vesna", 1), ("nicky", 2)])
def test_d8_potence_punch(target: str, levels: int) -> None:
    """D8, V20-8.4, V20-8.7: Strength 3, Potence 2, a punch with 1 net success: 3 damage dice
    [6,1,4] score 0 + 2 automatic = 2; a Stamina 2 soak [3,5] scores 0: a vampire halves it to
    1 bashing level, a mortal takes 2."""
    state = start(["marcus"], [target])
    until(state, "roll", purpose="initiative")
    initiative(state, marcus=10, **{target: 1})
    declare(state, target, act("dodge"))
    declare(state, "marcus", attack(target, "punch"))
    roll(state, 6, 2, 2, 2, 2, 2, 2)
    defend(state, target)
    assert rolls(awaited(state)) == ("damage", 3, 6)
    assert head(state).auto == 2
    assert only(roll(state, 6, 1, 4), ch.Rolled)[0].successes == 2
    assert rolls(awaited(state)) == ("soak", 2, 6)
    [damaged] = only(roll(state, 3, 5), ch.Damaged)
    assert (damaged.damage_type, damaged.damage, damaged.soaked, damaged.levels) == (
        "bashing", 2, 0, levels)


# D9: parry and counter-blow -----------------------------------------------------------------------

def parry_scene(weapons: list[str]) -> State:
    """Nicky punches Margarethe (Strength 2, Dexterity 3 + Melee 2), who declared a parry."""
    state = start(["nicky"], [fighter("margarethe", weapons=weapons)])
    until(state, "declare")
    return state


def test_d9_parry_of_a_brawl_attack_strikes_back_undefendable() -> None:
    """D9, V20-7.4, V20-7.5: a punch nets 2, the knife parry (Strength 2 + 1) nets 4: the punch
    misses and the counter-blow rolls 3 + 1 = 4 lethal dice, which Nicky cannot defend."""
    state = parry_scene(["knife"])
    declare(state, "nicky", attack("margarethe", "punch"))
    declare(state, "margarethe", act("parry", weapon="knife"))
    roll(state, 7, 7, 2, 2)
    defend(state, "margarethe", "parry")
    assert rolls(awaited(state)) == ("parry", 5, 6)
    out = roll(state, 7, 7, 7, 7, 2)
    assert only(out, ch.Missed)[0].why == "defended"
    assert only(out, ch.Counter) == [ch.Counter(parrier="margarethe", attacker="nicky",
                                                successes=2)]
    shown = awaited(state)
    assert rolls(shown) == ("damage", 4, 6)
    assert (shown["character"], head(state).data["type"]) == ("margarethe", "lethal")
    [damaged] = only(roll(state, 7, 2, 2, 2), ch.Damaged)
    assert (damaged.character, damaged.damage_type, damaged.levels) == ("nicky", "lethal", 1)


def test_v20_7_5_parry_of_an_armed_attack_has_no_counter_blow() -> None:
    """V20-7.5: only an unarmed (Brawl) attack earns a counter-blow: a knife parried with 2
    successes to spare just misses."""
    state = parry_scene(["knife"])
    declare(state, "nicky", attack("margarethe", "knife"))
    declare(state, "margarethe", act("parry", weapon="knife"))
    roll(state, 7, 7, 2, 2)
    defend(state, "margarethe", "parry")
    out = roll(state, 7, 7, 7, 7, 2)
    assert only(out, ch.Missed) and not only(out, ch.Counter)
    assert awaited(state)["step"] == "rulings"


def test_v20_7_5_counter_blow_deals_the_parrying_weapons_damage() -> None:
    """V20-7.5: Margarethe carries a knife and a sword and parries with the sword: the
    counter-blow deals the sword's damage, Strength 2 + 2 + 1 = 5 dice."""
    state = parry_scene(["knife", "sword"])
    declare(state, "nicky", attack("margarethe", "punch"))
    declare(state, "margarethe", act("parry", weapon="sword"))
    roll(state, 7, 7, 2, 2)
    defend(state, "margarethe", "parry")
    roll(state, 7, 7, 7, 7, 2)
    assert rolls(awaited(state)) == ("damage", 5, 6)


def test_v20_2_12_parry_specialty_claimed_in_the_declaration_counts() -> None:
    """V20-2.12: Ilse's "Swords" specialty matches a parry made with a sword; claimed in her
    declaration, the parry roll counts 10s twice."""
    state = start(["nicky"], ["ilse"])
    until(state, "declare")
    declare(state, "nicky", attack("ilse", "punch"))
    declare(state, "ilse", act("parry", weapon="sword", specialty=True))
    roll(state, 7, 7, 2, 2)
    defend(state, "ilse", "parry")
    assert awaited(state)["purpose"] == "parry"
    assert head(state).specialty


# D10: what a block can stop ----------------------------------------------------------------------

def block_scene(weapon: str, armor: str) -> State:
    """A thug (Fortitude 0) blocks another thug's attack (Dexterity 2 + Brawl 2)."""
    state = start([fighter("nicky", "knifer")], [fighter("nicky", "blocker", armor=armor)])
    until(state, "declare")
    declare(state, "blocker", act("block"))
    declare(state, "knifer", attack("blocker", weapon))
    roll(state, 7, 2, 2, 2)
    return state


def test_d10_block_of_a_knife_without_fortitude_or_armor_refused() -> None:
    """D10, V20-7.2: lethal damage cannot be blocked without Fortitude or armor: block is not
    among the defenses offered, and a Defend with it is refused, the scene unchanged."""
    state = block_scene("knife", "none")
    assert {e.defense for e in RULES.legal(state, 1) if isinstance(e, Defend)} == {None}
    refused(state, defense(state, "blocker", "block"))


def test_d10_block_of_a_knife_refusal_names_v20_7_2() -> None:
    """D10: the refused block of a knife names the rule it breaks, V20-7.2."""
    state = block_scene("knife", "none")
    assert refused(state, defense(state, "blocker", "block")).rule == "V20-7.2"


@pytest.mark.parametrize(("weapon", "armor", "pool"), [
    ("punch", "none", 4),
    ("knife", "kevlar_vest", 3),
])
def test_d10_blocks_that_are_legal(weapon: str, armor: str, pool: int) -> None:
    """D10, V20-7.2, V20-6.3: a punch may be blocked without Fortitude or armor; in a Kevlar
    vest the knife may be blocked too (Dexterity 2 + Brawl 2, less the vest's 1)."""
    state = block_scene(weapon, armor)
    assert "block" in {e.defense for e in RULES.legal(state, 1) if isinstance(e, Defend)}
    defend(state, "blocker", "block")
    assert rolls(awaited(state)) == ("block", pool, 6)


# D11: mortal overflow ----------------------------------------------------------------------------

def test_d11_mortal_overflow_incapacitated_then_dead() -> None:
    """D11, V20-9.6, V20-6.11, V20-14.1: a mortal with 6 bashing takes 3 bashing: 2X + 5/,
    Incapacitated; one more lethal level, undefended, kills it; side A is out, side B wins."""
    state = start([fighter("nicky", "victim", damage=["bashing"] * 6)],
                  [fighter("margarethe"), fighter("nicky", "thug")])
    until(state, "declare")
    declare(state, "victim", act("full_defense"))
    declare(state, "thug", attack("victim", "knife"))
    declare(state, "margarethe", attack("victim", "punch"))
    assert rolls(awaited(state)) == ("attack", 3, 7)  # Dexterity 3, Brawl 0 (V20-2.11)
    roll(state, 8, 8, 2)
    assert rolls(awaited(state)) == ("damage", 3, 6)
    roll(state, 7, 7, 7)
    assert rolls(awaited(state)) == ("soak", 2, 6)
    [damaged] = only(roll(state, 2, 2), ch.Damaged)
    assert (damaged.levels, damaged.track, damaged.status) == (3, "2X + 5/", "incapacitated")
    assert rolls(awaited(state)) == ("attack", 4, 6)
    roll(state, 7, 2, 2, 2)
    assert rolls(awaited(state)) == ("damage", 4, 6)
    [damaged] = only(roll(state, 7, 2, 2, 2), ch.Damaged)
    assert (damaged.damage_type, damaged.status) == ("lethal", "dead")
    assert state.over
    assert RULES.outcome(state).results == ("loss", "win")
    assert RULES.outcome(state).rule == "V20-14.1"


# D12: full defense --------------------------------------------------------------------------------

def test_d12_full_defense_dodges_three_gunshots() -> None:
    """D12, V20-5.6, V20-7.3: full defense with a dodge pool of 6 (Dexterity 4 + Athletics 2)
    against three gunshots rolls 6, 5 and 4 dice, all at difficulty 8."""
    shooters = [fighter("nicky", f"gun{i}") for i in (1, 2, 3)]
    state = start(["silas"], shooters)
    until(state, "declare")
    for gunner in ("gun3", "gun2", "gun1"):
        declare(state, gunner, attack("silas", "light_revolver"))
    declare(state, "silas", act("full_defense"))
    for pool in (6, 5, 4):
        assert awaited(state)["purpose"] == "attack"
        roll(state, 8, 8)
        assert {e.defense for e in RULES.legal(state, 0)} == {None, "dodge"}
        defend(state, "silas", "dodge")
        assert rolls(awaited(state)) == ("dodge", pool, 8)
        assert only(roll(state, 9, 9, *[2] * (pool - 2)), ch.Missed)
    assert awaited(state)["step"] == "rulings"


# D13: Firearms 0 ---------------------------------------------------------------------------------

def test_d13_firearms_zero_uses_dexterity_alone_at_plus_one() -> None:
    """D13, V20-2.11: Dexterity 3 with Firearms 0 shoots 3 dice at difficulty 7."""
    state = start(["nicky"], ["margarethe"])
    retrait(state, "nicky", dexterity=3)  # the example's Dexterity 3 (the catalog's is 2)
    until(state, "declare", character="nicky")
    declare(state, "nicky", attack("margarethe", "light_revolver"))
    until(state, "roll", purpose="attack")
    assert rolls(awaited(state)) == ("attack", 3, 7)


# D14: the blood a turn allows --------------------------------------------------------------------

def test_d14_thirteenth_generation_blood_limit_but_celerity_free() -> None:
    """D14, V20-10.8, V20-5.5: a 13th-generation vampire spends 1 BP a turn on heals, boosts and
    looking human: with a Strength boost and Celerity committed (legal: Celerity's blood does not
    count), a heal that turn is refused. (Boosts come in phase 2, heals in phase 5, so the
    example's "heal, then boost" is this same turn in the other order.)"""
    state = start([fighter("marcus", damage=["bashing"])], ["nicky"])
    until(state, "commit")
    err = refused(state, Commit(seat=0, spends=(Boost(character="marcus", attribute="strength",
                                                      points=2),)))
    assert err.rule == "V20-10.8"
    commits(state, Boost(character="marcus", attribute="strength"),
            Celerity(character="marcus", actions=1))
    marcus = state.fighter("marcus")
    assert (marcus.blood, marcus.blood_this_turn, marcus.attribute("strength")) == (8, 1, 4)
    until(state, "declare", character="marcus")
    err = refused(state, declaration(state, "marcus", act("heal", heal="bashing"),
                                     extra=[act("dodge")]))
    assert err.rule == "V20-10.8"
    declare(state, "marcus", act("dodge"), extra=[act("dodge")])


# V20-14.1, V20-14.2: the end of the match --------------------------------------------------------

@pytest.mark.parametrize(("fleeing", "results"), [
    (("ilse",), ("loss", "win")),
    (("nicky",), ("win", "loss")),
    (("ilse", "nicky"), ("draw", "draw")),
])
def test_v20_14_1_a_side_out_loses_both_out_draw(fleeing: tuple[str, ...],
                                                 results: tuple[str, str]) -> None:
    """V20-14.1, V20-5.9: fleeing takes a character out; at the end of the turn a side all out
    loses, and both sides out at the same check is a draw."""
    state = start(["ilse"], ["nicky"])
    until(state, "declare")
    for _ in range(2):
        who = head(state).character or ""
        declare(state, who, act("flee" if who in fleeing else "dodge"))
    assert state.over
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert (outcome.results, outcome.rule) == (results, "V20-14.1")
    assert all(state.fighter(f).gone for f in fleeing)


def test_v20_14_2_turn_limit_is_a_draw() -> None:
    """V20-14.2: reaching the setup's turn limit makes the match a draw."""
    state = start(["ilse"], ["nicky"], turn_limit=2)
    until(state, "rulings", turn=2)
    until(state, "declare")
    declare(state, "nicky", act("dodge"))
    declare(state, "ilse", act("dodge"))
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert (outcome.results, outcome.rule, state.turn) == (("draw", "draw"), "V20-14.2", 2)


def test_v20_14_2_concede_loses() -> None:
    """V20-14.2: a side that concedes loses; nothing is logged after the end."""
    state = start(["ilse"], ["nicky"])
    until(state, "commit")
    RULES.apply(state, Concede(seat=0))
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert (outcome.results, outcome.rule, outcome.side) == (("loss", "win"), "V20-14.2", "B")
    assert refused(state, Commit(seat=1)).rule == "V20-14.1"


def test_v20_14_2_concede_at_any_time() -> None:
    """V20-14.2: a side may concede at any time, here while the Storyteller's rulings are
    awaited."""
    state = start(["ilse"], ["nicky"])
    assert RULES.awaiting(state) == (STORYTELLER,)
    RULES.apply(state, Concede(seat=1))
    assert RULES.outcome(state) is not None
    assert RULES.outcome(state).results == ("win", "loss")


# V20-2.1, V20-2.2: the dice a roll holds ---------------------------------------------------------

def test_v20_2_2_roll_with_the_wrong_count_of_dice_refused() -> None:
    """V20-2.2, V20-2.1: a roll holds exactly the pool's dice, each 1-10; the initiative roll a
    die per character. Anything else is refused and the scene is unchanged."""
    state = start(["aurelian"], ["nicky"])
    until(state, "roll", purpose="initiative")
    assert refused(state, Roll(dice=(5,))).rule == "V20-2.2"
    assert refused(state, Roll(dice=(5, 5, 5))).rule == "V20-2.2"
    assert refused(state, Roll(dice=(5, 11))).rule == "V20-2.1"
    initiative(state)
    declare(state, "nicky", act("dodge"))
    declare(state, "aurelian", attack("nicky", "heavy_pistol"))
    assert awaited(state)["pool"] == 6
    assert refused(state, Roll(dice=(7,) * 5)).rule == "V20-2.2"
    assert refused(state, Roll(dice=(7,) * 7)).rule == "V20-2.2"
    assert refused(state, Roll(dice=(7, 7, 7, 7, 7, 0))).rule == "V20-2.1"
    roll(state, *[7] * 6)


# V20-5.12, V20-5.13: pools below 1 die, the Incapacitated -----------------------------------------

def test_v20_5_12_action_with_no_dice_refused_at_declaration() -> None:
    """V20-5.12: Crippled (-5), Nicky's punch (Dexterity 2 + Brawl 2) would roll -1 dice: it
    cannot be declared."""
    state = start([fighter("nicky", damage=["bashing"] * 6)], ["ilse"])
    until(state, "declare", character="nicky")
    assert refused(state, declaration(state, "nicky", attack("ilse", "punch"))).rule \
        == "V20-5.12"


def test_v20_5_12_action_forfeited_when_wounds_empty_its_pool() -> None:
    """V20-5.12: Injured, Nicky declares a 3-die punch; Aurelian's knife strikes first for 3
    lethal levels (Crippled, -5), so the punch is forfeited and no dice are rolled."""
    state = start([fighter("aurelian", weapons=["knife"])],
                  [fighter("nicky", damage=["bashing"] * 3)])
    until(state, "declare")
    declare(state, "nicky", attack("aurelian", "punch"))
    declare(state, "aurelian", attack("nicky", "knife"))
    roll(state, 7, 2, 2, 2, 2, 2)
    defend(state, "nicky")
    assert rolls(awaited(state)) == ("damage", 4, 6)
    out = roll(state, 7, 7, 2, 2)  # 2 + Potence 1 = 3, no lethal soak for a mortal
    assert only(out, ch.Damaged)[0].track == "3X + 3/"
    assert [(f.character, f.action) for f in only(out, ch.Forfeited)] == [("nicky", "attack")]
    assert awaited(state)["step"] == "rulings"


def test_v20_5_13_incapacitated_vampire_declares_only_an_unrolled_heal() -> None:
    """V20-5.13, V20-9.9, V20-10.3: Marcus, Incapacitated (7 bashing), rolls no initiative and
    may declare only a heal; it needs no roll, costs 1 BP and makes him active again."""
    state = start([fighter("marcus", damage=["bashing"] * 7)], ["nicky"])
    step = until(state, "roll", purpose="initiative")
    assert step.data["characters"] == ["nicky"]
    initiative(state)
    assert awaited(state) == {"step": "declare", "character": "marcus"}
    for acts in ([attack("nicky", "punch")], [act("dodge")],
                 [act("heal", heal="bashing"), act("heal", heal="bashing")]):
        assert refused(state, declaration(state, "marcus", *acts)).rule == "V20-5.13"
    declare(state, "marcus", act("heal", heal="bashing"))
    out = declare(state, "nicky", act("dodge"))
    assert ch.Became(character="marcus", status="active") in out
    marcus = state.fighter("marcus")
    assert (marcus.track.drawing, marcus.status, marcus.blood) == ("6/", "active", 9)


def test_v20_5_13_torpid_characters_declare_nothing() -> None:
    """V20-5.13, V20-4.3: a vampire in torpor (7 lethal) rolls no initiative and declares
    nothing."""
    state = start([fighter("marcus", damage=["lethal"] * 7), "ilse"], ["nicky"])
    assert state.fighter("marcus").status == "torpor"
    step = until(state, "roll", purpose="initiative")
    assert step.data["characters"] == ["ilse", "nicky"]
    initiative(state)
    declaring = []
    while head(state).what == "declare":
        declaring.append(head(state).character)
        declare(state, head(state).character or "", act("dodge"))
    assert sorted(declaring) == ["ilse", "nicky"]


# V20-12.8, V20-12.10, V20-12.11: frenzy and Rötschreck conduct -----------------------------------

def frenzied_scene() -> State:
    """Aurelian at 0 BP, Hurt, frenzies on a trigger (V20-12.3)."""
    state = start([fighter("aurelian", blood=0, damage=["bashing"] * 2)], ["nicky"])
    rulings(state, frenzy_trigger("aurelian"))
    assert state.fighter("aurelian").frenzy
    return state


def test_v20_12_8_frenzied_must_declare_exactly_one_attack() -> None:
    """V20-12.8, V20-12.5: frenzied, Aurelian declares exactly one attack: a dodge, an attack
    with a dodge, or a flight are refused. His attack takes no wound penalty."""
    state = frenzied_scene()
    until(state, "declare", character="aurelian")
    for acts in ([act("dodge")], [attack("nicky", "heavy_pistol"), act("dodge")],
                 [act("flee")], [act("full_defense")]):
        assert refused(state, declaration(state, "aurelian", *acts)).rule == "V20-12.8"
    declare(state, "aurelian", attack("nicky", "heavy_pistol"))
    assert rolls(awaited(state)) == ("attack", 6, 6)


def test_v20_12_8_frenzied_does_not_defend() -> None:
    """V20-12.8: a frenzied character may not defend: attacked before its attack resolves, it
    is offered no defense and no abort, and the damage roll follows the attack."""
    state = frenzied_scene()
    until(state, "roll", purpose="initiative")
    initiative(state, aurelian=1, nicky=10)
    declare(state, "aurelian", attack("nicky", "heavy_pistol"))
    declare(state, "nicky", attack("aurelian", "knife"))
    roll(state, 7, 2, 2, 2)
    assert rolls(awaited(state)) == ("damage", 4, 6)


def test_v20_12_8_willpower_controls_a_frenzied_character_for_a_turn() -> None:
    """V20-12.8: 1 Willpower point and the player controls the frenzied character this turn."""
    state = frenzied_scene()
    until(state, "commit")
    commits(state, Control(character="aurelian"))
    assert state.fighter("aurelian").willpower == 6
    until(state, "declare", character="aurelian")
    declare(state, "aurelian", act("dodge"))


def rotschreck_scene() -> State:
    """Aurelian (Courage 3) fails a Rötschreck roll and panics (V20-12.9)."""
    state = start(["aurelian"], ["nicky"])
    rulings(state, frenzy_trigger("aurelian", kind="rotschreck"))
    assert rolls(awaited(state)) == ("rotschreck", 3, 6)
    [mastery] = only(roll(state, 2, 2, 2), ch.Mastery)
    assert mastery.result == "rotschreck"
    return state


def test_v20_12_10_rotschreck_must_flee() -> None:
    """V20-12.10: in Rötschreck, Aurelian must declare flee; anything else is refused."""
    state = rotschreck_scene()
    until(state, "declare", character="aurelian")
    for acts in ([attack("nicky", "heavy_pistol")], [act("dodge")]):
        assert refused(state, declaration(state, "aurelian", *acts)).rule == "V20-12.10"
    declare(state, "aurelian", act("flee"))
    assert state.fighter("aurelian").gone


def test_v20_12_10_cornered_acts_as_in_frenzy() -> None:
    """V20-12.11, V20-12.10: 1 Willpower point keeps control for turn 1 (a dodge); cornered in
    turn 2, Aurelian acts as in frenzy: flight is refused, one attack accepted."""
    state = rotschreck_scene()
    commits(state, Control(character="aurelian"))
    until(state, "declare", character="aurelian")
    declare(state, "aurelian", act("dodge"))
    until(state, "rulings", turn=2)
    rulings(state, Cornered(character="aurelian"))
    until(state, "declare", character="aurelian")
    for acts in ([act("flee")], [act("dodge")]):
        assert refused(state, declaration(state, "aurelian", *acts)).rule == "V20-12.8"
    declare(state, "aurelian", attack("nicky", "heavy_pistol"))
    assert awaited(state)["purpose"] == "attack"


def test_v20_12_10_cornered_does_not_defend() -> None:
    """V20-12.10, V20-12.8: cornered, Aurelian acts as in frenzy, which may not defend: attacked
    before his attack resolves, he is offered no abort, and the damage roll follows."""
    state = rotschreck_scene()
    commits(state, Control(character="aurelian"))
    until(state, "rulings", turn=2)
    rulings(state, Cornered(character="aurelian"))
    until(state, "roll", purpose="initiative")
    initiative(state, aurelian=1, nicky=10)
    declare(state, "aurelian", attack("nicky", "heavy_pistol"))
    declare(state, "nicky", attack("aurelian", "knife"))
    roll(state, 7, 2, 2, 2)
    assert rolls(awaited(state)) == ("damage", 4, 6)


# V20-6.4: flank and rear -------------------------------------------------------------------------

@pytest.mark.parametrize(("position", "confirmed", "pool"), [
    ("flank", True, 7), ("flank", False, 6), ("rear", True, 8), ("rear", False, 6),
])
def test_v20_6_4_flank_and_rear_dice_only_if_confirmed(position: str, confirmed: bool,
                                                      pool: int) -> None:
    """V20-6.4: a flank attack gets +1 die and a rear attack +2, once the Storyteller confirms
    the declared tag; denied, the attack rolls its plain pool."""
    state = start(["aurelian"], ["nicky"])
    until(state, "declare", character="aurelian")
    declare(state, "aurelian", attack("nicky", "heavy_pistol", position=position))
    assert awaited(state) == {"step": "confirm", "character": "aurelian",
                              "attacker": "aurelian", "target": "nicky",
                              "weapon": "heavy_pistol", "successes": 0}
    assert RULES.awaiting(state) == (STORYTELLER,)
    confirm(state, confirmed)
    assert rolls(awaited(state)) == ("attack", pool, 6)


# V20-5.7: aborting to full defense ----------------------------------------------------------------

def abort_scene(*, dodge: bool = False, silas_first: bool = False) -> State:
    """Silas (Willpower 5, Hurt) declared an attack on Nicky; Nicky's knife nets 2 on him."""
    state = start([fighter("silas", damage=["bashing"] * 2)], ["nicky"])
    until(state, "roll", purpose="initiative")
    initiative(state, silas=10 if silas_first else 1, nicky=1 if silas_first else 10)
    silas = [attack("nicky", "knife"), *([act("dodge")] if dodge else [])]
    if silas_first:
        declare(state, "nicky", attack("silas", "knife"))
        declare(state, "silas", *silas)
        roll(state, *[2] * int(awaited(state)["pool"]))
    else:
        declare(state, "silas", *silas)
        declare(state, "nicky", attack("silas", "knife"))
    roll(state, 7, 7, 2, 2)
    assert awaited(state) == {"step": "defend", "character": "silas", "attacker": "nicky",
                              "target": "silas", "weapon": "knife", "successes": 2}
    return state


def test_v20_5_7_abort_by_willpower_roll() -> None:
    """V20-5.7, V20-5.6: Silas, not yet acted, aborts: his Willpower rating (5) at difficulty 6,
    no wound penalty; a success puts him in full defense (any defense, full pool less wounds)
    and his declared attack is dropped."""
    state = abort_scene()
    assert Abort(seat=0, character="silas") in RULES.legal(state, 0)
    abort(state, "silas")
    assert rolls(awaited(state)) == ("abort", 5, 6)
    assert only(roll(state, 7, 2, 2, 2, 2), ch.FullDefense)
    assert {e.defense for e in RULES.legal(state, 0)} == {None, "block", "dodge", "parry"}
    defend(state, "silas", "dodge")
    assert rolls(awaited(state)) == ("dodge", 5, 6)  # Dexterity 4 + Athletics 2 - 1
    assert only(roll(state, 7, 7, 2, 2, 2), ch.Missed)
    assert awaited(state)["step"] == "rulings"


def test_v20_5_7_failed_abort_keeps_the_declaration() -> None:
    """V20-5.7: a failed abort roll leaves the declaration as it stands: no defense to use, no
    second abort, and Silas's attack still comes."""
    state = abort_scene()
    abort(state, "silas")
    roll(state, 2, 2, 2, 2, 2)
    assert not state.fighter("silas").full_defense
    assert RULES.legal(state, 0) == [Defend(seat=0, character="silas")]
    assert refused(state, Abort(seat=0, character="silas")).rule == "V20-5.7"
    defend(state, "silas")
    roll(state, *[2] * 5)  # damage: Strength 3 + knife 1 + 1, no success to soak
    assert awaited(state)["character"] == "silas"
    assert awaited(state)["purpose"] == "attack"


def test_v20_5_7_abort_by_willpower_point() -> None:
    """V20-5.7: spending 1 Willpower point makes the abort automatic: no roll."""
    state = abort_scene()
    out = abort(state, "silas", willpower=True)
    assert only(out, ch.FullDefense)
    assert state.fighter("silas").willpower == 4
    assert awaited(state)["step"] == "defend"


def test_v20_5_7_no_abort_after_a_regular_action_resolved() -> None:
    """V20-5.7: once Silas's attack has resolved, he may use his declared dodge, not abort."""
    state = abort_scene(dodge=True, silas_first=True)
    assert not any(isinstance(e, Abort) for e in RULES.legal(state, 0))
    assert refused(state, Abort(seat=0, character="silas", willpower=True)).rule == "V20-5.7"
    defend(state, "silas", "dodge")


# V20-9.5: thirst torpor ---------------------------------------------------------------------------

def test_v20_9_5_incapacitated_vampire_at_zero_blood_sinks_into_torpor() -> None:
    """V20-9.5, V20-9.3, V20-14.1: Vesna, at 0 BP and 6 bashing, takes 1 lethal level: her
    track is full (1X + 6/), Incapacitated, and with no blood she sinks into torpor at once;
    her side is out."""
    state = start([fighter("vesna", blood=0, damage=["bashing"] * 6)], ["nicky"])
    until(state, "declare")
    declare(state, "vesna", act("dodge"))
    declare(state, "nicky", attack("vesna", "knife"))
    roll(state, 7, 2, 2, 2)
    defend(state, "vesna")
    roll(state, 7, 2, 2, 2)
    assert rolls(awaited(state)) == ("soak", 2, 6)
    out = roll(state, 2, 2)
    assert only(out, ch.Damaged)[0].track == "1X + 6/"
    assert ch.Became(character="vesna", status="torpor") in out
    assert state.fighter("vesna").status == "torpor"
    assert RULES.outcome(state).results == ("loss", "win")


def test_v20_9_5_set_up_incapacitated_at_zero_blood_is_torpid() -> None:
    """V20-9.5, V20-3.6: a vampire whose setup gives 7 bashing and 0 BP is in torpor from the
    start."""
    state = start([fighter("vesna", blood=0, damage=["bashing"] * 7), "ilse"], ["nicky"])
    assert state.fighter("vesna").status == "torpor"


# The scene builder ---------------------------------------------------------------------------

def test_arranged_setup_is_rules_setup() -> None:
    """scene.start with an `arrange` that changes nothing gives RULES.setup's scene."""
    ambushes = [Ambush(ambusher="silas", target="margarethe")]
    plain = start(["silas"], ["margarethe"], ambushes=ambushes)
    arranged = start(["silas"], ["margarethe"], ambushes=ambushes, arrange=lambda s: None)
    assert plain == arranged
