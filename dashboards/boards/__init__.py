"""Board pictures by game: each game registers a pure function (view dict, changes) -> SVG.

The replay page asks `board_renderer(game)`; a game without a picture yet gets None and the page
falls back to the text outline of the view, so a new game is viewable before it is drawable.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

BoardSvg = Callable[[dict[str, Any], list[dict[str, Any]]], str]

_BOARDS: dict[str, BoardSvg] = {}


def register_board(game: str, renderer: BoardSvg) -> None:
    _BOARDS[game] = renderer


def board_renderer(game: str) -> BoardSvg | None:
    return _BOARDS.get(game)


def known_boards() -> list[str]:
    return sorted(_BOARDS)


def _register_builtin() -> None:
    from dashboards.boards import eredan, vitorian

    register_board("vitorian", vitorian.render_svg)
    register_board("eredan", eredan.render_svg)


_register_builtin()
