"""Vitorian Wars rules each exercised through the engine: the turn and the Diesel Economy
(VW-5, VW-6): phases, the Logistics steps, channeling, drawing, costs, recycling, Burn-out."""
from __future__ import annotations

from engine.vitorian.cards import Card, Modify, ReturnResources
from events.vitorian import (
    Barrage,
    DeclareAttack,
    EndPhase,
    LinkEquipment,
    Mobilize,
    Move,
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
    in_hand,
    put,
    resources,
    started,
    unit_card,
)
from tests.vitorian.test_rule_coverage import (
    gear_card,
    idle,
    kinds,
    of_kind,
    order_card,
    pass_combat,
    pass_until,
    refused,
    stats_of,
)

# VW-5 Turn structure ---------------------------------------------------------------------------


def test_vw_5_1_a_turn_runs_logistics_main_combat_end_in_order():
    """VW-5.1: turn 2 begins, its Logistics channel and draw, then the Main, Combat and End
    Phases follow in that order before turn 3 begins."""
    state = started()
    idle(state)  # to turn 2
    changes = list(RULES.apply(state, PassPriority(seat=P2)))
    changes += RULES.apply(state, EndPhase(seat=P2))
    changes += RULES.apply(state, EndPhase(seat=P2))
    steps = [c.kind if c.kind != "phase" else c.phase for c in changes]
    steps = [s for s in steps if s in ("draw", "main", "combat", "end", "turn")]
    assert steps == ["draw", "main", "combat", "end", "turn"]
    assert of_kind(changes, "turn")[0].turn == 3


def test_vw_5_2_logistics_readies_channels_and_takes_elite_upkeep():
    """VW-5.2: at the start of its turn the second player's exhausted unit and resources are
    ready again, three Convoy cards are channeled, and its Elite's upkeep is asked for."""
    state = started()
    clear_board(state)
    unit = put(state, P2, (3, 1), unit_card(1, 1), exhausted=True)
    elite = put(state, P2, (4, 1), unit_card(5, 5, level=5))
    area = resources(state, P2, exhausted="S")
    changes = idle(state)
    assert not state.units[unit].exhausted
    assert state.players[P2].area[area[0]] is False
    assert len(of_kind(changes, "channel")) == 3
    RULES.apply(state, PassPriority(seat=P2))
    assert (state.window, state.pending) == ("upkeep", P2)
    RULES.apply(state, PayUpkeep(seat=P2, payments=((elite, area[0]),)))
    assert elite in state.units and state.window == "main"


def test_vw_5_3_logistics_steps_ready_channel_recycle_upkeep_draw():
    """VW-5.3: after Ready and Channel the active player may recycle (the channeled cards are
    already in the Resource Area, no card drawn yet); then Elite Upkeep; then the Draw."""
    state = started()
    clear_board(state)
    elite = put(state, P2, (4, 1), unit_card(5, 5, level=5), exhausted=True)
    idle(state)  # to turn 2, the second player's
    player = state.players[P2]
    hand = len(player.hand)
    assert (state.window, state.pending) == ("channel", P2)
    assert len(player.area) == 6 and not state.units[elite].exhausted
    s = next(r for r in player.area if state.resource_kind(r) == "S")
    p = next(r for r in player.area if state.resource_kind(r) == "P")
    RULES.apply(state, Recycle(seat=P2, resource=p))
    assert len(player.hand) == hand and state.window == "channel"
    RULES.apply(state, PassPriority(seat=P2))
    assert state.window == "upkeep" and len(player.hand) == hand
    changes = RULES.apply(state, PayUpkeep(seat=P2, payments=((elite, s),)))
    assert kinds(changes)[:1] == ["draw"] and len(player.hand) == hand + 1
    assert state.window == "main"


