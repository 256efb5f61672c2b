"""Vitorian Wars rules each exercised through the engine: the match frame, the battlefield and
its zones, setup and the end of a match (VW-1, VW-2, VW-3.9, VW-3.12, VW-4, VW-12).

The other topics are in test_rule_coverage_<topic>.py (turn, main, combat), which share the
helpers defined here. Every test names the rule IDs it exercises in its docstring; a refusal is
checked by the rule ID the engine names and by the state it leaves untouched.
"""
from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import pytest

from engine.ruleset import CHANCE, RuleViolation, UnsupportedRule
from engine.vitorian import zones
from engine.vitorian.cards import Card, Modify
from engine.vitorian.state import State
from events.base import Header, Seat
from events.vitorian import (
    Concede,
    DeclareAttack,
    EndPhase,
    FirstPlayer,
    KeepHand,
    LinkEquipment,
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
    header,
    in_hand,
    put,
    resources,
    started,
    unit_card,
)

# Shared helpers ------------------------------------------------------------------------------


def refused(state: State, event: Any, rule: str) -> RuleViolation:
    """The event is refused naming `rule`, and the state is left as it was."""
    before = RULES.view(state, "organiser")
    with pytest.raises(RuleViolation) as err:
        RULES.apply(state, event)
    assert err.value.rule == rule, str(err.value)
    assert str(err.value).startswith(f"{rule}: ")
    assert RULES.view(state, "organiser") == before
    return err.value


def apply_all(state: State, events: Iterable[Any]) -> list[Any]:
    changes: list[Any] = []
    for event in events:
        changes += RULES.apply(state, event)
    return changes


def pass_combat(state: State) -> list[Any]:
    """Every seat passes every window of the running combat; the changes made."""
    changes: list[Any] = []
    while state.combat is not None and not state.over:
        changes += RULES.apply(state, PassPriority(seat=state.pending))
    return changes


def pass_until(state: State, window: str, seat: int) -> None:
    """Pass the combat's windows until `seat` is awaited in `window`."""
    while (state.window, state.pending) != (window, seat):
        assert state.combat is not None, f"the combat ended before {window} for {seat}"
        RULES.apply(state, PassPriority(seat=state.pending))


def idle(state: State, rng: random.Random | None = None) -> list[Any]:
    """Play the current turn out doing nothing (channel passed, upkeep unpaid, phases ended,
    chance outcomes drawn): the changes made up to the start of the next turn."""
    rng = rng or random.Random(0)
    turn, changes = state.turn, []
    while state.turn == turn and not state.over:
        if state.chance:
            event: Any = RULES.sample_chance(state, rng)
        elif state.window in ("main", "combat"):
            event = EndPhase(seat=state.pending)
        elif state.window == "upkeep":
            event = PayUpkeep(seat=state.pending)
        else:
            event = PassPriority(seat=state.pending)
        changes += RULES.apply(state, event)
    return changes


def kinds(changes: Iterable[Any]) -> list[str]:
    return [change.kind for change in changes]


def of_kind(changes: Iterable[Any], kind: str) -> list[Any]:
    return [change for change in changes if change.kind == kind]


def stats_of(state: State, uid: int) -> tuple[int, int]:
    """(Attack, Defense) of a unit as the engine shows it."""
    unit = next(u for u in RULES.view(state, "organiser")["units"] if u["id"] == uid)
    return unit["attack"], unit["defense"]


def order_card(effect: Any, *, cost_p: int = 0, cost_s: int = 1,
               name: str = "Test Order") -> Card:
    return Card(id=f"TEST-{name}", name=name, type="order", color="gray", cost_p=cost_p,
                cost_s=cost_s, effect=effect)


def gear_card(attack: int = 0, defense: int = 0, keywords: tuple[str, ...] = ()) -> Card:
    return Card(id=f"TEST-GEAR-{attack}-{defense}", name=f"Test Gear {attack}/{defense}",
                type="equipment", color="gray", level=1, cost_s=1,
                effect=Modify(target="linked", attack=attack, defense=defense,
                              keywords=keywords, until="permanent"))  # type: ignore[arg-type]


