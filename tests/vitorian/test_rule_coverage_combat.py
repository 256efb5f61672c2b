"""Vitorian Wars rules each exercised through the engine: the combat protocol (VW-9) and the
keywords that act in it (VW-10)."""
from __future__ import annotations

from engine.vitorian.cards import Destroy, Modify
from engine.vitorian.state import State
from events.vitorian import (
    Barrage,
    DeclareAttack,
    EndPhase,
    Gank,
    LinkEquipment,
    PassPriority,
    PlayOrder,
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
    kinds,
    of_kind,
    order_card,
    pass_combat,
    pass_until,
    refused,
)


def board(colors: tuple[str, str] = ("red", "blue")) -> State:
    state = started(colors)
    clear_board(state)
    return state


def link(state: State, seat: int, unit: int, gear: int, resource: int) -> None:
    """Link Equipment in the seat's Main Phase (it costs 1 [S], returned)."""
    at(state, "main", seat)
    RULES.apply(state, LinkEquipment(seat=seat, card=gear, unit=unit, exhaust=(resource,),
                                     returns=(resource,)))


def declare(state: State, attacker: int, target: int | None) -> list:
    at(state, "combat", P1)
    return RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=target))


def test_vw_9_1_combat_follows_its_five_steps_in_order():
    """VW-9.1: declaration, the Order Window (defender then attacker), Support Barrage (after
    the Ganking moves, VW-9.15), Damage Resolution, then Sovereign Impact."""
    state = board()
    attacker = put(state, P1, (2, 3), unit_card(5, 5, keywords=("piercing_ammo",)))
    target = put(state, P2, (3, 3), unit_card(1, 1))
    assert kinds(declare(state, attacker, target)) == ["attack"]
    windows, changes = [], []
    while state.combat is not None:
        windows.append((state.window, state.pending))
        changes = RULES.apply(state, PassPriority(seat=state.pending))
    assert windows == [("orders", P2), ("orders", P1), ("gank", P1), ("gank", P2),
                       ("barrage", P1), ("barrage", P2)]
    assert [k for k in kinds(changes) if k in ("damage", "destroyed", "sovereign_hit")] == [
        "damage", "destroyed", "sovereign_hit"]
    assert (state.window, state.pending) == ("combat", P1)


def test_vw_9_2_one_combat_at_a_time_and_the_phase_may_end_between_combats():
    """VW-9.2: while a combat runs no other attack may be declared (refused naming VW-9.2);
    once it has gone through all five steps the next is declared; the active player may then
    end the phase."""
    state = board()
    first = put(state, P1, (2, 1), unit_card(1, 1))
    second = put(state, P1, (2, 2), unit_card(1, 1))
    third = put(state, P1, (2, 3), unit_card(1, 1))
    declare(state, first, None)
    refused(state, DeclareAttack(seat=P1, attacker=second, target=None), "VW-9.2")
    RULES.apply(state, PassPriority(seat=P2))
    refused(state, DeclareAttack(seat=P1, attacker=second, target=None), "VW-9.2")
    pile = len(state.players[P2].defense)
    RULES.apply(state, PassPriority(seat=P1))
    assert state.combat is None and len(state.players[P2].defense) == pile - 1
    RULES.apply(state, DeclareAttack(seat=P1, attacker=second, target=None))
    pass_combat(state)
    changes = RULES.apply(state, EndPhase(seat=P1))
    assert [c.phase for c in of_kind(changes, "phase")] == ["end"]
    assert state.active == P2 and not state.units[third].attacked


def test_vw_9_9_declaring_an_attack_exhausts_the_attacker_unless_swift():
    """VW-9.9: at once on declaration (before any damage), the attacker is exhausted, a Swift
    attacker is not."""
    for keywords, exhausted in (((), True), (("swift",), False)):
        state = board()
        attacker = put(state, P1, (2, 1), unit_card(1, 1, keywords=keywords))
        declare(state, attacker, None)
        assert state.combat is not None and state.window == "orders"
        unit = next(u for u in RULES.view(state, P2)["units"] if u["id"] == attacker)
        assert unit["exhausted"] is exhausted and unit["attacked"]