def test_vw_5_4_the_main_phase_takes_its_actions_in_any_order_and_number():
    """VW-5.4: in one Main Phase: a move, a Link, a mobilization, the Field Condition, another
    mobilization and another move, as far as the resources go."""
    state = at(started(), "main", P1)
    clear_board(state)
    ids = resources(state, P1, ready="PPPPPSSS")
    first = put(state, P1, (1, 1), unit_card(2, 2))
    RULES.apply(state, Move(seat=P1, unit=first, to=(2, 1), exhaust=(ids[0],)))
    gear = in_hand(state, P1, gear_card(attack=1))
    RULES.apply(state, LinkEquipment(seat=P1, card=gear, unit=first, exhaust=(ids[5],),
                                     returns=(ids[5],)))
    unit = in_hand(state, P1, unit_card(1, 1, level=1, cost_p=1))
    RULES.apply(state, Mobilize(seat=P1, card=unit, cell=(1, 2), exhaust=(ids[1],),
                                returns=(ids[1],)))
    field = in_hand(state, P1, Card(id="TEST-FIELD", name="Test Field", type="field_condition",
                                    color="gold", level=1, cost_s=1,
                                    effect=Modify(target="field", defense=1,
                                                  until="permanent")))
    RULES.apply(state, PlayFieldCondition(seat=P1, card=field, exhaust=(ids[6],),
                                          returns=(ids[6],)))
    other = in_hand(state, P1, unit_card(1, 1, level=1, cost_p=1))
    RULES.apply(state, Mobilize(seat=P1, card=other, cell=(2, 3), exhaust=(ids[2],),
                                returns=(ids[2],)))
    RULES.apply(state, Move(seat=P1, unit=state.grid[(1, 2)], to=(2, 2), exhaust=(ids[3],)))
    assert state.window == "main" and len(state.units) == 3
    assert stats_of(state, first) == (3, 3)


def test_vw_5_6_the_end_phase_expires_until_end_of_turn_effects():
    """VW-5.6: Motor Overload's +2/+0 and Bayonet Charge last through the Combat Phase and are
    gone once the End Phase has cleaned up; permanent Equipment stays."""
    state = at(started(("red", "blue")), "main", P1)
    clear_board(state)
    s, s2 = resources(state, P1, ready="SS")
    tank = put(state, P1, (1, 1), unit_card(3, 3, types=("armored",)))
    gear = in_hand(state, P1, gear_card(defense=1))
    RULES.apply(state, LinkEquipment(seat=P1, card=gear, unit=tank, exhaust=(s2,),
                                     returns=(s2,)))
    RULES.apply(state, Recycle(seat=P1, resource=s, ability="motor_overload", unit=tank))
    assert stats_of(state, tank) == (5, 4)
    RULES.apply(state, EndPhase(seat=P1))
    assert stats_of(state, tank) == (5, 4)
    changes = RULES.apply(state, EndPhase(seat=P1))
    assert [c.phase for c in of_kind(changes, "phase")][:1] == ["end"]
    assert stats_of(state, tank) == (3, 4)
    assert "bayonet_charge" not in RULES.view(state, P2)["units"][0]["keywords"]


