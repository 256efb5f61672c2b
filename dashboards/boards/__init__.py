"""Board pictures by game: each game's registration (engine.registry) names, as its "board" layer,
a pure function (view dict, changes) -> SVG.

The replay page asks `board_renderer(game)`; a game without a picture yet gets None and the page
falls back to the text outline of the view, so a new game is viewable before it is drawable.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import registry

BoardSvg = Callable[[dict[str, Any], list[dict[str, Any]]], str]


def board_renderer(game: str) -> BoardSvg | None:
    if not registry.has_layer(game, "board"):
        return None
    renderer: BoardSvg = registry.layer(game, "board")
    return renderer


def known_boards() -> list[str]:
    return registry.games_with("board")
