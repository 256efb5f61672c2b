"""A side's perspective (engine.narration): what all its seats know alike, or, for a side whose
seats share their secrets, each of its seats' secrets; never another side's."""
from __future__ import annotations

from typing import ClassVar

import msgspec

from engine.narration import Narration
from engine.ruleset import OMNISCIENT, SPECTATOR, Change
from events.base import Header, Seat


class Drew(Change, frozen=True, kw_only=True, tag="drew"):
    card: int | None = None
    private: ClassVar[tuple[str, ...]] = ("card",)


class Pick(msgspec.Struct, frozen=True, kw_only=True, tag="pick", tag_field="type"):
    seat: int
    cards: tuple[int, ...] = ()
    private: ClassVar[tuple[str, ...]] = ("cards",)


class OpenHands(Narration):
    shared_sides = ("hunters",)


HEADER = Header(game="toy", ruleset="toy@1", match_id="sides", seats=[
    Seat(seat=0, player="Mina", setup=None, side="hunters"),
    Seat(seat=1, player="Van Helsing", setup=None, side="hunters"),
    Seat(seat=2, player="Dracula", setup=None, side="dracula")])


def test_a_side_is_listed_once_with_what_it_sees():
    labels = dict(OpenHands().perspectives(HEADER))
    assert list(labels) == [OMNISCIENT, 0, 1, 2, "side:hunters", "side:dracula", SPECTATOR]
    assert labels["side:hunters"] == "Side hunters · its seats' secrets too"
    assert labels["side:dracula"] == "Side dracula · what all its seats know"
    assert labels[1] == "Seat 1 · Van Helsing (hunters)"


def test_a_sharing_side_sees_each_of_its_seats_secrets_and_no_other_sides():
    say = OpenHands()
    for seat, entitled in ((0, {0, "side:hunters"}), (1, {1, "side:hunters"}),
                           (2, {2})):
        drew = Drew(seat=seat, secret_to=seat, card=7)
        pick = Pick(seat=seat, cards=(3, 4))
        for perspective, _ in say.perspectives(HEADER):
            sees = perspective in entitled or perspective == OMNISCIENT
            assert say.knows(HEADER, perspective, seat) is sees, perspective
            assert say.change_data(HEADER, drew, perspective).get("card") == (7 if sees else None)
            assert list(say.event_data(HEADER, pick, perspective)["cards"]) == (
                [3, 4] if sees else [None, None])


def test_a_side_that_does_not_share_sees_only_what_all_its_seats_know():
    say = Narration()
    drew = Drew(seat=0, secret_to=0, card=7)
    for perspective in ("side:hunters", "side:dracula", 1, SPECTATOR):
        assert say.change_data(HEADER, drew, perspective).get("card") is None
    assert say.change_data(HEADER, drew, 0).get("card") == 7
