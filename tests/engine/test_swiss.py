"""Swiss pairing: everyone plays once a round, no rematch when one can be avoided, fair byes."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.swiss import DRAW, WIN, Swiss


def perfect_matchings(pool):
    if not pool:
        yield []
        return
    first, rest = pool[0], pool[1:]
    for i, other in enumerate(rest):
        for tail in perfect_matchings(rest[:i] + rest[i + 1:]):
            yield [(first, other), *tail]


def rematch_free_exists(swiss, names):
    return any(all(not swiss.met(a, b) for a, b in m) for m in perfect_matchings(names))


@settings(max_examples=150, deadline=None)
@given(players=st.integers(2, 9), rounds=st.integers(1, 8), seed=st.integers(0, 2**32))
def test_rounds_pair_everyone_once_and_avoid_rematches(players, rounds, seed):
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(players)]
    swiss = Swiss(names)
    for _ in range(rounds):
        before = {n: list(r.opponents) for n, r in swiss.records.items()}
        pairing = swiss.start_round()
        seated = [p for table in pairing.tables for p in table]
        assert sorted(seated + ([pairing.bye] if pairing.bye else [])) == sorted(names)
        assert (pairing.bye is not None) == (players % 2 == 1)
        probe = Swiss(names)
        for n, opps in before.items():
            probe.records[n].opponents = opps
        if rematch_free_exists(probe, seated):
            assert not any(probe.met(a, b) for a, b in pairing.tables)
        for a, b in pairing.tables:
            swiss.record(a, b, rng.choice([a, b, None]))


def test_the_bye_is_a_win_for_the_lowest_ranked_without_one():
    swiss = Swiss(["a", "b", "c"])
    first = swiss.start_round()
    assert first.bye == "c" and swiss.records["c"].points == WIN
    assert swiss.records["c"].opponents == []
    swiss.record(*first.tables[0], winner="a")
    second = swiss.start_round()
    assert second.bye == "b"
    assert swiss.records["b"].byes == 1 and swiss.records["c"].byes == 1


def test_winners_meet_winners():
    swiss = Swiss([f"p{i}" for i in range(8)])
    for a, b in swiss.start_round().tables:
        swiss.record(a, b, winner=a)
    winners = {n for n, r in swiss.records.items() if r.wins}
    for a, b in swiss.start_round().tables:
        assert (a in winners) == (b in winners)


def test_standings_rank_points_then_opponents_strength():
    swiss = Swiss(["a", "b", "c", "d"])
    swiss.record("a", "b", winner="a")
    swiss.record("c", "d", winner=None)
    swiss.record("a", "c", winner="a")
    swiss.record("b", "d", winner="b")
    ranked = [r.name for r in swiss.standings()]
    assert ranked[0] == "a" and swiss.records["a"].points == 2 * WIN
    assert swiss.records["c"].points == swiss.records["d"].points == DRAW
    assert ranked.index("b") < ranked.index("c")


def test_many_rounds_for_few_players_fall_back_to_rematches():
    swiss = Swiss(["a", "b", "c", "d"])
    for _ in range(5):
        pairing = swiss.start_round()
        assert len(pairing.tables) == 2
        for a, b in pairing.tables:
            swiss.record(a, b, winner=a)
