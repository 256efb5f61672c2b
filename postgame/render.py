"""Text and JSON printing of a replay step for the command line, as one perspective may see it.

What a perspective may see and the words for events, changes and outcomes are the engine's
(engine.narration, shared with the app); this module only lays steps out for the terminal.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from engine.narration import (
    BoardRenderer,
    board_text,
    change_text,
    event_data,
    event_text,
    mask_change,
    outcome_text,
)
from engine.replay import Replay, ReplayVisitor
from engine.ruleset import CHANCE, OMNISCIENT, Change, Outcome, Perspective, Ruleset
from events.base import Header


def step_text(seq: int, total: int, turn: int, event: Any, changes: list[Change],
              board: str, perspective: Perspective, chance: bool) -> str:
    """One step as a block: heading with the event, what changed, then the board."""
    hidden = chance and perspective != OMNISCIENT
    head = f"step {seq}/{total} · turn {turn}"
    head += (f" · {event_text(event, hidden, perspective)}" if event is not None
             else " · setup")
    lines = [head] + [f"  > {change_text(c, perspective)}" for c in changes]
    return "\n".join(lines + [board, ""])


def step_json(seq: int, total: int, turn: int, event: Any, changes: list[Change],
              view: dict[str, Any], perspective: Perspective, chance: bool) -> dict[str, Any]:
    hidden = chance and perspective != OMNISCIENT
    return {
        "step": seq, "steps": total, "turn": turn, "perspective": perspective,
        "event": None if event is None else event_data(event, hidden, perspective),
        "changes": [msgspec.to_builtins(mask_change(c, perspective)) for c in changes],
        "view": view,
    }


def chance_at(replay: Replay) -> bool:
    """Whether the event of the replay's current step was a chance outcome (to_move before it)."""
    step = replay.step
    if step == 0:
        return False
    replay.seek(step - 1)
    chance = replay.ruleset.to_move(replay.state) == CHANCE
    replay.seek(step)
    return chance


class StepPrinter(ReplayVisitor):
    """Prints every step of a log as it is replayed (the non-interactive `postgame replay`)."""

    def __init__(self, ruleset: Ruleset, total: int, perspective: Perspective,
                 renderer: BoardRenderer | None, as_json: bool,
                 write: Callable[[str], object]) -> None:
        self.ruleset, self.total, self.perspective = ruleset, total, perspective
        self.renderer, self.as_json, self.write = renderer, as_json, write
        self._chance_next = False

    def begin(self, header: Header, state: Any) -> None:
        self._emit(0, None, [], state)

    def step(self, seq: int, event: Any, changes: list[Change], state: Any) -> None:
        self._emit(seq, event, changes, state)

    def end(self, state: Any, outcome: Outcome | None) -> None:
        if not self.as_json:
            self.write(f"end: {outcome_text(outcome)}\n")

    def _emit(self, seq: int, event: Any, changes: list[Change], state: Any) -> None:
        chance, turn = self._chance_next, self.ruleset.turn(state)
        self._chance_next = self.ruleset.to_move(state) == CHANCE
        view = self.ruleset.view(state, self.perspective)
        if self.as_json:
            data = step_json(seq, self.total, turn, event, changes, view, self.perspective, chance)
            self.write(msgspec.json.encode(data).decode() + "\n")
        else:
            board = board_text(view, self.renderer)
            self.write(step_text(seq, self.total, turn, event, changes, board,
                                 self.perspective, chance) + "\n")
