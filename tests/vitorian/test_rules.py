"""Vitorian Wars rules beyond the worked examples: every refusal names its rule ID."""
from __future__ import annotations

import pytest

from engine.ruleset import DeckError, RuleViolation
from engine.vitorian.cards import Card, Destroy, Modify
from events.base import DeckList, Header, Seat
from events.vitorian import (
    Concede,
    DeclareAttack,
    EndPhase,
    FirstPlayer,
    Gank,
    KeepHand,
    LinkEquipment,
    Mobilize,
    Move,
    Mulligan,
    PassPriority,
    PayUpkeep,
    PlayFieldCondition,
    PlayOrder,
    Recycle,
    Shuffle,
)
from tests.vitorian.scenario import (
    P1,
    P2,
    RULES,
    at,
    clear_board,
    header,
    in_hand,
    put,
    resources,
    started,
    unit_card,
)


def refused(state, event, rule: str) -> None:
    before = state.copy()
    with pytest.raises(RuleViolation) as err:
        RULES.apply(state, event)
    assert err.value.rule == rule, str(err.value)
    assert RULES.view(state, "organiser") == RULES.view(before, "organiser")


def order_card(effect, cost_s: int = 1) -> Card:
    return Card(id="TEST-O", name="Test Order", type="order", color="gray", cost_s=cost_s,
                effect=effect)


# Setup -----------------------------------------------------------------------------------

def test_illegal_deck_is_refused_at_setup_naming_every_rule():
    """VW-3.17."""
    good = header().seats[0].setup
    short = DeckList(name="short", sections={**good.sections, "maneuver": good.sections[
        "maneuver"][:-1]})
    bad = Header(game="vitorian", ruleset="vitorian@1", match_id="x",
                 seats=[Seat(seat=0, player="a", setup=short), header().seats[1]])
    with pytest.raises(DeckError) as err:
        RULES.setup(bad)
    assert any(rule == "VW-3.3" for rule, _ in err.value.problems)


def test_shuffle_must_be_a_permutation_of_the_zone():
    """VW-4.2."""
    state = RULES.setup(header())
    RULES.apply(state, FirstPlayer(seat=1))
    refused(state, Shuffle(seat=0, zone="maneuver", order=(1, 2, 3)), "VW-4.2")
    refused(state, Shuffle(seat=0, zone="convoy", order=tuple(state.players[0].convoy)),
            "VW-4.2")


def test_first_player_mulligans_first_and_at_most_six_times():
    """VW-4.8, VW-4.9."""
    import random
    state = RULES.setup(header())
    rng = random.Random(0)
    RULES.apply(state, FirstPlayer(seat=1))
    while state.chance:
        RULES.apply(state, RULES.sample_chance(state, rng))
    refused(state, Mulligan(seat=0), "VW-4.6")
    for _ in range(6):
        RULES.apply(state, Mulligan(seat=1))
        RULES.apply(state, RULES.sample_chance(state, rng))
    refused(state, Mulligan(seat=1), "VW-4.8")
    refused(state, KeepHand(seat=1, bottom=tuple(state.players[1].hand[:5])), "VW-4.7")
    RULES.apply(state, KeepHand(seat=1, bottom=tuple(state.players[1].hand)))
    assert state.players[1].hand == [] and state.pending == 0


# Main Phase --------------------------------------------------------------------------------