def card_ids(data: Any) -> set[int]:
    """Every int a view holds under an "id" or "card" key (how views name card instances)."""
    found: set[int] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ("id", "card") and isinstance(value, int) and not isinstance(value, bool):
                found.add(value)
            found |= card_ids(value)
    elif isinstance(data, list):
        for value in data:
            found |= card_ids(value)
    return found


def shuffled_setup(orders: dict[tuple[int, str], list[int]] | None = None,
                   first: int = P1) -> State:
    """Setup up to the first mulligan decision, each shuffle giving the order `orders` says
    (default: the zone reversed)."""
    state = RULES.setup(header())
    RULES.apply(state, FirstPlayer(seat=first))
    orders = orders or {}
    while state.chance:
        seat, zone = state.chance[0]
        cards = state.players[seat].deck if zone == "maneuver" else state.players[seat].convoy
        order = orders.get((seat, zone), list(reversed(cards)))
        RULES.apply(state, Shuffle(seat=seat, zone=zone, order=tuple(order)))
    return state


# VW-1 Objective and match frame ----------------------------------------------------------------


def test_vw_1_1_a_match_has_exactly_two_players():
    """VW-1.1: a header with one seat, or with seats other than 0 and 1, is refused at setup;
    a concession by a seat that does not exist is refused; the two seats are first and second
    player."""
    good = header()
    for seats in ([good.seats[0]],
                  [good.seats[0], Seat(seat=2, player="third", setup=good.seats[1].setup)]):
        bad = Header(game="vitorian", ruleset="vitorian@1", match_id="x", seats=seats)
        with pytest.raises(RuleViolation) as err:
            RULES.setup(bad)
        assert err.value.rule == "VW-1.1"
    state = started(first=P2)
    assert (state.first, state.active) == (P2, P2)
    refused(state, Concede(seat=2), "VW-1.1")


def test_vw_1_2_the_sovereign_falls_to_the_hit_after_its_pile_is_empty():
    """VW-1.2 (and VW-9.26): reducing the Defense Pile to zero does not win; the next hit on the
    Sovereign does."""
    state = started()
    clear_board(state)
    first = put(state, P1, (2, 1), unit_card(1, 1))
    second = put(state, P1, (2, 2), unit_card(1, 1))
    state.players[P2].defense = state.players[P2].defense[:1]
    at(state, "combat", P1)
    RULES.apply(state, DeclareAttack(seat=P1, attacker=first, target=None))
    pass_combat(state)
    assert state.players[P2].defense == [] and not state.over
    RULES.apply(state, DeclareAttack(seat=P1, attacker=second, target=None))
    changes = pass_combat(state)
    assert "sovereign_fell" in kinds(changes)
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.winner == P1 and outcome.rule == "VW-9.26"


def test_vw_1_3_a_card_text_the_engine_cannot_apply_is_refused_naming_vw_1_3():
    """VW-1.3: card text beats the rules, so an Order whose text the engine has no effect for
    is refused as unsupported (not played as if it said nothing)."""
    state = started()
    clear_board(state)
    attacker = put(state, P1, (2, 1), unit_card(1, 1))
    target = put(state, P2, (3, 1), unit_card(1, 1))
    (s,) = resources(state, P2, ready="S")
    unknown = in_hand(state, P2, Card(id="TEST-UNREAD", name="Unread Order", type="order",
                                      color="gray", cost_s=1, text="Something new."))
    at(state, "combat", P1)
    RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=target))
    before = RULES.view(state, "organiser")
    with pytest.raises(UnsupportedRule) as err:
        RULES.apply(state, PlayOrder(seat=P2, card=unknown, returns=(s,), target=target))
    assert err.value.rule == "VW-1.3"
    assert RULES.view(state, "organiser") == before


