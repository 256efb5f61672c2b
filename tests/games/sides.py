"""What the test games share in their narration: perspectives of whole sides ("side:hounds")
besides each seat, the organiser and a spectator, seats named by player and role, and secrets
told only to the perspectives entitled to them.

A side's perspective sees what every seat of that side knows: the public record, plus the
secrets of a side whose seats share them (the Hunt's fox, alone on its side). engine.narration
knows only seats, the organiser and spectators, so this is where sides are added."""
from __future__ import annotations

from typing import Any

import msgspec

from engine.narration import Narration, event_data, mask_change
from engine.ruleset import OMNISCIENT, SPECTATOR, WIN, Change, Outcome, Perspective
from events.base import Header, Seat

SIDE_PREFIX = "side:"


def side_perspective(side: str) -> str:
    return f"{SIDE_PREFIX}{side}"


def seat_name(seat: Seat) -> str:
    """A seat in words: its player, and its role (or side) in brackets."""
    part = seat.role or seat.side
    return f"{seat.player} ({part})" if part else seat.player


class SidesNarration(Narration):
    """A Narration over seats and sides; a game lists in `sharing` the side perspectives that
    see their seats' secrets."""

    sharing: tuple[str, ...] = ()

    def perspectives(self, header: Header) -> list[tuple[Perspective, str]]:
        seats: list[tuple[Perspective, str]] = [
            (seat.seat, f"Seat {seat.seat} · {seat_name(seat)}") for seat in header.seats]
        sides = dict.fromkeys(seat.side for seat in header.seats if seat.side)
        told = [(side_perspective(side), f"Side {side} · "
                 + ("its seats' secrets too" if side_perspective(side) in self.sharing
                    else "what all its seats know")) for side in sides]
        return [(OMNISCIENT, "Organiser (sees everything)"), *seats, *told,
                (SPECTATOR, "Spectator (public)")]

    def knows(self, perspective: Perspective, owner: int | None) -> bool:
        """Whether `perspective` may see the secrets of seat `owner`."""
        return perspective == OMNISCIENT or (owner is not None and perspective == owner) \
            or perspective in self.sharing

    def event_data(self, event: Any, perspective: Perspective) -> dict[str, Any]:
        if self.knows(perspective, getattr(event, "seat", None)):
            return event_data(event, self.hides_event(event, OMNISCIENT), OMNISCIENT)
        return event_data(event, self.hides_event(event, perspective), perspective)

    def change_data(self, change: Change, perspective: Perspective) -> dict[str, Any]:
        shown = change if self.knows(perspective, change.secret_to) else \
            mask_change(change, perspective)
        data: dict[str, Any] = msgspec.to_builtins(shown)
        return data

    def outcome_text(self, header: Header, outcome: Outcome | None) -> str:
        """The winning side and its players, or a draw, then why and by which rule."""
        if outcome is None:
            return super().outcome_text(header, outcome)
        why = f"{outcome.reason} ({outcome.rule})"
        if outcome.side is None:
            return f"a draw: {why}"
        won = [seat.player for seat in header.seats if outcome.results[seat.seat] == WIN]
        return f"side {outcome.side} wins ({', '.join(won)}): {why}"

    def seat_names(self, header: Header) -> dict[int, str]:
        return {seat.seat: seat_name(seat) for seat in header.seats}
