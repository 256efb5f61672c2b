"""Every worked example of the Vitorian Wars spec, on the numbers it states."""
from __future__ import annotations

import pytest

from engine.ruleset import RuleViolation
from engine.vitorian.cards import Card, Modify
from engine.vitorian.state import State
from events.vitorian import (
    Concede,
    DeclareAttack,
    EndPhase,
    KeepHand,
    Mobilize,
    Mulligan,
    PassPriority,
    PayUpkeep,
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
    in_hand,
    put,
    resources,
    started,
    unit_card,
)


def pass_combat(state) -> None:
    while state.combat is not None and not state.over:
        RULES.apply(state, PassPriority(seat=state.pending))


def attack(state, attacker: int, target: int | None) -> None:
    at(state, "combat", P1)
    RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=target))
    pass_combat(state)


def test_example_1_level_3_cost_p1_returns_the_p_and_leaves_two_s_exhausted():
    """VW-6.12 to VW-6.14."""
    state = at(started(), "main", P1)
    p1, p2, s1, s2 = resources(state, P1, ready="PPSS")
    card = in_hand(state, P1, unit_card(2, 2, level=3, cost_p=1))
    RULES.apply(state, Mobilize(seat=P1, card=card, cell=(2, 1), exhaust=(p1, s1, s2),
                                returns=(p1,)))
    player = state.players[P1]
    assert player.convoy[-1] == p1
    assert player.area == {p2: False, s1: True, s2: True}


def test_example_2_level_5_returns_p_and_s_in_chosen_order_three_stay_exhausted():
    state = at(started(), "main", P1)
    ids = resources(state, P1, ready="PPPSS")
    card = in_hand(state, P1, unit_card(5, 5, level=5, cost_p=1, cost_s=1))
    p, s = ids[0], ids[3]
    RULES.apply(state, Mobilize(seat=P1, card=card, cell=(1, 1), exhaust=tuple(ids),
                                returns=(s, p)))
    player = state.players[P1]
    assert player.convoy[-2:] == [s, p]
    assert sorted(player.area.values()) == [True, True, True]


def test_example_3_order_pays_only_its_cost_and_only_in_an_order_window():
    """VW-6.16, VW-9.12."""
    state = started()
    clear_board(state)
    attacker = put(state, P1, (2, 1), unit_card(1, 9))
    put(state, P2, (3, 1), unit_card(1, 9))
    p, s = resources(state, P2, ready="PS")
    order = in_hand(state, P2, Card(id="TEST-ORDER", name="Hold Fast", type="order", cost_s=1,
                                    color="gray", effect=Modify(target="own_combatant",
                                                                defense=1)))
    at(state, "combat", P1)
    RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=state.grid[(3, 1)]))
    assert (state.window, state.pending) == ("orders", P2)
    RULES.apply(state, PlayOrder(seat=P2, card=order, returns=(s,), target=state.grid[(3, 1)]))
    assert state.players[P2].convoy[-1] == s and state.players[P2].area == {p: False}
    main = started()
    at(main, "main", P1)
    (s2,) = resources(main, P1, ready="S")
    card = in_hand(main, P1, state.cards[order])
    with pytest.raises(RuleViolation) as err:
        RULES.apply(main, PlayOrder(seat=P1, card=card, returns=(s2,)))
    assert err.value.rule == "VW-9.12"


def test_example_4_opening_channels_one_then_three():
    """VW-6.5, VW-6.8."""
    state = started()
    p1, p2 = state.players
    assert len(p2.area) == 3 and len(p2.convoy) == 7
    RULES.apply(state, PassPriority(seat=P1))
    assert (len(p1.area), len(p1.convoy), len(p1.hand)) == (4, 6, 7)
    RULES.apply(state, EndPhase(seat=P1))
    RULES.apply(state, EndPhase(seat=P1))
    assert state.turn == 2
    RULES.apply(state, PassPriority(seat=P2))
    assert (len(p2.area), len(p2.convoy), len(p2.hand)) == (6, 4, 7)


def test_example_5_london_mulligan_twice_bottoms_two():
    """VW-4.6, VW-4.7."""
    from events.vitorian import FirstPlayer
    from tests.vitorian.scenario import header
    state = RULES.setup(header())
    RULES.apply(state, FirstPlayer(seat=P1))
    while state.chance:
        RULES.apply(state, RULES.sample_chance(state, __import__("random").Random(1)))
    for _ in range(2):
        RULES.apply(state, Mulligan(seat=P1))
        seat, zone = state.chance[0]
        RULES.apply(state, Shuffle(seat=seat, zone=zone, order=tuple(state.players[P1].deck)))
    hand = state.players[P1].hand
    RULES.apply(state, KeepHand(seat=P1, bottom=(hand[0], hand[1])))
    assert len(state.players[P1].hand) == 4 and len(state.players[P1].deck) == 46


