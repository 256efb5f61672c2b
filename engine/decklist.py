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

import ast
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

MAX_COUNT = 2**63 - 1
"""The largest count a deck entry may give: a log stores it in a 64-bit field (events.log)."""
BOM = "\ufeff"
"""The byte-order mark some editors put first in a file; it is no part of the deck."""

_HEADER = re.compile(r"^\[\s*([^\[\]]+?)\s*\]$")
_NAME = re.compile(r"^name\s*:\s*(.*)$", re.IGNORECASE)
_COUNTED = re.compile(r"^(\d+)[xX]?\s+(\S.*)$")
_COMMENT = re.compile(r"(^|\s)#.*$")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
"""What editors count lines by (str.splitlines also breaks at form feeds, U+2028...)."""
_BYTE = re.compile(r"\(byte (\d+)\)")
_SURROGATE = re.compile("[\ud800-\udfff]")


class DeckListError(ValueError):
    """A deck list that cannot be read; the message names the source and the line (or the
    JSON path) so the person can find and fix it in their own file."""

    def __init__(self, source: str, line: int | None, reason: str) -> None:
        super().__init__(f"{source}:{line}: {reason}" if line else f"{source}: {reason}")
        self.source, self.line, self.reason = source, line, reason


def parse_decklist(text: str, source: str = "<text>",
                   single_card_sections: Iterable[str] = SINGLE_CARD_SECTIONS) -> DeckList:
    """Parse the text form; a bad line raises DeckListError naming `source` and the line
    number, so the person can find and fix it in their own file."""
    singles = frozenset(single_card_sections)
    name: str | None = None
    sections: dict[str, list[DeckEntry]] = {}
    current: str | None = None
    for number, raw in enumerate(_lines(text, source), start=1):
        line = _COMMENT.sub("", raw).strip()
        if not line:
            continue
        if header := _HEADER.match(line):
            current = " ".join(header.group(1).split()).lower()
            sections.setdefault(current, [])
        elif named := _NAME.match(line):
            if name is not None:
                raise DeckListError(source, number, "second 'name:' line (the deck is already "
                                                    f"{name!r})")
            name = named.group(1).strip()
        elif current is None:
            raise DeckListError(source, number, f"card line {line!r} before any [Section] "
                                                "header")
        else:
            sections[current].append(_parse_entry(line, current, singles, (source, number)))
    return DeckList(name=name or "", sections=sections)


def _lines(text: str, source: str) -> list[str]:
    """The lines as editors count them, refusing a lone surrogate (text decoded with
    'surrogateescape'): it has no UTF-8 form, so the deck could not go into a log."""
    lines = _LINE_BREAK.split(text.removeprefix(BOM))
    for number, line in enumerate(lines, start=1):
        if bad := _SURROGATE.search(line):
            raise DeckListError(source, number, "not UTF-8 text: a lone surrogate at column "
                                                f"{bad.start() + 1}")
    return lines