def test_mobilize_only_to_an_empty_cell_of_your_rows_paying_the_level():
    """VW-7.3, VW-2.4, VW-6.12, VW-6.13, VW-6.15."""
    state = at(started(), "main", P1)
    clear_board(state)
    p1, p2, s1 = resources(state, P1, ready="PPS")
    card = in_hand(state, P1, unit_card(2, 2, level=2, cost_p=1))
    put(state, P1, (1, 1), unit_card(1, 1))
    ok = {"seat": P1, "card": card, "exhaust": (p1, s1), "returns": (p1,)}
    refused(state, Mobilize(cell=(3, 1), **ok), "VW-7.3")
    refused(state, Mobilize(cell=(1, 1), **ok), "VW-2.4")
    refused(state, Mobilize(seat=P1, card=card, cell=(1, 2), exhaust=(p1,), returns=(p1,)),
            "VW-6.12")
    refused(state, Mobilize(seat=P1, card=card, cell=(1, 2), exhaust=(p1, s1), returns=(p2,)),
            "VW-6.13")
    refused(state, Mobilize(seat=P1, card=card, cell=(1, 2), exhaust=(p1, s1), returns=(s1,)),
            "VW-6.13")
    state.players[P1].area[p2] = True
    refused(state, Mobilize(seat=P1, card=card, cell=(1, 2), exhaust=(p1, p2), returns=(p1,)),
            "VW-6.15")
    RULES.apply(state, Mobilize(cell=(1, 2), **ok))


def test_standard_moves_cost_and_limits():
    """VW-7.5 to VW-7.10."""
    state = at(started(), "main", P1)
    clear_board(state)
    p, s = resources(state, P1, ready="PS")
    light = put(state, P1, (1, 1), unit_card(1, 1, keywords=("light",)))
    heavy = put(state, P1, (1, 2), unit_card(1, 1, keywords=("heavy",)))
    brute = put(state, P1, (1, 3), unit_card(1, 1, keywords=("brute",)))
    refused(state, Move(seat=P1, unit=brute, to=(2, 3)), "VW-7.9")
    refused(state, Move(seat=P1, unit=light, to=(2, 2)), "VW-7.5")
    refused(state, Move(seat=P1, unit=heavy, to=(2, 2), exhaust=(p,)), "VW-7.8")
    RULES.apply(state, Move(seat=P1, unit=light, to=(2, 1)))
    refused(state, Move(seat=P1, unit=light, to=(1, 1)), "VW-7.10")
    RULES.apply(state, Move(seat=P1, unit=heavy, to=(2, 2), exhaust=(p, s)))
    assert state.players[P1].area == {p: True, s: True}


def test_one_equipment_per_unit_and_one_field_condition():
    """VW-7.16, VW-2.7."""
    state = at(started(), "main", P1)
    clear_board(state)
    ids = resources(state, P1, ready="PPPPSSSS")
    unit = put(state, P1, (1, 1), unit_card(1, 1))
    gear = Card(id="TEST-E", name="Test Gear", type="equipment", color="gray", level=1,
                cost_s=1, effect=Modify(target="linked", attack=2, until="permanent"))
    first, second = in_hand(state, P1, gear), in_hand(state, P1, gear)
    RULES.apply(state, LinkEquipment(seat=P1, card=first, unit=unit, exhaust=(ids[4],),
                                     returns=(ids[4],)))
    assert RULES.view(state, P1)["units"][0]["attack"] == 3
    refused(state, LinkEquipment(seat=P1, card=second, unit=unit, exhaust=(ids[5],),
                                 returns=(ids[5],)), "VW-7.16")
    field = Card(id="TEST-F", name="Test Field", type="field_condition", color="gold",
                 level=1, cost_p=1, effect=Modify(target="field", defense=1, until="permanent",
                                                  affects="both"))
    f1, f2 = in_hand(state, P1, field), in_hand(state, P1, field)
    RULES.apply(state, PlayFieldCondition(seat=P1, card=f1, exhaust=(ids[0],),
                                          returns=(ids[0],)))
    assert RULES.view(state, P1)["units"][0]["defense"] == 2
    refused(state, PlayFieldCondition(seat=P1, card=f2, exhaust=(ids[1],), returns=(ids[1],)),
            "VW-2.7")


