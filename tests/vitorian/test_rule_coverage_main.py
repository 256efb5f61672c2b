"""Vitorian Wars rules each exercised through the engine: the Main Phase (VW-7) and the
Forced March (VW-8.3): mobilizing, standard moves, column changes, Field Conditions, Equipment."""
from __future__ import annotations

from engine.vitorian.cards import Card, Modify
from events.vitorian import (
    DeclareAttack,
    EndPhase,
    LinkEquipment,
    Mobilize,
    Move,
    PlayFieldCondition,
    Recycle,
)
from tests.vitorian.scenario import (
    P1,
    P2,
    RULES,
    at,
    clear_board,
    in_hand,
    put,
    resources,
    started,
    unit_card,
)
from tests.vitorian.test_rule_coverage import (
    gear_card,
    idle,
    of_kind,
    order_card,
    refused,
    stats_of,
)


def field_card(defense: int = 1) -> Card:
    return Card(id="TEST-FIELD", name="Test Field", type="field_condition", color="gray",
                level=1, cost_p=1,
                effect=Modify(target="field", defense=defense, until="permanent"))


def test_vw_7_2_mobilize_a_unit_from_hand_onto_an_available_position_paying_its_cost():
    """VW-7.2: only a unit card in your hand is mobilized; it leaves the hand for the chosen
    cell, its cost paid; a card not in hand or not a unit is refused naming VW-7.2."""
    state = at(started(), "main", P1)
    clear_board(state)
    p, s = resources(state, P1, ready="PS")
    card = in_hand(state, P1, unit_card(2, 2, level=2, cost_p=1))
    order = in_hand(state, P1, order_card(None))
    opponents = in_hand(state, P2, unit_card(1, 1, level=1, cost_p=1))
    refused(state, Mobilize(seat=P1, card=opponents, cell=(1, 1), exhaust=(p, s),
                            returns=(p,)), "VW-7.2")
    refused(state, Mobilize(seat=P1, card=order, cell=(1, 1), exhaust=(p, s), returns=(p,)),
            "VW-7.2")
    changes = RULES.apply(state, Mobilize(seat=P1, card=card, cell=(1, 4), exhaust=(p, s),
                                          returns=(p,)))
    (mobilized,) = of_kind(changes, "mobilized")
    assert (mobilized.card, mobilized.cell) == (card, (1, 4))
    assert card not in state.players[P1].hand and state.grid[(1, 4)] == card
    assert state.players[P1].convoy[-1] == p and state.players[P1].area == {s: True}


def test_vw_7_4_a_mobilized_unit_enters_ready_and_newly_mobilized():
    """VW-7.4: the new unit is ready but cannot attack this turn; next turn it can."""
    state = at(started(), "main", P1)
    clear_board(state)
    (p,) = resources(state, P1, ready="P")
    card = in_hand(state, P1, unit_card(2, 2, level=1, cost_p=1))
    RULES.apply(state, Mobilize(seat=P1, card=card, cell=(2, 2), exhaust=(p,), returns=(p,)))
    assert not state.units[card].exhausted and state.units[card].new
    RULES.apply(state, EndPhase(seat=P1))
    refused(state, DeclareAttack(seat=P1, attacker=card, target=None), "VW-7.4")
    idle(state)
    idle(state)
    at(state, "combat", P1)
    RULES.apply(state, DeclareAttack(seat=P1, attacker=card, target=None))


def test_vw_7_6_a_standard_move_exhausts_one_ready_personnel():
    """VW-7.6: a move without a [P], with an exhausted [P], or with two [P] is refused naming
    VW-7.6; with one ready [P] the unit moves and the [P] is exhausted."""
    state = at(started(), "main", P1)
    clear_board(state)
    p, p2, tired = resources(state, P1, ready="PP", exhausted="P")
    unit = put(state, P1, (2, 4), unit_card(1, 1))
    refused(state, Move(seat=P1, unit=unit, to=(1, 4)), "VW-7.6")
    refused(state, Move(seat=P1, unit=unit, to=(1, 4), exhaust=(tired,)), "VW-7.6")
    refused(state, Move(seat=P1, unit=unit, to=(1, 4), exhaust=(p, p2)), "VW-7.6")
    RULES.apply(state, Move(seat=P1, unit=unit, to=(1, 4), exhaust=(p,)))
    assert state.grid[(1, 4)] == unit
    assert state.players[P1].area == {p: True, p2: False, tired: True}


