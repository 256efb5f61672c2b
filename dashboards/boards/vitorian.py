"""The Vitorian Wars board as an SVG picture, drawn from a view dict (engine/vitorian/view.py).

A pure function of what one perspective may see: it takes the dict `ruleset.view(state, who)`
returns, so a hidden hand arrives as None and can only be drawn as card backs. The 4x5 grid
keeps the viewer's own rows at the bottom (VW-2.2; rows flip as 5 - row for the second player,
VW-2.3); the organiser and spectators sit on the first player's side.

`changes` are the step's changes (engine.vitorian.changes) as dicts, already masked for the
perspective (the game's narration, engine.vitorian.narrate): "cell" where a unit was mobilized,
equipped or destroyed, "to" and "origin" for a move, else the unit's "card" id. Cells they name
are outlined on the board so the eye finds what the step did.
"""
from __future__ import annotations

from typing import Any

from dashboards.boards.svg import clip, document, group, headline, path, rect, text, titled

WIDTH = 860
LEFT = 110
CELL_W, CELL_H = 146, 92
HEAD, SEAT_H, GAP = 34, 156, 10
GRID_Y = HEAD + SEAT_H + GAP
BOTTOM_Y = GRID_Y + 4 * CELL_H + GAP
HEIGHT = BOTTOM_Y + SEAT_H + GAP

SEAT_COLOURS = {0: ("#dbeafe", "#1d4ed8"), 1: ("#fee2e2", "#b91c1c")}
RESOURCE_COLOURS = {"P": "#d97706", "S": "#0f766e"}
CHANGE_STYLES: dict[str, tuple[str, str]] = {
    "mobilized": ("#16a34a", "mobilized"), "moved": ("#2563eb", "moved"),
    "destroyed": ("#dc2626", "destroyed"), "linked": ("#7c3aed", "equipped"),
    "shield": ("#0891b2", "shielded"), "shield_used": ("#0891b2", "shield used"),
    "modified": ("#ca8a04", "modified"), "attack": ("#ea580c", "attacks"),
}
"""Change kinds that point at a cell: outline colour and the word written on the cell."""


def render_svg(view: dict[str, Any], changes: list[dict[str, Any]] | None = None) -> str:
    """The whole board: headline, the seat across the table, the grid, the viewer's seat."""
    changes = changes or []
    bottom = _bottom_seat(view)
    seats = {s["seat"]: s for s in view["seats"]}
    marks = _cell_marks(view, changes)
    body = [rect(0, 0, WIDTH, HEIGHT, fill="#f8fafc"), headline(view, WIDTH)]
    body.append(_seat_panel(view, seats[1 - bottom], HEAD, top=True, changes=changes))
    body.append(_grid(view, _row_order(view, bottom), marks))
    body.append(_seat_panel(view, seats[bottom], BOTTOM_Y, top=False, changes=changes))
    label = f"Vitorian Wars board, turn {view['turn']}, as {view['perspective']} sees it"
    return document(WIDTH, HEIGHT, body, label)


def _bottom_seat(view: dict[str, Any]) -> int:
    """A seat looks from its own side; everyone else from the first player's (seat 0 before
    the first player is known)."""
    perspective = view["perspective"]
    if isinstance(perspective, int) and perspective in (0, 1):
        return perspective
    return view["first"] if view["first"] in (0, 1) else 0


def _row_order(view: dict[str, Any], bottom: int) -> list[int]:
    """Absolute rows from the top of the picture down (rows 1-2 are the first player's)."""
    first = view["first"] if view["first"] in (0, 1) else 0
    return [4, 3, 2, 1] if bottom == first else [1, 2, 3, 4]


def _row_label(view: dict[str, Any], row: int) -> tuple[str, int]:
    first = view["first"] if view["first"] in (0, 1) else 0
    owner = first if row <= 2 else 1 - first
    return ("Rear Guard" if row in (1, 4) else "Vanguard"), owner


def _cell_marks(view: dict[str, Any], changes: list[dict[str, Any]]) -> dict[tuple[int, int],
                                                                            list[dict[str, Any]]]:
    """Cell -> the changes that touched it; a change without a cell finds its unit by id, and
    a move marks the cell it left too."""
    where = {u["id"]: (u["row"], u["col"]) for u in view["units"]}
    marks: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for change in changes:
        if change.get("kind") not in CHANGE_STYLES:
            continue
        cell = (change.get("cell") or change.get("to")
                or where.get(change.get("card")))  # type: ignore[arg-type]
        if cell is not None:
            marks.setdefault((int(cell[0]), int(cell[1])), []).append(change)
        origin = change.get("origin") if change["kind"] == "moved" else None
        if origin is not None:
            marks.setdefault((int(origin[0]), int(origin[1])), []).append(
                {"kind": "moved", "name": change.get("name"), "left": True})
    return marks


