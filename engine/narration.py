"""What a perspective may know of a replay step, and the words for it: the Narration contract.

Each game owns one Narration (its registration's "narration" layer), the one place that decides
what every perspective it lists (each seat, each side, the organiser, a spectator) may see of
every event and change, and that tells each step in the game's own words, with names, not ids.
The command line (postgame.render), the app (dashboards.replaying) and exports all ask it, so
none of them decides visibility for itself and none has to import another.

The base class here is what every game starts from: a chance outcome (a shuffle order, a die
roll) shows only its kind and seat to anyone but the organiser, another seat's private choices
(events.base.private_fields) lose their cards, and a Change whose `secret_to` names another seat
loses its private fields. Its words are generic ("seat 0 play card=3"): a real game overrides
`event_text`, `change_text` and `outcome_text` to speak its own language.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from engine import registry
from engine.ruleset import OMNISCIENT, SPECTATOR, Change, Outcome, Perspective, actor_name
from events.base import Header, Seat, actor_kind, private_fields, redacted

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
    """The change as `perspective` may see it: the private fields of someone else's secret
    (a drawn card) become None."""
    if not is_hidden(change, perspective) or not change.private:
        return change
    return msgspec.structs.replace(change, **dict.fromkeys(change.private))


def event_data(event: Any, hidden: bool, perspective: Perspective = OMNISCIENT
               ) -> dict[str, Any]:
    """The event as `perspective` may read it: chance payloads hidden (`hidden`), and another
    seat's private choices (events.base.private_fields) with their cards blanked."""
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


SIDE_PREFIX = "side:"


def side_perspective(side: str) -> str:
    """The perspective of a whole side ("side:hunters")."""
    return f"{SIDE_PREFIX}{side}"


def seat_label(seat: Seat) -> str:
    """A seat in words: its player, and its role (or side) in brackets where it has one."""
    part = seat.role or seat.side
    return f"{seat.player} ({part})" if part else seat.player


class Narration:
    """One game's visibility and words. Subclass it in the game's own package and register the
    instance as the game's "narration" layer; override what the game says differently.

    Every method takes the match header (for the players' names and the seats' sides) and,
    where words need names of things, the state right after the step (for cards' names).

    Perspectives: the organiser, each seat, each side the header names ("side:hunters"), and a
    spectator. A side's perspective sees what every seat of it knows alike (the public record)
    unless the side is in `shared_sides`: its seats play with open hands among themselves, so
    the side's perspective sees each of its seats' secrets, and never another side's."""

    shared_sides: tuple[str, ...] = ()

    def perspectives(self, header: Header) -> list[tuple[Perspective, str]]:
        """Every perspective a replay may be seen from, with its label, organiser first."""
        seats: list[tuple[Perspective, str]] = [
            (seat.seat, f"Seat {seat.seat} · {seat_label(seat)}") for seat in header.seats]
        sides = [(side_perspective(side), f"Side {side} · "
                  + ("its seats' secrets too" if side in self.shared_sides
                     else "what all its seats know"))
                 for side in dict.fromkeys(seat.side for seat in header.seats if seat.side)]
        return [(OMNISCIENT, "Organiser (sees everything)"), *seats, *sides,
                (SPECTATOR, "Spectator (public)")]

    def knows(self, header: Header, perspective: Perspective, owner: int | None) -> bool:
        """Whether `perspective` may see the secrets of seat `owner`: the organiser, that seat,
        and its side's perspective where the side shares its secrets."""
        if perspective == OMNISCIENT or (owner is not None and perspective == owner):
            return True
        if owner is None or not isinstance(perspective, str) or not 0 <= owner < len(
                header.seats):
            return False
        side = header.seats[owner].side
        return side in self.shared_sides and perspective == side_perspective(side)

    def is_chance(self, event: Any) -> bool:
        return actor_kind(event) == "chance"

    def hides_event(self, event: Any, perspective: Perspective) -> bool:
        """Whether `perspective` sees only that the event happened (a chance outcome's details
        are the organiser's)."""
        return self.is_chance(event) and perspective != OMNISCIENT

    def event_data(self, header: Header, event: Any, perspective: Perspective
                   ) -> dict[str, Any]:
        """The event as data, as `perspective` may read it (what --json and exports print)."""
        hidden = self.hides_event(event, perspective)
        if self.knows(header, perspective, getattr(event, "seat", None)):
            return event_data(event, hidden, OMNISCIENT)
        return event_data(event, hidden, perspective)

    def change_data(self, header: Header, change: Change, perspective: Perspective
                    ) -> dict[str, Any]:
        """The change as data: someone else's secret loses its private fields."""
        shown = change if self.knows(header, perspective, change.secret_to) else \
            mask_change(change, perspective)
        data: dict[str, Any] = msgspec.to_builtins(shown)
        return data

    def event_text(self, header: Header, state: Any, event: Any,
                   perspective: Perspective) -> str:
        """The event in words, as `perspective` may know it."""
        return event_text(event, self.hides_event(event, perspective), perspective)

    def change_text(self, header: Header, state: Any, change: Change,
                    perspective: Perspective) -> str | None:
        """A change in words, as `perspective` may know it; None: nothing worth telling (a
        phase marker) in the list of what a step changed."""
        return change_text(change, perspective)

    def outcome_text(self, header: Header, outcome: Outcome | None) -> str:
        if outcome is None:
            return "the log stops before the match ends"
        names = {seat.seat: seat.player for seat in header.seats}
        won = [names.get(seat, actor_name(seat)) for seat in outcome.winners]
        who = "draw" if not won else f"{' and '.join(won)} win{'s' if len(won) == 1 else ''}"
        if outcome.side:
            who += f" ({outcome.side})"
        return f"{who}: {outcome.reason} ({outcome.rule})"