def test_vw_9_10_the_target_is_fixed_and_a_combatant_leaving_voids_the_combat():
    """VW-9.10: the defender moves its target away by Evasive Maneuvers: it stays the target
    and is fought; an attacker destroyed by an Order before step 4 deals no damage and makes
    no Sovereign hit."""
    state = board(("red", "blue"))
    attacker = put(state, P1, (2, 1), unit_card(3, 3))
    target = put(state, P2, (3, 1), unit_card(1, 1))
    (p,) = resources(state, P2, ready="P")
    declare(state, attacker, target)
    RULES.apply(state, Recycle(seat=P2, resource=p, ability="evasive_maneuvers", unit=target,
                               to=(4, 2)))
    assert state.combat.target == target and state.grid[(4, 2)] == target
    (values,) = of_kind(pass_combat(state), "damage")
    assert values.target == target and target not in state.units
    state = board()
    attacker = put(state, P1, (2, 1), unit_card(3, 3, level=1))
    (s,) = resources(state, P2, ready="S")
    kill = in_hand(state, P2, order_card(Destroy(max_level=1, target="enemy_combatant")))
    pile = list(state.players[P2].defense)
    declare(state, attacker, None)
    RULES.apply(state, PlayOrder(seat=P2, card=kill, returns=(s,), target=attacker))
    changes = pass_combat(state)
    assert attacker not in state.units and "combat_void" in kinds(changes)
    assert "sovereign_hit" not in kinds(changes) and state.players[P2].defense == pile


def test_vw_9_11_the_defender_opens_the_order_window_then_the_attacker_plays():
    """VW-9.11: after the declaration only the defender may play an Order; once it passes the
    attacker may, and the defender no longer; after the stack resolves no Order may be added
    (VW-9.14): an Order out of turn is refused naming VW-9.11, one after the window closed
    naming VW-9.12 (Orders only in an Order Window)."""
    state = board()
    attacker = put(state, P1, (2, 1), unit_card(2, 2))
    target = put(state, P2, (3, 1), unit_card(1, 5))
    s1, s1b = resources(state, P1, ready="SS")
    (s2,) = resources(state, P2, ready="S")
    mine = in_hand(state, P1, order_card(Modify(target="own_combatant", attack=1)))
    late = in_hand(state, P1, order_card(Modify(target="own_combatant", attack=1)))
    theirs = in_hand(state, P2, order_card(Modify(target="own_combatant", defense=1)))
    declare(state, attacker, target)
    assert (state.window, state.pending) == ("orders", P2)
    refused(state, PlayOrder(seat=P1, card=mine, returns=(s1,), target=attacker), "VW-9.11")
    RULES.apply(state, PlayOrder(seat=P2, card=theirs, returns=(s2,), target=target))
    RULES.apply(state, PassPriority(seat=P2))
    assert state.pending == P1
    RULES.apply(state, PlayOrder(seat=P1, card=mine, returns=(s1,), target=attacker))
    RULES.apply(state, PassPriority(seat=P1))
    assert state.window == "gank" and state.combat.stack == []
    assert theirs in state.players[P2].discard and mine in state.players[P1].discard
    refused(state, PlayOrder(seat=P1, card=late, returns=(s1b,), target=attacker), "VW-9.12")


def test_vw_9_15_ganking_moves_come_first_the_attackers_then_the_defenders():
    """VW-9.15: step 3 opens with the attacker's Ganking moves (the defender may not move yet),
    then the defender's: its Ganking unit steps behind the target and then barrages from
    there, destroying the attacker."""
    state = board()
    attacker = put(state, P1, (2, 3), unit_card(3, 4))
    target = put(state, P2, (3, 3), unit_card(2, 3))
    ganker = put(state, P2, (4, 2), unit_card(2, 1, keywords=("ganking",)))
    (s,) = resources(state, P2, ready="S")
    declare(state, attacker, target)
    pass_until(state, "gank", P1)
    refused(state, Gank(seat=P2, unit=ganker, to=(4, 3)), "VW-9.15")
    RULES.apply(state, PassPriority(seat=P1))
    assert (state.window, state.pending) == ("gank", P2)
    RULES.apply(state, Gank(seat=P2, unit=ganker, to=(4, 3)))
    assert state.grid[(4, 3)] == ganker and state.units[ganker].exhausted
    pass_until(state, "barrage", P2)
    changes = RULES.apply(state, Barrage(seat=P2, supporter=ganker, resource=s))
    (values,) = of_kind(changes, "damage")  # the last step 3 decision: damage follows
    assert state.combat is None
    assert values.target_attack == 4 and attacker not in state.units


