"""Cards a seat chose or looked at in secret never reach another seat through the event text,
in the command line's replay or the app's event list."""
from __future__ import annotations

from engine.narration import event_data
from engine.ruleset import OMNISCIENT, SPECTATOR
from events.base import redacted
from events.eredan import Play, PlayCards
from events.vitorian import KeepHand, Recycle


def test_a_kept_hands_bottomed_cards_are_the_owners_alone():
    keep = KeepHand(seat=0, bottom=(12, 40))
    assert list(event_data(keep, False, 0)["bottom"]) == [12, 40]
    assert list(event_data(keep, False, OMNISCIENT)["bottom"]) == [12, 40]
    for other in (1, SPECTATOR):
        assert event_data(keep, False, other)["bottom"] == [None, None]


def test_aerial_recon_shows_only_how_many_went_where():
    recon = Recycle(seat=1, resource=153, ability="aerial_recon", top=(151,), bottom=(152,))
    assert redacted(recon)["top"] == [None] and redacted(recon)["bottom"] == [None]
    assert redacted(recon)["resource"] == 153  # the recycled card itself is public


def test_an_eredan_submission_stays_secret_from_the_opponent():
    submission = PlayCards(seat=1, plays=(Play(card=104, target=92),))
    assert event_data(submission, False, 0)["plays"] is None  # not even how many
    assert list(event_data(submission, False, 1)["plays"]) == [{"card": 104, "target": 92}]
