"""Card instance ids (engine.vitorian.setup): vitorian@1 names cards by their place in the deck
list, which a revealed card's id betrays; vitorian@2 deals every card a random id first
(engine:deal, our decision), so an id tells nothing about the list, and logs of vitorian@1 still
replay exactly as they did.
"""
from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.replay import Replay
from engine.ruleset import CHANCE, DEAL_RULE, RuleViolation, get_ruleset
from engine.vitorian.archetypes import ARCHETYPES, build_deck, starter_deck
from engine.vitorian.cards import load_catalog
from engine.vitorian.setup import labels_of
from engine.vitorian.state import State
from events.base import DeckEntry, DeckList, Header, Seat
from events.log import read_log
from events.vitorian import Deal, FirstPlayer

V1, V2 = get_ruleset("vitorian@1"), get_ruleset("vitorian@2")
OLD_LOGS = Path(__file__).parent / "v1_logs"
"""Logs the engine wrote before vitorian@2 existed (commit bf92725), and what it replayed them
to then (expected.json)."""


def match(deck: DeckList, rules=V2) -> Header:
    seats = [Seat(seat=0, player="ana", setup=deck),
             Seat(seat=1, player="bo", setup=starter_deck("blue"))]
    return Header(game="vitorian", ruleset=f"vitorian@{rules.version}", match_id="deal",
                  seats=seats)


def dealt(deck: DeckList, seed: int, rules=V2) -> State:
    """Seat 0 playing `deck` (seat 1 a starter), every card's id dealt with a seeded rng."""
    state = rules.setup(match(deck, rules))
    rng = random.Random(seed)
    while state.chance and state.chance[0][1] == "deal":
        rules.apply(state, rules.sample_chance(state, rng))
    return state


def first_copy(state: State, name: str) -> int:
    """The smallest id seat 0's cards of that name have."""
    return min(cid for cid, card in state.cards.items() if card.name == name and cid < 100)


def one_copy_moved(deck: DeckList, up: str, down: str) -> DeckList:
    """The deck with one copy of `down` traded for one more `up` (same size, still legal)."""
    ids = {name: card.id for name in (up, down) if (card := load_catalog().find(name))}
    moved = [DeckEntry(card=e.card, count=e.count + (e.card == ids[up]) - (e.card == ids[down]))
             for e in deck.section("maneuver")]
    return DeckList(name=deck.name, sections={**deck.sections, "maneuver": moved})


RED = starter_deck("red")
RED_TRADED = one_copy_moved(RED, "Crescent Armored Car", "Breach the Line")
"""Red with 4 Crescent Armored Car and 1 Breach the Line (3 and 2 in the starter); Full Steam
Ahead, listed between them, is the card an opponent sees revealed."""
REVEALED = "Full Steam Ahead"


# vitorian@1: ids by place in the list --------------------------------------------------------

def test_v1_ids_follow_the_list_so_a_revealed_card_tells_on_the_others():
    """Why vitorian@2 exists: under @1 one more copy of a card listed earlier shifts the id of
    every card after it, and a revealed Convoy card's id says how many [P] the list holds."""
    before, after = dealt(RED, 0, V1), dealt(RED_TRADED, 0, V1)
    assert first_copy(after, REVEALED) == first_copy(before, REVEALED) + 1
    p_count = sum(e.count for e in RED.section("convoy")
                  if load_catalog().by_id[e.card].resource == "P")
    assert all(before.cards[50 + i].resource == ("P" if i < p_count else "S") for i in range(10))
    assert before.players[0].deck == list(range(50)) and not before.chance[:-1]


def test_v1_refuses_a_deal():
    state = V1.setup(match(RED, V1))
    with pytest.raises(RuleViolation) as err:
        V1.apply(state, Deal(seat=0, labels=tuple(range(63))))
    assert err.value.rule == DEAL_RULE


@pytest.mark.parametrize("name", sorted(p.name for p in OLD_LOGS.glob("*.pglog")))
def test_old_logs_still_replay_exactly_as_before(name: str):
    """Same ids, same changes, same outcome, same final zones as the engine of bf92725 had."""
    want = json.loads((OLD_LOGS / "expected.json").read_text())[name]
    log = read_log(OLD_LOGS / name)
    assert log.header.ruleset == want["ruleset"] == "vitorian@1"
    replay = Replay(get_ruleset(log.header.ruleset), log.header, log.events)
    kinds: Counter[str] = Counter()
    for step in range(1, len(replay) + 1):
        replay.seek(step)
        kinds.update(change.kind for change in replay.changes)
    state, outcome = replay.seek(len(replay)), replay.outcome
    assert outcome is not None
    assert (len(log.events), outcome.winner, outcome.reason, outcome.rule, state.turn) == (
        want["events"], want["winner"], want["reason"], want["rule"], want["turn"])
    assert dict(kinds) == want["changes"]
    assert [{"hand": p.hand, "deck": len(p.deck), "discard": p.discard,
             "defense": len(p.defense), "convoy": p.convoy}
            for p in state.players] == want["seats"]
    assert sorted([u.id, u.row, u.col] for u in state.units.values()) == want["units"]


