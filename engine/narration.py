"""What a perspective may know of a replay step, in words: the rules' masking and narration.

Hidden information stays hidden in every rendering: a Change whose `secret_to` names another seat
loses its card, and a chance outcome (a shuffle order, a die roll) shows only its kind and seat to
anyone but the organiser. Boards use the game's own renderer (GameKit.render_text) when it has
one, else a generic outline of the view dict.

This is rules knowledge, not presentation: the command line (postgame.render) and the app
(dashboards.replaying) both build on it, so neither has to import the other.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from engine.ruleset import OMNISCIENT, Change, Outcome, Perspective
from events.base import redacted

BoardRenderer = Callable[[dict[str, Any]], str]


def render_view(view: Any, indent: int = 0) -> str:
    """A readable outline of any JSON-able view: nested maps indent, short lists stay inline."""
    return "\n".join(_outline(view, indent))


def _outline(value: Any, indent: int) -> list[str]:
    pad = "  " * indent
    if isinstance(value, dict):
        lines = []
        for key, item in value.items():
            if _inline(item):
                lines.append(f"{pad}{key}: {_scalar(item)}")
            else:
                lines += [f"{pad}{key}:", *_outline(item, indent + 1)]
        return lines
    if isinstance(value, list) and not _inline(value):
        lines = []
        for item in value:
            inner = _outline(item, indent + 1)
            lines.append(f"{pad}- {inner[0].lstrip()}" if inner else f"{pad}-")
            lines += inner[1:]
        return lines
    return [f"{pad}{_scalar(value)}"]


def _inline(value: Any) -> bool:
    if isinstance(value, dict):
        return not value
    if isinstance(value, list):
        return all(not isinstance(v, (dict, list)) for v in value) and len(str(value)) <= 80
    return True


def _scalar(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_scalar(v) for v in value) + "]"
    if value is None:
        return "-"
    return str(value) if not isinstance(value, dict) else "{}"


def is_hidden(change: Change, perspective: Perspective) -> bool:
    return change.secret_to is not None and perspective not in (OMNISCIENT, change.secret_to)


def mask_change(change: Change, perspective: Perspective) -> Change:
    """The change as `perspective` may see it: the card of someone else's secret is removed."""
    if not is_hidden(change, perspective):
        return change
    return msgspec.structs.replace(change, card=None, name=None)


def change_text(change: Change, perspective: Perspective) -> str:
    parts = [change.kind]
    if change.seat is not None:
        parts.append(f"seat {change.seat}")
    if is_hidden(change, perspective):
        parts.append("(hidden card)")
    elif change.name is not None or change.card is not None:
        parts.append(" ".join(p for p in (change.name, f"#{change.card}"
                                          if change.card is not None else None) if p))
    if change.cell is not None:
        parts.append(f"at {tuple(change.cell)}")
    if change.amount is not None:
        parts.append(f"amount={change.amount}")
    if change.text:
        parts.append(f"- {change.text}")
    return " ".join(parts)


def event_data(event: Any, hidden: bool, perspective: Perspective = OMNISCIENT
               ) -> dict[str, Any]:
    """The event as `perspective` may read it: chance payloads hidden, and another seat's
    private choices (events.base.private_fields) with their cards blanked."""
    owner = getattr(event, "seat", None)
    if perspective in (OMNISCIENT, owner):
        data = msgspec.to_builtins(event)
    else:
        data = redacted(event)
    if not isinstance(data, dict):
        return {"value": data}
    if hidden:
        return {k: v for k, v in data.items() if k in ("type", "seat")} | {"hidden": True}
    return data


def event_text(event: Any, hidden: bool, perspective: Perspective = OMNISCIENT) -> str:
    data = event_data(event, hidden, perspective)
    kind = data.pop("type", type(event).__name__)
    seat = data.pop("seat", None)
    who = f"seat {seat} " if seat is not None else ""
    if data.pop("hidden", False):
        return f"{who}{kind} (details hidden)"
    args = " ".join(f"{k}={_scalar(v)}" for k, v in data.items())
    return f"{who}{kind} {args}".rstrip()


def outcome_text(outcome: Outcome | None) -> str:
    if outcome is None:
        return "the log stops before the match ends"
    who = "draw" if outcome.winner is None else f"seat {outcome.winner} wins"
    return f"{who}: {outcome.reason} ({outcome.rule})"


def board_text(view: dict[str, Any], renderer: BoardRenderer | None) -> str:
    return renderer(view) if renderer else render_view(view)
