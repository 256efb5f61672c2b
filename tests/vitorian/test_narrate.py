"""The Vitorian narration (engine.vitorian.narrate, words, changes): each step told in the game's
words, with names, and with each perspective's secrets kept: a draw is named to its seat and the
organiser only, a shuffle's order to the organiser only, bottomed and Aerial Recon cards to their
seat, counted for everyone else."""
from __future__ import annotations

import random
import typing

import msgspec
import pytest

from engine.narration import narration_for
from engine.ruleset import OMNISCIENT, SPECTATOR, Outcome, Perspective
from engine.vitorian import changes as ch
from engine.vitorian.changes import VitorianChange
from engine.vitorian.narrate import EVENT_WORDS, NARRATION
from engine.vitorian.state import State
from engine.vitorian.words import CHANGE_WORDS
from events.base import Header
from events.vitorian import Event, KeepHand, Mobilize, Recycle, Shuffle
from pipeline.facts.vitorian import _HANDLERS, PLAYED
from tests.vitorian.scenario import (
    P1,
    P2,
    RULES,
    at,
    header,
    in_hand,
    resources,
    started,
    unit_card,
)

HEADER = header(("blue", "red"))
EVERYONE: tuple[Perspective, ...] = (OMNISCIENT, P1, P2, SPECTATOR)
ME, YOU = HEADER.seats[P1].player, HEADER.seats[P2].player


def told(state: State, event, perspective: Perspective) -> tuple[str, list[str]]:
    """Apply `event`; what `perspective` is told of it: the event, then the changes listed."""
    changes = RULES.apply(state, event)
    words = [NARRATION.change_text(HEADER, state, c, perspective) for c in changes]
    return (NARRATION.event_text(HEADER, state, event, perspective),
            [w for w in words if w is not None])


def test_the_game_registers_this_narration_with_its_perspectives():
    assert narration_for("vitorian") is NARRATION
    assert NARRATION.perspectives(HEADER) == [
        (OMNISCIENT, "Organiser (sees everything)"), (0, f"Seat 0 · {ME}"),
        (1, f"Seat 1 · {YOU}"), (SPECTATOR, "Spectator (public)")]


def test_every_event_and_change_kind_has_words():
    assert set(EVENT_WORDS) == set(typing.get_args(Event))
    kinds = {cls for cls in vars(ch).values() if isinstance(cls, type)
             and issubclass(cls, VitorianChange) and cls is not VitorianChange}
    assert set(CHANGE_WORDS) == kinds


def test_the_lake_counts_change_kinds_that_exist():
    """pipeline/facts/vitorian.py dispatches on these tags: renaming one would drop rows."""
    tags = {cls.__struct_config__.tag for cls in CHANGE_WORDS}
    assert set(_HANDLERS) <= tags and set(PLAYED) <= tags
    assert {"draw", "kept", "turn", "destroyed", "attack", "sovereign_hit",
            "sovereign_fell", "mobilized", "linked", "field_condition", "order_played"} <= tags


def test_a_mobilization_names_the_unit_the_cell_and_the_resources_paid():
    state = at(started(("blue", "red")), "main", P1)
    ps = resources(state, P1, ready="PPS")
    card = in_hand(state, P1, unit_card(2, 2, level=3, cost_p=1))
    event = Mobilize(seat=P1, card=card, cell=(2, 3), exhaust=tuple(ps), returns=(ps[0],))
    for who in EVERYONE:
        text, changes = told(state.copy(), event, who)
        assert text == f"{ME} mobilizes Test 2/2 to row 2, column 3, paying P P S"
        assert changes == [f"{ME} puts P on the bottom of the Supply Convoy",
                           "Test 2/2 enters the battlefield at row 2, column 3"]


def test_a_draw_is_named_to_its_seat_and_the_organiser_only():
    draw = ch.Drew(seat=P1, card=5, name="Cloud Cadets", secret_to=P1)
    state = started(("blue", "red"))
    for who in (P1, OMNISCIENT):
        assert NARRATION.change_text(HEADER, state, draw, who) == f"{ME} draws Cloud Cadets"
        assert NARRATION.change_data(HEADER, draw, who)["card"] == 5
    for who in (P2, SPECTATOR):
        assert NARRATION.change_text(HEADER, state, draw, who) == f"{ME} draws a card"
        assert NARRATION.change_data(HEADER, draw, who) == {"kind": "draw", "seat": P1,
                                                    "secret_to": P1}


