"""Eredan told in words (engine.eredan.narrate): players and cards by name, never ids or raw
data; a drawn card named only to its drawer and the organiser; a submission told to the others
only as made, until the reveal names every card with its target; the result with its reason
and rule."""
from __future__ import annotations

import typing

import pytest

from engine.eredan.changes import Drawn, EredanChange
from engine.eredan.narrate import NARRATION, TELLERS
from engine.narration import narration_for
from engine.ruleset import OMNISCIENT, SPECTATOR, Outcome
from events.eredan import ChooseCombatants, Initiative, Leave, Play, PlayCards, Shuffle
from tests.eredan.scenario import P1, P2, RULES, fighter, header, in_hand, named, started
from tests.eredan.test_hidden import match, told

HEADER = header()
ADA, BEA = "player-0", "player-1"


def say(state, event, changes, who=OMNISCIENT) -> list[str]:
    """The event's words, then its changes' worth telling, as `who` may know them."""
    return [NARRATION.event_text(HEADER, state, event, who)] + [
        t for c in changes if (t := NARRATION.change_text(HEADER, state, c, who))]


def test_eredan_registers_its_own_narration() -> None:
    assert narration_for("eredan") is NARRATION


def test_every_change_kind_has_its_words() -> None:
    assert set(TELLERS) == set(typing.get_args(EredanChange))


def test_the_combatants_are_sent_by_name() -> None:
    state = started()
    iro, zahal = fighter(state, P1), fighter(state, P2)
    event = ChooseCombatants(seat=P1, attacker=iro.id, defender=zahal.id)
    words = say(state, event, RULES.apply(state, event), SPECTATOR)
    assert words[0] == f"{ADA} sends {iro.card.name} to fight {zahal.card.name}"


def test_a_draw_is_named_to_its_drawer_and_the_organiser_only() -> None:
    state = started()
    card = state.players[P1].hand[0]
    drawn = Drawn(seat=P1, card=card, secret_to=P1)
    name = state.cards[card].name
    for who in (OMNISCIENT, P1):
        assert NARRATION.change_text(HEADER, state, drawn, who) == f"{ADA} draws {name}"
    for who in (P2, SPECTATOR):
        assert NARRATION.change_text(HEADER, state, drawn, who) == f"{ADA} draws a card"


def test_a_submission_is_secret_until_the_reveal_names_cards_and_targets() -> None:
    state = started()
    iro, zahal, second = fighter(state, P1), fighter(state, P2), fighter(state, P2, 2)
    RULES.apply(state, ChooseCombatants(seat=P1, attacker=iro.id, defender=zahal.id))
    (dart,) = in_hand(state, P1, named("Poison Dart"))
    mine = PlayCards(seat=P1, plays=(Play(card=dart, target=second.id),))
    RULES.apply(state, mine)
    assert say(state, mine, [], P2) == [f"{ADA} submits cards in secret"]
    assert say(state, mine, [], SPECTATOR) == say(state, PlayCards(seat=P1), [], SPECTATOR)
    assert say(state, mine, [], P1) == [f"{ADA} submits Poison Dart on {second.card.name}"]
    theirs = PlayCards(seat=P2)
    words = say(state, theirs, RULES.apply(state, theirs), P2)
    assert words[0] == f"{BEA} submits no card; both submissions are revealed"
    assert f"{ADA} plays Poison Dart on {second.card.name}" in words
    assert f"Poison Dart will make {second.card.name} lose 2 HP" in words
    assert f"{iro.card.name} and {zahal.card.name} are tapped (ER-5.17)" in words


def test_chance_reads_as_what_a_player_saw() -> None:
    state = RULES.setup(header())
    shuffle = Shuffle(seat=P1, order=tuple(state.players[P1].deck))
    RULES.apply(state, shuffle)
    assert say(state, shuffle, [], P2) == [f"{ADA}'s deck is shuffled"]
    top = state.cards[shuffle.order[0]].name
    assert say(state, shuffle, [])[0].startswith(f"{ADA}'s deck is shuffled; on top: {top}")
    RULES.apply(state, Shuffle(seat=P2, order=tuple(state.players[P2].deck)))
    ticket = Initiative(seat=P2, ticket=7)
    RULES.apply(state, ticket)
    tickets = sum(p.tickets for p in state.players)
    assert say(state, ticket, [], P1)[0] == (f"{BEA} wins the initiative with ticket 7 of "
                                             f"{tickets} and plays first (ER-4.6)")
    assert NARRATION.event_data(HEADER, ticket, SPECTATOR)["ticket"] == 7  # public (Hidden information)


@pytest.mark.parametrize("outcome, words", [
    (Outcome.decided(0, 2, "elimination", "ER-1.2"),
     f"{ADA} wins: all three of {BEA}'s characters are defeated (ER-1.2)"),
    (Outcome.decided(None, 2, "score_tie", "ER-1.5"),
     "Draw: all six characters are down with equal scores (ER-1.5)"),
    (Outcome.decided(1, 2, "deck_out", "ER-1.6"),
     f"{BEA} wins: {ADA} could not refill their hand (deck-out) (ER-1.6)"),
])
def test_the_result_in_words(outcome, words) -> None:
    assert NARRATION.outcome_text(HEADER, outcome) == words


def test_leaving_ends_the_match_in_words() -> None:
    state = started()
    leave = Leave(seat=P2)
    words = say(state, leave, RULES.apply(state, leave), SPECTATOR)
    assert words == [f"{BEA} leaves the battle (ER-1.8)",
                     f"the match is over: {ADA} wins: {BEA} left the battle (ER-1.8)"]


def test_a_whole_match_is_told_in_words_only() -> None:
    """No ids, no raw data: every line of every step, from every perspective, is a sentence."""
    head, steps = match(21, ("greedy", "random"))
    for step in steps:
        for who, _ in NARRATION.perspectives(head):
            texts, _ = told(head, step, who)
            for text in texts:
                assert not set(text) & set("{}[]=_"), text
                assert "seat " not in text, text
                assert "a card" not in text.replace("draws a card", ""), text