def test_vw_5_7_cleanup_resets_per_turn_flags_and_keeps_any_hand_size():
    """VW-5.7: newly mobilized, moved and attacked flags reset at cleanup, the recycle becomes
    available again next turn, and a hand of 20 cards is not cut down."""
    state = at(started(), "main", P1)
    clear_board(state)
    p, p2, r = resources(state, P1, ready="PPS")
    mover = put(state, P1, (1, 1), unit_card(1, 1))
    attacker = put(state, P1, (2, 2), unit_card(1, 1))
    card = in_hand(state, P1, unit_card(1, 1, level=1, cost_p=1))
    RULES.apply(state, Mobilize(seat=P1, card=card, cell=(1, 3), exhaust=(p,), returns=(p,)))
    RULES.apply(state, Move(seat=P1, unit=mover, to=(2, 1), exhaust=(p2,)))
    RULES.apply(state, Recycle(seat=P1, resource=r))
    RULES.apply(state, EndPhase(seat=P1))
    RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=None))
    pass_combat(state)
    for _ in range(14):
        in_hand(state, P1, unit_card(1, 1))
    hand = list(state.players[P1].hand)
    assert len(hand) == 20
    view = RULES.view(state, P1)
    assert view["seats"][P1]["recycled_this_turn"]
    assert {(u["new"], u["moved"], u["attacked"]) for u in view["units"]} == {
        (True, False, False), (False, True, False), (False, False, True)}
    RULES.apply(state, EndPhase(seat=P1))
    view = RULES.view(state, P1)
    assert all(not (u["new"] or u["moved"] or u["attacked"]) for u in view["units"])
    assert not view["seats"][P1]["recycled_this_turn"]
    assert state.players[P1].hand == hand and state.players[P1].discard == []


def test_vw_5_8_main_and_combat_end_when_the_active_player_passes():
    """VW-5.8: only the active player ends its Main Phase, then its Combat Phase (which ends the
    turn); ending a phase is refused naming VW-5.8 during the Logistics Phase or for the other
    seat."""
    state = started()
    refused(state, EndPhase(seat=P1), "VW-5.8")
    RULES.apply(state, PassPriority(seat=P1))
    assert (state.window, state.pending) == ("main", P1)
    refused(state, EndPhase(seat=P2), "VW-5.8")
    RULES.apply(state, EndPhase(seat=P1))
    assert (state.window, state.pending) == ("combat", P1)
    refused(state, EndPhase(seat=P2), "VW-5.8")
    changes = RULES.apply(state, EndPhase(seat=P1))
    assert [c.phase for c in of_kind(changes, "phase")] == ["end"]
    assert (state.turn, state.active) == (2, P2)


def test_vw_5_9_sovereign_abilities_resolve_at_once_without_the_stack():
    """VW-5.9: a Motor Overload made in the Order Window applies at once (the view shows +2)
    and never goes on the stack, while an Order played there waits on it until both pass."""
    state = started(("red", "blue"))
    clear_board(state)
    tank = put(state, P1, (2, 1), unit_card(3, 3, types=("armored",)))
    target = put(state, P2, (3, 1), unit_card(1, 9))
    s, s2 = resources(state, P1, ready="SS")
    boost = in_hand(state, P1, order_card(Modify(target="own_combatant", attack=1)))
    at(state, "combat", P1)
    RULES.apply(state, DeclareAttack(seat=P1, attacker=tank, target=target))
    RULES.apply(state, PassPriority(seat=P2))
    RULES.apply(state, PlayOrder(seat=P1, card=boost, returns=(s2,), target=tank))
    assert stats_of(state, tank) == (3, 3) and len(state.combat.stack) == 1
    RULES.apply(state, Recycle(seat=P1, resource=s, ability="motor_overload", unit=tank))
    assert stats_of(state, tank) == (5, 3)
    assert [entry.card for entry in state.combat.stack] == [boost]
    RULES.apply(state, PassPriority(seat=P1))
    assert stats_of(state, tank) == (6, 3)


# VW-6 Logistics --------------------------------------------------------------------------------