def test_vw_1_3_of_two_conflicting_effects_the_one_that_forbids_wins():
    """VW-1.3: Piercing Ammo says the Sovereign is hit, Entrench forbids it: no hit (VW-9.27);
    Swift keeps an attacker ready, the once-per-turn limit forbids a second attack (VW-9.4)."""
    state = started()
    clear_board(state)
    attacker = put(state, P1, (2, 1), unit_card(6, 6, keywords=("piercing_ammo", "swift")))
    target = put(state, P2, (3, 1), unit_card(1, 1))
    put(state, P2, (4, 5), unit_card(0, 1, keywords=("entrench",)))
    pile = list(state.players[P2].defense)
    at(state, "combat", P1)
    RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=target))
    changes = pass_combat(state)
    assert target not in state.units and "entrenched" in kinds(changes)
    assert state.players[P2].defense == pile
    assert not state.units[attacker].exhausted
    refused(state, DeclareAttack(seat=P1, attacker=attacker, target=state.grid[(4, 5)]),
            "VW-9.4")


# VW-2 Battlefield and zones --------------------------------------------------------------------


def test_vw_2_1_the_battlefield_is_a_grid_of_four_rows_and_five_columns():
    """VW-2.1: the cells each player may mobilize to are its two rows of five columns, and the
    two players' cells make up the 4x5 grid; a sixth column does not exist."""
    cells: set[tuple[int, int]] = set()
    for seat in (P1, P2):
        state = at(started(), "main", seat)
        clear_board(state)
        (p,) = resources(state, seat, ready="P")
        card = in_hand(state, seat, unit_card(1, 1, level=1, cost_p=1))
        cells |= {e.cell for e in RULES.legal(state, seat)
                  if isinstance(e, Mobilize) and e.card == card}
        refused(state, Mobilize(seat=seat, card=card, cell=(state.rear_row(seat), 6),
                                exhaust=(p,), returns=(p,)), "VW-7.3")
    assert cells == {(row, col) for row in range(1, 5) for col in range(1, 6)}


def test_vw_2_2_each_player_sees_its_rear_guard_then_vanguard_then_the_enemy_rows():
    """VW-2.2: for the second player row 4 is its Rear Guard and row 3 its Vanguard, and the
    first player's row 2 is the enemy front line it meets before row 1."""
    state = at(started(first=P1), "combat", P2)
    clear_board(state)
    rear = put(state, P2, (4, 1), unit_card(2, 2))
    vanguard = put(state, P2, (3, 2), unit_card(2, 2))
    enemy_rear = put(state, P1, (1, 2), unit_card(1, 1))
    enemy_front = put(state, P1, (2, 2), unit_card(1, 1))
    refused(state, DeclareAttack(seat=P2, attacker=rear, target=None), "VW-9.3")
    refused(state, DeclareAttack(seat=P2, attacker=vanguard, target=enemy_rear), "VW-9.5")
    RULES.apply(state, DeclareAttack(seat=P2, attacker=vanguard, target=enemy_front))
    assert state.combat is not None and state.combat.target == enemy_front


def test_vw_2_3_cells_are_absolute_in_the_first_players_frame():
    """VW-2.3: when seat 1 plays first its rows are 1-2 and seat 0's are 3-4; the log and the
    changes name cells that way for everyone, and column c faces column c."""
    state = at(started(first=P2), "main", P2)
    clear_board(state)
    (p,) = resources(state, P2, ready="P")
    card = in_hand(state, P2, unit_card(2, 2, level=1, cost_p=1))
    refused(state, Mobilize(seat=P2, card=card, cell=(4, 1), exhaust=(p,), returns=(p,)),
            "VW-7.3")
    changes = RULES.apply(state, Mobilize(seat=P2, card=card, cell=(2, 3), exhaust=(p,),
                                          returns=(p,)))
    assert of_kind(changes, "mobilized")[0].cell == (2, 3)
    for perspective in (P1, P2, "spectator"):
        (unit,) = RULES.view(state, perspective)["units"]
        assert (unit["row"], unit["col"]) == (2, 3)
    facing = put(state, P1, (3, 3), unit_card(1, 1))
    put(state, P1, (3, 4), unit_card(1, 1))
    state.units[state.grid[(2, 3)]].new = False
    at(state, "combat", P2)
    assert [e.target for e in RULES.legal(state, P2) if isinstance(e, DeclareAttack)] == [facing]