def test_decisions_belong_to_their_phase_and_seat():
    """VW-5.5, VW-7.1, VW-6.20."""
    state = started()
    refused(state, EndPhase(seat=P1), "VW-5.8")
    refused(state, PassPriority(seat=P2), "VW-9.14")
    at(state, "main", P1)
    clear_board(state)
    unit = put(state, P1, (2, 1), unit_card(1, 1))
    refused(state, DeclareAttack(seat=P1, attacker=unit, target=None), "VW-5.5")
    at(state, "combat", P1)
    card = in_hand(state, P1, unit_card(1, 1))
    (p,) = resources(state, P1, ready="P")
    refused(state, Mobilize(seat=P1, card=card, cell=(1, 1), exhaust=(p,), returns=()),
            "VW-7.1")


# Recycling ------------------------------------------------------------------------------

def test_recycle_once_per_turn_and_not_during_upkeep():
    """VW-6.18, VW-6.20, VW-6.21, VW-6.23."""
    state = at(started(), "main", P1)
    p, s = resources(state, P1, ready="PS")
    RULES.apply(state, Recycle(seat=P1, resource=p))
    assert state.players[P1].convoy[-1] == p
    refused(state, Recycle(seat=P1, resource=s), "VW-6.21")
    state.window = "upkeep"
    state.players[P1].recycled_turn = -1
    refused(state, Recycle(seat=P1, resource=s), "VW-6.20")


def test_sovereign_abilities_belong_to_their_sovereign_and_resource_type():
    """VW-8.1, VW-8.2, VW-8.4."""
    state = at(started(("red", "blue")), "main", P1)
    clear_board(state)
    p, s = resources(state, P1, ready="PS")
    unit = put(state, P1, (1, 1), unit_card(1, 1))
    refused(state, Recycle(seat=P1, resource=s, ability="forced_march", unit=unit, to=(1, 2)),
            "VW-8.2")
    refused(state, Recycle(seat=P1, resource=p, ability="motor_overload", unit=unit), "VW-8.4")
    refused(state, Recycle(seat=P1, resource=s, ability="motor_overload", unit=unit), "VW-8.4")
    refused(state, Recycle(seat=P1, resource=p, ability="shield", unit=unit), "VW-8.1")


def test_white_shield_only_at_the_channel_step_and_saves_once():
    """VW-8.8, VW-8.9."""
    state = started(("white", "red"))
    clear_board(state)
    unit = put(state, P1, (2, 1), unit_card(1, 1))
    r = next(iter(state.players[P1].area))
    RULES.apply(state, Recycle(seat=P1, resource=r, ability="shield", unit=unit))
    assert state.units[unit].shield
    attacker = put(state, P2, (3, 1), unit_card(5, 5))
    at(state, "combat", P2)
    RULES.apply(state, DeclareAttack(seat=P2, attacker=attacker, target=unit))
    while state.combat:
        RULES.apply(state, PassPriority(seat=state.pending))
    assert unit in state.units and not state.units[unit].shield
    at(state, "main", P1)
    state.players[P1].recycled_turn = -1
    r = next(iter(state.players[P1].area))
    refused(state, Recycle(seat=P1, resource=r, ability="shield", unit=unit), "VW-8.8")


def test_blue_aerial_recon_arranges_the_top_two():
    """VW-8.7."""
    state = at(started(("blue", "red")), "main", P1)
    convoy = state.players[P1].convoy
    top2 = tuple(convoy[:2])
    r = next(iter(state.players[P1].area))
    refused(state, Recycle(seat=P1, resource=r, ability="aerial_recon", top=(convoy[2],)),
            "VW-8.7")
    RULES.apply(state, Recycle(seat=P1, resource=r, ability="aerial_recon", top=top2[1:],
                               bottom=top2[:1]))
    assert state.players[P1].convoy[0] == top2[1] and state.players[P1].convoy[-1] == top2[0]
    assert RULES.view(state, P2)["seats"][P1]["convoy"][0] is None
    assert RULES.view(state, P1)["seats"][P1]["convoy"][0] is not None


# Combat ------------------------------------------------------------------------------------