def test_vw_6_1_personnel_moves_troops_and_supplies_fuel_machines():
    """VW-6.1: a standard move takes a [P], not an [S] (VW-7.6); a Barrage and Elite Upkeep
    take an [S], not a [P] (VW-9.16, VW-6.9)."""
    state = at(started(), "main", P1)
    clear_board(state)
    p, s = resources(state, P1, ready="PS")
    unit = put(state, P1, (1, 2), unit_card(1, 1))
    refused(state, Move(seat=P1, unit=unit, to=(2, 2), exhaust=(s,)), "VW-7.6")
    RULES.apply(state, Move(seat=P1, unit=unit, to=(2, 2), exhaust=(p,)))
    state = started()
    clear_board(state)
    attacker = put(state, P1, (2, 3), unit_card(2, 2))
    supporter = put(state, P1, (1, 3), unit_card(2, 1))
    target = put(state, P2, (3, 3), unit_card(1, 3))
    p, s = resources(state, P1, ready="PS")
    at(state, "combat", P1)
    RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=target))
    pass_until(state, "barrage", P1)
    refused(state, Barrage(seat=P1, supporter=supporter, resource=p), "VW-9.16")
    RULES.apply(state, Barrage(seat=P1, supporter=supporter, resource=s))
    state = started()
    clear_board(state)
    elite = put(state, P1, (1, 1), unit_card(5, 5, level=5))
    (p,) = resources(state, P1, ready="P")
    RULES.apply(state, PassPriority(seat=P1))
    refused(state, PayUpkeep(seat=P1, payments=((elite, p),)), "VW-6.9")


def test_vw_6_2_each_resource_card_is_ready_or_exhausted():
    """VW-6.2: every card of a Resource Area is shown ready or exhausted; paying flips the
    paid ones to exhausted and leaves the others ready."""
    state = at(started(), "main", P1)
    clear_board(state)
    p, s, s2 = resources(state, P1, ready="PSS")
    card = in_hand(state, P1, unit_card(2, 2, level=2, cost_p=1))
    RULES.apply(state, Mobilize(seat=P1, card=card, cell=(1, 1), exhaust=(p, s), returns=(p,)))
    for perspective in (P1, P2, "spectator"):
        shown = RULES.view(state, perspective)["seats"][P1]["resources"]
        assert [(r["id"], r["kind"], r["exhausted"]) for r in shown] == [
            (s, "S", True), (s2, "S", False)]


def test_vw_6_3_the_ready_step_readies_only_your_own_cards():
    """VW-6.3: at the second player's Ready step its exhausted units and resources are ready
    again; the first player's stay exhausted."""
    state = started()
    clear_board(state)
    mine = put(state, P2, (3, 1), unit_card(1, 1), exhausted=True)
    theirs = put(state, P1, (2, 1), unit_card(1, 1), exhausted=True)
    (own,) = resources(state, P2, exhausted="P")
    (other,) = resources(state, P1, exhausted="S")
    idle(state)
    assert not state.units[mine].exhausted and state.players[P2].area[own] is False
    assert state.units[theirs].exhausted and state.players[P1].area[other] is True


def test_vw_6_4_channel_reveals_the_top_two_convoy_cards_ready_to_both_seats():
    """VW-6.4: from its second turn on, a player channels the top 2 Convoy cards, ready, and
    both seats see which they are."""
    state = started()
    idle(state)  # to turn 2
    player = state.players[P1]
    top = player.convoy[:2]
    changes = idle(state)  # turn 3, the first player's second
    assert (state.turn, state.window, state.pending) == (3, "channel", P1)
    channeled = of_kind(changes, "channel")
    assert [(c.seat, c.card) for c in channeled] == [(P1, top[0]), (P1, top[1])]
    assert all(c.secret_to is None for c in channeled)
    assert all(player.area[c] is False for c in top) and not set(top) & set(player.convoy)
    shown = {r["id"] for r in RULES.view(state, P2)["seats"][P1]["resources"]}
    assert set(top) <= shown


def test_vw_6_6_a_short_convoy_is_channeled_whole_without_burn_out():
    """VW-6.6: with one card left where two are due, that card is channeled and there is no
    Burn-out."""
    state = started()
    idle(state)
    player = state.players[P1]
    del player.convoy[1:]
    (last,) = player.convoy
    changes = idle(state)
    assert [c.card for c in of_kind(changes, "channel")] == [last]
    assert "burn_out" not in kinds(changes) and not player.skip_next
    assert player.convoy == [] and player.area[last] is False


