"""Replay: fold a ruleset's `apply` over a log's events, checking every one.

Two ways to consume a log:
- `replay_log(ruleset, header, events, visitor)`: one forward pass that calls a visitor at each
  step (python-chess `pgn.BaseVisitor` style); the text printer and the fact extractor are
  visitors, so they never hold more than the live state.
- `Replay(...)`: a random-access cursor for viewers. Building it validates the whole log once,
  keeping a clone of the state every `snapshot_every` events and the first step of every turn, so
  `seek(step)` restores the nearest snapshot at or before `step` and re-applies fewer than K events.

Steps: step 0 is the state right after setup; step k is the state after the k-th event, whose
sequence number in the log is k (record 0 is the header).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engine.ruleset import Change, DeckError, Outcome, Ruleset, RuleViolation
from events.base import Header


class IllegalEvent(RuleViolation):
    """A logged event the rules refuse; names its sequence number so a person can find it.

    seq 0 is the header: setup refused the match as described (a deck breaking the rules)."""

    def __init__(self, seq: int, rule: str, reason: str, event: Any = None) -> None:
        super().__init__(rule, reason)
        self.args = (f"event {seq}: {rule}: {reason}",)
        self.seq = seq
        self.event = event


class ReplayVisitor:
    """Base visitor: override what you need. `state` is the live, mutable state: clone it with
    the ruleset to keep it past the call."""

    def begin(self, header: Header, state: Any) -> None:
        """Called once with the state after setup (step 0)."""

    def step(self, seq: int, event: Any, changes: list[Change], state: Any) -> None:
        """Called after event `seq` was checked and applied."""

    def end(self, state: Any, outcome: Outcome | None) -> None:
        """Called after the last event; outcome is None when the log stops mid-match."""


def replay_log(ruleset: Ruleset, header: Header, events: Iterable[Any],
               visitor: ReplayVisitor) -> Any:
    """Fold the events through the ruleset, feeding the visitor; returns the final state.

    Raises IllegalEvent at the first event the rules refuse (events before it were visited), or
    with seq 0 when setup refuses the header itself (an illegal deck, VW-3.17 for instance).
    """
    try:
        state = ruleset.setup(header)
    except RuleViolation as err:
        raise IllegalEvent(0, err.rule, err.reason) from err
    except DeckError as err:
        rule, reason = err.problems[0] if len(err.problems) == 1 else ("deck", str(err))
        raise IllegalEvent(0, rule, reason) from err
    visitor.begin(header, state)
    apply, step = ruleset.apply, visitor.step
    seq = 0
    for seq, event in enumerate(events, 1):
        try:
            changes = apply(state, event)
        except RuleViolation as err:
            raise IllegalEvent(seq, err.rule, err.reason, event) from err
        step(seq, event, changes, state)
    visitor.end(state, ruleset.outcome(state))
    return state


class _Indexer(ReplayVisitor):
    """Collects what random access needs while the log is validated: snapshots, changes, turns."""

    def __init__(self, ruleset: Ruleset, every: int) -> None:
        self.clone, self.turn, self.every = ruleset.clone, ruleset.turn, every
        self.snapshots: list[Any] = []
        self.changes: list[list[Change]] = [[]]
        self.turn_starts: dict[int, int] = {}
        self.last_turn: int | None = None
        self.outcome: Outcome | None = None

    def begin(self, header: Header, state: Any) -> None:
        self.snapshots.append(self.clone(state))
        self._mark_turn(0, state)

    def step(self, seq: int, event: Any, changes: list[Change], state: Any) -> None:
        self.changes.append(changes)
        if self.turn(state) != self.last_turn:
            self._mark_turn(seq, state)
        if seq % self.every == 0:
            self.snapshots.append(self.clone(state))

    def end(self, state: Any, outcome: Outcome | None) -> None:
        self.outcome = outcome

    def _mark_turn(self, seq: int, state: Any) -> None:
        self.last_turn = turn = self.turn(state)
        self.turn_starts.setdefault(turn, seq)


class Replay:
    """A checked log with random access to the state at every step.

    After construction the cursor stands on the last step (the state the log leads to).
    """

    def __init__(self, ruleset: Ruleset, header: Header, events: Sequence[Any],
                 snapshot_every: int = 64) -> None:
        if snapshot_every < 1:
            raise ValueError("snapshot_every must be at least 1")
        self.ruleset, self.header, self.events = ruleset, header, events
        self.snapshot_every = snapshot_every
        index = _Indexer(ruleset, snapshot_every)
        self._state = replay_log(ruleset, header, events, index)
        self._index = index
        self._step = len(events)
        self.reapplied = 0
        """Events re-applied by the last seek (at most snapshot_every - 1, or 1 for next())."""

    def __len__(self) -> int:
        """The number of events; valid steps are 0..len(replay)."""
        return len(self.events)

    @property
    def state(self) -> Any:
        """The live state at the current step; clone it before keeping or changing it."""
        return self._state

    @property
    def step(self) -> int:
        return self._step

    @property
    def event(self) -> Any:
        """The event that led to the current step (None at step 0)."""
        return self.events[self._step - 1] if self._step else None

    @property
    def changes(self) -> list[Change]:
        """What the event of the current step changed (empty at step 0)."""
        return self._index.changes[self._step]

    @property
    def turn(self) -> int:
        return self.ruleset.turn(self._state)

    @property
    def outcome(self) -> Outcome | None:
        """How the log ends (None when it stops mid-match)."""
        return self._index.outcome

    @property
    def turns(self) -> dict[int, int]:
        """Turn number -> first step of that turn."""
        return dict(self._index.turn_starts)

    def seek(self, step: int) -> Any:
        """Move to `step`, re-applying from the nearest snapshot, or from here when closer."""
        if not 0 <= step <= len(self.events):
            raise IndexError(f"step {step} is outside 0..{len(self.events)}")
        base = step - step % self.snapshot_every
        if not base <= self._step <= step:
            self._state = self.ruleset.clone(self._index.snapshots[base // self.snapshot_every])
            self._step = base
        apply, events = self.ruleset.apply, self.events
        self.reapplied = step - self._step
        for i in range(self._step, step):
            apply(self._state, events[i])
        self._step = step
        return self._state

    def next(self) -> Any:
        """Advance one step; StopIteration at the end."""
        if self._step >= len(self.events):
            raise StopIteration("already at the last step")
        return self.seek(self._step + 1)

    def prev(self) -> Any:
        """Go back one step; IndexError at step 0."""
        if self._step == 0:
            raise IndexError("already at step 0")
        return self.seek(self._step - 1)

    def seek_turn(self, turn: int) -> Any:
        """Move to the first step of `turn`; KeyError names the turns the log has."""
        starts = self._index.turn_starts
        if turn not in starts:
            known = f"{min(starts)}..{max(starts)}" if starts else "none"
            raise KeyError(f"turn {turn} is not in this log (turns {known})")
        return self.seek(starts[turn])