def test_vw_2_4_vw_2_5_adjacent_columns_flank_and_evasive_neighbours_include_diagonals():
    """VW-2.5: an ally in a column next to the target's flanks it (-1/-1), one two columns away
    does not; Evasive Maneuvers reaches the 8 neighbouring cells, diagonals included, and no
    farther; an occupied neighbour is refused (VW-2.4)."""
    for ally_col, expected in ((5, (3, 3)), (4, (2, 2))):
        state = started()
        clear_board(state)
        attacker = put(state, P1, (2, 3), unit_card(1, 9))
        put(state, P1, (1, ally_col), unit_card(1, 1))
        target = put(state, P2, (3, 3), unit_card(3, 3))
        at(state, "combat", P1)
        RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=target))
        (values,) = of_kind(pass_combat(state), "damage")
        assert (values.target_attack, values.target_defense) == expected
    state = at(started(("blue", "red")), "main", P1)
    clear_board(state)
    (p1,) = resources(state, P1, ready="P")
    unit = put(state, P1, (1, 2), unit_card(1, 1))
    put(state, P1, (2, 2), unit_card(1, 1))
    refused(state, Recycle(seat=P1, resource=p1, ability="evasive_maneuvers", unit=unit,
                           to=(2, 4)), "VW-8.6")
    refused(state, Recycle(seat=P1, resource=p1, ability="evasive_maneuvers", unit=unit,
                           to=(2, 2)), "VW-2.4")
    RULES.apply(state, Recycle(seat=P1, resource=p1, ability="evasive_maneuvers", unit=unit,
                               to=(2, 3)))
    assert state.grid[(2, 3)] == unit


def test_vw_2_6_the_command_area_holds_the_sovereign_and_its_defense_pile():
    """VW-2.6: each Command Area holds the Sovereign and 3 to 5 Defense cards, as many as its
    Sovereign number (red 3, white 4)."""
    state = started(("red", "white"))
    for seat, player in enumerate(state.players):
        assert len(player.defense) == player.sovereign.sovereign_number
        assert 3 <= len(player.defense) <= 5
        seen = RULES.view(state, 1 - seat)["seats"][seat]
        assert seen["sovereign"] == {"card": player.sovereign.id, "name": player.sovereign.name,
                                     "number": player.sovereign.sovereign_number}
        assert seen["defense_count"] == len(player.defense)
    assert [len(p.defense) for p in state.players] == [3, 4]


def test_vw_2_8_destroyed_units_resolved_orders_and_detached_equipment_go_to_the_discard():
    """VW-2.8: a unit destroyed in combat goes to its owner's Discard Pile with its Equipment,
    and a resolved Order to its player's; all of it public."""
    state = started()
    clear_board(state)
    attacker = put(state, P1, (2, 1), unit_card(5, 5))
    target = put(state, P2, (3, 1), unit_card(1, 1))
    s1, s2 = resources(state, P2, ready="SS")
    at(state, "main", P2)
    gear = in_hand(state, P2, gear_card(defense=1))
    RULES.apply(state, LinkEquipment(seat=P2, card=gear, unit=target, exhaust=(s1,),
                                     returns=(s1,)))
    order = in_hand(state, P2, order_card(Modify(target="own_combatant", defense=1)))
    at(state, "combat", P1)
    RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=target))
    RULES.apply(state, PlayOrder(seat=P2, card=order, returns=(s2,), target=target))
    pass_combat(state)
    assert target not in state.units
    assert state.players[P2].discard == [order, target, gear]
    assert state.players[P1].discard == []
    shown = [c["id"] for c in RULES.view(state, "spectator")["seats"][P2]["discard"]]
    assert shown == [order, target, gear]


