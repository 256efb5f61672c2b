"""What an Eredan seat may not learn (the spec's Hidden information section): how many cards
the other seat submitted or discards before both have chosen, and the total charge of a deck
list it may not see."""
from __future__ import annotations

import pytest

from engine.ruleset import OMNISCIENT, SPECTATOR
from events.base import redacted
from events.eredan import Discard, Play, PlayCards
from tests.eredan.scenario import RULES, header


@pytest.mark.parametrize("submitted", [(), (Play(card=105),), (Play(card=105), Play(card=107))])
def test_another_seat_reads_a_submission_without_its_size(submitted) -> None:
    """Phase 2: 0, 1 or 2 cards read the same to the opponent until the reveal."""
    assert redacted(PlayCards(seat=1, plays=submitted)) == {"type": "play", "seat": 1,
                                                            "plays": None}


def test_another_seat_reads_discards_without_their_number() -> None:
    """Phase 5: discards are decided without seeing the other's."""
    assert redacted(Discard(seat=0, cards=(3, 4))) == redacted(Discard(seat=0, cards=()))


@pytest.mark.parametrize("perspective", [0, SPECTATOR])
def test_the_other_seats_deck_charge_is_not_shown(perspective) -> None:
    state = RULES.setup(header())
    seats = RULES.view(state, perspective)["seats"]
    assert seats[1]["deck_charge"] is None
    if perspective == 0:
        assert seats[0]["deck_charge"] == state.players[0].charge


def test_the_organiser_sees_both_deck_charges() -> None:
    state = RULES.setup(header())
    seats = RULES.view(state, OMNISCIENT)["seats"]
    assert [s["deck_charge"] for s in seats] == [p.charge for p in state.players]