def test_vw_9_17_both_sides_barrage_the_attacker_first_from_behind_their_combatant():
    """VW-9.17: the attacker's Barrage window comes first, then the defender's (a defender's
    Barrage in the attacker's window is refused naming VW-9.17); each supporter is
    the Rear Guard unit behind its side's Vanguard combatant (another unit is refused naming
    VW-9.17); a target in the Rear Guard cannot be supported."""
    state = board()
    attacker = put(state, P1, (2, 3), unit_card(1, 9))
    behind = put(state, P1, (1, 3), unit_card(2, 1))
    beside = put(state, P1, (1, 5), unit_card(4, 1))
    target = put(state, P2, (3, 3), unit_card(1, 9))
    support = put(state, P2, (4, 3), unit_card(3, 1))
    (s1,) = resources(state, P1, ready="S")
    (s2,) = resources(state, P2, ready="S")
    declare(state, attacker, target)
    pass_until(state, "barrage", P1)
    refused(state, Barrage(seat=P2, supporter=support, resource=s2), "VW-9.17")
    refused(state, Barrage(seat=P1, supporter=beside, resource=s1), "VW-9.17")
    RULES.apply(state, Barrage(seat=P1, supporter=behind, resource=s1))
    assert (state.window, state.pending) == ("barrage", P2)
    changes = RULES.apply(state, Barrage(seat=P2, supporter=support, resource=s2))
    (values,) = of_kind(changes, "damage")
    assert (values.attack, values.target_attack) == (3, 4)
    state = board()
    attacker = put(state, P1, (2, 3), unit_card(1, 9))
    rear_target = put(state, P2, (4, 3), unit_card(1, 9))
    other = put(state, P2, (4, 4), unit_card(3, 1))
    (s2,) = resources(state, P2, ready="S")
    declare(state, attacker, rear_target)
    pass_until(state, "barrage", P2)
    refused(state, Barrage(seat=P2, supporter=other, resource=s2), "VW-9.17")


def test_vw_9_18_the_supporter_adds_its_current_attack_ready_or_not_and_is_not_exhausted():
    """VW-9.18: an exhausted supporter with +1 Equipment adds 3 and stays as it was; a ready
    one stays ready; with the Sovereign as target there is no Barrage window at all."""
    state = board()
    attacker = put(state, P1, (2, 3), unit_card(1, 9))
    supporter = put(state, P1, (1, 3), unit_card(2, 1), exhausted=True)
    target = put(state, P2, (3, 3), unit_card(0, 9))
    ready = put(state, P2, (4, 3), unit_card(1, 1))
    gear_s, s1 = resources(state, P1, ready="SS")
    (s2,) = resources(state, P2, ready="S")
    link(state, P1, supporter, in_hand(state, P1, gear_card(attack=1)), gear_s)
    declare(state, attacker, target)
    pass_until(state, "barrage", P1)
    (barraged,) = of_kind(RULES.apply(state, Barrage(seat=P1, supporter=supporter,
                                                     resource=s1)), "barrage")
    assert barraged.attack == 3 and state.units[supporter].exhausted
    changes = RULES.apply(state, Barrage(seat=P2, supporter=ready, resource=s2))
    assert not state.units[ready].exhausted
    (values,) = of_kind(changes, "damage")
    assert (values.attack, values.target_attack) == (4, 1)
    state = board()
    attacker = put(state, P1, (2, 3), unit_card(1, 1))
    put(state, P1, (1, 3), unit_card(2, 1))
    resources(state, P1, ready="S")
    declare(state, attacker, None)
    windows = []
    while state.combat is not None:
        windows.append(state.window)
        RULES.apply(state, PassPriority(seat=state.pending))
    assert windows == ["orders", "orders"]


