"""Replay: random access gives exactly the state a fresh fold gives, and bad logs name the event."""
from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.replay import IllegalEvent, Replay, ReplayVisitor, replay_log
from engine.ruleset import DeckError
from tests.engine import toy_game
from tests.engine.conftest import toy_match

RULES = toy_game.RULESET


def fresh_view(header, events, step):
    """The state after `step` events, by a plain fold from setup (the reference)."""
    state = RULES.setup(header)
    changes = []
    for event in events[:step]:
        changes = RULES.apply(state, event)
    return RULES.view(state, "organiser"), changes


def test_cursor_starts_at_the_end_with_the_outcome():
    header, events = toy_match(3)
    replay = Replay(RULES, header, events, snapshot_every=4)
    assert replay.step == len(replay) == len(events)
    assert replay.outcome == RULES.outcome(replay.state) is not None


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), every=st.integers(1, 9),
       moves=st.lists(st.tuples(st.sampled_from(["seek", "next", "prev", "turn"]),
                                st.integers(0, 10_000)), max_size=25))
def test_any_walk_matches_a_fresh_fold(seed, every, moves):
    header, events = toy_match(seed)
    replay = Replay(RULES, header, events, snapshot_every=every)
    for move, n in moves:
        _walk(replay, move, n)
        view, changes = fresh_view(header, events, replay.step)
        assert RULES.view(replay.state, "organiser") == view
        assert replay.changes == changes
        assert replay.reapplied < every or (move == "next" and replay.reapplied == 1)


def _walk(replay, move, n):
    if move == "seek":
        replay.seek(n % (len(replay) + 1))
    elif move == "next" and replay.step < len(replay):
        replay.next()
    elif move == "prev" and replay.step > 0:
        replay.prev()
    elif move == "turn":
        turns = sorted(replay.turns)
        replay.seek_turn(turns[n % len(turns)])


def test_seek_turn_lands_on_the_first_step_of_that_turn():
    header, events = toy_match(11)
    replay = Replay(RULES, header, events)
    for turn, step in replay.turns.items():
        replay.seek_turn(turn)
        assert replay.step == step and replay.turn == turn
        if step:
            replay.prev()
            assert replay.turn != turn


def test_seek_uses_the_nearest_snapshot():
    header, events = toy_match(5)
    replay = Replay(RULES, header, events, snapshot_every=8)
    replay.seek(0)
    replay.seek(len(events) - 1)
    assert replay.reapplied == (len(events) - 1) % 8


def test_bounds_are_refused():
    header, events = toy_match(5)
    replay = Replay(RULES, header, events)
    with pytest.raises(IndexError):
        replay.seek(len(events) + 1)
    with pytest.raises(StopIteration):
        replay.next()
    replay.seek(0)
    with pytest.raises(IndexError):
        replay.prev()
    with pytest.raises(KeyError, match="turn 999"):
        replay.seek_turn(999)


def test_an_illegal_event_is_refused_naming_its_seq_and_rule():
    header, events = toy_match(9)
    play_at = next(i for i, e in enumerate(events) if isinstance(e, toy_game.Play))
    forged = msgspec.structs.replace(events[play_at], card=987654)
    bad = events[:play_at] + [forged] + events[play_at + 1:]
    with pytest.raises(IllegalEvent) as err:
        Replay(RULES, header, bad)
    assert err.value.seq == play_at + 1
    assert err.value.rule == "TOY-5"
    assert f"event {play_at + 1}: TOY-5" in str(err.value)


def test_events_after_the_end_are_refused():
    header, events = toy_match(9)
    with pytest.raises(IllegalEvent) as err:
        Replay(RULES, header, events + [toy_game.Pass(seat=0)])
    assert err.value.seq == len(events) + 1


class Recorder(ReplayVisitor):
    def __init__(self):
        self.calls = []

    def begin(self, header, state):
        self.calls.append(("begin", header.match_id))

    def step(self, seq, event, changes, state):
        self.calls.append(("step", seq))

    def end(self, state, outcome):
        self.calls.append(("end", outcome.rule))


def test_visitor_sees_begin_every_step_and_end_in_order():
    header, events = toy_match(4)
    recorder = Recorder()
    replay_log(RULES, header, events, recorder)
    assert recorder.calls[0] == ("begin", header.match_id)
    assert recorder.calls[1:-1] == [("step", i) for i in range(1, len(events) + 1)]
    assert recorder.calls[-1] == ("end", "TOY-3") or recorder.calls[-1][1] == "TOY-4"


def test_a_log_cut_mid_match_replays_with_no_outcome():
    header, events = toy_match(4)
    replay = Replay(RULES, header, events[:5])
    assert replay.outcome is None and len(replay) == 5


def test_a_header_setup_refuses_is_reported_as_record_0():
    header, events = toy_match(2)
    seats = [msgspec.structs.replace(s, seat=5) for s in header.seats]
    with pytest.raises(IllegalEvent) as err:
        Replay(RULES, msgspec.structs.replace(header, seats=seats), events)
    assert err.value.seq == 0 and err.value.rule == "TOY-1"


def test_decks_setup_refuses_are_reported_as_record_0():
    header, events = toy_match(2)

    class Strict(type(RULES)):
        def setup(self, header):
            raise DeckError([("TOY-D1", "too few cards"), ("TOY-D3", "5 copies of 9")])

    with pytest.raises(IllegalEvent) as err:
        Replay(Strict(), header, events)
    assert (err.value.seq, err.value.rule) == (0, "deck")
    assert err.value.reason == "TOY-D1: too few cards; TOY-D3: 5 copies of 9"