def test_vw_6_7_the_draw_takes_the_top_maneuver_card_after_channeling():
    """VW-6.7: when the channel step is passed the top Maneuver card goes to the hand, seen
    only by its owner."""
    state = started()
    player = state.players[P1]
    top = player.deck[0]
    changes = RULES.apply(state, PassPriority(seat=P1))
    (drew,) = of_kind(changes, "draw")
    assert (drew.card, drew.secret_to) == (top, P1) and player.hand[-1] == top


def test_vw_6_17_move_and_barrage_costs_stay_exhausted_in_the_resource_area():
    """VW-6.17: the [P] of a move and the [S] of a Barrage stay, exhausted, in the Resource
    Area (the Convoy does not change) and are ready again at the next Ready step."""
    state = started()
    clear_board(state)
    attacker = put(state, P1, (1, 3), unit_card(2, 2))
    supporter_cell = (1, 3)
    target = put(state, P2, (3, 3), unit_card(1, 5))
    p, s = resources(state, P1, ready="PS")
    convoy = list(state.players[P1].convoy)
    at(state, "main", P1)
    RULES.apply(state, Move(seat=P1, unit=attacker, to=(2, 3), exhaust=(p,)))
    supporter = put(state, P1, supporter_cell, unit_card(1, 1))
    at(state, "combat", P1)
    RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=target))
    pass_until(state, "barrage", P1)
    RULES.apply(state, Barrage(seat=P1, supporter=supporter, resource=s))
    pass_combat(state)
    assert state.players[P1].area == {p: True, s: True}
    assert state.players[P1].convoy == convoy
    idle(state)
    idle(state)
    assert state.players[P1].area[p] is False and state.players[P1].area[s] is False


def test_vw_6_19_payments_and_card_effects_into_the_convoy_are_not_recycles():
    """VW-6.19: a printed cost paid into the Convoy and a Return Resources Order do not count as
    the turn's recycle and trigger no Sovereign ability; the recycle is still there after."""
    state = started(("red", "blue"))
    clear_board(state)
    attacker = put(state, P1, (2, 1), unit_card(1, 1))
    p, s, tired1, tired2 = resources(state, P1, ready="PS", exhausted="PS")
    card = in_hand(state, P1, unit_card(1, 1, level=1, cost_p=1))
    at(state, "main", P1)
    changes = RULES.apply(state, Mobilize(seat=P1, card=card, cell=(1, 1), exhaust=(p,),
                                          returns=(p,)))
    assert "to_convoy" in kinds(changes) and "recycled" not in kinds(changes)
    scrap = in_hand(state, P1, order_card(ReturnResources(count=2), name="Test Scrap"))
    at(state, "combat", P1)
    RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=None))
    RULES.apply(state, PassPriority(seat=P2))
    RULES.apply(state, PlayOrder(seat=P1, card=scrap, returns=(s,), choice=(tired1, tired2)))
    changes = pass_combat(state)
    assert state.players[P1].convoy[-2:] == [tired1, tired2]
    assert "recycled" not in kinds(changes) and "moved" not in kinds(changes)
    assert not RULES.view(state, P1)["seats"][P1]["recycled_this_turn"]
    mobilized = state.grid[(1, 1)]
    (last,) = resources(state, P1, ready="P")
    changes = RULES.apply(state, Recycle(seat=P1, resource=last, ability="forced_march",
                                         unit=mobilized, to=(1, 2)))
    assert kinds(changes) == ["recycled", "moved"]


