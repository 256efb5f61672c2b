"""Deck lists as people write them by hand, for any game: plain text or the JSON form of DeckList.

Text form, one item a line:

    name: Steel Sultanate starter     # optional deck name
    [Sovereign]                       # section header; the key is the name lowercased
    Marechal Zahir                    # no count: 1 (only in single-card sections, e.g. sovereign)
    [Maneuver]
    4 Steel Grenadiers                # COUNT NAME-or-ID; "4x Steel Grenadiers" works too
    2 ST01-014                        # an ID is as good as a name

`#` starts a comment (whole line, or after whitespace); blank lines are ignored. This module does
not know any game: cards stay exactly as written (a name or an ID). Each game maps them to card IDs
in its own check step (Vitorian Wars: engine.vitorian.deckcheck.resolve), which is also where
unknown cards are reported, because only the game's catalog knows what exists. The steps every
game's check shares live here, given the catalog's `find`: `resolve_cards`, `entry_problems` and
`in_rule_order`.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Protocol

import msgspec

from events.base import DeckEntry, DeckList


class _CardWithId(Protocol):
    @property
    def id(self) -> str: ...


Find = Callable[[str], _CardWithId | None]
"""A game catalog's lookup of a card by name or ID (None when the catalog does not know it)."""

SINGLE_CARD_SECTIONS: frozenset[str] = frozenset({"sovereign"})
"""Sections where a card line without a count means one copy (a leader card)."""

_HEADER = re.compile(r"^\[\s*([^\[\]]+?)\s*\]$")
_NAME = re.compile(r"^name\s*:\s*(.*)$", re.IGNORECASE)
_COUNTED = re.compile(r"^(\d+)[xX]?\s+(\S.*)$")
_COMMENT = re.compile(r"(^|\s)#.*$")


def parse_decklist(text: str, source: str = "<text>",
                   single_card_sections: Iterable[str] = SINGLE_CARD_SECTIONS) -> DeckList:
    """Parse the text form; a bad line raises ValueError naming `source` and the line number, so
    the person can find and fix it in their own file."""
    singles = frozenset(single_card_sections)
    name: str | None = None
    sections: dict[str, list[DeckEntry]] = {}
    current: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _COMMENT.sub("", raw).strip()
        if not line:
            continue
        where = f"{source}:{number}"
        if header := _HEADER.match(line):
            current = " ".join(header.group(1).split()).lower()
            sections.setdefault(current, [])
        elif named := _NAME.match(line):
            if name is not None:
                raise ValueError(f"{where}: second 'name:' line (the deck is already {name!r})")
            name = named.group(1).strip()
        elif current is None:
            raise ValueError(f"{where}: card line {line!r} before any [Section] header")
        else:
            sections[current].append(_parse_entry(line, current, singles, where))
    return DeckList(name=name or "", sections=sections)


def _parse_entry(line: str, section: str, singles: frozenset[str], where: str) -> DeckEntry:
    """One card line: `COUNT CARD`, or a bare `CARD` in a single-card section."""
    counted = _COUNTED.match(line)
    if counted:
        count, card = int(counted.group(1)), counted.group(2)
        if count < 1:
            raise ValueError(f"{where}: count must be at least 1 in {line!r}")
    elif section in singles:
        count, card = 1, line
    else:
        raise ValueError(f"{where}: expected 'COUNT CARD' (e.g. '4 Steel Grenadiers'), "
                         f"got {line!r}")
    return DeckEntry(card=" ".join(card.split()), count=count)


def format_decklist(deck: DeckList,
                    catalog_lookup: Callable[[str], str | None] | None = None) -> str:
    """The text form of `deck`; parse_decklist(format_decklist(d)) == d for any parsed deck.

    `catalog_lookup(card)` may give a readable name for an ID; it is written as a trailing
    comment so the card itself (and so the round trip) stays exactly as stored.
    """
    lines = [f"name: {deck.name}"] if deck.name else []
    for section, entries in deck.sections.items():
        if lines:
            lines.append("")
        lines.append(f"[{section.title()}]")
        lines.extend(_format_entry(entry, catalog_lookup) for entry in entries)
    return "\n".join(lines) + "\n"


def _format_entry(entry: DeckEntry, lookup: Callable[[str], str | None] | None) -> str:
    label = lookup(entry.card) if lookup else None
    note = f"  # {label}" if label and label != entry.card else ""
    return f"{entry.count} {entry.card}{note}"


def decode_json_decklist(data: str | bytes, source: str = "<json>") -> DeckList:
    """The msgspec JSON form of DeckList; errors name the source."""
    try:
        return msgspec.json.decode(data, type=DeckList)
    except msgspec.DecodeError as err:
        raise ValueError(f"{source}: invalid JSON deck list: {err}") from err


def load_decklist(path: str | Path) -> DeckList:
    """Read a deck list file: JSON when the extension is .json or the content starts with '{',
    the text form otherwise (people rename files; the content decides when in doubt)."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    if path.suffix.lower() == ".json" or text.lstrip().startswith("{"):
        return decode_json_decklist(text, source=str(path))
    return parse_decklist(text, source=str(path))


def resolve_cards(deck: DeckList, find: Find) -> DeckList:
    """The deck with every name or ID `find` knows replaced by its card ID, repeated lines of a
    card in a section merged (first position kept); unknown cards stay as written for the game's
    check to report (VW-3.17, ER-2.14)."""
    sections = {key: _resolve_section(entries, find) for key, entries in deck.sections.items()}
    return DeckList(name=deck.name, sections=sections)


def _resolve_section(entries: list[DeckEntry], find: Find) -> list[DeckEntry]:
    counts: dict[str, int] = {}
    for entry in entries:
        card = find(entry.card.strip())
        key = card.id if card else entry.card
        counts[key] = counts.get(key, 0) + entry.count
    return [DeckEntry(card=key, count=count) for key, count in counts.items()]


def entry_problems(deck: DeckList, sections: Iterable[str], find: Find,
                   rule: str) -> Iterator[tuple[str, str]]:
    """Unknown sections, unknown cards and counts below 1, pointing at the entry as written, all
    under `rule`, the game's rule for malformed decks (VW-3.17, ER-2.14)."""
    known = tuple(sections)
    for key, entries in deck.sections.items():
        if key not in known:
            yield rule, f"unknown section [{key}]; expected {', '.join(known)}"
        for number, entry in enumerate(entries, start=1):
            where = f"[{key}] entry {number}"
            if find(entry.card.strip()) is None:
                yield rule, f"{where}: unknown card {entry.card!r}"
            if entry.count < 1:
                yield rule, f"{where}: count {entry.count} for {entry.card!r} is below 1"


def in_rule_order(problems: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Stable sort of (rule ID, reason) by rule number (VW-3.3 before VW-3.10, ER-2.4 before
    ER-2.10), keeping each rule's own order."""
    def key(problem: tuple[str, str]) -> tuple[int, ...]:
        return tuple(int(part) for part in problem[0].partition("-")[2].split("."))
    return sorted(problems, key=key)
