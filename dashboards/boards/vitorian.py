"""The Vitorian Wars board as an SVG picture, drawn from a view dict (engine/vitorian/view.py).

A pure function of what one perspective may see: it takes the dict `ruleset.view(state, who)`
returns, so a hidden hand arrives as None and can only be drawn as card backs. The 4x5 grid
keeps the viewer's own rows at the bottom (VW-2.2; rows flip as 5 - row for the second player,
VW-2.3); the organiser and spectators sit on the first player's side.

`changes` are the step's changes (engine.vitorian.changes) as dicts, already masked for the
perspective (the game's narration, engine.vitorian.narrate): "cell" where a unit was mobilized,
equipped or destroyed, "to" and "origin" for a move, else the unit's "card" id. Cells they name
are outlined on the board so the eye finds what the step did.

Every name is written in full (wrapped on two lines, or in a smaller font, to fit its card) and
every card carries a <title>, the browser's hover tooltip, with its full name and its rules text:
the text is the public catalog's, looked up by the card id the view gives, so a card the view
does not show has no text either. A legend under the board names every marker it can draw.
"""
from __future__ import annotations

from functools import cache
from typing import Any

from dashboards.boards.svg import (
    LegendEntry,
    Sample,
    document,
    fitted,
    group,
    headline,
    legend,
    path,
    rect,
    sample_badge,
    sample_box,
    sample_tag,
    sample_word,
    tag,
    text,
    text_width,
    titled,
)

WIDTH = 930
LEFT = 110
CELL_W, CELL_H = 162, 100
HEAD, SEAT_H, GAP = 34, 160, 10
GRID_Y = HEAD + SEAT_H + GAP
BOTTOM_Y = GRID_Y + 4 * CELL_H + GAP
LEGEND_Y = BOTTOM_Y + SEAT_H + GAP
NAME_W = CELL_W - 22
"""Room for a unit's name (and its equipment's) inside the card."""

SEAT_COLOURS = {0: ("#dbeafe", "#1d4ed8"), 1: ("#fee2e2", "#b91c1c")}
RESOURCE_COLOURS = {"P": "#d97706", "S": "#0f766e"}
RESOURCE_NAMES = {"P": "Personnel", "S": "Supplies"}
CHANGE_STYLES: dict[str, tuple[str, str]] = {
    "mobilized": ("#16a34a", "mobilized"), "moved": ("#2563eb", "moved"),
    "destroyed": ("#dc2626", "destroyed"), "linked": ("#7c3aed", "equipped"),
    "shield": ("#0891b2", "shielded"), "shield_used": ("#0891b2", "shield used"),
    "modified": ("#ca8a04", "modified"), "attack": ("#ea580c", "attacks"),
}
"""Change kinds that point at a cell: outline colour and the word written on the cell."""
FIELD_CHANGED = "#16a34a"


@cache
def _rules_text() -> dict[str, str]:
    """Catalog id -> the card's printed rules text (the view gives cards by id and name only)."""
    from engine.vitorian.cards import load_catalog

    return {card.id: card.text for card in load_catalog().cards}


def _hover(head: str, card_id: str | None, *more: str) -> str:
    """A card's tooltip: its full name line, what else the board knows, its rules text."""
    lines = [head, *(m for m in more if m)]
    printed = _rules_text().get(card_id or "", "")
    return "\n".join(lines + ([printed] if printed else []))


