"""The Vampire V20 combat scene as an SVG picture, drawn from a view dict (engine/v20/view.py).

A pure function of what one perspective may see: side A's characters in the left column, side
B's in the right, each with its health track as the character sheet draws it (seven boxes,
Bruised to Incapacitated with their wound penalties, marked "/" bashing, "X" lethal, "*"
aggravated), its level and penalty in words, its statuses as badges, its weapons, armor and
declarations, and its blood and Willpower as dots only where the view holds them (a side's own
characters, or everything for the Storyteller): the picture cannot show what the view left
out. Above the columns: the turn, the phase, what the scene awaits and the turn's initiative.

`changes` are the step's Change records as dicts (engine/v20/changes.py; no V20 change carries
a secret). A `rolled` one is drawn under the columns as d10 faces, successes filled, 1s
marked, a botch flagged; the characters the changes name are outlined, with what happened to
them in a line of their card.

The picture is drawn 640 wide, about the width the Replay page gives a board beside its event
list, so its smallest words stay about 9 pixels high there.
"""
from __future__ import annotations

import textwrap
from collections import Counter
from functools import cache
from typing import Any

from dashboards.boards.svg import attrs, clip, document, group, path, rect, text, titled
from engine.v20.dice import clamp_difficulty, outcome_name, score
from engine.v20.health import HEALTH_LEVELS, NO_ACTIONS, Penalty, Track

WIDTH = 640
PAD = 10
COL_W = (WIDTH - 3 * PAD) / 2
HEAD_H = 48
CHIP_H, CHIP_STEP, CHIPS_PER_ROW = 18, 22, 4
CARD_GAP = 8
BADGE_ROW = 21
BOX_W, BOX_H, BOX_STEP = 22, 14, 17
DIE_W, DIE_H, DIE_STEP = 26, 32, 32
LINE = 13.5
MAX_ROLLS = 3

SIDE_COLOURS = {"A": ("#dbeafe", "#1d4ed8"), "B": ("#fee2e2", "#b91c1c")}
OUT_FILL = "#e5e7eb"
"""A character out of the fight keeps its side's outline on a grey card."""
TOUCHED = "#a16207"
INK, MUTED = "#0f172a", "#475569"

BADGES: tuple[tuple[str, str, str], ...] = (
    ("final_death", "FINAL DEATH", "#111827"), ("dead", "DEAD", "#111827"),
    ("torpor", "TORPOR", "#6d28d9"), ("incapacitated", "INCAPACITATED", "#92400e"),
    ("gone", "GONE", "#475569"), ("npc", "NPC", "#9d174d"), ("frenzy", "FRENZY", "#b91c1c"),
    ("rotschreck", "RÖTSCHRECK", "#c2410c"), ("blind", "BLIND", "#374151"),
    ("full_defense", "FULL DEFENSE", "#0f766e"),
)
"""A status or flag -> its badge's word and fill (white text on each is at least 4.5:1)."""
OUT = frozenset({"final_death", "dead", "torpor", "gone", "npc"})
MARKS: dict[str, tuple[str, str, str]] = {
    "bashing": ("/", "#f1f5f9", "#334155"), "lethal": ("X", "#fee2e2", "#991b1b"),
    "aggravated": ("*", "#7f1d1d", "#ffffff"),
}
"""A damage type -> the game's symbol, the box's fill and the mark's colour: the marks differ
in shape, so no one needs the colours to tell them apart."""


