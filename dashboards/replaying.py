"""Replay frames for the app: one step of a log as one perspective may see it, as plain data.

Everything shown goes through the ruleset's own `view(state, perspective)` and the game's
narration (engine.narration.Narration: its masked changes and its words), so hidden cards
never reach the page, not even as ids in the HTML, and the page says each step as the command
line does.

A `ReplayCursor` wraps one `engine.replay.Replay`: the app shares it between sessions (it is
cached per log file), so seeks are serialised by a lock.

A log is replayed only if it is the one the lake ingested: its content hash (ingest's own,
pipeline.ingest.content_hash) must be the lake's `content_hash`, computed from the very bytes
that are then replayed, so a file edited or replaced after ingest is refused, not shown as the
match the lake's numbers count.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from dashboards.boards import board_renderer
from engine.games import UnknownGame, get_game
from engine.narration import Narration, board_text, narration_for
from engine.replay import IllegalEvent, Replay, ReplayVisitor, replay_log
from engine.ruleset import Change, Perspective, get_ruleset
from events.base import Header
from events.log import LogFile


class ReplayUnavailable(ValueError):
    """The match's log cannot be replayed here (moved, damaged, refused by the rules)."""


class LogChanged(ReplayUnavailable):
    """The file at the lake's log_path is not the log that was ingested (edited or replaced),
    or is gone: the lake's facts are about a log that is no longer there to show."""


@dataclass(frozen=True)
class StepRecord:
    """What the list of events needs about one step, gathered in one pass over the log: the
    step told as each perspective the game lists may know it (its event, its changes)."""

    seq: int
    turn: int
    event: Any
    changes: list[Change]
    told: dict[Perspective, tuple[str, tuple[str, ...]]]


@dataclass(frozen=True)
class Frame:
    """One step as a perspective sees it: the picture and the words around it."""

    step: int
    total: int
    turn: int
    event: str
    changes: list[str]
    svg: str | None
    text: str
    outcome: str | None


class _Steps(ReplayVisitor):
    def __init__(self, ruleset: Any, narration: Narration, header: Header) -> None:
        self.ruleset, self.narration, self.header = ruleset, narration, header
        self.perspectives = [p for p, _ in narration.perspectives(header)]
        self.records: list[StepRecord] = []

    def begin(self, header: Header, state: Any) -> None:
        nothing: tuple[str, ...] = ()
        told = dict.fromkeys(self.perspectives, ("setup", nothing))
        self.records.append(StepRecord(0, self.ruleset.turn(state), None, [], told))

    def step(self, seq: int, event: Any, changes: list[Change], state: Any) -> None:
        self.records.append(StepRecord(seq, self.ruleset.turn(state), event, list(changes),
                                       {p: self._told(state, event, changes, p)
                                        for p in self.perspectives}))

    def _told(self, state: Any, event: Any, changes: list[Change], perspective: Perspective
              ) -> tuple[str, tuple[str, ...]]:
        say, header = self.narration, self.header
        texts = (say.change_text(header, state, c, perspective) for c in changes)
        return (say.event_text(header, state, event, perspective),
                tuple(text for text in texts if text))


@dataclass
class ReplayCursor:
    """A checked log with a lock around its cursor, and the per-step records of the event list."""

    path: str
    replay: Replay
    records: list[StepRecord]
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def total(self) -> int:
        return len(self.replay)

    @property
    def game(self) -> str:
        return self.replay.header.game

    @property
    def turns(self) -> dict[int, int]:
        return self.replay.turns

    def players(self) -> dict[int, str]:
        return {seat.seat: seat.player for seat in self.replay.header.seats}

    @property
    def narration(self) -> Narration:
        return narration_for(self.game)

    def perspectives(self) -> list[tuple[Perspective, str]]:
        """The perspectives the game lists for this match, with their labels."""
        return self.narration.perspectives(self.replay.header)

    def result(self) -> str:
        """How the match ended, in the game's words (public to every perspective)."""
        return self.narration.outcome_text(self.replay.header, self.replay.outcome)


def open_replay(path: str | Path, content_hash: str | None = None) -> ReplayCursor:
    """Read and check a log once; every refusal becomes one readable ReplayUnavailable. With
    the `content_hash` the lake recorded, a file whose content is not that log is refused with
    LogChanged (a log outside any lake, content_hash None, is only checked by the rules)."""
    log = read_ingested(path, content_hash)
    try:
        ruleset = get_ruleset(log.header.ruleset)
        steps = _Steps(ruleset, narration_for(log.header.game), log.header)
        replay_log(ruleset, log.header, log.events, steps)
        replay = Replay(ruleset, log.header, log.events)
    except IllegalEvent as err:
        raise ReplayUnavailable(f"{path}: event {err.seq}: {err.rule}: {err.reason}") from err
    except ValueError as err:
        raise ReplayUnavailable(f"{path}: {err}") from err
    return ReplayCursor(str(path), replay, steps.records)


