"""Winning chances (engine.chances) as they must be: reproducible from their seed, the results at
the end of a finished match, and blind to what the perspective may not see: two positions that
differ only there give a seat (and the spectator) the same estimate; a sampler that peeks at
the real state is caught by the same check."""
from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.bots import RandomBot
from engine.chances import (
    ChanceLine,
    ChancesUnavailable,
    StepChances,
    _estimate,
    sample_world,
    winning_chances,
)
from engine.games import get_game
from engine.ruleset import OMNISCIENT, SPECTATOR, WIN
from engine.simulate import play_match
from tests.engine.test_bots_see_their_view import EREDAN, KITS, VITORIAN, Kit, hidden_twin, position


def _bots() -> dict[int, RandomBot]:
    return {0: RandomBot(), 1: RandomBot()}


def _match(kit: Kit, seed: int) -> tuple:
    header = kit.header(seed)
    events, outcome = play_match(kit.rules, header, _bots(), random.Random(seed))
    return header, events, outcome


def _line(kit: Kit, header, events, perspective, seed: int = 3, every: int = 9) -> ChanceLine:
    steps = list(range(0, len(events) + 1, every)) + [len(events)]
    return winning_chances(kit.rules, header, events, perspective,
                           determinize=get_game(kit.name).determinize, bots=_bots,
                           playouts=4, seed=seed, steps=steps)


@KITS
def test_the_line_is_the_same_from_the_same_seed(kit: Kit) -> None:
    header, events, _ = _match(kit, 11)
    first, again = _line(kit, header, events, 0), _line(kit, header, events, 0)
    assert first == again
    other = _line(kit, header, events, 0, seed=4)
    assert [s.step for s in other.steps] == [s.step for s in first.steps]
    assert other.seed == 4 and first.seed == 3


@KITS
@pytest.mark.parametrize("perspective", [0, 1, SPECTATOR, OMNISCIENT])
def test_a_finished_match_ends_at_its_results(kit: Kit, perspective) -> None:
    header, events, outcome = _match(kit, 12)
    last = _line(kit, header, events, perspective, every=1000).steps[-1]
    assert last.step == len(events) and last.playouts == 0
    assert last.chance == tuple(1.0 if r == WIN else 0.0 for r in outcome.results)
    assert last.low == last.high == last.chance


@KITS
def test_every_estimate_is_a_share_with_its_interval(kit: Kit) -> None:
    header, events, _ = _match(kit, 13)
    for step in _line(kit, header, events, 1).steps[:-1]:
        assert step.playouts == 4
        for chance, low, high in zip(step.chance, step.low, step.high):
            assert chance * 4 == int(chance * 4) and low <= chance <= high
        assert sum(step.chance) <= 1.0  # a draw counts for nobody


def _estimate_at(kit: Kit, state, perspective, sampler=None, playouts: int = 3):
    sampler = sampler or get_game(kit.name).determinize
    return _estimate(kit.rules, kit.header(0), state, 0, 0, perspective, sampler, _bots,
                     playouts, 5, 5_000, 2)


@KITS
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 120))
def test_what_a_perspective_may_not_see_changes_nothing_of_its_line(kit, seed, steps):
    state = position(kit, seed, steps)
    assume(state is not None)
    seat = kit.rules.to_move(state)
    twin = hidden_twin(kit, state, seat, random.Random(seed))
    assert _estimate_at(kit, twin, seat) == _estimate_at(kit, state, seat)
    assert _estimate_at(kit, twin, SPECTATOR) == _estimate_at(kit, state, SPECTATOR)


@pytest.mark.parametrize("kit", [VITORIAN, EREDAN], ids=lambda k: k.name)
def test_the_check_catches_a_sampler_that_peeks(kit: Kit) -> None:
    """The same twins, with a sampler that plays on from the real state: some position's line
    changes, so the property above has teeth."""
    differed = 0
    for seed in range(12):
        state = position(kit, seed, 30)
        if state is None:
            continue
        seat = kit.rules.to_move(state)
        twin = hidden_twin(kit, state, seat, random.Random(seed))
        lines = []
        for real in (state, twin):
            lines.append(_estimate_at(kit, real, seat, playouts=12,
                                      sampler=lambda _seen, _rng, real=real: kit.rules.clone(real)))
        differed += lines[0] != lines[1]
    assert differed


def test_a_game_without_a_sampler_or_a_side_perspective_is_refused() -> None:
    state = position(VITORIAN, 1, 10)
    with pytest.raises(ChancesUnavailable, match="GameKit.determinize"):
        sample_world(VITORIAN.rules, state, 0, None, random.Random(0))
    with pytest.raises(ChancesUnavailable, match="side:hounds"):
        sample_world(VITORIAN.rules, state, "side:hounds",
                     get_game("vitorian").determinize, random.Random(0))
    organiser = sample_world(VITORIAN.rules, state, OMNISCIENT, None, random.Random(0))
    assert organiser is not state and VITORIAN.rules.view(organiser, OMNISCIENT) == \
        VITORIAN.rules.view(state, OMNISCIENT)


def test_turning_points_are_the_biggest_swings_first() -> None:
    def at(step: int, p: float) -> StepChances:
        return StepChances(step, 0, 4, (p, 1 - p), (p, 1 - p), (p, 1 - p))

    line = ChanceLine(0, 0, 4, (at(0, 0.5), at(1, 0.75), at(2, 0.25), at(3, 0.25), at(4, 1.0)))
    assert line.turning_points() == [(4, 0.75), (2, -0.5), (1, 0.25)]
    assert line.turning_points(seat=1)[0] == (4, -0.75)


def test_the_command_prints_the_line_and_refuses_what_it_cannot_do(tmp_path, capsys) -> None:
    import json

    import msgspec

    from engine.ruleset import get_ruleset
    from events.log import encode_log
    from postgame.cli import main

    kit = get_game("vitorian")
    header = msgspec.structs.replace(VITORIAN.header(14), ruleset=kit.ruleset)
    events, _ = play_match(get_ruleset(kit.ruleset), header, _bots(), random.Random(14))
    path = tmp_path / "match.pglog"
    path.write_bytes(encode_log(header, [events])[0])
    assert main(["chances", str(path), "--as", "0", "--every", "25", "--playouts", "4",
                 "--json"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert said["perspective"] == 0 and said["playouts"] == 4
    steps = [s["step"] for s in said["steps"]]
    assert steps[0] == 0 and steps[-1] == len(events) and said["steps"][-1]["playouts"] == 0
    assert main(["chances", str(path), "--as", "1", "--every", "25", "--playouts", "2"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("winning chances seen as Seat 1 · p1") and "(the result)" in text
    assert main(["chances", str(path), "--bot", "clever"]) != 0
    assert "clever" in capsys.readouterr().err
