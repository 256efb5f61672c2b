"""Properties of the V20 engine over seeded simulated fights: every fight ends, replays to the
same scene from its log alone, a refused event leaves the scene as it was (naming a V20- rule),
and a clone is independent of its original."""
from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots import RandomBot
from engine.games import get_game
from engine.replay import Replay
from engine.ruleset import CHANCE, OMNISCIENT, RuleViolation, get_ruleset
from engine.simulate import play_match
from events.base import Header, Seat
from events.v20 import Concede, Declare, Roll, Rulings

RULES = get_ruleset("v20@1")
KIT = get_game("v20")


def fight(seed: int, scenario: str = "bonfire", bots: str = "random") -> tuple[Header, list[Any]]:
    rng = random.Random(seed)
    frame = KIT.scenario(scenario)
    pairing = KIT.fixed_builds(frame) or tuple(rng.choice(KIT.archetypes) for _ in (0, 1))
    seats = [Seat(seat=s, player=f"p{s}", setup=KIT.setup(b, place, rng))
             for s, (b, place) in enumerate(zip(pairing, KIT.layout(2)))]
    header = Header(game="v20", ruleset="v20@1", match_id=f"p{seed}", seats=seats,
                    scenario=frame, seed=seed)
    kind = {"random": RandomBot, "tactical": KIT.bots["tactical"]}[bots]
    assert KIT.storyteller is not None
    events, _ = play_match(RULES, header, {0: kind(), 1: kind()}, random.Random(seed),
                           storyteller=KIT.storyteller())
    return header, events


def organiser(state: Any) -> bytes:
    return msgspec.json.encode(RULES.view(state, OMNISCIENT))


@pytest.mark.parametrize("seed, scenario, bots", [
    (1, "bonfire", "random"), (2, "bonfire", "tactical"), (3, "alley", "random"),
    (4, "alley", "tactical"), (5, "bonfire", "random")])
def test_a_fight_ends_and_replays_to_the_same_scene(seed, scenario, bots):
    header, events = fight(seed, scenario, bots)
    replay = Replay(RULES, header, events)
    outcome = replay.outcome
    assert outcome is not None and outcome.rule in ("V20-14.1", "V20-14.2")
    again = Replay(RULES, header, events)
    assert organiser(again.seek(len(events))) == organiser(replay.seek(len(events)))
    middle = len(events) // 2
    assert organiser(replay.seek(middle)) == organiser(again.seek(middle))  # seeking back


def test_the_same_seed_writes_the_same_fight():
    assert fight(7)[1] == fight(7)[1]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), at=st.floats(0, 1))
def test_a_refused_event_changes_nothing_and_names_a_v20_rule(seed, at):
    header, events = fight(seed % 50)
    state = Replay(RULES, header, events).seek(int(at * len(events)))
    if state.over:
        return
    before = organiser(state)
    for wrong in _wrong_events(state):
        with pytest.raises(RuleViolation) as refused:
            RULES.apply(state, wrong)
        assert refused.value.rule.startswith("V20-"), refused.value
        assert organiser(state) == before


def _wrong_events(state: Any) -> list[Any]:
    head = state.queue[0]
    wrong: list[Any] = [Roll(dice=(11,) * max(head.pool, 1)), Rulings(),
                        Declare(seat=0, character="nobody")]
    if head.what == "roll":
        wrong.append(Roll(dice=(5,) * (head.pool + 1)))
    if head.actor == CHANCE:
        wrong.append(Concede(seat=2))
    return [w for w in wrong if not _fits(head, w)]


def _fits(head: Any, event: Any) -> bool:
    """Leave out an event that happens to be a legal answer to this step."""
    if isinstance(event, Rulings):
        return head.what == "rulings"
    if isinstance(event, Roll):
        return head.what == "roll" and len(event.dice) == head.pool and all(
            1 <= d <= 10 for d in event.dice)
    return False


def test_a_clone_is_independent_of_its_original():
    header, events = fight(11)
    state = RULES.setup(header)
    for event in events[:40]:
        RULES.apply(state, event)
    twin = RULES.clone(state)
    before = organiser(state)
    for event in events[40:60]:
        RULES.apply(twin, event)
    assert organiser(state) == before
    for event in events[40:60]:
        RULES.apply(state, event)
    assert organiser(state) == organiser(twin)
