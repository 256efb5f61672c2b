"""The Eredan SVG board: what each perspective may see, and nothing more, on every step of a
real simulated match."""
from __future__ import annotations

from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import msgspec
import pytest

from dashboards.boards import board_renderer, known_boards
from dashboards.boards.eredan import render_svg
from engine.narration import mask_change
from engine.replay import Replay
from engine.ruleset import OMNISCIENT, SPECTATOR, get_ruleset
from engine.tournament import SeasonConfig, run_season
from events.log import read_log
from tests.dashboards.board_checks import SVG, assert_hand_hidden, assert_secrets_hidden, view_at


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> Replay:
    out = tmp_path_factory.mktemp("eredan-board")
    run_season(SeasonConfig(game="eredan", players=2, rounds=1, seed=3, out=out))
    log = read_log(min(Path(out).rglob("*.pglog")))
    return Replay(get_ruleset(log.header.ruleset), log.header, log.events)


def changes_at(replay: Replay, step: int, perspective: Any) -> list[dict[str, Any]]:
    replay.seek(step)
    return [msgspec.to_builtins(mask_change(c, perspective)) for c in replay.changes]


def test_every_step_parses_for_every_perspective(replay: Replay) -> None:
    for step in range(len(replay) + 1):
        for who in (OMNISCIENT, SPECTATOR, 0, 1):
            svg = render_svg(view_at(replay, step, who), changes_at(replay, step, who))
            assert ElementTree.fromstring(svg).tag == f"{SVG}svg"


def test_a_hidden_hand_is_card_backs_only(replay: Replay) -> None:
    step = len(replay) // 2
    assert_hand_hidden(replay, step, render_svg)
    spectator = render_svg(view_at(replay, step, SPECTATOR), [])
    assert 'class="card-face"' not in spectator


def test_the_opponents_hand_names_never_appear_in_a_seats_svg(replay: Replay) -> None:
    assert_secrets_hidden(replay, lambda step, seat: render_svg(
        view_at(replay, step, seat), changes_at(replay, step, seat)))


def test_characters_played_cards_and_changes_are_drawn(replay: Replay) -> None:
    step = next(s for s in range(1, len(replay) + 1)
                if view_at(replay, s, OMNISCIENT)["played"]
                and any(c["kind"] in ("physical", "magic") for c in
                        changes_at(replay, s, OMNISCIENT)))
    view = view_at(replay, step, OMNISCIENT)
    svg = render_svg(view, changes_at(replay, step, OMNISCIENT))
    assert svg.count('class="character"') == 6
    for c in view["characters"]:
        assert f"HP {c['hp']}/{c['max_hp']}" in svg and f"SPI {c['spirit']}" in svg
    assert svg.count('class="status-tapped"') == sum(
        c["tapped"] for c in view["characters"])
    assert svg.count('class="played"') == len(view["played"])
    first = view["played"][0]["name"]
    assert f"1. {first[:10]}" in svg
    assert 'class="change-physical"' in svg or 'class="change-magic"' in svg


def test_the_board_is_registered() -> None:
    assert "eredan" in known_boards() and board_renderer("eredan") is render_svg


def test_the_change_list_names_cards_and_keeps_the_others_draws_secret(replay: Replay) -> None:
    """The opening hands: a seat's list names its own five cards, the other's as hidden cards;
    the organiser's names all ten."""
    step = next(s for s in range(1, len(replay) + 1)
                if any(c["kind"] == "draw" for c in changes_at(replay, s, OMNISCIENT)))
    for seat in (0, 1):
        svg = render_svg(view_at(replay, step, seat), changes_at(replay, step, seat))
        lines = list(ElementTree.fromstring(svg).itertext())
        assert lines.count(f"draw · seat {1 - seat} · (hidden card)") == 5
        for card in view_at(replay, step, seat)["seats"][seat]["hand"]:
            assert f"draw · seat {seat} · {card['name']}" in lines
    assert "(hidden card)" not in render_svg(view_at(replay, step, OMNISCIENT),
                                             changes_at(replay, step, OMNISCIENT))