# vitorian@2: a random deal first --------------------------------------------------------------

def test_v2_awaits_one_deal_per_seat_before_the_first_player_draw():
    """Before the deals only the Sovereigns, public from the start, have ids."""
    state = V2.setup(match(RED))
    assert state.chance == [(0, "deal"), (1, "deal"), (-1, "first")]
    assert V2.awaiting(state) == (CHANCE,)
    assert not state.players[0].deck and sorted(state.cards) == [99, 199]
    assert state.cards[99].name == "Marechal Zahir"
    with pytest.raises(RuleViolation) as err:
        V2.apply(state, FirstPlayer(seat=0))
    assert err.value.rule == DEAL_RULE


@pytest.mark.parametrize("labels, why", [
    (tuple(range(62)), "one card short"),
    ((0, 0, *range(2, 63)), "an id twice"),
    (tuple(range(1, 64)), "an id outside the seat's"),
])
def test_a_deal_must_be_a_permutation_of_the_seats_labels(labels, why):
    state = V2.setup(match(RED))
    before = V2.view(state, "organiser")
    with pytest.raises(RuleViolation) as err:
        V2.apply(state, Deal(seat=0, labels=labels))
    assert err.value.rule == DEAL_RULE, why
    assert V2.view(state, "organiser") == before and state.chance[0] == (0, "deal")
    with pytest.raises(RuleViolation):
        V2.apply(state, Deal(seat=1, labels=tuple(range(100, 163))))  # seat 0 deals first


decks = st.builds(lambda archetype, seed: build_deck(archetype, random.Random(seed)),
                  st.sampled_from(ARCHETYPES), st.integers(0, 10**6))


@settings(max_examples=30, deadline=None)
@given(deck=decks, other=decks, seed=st.integers(0, 10**9))
def test_the_deal_depends_on_the_list_size_only(deck, other, seed):
    """For any two lists, the same rng deals the same labels whenever the sizes are equal (and
    the size is public: 60 + the Sovereign number): a deal cannot carry anything of the list."""
    a, b = V2.setup(match(deck)), V2.setup(match(other))
    deal_a, deal_b = (V2.sample_chance(s, random.Random(seed)) for s in (a, b))
    assert sorted(deal_a.labels) == labels_of(0, len(a.players[0].undealt))
    if len(a.players[0].undealt) == len(b.players[0].undealt):
        assert deal_a == deal_b


@settings(max_examples=30, deadline=None)
@given(deck=decks, seed=st.integers(0, 10**9))
def test_dealt_zones_hold_their_ids_in_label_order_not_list_order(deck, seed):
    """No order the engine keeps follows the list: each zone is sorted by id after the deal,
    and the ids are a permutation of the seat's labels over every card but the Sovereign."""
    state = dealt(deck, seed)
    player = state.players[0]
    for zone in (player.deck, player.convoy, player.defense):
        assert zone == sorted(zone)
    assert sorted(player.deck + player.convoy + player.defense) == labels_of(
        0, 60 + len(player.defense))
    assert Counter(state.cards[c].id for c in player.deck) == Counter(
        {e.card: e.count for e in deck.section("maneuver")})


def test_a_revealed_cards_id_has_the_same_law_whatever_else_the_list_holds():
    """Under @2 the id of the first Full Steam Ahead is spread alike over the seat's labels for
    both lists (total variation below 0.15 over 3000 deals each; under @1 it is 1: the ids
    differ every time)."""
    draws = 3000
    laws = [Counter(first_copy(dealt(deck, seed), REVEALED) for seed in range(draws))
            for deck in (RED, RED_TRADED)]
    labels = set(laws[0]) | set(laws[1])
    distance = sum(abs(laws[0][x] - laws[1][x]) for x in labels) / (2 * draws)
    assert distance < 0.15
    assert labels <= set(labels_of(0, 63))
    v1 = [first_copy(dealt(deck, 0, V1), REVEALED) for deck in (RED, RED_TRADED)]
    assert v1[0] != v1[1]


def test_a_deal_is_a_chance_outcome_hidden_from_the_seats():
    from engine.vitorian.narrate import NARRATION

    event = Deal(seat=0, labels=tuple(range(63)))
    assert list(NARRATION.event_data(match(RED), event, "organiser")["labels"]) == list(range(63))
    for who in (0, 1, "spectator"):
        assert NARRATION.event_data(match(RED), event, who) == {"type": "deal", "seat": 0, "hidden": True}