def _grid(view: dict[str, Any], rows: list[int],
          marks: dict[tuple[int, int], list[dict[str, Any]]]) -> str:
    units = {(u["row"], u["col"]): u for u in view["units"]}
    combat = view.get("combat") or {}
    fighters = {combat.get("attacker"), combat.get("target")} - {None}
    parts = [text(LEFT + c * CELL_W - CELL_W / 2, GRID_Y - 2, f"col {c}", font_size=10,
                  fill="#64748b", text_anchor="middle") for c in range(1, 6)]
    for i, row in enumerate(rows):
        y = GRID_Y + i * CELL_H
        parts.append(_row_heading(view, row, y))
        for col in range(1, 6):
            x = LEFT + (col - 1) * CELL_W
            parts.append(rect(x, y, CELL_W, CELL_H, fill="#ffffff", stroke="#cbd5e1"))
            unit = units.get((row, col))
            if unit is not None:
                parts.append(_unit(unit, x, y, unit["id"] in fighters))
            parts += [_mark(m, x, y, n) for n, m in enumerate(marks.get((row, col), []))]
    return group(parts, class_="grid")


def _row_heading(view: dict[str, Any], row: int, y: float) -> str:
    name, owner = _row_label(view, row)
    light, strong = SEAT_COLOURS.get(owner, ("#e2e8f0", "#334155"))
    return group([rect(8, y + 2, LEFT - 14, CELL_H - 4, fill=light, rx=6),
                  text(16, y + CELL_H / 2 - 4, name, font_size=12, font_weight="bold",
                       fill=strong),
                  text(16, y + CELL_H / 2 + 12, f"seat {owner} · row {row}", font_size=10,
                       fill="#475569")])


def _unit(unit: dict[str, Any], x: float, y: float, fighting: bool) -> str:
    """One unit card: name, level, attack/defense badges, status tags, equipment strip."""
    light, strong = SEAT_COLOURS.get(unit["owner"], ("#e2e8f0", "#334155"))
    tired = unit["exhausted"]
    parts = [rect(x + 5, y + 5, CELL_W - 10, CELL_H - 10, rx=6, fill=light, stroke=strong,
                  stroke_width=3 if fighting else 1.5,
                  stroke_dasharray="5 3" if tired else None, opacity=0.6 if tired else 1),
             text(x + 11, y + 21, clip(unit["name"], 19), font_size=11, font_weight="bold",
                  fill="#0f172a"),
             text(x + CELL_W - 11, y + 21, f"L{unit['level']}", font_size=10, fill="#475569",
                  text_anchor="end")]
    parts += _stat_badges(unit, x + 11, y + 30)
    parts += _status_tags(unit, x + 11, y + 58, fighting)
    if unit["equipment"]:
        parts.append(text(x + 11, y + CELL_H - 11, "+ " + clip(unit["equipment"]["name"], 20),
                          font_size=9, fill="#6d28d9", class_="equipment"))
    return titled(group(parts, class_="unit"), _unit_tooltip(unit))


def _stat_badges(unit: dict[str, Any], x: float, y: float) -> list[str]:
    return [rect(x, y, 44, 20, rx=4, fill="#b91c1c"),
            text(x + 22, y + 14, f"ATK {unit['attack']}", font_size=10, font_weight="bold",
                 fill="#ffffff", text_anchor="middle", class_="attack"),
            rect(x + 50, y, 44, 20, rx=4, fill="#334155"),
            text(x + 72, y + 14, f"DEF {unit['defense']}", font_size=10, font_weight="bold",
                 fill="#ffffff", text_anchor="middle", class_="defense")]


STATUS_TAGS = (("exhausted", "EXH", "#64748b"), ("new", "NEW", "#ca8a04"),
               ("shield", "SHIELD", "#0891b2"))


def _status_tags(unit: dict[str, Any], x: float, y: float, fighting: bool) -> list[str]:
    tags = [(label, colour) for key, label, colour in STATUS_TAGS if unit.get(key)]
    if fighting:
        tags.append(("COMBAT", "#ea580c"))
    parts, cursor = [], x
    for label, colour in tags:
        width = 8 + 6.5 * len(label)
        parts += [rect(cursor, y, width, 14, rx=7, fill=colour),
                  text(cursor + width / 2, y + 10.5, label, font_size=8.5, font_weight="bold",
                       fill="#ffffff", text_anchor="middle", class_=f"status-{label.lower()}")]
        cursor += width + 4
    return parts


def _unit_tooltip(unit: dict[str, Any]) -> str:
    flags = [k for k in ("exhausted", "new", "shield", "moved", "attacked") if unit.get(k)]
    lines = [f"{unit['name']} ({unit['card']}) · seat {unit['owner']}",
             f"attack {unit['attack']} / defense {unit['defense']} · level {unit['level']}"]
    if unit["keywords"]:
        lines.append("keywords: " + ", ".join(unit["keywords"]))
    if unit["equipment"]:
        lines.append("equipment: " + unit["equipment"]["name"])
    if flags:
        lines.append("status: " + ", ".join(flags))
    return "\n".join(lines)


