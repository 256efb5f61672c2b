"""Simulated seasons: deterministic from one seed, fair seating, one log per match."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import date
from itertools import pairwise
from pathlib import Path

import pytest

from engine.games import get_game
from engine.replay import Replay
from engine.ruleset import get_ruleset
from engine.tournament import (
    SeasonCharges,
    SeasonConfig,
    create_tournament,
    player_names,
    round_tasks,
    run_season,
    season_dates,
    summary,
)


def config(tmp_path: Path, **kw) -> SeasonConfig:
    base = {"game": "toy", "players": 7, "rounds": 3, "seed": 42, "out": tmp_path,
            "tournaments": 2}
    return SeasonConfig(**(base | kw))


def test_names_are_distinct_and_deterministic():
    names = player_names(3, 600)
    assert len(set(names)) == 600 and names == player_names(3, 600)
    assert names[:5] != player_names(4, 5)


def test_tournament_days_are_three_or_four_days_apart():
    days = season_dates(1, 6, date(2026, 3, 1))
    assert days[0] == date(2026, 3, 1)
    assert {(b - a).days for a, b in pairwise(days)} <= {3, 4}
    assert season_dates(9, 3, None) == season_dates(9, 3, None)


def test_archetypes_are_spread_evenly_and_decks_are_legal(tmp_path):
    kit = get_game("toy")
    tour = create_tournament(config(tmp_path, players=10), kit, 0, date(2026, 1, 5),
                             player_names(1, 10))
    counts = Counter(e.archetype for e in tour.entrants.values())
    assert max(counts.values()) - min(counts.values()) <= 1
    assert all(kit.check_deck(e.deck) == [] for e in tour.entrants.values())
    assert tour.id == "toy-2026-001"


def test_headers_carry_the_event_context(tmp_path):
    kit = get_game("toy")
    cfg = config(tmp_path)
    tour = create_tournament(cfg, kit, 1, date(2026, 2, 9), player_names(1, 7))
    tasks = round_tasks(tour, 1, kit, "tests.engine.toy_game:kit", tmp_path)
    assert len(tasks) == 3 and len(tour.byes) == 1
    header = tasks[0].header
    assert header.match_id == "toy-2026-002-r1-t1" and header.tournament == "toy-2026-002"
    assert (header.round, header.table, header.format) == (1, 1, "standard")
    assert header.started_at.isoformat() == "2026-02-09T10:00:00+00:00"
    assert tasks[0].path == str(tmp_path / "toy-2026-002" / "toy-2026-002-r1-t1.pglog")
    assert len({t.header.seed for t in tasks}) == 3


def test_unknown_bot_is_refused_before_anything_runs(tmp_path):
    with pytest.raises(KeyError, match="unknown bot 'smart'"):
        run_season(config(tmp_path, bots=("smart",)))
    assert not any(tmp_path.iterdir())


@pytest.fixture
def log_module():
    import events.log

    return events.log


def test_season_writes_one_replayable_log_per_match(tmp_path, log_module):
    cfg = config(tmp_path)
    tours = run_season(cfg)
    files = sorted(tmp_path.rglob("*.pglog"))
    assert len(files) == 2 * 3 * 3
    log = log_module.read_log(files[0])
    replay = Replay(get_ruleset(log.header.ruleset), log.header, list(log.events))
    match = next(m for t in tours for m in t.matches if m.path == str(files[0]))
    assert replay.outcome is not None and len(replay) == match.events
    data = summary(cfg, tours)
    assert [t["id"] for t in data["tournaments"]] == ["toy-2026-001", "toy-2026-002"]
    assert all(len(t["byes"]) == 3 for t in data["tournaments"])


def test_worker_count_does_not_change_a_byte(tmp_path, log_module):
    one, four = tmp_path / "one", tmp_path / "four"
    first = summary(config(one), run_season(config(one)))
    second = summary(config(four, workers=4), run_season(config(four, workers=4)))
    assert _strip_paths(first) == _strip_paths(second)
    files = sorted(p.relative_to(one) for p in one.rglob("*.pglog"))
    assert files == sorted(p.relative_to(four) for p in four.rglob("*.pglog"))
    assert all((one / f).read_bytes() == (four / f).read_bytes() for f in files)


@pytest.mark.parametrize("game, players", [("toy", 7), ("vitorian", 8)])
def test_a_season_in_parts_is_the_season_at_once(tmp_path, monkeypatch, game, players):
    """Two parts (first = 0 and 2) write the logs of the four tournaments run at once, byte for
    byte: ids, seeds and dates go on, and Vitorian's decks follow the charge tables that the
    tournaments before a part shaped (under a cap of 100 the builder must mind them)."""
    import msgspec

    from engine import tournament
    from engine.charges import ChargeFormats, load_formats

    tight = msgspec.structs.replace(load_formats().settings("vitorian", "standard"), cap=100)
    formats = ChargeFormats(games={"vitorian": {"standard": tight}})
    monkeypatch.setattr(tournament, "load_formats", lambda: formats)
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    cfg = config(whole, game=game, players=players, rounds=2, tournaments=4)
    at_once = [(t.id, t.date) for t in run_season(cfg)]
    in_parts = [(t.id, t.date) for first in (0, 2)
                for t in run_season(replace(cfg, out=parts, tournaments=2, first=first))]
    assert in_parts == at_once and len(set(at_once)) == 4
    files = sorted(p.relative_to(whole) for p in whole.rglob("*.pglog"))
    assert files == sorted(p.relative_to(parts) for p in parts.rglob("*.pglog"))
    assert all((whole / f).read_bytes() == (parts / f).read_bytes() for f in files)
    with pytest.raises(ValueError, match="999"):
        run_season(replace(cfg, first=997))


def _strip_paths(data):
    text = repr(data)
    return text.replace(data["out"], "OUT")


def test_the_summary_lists_every_seat_of_every_match_with_its_result(tmp_path):
    cfg = config(tmp_path, players=4, rounds=1, tournaments=1)
    data = summary(cfg, run_season(cfg))
    assert data["format"] == "swiss" and data["seats"] == 2
    for match in data["tournaments"][0]["matches"]:
        seats = match["seats"]
        assert [s["seat"] for s in seats] == [0, 1]
        assert all(set(s) == {"seat", "player", "result", "archetype"} for s in seats)
        assert sorted(s["result"] for s in seats) in (["draw", "draw"], ["loss", "win"])


def test_CH_2_2_the_season_keeps_only_the_latest_table_and_refuses_to_go_back():
    """Epoch k's table follows from epoch k-1's alone (CH-2.2), so a simulated season holds one
    table, whatever its length; asking for an epoch already passed is an error, not a guess."""
    charges = SeasonCharges("vitorian")
    window = charges.settings.window
    assert charges.in_force(3 * window).version == "epoch-3"
    assert charges.in_force(3 * window + window - 1).version == "epoch-3"
    with pytest.raises(ValueError, match="epoch 1, before epoch 3"):
        charges.in_force(window)
