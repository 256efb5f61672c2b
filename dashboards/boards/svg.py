"""Tiny SVG builders shared by the game boards: every text goes through `esc`, so a card or
player name can never break out of the picture (names come from decks people type)."""
from __future__ import annotations

from html import escape
from typing import Any

_LINE_BREAKS = str.maketrans({"\n": "&#10;", "\r": "&#13;"})


def esc(text: object) -> str:
    """Text or attribute value as SVG; line breaks too become character references, because
    the page shows the board inside Markdown, where a blank line (a name holding two line
    breaks) would end the HTML block and render the rest of the name as Markdown."""
    return escape(str(text), quote=True).translate(_LINE_BREAKS)


def attrs(**values: object) -> str:
    """Attributes in the order given; trailing '_' drops (class_), '_' inside becomes '-'."""
    parts = []
    for key, value in values.items():
        if value is None:
            continue
        parts.append(f'{key.rstrip("_").replace("_", "-")}="{esc(value)}"')
    return " ".join(parts)


def rect(x: float, y: float, w: float, h: float, **style: object) -> str:
    return f'<rect {attrs(x=x, y=y, width=w, height=h, **style)}/>'


def text(x: float, y: float, body: object, **style: object) -> str:
    return f'<text {attrs(x=x, y=y, **style)}>{esc(body)}</text>'


def path(d: str, **style: object) -> str:
    return f'<path {attrs(d=d, **style)}/>'


def group(children: list[str], **style: object) -> str:
    head = f"<g {attrs(**style)}>" if style else "<g>"
    return head + "".join(children) + "</g>"


def titled(element: str, title: str) -> str:
    """Wrap an element with a hover tooltip (SVG <title>), how the browser shows full names."""
    return f"<g><title>{esc(title)}</title>{element}</g>"


def clip(label: str, limit: int) -> str:
    """Shorten a name to fit a box, with an ellipsis so the reader knows it was cut."""
    return label if len(label) <= limit else label[: max(limit - 1, 1)] + "…"


# Fitting text in a box ---------------------------------------------------------------------
# Advance widths of DejaVu Sans (regular, bold) for ASCII 32-126, in thousandths of an em: the
# widest of the fonts the boards fall back on (Helvetica and Arial are narrower), so a name
# measured with them fits wherever the browser draws it. Other characters count one em.
_REGULAR = (318, 401, 460, 838, 637, 951, 780, 275, 391, 391, 500, 838, 318, 361, 318, 337, 637,
            637, 637, 637, 637, 637, 637, 637, 637, 637, 337, 337, 838, 838, 838, 531, 1000, 685,
            687, 699, 771, 632, 576, 775, 752, 295, 295, 656, 558, 863, 749, 788, 604, 788, 695,
            635, 611, 732, 685, 989, 686, 611, 686, 391, 337, 391, 838, 500, 500, 613, 635, 550,
            635, 616, 353, 635, 634, 278, 278, 580, 278, 975, 634, 612, 635, 635, 412, 521, 393,
            634, 592, 818, 592, 592, 525, 637, 337, 637, 838)
_BOLD = (349, 457, 521, 838, 696, 1002, 873, 307, 458, 458, 523, 838, 380, 416, 380, 366, 696, 696,
         696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 581, 1000, 774, 763, 734,
         831, 684, 684, 821, 837, 373, 373, 775, 638, 996, 837, 851, 733, 851, 771, 721, 683, 813,
         774, 1104, 771, 725, 726, 458, 366, 458, 838, 500, 500, 675, 716, 593, 716, 679, 436, 716,
         712, 343, 343, 666, 343, 1042, 712, 688, 716, 716, 494, 596, 479, 712, 652, 924, 646, 652,
         583, 712, 366, 712, 838)
_NARROW = {"·": (318, 380), "’": (318, 380), "‘": (318, 380)}
LEADING = 1.2
"""Line height of wrapped text, in font sizes."""


def text_width(label: str, size: float, bold: bool = False) -> float:
    """How wide `label` is drawn at font size `size` (an upper bound for the boards' fonts)."""
    table = _BOLD if bold else _REGULAR
    total = 0
    for char in label:
        code = ord(char)
        if 32 <= code <= 126:
            total += table[code - 32]
        else:
            total += _NARROW.get(char, (1000, 1000))[bold]
    return total * size / 1000


def _wrap(words: list[str], width: float, size: float, bold: bool,
          lines: int) -> list[str] | None:
    """Words greedily on at most `lines` lines no wider than `width`; None if they do not go."""
    out: list[str] = []
    for word in words:
        joined = f"{out[-1]} {word}" if out else word
        if out and text_width(joined, size, bold) <= width:
            out[-1] = joined
        elif text_width(word, size, bold) <= width and len(out) < lines:
            out.append(word)
        else:
            return None
    return out


