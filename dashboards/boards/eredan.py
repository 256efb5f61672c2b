"""The Eredan iTCG board as an SVG picture, drawn from a view dict (engine/eredan/view.py).

A pure function of what one perspective may see: it takes the dict `ruleset.view(state, who)`
returns, so a hidden hand arrives as None and can only be drawn as card backs. Each seat has its
three characters (HP, Attack, Defense, Spirit, tapped or defeated, attached Items, Pet, runes)
and its hand; a seat looks from its own side, everyone else from seat 0's. Between the lines:
the cards played this turn, in activation order (ER-5.16).

`changes` are the step's Change records as dicts (engine/eredan/changes.py, already masked for
the perspective): the characters and played cards they name are outlined, and they are listed
under the board with the names the view gives those ids.

Every name is written in full (wrapped, or in a smaller font, to fit its card) and every card
carries a <title>, the browser's hover tooltip, with its full name and its rules text: the text is
the public catalog's, looked up by the card id the view gives, so a card the view does not show
has no text either. A legend under the board names every marker it can draw.
"""
from __future__ import annotations

from functools import cache
from typing import Any

from dashboards.boards.svg import (
    LegendEntry,
    document,
    fitted,
    group,
    headline,
    legend,
    rect,
    sample_box,
    sample_tag,
    sample_word,
    tag,
    text,
    titled,
)

WIDTH = 900
HEAD = 34
HAND_H = 70
CHAR_W, CHAR_H = 280, 150
LINE_GAP = 10
PLAYED_H = 86
CHANGES_LINE = 15
MAX_CHANGES = 12

TOP_HAND_Y = HEAD
TOP_LINE_Y = TOP_HAND_Y + HAND_H
PLAYED_Y = TOP_LINE_Y + CHAR_H + LINE_GAP
BOTTOM_LINE_Y = PLAYED_Y + PLAYED_H + LINE_GAP
BOTTOM_HAND_Y = BOTTOM_LINE_Y + CHAR_H
CHANGES_Y = BOTTOM_HAND_Y + HAND_H + 8

SEAT_COLOURS = {0: ("#dbeafe", "#1d4ed8"), 1: ("#fee2e2", "#b91c1c")}
CHANGE_COLOURS: dict[str, str] = {
    "defeated": "#0f172a", "physical": "#dc2626", "magic": "#7c3aed", "lose": "#9f1239",
    "heal": "#16a34a", "attached": "#0891b2", "modify": "#ca8a04", "revealed": "#2563eb",
    "pulled": "#2563eb", "activated": "#2563eb", "ignored": "#64748b", "fizzled": "#64748b",
    "rune_placed": "#a16207", "rune_consumed": "#a16207", "fury": "#ea580c",
    "order_activated": "#ca8a04", "returned": "#16a34a", "combatants": "#ea580c",
    "tapped": "#64748b", "turn_bonus": "#ca8a04", "detached": "#64748b",
}
"""Change kinds that name a character or a played card: the colour of its outline, the first
listed winning when several changes name the same one."""
RANK = {kind: i for i, kind in enumerate(CHANGE_COLOURS)}
MARKED = ("card", "character", "attacker", "defender", "characters")
"""The fields of a change naming the card or characters it outlines (a `source` is not
outlined: the change is about what it acts on)."""
NAMED = (*MARKED, "target", "receiver")
"""Fields holding instance ids, told by name in the change list (after the `source` or `user`
acting on them, if any)."""
NUMBERS = ("hp", "turn", "ticket", "deck_size", "missing")
STATS = ("attack", "defense", "spirit")
WORDS = ("rune", "card_type", "reason", "rule")


@cache
def _card_types() -> dict[str, str]:
    """Catalog id -> card type (item, pet, spell...): the view lists attachments by id only."""
    from engine.eredan.cards import load_catalog

    return {card.id: card.type for card in load_catalog().cards}


@cache
def _rules_text() -> dict[str, str]:
    """Catalog id -> the printed rules text of a card or character (the view gives cards by id
    and name only)."""
    from engine.eredan.cards import load_catalog

    catalog = load_catalog()
    return {c.id: c.text for c in (*catalog.characters, *catalog.cards)}


def _hover(head: str, card_id: str | None, *more: str) -> str:
    """A card's tooltip: its full name line, what else the board knows, its rules text."""
    printed = _rules_text().get(card_id or "", "")
    return "\n".join([head, *(m for m in more if m), *([printed] if printed else [])])


