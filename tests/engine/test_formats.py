"""Event formats: Swiss for two-seat symmetric games (as before, to the byte), role rotation
for games of roles (each player plays each role in turn), scenario sweeps for games played from
scenarios (every pairing of builds, N matches each, both sides), and results that hold every
seat's player, side, role and result."""
from __future__ import annotations

import hashlib
from collections import Counter
from datetime import date
from itertools import product
from pathlib import Path

import pytest

from engine.formats import RoleRotation, ScenarioSweep, Tally, make_format
from engine.games import ROLES, SWEEP, SWISS, GameKit, Place, get_game
from engine.ruleset import DRAW, LOSS, WIN
from engine.tournament import (
    SeasonConfig,
    create_tournament,
    player_names,
    round_tasks,
    run_season,
    summary,
)
from tests.engine import toy_game
from tests.games.bid import registration as bid_registration
from tests.games.bid.kit import BUILDS, SCENARIOS
from tests.games.registered import games_registered

SWISS_LOGS = "2f4deb1be369f2c0e8de6ed9358c9a0e2b90cc3f511ad93e5733b036d94e11ba"
"""The digest of every log of the toy season below, as the Swiss-only simulator wrote them."""


@pytest.fixture(autouse=True, scope="module")
def test_games_registered():
    with games_registered():
        yield


def logs_digest(out: Path) -> str:
    files = sorted(out.rglob("*.pglog"))
    text = "".join(f"{f.relative_to(out)}={hashlib.sha256(f.read_bytes()).hexdigest()};"
                   for f in files)
    return hashlib.sha256(text.encode()).hexdigest()


def planned(game: str, players: int, rounds: int, seats: int | None = None, seed: int = 3):
    """Every round's tables of one tournament, each planned after the last (no match played:
    role rotation and sweeps seat by rotation, not by results)."""
    cfg = SeasonConfig(game=game, players=players, rounds=rounds, seed=seed, out=Path("."),
                       seats=seats)
    tour = create_tournament(cfg, get_game(game), 0, date(2026, 1, 5),
                             player_names(seed, players))
    return tour, [tour.format.plan(rnd) for rnd in range(1, rounds + 1)]


# Swiss, unchanged ----------------------------------------------------------------------------

def test_swiss_writes_the_same_logs_as_before_formats(tmp_path):
    cfg = SeasonConfig(game="toy", players=7, rounds=3, seed=42, out=tmp_path, tournaments=2)
    tours = run_season(cfg)
    assert logs_digest(tmp_path) == SWISS_LOGS
    top = summary(cfg, tours)["tournaments"][0]["standings"][0]
    assert top == {"rank": 1, "player": "Vera Kowalski", "archetype": "high", "bot": "random",
                   "points": 9, "wins": 3, "losses": 0, "draws": 0, "byes": 0, "omw": 0.5556}


def test_a_swiss_match_result_holds_both_seats(tmp_path):
    (tour,) = run_season(SeasonConfig(game="toy", players=4, rounds=1, seed=2, out=tmp_path))
    for match in tour.matches:
        assert [s.seat for s in match.seats] == [0, 1] and match.side is None
        results = sorted(s.result for s in match.seats)
        assert results in ([DRAW, DRAW], [LOSS, WIN])
        assert match.winner == next((s.player for s in match.seats if s.result == WIN), None)
        assert all(s.archetype in toy_game.ARCHETYPES for s in match.seats)


def test_swiss_pairs_only_two_seat_tables():
    kit = get_game("toy")
    with pytest.raises(ValueError, match="Swiss pairs two-seat tables"):
        make_format(kit, {}, [], (Place(),) * 3, 1)
    with pytest.raises(ValueError, match="tables of 2 seats, not 3"):
        kit.table_size(3)


def test_the_card_games_kit_keywords_still_build_a_swiss_kit():
    kit = toy_game.kit()
    assert (kit.format, kit.table_size(), kit.layout(2)) == (SWISS, 2, (Place(), Place()))
    assert kit.build_setup is None and kit.scenario() is None


# Role rotation -------------------------------------------------------------------------------

def test_role_rotation_gives_each_player_each_role_equally():
    tour, plans = planned("hunt", players=8, rounds=8, seats=4)
    roles: Counter[tuple[str, str | None]] = Counter()
    for plan in plans:
        seated = [s.player for table in plan.tables for s in table]
        assert sorted(seated) == sorted(tour.entrants) and not plan.byes
        for table in plan.tables:
            assert [s.place.role for s in table] == ["fox", "hound", "hound", "hound"]
            roles.update((s.player, s.place.role) for s in table)
    assert {roles[name, "fox"] for name in tour.entrants} == {2}
    assert {roles[name, "hound"] for name in tour.entrants} == {6}


def test_role_rotation_draws_new_tables_each_cycle():
    _, plans = planned("hunt", players=9, rounds=6, seats=3)
    groups = [{frozenset(s.player for s in table) for table in plan.tables} for plan in plans]
    assert groups[0] == groups[1] == groups[2] and groups[3] == groups[4] == groups[5]
    assert groups[0] != groups[3]


def test_role_rotation_builds_each_seats_setup_for_its_role():
    _, plans = planned("hunt", players=4, rounds=2, seats=2)
    for table in plans[0].tables:
        fox, hound = table
        assert fox.setup.place is None and hound.setup.place in ("kennel", "barn")