def test_vw_2_9_defense_cards_removed_by_hits_leave_the_match_face_down():
    """VW-2.9: the removed Defense card goes to no zone of play (not the Discard Pile) and no
    perspective but the organiser's ever sees it."""
    state = started()
    clear_board(state)
    attacker = put(state, P1, (2, 1), unit_card(1, 1))
    top = state.players[P2].defense[0]
    at(state, "combat", P1)
    RULES.apply(state, DeclareAttack(seat=P1, attacker=attacker, target=None))
    pass_combat(state)
    player = state.players[P2]
    assert player.removed == [top] and top not in player.defense
    assert top not in player.discard and top not in player.hand + player.deck + player.convoy
    for perspective in (P1, P2, "spectator"):
        assert top not in card_ids(RULES.view(state, perspective))


# VW-3 Components (as the engine deals them) -----------------------------------------------------


def test_vw_3_9_the_defense_pile_comes_from_outside_the_maneuver_deck():
    """VW-3.9: after setup all 50 Maneuver cards are in hand or deck, and the Defense Pile is
    made of other, Protection, cards."""
    state = started()
    for player in state.players:
        maneuver = player.hand + player.deck
        assert len(maneuver) == 50
        assert not set(player.defense) & set(maneuver)
        assert all(state.cards[c].resource == "protection" for c in player.defense)
        assert all(state.cards[c].type not in ("resource", "sovereign") for c in maneuver)


def test_vw_3_12_defense_cards_never_enter_the_resource_area_and_a_resource_counts_one():
    """VW-3.12: over several turns only value-1 [P]/[S] cards reach the Resource Area; a
    Defense card cannot pay (VW-6.15); a Level 2 card takes exactly two value-1 resources."""
    state = started()
    rng = random.Random(4)
    for _ in range(6):
        idle(state, rng)
        for player in state.players:
            assert {state.cards[r].resource for r in player.area} <= {"P", "S"}
            assert all(state.cards[r].value == 1 for r in player.area)
    seat = state.active
    at(state, "main", seat)
    clear_board(state)
    p, s = resources(state, seat, ready="PS")
    protection = state.players[seat].defense[0]
    card = in_hand(state, seat, unit_card(2, 2, level=2, cost_p=1))
    cell = (state.rear_row(seat), 1)
    refused(state, Mobilize(seat=seat, card=card, cell=cell, exhaust=(p, protection),
                            returns=(p,)), "VW-6.15")
    refused(state, Mobilize(seat=seat, card=card, cell=cell, exhaust=(p,), returns=(p,)),
            "VW-6.12")
    RULES.apply(state, Mobilize(seat=seat, card=card, cell=cell, exhaust=(p, s), returns=(p,)))


# VW-4 Setup ----------------------------------------------------------------------------------


def test_vw_4_1_who_plays_first_is_a_logged_chance_outcome():
    """VW-4.1: setup awaits the first-player draw from chance (no seat may act before it); it
    names seat 0 or 1 and that seat plays first."""
    state = RULES.setup(header())
    assert RULES.awaiting(state) == (CHANCE,) and RULES.legal(state, P1) == []
    refused(state, Mulligan(seat=P1), "VW-4.2")
    refused(state, FirstPlayer(seat=2), "VW-4.1")
    changes = RULES.apply(state, FirstPlayer(seat=P2))
    assert kinds(changes) == ["first_player"] and changes[0].seat == P2
    assert state.first == P2


def test_vw_4_3_the_defense_pile_is_face_down_and_the_sovereign_face_up():
    """VW-4.3: each player's Defense Pile holds as many Protection cards as the Sovereign
    number, hidden from both seats; both Sovereigns are shown to everyone."""
    state = shuffled_setup()
    for seat, player in enumerate(state.players):
        assert len(player.defense) == player.sovereign.sovereign_number
        for perspective in (P1, P2, "spectator"):
            view = RULES.view(state, perspective)
            assert view["seats"][seat]["sovereign"]["card"] == player.sovereign.id
            assert not set(player.defense) & card_ids(view)


