"""One verdict over every rule a deck list answers to: the game's construction rules (the kit's
check_deck) and the charge cap of the table in force (pipeline.charges), for `postgame deck
check`, `postgame charges --deck` and the app's deck checker alike.

Why one function: each place used to judge part of a deck (the charges check knew only the cap,
so a 51-card deck with five copies of a card was "legal" there, and an unknown card read as over
the cap). Here the construction problems come first, the ones that make the rest meaningless
first of all (a section typo, an unknown card, a deck of another game), each with the line of the
file it comes from when that is known; then the cap, or a plain note saying why it could not be
checked. Nothing here prints or exits: the callers word the command line and the page.
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import msgspec

from engine import registry
from engine.decklist import entry_lines, load_decklist, read_entry_problem
from engine.games import get_game
from engine.ruleset import DeckError
from events.base import DeckList

NO_CHARGES = "no charge table given"
"""The cap note when the caller gives no way to a charge table (no lake)."""
SUGGESTIONS = 3


@dataclass(frozen=True)
class Problem:
    rule: str
    reason: str
    line: int | None = None
    """The line of the deck file the problem comes from, when it can be told."""


@dataclass(frozen=True)
class DeckVerdict:
    """Every rule a deck breaks and its charge against the cap: `charge` is the
    pipeline.charges.DeckCharge when the cap was checked, else None and `cap_note` says why."""

    game: str
    deck: str
    problems: list[Problem]
    charge: Any
    cap_note: str

    @property
    def legal(self) -> bool:
        return not self.problems

    @property
    def cap_checked(self) -> bool:
        return self.charge is not None

    def as_json(self) -> dict[str, Any]:
        charge = None
        if self.charge is not None:
            charge = {key: value for key, value in msgspec.to_builtins(self.charge).items()
                      if key not in ("legal", "problems")}
        return {"game": self.game, "deck": self.deck, "legal": self.legal,
                "problems": [{"rule": p.rule, "reason": p.reason, "line": p.line}
                             for p in self.problems],
                "charge": charge, "cap_checked": self.cap_checked, "cap_note": self.cap_note}

    def text(self, source: str) -> list[str]:
        """The verdict as lines: the verdict, every problem, then the charge."""
        what = f"{source}, {_title(self.game)} deck" + (f" {self.deck!r}" if self.deck else "")
        count = len(self.problems)
        head = "legal" if self.legal else f"not legal: {count} problem{'s' * (count != 1)}"
        lines = [f"{head} ({what})"]
        lines += [f"  {p.rule}: {p.reason}" + (f" (line {p.line})" if p.line else "")
                  for p in self.problems]
        return [*lines, self.charge_line()]

    def charge_line(self) -> str:
        if self.charge is None:
            return f"charge cap not checked: {self.cap_note}"
        result = self.charge
        where = "within the cap" if result.within_cap else "over the cap"
        return (f"charge {result.charge} / cap {result.cap}: {where} ({result.game} "
                f"{result.format}, table of epoch {result.table.epoch})")


def read_deck_file(path: Path) -> tuple[DeckList, dict[tuple[str, int], int] | None]:
    """The deck list in `path` and where its entries stand (engine.decklist.entry_lines; None
    for the JSON form, which has no lines of entries). DeckListError names a bad line."""
    deck = load_decklist(path)
    text = path.read_bytes().decode("utf-8")
    return deck, deck_lines(text, json=path.suffix.lower() == ".json")


def deck_lines(text: str, json: bool = False) -> dict[tuple[str, int], int] | None:
    """entry_lines of a deck list's text; None for the JSON form (as load_decklist tells it)."""
    return None if json or text.lstrip("\ufeff").lstrip().startswith("{") else entry_lines(text)


def judge_deck(game: str, deck: DeckList, *, lines: dict[tuple[str, int], int] | None = None,
               charges: Callable[[], Any] | None = None, when: date | str | None = None,
               no_charges: str = NO_CHARGES) -> DeckVerdict:
    """The one verdict on `deck` as a deck of `game`. `charges` gives the season of the table
    in force (pipeline.charges.compute_charges), called only when needed; a game or format
    without charges, or a lake without tournaments, is a note, not an error. An unknown
    tournament in `when` raises ChargeError: the person asked for a table that is not there."""
    catalog = _catalog(game)
    construction = _construction(game, deck)
    unknown_sections = [(rule, r) for rule, r in construction
                        if (read := read_entry_problem(r)) and read[0] == "section"]
    other = _other_game(game, deck, catalog) if unknown_sections else None
    if other is not None:
        problems = [Problem(unknown_sections[0][0], other)]
        return DeckVerdict(game, deck.name, problems, None, "the charge could not be computed: "
                           f"not {_a(_title(game))} deck")
    problems = _located(construction, deck, lines or {}, catalog)
    charge, note = _charge(deck, construction, charges, when, no_charges)
    if charge is not None:
        # the cap is the whole deck's; only a card outside the pool (CH-2.9) has a line
        problems += [Problem(rule, reason, _mentioned(reason, deck, lines or {}, catalog)
                             if rule == "CH-2.9" else None)
                     for rule, reason in charge.problems]
    return DeckVerdict(game, deck.name, problems, charge, note)


def _construction(game: str, deck: DeckList) -> list[tuple[str, str]]:
    try:
        return list(get_game(game).check_deck(deck))
    except DeckError as err:
        return list(err.problems)