def test_attackers_come_from_the_vanguard_ready_once_and_not_new():
    """VW-9.3, VW-9.4, VW-7.4, VW-10.9, VW-10.11."""
    state = at(started(), "combat", P1)
    clear_board(state)
    rear = put(state, P1, (1, 1), unit_card(1, 1))
    new = put(state, P1, (2, 2), unit_card(1, 1), new=True)
    charge = put(state, P1, (2, 3), unit_card(1, 1, keywords=("bayonet_charge",)), new=True)
    swift = put(state, P1, (2, 4), unit_card(1, 1, keywords=("swift",)))
    refused(state, DeclareAttack(seat=P1, attacker=rear, target=None), "VW-9.3")
    refused(state, DeclareAttack(seat=P1, attacker=new, target=None), "VW-7.4")
    for attacker in (charge, swift):
        RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=None))
        while state.combat:
            RULES.apply(state, PassPriority(seat=state.pending))
    assert state.units[charge].exhausted and not state.units[swift].exhausted
    refused(state, DeclareAttack(seat=P1, attacker=swift, target=None), "VW-9.4")


def test_the_sovereign_is_refused_while_the_column_holds_an_enemy_unit():
    """VW-9.5: with no Entrench anywhere, the column's enemy unit is the target."""
    state = at(started(), "combat", P1)
    clear_board(state)
    attacker = put(state, P1, (2, 1), unit_card(3, 3))
    front = put(state, P2, (3, 1), unit_card(1, 1))
    elsewhere = put(state, P2, (3, 2), unit_card(1, 1))
    refused(state, DeclareAttack(seat=P1, attacker=attacker, target=None), "VW-9.5")
    refused(state, DeclareAttack(seat=P1, attacker=attacker, target=elsewhere), "VW-9.5")
    RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=front))


def test_the_column_unit_stays_the_target_beside_an_entrench_unit():
    """VW-9.5, VW-9.7: only an Entrench unit may replace the column's target."""
    state = at(started(), "combat", P1)
    clear_board(state)
    attacker = put(state, P1, (2, 1), unit_card(3, 3))
    put(state, P2, (4, 1), unit_card(1, 1))
    elsewhere = put(state, P2, (3, 2), unit_card(1, 1))
    entrench = put(state, P2, (3, 5), unit_card(1, 5, keywords=("entrench",)))
    refused(state, DeclareAttack(seat=P1, attacker=attacker, target=None), "VW-9.5")
    refused(state, DeclareAttack(seat=P1, attacker=attacker, target=elsewhere), "VW-9.5")
    RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=entrench))


def test_an_empty_column_without_entrench_hits_the_sovereign():
    """VW-9.6: no unit may be named instead of the Sovereign."""
    state = at(started(), "combat", P1)
    clear_board(state)
    attacker = put(state, P1, (2, 1), unit_card(3, 3))
    elsewhere = put(state, P2, (3, 2), unit_card(1, 1))
    refused(state, DeclareAttack(seat=P1, attacker=attacker, target=elsewhere), "VW-9.6")
    RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=None))


def test_an_empty_column_leaves_only_the_entrench_units():
    """VW-9.8: neither the Sovereign nor another unit while Entrench is in play."""
    state = at(started(), "combat", P1)
    clear_board(state)
    attacker = put(state, P1, (2, 1), unit_card(3, 3))
    elsewhere = put(state, P2, (3, 2), unit_card(1, 1))
    entrench = put(state, P2, (4, 5), unit_card(1, 5, keywords=("entrench",)))
    refused(state, DeclareAttack(seat=P1, attacker=attacker, target=None), "VW-9.8")
    refused(state, DeclareAttack(seat=P1, attacker=attacker, target=elsewhere), "VW-9.8")
    RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=entrench))


@pytest.mark.parametrize("with_rear", [False, True])
def test_long_range_may_not_target_the_vanguard_unit_it_skips(with_rear):
    """VW-10.12: the Rear Guard unit, or else the Sovereign (VW-9.6), is the target."""
    state = at(started(), "combat", P1)
    clear_board(state)
    attacker = put(state, P1, (2, 2), unit_card(2, 2, keywords=("long_range",)))
    front = put(state, P2, (3, 2), unit_card(5, 5))
    rear = put(state, P2, (4, 2), unit_card(1, 1)) if with_rear else None
    refused(state, DeclareAttack(seat=P1, attacker=attacker, target=front), "VW-10.12")
    if rear is not None:
        refused(state, DeclareAttack(seat=P1, attacker=attacker, target=None), "VW-9.5")
    RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=rear))


