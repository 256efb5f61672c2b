"""V20 rules the worked examples do not reach, each through the engine as a log would drive it:
the match frame (V20-1), initiative ties (V20-4.4), public declarations (V20-4.5), the actions
(V20-5.1, 5.8), maneuvers (V20-6.2, 6.5, 6.10, 6.12), damage rolls (V20-8.5), blood and
Willpower pools (V20-3.2, 10.1, 10.2, 11.2, 11.5), frenzy's limits (V20-12.6, 12.7)."""
from __future__ import annotations

import msgspec
import pytest

from engine.ruleset import STORYTELLER, RuleViolation
from engine.v20 import changes as ch
from engine.v20.rules import RULES
from events.base import Header, Seat
from events.v20 import (
    Event,
    IgnoreWounds,
    Manifests,
    Party,
    Resist,
    Trigger,
)
from tests.v20.scene import (
    act,
    attack,
    commit,
    commits,
    declaration,
    declare,
    defend,
    fighter,
    head,
    initiative,
    only,
    refused,
    roll,
    rulings,
    start,
    until,
)


def test_v20_1_1_a_scene_is_two_sides_and_the_storyteller_opens_each_turn():
    party = Party(name="p", fighters=(fighter("marcus"),))
    three = Header(game="v20", ruleset="v20@1", match_id="x",
                   seats=[Seat(seat=i, player="x", setup=party) for i in range(3)])
    with pytest.raises(RuleViolation) as err:
        RULES.setup(three)
    assert err.value.rule == "V20-1.1"
    state = start(["marcus"], ["nicky"])
    assert RULES.awaiting(state) == (STORYTELLER,) and head(state).what == "rulings"


def test_v20_1_2_and_1_3_turns_follow_one_another_and_scene_effects_last():
    """V20-1.2: turns numbered in order; V20-1.3: a boost lasts the scene (V20-10.5)."""
    from events.v20 import Boost

    state = start(["marcus"], ["nicky"])
    rulings(state)
    commits(state, Boost(character="marcus", attribute="strength"))
    assert state.fighter("marcus").attribute("strength") == 4
    until(state, "rulings", turn=2)
    assert state.turn == 2 and state.fighter("marcus").attribute("strength") == 4


def test_v20_1_4_and_6_12_any_character_of_the_other_side_still_in_the_scene():
    """V20-1.4 (no map), V20-6.12 (a legal target)."""
    state = start(["marcus"], ["nicky", "margarethe"])
    until(state, "declare", character="marcus")
    assert declaration(state, "marcus", attack("margarethe", "punch"))  # no map: any target
    err = refused(state, declaration(state, "marcus", attack("marcus", "punch")))
    assert err.rule == "V20-6.12"
    state.fighter("nicky").gone = True
    assert refused(state, declaration(state, "marcus", attack("nicky", "punch"))).rule == \
        "V20-6.12"


def test_v20_1_5_frenzy_is_a_cainites():
    state = start(["marcus"], ["nicky"])
    err = refused(state, _rulings(Trigger(character="nicky", kind="frenzy", cause="harassment",
                                          difficulty=4)))
    assert err.rule == "V20-1.5"


def _rulings(*given):
    from events.v20 import Rulings

    return Rulings(rulings=given)


def test_v20_4_4_ties_go_to_dexterity_and_wits_then_wits_then_the_listing():
    state = start(["marcus", "ilse"], ["nicky"])
    until(state, "roll", purpose="initiative")
    from engine.v20.pools import initiative_bonus

    # dice that bring all three to 12 (V20-4.2: Dexterity + Wits + Celerity + the die)
    dice = {fid: 12 - initiative_bonus(state.fighter(fid)) for fid in ("marcus", "ilse", "nicky")}
    changes = initiative(state, **dice)
    order = only(changes, ch.Initiative)[0]
    assert order.totals == (12, 12, 12)
    assert order.order == ("ilse", "marcus", "nicky")  # Dex+Wits 7, then 5, then Nicky's 4


def test_v20_4_5_a_declaration_is_public_once_made():
    state = start(["marcus"], ["nicky"])
    until(state, "declare", character="nicky")
    declare(state, "nicky", attack("marcus", "knife"), act("dodge"))
    for perspective in (0, "spectator"):
        shown = RULES.view(state, perspective)["sides"][1]["characters"][0]
        assert shown["declared"] == ["attack", "dodge"]


def test_v20_5_1_soak_is_reflexive_not_an_action():
    """A hit's soak is rolled with no declaration and no multiple-action penalty."""
    state = start(["marcus"], ["nicky"])
    until(state, "declare", character="nicky")
    declare(state, "nicky", act("dodge"), act("block"))
    until(state, "declare", character="marcus")
    declare(state, "marcus", attack("nicky", "punch"))
    until(state, "roll", purpose="attack")
    roll(state, 8, 8, 8, 8, 8, 8, 8)
    defend(state, "nicky")
    roll(state, *(7,) * head(state).pool)
    assert head(state).purpose == "soak" and head(state).pool == 2  # Stamina 2, no penalty


def test_v20_5_8_a_lone_heal_needs_no_roll_a_heal_among_actions_does():
    """V20-5.8: Stamina + Survival at 8 with the multiple-action modifiers (V20-5.2)."""
    state = start([fighter("marcus", damage=("lethal",))], ["nicky"])
    until(state, "declare", character="marcus")
    declare(state, "marcus", act("heal", heal="lethal"), act("dodge"))
    until(state, "roll", purpose="heal")
    step = head(state)
    assert (step.pool, step.difficulty) == (3 + 0 - 1, 8 + 1 + 1)  # Stamina 3, Survival 0


