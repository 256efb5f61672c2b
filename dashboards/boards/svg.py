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
    seen = f"seat {who}" if isinstance(who, int) else str(who)
    return group([text(12, 22, line, font_size=15, font_weight="bold", fill="#0f172a"),
                  text(width - 12, 22, f"seen as {seen}", font_size=13, fill="#475569",
                       text_anchor="end")])
