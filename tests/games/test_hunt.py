"""The Hunt: a fox runs unseen on a small field while one to four hounds close in on it.

Read as stories: a seeded hunt plays the same every time; every event a bot logs is checked
again by replay; each rule refuses what it forbids, by its ID; the fox is caught, escapes, is
cornered, or is caught at the last gasp for a draw; nobody but the fox, its side and the
organiser ever learns where it is before it is sighted or caught; logs round-trip and the
command line verifies and replays them."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.narration import narration_for
from engine.replay import IllegalEvent, replay_log
from engine.ruleset import CHANCE, DRAW, LOSS, OMNISCIENT, SPECTATOR, WIN, RuleViolation
from events.base import Header, Seat
from tests.games.checks import (
    Step,
    as_json,
    cli,
    header_for,
    perspectives,
    play,
    refused,
    replayed,
    seat_results,
    told,
    write_and_read,
)
from tests.games.hunt.board import FIELD
from tests.games.hunt.events import Chase, Den, Ran, Roll, Run, Start, WentToGround
from tests.games.hunt.rules import FOX_SIDE, RULES, HuntState

ROOT = Path(__file__).resolve().parents[2]
BOTS = st.sampled_from(["random", "tracker"])
SIZES = st.integers(2, 5)


def hunt(hounds: int = 2, kennels: tuple[str, ...] = ("kennel", "barn")) -> Header:
    """Seat 0 the fox, then `hounds` hounds starting from the kennels in turn."""
    seats = [Seat(seat=0, player="Fern", setup=Start(), side="fox", role="fox")]
    seats += [Seat(seat=i, player=f"Hound {i}", setup=Start(place=kennels[(i - 1) % 2]),
                   side="hounds", role="hound") for i in range(1, hounds + 1)]
    return Header(game="hunt", ruleset="hunt@1", match_id="hunt-story", seats=seats)


def played(header: Header, *events: Any) -> HuntState:
    state = RULES.setup(header)
    for event in events:
        RULES.apply(state, event)
    return state


def quiet_rounds(rounds: int, hound_at: str = "kennel") -> list[Any]:
    """Rounds of a one-hound hunt where the die shows 1, the fox runs between the Old Earth and
    the Hollow, and the hound holds at its place."""
    events: list[Any] = []
    for rnd in range(1, rounds + 1):
        events += [Roll(value=1), Run(seat=0, to="hollow" if rnd % 2 else "earth"),
                   Chase(seat=1, to=hound_at)]
    return events


# A seeded hunt, played and replayed --------------------------------------------------------

def test_a_seeded_hunt_plays_the_same_every_time():
    header = header_for("hunt", 4, seed=11)
    assert play(header, ["tracker", "random"]) == play(header, ["tracker", "random"])
    assert play(header)[0] != play(header_for("hunt", 4, seed=12))[0]


@settings(max_examples=40, deadline=None)
@given(size=SIZES, seed=st.integers(0, 10**6), fox=BOTS, hounds=BOTS)
def test_every_event_of_a_simulated_hunt_is_checked_again_by_replay(size, seed, fox, hounds):
    header = header_for("hunt", size, seed)
    events, outcome = play(header, [fox] + [hounds] * (size - 1))
    kept = replayed(header, events)
    assert kept.outcome == outcome and len(kept.steps) == len(events) + 1
    assert outcome.rule in {"HUNT-6", "HUNT-6.2", "HUNT-8", "HUNT-9"}
    assert kept.steps[-1].state.round <= FIELD.data.rounds


@settings(max_examples=40, deadline=None)
@given(size=SIZES, seed=st.integers(0, 10**6))
def test_the_hounds_win_and_lose_as_one_side(size, seed):
    header = header_for("hunt", size, seed)
    _, outcome = play(header, ["random"] * size)
    sides = seat_results(outcome, header)
    assert all(len(results) == 1 for results in sides.values())
    if outcome.side is None:
        assert set(outcome.results) == {DRAW} and outcome.rule == "HUNT-9"
    else:
        assert sides[outcome.side] == {WIN} and set(outcome.results) == {WIN, LOSS}


# The rules, one story each -------------------------------------------------------------------

def test_a_hound_ending_its_run_on_the_fox_catches_it_and_the_hounds_win_together():
    state = played(hunt(2), Den(seat=0, place="earth"), Roll(value=6), Run(seat=0, to="copse"))
    changes = RULES.apply(state, Chase(seat=1, to="copse"))
    outcome = RULES.outcome(state)
    assert [c.kind for c in changes] == ["chased", "caught", "hunt_over"]
    assert outcome is not None and outcome.results == (LOSS, WIN, WIN)
    assert (outcome.side, outcome.rule) == ("hounds", "HUNT-6")
    assert RULES.view(state, SPECTATOR)["fox"]["place"] == "copse"


def test_a_fox_still_free_after_the_last_round_escapes():
    state = played(hunt(1), Den(seat=0, place="earth"), *quiet_rounds(FIELD.data.rounds))
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.results == (WIN, LOSS)
    assert (outcome.side, outcome.rule) == ("fox", "HUNT-8")


def test_a_catch_in_the_last_round_is_a_draw():
    state = played(hunt(1), Den(seat=0, place="earth"), *quiet_rounds(FIELD.data.rounds - 1),
                   Roll(value=6), Run(seat=0, to="brook"), Chase(seat=1, to="brook"))
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.results == (DRAW, DRAW)
    assert (outcome.side, outcome.rule) == (None, "HUNT-9")
    assert narration_for("hunt").outcome_text(hunt(1), outcome).startswith("a draw")


def test_a_fox_with_a_hound_on_every_way_out_is_cornered():
    state = played(hunt(2), Den(seat=0, place="hollow"),
                   Roll(value=6), Run(seat=0, to="earth"), Chase(seat=1, to="copse"),
                   Chase(seat=2, to="brook"),
                   Roll(value=6), Run(seat=0, to="hollow"), Chase(seat=1, to="earth"),
                   Chase(seat=2, to="brook"))
    changes = RULES.apply(state, Roll(value=2))
    assert [c.kind for c in changes] == ["rolled", "caught", "hunt_over"]
    outcome = RULES.outcome(state)
    assert outcome is not None and (outcome.side, outcome.rule) == ("hounds", "HUNT-6.2")


def test_the_fox_is_sighted_by_everyone_after_its_run_on_a_sighting_round():
    rounds = FIELD.data.sightings[0]
    state = played(hunt(1), Den(seat=0, place="earth"), *quiet_rounds(rounds - 1),
                   Roll(value=1))
    changes = RULES.apply(state, Run(seat=0, to="hollow"))
    assert [c.kind for c in changes] == ["ran", "sighted"]
    view = RULES.view(state, SPECTATOR)["fox"]
    assert view == {"seat": 0, "place": "hollow", "seen": {"place": "hollow", "round": rounds}}
    RULES.apply(state, Chase(seat=1, to="kennel"))
    RULES.apply(state, Roll(value=1))
    RULES.apply(state, Run(seat=0, to="earth"))
    assert RULES.view(state, 1)["fox"]["place"] is None


def test_each_round_awaits_chance_then_the_fox_then_each_hound_in_seat_order():
    state = played(hunt(3), Den(seat=0, place="earth"))
    order = []
    for event in (Roll(value=1), Run(seat=0, to="copse"), Chase(seat=1, to="kennel"),
                  Chase(seat=2, to="barn"), Chase(seat=3, to="kennel")):
        order.append(RULES.awaiting(state))
        assert event in RULES.legal(state, order[-1][0])
        RULES.apply(state, event)
    assert order == [(CHANCE,), (0,), (1,), (2,), (3,)] and state.round == 2


@pytest.mark.parametrize(("events", "bad", "rule"), [
    ([], Den(seat=0, place="lane"), "HUNT-2"),
    ([], Den(seat=0, place="moon"), "HUNT-2"),
    ([], Roll(value=3), "HUNT-10"),
    ([], Den(seat=1, place="earth"), "HUNT-10"),
    ([Den(seat=0, place="earth")], Roll(value=7), "HUNT-3"),
    ([Den(seat=0, place="earth")], Roll(value=0), "HUNT-3"),
    ([Den(seat=0, place="earth")], Run(seat=0, to="copse"), "HUNT-10"),
    ([Den(seat=0, place="earth"), Roll(value=1)], Run(seat=0, to="kennel"), "HUNT-4"),
    ([Den(seat=0, place="earth"), Roll(value=1)], Run(seat=0, to="earth"), "HUNT-4"),
    ([Den(seat=0, place="earth"), Roll(value=1)], Chase(seat=1, to="lane"), "HUNT-10"),
    ([Den(seat=0, place="earth"), Roll(value=1), Run(seat=0, to="copse")],
     Chase(seat=2, to="lane"), "HUNT-10"),
    ([Den(seat=0, place="earth"), Roll(value=1), Run(seat=0, to="copse")],
     Chase(seat=1, to="orchard"), "HUNT-5"),
    ([Den(seat=0, place="earth"), Roll(value=6), Run(seat=0, to="copse"),
      Chase(seat=1, to="copse")], Roll(value=1), "HUNT-10"),
], ids=lambda v: v if isinstance(v, str) else None)
def test_each_rule_refuses_what_it_forbids_by_its_id(events, bad, rule):
    refused(RULES, played(hunt(2), *events), bad, rule)


def test_the_fox_cannot_run_onto_a_hound():
    state = played(hunt(2), Den(seat=0, place="orchard"), Roll(value=1),
                   Run(seat=0, to="copse"), Chase(seat=1, to="lane"), Chase(seat=2, to="meadow"),
                   Roll(value=1))
    assert [e.to for e in RULES.legal(state, 0)] == ["orchard", "earth"]
    error = refused(RULES, state, Run(seat=0, to="meadow"), "HUNT-4")
    assert "onto a hound" in error.reason


@pytest.mark.parametrize(("seats", "rule"), [
    ([("fox", "fox", None)], "HUNT-1"),
    ([("fox", "fox", None)] + [("hound", "hounds", "kennel")] * 5, "HUNT-1"),
    ([("fox", "fox", None), ("fox", "fox", None)], "HUNT-1"),
    ([("fox", "fox", None), ("hound", "fox", "kennel")], "HUNT-1"),
    ([("fox", "fox", None), ("hound", "hounds", "earth")], "HUNT-1.2"),
    ([("fox", "fox", "earth"), ("hound", "hounds", "kennel")], "HUNT-1.3"),
])
def test_a_table_the_rules_do_not_seat_is_refused_at_setup(seats, rule):
    header = Header(game="hunt", ruleset="hunt@1", match_id="bad", seats=[
        Seat(seat=i, player=f"p{i}", setup=Start(place=place), side=side, role=role)
        for i, (role, side, place) in enumerate(seats)])
    with pytest.raises(IllegalEvent) as refusal:
        replay_log(RULES, header, [], _Nobody())
    assert (refusal.value.seq, refusal.value.rule) == (0, rule)


class _Nobody:
    def begin(self, header, state): ...
    def step(self, seq, event, changes, state): ...
    def end(self, state, outcome): ...


# Nobody learns where the fox is ---------------------------------------------------------------

def _fox_secret(step: Step) -> bool:
    state = step.state
    return state.at[state.fox] is not None and not state.shown


def _elsewhere(step: Step, place: str) -> Step:
    """The same step had the fox been at `place`: its secret alone changed."""
    state = step.state.copy()
    state.at[state.fox] = place
    event = step.event
    if type(event) is Den:
        event = msgspec.structs.replace(event, place=place)
    if type(event) is Run:
        event = msgspec.structs.replace(event, to=place)
    changes = [msgspec.structs.replace(c, place=place) if isinstance(c, (WentToGround, Ran))
               else c for c in step.changes]
    return Step(step.seq, state, event, changes)


def _outsiders(header: Header) -> list[Any]:
    return [p for p in perspectives(header) if p not in (OMNISCIENT, 0, FOX_SIDE)]


@settings(max_examples=30, deadline=None)
@given(size=SIZES, seed=st.integers(0, 10**6), fox=BOTS, hounds=BOTS)
def test_what_others_are_shown_does_not_depend_on_where_the_fox_hides(size, seed, fox, hounds):
    header = header_for("hunt", size, seed)
    events, _ = play(header, [fox] + [hounds] * (size - 1))
    for step in replayed(header, events).steps:
        if not _fox_secret(step):
            continue
        state = step.state
        here = state.at[state.fox]
        hounds_at = {state.at[h] for h in state.hounds}
        other = next(p for p in FIELD.places if p != here and p not in hounds_at)
        for perspective in _outsiders(header):
            shown = told(header, step, perspective)
            assert shown == told(header, _elsewhere(step, other), perspective), perspective
            if state.seen is None or state.seen[0] != here:
                text = as_json(shown)
                assert f'"{here}"' not in text and FIELD.name(here) not in text, perspective


def test_the_fox_its_side_and_the_organiser_know_where_it_is():
    header = hunt(2)
    step = replayed(header, [Den(seat=0, place="earth"), Roll(value=4),
                             Run(seat=0, to="ridge")]).steps[-1]
    for perspective in (0, FOX_SIDE, OMNISCIENT):
        shown = told(header, step, perspective)
        assert shown["view"]["fox"]["place"] == "ridge"
        assert shown["event"] == {"type": "run", "seat": 0, "to": "ridge"}
        assert shown["text"] == "Fern (fox) runs to the Ridge"
    for perspective in (1, "side:hounds", SPECTATOR):
        shown = told(header, step, perspective)
        assert shown["event"] == {"type": "run", "seat": 0, "to": None}
        assert shown["text"] == "Fern (fox) runs, unseen"
        assert shown["told"] == [None]


def test_the_die_is_rolled_in_public():
    header = hunt(1)
    step = replayed(header, [Den(seat=0, place="earth"), Roll(value=5)]).steps[-1]
    for perspective in perspectives(header):
        shown = told(header, step, perspective)
        assert shown["event"] == {"type": "roll", "value": 5}
        assert shown["told"] == ["the hounds may run up to 2 steps"]


def test_every_seat_and_side_has_a_perspective():
    header = hunt(2)
    assert perspectives(header) == [OMNISCIENT, 0, 1, 2, FOX_SIDE, "side:hounds", SPECTATOR]


# Logs and the command line ---------------------------------------------------------------------

@pytest.fixture
def hunt_log(tmp_path: Path) -> tuple[Path, Header, list[Any]]:
    header = header_for("hunt", 3, seed=5)
    events, _ = play(header)
    path = tmp_path / "hunt.pglog"
    log = write_and_read(path, header, events)
    assert log.header == header and list(log.events) == events
    assert all(isinstance(seat.setup, Start) for seat in log.header.seats)
    return path, header, events


def test_the_command_line_verifies_a_hunt_log(hunt_log, capsys):
    code, out, err = cli(capsys, "verify", hunt_log[0])
    assert (code, out) == (0, "") and "verified 1 log: 0 bad" in err


def test_verify_names_the_rule_a_tampered_hunt_breaks(hunt_log, capsys, tmp_path):
    from events.log import write_log

    _, header, events = hunt_log
    at = next(i for i, e in enumerate(events) if type(e) is Run)
    bad = tmp_path / "bad.pglog"
    write_log(bad, header, [*events[:at], Run(seat=0, to="moon"), *events[at + 1:]])
    code, out, _ = cli(capsys, "verify", bad)
    assert code == 1 and f"seq {at + 1}: HUNT-4:" in out


def test_replay_as_a_hound_never_says_where_the_fox_ran(hunt_log, capsys):
    path, _, events = hunt_log
    code, out, _ = cli(capsys, "replay", path, "--as", "1", "--json")
    steps = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(steps) == len(events) + 1
    runs = [s for s in steps if s["event"] and s["event"]["type"] in ("run", "den")]
    assert runs and all(s["event"].get("to", s["event"].get("place")) is None for s in runs)
    code, out, _ = cli(capsys, "replay", path, "--as", "0")
    assert code == 0 and "Fern" not in out and "(fox) runs to the " in out


def test_a_fresh_process_verifies_a_hunt_log_once_the_game_is_registered(hunt_log):
    code = ("import sys\nimport tests.games.hunt.registration\nfrom postgame.cli import main\n"
            "sys.exit(main(sys.argv[1:]))\n")
    done = subprocess.run([sys.executable, "-c", code, "verify", str(hunt_log[0])], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and "verified 1 log: 0 bad" in done.stderr, done.stderr


def test_a_rule_violation_names_its_rule_in_its_message():
    with pytest.raises(RuleViolation, match="^HUNT-2: "):
        played(hunt(1), Den(seat=0, place="kennel"))
