"""Text and JSON printing of a replay step for the command line, as one perspective may see it.

What a perspective may see and the words for events, changes and outcomes are the game's own
(its engine.narration.Narration, shared with the app); this module only lays steps out for the
terminal.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from engine.narration import BoardRenderer, Narration, board_text
from engine.replay import ReplayVisitor
from engine.ruleset import Change, Outcome, Perspective, Ruleset
from events.base import Header


def step_text(narration: Narration, header: Header, state: Any, seq: int, total: int,
              turn: int, event: Any, changes: list[Change], board: str,
              perspective: Perspective) -> str:
    """One step as a block: heading with the event, what changed, then the board."""
    head = f"step {seq}/{total} · turn {turn}"
    head += (f" · {narration.event_text(header, state, event, perspective)}"
             if event is not None else " · setup")
    told = (narration.change_text(header, state, c, perspective) for c in changes)
    lines = [head] + [f"  > {text}" for text in told if text]
    return "\n".join(lines + [board, ""])


def step_json(narration: Narration, header: Header, state: Any, seq: int, total: int,
              turn: int, event: Any, changes: list[Change], view: dict[str, Any],
              perspective: Perspective) -> dict[str, Any]:
    return {
        "step": seq, "steps": total, "turn": turn, "perspective": perspective,
        "event": None if event is None else narration.event_data(header, event, perspective),
        "text": "setup" if event is None else narration.event_text(header, state, event,
                                                                   perspective),
        "changes": [narration.change_data(header, c, perspective) for c in changes],
        "view": view,
    }


class StepPrinter(ReplayVisitor):
    """Prints every step of a log as it is replayed (the non-interactive `postgame replay`)."""

    def __init__(self, ruleset: Ruleset, narration: Narration, total: int,
                 perspective: Perspective, renderer: BoardRenderer | None, as_json: bool,
                 write: Callable[[str], object]) -> None:
        self.ruleset, self.narration, self.total = ruleset, narration, total
        self.perspective, self.renderer, self.as_json, self.write = (perspective, renderer,
                                                                     as_json, write)
        self.header: Header | None = None

    def begin(self, header: Header, state: Any) -> None:
        self.header = header
        self._emit(0, None, [], state)

    def step(self, seq: int, event: Any, changes: list[Change], state: Any) -> None:
        self._emit(seq, event, changes, state)

    def end(self, state: Any, outcome: Outcome | None) -> None:
        if not self.as_json:
            assert self.header is not None
            self.write(f"end: {self.narration.outcome_text(self.header, outcome)}\n")

    def _emit(self, seq: int, event: Any, changes: list[Change], state: Any) -> None:
        assert self.header is not None
        turn = self.ruleset.turn(state)
        view = self.ruleset.view(state, self.perspective)
        if self.as_json:
            data = step_json(self.narration, self.header, state, seq, self.total, turn, event,
                             changes, view, self.perspective)
            self.write(msgspec.json.encode(data).decode() + "\n")
        else:
            board = board_text(view, self.renderer)
            self.write(step_text(self.narration, self.header, state, seq, self.total, turn,
                                 event, changes, board, self.perspective) + "\n")