def test_vw_9_22_combat_values_add_up_in_the_fixed_order():
    """VW-9.22: Attack = printed 2 + Equipment 1 + a resolved Order 1 + Barrage 2 = 6; Defense
    = 2 + 1 = 3. The flanked Reactive Armor target: Attack 0 - 1 counts as 0, Defense
    (3 - 1) x 2 = 4."""
    state = board()
    attacker = put(state, P1, (2, 3), unit_card(2, 2))
    put(state, P1, (2, 4), unit_card(1, 1))
    supporter = put(state, P1, (1, 3), unit_card(2, 1))
    target = put(state, P2, (3, 3), unit_card(0, 3, keywords=("reactive_armor",)))
    gear_s, order_s, barrage_s = resources(state, P1, ready="SSS")
    link(state, P1, attacker, in_hand(state, P1, gear_card(attack=1, defense=1)), gear_s)
    boost = in_hand(state, P1, order_card(Modify(target="own_combatant", attack=1)))
    declare(state, attacker, target)
    RULES.apply(state, PassPriority(seat=P2))
    RULES.apply(state, PlayOrder(seat=P1, card=boost, returns=(order_s,), target=attacker))
    pass_until(state, "barrage", P1)
    RULES.apply(state, Barrage(seat=P1, supporter=supporter, resource=barrage_s))
    (values,) = of_kind(pass_combat(state), "damage")
    assert (values.attack, values.defense, values.target_attack, values.target_defense) == (
        6, 3, 0, 4)
    assert target not in state.units and attacker in state.units


def test_vw_9_23_an_attack_of_zero_destroys_nothing_and_damage_never_persists():
    """VW-9.23: 0 Attack against a Defense flanked down to 0 destroys nothing, either way; a
    target that survives two attacks of 2 against its 3 Defense carries no damage over."""
    state = board()
    attacker = put(state, P1, (2, 3), unit_card(0, 3))
    put(state, P1, (2, 4), unit_card(1, 5))
    target = put(state, P2, (3, 3), unit_card(1, 1))
    declare(state, attacker, target)
    changes = pass_combat(state)
    (values,) = of_kind(changes, "damage")
    assert (values.attack, values.target_attack, values.target_defense) == (0, 0, 0)
    assert "destroyed" not in kinds(changes) and {attacker, target} <= set(state.units)
    state = board()
    first = put(state, P1, (2, 1), unit_card(2, 5))
    second = put(state, P1, (2, 2), unit_card(2, 5))
    target = put(state, P2, (3, 5), unit_card(1, 3, keywords=("entrench",)))
    for attacker in (first, second):
        declare(state, attacker, target)
        assert "destroyed" not in kinds(pass_combat(state))
    assert target in state.units


def test_vw_9_24_a_sovereign_hit_removes_the_top_card_of_the_defense_pile():
    """VW-9.24: the first card of the Defense Pile (its top) is the one removed."""
    state = board()
    attacker = put(state, P1, (2, 1), unit_card(1, 1))
    pile = list(state.players[P2].defense)
    declare(state, attacker, None)
    (hit,) = of_kind(pass_combat(state), "sovereign_hit")
    assert (hit.seat, hit.defense_lost, hit.defense_left) == (P2, 1, len(pile) - 1)
    assert state.players[P2].defense == pile[1:] and state.players[P2].removed == pile[:1]


def test_vw_9_25_each_hit_removes_exactly_one_card_whatever_the_attack():
    """VW-9.25: a 9 Attack on the Sovereign, and a Piercing 9 against a Defense of 1, each
    remove one Defense card, no more."""
    for piercing in (False, True):
        state = board()
        keywords = ("piercing_ammo",) if piercing else ()
        attacker = put(state, P1, (2, 1), unit_card(9, 9, keywords=keywords))
        target = put(state, P2, (3, 1), unit_card(0, 1)) if piercing else None
        pile = len(state.players[P2].defense)
        declare(state, attacker, target)
        hits = of_kind(pass_combat(state), "sovereign_hit")
        assert len(hits) == 1 and len(state.players[P2].defense) == pile - 1