def _mark(change: dict[str, Any], x: float, y: float, n: int) -> str:
    """Outline a cell the step touched and name what happened there."""
    colour, word = CHANGE_STYLES[change["kind"]]
    if change.get("left"):
        word = "moved away"
    parts = [] if n else [rect(x + 2, y + 2, CELL_W - 4, CELL_H - 4, fill="none",
                               stroke=colour, stroke_width=4, rx=8, class_="changed")]
    if change["kind"] == "destroyed":
        cross = (f"M{x + 30} {y + 20} L{x + CELL_W - 30} {y + CELL_H - 20} "
                 f"M{x + CELL_W - 30} {y + 20} L{x + 30} {y + CELL_H - 20}")
        parts += [path(cross, stroke=colour, stroke_width=4, opacity=0.7),
                  text(x + CELL_W / 2, y + CELL_H / 2 + 4, clip(change.get("name") or "", 20),
                       font_size=10, fill=colour, text_anchor="middle")]
    parts.append(text(x + CELL_W - 8, y + CELL_H - 8 - 12 * n, word, font_size=9,
                      font_weight="bold", fill=colour, text_anchor="end"))
    return group(parts, class_=f"change-{change['kind']}")


def _seat_panel(view: dict[str, Any], seat: dict[str, Any], y: float, top: bool,
                changes: list[dict[str, Any]]) -> str:
    """One seat's side of the table; the far seat has its hand at the far edge, as in life."""
    light, strong = SEAT_COLOURS.get(seat["seat"], ("#e2e8f0", "#334155"))
    areas_y, hand_y = (y + 86, y + 24) if top else (y + 40, y + 104)
    touched = {c["kind"] for c in changes if c.get("seat") == seat["seat"]}
    parts = [rect(4, y, WIDTH - 8, SEAT_H, rx=8, fill=light, stroke=strong, opacity=0.5),
             _seat_title(view, seat, y + 16, strong),
             _command_area(seat, 10, areas_y, touched),
             _resource_area(seat, 440, areas_y),
             _hand(seat, 10, hand_y)]
    return group(parts, class_=f"seat-{seat['seat']}")


def _seat_title(view: dict[str, Any], seat: dict[str, Any], y: float, colour: str) -> str:
    notes = []
    if view["first"] == seat["seat"]:
        notes.append("first player")
    if view["active"] == seat["seat"] and not view["over"]:
        notes.append("active")
    if seat["skips_next_turn"]:
        notes.append("skips next turn")
    if seat["mulligans"]:
        notes.append(f"{seat['mulligans']} mulligan(s)")
    extra = f" ({', '.join(notes)})" if notes else ""
    return text(12, y, f"Seat {seat['seat']} · {seat['player']}{extra}", font_size=13,
                font_weight="bold", fill=colour)


def _command_area(seat: dict[str, Any], x: float, y: float, touched: set[str]) -> str:
    """Sovereign, Defense Pile (face down: a count) and Field Condition (VW-2.6, VW-2.7)."""
    hit = touched & {"sovereign_hit", "sovereign_fell"}
    sovereign = seat["sovereign"]
    parts = [text(x, y - 3, "Command Area", font_size=10, fill="#475569"),
             _card_box(x, y, 150, 46, sovereign["name"], f"Sovereign · {sovereign['number']}",
                       "#fef3c7", "#92400e")]
    parts += _defense_pile(seat["defense_count"], x + 158, y, bool(hit))
    condition = seat["field_condition"]
    name = condition["name"] if condition else "no Field Condition"
    outline = "#16a34a" if "field_condition" in touched else "#64748b"
    parts.append(_card_box(x + 268, y, 150, 46, name, "Field Condition",
                           "#ecfccb" if condition else "#f1f5f9", outline))
    return group(parts, class_="command-area")


def _defense_pile(count: int, x: float, y: float, hit: bool) -> list[str]:
    parts = [rect(x + 2 * i, y + 2 * i, 40, 40, rx=4, fill="#1e293b", stroke="#f8fafc")
             for i in range(min(count, 3))]
    if not count:
        parts.append(rect(x, y, 40, 40, rx=4, fill="none", stroke="#94a3b8",
                          stroke_dasharray="3 3"))
    parts.append(text(x + 50, y + 18, f"Defense {count}", font_size=11, font_weight="bold",
                      fill="#dc2626" if hit else "#0f172a", class_="defense-count"))
    if hit:
        parts.append(text(x + 50, y + 32, "hit!", font_size=10, fill="#dc2626"))
    return parts