def test_vw_7_7_a_light_unit_changes_rows_without_paying():
    """VW-7.7: a Light unit moves with nothing exhausted; offering a [P] is refused naming
    VW-7.7: there is nothing to pay."""
    state = at(started(), "main", P1)
    clear_board(state)
    (p,) = resources(state, P1, ready="P")
    light = put(state, P1, (1, 5), unit_card(1, 1, keywords=("light",)))
    refused(state, Move(seat=P1, unit=light, to=(2, 5), exhaust=(p,)), "VW-7.7")
    RULES.apply(state, Move(seat=P1, unit=light, to=(2, 5)))
    assert state.grid[(2, 5)] == light and state.players[P1].area == {p: False}


def test_vw_7_8_a_heavy_unit_exhausts_a_personnel_and_a_supplies_to_change_rows():
    """VW-7.8: a Heavy unit's move with only a [P], or only an [S], is refused naming VW-7.8;
    with one of each it moves and both stay exhausted."""
    state = at(started(), "main", P1)
    clear_board(state)
    p, s = resources(state, P1, ready="PS")
    heavy = put(state, P1, (1, 2), unit_card(3, 3, keywords=("heavy",)))
    refused(state, Move(seat=P1, unit=heavy, to=(2, 2), exhaust=(p,)), "VW-7.8")
    refused(state, Move(seat=P1, unit=heavy, to=(2, 2), exhaust=(s,)), "VW-7.8")
    RULES.apply(state, Move(seat=P1, unit=heavy, to=(2, 2), exhaust=(p, s)))
    assert state.grid[(2, 2)] == heavy and state.players[P1].area == {p: True, s: True}


def test_vw_7_9_a_brute_never_changes_rows_once_mobilized():
    """VW-7.9: a Brute mobilized in the Rear Guard cannot move to the Vanguard, this turn or
    the next, even with the [P] to pay."""
    state = at(started(), "main", P1)
    clear_board(state)
    p, p2 = resources(state, P1, ready="PP")
    card = in_hand(state, P1, unit_card(1, 5, level=1, cost_p=1, keywords=("brute",)))
    RULES.apply(state, Mobilize(seat=P1, card=card, cell=(1, 3), exhaust=(p,), returns=(p,)))
    refused(state, Move(seat=P1, unit=card, to=(2, 3), exhaust=(p2,)), "VW-7.9")
    idle(state)
    idle(state)
    at(state, "main", P1)
    (p3,) = resources(state, P1, ready="P")
    refused(state, Move(seat=P1, unit=card, to=(2, 3), exhaust=(p3,)), "VW-7.9")
    assert state.grid[(1, 3)] == card


def test_vw_7_11_only_abilities_change_columns_and_a_brute_keeps_its_row():
    """VW-7.11: a standard move cannot change column (VW-7.5); Forced March moves a Brute to
    the next column (red); Evasive Maneuvers may move a Brute sideways but not to the other
    row (blue, VW-8.6)."""
    state = at(started(("red", "blue")), "main", P1)
    clear_board(state)
    (p,) = resources(state, P1, ready="P")
    unit = put(state, P1, (1, 1), unit_card(1, 1))
    brute = put(state, P1, (1, 3), unit_card(1, 4, keywords=("brute",)))
    refused(state, Move(seat=P1, unit=unit, to=(1, 2), exhaust=(p,)), "VW-7.5")
    refused(state, Move(seat=P1, unit=unit, to=(2, 2), exhaust=(p,)), "VW-7.5")
    RULES.apply(state, Recycle(seat=P1, resource=p, ability="forced_march", unit=brute,
                               to=(1, 4)))
    assert state.grid[(1, 4)] == brute
    state = at(started(("blue", "red")), "main", P1)
    clear_board(state)
    (p,) = resources(state, P1, ready="P")
    brute = put(state, P1, (1, 3), unit_card(1, 4, keywords=("brute",)))
    refused(state, Recycle(seat=P1, resource=p, ability="evasive_maneuvers", unit=brute,
                           to=(2, 4)), "VW-8.6")
    RULES.apply(state, Recycle(seat=P1, resource=p, ability="evasive_maneuvers", unit=brute,
                               to=(1, 2)))
    assert state.grid[(1, 2)] == brute