def render_svg(view: dict[str, Any], changes: list[dict[str, Any]] | None = None) -> str:
    changes = changes or []
    bottom = _bottom_seat(view)
    seats = {s["seat"]: s for s in view["seats"]}
    touched = _touched(changes)
    shown = changes[:MAX_CHANGES]
    listed, listed_h = _change_list(changes, shown, _known_names(view))
    strip, legend_h = legend(legend_entries(), CHANGES_Y + listed_h, WIDTH)
    height = round(CHANGES_Y + listed_h + legend_h + 6)
    body = [rect(0, 0, WIDTH, height, fill="#f8fafc"), headline(view, WIDTH)]
    for seat, line_y, hand_y in ((1 - bottom, TOP_LINE_Y, TOP_HAND_Y),
                                 (bottom, BOTTOM_LINE_Y, BOTTOM_HAND_Y)):
        body.append(group([_hand(seats[seat], hand_y), _line(view, seat, line_y, touched)],
                          class_=f"seat-{seat}"))
    body.append(_played(view, touched))
    body += [listed, strip]
    label = f"Eredan iTCG board, turn {view['turn']}, as {view['perspective']} sees it"
    return document(WIDTH, height, body, label)


def _bottom_seat(view: dict[str, Any]) -> int:
    perspective = view["perspective"]
    return perspective if isinstance(perspective, int) and perspective in (0, 1) else 0


def _touched(changes: list[dict[str, Any]]) -> dict[int, list[str]]:
    """Instance id -> the kinds of the step's changes that name it (a card, or the receiver an
    attachment went on)."""
    marks: dict[int, list[str]] = {}
    for change in changes:
        kind = change.get("kind")
        if kind not in CHANGE_COLOURS:
            continue
        for cid in _ids(change, MARKED):
            marks.setdefault(cid, []).append(str(kind))
    return {cid: sorted(dict.fromkeys(kinds), key=RANK.__getitem__)
            for cid, kinds in marks.items()}


def _ids(change: dict[str, Any], fields: tuple[str, ...]) -> list[int]:
    found: list[int] = []
    for key in fields:
        value = change.get(key)
        found += [v for v in (value if isinstance(value, (list, tuple)) else [value])
                  if isinstance(v, int)]
    return found


def _known_names(view: dict[str, Any]) -> dict[int, str]:
    """Instance id -> name of every card the view shows (so only what this perspective may
    see): characters, what they carry, played cards, the hands and piles it sees."""
    cards = [*view["characters"], *view["played"]]
    cards += [a for c in view["characters"] for a in c["attachments"]]
    for seat in view["seats"]:
        cards += [*(seat["hand"] or []), *(seat["deck"] or []), *seat["discard"]]
    return {c["id"]: c["name"] for c in cards if isinstance(c.get("id"), int)}


HAND_CARD_W = 100


def _hand(seat: dict[str, Any], y: float) -> str:
    """A seat's hand: faces when this perspective sees it, as many card backs otherwise (a hand
    too long for the row gets narrower cards, never overlapping ones)."""
    light, strong = SEAT_COLOURS.get(seat["seat"], ("#e2e8f0", "#334155"))
    hand = seat["hand"]
    score = seat["score"]
    head = (f"{seat['player']} (seat {seat['seat']}) · Hand ({seat['hand_count']})"
            f"{' · hidden' if hand is None else ''} · deck {seat['deck_count']} · "
            f"score {score['total']} (damage {score['damage']}, healed {score['healed']})"
            f"{' · DECK-OUT' if seat['deck_out'] else ''}")
    parts = [rect(6, y + 2, WIDTH - 12, HAND_H - 4, rx=6, fill=light),
             fitted(14, y + 17, head, WIDTH - 28, 11, bold=True, smallest=8, fill=strong)]
    count = seat["hand_count"]
    w = min(HAND_CARD_W, (WIDTH - 28 + 6) / max(count, 1) - 6)
    for i in range(count):
        x = 14 + i * (w + 6)
        if hand is None:
            parts.append(titled(group([rect(x, y + 24, w, 40, rx=4, fill=strong,
                                            stroke="#0f172a"),
                                       text(x + w / 2, y + 48, "Eredan", font_size=10,
                                            fill="#ffffff", text_anchor="middle")],
                                      class_="card-back"), "a card this perspective may not see"))
        else:
            card = hand[i]
            parts.append(titled(group(
                [rect(x, y + 24, w, 40, rx=4, fill="#ffffff", stroke=strong, class_="box"),
                 fitted(x + 4, y + 35, card["name"], w - 8, 9.5, lines=2, smallest=6.5,
                        fill="#0f172a", class_="name"),
                 text(x + 4, y + 60, card["card"], font_size=8, fill="#64748b")],
                class_="card-face"), _hover(f"{card['name']} ({card['card']})", card["card"])))
    return group(parts, class_="hand")


