"""Checks shared by the SVG board tests of every game: a perspective's view at a step, the names
it may know, and that the picture keeps the opponent's hand hidden."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.replay import Replay
from engine.ruleset import OMNISCIENT

SVG = "{http://www.w3.org/2000/svg}"

Render = Callable[[dict[str, Any], list[Any]], str]


def view_at(replay: Replay, step: int, perspective: Any) -> dict[str, Any]:
    return replay.ruleset.view(replay.seek(step), perspective)


def names_in(value: Any) -> set[str]:
    """Every card or player name anywhere in a view (what that perspective may know)."""
    if isinstance(value, dict):
        found = {v for k, v in value.items() if k in ("name", "player") and isinstance(v, str)}
        return found.union(*(names_in(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(names_in(v) for v in value))
    return set()


def secret_names(replay: Replay, step: int, seat: int) -> set[str]:
    """Names in the other seat's hand that nothing `seat` may see also carries."""
    everything = view_at(replay, step, OMNISCIENT)
    hand = {card["name"] for card in everything["seats"][1 - seat]["hand"]}
    public = names_in(view_at(replay, step, seat))
    return {n for n in hand if not any(n in known for known in public)}


def assert_hand_hidden(replay: Replay, step: int,
                       render_svg: Render) -> tuple[str, dict[str, Any]]:
    """Seat 0's picture at `step`: the opponent's hand is card backs only, seat 0's own hand card
    faces. Returns that SVG and the opponent's seat in the view."""
    view = view_at(replay, step, 0)
    svg = render_svg(view, [])
    opponent, mine = view["seats"][1], view["seats"][0]
    assert opponent["hand"] is None and opponent["hand_count"] > 0
    assert svg.count('class="card-back"') == opponent["hand_count"]
    assert svg.count('class="card-face"') == mine["hand_count"]
    return svg, opponent


def assert_secrets_hidden(replay: Replay, draw: Callable[[int, int], str]) -> None:
    """On every step, `draw(step, seat)` (a seat's SVG) names nothing of the opponent's hand
    that the seat may not know, and the match had at least one such secret to keep."""
    checked = 0
    for step in range(len(replay) + 1):
        for seat in (0, 1):
            secrets = secret_names(replay, step, seat)
            svg = draw(step, seat)
            assert not [name for name in secrets if name in svg], f"step {step} seat {seat}"
            checked += len(secrets)
    assert checked > 0, "the match never had a secret to keep"