def test_role_rotation_needs_a_multiple_of_the_table_size():
    with pytest.raises(ValueError, match="choose a multiple of 3 players"):
        planned("hunt", players=8, rounds=3, seats=3)


def test_a_role_rotation_season_ranks_players_overall_and_per_role(tmp_path):
    cfg = SeasonConfig(game="hunt", players=6, rounds=3, seed=4, out=tmp_path, seats=3)
    tours = run_season(cfg)
    data = summary(cfg, tours)
    (tour,) = data["tournaments"]
    assert (data["format"], data["seats"]) == (ROLES, 3) and len(tour["matches"]) == 6
    assert set(tour["roles"]) == {"fox", "hound"}
    assert {r["played"] for r in tour["roles"]["fox"]} == {1}
    assert {r["played"] for r in tour["roles"]["hound"]} == {2}
    assert [r["rank"] for r in tour["standings"]] == list(range(1, 7))
    for match in tours[0].matches:
        assert [(s.role, s.side) for s in match.seats] == [
            ("fox", "fox"), ("hound", "hounds"), ("hound", "hounds")]
        hounds = {s.result for s in match.seats if s.role == "hound"}
        assert len(hounds) == 1


# Scenario sweeps -----------------------------------------------------------------------------

def test_a_sweep_plays_every_pairing_n_times_with_each_build_on_each_side():
    tour, plans = planned("bid", players=2, rounds=3)
    played: Counter[tuple[str, str]] = Counter()
    for plan in plans:
        for table in plan.tables:
            red, blue = table
            assert (red.place.side, blue.place.side) == ("red", "blue")
            assert red.setup == BUILDS[red.archetype] and blue.setup == BUILDS[blue.archetype]
            played[red.archetype, blue.archetype] += 1
    assert played == {pairing: 3 for pairing in product(BUILDS, repeat=2)}
    assert tour.scenario == SCENARIOS["skirmish"]


def test_a_sweep_at_tables_of_four_gives_each_side_one_build():
    _, plans = planned("bid", players=4, rounds=1, seats=4)
    for table in plans[0].tables:
        sides = {(s.place.side, s.archetype) for s in table}
        assert len(sides) == 2 and [s.place.side for s in table] == ["red", "blue"] * 2


def test_a_sweep_season_records_builds_per_side_and_every_pairing(tmp_path):
    cfg = SeasonConfig(game="bid", players=2, rounds=2, seed=5, out=tmp_path,
                       scenario=SCENARIOS["siege"])
    tours = run_season(cfg)
    (tour,) = summary(cfg, tours)["tournaments"]
    assert len(tour["matches"]) == 2 * len(BUILDS) ** 2
    assert {row["played"] for row in tour["pairings"]} == {2}
    for row in tour["pairings"]:
        assert sum(row["wins"].values()) + row["draws"] == 2
    assert {r["build"] for r in tour["standings"]} == set(BUILDS)
    assert {r["played"] for r in tour["standings"]} == {2 * 2 * len(BUILDS)}
    assert {r["played"] for side in tour["sides"].values() for r in side} == {2 * len(BUILDS)}
    first = tours[0].matches[0]
    assert [s.archetype for s in first.seats] == [next(iter(BUILDS))] * 2


def test_every_sweep_header_carries_its_scenario(tmp_path):
    kit = get_game("bid")
    cfg = SeasonConfig(game="bid", players=2, rounds=1, seed=5, out=tmp_path,
                       scenario=SCENARIOS["siege"])
    tour = create_tournament(cfg, kit, 0, date(2026, 1, 5), player_names(5, 2))
    tasks = round_tasks(tour, 1, kit, bid_registration.REGISTRATION_REF, tmp_path)
    assert {t.header.scenario for t in tasks} == {SCENARIOS["siege"]}
    assert len({t.header.seed for t in tasks}) == len(tasks) == len(BUILDS) ** 2


def test_a_game_without_builds_cannot_be_swept():
    kit = GameKit(name="x", ruleset="x@1", prefix="x", format=SWEEP)
    with pytest.raises(ValueError, match="no builds to sweep"):
        ScenarioSweep(kit, {}, (Place(side="a"), Place(side="b")), 1)


# Seeds and workers -----------------------------------------------------------------------------

@pytest.mark.parametrize(("game", "players", "rounds", "seats"), [("hunt", 6, 3, 3),
                                                                  ("bid", 4, 1, 4)])
def test_worker_count_does_not_change_a_byte_in_any_format(tmp_path, game, players, rounds,
                                                           seats):
    one, two = tmp_path / "one", tmp_path / "two"
    cfgs = [SeasonConfig(game=game, players=players, rounds=rounds, seed=8, out=out,
                         seats=seats, workers=w, tournaments=2) for out, w in ((one, 1),
                                                                               (two, 2))]
    first, second = (summary(cfg, run_season(cfg)) for cfg in cfgs)
    assert logs_digest(one) == logs_digest(two)
    assert repr(first).replace(str(one), "OUT") == repr(second).replace(str(two), "OUT")


def test_a_tally_scores_three_a_win_and_one_a_draw():
    tally = Tally()
    for result in (WIN, DRAW, LOSS, WIN):
        tally.add(result)
    assert tally.row() == {"points": 7, "played": 4, "wins": 2, "losses": 1, "draws": 1,
                           "win_rate": 0.5}
    assert isinstance(make_format(get_game("hunt"), {}, [], get_game("hunt").layout(2), 1),
                      RoleRotation)