def test_a_shuffle_reads_as_seen_with_its_order_for_the_organiser_only():
    state = RULES.setup(HEADER)
    RULES.apply(state, RULES.sample_chance(state, random.Random(1)))
    deck = state.players[P1].deck
    event = Shuffle(seat=P1, zone="maneuver", order=tuple(reversed(deck)))
    text, _ = told(state.copy(), event, OMNISCIENT)
    top = state.cards[deck[-1]].name
    assert text.startswith(f"{ME}'s Maneuver Deck is shuffled, top first: {top}, ")
    for who in (P1, P2, SPECTATOR):
        assert told(state.copy(), event, who) == (
            f"{ME}'s Maneuver Deck is shuffled", [f"{ME}'s Maneuver Deck (50 cards) is shuffled"])


def test_bottomed_cards_are_named_to_their_seat_and_counted_for_others():
    state = started(("blue", "red"))
    state.window, state.pending, state.players[P1].mulligans = "mulligan", P1, 2
    state.players[P1].kept = False
    hand = state.players[P1].hand
    names = f"{state.cards[hand[0]].name}, {state.cards[hand[1]].name}"
    event = KeepHand(seat=P1, bottom=(hand[0], hand[1]))
    for who in (P1, OMNISCIENT):
        assert told(state.copy(), event, who)[0] == f"{ME} keeps, bottoming {names}"
    for who in (P2, SPECTATOR):
        text, changes = told(state.copy(), event, who)
        assert text == f"{ME} keeps, bottoming 2 cards"
        assert changes[0] == f"{ME} keeps 4 cards (2 bottomed)"


def test_aerial_recon_tells_which_letters_went_where_only_to_its_seat():
    state = at(started(("blue", "red")), "main", P1)
    convoy = state.players[P1].convoy
    letters = [state.resource_kind(c) for c in convoy[:2]]
    r = next(iter(state.players[P1].area))
    event = Recycle(seat=P1, resource=r, ability="aerial_recon", top=(convoy[1],),
                    bottom=(convoy[0],))
    kind = state.resource_kind(r)
    article = "an" if kind == "S" else "a"
    for who in EVERYONE:
        text, changes = told(state.copy(), event, who)
        assert text == f"{ME} recycles {article} {kind} for Aerial Recon"
        where = (f"{letters[1]} on top and {letters[0]} on the bottom"
                 if who in (P1, OMNISCIENT) else "1 card on top and 1 card on the bottom")
        assert changes[-1] == f"{ME} puts {where} of the Supply Convoy (Aerial Recon)"
    data = NARRATION.change_data(HEADER, RULES.apply(state.copy(), event)[-1], P2)
    assert "top" not in data and "bottom" not in data and data["on_top"] == 1


def test_a_move_tells_where_it_left_from_and_how():
    moved = ch.Moved(seat=P1, card=3, name="Cloud Cadets", origin=(1, 2), to=(2, 3),
                     via="evasive_maneuvers")
    assert NARRATION.change_text(HEADER, started(), moved, P2) == (
        "Cloud Cadets moves from row 1, column 2 to row 2, column 3 (Evasive Maneuvers)")
    assert msgspec.to_builtins(moved)["origin"] == (1, 2)


def test_phase_markers_are_not_worth_listing():
    marker = ch.PhaseBegan(seat=P1, phase="combat")
    assert NARRATION.change_text(HEADER, started(), marker, OMNISCIENT) is None


def sovereign(seat: int) -> str:
    return started(("blue", "red")).players[seat].sovereign.name


@pytest.mark.parametrize("winner, reason, rule, words", [
    (P1, "sovereign_fell", "VW-9.26", f"{ME} wins: {YOU}'s Sovereign {{1}} fell (VW-9.26)"),
    (P2, "deck_out", "VW-12.3", (f"{YOU} wins: {ME} had to draw from an empty Maneuver "
                                 "Deck (VW-12.3)")),
    (P2, "concede", "VW-12.4", f"{YOU} wins: {ME} conceded (VW-12.4)"),
    (None, "turn_cap", "VW-12.5", "Draw: no one had won by the end of turn 60 (VW-12.5)"),
    (None, "both_lose", "VW-12.6", "Draw: both players lost at the same moment (VW-12.6)"),
])
def test_the_outcome_in_words(winner, reason, rule, words):
    outcome = Outcome.decided(winner, 2, reason, rule)
    assert NARRATION.outcome_text(HEADER, outcome) == words.replace("{1}", sovereign(P2))


def test_a_log_that_stops_early_says_so():
    assert NARRATION.outcome_text(Header(game="vitorian", ruleset="vitorian@2", match_id="m",
                                         seats=HEADER.seats), None) == \
        "the log stops before the match ends"