def test_v20_6_2_a_kick_starts_at_difficulty_7():
    state = start(["marcus"], ["nicky"])
    until(state, "declare", character="marcus")
    declare(state, "marcus", attack("nicky", "kick"))
    until(state, "roll", purpose="attack")
    assert head(state).difficulty == 7


def test_v20_6_5_fighting_blind_adds_two_to_attack_and_defense():
    from events.v20 import Blind

    state = start(["marcus"], ["nicky"])
    rulings(state, Blind(character="marcus"))
    until(state, "declare", character="nicky")
    declare(state, "nicky", attack("marcus", "knife"))
    until(state, "declare", character="marcus")
    declare(state, "marcus", attack("nicky", "punch"), act("dodge"))
    until(state, "roll", purpose="attack")
    attacker = head(state).character
    if attacker == "marcus":
        assert head(state).difficulty == 6 + 1 + 2
    else:
        roll(state, 9, *(3,) * (head(state).pool - 1))
        defend(state, "marcus", "dodge")
        assert head(state).difficulty == 6 + 2 + 2


def test_v20_6_10_a_gun_deals_lethal_damage_to_a_vampire_too():
    """V20-6.10: the damage type is the weapon's, whatever the target."""
    state = start(["marcus"], [fighter("nicky", weapons=["light_revolver"])])
    until(state, "declare", character="nicky")
    declare(state, "nicky", attack("marcus", "light_revolver"))
    until(state, "declare", character="marcus")
    declare(state, "marcus", act("block"))
    until(state, "roll", purpose="attack")
    roll(state, *(9,) * head(state).pool)
    if head(state).what == "defend":
        defend(state, "marcus")
    assert head(state).purpose == "damage" and head(state).data["type"] == "lethal"


def test_v20_8_5_a_damage_roll_of_ones_is_no_botch():
    state = start(["marcus"], ["nicky"])
    until(state, "declare", character="nicky")
    declare(state, "nicky", act("dodge"))
    until(state, "declare", character="marcus")
    declare(state, "marcus", attack("nicky", "punch"))
    until(state, "roll", purpose="attack")
    roll(state, *(9,) * head(state).pool)
    defend(state, "nicky")
    changes = roll(state, *(1,) * head(state).pool)
    rolled = only(changes, ch.Rolled)[0]
    assert rolled.purpose == "damage" and not rolled.botch  # V20-2.9, V20-8.5
    assert rolled.successes == 2  # Potence's automatic successes stand (V20-8.4)


def test_v20_3_2_10_1_and_11_5_an_empty_pool_pays_for_nothing():
    state = start([fighter("marcus", willpower=0, blood=1, damage=("bashing",) * 3)],
                  ["nicky"])
    rulings(state)
    err = refused(state, _commit(state, 0, IgnoreWounds(character="marcus")))
    assert err.rule == "V20-11.5"
    from events.v20 import Celerity

    commit(state, 1)
    err = refused(state, _commit(state, 0, Celerity(character="marcus", actions=1),
                                 _boost("marcus")))
    assert err.rule in ("V20-10.1", "V20-10.8")


def _commit(state, seat, *spends):
    from events.v20 import Commit

    return Commit(seat=seat, spends=spends)


def _boost(character):
    from events.v20 import Boost

    return Boost(character=character, attribute="dexterity")


def test_v20_10_2_the_setup_blood_is_after_the_waking_cost():
    """V20-10.2 and V20-3.6: the waking cost is paid before the match."""
    state = start([fighter("marcus", blood=4)], ["nicky"])
    assert state.fighter("marcus").blood == 4


def test_v20_11_2_willpower_stops_a_derangement_that_manifests():
    state = start([fighter("silas")], ["nicky"])
    state.fighter("silas").derangements.append("Paranoia")
    rulings(state, Manifests(character="silas", derangement="Paranoia"))
    changes = commits(state, Resist(character="silas"))
    spent = only(changes, ch.Spent)
    assert [(s.pool, s.points, s.purpose) for s in spent] == [("willpower", 1, "resist")]
    until(state, "rulings", turn=2)
    rulings(state)
    assert refused(state, _commit(state, 0, Resist(character="silas"))).rule == "V20-11.2"


def test_v20_12_6_dominate_is_no_action_of_the_engine():
    """Using Dominate (whose difficulty V20-12.6 shifts against the frenzied) is not among
    the actions of V20-5.1: a log naming it does not decode."""
    raw = b'{"type": "declare", "seat": 0, "character": "aurelian", "actions": ' \
          b'[{"action": "dominate", "target": "nicky"}]}'
    with pytest.raises(msgspec.ValidationError, match="action"):
        msgspec.json.decode(raw, type=Event)


def test_v20_12_7_a_frenzied_character_ignores_further_triggers():
    """V20-12.7: immune to Rötschreck, further triggers ignored."""
    state = start([fighter("marcus", blood=0)], ["nicky"])
    rulings(state, Trigger(character="marcus", kind="frenzy", cause="harassment",
                           difficulty=4))
    assert state.fighter("marcus").frenzy  # 0 BP: no dice, frenzy (V20-12.3)
    until(state, "declare", character="marcus")
    declare(state, "marcus", attack("nicky", "punch"))
    while head(state).what != "rulings":
        step = head(state)
        if step.what == "roll":
            roll(state, *(2,) * step.pool)
        else:
            until(state, "rulings")
    changes = rulings(state, Trigger(character="marcus", kind="rotschreck", cause="torch",
                                     difficulty=5))
    assert only(changes, ch.Triggered)[0].ignored
    assert not state.fighter("marcus").rotschreck and not state.fighter("marcus").tests