def render_svg(view: dict[str, Any], changes: list[dict[str, Any]] | None = None) -> str:
    """The whole board: headline, the seat across the table, the grid, the viewer's seat, and
    the legend of its markers."""
    changes = changes or []
    bottom = _bottom_seat(view)
    seats = {s["seat"]: s for s in view["seats"]}
    marks = _cell_marks(view, changes)
    strip, legend_h = legend(legend_entries(), LEGEND_Y, WIDTH)
    height = round(LEGEND_Y + legend_h + GAP)
    body = [rect(0, 0, WIDTH, height, fill="#f8fafc"), headline(view, WIDTH)]
    body.append(_seat_panel(view, seats[1 - bottom], HEAD, top=True, changes=changes))
    body.append(_grid(view, _row_order(view, bottom), marks))
    body.append(_seat_panel(view, seats[bottom], BOTTOM_Y, top=False, changes=changes))
    body.append(strip)
    label = f"Vitorian Wars board, turn {view['turn']}, as {view['perspective']} sees it"
    return document(WIDTH, height, body, label)


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
            right: float = x + CELL_W - 6
            for n, mark in enumerate(marks.get((row, col), [])):
                drawn, width = _mark(mark, x, y, n, right)
                parts.append(drawn)
                right -= width + 3
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
    """One unit card: its name in full, attack/defense/level badges, status tags, equipment."""
    light, strong = SEAT_COLOURS.get(unit["owner"], ("#e2e8f0", "#334155"))
    tired = unit["exhausted"]
    box = " ".join(["box", *(["exhausted"] if tired else []), *(["fighting"] if fighting else [])])
    parts = [rect(x + 5, y + 5, CELL_W - 10, CELL_H - 10, rx=6, fill=light, stroke=strong,
                  stroke_width=3 if fighting else 1.5, class_=box,
                  stroke_dasharray="5 3" if tired else None, opacity=0.6 if tired else None),
             fitted(x + 11, y + 20, unit["name"], NAME_W, 11, bold=True, lines=2, smallest=8,
                    fill="#0f172a", class_="name")]
    parts += _stat_badges(unit, x + 11, y + 40)
    parts += _status_tags(unit, x + 11, y + 63, fighting)
    equipment = unit["equipment"]
    if equipment:
        line = fitted(x + 11, y + 88, "+ " + equipment["name"], NAME_W, 9, smallest=6.5,
                      fill="#6d28d9", class_="equipment")
        parts.append(titled(line, _hover(f"Equipment: {equipment['name']} "
                                         f"({equipment['card']})", equipment["card"])))
    return titled(group(parts, class_="unit"), _unit_tooltip(unit))


BADGES = (("attack", "ATK", "#b91c1c", 40), ("defense", "DEF", "#334155", 40),
          ("level", "L", "#64748b", 28))
"""Unit badges: the view's field, the word before the number, colour and width."""


def _stat_badges(unit: dict[str, Any], x: float, y: float) -> list[str]:
    parts, cursor = [], x
    for key, word, colour, width in BADGES:
        label = f"{word}{unit[key]}" if key == "level" else f"{word} {unit[key]}"
        parts += [rect(cursor, y, width, 18, rx=4, fill=colour),
                  text(cursor + width / 2, y + 13, label, font_size=10, font_weight="bold",
                       fill="#ffffff", text_anchor="middle", class_=key)]
        cursor += width + 4
    return parts


STATUS_TAGS = (("exhausted", "EXH", "#64748b"), ("new", "NEW", "#ca8a04"),
               ("shield", "SHIELD", "#0891b2"))
COMBAT_TAG = ("COMBAT", "#ea580c")


def _status_tags(unit: dict[str, Any], x: float, y: float, fighting: bool) -> list[str]:
    tags = [(label, colour) for key, label, colour in STATUS_TAGS if unit.get(key)]
    if fighting:
        tags.append(COMBAT_TAG)
    parts, cursor = [], x
    for label, colour in tags:
        width, drawn = tag(label, colour, cursor, y, class_=f"status-{label.lower()}")
        parts += drawn
        cursor += width + 4
    return parts


def _unit_tooltip(unit: dict[str, Any]) -> str:
    flags = [k for k in ("exhausted", "new", "shield", "moved", "attacked") if unit.get(k)]
    lines = [f"attack {unit['attack']} / defense {unit['defense']} · level {unit['level']}"]
    if unit["keywords"]:
        lines.append("keywords: " + ", ".join(unit["keywords"]))
    if unit["equipment"]:
        lines.append("equipment: " + unit["equipment"]["name"])
    if flags:
        lines.append("status: " + ", ".join(flags))
    return _hover(f"{unit['name']} ({unit['card']}) · seat {unit['owner']}", unit["card"],
                  *lines)


