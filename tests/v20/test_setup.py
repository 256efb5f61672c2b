"""A V20 scene from its header (engine.v20.setup) and the kit that seats it (engine.v20.game):
parties checked against the catalog and the rules, scenarios read from files with one clear line
when they are wrong, sweeps that pair every build or a scenario's own sides."""
from __future__ import annotations

import random

import pytest

from engine.games import Place, get_game
from engine.ruleset import RuleViolation, get_ruleset
from engine.v20.game import build_setup, builds, load_scenario, scenario_builds
from events.base import Header, Seat
from events.v20 import Ambush, Carried, Fighter, Party, Scenario

RULES = get_ruleset("v20@1")


def header(a: tuple[Fighter, ...], b: tuple[Fighter, ...], scenario: Scenario | None = None
           ) -> Header:
    return Header(game="v20", ruleset="v20@1", match_id="setup", scenario=scenario,
                  seats=[Seat(seat=0, player="Ana", setup=Party(name="A", fighters=a)),
                         Seat(seat=1, player="Bo", setup=Party(name="B", fighters=b))])


MARCUS = Fighter(id="marcus", character="marcus")
NICKY = Fighter(id="nicky", character="nicky")


def test_a_party_takes_its_sheets_values_unless_the_setup_gives_its_own():
    """V20-3.6: starting blood, Willpower and damage come from the setup."""
    state = RULES.setup(header((MARCUS,), (Fighter(id="nicky", character="nicky", blood=7,
                                                   willpower=1, damage=("lethal", "bashing")),)))
    marcus, nicky = state.fighter("marcus"), state.fighter("nicky")
    assert (marcus.blood, marcus.willpower) == (marcus.sheet.blood.start, marcus.sheet.willpower)
    assert (nicky.blood, nicky.willpower, nicky.track.drawing) == (7, 1, "1X + 1/")
    assert [f.id for f in state.fighters.values()] == ["marcus", "nicky"]  # the listing order


@pytest.mark.parametrize("fighter, rule, words", [
    (Fighter(id="x", character="nosferatu"), "V20-3.1", "no sheet 'nosferatu'"),
    (Fighter(id="x", character="marcus", blood=11), "V20-3.3", "blood 11 is outside 0-10"),
    (Fighter(id="x", character="marcus", willpower=5), "V20-11.4", "outside 0-4"),
    (Fighter(id="x", character="marcus", damage=("lethal",) * 8), "V20-9.1", "damage"),
    (Fighter(id="x", character="marcus", weapons=(Carried(weapon="lightsaber"),)), "V20-3.1",
     "no weapon 'lightsaber'"),
    (Fighter(id="x", character="marcus", weapons=(Carried(weapon="heavy_pistol", rounds=9),)),
     "V20-5.10", "0-8 rounds, not 9"),
    (Fighter(id="x", character="marcus", armor="plate"), "V20-3.1", "no armor 'plate'"),
])
def test_a_bad_fighter_is_refused_naming_it_and_the_rule(fighter, rule, words):
    with pytest.raises(RuleViolation) as refused:
        RULES.setup(header((fighter,), (NICKY,)))
    assert refused.value.rule == rule and words in str(refused.value)
    assert "'x'" in str(refused.value)


def test_ids_are_unique_and_ambushes_cross_sides():
    with pytest.raises(RuleViolation, match="two characters are called 'marcus'"):
        RULES.setup(header((MARCUS,), (MARCUS,)))
    same_side = Scenario(name="s", ambushes=(Ambush(ambusher="marcus", target="ilse"),))
    with pytest.raises(RuleViolation, match="same side") as refused:
        RULES.setup(header((MARCUS, Fighter(id="ilse", character="ilse")), (NICKY,), same_side))
    assert refused.value.rule == "V20-6.7"


def test_a_scenario_file_seats_its_own_sides_and_a_frame_seats_none():
    alley = load_scenario("alley")
    assert (alley.turn_limit, alley.ambushes[0].ambusher) == (10, "silas")
    assert scenario_builds(alley) == ("alley:A", "alley:B")
    assert [f.id for f in build_setup("alley:B", Place(side="B"), random.Random(1)).fighters
            ] == ["margarethe", "nicky"]
    assert "alley:A" not in get_game("v20").archetypes  # never paired with the file's builds
    assert scenario_builds(load_scenario("bonfire")) is None


SIDES = ('[sides.A]\nname = "a"\nfighters = [{ id = "m", character = "marcus" }]\n'
         '[sides.B]\nname = "b"\nfighters = [{ id = "n", character = "nicky"%s }]\n')


@pytest.mark.parametrize("text, words", [
    ('name = "x"\nturn_limit = "soon"\n',
     "Expected `int | null`, got `str` - at `$.turn_limit` (V20-14.2)"),
    ('name = "x"\nfog = true\n', "unknown field `fog`"),
    ('name = "x"\n[sides.A]\nname = "a"\nfighters = []\n', "holds A and B"),
    ('name = "x\n', "not a V20 scenario"),
    ('name = "x"\n' + SIDES % ", blood = 40", "V20-3.3: character 'n': blood 40"),
    ('name = "x"\n[[ambushes]]\nambusher = "m"\ntarget = "z"\n' + SIDES % "",
     "V20-6.7: ambush: no character 'z'"),
])
def test_a_bad_scenario_file_is_one_line_naming_the_file(tmp_path, text, words):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ValueError) as refused:
        load_scenario(str(path))
    message = str(refused.value)
    assert str(path) in message and words in message and "\n" not in message


def test_an_unknown_scenario_lists_the_known_ones():
    with pytest.raises(ValueError, match="neither one of alley, bonfire nor a file"):
        load_scenario("moonlight")


def test_a_mirror_match_keeps_every_id_unique():
    """A sweep pairs each build with itself too: side B's ids get a suffix."""
    rng = random.Random(1)
    a = build_setup("brawlers", Place(side="A"), rng)
    b = build_setup("brawlers", Place(side="B"), rng)
    state = RULES.setup(header(a.fighters, b.fighters))
    assert [f.id for f in state.fighters.values()] == ["marcus", "ilse", "marcus_b", "ilse_b"]


def test_the_kit_sweeps_every_pairing_of_its_builds():
    kit = get_game("v20")
    assert kit.format == "sweep" and set(builds()) >= set(kit.archetypes)
    assert kit.fixed_builds(load_scenario("alley")) == ("alley:A", "alley:B")
