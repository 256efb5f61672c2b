"""The SVG board: what each perspective may see, and nothing more, drawn as a picture.

The board is drawn from `ruleset.view(state, perspective)`; these tests check the picture keeps
that promise on every step of a real match: a hidden hand is card backs only, the names in the
opponent's hand never reach a seat's SVG, and a spectator sees no hand at all.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import msgspec
import pytest

from dashboards.boards import board_renderer, known_boards
from dashboards.boards.vitorian import render_svg
from engine.replay import Replay
from engine.ruleset import OMNISCIENT, SPECTATOR, get_ruleset
from events.jsonl import load_log
from tests.dashboards.board_checks import SVG, assert_hand_hidden, assert_secrets_hidden, view_at


@pytest.fixture(scope="module")
def replay(season_logs: list[Path]) -> Replay:
    log = load_log(season_logs[0])
    return Replay(get_ruleset(log.header.ruleset), log.header, log.events)


def changes_at(replay: Replay, step: int) -> list[Any]:
    replay.seek(step)
    return replay.changes


def test_every_step_parses_as_svg_for_every_perspective(replay: Replay) -> None:
    for step in range(len(replay) + 1):
        for who in (OMNISCIENT, SPECTATOR, 0, 1):
            root = ElementTree.fromstring(render_svg(view_at(replay, step, who), []))
            assert root.tag == f"{SVG}svg"


def test_a_hidden_hand_is_drawn_as_card_backs_only(replay: Replay) -> None:
    svg, opponent = assert_hand_hidden(replay, len(replay) // 2, render_svg)
    assert f">Hand ({opponent['hand_count']})</text>" in svg and ">hidden</text>" in svg


def test_the_opponents_hand_names_never_appear_in_a_seats_svg(replay: Replay) -> None:
    assert_secrets_hidden(
        replay, lambda step, seat: render_svg(view_at(replay, step, seat), []))


def test_a_spectator_sees_no_hand_and_the_organiser_every_hand(replay: Replay) -> None:
    step = len(replay) // 2
    spectator = render_svg(view_at(replay, step, SPECTATOR), [])
    organiser = render_svg(view_at(replay, step, OMNISCIENT), [])
    hands = [s["hand_count"] for s in view_at(replay, step, OMNISCIENT)["seats"]]
    assert 'class="card-face"' not in spectator
    assert spectator.count('class="card-back"') == sum(hands)
    assert organiser.count('class="card-face"') == sum(hands)
    assert 'class="card-back"' not in organiser


def test_each_seat_sits_at_the_bottom_of_its_own_board(replay: Replay) -> None:
    step = len(replay)
    for seat in (0, 1):
        svg = render_svg(view_at(replay, step, seat), [])
        panels = re.findall(r'class="seat-(\d)"', svg)
        assert panels == [str(1 - seat), str(seat)]  # far side first, own side last


def test_units_show_attack_defense_and_status(replay: Replay) -> None:
    step = next(s for s in range(len(replay), -1, -1) if view_at(replay, s, 0)["units"])
    view = view_at(replay, step, OMNISCIENT)
    svg = render_svg(view, [])
    for unit in view["units"]:
        assert f"ATK {unit['attack']}" in svg and f"DEF {unit['defense']}" in svg
    assert svg.count('class="unit"') == len(view["units"])
    assert svg.count('class="status-exh"') == sum(u["exhausted"] for u in view["units"])
    assert svg.count('class="status-new"') == sum(u["new"] for u in view["units"])


def test_command_areas_and_resources_are_drawn(replay: Replay) -> None:
    view = view_at(replay, len(replay) // 2, 1)
    svg = render_svg(view, [])
    for seat in view["seats"]:
        assert f"Defense {seat['defense_count']}" in svg
        assert f"Convoy {seat['convoy_count']}" in svg
        ready = [r["kind"] for r in seat["resources"] if not r["exhausted"]]
        for kind in set(ready):
            assert f"{ready.count(kind)}[{kind}]" in svg
    assert svg.count("Field Condition") >= 2


def test_the_steps_changes_are_outlined_on_their_cells(replay: Replay) -> None:
    step = next(s for s in range(1, len(replay) + 1)
                if any(c.kind == "mobilized" for c in changes_at(replay, s)))
    view = view_at(replay, step, OMNISCIENT)
    changes = [msgspec.to_builtins(c) for c in replay.changes]
    svg = render_svg(view, changes)
    assert 'class="change-mobilized"' in svg and "mobilized" in svg
    destroyed = {"kind": "destroyed", "seat": 0, "card": 999, "name": "Gone Unit",
                 "cell": [2, 3]}
    moved = {"kind": "moved", "seat": 0, "card": -1, "name": "Mover", "origin": [1, 4],
             "to": [2, 4]}
    svg = render_svg(view, [destroyed, moved])
    assert 'class="change-destroyed"' in svg and "Gone Unit" in svg
    assert "moved away" in svg and svg.count('class="change-moved"') == 2


def test_names_people_type_cannot_break_the_picture(replay: Replay) -> None:
    view = view_at(replay, len(replay), OMNISCIENT)
    view["seats"][0]["player"] = '<script>alert("x")</script> & Co'
    svg = render_svg(view, [])
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    ElementTree.fromstring(svg)


def test_boards_are_registered_by_game() -> None:
    assert "vitorian" in known_boards()
    assert board_renderer("vitorian") is render_svg
    assert board_renderer("no-such-game") is None