def _line(view: dict[str, Any], seat: int, y: float, touched: dict[int, list[str]]) -> str:
    combat = view.get("combatants") or {}
    fighting = {combat.get("attacker"), combat.get("defender")} - {None}
    fighters = sorted((c for c in view["characters"] if c["owner"] == seat),
                      key=lambda c: c["position"])
    parts = []
    for fighter in fighters:
        x = 14 + (fighter["position"] - 1) * (CHAR_W + 12)
        parts.append(_character(fighter, x, y, fighter["id"] in fighting,
                                touched.get(fighter["id"], [])))
    return group(parts, class_="line")


TAGS = (("defeated", "DEFEATED", "#0f172a"), ("tapped", "TAPPED", "#475569"),
        ("fighting", "COMBAT", "#ea580c"), ("fury", "FURY", "#c2410c"))
"""Status tags of a character: the flag, the word and its colour."""
ROOM = CHAR_W - 16
"""Room for the words inside a character's card."""


def _character(c: dict[str, Any], x: float, y: float, fighting: bool, marks: list[str]) -> str:
    light, strong = SEAT_COLOURS.get(c["owner"], ("#e2e8f0", "#334155"))
    down, tapped = c["defeated"], c["tapped"]
    h = CHAR_H - 8
    box = " ".join(["box", *(["tapped"] if tapped else []), *(["defeated"] if down else []),
                    *(["fighting"] if fighting else [])])
    parts = [rect(x, y + 4, CHAR_W, h, rx=8, fill=light, stroke=strong,
                  stroke_width=3 if fighting else 1.5, class_=box,
                  stroke_dasharray="6 3" if tapped else None, opacity=0.45 if down else None),
             fitted(x + 8, y + 22, c["name"], ROOM - 24, 12, bold=True, smallest=8,
                    fill="#0f172a", class_="name"),
             text(x + CHAR_W - 8, y + 22, f"#{c['position']}", font_size=10, fill="#475569",
                  text_anchor="end", class_="position"),
             text(x + 8, y + 42, f"HP {c['hp']}/{c['max_hp']}", font_size=12,
                  font_weight="bold", fill="#15803d" if c["hp"] > 0 else "#b91c1c",
                  class_="hp"),
             text(x + 90, y + 42, f"ATK {c['attack']}", font_size=11, fill="#b91c1c",
                  class_="attack"),
             text(x + 145, y + 42, f"DEF {c['defense']}", font_size=11, fill="#334155",
                  class_="defense"),
             text(x + 200, y + 42, f"SPI {c['spirit']}", font_size=11, fill="#6d28d9",
                  class_="spirit")]
    flags = {"defeated": down, "tapped": tapped, "fighting": fighting, "fury": c.get("fury")}
    cursor = x + 8
    for flag, label, colour in TAGS:
        if flags[flag]:
            width, drawn = tag(label, colour, cursor, y + 50, class_=f"status-{label.lower()}")
            parts += drawn
            cursor += width + 4
    types = _card_types()
    pets = [a for a in c["attachments"] if types.get(a["card"]) == "pet"]
    items = [a for a in c["attachments"] if types.get(a["card"]) != "pet"]
    row = y + 80
    for kind, cards in (("items", items), ("pet", pets)):
        if not cards:
            continue
        words = ("Items: " if kind == "items" else "Pet: ") + ", ".join(a["name"] for a in cards)
        lines = 2 if row < y + 90 else 1
        line = fitted(x + 8, row, words, ROOM, 9.5, lines=lines, smallest=7, fill="#0e7490",
                      class_=kind)
        parts.append(titled(line, "\n".join(
            _hover(f"{a['name']} ({a['card']})", a["card"]) for a in cards)))
        row += 12 * (2 if line.count("<tspan") > 1 else 1) + 2
    if c["runes"]:
        parts.append(fitted(x + 8, row, "Runes: " + ", ".join(c["runes"]), ROOM, 9.5,
                            smallest=7, fill="#a16207", class_="runes"))
    if marks:
        colour = CHANGE_COLOURS[marks[0]]
        parts.append(rect(x - 3, y + 1, CHAR_W + 6, h + 6, rx=10, fill="none", stroke=colour,
                          stroke_width=4, class_=f"change-{marks[0]}"))
        parts.append(fitted(x + CHAR_W - 8, y + h, ", ".join(marks), ROOM, 9, smallest=6.5,
                            fill=colour, text_anchor="end", class_="marks"))
    kind = " / ".join(filter(None, [*c.get("classes", []), c.get("caste"), c.get("race")]))
    tooltip = [f"seat {c['owner']} · position {c['position']}" + (f" · {kind}" if kind else ""),
               (f"HP {c['hp']}/{c['max_hp']} · attack {c['attack']} / defense {c['defense']} / "
                f"spirit {c['spirit']}")]
    tooltip += [f"attached: {a['name']} ({a['card']})" for a in c["attachments"]]
    if c["runes"]:
        tooltip.append("runes: " + ", ".join(c["runes"]))
    return titled(group(parts, class_="character"),
                  _hover(f"{c['name']} ({c['card']})", c["card"], *tooltip))