def _catalog(game: str) -> Any:
    """The game's card catalog (its kit's `card_catalog`: `find` and `by_id`), for suggestions,
    lines and telling a deck of another game; None for a game without one (still judged, only
    without "did you mean" suggestions)."""
    if not registry.is_registered(game):
        return None
    load = get_game(game).card_catalog
    return load() if load is not None else None


def _title(game: str) -> str:
    return registry.info(game).title if registry.is_registered(game) else game


def _a(title: str) -> str:
    return f"{'an' if title[:1].lower() in 'aeiou' else 'a'} {title}"


def _names(deck: DeckList) -> list[str]:
    return list(dict.fromkeys(e.card.strip() for entries in deck.sections.values()
                              for e in entries))


def _other_game(game: str, deck: DeckList, catalog: Any) -> str | None:
    """"this looks like a Vitorian Wars deck, not an Eredan iTCG one" when most names are unknown
    to `game` (its sections are not the game's already) and another game's catalog knows most:
    one line instead of an error per card of a list given to the wrong game."""
    names = _names(deck)
    if catalog is None or not names:
        return None
    unknown = [n for n in names if catalog.find(n) is None]
    if 2 * len(unknown) <= len(names):
        return None
    for other in registry.known_games():
        theirs = None if other == game else _catalog(other)
        if theirs is None:
            continue
        known = sum(1 for n in names if theirs.find(n) is not None)
        if 2 * known > len(names):
            mine = _title(game)
            return (f"this looks like {_a(_title(other))} deck, not {_a(mine)} one "
                    f"({len(unknown)} of {len(names)} cards are unknown to {mine}, and its "
                    f"sections {', '.join(f'[{s}]' for s in deck.sections)} are not the game's)")
    return None


def _located(construction: list[tuple[str, str]], deck: DeckList,
             lines: dict[tuple[str, int], int], catalog: Any) -> list[Problem]:
    """The construction problems with suggestions and lines, those that cause others first:
    unknown sections (a "[Maneuvre]" empties the Maneuver Deck), then unknown cards, then the
    rest in the game's own order."""
    first: list[Problem] = []
    cards: list[Problem] = []
    rest: list[Problem] = []
    for rule, reason in construction:
        read = read_entry_problem(reason)
        if read is None:
            rest.append(Problem(rule, reason, _mentioned(reason, deck, lines, catalog)))
            continue
        kind, section, number, detail = read
        line = lines.get((section, number))
        if kind == "section":
            known = [s.strip() for s in detail.split(",")]
            first.append(Problem(rule, reason + _did_you_mean(section, known, "[{}]"), line))
        elif kind == "card":
            names = [c.name for c in catalog.by_id.values()] if catalog is not None else []
            cards.append(Problem(rule, reason + _did_you_mean(detail, names, "{}"), line))
        else:
            rest.append(Problem(rule, reason, line))
    return first + cards + rest


def _did_you_mean(written: str, known: Iterable[str], form: str) -> str:
    """"; did you mean X?" from the closest of `known` (difflib, case-insensitive), or ""."""
    folded = {k.casefold(): k for k in known}
    close = difflib.get_close_matches(written.casefold(), list(folded), n=SUGGESTIONS)
    if not close:
        return ""
    return "; did you mean " + " or ".join(form.format(folded[c]) for c in close) + "?"


def _mentioned(reason: str, deck: DeckList, lines: dict[tuple[str, int], int],
               catalog: Any) -> int | None:
    """The line of the entry whose card `reason` names first (by ID or by name); None when it
    names none, or the deck has no lines (JSON)."""
    best: tuple[int, int, int] | None = None  # (position, -length, line)
    for section, entries in deck.sections.items():
        for number, entry in enumerate(entries, start=1):
            line = lines.get((section, number))
            if line is None:
                continue
            for token in _tokens(entry.card, catalog):
                found = re.search(rf"(?<!\w){re.escape(token)}(?!\w)", reason, re.IGNORECASE)
                if found:
                    key = (found.start(), -len(token), line)
                    best = key if best is None or key < best else best
    return best[2] if best else None


def _tokens(written: str, catalog: Any) -> list[str]:
    card = catalog.find(written.strip()) if catalog is not None else None
    return [written.strip()] + ([card.id, card.name] if card is not None else [])


def _charge(deck: DeckList, construction: list[tuple[str, str]],
            charges: Callable[[], Any] | None, when: date | str | None,
            no_charges: str) -> tuple[Any, str]:
    """The deck's DeckCharge and the cap note, or None and why the cap could not be checked."""
    from pipeline.charges import NoTournaments, NotSupported, UnknownFormat

    if charges is None:
        return None, no_charges
    try:
        season = charges()
    except (UnknownFormat, NotSupported, NoTournaments) as err:
        return None, str(err)
    charged = season.settings.sections
    blocking = []
    for _, reason in construction:
        read = read_entry_problem(reason)
        if read is None:
            continue
        if read[0] == "section":
            blocking.append(f"unknown section [{read[1]}]")
        elif read[0] == "card" and (not charged or read[1] in charged):
            blocking.append(f"unknown card {read[3]!r}")
    if blocking:
        return None, f"the charge could not be computed: {', '.join(blocking)}"
    result = season.check(deck, when)
    return result, (f"checked against the cap of {result.cap} in the table of epoch "
                    f"{result.table.epoch}")

