"""What both test games' tests check alike: matches seated and played from a seed, every step
of a log replayed and kept, refusals that name their rule and leave the state as it was, what a
perspective is told of a step, and logs written, read back and run through the command line."""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine.bots import make_bot
from engine.games import get_game
from engine.narration import narration_for
from engine.replay import ReplayVisitor, replay_log
from engine.ruleset import OMNISCIENT, Change, Outcome, Perspective, RuleViolation, get_ruleset
from engine.simulate import play_match
from events.base import Header, Seat


def header_for(game: str, size: int, seed: int, builds: Sequence[str] = (),
               scenario: Any = None) -> Header:
    """A match of `game` at a table of `size`, seated as the kit lays it out; `builds` gives
    each seat's build (or archetype), seat 0 first."""
    kit = get_game(game)
    rng = random.Random(seed)
    labels = list(builds) or [""] * size
    seats = [Seat(seat=i, player=f"{place.role or place.side} {i}",
                  setup=kit.setup(labels[i], place, rng), side=place.side, role=place.role)
             for i, place in enumerate(kit.layout(size))]
    return Header(game=game, ruleset=kit.ruleset, match_id=f"{game}-{size}-{seed}", seats=seats,
                  seed=seed, scenario=scenario if scenario is not None else kit.scenario())


def play(header: Header, bots: Sequence[str] = ()) -> tuple[list[Any], Outcome]:
    """The match the header describes, played by the named bots (the kit's default for any
    seat not named) from the header's seed, the kit's Storyteller ruling if it has one."""
    kit = get_game(header.game)
    names = list(bots) + [kit.default_bot] * (len(header.seats) - len(bots))
    seated = {s.seat: make_bot(names[s.seat], dict(kit.bots)) for s in header.seats}
    storyteller = kit.storyteller() if kit.storyteller else None
    return play_match(get_ruleset(header.ruleset), header, seated, random.Random(header.seed),
                      storyteller=storyteller)


@dataclass
class Step:
    seq: int
    state: Any
    """A clone of the state right after the step, free to change."""
    event: Any
    changes: list[Change]


class Keeper(ReplayVisitor):
    """Keeps every step of a replay, each with its own clone of the state."""

    def __init__(self, clone: Any) -> None:
        self.clone = clone
        self.steps: list[Step] = []
        self.outcome: Outcome | None = None

    def begin(self, header: Header, state: Any) -> None:
        self.steps.append(Step(0, self.clone(state), None, []))

    def step(self, seq: int, event: Any, changes: list[Change], state: Any) -> None:
        self.steps.append(Step(seq, self.clone(state), event, changes))

    def end(self, state: Any, outcome: Outcome | None) -> None:
        self.outcome = outcome


def replayed(header: Header, events: Sequence[Any]) -> Keeper:
    """Every step of the log, each event checked by the rules (engine.replay.replay_log)."""
    ruleset = get_ruleset(header.ruleset)
    keeper = Keeper(ruleset.clone)
    replay_log(ruleset, header, events, keeper)
    return keeper


def refused(ruleset: Any, state: Any, event: Any, rule: str) -> RuleViolation:
    """Apply `event`, which the rules must refuse citing `rule`, leaving the state untouched."""
    before = msgspec.json.encode(ruleset.view(state, OMNISCIENT))
    with pytest.raises(RuleViolation) as refusal:
        ruleset.apply(state, event)
    assert refusal.value.rule == rule, refusal.value
    assert msgspec.json.encode(ruleset.view(state, OMNISCIENT)) == before
    return refusal.value


def told(header: Header, step: Step, perspective: Perspective) -> dict[str, Any]:
    """All `perspective` is shown of a step: the view, the event as data and in words, the
    changes as data and in words, and the end."""
    ruleset, narration = get_ruleset(header.ruleset), narration_for(header.game)
    state, event = step.state, step.event
    return {
        "view": ruleset.view(state, perspective),
        "event": None if event is None else narration.event_data(header, event, perspective),
        "text": None if event is None else narration.event_text(header, state, event,
                                                                perspective),
        "changes": [narration.change_data(header, c, perspective) for c in step.changes],
        "told": [narration.change_text(header, state, c, perspective) for c in step.changes],
        "outcome": narration.outcome_text(header, ruleset.outcome(state)),
    }


def perspectives(header: Header) -> list[Perspective]:
    return [p for p, _ in narration_for(header.game).perspectives(header)]


def as_json(data: Any) -> str:
    return msgspec.json.encode(data).decode()


def write_and_read(path: Path, header: Header, events: Sequence[Any]) -> Any:
    """The log written as a binary file and read back (events.log)."""
    from events.log import read_log, write_log

    write_log(path, header, events)
    return read_log(path)


def cli(capsys: pytest.CaptureFixture[str], *argv: Any) -> tuple[int, str, str]:
    from postgame import cli as command_line

    code = command_line.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def seat_results(outcome: Outcome, header: Header) -> Mapping[str, set[str]]:
    """Each side's results: a side of several seats wins or loses as one."""
    found: dict[str, set[str]] = {}
    for seat in header.seats:
        found.setdefault(str(seat.side), set()).add(outcome.results[seat.seat])
    return found