def read_ingested(path: str | Path, content_hash: str | None) -> LogFile:
    """The log at `path`, refused unless its content hash (ingest's own, of the file's bytes
    or of the binary form of JSON lines: pipeline.ingest.decode_either) is the one given. The
    hash is taken of what is then replayed, so a file changing meanwhile cannot slip past."""
    from pipeline.ingest import decode_either

    try:
        log, found = decode_either(Path(path).read_bytes(), path)
    except FileNotFoundError as err:
        raise missing_log(path, content_hash) from err
    except OSError as err:
        raise ReplayUnavailable(f"{path}: cannot read the file: {err.strerror or err}") from err
    except ValueError as err:
        raise not_a_log(path, err, content_hash) from err
    _same_content(path, found, content_hash)
    return log


def _same_content(path: str | Path, found: str, recorded: str | None) -> None:
    if recorded is not None and found != recorded:
        raise LogChanged(f"the log at {path} changed since it was ingested: its content hash "
                         f"is {found}, the lake recorded {recorded}")


def missing_log(path: str | Path, content_hash: str | None) -> ReplayUnavailable:
    """The refusal for a log file that is gone (LogChanged when the lake listed it)."""
    if content_hash is None:
        return ReplayUnavailable(f"{path}: the log file is not there any more")
    return LogChanged(f"the log at {path} is not there any more: the lake ingested it with "
                      f"content hash {content_hash}, and without it the match cannot be "
                      "replayed")


def not_a_log(path: str | Path, err: ValueError, content_hash: str | None
              ) -> ReplayUnavailable:
    """A file that does not read as a log: for one the lake ingested, it has changed since."""
    if content_hash is None:
        return ReplayUnavailable(f"{path}: {err}")
    return LogChanged(f"the log at {path} changed since it was ingested: it no longer reads "
                      f"as a log ({err}); the lake recorded content hash {content_hash}")


def frame(cursor: ReplayCursor, step: int, perspective: Perspective) -> Frame:
    """The step as `perspective` sees it; the cursor is left wherever the lock holder puts it."""
    step = max(0, min(step, cursor.total))
    narration = cursor.narration
    with cursor.lock:
        replay = cursor.replay
        view = replay.ruleset.view(replay.seek(step), perspective)
        changes = [narration.change_data(replay.header, c, perspective) for c in replay.changes]
    event, told = told_step(cursor.records[step], perspective)
    renderer = board_renderer(cursor.game)
    last = step == cursor.total
    return Frame(step=step, total=cursor.total, turn=cursor.records[step].turn,
                 event=event, changes=list(told),
                 svg=renderer(view, changes) if renderer else None,
                 text="" if renderer else text_board(cursor.game, view),
                 outcome=narration.outcome_text(replay.header, replay.outcome) if last
                 else None)


def told_step(record: StepRecord, perspective: Perspective) -> tuple[str, tuple[str, ...]]:
    """The step's event and changes in words, as `perspective` may know them; a perspective
    the game does not list is refused rather than shown what another one sees."""
    if perspective not in record.told:
        raise ReplayUnavailable(f"no perspective {perspective!r} in this game (it lists "
                                f"{', '.join(map(str, record.told))})")
    return record.told[perspective]


def text_board(game: str, view: dict[str, Any]) -> str:
    """A game without a picture yet shows its kit's text board (the terminal replay's), or
    else an outline of the view: either way only what the perspective may see."""
    try:
        renderer = get_game(game).render_text
    except UnknownGame:
        renderer = None
    return board_text(view, renderer)


def event_table(cursor: ReplayCursor, perspective: Perspective) -> pd.DataFrame:
    """Every step of the log as a row: what the list beside the board shows."""
    rows = []
    for r in cursor.records:
        event, changes = told_step(r, perspective)
        rows.append({"step": r.seq, "turn": r.turn,
                     "seat": "" if r.event is None else str(getattr(r.event, "seat", "")),
                     "event": event, "changes": "; ".join(changes)})
    return pd.DataFrame(rows, columns=["step", "turn", "seat", "event", "changes"])