def test_example_6_flanking():
    """VW-10.1, VW-10.2: the defender becomes 2/3, is destroyed; the attacker survives."""
    state = started()
    clear_board(state)
    attacker = put(state, P1, (2, 3), unit_card(4, 3))
    put(state, P1, (1, 2), unit_card(1, 1))
    target = put(state, P2, (3, 3), unit_card(3, 4))
    attack(state, attacker, target)
    assert target not in state.units and attacker in state.units


def test_example_7_tie_destroys_both():
    """VW-9.20, VW-9.21."""
    state = started()
    clear_board(state)
    attacker = put(state, P1, (2, 3), unit_card(3, 3))
    target = put(state, P2, (3, 3), unit_card(3, 3))
    attack(state, attacker, target)
    assert attacker not in state.units and target not in state.units


def test_example_8_piercing_ammo_hits_the_sovereign_once():
    """VW-10.8."""
    state = started()
    clear_board(state)
    attacker = put(state, P1, (2, 3), unit_card(5, 2, keywords=("piercing_ammo",)))
    target = put(state, P2, (3, 3), unit_card(2, 3))
    state.players[P2].defense = [9001, 9002, 9003]
    attack(state, attacker, target)
    assert target not in state.units and attacker not in state.units
    assert len(state.players[P2].defense) == 2


def test_example_9_reactive_armor_and_barrage():
    """VW-10.10, VW-9.16 to VW-9.19: (3-1)x2 = 4 holds a 3 attack; a 2-attack Barrage breaks it."""
    state = started()
    clear_board(state)
    attacker = put(state, P1, (2, 3), unit_card(3, 2))
    put(state, P1, (2, 4), unit_card(0, 1))
    target = put(state, P2, (3, 3), unit_card(1, 3, keywords=("reactive_armor",)))
    attack(state, attacker, target)
    assert target in state.units
    state = started()
    clear_board(state)
    attacker = put(state, P1, (2, 3), unit_card(3, 2))
    put(state, P1, (2, 4), unit_card(0, 1))
    supporter = put(state, P1, (1, 3), unit_card(2, 1))
    target = put(state, P2, (3, 3), unit_card(1, 3, keywords=("reactive_armor",)))
    (s,) = resources(state, P1, ready="S")
    at(state, "combat", P1)
    RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=target))
    while state.window != "barrage":
        RULES.apply(state, PassPriority(seat=state.pending))
    from events.vitorian import Barrage
    RULES.apply(state, Barrage(seat=P1, supporter=supporter, resource=s))
    pass_combat(state)
    assert target not in state.units
    assert state.players[P1].area[s] is True


def test_example_10_entrench_is_the_only_target():
    """VW-9.7, VW-9.8."""
    state = started()
    clear_board(state)
    attacker = put(state, P1, (2, 1), unit_card(3, 3))
    entrench = put(state, P2, (3, 5), unit_card(1, 5, keywords=("entrench",)))
    at(state, "combat", P1)
    with pytest.raises(RuleViolation) as err:
        RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=None))
    assert err.value.rule == "VW-9.8"
    RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=entrench))


def test_example_11_long_range_skips_the_vanguard():
    """VW-10.12, VW-9.6."""
    state = started()
    clear_board(state)
    attacker = put(state, P1, (2, 2), unit_card(2, 2, keywords=("long_range",)))
    put(state, P2, (3, 2), unit_card(5, 5))
    state.players[P2].defense = [9001, 9002, 9003, 9004]
    attack(state, attacker, None)
    assert len(state.players[P2].defense) == 3
    state = started()
    clear_board(state)
    attacker = put(state, P1, (2, 2), unit_card(2, 2, keywords=("long_range",)))
    put(state, P2, (3, 2), unit_card(5, 5))
    rear = put(state, P2, (4, 2), unit_card(1, 1))
    at(state, "combat", P1)
    with pytest.raises(RuleViolation):
        RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=None))
    RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=rear))


def test_example_12_final_hit_wins():
    """VW-9.26, VW-12.1."""
    state = started()
    clear_board(state)
    attacker = put(state, P1, (2, 2), unit_card(1, 1))
    state.players[P2].defense = []
    attack(state, attacker, None)
    assert RULES.outcome(state).winner == P1 and RULES.outcome(state).rule == "VW-9.26"
    with pytest.raises(RuleViolation) as err:
        RULES.apply(state, Concede(seat=P2))
    assert err.value.rule == "VW-12.1"