def _card_box(x: float, y: float, w: float, h: float, name: str, kind: str, fill: str,
              stroke: str) -> str:
    return titled(group([rect(x, y, w, h, rx=5, fill=fill, stroke=stroke, stroke_width=1.5),
                         text(x + 6, y + 17, clip(name, 24), font_size=11, font_weight="bold",
                              fill="#0f172a"),
                         text(x + 6, y + 34, kind, font_size=9.5, fill="#475569")]),
                  f"{kind}: {name}")


def _resource_area(seat: dict[str, Any], x: float, y: float) -> str:
    """Ready resources stand up, exhausted ones lie down and fade (VW-6.2); counts beside."""
    resources = seat["resources"]
    ready = [r["kind"] for r in resources if not r["exhausted"]]
    tired = [r["kind"] for r in resources if r["exhausted"]]
    parts = [text(x, y - 3, "Resource Area", font_size=10, fill="#475569")]
    squeeze = min(1.0, (WIDTH - 20 - x) / max(22 * len(ready) + 30 * len(tired) + 8, 1))
    cursor = x
    for kind in ready:
        parts += _resource_chip(kind, cursor, y, exhausted=False)
        cursor += 22 * squeeze
    cursor += 8 if ready and tired else 0
    for kind in tired:
        parts += _resource_chip(kind, cursor, y + 6, exhausted=True)
        cursor += 30 * squeeze
    summary = f"ready {_tally(ready)} · exhausted {_tally(tired)}"
    parts.append(text(x, y + 46, summary, font_size=10, fill="#0f172a", class_="resources"))
    parts.append(text(x, y + 60, _zone_counts(seat), font_size=10, fill="#0f172a",
                      class_="zones"))
    return group(parts, class_="resource-area")


def _resource_chip(kind: str, x: float, y: float, exhausted: bool) -> list[str]:
    colour = RESOURCE_COLOURS.get(kind, "#64748b")
    w, h = (28, 18) if exhausted else (18, 28)
    return [rect(x, y, w, h, rx=3, fill=colour, opacity=0.35 if exhausted else 1,
                 stroke=colour),
            text(x + w / 2, y + h / 2 + 4, kind, font_size=10, font_weight="bold",
                 fill="#0f172a" if exhausted else "#ffffff", text_anchor="middle")]


def _tally(kinds: list[str]) -> str:
    if not kinds:
        return "none"
    return " ".join(f"{kinds.count(k)}[{k}]" for k in sorted(set(kinds)))


def _zone_counts(seat: dict[str, Any]) -> str:
    known = [k for k in seat["convoy"] if k is not None]
    convoy = f"Convoy {seat['convoy_count']}"
    if known:
        convoy += f" ({len(known)} known: {_tally(known)})"
    return f"{convoy} · Deck {seat['deck_count']} · Discard {len(seat['discard'])}"


HAND_W, HAND_H = 74, 44


def _hand(seat: dict[str, Any], x: float, y: float) -> str:
    """The hand as this perspective sees it: faces for the owner, backs for everyone else."""
    count, cards = seat["hand_count"], seat["hand"]
    label = f"Hand ({count})" + ("" if cards is not None else " · hidden")
    step = min(HAND_W + 6, (WIDTH - 120) / max(count, 1))
    parts = [text(x, y + 26, label, font_size=11, font_weight="bold", fill="#0f172a")]
    for i in range(count):
        cx = x + 96 + i * step
        parts.append(_card_back(cx, y) if cards is None else _card_face(cards[i], cx, y))
    return group(parts, class_="hand")


def _card_face(card: dict[str, Any], x: float, y: float) -> str:
    words = card["name"].split()
    first, rest = _two_lines(words)
    return titled(group([rect(x, y, HAND_W, HAND_H, rx=4, fill="#ffffff", stroke="#334155"),
                         text(x + 4, y + 16, clip(first, 13), font_size=9, fill="#0f172a"),
                         text(x + 4, y + 29, clip(rest, 13), font_size=9, fill="#0f172a")],
                        class_="card-face"), f"{card['name']} ({card['card']})")


def _two_lines(words: list[str]) -> tuple[str, str]:
    first = ""
    for i, word in enumerate(words):
        if first and len(first) + 1 + len(word) > 13:
            return first, " ".join(words[i:])
        first = f"{first} {word}".strip()
    return first, ""


def _card_back(x: float, y: float) -> str:
    cx, cy = x + HAND_W / 2, y + HAND_H / 2
    diamond = f"M{cx} {cy - 14} L{cx + 14} {cy} L{cx} {cy + 14} L{cx - 14} {cy} Z"
    return group([rect(x, y, HAND_W, HAND_H, rx=4, fill="#312e81", stroke="#c7d2fe"),
                  path(diamond, fill="none", stroke="#c7d2fe", stroke_width=1.5)],
                 class_="card-back")