def fit(label: str, width: float, size: float, *, bold: bool = False, lines: int = 1,
        smallest: float = 7.0) -> tuple[list[str], float]:
    """The whole label in a box `width` wide: its words on up to `lines` lines at `size`, else
    at a smaller font, down to `smallest`; a label that still does not go (a word longer than
    the box) is cut between characters onto the lines, at the font that makes them fit. Never
    shortened: the boards write every name in full."""
    words = label.split() or [""]
    current = size
    while current >= smallest:
        wrapped = _wrap(words, width, current, bold, lines)
        if wrapped is not None:
            return wrapped, current
        current = round(current - 0.5, 2)
    flat = " ".join(words)
    per_line = -(-len(flat) // lines)
    chunks = [flat[i:i + per_line].strip() for i in range(0, len(flat), per_line)] or [""]
    widest = max(text_width(chunk, smallest, bold) for chunk in chunks)
    return chunks, round(min(smallest, smallest * width / widest) if widest else smallest, 2)


def fitted(x: float, y: float, label: str, width: float, size: float, *, bold: bool = False,
           lines: int = 1, smallest: float = 7.0, **style: object) -> str:
    """`label` fitted in `width` (see `fit`) as one <text>: its first line's baseline at y, the
    next lines below it, each a <tspan>."""
    wrapped, font = fit(label, width, size, bold=bold, lines=lines, smallest=smallest)
    weight = "bold" if bold else None
    if len(wrapped) == 1:
        return text(x, y, wrapped[0], font_size=font, font_weight=weight, **style)
    spans = "".join(
        f'<tspan {attrs(x=x, y=round(y + i * font * LEADING, 2))}>{esc(line)}</tspan>'
        for i, line in enumerate(wrapped))
    return f'<text {attrs(x=x, y=y, font_size=font, font_weight=weight, **style)}>{spans}</text>'


def flow(items: list[tuple[float, str]], x: float, y: float, width: float, row_h: float,
         gap: float = 14) -> tuple[list[str], float]:
    """Place (width, element drawn at 0,0) items left to right, wrapping at `width`; returns the
    placed elements and the height they took."""
    placed, cursor, top = [], x, y
    for w, element in items:
        if cursor > x and cursor + w > x + width:
            cursor, top = x, top + row_h
        placed.append(f'<g transform="translate({round(cursor, 2)} {round(top, 2)})">'
                      f"{element}</g>")
        cursor += w + gap
    return placed, top - y + row_h


# Tags and the legend ------------------------------------------------------------------------

def tag(label: str, colour: str, x: float, y: float, **style: object) -> tuple[float, list[str]]:
    """A rounded status tag (white bold words on `colour`) at x, y: its width and elements."""
    width = 8 + text_width(label, 8.5, bold=True)
    return width, [rect(x, y, width, 13, rx=6.5, fill=colour),
                   text(x + width / 2, y + 9.5, label, font_size=8.5, font_weight="bold",
                        fill="#ffffff", text_anchor="middle", **style)]


Sample = tuple[float, str]
"""A legend sample: its width and its picture, drawn about a text baseline at y = 0."""
LegendEntry = tuple[str, tuple[str, ...], Sample, str]
"""A legend entry: its section, the classes that mark it on the board (what the legend
explains), its sample and its meaning."""


def sample_box(stroke: str = "#1d4ed8", width: float = 1.5, dash: str | None = None,
               opacity: float = 1, fill: str = "#dbeafe") -> Sample:
    return 26, rect(0, -11, 26, 16, rx=3, fill=fill, stroke=stroke, stroke_width=width,
                    stroke_dasharray=dash, opacity=opacity)


def sample_badge(word: str, colour: str) -> Sample:
    width = 8 + text_width(word, 10, bold=True)
    return width, group([rect(0, -12, width, 16, rx=4, fill=colour),
                         text(width / 2, 0, word, font_size=10, font_weight="bold",
                              fill="#ffffff", text_anchor="middle")])


def sample_tag(word: str, colour: str) -> Sample:
    width, drawn = tag(word, colour, 0, -10)
    return width, group(drawn)


def sample_word(word: str, colour: str, bold: bool = True, **style: object) -> Sample:
    return text_width(word, 10, bold), text(0, 0, word, font_size=10, fill=colour,
                                             font_weight="bold" if bold else None, **style)


def legend(entries: list[LegendEntry], y: float, width: float) -> tuple[str, float]:
    """The legend strip under a board: a row (or more) per section, each marker's sample and
    what it means; every item names the classes it explains (data-marker). Returns the strip
    and its height."""
    parts = [text(12, y + 14, "Legend", font_size=11, font_weight="bold", fill="#334155")]
    top = y + 20
    sections: dict[str, list[tuple[float, str]]] = {}
    for section, markers, (w, sample), meaning in entries:
        item = group([sample, text(w + 5, 0, meaning, font_size=10, fill="#334155")],
                     class_="legend-item", data_marker=" ".join(markers))
        sections.setdefault(section, []).append((w + 5 + text_width(meaning, 10), item))
    for section, items in sections.items():
        parts.append(text(12, top + 14, section, font_size=10, font_weight="bold",
                          fill="#475569"))
        placed, used = flow(items, 84, top + 14, width - 96, 19)
        parts += placed
        top += used + 2
    return group(parts, class_="legend"), top - y + 4


def document(width: int, height: int, body: list[str], label: str) -> str:
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            f'width="100%" style="max-width: {width}px; height: auto" role="img" aria-label="{esc(label)}" '
            f'font-family="Helvetica, Arial, sans-serif">')
    return head + "".join(body) + "</svg>"


def headline(view: dict[str, Any], width: int) -> str:
    """The line across the top of a board: the turn, the active seat, the window and who is to
    act (or how the match ended), and on the right whose view this is."""
    if view["over"]:
        who = "draw" if view["winner"] is None else f"seat {view['winner']} wins"
        line = f"Match over: {who} ({view['reason']}) after turn {view['turn']}"
    else:
        to_act = view["to_act"] if view["to_act"] is not None else "chance"
        line = (f"Turn {view['turn']} · active seat {view['active']} · {view['window']} · "
                f"to act: {to_act}")
    who = view["perspective"]
    seen = f"seen as seat {who}" if isinstance(who, int) else f"seen as {who}"
    room = width - 36 - text_width(seen, 13)
    return group([fitted(12, 22, line, room, 15, bold=True, smallest=10, fill="#0f172a"),
                  text(width - 12, 22, seen, font_size=13, fill="#475569", text_anchor="end")])
