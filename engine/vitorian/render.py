"""A text picture of a Vitorian Wars view for the terminal replay: the 4x5 grid (row 4 on top),
both Command Areas, Resource Areas, hands as the perspective sees them."""
from __future__ import annotations

from typing import Any

CELL = 16
FLAGS = (("exhausted", "x"), ("new", "n"), ("shield", "S"), ("attacked", "a"))


def render_text(view: dict[str, Any]) -> str:
    seats = view["seats"]
    first = view["first"] if view["first"] in (0, 1) else 0
    lines = [_headline(view)]
    lines += _seat_lines(view, seats[1 - first])
    lines += _grid(view)
    lines += _seat_lines(view, seats[first])
    return "\n".join(lines)


def _headline(view: dict[str, Any]) -> str:
    if view["over"]:
        who = "draw" if view["winner"] is None else f"seat {view['winner']} wins"
        return f"Match over: {who} ({view['reason']}) after turn {view['turn']}"
    return (f"Turn {view['turn']} · active seat {view['active']} · {view['window']} · "
            f"to act: {view['to_act']} · perspective: {view['perspective']}")


def _unit_label(unit: dict[str, Any]) -> str:
    flags = "".join(mark for key, mark in FLAGS if unit[key])
    eq = "+E" if unit["equipment"] else ""
    return f"{unit['name'][:8]} {unit['attack']}/{unit['defense']}{eq}{flags}"[:CELL - 1]


def _grid(view: dict[str, Any]) -> list[str]:
    by_cell = {(u["row"], u["col"]): u for u in view["units"]}
    rows = []
    border = "   +" + "+".join("-" * CELL for _ in range(5)) + "+"
    for row in (4, 3, 2, 1):
        cells = []
        for col in range(1, 6):
            unit = by_cell.get((row, col))
            label = f"{unit['owner']}:{_unit_label(unit)}" if unit else ""
            cells.append(label.ljust(CELL)[:CELL])
        rows += [border, f" {row} |" + "|".join(cells) + "|"]
    rows.append(border)
    rows.append("    " + "".join(f"col {c}".center(CELL + 1) for c in range(1, 6)))
    return rows


def _seat_lines(view: dict[str, Any], seat: dict[str, Any]) -> list[str]:
    res = seat["resources"]
    ready = "".join(r["kind"] for r in res if not r["exhausted"]) or "-"
    tired = "".join(r["kind"].lower() for r in res if r["exhausted"]) or "-"
    hand = (", ".join(c["name"] for c in seat["hand"]) if seat["hand"] is not None
            else f"{seat['hand_count']} hidden")
    field = seat["field_condition"]["name"] if seat["field_condition"] else "none"
    return [
        (f"Seat {seat['seat']} {seat['player']} · {seat['sovereign']['name']} · "
         f"defense {seat['defense_count']} · deck {seat['deck_count']} · "
         f"convoy {seat['convoy_count']} · discard {len(seat['discard'])}"),
        f"  resources ready {ready} exhausted {tired} · field condition {field}",
        f"  hand ({seat['hand_count']}): {hand}",
    ]