def _parse_entry(line: str, section: str, singles: frozenset[str],
                 where: tuple[str, int]) -> DeckEntry:
    """One card line: `COUNT CARD`, or a bare `CARD` in a single-card section."""
    counted = _COUNTED.match(line)
    if counted:
        digits, card = counted.group(1), counted.group(2)
        count = int(digits) if len(digits) <= len(str(MAX_COUNT)) else MAX_COUNT + 1
        if count < 1:
            raise DeckListError(*where, f"count must be at least 1 in {line!r}")
        if count > MAX_COUNT:
            raise DeckListError(*where, f"count must be at most {MAX_COUNT} in {line[:40]!r}")
    elif section in singles:
        count, card = 1, line
    else:
        raise DeckListError(*where, "expected 'COUNT CARD' (e.g. '4 Steel Grenadiers'), "
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
    """The msgspec JSON form of DeckList; errors name the source and where in it (a line and
    column, or the JSON path of the field)."""
    text = data.removeprefix(BOM) if isinstance(data, str) else \
        data.removeprefix(BOM.encode())
    try:
        deck = msgspec.json.decode(text, type=DeckList)
    except (msgspec.DecodeError, RecursionError, UnicodeEncodeError) as err:
        raise DeckListError(source, None, f"invalid JSON deck list: {_located(text, err)}"
                            ) from None
    for key, entries in deck.sections.items():
        for i, entry in enumerate(entries):
            if abs(entry.count) > MAX_COUNT:
                raise DeckListError(source, None, f"invalid JSON deck list: count outside "
                                    f"{-MAX_COUNT} to {MAX_COUNT} - at `$.sections.{key}[{i}].count`")
    return deck


def _located(text: str | bytes, err: Exception) -> str:
    """msgspec's reason with its "(byte N)" told as the line and column a person goes to."""
    if isinstance(err, RecursionError):
        return "nested too deeply"
    if isinstance(err, UnicodeEncodeError):
        return "not UTF-8 text (a lone surrogate)"
    data = text.encode(errors="replace") if isinstance(text, str) else text
    return _BYTE.sub(lambda found: "(line {}, column {})".format(
        *_line_column(data, int(found.group(1)))), str(err))


def _line_column(data: bytes, offset: int) -> tuple[int, int]:
    return data.count(b"\n", 0, offset) + 1, offset - (data.rfind(b"\n", 0, offset) + 1) + 1


def load_decklist(path: str | Path) -> DeckList:
    """Read a deck list file: JSON when the extension is .json or the content starts with '{',
    the text form otherwise (people rename files; the content decides when in doubt). A
    leading byte-order mark is skipped; bytes that are not UTF-8 are refused at their line."""
    path = Path(path)
    data = path.read_bytes().removeprefix(BOM.encode())
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line, column = _line_column(data, err.start)
        raise DeckListError(str(path), line, f"not UTF-8 text: byte 0x{data[err.start]:02x} "
                                             f"at column {column}") from None
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


_ENTRY_AT = re.compile(r"^\[(?P<section>[^\]]*)\] entry (?P<number>\d+): ")
_UNKNOWN_SECTION = re.compile(r"^unknown section \[(?P<section>[^\]]*)\]; expected (?P<known>.*)$")
_UNKNOWN_CARD = re.compile(r"^unknown card (?P<card>(?:'.*'|\".*\"))$")


def entry_lines(text: str) -> dict[tuple[str, int], int]:
    """Where each entry of a text deck list stands in its file: (section key, entry number as
    entry_problems counts them, from 1) -> line number; (section key, 0) -> the line of the
    section's first header. A deck check reports entries by section and position because the
    DeckList keeps no line numbers; this maps them back to the line a person edits. `text` must
    be one parse_decklist accepted: lines it would refuse are skipped, not reported."""
    where: dict[tuple[str, int], int] = {}
    counts: dict[str, int] = {}
    current: str | None = None
    for number, raw in enumerate(_LINE_BREAK.split(text.removeprefix(BOM)), start=1):
        line = _COMMENT.sub("", raw).strip()
        if not line or _NAME.match(line):
            continue
        if header := _HEADER.match(line):
            current = " ".join(header.group(1).split()).lower()
            where.setdefault((current, 0), number)
        elif current is not None:
            counts[current] = counts.get(current, 0) + 1
            where[current, counts[current]] = number
    return where


def read_entry_problem(reason: str) -> tuple[str, str, int, str] | None:
    """An entry_problems reason read back as (kind, section key, entry number, detail): kind
    "section" (entry number 0, detail the expected sections as listed), "card" (detail the card
    as written) or "entry" (any other problem of one entry, detail the rest of the reason); None
    for reasons entry_problems does not write. Kept beside entry_problems so the wording and
    its reading change together; callers use it to point at lines and to suggest fixes."""
    if found := _UNKNOWN_SECTION.match(reason):
        return "section", found["section"], 0, found["known"]
    if not (at := _ENTRY_AT.match(reason)):
        return None
    rest = reason[at.end():]
    if card := _UNKNOWN_CARD.match(rest):
        return "card", at["section"], int(at["number"]), _unquoted(card["card"])
    return "entry", at["section"], int(at["number"]), rest


def _unquoted(written: str) -> str:
    """The card of an `unknown card {card!r}` reason as it was before repr quoted it."""
    try:
        value = ast.literal_eval(written)
    except (ValueError, SyntaxError):
        return written[1:-1]
    return value if isinstance(value, str) else written[1:-1]