GENERIC = Narration()
"""The base narration, for a game (the tests' toy) that has no words of its own."""


def narration_for(game: str) -> Narration:
    """The game's registered narration (its "narration" layer)."""
    found = registry.layer(game, "narration")
    if not isinstance(found, Narration):
        raise TypeError(f"game {game!r}'s narration layer is a {type(found).__name__}, "
                        "not an engine.narration.Narration")
    return found


def change_text(change: Change, perspective: Perspective) -> str:
    """A change in generic words: its kind, its seat, then its fields as key=value."""
    shown = mask_change(change, perspective)
    data = msgspec.to_builtins(shown)
    parts = [shown.kind]
    if shown.seat is not None:
        parts.append(f"seat {shown.seat}")
    if is_hidden(change, perspective) and change.private:
        parts.append("(hidden)")
    parts += [f"{key}={_scalar(value)}" for key, value in data.items()
              if key not in ("kind", "seat", "secret_to", *(
                  change.private if is_hidden(change, perspective) else ()))]
    return " ".join(parts)


def event_text(event: Any, hidden: bool, perspective: Perspective = OMNISCIENT) -> str:
    """An event in generic words: its seat, its type, then its arguments as key=value, with
    what `perspective` may not know said to be hidden."""
    data = event_data(event, hidden, perspective)
    kind = data.pop("type", type(event).__name__)
    seat = data.pop("seat", None)
    who = f"seat {seat} " if seat is not None else ""
    if data.pop("hidden", False):
        return f"{who}{kind} (details hidden)"
    if perspective not in (OMNISCIENT, seat):
        for name in private_fields(event):
            if data.get(name):
                data[name] = f"{len(data[name])} card(s) seen only by seat {seat}"
            elif data.get(name, ()) is None:
                data[name] = f"hidden from all but seat {seat}"
    args = " ".join(f"{k}={_scalar(v)}" for k, v in data.items() if v not in (None, [], ()))
    return f"{who}{kind} {args}".rstrip()


def board_text(view: dict[str, Any], renderer: BoardRenderer | None) -> str:
    return renderer(view) if renderer else render_view(view)
