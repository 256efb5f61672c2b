"""The Hunt in words, and who may know where the fox is.

The fox's place is told to the fox's seat, its side ("side:fox") and the organiser; everyone
else hears that it went to ground or ran, never where, until it is sighted (HUNT-7) or caught
(HUNT-6). The die is rolled in public (HUNT-3): unlike the base narration's chance outcomes, its
value is everyone's."""
from __future__ import annotations

from typing import Any

from engine.ruleset import Change, Perspective
from events.base import Header
from tests.games.hunt.board import FIELD
from tests.games.hunt.events import (
    Caught,
    Chase,
    Chased,
    Den,
    Escaped,
    Ran,
    Roll,
    Rolled,
    RoundBegan,
    Run,
    Sighted,
    WentToGround,
)
from tests.games.sides import SidesNarration


class HuntNarration(SidesNarration):
    shared_sides = ("fox",)

    def hides_event(self, event: Any, perspective: Perspective) -> bool:
        return False

    def event_text(self, header: Header, state: Any, event: Any,
                   perspective: Perspective) -> str:
        if type(event) is Roll:
            return f"the die shows {event.value}"
        who = self.seat_names(header)[event.seat]
        secret = not self.knows(header, perspective, event.seat)
        if type(event) is Den:
            return f"{who} goes to ground" + (", unseen" if secret else
                                              f" at {FIELD.name(event.place)}")
        if type(event) is Run:
            return f"{who} runs" + (", unseen" if secret else f" to {FIELD.name(event.to)}")
        assert type(event) is Chase
        return f"{who} ends its run at {FIELD.name(event.to)}"

    def change_text(self, header: Header, state: Any, change: Change,
                    perspective: Perspective) -> str | None:
        names = self.seat_names(header)
        if isinstance(change, (WentToGround, Ran)):
            return None  # the den or the run told it, as this perspective may know it
        if isinstance(change, Chased):
            who = names[change.seat] if change.seat is not None else "a hound"
            if change.origin == change.to:
                return f"{who} held its ground"
            return f"{who} came from {FIELD.name(change.origin)}"
        return _public_text(change, names)


def _public_text(change: Change, names: dict[int, str]) -> str | None:
    """What every perspective is told alike."""
    if isinstance(change, RoundBegan):
        return f"round {change.round} of {FIELD.data.rounds} begins"
    if isinstance(change, Rolled):
        return f"the hounds may run up to {change.reach} step{'s' if change.reach > 1 else ''}"
    if isinstance(change, Sighted):
        return f"the fox is sighted at {FIELD.name(change.place)}"
    if isinstance(change, Caught):
        if change.cornered or change.seat is None:
            return f"the fox is cornered at {FIELD.name(change.place)} and caught"
        return f"{names[change.seat]} catches the fox at {FIELD.name(change.place)}!"
    if isinstance(change, Escaped):
        return f"the fox escapes after {change.rounds} rounds"
    return None  # the hunt's end: the outcome tells it


NARRATION = HuntNarration()
