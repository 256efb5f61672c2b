"""Fact extractors: replay visitors that turn one verified log into rows of the lake's tables.

One extractor per game, the "facts" layer of its registration (engine.registry), an import
reference ("module:Class"), so a worker process loads only the games it meets. An extractor is built per log with
the header, the resolved ruleset and what ingest knows of the file (LogMeta); it is fed by
engine.replay.replay_log and then hands its rows over, as tuples in pipeline.schema column order.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from engine import registry
from engine.replay import ReplayVisitor
from engine.ruleset import Outcome, Ruleset
from events.base import Header

Rows = dict[str, list[tuple[Any, ...]]]
"""table -> rows, each a tuple of the table's columns in pipeline.schema order."""
DeckLines = tuple[tuple[str, str, str, int], ...]
"""((section, card id, card name, copies), ...): a deck list as deck_cards stores it."""


class NoExtractor(ValueError):
    """The lake has no fact tables for this game yet."""

    def __init__(self, game: str) -> None:
        super().__init__(f"no fact extractor for game {game!r} (known: "
                         f"{', '.join(registry.games_with('facts'))})")
        self.game = game


class Unfinished(ValueError):
    """The log stops before the match ends: it has no result to count, so it is not a fact."""


@dataclass(frozen=True)
class LogMeta:
    """What ingest knows of a log beyond its header: its identity and the batch writing it."""

    content_hash: str
    log_path: str
    """Absolute, so viewers can open the log the lake lists for a match."""
    batch: str
    ingested_at: datetime
    head: str | None = None
    """The hash of the log's last record (its anchor), hex."""
    signed_by: str | None = None
    """The key whose signatures ingest checked (--key), hex id; None: none checked."""


class FactVisitor(ReplayVisitor):
    """The base of every game's extractor: the match-level columns every game shares."""

    def __init__(self, header: Header, ruleset: Ruleset, meta: LogMeta) -> None:
        self.header, self.ruleset, self.meta = header, ruleset, meta
        self.match_id = header.match_id
        self.game = header.game
        self.started_at = utc(header.started_at)
        self.month = self.started_at.strftime("%Y-%m") if self.started_at else "unknown"
        self.rows: Rows = {"matches": [], "seats": [], "deck_cards": [], "card_events": []}
        self.card_events = self.rows["card_events"]
        self.turn = 0
        """The turn so far, stamped on card events."""
        self.events = 0
        """The seq of the last event replayed (matches.events)."""

    def deck_rows(self, seat: int, deck_id: str, lines: DeckLines) -> None:
        """A seat's deck list as deck_cards rows."""
        self.rows["deck_cards"].extend(
            (self.match_id, self.game, self.month, seat, deck_id, section, card, name, copies)
            for section, card, name, copies in lines)

    def card_event(self, seq: int, seat: int | None, card: str, kind: str,
                   target: str | None = None, amount: int | None = None) -> None:
        self.card_events.append((self.match_id, self.game, self.month, seq, self.turn, seat,
                                 card, kind, target, amount))

    def finish(self, outcome: Outcome | None, first: int, turns: int) -> int | None:
        """The matches row of a finished match; its first seat (None: none was chosen). A log
        with no outcome raises Unfinished."""
        if outcome is None:
            raise Unfinished(f"the log stops before the match ends (after event {self.events}, "
                             f"turn {turns})")
        seat = first if first >= 0 else None
        self.rows["matches"].append(self.match_row(seat, outcome.winner, outcome.reason,
                                                   outcome.rule, turns, self.events))
        return seat

    def match_row(self, first: int | None, winner: int | None, reason: str, rule: str,
                  turns: int, events: int) -> tuple[Any, ...]:
        h, meta = self.header, self.meta
        return (self.match_id, self.game, self.month, self.ruleset.name, self.ruleset.version,
                h.tournament, h.format, h.round, h.table, self.started_at, h.seed, first,
                winner, reason, rule, turns, events, meta.content_hash, meta.log_path,
                meta.head, meta.signed_by, meta.batch, meta.ingested_at)


def seat_result(winner: int | None, seat: int) -> str:
    """seats.result: win, loss, or draw when the match has no winner."""
    return "draw" if winner is None else "win" if winner == seat else "loss"


def deck_lines(deck: Any, sections: Iterable[str], name_of: Callable[[str], str]
               ) -> tuple[str, DeckLines]:
    """A resolved deck list's id and lines. deck_id hashes the resolved list (catalog ids,
    sections, copies; not its name, nor the order of its lines), so the same list gets the same
    id whoever wrote it and however."""
    lines = tuple((section, entry.card, name_of(entry.card), entry.count)
                  for section in sections for entry in deck.section(section))
    canonical = "\n".join(f"{s}\t{card}\t{n}" for s, card, _, n in sorted(lines))
    return hashlib.blake2b(canonical.encode(), digest_size=8).hexdigest(), lines


def utc(moment: datetime | None) -> datetime | None:
    """Header times without a zone are taken as UTC, the recorder's convention."""
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def extractor_for(game: str) -> type[FactVisitor]:
    """The extractor class of a game; NoExtractor if the lake does not cover it."""
    if not registry.has_layer(game, "facts"):
        raise NoExtractor(game)
    cls: type[FactVisitor] = registry.layer(game, "facts")
    return cls
