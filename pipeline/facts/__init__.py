"""Fact extractors: replay visitors that turn one verified log into rows of the lake's tables.

One extractor per game, registered by import reference ("module:Class") so a worker process loads
only the games it meets, and Eredan plugs in with one line. An extractor is built per log with
the header, the resolved ruleset and what ingest knows of the file (LogMeta); it is fed by
engine.replay.replay_log and then hands its rows over, as tuples in pipeline.schema column order.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Any

from engine.replay import ReplayVisitor
from engine.ruleset import Ruleset
from events.base import Header

EXTRACTORS: dict[str, str] = {"vitorian": "pipeline.facts.vitorian:VitorianFacts",
                              "eredan": "pipeline.facts.eredan:EredanFacts"}

Rows = dict[str, list[tuple[Any, ...]]]
"""table -> rows, each a tuple of the table's columns in pipeline.schema order."""


class NoExtractor(ValueError):
    """The lake has no fact tables for this game yet."""

    def __init__(self, game: str) -> None:
        super().__init__(f"no fact extractor for game {game!r} (known: "
                         f"{', '.join(sorted(EXTRACTORS))})")
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


class FactVisitor(ReplayVisitor):
    """The base of every game's extractor: the match-level columns every game shares."""

    def __init__(self, header: Header, ruleset: Ruleset, meta: LogMeta) -> None:
        self.header, self.ruleset, self.meta = header, ruleset, meta
        self.match_id = header.match_id
        self.game = header.game
        self.started_at = utc(header.started_at)
        self.month = self.started_at.strftime("%Y-%m") if self.started_at else "unknown"
        self.rows: Rows = {"matches": [], "seats": [], "deck_cards": [], "card_events": []}

    def match_row(self, first: int | None, winner: int | None, reason: str, rule: str,
                  turns: int, events: int) -> tuple[Any, ...]:
        h, meta = self.header, self.meta
        return (self.match_id, self.game, self.month, self.ruleset.name, self.ruleset.version,
                h.tournament, h.format, h.round, h.table, self.started_at, h.seed, first,
                winner, reason, rule, turns, events, meta.content_hash, meta.log_path,
                meta.batch, meta.ingested_at)


def utc(moment: datetime | None) -> datetime | None:
    """Header times without a zone are taken as UTC, the recorder's convention."""
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


@cache
def extractor_for(game: str) -> type[FactVisitor]:
    """The extractor class of a game; NoExtractor if the lake does not cover it."""
    if game not in EXTRACTORS:
        raise NoExtractor(game)
    module, _, name = EXTRACTORS[game].partition(":")
    cls: type[FactVisitor] = getattr(importlib.import_module(module), name)
    return cls