def _mark(change: dict[str, Any], x: float, y: float, n: int,
          right: float) -> tuple[str, float]:
    """Outline a cell the step touched (the first change's colour) and name what happened
    there on a label across the cell's top edge, ending at `right`; returns the label's width
    so that the next change of the cell is labelled to its left."""
    colour, word = CHANGE_STYLES[change["kind"]]
    if change.get("left"):
        word = "moved away"
    parts = [] if n else [rect(x + 2, y + 2, CELL_W - 4, CELL_H - 4, fill="none",
                               stroke=colour, stroke_width=4, rx=8, class_="changed")]
    if change["kind"] == "destroyed":
        cross = (f"M{x + 30} {y + 20} L{x + CELL_W - 30} {y + CELL_H - 20} "
                 f"M{x + CELL_W - 30} {y + 20} L{x + 30} {y + CELL_H - 20}")
        parts += [path(cross, stroke=colour, stroke_width=4, opacity=0.7),
                  fitted(x + CELL_W / 2, y + CELL_H / 2, change.get("name") or "",
                         CELL_W - 24, 10, bold=True, lines=2, smallest=7, fill=colour,
                         text_anchor="middle")]
    width = 8 + text_width(word, 8.5, bold=True)
    parts += [rect(right - width, y - 5, width, 13, rx=3, fill=colour),
              text(right - width / 2, y + 4.5, word, font_size=8.5, font_weight="bold",
                   fill="#ffffff", text_anchor="middle")]
    return group(parts, class_=f"change-{change['kind']}"), width