def test_vw_4_4_each_player_starts_with_the_top_three_convoy_cards_ready():
    """VW-4.4: the first three cards of the shuffled Convoy go, ready, to the Resource Area."""
    state = shuffled_setup()
    for player in state.players:
        order = sorted(list(player.area) + player.convoy, reverse=True)
        assert list(player.area) == order[:3]
        assert all(tired is False for tired in player.area.values())
        assert player.convoy == order[3:]


def test_vw_4_5_each_player_draws_six_from_the_shuffled_maneuver_deck():
    """VW-4.5: the opening hand is the top six cards of the shuffled Maneuver Deck."""
    state = shuffled_setup()
    for player in state.players:
        order = sorted(player.hand + player.deck, reverse=True)
        assert player.hand == order[:6] and player.deck == order[6:]
    assert (state.window, state.pending) == ("mulligan", P1)
    RULES.apply(state, KeepHand(seat=P1))
    RULES.apply(state, KeepHand(seat=P2))
    assert [len(p.hand) for p in state.players] == [6, 6]


def test_vw_4_10_turns_alternate_from_the_first_player_and_are_numbered():
    """VW-4.10: turn 1 is the first player's (here seat 1); turns then alternate, numbered
    1, 2, 3, 4."""
    state = started(first=P2)
    assert (state.turn, state.active) == (1, P2)
    seen = [(1, P2)]
    for _ in range(3):
        began = of_kind(idle(state), "turn")
        seen += [(c.turn, c.seat) for c in began]
    assert seen == [(1, P2), (2, P1), (3, P2), (4, P1)]


# VW-12 Victory, defeat and match end ----------------------------------------------------------


def test_vw_12_2_burn_out_alone_never_loses():
    """VW-12.2: a player whose Convoy and Resource Area are both empty burns out and plays on;
    so does one whose next turn is lost to it."""
    state = started()
    idle(state)  # to turn 2, the second player's
    state.players[P1].convoy.clear()
    state.players[P1].area.clear()
    changes = idle(state)
    assert "burn_out" in kinds(changes) and not state.over
    assert (state.turn, state.window, state.pending) == (3, "main", P1)
    changes = idle(state) + idle(state)
    assert "turn_skipped" in kinds(changes) and not state.over and state.turn == 6
    assert RULES.outcome(state) is None


def test_vw_12_5_no_winner_after_turn_60_is_a_draw_skipped_turns_included():
    """VW-12.5: the end of turn 60 ends the match as a draw; a skipped turn 60 counts like any
    other (VW-6.27)."""
    state = started()
    state.turn = 58
    idle(state)
    idle(state)
    assert (state.turn, state.over) == (60, False)
    changes = idle(state)
    assert state.over and kinds(changes)[-1] == "match_over"
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.winner is None and outcome.rule == "VW-12.5"
    skipping = started()
    skipping.turn = 58
    idle(skipping)
    assert skipping.turn == 59
    skipping.players[1 - skipping.active].skip_next = True
    changes = idle(skipping)
    assert kinds(changes)[-2:] == ["turn_skipped", "match_over"]
    outcome = RULES.outcome(skipping)
    assert outcome is not None and outcome.winner is None and outcome.rule == "VW-12.5"


def test_vw_12_6_both_players_losing_at_the_same_moment_is_a_draw():
    """VW-12.6: a second loss at the moment of the first (the seat that was winning loses too)
    turns the result into a draw. The engine's zones.lose implements it; no single event of
    today's catalog makes both players lose, so it is exercised on the engine function."""
    state = started()
    out: list[Any] = []
    zones.lose(state, P2, "deck_out", "VW-12.3", out)
    assert RULES.outcome(state).winner == P1
    zones.lose(state, P1, "sovereign_fell", "VW-9.26", out)
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.winner is None
    assert (outcome.reason, outcome.rule) == ("both_lose", "VW-12.6")
    assert kinds(out) == ["match_over", "match_over"] and out[-1].seat is None
    refused(state, Concede(seat=P1), "VW-12.1")