def test_example_13_elite_upkeep_one_paid_one_destroyed():
    """VW-6.9, VW-6.10."""
    state = started()
    clear_board(state)
    elite_a = put(state, P1, (1, 1), unit_card(5, 5, level=5))
    elite_b = put(state, P1, (1, 2), unit_card(6, 6, level=6))
    (s,) = resources(state, P1, ready="S")
    RULES.apply(state, PassPriority(seat=P1))
    assert state.window == "upkeep"
    RULES.apply(state, PayUpkeep(seat=P1, payments=((elite_a, s),)))
    assert elite_a in state.units and elite_b not in state.units
    assert state.window == "main"


def test_example_14_burn_out_skips_the_next_turn():
    """VW-6.24 to VW-6.27: Convoy 7 -> 6 -> 4 -> 2 -> 0, burn-out on turn 9, skip turn 11."""
    import random
    state = started(first=P1)
    rng = random.Random(3)
    sizes = {}
    while state.turn < 13 and not state.over:
        if state.chance:
            RULES.apply(state, RULES.sample_chance(state, rng))
            continue
        seat = state.pending
        if seat == P1 or state.window in ("channel", "orders", "gank", "barrage"):
            event = PassPriority(seat=seat) if state.window != "main" and \
                state.window != "combat" else EndPhase(seat=seat)
            if state.window == "upkeep":
                event = PayUpkeep(seat=seat)
        else:
            event = EndPhase(seat=seat)
        RULES.apply(state, event)
        sizes[state.turn] = len(state.players[P1].convoy)
    assert [sizes[t] for t in (1, 3, 5, 7)] == [6, 4, 2, 0]
    assert sizes[9] == 10 and len(state.players[P1].area) == 2
    assert state.turn == 13


def recycling_a_heavy(colors: tuple[str, str], cell: tuple[int, int], *, ready: str = "",
                      exhausted: str = "") -> tuple[State, int, list[int]]:
    """P1's main phase on an otherwise empty board: one heavy 3/3 of P1's at `cell` and the
    Resource Area `ready` / `exhausted` (as in `resources`). The state, the unit, the resources."""
    state = started(colors)
    clear_board(state)
    heavy = put(state, P1, cell, unit_card(3, 3, keywords=("heavy",)))
    area = resources(state, P1, ready=ready, exhausted=exhausted)
    at(state, "main", P1)
    return state, heavy, area


def test_example_15_red_recycles():
    """VW-8.2 to VW-8.4."""
    state, heavy, (p, s) = recycling_a_heavy(("red", "blue"), (2, 3), exhausted="PS")
    RULES.apply(state, Recycle(seat=P1, resource=p, ability="forced_march", unit=heavy,
                               to=(2, 4)))
    assert state.grid[(2, 4)] == heavy and state.players[P1].area == {s: True}
    state.turn += 2
    armored = put(state, P1, (2, 1), unit_card(3, 3, types=("armored",)), new=True)
    RULES.apply(state, Recycle(seat=P1, resource=s, ability="motor_overload", unit=armored))
    view = {u["id"]: u for u in RULES.view(state, "organiser")["units"]}
    assert (view[armored]["attack"], view[armored]["defense"]) == (5, 3)
    RULES.apply(state, EndPhase(seat=P1))
    RULES.apply(state, DeclareAttack(seat=P1, attacker=armored, target=None))


def test_example_16_blue_evasive_heavy_pays_one_s():
    """VW-8.5, VW-8.6."""
    state, heavy, (p, s) = recycling_a_heavy(("blue", "red"), (1, 2), ready="PS")
    RULES.apply(state, Recycle(seat=P1, resource=p, ability="evasive_maneuvers", unit=heavy,
                               to=(2, 3), exhaust=(s,)))
    assert state.grid[(2, 3)] == heavy and state.players[P1].area == {s: True}


def test_example_17_green_circular_logistics_returns_to_the_top():
    """VW-8.10: the [S] goes on top and is channeled again next turn."""
    state = started(("green", "red"))
    clear_board(state)
    p, s, extra = resources(state, P1, ready="PSP")
    at(state, "main", P1)
    RULES.apply(state, Recycle(seat=P1, resource=extra, ability="circular_logistics"))
    card = in_hand(state, P1, unit_card(2, 2, level=2, cost_s=1))
    RULES.apply(state, Mobilize(seat=P1, card=card, cell=(1, 1), exhaust=(p, s), returns=(s,)))
    assert state.players[P1].convoy[0] == s
    RULES.apply(state, EndPhase(seat=P1))
    RULES.apply(state, EndPhase(seat=P1))
    while state.active != P1 or state.window not in ("channel", "main"):
        if state.chance:
            RULES.apply(state, RULES.sample_chance(state, __import__("random").Random(0)))
        elif state.window in ("main", "combat"):
            RULES.apply(state, EndPhase(seat=state.pending))
        else:
            RULES.apply(state, PassPriority(seat=state.pending))
    assert s in state.players[P1].area