def render_svg(view: dict[str, Any], changes: list[dict[str, Any]] | None = None) -> str:
    """The whole scene, top to bottom: headline, initiative, the two sides, the dice. Heights
    follow what there is to draw (characters, rows of badges, pools, dice), so one picture
    fits a party of any size and a roll of any pool."""
    changes = changes or []
    names = _names(view)
    notes = _notes(changes, names)
    order, order_h = _order(view, names)
    cols_y = HEAD_H + order_h + 6
    columns = [_column(view, side, i, notes, cols_y) for i, side in enumerate(view["sides"])]
    dice_y = cols_y + max([h for _, h in columns] or [0]) + 6
    dice, dice_h = _dice_panel(changes, names, dice_y)
    height = int(dice_y + dice_h + PAD)
    body = [rect(0, 0, WIDTH, height, fill="#f8fafc"), _headline(view, names), order,
            *[svg for svg, _ in columns], dice]
    label = (f"Vampire V20 combat, turn {view['turn']}, {view['phase']} phase, "
             f"as {_seen_as(view)} sees it")
    return document(WIDTH, height, body, label)


def _names(view: dict[str, Any]) -> dict[str, str]:
    """Character id -> "Name (A)", the name cut to fit a line: the same character may fight
    on both sides of a mirror match."""
    return {c["id"]: f"{clip(c['name'], 26)} ({side})" for c, side in _everyone(view)}


def _everyone(view: dict[str, Any]) -> list[tuple[dict[str, Any], str]]:
    return [(c, side["side"]) for side in view["sides"] for c in side["characters"]]


def _seen_as(view: dict[str, Any]) -> str:
    """Whose view this is, read from what it holds (the view does not name its perspective):
    the sides whose pools it shows."""
    own = [side["side"] for side in view["sides"]
           if any("blood" in c for c in side["characters"])]
    if len(own) == len(view["sides"]) and own:
        return "the Storyteller"
    return f"side {own[0]}" if own else "a spectator"


# Headline and initiative -------------------------------------------------------------------

def _headline(view: dict[str, Any], names: dict[str, str]) -> str:
    """The turn and phase (or how the match ended), whose view this is on the right, and under
    them what the scene awaits next."""
    result = view.get("result")
    if view["over"] and result:
        line = f"Match over after turn {view['turn']}: {_result_words(result['results'])}"
        below = f"{result['reason']} ({result['rule']})"
    else:
        line = f"Turn {view['turn']} · {view['phase']} phase"
        below = _awaiting(view, names)
    return group([text(PAD, 20, clip(line, 50), font_size=15, font_weight="bold", fill=INK),
                  text(WIDTH - PAD, 20, f"seen as {_seen_as(view)}", font_size=11.5,
                       fill=MUTED, text_anchor="end", class_="seen-as"),
                  text(PAD, 38, clip(below, 100), font_size=11.5, fill="#334155",
                       class_="awaiting")], class_="headline")


def _result_words(results: list[str]) -> str:
    if "win" in results:
        return f"side {'AB'[results.index('win')]} wins"
    return "draw" if "draw" in results else ", ".join(results)


def _awaiting(view: dict[str, Any], names: dict[str, str]) -> str:
    head = view.get("awaiting")
    if not head:
        return "Nothing awaited"
    who = names.get(head.get("character") or "", "")
    step = head["step"]
    if step == "roll" and "purpose" not in head:
        return "Next: a roll this view may not know of"
    if step == "roll" and head["purpose"] == "initiative":
        return f"Next: initiative, a die for each of {head['pool']} characters"
    if step == "roll":
        by = f" by {who}" if who else ""
        return (f"Next: {head['purpose']} roll{by}, {head['pool']} dice at difficulty "
                f"{head['difficulty']}")
    if step == "defend":
        return f"Next: {who} chooses a defense against {names.get(head.get('attacker'), '?')}"
    if step == "commit":
        done = view.get("committed") or []
        return "Next: the sides' reflexive commitments" + (
            f" (side {', '.join(done)} in)" if done else "")
    words = {"rulings": "the Storyteller's rulings", "declare": f"{who} declares",
             "confirm": f"the Storyteller confirms {who}'s flank or rear attack",
             "derangement": f"the Storyteller rules on {who}'s derangement"}
    return f"Next: {words.get(step, step)}"


