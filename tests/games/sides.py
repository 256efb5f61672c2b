"""What the test games share in their narration: seats named by player and role, and an outcome
told as the winning side and its players (engine.narration gives the side perspectives and who
may know which secret)."""
from __future__ import annotations

from engine.narration import Narration, seat_label
from engine.ruleset import WIN, Outcome
from events.base import Header


class SidesNarration(Narration):
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
        return {seat.seat: seat_label(seat) for seat in header.seats}
