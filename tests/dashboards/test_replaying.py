"""Replay frames: one step of a log as a perspective sees it, board, event and changes.

The event list is as careful as the board: chance outcomes (shuffle orders) are the organiser's
alone, and the cards a seat bottomed after a mulligan (VW-4.7) are that seat's alone. It says
each step in the game's words (engine.vitorian.narrate): names, never ids.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from dashboards.replaying import (
    ReplayCursor,
    ReplayUnavailable,
    StepRecord,
    event_table,
    frame,
    open_replay,
    told_step,
)
from engine.ruleset import OMNISCIENT, SPECTATOR
from engine.tournament import SeasonConfig, run_season
from engine.vitorian.changes import Drew
from events.base import actor_kind
from events.jsonl import load_log
from tests.registry_tools import without_layer


@pytest.fixture(scope="module")
def cursor(season_logs: list[Path]) -> ReplayCursor:
    return open_replay(season_logs[0])


def kept_with_bottom(season_logs: list[Path]) -> tuple[Path, int, int]:
    """A log, the step and the seat of a KeepHand that bottomed cards after a mulligan."""
    for path in season_logs:
        for seq, event in enumerate(load_log(path).events, 1):
            if type(event).__name__ == "KeepHand" and event.bottom:
                return path, seq, event.seat
    pytest.fail("no mulligan with bottomed cards in the fixture season")


def test_a_frame_per_step_with_board_event_and_changes(cursor: ReplayCursor) -> None:
    first, last = frame(cursor, 0, OMNISCIENT), frame(cursor, cursor.total, OMNISCIENT)
    assert (first.step, first.event, first.changes, first.outcome) == (0, "setup", [], None)
    assert first.svg is not None and first.svg.startswith("<svg")
    assert last.step == last.total == cursor.total and last.outcome
    assert frame(cursor, cursor.total + 50, 0).step == cursor.total  # clamped, not an error


def test_seeking_back_and_forth_gives_the_same_frame(cursor: ReplayCursor) -> None:
    middle = cursor.total // 2
    once = frame(cursor, middle, 1)
    frame(cursor, cursor.total, 1)
    frame(cursor, 0, 1)
    assert frame(cursor, middle, 1) == once


def test_chance_outcomes_are_the_organisers_alone(cursor: ReplayCursor) -> None:
    """Everyone reads that a deck was shuffled; only the organiser reads the order it fell in."""
    shuffles = [r for r in cursor.records if type(r.event).__name__ == "Shuffle"]
    assert shuffles and all(actor_kind(r.event) == "chance" for r in shuffles)
    players = cursor.players()
    for record in shuffles:
        zone = {"maneuver": "Maneuver Deck", "convoy": "Supply Convoy"}[record.event.zone]
        seen = f"{players[record.event.seat]}'s {zone} is shuffled"
        assert told_step(record, OMNISCIENT)[0].startswith(f"{seen}, top first: ")
        for who in (SPECTATOR, 0, 1):
            assert told_step(record, who)[0] == seen


def test_bottomed_cards_are_shown_only_to_their_seat(season_logs: list[Path]) -> None:
    """Their names to the seat and the organiser; to everyone else only how many."""
    path, step, seat = kept_with_bottom(season_logs)
    cursor = open_replay(path)
    record = cursor.records[step]
    assert isinstance(record, StepRecord)
    state = cursor.replay.seek(step)
    names = ", ".join(state.cards[cid].name for cid in record.event.bottom)
    player = cursor.players()[seat]
    for who in (seat, OMNISCIENT):
        assert told_step(record, who)[0] == f"{player} keeps, bottoming {names}"
    many = len(record.event.bottom)
    for who in (1 - seat, SPECTATOR):
        assert told_step(record, who)[0] == \
            f"{player} keeps, bottoming {many} card{'' if many == 1 else 's'}"


def test_hidden_draws_stay_hidden_in_the_event_list(cursor: ReplayCursor) -> None:
    organiser, seat0 = event_table(cursor, OMNISCIENT), event_table(cursor, 0)
    assert len(organiser) == len(seat0) == cursor.total + 1
    assert list(organiser["step"]) == list(range(cursor.total + 1))
    seat1_draws = [c for r in cursor.records for c in r.changes
                   if isinstance(c, Drew) and c.seat == 1 and c.name]
    assert seat1_draws
    player = cursor.players()[1]
    listed = "\n".join(seat0["changes"])
    assert f"{player} draws a card" in listed
    assert not any(f"{player} draws {c.name}" in listed for c in seat1_draws)
    assert any(f"{player} draws {c.name}" in "\n".join(organiser["changes"])
               for c in seat1_draws)


def test_a_missing_or_broken_log_is_one_readable_error(tmp_path: Path) -> None:
    with pytest.raises(ReplayUnavailable, match="not there any more"):
        open_replay(tmp_path / "gone.pglog")
    broken = tmp_path / "broken.pglog"
    broken.write_bytes(b"not a log at all")
    with pytest.raises(ReplayUnavailable, match="broken.pglog"):
        open_replay(broken)


def test_a_game_without_a_picture_shows_its_text_board(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A game with no SVG board (Eredan with its picture unregistered): its kit's text board
    stands in, hiding the same things."""
    without_layer(monkeypatch, "eredan", "board")
    run_season(SeasonConfig(game="eredan", players=4, rounds=1, seed=3, out=tmp_path))
    cursor = open_replay(min(tmp_path.rglob("*.pglog")))
    seen = frame(cursor, cursor.total // 2, 0)
    assert seen.svg is None and "Seat 0" in seen.text
    assert "hand" in seen.text and "hidden" in seen.text
    assert frame(cursor, cursor.total // 2, OMNISCIENT).text.count("hidden") < \
        seen.text.count("hidden")


def test_eredan_frames_carry_its_svg_board(tmp_path: Path) -> None:
    run_season(SeasonConfig(game="eredan", players=4, rounds=1, seed=3, out=tmp_path))
    cursor = open_replay(min(tmp_path.rglob("*.pglog")))
    seen = frame(cursor, cursor.total // 2, 0)
    assert seen.svg is not None and 'class="card-back"' in seen.svg