def test_vw_7_13_a_field_condition_goes_to_the_command_area_and_stays_active():
    """VW-7.13: paid from hand in the Main Phase, the Field Condition sits in the Command Area
    and its effect still holds turns later; outside the Main Phase, or for a card that is not
    a Field Condition, the play is refused naming VW-7.13."""
    state = at(started(), "main", P1)
    clear_board(state)
    (p,) = resources(state, P1, ready="P")
    unit = put(state, P1, (1, 1), unit_card(2, 2))
    field = in_hand(state, P1, field_card(defense=2))
    not_field = in_hand(state, P1, unit_card(1, 1, level=1, cost_p=1))
    refused(state, PlayFieldCondition(seat=P1, card=not_field, exhaust=(p,), returns=(p,)),
            "VW-7.13")
    at(state, "combat", P1)
    refused(state, PlayFieldCondition(seat=P1, card=field, exhaust=(p,), returns=(p,)),
            "VW-7.13")
    at(state, "main", P1)
    RULES.apply(state, PlayFieldCondition(seat=P1, card=field, exhaust=(p,), returns=(p,)))
    assert state.players[P1].field_condition == field and field not in state.players[P1].hand
    assert RULES.view(state, P2)["seats"][P1]["field_condition"]["id"] == field
    assert stats_of(state, unit) == (2, 4)
    for _ in range(3):
        idle(state)
    assert state.turn == 4 and stats_of(state, unit) == (2, 4)


def test_vw_7_15_equipment_is_linked_in_the_main_phase_to_a_unit_you_control():
    """VW-7.15: Link pays the Equipment's cost and installs it on your unit (its modifier
    applies); linking to an enemy unit, outside the Main Phase, or a card not in hand is
    refused naming VW-7.15."""
    state = at(started(), "main", P1)
    clear_board(state)
    (s,) = resources(state, P1, ready="S")
    mine = put(state, P1, (1, 1), unit_card(1, 1))
    enemy = put(state, P2, (3, 1), unit_card(1, 1))
    gear = in_hand(state, P1, gear_card(attack=2))
    theirs = in_hand(state, P2, gear_card(attack=2))
    refused(state, LinkEquipment(seat=P1, card=gear, unit=enemy, exhaust=(s,), returns=(s,)),
            "VW-7.15")
    refused(state, LinkEquipment(seat=P1, card=theirs, unit=mine, exhaust=(s,), returns=(s,)),
            "VW-7.15")
    at(state, "combat", P1)
    refused(state, LinkEquipment(seat=P1, card=gear, unit=mine, exhaust=(s,), returns=(s,)),
            "VW-7.15")
    at(state, "main", P1)
    changes = RULES.apply(state, LinkEquipment(seat=P1, card=gear, unit=mine, exhaust=(s,),
                                               returns=(s,)))
    (linked,) = of_kind(changes, "linked")
    assert (linked.card, linked.unit) == (gear, mine) and state.units[mine].equipment == gear
    assert stats_of(state, mine) == (3, 1) and state.players[P1].convoy[-1] == s


def test_vw_8_3_forced_march_keeps_the_row_is_free_even_for_heavy_and_moves_brutes():
    """VW-8.3: a Heavy unit is Forced-Marched to the next column with nothing exhausted; a
    diagonal or two-column step is refused naming VW-8.3, as is offering a payment; the
    destination must be empty (VW-2.4)."""
    state = at(started(("red", "blue")), "main", P1)
    clear_board(state)
    p, s = resources(state, P1, ready="PS")
    heavy = put(state, P1, (2, 3), unit_card(3, 3, keywords=("heavy",)))
    put(state, P1, (2, 2), unit_card(1, 1))
    for to in ((1, 4), (2, 5)):
        refused(state, Recycle(seat=P1, resource=p, ability="forced_march", unit=heavy, to=to),
                "VW-8.3")
    refused(state, Recycle(seat=P1, resource=p, ability="forced_march", unit=heavy, to=(2, 4),
                           exhaust=(s,)), "VW-8.3")
    refused(state, Recycle(seat=P1, resource=p, ability="forced_march", unit=heavy,
                           to=(2, 2)), "VW-2.4")
    RULES.apply(state, Recycle(seat=P1, resource=p, ability="forced_march", unit=heavy,
                               to=(2, 4)))
    assert state.grid[(2, 4)] == heavy and state.players[P1].area == {s: False}