def test_vw_10_3_vw_10_4_a_ganking_move_reinforces_the_declared_combat():
    """VW-10.3: Ganking moves a unit to an adjacent column only to reinforce a declared combat
    (outside step 3 it is refused naming VW-9.15); here the move makes it flank the target,
    which then falls where without the move it would have stood."""
    for gank in (False, True):
        state = board()
        attacker = put(state, P1, (2, 3), unit_card(2, 3))
        ganker = put(state, P1, (2, 5), unit_card(1, 1, keywords=("ganking",)))
        target = put(state, P2, (3, 3), unit_card(2, 3))
        at(state, "main", P1)
        refused(state, Gank(seat=P1, unit=ganker, to=(2, 4)), "VW-9.15")
        declare(state, attacker, target)
        pass_until(state, "gank", P1)
        if gank:
            changes = RULES.apply(state, Gank(seat=P1, unit=ganker, to=(2, 4)))
            assert of_kind(changes, "moved")[0].via == "ganking"
        pass_combat(state)
        assert (target in state.units) is not gank and attacker in state.units


def test_vw_10_6_an_entrench_unit_may_be_attacked_from_any_column():
    """VW-10.6: beside the column's own target the attacker may pick either Entrench unit, in
    any row and column; with the column empty they are the only targets (no Sovereign)."""
    state = board()
    attacker = put(state, P1, (2, 1), unit_card(3, 3))
    front = put(state, P2, (3, 1), unit_card(1, 1))
    far = put(state, P2, (4, 5), unit_card(1, 5, keywords=("entrench",)))
    near = put(state, P2, (3, 3), unit_card(1, 5, keywords=("entrench",)))
    at(state, "combat", P1)

    def targets() -> set:
        return {e.target for e in RULES.legal(state, P1) if isinstance(e, DeclareAttack)}

    assert targets() == {front, far, near}
    del state.units[front], state.grid[(3, 1)]
    assert targets() == {far, near}
    RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=far))
    assert state.combat.target == far


def test_vw_10_7_piercing_excess_damage_after_destroying_a_defender_is_a_sovereign_hit():
    """VW-10.7: a Piercing 4 against Defense 2 destroys it and hits the Sovereign; against
    Defense 4 it destroys it with no excess and no hit; a target saved by its Shield marker
    makes no hit either (VW-10.8)."""
    for defense, shield, hit in ((2, False, True), (4, False, False), (2, True, False)):
        state = board()
        attacker = put(state, P1, (2, 1), unit_card(4, 9, keywords=("piercing_ammo",)))
        target = put(state, P2, (3, 1), unit_card(0, defense))
        state.units[target].shield = shield
        pile = len(state.players[P2].defense)
        declare(state, attacker, target)
        changes = pass_combat(state)
        assert (target in state.units) is shield
        assert ("sovereign_hit" in kinds(changes)) is hit
        assert len(state.players[P2].defense) == pile - hit


def test_vw_10_14_a_keyword_gained_twice_counts_once():
    """VW-10.14: Reactive Armor printed on the unit and granted again by its Equipment doubles
    its Defense once, 3 to 6 (not 12: an Attack of 6 would still destroy it), and the unit
    shows the keyword once."""
    state = board()
    attacker = put(state, P1, (2, 1), unit_card(6, 9))
    target = put(state, P2, (3, 1), unit_card(0, 3, keywords=("reactive_armor",)))
    (s,) = resources(state, P2, ready="S")
    link(state, P2, target, in_hand(state, P2, gear_card(keywords=("reactive_armor",))), s)
    unit = next(u for u in RULES.view(state, P1)["units"] if u["id"] == target)
    assert unit["keywords"] == ["reactive_armor"]
    declare(state, attacker, target)
    (values,) = of_kind(pass_combat(state), "damage")
    assert values.target_defense == 6 and target not in state.units