def test_vw_6_22_ready_or_exhausted_may_be_recycled_and_its_type_decides():
    """VW-6.22: an exhausted [S] fuels Motor Overload and a ready [P] Forced March; an
    exhausted [P] cannot fuel Motor Overload (VW-8.4)."""
    state = at(started(("red", "blue")), "main", P1)
    clear_board(state)
    tank = put(state, P1, (1, 1), unit_card(3, 3, types=("armored",)))
    (tired_p, tired_s) = resources(state, P1, exhausted="PS")
    refused(state, Recycle(seat=P1, resource=tired_p, ability="motor_overload", unit=tank),
            "VW-8.4")
    RULES.apply(state, Recycle(seat=P1, resource=tired_s, ability="motor_overload", unit=tank))
    assert stats_of(state, tank) == (5, 3)
    state = at(started(("red", "blue")), "main", P1)
    clear_board(state)
    unit = put(state, P1, (1, 1), unit_card(1, 1))
    (ready_p,) = resources(state, P1, ready="P")
    RULES.apply(state, Recycle(seat=P1, resource=ready_p, ability="forced_march", unit=unit,
                               to=(1, 2)))
    assert state.grid[(1, 2)] == unit and state.players[P1].convoy[-1] == ready_p


def _burning(elite: bool = True):
    """Turn 2 played out; the first player's Convoy is empty, its Resource Area one ready [P]
    and one exhausted [S], and (elite) it has an exhausted Elite: turn 3 is about to begin."""
    state = started()
    clear_board(state)
    idle(state)
    state.players[P1].convoy.clear()
    area = resources(state, P1, ready="P", exhausted="S")
    unit = put(state, P1, (1, 1), unit_card(5, 5, level=5), exhausted=True) if elite else None
    return state, area, unit


def test_vw_6_24_vw_6_26_burn_out_reshuffles_the_whole_area_and_the_turn_goes_on():
    """VW-6.24, VW-6.26: with no Convoy card to channel, nothing is channeled; every Resource
    Area card (here one left exhausted last turn) is shuffled, a chance outcome over exactly
    those cards, into the new Convoy; the turn goes on with Elite Upkeep (no resource left,
    the Elite is lost), the Draw and the Main Phase."""
    state, (p, s), elite = _burning()
    hand = len(state.players[P1].hand)
    changes = idle(state)
    (burn,) = of_kind(changes, "burn_out")
    assert burn.seat == P1 and burn.reshuffled == 2
    assert [c for c in of_kind(changes, "channel") if c.seat == P1] == []
    assert state.chance == [(P1, "convoy")] and state.players[P1].area == {}
    refused(state, Shuffle(seat=P1, zone="convoy", order=(p,)), "VW-4.2")
    RULES.apply(state, Shuffle(seat=P1, zone="convoy", order=(s, p)))
    assert state.players[P1].convoy == [s, p]
    assert (state.window, state.pending) == ("upkeep", P1)
    RULES.apply(state, PayUpkeep(seat=P1))
    assert elite not in state.units
    assert state.window == "main" and len(state.players[P1].hand) == hand + 1


def test_vw_6_25_vw_6_27_burn_out_loses_the_next_turn_which_has_no_phases():
    """VW-6.25, VW-6.27: the next own turn after a Burn-out is lost: nothing readies, channels
    or draws in it, and it still counts in the turn number."""
    state, _, _ = _burning(elite=False)
    idle(state)  # turn 3: the Burn-out
    assert state.players[P1].skip_next
    unit = put(state, P1, (1, 2), unit_card(1, 1), exhausted=True)
    idle(state)  # turn 3 ends
    player = state.players[P1]
    before = (list(player.hand), list(player.convoy), dict(player.area))
    changes = idle(state)  # turn 4 ends; turn 5 is skipped, turn 6 begins
    turns = [(c.turn, c.seat) for c in of_kind(changes, "turn")]
    assert turns == [(5, P1), (6, P2)] and "turn_skipped" in kinds(changes)
    assert (list(player.hand), list(player.convoy), dict(player.area)) == before
    assert state.units[unit].exhausted and not player.skip_next
    changes = idle(state)  # turn 7: the first player's turns resume, channeling 2
    assert (state.turn, state.active) == (7, P1)
    assert [c.seat for c in of_kind(changes, "channel")] == [P1, P1]