PLAYED_W, PLAYED_WIDEST = 104, 150
"""A played card's width: as wide as the row allows for the turn's cards, within these."""


def _played(view: dict[str, Any], touched: dict[int, list[str]]) -> str:
    """The turn's cards in activation order: pulled ones marked, ignored ones struck."""
    parts = [rect(6, PLAYED_Y, WIDTH - 12, PLAYED_H, rx=6, fill="#f1f5f9", stroke="#cbd5e1"),
             text(14, PLAYED_Y + 16, "Played this turn, in activation order", font_size=11,
                  font_weight="bold", fill="#334155")]
    room = WIDTH - 28 + 6
    w = max(PLAYED_W, min(PLAYED_WIDEST, room / max(len(view["played"]), 1) - 6))
    for i, slot in enumerate(view["played"]):
        x = 14 + i * (w + 6)
        if x + w > WIDTH - 10:
            parts.append(text(x, PLAYED_Y + 46, f"+{len(view['played']) - i}", font_size=11))
            break
        _, strong = SEAT_COLOURS.get(slot["seat"], ("#e2e8f0", "#334155"))
        marks = touched.get(slot["id"], [])
        state = "ignored" if slot["ignored"] else "pulled" if slot["pulled"] else \
            "active" if slot["activated"] else "waiting"
        name_class = "name ignored" if slot["ignored"] else "name"
        outline = CHANGE_COLOURS[marks[0]] if marks else strong
        card = [rect(x, PLAYED_Y + 22, w, 58, rx=4, fill="#ffffff", stroke=outline,
                     stroke_width=3 if marks else 1.2, class_="box changed" if marks else "box"),
                fitted(x + 4, PLAYED_Y + 34, f"{i + 1}. {slot['name']}", w - 8, 9, lines=2,
                       smallest=6.5, fill="#0f172a", class_=name_class,
                       text_decoration="line-through" if slot["ignored"] else None),
                text(x + 4, PLAYED_Y + 60, f"seat {slot['seat']} · {state}", font_size=8,
                     fill="#64748b")]
        if marks:
            card.append(fitted(x + 4, PLAYED_Y + 73, ", ".join(marks), w - 8, 8, smallest=6,
                               fill=CHANGE_COLOURS[marks[0]], class_=f"change-{marks[0]}"))
        parts.append(titled(group(card, class_="played"), _hover(
            f"{slot['name']} ({slot['card']})", slot["card"],
            f"played {i + 1}. by seat {slot['seat']} · {state}")))
    return group(parts, class_="played-cards")


def _change_words(change: dict[str, Any], known: dict[int, str]) -> list[str]:
    """A change in short words: its kind, seat, the names of the cards it names (from the
    view), its numbers and words; a draw this perspective may not see is a hidden card."""
    words = [str(change.get("kind"))]
    if change.get("seat") is not None:
        words.append(f"seat {change['seat']}")
    named = ", ".join(known.get(cid, "?") for cid in _ids(change, NAMED))
    actor = _ids(change, ("source", "user"))
    if actor and actor[0] not in _ids(change, MARKED):
        named = f"{known.get(actor[0], '?')} → {named}"
    if named:
        words.append(named)
    if change.get("kind") == "draw" and change.get("card") is None:
        words.append("(hidden card)")
    words += [f"{key} {change[key]}" for key in NUMBERS if change.get(key) is not None]
    words += [f"{key} {change[key]:+d}" for key in STATS if change.get(key)]
    words += [str(change[key]) for key in WORDS if change.get(key)]
    return words