def _order(view: dict[str, Any], names: dict[str, str]) -> tuple[str, float]:
    """This turn's initiative order, highest first, as chips in the sides' colours, the
    character the scene awaits outlined. Until this turn's initiative is rolled the view still
    lists the last turn's order, without totals: none is drawn then. Pending ambushes, for
    those who may know them. Returns the SVG and its height."""
    y = HEAD_H
    order = [e for e in view["initiative"] if e["initiative"] is not None]
    rows = max(-(-len(order) // CHIPS_PER_ROW), 1)
    h = 24 + rows * CHIP_STEP
    parts = [rect(PAD, y, WIDTH - 2 * PAD, h, rx=6, fill="#f1f5f9", stroke="#cbd5e1"),
             text(PAD + 8, y + 16, "Initiative, highest first", font_size=11,
                  font_weight="bold", fill="#334155")]
    if not order:
        parts.append(text(PAD + 8, y + 36, "not rolled yet this turn", font_size=11,
                          fill=MUTED))
    acting = (view.get("awaiting") or {}).get("character")
    sides = {c["id"]: side for c, side in _everyone(view)}
    chip_w = (WIDTH - 2 * PAD - 16) / min(max(len(order), 1), CHIPS_PER_ROW) - 6
    for i, entry in enumerate(order):
        x = PAD + 8 + (i % CHIPS_PER_ROW) * (chip_w + 6)
        cy = y + 23 + (i // CHIPS_PER_ROW) * CHIP_STEP
        light, strong = SIDE_COLOURS.get(sides.get(entry["character"], ""),
                                         ("#e2e8f0", "#334155"))
        label = (f"{i + 1}. {names.get(entry['character'], entry['character'])} · "
                 f"{entry['initiative']}")
        chip = group([rect(x, cy, chip_w, CHIP_H, rx=9, fill=light, stroke=strong,
                           stroke_width=2.5 if entry["character"] == acting else 1),
                      text(x + 7, cy + 13, clip(label, int(chip_w / 5.6)), font_size=10,
                           fill=INK)], class_="initiative")
        parts.append(titled(chip, label))
    ambushes = [f"{names.get(a['ambusher'], '?')} → {names.get(a['target'], '?')}"
                for a in view.get("ambushes", [])]
    if ambushes:
        parts.append(text(WIDTH - PAD - 8, y + 16, clip("Ambush: " + "; ".join(ambushes), 62),
                          font_size=10.5, fill="#9d174d", text_anchor="end", class_="ambush"))
    return group(parts, class_="order"), h


# The two columns ---------------------------------------------------------------------------

def _column(view: dict[str, Any], side: dict[str, Any], index: int,
            notes: dict[str, list[str]], top: float) -> tuple[str, float]:
    """One side's characters stacked in its column; returns the SVG and its height."""
    x = PAD + index * (COL_W + PAD)
    _, strong = SIDE_COLOURS.get(side["side"], ("#e2e8f0", "#334155"))
    parts = [text(x + 4, top + 14, f"Side {side['side']}", font_size=13, font_weight="bold",
                  fill=strong)]
    y = top + 22.0
    acting = (view.get("awaiting") or {}).get("character")
    for c in side["characters"]:
        card, h = _card(c, side["side"], x, y, notes.get(c["id"], []), c["id"] == acting)
        parts.append(card)
        y += h + CARD_GAP
    return group(parts, class_=f"side side-{side['side']}"), y - top


NOTE_H = 32
"""The room under a card's rows kept for what the step did (two lines), so cards keep their
height from step to step while a match plays."""


def _card(c: dict[str, Any], side: str, x: float, y: float, notes: list[str],
          acting: bool) -> tuple[str, float]:
    """A character's card: who it is, its badges, then the health track on the right and its
    words, gear and pools on the left; its declarations and what this step did below."""
    light, strong = SIDE_COLOURS.get(side, ("#e2e8f0", "#334155"))
    badges, rows = _badges(c, x + 10, y + 42)
    body = y + 42 + BADGE_ROW * rows + 2
    left, left_h = _left_block(c, x + 10, body)
    block_h = max(left_h, HEALTH_LEVELS * BOX_STEP + 4)
    h = body - y + block_h + 6 + LINE + NOTE_H
    out = c["status"] in OUT or c["gone"] or c["npc"]
    parts = [rect(x, y, COL_W, h, rx=8, fill=OUT_FILL if out else light, stroke=strong,
                  stroke_width=1.5),
             text(x + 10, y + 19, clip(c["name"], 32), font_size=13.5, font_weight="bold",
                  fill=INK, class_="name"),
             text(x + 10, y + 35, _identity(c), font_size=10.5, fill=MUTED, class_="kind"),
             badges, left, _track(c, x + COL_W - 10 - BOX_W, body),
             _declared(c, x + 10, body + block_h + 16),
             _step_lines(notes, x + 10, y + h - NOTE_H + 12)]
    if acting:
        parts.append(text(x + COL_W - 10, y + 35, "next to act", font_size=10.5,
                          font_weight="bold", fill=strong, text_anchor="end",
                          class_="acting"))
    if notes or acting:
        parts.append(rect(x - 2, y - 2, COL_W + 4, h + 4, rx=10, fill="none",
                          stroke=TOUCHED if notes else strong, stroke_width=3,
                          stroke_dasharray=None if notes else "6 3",
                          class_="touched" if notes else "awaited"))
    tooltip = f"{c['name']} · {c['kind']} · side {side} · {c['track']} ({c['level']})"
    return titled(group(parts, class_="character", data_id=c["id"]), tooltip), h


def _identity(c: dict[str, Any]) -> str:
    init = "" if c["initiative"] is None else f" · initiative {c['initiative']}"
    return f"{c['kind']}{init}"


def _badges(c: dict[str, Any], x: float, y: float) -> tuple[str, int]:
    """Every status and flag the view shows as a white-on-colour word ("active" when none),
    on as many rows as they need; returns the SVG and its rows."""
    on = [(word, fill, key) for key, word, fill in BADGES
          if c["status"] == key or c.get(key) is True]
    if not on:
        return text(x, y + 12, "active", font_size=10.5, fill="#15803d", font_weight="bold",
                    class_="status-active"), 1
    parts, cursor, row = [], x, 0
    for word, fill, key in on:
        width = 12 + 6.6 * len(word)
        if cursor > x and cursor + width > x + COL_W - 20:
            cursor, row = x, row + 1
        top = y + row * BADGE_ROW
        parts += [rect(cursor, top, width, 17, rx=8.5, fill=fill),
                  text(cursor + width / 2, top + 12.2, word, font_size=9.5, font_weight="bold",
                       fill="#ffffff", text_anchor="middle", class_=f"status-{key}")]
        cursor += width + 5
    return group(parts, class_="badges"), row + 1


# Health ------------------------------------------------------------------------------------

@cache
def _levels() -> tuple[tuple[str, Penalty], ...]:
    """The seven boxes' level names and penalties (V20-9.1), as engine.v20.health reads them."""
    return tuple((t.level_name, t.penalty) for t in
                 (Track(bashing=k) for k in range(1, HEALTH_LEVELS + 1)))


def _penalty_words(penalty: Penalty) -> str:
    if penalty == NO_ACTIONS:
        return "no actions"
    return "no wound penalty" if penalty == 0 else f"{penalty} dice"


def _health_words(c: dict[str, Any]) -> list[str]:
    """The track as the game writes it, the level reached and its penalty."""
    boxes: list[str] = c["boxes"]
    if not boxes:
        return ["Health: no damage", "no wound penalty"]
    penalty = Track.from_boxes(boxes).penalty
    words = [f"Health: {c['track']}", f"{c['level']} · {_penalty_words(penalty)}"]
    if c.get("frenzy") and penalty not in (0, NO_ACTIONS):
        words.append("(ignored in frenzy, V20-12.5)")
    return words


def _track(c: dict[str, Any], x: float, y: float) -> str:
    """The seven boxes top to bottom, as on a character sheet, each with its level and
    penalty on its left; the level reached is in bold."""
    boxes: list[str] = c["boxes"]
    parts = []
    for i, (level, penalty) in enumerate(_levels()):
        by = y + i * BOX_STEP
        reached = i == len(boxes) - 1
        label = level if penalty in (0, NO_ACTIONS) else f"{level} {penalty}"
        parts.append(text(x - 5, by + 11, label, font_size=10, text_anchor="end",
                          fill=INK if reached else MUTED,
                          font_weight="bold" if reached else None))
        parts.append(_box(x, by, level, penalty, boxes[i] if i < len(boxes) else None))
    return group(parts, class_="health")


def _box(x: float, y: float, level: str, penalty: Penalty, filled: str | None) -> str:
    if filled is None:
        box = rect(x, y, BOX_W, BOX_H, rx=2, fill="#ffffff", stroke="#64748b",
                   class_="box-empty")
        return titled(box, f"{level} ({_penalty_words(penalty)}): empty")
    symbol, fill, ink = MARKS[filled]
    cx, cy, r = x + BOX_W / 2, y + BOX_H / 2, BOX_H / 2 - 2.5
    strokes = {"/": f"M{cx - r} {cy + r} L{cx + r} {cy - r}",
               "X": f"M{cx - r} {cy + r} L{cx + r} {cy - r} M{cx - r} {cy - r} L{cx + r} {cy + r}",
               "*": (f"M{cx} {cy - r} L{cx} {cy + r} M{cx - r * 0.87} {cy - r / 2} "
                     f"L{cx + r * 0.87} {cy + r / 2} M{cx - r * 0.87} {cy + r / 2} "
                     f"L{cx + r * 0.87} {cy - r / 2}")}[symbol]
    box = group([rect(x, y, BOX_W, BOX_H, rx=2, fill=fill, stroke="#334155"),
                 path(strokes, stroke=ink, stroke_width=2, stroke_linecap="round",
                      fill="none")], class_=f"box-{filled}")
    return titled(box, f"{level} ({_penalty_words(penalty)}): {filled} ({symbol})")


# The left block: health in words, gear, pools ---------------------------------------------

def _left_block(c: dict[str, Any], x: float, y: float) -> tuple[str, float]:
    """Health in words, weapons (with loaded rounds where the view has them) and armor, then
    the pools where the view has them; returns the SVG and its height."""
    health = _health_words(c)
    rounds: dict[str, int] = c.get("rounds") or {}
    weapons = ", ".join(_words(w) + (f" ({rounds[w]} rounds)" if w in rounds else "")
                        for w in c["weapons"])
    gear = textwrap.wrap(f"Weapons: {weapons}", 34, max_lines=2, placeholder=" …")
    gear.append(clip(f"Armor: {c['armor'] or 'none'}", 34))
    parts = [text(x, y + 11, health[0], font_size=11, font_weight="bold", fill=INK,
                  class_="track")]
    parts += [text(x, y + 11 + LINE * i, words, font_size=10.5, fill=INK)
              for i, words in enumerate(health[1:], start=1)]
    gear_y = y + 15 + LINE * len(health)
    parts += [text(x, gear_y + LINE * i, words, font_size=10.5, fill=INK,
                   class_="armor" if words.startswith("Armor") else "weapons")
              for i, words in enumerate(gear)]
    h = 8 + LINE * (len(health) + len(gear))
    if "blood" in c:
        pools, pools_h = _pools(c, x, y + h + 4)
        parts.append(pools)
        h += 4 + pools_h
    return group(parts, class_="about"), h


def _words(name: str) -> str:
    """An action or weapon id as words ("full_defense" -> "full defense")."""
    return name.replace("_", " ")


def _declared(c: dict[str, Any], x: float, y: float) -> str:
    declared = ", ".join(_words(a) for a in c["declared"]) or "nothing yet"
    if c["extra"]:
        declared += f"; Celerity: {', '.join(_words(a) for a in c['extra'])}"
    return titled(text(x, y, clip(f"Declared: {declared}", 52), font_size=10.5, fill=MUTED,
                       class_="declared"), f"Declared: {declared}")


DOT_STEP, DOTS_PER_ROW = 10.5, 16


def _pools(c: dict[str, Any], x: float, y: float) -> tuple[str, float]:
    """Blood (pool of maximum) and Willpower (pool of rating) as filled and hollow dots."""
    blood, will = c["blood"], c["willpower"]
    spent = f" ({blood['spent_this_turn']} spent)" if blood["spent_this_turn"] else ""
    blood_dots, blood_h = _dots(x + 4, y + 18, blood["pool"], blood["max"], "#b91c1c",
                                f"Blood pool: {blood['pool']} of {blood['max']} BP, "
                                f"{blood['spent_this_turn']} spent this turn")
    wy = y + 18 + blood_h + 8
    will_dots, will_h = _dots(x + 4, wy + 18, will["pool"], will["rating"], "#1d4ed8",
                              f"Willpower pool: {will['pool']} of rating {will['rating']}")
    parts = [text(x, y + 10, f"Blood {blood['pool']}/{blood['max']} BP{spent}",
                  font_size=10.5, fill="#7f1d1d", font_weight="bold", class_="blood"),
             blood_dots,
             text(x, wy + 10, f"Willpower {will['pool']}/{will['rating']}", font_size=10.5,
                  fill="#1e3a8a", font_weight="bold", class_="willpower"),
             will_dots]
    return group(parts, class_="pools"), wy + 18 + will_h - y


def _dots(x: float, y: float, filled: int, total: int, colour: str,
          title: str) -> tuple[str, float]:
    """`total` dots in rows, the first `filled` filled; returns the SVG and its height."""
    count = max(total, filled)
    parts = []
    for i in range(count):
        dot = attrs(cx=x + (i % DOTS_PER_ROW) * DOT_STEP, cy=y + (i // DOTS_PER_ROW) * DOT_STEP,
                    r=3.8, stroke=colour, stroke_width=1.3,
                    fill=colour if i < filled else "#ffffff")
        parts.append(f"<circle {dot}/>")
    rows = max(-(-count // DOTS_PER_ROW), 1)
    return titled(group(parts, class_="dots"), title), (rows - 1) * DOT_STEP + 4


# What the step did -------------------------------------------------------------------------

def _step_lines(notes: list[str], x: float, y: float) -> str:
    """What the step did to the character, on up to two lines (the whole in the tooltip)."""
    if not notes:
        return ""
    counts = Counter(notes)
    words = "This step: " + "; ".join(n if counts[n] == 1 else f"{n} (×{counts[n]})"
                                      for n in counts)
    lines = textwrap.wrap(words, 44, max_lines=2, placeholder=" …")
    return titled(group([text(x, y + 14 * i, line, font_size=10.5, font_weight="bold",
                              fill=TOUCHED) for i, line in enumerate(lines)],
                        class_="step-note"), words)


def _notes(changes: list[dict[str, Any]], names: dict[str, str]) -> dict[str, list[str]]:
    """Character id -> what the step's changes did to it or had it do, in short words."""
    notes: dict[str, list[str]] = {}
    for change in changes:
        for who, words in _said(change, names):
            notes.setdefault(who, []).append(words)
    return notes


NOTES = {
    "became": "became {status}", "healed": "healed 1 {damage_type}",
    "spent": "spent {points} {pool} ({purpose})", "mastery": "{test}: {result}",
    "triggered": "{test} trigger: {cause} (difficulty {difficulty})",
    "forfeited": "forfeited {action} ({why})", "full_defense": "full defense",
    "fed": "fed {points} BP", "boosted": "+{points} {attribute} (blood)",
    "reloaded": "reloaded {weapon}",
}
"""Changes about one `character`, in words (their fields by name)."""


def _said(c: dict[str, Any], names: dict[str, str]) -> list[tuple[str, str]]:
    """(character id, words) for each character the change is about."""
    kind, who = str(c.get("kind")), str(c.get("character") or "")
    if kind == "rolled" and who:
        got = "botch" if c.get("botch") else outcome_name(int(c["successes"]))
        return [(who, f"rolled {c['purpose']}: {got}")]
    if kind == "damaged":
        took = f"took {c['levels']} {c['damage_type']} ({c['damage']} damage, {c['soaked']} soaked)"
        return [(who, took)]
    if kind == "declared":
        acts = [*c["actions"], *c.get("extra", [])]
        return [(who, "declared " + ", ".join(_words(a) for a in acts))]
    if kind in ("hit", "missed"):
        hit = kind == "hit"
        word = "hit" if hit else f"missed ({c['why']})"
        target = names.get(c["target"], "?")
        return [(c["attacker"], f"{word} {target} with {_words(c['weapon'])}"),
                (c["target"], f"{'hit' if hit else 'missed'} by {names.get(c['attacker'], '?')}")]
    if kind == "ambushed":
        return [(c["ambusher"], f"ambush: {c['result'].replace('_', ' ')}"),
                (c["target"], f"ambushed by {names.get(c['ambusher'], '?')}")]
    if kind in NOTES and who:
        return [(who, _words(NOTES[kind].format(**c)))]
    return []


# Dice --------------------------------------------------------------------------------------

def _dice_panel(changes: list[dict[str, Any]], names: dict[str, str],
                y: float) -> tuple[str, float]:
    """The step's rolls as d10 faces (the last few), and the initiative totals when it rolled
    initiative (the changes hold no initiative dice)."""
    rolls = [c for c in changes if c.get("kind") == "rolled"][-MAX_ROLLS:]
    parts: list[str] = []
    cursor = y + 24
    for roll in rolls:
        svg, h = _roll(roll, names, cursor)
        parts.append(svg)
        cursor += h
    for line in _initiative_lines(changes, names):
        parts.append(text(PAD + 10, cursor + 12, clip(line, 100), font_size=11,
                          font_weight="bold", fill=INK, class_="initiative-rolled"))
        cursor += 22
    if cursor == y + 24:
        parts.append(text(PAD + 10, cursor + 10, "No dice this step", font_size=11,
                          fill=MUTED, class_="no-roll"))
        cursor += 20
    h = cursor - y + 4
    frame = [rect(PAD, y, WIDTH - 2 * PAD, h, rx=6, fill="#ffffff", stroke="#cbd5e1"),
             text(PAD + 10, y + 16, "Dice", font_size=12, font_weight="bold", fill="#334155"),
             text(WIDTH - PAD - 10, y + 16, "filled: success · red: a 1 · hollow: no success",
                  font_size=10, fill=MUTED, text_anchor="end")]
    return group(frame + parts, class_="dice-panel"), h


def _initiative_lines(changes: list[dict[str, Any]], names: dict[str, str]) -> list[str]:
    return ["Initiative rolled: " + ", ".join(
        f"{names.get(who, who)} {total}" for who, total in zip(c["order"], c["totals"]))
        for c in changes if c.get("kind") == "initiative"]


def _roll(roll: dict[str, Any], names: dict[str, str], y: float) -> tuple[str, float]:
    """One roll: who rolled what, at what pool and difficulty; the dice; the net result."""
    d = clamp_difficulty(int(roll["difficulty"]))
    extras = [w for w, on in (("specialty", roll.get("specialty")),
                              (f"+{roll.get('auto', 0)} automatic", roll.get("auto"))) if on]
    roller = names.get(roll.get("character") or "", "Someone this view may not name")
    head = (f"{roller} · {roll['purpose']} roll · "
            f"pool {roll['pool']} · difficulty {roll['difficulty']}"
            + "".join(f" · {w}" for w in extras))
    parts = [text(PAD + 10, y + 10, clip(head, 96), font_size=11, font_weight="bold",
                  fill=INK, class_="roll-head")]
    per_row = int((WIDTH - 2 * PAD - 20) // DIE_STEP)
    dice: list[int] = list(roll["dice"])
    for i, value in enumerate(dice):
        dx = PAD + 10 + (i % per_row) * DIE_STEP
        dy = y + 18 + (i // per_row) * (DIE_H + 14)
        parts.append(_die(dx, dy, value, d, bool(roll.get("specialty"))))
    rows = max(-(-len(dice) // per_row), 1)
    ry = y + 18 + rows * (DIE_H + 14) + 18
    parts.append(_result(roll, d, ry))
    return group(parts, class_="roll"), ry - y + 26


def _die(x: float, y: float, value: int, difficulty: int, specialty: bool) -> str:
    """A d10 face (a kite, as the die's faces are): a success filled green, a 1 red, a
    failure hollow grey; under it what the die counts (+1, +2 for a ten in a specialty, -1
    for a 1), for a reader who does not tell the colours apart."""
    w, h = DIE_W, DIE_H
    kite = f"M{x + w / 2} {y} L{x + w} {y + h * 0.42} L{x + w / 2} {y + h} L{x} {y + h * 0.42} Z"
    if value == 1:
        fill, stroke, ink, word, cls = "#fee2e2", "#b91c1c", "#991b1b", "−1", "die-one"
    elif value >= difficulty:
        fill, stroke, ink, cls = "#15803d", "#14532d", "#ffffff", "die-success"
        word = "+2" if value == 10 and specialty else "+1"
    else:
        fill, stroke, ink, word, cls = "#ffffff", "#94a3b8", "#475569", "", "die-fail"
    parts = [path(kite, fill=fill, stroke=stroke, stroke_width=2 if value == 1 else 1.3),
             text(x + w / 2, y + h * 0.58, value, font_size=12, font_weight="bold", fill=ink,
                  text_anchor="middle")]
    if word:
        parts.append(text(x + w / 2, y + h + 11, word, font_size=10, fill=stroke,
                          text_anchor="middle", font_weight="bold"))
    title = f"{value}: " + {"die-one": "a 1, cancels a success", "die-fail": "no success",
                            "die-success": "a success"}[cls]
    if word == "+2":
        title += ", counted twice (specialty)"
    return titled(group(parts, class_=cls), title)


def _result(roll: dict[str, Any], difficulty: int, y: float) -> str:
    """The net result and how the dice made it; a botch as a red badge."""
    counted = score(list(roll["dice"]), difficulty, specialty=bool(roll.get("specialty")))
    ones = f"{counted.ones} one{'s' if counted.ones != 1 else ''}"
    if roll.get("botch"):
        return group([rect(PAD + 10, y - 13, 64, 18, rx=9, fill="#b91c1c"),
                      text(PAD + 42, y, "BOTCH", font_size=11, font_weight="bold",
                           fill="#ffffff", text_anchor="middle", class_="botch"),
                      text(PAD + 82, y, f"no success die and {ones} (V20-2.8)", font_size=11,
                           fill="#991b1b")], class_="roll-result")
    hits = counted.plain + counted.tens
    how = (f"{hits} success{'es' if hits != 1 else ''} at {difficulty} or more, {ones}"
           + (", tens count twice and 1s cancel plain successes first" if roll.get("specialty")
              else "")
           + (f", +{roll['auto']} automatic" if roll.get("auto") else ""))
    n = int(roll["successes"])
    words = f"{outcome_name(n)} net" + (" (failure)" if n == 0 else "")
    return group([text(PAD + 10, y, words, font_size=12.5, font_weight="bold",
                       fill="#15803d" if n else MUTED, class_="net"),
                  text(PAD + 10, y + 15, clip(how, 100), font_size=10.5, fill=MUTED)],
                 class_="roll-result")