def _seat_panel(view: dict[str, Any], seat: dict[str, Any], y: float, top: bool,
                changes: list[dict[str, Any]]) -> str:
    """One seat's side of the table; the far seat has its hand at the far edge, as in life."""
    light, strong = SEAT_COLOURS.get(seat["seat"], ("#e2e8f0", "#334155"))
    areas_y, hand_y = (y + 94, y + 26) if top else (y + 40, y + 106)
    touched = {c["kind"] for c in changes if c.get("seat") == seat["seat"]}
    parts = [rect(4, y, WIDTH - 8, SEAT_H, rx=8, fill=light, stroke=strong, fill_opacity=0.5,
                  stroke_opacity=0.5),
             _seat_title(view, seat, y + 17, strong),
             _command_area(seat, 10, areas_y, touched),
             _resource_area(seat, RESOURCE_X, areas_y),
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
    return fitted(12, y, f"Seat {seat['seat']} · {seat['player']}{extra}", WIDTH - 24, 13,
                  bold=True, smallest=9, fill=colour)


CARD_W, CARD_H = 200, 52
PILE_X = CARD_W + 10
FIELD_X = PILE_X + 135
RESOURCE_X = 10 + FIELD_X + CARD_W + 20


def _command_area(seat: dict[str, Any], x: float, y: float, touched: set[str]) -> str:
    """Sovereign, Defense Pile (face down: a count) and Field Condition (VW-2.6, VW-2.7)."""
    hit = touched & {"sovereign_hit", "sovereign_fell"}
    sovereign = seat["sovereign"]
    parts = [text(x, y - 4, "Command Area", font_size=10, fill="#475569"),
             _card_box(x, y, sovereign["name"], sovereign["card"],
                       f"Sovereign · {sovereign['number']}", "Sovereign", "#fef3c7", "#92400e")]
    parts += _defense_pile(seat["defense_count"], x + PILE_X, y, bool(hit))
    condition = seat["field_condition"]
    changed = "field_condition" in touched
    if condition:
        parts.append(_card_box(x + FIELD_X, y, condition["name"], condition["card"],
                               "Field Condition", "Field Condition", "#ecfccb",
                               FIELD_CHANGED if changed else "#64748b", changed))
    else:
        parts.append(group([rect(x + FIELD_X, y, CARD_W, CARD_H, rx=5, fill="#f1f5f9",
                                 stroke=FIELD_CHANGED if changed else "#64748b",
                                 stroke_width=1.5, class_="field-changed" if changed else None),
                            text(x + FIELD_X + 6, y + 20, "no Field Condition", font_size=11,
                                 fill="#475569"),
                            text(x + FIELD_X + 6, y + 45, "Field Condition", font_size=9.5,
                                 fill="#475569")]))
    return group(parts, class_="command-area")


def _defense_pile(count: int, x: float, y: float, hit: bool) -> list[str]:
    pile = [rect(x + 2 * i, y + 2 * i, 40, 40, rx=4, fill="#1e293b", stroke="#f8fafc")
            for i in range(min(count, 3))]
    if not count:
        pile.append(rect(x, y, 40, 40, rx=4, fill="none", stroke="#94a3b8",
                         stroke_dasharray="3 3"))
    parts = [titled(group(pile, class_="defense-pile"),
                    f"Defense Pile: {count} face-down card(s)")]
    parts.append(text(x + 52, y + 20, f"Defense {count}", font_size=11, font_weight="bold",
                      fill="#dc2626" if hit else "#0f172a", class_="defense-count"))
    if hit:
        parts.append(text(x + 52, y + 35, "hit!", font_size=10, font_weight="bold",
                          fill="#dc2626", class_="hit"))
    return parts


def _card_box(x: float, y: float, name: str, card_id: str, kind: str, role: str, fill: str,
              stroke: str, changed: bool = False) -> str:
    box = "box field-changed" if changed else "box"
    return titled(group([rect(x, y, CARD_W, CARD_H, rx=5, fill=fill, stroke=stroke,
                              stroke_width=2.5 if changed else 1.5, class_=box),
                         fitted(x + 6, y + 16, name, CARD_W - 12, 11, bold=True, lines=2,
                                smallest=8, fill="#0f172a", class_="name"),
                         text(x + 6, y + 46, kind, font_size=9.5, fill="#475569")],
                        class_="command-card"),
                  _hover(f"{role}: {name} ({card_id})", card_id))


def _resource_area(seat: dict[str, Any], x: float, y: float) -> str:
    """Ready resources stand up, exhausted ones lie down and fade (VW-6.2); counts beside."""
    resources = seat["resources"]
    ready = [r["kind"] for r in resources if not r["exhausted"]]
    tired = [r["kind"] for r in resources if r["exhausted"]]
    parts = [text(x, y - 4, "Resource Area", font_size=10, fill="#475569")]
    squeeze = min(1.0, (WIDTH - 20 - x) / max(22 * len(ready) + 30 * len(tired) + 8, 1))
    cursor = x
    for kind in ready:
        parts.append(_resource_chip(kind, cursor, y, exhausted=False))
        cursor += 22 * squeeze
    cursor += 8 if ready and tired else 0
    for kind in tired:
        parts.append(_resource_chip(kind, cursor, y + 6, exhausted=True))
        cursor += 30 * squeeze
    room = WIDTH - 12 - x
    summary = f"ready {_tally(ready)} · exhausted {_tally(tired)}"
    parts.append(fitted(x, y + 42, summary, room, 10, smallest=7, fill="#0f172a",
                        class_="resources"))
    parts.append(fitted(x, y + 56, _zone_counts(seat), room, 10, smallest=7, fill="#0f172a",
                        class_="zones"))
    return group(parts, class_="resource-area")


def _resource_chip(kind: str, x: float, y: float, exhausted: bool) -> str:
    colour = RESOURCE_COLOURS.get(kind, "#64748b")
    w, h = (28, 18) if exhausted else (18, 28)
    marker = "resource-exhausted" if exhausted else f"resource-{kind.lower()}"
    return group([rect(x, y, w, h, rx=3, fill=colour, opacity=0.35 if exhausted else None,
                       stroke=colour),
                  text(x + w / 2, y + h / 2 + 4, kind, font_size=10, font_weight="bold",
                       fill="#0f172a" if exhausted else "#ffffff", text_anchor="middle")],
                 class_=marker)


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


HAND_W, HAND_H = 84, 48
HAND_X = 80
"""Where the hand's cards start, right of its label."""


def _hand(seat: dict[str, Any], x: float, y: float) -> str:
    """The hand as this perspective sees it: faces for the owner, backs for everyone else; a
    hand too long for the row gets narrower cards, never overlapping ones."""
    count, cards = seat["hand_count"], seat["hand"]
    room = WIDTH - 10 - (x + HAND_X)
    w = min(HAND_W, (room + 6) / max(count, 1) - 6)
    parts = [text(x, y + 20, f"Hand ({count})", font_size=11, font_weight="bold",
                  fill="#0f172a")]
    if cards is None:
        parts.append(text(x, y + 34, "hidden", font_size=10, fill="#475569"))
    for i in range(count):
        cx = x + HAND_X + i * (w + 6)
        parts.append(_card_back(cx, y, w) if cards is None else _card_face(cards[i], cx, y, w))
    return group(parts, class_="hand")


def _card_face(card: dict[str, Any], x: float, y: float, w: float = HAND_W) -> str:
    return titled(group([rect(x, y, w, HAND_H, rx=4, fill="#ffffff", stroke="#334155",
                              class_="box"),
                         fitted(x + 4, y + 14, card["name"], w - 8, 10, lines=3, smallest=6,
                                fill="#0f172a", class_="name")],
                        class_="card-face"), _hover(f"{card['name']} ({card['card']})",
                                                    card["card"]))


def _card_back(x: float, y: float, w: float = HAND_W) -> str:
    cx, cy = x + w / 2, y + HAND_H / 2
    diamond = f"M{cx} {cy - 14} L{cx + 14} {cy} L{cx} {cy + 14} L{cx - 14} {cy} Z"
    return titled(group([rect(x, y, w, HAND_H, rx=4, fill="#312e81", stroke="#c7d2fe"),
                         path(diamond, fill="none", stroke="#c7d2fe", stroke_width=1.5)],
                        class_="card-back"), "a card this perspective may not see")


# The legend ------------------------------------------------------------------------------

def _sample_chip(kind: str, exhausted: bool) -> Sample:
    colour = RESOURCE_COLOURS.get(kind, "#64748b")
    w, h = (22, 13) if exhausted else (12, 18)
    return w, group([rect(0, 4 - h, w, h, rx=2, fill=colour, stroke=colour,
                          opacity=0.35 if exhausted else 1),
                     text(w / 2, 0, kind, font_size=8.5, font_weight="bold",
                          fill="#0f172a" if exhausted else "#ffffff", text_anchor="middle")])


def _sample_back() -> Sample:
    return 22, group([rect(0, -13, 22, 17, rx=2, fill="#312e81", stroke="#c7d2fe"),
                      path("M11 -9 L16 -4.5 L11 0 L6 -4.5 Z", fill="none", stroke="#c7d2fe")])


def _sample_pile() -> Sample:
    return 18, group([rect(0, -13, 14, 14, rx=2, fill="#1e293b", stroke="#f8fafc"),
                      rect(3, -10, 14, 14, rx=2, fill="#1e293b", stroke="#f8fafc")])


def legend_entries() -> list[LegendEntry]:
    """Every marker the board can draw: its section, the classes that mark it on the board, a
    sample, and what it means."""
    entries: list[LegendEntry] = [
        ("Unit", ("attack",), sample_badge("ATK", "#b91c1c"), "attack"),
        ("Unit", ("defense",), sample_badge("DEF", "#334155"), "defense"),
        ("Unit", ("level",), sample_badge("L", "#64748b"), "level"),
        ("Unit", ("equipment",), sample_word("+", "#6d28d9"), "equipment it carries"),
        ("Unit", ("exhausted",), sample_box(dash="5 3", opacity=0.6), "dashed, faded: exhausted"),
        ("Unit", ("fighting",), sample_box(width=3), "thick border: in combat"),
        ("Unit", ("status-exh",), sample_tag("EXH", "#64748b"), "exhausted"),
        ("Unit", ("status-new",), sample_tag("NEW", "#ca8a04"), "mobilized this turn"),
        ("Unit", ("status-shield",), sample_tag("SHIELD", "#0891b2"), "has a shield"),
        ("Unit", ("status-combat",), sample_tag(*COMBAT_TAG), "attacker or target"),
    ]
    for kind, (colour, word) in CHANGE_STYLES.items():
        meaning = {"moved": "moved (to, and away from)", "destroyed": "destroyed (crossed)"}.get(
            kind, word)
        entries.append(("This step", (f"change-{kind}", "changed"),
                        sample_box(stroke=colour, width=3, fill="none"), meaning))
    entries += [
        ("This step", ("field-changed",), sample_box(stroke=FIELD_CHANGED, width=2.5,
                                                      fill="#ecfccb"), "Field Condition changed"),
        ("This step", ("hit",), sample_word("hit!", "#dc2626"), "Sovereign hit"),
        ("Seat", ("card-face",), sample_box(stroke="#334155", fill="#ffffff"),
         "card in hand (hover: its text)"),
        ("Seat", ("card-back",), _sample_back(), "card this view may not see"),
        ("Seat", ("defense-pile",), _sample_pile(), "Defense Pile, face down (dashed: empty)"),
        ("Seat", ("resource-p",), _sample_chip("P", False), "Personnel, ready"),
        ("Seat", ("resource-s",), _sample_chip("S", False), "Supplies, ready"),
        ("Seat", ("resource-exhausted",), _sample_chip("S", True), "lying, faded: exhausted"),
    ]
    return entries
