"""Bid: red against blue, every seat bidding in secret at the same time, the Storyteller ruling
each round, matches played from a scenario in the header.

Read as stories: a seeded match plays the same every time; every event is checked again by
replay; the seats bid at once, in any order, and nobody else learns a bid before the last is
in; the Storyteller's ruling is public and the simulation needs its policy; each rule refuses
what it forbids, by its ID; sides win and lose as one, and fall together for a draw; the
scenario block is typed through the game's scenario layer; logs round-trip and the command
line verifies and replays them."""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots import RandomBot
from engine.replay import IllegalEvent, ReplayVisitor, replay_log
from engine.ruleset import DRAW, LOSS, OMNISCIENT, SPECTATOR, STORYTELLER, WIN
from engine.simulate import SimulationError, play_match
from events.base import Header, Seat
from tests.games.bid.events import Bid, Build, Ruling, Scenario, Sealed
from tests.games.bid.kit import BUILDS, SCENARIOS, kit, load_scenario
from tests.games.bid.rules import RULES, BidState
from tests.games.checks import (
    Step,
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

DUEL = Scenario(name="duel", title="A duel", strength=3, rounds=5)
BUILD_NAMES = st.sampled_from(sorted(BUILDS))
SCENARIO = st.sampled_from(sorted(SCENARIOS))


def table(*builds: str, scenario: Scenario = DUEL) -> Header:
    """Seats alternate red, blue, each with the build named, seat 0 first."""
    seats = [Seat(seat=i, player=f"{('Rae', 'Bo', 'Ren', 'Bea')[i]}", setup=BUILDS[build],
                  side=("red", "blue")[i % 2]) for i, build in enumerate(builds)]
    return Header(game="bid", ruleset="bid@1", match_id="bid-story", seats=seats,
                  scenario=scenario)


def played(header: Header, *events: Any) -> BidState:
    state = RULES.setup(header)
    for event in events:
        RULES.apply(state, event)
    return state


def bids(*amounts: int) -> list[Bid]:
    return [Bid(seat=seat, amount=amount) for seat, amount in enumerate(amounts)]


# A seeded match, played and replayed -------------------------------------------------------

def test_a_seeded_match_plays_the_same_every_time():
    header = header_for("bid", 4, seed=3, builds=["miser", "spender", "warden", "miser"])
    assert play(header) == play(header)
    other = header_for("bid", 4, seed=4, builds=["miser", "spender", "warden", "miser"])
    assert play(header)[0] != play(other)[0]


@settings(max_examples=40, deadline=None)
@given(size=st.integers(2, 4), seed=st.integers(0, 10**6), bot=st.sampled_from(["random",
       "steady"]), red=BUILD_NAMES, blue=BUILD_NAMES, scenario=SCENARIO)
def test_every_event_of_a_simulated_match_is_checked_again_by_replay(size, seed, bot, red,
                                                                     blue, scenario):
    header = header_for("bid", size, seed, builds=[red, blue] * 2,
                        scenario=SCENARIOS[scenario])
    events, outcome = play(header, [bot] * size)
    kept = replayed(header, events)
    assert kept.outcome == outcome and outcome.rule in {"BID-6", "BID-7"}
    sides = seat_results(outcome, header)
    assert all(len(results) == 1 for results in sides.values())
    assert (outcome.side is None) == (set(outcome.results) == {DRAW})
    assert sum(type(e) is Ruling for e in events) == kept.steps[-1].state.round


# Secret bids at the same time -----------------------------------------------------------------

def test_every_seat_bids_at_once_in_any_order_and_the_last_bid_reveals_all():
    state = played(table("spender", "spender", "miser", "warden"), Ruling())
    assert RULES.awaiting(state) == (0, 1, 2, 3)
    for seat, amount in ((2, 1), (0, 3), (3, 0)):
        changes = RULES.apply(state, Bid(seat=seat, amount=amount))
        assert [c.kind for c in changes] == ["sealed"]
    assert RULES.awaiting(state) == (1,) and state.purse == [24, 24, 12, 14]
    changes = RULES.apply(state, Bid(seat=1, amount=2))
    assert [c.kind for c in changes] == ["sealed", "revealed", "struck", "struck",
                                         "round_began"]
    assert changes[1].bids == (3, 2, 1, 0) and state.purse == [21, 22, 11, 14]
    assert RULES.awaiting(state) == (STORYTELLER,)


def test_a_side_loses_the_others_bids_and_favour_less_its_guard():
    state = played(table("miser", "spender", scenario=SCENARIOS["siege"]),
                   Ruling(favours="blue", bonus=2), *bids(3, 4))
    assert state.strength == {"red": 14 - (4 + 2 - 1), "blue": 14 - 3}


def test_both_sides_falling_in_the_same_round_is_a_draw():
    state = played(table("spender", "spender", "spender", "spender"), Ruling(), *bids(1, 1, 2, 2))
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.results == (DRAW,) * 4
    assert (outcome.side, outcome.rule) == (None, "BID-6")


def test_a_side_falling_alone_loses_and_its_seats_lose_together():
    state = played(table("spender", "spender", "spender", "spender"), Ruling(), *bids(2, 0, 1, 0))
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.results == (WIN, LOSS, WIN, LOSS)
    assert (outcome.side, outcome.rule) == ("red", "BID-6")


def test_after_the_last_round_more_strength_wins_and_equal_strength_draws():
    one_round = Scenario(name="short", strength=10, rounds=1)
    won = played(table("spender", "spender", scenario=one_round), Ruling(), *bids(2, 1))
    level = played(table("spender", "spender", scenario=one_round), Ruling(), *bids(2, 2))
    assert RULES.outcome(won) is not None and RULES.outcome(won).side == "red"
    assert RULES.outcome(won).rule == "BID-7"
    assert RULES.outcome(level) is not None and RULES.outcome(level).results == (DRAW, DRAW)


@pytest.mark.parametrize(("events", "bad", "rule"), [
    ([], Bid(seat=0, amount=1), "BID-8"),
    ([], Ruling(favours="green", bonus=1), "BID-2"),
    ([], Ruling(favours="red", bonus=3), "BID-2"),
    ([], Ruling(bonus=1), "BID-2"),
    ([Ruling()], Ruling(), "BID-8"),
    ([Ruling()], Bid(seat=0, amount=13), "BID-3"),
    ([Ruling()], Bid(seat=0, amount=-1), "BID-3"),
    ([Ruling()], Bid(seat=5, amount=1), "BID-8"),
    ([Ruling(), Bid(seat=1, amount=2)], Bid(seat=1, amount=1), "BID-3"),
    ([Ruling(), *bids(3, 3)], Ruling(), "BID-8"),
], ids=lambda v: v if isinstance(v, str) else None)
def test_each_rule_refuses_what_it_forbids_by_its_id(events, bad, rule):
    refused(RULES, played(table("miser", "spender"), *events), bad, rule)


@pytest.mark.parametrize(("seats", "scenario", "rule"), [
    ([("red", "miser")], DUEL, "BID-1"),
    ([("red", "miser"), ("blue", "miser")] * 2 + [("red", "miser")], DUEL, "BID-1"),
    ([("red", "miser"), ("green", "miser")], DUEL, "BID-1"),
    ([("red", "miser"), ("red", "miser"), ("red", "miser"), ("blue", "miser")], DUEL, "BID-1"),
    ([("red", "miser"), ("red", "miser")], DUEL, "BID-1"),
    ([("red", "broke"), ("blue", "miser")], DUEL, "BID-1.2"),
    ([("red", "miser"), ("blue", "miser")], None, "BID-1.3"),
    ([("red", "miser"), ("blue", "miser")], Scenario(name="x", strength=0, rounds=3),
     "BID-1.3"),
])
def test_a_table_the_rules_do_not_seat_is_refused_at_setup(seats, scenario, rule):
    builds = {**BUILDS, "broke": Build(name="broke", purse=0, guard=4)}
    header = Header(game="bid", ruleset="bid@1", match_id="bad", scenario=scenario, seats=[
        Seat(seat=i, player=f"p{i}", setup=builds[build], side=side)
        for i, (side, build) in enumerate(seats)])
    with pytest.raises(IllegalEvent) as refusal:
        replay_log(RULES, header, [], ReplayVisitor())
    assert (refusal.value.seq, refusal.value.rule) == (0, rule)


# The Storyteller ---------------------------------------------------------------------------

def test_the_simulation_needs_a_storyteller_policy_to_rule():
    header = table("miser", "spender")
    with pytest.raises(SimulationError, match="no Storyteller policy"):
        play_match(RULES, header, {0: RandomBot(), 1: RandomBot()}, random.Random(1))


def test_the_kits_storyteller_rules_legally_and_keeps_the_match_close():
    events, _ = play(header_for("bid", 2, seed=8, builds=["spender", "miser"],
                                scenario=SCENARIOS["siege"]))
    rulings = [e for e in events if type(e) is Ruling]
    state = RULES.setup(table("spender", "miser"))
    assert rulings and all(r in RULES.legal(state, STORYTELLER) for r in rulings)
    assert kit().storyteller is not None


def test_a_ruling_is_told_to_everyone_alike():
    header = table("miser", "spender")
    step = replayed(header, [Ruling(favours="red", bonus=2)]).steps[-1]
    texts = {told(header, step, p)["text"] for p in perspectives(header)}
    assert texts == {"the Storyteller favours red (+2) this round"}


# Nobody learns a bid before the reveal ----------------------------------------------------------

def _others_bid(step: Step, seat: int, amount: int) -> Step:
    """The same step had `seat` sealed `amount`: its secret alone changed."""
    state = step.state.copy()
    state.sealed[seat] = amount
    event = step.event
    if type(event) is Bid and event.seat == seat:
        event = msgspec.structs.replace(event, amount=amount)
    changes = [msgspec.structs.replace(c, amount=amount)
               if isinstance(c, Sealed) and c.seat == seat else c for c in step.changes]
    return Step(step.seq, state, event, changes)


@settings(max_examples=30, deadline=None)
@given(size=st.integers(2, 4), seed=st.integers(0, 10**6), red=BUILD_NAMES, blue=BUILD_NAMES)
def test_what_others_are_shown_does_not_depend_on_a_sealed_bid(size, seed, red, blue):
    header = header_for("bid", size, seed, builds=[red, blue] * 2)
    events, _ = play(header, ["random"] * size)
    for step in replayed(header, events).steps:
        for seat, amount in step.state.sealed.items():
            other = (amount + 1) % (step.state.purse[seat] + 1)
            for perspective in perspectives(header):
                if perspective in (OMNISCIENT, seat) or other == amount:
                    continue
                shown = told(header, step, perspective)
                assert shown == told(header, _others_bid(step, seat, other), perspective)
                assert shown["view"]["seats"][seat] | {"purse": 0} == {
                    "seat": seat, "side": header.seats[seat].side, "purse": 0,
                    "guard": BUILDS[(red, blue)[seat % 2]].guard, "sealed": True, "bid": None}


def test_a_bidder_sees_its_own_bid_and_its_teammate_does_not():
    header = table("miser", "spender", "miser", "spender")
    step = replayed(header, [Ruling(), Bid(seat=0, amount=4)]).steps[-1]
    mine, mate, side = (told(header, step, p) for p in (0, 2, "side:red"))
    assert mine["event"] == {"type": "bid", "seat": 0, "amount": 4}
    assert mine["text"] == "Rae (red) bids 4 in secret"
    for shown in (mate, side, told(header, step, SPECTATOR)):
        assert shown["event"] == {"type": "bid", "seat": 0, "amount": None}
        assert shown["text"] == "Rae (red) seals a bid"
        assert shown["changes"] == [{"kind": "sealed", "seat": 0, "secret_to": 0}]
        assert shown["view"]["seats"][0]["bid"] is None


# The scenario block, logs and the command line --------------------------------------------------

def test_a_scenario_comes_by_name_or_from_a_file(tmp_path):
    assert load_scenario("siege") == SCENARIOS["siege"]
    path = tmp_path / "ambush.toml"
    path.write_text('name = "ambush"\nstrength = 5\nrounds = 3\n')
    assert load_scenario(str(path)) == Scenario(name="ambush", strength=5, rounds=3)
    with pytest.raises(ValueError, match="neither one of skirmish, siege"):
        load_scenario("picnic")


@pytest.fixture
def bid_log(tmp_path: Path) -> tuple[Path, Header, list[Any]]:
    header = header_for("bid", 4, seed=9, builds=["warden", "spender", "miser", "spender"])
    events, _ = play(header)
    path = tmp_path / "bid.pglog"
    log = write_and_read(path, header, events)
    assert log.header == header and list(log.events) == events
    assert isinstance(log.header.scenario, Scenario)
    assert all(isinstance(seat.setup, Build) for seat in log.header.seats)
    return path, header, events


def test_the_command_line_verifies_a_bid_log(bid_log, capsys):
    code, out, err = cli(capsys, "verify", bid_log[0], "--complete")
    assert (code, out) == (0, "") and "verified 1 log: 0 bad" in err


def test_verify_names_the_rule_a_tampered_bid_breaks(bid_log, capsys, tmp_path):
    from events.log import write_log

    _, header, events = bid_log
    at = next(i for i, e in enumerate(events) if type(e) is Bid)
    bad = tmp_path / "bad.pglog"
    write_log(bad, header, [*events[:at], Bid(seat=events[at].seat, amount=99),
                            *events[at + 1:]])
    code, out, _ = cli(capsys, "verify", bad)
    assert code == 1 and f"seq {at + 1}: BID-3:" in out


def test_replay_as_a_seat_shows_only_its_own_bids_until_the_reveal(bid_log, capsys):
    path, _, events = bid_log
    code, out, _ = cli(capsys, "replay", path, "--as", "1", "--json")
    steps = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(steps) == len(events) + 1
    bids_seen = [s["event"] for s in steps if s["event"] and s["event"]["type"] == "bid"]
    assert all((b["amount"] is None) == (b["seat"] != 1) for b in bids_seen)
    reveals = [c for s in steps for c in s["changes"] if c["kind"] == "revealed"]
    assert reveals and all(len(c["bids"]) == 4 for c in reveals)
    code, out, _ = cli(capsys, "replay", path, "--as", "spectator")
    assert code == 0 and "seals a bid" in out and "in secret" not in out
    assert "the bids are revealed: " in out and out.rstrip().splitlines()[-1].startswith("end:")