def _change_list(changes: list[dict[str, Any]], shown: list[dict[str, Any]],
                 known: dict[int, str]) -> tuple[str, float]:
    """The step's changes as lines (each in full, in a smaller font when long); returns the
    list and its height."""
    parts = [text(14, CHANGES_Y + 12, f"This step: {len(changes)} change(s)", font_size=11,
                  font_weight="bold", fill="#334155")]
    for i, change in enumerate(shown):
        words = _change_words(change, known)
        parts.append(fitted(24, CHANGES_Y + 12 + CHANGES_LINE * (i + 1), " · ".join(words),
                            WIDTH - 38, 10, smallest=7,
                            fill=CHANGE_COLOURS.get(str(change.get("kind")), "#475569")))
    if len(changes) > len(shown):
        parts.append(text(WIDTH - 14, CHANGES_Y + 12, f"(first {len(shown)})", font_size=10,
                          fill="#64748b", text_anchor="end"))
    return group(parts, class_="changes"), 20 + CHANGES_LINE * max(len(shown), 1)


CHANGE_WORDS = {"physical": "physical damage", "magic": "magic damage", "lose": "HP lost",
                "heal": "healed", "rune_placed": "rune placed", "rune_consumed": "rune used",
                "order_activated": "order", "combatants": "sent to fight",
                "turn_bonus": "turn bonus"}


def legend_entries() -> list[LegendEntry]:
    """Every marker the board can draw: its section, the classes that mark it on the board, a
    sample, and what it means."""
    entries: list[LegendEntry] = [
        ("Character", ("hp",), sample_word("HP", "#15803d"), "HP now/max (red at 0)"),
        ("Character", ("attack",), sample_word("ATK", "#b91c1c", bold=False), "attack"),
        ("Character", ("defense",), sample_word("DEF", "#334155", bold=False), "defense"),
        ("Character", ("spirit",), sample_word("SPI", "#6d28d9", bold=False), "spirit"),
        ("Character", ("position",), sample_word("#1", "#475569", bold=False),
         "position on the line"),
        ("Character", ("items", "pet"), sample_word("Items", "#0e7490", bold=False),
         "Items and Pet it carries"),
        ("Character", ("runes",), sample_word("Runes", "#a16207", bold=False), "its runes"),
        ("Character", ("tapped",), sample_box(dash="6 3"), "dashed: tapped"),
        ("Character", ("defeated",), sample_box(opacity=0.45), "faded: defeated"),
        ("Character", ("fighting",), sample_box(width=3), "thick border: in combat"),
    ]
    meanings = {"defeated": "defeated", "tapped": "tapped", "fighting": "attacker or defender",
                "fury": "Fury this turn"}
    entries += [("Character", (f"status-{label.lower()}",), sample_tag(label, colour),
                 meanings[flag]) for flag, label, colour in TAGS]
    by_colour: dict[str, list[str]] = {}
    for kind, colour in CHANGE_COLOURS.items():
        by_colour.setdefault(colour, []).append(kind)
    for colour, kinds in by_colour.items():
        entries.append(("This step", (*(f"change-{k}" for k in kinds), "changed", "marks"),
                        sample_box(stroke=colour, width=3, fill="none"),
                        ", ".join(CHANGE_WORDS.get(k, k.replace("_", " ")) for k in kinds)))
    entries += [
        ("Cards", ("card-face",), sample_box(stroke="#1d4ed8", fill="#ffffff"),
         "card in hand (hover: its text)"),
        ("Cards", ("card-back",), _sample_back(), "card this view may not see"),
        ("Cards", ("ignored",), sample_word("1. Card", "#0f172a", bold=False,
                                            text_decoration="line-through"),
         "played card ignored (struck through)"),
    ]
    return entries


def _sample_back() -> tuple[float, str]:
    return 34, group([rect(0, -13, 34, 17, rx=3, fill="#1d4ed8", stroke="#0f172a"),
                      text(17, 0, "Eredan", font_size=7.5, fill="#ffffff",
                           text_anchor="middle")])
