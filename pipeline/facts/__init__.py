"""Fact extractors: replay visitors that turn one verified log into rows of the lake's tables
(pipeline.schema: the core tables, those of the game's capabilities, and its own).

One extractor per game, the "facts" layer of its registration (engine.registry), an import
reference ("module:Class"), so a worker process loads only the games it meets. An extractor is built per log with
the header, the resolved ruleset and what ingest knows of the file (LogMeta); it is fed by
engine.replay.replay_log and then hands its rows over, as tuples in pipeline.schema column order.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, ClassVar

import msgspec
import pyarrow as pa

from engine import registry
from engine.replay import ReplayVisitor
from engine.ruleset import DRAW, Outcome, Ruleset
from events.base import Header
from pipeline.schema import game_tables

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
    """The base of every game's extractor: the rows of the core tables (matches, seats) and of
    the capability tables (decks, deck_cards, card_events), in pipeline.schema column order.

    A game's own tables are declared on its extractor: TABLES maps a name to a schema starting
    with match_id, game and month; the lake names it `<game>_<name>` (pipeline.schema), and the
    extractor appends its rows to `self.own(name)`."""

    TABLES: ClassVar[dict[str, pa.Schema]] = {}

    def __init__(self, header: Header, ruleset: Ruleset, meta: LogMeta) -> None:
        self.header, self.ruleset, self.meta = header, ruleset, meta
        self.match_id = header.match_id
        self.game = header.game
        self.started_at = utc(header.started_at)
        self.month = self.started_at.strftime("%Y-%m") if self.started_at else "unknown"
        self.rows: Rows = {table: [] for table in game_tables(self.game)}
        self.turn = 0
        """The turn so far, stamped on card events."""
        self.events = 0
        """The seq of the last event replayed (matches.events)."""

    def own(self, name: str) -> list[tuple[Any, ...]]:
        """The rows of one of the game's own tables (TABLES), match_id, game, month first."""
        return self.rows[f"{self.game}_{name}"]

    def deck_rows(self, seat: int, deck_id: str, lines: DeckLines) -> None:
        """A seat's deck list as deck_cards rows."""
        self.rows["deck_cards"].extend(
            (self.match_id, self.game, self.month, seat, deck_id, section, card, name, copies)
            for section, card, name, copies in lines)

    def deck_row(self, seat: int, deck_id: str, deck_name: str | None, faction: str | None,
                 leader: str | None) -> None:
        """A seat's decks row: what its deck is (faction and leader in the game's words)."""
        self.rows["decks"].append((self.match_id, self.game, self.month, seat, deck_id,
                                   deck_name, faction, leader))

    def card_event(self, seq: int, seat: int | None, card: str, kind: str,
                   target: str | None = None, amount: int | None = None) -> None:
        self.rows["card_events"].append((self.match_id, self.game, self.month, seq, self.turn,
                                         seat, card, kind, target, amount))

    def finish(self, outcome: Outcome | None, first: int, turns: int,
               setup_ids: Mapping[int, str] | None = None) -> int | None:
        """The matches row and the seats rows of a finished match; its first seat (None: none
        was chosen). `setup_ids`: each seat's setup id where the game has its own (a deck's
        deck_id), else setup_id(). A log with no outcome raises Unfinished."""
        if outcome is None:
            raise Unfinished(f"the log stops before the match ends (after event {self.events}, "
                             f"turn {turns})")
        seat = first if first >= 0 else None
        self.rows["matches"].append(self.match_row(seat, outcome, turns, self.events))
        self.rows["seats"].extend(self.seat_rows(outcome, seat, setup_ids or {}))
        return seat

    def match_row(self, first: int | None, outcome: Outcome, turns: int,
                  events: int) -> tuple[Any, ...]:
        h, meta = self.header, self.meta
        return (self.match_id, self.game, self.month, self.ruleset.name, self.ruleset.version,
                h.tournament, h.format, h.round, h.table, self.started_at, h.seed,
                scenario_name(h.scenario), first, len(h.seats), is_draw(outcome),
                outcome.side, outcome.reason, outcome.rule, turns, events, meta.content_hash,
                meta.log_path, meta.head, meta.signed_by, meta.batch, meta.ingested_at)

    def seat_rows(self, outcome: Outcome, first: int | None, setup_ids: Mapping[int, str]
                  ) -> list[tuple[Any, ...]]:
        """One seats row per seat of the header, its result the outcome's. An outcome that does
        not give every seat one is an engine error (ValueError), never a guessed result."""
        seats = self.header.seats
        if len(outcome.results) != len(seats):
            raise ValueError(f"the outcome gives {len(outcome.results)} results for "
                             f"{len(seats)} seats")
        return [(self.match_id, self.game, self.month, s.seat, s.player, s.side, s.role,
                 setup_ids.get(s.seat) or setup_id(s.setup), setup_name(s.setup),
                 s.seat == first, outcome.results[s.seat]) for s in seats]


def is_draw(outcome: Outcome) -> bool:
    """matches.is_draw: every seat drew (an outcome mixing draws with wins or losses is not a
    draw; the audit results_consistent then says what is wrong)."""
    return bool(outcome.results) and all(result == DRAW for result in outcome.results)


def setup_id(setup: Any) -> str:
    """A setup's id when its game gives none: the hash of its encoded form (msgpack, fields in
    declaration order), so the same setup gets the same id."""
    return hashlib.blake2b(msgspec.msgpack.encode(setup), digest_size=8).hexdigest()


def setup_name(setup: Any) -> str | None:
    """The name a setup is given (a deck list's name, a character's), if it has one."""
    name = getattr(setup, "name", None)
    return name if isinstance(name, str) else None


def scenario_name(scenario: Any) -> str | None:
    """matches.scenario: the name of the header's scenario block, if it has one."""
    name = scenario.get("name") if isinstance(scenario, dict) else getattr(scenario, "name", None)
    return name if isinstance(name, str) else None


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