def test_orders_resolve_last_in_first_out_and_fizzle_without_target():
    """VW-9.13, VW-9.14."""
    state = started()
    clear_board(state)
    attacker = put(state, P1, (2, 1), unit_card(3, 3, level=2))
    target = put(state, P2, (3, 1), unit_card(1, 1, level=1))
    resources(state, P1, ready="SS")
    ps = resources(state, P2, ready="SS")
    boost = in_hand(state, P2, order_card(Modify(target="own_combatant", defense=5)))
    kill = in_hand(state, P1, order_card(Destroy(max_level=1, target="enemy_combatant")))
    at(state, "combat", P1)
    RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=target))
    RULES.apply(state, PlayOrder(seat=P2, card=boost, returns=(ps[0],), target=target))
    RULES.apply(state, PassPriority(seat=P2))
    s1 = next(r for r, t in state.players[P1].area.items() if not t)
    RULES.apply(state, PlayOrder(seat=P1, card=kill, returns=(s1,), target=target))
    RULES.apply(state, PassPriority(seat=P1))
    assert target not in state.units
    assert boost in state.players[P2].discard and kill in state.players[P1].discard
    assert state.combat is None  # VW-9.10: the target left, no damage, no hit


def test_entrench_stops_piercing_hits():
    """VW-9.27, VW-10.5."""
    state = started()
    clear_board(state)
    attacker = put(state, P1, (2, 1), unit_card(6, 6, keywords=("piercing_ammo",)))
    target = put(state, P2, (3, 1), unit_card(1, 1))
    put(state, P2, (4, 5), unit_card(0, 1, keywords=("entrench",)))
    pile = len(state.players[P2].defense)
    at(state, "combat", P1)
    RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=target))
    while state.combat:
        RULES.apply(state, PassPriority(seat=state.pending))
    assert target not in state.units and len(state.players[P2].defense) == pile


def test_ganking_must_reinforce():
    """VW-10.4."""
    state = started()
    clear_board(state)
    attacker = put(state, P1, (2, 3), unit_card(2, 2))
    ganker = put(state, P1, (1, 4), unit_card(1, 1, keywords=("ganking",)))
    far = put(state, P1, (2, 2), unit_card(1, 1, keywords=("ganking",)))
    target = put(state, P2, (3, 3), unit_card(2, 2))
    at(state, "combat", P1)
    RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=target))
    RULES.apply(state, PassPriority(seat=P2))
    RULES.apply(state, PassPriority(seat=P1))
    assert (state.window, state.pending) == ("gank", P1)
    refused(state, Gank(seat=P1, unit=far, to=(2, 1)), "VW-10.4")
    RULES.apply(state, Gank(seat=P1, unit=ganker, to=(1, 3)))
    assert state.units[ganker].exhausted


def test_upkeep_ignores_shields():
    """VW-6.11."""
    state = started()
    clear_board(state)
    elite = put(state, P1, (1, 1), unit_card(5, 5, level=5))
    state.units[elite].shield = True
    resources(state, P1, ready="P")
    RULES.apply(state, PassPriority(seat=P1))
    RULES.apply(state, PayUpkeep(seat=P1))
    assert elite not in state.units


def test_concede_and_deck_out():
    """VW-12.3, VW-12.4."""
    state = started()
    RULES.apply(state, Concede(seat=P2))
    assert RULES.outcome(state).winner == P1 and RULES.outcome(state).rule == "VW-12.4"
    state = started()
    state.players[P1].deck.clear()
    RULES.apply(state, PassPriority(seat=P1))
    assert RULES.outcome(state).winner == P2 and RULES.outcome(state).rule == "VW-12.3"
